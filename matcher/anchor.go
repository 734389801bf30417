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
// (indexPairs), up to maxPairs records are searched in one pass over the
// line instead, each for the rarest pair of adjacent bytes of one of its
// literals, which ordinary lines seldom hold.

// anchor is how an unkeyed record is searched first: the literal of one of
// its single-literal clauses, found through its byte at; and, for the
// search of several records at once, the literal of one of its clauses
// found through its pair of bytes at pair.
type anchor struct {
	clause int // the clause; -1: none fits, every clause is checked as it is
	at     int // the offset of the anchor byte in lit.Text
	lit    Literal
	// pclause is the clause of the pair (-1: none has two adjacent bytes
	// that are compared as they are), pair its offset in plit.Text.
	pclause int
	pair    int
	plit    Literal
}

// maxPairs is how many anchors one indexPairs pass searches for; a
// pairTab holds their first bytes, then their second bytes.
const maxPairs = 5

type pairTab [2 * maxPairs]byte

// minPairsLen is the shortest text indexPairs searches; a shorter one has
// its anchors searched one by one.
const minPairsLen = 33

// anchorSet is up to maxPairs anchors searched in one pass: idx[k] is the
// anchor (an index into prefilter.anchors) of pair k of tab, for k < n;
// the unused pairs of tab repeat pair 0.
type anchorSet struct {
	tab pairTab
	idx [maxPairs]int32
	n   int
}

// anchorAlways chooses the anchor of every unkeyed record. It depends on
// the records and their plan alone, so a prefilter rebuilt from a plan
// gets the same anchors.
func (p *prefilter) anchorAlways() {
	p.anchors = make([]anchor, len(p.always))
	p.anchorSets = nil
	freq := byteFrequency()
	for i, r := range p.always {
		a := anchor{clause: -1, pclause: -1}
		best, bestPair := 0, 0
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
				if j+1 < len(l.Text) && !(l.Fold && 'a' <= l.Text[j+1] && l.Text[j+1] <= 'z') {
					f := strings.Count(defaultCorpus, l.Text[j:j+2])
					if a.pclause < 0 || f < bestPair || f == bestPair && len(l.Text) > len(a.plit.Text) {
						a.pclause, a.pair, a.plit, bestPair = ci, j, l, f
					}
				}
			}
		}
		p.anchors[i] = a
		if a.pclause < 0 {
			continue
		}
		if len(p.anchorSets) == 0 || p.anchorSets[len(p.anchorSets)-1].n == maxPairs {
			p.anchorSets = append(p.anchorSets, anchorSet{})
		}
		set := &p.anchorSets[len(p.anchorSets)-1]
		set.idx[set.n] = int32(i)
		set.tab[set.n], set.tab[maxPairs+set.n] = a.plit.Text[a.pair], a.plit.Text[a.pair+1]
		set.n++
		for k := set.n; k < maxPairs; k++ {
			set.tab[k], set.tab[maxPairs+k] = set.tab[0], set.tab[maxPairs]
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

// markAnchored marks (sc.mark) the unkeyed records of set whose pair
// literal s holds. s has at least minPairsLen bytes.
func (p *prefilter) markAnchored(set *anchorSet, s string, sc *scratch) {
	left := set.n
	for from := 0; ; {
		j := indexPairs(s, from, &set.tab)
		if j < 0 {
			return
		}
		for k := 0; k < set.n; k++ {
			if s[j] != set.tab[k] || s[j+1] != set.tab[maxPairs+k] {
				continue
			}
			a := &p.anchors[set.idx[k]]
			start := j - a.pair
			end := start + len(a.plit.Text)
			r := p.always[set.idx[k]]
			if start < 0 || end > len(s) || sc.mark[r] == sc.gen || !literalAt(s[start:end], a.plit) {
				continue
			}
			sc.mark[r] = sc.gen
			if left--; left == 0 {
				return
			}
		}
		from = j + 1
	}
}

// indexPairsGo is indexPairs without vector instructions.
func indexPairsGo(s string, from int, t *pairTab) int {
	for i := from; i+1 < len(s); i++ {
		for k := range maxPairs {
			if s[i] == t[k] && s[i+1] == t[maxPairs+k] {
				return i
			}
		}
	}
	return -1
}

// byteFrequency counts each byte in the built-in corpus of ordinary log
// text: the fewer, the rarer the byte on a log line.
var byteFrequency = sync.OnceValue(func() *[256]int {
	var f [256]int
	for i := 0; i < len(defaultCorpus); i++ {
		f[defaultCorpus[i]]++
	}
	return &f
})
