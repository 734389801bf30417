package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// progressDelay is how long a single-file scan runs before it shows its
// progress; a scan of several files shows it from the start.
const progressDelay = time.Second

// progressEvery is how often the progress line is redrawn.
const progressEvery = 250 * time.Millisecond

// progress reports a long scan's progress on stderr, one line redrawn in
// place: files done, megabytes read, the rate and the incidents found so
// far. It is off unless stderr is a terminal, so pipes and CI logs get
// only the results.
type progress struct {
	w         io.Writer // nil when off
	files     int
	done      atomic.Int64
	bytes     atomic.Int64
	incidents atomic.Int64
	now       func() time.Time
	delay     time.Duration
	started   time.Time
	drawn     bool // a line is on the terminal; only the drawing goroutine touches it
}

func newProgress(e env, files int) *progress {
	p := &progress{files: files, now: time.Now, delay: progressDelay}
	if e.stderrTTY {
		p.w = e.stderr
	}
	if files > 1 {
		p.delay = 0
	}
	return p
}

// reader counts what r delivers, and the file as done at its end.
func (p *progress) reader(r io.Reader) io.Reader {
	if p.w == nil {
		return r
	}
	return &countingReader{r: r, p: p}
}

// onIncidents is the scan's incident hook (scan.Options.OnIncidents), nil
// when progress is off.
func (p *progress) onIncidents() func(int) {
	if p.w == nil {
		return nil
	}
	return func(n int) { p.incidents.Store(int64(n)) }
}

type countingReader struct {
	r    io.Reader
	p    *progress
	done bool
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.bytes.Add(int64(n))
	if err == io.EOF && !c.done {
		c.done = true
		c.p.done.Add(1)
	}
	return n, err
}

// start draws the line until the returned stop is called, which clears
// it.
func (p *progress) start(ctx context.Context) (stop func()) {
	if p.w == nil {
		return func() {}
	}
	p.started = p.now()
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				p.tick()
			}
		}
	}()
	return func() {
		cancel()
		wg.Wait()
		if p.drawn {
			fmt.Fprint(p.w, "\r\033[K")
		}
	}
}

// tick redraws the line once the scan has run for the delay.
func (p *progress) tick() {
	if p.w == nil || p.now().Sub(p.started) < p.delay {
		return
	}
	fmt.Fprintf(p.w, "\r\033[K%s", p.line())
	p.drawn = true
}

// line is the progress text:
// "scanning: 2/5 files, 812.4 MB, 95.3 MB/s, 3 incidents".
func (p *progress) line() string {
	mb := float64(p.bytes.Load()) / 1e6
	secs := p.now().Sub(p.started).Seconds()
	rate := 0.0
	if secs > 0 {
		rate = mb / secs
	}
	n := p.incidents.Load()
	noun := "incidents"
	if n == 1 {
		noun = "incident"
	}
	return fmt.Sprintf("scanning: %d/%d files, %.1f MB, %.1f MB/s, %d %s", p.done.Load(), p.files, mb, rate, n, noun)
}
