package incident

import (
	"fmt"
	"testing"
	"time"
)

// A root cause read after more waiting consequences than it looks at when
// it opens (maxAdopted) still lists them all: the ones beyond fold into it
// when their own settle time is over. The scope's list of waiting
// consequences stays bounded however many wait.
func TestARootTakesEveryWaitingConsequencePastTheBound(t *testing.T) {
	g := New(foldOpts)
	n := 3 * maxAdopted
	for i := range n {
		at := t0.Add(time.Duration(i) * time.Millisecond)
		g.Observe(cons(fmt.Sprintf("c%d", i), "pod:a", "", at), at)
	}
	if got := len(g.waiting["pod:a"]); got > maxAdopted {
		t.Fatalf("%d waiting consequences listed, want at most %d", got, maxAdopted)
	}
	root := t0.Add(time.Second)
	g.Observe(cause("root", "pod:a", "", root), root)
	alerts := g.Flush(root.Add(time.Minute))
	if len(alerts) != 1 || alerts[0].Record.ID != "root" {
		t.Fatalf("want one incident led by root, got %d", len(alerts))
	}
	if folded := g.Stats().Folded; folded != int64(n) {
		t.Errorf("root took %d consequences, want %d", folded, n)
	}
}

// BenchmarkAdoptAmongWaiting measures a new root cause opened in a scope
// where thousands of consequences wait (lines that send their reader
// elsewhere, read in a storm with no cause near them): it must cost about
// what it costs among a few.
func BenchmarkAdoptAmongWaiting(b *testing.B) {
	for _, waiting := range []int{10, 5000} {
		b.Run(fmt.Sprintf("waiting=%d", waiting), func(b *testing.B) {
			g := New(Options{Window: Forever, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
			for i := range waiting {
				at := t0.Add(time.Duration(i) * time.Hour)
				g.Observe(cons(fmt.Sprintf("c%d", i), "pod:a", "", at), t0)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				at := t0.Add(time.Duration(waiting+i) * time.Hour)
				g.Observe(cause(fmt.Sprintf("r%d", i), "pod:a", "", at), t0)
			}
		})
	}
}

// A consequence folded into one root cause and read again later under the
// same fingerprint waits once, not twice: the next root cause folds it once
// (adopting it twice would fold an incident already removed).
func TestAConsequenceReopenedUnderItsFingerprintIsAdoptedOnce(t *testing.T) {
	g := New(foldOpts)
	for k := range 3 {
		base := t0.Add(time.Duration(k) * time.Hour)
		g.Observe(cons("pointer", "pod:a", "", base), base)
		root := base.Add(time.Second)
		g.Observe(cause(fmt.Sprintf("root%d", k), "pod:a", "", root), root)
	}
	alerts := g.Flush(t0.Add(4 * time.Hour))
	roots := 0
	for _, a := range alerts {
		if a.Record.Role == "cause" {
			roots++
		}
	}
	if roots != 3 {
		t.Fatalf("want the three root causes alerted, got %d of %d alerts", roots, len(alerts))
	}
	if folded := g.Stats().Folded; folded != 3 {
		t.Errorf("the root causes took %d consequences, want 3 (one each)", folded)
	}
}
