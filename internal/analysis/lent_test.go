package analysis_test

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// kept is what a caller keeps of a failure: its diagnosis and entry.
type kept struct {
	d    diagnosis
	text string
	raw  string
	exc  string
	line string
	// What an alert reads besides.
	key    string
	groups map[string]string
	triage analysis.Triage
	stack  []string
}

// AnalyzeLent on entries lent by an assembler with Reuse, whose lines come
// from one buffer scribbled after every Push, keeps the same diagnoses and
// texts as AnalyzeStream on owned entries, after many more lines have gone
// through the same memory.
func TestAnalyzeLentKeepsNothingLent(t *testing.T) {
	m := defaultMatcher(t)
	// Routine records, some with long continuations, so that every arena
	// is written over well past where a failure's lines were.
	noise := strings.Repeat("[2026-05-28 00:11:08 TP0] Decode batch, #running-req: 3, #token: 4096, token usage: 0.05\n", 10) +
		strings.Repeat("[2026-05-28 00:11:08 TP0] Load weight end.\n"+strings.Repeat("    weight 0123456789 abcdefghij 0123456789 abcdefghij 0123456789\n", 60), 4)
	text := noise + schedTB + "RuntimeError: CUDA error: an illegal memory access was encountered\n" + noise +
		"[2026-05-28 00:11:10 TP1] Pyspy dump for PID 7 (py-spy dump --pid 7):\nThread 7 (active): \"MainThread\"\n    event_loop (scheduler.py:100)\n" + noise +
		// One-line failures: their text is the arena's.
		"[2026-05-28 00:11:11 TP2] RuntimeError: CUDA error: an illegal memory access was encountered\n" + noise +
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n" + noise
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	keep := func(d *analysis.Diagnosis, e *entry.Entry) kept {
		k := kept{d: brief(d), text: e.Text, raw: e.Raw, key: d.Key, triage: d.Triage, stack: d.Stack}
		if d.Exception != nil {
			k.exc = d.Exception.Type + ": " + d.Exception.Message
		}
		if d.Cause != nil {
			k.line = d.Cause.Line
			k.groups = d.Cause.Groups()
		}
		return k
	}
	run := func(reuse, later bool) []kept {
		an := analysis.New(m)
		a := entry.NewAssembler(entry.Options{Reuse: reuse})
		var st analysis.Stream
		var out []kept
		buf := make([]byte, 0, 256)
		take := func(es []entry.Entry) {
			for i := range es {
				e := &es[i]
				var d analysis.Diagnosis
				var ok bool
				switch {
				case later:
					// Owned only once it is known to be kept.
					if ok = an.AnalyzeLentLater(&d, &st, e); ok {
						an.OwnLater(&d, e)
					}
				case reuse:
					d, ok = an.AnalyzeLent(&st, e)
				default:
					d, ok = an.AnalyzeStream(&st, e)
				}
				if ok {
					out = append(out, keep(&d, e))
				}
			}
		}
		for i, l := range lines {
			text := l
			if reuse && l != "" {
				buf = append(buf[:0], l...)
				text = unsafe.String(&buf[0], len(buf))
			}
			take(a.Push(entry.Line{Text: text, Offset: int64(i)}))
			for j := range buf {
				buf[j] = '#'
			}
		}
		take(a.Flush())
		return out
	}
	want, got, later := run(false, false), run(true, false), run(true, true)
	if len(want) == 0 {
		t.Fatal("no failure found")
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(kept{}, diagnosis{})); diff != "" {
		t.Errorf("lent entries kept other text (-owned +lent):\n%s", diff)
	}
	if diff := cmp.Diff(want, later, cmp.AllowUnexported(kept{}, diagnosis{})); diff != "" {
		t.Errorf("entries owned later kept other text (-owned +later):\n%s", diff)
	}
}

