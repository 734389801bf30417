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
	// The stream's line lengths, which tell a terminal's width before
	// the text around any break does (longest): the longest raw
	// length so far and the last line's (0 after a blank line); how
	// many lines at the longest length a shorter rest followed, and
	// whether one of those cuts fell inside a token.
	maxRaw, last, prevRaw, pieces int
	inside                        bool
	noted                         int64 // the line notePiece last read, by Assembler.lines
}

// minPieces is how many lines at a stream's longest length, each
// followed by a shorter line that may be its rest, tell a terminal's
// width (the pair read counted): a wrapped log has many, another log's
// longest line seldom recurs with a header-less line after it, and a
// table whose every line is as long has no shorter line after its rows.
const minPieces = 3

// observe notes a non-blank line of raw length n, before it is read.
func (w *wrapWidth) observe(n int) {
	w.prevRaw = w.last
	if w.width > 0 && n > w.width {
		// A line longer than the width: no terminal cut the stream
		// at it (or no longer does), and a line as long is a line.
		w.width, w.seen = 0, 0
	}
	if n > w.maxRaw {
		// No line was cut at a width shorter than this one: the
		// lines at the old longest length were no terminal's pieces.
		w.maxRaw, w.pieces, w.inside = n, 0, false
	}
	w.last = n
}

// gap notes a blank line: a wrap leaves none between a line's pieces.
func (w *wrapWidth) gap() { w.last = 0 }

// notePiece notes next, a header-less line of raw length n read as a
// possible rest of prev, the line just before it: a piece when prev is
// at the stream's longest length, next shorter and no line of its own
// by shape; cut inside a token when a letter goes on in lower case, a
// capital with a capital, a digit with a digit or a run of spaces with
// spaces ("...Runnin" and "g   14", "...RE" and "STARTS", "...05:4" and
// "2:52", a table's padding).
func (w *wrapWidth) notePiece(prev, next string, n int) {
	if w.prevRaw != w.maxRaw || n >= w.maxRaw || w.maxRaw < minWrapWidth || w.pieces >= minPieces && w.inside ||
		prev == "" || next == "" || !isColumnBreak(prev, next) {
		return
	}
	if w.pieces < minPieces {
		w.pieces++
	}
	p, c := prev[len(prev)-1], next[0]
	if isLetter(p) && isLower(c) || isUpper(p) && isUpper(c) || isDigit(p) && isDigit(c) || p == ' ' && c == ' ' {
		w.inside = true
	}
}

// longest reports whether a line of raw length n, the line just before
// the one read, is at the width a terminal hard-wrapped the stream at,
// as its lengths tell it: n is the stream's longest length so far, at
// least minWrapWidth, lines at it were followed by shorter rests at
// least minPieces times (the pair read included), and one of those cuts
// fell inside a token. Under a terminal's hard wrap no line is longer
// than the width, and every line longer than it left a piece exactly as
// long, most cut inside a word.
func (w *wrapWidth) longest(n int) bool {
	return n >= minWrapWidth && n == w.maxRaw && w.prevRaw == n && w.pieces >= minPieces && w.inside
}

// confirm notes a break isWrapBreak accepted after a line of raw length n.
func (w *wrapWidth) confirm(n int) {
	if w.width == 0 && n == w.seen {
		w.width = n
	}
	w.seen = n
}

// teach learns n as the width at once: two pieces of one line, each cut
// at it, say it (isTwinBreak).
func (w *wrapWidth) teach(n int) {
	w.width, w.seen = n, n
}

// at reports whether a line of raw length n ends at the learned width.
func (w *wrapWidth) at(n int) bool { return w.width > 0 && n == w.width }

// isColumnBreak reports whether next may be the rest of prev, a line cut
// at the learned width: next is no line of its own by shape.
func isColumnBreak(prev, next string) bool {
	if next == "" || isFrameLine(prev) || isFrameLine(next) || isTracebackLine(next) ||
		isChainSeparator(next) || IsCaretLine(next) || isGroupStartLine(next) {
		return false
	}
	// A line that opens as prev did is a new line of the same shape: a
	// record repeated, a progress bar redrawn.
	if firstWord(prev) == firstWord(next) {
		return false
	}
	if sameColumns(prev, next) {
		// The next row of a table whose columns prev's padding set
		// ("NAME   ...   AGE" and "deepseek-...   0/1   ...   13m",
		// each as long as the other): a line of its own.
		return false
	}
	if isIndented(next) && isWarningLine(prev) {
		// The warnings module's second line, the source line it
		// indents ("  warnings.warn("), after a warning as long as the
		// width.
		return false
	}
	_, _, ok := parseExceptionAnyQuote(next)
	return !ok
}

