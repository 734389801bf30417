package otel

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/sinks"
)

// The OTLP protocols the sink speaks.
const (
	ProtocolGRPC         = "grpc"
	ProtocolHTTPProtobuf = "http/protobuf"
)

// defaultTimeout is the OTLP specification's default export timeout.
const defaultTimeout = 10 * time.Second

// Config overrides the standard OTEL_EXPORTER_OTLP_* variables; the zero
// value uses the environment alone. YAML keys are in the tags.
type Config struct {
	// Endpoint is the receiver's URL (http:// or https://). For
	// http/protobuf a URL without a path gets "/v1/logs"; otherwise the path
	// is used as is, like OTEL_EXPORTER_OTLP_LOGS_ENDPOINT.
	Endpoint string `yaml:"endpoint"`
	// Protocol is "grpc" or "http/protobuf".
	Protocol string `yaml:"protocol"`
	// Headers are sent with every export request (gRPC metadata or HTTP
	// headers), replacing OTEL_EXPORTER_OTLP_HEADERS. Their values are
	// treated as secrets.
	Headers map[string]string `yaml:"headers"`
	// Insecure disables TLS even for an endpoint given without a scheme;
	// false leaves the decision to the endpoint's scheme and
	// OTEL_EXPORTER_OTLP_INSECURE.
	Insecure bool `yaml:"insecure"`
	// Timeout bounds one Send; zero means OTEL_EXPORTER_OTLP_TIMEOUT or 10s.
	Timeout time.Duration `yaml:"timeout"`
	// Now is the clock for observed timestamps; nil means time.Now.
	Now func() time.Time `yaml:"-"`
}

// UnmarshalYAML decodes the sink's keys strictly: an unknown key is an
// error that names its line. Unset keys stay zero and leave the
// OTEL_EXPORTER_OTLP_* variables in charge.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	type plain Config
	var d plain
	// What decoded is kept with the problems, so checks that follow see
	// the keys that were right.
	err := sinks.DecodeStrict(n, &d)
	*c = Config(d)
	return err
}

// Check validates c against the environment without building the
// exporter, reporting every problem at once.
func (c Config) Check() error {
	_, err := c.resolve()
	return err
}

// settings is a Config resolved against the environment.
type settings struct {
	protocol string
	endpoint string // for error messages: no user info, never a secret
	timeout  time.Duration
	secrets  []string
	tls      *tls.Config // http/protobuf only; nil means the system roots
}

// lookup returns the first of the named variables that is set and not
// empty, with its name.
func lookup(names ...string) (name, value string) {
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok && strings.TrimSpace(v) != "" {
			return n, strings.TrimSpace(v)
		}
	}
	return "", ""
}

