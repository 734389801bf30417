// Command logmatch recognises failures in the logs of LLM serving processes
// (sglang first) and tells operators how to fix them.
//
// This package is the process boundary only: it parses flags (with cobra,
// as kubectl, helm and the OpenTelemetry Collector do), loads
// configuration, handles signals and turns results into exit codes. The
// work is done by the packages it wires together.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/logmatch/logmatch/internal/pipeline"
)

// version is stamped at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

// Exit codes shared by every command; each command's help says which of
// them it uses.
const (
	exitOK       = 0
	exitFound    = 1   // scan --fail-on matched; lint, validate or test found problems; notify: a sink failed
	exitUsage    = 2   // bad flags or arguments, or a configuration or catalog that does not load
	exitFailure  = 3   // a runtime failure: unreadable input, a locked or damaged state directory, a port in use
	exitNoExec   = 126 // the wrapped command exists but cannot be run
	exitNotFound = 127 // the wrapped command was not found, as shells say
)

// errUsage marks errors that are the caller's: bad flags or arguments.
var errUsage = errors.New("usage")

// errConfig marks a configuration (or catalog) that does not load.
var errConfig = errors.New("configuration")

// usageError wraps a message as a usage error.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

// configError marks err as a problem of the configuration: exit 2.
func configError(err error) error {
	if err == nil {
		return nil
	}
	return &markedError{err: err, mark: errConfig}
}

// markedError is err, also matching mark with errors.Is, without changing
// its message.
type markedError struct {
	err  error
	mark error
}

func (m *markedError) Error() string        { return m.err.Error() }
func (m *markedError) Unwrap() error        { return m.err }
func (m *markedError) Is(target error) bool { return target == m.mark }

// env is what a command may touch of the process: streams, arguments,
// environment. Tests run commands in-process with their own env.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// stderrTTY says whether stderr is a terminal: progress is shown
	// there only then, so pipes and logs stay quiet.
	stderrTTY bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, stderrTTY: isTerminal(os.Stderr)}
	code := runMain(ctx, os.Args[1:], e)
	stop()
	os.Exit(code)
}

// isTerminal reports whether f is a character device (a terminal), not a
// pipe or a file.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runMain runs the command args name and returns the process exit code.
// Help goes to stdout once; errors go to stderr.
func runMain(ctx context.Context, args []string, e env) int {
	root := newRoot(e)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	return exitCode(err, cmd.CommandPath(), e.stderr)
}

// exitStatus is an error that carries its own exit code: scan --fail-on,
// lint problems, a wrapped command's exit status.
type exitStatus struct {
	code int
	msg  string // printed when not empty
}

func (s exitStatus) Error() string { return s.msg }

// exitCode prints err (if any) on stderr and returns the exit code it
// stands for. Usage errors point at the command's help.
func exitCode(err error, cmdPath string, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var st exitStatus
	if errors.As(err, &st) {
		if st.msg != "" {
			// One prefix for every error: the command's path, as below.
			sub := cmdPath[strings.LastIndexByte(cmdPath, ' ')+1:]
			fmt.Fprintf(stderr, "%s: %s\n", cmdPath, strings.TrimPrefix(st.msg, sub+": "))
		}
		return st.code
	}
	switch {
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "%s: %s\nRun '%s --help' for usage.\n", cmdPath, trimMark(err), cmdPath)
		return exitUsage
	case errors.Is(err, errConfig), errors.Is(err, pipeline.ErrConfig):
		fmt.Fprintf(stderr, "%s: %v\n", cmdPath, err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "%s: %v\n", cmdPath, err)
	return exitFailure
}

// trimMark drops the "usage: " the usage mark adds to the message.
func trimMark(err error) string {
	msg := err.Error()
	const p = "usage: "
	if len(msg) > len(p) && msg[:len(p)] == p {
		return msg[len(p):]
	}
	return msg
}

func versionString() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
		v += " " + bi.GoVersion
	}
	return v
}
