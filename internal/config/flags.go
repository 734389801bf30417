package config

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
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
	httpAddr         string
	logFormat        string
	logLevel         string
	onFatal          string
	alertOutput      string
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
	fs.Var(&f.sinks, "sink", "alert sink `spec`: stdout, slack=URL, webhook=URL, alertmanager=URL, otel or otel=ENDPOINT\n(repeatable; replaces the file's sinks; prefer url_file in the file for secrets)")
	fs.StringVar(&f.groupWindow, "group-window", "", "`duration` repeats of an incident are grouped, 0 = off (default 5m)")
	fs.StringVar(&f.repeatInterval, "repeat-interval", "", "`duration` between reminders of an ongoing incident, 0 = off (default 4h)")
	fs.StringVar(&f.settleTime, "settle-time", "", "`duration` the first alert of an incident waits for the rest of the burst, 0 = at once (default 2s)")
	fs.StringVar(&f.correlation, "correlation-window", "", "`duration` after a root cause in which consequences on the same pod or node fold into it, 0 = off (default 15m)")
	fs.StringVar(&f.httpAddr, "http-addr", "", "metrics and health `address`, empty = off (default "+DefaultHTTPAddr+")")
	fs.StringVar(&f.logFormat, "log-format", "", "logmatch's own log format: text or json (default "+DefaultLogFormat+")")
	fs.StringVar(&f.logLevel, "log-level", "", "debug, info, warn or error (default "+DefaultLogLevel+")")
	fs.StringVar(&f.onFatal, "on-fatal", "", "on a gating failure: none, or terminate the wrapped command (default "+DefaultOnFatal+")")
	fs.StringVar(&f.alertOutput, "alert-output", "", "where the stdout sink writes: stdout, stderr or a file `path` (default stdout; stderr with a wrapped command)")
	return f
}

// ParseArgs parses the arguments of `logmatch run` (after the subcommand
// name), loads the --config file if given, applies the flags over it and
// returns the validated configuration, or every problem found, joined.
// Everything after "--" is the command to wrap; flags may come in any
// order before it. getenv and readFile are os.Getenv and os.ReadFile
// outside tests. -h returns pflag.ErrHelp.
func ParseArgs(args []string, getenv func(string) string, readFile func(string) ([]byte, error)) (*Config, error) {
	fs := pflag.NewFlagSet("logmatch run", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("config: %w", err)
	}
	return f.Load(getenv, readFile)
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
			errs = append(errs, keyed(strings.ReplaceAll(flagName, "-", "_"), fmt.Errorf("--%s: %w", flagName, err)))
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
		case "http-addr":
			cfg.HTTPAddr = f.httpAddr
			o.override("http_addr", "--http-addr")
		case "log-format":
			cfg.LogFormat = f.logFormat
			o.override("log_format", "--log-format")
		case "log-level":
			cfg.LogLevel = f.logLevel
			o.override("log_level", "--log-level")
		case "on-fatal":
			cfg.OnFatal = f.onFatal
			o.override("on_fatal", "--on-fatal")
		case "alert-output":
			cfg.AlertOutput = f.alertOutput
			o.override("alert_output", "--alert-output")
		case "sink":
			o.override("sinks", "--sink")
			cfg.Sinks = nil
			for _, spec := range f.sinks {
				s, err := parseSinkSpec(spec)
				if err != nil {
					errs = append(errs, keyed("sinks", err))
					continue
				}
				o.flags[fmt.Sprintf("sinks[%d]", len(cfg.Sinks))] = "--sink " + s.Type
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

// parseSinkSpec reads one --sink value. Its errors quote only the type:
// what follows "=" may be a URL with a token.
func parseSinkSpec(spec string) (Sink, error) {
	typ, val, hasVal := strings.Cut(spec, "=")
	known := false
	for _, t := range sinkTypes {
		known = known || t == typ
	}
	if !known {
		if strings.ContainsAny(typ, ":/") {
			return Sink{}, errors.New("--sink: want TYPE or TYPE=VALUE with TYPE stdout, slack, webhook, alertmanager or otel (a URL goes after the =, as in slack=URL)")
		}
		return Sink{}, fmt.Errorf("--sink: unknown sink type %q (want stdout, slack, webhook, alertmanager or otel)", typ)
	}
	s := newSink(typ)
	switch typ {
	case SinkStdout:
		if hasVal {
			return Sink{}, errors.New("--sink stdout: takes no value")
		}
	case SinkOTel:
		if hasVal && val == "" {
			return Sink{}, errors.New("--sink otel: empty endpoint after =")
		}
		s.OTel.Endpoint = val
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
