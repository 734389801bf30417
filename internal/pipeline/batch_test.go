package pipeline

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

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
	out := make(chan *batch, 4)
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
		for _, l := range batch.lines {
			if l.Text != strconv.Itoa(next) {
				t.Fatalf("line %q where %d was due", l.Text, next)
			}
			next++
		}
		recycle(batch)
		if len(batch.lines) != 0 || batch.text.Len() != 0 {
			t.Errorf("a recycled batch holds %d lines, %d bytes", len(batch.lines), batch.text.Len())
		}
	}
	if next != n {
		t.Errorf("%d lines came through, want %d", next, n)
	}
}

// A flush blocked on a full channel (the processor behind) gives up when
// its context ends and keeps the lines: nothing is sent twice or lost.
func TestBatcherFlushBlocksUntilCancelled(t *testing.T) {
	out := make(chan *batch) // nobody receives
	b := newBatcher(out)
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.emit(ctx, numberedLine(1)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := b.flush(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("flush = %v, want context.Canceled", err)
	}
	if b.batch == nil || len(b.batch.lines) != 1 {
		t.Fatal("the held line was dropped by a failed flush")
	}
	go func() {
		batch := <-out
		out <- batch
	}()
	if err := b.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if batch := <-out; len(batch.lines) != 1 || batch.lines[0].Text != "1" {
		t.Errorf("the retried flush sent %v", batch.lines)
	}
}

// A flush after the context ended still sends when the channel has room:
// a stream's last lines before a shutdown are not dropped.
func TestBatcherFlushAfterCancelSendsWhenThereIsRoom(t *testing.T) {
	out := make(chan *batch, 1)
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
		if batch := <-out; len(batch.lines) != 3 {
			t.Fatalf("sent %d lines, want 3", len(batch.lines))
		}
		for i := range 3 {
			_ = b.emit(ctx, numberedLine(i))
		}
	}
}

// The batcher copies each line's text: a source may lend it (reuse its
// buffer once emit returns), and the lines of a batch, sent or not, keep
// their text, across buffer growth too.
func TestBatcherCopiesLentText(t *testing.T) {
	out := make(chan *batch, 2)
	b := newBatcher(out)
	ctx := context.Background()
	buf := make([]byte, 0, 64<<10)
	var want []string
	for i := range batchLines + 5 {
		// Lines long enough that the batch's text outgrows its first buffer.
		s := strings.Repeat(strconv.Itoa(i), 300+i)
		buf = append(buf[:0], s...)
		var l source.Line
		l.Text = unsafe.String(&buf[0], len(buf))
		if err := b.emit(ctx, l); err != nil {
			t.Fatal(err)
		}
		for j := range buf {
			buf[j] = '#'
		}
		want = append(want, s)
	}
	if err := b.flush(ctx); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 2 {
		bt := <-out
		for _, l := range bt.lines {
			got = append(got, l.Text)
		}
	}
	if !slices.Equal(want, got) {
		t.Errorf("the batches' lines lost their text: got %d lines, first %.20q", len(got), got[0])
	}
}

// A recycled batch lets go of a large text buffer.
func TestRecycleDropsLargeText(t *testing.T) {
	bt := &batch{}
	bt.keep(strings.Repeat("x", maxPooledText+1))
	bt.reset()
	if bt.text.Cap() != 0 {
		t.Errorf("a recycled batch kept %d bytes of text buffer", bt.text.Cap())
	}
	bt = &batch{}
	bt.keep("ten bytes!")
	c := bt.text.Cap()
	bt.reset()
	if bt.text.Cap() != c || bt.text.Len() != 0 {
		t.Errorf("a recycled batch has text len %d cap %d, want 0 and %d", bt.text.Len(), bt.text.Cap(), c)
	}
}

// A direct batcher gives a full batch to its function at once (end false)
// and the rest at each flush (end true, nil when nothing is held), in
// order, and sends nothing on a channel.
func TestBatcherDirect(t *testing.T) {
	type call struct {
		lines []string
		end   bool
		isNil bool
	}
	var calls []call
	b := &batcher{direct: func(bt *batch, end bool) {
		c := call{end: end, isNil: bt == nil}
		if bt != nil {
			for _, l := range bt.lines {
				// The text is in the batch's buffer, which recycle
				// gives to the next batch.
				c.lines = append(c.lines, strings.Clone(l.Text))
			}
			recycle(bt)
		}
		calls = append(calls, c)
	}}
	ctx := context.Background()
	n := batchLines + 3
	for i := range n {
		if err := b.emit(ctx, numberedLine(i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(calls) != 1 || calls[0].end || len(calls[0].lines) != batchLines {
		t.Fatalf("before the flush: %+v, want one full batch with end false", calls)
	}
	for range 2 {
		if err := b.flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(calls) != 3 || !calls[1].end || len(calls[1].lines) != 3 || !calls[2].end || !calls[2].isNil {
		t.Fatalf("after two flushes: %d calls %+v, want the last 3 lines with end, then nil with end", len(calls), calls[1:])
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.lines...)
	}
	for i, s := range got {
		if s != strconv.Itoa(i) {
			t.Fatalf("line %q where %d was due", s, i)
		}
	}
}
