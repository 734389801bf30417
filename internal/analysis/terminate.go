package analysis

import "strings"

// maxWhatLines bounds the lines after std::terminate's report that
// terminateWhat reads for the exception's what() line.
const maxWhatLines = 4

// terminateWhat returns the what() line of std::terminate's report of an
// uncaught exception, trimmed: libstdc++ prints "terminate called after
// throwing an instance of 'T'" and then, on the next line, "  what():
// <message>", the message the exception carries; a logger or another
// thread may put a line or two between them. "" when none follows.
func terminateWhat(text string) string {
	i := strings.Index(text, "terminate called after throwing")
	if i < 0 {
		return ""
	}
	text = text[i:]
	for n := 0; text != "" && n <= maxWhatLines; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "what():") && strings.TrimSpace(t[len("what():"):]) != "" {
			return t
		}
	}
	return ""
}
