package main

import (
	"os"
	"strings"
	"testing"
)

// A mistyped flag gets the command's nearest flags suggested, as a
// mistyped command does; a flag far from every one gets no guess.
func TestDidYouMeanForFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"scan", "--catalgo", "c.jsonl", "x.log"}, "logmatch scan: unknown flag: --catalgo (did you mean --catalog?)\n"},
		{[]string{"scan", "--fail-of=error", "x.log"}, "(did you mean --fail-on?)"},
		{[]string{"run", "--stat-dir", "/tmp/x"}, "(did you mean --state-dir?)"},
		{[]string{"run", "--sinks", "stdout"}, "(did you mean --sink?)"},
		{[]string{"run", "--correlation", "1m"}, "(did you mean --correlation-window?)"},
		{[]string{"validate", "--htp-addr", ":1"}, "(did you mean --http-addr?)"},
	} {
		_, stderr, code := runCLI(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
	_, stderr, _ := runCLI(t, "", "scan", "--zzzzzzzz", "x.log")
	if strings.Contains(stderr, "did you mean") {
		t.Errorf("a guess for a flag like no other: %q", stderr)
	}
}

// Every error starts with the command's path, whichever way it ends the
// command.
func TestOneErrorPrefix(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"scan", "/nonexistent/x.log"}, "logmatch scan: open /nonexistent/x.log"},
		{[]string{"run", "--state-dir", t.TempDir(), "--", "logmatch-no-such-command"}, "logmatch run: logmatch-no-such-command: command not found\n"},
		{[]string{"scan", "--format", "yaml", "x.log"}, "logmatch scan: --format"},
	} {
		_, stderr, _ := runCLI(t, "", tc.args...)
		if !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%q: stderr %q, want it to start with %q", tc.args, stderr, tc.want)
		}
		if strings.Contains(stderr, "logmatch: run:") || strings.Contains(stderr, "logmatch run: run:") {
			t.Errorf("%q: the command is named twice: %q", tc.args, stderr)
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 sinks", 1: "1 sink", 2: "2 sinks"} {
		if got := plural(n, "sink", "sinks"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// The quick start says how to get logmatch onto the PATH before it uses
// the bare command.
func TestQuickStartInstalls(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	quick, _, _ := strings.Cut(string(readme), "\n## Commands")
	install := strings.Index(quick, "go install ./cmd/logmatch")
	use := strings.Index(quick, "\nlogmatch scan ")
	if install < 0 || use < 0 || install > use {
		t.Errorf("the quick start does not install logmatch (go install ./cmd/logmatch) before running it")
	}
}
