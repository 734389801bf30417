package matcher

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLineStartEveryPlace holds lineStart to strings.LastIndexByte at every
// place of texts with a newline, and near misses (bytes one off '\n', and
// with the high bit set), at every place.
func TestLineStartEveryPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pool := []byte{'\n', '\n' ^ 1, '\n' + 1, '\n' | 0x80, 0x8a, 0xff, 0, 'a', ' ', 0x7f}
	for n := 0; n <= 40; n++ {
		for range 50 {
			b := make([]byte, n)
			for i := range b {
				b[i] = pool[rng.IntN(len(pool))]
			}
			text := string(b)
			for at := 0; at <= n; at++ {
				if got, want := lineStart(text, at), strings.LastIndexByte(text[:at], '\n')+1; got != want {
					t.Fatalf("lineStart(%q, %d) = %d, want %d", text, at, got, want)
				}
			}
		}
	}
}

// FuzzLineStart holds lineStart to strings.LastIndexByte.
func FuzzLineStart(f *testing.F) {
	f.Add("abc\ndef", 5)
	f.Add("\n\x8a\x0b\x09", 4)
	f.Fuzz(func(t *testing.T, text string, at int) {
		if at < 0 || at > len(text) {
			return
		}
		if got, want := lineStart(text, at), strings.LastIndexByte(text[:at], '\n')+1; got != want {
			t.Fatalf("lineStart(%q, %d) = %d, want %d", text, at, got, want)
		}
	})
}
