package entry

import "strings"

// The plain forms of the per-line shortcuts, as they were before each was
// made cheaper: FuzzParseLine checks that the shortcuts say exactly what
// these say.

// levelWordByList is levelWord as a loop over levelWords in order: the
// reference for its first-byte dispatch.
func levelWordByList(s string) (level, rest string, ok bool) {
	for _, w := range levelWords {
		if strings.HasPrefix(s, w) && (len(s) == len(w) || !isWordByte(s[len(w)])) {
			return w, s[len(w):], true
		}
	}
	return "", "", false
}

// wrapperPrefixLenInOrder is wrapperPrefixLen trying every prefix form of
// its first byte in order: the reference for its shortcuts.
func wrapperPrefixLenInOrder(s string) int {
	if s != "" && s[0] == '[' {
		if n := rankPrefixLen(s); n > 0 {
			return n
		}
		if n := bracketedTimeLen(s); n > 0 {
			return n
		}
		return podPrefixLen(s)
	}
	return wrapperPrefixLen(s)
}

// wrapperPrefixesLenInOrder is wrapperPrefixesLen without its shortcut for
// sglang headers.
func wrapperPrefixesLenInOrder(s string) int {
	start := 0
	for pass := 0; pass < maxWrapperPasses; pass++ {
		n := wrapperPrefixLenInOrder(s[start:])
		if n == 0 {
			break
		}
		start += n
	}
	return start
}
