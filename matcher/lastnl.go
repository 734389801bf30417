package matcher

import "math/bits"

// lineStart returns where the line of text that holds byte at starts:
// strings.LastIndexByte(text[:at], '\n') + 1, read eight bytes at a
// time. LastIndexByte reads one byte a step, and a hit's Line and the
// code-line test read back from the match to its line's start, past a
// log line's header, for every hit.
func lineStart(text string, at int) int {
	const (
		ones = 0x0101010101010101
		low7 = 0x7f7f7f7f7f7f7f7f
		nls  = '\n' * ones
	)
	i := at
	for i >= 8 {
		t := text[i-8 : i]
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		x := w ^ nls // a newline's byte is zero
		// The high bit of each byte of z is set exactly where x's byte
		// is zero: no carry crosses bytes, as each byte's low seven bits
		// plus 0x7f stay below 0x100.
		z := ^((x&low7 + low7) | x | low7)
		if z != 0 {
			return i - 8 + (63-bits.LeadingZeros64(z))/8 + 1
		}
		i -= 8
	}
	for i > 0 {
		i--
		if text[i] == '\n' {
			return i + 1
		}
	}
	return 0
}
