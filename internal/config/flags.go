package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/spf13/pflag"

	"github.com/logmatch/logmatch/sinks/otel"
)

// Flags are the command-line settings of `logmatch run`, bound to a
// FlagSet by RegisterFlags. A flag overrides the file's key; a repeatable
// flag (--path, --catalog, --sink) replaces the file's whole list rather
// than appending to it, so the command line alone says exactly what runs.
type Flags struct {
	fs               *pflag.FlagSet
	config           string
	paths            listFlag
	catalogs         listFlag
	sinks            listFlag
	noDefaultCatalog bool
	stateDir         string
	startAt          string
	format           string
	groupWindow      string
	repeatInterval   string
	settleTime       string
	correlation      string
	consequenceWait  string
	httpAddr         string
	logFormat        string
	logLevel         string
	onFatal          string
	serverVersion    string
	alertOutput      string
	accept           listFlag
	// envDone is set once fromEnv ran; fromEnvNames maps each flag it set
	// ("--path") to its variable ("LOGMATCH_PATH").
	envDone      bool
	fromEnvNames map[string]string
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// Type names the value in help: pflag shows it after the flag.
func (l *listFlag) Type() string { return "stringArray" }

// RegisterFlags defines logmatch's configuration flags on fs. After
// fs.Parse, Flags.Load builds the configuration; fs.Args() (what follows
// "--") is the command to wrap.
func RegisterFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{fs: fs}
	fs.StringVar(&f.config, "config", "", "configuration `file` (YAML; see logmatch config --print-defaults)")
	fs.Var(&f.paths, "path", "log file `glob` to follow, - for stdin (repeatable; replaces the file's paths)")
	fs.Var(&f.catalogs, "catalog", "catalog file or directory `path` (repeatable; replaces the file's catalogs)")
	fs.BoolVar(&f.noDefaultCatalog, "no-default-catalog", false, "leave out the built-in catalog")
	fs.StringVar(&f.stateDir, "state-dir", "", "`dir`ectory for checkpoints and undelivered alerts (default "+DefaultStateDir+")")
	fs.StringVar(&f.startAt, "start-at", "", "where to start a file without a checkpoint: beginning or end (default "+DefaultStartAt+")")
	fs.StringVar(&f.format, "format", "", "line framing: auto, raw, cri or docker (default "+DefaultFormat+")")
	fs.Var(&f.sinks, "sink", "alert sink `spec` [NAME:]TYPE[=VALUE]: stdout, slack=URL, webhook=URL, alertmanager=URL, otel,\notel=grpc://HOST:4317 or otel=http://HOST:4318; NAME tells two sinks of a type apart\n(repeatable; replaces the file's sinks; prefer url_file in the file for secrets)")
	fs.StringVar(&f.groupWindow, "group-window", "", "`duration` repeats of an incident are grouped, 0 = off (default 5m)")
	fs.StringVar(&f.repeatInterval, "repeat-interval", "", "`duration` between reminders of an ongoing incident, 0 = off (default 4h)")
	fs.StringVar(&f.settleTime, "settle-time", "", "`duration` the first alert of an incident waits for the rest of the burst, 0 = at once (default 2s)")
	fs.StringVar(&f.correlation, "correlation-window", "", "`duration` after a root cause in which consequences on the same pod or node fold into it, 0 = off (default 15m)")
	fs.StringVar(&f.consequenceWait, "consequence-wait", "", "`duration` an incident made only of consequences (a failed health check) waits for its cause before it is alerted alone, 0 = the settle time (default 30s)")
	fs.StringVar(&f.httpAddr, "http-addr", "", "metrics and health `address`, empty = off (default "+DefaultHTTPAddr+"; off when reading stdin or wrapping a command)")
	fs.Var(&f.accept, "accept", "network `input`s to serve on --http-addr: diagnose, loki, otlp, alertmanager (comma-separated or repeatable; replaces the file's accept)")
	fs.StringVar(&f.logFormat, "log-format", "", "logmatch's own log format: text or json (default "+DefaultLogFormat+")")
	fs.StringVar(&f.logLevel, "log-level", "", "debug, info, warn or error (default "+DefaultLogLevel+")")
	fs.StringVar(&f.serverVersion, "server-version", "", "the sglang release the server runs (0.5.3): records of other releases only are not matched")
	fs.StringVar(&f.onFatal, "on-fatal", "", "on a gating failure: none, or terminate the wrapped command (default "+DefaultOnFatal+")")
	fs.StringVar(&f.alertOutput, "alert-output", "", "where the stdout sink writes: stdout, stderr or a file `path` (default stdout; stderr with a wrapped command)")
	return f
}

