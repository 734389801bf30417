package incident

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// builderCase is a diagnosed entry: a record matched on an sglang line of
// rank TP3, with a bare exception, and one no record names.
func builderCases() []struct {
	e *entry.Entry
	d *analysis.Diagnosis
} {
	rec := &patterns.Record{ID: "82948e87499ab48f", Slug: "cuda-out-of-memory", Severity: patterns.SeverityCritical,
		ErrorClass: "torch.OutOfMemoryError", Solutions: []string{"Check with nvidia-smi"}}
	text := "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
	ranks := entry.NoRanks
	ranks.TP = 3
	e1 := &entry.Entry{Source: "p", Format: entry.FormatSRT, Ranks: ranks, Time: t0, Text: text, Raw: "[ts TP3] " + text, Message: text,
		Traceback: &entry.Traceback{Bare: true, Links: []entry.Exception{{Type: "torch.OutOfMemoryError", Message: "CUDA out of memory. Tried to allocate 2.00 GiB"}}}}
	hits := []matcher.Hit{{Record: rec, Line: text}}
	d1 := &analysis.Diagnosis{Cause: &hits[0], Role: patterns.RoleCause, Signal: analysis.SignalRecord, Severity: patterns.SeverityCritical,
		Headline: text, Key: rec.ID, Exception: &e1.Traceback.Links[0]}
	e2 := &entry.Entry{Source: "p", Level: entry.LevelError, Time: t0.Add(time.Second), Text: "request failed: token=abc", Raw: "ERROR request failed: token=abc", Message: "request failed: token=abc"}
	d2 := &analysis.Diagnosis{Role: patterns.RoleCause, Signal: analysis.SignalLevel, Severity: patterns.SeverityError,
		Headline: e2.Text, Key: "unclassified:request failed"}
	return []struct {
		e *entry.Entry
		d *analysis.Diagnosis
	}{{e1, d1}, {e2, d2}}
}

// A Builder's occurrence gives a Grouper the same incidents as
// FromDiagnosis's, with Finish applied once per alert built, before the
// grouper keeps it: a repeat builds none.
func TestBuilderGivesTheIncidentsOfFromDiagnosis(t *testing.T) {
	for _, opts := range []Options{
		{Window: Forever, Settle: time.Second, Correlation: time.Minute},
		{Window: time.Minute},
		{},
	} {
		redact := func(a *sinks.Alert) { a.Headline = strings.ReplaceAll(a.Headline, "abc", "***") }
		eager, lazy := New(opts), New(opts)
		var finished int
		b := Builder{Finish: func(a *sinks.Alert) { finished++; redact(a) }}
		var got, want []sinks.Alert
		const repeats = 3
		for i := range repeats {
			for _, c := range builderCases() {
				now := t0.Add(time.Duration(i) * time.Second)
				o := FromDiagnosis(c.e, c.d, Source{Path: "p"}, now)
				redact(&o.Alert)
				want = append(want, eager.Observe(o, now)...)
				got = append(got, lazy.Observe(b.Occurrence(c.e, c.d, Source{Path: "p"}, now), now)...)
			}
		}
		end := t0.Add(time.Hour)
		want = append(want, eager.Flush(end)...)
		got = append(got, lazy.Flush(end)...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v: alerts differ (-FromDiagnosis +Builder):\n%s", opts, diff)
		}
		for _, a := range got {
			if strings.Contains(a.Headline, "abc") {
				t.Errorf("%+v: alert not finished: %q", opts, a.Headline)
			}
		}
		// Without folding, each incident's alert is built once; a
		// generic line folded into its burst's cause is built each time
		// (the cause lists it).
		if n := len(builderCases()); opts.Window != 0 && opts.Correlation == 0 && finished != n {
			t.Errorf("%+v: %d alerts built, want %d (one an incident)", opts, finished, n)
		}
		if opts.Window == 0 && finished != repeats*len(builderCases()) {
			t.Errorf("%+v: %d alerts built, want one an occurrence", opts, finished)
		}
	}
}

// An occurrence completed after its Builder made the next one would read
// an entry no longer valid: it panics.
func TestBuilderOccurrenceCompletedLatePanics(t *testing.T) {
	var b Builder
	cs := builderCases()
	o := b.Occurrence(cs[0].e, cs[0].d, Source{Path: "p"}, t0)
	b.Occurrence(cs[1].e, cs[1].d, Source{Path: "p"}, t0)
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	o.Complete()
}

