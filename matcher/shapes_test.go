package matcher

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

// redigit returns s with every run of ASCII digits replaced by a run of
// 1 to 4 digits drawn from rng (the same run kept now and then).
func redigit(s string, rng *rand.Rand) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if rng.IntN(4) == 0 {
			b.WriteString(s[i:j])
		} else {
			for range 1 + rng.IntN(4) {
				b.WriteByte(byte('0' + rng.IntN(10)))
			}
		}
		i = j
	}
	return b.String()
}

// shapeSubjects are texts that repeat, whole and with other numbers in
// them: every third record's message filled with numbers (the catalog's
// own among them, which its literals with digits hold), with and without
// a header and an exception type, and noise with digits.
func shapeSubjects(recs []patterns.Record) []Subject {
	subs := differentialSubjects(recs, 500, 300)
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < len(recs); i += 3 {
		r := recs[i]
		for _, v := range []string{"42", "7", "256", "8192", "1080", "0x1f3", "3.14"} {
			msg := benchdata.Fill(r.ErrorMessage, v)
			subs = append(subs, Subject{Text: msg}, Subject{Text: redigit(msg, rng)},
				Subject{Text: "RuntimeError: " + msg, ExceptionTypes: []string{"RuntimeError"}})
		}
	}
	return subs
}

// TestShapeCacheChangesNoHit: a Searcher of a Matcher that caches
// candidates by shape and hits by text finds what one without the caches
// finds, on the first search of a text and on its repeats.
func TestShapeCacheChangesNoHit(t *testing.T) {
	all := loadCatalog(t)
	recs := all
	if testing.Short() || raceEnabled {
		recs = nil
		for i := 0; i < len(all); i += 8 {
			recs = append(recs, all[i])
		}
	}
	opts := Options{MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour}
	cached := compileOK(t, recs, opts)
	cached.shapesDense = true // every text looked up, however few are found
	opts.NoShapeCache = true
	plain := compileOK(t, recs, opts)
	subs := shapeSubjects(recs)
	se, ref := cached.NewSearcher(), plain.NewSearcher()
	failures := 0
	for round := range 2 {
		for i := range subs {
			s := &subs[i]
			got, gotErrs := se.AppendMatch(nil, nil, s)
			want, wantErrs := ref.AppendMatch(nil, nil, s)
			if len(gotErrs)+len(wantErrs) > 0 {
				continue // a timeout depends on the machine, not on the cache
			}
			if diff := cmp.Diff(view(want), view(got)); diff != "" && failures < 10 {
				failures++
				t.Errorf("round %d, subject %d %q: hits differ (-uncached +cached):\n%s", round, i, s.Text, diff)
			}
		}
	}
	st := cached.Stats()
	t.Logf("%d subjects twice: texts found %d; shapes found %d, missed %d",
		len(subs), st.TextHits, st.ShapeHits, st.ShapeMisses)
	if st.TextHits == 0 || st.ShapeHits == 0 {
		t.Errorf("the caches were not used: %+v", st)
	}
}

// TestShapeKeysKeepCandidates: two texts of one shape key have the same
// candidates, on the catalog's messages with their numbers changed (those
// of the messages whose literals hold digits most of all).
func TestShapeKeysKeepCandidates(t *testing.T) {
	recs := loadCatalog(t)
	m := compileOK(t, recs, Options{})
	sigs := buildDigitSigs(m.reqs)
	rng := rand.New(rand.NewPCG(1, 2))
	same, differ := 0, 0
	for _, r := range recs {
		msg := benchdata.Fill(r.ErrorMessage, "42")
		if !strings.ContainsAny(msg, "0123456789") {
			continue
		}
		for range 4 {
			other := redigit(msg, rng)
			if string(sigs.shapeKey(nil, msg)) != string(sigs.shapeKey(nil, other)) {
				differ++
				continue
			}
			same++
			if a, b := prefilterCandidates(m, msg), prefilterCandidates(m, other); !slices.Equal(a, b) {
				t.Errorf("%q and %q have one shape but candidates %v and %v", msg, other, a, b)
			}
		}
	}
	t.Logf("%d pairs of one shape, %d of two", same, differ)
	if same == 0 {
		t.Error("no two texts shared a shape: nothing was masked")
	}
}

func prefilterCandidates(m *Matcher, s string) []int32 {
	sc := m.pf.newScratch()
	m.pf.candidates(s, sc)
	return slices.Clone(sc.cands)
}

