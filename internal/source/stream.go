package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// StreamConfig configures a Stream. Zero values take defaults.
type StreamConfig struct {
	// Source is Line.Source; "" means "stdin".
	Source string
	// Stream is Line.Stream for raw lines ("stdout", "stderr" or "").
	Stream string
	// Format is the framing; "" means FormatAuto.
	Format Format
	// MaxLineBytes bounds a line; 0 means DefaultMaxLineBytes.
	MaxLineBytes int
	// Observer receives counts; nil means none.
	Observer Observer
	// Now stamps raw lines, which carry no time of their own; nil means
	// time.Now. One-shot scans fix it so their output is reproducible.
	Now func() time.Time
	// Flush, when set, is called before every read of the input, which
	// may block, and when the input ends: a consumer that holds the lines
	// Emit gives it hands them on there. An error stops the stream, as
	// one from Emit does.
	Flush func(context.Context) error
	// Borrow hands Emit each line's Text in the reader's own buffer, valid
	// only until Emit returns, instead of a copy. A consumer that keeps no
	// text, or copies what it keeps (an entry.Assembler with Reuse), saves
	// an allocation a line.
	Borrow bool
}

func (c StreamConfig) withDefaults() (StreamConfig, error) {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Source == "" {
		c.Source = "stdin"
	}
	if c.MaxLineBytes == 0 {
		c.MaxLineBytes = DefaultMaxLineBytes
	}
	if c.Observer == nil {
		c.Observer = nopObserver{}
	}
	f, err := ParseFormat(string(c.Format))
	if err != nil {
		return c, err
	}
	c.Format = f
	if c.MaxLineBytes < 1 {
		return c, fmt.Errorf("max line bytes %d: must be positive", c.MaxLineBytes)
	}
	return c, nil
}

// Stream reads lines from one io.Reader, such as stdin (--path -). Its
// offsets are byte counts from the start of the stream: a stream cannot be
// resumed, so its lines carry no FileID.
type Stream struct {
	cfg StreamConfig
	r   io.Reader
	dup *os.File // a pollable duplicate of an *os.File reader, closed by Run
}

// streamBufferSize is the read buffer of a Stream. A larger one makes
// fewer reads, but the lines a read brings are then further from the
// first-level and second-level caches when they are split and matched:
// with 256 KB (the size of the prefilter's fixed bloom) BenchmarkScanLines
// took 6% more CPU a line than with 64 KB, which is one read(2) every 500
// or so lines.
const streamBufferSize = 64 << 10

// NewStream validates cfg and builds a Stream over r.
func NewStream(r io.Reader, cfg StreamConfig) (*Stream, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", cfg.Source, err)
	}
	if r == nil {
		return nil, fmt.Errorf("stream %s: reader is nil", cfg.Source)
	}
	s := &Stream{cfg: cfg, r: r}
	if f, ok := r.(*os.File); ok {
		if lf := openLocalFile(f); lf != nil { // a regular file needs no unblocking
			s.r = lf
		} else if p := pollable(f); p != f { // so that Run can stop a read of stdin
			s.r, s.dup = p, p
		}
	}
	return s, nil
}

// Run delivers the stream's lines until its end (the last line is delivered
// even without a final newline) or until ctx is done; both return nil.
// Errors are read errors and emit's. To stop a blocked read when ctx is
// done, Run sets a past read deadline on the reader when it supports
// deadlines (an *os.File is read through a non-blocking duplicate of its
// descriptor for this) and otherwise closes it when it is an io.Closer; a
// reader with neither is abandoned only at its next read, as is a regular
// file of a local file system, which is read with raw system calls
// (localFile) and whose reads do not block. Run is called once.
func (s *Stream) Run(ctx context.Context, emit Emit) error {
	return s.RunLent(ctx, func(l *Line) error { return emit(ctx, *l) })
}