// A repeat of an open incident, made by a Builder, allocates nothing: its
// alert is not built, its fingerprint and rank text are remembered.
func TestBuilderRepeatAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what allocates")
	}
	g := New(Options{Window: Forever})
	var b Builder
	c := builderCases()[0]
	g.Observe(b.Occurrence(c.e, c.d, Source{Path: "p"}, t0), t0)
	if n := testing.AllocsPerRun(100, func() {
		g.Observe(b.Occurrence(c.e, c.d, Source{Path: "p"}, t0), t0)
	}); n != 0 {
		t.Errorf("a repeat allocates %v times, want none", n)
	}
}

// A record's repeats from two sources, first without an exception, then
// with one the record's error class refuses, then with its own: a
// Builder's occurrences give the alerts FromDiagnosis's do (fingerprints
// remembered per source, the refused exception never taken, the right
// one taken), and a refused repeat builds no alert.
func TestBuilderRefusedExceptionAndSources(t *testing.T) {
	rec := &patterns.Record{ID: "5d1c0b7e2a9f4c31", Slug: "bad-value", Severity: patterns.SeverityError, ErrorClass: "ValueError"}
	msg := "the batch size must be positive"
	hits := []matcher.Hit{{Record: rec, Line: msg}}
	plain := &entry.Entry{Source: "p", Level: entry.LevelError, Time: t0, Text: msg, Raw: "ERROR " + msg, Message: msg}
	dPlain := &analysis.Diagnosis{Cause: &hits[0], Role: patterns.RoleCause, Signal: analysis.SignalRecord, Severity: patterns.SeverityError,
		Headline: msg, Key: rec.ID}
	exc := func(typ string) (*entry.Entry, *analysis.Diagnosis) {
		text := typ + ": " + msg
		e := &entry.Entry{Source: "p", Time: t0, Text: text, Raw: text, Message: text,
			Traceback: &entry.Traceback{Bare: true, Links: []entry.Exception{{Type: typ, Message: msg}}}}
		d := &analysis.Diagnosis{Cause: &hits[0], Role: patterns.RoleCause, Signal: analysis.SignalRecord, Severity: patterns.SeverityError,
			Headline: text, Key: rec.ID, Exception: &e.Traceback.Links[0]}
		return e, d
	}
	eRun, dRun := exc("RuntimeError")
	eVal, dVal := exc("ValueError")
	steps := []struct {
		e *entry.Entry
		d *analysis.Diagnosis
	}{{plain, dPlain}, {eRun, dRun}, {eRun, dRun}, {eVal, dVal}, {eRun, dRun}}
	eager, lazy := New(Options{Window: Forever}), New(Options{Window: Forever})
	var b Builder
	for i, s := range steps {
		for _, path := range []string{"a.log", "b.log"} {
			now := t0.Add(time.Duration(i) * time.Second)
			eager.Observe(FromDiagnosis(s.e, s.d, Source{Path: path}, now), now)
			lazy.Observe(b.Occurrence(s.e, s.d, Source{Path: path}, now), now)
		}
	}
	end := t0.Add(time.Hour)
	want, got := eager.Flush(end), lazy.Flush(end)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alerts differ (-FromDiagnosis +Builder):\n%s", diff)
	}
	if len(got) != 2 || got[0].Match.Exception == nil || got[0].Match.Exception.Type != "ValueError" {
		t.Errorf("want two incidents with the record's own exception, got %d: %+v", len(got), got)
	}

	if raceEnabled {
		return
	}
	g := New(Options{Window: Forever})
	var built int
	b = Builder{Finish: func(*sinks.Alert) { built++ }}
	g.Observe(b.Occurrence(plain, dPlain, Source{Path: "p"}, t0), t0)
	if n := testing.AllocsPerRun(100, func() {
		g.Observe(b.Occurrence(eRun, dRun, Source{Path: "p"}, t0), t0)
	}); n != 0 {
		t.Errorf("a repeat with a refused exception allocates %v times, want none", n)
	}
	if built != 1 {
		t.Errorf("%d alerts built, want 1 (the incident's)", built)
	}
}

