package matcher

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A litProg runs a pattern that is literal text joined by lazy gaps, such
// as `Interrupted by signal (.+?)` or `CUDA error: (.+?) at (.+?)\.`, without
// a regex engine. Most patterns of a generated catalog have that shape, and
// building a regexp2 program for each one that becomes a candidate costs
// more than matching it.
//
// The pattern is lits[0] gap[0] lits[1] ... gap[k-1] lits[k]. A gap is `.+?`
// or `.*?`, alone or as a plain capturing group `(.+?)` / `(.*?)`; literals
// may be empty (between adjacent gaps, or at either end) but at least one is
// not, so a match is never empty. Under patterns.RegexOptions (ECMAScript)
// "." is any character but a line terminator: "\n", "\r", U+2028 or U+2029.
// A gap is thus a run of characters within a line, "line" meaning here the
// text between terminators.
//
// Why the first occurrence of each literal is regexp2's answer. For a fixed
// start, a backtracking engine tries lazy gaps shortest first, the first gap
// varying slowest: its first success is the lexicographically least vector
// of gap lengths that matches. Greedy takes, gap by gap, the first place
// the next literal occurs after a terminator-free gap of at least the gap's
// minimum length. Compare it with any match M from the same start. Write q
// for where greedy stands before a gap and q' for where M stands. Claim: q <=
// q' and text[q:q'] holds no terminator. It holds before the first gap (q =
// q'). Step: M's gap text[q':b'] holds no terminator and is long enough, so
// greedy's text[q:b'] is too, and b' is open to greedy: greedy's b <= b'. If
// b < b', text[b:b'] lies in text[q:b'] and holds no terminator. When the
// literal L has none, text[b:b'+len(L)] is that gap plus an occurrence of L,
// so text[b+len(L):b'+len(L)] holds none, which is the claim one gap on.
// When L has a terminator b < b' cannot happen: if the two occurrences do not
// overlap, the terminator of the one at b lies in the gap text[b:b']; if
// they do, L repeats with period b'-b, and L[:b'-b] (in that gap) holding no
// terminator means L holds none. So greedy never fails where a match
// exists, and since each of its choices is the least open one, it is the
// least vector: no backtracking is needed. A trailing gap takes its
// minimum: nothing or one character.
//
// Across starts the engine tries each start in order and returns the first
// that matches; find does the same, skipping starts only where it can show
// they fail (see find). regexp2 matches runes, find bytes: on valid UTF-8
// they agree, since an occurrence of a valid UTF-8 literal starts and ends on
// rune boundaries and "." is one rune, which find steps over whole. Text
// that is not valid UTF-8 is left to regexp2 (its captures would hold
// U+FFFD where the text has the invalid bytes).
type litProg struct {
	// movable: no literal holds an ASCII digit and the pattern ends with
	// one. Every place of a match (its ends, its groups') is then the edge
	// of a literal's occurrence or a line's start, and its matches in two
	// texts that differ only in the digits of some digit runs are the
	// same, moved by the runs' lengths (shapes.go). A trailing gap ends a
	// character past the last literal, which may lie inside a run.
	movable bool
	lits    []string // len(gaps)+1 literals, in pattern order
	gaps    []litGap
	// litsIn and gapsIn hold lits and gaps when they fit, and lits are
	// slices of one string (parseCompiledLit).
	litsIn [4]string
	gapsIn [maxLitGaps]litGap
	groups []group // the capture groups, by number, as patternGroups lists them
	slot   []int   // slot[i]: the gap groups[i] captures
}

// compiledLit is a litProg's compiled and the litProg: one allocation.
// An error line's candidates are programs the lines before it did not
// touch, and each read of one is a cache miss at thousands of records;
// the program, its literals and gaps side by side (litsIn, gapsIn) are a few
// neighbouring lines, where apart they were a miss each.
type compiledLit struct {
	c  compiled
	lp litProg
}

// litGap is one lazy gap: `.+?` (min1) or `.*?`.
type litGap struct {
	min1 bool
}

// maxLitGaps bounds the gaps of a litProg, so find keeps its state on the
// stack; a pattern with more is left to regexp2.
const maxLitGaps = 16

// parseLitProg returns the litProg of expr, or false when expr is not in the
// subset a litProg runs exactly as regexp2 does with patterns.RegexOptions.
// It reads only the pattern text: literal characters (anything but the
// metacharacters \ . ( ) [ ] { } | * + ? ^ $), a backslash before ASCII
// punctuation (other than _), \n \t \r, and the gaps `.+?` `.*?` `(.+?)`
// `(.*?)`. Everything else (classes, anchors, alternation, quantifiers on
// literals, other groups, other escapes) is regexp2's.
func parseLitProg(expr string) (*litProg, bool) {
	b, ok := parseCompiledLit(expr)
	if !ok {
		return nil, false
	}
	return &b.lp, true
}