// RunLent is Run for a consumer that takes each line by pointer: the Line
// is the stream's own, reused for every line, and fn must neither change
// it nor keep the pointer past its return. It saves copying the Line for
// every line. Run or RunLent is called once.
func (s *Stream) RunLent(ctx context.Context, fn func(*Line) error) error {
	if s.dup != nil {
		defer s.dup.Close()
	}
	stop := context.AfterFunc(ctx, func() { unblock(s.r) })
	defer stop()
	err := pumpLent(ctx, s.r, s.cfg, streamBufferSize, fn)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// unblock makes a pending Read on r return.
func unblock(r io.Reader) {
	if lf, ok := r.(*localFile); ok {
		lf.stop()
		return
	}
	type deadliner interface{ SetReadDeadline(time.Time) error }
	if d, ok := r.(deadliner); ok && d.SetReadDeadline(time.Unix(1, 0)) == nil {
		return
	}
	if c, ok := r.(io.Closer); ok {
		c.Close()
	}
}

// readClock passes reads through and notes when the last one brought
// data: a raw line is stamped with the time of the read that completed it,
// one clock reading per read rather than one per line.
// It also calls flush, when set, before each read, which may block.
type readClock struct {
	r     io.Reader
	now   func() time.Time
	t     time.Time
	ctx   context.Context
	flush func(context.Context) error
}

func (c *readClock) Read(p []byte) (int, error) {
	if c.flush != nil {
		if err := c.flush(c.ctx); err != nil {
			return 0, err
		}
	}
	n, err := c.r.Read(p)
	if n > 0 {
		c.t = c.now()
	}
	return n, err
}

// pump reads r to its end and delivers its lines, each a Line of its own,
// through a read buffer of the tailer's size.
func pump(ctx context.Context, r io.Reader, cfg StreamConfig, emit Emit) error {
	return pumpLent(ctx, r, cfg, readBufferSize, func(l *Line) error { return emit(ctx, *l) })
}

// pumpLent reads r to its end, size bytes a read at most, and delivers its
// lines in one Line that it reuses.
func pumpLent(ctx context.Context, r io.Reader, cfg StreamConfig, size int, emit func(*Line) error) (err error) {
	if cfg.Flush != nil {
		// What the last lines left held is handed on at the end, whatever
		// ended the input.
		defer func() {
			if ferr := cfg.Flush(ctx); err == nil {
				err = ferr
			}
		}()
	}
	clock := &readClock{r: r, now: cfg.Now, ctx: ctx, flush: cfg.Flush}
	sp := newSplitterSize(clock, physicalBound(cfg.Format, cfg.MaxLineBytes), size)
	fr := newFramer(cfg.Format, cfg.MaxLineBytes)
	var pos int64
	var lines, cut int64
	defer func() {
		o := cfg.Observer
		if lines > 0 {
			o.Add(cfg.Source, CountLines, lines)
		}
		if pos > 0 {
			o.Add(cfg.Source, CountBytes, pos)
		}
		if cut > 0 {
			o.Add(cfg.Source, CountLinesCut, cut)
		}
		if fr.bad > 0 {
			o.Add(cfg.Source, CountFramingErrors, fr.bad)
		}
	}()
	l := &Line{}
	l.Source = cfg.Source
	deliver := func(f frame) error {
		lines++
		if f.truncated {
			cut++
		}
		l.Text = lineText(f.text, cfg.Borrow)
		l.Stream = f.stream
		if l.Stream == "" {
			l.Stream = cfg.Stream
		}
		l.Offset = f.offset
		l.Time = f.time
		if l.Time.IsZero() {
			l.Time = clock.t
		}
		l.Truncated = f.truncated
		l.Framing = f.framing
		l.End, l.Next = f.end, fr.resume(pos)
		return emit(l)
	}
	for {
		// Raw lines that lie whole in the read buffer are cut here as
		// splitter.next cuts them and delivered as framer.raw does, with no
		// call a line: a raw line is its physical line, and no partial line
		// is held before it. Lines across reads take the general way below.
		// No read is made in the loop: the read time and the stream are set
		// once for it.
		l.Stream, l.Time = cfg.Stream, clock.t
		for fr.format == FormatRaw && sp.n == 0 {
			rest := sp.rb[sp.lo:sp.hi]
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			sp.lo += i + 1
			b, c := rest[:i], i > sp.max
			if c {
				b = b[:sp.max]
			} else if i > 0 && b[i-1] == '\r' {
				b = b[:i-1]
			}
			if len(b) > fr.max {
				b, c = b[:fr.max], true
			}
			lines++
			if c {
				cut++
			}
			l.Text = lineText(b, cfg.Borrow)
			l.Offset = pos
			pos += int64(i + 1)
			l.Truncated = c
			l.End, l.Next = pos, pos
			if err := emit(l); err != nil {
				return err
			}
		}
		b, raw, c, err := sp.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return fmt.Errorf("read %s: %w", cfg.Source, err)
			}
			if b, raw, c, ok := sp.flush(); ok {
				off := pos
				pos += raw
				if err := fr.push(b, off, pos, c, deliver); err != nil {
					return err
				}
			}
			return fr.flush(deliver)
		}
		off := pos
		pos += raw
		if err := fr.push(b, off, pos, c, deliver); err != nil {
			return err
		}
	}
}
