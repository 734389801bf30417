package faultsuite

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingHook is a webhook endpoint that counts what it accepted and
// answers with answer (nil: 204 at once).
type countingHook struct {
	mu       sync.Mutex
	accepted map[string]bool
	answer   func(w http.ResponseWriter, r *http.Request) bool // true: accepted
}

func (h *countingHook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	if h.answer != nil && !h.answer(w, r) {
		return
	}
	h.mu.Lock()
	h.accepted[r.Header.Get("Idempotency-Key")] = true
	h.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (h *countingHook) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.accepted)
}

// Four webhooks at once: one never answers (the connection hangs until
// the request's timeout), one answers 503 forever, one takes each alert
// slowly, one is healthy. One sink's trouble never holds back another:
// the healthy and the slow one get every alert; the queue of the one that
// is down stays at its bound, and what the bound drops is counted and
// logged, never silent; a stop with the hanging sink still hanging ends
// within shutdown_grace.
func TestOneSinksTroubleNeverBlocksTheOthers(t *testing.T) {
	const failures, bound = 40, 10
	release := make(chan struct{})
	hang := &countingHook{accepted: map[string]bool{}, answer: func(w http.ResponseWriter, r *http.Request) bool {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		return false
	}}
	down := &countingHook{accepted: map[string]bool{}, answer: func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusServiceUnavailable)
		return false
	}}
	slow := &countingHook{accepted: map[string]bool{}, answer: func(w http.ResponseWriter, r *http.Request) bool {
		time.Sleep(50 * time.Millisecond)
		return true
	}}
	healthy := &countingHook{accepted: map[string]bool{}}
	var urls []string
	for _, h := range []*countingHook{hang, down, slow, healthy} {
		srv := httptest.NewServer(h)
		defer srv.Close()
		urls = append(urls, srv.URL+"/hook")
	}
	defer close(release)
	dir := t.TempDir()
	addr := freeAddr(t)
	cfg := writeConfig(t, dir, fmt.Sprintf(`shutdown_grace: 3s
sinks:
  - {type: webhook, name: hang, url: %q, timeout: 1h}
  - {type: webhook, name: down, url: %q, queue: {max_items: %d}, retry: {initial_backoff: 10ms, max_backoff: 50ms}}
  - {type: webhook, name: slow, url: %q}
  - {type: webhook, name: healthy, url: %q}
`, urls[0], urls[1], bound, urls[2], urls[3]))
	var b strings.Builder
	for i := range failures {
		fmt.Fprintf(&b, "[2026-05-28 00:00:%02d TP0] RuntimeError: CUDA out of memory. Tried to allocate %d.00 GiB\n", i, i+1)
	}
	log := writeFile(t, dir, "server.log", b.String())
	p := start(t, "run", "--config", cfg, "--path", log, "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", addr, "--group-window", "0")
	if !waitFor(time.Minute, func() bool { return healthy.count() == failures && slow.count() == failures }) {
		t.Fatalf("healthy sink got %d, slow sink %d of %d alerts\nstderr:\n%s", healthy.count(), slow.count(), failures, p.stderr.String())
	}
	var metrics string
	if !waitFor(time.Minute, func() bool {
		_, metrics = get("http://" + addr + "/metrics")
		return metricValue(metrics, `logmatch_sink_dropped_total{reason="max_items",sink="down"}`) == failures-bound
	}) {
		t.Errorf("logmatch_sink_dropped_total{sink=down,reason=max_items} = %v, want %d\n%s", metricValue(metrics, `logmatch_sink_dropped_total{reason="max_items",sink="down"}`), failures-bound, grep(metrics, "dropped"))
	}
	if v := metricValue(metrics, `logmatch_sink_queue_depth{sink="down"}`); v > bound {
		t.Errorf("queue depth of the sink that is down %v, above its bound %d", v, bound)
	}
	if !strings.Contains(p.stderr.String(), "queue bound dropped alerts") {
		t.Errorf("the drop is not logged:\n%s", p.stderr.String())
	}
	stop := time.Now()
	p.signal(interrupt)
	code, ok := p.wait(time.Minute)
	if !ok {
		t.Fatalf("no exit a minute after SIGTERM with a sink hanging\n%s", p.stderr.String())
	}
	t.Logf("exit %d after %s", code, time.Since(stop).Round(time.Millisecond))
	if hang.count() != 0 || down.count() != 0 {
		t.Errorf("the hanging and the failing sink accepted %d and %d", hang.count(), down.count())
	}
}

// grep returns the lines of s that contain sub.
func grep(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
