package state

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestSettle(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{Now: clk.Now})
	res, err := s.Commit(Batch{Enqueue: []Enqueue{
		{Sink: "slack", Payload: []byte("a")},
		{Sink: "slack", Payload: []byte("b")},
		{Sink: "slack", Payload: []byte("c")},
		{Sink: "slack", Payload: []byte("d")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d := res.Seqs[0], res.Seqs[1], res.Seqs[2], res.Seqs[3]
	retryAt := clk.Now().Add(time.Minute)
	got, err := s.Settle("slack", Settlement{
		Acks:   []uint64{a, c, 999},
		Defers: []Deferral{{Seq: b, Next: retryAt, Attempts: 2}, {Seq: c, Next: retryAt, Attempts: 1}, {Seq: 998}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Settled{Acked: 2, Deferred: 1}); got != want {
		t.Errorf("Settle() = %+v, want %+v (c is acked, not deferred)", got, want)
	}
	if n, err := s.Depth("slack"); n != 2 || err != nil {
		t.Errorf("Depth() = %d, %v; want 2", n, err)
	}
	items, _, err := s.Peek("slack", 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"d"}, payloads(items)); diff != "" {
		t.Errorf("ready items (-want +got):\n%s", diff)
	}
	clk.Advance(time.Minute)
	items, _, err = s.Peek("slack", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{
		{Seq: b, Enqueued: clk.Now().Add(-time.Minute), Attempts: 2, NextAttempt: retryAt, Payload: []byte("b")},
		{Seq: d, Enqueued: clk.Now().Add(-time.Minute), NextAttempt: clk.Now().Add(-time.Minute), Payload: []byte("d")},
	}
	if diff := cmp.Diff(want, items, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("items after settling (-want +got):\n%s", diff)
	}
	if got, err := s.Settle("slack", Settlement{}); got != (Settled{}) || err != nil {
		t.Errorf("empty Settle() = %+v, %v", got, err)
	}
	if got, err := s.Settle("nosuchsink", Settlement{Acks: []uint64{b}}); got != (Settled{}) || err != nil {
		t.Errorf("Settle(no queue) = %+v, %v", got, err)
	}
}

// TestSettleAtomic fails a Settle between the members of its group and
// checks that none of the group is stored: acks are durable together or
// not at all.
func TestSettleAtomic(t *testing.T) {
	for _, failAt := range []string{"ack", "defer"} {
		t.Run(failAt, func(t *testing.T) {
			s := open(t, t.TempDir(), Options{})
			res, err := s.Commit(Batch{Enqueue: []Enqueue{
				{Sink: "slack", Payload: []byte("1")}, {Sink: "slack", Payload: []byte("2")},
				{Sink: "slack", Payload: []byte("3")}, {Sink: "slack", Payload: []byte("4")},
			}})
			if err != nil {
				t.Fatal(err)
			}
			before := dump(t, s)
			st := Settlement{
				Acks:   res.Seqs[:3],
				Defers: []Deferral{{Seq: res.Seqs[3], Next: time.Now().Add(time.Hour), Attempts: 1}},
			}
			calls := 0
			s.hook = func(step string) error {
				if step != failAt {
					return nil
				}
				if calls++; calls == 2 || failAt == "defer" {
					return fmt.Errorf("injected at %s %d", step, calls)
				}
				return nil
			}
			if _, err := s.Settle("slack", st); err == nil || !strings.Contains(err.Error(), "injected at "+failAt) {
				t.Fatalf("Settle() error %v, want the injected one", err)
			}
			if diff := cmp.Diff(before, dump(t, s)); diff != "" {
				t.Errorf("a failed Settle changed the store (-before +after):\n%s", diff)
			}
			s.hook = nil
			got, err := s.Settle("slack", st)
			if want := (Settled{Acked: 3, Deferred: 1}); got != want || err != nil {
				t.Errorf("Settle() after failure = %+v, %v; want %+v", got, err, want)
			}
			if n, err := s.Depth("slack"); n != 1 || err != nil {
				t.Errorf("Depth() = %d, %v; want 1", n, err)
			}
		})
	}
}
