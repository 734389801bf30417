package matcher

import (
	"math/rand/v2"
	"testing"
)

// withPairs runs f with indexPairs on or off for the anchors (haveIndexPairs),
// and restores it.
func withPairs(on bool, f func()) {
	was := haveIndexPairs
	haveIndexPairs = on
	defer func() { haveIndexPairs = was }()
	f()
}

// indexPairs agrees with the plain search at every start, on texts of
// every length it takes, with pairs at both ends and across the chunks it
// reads.
func TestIndexPairs(t *testing.T) {
	if !haveIndexPairs {
		t.Skip("no vector search on this processor")
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for n := minPairsLen; n <= 200; n++ {
		for range 20 {
			var tab pairTab
			for k := range tab {
				tab[k] = "abc"[rng.IntN(3)]
			}
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcdefgh"[rng.IntN(8)]
			}
			s := string(b)
			for from := 0; from <= n+1; from++ {
				if got, want := indexPairs(s, from, &tab), indexPairsGo(s, from, &tab); got != want {
					t.Fatalf("indexPairs(%q, %d, %q) = %d, want %d", s, from, tab[:], got, want)
				}
			}
		}
	}
}

func FuzzIndexPairs(f *testing.F) {
	f.Add("[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12, write size 3", 0, "zewrtc.,ab")
	f.Add("0123456789012345678901234567890123", 1, "3434343434")
	f.Fuzz(func(t *testing.T, s string, from int, pairs string) {
		if !haveIndexPairs || len(s) < minPairsLen || from < 0 || len(pairs) < len(pairTab{}) {
			return
		}
		tab := pairTab([]byte(pairs[:len(pairTab{})]))
		if got, want := indexPairs(s, from, &tab), indexPairsGo(s, from, &tab); got != want {
			t.Fatalf("indexPairs(%q, %d, %q) = %d, want %d", s, from, tab[:], got, want)
		}
	})
}