// shapePatterns are fuzzPatterns and patterns whose literals hold digits in
// every place a run can have in a literal: between other bytes, at its
// end, at its start, and alone.
var shapePatterns = append(slices.Clone(fuzzPatterns),
	`D=(.+?) not supported, must be multiple of 256 and <= 8192`,
	`Unsupported image resolution: (.+?)\. Choose from 4k, 1080p, 720p`,
	`scale must be 0D/1D\(1\)/2D`,
	`(.+?) failed with exit code 137`,
	`404 Not Found: (.+)`,
	`got (\d+) GPUs, expected 8`,
	`error 7`,
	`CUDA error 700 at (.+?):(\d+)`,
	`worker (.+?) died after (.+?) restarts`,
	`rank (.+?) of (.+?) failed:`,
	`(.+?) tokens exceed the limit`,
)

// FuzzShapeKey: a text and the text with its numbers changed have the same
// candidates when they have the same shape key, and a Searcher with the
// caches finds in both what one without them finds.
func FuzzShapeKey(f *testing.F) {
	var recs []patterns.Record
	for i, p := range shapePatterns {
		recs = append(recs, patterns.Record{ID: string(rune('a' + i)), MessagePattern: p})
	}
	opts := Options{MatchTimeout: time.Second, EntryBudget: time.Hour}
	cached := compileOK(f, recs, opts)
	cached.shapesDense = true
	opts.NoShapeCache = true
	plain := compileOK(f, recs, opts)
	sigs := buildDigitSigs(cached.reqs)
	for _, s := range []string{
		"D=42 not supported, must be multiple of 256 and <= 8192",
		"D=42 not supported, must be multiple of 255 and <= 81920",
		"Unsupported image resolution: 33x7. Choose from 4k, 1080p, 720p",
		"scale must be 0D/1D(1)/2D, rank 3",
		"worker 12 failed with exit code 137",
		"worker 12 failed with exit code 1370",
		"HTTP 404 Not Found: /v1/x",
		"got 4 GPUs, expected 8",
		"error 7 error 77 error 7x",
		"CUDA error 700 at x.cu:12",
		"\xff12\xff",
		"worker 3 died after 12 restarts",
		"rank 7 of 16 failed: rank 1 of 2 failed:\n  rank 3 of 4 failed:",
		"4096 tokens exceed the limit\n 12 tokens exceed the limit",
	} {
		f.Add(s, uint64(1))
	}
	se := cached.NewSearcher()
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		other := redigit(text, rand.New(rand.NewPCG(seed, seed^0x5bd1e995)))
		if string(sigs.shapeKey(nil, text)) == string(sigs.shapeKey(nil, other)) {
			if a, b := prefilterCandidates(cached, text), prefilterCandidates(cached, other); !slices.Equal(a, b) {
				t.Errorf("%q and %q have one shape but candidates %v and %v", text, other, a, b)
			}
		}
		for _, s := range []string{text, other, text} {
			got, gotErrs := se.AppendMatch(nil, nil, &Subject{Text: s})
			want, wantErrs := plain.Match(Subject{Text: s})
			if len(gotErrs)+len(wantErrs) > 0 {
				return
			}
			if diff := cmp.Diff(view(want), view(got)); diff != "" {
				t.Errorf("%q: hits differ (-uncached +cached):\n%s", s, diff)
			}
		}
	})
}

// TestShapeKeyEscapes: the key tells a masked run from the marker byte,
// and keeps the runs a literal touches.
func TestShapeKeyEscapes(t *testing.T) {
	sigs := buildDigitSigs([]Required{{{{Text: "code 137 x"}}}})
	key := func(s string) string { return string(sigs.shapeKey(nil, s)) }
	if key("a 1 b") != key("a 22 b") {
		t.Error("a run no literal touches was not masked")
	}
	for _, s := range []string{"a \xff\x00 b", "a \xff b", "a \xff\xff b"} {
		if key(s) == key("a 1 b") {
			t.Errorf("%q has the key of a masked run", s)
		}
	}
	if key("a \xff b") == key("a \xff\xff b") {
		t.Error("one marker byte and two share a key")
	}
	if key("code 137 x") == key("code 138 x") {
		t.Error("a run a literal touches was masked")
	}
	if key("code 138 x") != key("code 1370 x") {
		t.Error("a run no literal touches was kept")
	}
}

