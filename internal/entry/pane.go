package entry

import (
	"strings"
	"unicode/utf8"
)

// A terminal pane's borders: a log viewer that draws a box around its log
// pane (k9s) pads every line to the pane's width and closes it with a
// box-drawing bar, the next line opened by one ("│   File \"x.py\", line
// 1, in f          │"); a copy of the pane holds them on every line. They
// are the viewer's, like a paste's lead, and come off.

// paneBar is the box-drawing bar (U+2502) a pane's border is drawn with;
// paneBorderLast is its last byte, the one test a line that ends in none
// pays.
const (
	paneBar        = "│"
	paneBorderLast = 0x82
)

// minPanePad is the padding before a closing bar that tells a pane's
// border on a line alone, before a second line at the same width
// confirms it.
const minPanePad = 8

// paneBorder tells a pane's borders by their consistency: the width of the
// last line's text between its bars, which the next line's must match.
// Bounded state: one width.
type paneBorder struct {
	width int // runes between the bars of the line before; 0 for none
}

// strip returns the bounds of s[start:end] with a pane's borders off: a
// closing bar after a space, and an opening bar and its space when the
// line has one (after a paste's indentation), when no other bar stands
// between them (a table's row has its cells') and the line is as wide as
// the one before it or padded by minPanePad spaces or more. The padding
// goes too. Any other line keeps its bounds and resets the width.
func (p *paneBorder) strip(s string, start, end int) (int, int) {
	body, ok := strings.CutSuffix(s[start:end], " "+paneBar)
	if !ok {
		p.width = 0
		return start, end
	}
	open := 0
	for open < len(body) && open < maxNativeIndent && body[open] == ' ' {
		open++ // a paste's indentation in front of the pane
	}
	if strings.HasPrefix(body[open:], paneBar+" ") {
		open += len(paneBar + " ")
		body = body[open:]
	} else {
		open = 0
	}
	if strings.Contains(body, paneBar) {
		p.width = 0
		return start, end
	}
	w := utf8.RuneCountInString(body)
	text := strings.TrimRight(body, " ")
	consistent := p.width == w
	p.width = w
	if !consistent && len(body)-len(text) < minPanePad {
		return start, end
	}
	return start + open, start + open + len(text)
}

// paneLeadLen returns the length of the left borders of nested panes that
// open s, each a bar and its space ("│ │   File \"x.py\", line 1, in
// f"), when no bar closes the line: a copy of a viewer's panes that kept
// their left edge and not their right one (the selection ended with the
// text). 0 when s opens otherwise or holds nothing after them.
func paneLeadLen(s string) int {
	n := 0
	for strings.HasPrefix(s[n:], paneBar+" ") {
		n += len(paneBar + " ")
	}
	if n == 0 || isBlank(s[n:]) || strings.Contains(s[n:], paneBar) {
		return 0
	}
	return n
}
