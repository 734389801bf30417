package config

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/patterns"
)

// Load reads a configuration file's contents (name is used in messages)
// without flags, then fills defaults, resolves secrets and validates, like
// Flags.Load. getenv and readFile resolve *_env and *_file references; pass
// os.Getenv and os.ReadFile outside tests.
func Load(name string, data []byte, getenv func(string) string, readFile func(string) ([]byte, error)) (*Config, error) {
	cfg := Default()
	o := newOrigins()
	ix, errs := decodeFile(name, data, cfg, getenv)
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
	if len(cfg.Paths) == 0 && len(cfg.Command) == 0 && len(cfg.Accept) == 0 {
		// Nothing named to read: act as a filter on standard input.
		cfg.Paths = []string{"-"}
	}
	if !o.set("http_addr") && (len(cfg.Command) > 0 || slices.Equal(cfg.Paths, []string{"-"})) {
		// A pipeline plugin or a wrapped command: nothing probes it, and
		// a second one on the machine would find the default port taken.
		cfg.HTTPAddr = ""
	}
	// Prefixed names only: a generic NODE_NAME or CONTAINER_NAME in the
	// environment of an unrelated shell would label every alert wrongly.
	cfg.Kubernetes = Kubernetes{
		Pod:       getenv(EnvPodName),
		Namespace: getenv(EnvPodNamespace),
		Node:      getenv(EnvNodeName),
		Container: getenv(EnvContainerName),
		Engine:    getenv(EnvEngine),
	}
	if e := cfg.Kubernetes.Engine; e != "" && !engine.Known(e) {
		v.errs = append(v.errs, fmt.Errorf("%s: unknown engine %q (want %s)", EnvEngine, e, orList(engine.Names)))
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
	for i, r := range c.Engines {
		path := fmt.Sprintf("engines[%d]", i)
		v.oneOf(path+".engine", r.Engine, engine.Names...)
		if len(r.Paths) == 0 {
			v.add(path+".paths", "no paths: list the globs this engine writes")
		}
		for j, g := range r.Paths {
			if _, err := filepath.Match(g, ""); err != nil || g == "" {
				v.add(fmt.Sprintf("%s.paths[%d]", path, j), "bad glob %q", g)
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
	v.notNegative("consequence_wait", c.ConsequenceWait)
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
	v.atLeast("http_max_connections", c.HTTPMaxConnections, 4)
	seen := map[string]bool{}
	for i, a := range c.Accept {
		switch {
		case a != AcceptDiagnose && a != AcceptLoki && a != AcceptOTLP && a != AcceptAlertmanager:
			v.add(fmt.Sprintf("accept[%d]", i), "unknown input %q (want %s, %s, %s or %s)", a, AcceptDiagnose, AcceptLoki, AcceptOTLP, AcceptAlertmanager)
		case seen[a]:
			v.add(fmt.Sprintf("accept[%d]", i), "%s given twice", a)
		}
		seen[a] = true
	}
	if len(c.Accept) > 0 && c.HTTPAddr == "" {
		v.add("accept", "the inputs are served on http_addr, which is off: set http_addr (--http-addr)")
	}
	if c.AcceptTokenFile != "" && c.AcceptTokenEnv != "" {
		v.add("accept_token_file", "give only one of accept_token_file or accept_token_env")
	}
	v.atLeast("accept_max_bytes", c.AcceptMaxBytes, 1024)
	v.acceptTLS(c)
	v.acceptLabels(c.AcceptLabels)
	if c.OTLPGRPCAddr != "" {
		if !seen[AcceptOTLP] {
			v.add("otlp_grpc_addr", "OTLP over gRPC is an otlp input: add otlp to accept")
		} else if _, port, err := net.SplitHostPort(c.OTLPGRPCAddr); err != nil {
			v.add("otlp_grpc_addr", "want host:port or :port, got %q", c.OTLPGRPCAddr)
		} else if n, err := strconv.ParseUint(port, 10, 16); err != nil || (n == 0 && port != "0") {
			v.add("otlp_grpc_addr", "bad port %q", port)
		}
	}
	v.positive("http_idle_timeout", c.HTTPIdleTimeout)
	for i, d := range c.RotatedDirs {
		if !filepath.IsAbs(d) {
			v.add(fmt.Sprintf("rotated_dirs[%d]", i), "want an absolute directory, got %q", d)
		}
	}
	switch c.AlertOutput {
	case "", "stdout", "stderr":
	default:
		if !filepath.IsAbs(c.AlertOutput) {
			v.add("alert_output", "want stdout, stderr or an absolute file path, got %q", c.AlertOutput)
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
	v.positive("rescan_interval", c.RescanInterval)
	v.atLeast("max_open_files", c.MaxOpenFiles, 1)
	v.atLeast("max_open_incidents", c.MaxOpenIncidents, 1)
	for i, r := range c.SymlinkRoots {
		if !filepath.IsAbs(r) {
			v.add(fmt.Sprintf("symlink_roots[%d]", i), "want an absolute directory, got %q", r)
		}
	}
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
	if c.ServerVersion != "" {
		if _, err := patterns.ParseVersion(c.ServerVersion); err != nil {
			v.add("server_version", "%v", err)
		}
	}
	v.oneOf("on_fatal", c.OnFatal, OnFatalNone, OnFatalTerminate)
	if c.OnFatal == OnFatalTerminate && len(c.Command) == 0 {
		v.add("on_fatal", "terminate needs a wrapped command (after --)")
	}
}

// acceptTLS checks the TLS files of the inputs: a certificate and its
// key together, a client CA only with them; the files are read when run
// starts, and a bad one stops it there, named.
func (v *validator) acceptTLS(c *Config) {
	switch {
	case c.AcceptTLSCertFile != "" && c.AcceptTLSKeyFile == "":
		v.add("accept_tls_cert_file", "the certificate needs its key: set accept_tls_key_file too")
	case c.AcceptTLSCertFile == "" && c.AcceptTLSKeyFile != "":
		v.add("accept_tls_key_file", "the key needs its certificate: set accept_tls_cert_file too")
	}
	if c.AcceptTLSClientCAFile != "" && c.AcceptTLSCertFile == "" {
		v.add("accept_tls_client_ca_file", "client certificates are verified over TLS: set accept_tls_cert_file and accept_tls_key_file too")
	}
	if c.AcceptTLSCertFile != "" && len(c.Accept) == 0 {
		v.add("accept_tls_cert_file", "TLS serves the network inputs, and none is accepted: set accept (--accept)")
	}
}

// acceptLabels checks the label names of accept_labels: plain names, each
// in one list only.
func (v *validator) acceptLabels(l AcceptLabels) {
	seen := map[string]string{}
	for _, f := range []struct {
		key   string
		names []string
	}{{"pod", l.Pod}, {"namespace", l.Namespace}, {"container", l.Container}, {"extra", l.Extra}} {
		for i, n := range f.names {
			path := fmt.Sprintf("accept_labels.%s[%d]", f.key, i)
			norm := strings.ReplaceAll(n, ".", "_")
			switch {
			case !labelName.MatchString(norm):
				v.add(path, "%q is not a label name (letters, digits, _ and ., not starting with a digit, at most 128)", n)
			case seen[norm] != "":
				v.add(path, "%q is already %s", n, seen[norm])
			default:
				seen[norm] = path
			}
		}
	}
}

// labelName is a Loki label name, or an OTLP attribute name once its dots
// are underscores.
var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,127}$`)

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
