package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Paste leads: what a paste puts in front of every line of a log quoted
// in a Markdown document, an issue or a chat: a list item's marker ("- ",
// "* ", "+ "; an ordered list's "1. ", "2. ", ...), a code block's four spaces, a tab, two spaces (a list
// item's continuation; taken only by indentLead, from a first line a log
// does not indent itself). None holds a letter or a
// digit, so isLearnablePrefix refuses them; they are learned only from
// strong evidence (findPrefix), a frame line or a record's header behind
// them, never from an exception line alone, which a log's own indented
// text may hold.

// isPasteLead reports whether p is a paste lead.
func isPasteLead(p string) bool {
	switch p {
	case "- ", "* ", "+ ", "    ", "\t":
		return true
	}
	return false
}

// listMarkerLen returns the length of a Markdown list item's marker, "- ",
// "* " or "+ ", at the start of s with text after it, or 0. Like a prefix
// family's, it is evidence of a prefix on its own: two consecutive lines
// that start with one teach it (a log quoted as a list holds no line
// that tells it apart from content).
func listMarkerLen(s string) int {
	if len(s) > 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' && !isBlank(s[2:]) {
		return 2
	}
	return 0
}

// indentLead tells a stream that a paste indented as a whole, a Markdown
// code block's four spaces, two spaces, a tab or a list item's marker in front of
// every line, from one whose own lines are indented: the lead is taken from the stream's first
// non-blank line and kept while every non-blank line starts with it; the
// first line without it ends it for good. Bounded state: the lead and
// whether it holds.
type indentLead struct {
	lead  string
	state uint8
	deep  uint8 // lines read in leadDeep
}

// States of an indentLead.
const (
	leadUndecided = iota
	leadOn
	leadOff
	// leadDeep: the first line was indented by eight spaces or more, the
	// log's own indentation or a code block's around a traceback's
	// source line; a frame at six spaces within maxDeepLines lines tells
	// the code block, a line indented by less than four tells none.
	leadDeep
	// leadTail: the first line opened a traceback's tail at an
	// indentation a lead may hold or not (a frame at two or four
	// spaces, a source line or a py-spy frame at six): CPython prints
	// its exception line and chain lines unindented, so the first of
	// them tells the lead, the spaces before it (leadTailLines bounds
	// the wait).
	leadTail
)

// leadTailLines bounds the lines an indentLead waits in leadTail.
const leadTailLines = 255

// maxDeepLines bounds the lines an indentLead waits in leadDeep.
const maxDeepLines = 8

// strip returns the length of the lead at the start of s, the text of a
// line after its wrappers, or 0.
func (l *indentLead) strip(s string) int {
	if l.state == leadOff || isBlank(s) {
		return 0
	}
	if l.state == leadDeep {
		l.deep++
		switch {
		case len(s) > 6 && s[:6] == "      " && s[6] == 'F' && IsTracebackFrame(s[6:]):
			// The frame after a source line and its carets that
			// opened the paste: the code block's lead from here on.
			l.lead, l.state = "    ", leadOn
		case len(s) < 4 || s[:4] != "    " || l.deep >= maxDeepLines:
			l.state = leadOff
			return 0
		default:
			return 0
		}
	}
	if l.state == leadTail {
		return l.tail(s)
	}
	if l.state == leadUndecided {
		// A first line indented deeper by spaces is the log's own
		// indentation (CANN's inner error lines) as much as a code
		// block's around a traceback's tail: only a code block whose
		// first line starts right after its four spaces is told. A tab
		// before spaces is no log's own.
		switch {
		case len(s) > 1 && s[0] == '\t' && s[1] != '\t':
			l.lead = "\t"
		case opensTracebackTail(s):
			l.state = leadTail
			return 0
		case lineGutterLen(s) > 0:
			// A viewer's line numbers, right-aligned: a prefix
			// family's (prefixfamily.go), not a lead.
			l.state = leadOff
			return 0
		case len(s) > 4 && s[:4] == "    " && s[4] != ' ' && s[4] != '\t':
			l.lead = "    "
		case len(s) > 6 && s[:6] == "      " && s[6] == 'F' && (IsTracebackFrame(s[6:]) || isFaultFrame(s[6:])):
			// A traceback's frame, which CPython indents by two
			// spaces, at six: a code block around a traceback's tail
			// (faulthandler's dump indents its frames as much).
			l.lead = "    "
		case len(s) > 8 && s[:8] == "        " && s[8] != ' ' && isPySpyFrame(s[8:]):
			// py-spy's frame, which it indents by four spaces, at
			// eight: a code block around a dump's tail.
			l.lead = "    "
		case listMarkerLen(s) > 0:
			l.lead = listLead(s[0])
		case numberLen(s, true) > 0:
			l.lead = numberedLead
		case len(s) > 2 && s[:2] == "  " && s[2] != ' ' && s[2] != '\t' && !isLogIndented(s[2:]):
			// Two spaces: a list item's continuation, a hand-indented
			// quote. A traceback's frame or a native block's inner line
			// at two spaces is the log's own indentation (a paste that
			// starts inside a traceback), not a lead.
			l.lead = "  "
		case len(s) > 8 && s[:8] == "        ":
			l.state = leadDeep
			return 0
		default:
			l.state = leadOff
			return 0
		}
		l.state = leadOn
	}
	if l.lead == numberedLead {
		if n := numberLen(s, true); n > 0 {
			return n
		}
	} else if len(s) >= len(l.lead) && s[:len(l.lead)] == l.lead {
		return len(l.lead)
	}
	if len(l.lead) == 2 && len(s) == 1 && s[0] == l.lead[0] {
		return 1 // an empty list item whose trailing space an editor cut
	}
	l.state = leadOff
	return 0
}

