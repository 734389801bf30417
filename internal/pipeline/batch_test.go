package pipeline

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/logmatch/logmatch/internal/source"
)

func numberedLine(i int) source.Line {
	var l source.Line
	l.Text = strconv.Itoa(i)
	return l
}

// A batcher sends a full batch at once, the rest at a flush, in order, and
// nothing for a flush with nothing held.
func TestBatcherSendsInOrder(t *testing.T) {
	out := make(chan *[]source.Line, 4)
	b := newBatcher(out)
	ctx := context.Background()
	n := batchLines + 3
	for i := range n {
		if err := b.emit(ctx, numberedLine(i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d batches sent before the flush, want 1 (the full one)", len(out))
	}
	if err := b.flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.flush(ctx); err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 {
		t.Fatalf("%d batches sent, want 2: an empty flush sends nothing", len(out))
	}
	next := 0
	for range 2 {
		batch := <-out
		for _, l := range *batch {
			if l.Text != strconv.Itoa(next) {
				t.Fatalf("line %q where %d was due", l.Text, next)
			}
			next++
		}
		recycle(batch)
		if len(*batch) != 0 {
			t.Errorf("a recycled batch holds %d lines", len(*batch))
		}
	}
	if next != n {
		t.Errorf("%d lines came through, want %d", next, n)
	}
}

// A flush blocked on a full channel (the processor behind) gives up when
// its context ends and keeps the lines: nothing is sent twice or lost.
func TestBatcherFlushBlocksUntilCancelled(t *testing.T) {
	out := make(chan *[]source.Line) // nobody receives
	b := newBatcher(out)
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.emit(ctx, numberedLine(1)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := b.flush(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("flush = %v, want context.Canceled", err)
	}
	if b.batch == nil || len(*b.batch) != 1 {
		t.Fatal("the held line was dropped by a failed flush")
	}
	go func() {
		batch := <-out
		out <- batch
	}()
	if err := b.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if batch := <-out; len(*batch) != 1 || (*batch)[0].Text != "1" {
		t.Errorf("the retried flush sent %v", *batch)
	}
}

// A flush after the context ended still sends when the channel has room:
// a stream's last lines before a shutdown are not dropped.
func TestBatcherFlushAfterCancelSendsWhenThereIsRoom(t *testing.T) {
	out := make(chan *[]source.Line, 1)
	b := newBatcher(out)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 3 {
		if err := b.emit(ctx, numberedLine(i)); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 { // select would pick at random between the two ready cases
		if err := b.flush(ctx); err != nil {
			t.Fatalf("flush = %v with room in the channel", err)
		}
		if batch := <-out; len(*batch) != 3 {
			t.Fatalf("sent %d lines, want 3", len(*batch))
		}
		for i := range 3 {
			_ = b.emit(ctx, numberedLine(i))
		}
	}
}