// A Builder remembers fingerprints by the place of a hit's record in its
// catalog: hits of two catalogs whose records share places, from two
// sources, in turn, each get Fingerprint of their own record and source.
func TestBuilderFingerprintByOrdinal(t *testing.T) {
	compile := func(ids ...string) *matcher.Matcher {
		var recs []patterns.Record
		for _, id := range ids {
			recs = append(recs, patterns.Record{ID: id, MessagePattern: `engine step failed`, Severity: patterns.SeverityError})
		}
		m, probs := matcher.Compile(recs, matcher.Options{})
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		return m
	}
	ms := []*matcher.Matcher{compile("1111aaaa2222bbbb"), compile("3333cccc4444dddd", "5555eeee6666ffff")}
	text := "engine step failed"
	e := &entry.Entry{Source: "p", Level: entry.LevelError, Time: t0, Text: text, Raw: "ERROR " + text, Message: text}
	var b Builder
	for round := range 3 {
		for _, path := range []string{"a.log", "a.log", "b.log"} {
			for _, m := range ms {
				hits, _ := m.Match(matcher.Subject{Text: text})
				if len(hits) == 0 {
					t.Fatal("no hit")
				}
				for i := range hits {
					if _, ok := hits[i].Ordinal(); !ok {
						t.Fatal("a matcher's hit has no ordinal")
					}
					d := &analysis.Diagnosis{Cause: &hits[i], Role: patterns.RoleCause, Signal: analysis.SignalRecord,
						Severity: patterns.SeverityError, Headline: text, Key: hits[i].Record.ID}
					o := b.Occurrence(e, d, Source{Path: path}, t0)
					if got, want := string(o.fp[:]), Fingerprint(d.Key, path); got != want {
						t.Errorf("round %d, %s, %s: fingerprint %q, want %q", round, d.Key, path, got, want)
					}
				}
			}
		}
	}
}

// Through evictions that reorder the heap, restarts, a restore from a
// snapshot and flushes, a Builder's occurrences of a matcher's hits (whose
// fingerprints it keeps by place) give the alerts FromDiagnosis's do, and
// every incident in the heap is open under its id.
func TestBuilderMatcherHitsThroughEvictions(t *testing.T) {
	var recs []patterns.Record
	for i := range 24 {
		id := fmt.Sprintf("%016x", 0xabc0000+i)
		recs = append(recs, patterns.Record{ID: id, MessagePattern: fmt.Sprintf(`engine step %d failed`, i), Severity: patterns.SeverityError})
	}
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	for _, opts := range []Options{{Window: Forever, MaxGroups: 7}, {Window: time.Minute, MaxGroups: 5}} {
		eager, lazy := New(opts), New(opts)
		var b Builder
		var want, got []sinks.Alert
		rng := rand.New(rand.NewPCG(7, 11))
		for step := range 600 {
			now := t0.Add(time.Duration(step) * time.Second)
			text := fmt.Sprintf("engine step %d failed", rng.IntN(len(recs)))
			hits, _ := m.Match(matcher.Subject{Text: text})
			if len(hits) != 1 {
				t.Fatalf("%q: %d hits", text, len(hits))
			}
			e := &entry.Entry{Source: "p", Level: entry.LevelError, Time: now, Text: text, Raw: "ERROR " + text, Message: text}
			d := &analysis.Diagnosis{Cause: &hits[0], Role: patterns.RoleCause, Signal: analysis.SignalRecord,
				Severity: patterns.SeverityError, Headline: text, Key: hits[0].Record.ID}
			src := Source{Path: []string{"a.log", "b.log"}[rng.IntN(2)]}
			want = append(want, eager.Observe(FromDiagnosis(e, d, src, now), now)...)
			got = append(got, lazy.Observe(b.Occurrence(e, d, src, now), now)...)
			switch {
			case step%97 == 96:
				want = append(want, eager.Restarted("a.log", now)...)
				got = append(got, lazy.Restarted("a.log", now)...)
			case step%151 == 150:
				for _, g := range []*Grouper{eager, lazy} {
					snap, err := g.Snapshot()
					if err != nil {
						t.Fatal(err)
					}
					if err := g.Restore(snap); err != nil {
						t.Fatal(err)
					}
				}
			case step%211 == 210:
				want = append(want, eager.Flush(now)...)
				got = append(got, lazy.Flush(now)...)
			case step%13 == 12:
				want = append(want, eager.Tick(now)...)
				got = append(got, lazy.Tick(now)...)
			}
			for i, gr := range lazy.lru {
				if gr.slot != i || lazy.groups[gr.id] != gr {
					t.Fatalf("step %d: the heap's incident %d (slot %d, %s) is not open under its id", step, i, gr.slot, gr.id)
				}
			}
		}
		end := t0.Add(time.Hour)
		want = append(want, eager.Flush(end)...)
		got = append(got, lazy.Flush(end)...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v: alerts differ (-FromDiagnosis +Builder):\n%s", opts, diff)
		}
		if len(want) < 50 {
			t.Errorf("%+v: %d alerts: the bound closed too few incidents to test", opts, len(want))
		}
	}
}

