package matcher

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// withTriples runs f with indexTriples on or off for the anchors
// (haveIndexTriples), and restores it.
func withTriples(on bool, f func()) {
	was := haveIndexTriples
	haveIndexTriples = on
	defer func() { haveIndexTriples = was }()
	f()
}

// indexTriples agrees with the plain search at every start, on texts of
// every length it takes, with triples at both ends and across the chunks
// it reads.
func TestIndexTriples(t *testing.T) {
	if !haveIndexTriples {
		t.Skip("no vector search on this processor")
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for n := minTriplesLen; n <= 200; n++ {
		for range 20 {
			var tab tripleTab
			for k := range maxTriples {
				tab.Set(k, string([]byte{"ab"[rng.IntN(2)], "abc"[rng.IntN(3)], "abc"[rng.IntN(3)]}))
			}
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcdefgh"[rng.IntN(8)]
			}
			s := string(b)
			for from := 0; from <= n+1; from++ {
				if got, want := indexTriples(s, from, &tab), indexTriplesGo(s, from, &tab); got != want {
					t.Fatalf("indexTriples(%q, %d, %s) = %d, want %d", s, from, tab.String(), got, want)
				}
			}
		}
	}
}

func FuzzIndexTriples(f *testing.F) {
	f.Add("[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12, write size 3", 0, "ze wriatctc.,ab")
	f.Add("01234567890123456789012345678901234", 1, "345345345345345")
	f.Fuzz(func(t *testing.T, s string, from int, triples string) {
		if !haveIndexTriples || len(s) < minTriplesLen || from < 0 || len(triples) < 3*maxTriples {
			return
		}
		var tab tripleTab
		for k := range maxTriples {
			tab.Set(k, triples[3*k:3*k+3])
		}
		if got, want := indexTriples(s, from, &tab), indexTriplesGo(s, from, &tab); got != want {
			t.Fatalf("indexTriples(%q, %d, %s) = %d, want %d", s, from, tab.String(), got, want)
		}
	})
}

// Seven unkeyed records, the most that stay unkeyed beside the tiny-window
// pass, take two anchor sets; their candidates are exact wherever their
// literals lie in texts long enough for the search by triples and in
// shorter ones, with the search on and off.
func TestAnchorSetsOfSevenRecords(t *testing.T) {
	words := []string{"size", "file", "video", "batch", "write", "disk", "mmap"}
	var recs []patterns.Record
	for _, w := range words {
		recs = append(recs, patterns.Record{ID: w, MessagePattern: w + ` (.+?)\.`})
	}
	m := compileOK(t, recs, Options{})
	p := m.pf
	if len(p.always) != len(words) || len(p.anchorSets) != 2 || p.anchorSets[0].n+p.anchorSets[1].n != len(words) {
		t.Fatalf("%d unkeyed records, %d anchor sets", len(p.always), len(p.anchorSets))
	}
	sc := p.newScratch()
	filler := "[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12, sized files"
	for _, w := range words {
		for _, other := range []string{"", "disk x.", "vide", "mmap"} {
			for pre := 0; pre < 40; pre++ {
				for _, post := range []string{".", " 3.", " 3", " 3. " + filler} {
					text := filler[:pre] + w + post + other
					for _, on := range []bool{false, true} {
						withTriples(on && haveIndexTriples, func() { p.candidates(text, sc) })
						if want := exactCandidates(p, text); !slices.Equal(sc.cands, want) {
							t.Fatalf("triples %v: candidates(%q) = %v, want %v", on, text, sc.cands, want)
						}
					}
				}
			}
		}
	}
}

// Records whose only clause is an alternation with a literal too short for
// a strided key (`\bEFILES\b|…`) are anchored on triples that cover every
// literal of it, literals that share words sharing a triple; their
// candidates are exact in texts long enough for the search of several
// triples at once and in shorter ones, with the search on and off.
func TestAlternationAnchors(t *testing.T) {
	pats := []string{
		`\[Errno 24\] Too many open files|\bToo many open files \(os error 24\)|\bEFILES\b|: (?:Too|too) many open files\b|\breceived 0 items of ancdata\b`,
		`there is a sdma error|Memory async copy failed|SDMA (?:copy )?(?:error|failed)|\bEI0012: `,
		`\bE[0-9A-Z]9999: |\bThe Inner error is reported as above\b`,
		`(?i)\bqq\b|(?i)zz`,                 // no triple in a literal: checked on every text
		`: [Tt]oo many sockets\b|\bESOCK\b`, // a folded literal: a triple of one letter, in both cases
	}
	var recs []patterns.Record
	for i, p := range pats {
		recs = append(recs, patterns.Record{ID: string(rune('a' + i)), MessagePattern: p})
	}
	m := compileOK(t, recs, Options{})
	p := m.pf
	if len(p.always) != len(pats) {
		t.Fatalf("%d unkeyed records, want %d", len(p.always), len(pats))
	}
	var got []string
	for i, a := range p.anchors {
		var tris []string
		for _, c := range a.covers {
			tris = append(tris, fmt.Sprintf("%q×%d", c.tri, len(c.lits)))
		}
		got = append(got, fmt.Sprintf("%d: clause %d tclause %d %v", p.always[i], a.clause, a.tclause, tris))
	}
	want := []string{
		`0: clause -1 tclause 0 ["any"×3 "LES"×1 "ncd"×1]`,
		`1: clause -1 tclause 0 ["DMA"×1 "opy"×1 "sdm"×1 "EI0"×1]`,
		`2: clause -1 tclause 0 ["999"×1 "bov"×1]`,
		`3: clause -1 tclause -1 []`,
		`4: clause -1 tclause 0 ["ESO"×1 ": t"×1 ": T"×1]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("anchors:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	sc := p.newScratch()
	filler := "[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12, many files open"
	for _, w := range []string{
		"EFILES", "[Errno 24] Too many open files", "Too many open files (os error 24)", ": too many open files",
		"received 0 items of ancdata", "there is a sdma error", "SDMA copy failed", "SDMA error", "EI0012: ",
		"E19999: ", "EZ9999: ", "The Inner error is reported as above", "QQ", "zZ", "many open", "SDMA", "9999",
		": Too many sockets", ": too many sockets", ": TOO MANY SOCKETS", ": tOO many sockets", "ESOCK", "Too many sockets",
	} {
		for pre := 0; pre < 40; pre++ {
			for _, post := range []string{"", ".", " 3", " 3. " + filler} {
				text := filler[:pre] + w + post
				for _, on := range []bool{false, true} {
					withTriples(on && haveIndexTriples, func() { p.candidates(text, sc) })
					if want := exactCandidates(p, text); !slices.Equal(sc.cands, want) {
						t.Fatalf("triples %v: candidates(%q) = %v, want %v", on, text, sc.cands, want)
					}
				}
			}
		}
	}
}
