package faultsuite

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// keyedPost is one POST the webhook receiver got.
type keyedPost struct {
	key    string
	status int
	alert  struct {
		Record struct{ ErrorClass string }
		Source struct {
			File   string
			Offset int64
		}
	}
}

// Issue 14 item 2: one path, one failure at the same offset in three
// contents (the first, the file truncated and rewritten, the file deleted
// and recreated). Each is its own alert with its own Idempotency-Key; the
// retry of an alert the receiver refused once carries the key of its first
// attempt.
func TestIdempotencyKeysAcrossFileContents(t *testing.T) {
	var mu sync.Mutex
	var posts []keyedPost
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p keyedPost
		p.key = r.Header.Get("Idempotency-Key")
		if err := json.NewDecoder(r.Body).Decode(&p.alert); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		// The first attempt of every key is refused: the sink retries.
		p.status = http.StatusOK
		if !seen[p.key] {
			seen[p.key] = true
			p.status = http.StatusServiceUnavailable
		}
		posts = append(posts, p)
		w.WriteHeader(p.status)
	}))
	defer srv.Close()
	delivered := func() []keyedPost {
		mu.Lock()
		defer mu.Unlock()
		var out []keyedPost
		for _, p := range posts {
			if p.status == http.StatusOK && p.alert.Record.ErrorClass == "SameError" {
				out = append(out, p)
			}
		}
		return out
	}

	dir := t.TempDir()
	content := func(gen string, tail bool) string {
		c := serving(gen, 600) + traceback("SameError")
		if tail {
			c += serving(gen, 300)
		}
		return c
	}
	log := writeFile(t, dir, "server.log", content("gen1", true))
	p := start(t, "run", "--path", log, "--state-dir", filepath.Join(dir, "state"), "--http-addr", "",
		"--start-at", "beginning", "--group-window", "0", "--sink", "webhook="+srv.URL+"/hook")
	waitDelivered := func(n int, what string) {
		t.Helper()
		if !waitFor(time.Minute, func() bool { return len(delivered()) >= n }) {
			t.Fatalf("%s: %d alerts delivered, want %d\n%s", what, len(delivered()), n, p.stderr.String())
		}
	}
	waitDelivered(1, "first content")
	// Truncated and rewritten in place: shorter, other first bytes, the
	// failure at the same offset.
	if err := os.WriteFile(log, []byte(content("gen2", false)), 0o644); err != nil {
		t.Fatal(err)
	}
	waitDelivered(2, "truncated and rewritten")
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "server.log", content("gen3", false))
	waitDelivered(3, "deleted and recreated")
	p.signal(interrupt)
	p.wait(time.Minute)

	got := delivered()
	if len(got) != 3 {
		t.Fatalf("delivered %d alerts of SameError, want 3: %+v", len(got), got)
	}
	keys := map[string]bool{}
	for i, d := range got {
		if d.alert.Source.Offset != got[0].alert.Source.Offset {
			t.Errorf("alert %d at offset %d, want every content's failure at %d", i, d.alert.Source.Offset, got[0].alert.Source.Offset)
		}
		if keys[d.key] {
			t.Errorf("alert %d (file %s) repeats an earlier content's Idempotency-Key %q", i, d.alert.Source.File, d.key)
		}
		keys[d.key] = true
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range posts {
		if p.status != http.StatusOK && !keys[p.key] && p.alert.Record.ErrorClass == "SameError" {
			t.Errorf("a refused attempt was keyed %q, which no retry carried", p.key)
		}
	}
}
