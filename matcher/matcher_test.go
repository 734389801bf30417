package matcher

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/patterns"
)

func rec(id, pattern string, mods ...func(*patterns.Record)) patterns.Record {
	r := patterns.Record{ID: id, MessagePattern: pattern, Origin: patterns.Origin{File: "test.jsonl", Line: 1}}
	for _, m := range mods {
		m(&r)
	}
	return r
}

func class(c string) func(*patterns.Record) { return func(r *patterns.Record) { r.ErrorClass = c } }
func solved(r *patterns.Record)             { r.Solutions = []string{"do this"} }

func ids(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Record.ID)
	}
	return out
}

func TestRanking(t *testing.T) {
	recs := []patterns.Record{
		rec("generic", `Scheduler hit an exception`),
		rec("short-oom", `out of memory`, class("OutOfMemoryError")),
		rec("long-oom", `CUDA out of memory\. Tried to allocate`),
		rec("long-oom-curated", `CUDA out of memory\. Tried to allocate`, solved),
		rec("long-oom-twin", `CUDA out of memory\. Tried to allocate`),
		rec("runtime", `Tried to allocate (\d+)`, class("RuntimeError")),
	}
	m := compileOK(t, recs, Options{})
	text := "Scheduler hit an exception: Traceback (most recent call last):\n" +
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20 MiB"
	tests := []struct {
		name  string
		types []string
		want  []string
	}{
		{
			name: "no exception types: literal length, then solutions, then catalog order",
			want: []string{"long-oom-curated", "long-oom", "long-oom-twin", "generic", "runtime", "short-oom"},
		},
		{
			name:  "a qualified exception type agrees on its last component",
			types: []string{"torch.OutOfMemoryError"},
			want:  []string{"short-oom", "long-oom-curated", "long-oom", "long-oom-twin", "generic", "runtime"},
		},
		{
			name:  "every agreeing class ranks first, among them by literal length",
			types: []string{"RuntimeError", "torch.OutOfMemoryError"},
			want:  []string{"runtime", "short-oom", "long-oom-curated", "long-oom", "long-oom-twin", "generic"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, errs := m.Match(Subject{Text: text, ExceptionTypes: tc.types})
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if diff := cmp.Diff(tc.want, ids(hits)); diff != "" {
				t.Errorf("ranking mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHitFields(t *testing.T) {
	m := compileOK(t, []patterns.Record{
		rec("groups", `rank (\d+) failed: (?<reason>\w+)(?: \((code \d+)\))?`),
		rec("multi-line", `first\nsecond (\w+)`),
		rec("folded", `(?i)nccl error`),
	}, Options{})
	tests := []struct {
		name string
		text string
		want []hitView
	}{
		{
			name: "numbered and named groups; a group that did not take part is left out",
			text: "[2026-05-28 00:11:09 TP3] rank 3 failed: reset\nnext line",
			want: []hitView{{
				ID: "groups", Start: 26, End: 46,
				Line:   "[2026-05-28 00:11:09 TP3] rank 3 failed: reset",
				Groups: map[string]string{"1": "3", "2": "reset", "reason": "reset"},
			}},
		},
		{
			name: "optional group that took part",
			text: "rank 12 failed: timeout (code 7)",
			want: []hitView{{
				ID: "groups", Start: 0, End: 32, Line: "rank 12 failed: timeout (code 7)",
				Groups: map[string]string{"1": "12", "2": "timeout", "reason": "timeout", "3": "code 7"},
			}},
		},
		{
			name: "a match across lines carries both lines whole",
			text: "head\nxx first\nsecond word yy\ntail",
			want: []hitView{{
				ID: "multi-line", Start: 8, End: 25, Line: "xx first\nsecond word yy",
				Groups: map[string]string{"1": "word"}, LiteralLen: 13,
			}},
		},
		{
			name: "case-insensitive pattern, offsets in bytes after multi-byte text",
			text: "größe: NCCL Error",
			want: []hitView{{ID: "folded", Start: 9, End: 19, Line: "größe: NCCL Error", LiteralLen: 10}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, errs := m.Match(Subject{Text: tc.text})
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			got := view(hits)
			for i := range tc.want {
				if tc.want[i].LiteralLen == 0 && i < len(got) {
					tc.want[i].LiteralLen = got[i].LiteralLen // checked in TestExtractLiterals
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("hits mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompileProblems(t *testing.T) {
	recs := []patterns.Record{
		rec("good", `fine`),
		{ID: "bad", MessagePattern: `broken (`, Origin: patterns.Origin{File: "cat.jsonl", Line: 7}},
		rec("also-good", `also fine`),
	}
	m, problems := Compile(recs, Options{})
	if m.Len() != 2 {
		t.Errorf("Len() = %d, want 2", m.Len())
	}
	if len(problems) != 1 {
		t.Fatalf("problems = %v, want one", problems)
	}
	p := problems[0]
	if p.File != "cat.jsonl" || p.Line != 7 || p.Field != "messagePattern" || p.Level != patterns.LevelError {
		t.Errorf("problem = %+v, want cat.jsonl:7 messagePattern at error level", p)
	}
	if !strings.HasPrefix(p.Error(), "cat.jsonl:7: messagePattern: record bad: ") {
		t.Errorf("problem renders as %q", p.Error())
	}
	hits, _ := m.Match(Subject{Text: "also fine"})
	if diff := cmp.Diff([]string{"also-good", "good"}, ids(hits)); diff != "" {
		t.Errorf("hits after a skipped record (-want +got):\n%s", diff)
	}
}

func TestPatternTimeout(t *testing.T) {
	// Nested quantifiers backtrack exponentially on a near-miss; the
	// timeout turns that into a PatternError instead of a hang or a miss.
	m := compileOK(t, []patterns.Record{
		rec("pathological", `start (a+)+b`),
		rec("healthy", `start`),
	}, Options{})
	// The text holds every literal the pattern requires ("start a", "b"),
	// so the prefilter lets it through to the regex.
	text := "b start " + strings.Repeat("a", 40) + "c"
	hits, errs := m.Match(Subject{Text: text})
	if diff := cmp.Diff([]string{"healthy"}, ids(hits)); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one timeout", errs)
	}
	if errs[0].Record.ID != "pathological" || !errors.Is(errs[0].Err, ErrMatchTimeout) {
		t.Errorf("error = %v for %s, want ErrMatchTimeout for pathological", errs[0].Err, errs[0].Record.ID)
	}
	if strings.Contains(errs[0].Err.Error(), text) {
		t.Errorf("error %q quotes the input", errs[0].Err)
	}
	st := m.Stats()
	if st.Timeouts != 1 || st.Retries != 1 || st.ByRecord["pathological"] != 1 || st.Subjects != 1 || st.Hits != 1 {
		t.Errorf("Stats() = %+v, want one subject, one hit, one timeout of pathological confirmed by one retry", st)
	}
}

func TestNoPrefilterSameHits(t *testing.T) {
	recs := []patterns.Record{
		rec("a", `Load weight (begin|end)`),
		rec("b", `(?i)weight END`),
		rec("c", `^\[.*\] Load`),
		rec("d", `nothing here`),
	}
	pre := compileOK(t, recs, Options{})
	naive := compileOK(t, recs, Options{NoPrefilter: true})
	for _, text := range []string{
		"[2026-05-28 00:10:11 TP0] Load weight end. type=LlamaForCausalLM",
		"[x] Load WEIGHT END",
		"",
		"nothing",
	} {
		got, _ := pre.Match(Subject{Text: text})
		want, _ := naive.Match(Subject{Text: text})
		if diff := cmp.Diff(view(want), view(got)); diff != "" {
			t.Errorf("%q: (-naive +prefiltered):\n%s", text, diff)
		}
	}
}

func TestSurroundingLines(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		start, end int
		want       string
	}{
		{"single line", "abc", 1, 2, "abc"},
		{"middle line", "a\nbcd\ne", 3, 4, "bcd"},
		{"match ends with the newline", "a\nbcd\ne", 2, 6, "bcd"},
		{"empty match at line start", "a\n\nb", 2, 2, ""},
		{"spans two lines", "a\nbc\nde\nf", 3, 6, "bc\nde"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SurroundingLines(tc.text, tc.start, tc.end); got != tc.want {
				t.Errorf("SurroundingLines(%q, %d, %d) = %q, want %q", tc.text, tc.start, tc.end, got, tc.want)
			}
		})
	}
}

func TestQuietLineAllocatesNothing(t *testing.T) {
	recs := []patterns.Record{
		rec("oom", `CUDA out of memory\. Tried to allocate (.+?)`),
		rec("nccl", `NCCL error in: (.+?):(\d+)`),
	}
	m := compileOK(t, recs, Options{})
	line := "[2026-05-28 00:11:10 TP0] Decode batch, #running-req: 12, #token: 4096, token usage: 0.05"
	var hits []Hit
	var errs []PatternError
	allocs := testing.AllocsPerRun(100, func() {
		hits, errs = m.AppendMatch(hits[:0], errs[:0], Subject{Text: line})
	})
	if allocs != 0 {
		t.Errorf("AppendMatch on a line without candidates: %v allocations, want 0", allocs)
	}
}

func TestConcurrentMatch(t *testing.T) {
	m := compileOK(t, []patterns.Record{rec("x", `needle (\d+)`)}, Options{})
	done := make(chan []string)
	for i := range 4 {
		go func() {
			var got []string
			for j := range 50 {
				hits, _ := m.Match(Subject{Text: "hay needle " + strings.Repeat("1", i+j%3+1)})
				got = append(got, hits[0].Groups()["1"])
			}
			done <- got
		}()
	}
	for range 4 {
		if got := <-done; len(got) != 50 {
			t.Errorf("got %d results, want 50", len(got))
		}
	}
	if st := m.Stats(); st.Subjects != 200 || st.Hits != 200 {
		t.Errorf("Stats() = %+v, want 200 subjects and hits", st)
	}
}

func TestEmptyCatalog(t *testing.T) {
	m := compileOK(t, nil, Options{})
	for _, text := range []string{"", "abc", strings.Repeat("long line ", 20)} {
		hits, errs := m.Match(Subject{Text: text})
		if len(hits)+len(errs) > 0 {
			t.Errorf("empty catalog on %q: hits %v, errors %v", text, hits, errs)
		}
	}
	if m.Len() != 0 {
		t.Errorf("Len() = %d, want 0", m.Len())
	}
}

// In a traceback the raising frame's source line often holds the message
// too; the hit shows the exception line instead, which is what happened.
func TestHitPrefersExceptionLineOverSourceLine(t *testing.T) {
	m := compileOK(t, []patterns.Record{rec("ascend", `Ascend Transfer Engine initialization failed\.`)}, Options{})
	text := "Scheduler hit an exception: Traceback (most recent call last):\n" +
		"  File \"/sgl/transfer_engine.py\", line 84, in initialize\n" +
		"    raise RuntimeError(\"Ascend Transfer Engine initialization failed.\")\n" +
		"RuntimeError: Ascend Transfer Engine initialization failed."
	hits, _ := m.Match(Subject{Text: text, ExceptionTypes: []string{"RuntimeError"}})
	if len(hits) != 1 {
		t.Fatalf("hits = %d, want 1", len(hits))
	}
	if want := "RuntimeError: Ascend Transfer Engine initialization failed."; hits[0].Line != want {
		t.Fatalf("Line = %q, want %q", hits[0].Line, want)
	}
	// Without a traceback the first match stands, wherever it is.
	hits, _ = m.Match(Subject{Text: "    Ascend Transfer Engine initialization failed."})
	if len(hits) != 1 || hits[0].Start != 4 {
		t.Fatalf("plain subject: hits = %+v", hits)
	}
}

// TestSearcherAgreesWithMatcher checks that a Searcher finds what the
// Matcher finds, hit for hit and in the same order, on healthy lines and on
// the catalog's own error messages, with one search state reused throughout.
func TestSearcherAgreesWithMatcher(t *testing.T) {
	recs := loadCatalog(t)
	m := compileOK(t, recs, Options{})
	subjects := benchLines(recs, 500)
	for i := 0; i < len(recs); i += 23 {
		subjects = append(subjects, recs[i].ErrorMessage, "prefix "+recs[i].ErrorMessage+" suffix")
	}
	s := m.NewSearcher()
	var want, got []Hit
	var wantErrs, gotErrs []PatternError
	hits := 0
	for _, subj := range subjects {
		want, wantErrs = m.AppendMatch(want[:0], wantErrs[:0], Subject{Text: subj})
		got, gotErrs = s.AppendMatch(got[:0], gotErrs[:0], &Subject{Text: subj})
		if diff := cmp.Diff(view(want), view(got)); diff != "" {
			t.Fatalf("%q: Searcher hits differ (-Matcher +Searcher):\n%s", subj, diff)
		}
		for i := range want {
			if want[i].Record != got[i].Record {
				t.Fatalf("%q: hit %d: Searcher's record %p, Matcher's %p", subj, i, got[i].Record, want[i].Record)
			}
		}
		if len(wantErrs) != len(gotErrs) {
			t.Fatalf("%q: %d pattern errors from the Matcher, %d from the Searcher", subj, len(wantErrs), len(gotErrs))
		}
		hits += len(got)
	}
	if hits == 0 {
		t.Fatal("no subject matched: the comparison proves nothing")
	}
	if s.Matcher() != m {
		t.Error("Searcher.Matcher is not the Matcher it was made from")
	}
}

// TestSearcherCountsInBatches checks that a Searcher's subjects reach the
// Matcher's Stats searcherFlush at a time, and the Matcher's own at once.
func TestSearcherCountsInBatches(t *testing.T) {
	m := compileOK(t, []patterns.Record{rec("r", "disk full")}, Options{})
	s := m.NewSearcher()
	subj := &Subject{Text: "nothing to see"}
	for i := 1; i <= 2*searcherFlush+5; i++ {
		s.AppendMatch(nil, nil, subj)
		if got, want := m.Stats().Subjects, uint64(i/searcherFlush*searcherFlush); got != want {
			t.Fatalf("after %d Searcher subjects Stats.Subjects = %d, want %d", i, got, want)
		}
	}
	m.AppendMatch(nil, nil, *subj)
	if got, want := m.Stats().Subjects, uint64(2*searcherFlush+1); got != want {
		t.Fatalf("after a Matcher subject Stats.Subjects = %d, want %d", got, want)
	}
}

// TestHitRebase moves hits found in one buffer to a copy of it, then
// scribbles over the buffer: the rebased hits read the copy, whether their
// groups are spans or a map. A hit found in another string is refused.
func TestHitRebase(t *testing.T) {
	m := compileOK(t, []patterns.Record{
		rec("spans", `rank (\d+) failed: (\w+)`),
		rec("plain", `NCCL error`),
		rec("many", `(a)(b)(c)(d)(e) five`),
	}, Options{})
	const text = "head\n[TP3] rank 3 failed: reset NCCL error\nabcde five\ntail"
	buf := []byte(text)
	old := unsafe.String(&buf[0], len(buf))
	hits, errs := m.Match(Subject{Text: old})
	if len(errs) > 0 || len(hits) != 3 {
		t.Fatalf("Match = %v, %v; want three hits", ids(hits), errs)
	}
	clean, _ := m.Match(Subject{Text: text})
	want := view(clean)
	cp := strings.Clone(old)
	var kept []Hit
	for _, h := range hits {
		if !h.Rebase(old, cp) {
			t.Errorf("%s: Rebase = false, want true", h.Record.ID)
		}
		kept = append(kept, h)
		if other, c := "x"+strings.Clone(old[1:]), h; c.Rebase(other, strings.Clone(other)) {
			t.Errorf("%s: Rebase from a string it was not found in = true", h.Record.ID)
		}
	}
	for i := range buf {
		buf[i] = '#'
	}
	if diff := cmp.Diff(want, view(kept)); diff != "" {
		t.Errorf("hits after Rebase (-want +got):\n%s", diff)
	}
}

// A hit's Ordinal is its record's place in the catalog, for a Matcher
// compiled or loaded from an image, and for hits a Searcher takes from
// its shape cache; a Hit made elsewhere has none.
func TestHitOrdinal(t *testing.T) {
	recs := []patterns.Record{
		rec("alpha", `alpha failed: (\w+)`),
		rec("beta", `beta lost rank (\d+)`),
		rec("gamma", `(?i)gamma error`),
		rec("delta", `delta failed`),
	}
	m := compileOK(t, recs, Options{})
	img, err := m.AppendImage(nil)
	if err != nil {
		t.Fatal(err)
	}
	fromImage, err := LoadImage(img, Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"alpha failed: reset; beta lost rank 3", "GAMMA ERROR and delta failed", "beta lost rank 7", "beta lost rank 9"}
	for name, m := range map[string]*Matcher{"compiled": m, "image": fromImage} {
		se := m.NewSearcher()
		for _, text := range texts {
			for _, search := range []string{"Match", "Searcher"} {
				var hits []Hit
				if search == "Match" {
					hits, _ = m.Match(Subject{Text: text})
				} else {
					hits, _ = se.AppendMatch(nil, nil, &Subject{Text: text})
				}
				if len(hits) == 0 {
					t.Fatalf("%s, %s: %q: no hit", name, search, text)
				}
				for i := range hits {
					at, ok := hits[i].Ordinal()
					if !ok || at < 0 || at >= len(recs) || recs[at].ID != hits[i].Record.ID {
						t.Errorf("%s, %s: %q: hit of %s has ordinal %d, %v", name, search, text, hits[i].Record.ID, at, ok)
					}
				}
			}
		}
	}
	if _, ok := (&Hit{Record: &recs[0]}).Ordinal(); ok {
		t.Error("a Hit made outside the matcher has an ordinal")
	}
}

// TestRankedMatchesSort: ranked orders any number of hits, by insertion
// or by its sort, as a sort by compareHits does.
func TestRankedMatchesSort(t *testing.T) {
	var recs []patterns.Record
	for i := range 40 {
		r := rec(fmt.Sprintf("r%d", i), fmt.Sprintf("message number %d", i))
		if i%3 == 0 {
			solved(&r)
		}
		recs = append(recs, r)
	}
	m := compileOK(t, recs, Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 30; n++ {
		for range 20 {
			sc := m.newScratch()
			for _, r := range rng.Perm(len(recs))[:n] {
				sc.hits = append(sc.hits, rankedHit{rec: int32(r), hit: Hit{Record: m.rec(r),
					ClassAgrees: rng.IntN(3) == 0, LiteralLen: rng.IntN(3)}})
			}
			want := slices.Clone(sc.hits)
			slices.SortFunc(want, func(a, b rankedHit) int { return m.compareHits(&a, &b) })
			got := m.ranked(sc, nil)
			if len(got) != n {
				t.Fatalf("%d hits: ranked returned %d", n, len(got))
			}
			for i := range got {
				if got[i].Record != want[i].hit.Record {
					t.Fatalf("%d hits: place %d is %s, want %s", n, i, got[i].Record.ID, want[i].hit.Record.ID)
				}
			}
		}
	}
}
