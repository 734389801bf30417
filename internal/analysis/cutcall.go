package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// A traceback cut before its exception line says nothing of what failed,
// but its frames say where: the call the program's own code was making
// when the paste, the log or the terminal ended. The innermost frames are
// often not the program's: a library's dispatch (ray.get's private
// machinery, hydra's runner, runpy, a decorator forwarding its arguments)
// sits between the call that failed and the point the traceback was cut.

// The lead of a traceback cut before its exception line is one rule for
// every shape it comes in: its header when it printed one, the
// "Traceback (most recent call last):" line (a note a logger wrote on the
// line before it is context, never the lead), and the deepest frame it
// printed, its File line whole: where the process stood when the output
// stopped. A run of frames with no header (the paste or the collector
// began after it, a rank's prefix on every line) is still one cut
// traceback: its lead is the call its program's code was making, and its
// deepest File line.

// maxCutCall bounds the text CutCall returns.
const maxCutCall = 3*maxFrameSource + maxCutFrameLine + 64

// maxCutFrameLine bounds the File line CutCall and cutHeadline quote.
const maxCutFrameLine = 2 * maxFrameSource

// CutCall returns where a traceback cut before its exception line was, as
// its frames in text print it, for its matched text to follow its lead
// (cutHeadline): the call that entered the phase the frames name
// (phaseCall) when it is another, then the source line of the innermost
// frame of the program's own code past any dispatch frames
// (dispatchFrame), or when that frame printed no source line, its
// caller's line, with the function it was in when library frames follow
// it, then the deepest frame's File line whole: "self.init_memory_pool(m)
// … self.profile_max_num_token(m) … File "/sgl/model_runner.py", line
// 700, in init_memory_pool". Frames with no header lead with it
// (cutHeadline). "" when text prints no frame.
func CutCall(text string) string {
	frs := cutFrames(text)
	i := cutFrameIndex(frs)
	deepest := deepestFrameLine(text)
	if i < 0 {
		// Frame lines behind a border that hides their source lines
		// (a pane's "│ │"): the deepest is all that is known.
		return deepest
	}
	src := callAt(frs, i)
	fn := frs[i].f.Func
	where := src
	if i < len(frs)-1 || deepest == "" {
		// Library frames follow the program's own (or the deepest
		// frame's line was not read): the function the call was in.
		switch {
		case fn == "":
		case where == "":
			where = "in " + fn
		default:
			where += " (in " + fn + ")"
		}
	}
	if p := phaseCallOf(sourcedFrames(text)); p != "" && !strings.Contains(where, p) {
		// The call that entered the phase the frames name, outside
		// the call that was running.
		if where == "" {
			where = p
		} else {
			where = p + " … " + where
		}
	}
	switch {
	case where == "" && deepest == "":
		return ""
	case where == "":
		return cutRunes(deepest, maxCutCall)
	case deepest == "":
		return cutRunes(where, maxCutCall)
	}
	return cutRunes(cutRunes(where, maxCutCall-maxCutFrameLine-3)+" … "+deepest, maxCutCall)
}

// deepestFrameLine is the last line of text that holds a traceback's
// frame, `File "x.py", line 12, in fn`, from its `File "` to its end
// (whatever prefix a rank, a pane or a collector put before it); "" when
// no line does.
func deepestFrameLine(text string) string {
	last := ""
	for line := range strings.Lines(text) {
		i := strings.Index(line, `File "`)
		if i < 0 {
			continue
		}
		if t := strings.TrimRight(line[i:], " \t\r\n"); entry.IsTracebackFrame(t) {
			last = t
		}
	}
	return cutRunes(last, maxCutFrameLine)
}

// cutHeadline is the lead line of e, a traceback cut before its exception
// line whose exception names nothing (see above): the first line of its
// message when that is the header, or a line that introduces the
// traceback (a failure's message, a label ending in a colon); the header
// when the message is a note logged before it; for frames without a
// header, the call they were making and their deepest File line
// (CutCall).
func cutHeadline(e *entry.Entry) string {
	first := FirstLine(e.Message)
	t := strings.TrimLeft(first, " \t")
	switch {
	case strings.Contains(first, tracebackHeader):
		return first
	case strings.Contains(e.Text, tracebackHeader):
		if noteLine(e.Level, t) {
			return tracebackHeader
		}
		return first
	case headerlessFrames(first, e.Text):
		if c := CutCall(e.Text); c != "" {
			return c
		}
	}
	return first
}

// headerlessFrames reports whether text, whose first line is first, is
// frames with no header: no header in it, and its first line a frame or
// the source line of one, indented. The call they were making and their
// deepest File line are then their lead (cutHeadline).
func headerlessFrames(first, text string) bool {
	t := strings.TrimLeft(first, " \t")
	return (t != first || t == "" || strings.HasPrefix(t, `File "`)) && !strings.Contains(text, tracebackHeader)
}

