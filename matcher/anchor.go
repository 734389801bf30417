package matcher

import (
	"strings"
	"sync"
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
// search of several records at once, the literal of one of its clauses
// found through its three bytes at tri.
type anchor struct {
	clause int // the clause; -1: none fits, every clause is checked as it is
	at     int // the offset of the anchor byte in lit.Text
	lit    Literal
	// tclause is the clause of the three bytes (-1: none has three
	// adjacent bytes that are compared as they are), tri their offset in
	// tlit.Text.
	tclause int
	tri     int
	tlit    Literal
}

// maxTriples is how many anchors one indexTriples pass searches for. A
// tripleTab holds each byte of each of them broadcast to 32 bytes, as the
// vector comparisons read them: byte b of triple k at [3k+b].
const maxTriples = 5

type tripleTab [3 * maxTriples][32]byte

// minTriplesLen is the shortest text indexTriples searches; a shorter one
// has its anchors searched one by one.
const minTriplesLen = 34

// anchorSet is up to maxTriples anchors searched in one pass: idx[k] is
// the anchor (an index into prefilter.anchors) of triple k of tab, for
// k < n; the unused triples of tab repeat triple 0.
type anchorSet struct {
	tab tripleTab
	idx [maxTriples]int32
	n   int
}

// byteOf is byte b of triple k of t.
func (t *tripleTab) byteOf(k, b int) byte { return t[3*k+b][0] }

func (t *tripleTab) set(k int, tri string) {
	for b := range 3 {
		for i := range t[3*k+b] {
			t[3*k+b][i] = tri[b]
		}
	}
}

// anchorAlways chooses the anchor of every unkeyed record. It depends on
// the records and their plan alone, so a prefilter rebuilt from a plan
// gets the same anchors.
func (p *prefilter) anchorAlways() {
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
				if j+2 < len(l.Text) && !(l.Fold && (isLower(l.Text[j+1]) || isLower(l.Text[j+2]))) {
					f := strings.Count(defaultCorpus, l.Text[j:j+3])
					if a.tclause < 0 || f < bestTri || f == bestTri && len(l.Text) > len(a.tlit.Text) {
						a.tclause, a.tri, a.tlit, bestTri = ci, j, l, f
					}
				}
			}
		}
		p.anchors[i] = a
		if a.tclause < 0 {
			p.allTriples = false
			continue
		}
		if len(p.anchorSets) == 0 || p.anchorSets[len(p.anchorSets)-1].n == maxTriples {
			p.anchorSets = append(p.anchorSets, anchorSet{})
		}
		set := &p.anchorSets[len(p.anchorSets)-1]
		set.idx[set.n] = int32(i)
		set.tab.set(set.n, a.tlit.Text[a.tri:a.tri+3])
		set.n++
		first := &p.anchors[set.idx[0]]
		for k := set.n; k < maxTriples; k++ {
			set.tab.set(k, first.tlit.Text[first.tri:first.tri+3])
		}
	}
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

// markAnchored marks (sc.mark) the unkeyed records of set whose literal
// of three bytes s holds, and returns how many it marked. s has at least
// minTriplesLen bytes.
func (p *prefilter) markAnchored(set *anchorSet, s string, sc *scratch) int {
	left := set.n
	for from := 0; ; {
		j := indexTriples(s, from, &set.tab)
		if j < 0 {
			return set.n - left
		}
		for k := 0; k < set.n; k++ {
			if s[j] != set.tab.byteOf(k, 0) || s[j+1] != set.tab.byteOf(k, 1) || s[j+2] != set.tab.byteOf(k, 2) {
				continue
			}
			a := &p.anchors[set.idx[k]]
			start := j - a.tri
			end := start + len(a.tlit.Text)
			r := p.always[set.idx[k]]
			if start < 0 || end > len(s) || sc.mark[r] == sc.gen || !literalAt(s[start:end], a.tlit) {
				continue
			}
			sc.mark[r] = sc.gen
			if left--; left == 0 {
				return set.n
			}
		}
		from = j + 1
	}
}

// indexTriplesGo is indexTriples without vector instructions.
func indexTriplesGo(s string, from int, t *tripleTab) int {
	for i := max(from, 0); i+2 < len(s); i++ {
		for k := range maxTriples {
			if s[i] == t.byteOf(k, 0) && s[i+1] == t.byteOf(k, 1) && s[i+2] == t.byteOf(k, 2) {
				return i
			}
		}
	}
	return -1
}

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