// parseCompiledLit is parseLitProg building the litProg settled in its
// compiledLit (one allocation) and its literals' text
// as one string: the literals and gaps are gathered on the stack first.
// A process that meets thousands of records for the first time (a scan
// of a long log) builds as many programs; gathered in growing slices,
// each took about seventeen allocations.
func parseCompiledLit(expr string) (*compiledLit, bool) {
	if !utf8.ValidString(expr) {
		return nil, false
	}
	var (
		textBuf [256]byte
		text    = textBuf[:0] // the literals' bytes, one after another
		ends    [maxLitGaps + 2]int
		nLits   int // literals ended: ends[:nLits] are where each ends in text
		gaps    [maxLitGaps + 1]litGap
		nGaps   int
		groups  []group
		slot    []int
		nGroup  int
	)
	endLit := func() {
		ends[nLits] = len(text)
		nLits++
	}
	for i := 0; i < len(expr); {
		// A run of literal bytes, copied at once: most of a pattern.
		j := i
		for j < len(expr) && !litSpecial[expr[j]] {
			j++
		}
		if j > i {
			text = append(text, expr[i:j]...)
			i = j
			continue
		}
		c := expr[i]
		switch c {
		case '\\':
			if i+1 >= len(expr) {
				return nil, false
			}
			e := expr[i+1]
			switch {
			case e == 'n':
				text = append(text, '\n')
			case e == 't':
				text = append(text, '\t')
			case e == 'r':
				text = append(text, '\r')
			case e < utf8.RuneSelf && e != '_' && strings.IndexByte(asciiPunct, e) >= 0:
				text = append(text, e)
			default:
				return nil, false
			}
			i += 2
		case '.':
			g, n := gapAt(expr[i:])
			if n == 0 {
				return nil, false
			}
			endLit()
			gaps[nGaps] = g
			nGaps++
			i += n
		case '(':
			g, n := gapAt(expr[i+1:])
			if n == 0 || i+1+n >= len(expr) || expr[i+1+n] != ')' {
				return nil, false
			}
			endLit()
			nGroup++
			groups = append(groups, group{num: nGroup, key: strconv.Itoa(nGroup)})
			slot = append(slot, nGaps)
			gaps[nGaps] = g
			nGaps++
			i += n + 2
		case ')', '[', ']', '{', '}', '|', '*', '+', '?', '^', '$':
			return nil, false
		default:
			text = append(text, c)
			i++
		}
		if nGaps > maxLitGaps {
			return nil, false
		}
	}
	endLit()
	if len(text) == 0 {
		return nil, false // could match empty text
	}
	b := &compiledLit{}
	p := &b.lp
	all := string(text)
	if nLits <= len(p.litsIn) {
		p.lits = p.litsIn[:0]
	} else {
		p.lits = make([]string, 0, nLits)
	}
	at := 0
	for _, end := range ends[:nLits] {
		p.lits = append(p.lits, all[at:end])
		at = end
	}
	p.gaps = append(p.gapsIn[:0], gaps[:nGaps]...)
	p.groups, p.slot = groups, slot
	p.movable = p.lits[nLits-1] != "" && !strings.ContainsAny(all, "0123456789")
	b.c = compiled{lit: p, groups: p.groups}
	return b, true
}

// litSpecial marks the bytes parseCompiledLit reads one at a time: the
// backslash and the metacharacters; every other byte is literal text.
var litSpecial = func() (t [256]bool) {
	for _, c := range []byte(`\\.()[]{}|*+?^$`) {
		t[c] = true
	}
	return t
}()

// asciiPunct is the ASCII punctuation a backslash makes literal in every
// regexp2 mode.
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"

// gapAt reads a lazy gap at the start of s: its kind and length in bytes,
// or length 0 when s does not start with `.+?` or `.*?`.
func gapAt(s string) (litGap, int) {
	if len(s) >= 3 && s[0] == '.' && s[2] == '?' {
		switch s[1] {
		case '+':
			return litGap{min1: true}, 3
		case '*':
			return litGap{}, 3
		}
	}
	return litGap{}, 0
}

// gapMemo remembers, for one gap, the last search find made for it, so a
// later search from a place the first covered is answered without reading
// the text again; it keeps find linear in the text for each gap.
type gapMemo struct {
	from, b int // searched from `from`, found the literal at b (b < 0: none)
	lineEnd int // the "\n" (or end of text) that ended the failed search
}

// findState is a find's memos: each gap's last search, and the last line
// end looked up, kept for the next gap on that line.
type findState struct {
	memo [maxLitGaps]gapMemo
	line lineMemo
}

// lineMemo is the line end (lineEnd) that a find looked up last, and where
// from: text[from:end] holds no terminator, so lineEnd(text, q) is end for
// every q from `from` to end. The gaps of a pattern and the starts a find
// tries mostly lie on one line, which lineEnd read to its end for each.
type lineMemo struct {
	from, end int // from < 0: none looked up yet
}

// find returns the leftmost match starting at or after from, as regexp2's
// FindStringMatchStartingAt-then-FindNextMatch sequence finds it, in loc:
// loc[0], loc[1] the match's range, then each gap's range (loc[2+2i],
// loc[3+2i] for gap i). It reports false when there is none. text must be
// valid UTF-8 and from a rune boundary.
func (p *litProg) find(text string, from int, loc []int) ([]int, bool) {
	var st findState
	return p.findIn(&st, text, from, loc)
}

