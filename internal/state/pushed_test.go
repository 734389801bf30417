package state

import (
	"bytes"
	"testing"
)

// The inputs' blob is committed with the rest and read back after a
// reopen; a commit without one leaves it as it was.
func TestPushedBlob(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Pushed(); ok || err != nil {
		t.Fatalf("new store: ok %v, err %v", ok, err)
	}
	if _, err := s.Commit(Batch{Pushed: &Pushed{Version: 3, Data: []byte("tail")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(Batch{Enqueue: []Enqueue{{Sink: "stdout", Payload: []byte("{}")}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, ok, err := s.Pushed()
	if !ok || err != nil || p.Version != 3 || !bytes.Equal(p.Data, []byte("tail")) {
		t.Fatalf("after reopen: %+v %v %v", p, ok, err)
	}
}
