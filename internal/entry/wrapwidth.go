package entry

import "strings"

// wrapWidth learns the width a terminal or a paste hard-wrapped a stream
// at: two breaks that isWrapBreak confirms after lines of one raw length
// teach it. Once known, a line of exactly that length is broken there
// whatever the rest opens with, unless the rest is a line of its own by
// shape (a header, a native line, a traceback's line): a terminal cuts
// at a column, not at a word. Bounded state: two lengths.
type wrapWidth struct {
	seen  int // the raw length of the line before the last confirmed break
	width int // the learned width, 0 until known
}

// confirm notes a break isWrapBreak accepted after a line of raw length n.
func (w *wrapWidth) confirm(n int) {
	if w.width == 0 && n == w.seen {
		w.width = n
	}
	w.seen = n
}

// at reports whether a line of raw length n ends at the learned width.
func (w *wrapWidth) at(n int) bool { return w.width > 0 && n == w.width }

// isColumnBreak reports whether next may be the rest of prev, a line cut
// at the learned width: next is no line of its own by shape.
func isColumnBreak(prev, next string) bool {
	if next == "" || isFrameLine(prev) || isFrameLine(next) || isTracebackLine(next) ||
		isChainSeparator(next) || isCaretLine(next) || isGroupStartLine(next) {
		return false
	}
	// A line that opens as prev did is a new line of the same shape: a
	// record repeated, a progress bar redrawn.
	if firstWord(prev) == firstWord(next) {
		return false
	}
	_, _, ok := parseExceptionAnyQuote(next)
	return !ok
}

// firstWord returns s up to its first space.
func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}
