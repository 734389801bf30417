package sinks

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable returns s with what a terminal or a text view would act on
// made visible: a control character other than newline and tab (C0 such
// as ESC and NUL, DEL, C1 such as the one-byte CSI U+009B) and a Unicode
// bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E,
// U+2066 to U+2069) are written as their Go escapes (\x1b, \u009b,
// \u202e), and a byte that is not UTF-8 as U+FFFD. Log text is written by
// whoever writes the log: an OSC sequence in it can retitle a terminal or
// set its clipboard (ESC]0, ESC]52), a cursor move can hide a line, and a
// right-to-left override can make a line read as something else. Every
// text output of log text (scan's and test's text, /livez, Slack) passes
// through it.
func Printable(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				break
			}
			i++
			continue
		}
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
			q := strconv.QuoteRuneToASCII(r)
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
	return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || IsBidiControl(r)
}

// IsBidiControl reports whether r is a Unicode bidirectional formatting
// character: the marks (ALM, LRM, RLM), the embeddings and overrides
// (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI).
func IsBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
