package matcher

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2/syntax"
	"github.com/logmatch/logmatch/patterns"
)

// Literal is a string that every match of a pattern contains.
type Literal struct {
	// Text is the literal's bytes. When Fold is set, its ASCII letters are
	// lower case and stand for either case.
	Text string
	// Fold is set when some part of the literal came from a case-insensitive
	// part of the pattern; the whole literal is then compared ignoring ASCII
	// case, which can only admit more text, never less.
	Fold bool
}

// Required is what a pattern demands of any text it matches: for every
// clause, at least one of the clause's literals occurs in the match. A clause
// with one literal is a plain requirement; a clause with several comes from an
// alternation, one literal per branch. An empty Required demands nothing.
type Required [][]Literal

// LiteralLen is the total length of the literal text r demands: the sum of
// the single-literal clauses plus the shortest literal of each alternation.
func (r Required) LiteralLen() int {
	n := 0
	for _, c := range r {
		shortest := len(c[0].Text)
		for _, l := range c[1:] {
			shortest = min(shortest, len(l.Text))
		}
		n += shortest
	}
	return n
}

// maxAlternatives bounds the literals of one alternation clause: past it the
// alternation demands nothing, because a long disjunction filters little and
// costs keys.
const maxAlternatives = 32

// ExtractLiterals parses expr with patterns.RegexOptions (the parser the
// matcher compiles with) and returns the literals every match must contain.
// It extracts less whenever a construct's effect on the matched text is not
// certain: lookarounds, back-references, conditionals and optional or
// repeated parts contribute nothing.
func ExtractLiterals(expr string) (Required, error) {
	tree, err := syntax.Parse(expr, syntax.ParseOptions{RegexOptions: syntax.RegexOptions(patterns.RegexOptions)})
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	return extractTree(tree.Root), nil
}

func extractTree(root *syntax.RegexNode) Required {
	var run []litChar
	return extractWith(root, &run)
}

// extractWith is extractTree with the run buffer shared by the builders of
// nested loops and alternations: a builder always flushes its own run
// before it descends into one, so they never hold a run at the same time.
func extractWith(root *syntax.RegexNode, run *[]litChar) Required {
	b := seqBuilder{run: (*run)[:0], shared: run}
	b.add(root)
	b.flush()
	*run = b.run[:0]
	return dedupClauses(b.clauses)
}

// litChar is one character of a literal run.
type litChar struct {
	r    rune // lower case when fold
	fold bool
}

// seqBuilder walks a concatenation left to right, growing a run of literal
// characters that a match consumes contiguously and closing the run into a
// clause at every construct whose consumed text is not one fixed string.
type seqBuilder struct {
	run     []litChar
	shared  *[]litChar // where run's storage is kept between builders
	clauses [][]Literal
}

