package matcher

import (
	"unsafe"

	"github.com/logmatch/logmatch/internal/textbuf"
	"github.com/logmatch/logmatch/patterns"
)

// Subject is what one entry offers to the matcher.
type Subject struct {
	// Text is searched by every candidate pattern as one multi-line string
	// (patterns are compiled with patterns.RegexOptions, so ^ and $ anchor at
	// each line).
	Text string
	// ExceptionTypes are the types of the entry's exception chain as printed,
	// root cause first, outermost last; empty when the entry holds no
	// traceback. They rank hits; they are not searched.
	ExceptionTypes []string
}

// Hit is one record whose pattern matched a Subject.
type Hit struct {
	Record *patterns.Record // points into the compiled catalog; never nil
	Start  int              // byte offset of the match in Subject.Text
	End    int              // byte offset just past the match
	// Line is the full line (or lines, for a pattern that spans newlines)
	// of Subject.Text around the match.
	Line string
	// ClassAgrees is true when the record's errorClass equals one of the
	// Subject's exception types (compared on the last dotted component).
	ClassAgrees bool
	// ord is the record's place in its Matcher's catalog plus one (0 for
	// a Hit made elsewhere): see Ordinal.
	ord int32
	// LiteralLen is the length of the literal text the pattern requires:
	// the second ranking key.
	LiteralLen int

	// The capture groups, read by Groups. A hit of a litProg keeps its
	// groups as spans of text (up to inlineGroups of them), so finding it
	// allocates nothing; any other hit keeps them built.
	text   string
	lit    []group // the litProg's groups when spans holds them
	spans  [2 * inlineGroups]int
	groups map[string]string
}

// Ordinal returns the place of h's record in the catalog of the Matcher
// that found h (0 to its number of records − 1) and true; false for a Hit
// made elsewhere. A caller that keeps something per record (a fingerprint)
// indexes a table by it, and checks that the table's entry is of h.Record:
// the places of two Matchers' records are not those of one catalog.
func (h *Hit) Ordinal() (int, bool) { return int(h.ord) - 1, h.ord > 0 }

// inlineGroups is how many groups a Hit holds as spans of the text; a
// litProg with more has its groups built into a map when it matches.
const inlineGroups = 4

// Groups returns every capture group that took part in the match, by
// number ("1", "2", ...) and by name for named groups; nil when none. For
// most hits the map is built afresh on each call: call it where the groups
// are shown, not per hit.
func (h *Hit) Groups() map[string]string {
	if len(h.lit) == 0 {
		return h.groups
	}
	gs := make(map[string]string, len(h.lit))
	for i, g := range h.lit {
		gs[g.key] = h.text[h.spans[2*i]:h.spans[2*i+1]]
	}
	return gs
}

// PatternError reports a pattern that failed while matching (a timeout or
// the backtracking-stack limit). It is a pattern-health event, not a miss.
type PatternError struct {
	Record *patterns.Record
	Err    error
}

// Rebase moves h from the subject text old to text, a copy of old with the
// same bytes: Line and the capture groups then read text, and nothing of h
// points into old. It reports false and leaves h as it was when h does not
// read old alone: it was found in another string (a masked copy).
func (h *Hit) Rebase(old, text string) bool {
	if len(text) != len(old) || h.text != "" && !sameString(h.text, old) {
		return false
	}
	at, ok := textbuf.OffsetIn(h.Line, old)
	if !ok {
		return false
	}
	h.Line = text[at : at+len(h.Line)]
	if h.text != "" {
		h.text = text
	}
	// Built groups that point into old are moved in place (the map is
	// the hit's own); the others were copied when they were built.
	for k, v := range h.groups {
		if at, ok := textbuf.OffsetIn(v, old); ok && v != "" {
			h.groups[k] = text[at : at+len(v)]
		}
	}
	return true
}

// sameString reports whether a and b are one string: the same bytes in
// the same memory.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}