// Load builds the configuration from the --config file (if any) and the
// flags set on the command line; the FlagSet must have been parsed.
func (f *Flags) Load(getenv func(string) string, readFile func(string) ([]byte, error)) (*Config, error) {
	c := f.Check(getenv, readFile)
	if len(c.Problems) > 0 {
		return nil, errors.Join(c.Problems...)
	}
	return c.Config, nil
}

// Checked is a configuration as far as it loads, with every problem, for
// logmatch validate: it reports the problems and still checks what the
// settings that did load name (catalogs, globs, the wrapped command).
type Checked struct {
	// Config is never nil: the settings of the file and the flags that
	// loaded, defaults for the rest. Loaded says which keys to trust.
	Config *Config
	// Problems are every problem, as Load joins them: those of the file
	// by line, each "file:line: key: message".
	Problems []error
	origins  *origins
	parsed   bool     // no --config, or it was read and is a mapping of settings
	keys     []string // the key paths the problems are about
}

// Loaded reports whether the top-level key (catalogs, paths, state_dir,
// ...) holds what the file and the flags say: nothing is wrong under it,
// and it is set by a flag, or the file parsed (a key the file does not set
// keeps its default).
func (c *Checked) Loaded(key string) bool {
	for _, k := range c.keys {
		if k == key || strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[") {
			return false
		}
	}
	if _, byFlag := c.origins.flags[key]; byFlag {
		return true
	}
	return c.parsed
}

// Check is Load for logmatch validate: it returns what loaded besides
// every problem, instead of nothing.
func (f *Flags) Check(getenv func(string) string, readFile func(string) ([]byte, error)) *Checked {
	cfg := Default()
	o := newOrigins()
	parsed := true
	var errs []error
	before := f.fs.NArg()
	if at := f.fs.ArgsLenAtDash(); at >= 0 {
		before = at
	}
	if before > 0 {
		errs = append(errs, fmt.Errorf("unexpected argument %q: a command to wrap goes after --", f.fs.Arg(0)))
	}
	errs = append(errs, f.fromEnv(getenv)...)
	if f.config != "" {
		data, err := readFile(f.config)
		if err != nil {
			parsed = false
			errs = append(errs, fmt.Errorf("--config: %w", err))
		} else {
			ix, derrs := decodeFile(f.config, data, cfg, getenv)
			o.ix = ix
			parsed = ix.parsed
			errs = append(errs, derrs...)
		}
	}
	errs = append(errs, f.apply(cfg, o)...)
	f.nameEnvOrigins(o)
	errs = append(errs, finish(cfg, o, getenv, readFile)...)
	sortProblems(f.config, errs)
	c := &Checked{Config: cfg, Problems: errs, origins: o, parsed: parsed}
	for _, err := range errs {
		var p *problem
		if errors.As(err, &p) {
			c.keys = append(c.keys, p.key)
		}
	}
	return c
}

