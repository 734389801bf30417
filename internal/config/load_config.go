package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/logmatch/logmatch/patterns"
)

// Load reads a configuration file's contents (name is used in messages)
// without flags, then fills defaults, resolves secrets and validates, like
// ParseArgs. getenv and readFile resolve *_env and *_file references; pass
// os.Getenv and os.ReadFile outside tests.
func Load(name string, data []byte, getenv func(string) string, readFile func(string) ([]byte, error)) (*Config, error) {
	cfg := Default()
	o := newOrigins()
	ix, errs := decodeFile(name, data, cfg)
	o.ix = ix
	errs = append(errs, finish(cfg, o, getenv, readFile)...)
	sortProblems(name, errs)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return cfg, nil
}

// finish adds the default sink, fills per-sink defaults, resolves secrets
// and validates everything, returning every problem.
func finish(cfg *Config, o *origins, getenv func(string) string, readFile func(string) ([]byte, error)) []error {
	v := &validator{o: o, getenv: getenv, readFile: readFile}
	if len(cfg.Sinks) == 0 {
		_, byFlag := o.flags["sinks"]
		switch {
		case byFlag:
			// Every --sink failed to parse, and each said why already.
		case o.ix != nil && o.ix.has("sinks") && !o.ix.empty("sinks"):
			// The file's sinks did not decode, and the decoder said why.
		case o.ix != nil && o.ix.empty("sinks"):
			v.add("sinks", "no sinks: list at least one, or remove the key for the default stdout sink")
		default:
			cfg.Sinks = []Sink{{Type: SinkStdout}}
		}
	}
	if len(cfg.Paths) == 0 && len(cfg.Command) == 0 {
		// Nothing named to read: act as a filter on standard input.
		cfg.Paths = []string{"-"}
	}
	cfg.Kubernetes = Kubernetes{
		Pod:       getenv("POD_NAME"),
		Namespace: getenv("POD_NAMESPACE"),
		Node:      getenv("NODE_NAME"),
		Container: getenv("CONTAINER_NAME"),
	}
	v.top(cfg)
	names := map[string]string{}
	for i := range cfg.Sinks {
		v.sink(cfg, i, names)
	}
	return v.errs
}

type validator struct {
	o        *origins
	getenv   func(string) string
	readFile func(string) ([]byte, error)
	errs     []error
}

func (v *validator) add(path, format string, args ...any) {
	v.errs = append(v.errs, v.o.errorf(path, format, args...))
}

func (v *validator) oneOf(path, got string, want ...string) {
	for _, w := range want {
		if got == w {
			return
		}
	}
	v.add(path, "unknown value %q (want %s)", got, orList(want))
}

func orList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func (v *validator) positive(path string, d Duration) {
	if d <= 0 {
		v.add(path, "must be more than 0")
	}
}

func (v *validator) notNegative(path string, d Duration) {
	if d < 0 {
		v.add(path, "must not be negative")
	}
}

func (v *validator) atLeast(path string, n, min int) {
	if n < min {
		v.add(path, "must be at least %d, got %d", min, n)
	}
}

func (v *validator) top(c *Config) {
	for i, p := range c.Paths {
		path := fmt.Sprintf("paths[%d]", i)
		switch {
		case p == "":
			v.add(path, "empty path")
		case p == "-":
		default:
			if _, err := filepath.Match(p, ""); err != nil {
				v.add(path, "bad glob %q: %v", p, err)
			}
		}
	}
	v.oneOf("format", c.Format, "auto", "raw", "cri", "docker")
	v.oneOf("start_at", c.StartAt, "beginning", "end")
	for i, p := range c.Catalogs {
		if p == "" {
			v.add(fmt.Sprintf("catalogs[%d]", i), "empty path")
		}
	}
	if c.NoDefaultCatalog && len(c.Catalogs) == 0 {
		v.add("no_default_catalog", "no catalog left: give catalogs (or --catalog) or keep the built-in one")
	}
	if c.StateDir == "" {
		v.add("state_dir", "must not be empty")
	}
	v.notNegative("group_window", c.GroupWindow)
	v.notNegative("repeat_interval", c.RepeatInterval)
	v.notNegative("settle_time", c.SettleTime)
	v.notNegative("correlation_window", c.CorrelationWindow)
	if c.GroupWindow > 0 && c.RepeatInterval > 0 && c.RepeatInterval < c.GroupWindow {
		v.add("repeat_interval", "%s is shorter than group_window %s", c.RepeatInterval, c.GroupWindow)
	}
	if c.HTTPAddr != "" {
		if _, port, err := net.SplitHostPort(c.HTTPAddr); err != nil {
			v.add("http_addr", "want host:port or :port, got %q", c.HTTPAddr)
		} else if n, err := strconv.ParseUint(port, 10, 16); err != nil || (n == 0 && port != "0") {
			v.add("http_addr", "bad port %q", port)
		}
	}
	v.oneOf("log_level", c.LogLevel, "debug", "info", "warn", "error")
	v.oneOf("log_format", c.LogFormat, "text", "json")
	v.positive("shutdown_grace", c.ShutdownGrace)
	v.atLeast("entry.max_lines", c.Entry.MaxLines, 1)
	v.atLeast("entry.max_bytes", c.Entry.MaxBytes, 1024)
	v.positive("entry.idle_flush", c.Entry.IdleFlush)
	v.atLeast("max_line_bytes", c.MaxLineBytes, 1024)
	v.positive("poll_interval", c.PollInterval)
	v.queue("queue", c.Queue)
	v.retry("retry", c.Retry)
	for i, p := range c.Redact.Patterns {
		// The same checks as internal/redact.New, per pattern, so each
		// problem names its index.
		re, err := regexp.Compile(p)
		switch {
		case err != nil:
			v.add(fmt.Sprintf("redact.patterns[%d]", i), "%v", err)
		case re.MatchString(""):
			v.add(fmt.Sprintf("redact.patterns[%d]", i), "matches the empty string")
		}
	}
	if len(c.Command) > 0 && c.Command[0] == "" {
		v.add("command", "empty program name")
	}
}

