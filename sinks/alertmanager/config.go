package alertmanager

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/sinks"
)

// Config is the Alertmanager sink's configuration (YAML keys in tags).
type Config struct {
	// URL is Alertmanager's base URL, for example http://alertmanager:9093
	// (a path prefix such as /alertmanager is kept); /api/v2/alerts is
	// appended.
	URL string `yaml:"url"`
	// A bearer token for an authenticating proxy in front of
	// Alertmanager, by value, file or environment variable; optional.
	BearerToken     string `yaml:"bearer_token"`
	BearerTokenFile string `yaml:"bearer_token_file"`
	BearerTokenEnv  string `yaml:"bearer_token_env"`
	// ResolveTimeout is how long after an incident's last hit its alert
	// resolves unless posted again; default 15m. Keep it above the group
	// window: an active incident is re-posted once per window.
	ResolveTimeout time.Duration `yaml:"resolve_timeout"`
	// GeneratorURL, when set, is each alert's link back to its source, for
	// example a log viewer.
	GeneratorURL string `yaml:"generator_url"`
	// Labels are added to every alert (for example cluster: prod-eu). They
	// cannot replace the labels logmatch sets.
	Labels map[string]string `yaml:"labels"`
	// Timeout bounds one request; default 10s.
	Timeout time.Duration `yaml:"timeout"`
	// MinSeverity drops alerts below this severity; run mode applies it
	// where it routes alerts to the sink.
	MinSeverity string `yaml:"min_severity"`
}

// Defaults for unset Config fields.
const (
	DefaultResolveTimeout = 15 * time.Minute
	DefaultTimeout        = 10 * time.Second
)

// DefaultConfig is the configuration a YAML section is decoded onto.
func DefaultConfig() Config {
	return Config{ResolveTimeout: DefaultResolveTimeout, Timeout: DefaultTimeout}
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

// Check validates c and resolves its secret references without building
// the sink, reporting every problem at once, each as "key: message".
func (c Config) Check(opts Options) error {
	_, err := c.resolve(opts)
	return err
}

// labelName is Alertmanager's (Prometheus') label name syntax.
var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

type resolved struct {
	endpoint       string
	token          string
	resolveTimeout time.Duration
	timeout        time.Duration
}

// resolve validates c and reads its secret; it reports every problem at
// once, each naming its key.
func (c Config) resolve(opts Options) (resolved, error) {
	r := resolved{resolveTimeout: c.ResolveTimeout, timeout: c.Timeout}
	var errs []error
	switch {
	case c.URL == "":
		errs = append(errs, errors.New("url: required"))
	case !sinks.IsHTTPURL(c.URL):
		errs = append(errs, errors.New("url: not an absolute http or https URL"))
	default:
		u, _ := url.Parse(c.URL)
		switch {
		case u.User != nil:
			errs = append(errs, errors.New("url: user info is not supported, use bearer_token"))
		case u.RawQuery != "" || u.Fragment != "":
			errs = append(errs, errors.New("url: must not have a query or fragment"))
		default:
			r.endpoint = strings.TrimSuffix(c.URL, "/") + "/api/v2/alerts"
		}
	}
	tok := sinks.SecretRef{Value: c.BearerToken, File: c.BearerTokenFile, Env: c.BearerTokenEnv}
	if tok.IsSet() {
		t, err := tok.ResolveWith("bearer_token", opts.Getenv, opts.ReadFile)
		if err != nil {
			errs = append(errs, err)
		}
		r.token = t
	}
	switch {
	case c.ResolveTimeout == 0:
		r.resolveTimeout = DefaultResolveTimeout
	case c.ResolveTimeout < time.Second:
		errs = append(errs, fmt.Errorf("resolve_timeout: %s is below 1s", c.ResolveTimeout))
	}
	switch {
	case c.Timeout == 0:
		r.timeout = DefaultTimeout
	case c.Timeout < 0:
		errs = append(errs, fmt.Errorf("timeout: %s is negative", c.Timeout))
	}
	if c.GeneratorURL != "" && !sinks.IsHTTPURL(c.GeneratorURL) {
		errs = append(errs, errors.New("generator_url: not an absolute http or https URL"))
	}
	for k, v := range c.Labels {
		switch {
		case !labelName.MatchString(k):
			errs = append(errs, fmt.Errorf("labels: %q is not a valid label name", k))
		case isOwnLabel(k):
			errs = append(errs, fmt.Errorf("labels: %s is set by logmatch and cannot be configured", k))
		case v == "":
			errs = append(errs, fmt.Errorf("labels: %s: empty value", k))
		}
	}
	if _, err := sinks.CheckMinSeverity(c.MinSeverity); err != nil {
		errs = append(errs, err)
	}
	return r, errors.Join(errs...)
}

func isOwnLabel(name string) bool {
	for _, l := range ownLabels {
		if l == name {
			return true
		}
	}
	return false
}
