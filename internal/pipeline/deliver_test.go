package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/sinks"
)

// depthSink records, for every alert it is sent, how many alerts the
// store still held for it at that moment: what the delivery loop had
// written of its acknowledgements so far.
type depthSink struct {
	store *state.Store
	name  string
	fail  map[int]bool // by call number (from 1): answer a retryable failure
	each  func()       // runs at every call, before it answers
	dir   string       // the state directory, to watch the ack journal
	mu    sync.Mutex
	depth []int
	jsize []int64 // the ack journal's size at each call
}

func (s *depthSink) Send(context.Context, *sinks.Alert) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.store.Depth(s.name)
	if err != nil {
		return false, err
	}
	s.depth = append(s.depth, n)
	info, err := os.Stat(filepath.Join(s.dir, state.JournalName))
	if err != nil {
		return false, err
	}
	s.jsize = append(s.jsize, info.Size())
	if s.each != nil {
		s.each()
	}
	if s.fail[len(s.depth)] {
		return true, errors.New("unavailable")
	}
	return false, nil
}

// fakeNow is a settable clock for the delivery loop.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeNow) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeNow) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestDeliverSettlesPerRound(t *testing.T) {
	tests := []struct {
		name      string
		alerts    int
		fail      map[int]bool  // calls that fail, retryable
		step      time.Duration // the clock advances this much during each send
		wantDepth []int         // the store's depth at each call
		wantLeft  int           // queued after the round
	}{
		{
			name:   "one settle per round",
			alerts: 5, wantDepth: []int{5, 5, 5, 5, 5}, wantLeft: 0,
		},
		{
			name:   "a round longer than ackMaxWait is settled as it goes",
			alerts: 5, step: ackMaxWait, wantDepth: []int{5, 5, 3, 3, 1}, wantLeft: 0,
		},
		{
			// The third alert fails all three attempts of the in-process
			// retry: the two acks and its deferral are written together,
			// and the round ends there, so order is kept.
			name:   "retryable failure ends the round",
			alerts: 5, fail: map[int]bool{3: true, 4: true, 5: true}, wantDepth: []int{5, 5, 5, 5, 5}, wantLeft: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeNow{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
			dir := t.TempDir()
			store, err := state.Open(dir, state.Options{Now: clk.now})
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			var batch state.Batch
			for range tc.alerts {
				payload, err := sinks.AlertJSON(&sinks.Alert{Schema: sinks.Schema, Count: 1})
				if err != nil {
					t.Fatal(err)
				}
				batch.Enqueue = append(batch.Enqueue, state.Enqueue{Sink: "rec", Payload: payload})
			}
			if _, err := store.Commit(batch); err != nil {
				t.Fatal(err)
			}
			sink := &depthSink{store: store, dir: dir, name: "rec", fail: tc.fail, each: func() { clk.advance(tc.step) }}
			retry := config.Retry{InitialBackoff: config.Duration(time.Millisecond), MaxBackoff: config.Duration(time.Millisecond)}
			d := newDeliverer(&builtSink{name: "rec", sink: sink, retry: retry}, store, discardLogger(), nil, clk.now)
			items, _, err := store.Peek("rec", peekBatch)
			if err != nil {
				t.Fatal(err)
			}
			pause := d.deliver(context.Background(), items)
			got := sink.depth
			if diff := cmp.Diff(tc.wantDepth, got); diff != "" {
				t.Errorf("depth at each send (-want +got):\n%s", diff)
			}
			// Every accepted alert is journaled before the next is sent,
			// so a kill between them repeats neither; a settle empties
			// the journal.
			for i := 1; i < len(sink.jsize); i++ {
				grew := sink.jsize[i] > sink.jsize[i-1]
				settled := sink.depth[i] < sink.depth[i-1]
				if !grew && !settled && !tc.fail[i] {
					t.Errorf("call %d: the journal did not grow (%d bytes) after call %d was accepted", i+1, sink.jsize[i], i)
				}
			}
			if n, err := store.Depth("rec"); n != tc.wantLeft || err != nil {
				t.Errorf("queued after the round: %d, %v; want %d", n, err, tc.wantLeft)
			}
			if tc.fail == nil {
				if pause != 0 {
					t.Errorf("pause %v after a round without failures", pause)
				}
				return
			}
			if pause <= 0 {
				t.Errorf("no pause after a retryable failure")
			}
			left, _, err := store.Peek("rec", peekBatch)
			if err != nil {
				t.Fatal(err)
			}
			if len(left) != 2 || left[0].Seq != items[3].Seq {
				t.Errorf("ready after the failed round: %d items; want the two never sent (the head is deferred)", len(left))
			}
			clk.advance(pause)
			left, _, err = store.Peek("rec", peekBatch)
			if err != nil {
				t.Fatal(err)
			}
			if len(left) != 3 || left[0].Seq != items[2].Seq || left[0].Attempts != 1 {
				t.Errorf("after the pause: %+v; want the deferred head (1 attempt) first, then the two never sent", left)
			}
		})
	}
}
