package entry

import "strings"

// A traceback pasted with its indentation stripped: every frame line,
// source line and caret line flush left, as a chat tool, an issue form
// or a word processor leaves it ('File "/x/scheduler.py", line 983, in
// event_loop_normal', then 'batch = self.get_next_batch_to_run()', then
// '^^^^'). The Assembler keeps such a traceback's lines as CPython printed
// them, a frame at two spaces and the lines under it at four, so that its
// readers tell a frame's source from a line of its own as they do in any
// other traceback: a source line is the line under a frame, indented.

// Indentation CPython's traceback module prints.
const (
	frameIndent  = "  "
	sourceIndent = "    "
)

// flushFrame reports whether s is a traceback's frame line at the first
// column ('File "x.py", line 3, in f'); a one-byte test first, since
// take asks it of every line of a traceback.
func flushFrame(s string) bool {
	return s != "" && s[0] == 'F' && isFrameLine(s)
}

// flushIndent returns s, a line the pending traceback entry takes, with
// the indentation CPython gave it when the paste stripped it: a frame line
// at the first column gets two spaces, and once one did, the line right
// under a frame (its source, unless it is the exception line or a
// traceback's marker) and a caret line under that source get four. Any
// other line, and every line of a traceback whose frames kept their
// indentation, is returned as it is.
func (a *Assembler) flushIndent(s string) string {
	p := &a.cur
	src := p.flushSrc
	p.flushSrc = false
	if s == "" || s[0] == ' ' || s[0] == '\t' {
		return s
	}
	if flushFrame(s) {
		p.flush = true
		return frameIndent + s
	}
	if !p.flush {
		return s
	}
	switch {
	case statePhase[p.st] == phFrame:
		if isExceptionLine(s, true) || isTracebackLine(s) || isChainSeparator(s) || isRepeatedLine(s) || isGroupStartLine(s) || IsCaretLine(s) {
			return s
		}
		p.flushSrc = true
		return sourceIndent + s
	case src && IsCaretLine(s):
		return sourceIndent + s
	}
	return s
}

// Typographic quotes a word processor, a chat tool or an issue form's
// "smart quotes" put for a straight one.
const (
	openCurly  = "\u201c"
	closeCurly = "\u201d"
)

// straightFrameQuotes returns s with the curled quotes around a frame's
// file name straightened ('File “/x/worker_base.py”, line 311, in f' to
// 'File "/x/worker_base.py", line 311, in f'), where i is the index of the
// first opening one: a traceback pasted through such a tool, which also
// strips its indentation as often. Any other line, quotes in prose among
// them, is returned as it is.
func straightFrameQuotes(s string, i int) string {
	if !strings.HasSuffix(s[:i], "File ") {
		return s
	}
	path := s[i+len(openCurly):]
	j := strings.Index(path, closeCurly)
	if j <= 0 || !strings.HasPrefix(path[j+len(closeCurly):], ", line ") || strings.IndexByte(path[:j], '"') >= 0 {
		return s
	}
	return s[:i] + `"` + path[:j] + `"` + path[j+len(closeCurly):]
}