func (v *validator) queue(path string, q Queue) {
	v.atLeast(path+".max_items", q.MaxItems, 1)
	v.positive(path+".max_age", q.MaxAge)
}

func (v *validator) retry(path string, r Retry) {
	v.atLeast(path+".max_attempts", r.MaxAttempts, 0)
	v.positive(path+".initial_backoff", r.InitialBackoff)
	if r.MaxBackoff < r.InitialBackoff {
		v.add(path+".max_backoff", "%s is shorter than initial_backoff %s", r.MaxBackoff, r.InitialBackoff)
	}
}

// sinkKeys lists the keys each sink type reads besides the common ones.
var sinkKeys = map[string][]string{
	SinkStdout:       {},
	SinkSlack:        {"url", "url_file", "url_env", "digest_threshold", "username", "channel", "timeout"},
	SinkWebhook:      {"url", "url_file", "url_env", "secret", "secret_file", "secret_env", "headers", "timeout"},
	SinkAlertmanager: {"url", "headers", "resolve_timeout", "timeout"},
	SinkOTel:         {"endpoint", "protocol", "headers", "insecure", "timeout"},
}

// commonSinkKeys apply to every sink type.
var commonSinkKeys = []string{"type", "name", "min_severity", "queue", "retry"}

// allSinkKeys is every key a sink may have, in the order of the Sink
// struct.
var allSinkKeys = []string{
	"type", "name", "min_severity", "url", "url_file", "url_env", "secret", "secret_file", "secret_env",
	"headers", "timeout", "digest_threshold", "username", "channel", "resolve_timeout",
	"endpoint", "protocol", "insecure", "queue", "retry",
}

var sinkNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

var headerNameRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

