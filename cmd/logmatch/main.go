// Command logmatch recognises failures in the logs of LLM serving processes
// (sglang first) and tells operators how to fix them.
//
// This package is the process boundary only: it parses flags, loads
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
	"syscall"
)

// version is stamped at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

// Exit codes shared by every command.
const (
	exitOK       = 0
	exitFound    = 1 // scan --fail-on matched; lint found problems
	exitUsage    = 2 // bad flags or arguments, unreadable input
	exitInternal = 3 // a failure that is not the input's fault
)

// errUsage marks errors that are the caller's: they exit with exitUsage.
var errUsage = errors.New("usage")

// usageError wraps a message as a usage error.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

// env is what a command may touch of the process: streams, arguments,
// environment. Tests run commands in-process with their own env.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

const topUsage = `logmatch recognises failures in sglang logs and tells you how to fix them.

Usage:
  logmatch <command> [flags] [arguments]

Commands:
  scan      scan log files (or stdin) once and print the incidents found
  run       tail logs as a sidecar or pipeline plugin and send alerts to sinks
  patterns  work with catalogs: "patterns lint", "patterns gen"
  config    print a complete commented configuration: "config --print-defaults"
  version   print the version

Run "logmatch <command> --help" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	code := runMain(ctx, os.Args[1:], e)
	stop()
	os.Exit(code)
}

// runMain dispatches to a command and returns the process exit code.
func runMain(ctx context.Context, args []string, e env) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, topUsage)
		return exitUsage
	}
	var cmd func(context.Context, []string, env) error
	switch args[0] {
	case "scan":
		cmd = cmdScan
	case "run":
		cmd = cmdRun
	case "patterns":
		cmd = cmdPatterns
	case "config":
		cmd = cmdConfig
	case "version", "--version":
		fmt.Fprintf(e.stdout, "logmatch %s\n", versionString())
		return exitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(e.stdout, topUsage)
		return exitOK
	default:
		fmt.Fprintf(e.stderr, "logmatch: unknown command %q\n\n%s", args[0], topUsage)
		return exitUsage
	}
	err := cmd(ctx, args[1:], e)
	return exitCode(err, e.stderr)
}

// exitStatus is an error that carries its own exit code: scan --fail-on,
// lint problems, a wrapped command's exit status.
type exitStatus struct {
	code int
	msg  string // printed when not empty
}

func (s exitStatus) Error() string { return s.msg }

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var st exitStatus
	if errors.As(err, &st) {
		if st.msg != "" {
			fmt.Fprintln(stderr, "logmatch: "+st.msg)
		}
		return st.code
	}
	if errors.Is(err, errHelp) {
		return exitOK
	}
	fmt.Fprintln(stderr, "logmatch: "+err.Error())
	if errors.Is(err, errUsage) {
		return exitUsage
	}
	return exitInternal
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
