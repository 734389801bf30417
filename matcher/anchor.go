package matcher

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/logmatch/logmatch/internal/triples"
)

// Records without a key (prefilter.always) are checked on every text. A
// substring search for a literal made of common letters ("size ",
// "batch ") stops at every occurrence of its first byte, about 20 ns on a
// log line; such records are few, but each of them costs that on every
// line. Each is instead searched first for one literal at its rarest byte
// in log text: one vectorised byte search of the line, which finds that
// byte seldom, and a comparison of the literal where it does.
//
// A byte search of a line costs little, but a search per record does not:
// the search's end, a different place on every line, is a mispredicted
// branch, and so is every occurrence of the byte (at 50,000 records five
// unkeyed records cost about 50 ns a line, ten times their searches'
// instructions). Where the processor has the vector instructions for it
// (indexTriples), up to maxTriples records are searched in one pass over
// the line instead, each for the rarest three adjacent bytes of one of its
// literals, which ordinary lines seldom hold: every occurrence is a
// mispredicted return from the search. (Pairs were tried first: the
// rarest pair of "batch " in the corpus, "tc", is on every batch line.)

// anchor is how an unkeyed record is searched first: the literal of one of
// its single-literal clauses, found through its byte at; and, for the
// search of several records at once, a clause found through triples of
// three bytes: the three bytes at tri of tlit when the clause is that one
// literal, else (an alternation, every literal of the record's clauses
// shorter than a strided key) a few triples that each of the clause's
// literals holds one of (alternationTriples).
type anchor struct {
	clause int // the clause; -1: none fits, every clause is checked as it is
	at     int // the offset of the anchor byte in lit.Text
	lit    Literal
	// tclause is the clause of the triples (-1: no clause has, in each of
	// its literals, three adjacent bytes that are compared as they are),
	// tri the offset of the first triple in tlit.Text.
	tclause int
	tri     int
	tlit    Literal
	// covers are the triples of an alternation's anchor (clause < 0,
	// tclause >= 0), searched one by one where the processor has no
	// search of several at once (haveIndexTriples).
	covers []tripleCover
}

// maxTriples is how many anchors one indexTriples pass searches for
// (triples.Tab).
const maxTriples = triples.Max

type tripleTab = triples.Tab

// minTriplesLen is the shortest text indexTriples searches; a shorter one
// is searched padded to it with zero bytes (scratch.pad).
const minTriplesLen = triples.MinLen

// anchorSet is up to maxTriples triples searched in one pass: idx[k] is
// the anchor (an index into prefilter.anchors) of triple k of tab, for
// k < n, and lits[k] the literals of its clause that hold the triple,
// with where; per[k] is how many triples of the set are of that anchor.
// The unused triples of tab repeat triple 0.
type anchorSet struct {
	tab  tripleTab
	idx  [maxTriples]int32
	per  [maxTriples]int32
	lits [maxTriples][]tripleLit
	n    int
}

// tripleLit is a literal that holds an anchor's triple, at off: wherever
// a text holds the literal, it holds the triple there, so every
// occurrence of the literal is found through that triple's occurrences.
type tripleLit struct {
	lit Literal
	off int
}

// anchorAlways chooses the anchor of every unkeyed record. It depends on
// the records and their plan alone, so a prefilter rebuilt from a plan
// gets the same anchors. (It also makes the records' progClauses, none
// set: every prefilter, compiled or from an image, goes through here.)
func (p *prefilter) anchorAlways() {
	p.progClauses = make([]atomic.Bool, len(p.reqs))
	p.anchors = make([]anchor, len(p.always))
	p.anchorSets, p.allTriples = nil, true
	freq := byteFrequency()
	for i, r := range p.always {
		a := anchor{clause: -1, tclause: -1}
		best, bestTri := 0, 0
		for ci, c := range p.reqs[r] {
			if len(c) != 1 {
				continue
			}
			l := c[0]
			for j := 0; j < len(l.Text); j++ {
				b := l.Text[j]
				if l.Fold && 'a' <= b && b <= 'z' {
					continue // a folded letter stands for two bytes
				}
				f := freq[b]
				if a.clause < 0 || f < best || f == best && len(l.Text) > len(a.lit.Text) {
					a.clause, a.at, a.lit, best = ci, j, l, f
				}
				if exactTriple(l, j) {
					f := strings.Count(defaultCorpus, l.Text[j:j+3])
					if a.tclause < 0 || f < bestTri || f == bestTri && len(l.Text) > len(a.lit.Text) {
						a.tclause, a.tri, a.tlit, bestTri = ci, j, l, f
					}
				}
			}
		}
		var cover []tripleCover
		if a.tclause >= 0 {
			cover = []tripleCover{{tri: a.tlit.Text[a.tri : a.tri+3], lits: []tripleLit{{a.tlit, a.tri}}}}
		} else if a.clause < 0 {
			a.tclause, cover = alternationTriples(p.reqs[r])
			if a.tclause >= 0 {
				a.tlit, a.tri, a.covers = cover[0].lits[0].lit, cover[0].lits[0].off, cover
			}
		}
		p.anchors[i] = a
		if a.tclause < 0 {
			p.allTriples = false
			continue
		}
		for _, c := range cover {
			if len(p.anchorSets) == 0 || p.anchorSets[len(p.anchorSets)-1].n == maxTriples {
				p.anchorSets = append(p.anchorSets, anchorSet{})
			}
			set := &p.anchorSets[len(p.anchorSets)-1]
			set.idx[set.n], set.lits[set.n] = int32(i), c.lits
			set.tab.Set(set.n, c.tri)
			set.n++
			first := string([]byte{set.tab.Byte(0, 0), set.tab.Byte(0, 1), set.tab.Byte(0, 2)})
			for k := set.n; k < maxTriples; k++ {
				set.tab.Set(k, first)
			}
		}
	}
	for si := range p.anchorSets {
		set := &p.anchorSets[si]
		for k := range set.n {
			for j := range set.n {
				if set.idx[j] == set.idx[k] {
					set.per[k]++
				}
			}
		}
	}
}