func (b *seqBuilder) flush() {
	if len(b.run) == 0 {
		return
	}
	fold := slices.ContainsFunc(b.run, func(c litChar) bool { return c.fold })
	n := 0
	for _, c := range b.run {
		n += utf8.RuneLen(c.r) // a case pair is the same length
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, c := range b.run {
		if lr, ok := asciiCasePair(c.r); ok && fold {
			// One folded character makes the whole literal compare
			// ignoring case, so it is stored in lower case throughout.
			c.r = lr
		}
		sb.WriteRune(c.r)
	}
	b.clauses = append(b.clauses, []Literal{{Text: sb.String(), Fold: fold}})
	b.run = b.run[:0]
}

// push appends one literal character, or closes the run when the character
// cannot be searched for as bytes: U+FFFD also stands for invalid UTF-8 in
// the decoded text, and surrogates never occur in valid UTF-8.
func (b *seqBuilder) push(r rune, fold bool) {
	if r == utf8.RuneError || !utf8.ValidRune(r) {
		b.flush()
		return
	}
	b.run = append(b.run, litChar{r: r, fold: fold})
}

// pushExact appends a character the pattern matches as written. A node still
// marked IgnoreCase is trusted only for characters without case.
func (b *seqBuilder) pushExact(r rune, opts syntax.RegexOptions) {
	if opts&syntax.IgnoreCase != 0 {
		if lr, ok := asciiCasePair(r); ok {
			b.push(lr, true)
			return
		}
		if hasCase(r) {
			b.flush()
			return
		}
	}
	b.push(r, false)
}

// setChar reports the character a one-character set stands for: a single
// character, or an ASCII letter in both cases (how the parser expresses a
// case-insensitive letter). Anything else is not a literal.
func setChar(set *syntax.CharSet) (r rune, fold, ok bool) {
	if set == nil || set.IsNegated() || set.HasSubtraction() || set.IsAnything() {
		return 0, false, false
	}
	chars := set.GetSetChars(2)
	switch len(chars) {
	case 1:
		if !set.CharIn(chars[0]) {
			return 0, false, false
		}
		return chars[0], false, true
	case 2:
		lo, hi := min(chars[0], chars[1]), max(chars[0], chars[1])
		if 'A' <= lo && lo <= 'Z' && hi == lo+'a'-'A' && set.CharIn(lo) && set.CharIn(hi) {
			return hi, true, true
		}
	}
	return 0, false, false
}

func (b *seqBuilder) pushSet(set *syntax.CharSet) bool {
	r, fold, ok := setChar(set)
	if !ok {
		b.flush()
		return false
	}
	b.push(r, fold)
	return true
}

// maxRepeat bounds how many copies of a repeated character join a run; the
// prefilter needs at most a few bytes of any literal.
const maxRepeat = 64

func (b *seqBuilder) add(n *syntax.RegexNode) {
	switch n.T {
	case syntax.NtOne:
		b.pushExact(n.Ch, n.Options)
	case syntax.NtMulti:
		for _, r := range n.Str {
			b.pushExact(r, n.Options)
		}
	case syntax.NtSet:
		b.pushSet(n.Set)

	case syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		for range min(n.M, maxRepeat) {
			b.pushExact(n.Ch, n.Options)
		}
		if n.N != n.M || n.M > maxRepeat {
			b.flush()
		}
	case syntax.NtSetloop, syntax.NtSetlazy, syntax.NtSetloopatomic:
		for range min(n.M, maxRepeat) {
			if !b.pushSet(n.Set) {
				break
			}
		}
		if n.N != n.M || n.M > maxRepeat {
			b.flush()
		}

	case syntax.NtCapture, syntax.NtGroup, syntax.NtAtomic, syntax.NtConcatenate:
		// The text a group consumes is the text its content consumes, in
		// place, so its content joins the surrounding run.
		for _, c := range n.Children {
			b.add(c)
		}

	case syntax.NtLoop, syntax.NtLazyloop:
		b.flush()
		if n.M >= 1 {
			// The body occurs at least once, but not necessarily next to
			// its neighbours' runs.
			*b.shared = b.run
			b.clauses = append(b.clauses, extractWith(n.Children[0], b.shared)...)
			b.run = (*b.shared)[:0]
		}
	case syntax.NtAlternate:
		b.flush()
		*b.shared = b.run
		c := alternationClause(n.Children, b.shared)
		b.run = (*b.shared)[:0]
		if c != nil {
			b.clauses = append(b.clauses, c)
		}

	case syntax.NtBol, syntax.NtEol, syntax.NtBoundary, syntax.NtNonboundary,
		syntax.NtECMABoundary, syntax.NtNonECMABoundary, syntax.NtBeginning,
		syntax.NtStart, syntax.NtEndZ, syntax.NtEnd, syntax.NtUpdateBumpalong,
		syntax.NtEmpty, syntax.NtPosLook, syntax.NtNegLook:
		// Zero-width: the characters on either side are consumed next to
		// each other, so the run goes on. What a lookaround looks at is not
		// necessarily inside the match and contributes nothing.
	default:
		// Back-references, conditionals, \X, capture resets and anything
		// newer: the consumed text is unknown.
		b.flush()
	}
}

// alternationClause picks one literal per branch, the best each offers;
// when any branch has none the alternation demands nothing.
func alternationClause(branches []*syntax.RegexNode, run *[]litChar) []Literal {
	var out []Literal
	for _, br := range branches {
		req := extractWith(br, run)
		best := -1
		bestScore := 0
		for i, c := range req {
			score := len(c[0].Text)
			for _, l := range c[1:] {
				score = min(score, len(l.Text))
			}
			score = score*4 - len(c) // prefer long literals, then fewer alternatives
			if best < 0 || score > bestScore {
				best, bestScore = i, score
			}
		}
		if best < 0 {
			return nil
		}
		out = append(out, req[best]...)
	}
	out = dedupLiterals(out)
	if len(out) > maxAlternatives {
		return nil
	}
	return out
}

func dedupLiterals(ls []Literal) []Literal {
	slices.SortFunc(ls, compareLiteral)
	return slices.Compact(ls)
}

func compareLiteral(a, b Literal) int {
	if c := strings.Compare(a.Text, b.Text); c != 0 {
		return c
	}
	switch {
	case a.Fold == b.Fold:
		return 0
	case a.Fold:
		return 1
	}
	return -1
}

// dedupClauses drops repeated clauses, keeping first-seen order so the
// result reads like the pattern. It reuses cs's array.
func dedupClauses(cs [][]Literal) Required {
	out := Required(cs[:0])
	for _, c := range cs {
		c = dedupLiterals(c)
		if !slices.ContainsFunc(out, func(o []Literal) bool { return slices.Equal(o, c) }) {
			out = append(out, c)
		}
	}
	return out
}

// asciiCasePair returns the lower-case form of an ASCII letter.
func asciiCasePair(r rune) (rune, bool) {
	switch {
	case 'a' <= r && r <= 'z':
		return r, true
	case 'A' <= r && r <= 'Z':
		return r + 'a' - 'A', true
	}
	return 0, false
}

// hasCase reports whether r has other case forms, in which case an
// ignore-case node may match more than r itself.
func hasCase(r rune) bool {
	return strings.ToLower(string(r)) != strings.ToUpper(string(r)) || r >= utf8.RuneSelf
}
