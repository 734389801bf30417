package triples

import (
	"math/rand/v2"
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
					if got, want := Index3(s, from, tab), IndexGo(s, from, tab); got != want {
						t.Fatalf("Index3(%q, %d) = %d, IndexGo says %d", s, from, got, want)
					}
				}
			}
		}
	}
}

// TestIndex3 checks Index3 against IndexGo on random tables whose last two
// triples repeat the first (what Index3 leaves out is then nothing),
// texts of every length it takes and every start.
func TestIndex3(t *testing.T) {
	if !Vector {
		t.Skip("no vector search on this processor")
	}
	rng := rand.New(rand.NewPCG(5, 8))
	tri := func() string {
		return string([]byte{"ab"[rng.IntN(2)], "abc"[rng.IntN(3)], "abc"[rng.IntN(3)]})
	}
	for n := MinLen; n <= 160; n++ {
		for range 10 {
			tab := Of(tri(), tri(), tri())
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcdefgh"[rng.IntN(8)]
			}
			s := string(b)
			for from := 0; from <= n+1; from++ {
				if got, want := Index3(s, from, tab), IndexGo(s, from, tab); got != want {
					t.Fatalf("Index3(%q, %d, %s) = %d, want %d", s, from, tab, got, want)
				}
			}
		}
	}
}

// FuzzIndex3 holds Index3 to IndexGo on a Tab of three triples (the rest
// repeating the first) and Index to IndexGo on a Tab of five, for texts
// of any length Index takes and any start.
func FuzzIndex3(f *testing.F) {
	f.Add("2026-12-07 12:00:00 INFO worker exit status 13 signal: killed", 0, "al:hdoxit", "ab")
	f.Add("..................................al:", 3, "al:al:al:", "xx")
	f.Add("xitxitxitxitxitxitxitxitxitxitxitxitxitxit", 20, "xit:::aaa", "it")
	f.Fuzz(func(t *testing.T, s string, from int, three, two string) {
		if !Vector || len(s) < MinLen || len(three) < 9 || len(two) < 2 {
			return
		}
		from = int(uint(from) % uint(len(s)+2))
		tab := Of(three[0:3], three[3:6], three[6:9])
		if got, want := Index3(s, from, tab), IndexGo(s, from, tab); got != want {
			t.Fatalf("Index3(%q, %d, %s) = %d, IndexGo says %d", s, from, tab, got, want)
		}
		five := Of(three[0:3], three[3:6], three[6:9], three[1:3]+two[:1], two[:2]+three[0:1])
		if got, want := Index(s, from, five), IndexGo(s, from, five); got != want {
			t.Fatalf("Index(%q, %d, %s) = %d, IndexGo says %d", s, from, five, got, want)
		}
	})
}

// indexPlain is the first i >= from at which s holds one of tris, by
// strings.Index: the reference IndexGo6 and Index6 are held to.
func indexPlain(s string, from int, tris []string) int {
	from = max(from, 0)
	if from > len(s) {
		return -1
	}
	best := -1
	for _, tri := range tris {
		if i := strings.Index(s[from:], tri); i >= 0 && (best < 0 || from+i < best) {
			best = from + i
		}
	}
	return best
}

// TestIndex6 checks Index6 and IndexGo6 against the plain search on
// random tables of six triples, the two readers' sets of three quiet's
// level-less line pays one pass for among them, at every start of texts
// of every length Index6 takes up to 160 bytes, and each triple alone at
// every place.
func TestIndex6(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 9))
	tri := func() string {
		return string([]byte{"ab"[rng.IntN(2)], "abc"[rng.IntN(3)], "abc"[rng.IntN(3)]})
	}
	check := func(s string, from int, tab *Tab6, tris []string) {
		t.Helper()
		want := indexPlain(s, from, tris)
		if got := IndexGo6(s, from, tab); got != want {
			t.Fatalf("IndexGo6(%q, %d, %q) = %d, want %d", s, from, tris, got, want)
		}
		if Vector && len(s) >= MinLen {
			if got := Index6(s, from, tab); got != want {
				t.Fatalf("Index6(%q, %d, %q) = %d, want %d", s, from, tris, got, want)
			}
		}
	}
	for n := 0; n <= 160; n++ {
		for range 10 {
			tris := []string{tri(), tri(), tri(), tri(), tri(), tri()}
			tab := Of6(tris...)
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcdefgh"[rng.IntN(8)]
			}
			s := string(b)
			for from := 0; from <= n+1; from++ {
				check(s, from, tab, tris)
			}
		}
	}
	words := []string{"al:", "hdo", "xit", "kil", "Kil", "hil"}
	tab := Of6(words...)
	for n := MinLen; n <= 100; n++ {
		for _, w := range append(words, "al", "hd", "il", "K") {
			for at := 0; at+len(w) <= n; at++ {
				s := strings.Repeat(".", at) + w + strings.Repeat("-", n-at-len(w))
				for _, from := range []int{0, at, at + 1, n} {
					check(s, from, tab, words)
				}
			}
		}
	}
	if got, want := Of6("al:", "hdo"), Of6("al:", "hdo", "al:", "al:", "al:", "al:"); *got != *want {
		t.Fatalf("Of6 does not repeat the first triple in the unused ones")
	}
}

// FuzzIndex6 holds Index6 and IndexGo6 to the plain search on a Tab6 of
// six triples, for texts of any length and any start.
func FuzzIndex6(f *testing.F) {
	f.Add("2026-12-07 12:00:00 worker exit status 13 signal: killed, the child failed", 0, "al:hdoxitkilKilhil")
	f.Add("..................................hil", 3, "al:hdoxitkilKilhil")
	f.Add("KilKilKilKilKilKilKilKilKilKilKilKilKilKil", 20, "xit:::aaabbbcccKil")
	f.Add("short hdo", 0, "al:hdoxitkilKilhil")
	f.Fuzz(func(t *testing.T, s string, from int, six string) {
		if len(six) < 18 {
			return
		}
		from = int(uint(from) % uint(len(s)+2))
		tris := []string{six[0:3], six[3:6], six[6:9], six[9:12], six[12:15], six[15:18]}
		tab := Of6(tris...)
		want := indexPlain(s, from, tris)
		if got := IndexGo6(s, from, tab); got != want {
			t.Fatalf("IndexGo6(%q, %d, %q) = %d, want %d", s, from, tris, got, want)
		}
		if Vector && len(s) >= MinLen {
			if got := Index6(s, from, tab); got != want {
				t.Fatalf("Index6(%q, %d, %q) = %d, want %d", s, from, tris, got, want)
			}
		}
	})
}
