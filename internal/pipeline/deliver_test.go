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

// depthSink records, for every alert it is sent, the size of the ack
// journal at that moment: what the delivery loop held of its
// acknowledgements so far.
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
	info, err := os.Stat(filepath.Join(s.dir, state.JournalName))
	if err != nil {
		return false, err
	}
	s.jsize = append(s.jsize, info.Size())
	if s.each != nil {
		s.each()
	}
	if s.fail[len(s.jsize)] {
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

// TestDeliverSettlesInGroups checks how a delivery loop settles: each
// accepted alert is journaled before the next is sent (a kill between
// them repeats neither); a lone round is settled when it ends, while a
// round amid a flow of alerts is held for the next commit, or settled by
// the loop as it goes once its acknowledgements have waited ackMaxWait;
// a deferral is written at once. The journal is emptied by each settle
// (JournalEmptyBytes 1), so its length counts what is held.
func TestDeliverSettlesInGroups(t *testing.T) {
	tests := []struct {
		name          string
		alerts        int
		fail          map[int]bool  // calls that fail, retryable
		step          time.Duration // the clock advances this much during each send
		wantHeld      []int         // acknowledgements held at each call
		wantHeldAfter int           // held when deliver returns
		wantLeft      int           // queued after the round
		flowing       bool          // the round begins soon after another
		byCommit      bool          // a commit, not the loop, settles what is held after the round
	}{
		{
			name:   "a lone round of quick sends is settled once, when it ends",
			alerts: 5, wantHeld: []int{0, 1, 2, 3, 4}, wantHeldAfter: 0, wantLeft: 0,
		},
		{
			name:   "a round amid a flow of alerts is settled by the next commit",
			alerts: 5, flowing: true, wantHeld: []int{0, 1, 2, 3, 4}, wantHeldAfter: 5, wantLeft: 0, byCommit: true,
		},
		{
			name:   "sends slower than ackMaxWait are settled as they go",
			alerts: 5, flowing: true, step: ackMaxWait, wantHeld: []int{0, 1, 0, 1, 0}, wantHeldAfter: 1, wantLeft: 0,
		},
		{
			// The third alert fails all three attempts of the in-process
			// retry: the two acks and its deferral are written together,
			// and the round ends there, so order is kept.
			name:   "a retryable failure is settled at once",
			alerts: 5, fail: map[int]bool{3: true, 4: true, 5: true}, wantHeld: []int{0, 1, 2, 2, 2}, wantHeldAfter: 0, wantLeft: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeNow{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
			dir := t.TempDir()
			store, err := state.Open(dir, state.Options{Now: clk.now, JournalEmptyBytes: 1})
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
			if tc.flowing {
				d.lastRound = clk.now().Add(-ackMaxWait / 2)
			}
			pause := d.deliver(context.Background(), items)
			// Sequence ids 1 to 5 make journal lines of one length.
			line := int64(0)
			for i := 1; i < len(sink.jsize) && line == 0; i++ {
				line = sink.jsize[i] - sink.jsize[i-1]
			}
			if line <= 0 {
				t.Fatalf("the journal never grew: %v", sink.jsize)
			}
			held := func(size int64) int { return int(size / line) }
			var got []int
			for _, n := range sink.jsize {
				got = append(got, held(n))
			}
			if diff := cmp.Diff(tc.wantHeld, got); diff != "" {
				t.Errorf("acknowledgements held at each call (-want +got):\n%s", diff)
			}
			size, err := os.Stat(filepath.Join(dir, state.JournalName))
			if err != nil {
				t.Fatal(err)
			}
			if got := held(size.Size()); got != tc.wantHeldAfter {
				t.Errorf("held after the round: %d, want %d", got, tc.wantHeldAfter)
			}
			if n, err := store.Depth("rec"); n != tc.wantLeft || err != nil {
				t.Errorf("queued after the round: %d, %v; want %d", n, err, tc.wantLeft)
			}
			if tc.fail == nil {
				if pause != 0 {
					t.Errorf("pause %v after a round without failures", pause)
				}
				if tc.wantHeldAfter == 0 {
					return
				}
				// What is held is settled by a commit, which the loop
				// then does not repeat, or by the loop once it is due.
				if tc.byCommit {
					if _, err := store.Commit(state.Batch{}); err != nil {
						t.Fatal(err)
					}
					if d.due() {
						t.Error("acks a commit settled are still due")
					}
				} else {
					clk.advance(ackMaxWait)
					if !d.due() {
						t.Fatal("acks held for ackMaxWait are not due")
					}
				}
				if !d.flush() || d.held() {
					t.Errorf("flush after the settle: held %v", d.outcome)
				}
				if size, err := os.Stat(filepath.Join(dir, state.JournalName)); err != nil || size.Size() != 0 {
					t.Errorf("journal after the settle: %v, %v; want empty", size, err)
				}
				if items, _, err := store.Peek("rec", peekBatch); err != nil || len(items) != 0 {
					t.Errorf("ready after the settle: %d items, %v; want none", len(items), err)
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

// encodedSink records the payloads a delivery loop hands to SendEncoded,
// and fails the test if the loop decodes and calls Send instead.
type encodedSink struct {
	t        *testing.T
	mu       sync.Mutex
	payloads []string
}

func (s *encodedSink) Send(context.Context, *sinks.Alert) (bool, error) {
	s.t.Error("Send called on a sink that takes the queued JSON")
	return false, nil
}

func (s *encodedSink) SendEncoded(_ context.Context, payload []byte) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.payloads = append(s.payloads, string(payload))
	return false, nil
}

// TestDeliverEncodedSink checks that a sink whose message is the queued
// JSON gets the queued bytes as they are, and that a payload that is not
// JSON is dropped (acknowledged, never sent) while the others go on.
func TestDeliverEncodedSink(t *testing.T) {
	store, err := state.Open(t.TempDir(), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	good, err := sinks.AlertJSON(&sinks.Alert{Schema: sinks.Schema, Fingerprint: "f1", Count: 1, Entry: "a <b> & c"})
	if err != nil {
		t.Fatal(err)
	}
	payloads := []string{string(good), `{"schema": truncated`, `{"schema":"logmatch.alert/v1","fingerprint":"f2"}`}
	var batch state.Batch
	for _, p := range payloads {
		batch.Enqueue = append(batch.Enqueue, state.Enqueue{Sink: "out", Payload: []byte(p)})
	}
	if _, err := store.Commit(batch); err != nil {
		t.Fatal(err)
	}
	sink := &encodedSink{t: t}
	d := newDeliverer(&builtSink{name: "out", sink: sink}, store, discardLogger(), nil, time.Now)
	items, _, err := store.Peek("out", peekBatch)
	if err != nil {
		t.Fatal(err)
	}
	if pause := d.deliver(context.Background(), items); pause != 0 {
		t.Fatalf("pause %v", pause)
	}
	if diff := cmp.Diff([]string{payloads[0], payloads[2]}, sink.payloads); diff != "" {
		t.Errorf("payloads sent (-want +got):\n%s", diff)
	}
	d.flush()
	if n, err := store.Depth("out"); n != 0 || err != nil {
		t.Errorf("queued after the round: %d, %v; want 0 (the bad payload dropped)", n, err)
	}
}

// TestDrainDeliversWhatTheFinalCommitQueued checks the shutdown drain
// against the final commit: a delivery loop that finds the queue empty
// just before that commit, and sees the drain begin just after it (the
// commit queues an alert, wakes the loop, and the processor's return
// closes drain, all between the loop's Peek and what it does with the
// answer), still delivers the alert, once, before it returns; a second
// drain delivers nothing again.
func TestDrainDeliversWhatTheFinalCommitQueued(t *testing.T) {
	store, err := state.Open(t.TempDir(), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	payload, err := sinks.AlertJSON(&sinks.Alert{Schema: sinks.Schema, Fingerprint: "f1", Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	sink := &encodedSink{t: t}
	d := newDeliverer(&builtSink{name: "out", sink: sink}, store, discardLogger(), nil, time.Now)
	drain := make(chan struct{})
	peeks := 0
	d.peeked = func() {
		peeks++
		if peeks > 1 {
			return
		}
		if _, err := store.Commit(state.Batch{Enqueue: []state.Enqueue{{Sink: "out", Payload: payload}}}); err != nil {
			t.Error(err)
		}
		d.notify()
		close(drain)
	}
	// The loop runs on this goroutine: it returns once the drain finds
	// nothing ready.
	if err := d.run(context.Background(), drain); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{string(payload)}, sink.payloads); diff != "" {
		t.Errorf("delivered by the drain (-want +got):\n%s", diff)
	}
	if n, err := store.Depth("out"); n != 0 || err != nil {
		t.Errorf("queued after the drain: %d, %v; want 0", n, err)
	}
	again := newDeliverer(&builtSink{name: "out", sink: sink}, store, discardLogger(), nil, time.Now)
	if err := again.run(context.Background(), drain); err != nil {
		t.Fatal(err)
	}
	if len(sink.payloads) != 1 {
		t.Errorf("a second drain sent %d alerts in all, want the one", len(sink.payloads))
	}
}
