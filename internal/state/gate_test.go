package state

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGateBlob(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{})
	if _, ok, err := s.Gate(); ok || err != nil {
		t.Fatalf("Gate() on a new store = %v, %v; want none", ok, err)
	}
	// A commit without a gate (every commit of a logmatch without one)
	// stores none.
	if _, err := s.Commit(Batch{Grouping: &Grouping{Version: 1, Data: []byte("g")}}); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Gate(); ok {
		t.Fatal("a commit without a gate stored one")
	}
	want := Gate{Version: 1, Data: []byte(`{"version":1}`)}
	if _, err := s.Commit(Batch{Gate: &want}); err != nil {
		t.Fatal(err)
	}
	// The gate commits with the rest of the batch or not at all.
	s.hook = func(step string) error {
		if step == "gate" {
			return errors.New("injected at gate")
		}
		return nil
	}
	if _, err := s.Commit(Batch{Gate: &Gate{Version: 1, Data: []byte("lost")}, Enqueue: []Enqueue{{Sink: "stdout", Payload: []byte("a")}}}); err == nil {
		t.Fatal("Commit did not fail at the gate step")
	}
	s.hook = nil
	if n, err := s.Depth("stdout"); err != nil || n != 0 {
		t.Fatalf("a failed commit queued %d alerts (%v)", n, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir, Options{})
	got, ok, err := s.Gate()
	if err != nil || !ok {
		t.Fatalf("Gate() after reopen = %v, %v", ok, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("gate blob (-want +got):\n%s", diff)
	}
}
