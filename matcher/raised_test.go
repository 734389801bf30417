package matcher

import (
	"fmt"
	"slices"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// TestRaised checks what the prefilter raises: a keyed record where its
// key clause holds (with the literal found), whatever its other clauses;
// an unkeyed record with an anchor where the anchor occurs, an
// alternation's anchor where one of its literals does; an unkeyed record
// without one on every text; and each record once.
func TestRaised(t *testing.T) {
	m := compileOK(t, []patterns.Record{
		rec("keyed", `(?:scheduler watchdog|detokenizer watchdog) fired after \d+ s`),
		rec("anchored", `^oom: .* ran`),
		rec("bare", `(?i)\bqq\b|\bzz\b`),
		rec("alternation", `\bEFOO\b|\bEBAR\b`),
	}, Options{})
	if !m.Keyed(0) || m.Keyed(1) || m.Keyed(2) || m.Keyed(3) {
		t.Fatalf("keyed: %v %v %v %v, want true false false false", m.Keyed(0), m.Keyed(1), m.Keyed(2), m.Keyed(3))
	}
	for _, c := range []struct {
		text string
		want []string
	}{
		{"all quiet here", []string{`2:""`}},
		{"the scheduler watchdog fired after x s, and scheduler watchdog again", []string{`0:"scheduler watchdog"`, `2:""`}},
		{"detokenizer watchdog is fine", []string{`0:"detokenizer watchdog"`, `2:""`}},
		{"oom: nothing", []string{`1:"oom: "`, `2:""`}},
		{"EBAR", []string{`2:""`, `3:"EBAR"`}},
		{"[2026-05-28 00:11:09 TP0] Decode batch, EFOO, #running-req: 12", []string{`2:""`, `3:"EFOO"`}},
	} {
		var got []string
		m.Raised(c.text, func(rec int, l Literal) { got = append(got, fmt.Sprintf("%d:%q", rec, l.Text)) })
		if !slices.Equal(got, c.want) {
			t.Errorf("Raised(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	none := compileOK(t, []patterns.Record{rec("a", `alpha beta gamma`), rec("b", `delta epsilon`)}, Options{NoPrefilter: true})
	n := 0
	none.Raised("anything", func(int, Literal) { n++ })
	if n != 2 {
		t.Errorf("without a prefilter %d records raised, want 2", n)
	}
}