// isTwinBreak reports whether next, of raw length nextRaw, is the middle
// piece of a line a terminal cut twice at one width, prev (of raw length
// prevRaw) its first: both are as long as each other and at least
// minWrapWidth, the break falls inside a token (a letter or a digit on
// each side, "...operation timeout: WorkN" and "CCL(SeqNum=..."), and next
// is no line of its own by shape and not indented. Two lines of a log of
// one length that long, the first ending inside a word the second goes on
// with, are a terminal's pieces: the width is taught by them before a
// second break could confirm it (isWrapBreak refuses a break between two
// capitals after a mixed-case word, which a field of the next line may
// begin with).
func isTwinBreak(prev, next string, prevRaw, nextRaw int) bool {
	if prevRaw != nextRaw || prevRaw < minWrapWidth || prev == "" || next == "" || isIndented(next) {
		return false
	}
	p, n := prev[len(prev)-1], next[0]
	if !(isWordByte(p) && isWordByte(n)) {
		return false
	}
	return isColumnBreak(prev, next)
}

// isTwinSpaceBreak is isTwinBreak for a cut that fell just after a space:
// prev, of raw length prevRaw, ends in one space and next is as long, at
// least minWrapWidth, opens with a letter and is no traceback line by
// shape ("...writeBody failed. " and "Error: Bad address (value: 14),
// ..."). A rest that opens like an exception line is one here: two lines
// of one length that long, the first ending in the space a cut leaves,
// are a terminal's pieces.
func isTwinSpaceBreak(prev, next string, prevRaw, nextRaw int) bool {
	if prevRaw != nextRaw || prevRaw < minWrapWidth || len(prev) < 2 || next == "" || isIndented(next) {
		return false
	}
	if prev[len(prev)-1] != ' ' || prev[len(prev)-2] == ' ' || !isLetter(next[0]) {
		return false
	}
	return !isFrameLine(prev) && !isFrameLine(next) && !isTracebackLine(next) && !isChainSeparator(next) &&
		!IsCaretLine(next) && !isGroupStartLine(next) && firstWord(prev) != firstWord(next)
}

// isSecondCut reports whether next may be the rest of prev, a line as long
// as the one a confirmed break cut before it: the cut falls inside a token
// (a letter or a digit on each side) and next is no line of its own by
// shape and not indented.
func isSecondCut(prev, next string) bool {
	if prev == "" || next == "" || isIndented(next) || !isWordByte(prev[len(prev)-1]) || !isWordByte(next[0]) {
		return false
	}
	return isColumnBreak(prev, next)
}

// firstWord returns s up to its first space.
func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// maxColumns bounds the column starts sameColumns reads on a line.
const maxColumns = 16

// columnStarts writes to dst the offsets in s where a column starts after
// padding (a run of two spaces or more), at most maxColumns, and returns
// how many it wrote.
func columnStarts(dst *[maxColumns]int, s string) int {
	n, run := 0, 0
	for i := 0; i < len(s) && n < maxColumns; i++ {
		if s[i] == ' ' {
			run++
			continue
		}
		if run >= 2 && i > run {
			dst[n] = i
			n++
		}
		run = 0
	}
	return n
}

// sameColumns reports whether next is another row of the table prev is a
// row of: both pad their cells into two columns or more after the first,
// and at least two of next's columns, and most, start where prev's do. A
// terminal's rest starts at the first column, so its cells line up with
// the line it was cut from only by chance.
func sameColumns(prev, next string) bool {
	var a, b [maxColumns]int
	na := columnStarts(&a, prev)
	if na < 2 {
		return false
	}
	nb := columnStarts(&b, next)
	if nb < 2 {
		return false
	}
	same, j := 0, 0
	for i := 0; i < nb; i++ {
		for j < na && a[j] < b[i] {
			j++
		}
		if j < na && a[j] == b[i] {
			same++
		}
	}
	return same >= 2 && 2*same > nb
}
