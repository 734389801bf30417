package wrapout

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeHold is a hold timer a test expires by hand.
type fakeHold struct {
	mu sync.Mutex
	f  func()
}

func (h *fakeHold) after(_ time.Duration, f func()) func() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.f = f
	return func() bool { return true }
}

func (h *fakeHold) expire() {
	h.mu.Lock()
	f := h.f
	h.mu.Unlock()
	f()
}

// syncBuf is a bytes.Buffer safe for the test and a writer goroutine.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newStream() (*Stream, *syncBuf, *fakeHold) {
	var out syncBuf
	h := &fakeHold{}
	s := New(&out, time.Hour)
	s.after = h.after
	return s, &out, h
}

const alert = `{"schema":"logmatch.alert/v1"}`

func TestLineAtALineStartGoesOutAtOnce(t *testing.T) {
	s, out, _ := newStream()
	p := s.Passthrough()
	p.Write([]byte("loading\n"))
	s.Lines(true).Write([]byte(alert + "\n"))
	p.Write([]byte("done\n"))
	if got, want := out.String(), "loading\n"+alert+"\ndone\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A line written while the command's line is open waits for its end; the
// command's bytes pass unchanged, and the rest of a chunk after the line
// break comes after the held line.
func TestLineWaitsForTheCommandsLine(t *testing.T) {
	s, out, _ := newStream()
	p := s.Passthrough()
	p.Write([]byte("progress: 10%"))
	written := make(chan struct{})
	go func() {
		s.Lines(true).Write([]byte(alert))
		close(written)
	}()
	// Wait until the alert is held: it is not written while the line is open.
	for {
		s.mu.Lock()
		n := len(s.waiting)
		s.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if got := out.String(); got != "progress: 10%" {
		t.Fatalf("the alert went into the open line: %q", got)
	}
	p.Write([]byte(" 50% 100%\nnext: 1"))
	<-written
	p.Write([]byte("0%\n"))
	want := "progress: 10% 50% 100%\n" + alert + "\nnext: 10%\n"
	if got := out.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A log line does not wait; it goes out in order with the held alert.
func TestLinesKeepTheirOrder(t *testing.T) {
	s, out, _ := newStream()
	p := s.Passthrough()
	p.Write([]byte("partial"))
	s.Lines(false).Write([]byte("log 1\n"))
	s.Lines(false).Write([]byte("log 2"))
	if got := out.String(); got != "partial" {
		t.Fatalf("a log line went into the open line: %q", got)
	}
	p.Write([]byte(" end\n"))
	if got, want := out.String(), "partial end\nlog 1\nlog 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A command that keeps its line open past the hold gets a line break
// before the held lines; its later bytes follow them.
func TestHoldExpiresWithALineBreak(t *testing.T) {
	s, out, h := newStream()
	p := s.Passthrough()
	p.Write([]byte("Loading weights"))
	s.Lines(false).Write([]byte(alert + "\n"))
	h.expire()
	p.Write([]byte("... done\n"))
	if got, want := out.String(), "Loading weights\n"+alert+"\n... done\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The command's stream ending mid-line lets the held lines out after a
// line break, and later lines go out at once.
func TestEndOfStreamReleases(t *testing.T) {
	s, out, _ := newStream()
	p := s.Passthrough()
	p.Write([]byte("crash"))
	s.Lines(false).Write([]byte("a\n"))
	p.EndStream()
	s.Lines(true).Write([]byte("b\n"))
	if got, want := out.String(), "crash\na\nb\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Many writers at once: every line of logmatch's comes out whole, and
// the command's bytes come out unchanged.
func TestConcurrentLinesStayWhole(t *testing.T) {
	var out syncBuf
	s := New(&out, time.Hour)
	p := s.Passthrough()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 50 {
				s.Lines(i%2 == 0).Write([]byte(alert + "\n"))
			}
		})
	}
	var child strings.Builder
	for i := range 500 {
		chunk := "tick"
		if i%7 == 6 {
			chunk += "\n"
		}
		child.WriteString(chunk)
		p.Write([]byte(chunk))
	}
	p.EndStream()
	wg.Wait()
	var rest strings.Builder
	alerts := 0
	for _, l := range strings.SplitAfter(out.String(), "\n") {
		if l == alert+"\n" {
			alerts++
			continue
		}
		if strings.Contains(l, "{") {
			t.Fatalf("an alert inside a command line: %q", l)
		}
		rest.WriteString(l)
	}
	if alerts != 400 {
		t.Errorf("%d alerts whole, want 400", alerts)
	}
	want := child.String()
	if !strings.HasSuffix(want, "\n") {
		want += "\n" // the line break written at the end of the stream
	}
	if rest.String() != want && rest.String() != child.String() {
		t.Errorf("the command's output changed:\n got %q\nwant %q", rest.String(), want)
	}
}

// Lines held past maxHeld bytes go out at once, after a line break: a
// command that never ends its line cannot make logmatch hold its own
// lines without bound.
func TestHeldLinesAreBounded(t *testing.T) {
	s, out, _ := newStream()
	p := s.Passthrough()
	p.Write([]byte("spinner"))
	line := strings.Repeat("x", 1023) + "\n"
	for range maxHeld / len(line) {
		s.Lines(false).Write([]byte(line))
	}
	if got := out.String(); got != "spinner" {
		t.Fatalf("lines went out before the bound: %d bytes", len(got))
	}
	s.Lines(false).Write([]byte(line))
	want := "spinner\n" + strings.Repeat(line, maxHeld/len(line)+1)
	if got := out.String(); got != want {
		t.Errorf("past the bound: got %d bytes, want %d", len(got), len(want))
	}
}
