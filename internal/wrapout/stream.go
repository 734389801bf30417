package wrapout

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// DefaultHold is how long a line waits for the command to end its line.
const DefaultHold = 2 * time.Second

// maxHeld bounds the bytes of lines waiting for the command's line to end:
// past it they go out at once, after a line break, as when the hold ends.
const maxHeld = 1 << 20

// Stream is one output stream shared by a command's bytes (Passthrough)
// and logmatch's lines (Lines). It is safe for concurrent use.
type Stream struct {
	w    io.Writer
	hold time.Duration
	// after runs f once d has passed and returns a stop function, as
	// time.AfterFunc; tests replace it to expire a hold by hand.
	after func(d time.Duration, f func()) (stop func() bool)

	mu      sync.Mutex
	open    bool // the command's last byte written was not a line break
	ended   bool // the command's stream ended
	waiting []*waiter
	held    int         // bytes in waiting
	stop    func() bool // the hold timer, while lines wait
	gen     int         // counts hold timers: a late one ends no later hold
}

// waiter is one line held until the command's line ends.
type waiter struct {
	line []byte
	done chan struct{} // nil for a line nobody waits on
	err  error
}

// New returns a Stream writing to w, where a line waits at most hold for
// the command to end its line (DefaultHold when hold is not positive).
func New(w io.Writer, hold time.Duration) *Stream {
	if hold <= 0 {
		hold = DefaultHold
	}
	return &Stream{w: w, hold: hold, after: func(d time.Duration, f func()) func() bool {
		return time.AfterFunc(d, f).Stop
	}}
}

// Passthrough is the writer of the command's bytes. Its EndStream, called
// when the command's stream ends, lets held lines out.
func (s *Stream) Passthrough() *Passthrough { return &Passthrough{s: s} }

// Passthrough writes a command's bytes to its Stream unchanged.
type Passthrough struct{ s *Stream }

// Write writes p. Lines held for the end of the command's line go out
// right after the first line break in p that ends it, before the rest.
func (p *Passthrough) Write(b []byte) (int, error) {
	s := p.s
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(b)
	if len(s.waiting) > 0 {
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			if _, err := s.w.Write(b[:i+1]); err != nil {
				return 0, err
			}
			s.open = false
			s.release()
			b = b[i+1:]
		}
	}
	if len(b) == 0 {
		return n, nil
	}
	if _, err := s.w.Write(b); err != nil {
		return 0, err
	}
	s.open = b[len(b)-1] != '\n'
	return n, nil
}

// EndStream tells the Stream that the command's stream ended: lines
// held go out now, after a line break when it ended mid-line, and later
// lines go out at once.
func (p *Passthrough) EndStream() {
	s := p.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = true
	s.breakLine()
}

// Lines returns a writer of logmatch's lines: each Write is one or more
// whole lines (a missing final line break is added). With wait, Write
// returns once the lines are written (an alert sink: delivered means
// written); without, it returns at once and they go out in order later
// (a log, which must not hold up its caller).
func (s *Stream) Lines(wait bool) io.Writer { return lineWriter{s: s, wait: wait} }

type lineWriter struct {
	s    *Stream
	wait bool
}

func (l lineWriter) Write(b []byte) (int, error) {
	n := len(b)
	line := make([]byte, 0, len(b)+1)
	line = append(line, b...)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line = append(line, '\n')
	}
	s := l.s
	s.mu.Lock()
	if (!s.open || s.ended) && len(s.waiting) == 0 {
		if s.open { // the command's stream ended mid-line
			line = append([]byte{'\n'}, line...)
			s.open = false
		}
		_, err := s.w.Write(line)
		s.mu.Unlock()
		if err != nil {
			return 0, err
		}
		return n, nil
	}
	w := &waiter{line: line}
	if l.wait {
		w.done = make(chan struct{})
	}
	s.waiting = append(s.waiting, w)
	s.held += len(line)
	if s.held > maxHeld {
		s.breakLine()
	} else if s.stop == nil {
		s.gen++
		gen := s.gen
		s.stop = s.after(s.hold, func() { s.expire(gen) })
	}
	s.mu.Unlock()
	if !l.wait {
		return n, nil
	}
	<-w.done
	if w.err != nil {
		return 0, w.err
	}
	return n, nil
}

// expire ends hold gen: the command kept its line open too long.
func (s *Stream) expire(gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen || s.stop == nil {
		return // released meanwhile
	}
	s.stop = nil
	s.breakLine()
}

// breakLine lets the held lines out, after a line break when the
// command's line is open. s.mu is held.
func (s *Stream) breakLine() {
	if len(s.waiting) == 0 {
		return
	}
	if s.open {
		if _, err := s.w.Write([]byte{'\n'}); err == nil {
			s.open = false
		}
	}
	s.release()
}

// release writes the held lines, in order, and wakes their writers.
// s.mu is held.
func (s *Stream) release() {
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
	for _, w := range s.waiting {
		_, w.err = s.w.Write(w.line)
		if w.done != nil {
			close(w.done)
		}
	}
	clear(s.waiting)
	s.waiting, s.held = s.waiting[:0], 0
}
