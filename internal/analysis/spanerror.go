package analysis

import "strings"

// A user who reports a failure in prose often quotes the program's error
// line inside a code span ("I am getting the error `Error: llama runner
// process has terminated: exit status 0xc0000409`", "i get this error:
// `Error response from daemon: could not select device driver "nvidia"
// with capabilities: [[gpu]]`"). A span that holds the whole line is the
// entry package's to unwrap; one inside a sentence is read here: a span
// whose text opens with an error word the way an error print does
// (startsWithErrorWord: "Error: ", "ERROR: ", "fatal error: "; a Unix
// diagnostic's level word, docker's "Error response from daemon: ") is
// the failure the sentence reports. Only spans whose text holds "rror"
// are read, so that quiet's test for those bytes (quotedFailureCandidate)
// serves this reader too; a sentence that says the error is gone ("no
// longer", "used to", "fixed") is none.

// maxSpans bounds the code spans spanError reads on a line.
const maxSpans = 8

// spanGone are a sentence's words that the error it quotes is gone.
var spanGone = [...]string{"no longer", "used to", "fixed", "resolved", "went away", "goes away"}

// spanError reports whether l, a line with no level and no logger's
// header, quotes an error line inside a code span (see above).
func spanError(l string) bool {
	if strings.IndexByte(l, '`') < 0 {
		return false
	}
	rest := l
	for n := 0; n < maxSpans; n++ {
		open := strings.IndexByte(rest, '`')
		if open < 0 {
			return false
		}
		rest = rest[open+1:]
		end := strings.IndexByte(rest, '`')
		if end < 0 {
			return false
		}
		span := strings.TrimSpace(rest[:end])
		rest = rest[end+1:]
		if strings.Contains(span, "rror") && startsWithErrorWord(span) {
			return !containsAnyOf(l, spanGone[:])
		}
	}
	return false
}
