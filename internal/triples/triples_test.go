package triples

import (
	"strings"
	"testing"
)

// TestOf checks that Of fills the unused triples with the first, and that
// Index finds each triple of such a Tab where IndexGo does, at every
// place of texts of every length Index takes. (The matcher's
// TestIndexTriples and FuzzIndexTriples check Index on random tables.)
func TestOf(t *testing.T) {
	tab := Of("al:", "hdo", "xit")
	if got, want := tab.String(), `"al: hdo xit al: al: "`; got != want {
		t.Fatalf("Of(...) = %s, want %s", got, want)
	}
	if !Vector {
		t.Skip("no vector search on this processor")
	}
	for n := MinLen; n <= 100; n++ {
		for _, tri := range []string{"al:", "hdo", "xit", "al", "x"} {
			for at := 0; at+len(tri) <= n; at++ {
				s := strings.Repeat(".", at) + tri + strings.Repeat("-", n-at-len(tri))
				for _, from := range []int{0, at, at + 1, n} {
					if got, want := Index(s, from, tab), IndexGo(s, from, tab); got != want {
						t.Fatalf("Index(%q, %d) = %d, IndexGo says %d", s, from, got, want)
					}
				}
			}
		}
	}
}