// opensTracebackTail reports whether s, a stream's first line, is a
// traceback's frame at two or four spaces or a source line or a py-spy
// frame at six, where a paste's lead may stand or not: a frame at two is
// CPython's own, or an unindented one behind two spaces; at four, CPython's
// behind two or an unindented one in a code block.
func opensTracebackTail(s string) bool {
	k := 0
	for k < len(s) && k < 7 && s[k] == ' ' {
		k++
	}
	if k >= len(s) || s[k] == ' ' || s[k] == '\t' {
		return false
	}
	switch k {
	case 2, 4:
		return IsTracebackFrame(s[k:]) || isFaultFrame(s[k:])
	case 6:
		return s[k] != 'F' && !isExceptionLine(s[k:], false)
	}
	return false
}

// tail reads s, a line of a paste that opened inside a traceback's tail
// (leadTail), for the lead: the spaces before the first exception line,
// chain line, traceback header or thread header of a dump (faulthandler's,
// py-spy's), which their writers print unindented, when that is two or
// four; none when that line is unindented, or none came within
// leadTailLines lines.
func (l *indentLead) tail(s string) int {
	l.deep++
	k := 0
	for k < len(s) && k < 5 && s[k] == ' ' {
		k++
	}
	t := s[k:]
	if t == "" || t[0] == ' ' || t[0] == '\t' {
		return 0 // deeper: a frame's source line, carets
	}
	if !isExceptionLine(t, false) && !isChainSeparator(t) && !strings.HasPrefix(t, "Traceback (most recent call last):") && !isDumpHeader(t) {
		if k == 0 || l.deep >= leadTailLines {
			l.state = leadOff
		}
		return 0
	}
	switch k {
	case 2:
		l.lead = "  "
	case 4:
		l.lead = "    "
	default:
		l.state = leadOff
		return 0
	}
	l.state = leadOn
	return k
}

// isDumpHeader matches a thread's header in a stack dump: faulthandler's
// "Thread 0x00007f... (most recent call first):" and py-spy's "Thread
// 4110423 (idle): \"Thread-1\"" (or "(active)", "(gil)", "(active+gil)").
func isDumpHeader(s string) bool {
	if isThreadDump(s) {
		return true
	}
	rest, ok := strings.CutPrefix(s, "Thread ")
	if !ok {
		return false
	}
	id, state, ok := strings.Cut(rest, " (")
	if !ok || id == "" || strings.IndexByte(id, ' ') >= 0 {
		return false
	}
	st, _, ok := strings.Cut(state, "):")
	switch st {
	case "idle", "active", "gil", "active+gil":
		return ok
	}
	return false
}

// isLogIndented reports whether s, a line's text after two spaces, is one
// a log indents by two spaces itself: a traceback's frame (CPython's, or
// faulthandler's without the comma), a Rust backtrace's numbered frame,
// an exception group's box line, py-spy's frame.
func isLogIndented(s string) bool {
	return strings.HasPrefix(s, `File "`) || s[0] == '|' || s[0] == '+' || isRustFrameNumber(s) || isPySpyFrame(s)
}

// numberedLead stands for the lead of a paste quoted as a Markdown ordered
// list, one item a line: "1. ", "2. ", ... (numberLen).
const numberedLead = "1. "

// numberLen returns the length of a Markdown ordered list's marker at the
// start of s, "1. " to "9999. ", with text after it; or of the marker
// alone, "7." or "7. ", an empty line of the list, when alone is set.
func numberLen(s string, alone bool) int {
	j := 0
	for j < len(s) && j < 4 && isDigit(s[j]) {
		j++
	}
	if j == 0 || j >= len(s) || s[j] != '.' {
		return 0
	}
	if isBlank(s[j+1:]) {
		if alone {
			return len(s)
		}
		return 0
	}
	if s[j+1] != ' ' {
		return 0
	}
	return j + 2
}

// listLead returns the lead of a list item marked with c, without
// holding on to the line's memory.
func listLead(c byte) string {
	switch c {
	case '-':
		return "- "
	case '*':
		return "* "
	}
	return "+ "
}

// IsTracebackFrame reports whether s opens with a frame line in the
// shape only a traceback prints, `File "x.py", line 12, in fn`:
// faulthandler's dumps print no comma before "in".
func IsTracebackFrame(s string) bool {
	f, ok := parseFrame(s)
	return ok && f.File != "" && f.Func != ""
}

// isPySpyFrame reports whether s is a frame line of py-spy's dump,
// "fn (path/file.py:12)": a name without spaces, and in parentheses a
// Python file's path and a line number, ending the line.
func isPySpyFrame(s string) bool {
	sp := strings.IndexByte(s, ' ')
	if sp <= 0 || !strings.HasPrefix(s[sp:], " (") || !strings.HasSuffix(s, ")") {
		return false
	}
	loc := s[sp+2 : len(s)-1]
	c := strings.LastIndexByte(loc, ':')
	return c > 0 && strings.HasSuffix(loc[:c], ".py") && ascii.Digits(loc[c+1:]) && strings.IndexByte(loc, ' ') < 0
}
