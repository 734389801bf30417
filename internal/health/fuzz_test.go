package health

import (
	"testing"
	"time"
)

// FuzzRestore feeds arbitrary checkpoint blobs to Restore: it must return
// an error or a gate whose snapshot restores to the same status.
func FuzzRestore(f *testing.F) {
	g := New(Options{})
	g.Fatal(pod, cuda(t0), t0, t0)
	g.ContainerLog(Target{Self: true}, "uid/0", time.Time{}, t0)
	snap, err := g.Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(snap)
	f.Add([]byte(`{"version":1,"targets":[null]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g := New(Options{MaxTargets: 8})
		if err := g.Restore(b); err != nil {
			return
		}
		again, err := g.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		h := New(Options{MaxTargets: 8})
		if err := h.Restore(again); err != nil {
			t.Fatalf("a snapshot does not restore: %v\n%s", err, again)
		}
		if len(h.Status(t0)) != len(g.Status(t0)) {
			t.Fatalf("restored %d targets, snapshot had %d", len(h.Status(t0)), len(g.Status(t0)))
		}
	})
}
