package entry

import "unicode/utf8"

// isRuneCut reports whether a break between prev and next fell inside one
// character's UTF-8 bytes: prev ends in the lead byte of a multi-byte
// character and fewer of its continuation bytes than the lead byte
// announces, and next opens with exactly the ones missing, which make a
// valid character ("...'content': '盗贼怎\xe4" and "\xb8\x88加天赋?..."). A
// tool that cuts lines at a count of bytes (fold without -s, a runtime's
// line-length limit) leaves such a break; no writer opens a line of its
// own inside a character. Bounded: it reads at most four bytes of each.
func isRuneCut(prev, next string) bool {
	if prev == "" || next == "" || utf8.RuneStart(next[0]) {
		return false
	}
	// The start of prev's last character: a lead byte at most three
	// continuation bytes back.
	i := len(prev) - 1
	for i > 0 && len(prev)-i < utf8.UTFMax && !utf8.RuneStart(prev[i]) {
		i--
	}
	lead := prev[i]
	var need int
	switch {
	case lead&0xe0 == 0xc0:
		need = 2
	case lead&0xf0 == 0xe0:
		need = 3
	case lead&0xf8 == 0xf0:
		need = 4
	default:
		return false // ASCII, or no lead byte
	}
	have := len(prev) - i
	missing := need - have
	if missing <= 0 || len(next) < missing {
		return false
	}
	for k := 0; k < missing; k++ {
		if utf8.RuneStart(next[k]) {
			return false
		}
	}
	if missing < len(next) && !utf8.RuneStart(next[missing]) {
		return false // more continuation bytes than the character takes
	}
	var b [utf8.UTFMax]byte
	n := copy(b[:], prev[i:])
	n += copy(b[n:], next[:missing])
	r, size := utf8.DecodeRune(b[:n])
	return r != utf8.RuneError && size == need
}