// exactTriple reports whether the three bytes of l at j are compared as
// they are: none of them a folded letter, which stands for two bytes.
func exactTriple(l Literal, j int) bool {
	if j+3 > len(l.Text) {
		return false
	}
	if !l.Fold {
		return true
	}
	return !isLower(l.Text[j]) && !isLower(l.Text[j+1]) && !isLower(l.Text[j+2])
}

// tripleCover is one triple of an alternation's anchor, and the literals
// of the clause that are found through it.
type tripleCover struct {
	tri  string
	lits []tripleLit
}

// maxCoverTriples bounds the triples of one alternation's anchor: three
// passes over a text at most.
const maxCoverTriples = 3 * maxTriples

// alternationTriples anchors a record that has no single-literal clause (a
// wide alternation, one of whose literals is too short for a strided key:
// `\bEMFILE\b|…`) on the clause whose literals all hold a triple
// compared as it is, and that the rarest triples cover, judged on the
// corpus of ordinary lines: the clause and its triples, or -1. Each
// triple is chosen for the most literals it covers for how often ordinary
// lines hold it; literals sharing words ("Too many open files" in several
// wordings) then share a triple.
func alternationTriples(req Required) (int, []tripleCover) {
	best, bestCost := -1, 0
	var bestCover []tripleCover
	for ci, c := range req {
		cover, cost := coverTriples(c)
		if cover == nil {
			continue
		}
		if best < 0 || cost < bestCost {
			best, bestCost, bestCover = ci, cost, cover
		}
	}
	return best, bestCover
}

// coverTriples covers the literals of c with triples, greedily: the triple
// with the fewest occurrences in the corpus for the literals it covers
// first. A case-folded literal is covered by a triple with at most one of
// its letters, searched in both cases (two triples). It returns nil when
// a literal has no such triple, or when more than maxCoverTriples are
// needed, and the triples' occurrences in the corpus.
func coverTriples(c []Literal) ([]tripleCover, int) {
	left := slices.Clone(c)
	var cover []tripleCover
	cost := 0
	counts := map[string]int{}
	freq := byteFrequency()
	count := func(t string) int {
		n, ok := counts[t]
		if !ok {
			n = strings.Count(defaultCorpus, t)
			counts[t] = n
		}
		return n
	}
	for len(left) > 0 {
		pick, pickN, pickF, pickB, pickUp := "", 0, 0, 0, false
		for _, l := range left {
			found := false
			for j := 0; j+3 <= len(l.Text); j++ {
				if foldLetters(l, j) > 1 {
					continue
				}
				found = true
				t := l.Text[j : j+3]
				n, up := 0, false
				for _, o := range left {
					if off := tripleIn(o, t); off >= 0 {
						n++
						up = up || foldLetters(o, off) == 1
					}
				}
				// The fewest occurrences for the literals covered, then
				// more literals, then the rarest bytes (the corpus is
				// small: most triples of an error's words are not in it).
				f, b := count(t), freq[t[0]]+freq[t[1]]+freq[t[2]]
				if up {
					f += count(upperTriple(t))
				}
				x, y := (f+1)*pickN, (pickF+1)*n
				if pick == "" || x < y || x == y && (n > pickN || n == pickN && b < pickB) {
					pick, pickN, pickF, pickB, pickUp = t, n, f, b, up
				}
			}
			if !found {
				return nil, 0
			}
		}
		tc, uc := tripleCover{tri: pick}, tripleCover{}
		if pickUp {
			uc.tri = upperTriple(pick)
		}
		kept := left[:0]
		for _, l := range left {
			if off := tripleIn(l, pick); off >= 0 {
				tc.lits = append(tc.lits, tripleLit{l, off})
				if foldLetters(l, off) == 1 {
					uc.lits = append(uc.lits, tripleLit{l, off})
				}
				continue
			}
			kept = append(kept, l)
		}
		left = kept
		cover = append(cover, tc)
		if pickUp {
			cover = append(cover, uc)
		}
		if len(cover) > maxCoverTriples {
			return nil, 0
		}
		cost += pickF
	}
	return cover, cost
}

