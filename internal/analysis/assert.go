package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// maxAssertStatement bounds the assert statement a headline quotes.
const maxAssertStatement = 200

// assertStatement returns the source line Python printed under the
// innermost frame of a traceback whose exception is a bare AssertionError:
// "assert isinstance(pool, TokenToKVPoolAllocator)". An assert without a
// message says nothing but its type; the statement that failed is the only
// clue to what was checked, and Python prints it right under the frame that
// raised. Empty when exc is not a bare AssertionError or the frame's source
// line is not an assert statement (a cut or a stripped traceback).
func assertStatement(text string, exc *entry.Exception) string {
	if exc == nil || exc.Message != "" || lastDotted(exc.Type) != "AssertionError" || len(exc.Frames) == 0 {
		return ""
	}
	// The exception line closes the link: the statement is the source
	// line of the last frame before it.
	end := strings.LastIndex(text, exc.Type)
	if end < 0 {
		return ""
	}
	t := LastFrameSource(text[:end])
	if t != "assert" && !strings.HasPrefix(t, "assert ") && !strings.HasPrefix(t, "assert(") {
		return ""
	}
	return cutRunes(t, maxAssertStatement)
}

// maxFrameSource bounds the source line LastFrameSource returns.
const maxFrameSource = 200

// LastFrameSource returns the source line Python printed under the last
// frame line ("File ..., line N, in f") of text: the statement that was
// running in the innermost frame, "self.init_cuda_graphs()". A 3.11
// location line (carets, tildes) under it is skipped. Empty when text has
// no frame line or nothing follows it but another frame, an exception or
// the end (a traceback with its source lines stripped, or cut right after
// a frame line).
func LastFrameSource(text string) string {
	i := strings.LastIndex(text, `File "`)
	if i < 0 {
		return ""
	}
	rest := text[i:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return ""
	}
	for line := range strings.Lines(rest[nl+1:]) {
		if r := strings.IndexByte(line, '\r'); r >= 0 {
			line = line[:r] // a carriage return ends a line too
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.Trim(t, "^~ ") == "" {
			continue // a blank or a 3.11 location line
		}
		if strings.HasPrefix(t, `File "`) || strings.HasPrefix(t, "Traceback ") {
			return ""
		}
		return cutRunes(t, maxFrameSource)
	}
	return ""
}
