package incident

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
)

func TestRankOf(t *testing.T) {
	none := entry.NoRanks
	tp3 := entry.NoRanks
	tp3.DP, tp3.TP = 0, 3
	tests := []struct {
		name string
		e    entry.Entry
		want string
	}{
		{"sglang header", entry.Entry{Ranks: tp3, Text: "Scheduler hit an exception"}, "DP0 TP3"},
		{"torch prefix", entry.Entry{Ranks: none, Prefix: "[rank3]:", Text: "[E528 00:21:09.1 ProcessGroupNCCL.cpp:632] Watchdog caught"}, "rank3"},
		{"torchrun prefix", entry.Entry{Ranks: none, Prefix: "[default12]: ", Text: "x"}, "rank12"},
		{"c10d bracket", entry.Entry{Ranks: none, Text: "[E528 00:21:09.1 ProcessGroupNCCL.cpp:632] [Rank 5] Watchdog caught collective operation timeout"}, "rank5"},
		{"process group bracket", entry.Entry{Ranks: none, Text: "what():  [PG ID 0 PG GUID 0 Rank 1] Process group watchdog thread terminated"}, "rank1"},
		{"rank outside a bracket is not read", entry.Entry{Ranks: none, Text: "Rank 0 scheduler is dead. Please check if there are relevant logs."}, ""},
		{"process title", entry.Entry{Ranks: none, Text: "Process 4011: sglang::scheduler_DP1_TP3 (idle)\nThread 0x7f (most recent call first):"}, "DP1 TP3"},
		{"plain title", entry.Entry{Ranks: none, Text: "sglang::scheduler"}, ""},
		{"nothing", entry.Entry{Ranks: none, Text: "Received sigquit from a child process."}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RankOf(&tt.e); got != tt.want {
				t.Fatalf("RankOf = %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzRankOf(f *testing.F) {
	for _, s := range []string{"[rank3]:", "[Rank 3]", "[PG 3 Rank 5] x", "sglang::scheduler_DP1_TP3", "Rank ]", "[Rank 99999999]", "sglang::scheduler_TP"} {
		f.Add("", s)
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, prefix, text string) {
		e := entry.Entry{Ranks: entry.NoRanks, Prefix: prefix, Text: text}
		r := RankOf(&e)
		if strings.ContainsAny(r, "\n[]") || len(r) > 64 {
			t.Fatalf("RankOf(%q, %q) = %q", prefix, text, r)
		}
	})
}

// TestCompareRanksOrdersByNumbers checks compareRanks against the order it
// documents: the numbers of the two strings compared in turn, then the
// one with more numbers after, then plain string order.
func TestCompareRanksOrdersByNumbers(t *testing.T) {
	numbers := func(s string) []int {
		var out []int
		n, in := 0, false
		for i := 0; i < len(s); i++ {
			if c := s[i]; '0' <= c && c <= '9' {
				n, in = n*10+int(c-'0'), true
				continue
			}
			if in {
				out, n, in = append(out, n), 0, false
			}
		}
		if in {
			out = append(out, n)
		}
		return out
	}
	want := func(a, b string) int {
		if c := slices.Compare(numbers(a), numbers(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	}
	ranks := []string{"", "TP0", "TP1", "TP2", "TP10", "DP1 TP10", "DP1 TP2", "DP10 TP0", "DP1", "rank3", "rank12",
		"DP0 PP0 ATTN_CP0 MOE_DP0 TP1 EP1", "DP0 PP0 ATTN_CP0 MOE_DP0 TP1 EP0", "EP7", "7", "x", "TP2 x9", "TP02"}
	sign := func(n int) int { return min(max(n, -1), 1) }
	for _, a := range ranks {
		for _, b := range ranks {
			if got, w := sign(compareRanks(a, b)), sign(want(a, b)); got != w {
				t.Errorf("compareRanks(%q, %q) = %d, want %d", a, b, got, w)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { compareRanks("DP1 TP10", "DP1 TP2") }); n != 0 {
		t.Errorf("compareRanks allocates %v times, want none", n)
	}
}

// addRank keeps its list as sorting every rank it was given would: each
// rank moves down to its place.
func TestAddRankKeepsSorted(t *testing.T) {
	pool := []string{"TP0", "TP1", "TP2", "TP10", "DP1 TP3", "DP0 TP3", "PP1", "rank 4", "rank 12", "EP3", "worker", "TP7 EP2"}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		var ranks, given []string
		for range rng.IntN(20) {
			r := pool[rng.IntN(len(pool))]
			ranks = addRank(ranks, r)
			if !slices.Contains(given, r) {
				given = append(given, r)
			}
		}
		want := slices.Clone(given)
		slices.SortFunc(want, compareRanks)
		if !slices.Equal(ranks, want) {
			t.Fatalf("addRank gave %q of %q, sorting gives %q", ranks, given, want)
		}
	}
}
