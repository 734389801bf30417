package faultsuite

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// peakRSS returns the process's peak resident set (VmHWM) in bytes, or -1.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// A line of 100 MB (no newline for most of it, NUL bytes, invalid UTF-8
// and ANSI escapes in it) costs a bounded buffer, not its size: it is cut
// at max_line_bytes, counted, and the failure after it is alerted.
func TestHundredMegabyteLineIsBounded(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(logs, "server.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("x\x00\xff\xfe\x1b[31mred\x1b[0m "), 1<<16/16)
	for written := 0; written < 100<<20; written += len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.WriteString("\n" + traceback("AfterTheLongLineError")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	addr := freeAddr(t)
	p := start(t, "run", "--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", addr, "--start-at", "beginning", "--group-window", "0")
	if !waitFor(2*time.Minute, func() bool { return alertsOf(p.stdout.String(), "AfterTheLongLineError") == 1 }) {
		t.Fatalf("no alert for the failure after the long line\nstderr:\n%s", p.stderr.String())
	}
	_, metrics := get("http://" + addr + "/metrics")
	if !strings.Contains(metrics, `logmatch_source_events_total{event="lines_cut"}`) {
		t.Errorf("the cut line is not counted in logmatch_source_events_total{event=\"lines_cut\"}")
	}
	// The binary with its catalog needs some tens of MB; a line read whole
	// (or copied a few times) would need hundreds. The race detector's
	// shadow memory about doubles a process's resident memory (42 and 100
	// MB here without and with it), and would double a line read whole too.
	bound := int64(100 << 20)
	if raceEnabled {
		bound = 200 << 20
	}
	if rss := peakRSS(p.cmd.Process.Pid); rss < 0 || rss > bound {
		t.Errorf("peak resident memory %d MB reading a 100 MB line, want under %d MB", rss>>20, bound>>20)
	}
	t.Logf("peak resident memory %d MB", peakRSS(p.cmd.Process.Pid)>>20)
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
}

// terminalControls returns the control characters (other than newline and
// tab) in s, as Go quotes them: bytes a terminal acts on.
func terminalControls(s string) []string {
	var out []string
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			out = append(out, strconv.QuoteRune(r))
		}
	}
	return out
}

// A log line carrying terminal control sequences (an OSC that retitles the
// window or writes the clipboard, a C1 CSI, a bell, a backspace that hides
// what came before) is printed by scan's and test's text output with the
// controls made visible, never passed to the operator's terminal.
func TestTerminalControlsInLogTextAreNotPrinted(t *testing.T) {
	dir := t.TempDir()
	hostile := "[2026-05-28 00:17:00 TP0] RuntimeError: CUDA out of memory. \x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4K\x07" +
		"\u009b2J\x08\x08\x08 Tried to allocate 2.00 GiB\n\n" +
		"Traceback (most recent call last):\n  File \"/app/x\x1b]8;;http://evil\x07.py\", line 1, in run\n    go()\n" +
		"HostileError: \x1b[1A\x1b[2Kcleared\r overwritten\n"
	log := writeFile(t, dir, "hostile.log", hostile)
	for _, args := range [][]string{
		{"scan", "--catalog-cache", "off", log},
		{"test", "--catalog-cache", "off", log},
	} {
		res := run(t, nil, args...)
		if res.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, res.code, res.stderr)
		}
		if !strings.Contains(res.stdout, "out of memory") || !strings.Contains(res.stdout, "http://evil") {
			t.Errorf("%v: the failures are not reported:\n%s", args, res.stdout)
		}
		if c := terminalControls(res.stdout); len(c) > 0 {
			t.Errorf("%v: stdout passes terminal controls %v:\n%q", args, c, res.stdout)
		}
	}
}
