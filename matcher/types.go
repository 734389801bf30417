package matcher

import "github.com/logmatch/logmatch/patterns"

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