// TestShapeCacheShared: Searchers on several goroutines share one
// Matcher's caches and each finds what a Matcher without them finds (run
// under -race, this checks the caches' locking).
func TestShapeCacheShared(t *testing.T) {
	all := loadCatalog(t)
	var recs []patterns.Record
	for i := 0; i < len(all); i += 16 {
		recs = append(recs, all[i])
	}
	opts := Options{MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour}
	cached := compileOK(t, recs, opts)
	cached.shapesDense = true
	opts.NoShapeCache = true
	plain := compileOK(t, recs, opts)
	subs := shapeSubjects(recs)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			se := cached.NewSearcher()
			for i := w; i < len(subs); i += 2 {
				s := &subs[i%len(subs)]
				got, gotErrs := se.AppendMatch(nil, nil, s)
				want, wantErrs := plain.Match(*s)
				if len(gotErrs)+len(wantErrs) > 0 {
					continue
				}
				if diff := cmp.Diff(view(want), view(got)); diff != "" {
					t.Errorf("worker %d, subject %d %q: hits differ (-uncached +cached):\n%s", w, i, s.Text, diff)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestShapeCacheIndex: past its bound the cache replaces entries, and the
// index finds every entry it holds, with hashes made to collide in their
// slots.
func TestShapeCacheIndex(t *testing.T) {
	c := &shapeCache{index: make([]int32, 2*shapeEntries)}
	rng := rand.New(rand.NewPCG(9, 9))
	for n := range 3 * shapeEntries {
		key := []byte(strconv.Itoa(n))
		// Few distinct home slots, so that probing runs long and wraps.
		h := uint64(rng.IntN(64))<<32 | uint64(n)
		if c.entry(h, key) != nil {
			t.Fatalf("key %s found before it was added", key)
		}
		c.add(h, key)
		if n%97 == 0 {
			used := 0
			for _, i := range c.index {
				if i != 0 {
					used++
				}
			}
			if used != len(c.ents) {
				t.Fatalf("after %d keys: %d slots used for %d entries", n+1, used, len(c.ents))
			}
			for i := range c.ents {
				e := &c.ents[i]
				if c.entry(e.hash, e.key) != e {
					t.Fatalf("after %d keys: entry %s not found", n+1, e.key)
				}
			}
		}
	}
}

// TestShapeCacheSparse: a Searcher whose texts are new shapes, one after
// another, stops looking every text up (sparse), and one whose texts
// repeat a shape looks them all up again; what it finds is a plain
// Matcher's throughout.
func TestShapeCacheSparse(t *testing.T) {
	all := loadCatalog(t)
	var recs []patterns.Record
	for i := 0; i < len(all); i += 4 {
		recs = append(recs, all[i])
	}
	opts := Options{MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour}
	cached := compileOK(t, recs, opts)
	opts.NoShapeCache = true
	plain := compileOK(t, recs, opts)
	se, ref := cached.NewSearcher(), plain.NewSearcher()
	search := func(s *Subject) {
		t.Helper()
		got, gotErrs := se.AppendMatch(nil, nil, s)
		want, wantErrs := ref.AppendMatch(nil, nil, s)
		if len(gotErrs)+len(wantErrs) == 0 {
			if diff := cmp.Diff(view(want), view(got)); diff != "" {
				t.Fatalf("%q: hits differ (-uncached +cached):\n%s", s.Text, diff)
			}
		}
	}
	// New shapes: every record's message once.
	for _, r := range recs {
		search(&Subject{Text: benchdata.Fill(r.ErrorMessage, "42")})
	}
	st := cached.Stats()
	if !se.sparse {
		t.Fatalf("after %d new shapes (found %d, missed %d) the Searcher still looks every text up", len(recs), st.ShapeHits, st.ShapeMisses)
	}
	if looked := st.ShapeHits + st.ShapeMisses; looked > shapeWindow+uint64(len(recs))/shapeSample+1 {
		t.Errorf("%d texts looked up of %d, want at most one window and one in %d after it", looked, len(recs), shapeSample)
	}
	// One shape over and over, its numbers changed: found again.
	var msg string
	for _, r := range recs {
		if s := benchdata.Fill(r.ErrorMessage, "42"); len(s) > 40 && strings.Contains(s, "42") {
			if hits, _ := plain.Match(Subject{Text: s}); len(hits) > 0 {
				msg = r.ErrorMessage
				break
			}
		}
	}
	if msg == "" {
		t.Fatal("no message with a number found")
	}
	for n := range 2 * shapeWindow * shapeSample {
		search(&Subject{Text: benchdata.Fill(msg, strconv.Itoa(100+n%50))})
	}
	if se.sparse {
		t.Errorf("after one shape repeated %d times the Searcher is still sparse: %+v", 2*shapeWindow*shapeSample, cached.Stats())
	}
}
