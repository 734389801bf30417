package pipeline

import (
	"context"
	"sync"

	"github.com/logmatch/logmatch/internal/source"
)

// batchLines is the most lines a source hands the processor at once. A
// source gives its lines one at a time; sending each on a channel wakes
// the processor for each one while it keeps up, a thread wake-up per
// line, which cost more than matching the line. Batches of the lines one
// read brought cost one wake-up each.
const batchLines = 128

// batchPool recycles the processor's spent batches for the sources.
var batchPool = sync.Pool{New: func() any {
	b := make([]source.Line, 0, batchLines)
	return &b
}}

// batcher holds one source's lines until the source flushes (when it
// would wait: after a tailer pass, before a stream's read) or batchLines
// are held, then sends them to the processor as one batch. It is not safe
// for concurrent use; each source has its own.
type batcher struct {
	out   chan<- *[]source.Line
	batch *[]source.Line
}

func newBatcher(out chan<- *[]source.Line) *batcher { return &batcher{out: out} }

func (b *batcher) emit(ctx context.Context, l source.Line) error {
	if b.batch == nil {
		b.batch = batchPool.Get().(*[]source.Line)
	}
	*b.batch = append(*b.batch, l)
	if len(*b.batch) < batchLines {
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
	if b.batch == nil || len(*b.batch) == 0 {
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

// recycle returns a batch the processor is done with to the pool.
func recycle(b *[]source.Line) {
	clear(*b) // drop the lines' text
	*b = (*b)[:0]
	batchPool.Put(b)
}
