package source

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Config.Flush is called after every pass, once all the lines the pass
// read have been given to Emit: a consumer that batches lines has them all
// before the tailer waits.
func TestTailerFlushesAfterEveryPass(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "server.log")
	writeFile(t, path, numbered(1, 3))
	var mu sync.Mutex
	var atFlush []int // lines delivered when each flush came
	var h *harness    // set before the first poll, the first flush
	h = startTailer(t, Config{Paths: []string{path}, Flush: func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		atFlush = append(atFlush, len(h.got.everything()))
		return nil
	}})
	h.poll()
	appendFile(t, path, numbered(4, 5))
	h.poll()
	h.poll()
	mu.Lock()
	defer mu.Unlock()
	if want := []int{3, 5, 5}; !slices.Equal(atFlush, want) {
		t.Errorf("lines delivered at each flush = %v, want %v (one flush per pass, after its lines)", atFlush, want)
	}
}

// A Flush error stops the tailer, as an Emit error does.
func TestTailerFlushErrorStopsIt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "server.log")
	writeFile(t, path, numbered(1, 1))
	tl, err := New(Config{Paths: []string{path}, NoWatch: true, Flush: func(context.Context) error { return io.ErrClosedPipe }})
	if err != nil {
		t.Fatal(err)
	}
	err = tl.Run(context.Background(), func(context.Context, Line) error { return nil })
	if err == nil || !strings.Contains(err.Error(), io.ErrClosedPipe.Error()) {
		t.Errorf("Run = %v, want the Flush error", err)
	}
}

// StreamConfig.Flush is called before each read of the input, which may
// block, with every line the input has completed so far already given to
// Emit, and once more at the end.
func TestStreamFlushesBeforeItWaits(t *testing.T) {
	r, w := io.Pipe()
	var (
		mu      sync.Mutex
		lines   []string
		flushed = make(chan int, 16)
	)
	s, err := NewStream(r, StreamConfig{Format: FormatRaw, Flush: func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		flushed <- len(lines)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.Run(context.Background(), func(_ context.Context, l Line) error {
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, l.Text)
			return nil
		})
	}()
	// The first read: nothing delivered yet.
	if n := <-flushed; n != 0 {
		t.Fatalf("first flush after %d lines, want 0", n)
	}
	if _, err := io.WriteString(w, "one\ntwo\n"); err != nil {
		t.Fatal(err)
	}
	// The read that would block next comes after both lines.
	if n := <-flushed; n != 2 {
		t.Fatalf("flush before the next read after %d lines, want 2", n)
	}
	if _, err := io.WriteString(w, "three"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var last int
	for len(flushed) > 0 {
		last = <-flushed
	}
	if last != 3 {
		t.Errorf("last flush after %d lines, want 3: the unterminated last line is handed on at the end", last)
	}
}

// Config.Flow is told true when the passes start coming on the flow's
// clock (writes faster than minPassGap) and false when they stop, in
// turn, and false once more before Run returns if a flow was on; every
// line written meanwhile is delivered.
func TestTailerTellsFlow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "server.log")
	writeFile(t, path, numbered(1, 1))
	flows := make(chan bool, 1024)
	var mu sync.Mutex
	var got []string
	tl, err := New(Config{Paths: []string{path}, Flow: func(on bool) { flows <- on }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- tl.Run(ctx, func(_ context.Context, l Line) error {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, l.Text)
			return nil
		})
	}()
	delivered := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(got)
	}
	deadline := time.After(time.Minute)
	for delivered() < 1 {
		select {
		case <-deadline:
			t.Fatal("the first line was not delivered")
		case <-time.After(5 * time.Millisecond):
		}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A line a millisecond until the flow starts.
	n := 1
	var seen []bool
	for len(seen) == 0 {
		n++
		if _, err := f.WriteString(numbered(n, n)); err != nil {
			t.Fatal(err)
		}
		select {
		case on := <-flows:
			seen = append(seen, on)
		case <-deadline:
			t.Fatal("no flow while a line was written every millisecond")
		case <-time.After(time.Millisecond):
		}
	}
	// Nothing written now: the flow ends.
	for len(seen) < 2 {
		select {
		case on := <-flows:
			seen = append(seen, on)
		case <-deadline:
			t.Fatal("the flow did not end when the writes stopped")
		}
	}
	for delivered() < n {
		select {
		case <-deadline:
			t.Fatalf("%d lines delivered, want %d", delivered(), n)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(flows)
	for on := range flows {
		seen = append(seen, on)
	}
	for i, on := range seen {
		if on != (i%2 == 0) {
			t.Fatalf("Flow calls %v: want true and false in turn, from true", seen)
		}
	}
	if len(seen)%2 != 0 {
		t.Errorf("Flow calls %v: the last is not false", seen)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := wantNumbered(1, n); !slices.Equal(got, want) {
		t.Errorf("got %d lines, want %d in order", len(got), len(want))
	}
}
