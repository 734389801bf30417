package matcher

import (
	"errors"
	"testing"
	"time"

	"github.com/logmatch/logmatch/patterns"
)

// steppingClock advances by step on every reading, so "time spent" is a
// count of readings: the budget is tested without depending on speed.
func steppingClock(step time.Duration) func() time.Duration {
	var t time.Duration
	return func() time.Duration {
		t += step
		return t
	}
}

// Issue 14 item 12: an entry has one match budget for all its candidate
// patterns. Past it the rest are skipped and reported once, so no entry
// stalls the stream however many slow patterns it meets.
func TestEntryBudget(t *testing.T) {
	recs := []patterns.Record{
		rec("r1", `disk quota exceeded on (\w+)`),
		rec("r2", `quota exceeded`),
		rec("r3", `exceeded on volume`),
		rec("r4", `disk quota`),
	}
	subject := Subject{Text: "OSError: disk quota exceeded on volume data"}

	full := compileOK(t, recs, Options{NoPrefilter: true})
	hits, errs := full.Match(subject)
	if len(hits) != 4 || len(errs) != 0 {
		t.Fatalf("without a clock step: %d hits, errors %v; want 4 hits", len(hits), errs)
	}

	// Each reading of the clock costs 10ms against a 15ms budget: the
	// start reads 10ms (nothing is spent before the first pattern, so no
	// check precedes it), the check before the second pattern 20ms (10ms
	// spent), the third 30ms (20ms spent), which is over.
	m := compileOK(t, recs, Options{NoPrefilter: true, EntryBudget: 15 * time.Millisecond})
	m.clock = steppingClock(10 * time.Millisecond)
	hits, errs = m.Match(subject)
	if len(hits) != 2 {
		t.Errorf("%d hits within the budget, want 2: %v", len(hits), ids(hits))
	}
	if len(errs) != 1 || !errors.Is(errs[0].Err, ErrEntryBudget) || errs[0].Record.ID != "r3" {
		t.Fatalf("errors %v, want one ErrEntryBudget naming r3, the first pattern left untried", errs)
	}
	if st := m.Stats(); st.OverBudget != 1 || st.Tried != 2 {
		t.Errorf("stats %+v, want 1 entry over budget and 2 patterns tried", st)
	}
}

// A pattern that times out is confirmed with a longer rerun only when the
// rerun fits in what is left of the entry's budget.
func TestEntryBudgetSkipsConfirmation(t *testing.T) {
	recs := []patterns.Record{rec("slow", `(a+)+$`)}
	subject := Subject{Text: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}
	m := compileOK(t, recs, Options{NoPrefilter: true, MatchTimeout: time.Millisecond, EntryBudget: 5 * time.Millisecond})
	_, errs := m.Match(subject)
	if len(errs) != 1 || !errors.Is(errs[0].Err, ErrMatchTimeout) {
		t.Fatalf("errors %v, want one match timeout", errs)
	}
	if st := m.Stats(); st.Retries != 0 {
		t.Errorf("%d confirmations ran, want none: a 10ms rerun does not fit a 5ms budget", st.Retries)
	}
}
