package entry

import "strings"

// A log console (a web UI's table of records: a cluster's log viewer, a
// job dashboard) copied row by row puts each record's other columns on
// lines of their own after its message: its time alone on a line, and
// often its source, a pod's or a host's name that the table cut with
// "…", the same on every row. Those lines are no text of the records:
// read as lines, they split a traceback into an entry per row. A
// columnFiller tells them, and Push counts them in the pending entry
// without reading them, as it counts a blank line it keeps.

// maxColumnToken bounds the source column a columnFiller remembers.
const maxColumnToken = 64

// columnFiller follows the column lines of a copied console. Bounded: one
// remembered source column.
type columnFiller struct {
	afterTime bool // the last non-blank line was a time column alone
	n         int
	token     [maxColumnToken]byte // the source column, once one was seen
}

// open reports whether a line that does not start with a digit may be a
// column line: a time alone came last, or a source column was seen.
func (c *columnFiller) open() bool { return c.afterTime || c.n > 0 }

// filler reports whether s, a non-blank line with its wrappers off, is a
// console's column line: a time alone, the one-word source column right
// after a time alone (blank lines between), or that source column again.
func (c *columnFiller) filler(s string) bool {
	if s == "" {
		return false
	}
	if s[0] >= '0' && s[0] <= '9' && isTimeColumn(s) {
		c.afterTime = true
		return true
	}
	if c.n == 0 && !c.afterTime {
		return false // most lines
	}
	if len(s) <= maxColumnMark {
		// A launcher's label or a quote's marker alone, the blank
		// line between a row's columns behind a prefix not learned yet
		// ("3: "): it leaves the row as it was.
		return false
	}
	after := c.afterTime
	c.afterTime = false
	if c.n > 0 && len(s) == c.n && string(c.token[:c.n]) == s {
		return true
	}
	if after && isColumnToken(s) {
		c.n = copy(c.token[:], s)
		return true
	}
	return false
}

// maxColumnMark is the longest line filler takes for a marker alone
// between a row's columns.
const maxColumnMark = 4

// maxTimeColumn bounds a line isTimeColumn reads.
const maxTimeColumn = 40

// isTimeColumn reports whether s is a date and time alone,
// "2026-03-18 05:25:02" or an RFC 3339 time, trailing blanks aside.
func isTimeColumn(s string) bool {
	if len(s) > maxTimeColumn {
		return false
	}
	s = strings.TrimRight(s, " \t")
	return dateTimeLen(s) == len(s)
}

// isColumnToken reports whether s reads as a source column: one word of
// at most maxColumnToken bytes, no blank inside, holding a letter and a
// digit, as a pod's or a host's generated name does (a word of prose, a
// shell's "Killed", has no digit), and not ending in ":" (a label that
// announces what follows).
func isColumnToken(s string) bool {
	if len(s) > maxColumnToken || s[len(s)-1] == ':' {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= ' ' || c == 0x7f:
			return false
		case isDigit(c):
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		}
	}
	return letter && digit
}
