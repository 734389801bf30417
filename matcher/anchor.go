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

// anchor is how an unkeyed record is searched first: the literal of one of
// its single-literal clauses, found through its byte at.
type anchor struct {
	clause int // the clause; -1: none fits, every clause is checked as it is
	at     int // the offset of the anchor byte in lit.Text
	lit    Literal
}

// anchorAlways chooses the anchor of every unkeyed record. It depends on
// the records and their plan alone, so a prefilter rebuilt from a plan
// gets the same anchors.
func (p *prefilter) anchorAlways() {
	p.anchors = make([]anchor, len(p.always))
	freq := byteFrequency()
	for i, r := range p.always {
		a := anchor{clause: -1}
		best := 0
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
					a, best = anchor{clause: ci, at: j, lit: l}, f
				}
			}
		}
		p.anchors[i] = a
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

// byteFrequency counts each byte in the built-in corpus of ordinary log
// text: the fewer, the rarer the byte on a log line.
var byteFrequency = sync.OnceValue(func() *[256]int {
	var f [256]int
	for i := 0; i < len(defaultCorpus); i++ {
		f[defaultCorpus[i]]++
	}
	return &f
})
