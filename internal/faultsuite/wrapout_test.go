package faultsuite

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// partialLines is a server that leaves its stdout line open ("progress:
// 10%") while it logs a CUDA crash on stderr, then waits for the file
// named by its argument before it ends the line and exits.
const partialLines = `
import os, sys, time
go = sys.argv[1]
sys.stdout.write("progress: 10%")
sys.stdout.flush()
sys.stderr.write(sys.argv[2])
sys.stderr.flush()
deadline = time.time() + 60
while not os.path.exists(go) and time.time() < deadline:
    time.sleep(0.02)
sys.stdout.write(" 100%\nserver line two\n")
sys.stdout.flush()
sys.stderr.write("shutting down\n")
`

// Issue 33 finding 4: in wrap mode an alert never lands inside the
// wrapped server's unfinished line. The server's stdout passes through
// byte for byte; the alert goes to stderr (its default there), whole, on
// a line of its own, and parses as logmatch.alert/v1.
func TestWrapModeAlertNeverSplitsTheServersLine(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	goFile := filepath.Join(dir, "go")
	crash := illegalAccess()
	p := start(t, "run", "--state-dir", filepath.Join(dir, "state"), "--http-addr", "",
		"--group-window", "0", "--settle-time", "0", "--", py, "-c", partialLines, goFile, crash)
	alerted := func() bool {
		return strings.Contains(p.stdout.String()+p.stderr.String(), `"schema":"logmatch.alert/v1"`)
	}
	if !waitFor(time.Minute, alerted) {
		t.Fatalf("no alert while the server ran\nstdout:\n%s\nstderr:\n%s", p.stdout.String(), p.stderr.String())
	}
	writeFile(t, dir, "go", "")
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}

	if got, want := p.stdout.String(), "progress: 10% 100%\nserver line two\n"; got != want {
		t.Errorf("the server's stdout changed on its way through:\n got %q\nwant %q", got, want)
	}
	alerts := 0
	for _, line := range strings.Split(p.stderr.String(), "\n") {
		if !strings.Contains(line, `"schema":"logmatch.alert/v1"`) {
			continue
		}
		var a struct {
			Schema string
			Record struct{ Slug string }
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Errorf("an alert line does not parse (%v): %q", err, line)
			continue
		}
		if a.Record.Slug == "cuda-illegal-memory-access" {
			alerts++
		}
	}
	if alerts != 1 {
		t.Errorf("%d whole alerts of the crash on stderr, want 1\nstderr:\n%s", alerts, p.stderr.String())
	}
	for _, l := range strings.SplitAfter(crash, "\n") {
		if l != "" && !strings.Contains(p.stderr.String(), l) {
			t.Errorf("the server's stderr line %q did not pass through whole", l)
		}
	}
	if !strings.Contains(p.stderr.String(), "\nshutting down\n") {
		t.Errorf("the server's last stderr line is not a line of its own:\n%s", p.stderr.String())
	}
	_ = os.Remove(goFile)
}

// alert_output names a file: alerts go there, each a whole line, and
// neither of the server's streams carries one.
func TestWrapModeAlertsToAFile(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	alertsFile := filepath.Join(dir, "alerts.jsonl")
	script := "import sys; sys.stdout.write('half a line'); sys.stdout.flush(); sys.stderr.write(sys.argv[1]); sys.stderr.flush()"
	res := run(t, nil, "run", "--state-dir", filepath.Join(dir, "state"), "--http-addr", "",
		"--group-window", "0", "--settle-time", "0", "--alert-output", alertsFile, "--", py, "-c", script, illegalAccess())
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if res.stdout != "half a line" {
		t.Errorf("the server's stdout changed on its way through: %q", res.stdout)
	}
	if strings.Contains(res.stderr, `"schema":"logmatch.alert/v1"`) {
		t.Errorf("an alert went to stderr:\n%s", res.stderr)
	}
	b, err := os.ReadFile(alertsFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	found := false
	for _, l := range lines {
		var a struct{ Record struct{ Slug string } }
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Errorf("a line of the alert file does not parse (%v): %q", err, l)
		}
		found = found || a.Record.Slug == "cuda-illegal-memory-access"
	}
	if !found {
		t.Errorf("no alert of the crash in the alert file:\n%s", b)
	}
}
