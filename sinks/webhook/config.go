package webhook

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/sinks"
)

// Config is the webhook sink's configuration (YAML keys in tags). The URL
// and the secret may carry credentials, so each can also be read from a
// file or an environment variable.
type Config struct {
	URL     string `yaml:"url"`
	URLFile string `yaml:"url_file"`
	URLEnv  string `yaml:"url_env"`

	// Secret, when set, signs every body: the X-Logmatch-Signature header
	// is "sha256=" and the hex HMAC-SHA256 of the body under the secret.
	Secret     string `yaml:"secret"`
	SecretFile string `yaml:"secret_file"`
	SecretEnv  string `yaml:"secret_env"`

	// Headers are added to every request, for example an Authorization
	// the receiver needs. Content-Type and the headers logmatch sets
	// itself cannot be overridden.
	Headers map[string]string `yaml:"headers"`
	// Timeout bounds one request; default 10s.
	Timeout time.Duration `yaml:"timeout"`
	// MinSeverity drops alerts below this severity; run mode applies it
	// where it routes alerts to the sink.
	MinSeverity string `yaml:"min_severity"`
}

// DefaultTimeout is Config.Timeout when unset.
const DefaultTimeout = 10 * time.Second

// DefaultConfig is the configuration a YAML section is decoded onto.
func DefaultConfig() Config {
	return Config{Timeout: DefaultTimeout}
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

// reserved are the headers the sink sets itself.
var reserved = []string{"Content-Type", "Content-Length", "Host", SignatureHeader, IdempotencyHeader}

// resolved is a validated Config with its secrets read.
type resolved struct {
	url     string
	secret  []byte
	headers http.Header
	timeout time.Duration
}

// resolve validates c and reads its secrets; it reports every problem at
// once, each naming its key.
func (c Config) resolve(opts Options) (resolved, error) {
	var r resolved
	var errs []error
	u, err := sinks.SecretRef{Value: c.URL, File: c.URLFile, Env: c.URLEnv}.ResolveWith("url", opts.Getenv, opts.ReadFile)
	if err != nil {
		errs = append(errs, err)
	} else if !sinks.IsHTTPURL(u) {
		// The URL itself stays out of the message: it may hold a token.
		errs = append(errs, errors.New("url: not an absolute http or https URL"))
	} else if pu, _ := url.Parse(u); pu.User != nil {
		errs = append(errs, errors.New("url: user info is not supported, use headers"))
	}
	r.url = u

	secret := sinks.SecretRef{Value: c.Secret, File: c.SecretFile, Env: c.SecretEnv}
	if secret.IsSet() {
		s, err := secret.ResolveWith("secret", opts.Getenv, opts.ReadFile)
		if err != nil {
			errs = append(errs, err)
		}
		r.secret = []byte(s)
	}

	r.headers = http.Header{}
	for k, v := range c.Headers {
		switch {
		case !validHeaderName(k):
			errs = append(errs, fmt.Errorf("headers: %q is not a valid header name", k))
		case isReserved(k):
			errs = append(errs, fmt.Errorf("headers: %s is set by logmatch and cannot be configured", http.CanonicalHeaderKey(k)))
		case strings.ContainsAny(v, "\r\n\x00"):
			errs = append(errs, fmt.Errorf("headers: %s: value contains a line break or NUL", http.CanonicalHeaderKey(k)))
		default:
			r.headers.Set(k, v)
		}
	}

	r.timeout = c.Timeout
	switch {
	case c.Timeout < 0:
		errs = append(errs, fmt.Errorf("timeout: %s is negative", c.Timeout))
	case c.Timeout == 0:
		r.timeout = DefaultTimeout
	}
	if _, err := sinks.CheckMinSeverity(c.MinSeverity); err != nil {
		errs = append(errs, err)
	}
	return r, errors.Join(errs...)
}

func isReserved(name string) bool {
	for _, h := range reserved {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// validHeaderName reports whether s is an RFC 9110 token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}