// foldLetters is how many of the three bytes of l at j are folded letters,
// each of which stands for two bytes.
func foldLetters(l Literal, j int) int {
	if !l.Fold {
		return 0
	}
	n := 0
	for _, b := range []byte(l.Text[j : j+3]) {
		if isLower(b) {
			n++
		}
	}
	return n
}

// upperTriple is t with its lower-case letter, of which it has one, in
// upper case.
func upperTriple(t string) string {
	b := []byte(t)
	for i, c := range b {
		if isLower(c) {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// tripleIn is the first offset at which l holds the triple t with at most
// one folded letter, or -1.
func tripleIn(l Literal, t string) int {
	for j := 0; j+3 <= len(l.Text); {
		k := strings.Index(l.Text[j:], t)
		if k < 0 {
			return -1
		}
		if foldLetters(l, j+k) <= 1 {
			return j + k
		}
		j += k + 1
	}
	return -1
}

// holds reports whether s holds a.lit (a.clause >= 0).
func (a *anchor) holds(s string) bool {
	n := len(a.lit.Text)
	c := a.lit.Text[a.at]
	// The anchor byte of an occurrence lies in s[lo:hi].
	lo, hi := a.at, len(s)-(n-1-a.at)
	for lo < hi {
		j := strings.IndexByte(s[lo:hi], c)
		if j < 0 {
			return false
		}
		start := lo + j - a.at
		if literalAt(s[start:start+n], a.lit) {
			return true
		}
		lo += j + 1
	}
	return false
}

// coverHolds reports whether s holds a literal of an alternation's anchor
// (a.covers), found through the triples one by one.
func (a *anchor) coverHolds(s string) bool {
	for _, c := range a.covers {
		for i := 0; ; {
			k := strings.Index(s[i:], c.tri)
			if k < 0 {
				break
			}
			j := i + k
			for _, tl := range c.lits {
				start := j - tl.off
				end := start + len(tl.lit.Text)
				if start >= 0 && end <= len(s) && literalAt(s[start:end], tl.lit) {
					return true
				}
			}
			i = j + 1
		}
	}
	return false
}

// markAnchored marks (sc.mark) the unkeyed records of set one of whose
// anchor's literals s[:n] holds, and returns how many it marked. s has at
// least minTriplesLen bytes: past n, the zero bytes of a short text's
// padding.
func (p *prefilter) markAnchored(set *anchorSet, s string, n int, sc *scratch) int {
	left, found := set.n, 0
	for from := 0; ; {
		j := indexTriples(s, from, &set.tab)
		if j < 0 {
			return found
		}
		for k := 0; k < set.n; k++ {
			if s[j] != set.tab.Byte(k, 0) || s[j+1] != set.tab.Byte(k, 1) || s[j+2] != set.tab.Byte(k, 2) {
				continue
			}
			r := p.always[set.idx[k]]
			if sc.mark[r] == sc.gen {
				continue
			}
			for _, tl := range set.lits[k] {
				start := j - tl.off
				end := start + len(tl.lit.Text)
				if start < 0 || end > n || !literalAt(s[start:end], tl.lit) {
					continue
				}
				sc.mark[r] = sc.gen
				found++
				if left -= int(set.per[k]); left == 0 {
					return found
				}
				break
			}
		}
		from = j + 1
	}
}

// indexTriplesGo is indexTriples without vector instructions.
func indexTriplesGo(s string, from int, t *tripleTab) int { return triples.IndexGo(s, from, t) }

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }

// byteFrequency counts each byte in the built-in corpus of ordinary log
// text: the fewer, the rarer the byte on a log line.
var byteFrequency = sync.OnceValue(func() *[256]int {
	var f [256]int
	for i := 0; i < len(defaultCorpus); i++ {
		f[defaultCorpus[i]]++
	}
	return &f
})
