package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/logmatch/logmatch/sinks"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// regexp2's coarse clock for match timeouts is one process-wide
		// goroutine that stops itself after a while of disuse.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"),
		// The test's own HTTP client keeps idle connections.
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
	)
}

// lockedBuffer collects the stdout sink's output safely.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) alerts(t *testing.T) []sinks.Alert {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []sinks.Alert
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		if line == "" {
			continue
		}
		var a sinks.Alert
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("stdout line is not an alert: %v: %s", err, line)
		}
		out = append(out, a)
	}
	return out
}

func (l *lockedBuffer) hasSlug(t *testing.T, slug string) bool {
	for _, a := range l.alerts(t) {
		if a.Record.Slug == slug {
			return true
		}
	}
	return false
}

// waitRun waits for Run to return on done, when it should have (after a
// cancel, or at the end of its input): an error or 30 s fails the test.
func waitRun(t *testing.T, done <-chan error, when string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Run did not return %s", when)
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

const recordA = `{"id":"a000000000000001","slug":"record-a","messagePattern":"alpha failure","severity":"error","solutions":["x","y"]}`
const recordB = `{"id":"b000000000000001","slug":"record-b","messagePattern":"beta failure","severity":"error","solutions":["x","y"]}`

// A running pipeline serves health and metrics, reloads its catalog when
// the file changes (and keeps the last good one when the new one is bad),
// and stops cleanly.
func TestPipelineReloadHealthMetrics(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(logs, "server.log")
	catalog := filepath.Join(dir, "catalog.jsonl")
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	appendLine := func(s string) {
		t.Helper()
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(s + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	write(catalog, recordA+"\n")
	write(logPath, "[2026-05-28 00:11:09 TP0] alpha failure in step 1\n")

	cfg, err := runConfig([]string{
		"--path", filepath.Join(logs, "*.log"), "--catalog", catalog, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--group-window", "0", "--http-addr", "127.0.0.1:0",
	}, func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	addr := make(chan string, 1)
	reload := make(chan struct{}, 1)
	p, err := New(context.Background(), Options{
		Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Stdout: out, Stderr: io.Discard, Reload: reload,
		Listening: func(a string) { addr <- a },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	base := "http://" + <-addr

	eventually(t, "the first alert", func() bool { return out.hasSlug(t, "record-a") })

	if body, code := get(t, base+"/readyz?exclude=nothing"); code != http.StatusBadRequest {
		t.Fatalf("GET /readyz?exclude=nothing = %d %q, want 400", code, body)
	}
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready", "/readyz?exclude=sinks": "ready"} {
		body, code := get(t, base+path)
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("GET %s = %d %q", path, code, body)
		}
	}
	// The delivery loop counts an alert after the sink took it: the line
	// on stdout can come first.
	for _, series := range []string{
		`logmatch_hits_total{record_id="a000000000000001",severity="error"`,
		`logmatch_entries_total{`,
		`logmatch_source_lines_total{`,
	} {
		eventually(t, "/metrics to show "+series, func() bool {
			metrics, _ := get(t, base+"/metrics")
			return strings.Contains(metrics, series)
		})
	}

	// A changed catalog file is picked up (SIGHUP-style request here, so
	// the test need not wait for the poll).
	write(catalog, recordA+"\n"+recordB+"\n")
	reload <- struct{}{}
	time.Sleep(200 * time.Millisecond)
	appendLine("[2026-05-28 00:11:10 TP0] beta failure in step 2")
	eventually(t, "an alert from the reloaded catalog", func() bool { return out.hasSlug(t, "record-b") })

	// A broken catalog is reported and the last good one stays in use.
	write(catalog, "{not json\n")
	reload <- struct{}{}
	time.Sleep(200 * time.Millisecond)
	appendLine("[2026-05-28 00:11:11 TP0] beta failure in step 3")
	eventually(t, "a second record-b alert with the old catalog", func() bool {
		n := 0
		for _, a := range out.alerts(t) {
			if a.Record.Slug == "record-b" {
				n++
			}
		}
		return n == 2
	})

	cancel()
	waitRun(t, done, "after cancel")
}

func get(t *testing.T, url string) (string, int) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), resp.StatusCode
}

func TestRotationBase(t *testing.T) {
	tests := map[string]string{
		"/var/log/sglang/server.log":            "/var/log/sglang/server.log",
		"/var/log/sglang/server.log.1":          "/var/log/sglang/server.log",
		"/var/log/sglang/server.log.2.gz":       "/var/log/sglang/server.log",
		"/var/log/sglang/server.log-20260528":   "/var/log/sglang/server.log",
		"/var/log/pods/ns_p_u/c/0.log.20260528": "/var/log/pods/ns_p_u/c/0.log",
		"/x/app-v2.log":                         "/x/app-v2.log",
	}
	for in, want := range tests {
		if got := rotationBase(in); got != want {
			t.Errorf("rotationBase(%q) = %q, want %q", in, got, want)
		}
	}
}
