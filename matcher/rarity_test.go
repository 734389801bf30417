package matcher

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The partitioned count gives every strided window of every literal the
// cost a plain map count gives it: how many windows of its length share
// its key, plus the key's corpus price. The catalog is synthetic, over a
// small alphabet so keys repeat, and big enough for many partitions.
func TestRarityCostsAgreeWithAPlainCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		const alphabet = "abcAB _:"
		var b strings.Builder
		for range n {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	var reqs []Required
	for range 3000 {
		var req Required
		for range 1 + rng.IntN(3) {
			var clause []Literal
			for range 1 + rng.IntN(2) {
				clause = append(clause, Literal{Text: strings.ToLower(word(2 + rng.IntN(30)))})
			}
			req = append(req, clause)
		}
		reqs = append(reqs, req)
	}
	corpus := []string{word(500), word(500), "abc abc abc"}
	costs := corpusCosts(corpus)
	r := newRarity(costs, reqs)

	plain := [3]map[uint64]int{{}, {}, {}}
	for _, req := range reqs {
		for _, c := range req {
			for _, l := range c {
				if wlen := litWindow(l); wlen > 0 {
					for i := 0; i+wlen <= len(l.Text); i++ {
						plain[lenIndex(wlen)][windowKey(l.Text[i:i+wlen])]++
					}
				}
			}
		}
	}
	priced := [3]map[uint64]int{{}, {}, {}}
	for _, line := range corpus {
		for _, wlen := range []int{shortWindow, longWindow, tinyWindow} {
			for i := 0; i+wlen <= len(line); i++ {
				priced[lenIndex(wlen)][windowKey(line[i:i+wlen])] += corpusCost
			}
		}
	}
	corpusPrice := func(wlen int, k uint64) int { return priced[lenIndex(wlen)][k] }
	lit, checked := 0, 0
	for _, req := range reqs {
		for _, c := range req {
			for _, l := range c {
				wlen := litWindow(l)
				for i := 0; wlen > 0 && i+wlen <= len(l.Text); i++ {
					k := windowKey(l.Text[i : i+wlen])
					want := plain[lenIndex(wlen)][k] + corpusPrice(wlen, k)
					var got int
					if wlen == tinyWindow {
						got = r.tinyCost(k)
					} else {
						got = int(r.costs[int(r.at[lit])+i])
					}
					if got != want {
						t.Fatalf("literal %q window %d (%q): cost %d, plain count %d", l.Text, i, l.Text[i:i+wlen], got, want)
					}
					checked++
				}
				lit++
			}
		}
	}
	if n := len(r.costs); n < 4*partitionWindows {
		t.Fatalf("only %d strided windows: the test must cross partitions", n)
	}
	t.Logf("%d windows checked, %d strided", checked, len(r.costs))
}

// appendWindowKeys rolls each key from the one before and gives what
// windowKey gives for every window, for every window length, on any text.
func FuzzAppendWindowKeys(f *testing.F) {
	for _, s := range []string{"", "a", "ab", "CUDA error: out of memory", "\xff\x00Zz\x80 tail"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, wlen := range []int{tinyWindow, shortWindow, longWindow} {
			got := appendWindowKeys(nil, s, wlen)
			if want := max(0, len(s)-wlen+1); len(got) != want {
				t.Fatalf("%q, %d-byte windows: %d keys, want %d", s, wlen, len(got), want)
			}
			for i, k := range got {
				if w := windowKey(s[i : i+wlen]); k != w {
					t.Fatalf("%q, window %d of %d bytes: key %#x, windowKey %#x", s, i, wlen, k, w)
				}
			}
		}
	})
}
