package entry

import "strings"

// A console logger that lays its records out in columns (Python's
// rich.logging.RichHandler, and the loggers built on it): the time in
// brackets, the level padded to eight columns, the message, and the
// source location right-aligned at the console's edge:
//
//	[05:39:59] ERROR    Failed to load config                    app.py:83
//	           ERROR    We couldn't connect to 'https://...' to   app.py:84
//	                    load this file, couldn't find it in the cached files
//	                    Traceback (most recent call last):
//
// A record logged in the second of the one before leaves its time column
// blank; a message longer than its column goes on, wrapped at a word, on
// lines indented to the message column, and so does what the record
// printed after it (a traceback). richLayout learns the columns from the
// first record whose line shows them all (a level padded to eight columns
// and a source column), then reads each line as the console drew it: the
// indentation off, a line with a blank time column a record of its own,
// the source column off the line (no text of the record), and the wrapped
// message's pieces joined with the space the wrap broke at.

// richLevelWidth is the level column's width, its padding space included.
const richLevelWidth = 9

// richLayout is what a stream's column console showed: 0 until a record
// shows it.
type richLayout struct {
	timeW  int  // the time column's width: where the level starts
	msgCol int  // where the message column starts
	header bool // the line Push is reading had its blank time column taken off
	// wrapped: the pending entry's last kept line is its message, or a
	// piece of it, that the next indented line may go on.
	wrapped bool
}

// indent returns the bytes of s that are the layout's indentation: the
// message column's on a line of a record's continuation, the time
// column's on a record whose time was left out; 0 on any other line.
func (r *richLayout) indent(s string) int {
	r.header = false
	if r.msgCol == 0 || len(s) <= r.timeW || !isBlank(s[:r.timeW]) {
		return 0
	}
	if s[r.timeW] != ' ' {
		if lvl, after, ok := levelWord(s[r.timeW:]); ok && r.timeW+len(lvl) < r.msgCol && len(s) > r.msgCol &&
			isBlank(after[:r.msgCol-r.timeW-len(lvl)]) && s[r.msgCol] != ' ' {
			// (With no time column, a record's line takes nothing off:
			// classify reads its level.)
			r.header = true
			return r.timeW
		}
		return 0
	}
	if len(s) <= r.msgCol || !isBlank(s[:r.msgCol]) {
		return 0
	}
	return r.msgCol
}

// classify reads c, a line classify found no other header on, as a record
// whose time column was blank ("ERROR    msg" once indent took the column
// off), and a record's header, of a blank time column or not, for the
// columns it shows: it learns them from a first record, and takes the
// source column off the line (c.s and the header's message). The record
// keeps the stream's time, which its blank column repeated.
func (r *richLayout) classify(c *classified) {
	s := c.s
	if !c.header && (r.header || r.msgCol == 0 && richLevelAt(s) > 0) {
		// A record whose time column was blank, or a console that
		// shows none (show_time=False): the level opens the line.
		lvl, after, _ := levelWord(s)
		c.header, c.native = true, false
		c.h = header{format: FormatPython, ranks: NoRanks, level: lvl, msg: strings.TrimLeft(after, " ")}
		if r.msgCol == 0 {
			r.timeW, r.msgCol = 0, richLevelWidth
		}
	} else if !c.header || c.h.format != FormatPython || s[0] != '[' || !endsInSourceColumn(s) {
		return
	} else if r.msgCol == 0 {
		lvl := strings.Index(s, c.h.level)
		msg := len(s) - len(c.h.msg)
		if lvl <= 0 || msg-lvl != richLevelWidth || s[lvl-1] != ' ' {
			return
		}
		r.timeW, r.msgCol = lvl, msg
	}
	if k := sourceColumnAt(c.s); k > 0 && len(c.s)-k < len(c.h.msg) {
		cut := len(c.s) - k
		c.s, c.h.msg = c.s[:k], c.h.msg[:len(c.h.msg)-cut]
	}
}

// richLevelAt reports the message column of a column console's record
// that shows no time, "ERROR    msg    app.py:83": a level padded to the
// level column, a message, and the source column; 0 for any other line.
func richLevelAt(s string) int {
	lvl, after, ok := levelWord(s)
	n := richLevelWidth - len(lvl)
	if !ok || len(after) <= n || !isBlank(after[:n]) || after[n] == ' ' || !endsInSourceColumn(after) {
		return 0
	}
	return richLevelWidth
}

// sourceColumnAt returns where the run of spaces before a right-aligned
// source column ("    gui.py:838") begins in s, or 0 (endsInSourceColumn).
func sourceColumnAt(s string) int {
	if !endsInSourceColumn(s) {
		return 0
	}
	i := strings.LastIndexByte(s, ' ')
	for i > 0 && s[i-1] == ' ' {
		i--
	}
	return i
}

// richJoin joins c, a line in a column console's message column while the
// pending record's message is open, to the message as the rest a word
// wrap left, at the space it broke at: a line of prose, not a traceback's,
// an exception line or another writer's. It reports whether it did.
func (a *Assembler) richJoin(l *Line, c *classified) bool {
	p := &a.cur
	if !p.active || c.header || c.native || a.spacing.real(p.blanks) != 0 || c.s == "" || c.s[0] == ' ' ||
		textClass(c.s) != lcOther || isExceptionLine(c.s, false) || !a.joinSep(l, c, " ") {
		return false
	}
	a.lines-- // the rest of a line, not a line
	return true
}
