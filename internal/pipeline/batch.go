package pipeline

import (
	"context"
	"sync"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/textbuf"
)

// batchLines is the most lines a source hands the processor at once. A
// source gives its lines one at a time; sending each on a channel wakes
// the processor for each one while it keeps up, a thread wake-up per
// line, which cost more than matching the line. Batches of the lines one
// read brought cost one wake-up each.
const batchLines = 128

// batch is what a source hands the processor: lines, and the bytes their
// Text is in. The sources lend their lines (source Borrow), so the
// batcher copies each text into text; the processor's assemblers copy
// what they keep again (entry.Options.Reuse), and the batch goes back to
// the pool. A line allocates nothing between the read and the match.
type batch struct {
	lines []source.Line
	text  textbuf.Buffer
	// push, when set, is the network push the lines came from: it is
	// answered once they are committed.
	push *ingest.Push
}

// maxPooledText is the most text bytes a recycled batch keeps for the next
// one: a batch of long lines does not keep its buffer for ever.
const maxPooledText = 256 << 10

// batchPool recycles the processor's spent batches for the sources.
var batchPool = sync.Pool{New: func() any {
	return &batch{lines: make([]source.Line, 0, batchLines)}
}}

// keep copies s into the batch's text and returns the copy.
func (b *batch) keep(s string) string {
	c, _ := b.text.Keep(s, 16<<10, 0) // no limit: never refused
	return c
}

// batcher holds one source's lines until the source flushes (when it
// would wait: after a tailer pass, before a stream's read) or batchLines
// are held, then sends them to the processor as one batch. It is not safe
// for concurrent use; each source has its own.
//
// With direct set, a batch is not sent but given to direct in the
// source's goroutine: with end false when it is full, and with end true
// (and perhaps nil) at each flush.
type batcher struct {
	out    chan<- *batch
	direct func(b *batch, end bool)
	batch  *batch
}

func newBatcher(out chan<- *batch) *batcher { return &batcher{out: out} }

// emit takes a line whose Text may be lent: it is copied into the batch.
func (b *batcher) emit(ctx context.Context, l source.Line) error {
	if b.batch == nil {
		b.batch = batchPool.Get().(*batch)
	}
	l.Text = b.batch.keep(l.Text)
	b.batch.lines = append(b.batch.lines, l)
	if len(b.batch.lines) < batchLines {
		return nil
	}
	if b.direct != nil {
		b.direct(b.batch, false)
		b.batch = nil
		return nil
	}
	return b.flush(ctx)
}

// flush sends the held lines, blocking while the processor is behind:
// that is the backpressure on the sources. Lines are sent whenever the
// channel has room, even once ctx has ended, so a stream's last lines
// read before a shutdown still reach the processor (which matches them:
// they cannot be read again).
func (b *batcher) flush(ctx context.Context) error {
	if b.direct != nil {
		if b.batch != nil && len(b.batch.lines) == 0 {
			recycle(b.batch)
			b.batch = nil
		}
		b.direct(b.batch, true)
		b.batch = nil
		return nil
	}
	if b.batch == nil || len(b.batch.lines) == 0 {
		return nil
	}
	select {
	case b.out <- b.batch:
		b.batch = nil
		return nil
	default:
	}
	select {
	case b.out <- b.batch:
		b.batch = nil
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// recycle returns a batch the processor is done with to the pool: nothing
// may hold its lines' text any more.
func recycle(b *batch) {
	b.reset()
	batchPool.Put(b)
}

// reset empties b, keeping its buffers unless its text buffer is large.
func (b *batch) reset() {
	b.push = nil
	clear(b.lines) // drop the lines' paths and pods
	b.lines = b.lines[:0]
	b.text.Reset(maxPooledText)
}
