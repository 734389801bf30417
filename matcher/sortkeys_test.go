package matcher

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeyIndexes checks the radix sort against a comparison sort, on
// lists below and above the size where it takes over, with keys that
// repeat (a key's refs must stay in index order), keys that share their
// low or high digits, and keys of every bit.
func TestSortKeyIndexes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := map[string]func() uint64{
		"random":    r.Uint64,
		"repeating": func() uint64 { return r.Uint64N(50) * 0x9e3779b97f4a7c15 },
		"low-same":  func() uint64 { return r.Uint64() &^ 0xfffff },
		"high-same": func() uint64 { return r.Uint64N(1 << 20) },
		"extremes":  func() uint64 { return []uint64{0, 1, 1 << 63, ^uint64(0)}[r.IntN(4)] },
	}
	for name, key := range keys {
		for _, n := range []int{1, 2, 100, 1<<12 - 1, 1 << 12, 30_000} {
			order := make([]keyIndex, n)
			for i := range order {
				order[i] = keyIndex{key(), uint64(i)}
			}
			want := slices.Clone(order)
			slices.SortFunc(want, func(a, b keyIndex) int {
				return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.i, b.i))
			})
			if got := sortKeyIndexes(order); !slices.Equal(got, want) {
				t.Errorf("%s, %d keys: the radix sort's order differs from the comparison sort's", name, n)
			}
		}
	}
}