// One Diagnosis written by AnalyzeInto and AnalyzeLentInto entry after
// entry holds what a fresh one from Analyze and AnalyzeLent holds: nothing
// of a failure is left behind in the diagnosis of the routine entry after
// it.
func TestAnalyzeIntoOverwritesWhole(t *testing.T) {
	m := defaultMatcher(t)
	text := "[2026-05-28 00:11:08 TP0] Decode batch, #running-req: 3\n" + schedTB +
		"RuntimeError: CUDA error: an illegal memory access was encountered\n" +
		"[2026-05-28 00:11:08 TP0] Decode batch, #running-req: 3\n" +
		"ValueError: something failed\n" +
		"[2026-05-28 00:11:10 TP1] Pyspy dump for PID 7 (py-spy dump --pid 7):\nThread 7 (active): \"MainThread\"\n    event_loop (scheduler.py:100)\n" +
		"[2026-05-28 00:11:11 TP0] Decode batch, #running-req: 3\n"
	var entries []entry.Entry
	a := entry.NewAssembler(entry.Options{})
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		entries = append(entries, a.Push(entry.Line{Text: l, Offset: int64(i)})...)
	}
	entries = append(entries, a.Flush()...)
	fresh, reused := analysis.New(m), analysis.New(m)
	var d analysis.Diagnosis
	failures := 0
	for i := range entries {
		want, wantOK := fresh.Analyze(&entries[i])
		ok := reused.AnalyzeInto(&d, &entries[i])
		if ok != wantOK || !reflect.DeepEqual(d, want) {
			t.Errorf("entry %d (%q): AnalyzeInto = %v, %+v; Analyze = %v, %+v", i, entries[i].Message, ok, d, wantOK, want)
		}
		if ok {
			failures++
		}
	}
	if failures < 2 {
		t.Fatalf("%d failures among the entries, want at least 2", failures)
	}
	var st, stFresh analysis.Stream
	for i := range entries {
		e, eFresh := entries[i], entries[i]
		want, wantOK := fresh.AnalyzeLent(&stFresh, &eFresh)
		ok := reused.AnalyzeLentInto(&d, &st, &e)
		if ok != wantOK || !reflect.DeepEqual(d, want) {
			t.Errorf("entry %d (%q): AnalyzeLentInto = %v, %+v; AnalyzeLent = %v, %+v", i, e.Message, ok, d, wantOK, want)
		}
	}
}

// A lent failure entry is searched once: analysing it lent costs no more
// allocations than owning it and analysing it once, where searching the
// owned copy again would add the search's.
func TestLentFailureIsSearchedOnce(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	// Without the Matcher's caches, which keep the hits of a text searched
	// before: its search would then allocate nothing.
	recs, _ := patterns.Default()
	m, _ := matcher.Compile(recs, matcher.Options{NoShapeCache: true})
	a := entry.NewAssembler(entry.Options{})
	var entries []entry.Entry
	for i, l := range strings.Split(strings.TrimSuffix(schedTB+"RuntimeError: CUDA error: an illegal memory access was encountered\n", "\n"), "\n") {
		entries = append(entries, a.Push(entry.Line{Text: l, Offset: int64(i)})...)
	}
	entries = append(entries, a.Flush()...)
	if len(entries) != 1 {
		t.Fatalf("%d entries, want 1", len(entries))
	}
	an := analysis.New(m)
	var d analysis.Diagnosis
	if !an.AnalyzeInto(&d, &entries[0]) {
		t.Fatal("the entry is no failure")
	}
	search := testing.AllocsPerRun(20, func() { an.AnalyzeInto(&d, &entries[0]) })
	own := testing.AllocsPerRun(20, func() { e := entries[0]; e.Own() })
	// AllocsPerRun counts the whole process's allocations, so a goroutine
	// an earlier test left behind can add to one reading on a busy
	// machine: the fewest of three readings is the lent analysis's own.
	lent := testing.AllocsPerRun(20, func() { e := entries[0]; an.AnalyzeLentInto(&d, nil, &e) })
	for range 2 {
		lent = min(lent, testing.AllocsPerRun(20, func() { e := entries[0]; an.AnalyzeLentInto(&d, nil, &e) }))
	}
	t.Logf("allocations: analysis %v, Own %v, lent analysis %v", search, own, lent)
	if search == 0 {
		t.Fatal("the analysis allocates nothing: the test tells nothing")
	}
	if lent > own+search {
		t.Errorf("a lent failure entry costs %v allocations, more than owning it (%v) and analysing it once (%v)", lent, own, search)
	}
}
