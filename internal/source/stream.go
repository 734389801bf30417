package source

import (
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
		if p := pollable(f); p != f { // so that Run can stop a read of stdin
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
// reader with neither is abandoned only at its next read. Run is called once.
func (s *Stream) Run(ctx context.Context, emit Emit) error {
	if s.dup != nil {
		defer s.dup.Close()
	}
	stop := context.AfterFunc(ctx, func() { unblock(s.r) })
	defer stop()
	err := pump(ctx, s.r, s.cfg, emit)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// unblock makes a pending Read on r return.
func unblock(r io.Reader) {
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

// pump reads r to its end and delivers its lines.
func pump(ctx context.Context, r io.Reader, cfg StreamConfig, emit Emit) (err error) {
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
	sp := newSplitter(clock, physicalBound(cfg.Format, cfg.MaxLineBytes))
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
	deliver := func(f frame) error {
		lines++
		if f.truncated {
			cut++
		}
		l := Line{End: f.end, Next: fr.resume(pos)}
		l.Text = lineText(f.text, cfg.Borrow)
		l.Source = cfg.Source
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
		return emit(ctx, l)
	}
	for {
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
