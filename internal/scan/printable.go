package scan

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable returns s with what a terminal would act on made visible: a
// control character other than newline and tab (C0, DEL, C1) is written
// as its Go escape (\x1b, \a, \u009b) and a byte that is not UTF-8 as
// U+FFFD. Log text is written by whoever writes the log, so an escape
// sequence in it (an OSC that retitles the window or sets the clipboard,
// a cursor move that hides a line) must not reach the operator's
// terminal through logmatch's text output.
func Printable(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if acts(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case acts(r, size):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// acts reports whether the rune r (size bytes of input) is one Printable
// replaces.
func acts(r rune, size int) bool {
	if r == utf8.RuneError && size == 1 {
		return true
	}
	return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f)
}
