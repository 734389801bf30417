package entry

import "strings"

// A box-drawn table (Triton's model status and option tables, a CLI's
// report) wraps a cell too long for its column over several rows: the
// row goes on in the rows after it, every cell before the last one blank,
// each row as long as the one it continues ("| tensorrt_llm | 1 |
// UNAVAILABLE: ... Assertion failed:  |" then "|              |   |
// mpiSize == tp * pp (/app/.../worldConfig.cpp:80)   |"). The printer
// breaks at the column's width, inside a word ("[TensorRT-LLM][E" and
// "RROR] ...") or at the space before a word that would cross it; a
// message's own newline starts a row too, with room left for the next
// line's first word. A wrapped cell's rows are one line of the message:
// joined, the matcher reads the message whole, where a record's words
// were split across the rows.

// tableRow is the last row of a box-drawn table the pending entry took:
// its length, where its last cell's text starts, and that text's length.
// Zero when the last line taken was no such row. Bounded state.
type tableRow struct {
	lead  int // the spaces before the row's opening bar (a paste's indentation)
	width int // the row's length, its closing bar included
	cell  int // the index of the last cell's first text byte
	text  int // the length of the last cell's text, its padding off
}

// tablePiece is a continuation row a terminal cut, whose first piece was
// joined to the row it continues (joinTablePiece): its row, and the bytes
// of it still to come in the rest.
type tablePiece struct {
	row  tableRow
	rest int // the bytes of the row after the piece
	text int // the length of the last cell's text in the piece
	pad  int // the spaces that text ends in
}

// minTableRow is the shortest row read as a table's: a wrap inside a
// cell narrower than a few words is no wrap any printer does.
const minTableRow = 24

// parseTableRow reads s as a table row whose last cell holds text
// aligned left: "| a | b | text   |", after at most maxQuoteIndent
// spaces a paste put before it. ok is false for any other line,
// a row whose last cell is blank or aligned right (nvidia-smi's) among
// them.
func parseTableRow(s string) (t tableRow, ok bool) {
	n := len(s)
	if n < minTableRow || s[n-1] != '|' || s[n-2] != ' ' {
		return tableRow{}, false
	}
	lead := 0
	for lead < n && lead <= maxQuoteIndent && s[lead] == ' ' {
		lead++
	}
	if s[lead] != '|' {
		return tableRow{}, false
	}
	b := strings.LastIndexByte(s[:n-1], '|')
	if b <= lead || b+3 >= n-1 || s[b+1] != ' ' || s[b+2] == ' ' {
		return tableRow{}, false
	}
	text := strings.TrimRight(s[b+2:n-2], " ")
	return tableRow{lead: lead, width: n, cell: b + 2, text: len(text)}, true
}

// continues reports whether s continues the row t: as long as it, its
// last cell where t's is and every cell before it blank, and the text of
// t's last cell cut where a wrap cuts (wrapSep). It returns the text of
// s's last cell and the separator the break took.
func (t tableRow) continues(s string) (text, sep string, ok bool) {
	if t.width == 0 || len(s) != t.width || s[t.lead] != '|' || s[t.cell-2] != '|' {
		return "", "", false
	}
	next, ok := parseTableRow(s)
	if !ok || next.cell != t.cell || next.lead != t.lead {
		return "", "", false
	}
	for i := t.lead + 1; i < t.cell-2; i++ {
		if s[i] != ' ' && s[i] != '|' {
			return "", "", false // a cell before the last holds text: a row of its own
		}
	}
	text = s[next.cell : next.cell+next.text]
	sep, ok = t.wrapSep(text)
	return text, sep, ok
}

// continuesPiece reports whether s is the first piece of a row that
// continues t, cut by a terminal before the row's end: shorter than t,
// with t's blank cells and the last cell's bar where t has them, and text
// in the last cell. It returns that text so far and the separator the
// cell's break took.
func (t tableRow) continuesPiece(s string) (text, sep string, ok bool) {
	if t.width == 0 || len(s) >= t.width || len(s) <= t.cell || s[t.lead] != '|' || s[t.cell-2] != '|' || s[t.cell-1] != ' ' || s[t.cell] == ' ' {
		return "", "", false
	}
	for i := 0; i < t.lead; i++ {
		if s[i] != ' ' {
			return "", "", false
		}
	}
	for i := t.lead + 1; i < t.cell-2; i++ {
		if s[i] != ' ' && s[i] != '|' {
			return "", "", false
		}
	}
	text = s[t.cell:]
	sep, ok = t.wrapSep(text)
	return text, sep, ok
}