// resolve validates c and the variables it leaves in charge, and reports
// every problem at once.
func (c Config) resolve() (settings, error) {
	var s settings
	var errs []error

	s.protocol = c.Protocol
	if s.protocol == "" {
		name, v := lookup("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
		s.protocol = v
		if v != "" && v != ProtocolGRPC && v != ProtocolHTTPProtobuf {
			errs = append(errs, fmt.Errorf("%s: unsupported protocol %q (want %q or %q)", name, v, ProtocolGRPC, ProtocolHTTPProtobuf))
		}
	} else if s.protocol != ProtocolGRPC && s.protocol != ProtocolHTTPProtobuf {
		errs = append(errs, fmt.Errorf("protocol: unsupported protocol %q (want %q or %q)", s.protocol, ProtocolGRPC, ProtocolHTTPProtobuf))
	}
	if s.protocol == "" {
		// The specification's default.
		s.protocol = ProtocolHTTPProtobuf
	}

	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("endpoint: %w", err))
		case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
			errs = append(errs, fmt.Errorf("endpoint: %q is not an http:// or https:// URL with a host", redactURL(u)))
		default:
			s.endpoint = redactURL(u)
			if p, ok := u.User.Password(); ok && p != "" {
				s.secrets = append(s.secrets, p)
			}
		}
	} else {
		s.endpoint = envEndpoint(s.protocol)
	}

	s.timeout = c.Timeout
	if s.timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout: %v is negative", c.Timeout))
	}
	if s.timeout == 0 {
		s.timeout = defaultTimeout
		if name, v := lookup("OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"); v != "" {
			ms, err := strconv.Atoi(v)
			if err != nil || ms <= 0 {
				errs = append(errs, fmt.Errorf("%s: %q is not a positive number of milliseconds", name, v))
			} else {
				s.timeout = time.Duration(ms) * time.Millisecond
			}
		}
	}

	for _, v := range c.Headers {
		s.secrets = append(s.secrets, v)
	}
	if c.Headers == nil {
		name, v := lookup("OTEL_EXPORTER_OTLP_LOGS_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS")
		h, err := parseHeaders(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
		for _, val := range h {
			s.secrets = append(s.secrets, val)
		}
		// The raw (percent-encoded) form may differ from the decoded one.
		for kv := range strings.SplitSeq(v, ",") {
			if _, val, ok := strings.Cut(kv, "="); ok {
				s.secrets = append(s.secrets, strings.TrimSpace(val))
			}
		}
	}

	if s.protocol == ProtocolHTTPProtobuf {
		t, err := envTLS()
		if err != nil {
			errs = append(errs, err)
		}
		s.tls = t
	}
	return s, errors.Join(errs...)
}

// envEndpoint names the receiver the exporter will use, for error messages.
func envEndpoint(protocol string) string {
	_, v := lookup("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
	if v == "" {
		if protocol == ProtocolGRPC {
			return "localhost:4317"
		}
		return "localhost:4318"
	}
	u, err := url.Parse(v)
	if err != nil {
		return "the endpoint in OTEL_EXPORTER_OTLP_ENDPOINT"
	}
	return redactURL(u)
}

// redactURL prints u without its user info, which may hold a password.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// parseHeaders decodes the W3C-baggage-like list of
// OTEL_EXPORTER_OTLP_HEADERS: "k1=v1,k2=v2", values percent-encoded. Errors
// name the key, never the value.
func parseHeaders(s string) (map[string]string, error) {
	h := map[string]string{}
	if s == "" {
		return h, nil
	}
	var errs []error
	for i, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			errs = append(errs, fmt.Errorf("entry %d: want key=value", i+1))
			continue
		}
		dv, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			errs = append(errs, fmt.Errorf("header %q: value is not percent-encoded", k))
			continue
		}
		h[k] = dv
	}
	return h, errors.Join(errs...)
}

// envTLS builds the TLS client configuration of the certificate variables,
// or nil when none is set. The HTTP exporter would read them itself, but
// this sink supplies its own HTTP client (to see response statuses), which
// makes the exporter skip them.
func envTLS() (*tls.Config, error) {
	caName, ca := lookup("OTEL_EXPORTER_OTLP_LOGS_CERTIFICATE", "OTEL_EXPORTER_OTLP_CERTIFICATE")
	certName, cert := lookup("OTEL_EXPORTER_OTLP_LOGS_CLIENT_CERTIFICATE", "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE")
	keyName, key := lookup("OTEL_EXPORTER_OTLP_LOGS_CLIENT_KEY", "OTEL_EXPORTER_OTLP_CLIENT_KEY")
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	var errs []error
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", caName, err))
		} else {
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				errs = append(errs, fmt.Errorf("%s: %s holds no PEM certificate", caName, ca))
			}
			cfg.RootCAs = pool
		}
	}
	switch {
	case cert != "" && key != "":
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s and %s: %w", certName, keyName, err))
		}
		cfg.Certificates = []tls.Certificate{pair}
	case cert != "":
		errs = append(errs, fmt.Errorf("%s is set without OTEL_EXPORTER_OTLP_CLIENT_KEY", certName))
	case key != "":
		errs = append(errs, fmt.Errorf("%s is set without OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", keyName))
	}
	return cfg, errors.Join(errs...)
}
