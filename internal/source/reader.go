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

// countReader tracks the read position of a file without a seek per read,
// and keeps the file's first bytes (up to max) as they were read: the
// identity of the content read is taken from them, never from a later look
// at a file that may have been truncated and rewritten since.
//
// While *raw is set and fd is not -1 (a file on a local file system), the
// reads are raw system calls (rawio_linux.go): the passes of a flow.
type countReader struct {
	f    *os.File
	fd   int
	raw  *bool
	pos  int64
	head []byte
	max  int
}

func (c *countReader) Read(p []byte) (n int, err error) {
	if c.fd >= 0 && *c.raw {
		n, err = rawRead(c.fd, p)
	} else {
		n, err = c.f.Read(p)
	}
	if known := int64(len(c.head)); n > 0 && c.pos <= known && len(c.head) < c.max {
		if from := known - c.pos; from < int64(n) {
			more := p[from:n]
			if room := c.max - len(c.head); len(more) > room {
				more = more[:room]
			}
			c.head = append(c.head, more...)
		}
	}
	c.pos += int64(n)
	return n, err
}

// newReader sets up tr's splitter and framer over its open file.
func (t *Tailer) newReader(tr *tracked) {
	tr.cr = &countReader{f: tr.f, fd: rawDescriptor(tr.f), raw: &t.raw, max: t.cfg.FingerprintSize}
	tr.sp = newSplitter(tr.cr, physicalBound(t.cfg.Format, t.cfg.MaxLineBytes))
	tr.fr = newFramer(t.cfg.Format, t.cfg.MaxLineBytes)
}

// resume is the offset from which nothing undelivered would be lost.
func (tr *tracked) resume() int64 { return tr.fr.resume(tr.lineStart) }

// seekEnd positions the file at its current end.
func (tr *tracked) seekEnd() error {
	end, err := tr.f.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("seek %s: %w", tr.path, err)
	}
	tr.setPos(end)
	return nil
}

// seek positions the file at off and forgets any partial line.
func (tr *tracked) seek(off int64) error {
	if _, err := tr.f.Seek(off, io.SeekStart); err != nil {
		return fmt.Errorf("seek %s: %w", tr.path, err)
	}
	tr.setPos(off)
	return nil
}

func (tr *tracked) setPos(off int64) {
	tr.cr.pos = off
	tr.lineStart = off
	tr.sp.reset(tr.cr)
	tr.fr.reset()
}

// identify fingerprints the first bytes of tr's file as they are now.
func (t *Tailer) identify(tr *tracked) {
	b := t.head(tr.f, t.cfg.FingerprintSize)
	tr.cr.head = append(tr.cr.head[:0], b...)
	tr.id = FileID{Dev: tr.key.Dev, Ino: tr.key.Ino, Size: len(b), Sum: fingerprint(b)}
}

// grow extends tr's identity to the first bytes read since: lines carry
// the fingerprint of what was read before them.
func (tr *tracked) grow() {
	if h := tr.cr.head; len(h) > tr.id.Size {
		tr.id = FileID{Dev: tr.key.Dev, Ino: tr.key.Ino, Size: len(h), Sum: fingerprint(h)}
	}
}

// head reads up to n leading bytes of f without moving its offset.
func (t *Tailer) head(f *os.File, n int) []byte {
	if cap(t.scratch) < n {
		t.scratch = make([]byte, n)
	}
	b := t.scratch[:n]
	got, _ := f.ReadAt(b, 0) // a short read is a short file
	return b[:got]
}

// unchanged reports whether tr's file still starts with the bytes its
// identity covers: a byte comparison with what was read, no hashing.
func (t *Tailer) unchanged(tr *tracked) bool {
	n := tr.id.Size
	if tr.cr.fd >= 0 && t.raw {
		if cap(t.scratch) < n {
			t.scratch = make([]byte, n)
		}
		got, err := rawPread(tr.cr.fd, t.scratch[:n], 0)
		return err == nil && bytes.Equal(t.scratch[:got], tr.cr.head[:n])
	}
	return bytes.Equal(t.head(tr.f, n), tr.cr.head[:n])
}

// stat returns the size and modification time of tr's file.
func (t *Tailer) stat(tr *tracked) (size int64, mtime time.Time, err error) {
	if tr.cr.fd >= 0 && t.raw {
		return rawFstat(tr.cr.fd)
	}
	fi, err := tr.f.Stat()
	if err != nil {
		return 0, time.Time{}, err
	}
	return fi.Size(), fi.ModTime(), nil
}

// hasContent reports whether f starts with the bytes id fingerprints.
func (t *Tailer) hasContent(f *os.File, id FileID) bool {
	b := t.head(f, id.Size)
	return len(b) == id.Size && fingerprint(b) == id.Sum
}

