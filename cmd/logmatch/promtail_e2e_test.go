package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
)

// promtailBinary is a Promtail binary from LOGMATCH_PROMTAIL or PATH.
// Debian does not package Promtail, and building it takes far longer than
// a test run may, so the test that needs it is skipped without it.
func promtailBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("LOGMATCH_PROMTAIL"); p != "" {
		return p
	}
	p, err := exec.LookPath("promtail")
	if err != nil {
		t.Skip("promtail not found (set LOGMATCH_PROMTAIL to a Promtail binary to run this test)")
	}
	return p
}

// A real Promtail tails the crash examples, each as a pod of its own, and
// pushes them with README's client configuration to `logmatch run
// --accept loki`: logmatch reports, file by file, the incidents `logmatch
// scan` reports.
func TestPromtailPushesAsScan(t *testing.T) {
	promtail := promtailBinary(t)
	dir := t.TempDir()
	files, err := filepath.Glob("../../testdata/logs/*.log")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../examples/sglang-crash.log")
	addr := freePort(t)
	cfg := filepath.Join(dir, "logmatch.yaml")
	// README's advice for Promtail: an idle flush above its batchwait.
	if err := os.WriteFile(cfg, []byte("entry:\n  idle_flush: 2s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	lm := &proc{cmd: exec.Command(binary, "run", "--config", cfg, "--state-dir", h.state, "--http-addr", addr, "--accept", "loki",
		"--group-window", "8760h", "--repeat-interval", "0"), done: make(chan error, 1)}
	h.collect(lm)

	var pcfg strings.Builder
	fmt.Fprintf(&pcfg, `server:
  http_listen_address: 127.0.0.1
  http_listen_port: 0
  grpc_listen_port: 0
positions:
  filename: %s
clients:
  - url: http://%s/loki/api/v1/push
    batchwait: 1s
scrape_configs:
  - job_name: sglang
    static_configs:
`, filepath.Join(dir, "positions.yaml"), addr)
	m, _, err := catalog.Load(catalog.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	total := 0
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pod := fmt.Sprintf("sglang-%02d", i)
		p := filepath.Join(dir, pod+".log")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&pcfg, "      - targets: [localhost]\n        labels: {job: sglang, namespace: ml, pod: %s, __path__: %s}\n", pod, p)
		res, err := scan.New(m, scan.Options{Entry: entry.Options{Redact: red.Redact}, Redact: red.RedactAlert}).Scan(context.Background(), []scan.Input{{Name: "-", R: strings.NewReader(string(data))}})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res.Alerts {
			want[pod] = append(want[pod], a.Record.Slug+" | "+a.Headline)
		}
		total += len(res.Alerts)
	}
	pc := filepath.Join(dir, "promtail.yaml")
	if err := os.WriteFile(pc, []byte(pcfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pt := exec.Command(promtail, "-config.file", pc)
	var ptLog strings.Builder
	var ptMu sync.Mutex
	pt.Stdout = &syncWriter{w: &ptLog, mu: &ptMu}
	pt.Stderr = pt.Stdout
	if err := pt.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pt.Process.Kill(); _ = pt.Wait() })

	firsts := func() (map[string][]string, int) {
		lm.mu.Lock()
		defer lm.mu.Unlock()
		got, seen, n := map[string][]string{}, map[string]bool{}, 0
		for _, a := range lm.alerts {
			if !seen[a.Fingerprint] {
				seen[a.Fingerprint] = true
				got[a.Source.Pod] = append(got[a.Source.Pod], a.Record.Slug+" | "+a.Headline)
				n++
			}
		}
		return got, n
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, n := firsts(); n >= total {
			break
		}
	}
	lm.stop(t)
	_ = pt.Process.Kill()
	_ = pt.Wait()
	got, _ := firsts()
	for pod, w := range want {
		if !slices.Equal(got[pod], w) {
			t.Errorf("%s: pushed by Promtail and scanned differ\nrun:\n  %s\nscan:\n  %s\npromtail log:\n%s", pod, strings.Join(got[pod], "\n  "), strings.Join(w, "\n  "), ptLog.String())
		}
	}
}
