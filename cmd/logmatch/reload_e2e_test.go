package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// SIGHUP to the built binary reloads its --config file: the sinks and the
// redaction change for the next alert; a file that does not load is
// logged with its problem and the running configuration stays.
func TestRunReloadsConfigOnSIGHUP(t *testing.T) {
	h := newHarness(t)
	var mu sync.Mutex
	var hooked []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hooked = append(hooked, string(b))
		mu.Unlock()
	}))
	defer hook.Close()
	bodies := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), hooked...)
	}
	cfg := filepath.Join(h.dir, "logmatch.yaml")
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	logPath := filepath.Join(h.logDir, "server.log")
	appendLine := func(s string) {
		t.Helper()
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString("[2026-05-28 00:11:09 TP0] " + s + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	waitFor := func(what string, cond func() bool, p *proc) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; log:\n%s", what, p.logs())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	write(cfg, "sinks:\n  - type: stdout\n")
	appendLine("Synthetic failure #1 in request for zebra-1")
	p := h.start("--config", cfg, "--settle-time", "0")
	waitFor("the first alert on stdout", func() bool { return p.numbers()[1] == 1 }, p)
	p.mu.Lock()
	first := p.alerts[0].Match.Text
	p.mu.Unlock()
	if !strings.Contains(first, "zebra-1") {
		t.Errorf("the first alert is redacted before any rule says so: %q", first)
	}

	// A new sink and a redaction rule.
	write(cfg, "sinks:\n  - type: webhook\n    url: "+hook.URL+"\nredact:\n  patterns: ['zebra-\\d+']\n")
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor("the reload", func() bool { return strings.Contains(p.logs(), "configuration reloaded") }, p)
	appendLine("Synthetic failure #2 in request for zebra-2")
	waitFor("the second alert at the webhook", func() bool { return len(bodies()) == 1 }, p)
	if b := bodies()[0]; !strings.Contains(b, "Synthetic failure #2") || strings.Contains(b, "zebra-2") {
		t.Errorf("the webhook got the second alert unredacted, or not that alert:\n%s", b)
	}

	// A file that does not load: its problem is logged, the webhook stays.
	write(cfg, "sinks:\n  - type: webhook\n    url: "+hook.URL+"\ngroup_windw: 5m\n")
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor("the refused reload", func() bool { return strings.Contains(p.logs(), "configuration reload failed") }, p)
	if !strings.Contains(p.logs(), "group_windw: unknown key (did you mean group_window?)") {
		t.Errorf("the refused reload does not say why:\n%s", p.logs())
	}
	appendLine("Synthetic failure #3 in request for zebra-3")
	waitFor("the third alert at the webhook", func() bool { return len(bodies()) == 2 }, p)
	p.stop(t)
	if n := p.numbers(); n[2] != 0 || n[3] != 0 {
		t.Errorf("alerts after the reload still went to stdout: %v", n)
	}
}
