package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// The cost of the embedded catalog on healthy output is what its records
// raise in the prefilter (matcher.Matcher.Raised): a record whose key is a
// word of ordinary lines has its other clauses checked, or is tried, on
// most routine entries, and a record without a key on every one. One
// such record cost `run` more CPU than the Collector's whole pipeline
// (scripts/perf-load-and-scan.md, the eighteenth round's end). These
// bounds are counts, not times.
const (
	// maxRaisedShare bounds the share of the clean log's entries that
	// raise one record.
	maxRaisedShare = 0.10
	// maxRaisedPerEntry bounds the records raised an entry, over all
	// records but those of wideKnown.
	maxRaisedPerEntry = 0.5
)

// wideKnown are the records raised by more clean entries than
// maxRaisedShare allows until the prefilter keys them, each with why. It
// only shrinks: a record that is no longer over the bound must leave it.
// (The three wide alternations that were here, with a literal too short
// for a strided key, are anchored on triples now.)
var wideKnown = map[string]string{}

// TestCleanLogRaisesFewRecords fails when a record of the embedded
// catalog is raised by more than maxRaisedShare of the clean serving log's
// entries (BenchmarkCleanLog's), naming the record and the literal that
// raised it: a vocabulary should be keyed on its own words.
func TestCleanLogRaisesFewRecords(t *testing.T) {
	recs, _ := patterns.Default()
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "clean-serving.log"))
	if err != nil {
		t.Fatal(err)
	}
	subs := subjects(string(data))
	type raised struct {
		entries int
		by      map[string]int // the literals that raised it, and how often
	}
	counts := map[int]*raised{}
	total := 0
	for _, s := range subs {
		m.Raised(s.Text, func(rec int, lit matcher.Literal) {
			r := counts[rec]
			if r == nil {
				r = &raised{by: map[string]int{}}
				counts[rec] = r
			}
			r.entries++
			r.by[lit.Text]++
			if _, ok := wideKnown[recs[rec].Slug]; !ok {
				total++
			}
		})
	}
	limit := int(maxRaisedShare * float64(len(subs)))
	over := map[string]bool{}
	for _, rec := range slices.Sorted(func(yield func(int) bool) {
		for r := range counts {
			if !yield(r) {
				return
			}
		}
	}) {
		r := counts[rec]
		if r.entries <= limit {
			continue
		}
		slug := recs[rec].Slug
		over[slug] = true
		if _, ok := wideKnown[slug]; ok {
			continue
		}
		t.Errorf("%s (%s) is raised by %d of %d clean entries (bound %d, %.0f%%): %s",
			slug, recs[rec].Origin, r.entries, len(subs), limit, 100*maxRaisedShare, raisedBy(m, rec, r.by))
	}
	for slug := range wideKnown {
		if !over[slug] {
			t.Errorf("%s is in wideKnown but raised by at most %d of %d clean entries: take it out", slug, limit, len(subs))
		}
	}
	if per := float64(total) / float64(len(subs)); per > maxRaisedPerEntry {
		t.Errorf("the catalog raises %.2f records a clean entry (bound %.2f)", per, maxRaisedPerEntry)
	}
}

// raisedBy says what raised record rec, given the literals that did and
// how often.
func raisedBy(m *matcher.Matcher, rec int, by map[string]int) string {
	if !m.Keyed(rec) {
		if by[""] > 0 {
			return fmt.Sprintf("it has no key (no clause whose literals are all 7 bytes or more; clauses %s), so it is checked on every entry", clauses(m.Required(rec)))
		}
	}
	lits := slices.SortedFunc(func(yield func(string) bool) {
		for l := range by {
			if !yield(l) {
				return
			}
		}
	}, func(a, b string) int { return by[b] - by[a] })
	var parts []string
	for _, l := range lits {
		parts = append(parts, fmt.Sprintf("%q in %d", l, by[l]))
	}
	what := "keyed on"
	if !m.Keyed(rec) {
		what = "no key; searched first for its anchor"
	}
	return fmt.Sprintf("%s %s (clauses %s): key it on a literal routine lines lack", what, strings.Join(parts, ", "), clauses(m.Required(rec)))
}

// clauses shows a record's required literals: clauses joined by " and ",
// a clause's alternatives by " | ".
func clauses(req matcher.Required) string {
	var cs []string
	for _, c := range req {
		var ls []string
		for _, l := range c {
			ls = append(ls, fmt.Sprintf("%q", l.Text))
		}
		cs = append(cs, "("+strings.Join(ls, " | ")+")")
	}
	return strings.Join(cs, " and ")
}
