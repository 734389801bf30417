package incident

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// RankOf is the rank that reported an entry, read from what the entry
// already says about itself, in this order:
//
//   - sglang's header prefix: "DP0 TP3";
//   - torch's per-line prefix, kept by the entry as its Prefix: "[rank3]:"
//     (torchrun's "[default3]:" too) gives "rank3";
//   - the rank torch's c10d and NCCL lines name in brackets: "[Rank 3]",
//     "[PG ID 0 PG GUID 0 Rank 3]", "[PG 3 Rank 5]" give "rank3", "rank5";
//   - an sglang process title in the text, as py-spy and ps print it:
//     "sglang::scheduler_DP1_TP3" gives "DP1 TP3".
//
// torch's rank is the global rank of the process group, which is the TP
// rank only when there is no pipeline or data parallelism across groups,
// so it keeps its own name. "" when the entry names no rank.
func RankOf(e *entry.Entry) string {
	if r := e.Ranks.String(); r != "" {
		return r
	}
	if n, ok := torchPrefixRank(e.Prefix); ok {
		return "rank" + n
	}
	first := e.Text
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if n, ok := bracketRank(first); ok {
		return "rank" + n
	}
	return titleRank(e.Text)
}

// torchPrefixRank reads "[rank3]:" and "[default3]:".
func torchPrefixRank(p string) (string, bool) {
	p = strings.TrimSpace(p)
	for _, w := range [...]string{"[rank", "[default"} {
		if rest, ok := strings.CutPrefix(p, w); ok {
			n := digits(rest)
			if n != "" && strings.HasPrefix(rest[len(n):], "]") {
				return n, true
			}
		}
	}
	return "", false
}

// bracketRank reads the "Rank N]" that closes a bracket of torch's
// process-group description, "[Rank 3]" or "[PG 3 Rank 5]".
func bracketRank(s string) (string, bool) {
	for {
		i := strings.Index(s, "Rank ")
		if i < 0 {
			return "", false
		}
		rest := s[i+len("Rank "):]
		n := digits(rest)
		open := strings.LastIndexByte(s[:i], '[')
		if n != "" && strings.HasPrefix(rest[len(n):], "]") && open >= 0 && !strings.ContainsRune(s[open:i], ']') {
			return n, true
		}
		s = rest
	}
}

// titleRank reads the rank tokens of an sglang process title,
// "sglang::scheduler_DP1_TP3", as sglang's header prefix writes them.
func titleRank(s string) string {
	const title = "sglang::scheduler_"
	i := strings.Index(s, title)
	if i < 0 {
		return ""
	}
	rest := s[i+len(title):]
	var toks []string
	for rest != "" {
		name := ""
		for _, w := range [...]string{"ATTN_CP", "MOE_DP", "DP", "PP", "TP", "EP"} {
			if strings.HasPrefix(rest, w) {
				name = w
				break
			}
		}
		if name == "" {
			break
		}
		n := digits(rest[len(name):])
		if n == "" {
			break
		}
		toks = append(toks, name+n)
		rest = rest[len(name)+len(n):]
		if !strings.HasPrefix(rest, "_") {
			break
		}
		rest = rest[1:]
	}
	return strings.Join(toks, " ")
}

// digits returns the leading ASCII digits of s, at most 6.
func digits(s string) string {
	j := 0
	for j < len(s) && j < 6 && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	return s[:j]
}
