package state

import (
	"testing"
	"time"
)

// The wall clock steps back (NTP correcting a clock that booted weeks
// ahead) while an alert waits for its retry: its NextAttempt, written by
// the clock before the step, now lies weeks ahead. A deferral is never
// longer than the queue's MaxAge (the item would be dropped first) nor a
// day, so a NextAttempt further ahead than both is the clock's doing: the
// item is ready now, not stranded until the clock catches up.
func TestClockStepBackDoesNotStrandDeferredAlerts(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{Now: clk.Now})
	res, err := s.Commit(Batch{Enqueue: []Enqueue{{Sink: "webhook", Payload: []byte("a")}, {Sink: "webhook", Payload: []byte("b")}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle("webhook", Settlement{Defers: []Deferral{
		{Seq: res.Seqs[0], Next: clk.Now().Add(time.Minute), Attempts: 1},
		{Seq: res.Seqs[1], Next: clk.Now().Add(time.Minute), Attempts: 1},
	}}); err != nil {
		t.Fatal(err)
	}
	// A small step back only delays the retry by the step.
	clk.Advance(-time.Hour)
	if items, _, err := s.Peek("webhook", 10); err != nil || len(items) != 0 {
		t.Fatalf("after an hour's step back: %d ready items, %v; want none yet", len(items), err)
	}
	clk.Advance(-30 * 24 * time.Hour)
	items, drops, err := s.Peek("webhook", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || len(drops) != 0 {
		t.Errorf("after the clock stepped back 30 days: %d ready items, drops %v; want both ready, none dropped", len(items), drops)
	}
	next, ok, err := s.NextAttempt("webhook")
	if err != nil || !ok || next.After(clk.Now()) {
		t.Errorf("NextAttempt = %s, %v, %v; want due now (%s)", next, ok, err, clk.Now())
	}
	if n, err := s.Depth("webhook"); n != 2 || err != nil {
		t.Errorf("Depth = %d, %v; want 2", n, err)
	}
}

// A queue whose MaxAge is shorter than a backoff keeps the backoff: only a
// NextAttempt more than a day ahead is taken for a clock that stepped back.
func TestShortMaxAgeKeepsTheBackoff(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{Now: clk.Now, Queue: QueueBounds{MaxAge: time.Minute}})
	res, err := s.Commit(Batch{Enqueue: []Enqueue{{Sink: "webhook", Payload: []byte("a")}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle("webhook", Settlement{Defers: []Deferral{{Seq: res.Seqs[0], Next: clk.Now().Add(5 * time.Minute), Attempts: 1}}}); err != nil {
		t.Fatal(err)
	}
	if items, _, err := s.Peek("webhook", 10); err != nil || len(items) != 0 {
		t.Errorf("an item deferred 5 minutes on a queue of max_age 1m: %d ready, %v; want none yet", len(items), err)
	}
}

// The wall clock steps back a little between the Commit that queues an
// alert and the delivery loop's Peek (a shutdown's drain comes
// milliseconds after the final commit): the alert, never deferred, is
// ready at once rather than held until the clock is back where it was.
func TestClockStepBackDoesNotHoldAFreshAlert(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{Now: clk.Now})
	res, err := s.Commit(Batch{Enqueue: []Enqueue{{Sink: "stdout", Payload: []byte("a")}, {Sink: "stdout", Payload: []byte("b")}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle("stdout", Settlement{Defers: []Deferral{{Seq: res.Seqs[1], Next: clk.Now().Add(time.Minute), Attempts: 1}}}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(-50 * time.Millisecond)
	items, _, err := s.Peek("stdout", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Seq != res.Seqs[0] {
		t.Errorf("after a 50ms step back: %+v; want the fresh alert ready, the deferred one not", items)
	}
	next, ok, err := s.NextAttempt("stdout")
	if err != nil || !ok || next.After(clk.Now()) {
		t.Errorf("NextAttempt = %s, %v, %v; want due now (%s)", next, ok, err, clk.Now())
	}
}
