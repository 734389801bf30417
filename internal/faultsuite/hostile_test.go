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
	// (or copied a few times) would need hundreds.
	if rss := peakRSS(p.cmd.Process.Pid); rss < 0 || rss > 100<<20 {
		t.Errorf("peak resident memory %d MB reading a 100 MB line, want under 100 MB", rss>>20)
	}
	t.Logf("peak resident memory %d MB", peakRSS(p.cmd.Process.Pid)>>20)
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
}