// findIn is find with its memos in st, whatever st holds: it sets the
// memos of p's gaps and the line's before it reads them, and reads no
// other. The matcher's verify passes its scratch's, where a findState of
// its own (maxLitGaps memos) was cleared for every candidate tried.
func (p *litProg) findIn(st *findState, text string, from int, loc []int) ([]int, bool) {
	for i := range p.gaps {
		st.memo[i] = gapMemo{from: -1}
	}
	st.line = lineMemo{from: -1}
	loc = loc[:0]
	if lead := p.lits[0]; lead != "" {
		// Starts are the occurrences of the first literal, in order.
		for s := from; s <= len(text); {
			i := strings.Index(text[s:], lead)
			if i < 0 {
				return loc, false
			}
			s += i
			if loc, ok := p.rest(text, s, s+len(lead), st, loc); ok {
				return loc, true
			}
			s++ // the next occurrence starts on a later byte; lead is valid UTF-8, so on a rune
		}
		return loc, false
	}
	// The pattern starts with a gap: every character is a start.
	for s := from; s <= len(text); {
		b, lineEnd := p.gapEnd(text, 0, s, st)
		if b < 0 && lineEnd > s {
			// No later start on this line finds the literal either (the
			// places open to it are a subset of those open to s).
			s = lineEnd
			continue
		}
		if loc, ok := p.rest(text, s, s, st, loc); ok {
			return loc, true
		}
		if s == len(text) {
			break
		}
		if b >= 0 {
			// Every later start whose first gap ends at b too fails as
			// s did: the gaps after the first search from b on, whatever
			// the start. A start before b finds the literal at b (it
			// searches from a place at or before b, which s's search
			// passed with no earlier occurrence); for `.+?`, b itself is
			// the first start that does not, for `.*?` the next character.
			next := b
			if !p.gaps[0].min1 {
				if b == len(text) {
					break
				}
				_, n := utf8.DecodeRuneInString(text[b:])
				next = b + n
			}
			if next > s {
				s = next
				continue
			}
		}
		_, n := utf8.DecodeRuneInString(text[s:])
		s += n
	}
	return loc, false
}

// rest matches the gaps and the literals after them from q, for a match
// that starts at start.
func (p *litProg) rest(text string, start, q int, st *findState, loc []int) ([]int, bool) {
	loc = append(loc[:0], start, 0)
	for i := range p.gaps {
		b, _ := p.gapEnd(text, i, q, st)
		if b < 0 {
			return loc, false
		}
		loc = append(loc, q, b)
		q = b + len(p.lits[i+1])
	}
	loc[1] = q
	return loc, true
}

// gapEnd returns where gap i, starting at q, ends: the first place at which
// literal i+1 occurs with nothing but a terminator-free gap of the gap's
// minimum length or more before it. It returns -1 and the line end (see
// lineEnd) that stopped the search when there is none.
func (p *litProg) gapEnd(text string, i, q int, st *findState) (int, int) {
	g, m, line := p.gaps[i], &st.memo[i], &st.line
	if m.from >= 0 && q >= m.from {
		if m.b >= 0 && (q < m.b || (q == m.b && !g.min1)) {
			// text[m.from:m.b] holds no terminator and no earlier
			// occurrence, and the search from q starts in it.
			return m.b, 0
		}
		if m.b < 0 && q <= m.lineEnd {
			// What is open to q was open to m.from.
			return -1, m.lineEnd
		}
	}
	end := line.end
	if line.from < 0 || q < line.from || q > end {
		end = lineEnd(text, q)
		*line = lineMemo{from: q, end: end}
	}
	first := q
	if g.min1 {
		if q >= end {
			*m = gapMemo{from: q, b: -1, lineEnd: end}
			return -1, end
		}
		_, n := utf8.DecodeRuneInString(text[q:])
		first = q + n
	}
	lit := p.lits[i+1]
	// The literal starts at or before the line end: the gap holds no terminator.
	limit := min(end+len(lit), len(text))
	if first <= limit {
		if j := strings.Index(text[first:limit], lit); j >= 0 {
			*m = gapMemo{from: q, b: first + j}
			return first + j, 0
		}
	}
	*m = gapMemo{from: q, b: -1, lineEnd: end}
	return -1, end
}

// lineEnd returns the first line terminator of text at or after q (the
// characters "." does not match: "\n", "\r", U+2028, U+2029), or len(text).
func lineEnd(text string, q int) int {
	end := len(text)
	if j := strings.IndexByte(text[q:], '\n'); j >= 0 {
		end = q + j
	}
	if j := strings.IndexByte(text[q:end], '\r'); j >= 0 {
		end = q + j
	}
	// U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
	for i := q; i < end; {
		j := strings.IndexByte(text[i:end], 0xE2)
		if j < 0 {
			break
		}
		i += j
		if i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9) {
			return i
		}
		i++
	}
	return end
}
