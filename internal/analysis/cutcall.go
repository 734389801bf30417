package analysis

import "strings"

// A traceback cut before its exception line says nothing of what failed,
// but its frames say where: the call the program's own code was making
// when the paste, the log or the terminal ended. The innermost frames are
// often not the program's: a library's dispatch (ray.get's private
// machinery, hydra's runner, runpy, a decorator forwarding its arguments)
// sits between the call that failed and the point the traceback was cut.

// maxCutCall bounds the text CutCall returns.
const maxCutCall = 2*maxFrameSource + 64

// CutCall returns where a traceback cut before its exception line was, as
// its frames in text print it: the source line of the innermost frame of
// the program's own code past any dispatch frames (dispatchFrame), or when
// that frame printed no source line, its caller's line, then the function
// the frame was in: "result = self.run_batch(batch) (in
// event_loop_normal)". "" when text prints no frame.
func CutCall(text string) string {
	frs := cutFrames(text)
	i := cutFrameIndex(frs)
	if i < 0 {
		return ""
	}
	src := callAt(frs, i)
	fn := frs[i].f.Func
	switch {
	case src == "" && fn == "":
		return ""
	case src == "":
		return cutRunes("in "+fn, maxCutCall)
	case fn == "":
		return cutRunes(src, maxCutCall)
	}
	return cutRunes(src+" (in "+fn+")", maxCutCall)
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
