package matcher

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// largeCatalog grows the generated catalog to n records the way
// scripts/scale-catalog.py does: variants of its records with about half
// of their words (four letters or more, not after a backslash) swapped for
// words of the catalog's own patterns, the same swap in the pattern and
// the message, so the variants' literals are made of the words log lines
// are made of. Some variants come out with one short word for a literal
// ("size (.+?)\."), unkeyed: a few such records are added whatever the
// draw.
// The short records follow the generated catalog's.
func largeCatalog(tb testing.TB, n int) (recs []patterns.Record, short int) {
	base := loadCatalog(tb)
	word := regexp.MustCompile(`(^|[^\\A-Za-z])([A-Za-z]{4,})`)
	var vocab []string
	for _, r := range base {
		for _, m := range word.FindAllStringSubmatch(r.MessagePattern, -1) {
			vocab = append(vocab, m[2])
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	recs = slices.Clone(base)
	for _, w := range []string{"size", "file", "video", "batch", "write"} {
		recs = append(recs, patterns.Record{ID: "short-" + w, MessagePattern: w + ` (.+?)\.`, ErrorMessage: w + " {x}."})
	}
	for k := 0; len(recs) < n; k++ {
		r := base[k%len(base)]
		swap := map[string]string{}
		repl := func(s string) string {
			return word.ReplaceAllStringFunc(s, func(m string) string {
				sub := word.FindStringSubmatch(m)
				w := sub[2]
				if _, ok := swap[w]; !ok {
					swap[w] = w
					if rng.IntN(2) == 0 {
						swap[w] = vocab[rng.IntN(len(vocab))]
					}
				}
				return sub[1] + swap[w]
			})
		}
		r.ID = fmt.Sprintf("%s-v%d", r.ID, k/len(base)+1)
		r.MessagePattern, r.ErrorMessage = repl(r.MessagePattern), repl(r.ErrorMessage)
		recs = append(recs, r)
	}
	return recs, len(base)
}

// At 50,000 records (the blocked bloom, halves confirmed by six bytes,
// unkeyed records searched by pairs and one by one), the candidates of
// every text are the records all of whose clauses it holds: the records'
// messages as sglang prints them, ordinary lines, and noise spliced from
// the messages.
func TestCandidatesOfALargeCatalog(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("50,000 records: run without -short and without -race")
	}
	recs, short := largeCatalog(t, 50_000)
	m, _ := Compile(recs, Options{})
	p := m.pf
	if p.blocked == nil || p.ext == nil || len(p.anchorSets) == 0 {
		t.Fatalf("%d records: blocked bloom %v, confirmed halves %v, %d anchor sets", len(recs), p.blocked != nil, p.ext != nil, len(p.anchorSets))
	}
	var sample []patterns.Record
	for i := 0; i < len(recs); i += 97 {
		sample = append(sample, recs[i])
	}
	sample = append(sample, recs[short:short+5]...)
	subs := differentialSubjects(sample, 300, 300)
	sc := p.newScratch()
	found := 0
	for _, s := range subs {
		want := exactCandidates(p, s.Text)
		found += len(want)
		for _, pairs := range []bool{false, true} {
			withTriples(pairs && haveIndexTriples, func() { p.candidates(s.Text, sc) })
			if !slices.Equal(sc.cands, want) {
				t.Fatalf("pairs %v: candidates(%q) = %v, want %v", pairs, s.Text, sc.cands, want)
			}
		}
	}
	if found < len(sample) {
		t.Errorf("%d candidates in %d texts", found, len(subs))
	}
}
