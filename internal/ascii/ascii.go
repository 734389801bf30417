// Package ascii holds the byte-class tests that several parsers of log
// text share. Each reads bytes, not runes: a log line's structure (stamps,
// ranks, ports, pids) is ASCII whatever the text around it.
package ascii

import "strings"

// Digits reports whether s is one or more ASCII digits.
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Letter reports whether c is an ASCII letter.
func Letter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// HasPrefixFold is strings.HasPrefix ignoring ASCII case.
func HasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