// wrapSep says how the row t's last cell broke before rest, the text
// of the row after it: "" for a cut at the column's width, inside a word
// or not; " " for a word wrap, which breaks at the space before a word
// that does not fit in what is left of the column. A cell that ends with
// room for rest's first word ended at a newline of its own: ok is false.
func (t tableRow) wrapSep(rest string) (sep string, ok bool) {
	width := t.width - 2 - t.cell // the column's width, its padding included
	if t.text >= width {
		return "", true
	}
	w := strings.IndexByte(rest, ' ')
	if w < 0 {
		w = len(rest)
	}
	if t.text+1+w > width {
		return " ", true
	}
	return "", false
}

// joinTablePiece joins s, the first piece of a row that continues the
// pending entry's last table row (continuesPiece), as joinTableRow joins
// a whole one; the rest of the row, when a wrap's rule joins it, closes
// the cell (closeTablePiece).
func (a *Assembler) joinTablePiece(l *Line, c *classified, text, sep string) bool {
	p := &a.cur
	row := p.table
	if !a.joinTableRow(l, c, text, sep) {
		return false
	}
	// joinTableRow closed the row: the piece's text goes on instead.
	last := a.kept.last()
	if !a.kept.extendLast(last[:len(last)-2]) {
		return false
	}
	if a.kept.count() == 1 && p.msg == last {
		p.msg = a.kept.last()
	}
	p.table = tableRow{}
	p.piece = tablePiece{row: row, rest: row.width - len(c.s), text: len(text), pad: len(text) - len(strings.TrimRight(text, " "))}
	return true
}

// closeTablePiece reads joined, the pending entry's last line after a
// wrap's rest (rest) was joined to it, for the end of a table row whose
// first piece joinTablePiece took: when rest ends the row, the cell's
// padding comes off and the row is the table's last row again.
func (a *Assembler) closeTablePiece(joined, rest string) {
	p := &a.cur
	piece := p.piece
	p.piece = tablePiece{}
	if len(rest) > piece.rest || !strings.HasSuffix(rest, "|") || len(joined) < 2 {
		// (A rest shorter than the row's: its padding went with the
		// line's wrappers.)
		return
	}
	whole := strings.TrimRight(joined[:len(joined)-1], " ") + " |"
	if !a.kept.extendLast(whole) {
		return
	}
	if a.kept.count() == 1 && p.msg == joined {
		p.msg = whole
	}
	// The cell's text in the whole row, its padding off: the piece's,
	// and the rest's up to the closing bar.
	row := piece.row
	if more := len(strings.TrimRight(rest[:len(rest)-1], " ")); more > 0 {
		row.text = piece.text + more
	} else {
		row.text = piece.text - piece.pad
	}
	p.table = row
}

// joinTableRow joins the row c, which continues the pending entry's last
// kept line (a table row, or rows joined so far), as the rest of its last
// cell: the line becomes the row with the cell's text whole. It reports
// whether it joined.
func (a *Assembler) joinTableRow(l *Line, c *classified, text, sep string) bool {
	p := &a.cur
	prev := a.kept.last()
	if !strings.HasSuffix(prev, "|") {
		return false
	}
	head := strings.TrimRight(prev[:len(prev)-1], " ")
	if len(head)+len(sep)+len(text)+2 > a.opt.MaxLineBytes {
		return false
	}
	joined := head + sep + text + " |"
	if !a.kept.extendLast(joined) {
		return false
	}
	if a.kept.count() == 1 && p.msg == prev {
		p.msg = joined
	}
	a.noteBare(joined)
	p.table.text = len(text)
	p.blanks = 0
	p.lines++
	p.last = l.Offset
	p.colon = false
	p.lastLen = len(c.s)
	p.lastRaw = len(l.Text) + l.Framing
	p.lastPadded = a.padCut > 0
	p.lastTrimmed = a.padded
	return true
}
