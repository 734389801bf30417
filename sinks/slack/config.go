package slack

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/sinks"
)

// Config is the Slack sink's configuration (YAML keys in tags). Decoded
// from YAML it starts from DefaultConfig, so a key left out keeps its
// default and a key given as 0 means 0.
type Config struct {
	// The incoming-webhook URL, given by exactly one of url, url_file (read
	// when the sink is built) or url_env (an environment variable name).
	URL     string `yaml:"url"`
	URLFile string `yaml:"url_file"`
	URLEnv  string `yaml:"url_env"`

	// MinSeverity drops alerts below this severity; run mode applies it
	// where it routes alerts to the sink.
	MinSeverity string `yaml:"min_severity"`

	// Channel, Username, IconEmoji and IconURL override the webhook's
	// defaults. Only legacy webhooks honour them; app webhooks post as the
	// app to their own channel and ignore these fields.
	Channel   string `yaml:"channel"`
	Username  string `yaml:"username"`
	IconEmoji string `yaml:"icon_emoji"`
	IconURL   string `yaml:"icon_url"`

	// DigestThreshold: when more alerts than this wait at once, the
	// delivery loop sends them as one digest message instead of one
	// message each; 0 never digests. DefaultConfig has 5.
	DigestThreshold int `yaml:"digest_threshold"`
	// Timeout bounds one request; 0 means DefaultTimeout.
	Timeout time.Duration `yaml:"timeout"`
}

// Defaults of DefaultConfig.
const (
	DefaultDigestThreshold = 5
	DefaultTimeout         = 10 * time.Second
)

// DefaultConfig is the configuration a YAML section is decoded onto.
func DefaultConfig() Config {
	return Config{DigestThreshold: DefaultDigestThreshold, Timeout: DefaultTimeout}
}

// UnmarshalYAML decodes the sink's keys strictly over DefaultConfig: an
// unknown key is an error that names its line.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	type plain Config
	d := plain(DefaultConfig())
	// What decoded is kept with the problems, so checks that follow see
	// the keys that were right.
	err := sinks.DecodeStrict(n, &d)
	*c = Config(d)
	return err
}

// Check validates c and resolves its URL reference without building the
// sink, reporting every problem at once, each as "key: message".
func (c Config) Check(opts Options) error {
	_, err := c.resolve(opts)
	return err
}

type resolved struct {
	url     string
	timeout time.Duration
	digest  int
}

// resolve validates c and reads the URL; it reports every problem at once.
func (c Config) resolve(opts Options) (resolved, error) {
	r := resolved{timeout: c.Timeout, digest: c.DigestThreshold}
	var errs []error
	u, err := sinks.SecretRef{Value: c.URL, File: c.URLFile, Env: c.URLEnv}.ResolveWith("url", opts.Getenv, opts.ReadFile)
	switch {
	case err != nil:
		errs = append(errs, err)
	case !sinks.IsHTTPURL(u):
		// Never echo the URL: its path is the credential.
		errs = append(errs, errors.New("url: not an absolute http or https URL"))
	}
	r.url = u
	if _, err := sinks.CheckMinSeverity(c.MinSeverity); err != nil {
		errs = append(errs, err)
	}
	if c.Channel != "" && !strings.HasPrefix(c.Channel, "#") && !strings.HasPrefix(c.Channel, "@") && !isChannelID(c.Channel) {
		errs = append(errs, fmt.Errorf("channel: %q is not #name, @user or a channel id", c.Channel))
	}
	if c.IconEmoji != "" && (!strings.HasPrefix(c.IconEmoji, ":") || !strings.HasSuffix(c.IconEmoji, ":") || len(c.IconEmoji) < 3) {
		errs = append(errs, fmt.Errorf("icon_emoji: %q is not an emoji code like :rotating_light:", c.IconEmoji))
	}
	if c.IconEmoji != "" && c.IconURL != "" {
		errs = append(errs, errors.New("icon_emoji and icon_url: give only one"))
	}
	if c.IconURL != "" && !sinks.IsHTTPURL(c.IconURL) {
		errs = append(errs, errors.New("icon_url: not an absolute http or https URL"))
	}
	if c.DigestThreshold < 0 {
		errs = append(errs, fmt.Errorf("digest_threshold: %d is negative (0 never digests)", c.DigestThreshold))
	}
	switch {
	case c.Timeout == 0:
		r.timeout = DefaultTimeout
	case c.Timeout < 0:
		errs = append(errs, fmt.Errorf("timeout: %s is negative", c.Timeout))
	}
	return r, errors.Join(errs...)
}

func isChannelID(s string) bool {
	if len(s) < 9 || (s[0] != 'C' && s[0] != 'G' && s[0] != 'D') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
