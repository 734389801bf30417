package analysis

import (
	"strconv"
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// A process stopped with Ctrl+C prints the traceback of where it was when
// the interrupt came, ending in a bare "KeyboardInterrupt": an operator
// who stops a process does so because it stopped making progress (or to
// stop it), and its frames say where it waited. multiprocessing's
// children print one such traceback each ("Process Process-1:" first),
// interleaved when several stop at once. Such a traceback is read as a
// stop where the process's own work stood: its headline names the
// innermost frames of the process's own code, as a hang's does (hang.go),
// and its triage is a hang's.

// keyboardInterrupt is the exception Python raises in the main thread of
// a process that received SIGINT.
const keyboardInterrupt = "KeyboardInterrupt"

// interruptedHeadline returns the headline of exc when it is a bare
// KeyboardInterrupt at the end of frames (see above): "KeyboardInterrupt:
// stopped by hand in broadcast_pyobj (sglang/srt/utils.py:934) <
// recv_requests (...)"; "" otherwise.
func interruptedHeadline(exc *entry.Exception) string {
	if exc == nil || lastDotted(exc.Type) != keyboardInterrupt || exc.Message != "" || len(exc.Frames) == 0 {
		return ""
	}
	stack := make([]string, 0, min(len(exc.Frames), MaxStackFrames))
	for i := len(exc.Frames) - 1; i >= 0 && len(stack) < MaxStackFrames; i-- {
		f := exc.Frames[i]
		stack = append(stack, f.Func+" ("+shortPath(f.File)+":"+strconv.Itoa(f.Line)+")")
	}
	return keyboardInterrupt + ": stopped by hand in " + hangFrames(stack[workFrame(stack):])
}

// maxMargin bounds the margin marginTraceback strips.
const maxMargin = 8

// marginTraceback re-reads the traceback of e when a paste indented every
// line of it by the same margin (a code block's leading space) and the
// exception line, indented like the rest, was not read as one: the
// traceback read with that margin stripped, when it then ends in an
// exception line; nil otherwise. Only an entry whose traceback's last
// link has no exception line is read.
func marginTraceback(e *entry.Entry) *entry.Traceback {
	last := e.Traceback.Outermost()
	if last == nil || last.Type != "" || e.Traceback.Bare {
		return nil
	}
	text := e.Text
	i := strings.Index(text, tracebackHeader)
	if i <= 0 {
		return nil
	}
	j := strings.LastIndexByte(text[:i], '\n') + 1
	margin := text[j:i]
	if margin == "" || len(margin) > maxMargin || strings.Trim(margin, " \t") != "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(text[j:], "\n")+1)
	for l := range strings.Lines(text[j:]) {
		l = strings.TrimRight(l, "\r\n")
		s, ok := strings.CutPrefix(l, margin)
		if !ok && strings.TrimSpace(l) != "" {
			// A line outside the margin: not one indented block.
			return nil
		}
		lines = append(lines, s)
	}
	t := entry.ParseTraceback(lines)
	if o := t.Outermost(); o == nil || o.Type == "" {
		return nil
	}
	return t
}