// apply copies the flags that were set onto cfg, recording their origin.
func (f *Flags) apply(cfg *Config, o *origins) []error {
	var errs []error
	duration := func(flagName, value string, dst *Duration) {
		d, err := parseDuration(value)
		if err != nil {
			errs = append(errs, keyed(strings.ReplaceAll(flagName, "-", "_"), fmt.Errorf("%s: %w", f.said(flagName), err)))
			return
		}
		*dst = Duration(d)
	}
	f.fs.Visit(func(fl *pflag.Flag) {
		switch fl.Name {
		case "path":
			cfg.Paths = append([]string(nil), f.paths...)
			o.override("paths", "--path")
		case "catalog":
			cfg.Catalogs = append([]string(nil), f.catalogs...)
			o.override("catalogs", "--catalog")
		case "no-default-catalog":
			cfg.NoDefaultCatalog = f.noDefaultCatalog
			o.override("no_default_catalog", "--no-default-catalog")
		case "state-dir":
			cfg.StateDir = f.stateDir
			o.override("state_dir", "--state-dir")
		case "start-at":
			cfg.StartAt = f.startAt
			o.override("start_at", "--start-at")
		case "format":
			cfg.Format = f.format
			o.override("format", "--format")
		case "group-window":
			duration(fl.Name, f.groupWindow, &cfg.GroupWindow)
			o.override("group_window", "--group-window")
		case "repeat-interval":
			duration(fl.Name, f.repeatInterval, &cfg.RepeatInterval)
			o.override("repeat_interval", "--repeat-interval")
		case "settle-time":
			duration(fl.Name, f.settleTime, &cfg.SettleTime)
			o.override("settle_time", "--settle-time")
		case "correlation-window":
			duration(fl.Name, f.correlation, &cfg.CorrelationWindow)
			o.override("correlation_window", "--correlation-window")
		case "consequence-wait":
			duration(fl.Name, f.consequenceWait, &cfg.ConsequenceWait)
			o.override("consequence_wait", "--consequence-wait")
		case "http-addr":
			cfg.HTTPAddr = f.httpAddr
			o.override("http_addr", "--http-addr")
		case "accept":
			cfg.Accept = nil
			for _, a := range f.accept {
				for _, x := range strings.Split(a, ",") {
					if x = strings.TrimSpace(x); x != "" {
						cfg.Accept = append(cfg.Accept, x)
					}
				}
			}
			o.override("accept", "--accept")
		case "log-format":
			cfg.LogFormat = f.logFormat
			o.override("log_format", "--log-format")
		case "log-level":
			cfg.LogLevel = f.logLevel
			o.override("log_level", "--log-level")
		case "on-fatal":
			cfg.OnFatal = f.onFatal
			o.override("on_fatal", "--on-fatal")
		case "server-version":
			cfg.ServerVersion = f.serverVersion
			o.override("server_version", "--server-version")
		case "alert-output":
			cfg.AlertOutput = f.alertOutput
			o.override("alert_output", "--alert-output")
		case "sink":
			o.override("sinks", "--sink")
			cfg.Sinks = nil
			for _, spec := range f.sinks {
				s, err := parseSinkSpec(spec)
				if err != nil {
					if env := f.said("sink"); env != "--sink" {
						err = errors.New(env + strings.TrimPrefix(err.Error(), "--sink"))
					}
					errs = append(errs, keyed("sinks", err))
					continue
				}
				at := fmt.Sprintf("sinks[%d]", len(cfg.Sinks))
				o.flags[at] = "--sink " + s.Type
				if s.Name != "" {
					o.flags[at] = "--sink " + s.Name + ":" + s.Type
					o.flags[at+".name"] = o.flags[at]
				}
				cfg.Sinks = append(cfg.Sinks, s)
			}
		}
	})
	if at := f.fs.ArgsLenAtDash(); at >= 0 && len(f.fs.Args()) > at {
		args := f.fs.Args()[at:]
		cfg.Command = append([]string(nil), args...)
		o.override("command", "command after --")
	}
	return errs
}

// parseSinkSpec reads one --sink value: [NAME:]TYPE[=VALUE]. NAME tells
// two sinks of one type apart (two webhooks); it defaults to the type.
// Its errors quote only the name and the type: what follows "=" may be a
// URL with a token.
func parseSinkSpec(spec string) (Sink, error) {
	head, val, hasVal := strings.Cut(spec, "=")
	name, typ, named := strings.Cut(head, ":")
	if !named {
		name, typ = "", head
	}
	known := false
	for _, t := range sinkTypes {
		known = known || t == typ
	}
	if !known {
		if strings.ContainsAny(typ, ":/") || strings.HasPrefix(typ, "/") {
			return Sink{}, errors.New("--sink: want [NAME:]TYPE or [NAME:]TYPE=VALUE with TYPE stdout, slack, webhook, alertmanager or otel (a URL goes after the =, as in slack=URL)")
		}
		return Sink{}, fmt.Errorf("--sink: unknown sink type %q (want stdout, slack, webhook, alertmanager or otel)", typ)
	}
	if named && !sinkNameRE.MatchString(name) {
		return Sink{}, fmt.Errorf("--sink %s: bad sink name %q before the type (letters, digits, '_', '.', '-'; at most 64)", typ, name)
	}
	s := newSink(typ)
	if named {
		s.Name = name
	}
	switch typ {
	case SinkStdout:
		if hasVal {
			return Sink{}, errors.New("--sink stdout: takes no value")
		}
	case SinkOTel:
		if hasVal && val == "" {
			return Sink{}, errors.New("--sink otel: empty endpoint after =")
		}
		if hasVal {
			endpoint, protocol, err := otelEndpoint(val)
			if err != nil {
				return Sink{}, fmt.Errorf("--sink otel: %w", err)
			}
			s.OTel.Endpoint, s.OTel.Protocol = endpoint, protocol
		}
	default:
		if val == "" {
			return Sink{}, fmt.Errorf("--sink %s: want %s=URL", typ, typ)
		}
		switch typ {
		case SinkSlack:
			s.Slack.URL = val
		case SinkWebhook:
			s.Webhook.URL = val
		case SinkAlertmanager:
			s.Alertmanager.URL = val
		}
	}
	return s, nil
}

