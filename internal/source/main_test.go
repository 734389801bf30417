package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// nxadm/tail (evaluated in TestEvaluateNxadmTail) keeps a
		// process-wide inotify goroutine.
		goleak.IgnoreAnyFunction("github.com/nxadm/tail/watch.(*InotifyTracker).run"),
		goleak.IgnoreAnyFunction("github.com/fsnotify/fsnotify.(*Watcher).readEvents"),
	)
}

// tally is a recording Observer.
type tally struct {
	mu sync.Mutex
	n  map[Counter]int64
}

func (o *tally) Add(_ string, c Counter, n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n == nil {
		o.n = make(map[Counter]int64)
	}
	o.n[c] += n
}

func (o *tally) get(c Counter) int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n[c]
}

// collector records delivered lines; with clone, copies of their text (a
// tailer with Borrow lends it only until emit returns).
type collector struct {
	mu    sync.Mutex
	lines []Line
	clone bool
}

func (c *collector) emit(_ context.Context, l Line) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clone {
		l.Text = strings.Clone(l.Text)
	}
	c.lines = append(c.lines, l)
	return nil
}

// everything is what was delivered, Gone notices included.
func (c *collector) everything() []Line {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Line(nil), c.lines...)
}

// all are the delivered lines, Gone notices left out.
func (c *collector) all() []Line {
	var out []Line
	for _, l := range c.everything() {
		if !l.Gone {
			out = append(out, l)
		}
	}
	return out
}

// gone are the Gone notices delivered.
func (c *collector) gone() []Line {
	var out []Line
	for _, l := range c.everything() {
		if l.Gone {
			out = append(out, l)
		}
	}
	return out
}

func (c *collector) texts() []string {
	var out []string
	for _, l := range c.all() {
		out = append(out, l.Text)
	}
	return out
}

// harness runs a Tailer driven by a manual tick channel: every poll is one
// tick, and the fake clock only moves when the test says so.
type harness struct {
	t      *testing.T
	tick   chan time.Time
	now    time.Time
	cancel context.CancelFunc
	done   chan error
	got    *collector
	obs    *tally
	log    *logRecords
	idle   chan struct{} // receives after each poll
	tl     *Tailer
}

func startTailer(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := &harness{t: t, tick: make(chan time.Time), now: time.Unix(1_000_000, 0), got: &collector{}, obs: &tally{}, done: make(chan error, 1)}
	cfg.Tick = h.tick
	h.idle = make(chan struct{})
	cfg.Observer = h.obs
	h.log = &logRecords{}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(h.log)
	}
	if cfg.RotateWait == 0 {
		cfg.RotateWait = time.Second
	}
	tl, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	tl.afterPoll = func() { h.idle <- struct{}{} }
	h.tl = tl
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.done <- tl.Run(ctx, h.got.emit) }()
	t.Cleanup(h.stop)
	return h
}

// poll runs one poll and returns when it is done, so the test's next file
// operations never race with it.
func (h *harness) poll() {
	h.now = h.now.Add(10 * time.Millisecond)
	h.tick <- h.now
	<-h.idle
}

// advance moves the fake clock and polls.
func (h *harness) advance(d time.Duration) {
	h.now = h.now.Add(d)
	h.poll()
}

func (h *harness) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	h.cancel = nil
	for {
		select {
		case err := <-h.done:
			if err != nil {
				h.t.Errorf("Run: %v", err)
			}
			return
		case <-h.idle: // a poll still running when cancelled
		}
	}
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// numbered renders lines "line from..to" in the sglang format.
func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "[2026-11-29 10:00:00 TP0] line %d\n", i)
	}
	return b.String()
}

func wantNumbered(from, to int) []string {
	return strings.Split(strings.TrimSuffix(numbered(from, to), "\n"), "\n")
}

// numbersOf extracts the trailing numbers of delivered lines.
func numbersOf(t *testing.T, lines []string) []int {
	t.Helper()
	var out []int
	for _, l := range lines {
		i := strings.LastIndexByte(l, ' ')
		n, err := strconv.Atoi(l[i+1:])
		if err != nil {
			t.Fatalf("line %q: no trailing number", l)
		}
		out = append(out, n)
	}
	return out
}

var errStop = errors.New("stop")
