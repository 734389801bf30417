package slack

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// Config is the Slack sink's configuration (YAML keys in tags).
type Config struct {
	// The incoming-webhook URL, given by exactly one of url, url_file (read
	// when the sink is built) or url_env (an environment variable name).
	URL     string `yaml:"url"`
	URLFile string `yaml:"url_file"`
	URLEnv  string `yaml:"url_env"`

	// MinSeverity drops alerts below this severity; run mode applies it
	// with sinks.MinSeverity.
	MinSeverity string `yaml:"min_severity"`

	// Channel, Username, IconEmoji and IconURL override the webhook's
	// defaults. Only legacy webhooks honour them; app webhooks post as the
	// app to their own channel and ignore these fields.
	Channel   string `yaml:"channel"`
	Username  string `yaml:"username"`
	IconEmoji string `yaml:"icon_emoji"`
	IconURL   string `yaml:"icon_url"`

	// DigestThreshold is the number of waiting alerts from which the
	// delivery loop sends one digest instead of one message per alert
	// (BatchMin); default 5, at least 2.
	DigestThreshold int `yaml:"digest_threshold"`
	// Timeout bounds one request; default 10s.
	Timeout time.Duration `yaml:"timeout"`
}

// Defaults for unset Config fields.
const (
	DefaultDigestThreshold = 5
	DefaultTimeout         = 10 * time.Second
)

type resolved struct {
	url     string
	timeout time.Duration
	digest  int
}

// resolve validates c and reads the URL; it reports every problem at once.
func (c Config) resolve(getenv func(string) string) (resolved, error) {
	r := resolved{timeout: c.Timeout, digest: c.DigestThreshold}
	var errs []error
	u, err := sinks.SecretRef{Value: c.URL, File: c.URLFile, Env: c.URLEnv}.Resolve("url", getenv)
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
	switch {
	case c.DigestThreshold == 0:
		r.digest = DefaultDigestThreshold
	case c.DigestThreshold < 2:
		errs = append(errs, fmt.Errorf("digest_threshold: %d is below 2", c.DigestThreshold))
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