// The ports IANA assigned to OTLP: gRPC on 4317, HTTP on 4318.
const (
	otlpGRPCPort = "4317"
	otlpHTTPPort = "4318"
)

// otelEndpoint reads the endpoint of --sink otel=URL, whose scheme says
// the protocol: grpc:// (plaintext) or grpcs:// (TLS) for OTLP/gRPC,
// http:// or https:// for OTLP/HTTP. It returns the endpoint as the otel
// sink takes it (an http or https URL) and the protocol. An HTTP URL on
// OTLP/gRPC's port, or a gRPC one on OTLP/HTTP's, is refused: the
// receiver would answer neither, and the mistake is easy to make.
func otelEndpoint(v string) (endpoint, protocol string, err error) {
	u, perr := url.Parse(v)
	if perr != nil || u.Host == "" {
		return "", "", errors.New("want grpc://HOST:PORT, grpcs://HOST:PORT, http://HOST:PORT or https://HOST:PORT (the scheme picks OTLP/gRPC or OTLP/HTTP)")
	}
	port := u.Port()
	switch u.Scheme {
	case "grpc", "grpcs":
		if port == otlpHTTPPort {
			return "", "", fmt.Errorf("%s:// on port %s, OTLP/HTTP's port: write http://%s for OTLP/HTTP, or the gRPC port (%s)", u.Scheme, port, u.Host, otlpGRPCPort)
		}
		c := *u
		c.Scheme = map[string]string{"grpc": "http", "grpcs": "https"}[u.Scheme]
		return c.String(), otel.ProtocolGRPC, nil
	case "http", "https":
		if port == otlpGRPCPort {
			return "", "", fmt.Errorf("%s:// on port %s, OTLP/gRPC's port: write grpc://%s for OTLP/gRPC, or the HTTP port (%s)", u.Scheme, port, u.Host, otlpHTTPPort)
		}
		return v, otel.ProtocolHTTPProtobuf, nil
	}
	return "", "", fmt.Errorf("scheme %q: want grpc, grpcs, http or https (the scheme picks OTLP/gRPC or OTLP/HTTP)", u.Scheme)
}

// EnvPrefix starts the environment variable of each flag: LOGMATCH_ and
// the flag's name in capitals with "_" for "-" (--state-dir is
// LOGMATCH_STATE_DIR).
const EnvPrefix = "LOGMATCH_"

// EnvName is the environment variable that stands for a flag.
func EnvName(flag string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// fromEnv sets each flag not given on the command line from its
// environment variable (EnvName), when that is set and not empty: a flag
// wins over its variable, and both over the configuration file. A
// repeatable flag (--path, --catalog, --sink) takes a comma-separated
// list. It runs once: a flag it set counts as given on later loads (a
// reload reads the same values).
func (f *Flags) fromEnv(getenv func(string) string) []error {
	if f.envDone {
		return nil
	}
	f.envDone = true
	var errs []error
	f.fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Changed || fl.Name == "help" {
			return
		}
		name := EnvName(fl.Name)
		v := getenv(name)
		if v == "" {
			return
		}
		values := []string{v}
		if _, list := fl.Value.(*listFlag); list {
			values = strings.Split(v, ",")
		}
		for _, x := range values {
			if err := f.fs.Set(fl.Name, strings.TrimSpace(x)); err != nil {
				// The value may be a secret (a sink's URL): not quoted.
				errs = append(errs, keyed(strings.ReplaceAll(fl.Name, "-", "_"), fmt.Errorf("%s: not a valid --%s: %w", name, fl.Name, err)))
				return
			}
		}
		if f.fromEnvNames == nil {
			f.fromEnvNames = map[string]string{}
		}
		f.fromEnvNames["--"+fl.Name] = name
	})
	return errs
}

// said is how the operator gave a flag: "--name", or its variable.
func (f *Flags) said(flag string) string {
	if env, ok := f.fromEnvNames["--"+flag]; ok {
		return env
	}
	return "--" + flag
}

// nameEnvOrigins makes problems with a setting that came from an
// environment variable name the variable, not the flag it stands for.
func (f *Flags) nameEnvOrigins(o *origins) {
	for path, origin := range o.flags {
		for flag, env := range f.fromEnvNames {
			if origin == flag || strings.HasPrefix(origin, flag+" ") {
				o.flags[path] = env + strings.TrimPrefix(origin, flag)
			}
		}
	}
}