// fileSize is f's current size, or -1 when it cannot be read.
func fileSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil {
		return -1
	}
	return fi.Size()
}

// batch is one read of a file: the clock is read once for it, and its
// counts go to the Observer once at its end.
type batch struct {
	t                *Tailer
	tr               *tracked
	ctx              context.Context
	emit             Emit
	now              time.Time
	start            int64
	lines, cut, bad0 int64
}

func (t *Tailer) newBatch(ctx context.Context, tr *tracked, now time.Time, emit Emit) *batch {
	if !t.manual {
		now = time.Now()
	}
	return &batch{t: t, tr: tr, ctx: ctx, emit: emit, now: now, start: tr.lineStart, bad0: tr.fr.bad}
}

func (b *batch) deliver(fr frame) error {
	if len(b.tr.cr.head) > b.tr.id.Size {
		b.tr.grow()
	}
	b.lines++
	if fr.truncated {
		b.cut++
	}
	return b.emit(b.ctx, b.t.line(b.tr, fr, b.now))
}

func (b *batch) done() {
	if b.tr.lineStart > b.start {
		b.t.grew = true
		b.tr.active = b.now
	}
	b.t.count(b.tr.source, b.tr.lineStart-b.start, b.lines, b.cut, b.tr.fr.bad-b.bad0)
}

// read delivers complete lines of tr, at most budget raw bytes (0: no
// bound), and reports whether it stopped on the budget.
func (t *Tailer) read(ctx context.Context, tr *tracked, budget int64, now time.Time, emit Emit) (more bool, err error) {
	b := t.newBatch(ctx, tr, now, emit)
	defer b.done()
	for n := 0; ; n++ {
		if budget > 0 && tr.lineStart-b.start >= budget {
			return true, nil
		}
		if n&255 == 255 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		line, raw, c, err := tr.sp.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, fmt.Errorf("read %s: %w", tr.path, err)
		}
		off := tr.lineStart
		tr.lineStart += raw
		if err := tr.fr.push(line, off, tr.lineStart, c, b.deliver); err != nil {
			return false, err
		}
	}
}

// finish delivers what tr holds back (an unterminated last line, open
// partial lines) because its content ends here for good.
func (t *Tailer) finish(ctx context.Context, tr *tracked, now time.Time, emit Emit) error {
	b := t.newBatch(ctx, tr, now, emit)
	defer b.done()
	if line, raw, c, ok := tr.sp.flush(); ok {
		off := tr.lineStart
		tr.lineStart += raw
		if err := tr.fr.push(line, off, tr.lineStart, c, b.deliver); err != nil {
			return err
		}
	}
	return tr.fr.flush(b.deliver)
}

// drain reads tr to its end and delivers what it holds back.
func (t *Tailer) drain(ctx context.Context, tr *tracked, now time.Time, emit Emit) error {
	if _, err := t.read(ctx, tr, 0, now, emit); err != nil {
		return err
	}
	return t.finish(ctx, tr, now, emit)
}

func (t *Tailer) line(tr *tracked, fr frame, now time.Time) Line {
	l := Line{Path: tr.path, File: tr.id, End: fr.end, Next: tr.resume(), Pod: tr.pod}
	l.Text = lineText(fr.text, t.cfg.Borrow)
	l.Source = tr.source
	l.Stream = fr.stream
	l.Offset = fr.offset
	l.Time = fr.time
	if l.Time.IsZero() {
		l.Time = now
	}
	l.Truncated = fr.truncated
	l.Framing = fr.framing
	l.NewContent, tr.newContent = tr.newContent, false
	return l
}

// gone delivers the notice that tr is no longer followed, after its last
// line.
func (t *Tailer) gone(ctx context.Context, tr *tracked, emit Emit) error {
	// Offsets at the end keep the notice harmless to a consumer that takes
	// it for an empty line: its checkpoint stays where the file ended.
	l := Line{Path: tr.path, File: tr.id, End: tr.lineStart, Next: tr.resume(), Pod: tr.pod, Gone: true}
	l.Source = tr.source
	l.Offset = tr.lineStart
	return emit(ctx, l)
}

func (t *Tailer) count(source string, bytes, lines, cut, bad int64) {
	o := t.cfg.Observer
	if lines > 0 {
		o.Add(source, CountLines, lines)
	}
	if bytes > 0 {
		o.Add(source, CountBytes, bytes)
	}
	if cut > 0 {
		o.Add(source, CountLinesCut, cut)
	}
	if bad > 0 {
		o.Add(source, CountFramingErrors, bad)
	}
}