// noteLine reports whether t, the line a logger wrote at level just
// before a traceback's header, is a note of what the program was doing
// ("Setting swa_full_tokens_ratio to 0.1 for DeepseekV4ForCausalLM.")
// rather than the traceback's own message or a failure of its own: a
// routine line (no level, INFO or DEBUG: a warning may be the cause),
// without a failure's status at its end ("Exit code: -9"), a word of an
// error or of a failed state, and not a label that introduces what
// follows ("Process SpawnProcess-1:", "error msg:").
func noteLine(level, t string) bool {
	if levelSeverity(level).Rank() >= patterns.SeverityWarning.Rank() || strings.HasSuffix(t, ":") || t == "" ||
		entry.FailureStatusEnd(t) {
		return false
	}
	l := strings.ToLower(t)
	for _, w := range noteStopWords {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}

// noteStopWords are words no note of routine progress holds: an error, a
// failure, a missing or refused thing, a process's death.
var noteStopWords = [...]string{
	"error", "fail", "exception", "traceback", "unexpected", "cannot", "can't", "could not", "unable", "invalid",
	"abort", "fatal", "panic", "not found", "not set", "missing", "unavailable", "not available", "denied", "refused",
	"timed out", "timeout", "killed", "dead", "died", "exit code", "exited", "signal", "warn", "deprecat", "crash",
}

// dispatchFrame reports whether a frame is a library's dispatch rather than
// code of the program that failed: a private or internal module of a
// package (ray/_private, hydra/_internal), the interpreter's module runner
// and context managers, or a frame whose source line only forwards its
// arguments to another callable ("return fn(*args, **kwargs)").
func dispatchFrame(fr *sourcedFrame) bool {
	file := fr.f.File
	if strings.Contains(file, "/_private/") || strings.Contains(file, "/_internal/") ||
		strings.HasPrefix(file, "<frozen ") || strings.HasSuffix(file, "/runpy.py") ||
		strings.HasSuffix(file, "/contextlib.py") || strings.HasSuffix(file, "/_contextlib.py") {
		return true
	}
	return forwardingCall(fr.src)
}

// forwardingCall reports whether a source line only passes its function's
// arguments on: "return fn(*args, **kwargs)", "return Runtime(*args,
// **kwargs)".
func forwardingCall(src string) bool {
	rest, ok := strings.CutPrefix(src, "return ")
	if !ok {
		return false
	}
	open := strings.IndexByte(rest, '(')
	if open <= 0 || !strings.HasSuffix(rest, ")") {
		return false
	}
	args := strings.ReplaceAll(rest[open+1:len(rest)-1], " ", "")
	return args == "*args,**kwargs" || args == "*args" || args == "**kwargs"
}

// cutFrames reads at most maxTextFrames frames of a traceback's text, each
// with its source line: the first indented line under the frame line that
// is neither a frame nor a 3.11 location line (carets, tildes). Unlike
// sourcedFrames it takes a line indented by a single space or a tab for a
// source line: a copy that lost part of its indentation (a rank's prefix
// taken off, a paste) still prints the statement under its frame, and a
// line the copy interleaved (a time, a host's name) is not indented.
func cutFrames(text string) []sourcedFrame {
	return framesWith(text, func(line, t string, _ int) (string, bool) {
		if strings.Trim(t, "^~ ") == "" || line[0] != ' ' && line[0] != '\t' {
			return "", false
		}
		return cutRunes(t, maxFrameSource), true
	})
}

// cutFrameIndex is the index in frs of the innermost frame of the
// program's own code: the last one, past any dispatch frames, and never
// before the first. -1 when frs is empty.
func cutFrameIndex(frs []sourcedFrame) int {
	i := len(frs) - 1
	for i > 0 && dispatchFrame(&frs[i]) {
		i--
	}
	return i
}

// callAt is the source line printed under frs[i], or when none was, under
// the nearest of its callers that printed one: the call that was running.
func callAt(frs []sourcedFrame, i int) string {
	for k := i; k >= 0; k-- {
		if frs[k].src != "" {
			return frs[k].src
		}
	}
	return ""
}

// CutFrame says which frame of a traceback cut before its exception line
// CutCall names: dispatch, how many frames after it are a library's
// dispatch (0 when it is the innermost), its function, the source line
// printed under it ("" when none was) and the call CutCall names (that
// line, or its nearest caller's).
func CutFrame(text string) (dispatch int, fn, src, call string) {
	frs := cutFrames(text)
	i := cutFrameIndex(frs)
	if i < 0 {
		return 0, "", "", ""
	}
	return len(frs) - 1 - i, frs[i].f.Func, frs[i].src, callAt(frs, i)
}

// maxLeadingSource bounds the lines a run of frames cut above its first
// frame line opens with: the cut frame's source line and its carets.
const maxLeadingSource = 2

// opensFrames reports whether msg, an entry's message (text its text),
// opens a run of traceback frames: with a frame line, or with the indented
// source line (and caret line) of a frame whose File line was cut off
// above it, followed by a frame line ("(Worker pid=…) ERROR …
// [multiproc_executor.py:1000]     fused = self.forward_impl(" and the
// frames under it).
func opensFrames(msg, text string) bool {
	if strings.HasPrefix(text, msg) {
		msg = text
	}
	n := 0
	for line := range strings.Lines(msg) {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, `File "`):
			return true
		case t == "":
			// A doubled line break.
			continue
		case n >= maxLeadingSource || line[0] != ' ' && line[0] != '\t':
			return false
		}
		n++
	}
	return false
}
