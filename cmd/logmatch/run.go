package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/pipeline"
	"github.com/logmatch/logmatch/internal/wrapout"
)

const runLong = `Usage:
  logmatch run [--config FILE] [--path GLOB]... [--catalog PATH]... [--no-default-catalog]
               [--state-dir DIR] [--start-at beginning|end] [--format auto|raw|cri|docker]
               [--sink SPEC]... [--group-window DUR] [--repeat-interval DUR] [--settle-time DUR]
               [--correlation-window DUR] [--consequence-wait DUR] [--http-addr ADDR] [--log-format text|json]
               [--log-level LEVEL] [--on-fatal none|terminate] [--alert-output stdout|stderr|PATH]
               [--server-version VERSION] [--accept diagnose,loki,otlp,alertmanager]
               [--state-reset] [-- COMMAND ARGS...]
  SPEC: [NAME:]TYPE[=VALUE], TYPE=VALUE one of stdout | slack=URL | webhook=URL |
        alertmanager=URL | otel | otel=grpc://HOST:4317 | otel=http://HOST:4318

Follows log files (globs; rotation, truncation and Kubernetes CRI/docker
framing handled), standard input (--path -) or a wrapped command (after
"--": its output is passed through unchanged and logmatch exits with its
exit status), matches every entry against the catalog and sends incidents
to the sinks. Read positions, grouping state and undelivered alerts are
kept in --state-dir, so a restart loses and repeats nothing. A damaged
state file is an error (exit 3) that says so; --state-reset moves it aside
and starts with empty state instead.

Without --path or a command, standard input is read. Without --sink, alerts
are written to standard output as logmatch.alert/v1 JSON lines; with a
command, to standard error (--alert-output), each on a line of its own. A YAML
--config file can say everything (see "logmatch config --print-defaults");
flags override it. Every flag also has an environment variable, LOGMATCH_
and its name in capitals (LOGMATCH_STATE_DIR, LOGMATCH_SINK; a repeatable
flag's is a comma-separated list): a flag wins over its variable, and the
variable over the file. NAME in a sink SPEC tells two sinks of one type
apart (ops:webhook=URL); otel's scheme picks the protocol: grpc:// (grpcs://
with TLS) for OTLP/gRPC, http:// or https:// for OTLP/HTTP. It logs what it follows, its sinks, its address and the
catalog size at start, and warns when a glob matches no file.

SIGHUP reloads the catalogs and the configuration: sinks, group_window,
repeat_interval, redaction and catalogs change at once; a configuration
that does not load is logged and the running one stays
(logmatch_config_last_reload_successful is then 0). SIGTERM and SIGINT stop
reading, flush, deliver what is queued within the grace period and exit 0.

Serves /healthz, /readyz, /livez and /metrics on --http-addr (default
:9464 when following files; none for standard input or a wrapped command
unless --http-addr is given). /livez fails (503) once a catalog record marked fatal has been seen
since the watched server last started. With --on-fatal terminate such a
failure also ends the wrapped command (SIGTERM, SIGKILL after 10s), and
logmatch exits with status 75.

--accept serves network inputs on --http-addr: diagnose (POST /v1/diagnose
answers with the incidents of the log text or file sent, as scan --format
json prints them), loki (POST /loki/api/v1/push, Loki's push API in
protobuf or JSON), otlp (POST /v1/logs, OTLP logs over HTTP in protobuf
or JSON; gRPC on otlp_grpc_addr) and alertmanager (POST /v1/alertmanager:
the log text in an alert's annotations diagnosed and sent to the sinks);
each pushed stream is read like a followed file. Bodies are
bounded by accept_max_bytes; accept_token_file or accept_token_env makes
them require a bearer token.
`

var runExit = exitHelp(
	"  0    a clean stop (SIGTERM, SIGINT, end of standard input)",
	"  N    with a wrapped command: the command's own exit status",
	exitLineUsage,
	exitLineFailure,
	"  75   --on-fatal terminate ended the wrapped command after a gating failure",
	"  126  the wrapped command cannot be run",
	"  127  the wrapped command was not found",
)

func newRunCmd(e env) *cobra.Command {
	var flags *config.Flags
	var stateReset bool
	c := &cobra.Command{
		Use:   "run [flags] [-- COMMAND ARGS...]",
		Short: "tail logs as a sidecar or pipeline plugin and send alerts to sinks",
		Long:  runLong,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRun(cmd.Context(), e, flags, stateReset)
		},
	}
	flags = config.RegisterFlags(c.Flags())
	c.Flags().BoolVar(&stateReset, "state-reset", false, "if the state file is damaged, move it aside (state.db.damaged-TIME) and start with empty state instead of failing")
	return own(c, runExit)
}

func runRun(ctx context.Context, e env, flags *config.Flags, stateReset bool) error {
	load := func() (*config.Config, error) { return flags.Load(e.getenv, os.ReadFile) }
	cfg, err := load()
	if err != nil {
		return configError(err)
	}
	if len(cfg.Command) > 0 {
		if err := lookCommand(cfg.Command[0]); err != nil {
			return err
		}
	}

	out, err := alertStreams(cfg, &e)
	if err != nil {
		return err
	}
	defer out.close()

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
		Stdout:     out.stdout,
		Stderr:     out.stderr,
		Alerts:     out.alerts,
		Getenv:     e.getenv,
		Reload:     reload,
		LoadConfig: load,
		Version:    versionString(),
		Signals:    forward,
		StateReset: stateReset,
	})
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

// outputs are where a run writes: the wrapped command's output, the
// stdout sink's alerts, and (in e.stderr) logmatch's own log.
type outputs struct {
	stdout, stderr, alerts io.Writer
	close                  func()
}

// alertStreams sets up the outputs for cfg. With a wrapped command, its
// stdout and stderr are shared with logmatch's lines through line-aware
// streams, so an alert or a log line never lands inside a line the
// command has not finished; alerts go to stderr unless alert_output says
// otherwise, leaving the command's stdout to the command. e.stderr becomes
// the log's side of the shared stderr.
func alertStreams(cfg *config.Config, e *env) (outputs, error) {
	o := outputs{stdout: e.stdout, stderr: e.stderr, close: func() {}}
	streams := map[string]io.Writer{"stdout": e.stdout, "stderr": e.stderr}
	target := cfg.AlertOutput
	if len(cfg.Command) > 0 {
		outS, errS := wrapout.New(e.stdout, 0), wrapout.New(e.stderr, 0)
		o.stdout, o.stderr = outS.Passthrough(), errS.Passthrough()
		streams = map[string]io.Writer{"stdout": outS.Lines(true), "stderr": errS.Lines(true)}
		e.stderr = errS.Lines(false)
		if target == "" {
			target = "stderr"
		}
	}
	switch target {
	case "":
	case "stdout", "stderr":
		o.alerts = streams[target]
	default:
		f, err := os.OpenFile(target, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return o, configError(fmt.Errorf("alert_output: %w", err))
		}
		o.alerts, o.close = f, func() { _ = f.Close() }
	}
	return o, nil
}

// lookCommand finds the wrapped command before anything starts, so a
// missing one exits 127 and one that cannot run 126, as in a shell.
func lookCommand(name string) error {
	_, err := exec.LookPath(name)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return exitStatus{code: exitNotFound, msg: "run: " + name + ": command not found"}
	case errors.Is(err, fs.ErrPermission):
		return exitStatus{code: exitNoExec, msg: "run: " + name + ": permission denied"}
	}
	return exitStatus{code: exitNoExec, msg: "run: " + err.Error()}
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
