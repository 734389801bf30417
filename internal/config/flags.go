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
	cfg := Default()
	o := newOrigins()
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
			errs = append(errs, fmt.Errorf("--config: %w", err))
		} else {
			ix, derrs := decodeFile(f.config, data, cfg, getenv)
			o.ix = ix
			errs = append(errs, derrs...)
		}
	}
	errs = append(errs, f.apply(cfg, o)...)
	errs = append(errs, finish(cfg, o, getenv, readFile)...)
	sortProblems(f.config, errs)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return cfg, nil
}

// apply copies the flags that were set onto cfg, recording their origin.
func (f *Flags) apply(cfg *Config, o *origins) []error {
	var errs []error
	duration := func(flagName, value string, dst *Duration) {
		d, err := parseDuration(value)
		if err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", flagName, err))
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
		case "sink":
			o.override("sinks", "--sink")
			cfg.Sinks = nil
			for _, spec := range f.sinks {
				s, err := parseSinkSpec(spec)
				if err != nil {
					errs = append(errs, err)
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
