package incident

import (
	"testing"
	"time"
)

// Live, a retraction is held for the retractions that may follow it:
// one moment of them (every TP rank at once) is dropped when the wait
// ends, a second moment within a minute makes a storm that is announced
// once, as a warning, when the wait ends.
func TestALiveRetractionWaitsForItsStorm(t *testing.T) {
	opts := Options{Window: 5 * time.Minute, RepeatInterval: time.Hour, Settle: 2 * time.Second, Correlation: 15 * time.Minute, ConsequenceWait: 30 * time.Second}
	retract := func(rank string, at time.Time) Occurrence {
		o := occ("kv-cache-pool-full-retract", "pod:a", rank, at)
		o.Scope = "pod:a"
		o.Alert.Record.Severity = "warning"
		o.Alert.Record.Tags = []string{"memory", "kv-cache", "decode", "retract"}
		return o
	}
	g := New(opts)
	g.Observe(retract("TP0", t0), t0)
	g.Observe(retract("TP1", t0), t0)
	if got := g.Tick(t0.Add(3 * time.Second)); len(got) != 0 {
		t.Fatalf("one moment, at its settle time: want it held, got %d alerts", len(got))
	}
	if got := append(g.Tick(t0.Add(40*time.Second)), g.Flush(t0.Add(41*time.Second))...); len(got) != 0 {
		t.Fatalf("one moment alone: want it dropped, got %d alerts", len(got))
	}

	g = New(opts)
	g.Observe(retract("TP0", t0), t0)
	g.Observe(retract("TP1", t0), t0)
	g.Tick(t0.Add(3 * time.Second))
	later := t0.Add(20 * time.Second)
	g.Observe(retract("TP0", later), later)
	got := append(g.Tick(later.Add(time.Second)), g.Tick(t0.Add(40*time.Second))...)
	if len(got) != 1 || got[0].Record.Severity != "warning" || got[0].Count != 3 {
		t.Fatalf("a second moment within a minute: want one warning of three lines, got %+v", got)
	}
}