func (v *validator) sink(c *Config, i int, names map[string]string) {
	s := &c.Sinks[i]
	p := fmt.Sprintf("sinks[%d]", i)
	keys, known := sinkKeys[s.Type]
	if !known {
		if s.Type == "" {
			v.add(p+".type", "missing (want stdout, slack, webhook, alertmanager or otel)")
		} else {
			v.add(p+".type", "unknown sink type %q (want stdout, slack, webhook, alertmanager or otel)", s.Type)
		}
		return
	}
	allowed := map[string]bool{}
	for _, k := range append(keys, commonSinkKeys...) {
		allowed[k] = true
	}
	for _, k := range allSinkKeys {
		if !allowed[k] && v.o.set(p+"."+k) {
			v.add(p+"."+k, "not a key of a %s sink", s.Type)
		}
	}
	set := func(k string) bool { return v.o.set(p + "." + k) }

	// Defaults, key by key, for what the sink does not set itself.
	if !set("name") {
		s.Name = s.Type
	}
	if !set("min_severity") {
		s.MinSeverity = patterns.SeverityInfo
		if s.Type == SinkSlack {
			s.MinSeverity = patterns.SeverityError
		}
	}
	if allowed["timeout"] && !set("timeout") {
		s.Timeout = Duration(DefaultSinkTimeout)
	}
	if s.Type == SinkSlack && !set("digest_threshold") {
		s.DigestThreshold = DefaultDigestThresh
	}
	if s.Type == SinkAlertmanager && !set("resolve_timeout") {
		s.ResolveTimeout = Duration(DefaultResolveTimeout)
	}
	if !set("queue.max_items") {
		s.Queue.MaxItems = c.Queue.MaxItems
	}
	if !set("queue.max_age") {
		s.Queue.MaxAge = c.Queue.MaxAge
	}
	if !set("retry.max_attempts") {
		s.Retry.MaxAttempts = c.Retry.MaxAttempts
	}
	if !set("retry.initial_backoff") {
		s.Retry.InitialBackoff = c.Retry.InitialBackoff
	}
	if !set("retry.max_backoff") {
		s.Retry.MaxBackoff = c.Retry.MaxBackoff
	}

	if !sinkNameRE.MatchString(s.Name) {
		v.add(p+".name", "bad sink name %q (letters, digits, '_', '.', '-'; at most 64)", s.Name)
	} else if prev, dup := names[s.Name]; dup {
		v.add(p+".name", "duplicate sink name %q (also %s); give each sink its own name", s.Name, prev)
	} else {
		names[s.Name] = p
	}
	if sev, err := patterns.ParseSeverity(string(s.MinSeverity)); err != nil {
		v.add(p+".min_severity", "%v", err)
	} else {
		s.MinSeverity = sev
	}
	if set("queue.max_items") || set("queue.max_age") || set("queue") {
		v.queue(p+".queue", s.Queue)
	}
	if set("retry.max_attempts") || set("retry.initial_backoff") || set("retry.max_backoff") || set("retry") {
		v.retry(p+".retry", s.Retry)
	}
	if allowed["timeout"] {
		v.positive(p+".timeout", s.Timeout)
	}
	if allowed["headers"] {
		for name := range s.Headers {
			if !headerNameRE.MatchString(name) {
				v.add(p+".headers", "bad header name %q", name)
			}
		}
	}

	switch s.Type {
	case SinkSlack:
		if v.secret(p, s.Type, "url", &s.URL, s.URLFile, s.URLEnv, true) {
			v.httpURL(p+".url", s.URL)
		}
		v.atLeast(p+".digest_threshold", s.DigestThreshold, 0)
	case SinkWebhook:
		if v.secret(p, s.Type, "url", &s.URL, s.URLFile, s.URLEnv, true) {
			v.httpURL(p+".url", s.URL)
		}
		v.secret(p, s.Type, "secret", &s.Secret, s.SecretFile, s.SecretEnv, false)
	case SinkAlertmanager:
		if !s.URL.IsSet() && !set("url") {
			v.add(p+".url", "an alertmanager sink needs url (the Alertmanager base URL)")
		} else {
			v.httpURL(p+".url", s.URL)
		}
		v.positive(p+".resolve_timeout", s.ResolveTimeout)
	case SinkOTel:
		if s.Protocol != "" {
			v.oneOf(p+".protocol", s.Protocol, "grpc", "http/protobuf")
		}
		if set("endpoint") && (s.Endpoint == "" || strings.ContainsAny(s.Endpoint, " \t\r\n")) {
			v.add(p+".endpoint", "want host:port or a URL, got %q", s.Endpoint)
		}
	}
}

// secret resolves key of sink p from its value, key_file or key_env:
// exactly one of them when required, at most one otherwise. It reports
// whether *s now holds what the configuration gave.
func (v *validator) secret(p, typ, key string, s *Secret, file, env string, required bool) bool {
	n := 0
	if s.IsSet() || v.o.set(p+"."+key) {
		n++
	}
	if file != "" {
		n++
	}
	if env != "" {
		n++
	}
	switch {
	case n == 0 && required:
		v.add(p+"."+key, "a %s sink needs %s, %s_file or %s_env", typ, key, key, key)
		return false
	case n > 1:
		v.add(p+"."+key, "%s, %s_file and %s_env exclude each other; set one", key, key, key)
		return false
	}
	switch {
	case file != "":
		b, err := v.readFile(file)
		if err != nil {
			v.errs = append(v.errs, v.o.wrapf(p+"."+key+"_file", err, "read"))
			return false
		}
		val := strings.TrimSpace(string(b))
		if val == "" {
			v.add(p+"."+key+"_file", "file %s is empty", file)
			return false
		}
		*s = NewSecret(val)
	case env != "":
		val := strings.TrimSpace(v.getenv(env))
		if val == "" {
			v.add(p+"."+key+"_env", "environment variable %s is unset or empty", env)
			return false
		}
		*s = NewSecret(val)
	}
	return n == 1
}

// httpURL checks an http(s) URL without ever quoting it: it may hold a
// token.
func (v *validator) httpURL(path string, s Secret) {
	u, err := url.Parse(s.Value())
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		v.add(path, "not an http or https URL")
	}
}
