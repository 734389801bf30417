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

// IndexByRare is strings.Index(s, sub) found through sub's byte at k, one
// rarer in log text than its first (the 'x' of "exitcode"): one vectorised
// search of the line for that byte when it is absent, where
// strings.Index stops at each of the first byte's many occurrences.
// sub[k] must exist.
func IndexByRare(s, sub string, k int) int {
	for i := k; i < len(s); {
		j := strings.IndexByte(s[i:], sub[k])
		if j < 0 {
			return -1
		}
		p := i + j - k // where sub would start; later ones start later
		if p+len(sub) > len(s) {
			return -1
		}
		if s[p:p+len(sub)] == sub {
			return p
		}
		i += j + 1
	}
	return -1
}
