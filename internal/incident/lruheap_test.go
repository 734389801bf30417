package incident

import (
	"container/heap"
	"math/rand/v2"
	"testing"
	"time"
)

// lruHeap.push builds the heap heap.Push builds, group for group, with
// keys that tie and keys that do not.
func TestLRUPushIsHeapPush(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	base := time.Unix(1_700_000_000, 0)
	for round := range 200 {
		var a, b lruHeap
		n := rng.IntN(60)
		for k := range n {
			seen := base.Add(time.Duration(rng.IntN(1+round%7)) * time.Second)
			mk := func() *group {
				return &group{busy: rng.IntN(3) == 0, seen: seen, Seq: int64(k)}
			}
			ga := mk()
			gb := &group{busy: ga.busy, seen: ga.seen, Seq: ga.Seq}
			heap.Push(&a, ga)
			b.push(gb)
		}
		for i := range a {
			if a[i].Seq != b[i].Seq || a[i].slot != i || b[i].slot != i {
				t.Fatalf("round %d: place %d holds %d (slot %d) by heap.Push, %d (slot %d) by push", round, i, a[i].Seq, a[i].slot, b[i].Seq, b[i].slot)
			}
		}
	}
}
