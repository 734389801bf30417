package faultsuite

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// keyReceiver is a webhook endpoint that counts deliveries by
// Idempotency-Key, taking a little time over each so that a kill often
// lands while a request is in flight.
type keyReceiver struct {
	mu   sync.Mutex
	keys map[string]int
}

func (k *keyReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	time.Sleep(3 * time.Millisecond)
	k.mu.Lock()
	k.keys[r.Header.Get("Idempotency-Key")]++
	k.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (k *keyReceiver) counts() (distinct, repeats int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, n := range k.keys {
		distinct++
		repeats += n - 1
	}
	return distinct, repeats
}

// logmatch is killed with SIGKILL again and again at random moments
// (reading, grouping, committing, delivering, acknowledging), restarted
// each time on the same state directory, while a webhook takes its
// alerts. In the end every failure of the log is delivered, and each kill
// repeats at most the one alert that was in flight.
func TestRepeatedKill9WhileDelivering(t *testing.T) {
	const failures, kills = 300, 8
	rc := &keyReceiver{keys: map[string]int{}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	dir := t.TempDir()
	var b strings.Builder
	for i := range failures {
		fmt.Fprintf(&b, "[2026-05-28 %02d:%02d:%02d TP0] RuntimeError: CUDA out of memory. Tried to allocate %d.00 GiB\n",
			i/3600, i/60%60, i%60, i+1)
	}
	log := writeFile(t, dir, "server.log", b.String())
	args := []string{"run", "--path", log, "--state-dir", filepath.Join(dir, "state"), "--http-addr", "",
		"--group-window", "0", "--sink", "webhook=" + srv.URL + "/hook"}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for k := range kills {
		before, _ := rc.counts()
		p := start(t, args...)
		// Kill at a random moment once this run has delivered something,
		// so every kill lands in the middle of the work.
		if !waitFor(time.Minute, func() bool { d, _ := rc.counts(); return d > before || d == failures }) {
			t.Fatalf("run %d delivered nothing:\n%s", k, p.stderr.String())
		}
		time.Sleep(time.Duration(r.IntN(150)) * time.Millisecond)
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		p.wait(time.Minute)
	}
	p := start(t, args...)
	if !waitFor(2*time.Minute, func() bool { d, _ := rc.counts(); return d == failures }) {
		d, _ := rc.counts()
		t.Fatalf("after %d kills %d of %d failures delivered\nstderr:\n%s", kills, d, failures, p.stderr.String())
	}
	// Every alert may have been delivered before this run started: the
	// stop must not come before it can handle one.
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "logmatch started") }) {
		t.Fatalf("the last run did not start:\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
	distinct, repeats := rc.counts()
	if distinct != failures || repeats > kills {
		t.Errorf("%d distinct alerts (want %d), %d repeated (want at most one per kill, %d)", distinct, failures, repeats, kills)
	}
	t.Logf("%d kills: %d alerts, %d repeated", kills, distinct, repeats)
}
