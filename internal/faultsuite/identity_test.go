package faultsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// traceback is one unclassified traceback whose exception type is name:
// an incident of its own, alerted on its own.
func traceback(name string) string {
	return fmt.Sprintf("Traceback (most recent call last):\n  File \"/app/%s.py\", line 7, in handler\n    run()\n%s: failure of %s\n[2026-05-28 00:00:01] after %s\n", name, name, name, name)
}

// serving is n bytes or more of ordinary serving lines tagged with gen,
// so two contents of one file differ in their first bytes.
func serving(gen string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "[2026-05-28 00:00:00] %s Decode batch %d, #running-req: 1, #token: 42\n", gen, i)
	}
	return b.String()
}

// alertsOf counts the alerts on stdout whose exception type is name.
func alertsOf(stdout, name string) int {
	n := 0
	for _, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, `"schema":"logmatch.alert/v1"`) && strings.Contains(line, `"errorClass":"`+name+`"`) {
			n++
		}
	}
	return n
}

// Issue 14 item 4: a file truncated and rewritten in place, then logmatch
// restarted. The checkpoint keeps the identity the tailer reported for the
// rewritten content, so the restart resumes it where it stopped: nothing
// read before the restart is alerted again.
func TestTruncateRewriteThenRestartRepeatsNothing(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	log := writeFile(t, dir, "server.log", serving("gen1", 2048)+traceback("FirstContentError"))
	args := []string{"run", "--path", log, "--state-dir", state, "--http-addr", "", "--start-at", "beginning", "--group-window", "0"}

	p := start(t, args...)
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "FirstContentError") == 1 }) {
		t.Fatalf("no alert for the first content:\n%s\n%s", p.stdout.String(), p.stderr.String())
	}
	// Truncate and rewrite in place (same inode), shorter than what was read.
	if err := os.WriteFile(log, []byte(serving("gen2", 200)+traceback("RewrittenContentError")), 0o644); err != nil {
		t.Fatal(err)
	}
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "RewrittenContentError") == 1 }) {
		t.Fatalf("no alert for the rewritten content:\n%s\n%s", p.stdout.String(), p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("first run: exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}

	p = start(t, args...)
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(traceback("AfterRestartError")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "AfterRestartError") == 1 }) {
		t.Fatalf("no alert for the line written after the restart:\n%s\n%s", p.stdout.String(), p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("second run: exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
	for _, name := range []string{"FirstContentError", "RewrittenContentError"} {
		if n := alertsOf(p.stdout.String(), name); n != 0 {
			t.Errorf("the restart alerted %s again (%d alerts):\n%s", name, n, p.stdout.String())
		}
	}
}
