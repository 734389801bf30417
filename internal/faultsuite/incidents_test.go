package faultsuite

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
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

// stormReceiver is a webhook endpoint that keeps, by Idempotency-Key, the
// kind, fingerprint and count of each alert delivered and how often.
type stormReceiver struct {
	mu    sync.Mutex
	seen  map[string]int
	first map[string]stormAlert
}

type stormAlert struct {
	Kind        string `json:"kind"`
	Fingerprint string `json:"fingerprint"`
	Count       int    `json:"count"`
}

func (s *stormReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var a stormAlert
	if err := json.Unmarshal(body, &a); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	time.Sleep(2 * time.Millisecond)
	key := r.Header.Get("Idempotency-Key")
	s.mu.Lock()
	s.seen[key]++
	if _, ok := s.first[key]; !ok {
		s.first[key] = a
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// tally is what the deliveries account for: each incident announced alone
// once, or folded into a digest, its count taken once per delivery key.
func (s *stormReceiver) tally() (accounted int, twiceNew []string, repeats int, kinds map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	news := map[string]int{}
	kinds = map[string]int{}
	for key, a := range s.first {
		repeats += s.seen[key] - 1
		kinds[a.Kind]++
		switch a.Kind {
		case "new":
			news[a.Fingerprint]++
			if news[a.Fingerprint] == 1 {
				accounted++
			}
		case "digest":
			accounted += a.Count
		}
	}
	for fp, n := range news {
		if n > 1 {
			twiceNew = append(twiceNew, fp)
		}
	}
	return accounted, twiceNew, repeats, kinds
}

// A storm of distinct incidents, ten times the bound on open incidents,
// with grouping on (settle time, window, the brake on new incidents), and
// logmatch killed with SIGKILL again and again while it groups, evicts,
// commits and delivers, restarted each time on the same state directory:
// in the end every incident is accounted for exactly once, announced alone
// or folded into a digest, none announced twice under two deliveries, and
// each kill repeats at most the delivery in flight.
func TestKill9DuringStormPastTheIncidentBound(t *testing.T) {
	const incidents, bound, kills = 150, 15, 5
	rc := &stormReceiver{seen: map[string]int{}, first: map[string]stormAlert{}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	dir := t.TempDir()
	log := writeFile(t, dir, "server.log", "")
	cfg := writeFile(t, dir, "logmatch.yaml", fmt.Sprintf("max_open_incidents: %d\n", bound))
	args := []string{"run", "--config", cfg, "--path", log, "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--sink", "webhook=" + srv.URL + "/hook"}
	// Whole tracebacks, four lines each.
	lines := strings.SplitAfter(distinctTracebacks(incidents), "\n")
	var chunks []string
	for i := 0; i+4 <= len(lines); i += 4 {
		chunks = append(chunks, strings.Join(lines[i:i+4], ""))
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	p := start(t, args...)
	// The log is written while logmatch runs, in pieces, so that kills
	// land between reads, settles, evictions and deliveries.
	written := 0
	for k := range kills {
		end := min(len(chunks), written+len(chunks)/kills+1)
		appendFile(t, log, strings.Join(chunks[written:end], ""))
		written = end
		time.Sleep(time.Duration(500+r.IntN(2500)) * time.Millisecond)
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		p.wait(time.Minute)
		t.Logf("kill %d after %d of %d pieces", k+1, written, len(chunks))
		p = start(t, args...)
	}
	appendFile(t, log, strings.Join(chunks[written:], ""))
	// The digest of the incidents past the brake goes out a minute after
	// its first one.
	if !waitFor(3*time.Minute, func() bool { n, _, _, _ := rc.tally(); return n >= incidents }) {
		n, _, _, kinds := rc.tally()
		t.Fatalf("after %d kills %d of %d incidents accounted for (%v)\nstderr:\n%s", kills, n, incidents, kinds, p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
	n, twice, repeats, kinds := rc.tally()
	if n != incidents {
		t.Errorf("%d incidents accounted for, want %d (%v)", n, incidents, kinds)
	}
	if len(twice) > 0 {
		t.Errorf("incidents announced as new under two deliveries: %v", twice)
	}
	if repeats > kills {
		t.Errorf("%d deliveries repeated, want at most one per kill (%d)", repeats, kills)
	}
	t.Logf("%d kills: %v, %d repeated", kills, kinds, repeats)
}

func appendFile(t testing.TB, path, content string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