// A Builder's table of places grows only as far as the records it
// remembers justify: a large catalog with few failures keeps them in its
// map; as more records fail the table covers them, and takes over the
// map's entries at the places it covers. Every fingerprint is the
// record's own throughout.
func TestBuilderPlacesGrowWithTheRecordsSeen(t *testing.T) {
	const n = 4000
	recs := make([]patterns.Record, n)
	for i := range recs {
		recs[i] = patterns.Record{ID: fmt.Sprintf("%016x", 0xfee0000+i), MessagePattern: fmt.Sprintf(`shard %d lost its lease`, i), Severity: patterns.SeverityError}
	}
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var b Builder
	seen := map[int]bool{}
	observe := func(i int) {
		seen[i] = true
		text := fmt.Sprintf("shard %d lost its lease", i)
		hits, _ := m.Match(matcher.Subject{Text: text})
		if len(hits) != 1 {
			t.Fatalf("%q: %d hits", text, len(hits))
		}
		if at, ok := hits[0].Ordinal(); !ok || at != i {
			t.Fatalf("%q: ordinal %d, %v", text, at, ok)
		}
		e := &entry.Entry{Source: "p", Level: entry.LevelError, Time: t0, Text: text, Raw: text, Message: text}
		d := &analysis.Diagnosis{Cause: &hits[0], Role: patterns.RoleCause, Signal: analysis.SignalRecord,
			Severity: patterns.SeverityError, Headline: text, Key: hits[0].Record.ID}
		o := b.Occurrence(e, d, Source{Path: "a.log"}, t0)
		if got, want := string(o.fp[:]), Fingerprint(d.Key, "a.log"); got != want {
			t.Fatalf("record %d: fingerprint %q, want %q", i, got, want)
		}
	}
	// A few failures far apart: the map holds them.
	for _, i := range []int{3999, 3001, 2500, 3999, 1800, 3001} {
		observe(i)
	}
	if len(b.byOrdinal) > 0 || len(b.fps) != 4 {
		t.Fatalf("after 4 records: a table of %d places, %d in the map; want none and 4", len(b.byOrdinal), len(b.fps))
	}
	// Many: the table covers them all, the map's entries moved into it.
	for i := 0; i < n; i += 3 {
		observe(i)
	}
	for _, i := range []int{3999, 3001, 2500, 1800, 0, 3} {
		observe(i)
	}
	if len(b.byOrdinal) < n || len(b.fps) != 0 || b.filled != len(seen) {
		t.Errorf("after %d records: a table of %d places (%d filled), %d in the map; want %d or more, all filled, none", len(seen), len(b.byOrdinal), b.filled, len(b.fps), n)
	}
}

// A Builder's remembered scope follows its sources.
func TestBuilderScope(t *testing.T) {
	var b Builder
	for _, src := range []Source{
		{Path: "a.log"}, {Path: "b.log"}, {Pod: "p", Namespace: "n", Node: "x"}, {Pod: "p", Namespace: "m", Node: "x"},
		{Pod: "q", Namespace: "m", Node: "x"}, {Node: "x"}, {Node: "y"}, {Pod: "q", Namespace: "m", Node: "y"}, {},
	} {
		if got, want := b.scope(src), ScopeOf(src); got != want {
			t.Errorf("scope(%+v) = %q, want %q", src, got, want)
		}
	}
}

// TestBuilderRankMatchesRankOf: the Builder's remembered rank texts (its
// map and hotRanks in front of it) are RankOf's for ranks met in any
// order, many of them sharing slots, and for ranks that name none.
func TestBuilderRankMatchesRankOf(t *testing.T) {
	var b Builder
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		e := &entry.Entry{Ranks: entry.NoRanks, Text: fmt.Sprintf("[rank%d]: something failed", i%7)}
		switch rng.IntN(4) {
		case 0:
		case 1:
			e.Ranks = entry.Ranks{DP: -1, PP: -1, AttnCP: -1, MoeDP: -1, TP: rng.IntN(8), EP: -1}
		case 2:
			e.Ranks = entry.Ranks{DP: rng.IntN(300), PP: rng.IntN(2) - 1, AttnCP: -1, MoeDP: -1, TP: rng.IntN(300), EP: rng.IntN(3) - 1}
		default:
			e.Ranks = entry.Ranks{DP: -2, PP: -1, AttnCP: -1, MoeDP: -1, TP: -1, EP: -1}
		}
		if got, want := b.rank(e), RankOf(e); got != want && e.Ranks.DP != -2 {
			t.Fatalf("%d: rank(%+v) = %q, want %q", i, e.Ranks, got, want)
		}
	}
}
