package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/pipeline"
)

const runUsage = `Usage:
  logmatch run [--config FILE] [--path GLOB]... [--catalog PATH]... [--no-default-catalog]
               [--state-dir DIR] [--start-at beginning|end] [--format auto|raw|cri|docker]
               [--sink SPEC]... [--group-window DUR] [--repeat-interval DUR] [--http-addr ADDR]
               [--log-format text|json] [--log-level LEVEL] [--state-reset] [-- COMMAND ARGS...]
  SPEC: stdout | slack=URL | webhook=URL | alertmanager=URL | otel | otel=ENDPOINT

Follows log files (globs; rotation, truncation and Kubernetes CRI/docker
framing handled), standard input (--path -) or a wrapped command (after
"--": its output is passed through unchanged and logmatch exits with its
exit status), matches every entry against the catalog and sends incidents
to the sinks. Read positions, grouping state and undelivered alerts are
kept in --state-dir, so a restart loses and repeats nothing. A damaged
state file is an error (exit 3) that says so; --state-reset moves it aside
and starts with empty state instead.

Without --path or a command, standard input is read. Without --sink, alerts
are written to standard output as logmatch.alert/v1 JSON lines. A YAML
--config file can say everything (see "logmatch config --print-defaults");
flags override it. SIGHUP reloads the catalogs; SIGTERM and SIGINT stop
reading, flush, deliver what is queued within the grace period and exit 0.

Serves /healthz, /readyz and /metrics on --http-addr (default :9464).
`

func cmdRun(ctx context.Context, args []string, e env) error {
	fs := newFlagSet("run", runUsage, e)
	flags := config.RegisterFlags(fs)
	stateReset := fs.Bool("state-reset", false, "if the state file is damaged, move it aside (state.db.damaged-TIME) and start with empty state instead of failing")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := flags.Load(e.getenv, os.ReadFile)
	if err != nil {
		return usageError("%w", err)
	}

	log := newLogger(cfg, e)
	reload := make(chan struct{}, 1)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for range hup {
			select {
			case reload <- struct{}{}:
			default:
			}
		}
	}()

	// A wrapped command gets SIGINT and SIGTERM forwarded and decides when
	// to exit, like under an init process; logmatch finishes after it, so
	// the signals must not also cancel the pipeline.
	var forward chan os.Signal
	if len(cfg.Command) > 0 {
		forward = make(chan os.Signal, 4)
		signal.Notify(forward, syscall.SIGINT, syscall.SIGTERM)
		defer signal.Stop(forward)
		ctx = context.WithoutCancel(ctx)
	}

	p, err := pipeline.New(ctx, pipeline.Options{
		Config:     cfg,
		Logger:     log,
		Stdin:      e.stdin,
		Stdout:     e.stdout,
		Stderr:     e.stderr,
		Getenv:     e.getenv,
		Reload:     reload,
		Signals:    forward,
		StateReset: *stateReset,
	})
	if errors.Is(err, pipeline.ErrConfig) {
		return usageError("%w", err)
	}
	if err != nil {
		return err
	}
	if err := p.Run(ctx); err != nil {
		return err
	}
	if code := p.ExitCode(); code != 0 {
		return exitStatus{code: code}
	}
	return nil
}

// newLogger builds logmatch's own structured log on stderr.
func newLogger(cfg *config.Config, e env) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(e.stderr, opts))
	}
	return slog.New(slog.NewTextHandler(e.stderr, opts))
}
