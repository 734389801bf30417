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
	// line after the last frame line before it.
	end := strings.LastIndex(text, exc.Type)
	if end < 0 {
		return ""
	}
	head := text[:end]
	i := strings.LastIndex(head, `File "`)
	if i < 0 {
		return ""
	}
	rest := head[i:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return ""
	}
	for line := range strings.Lines(rest[nl+1:]) {
		t := strings.TrimSpace(line)
		if t == "" || strings.Trim(t, "^~ ") == "" {
			continue // a blank or a 3.11 location line
		}
		if t != "assert" && !strings.HasPrefix(t, "assert ") && !strings.HasPrefix(t, "assert(") {
			return ""
		}
		return cutRunes(t, maxAssertStatement)
	}
	return ""
}
