package patterns

import (
	"fmt"
	"math"
	"strings"

	"github.com/dlclark/regexp2/v2/syntax"
)

// The static backtracking check works on the tree regexp2 itself runs: the
// one syntax.Parse returns after its reductions. Patterns the engine has
// already made safe (it turns (?:a+)+ into an atomic a+ and merges (a|a)
// into [a]) are therefore not reported, and those it runs as written are.
//
// A repeated group backtracks exponentially when its body can match the same
// text in more than one way: then a run of that text can be split between
// iterations in exponentially many ways, and a match that fails after the
// run tries them all. The check looks for that ambiguity on runs of one
// character c: it counts, for every length k up to maxRun, the ways the body
// matches c repeated k times. Two ways for one length ((x|x?y?)+), or two
// different lengths ((a+)+, (a|aa)+, (\w+\s?)+, (.*)*), make the group
// ambiguous. Ambiguity that needs two different characters, such as
// (ab|a|b)+, is out of its reach, and polynomial backtracking between
// adjacent loops ((.+?)(.+?)x) is not reported: the dynamic probe is the net
// for both.

// maxRun is the longest run of one character the static check counts ways
// for; two lengths within it are enough to prove ambiguity for the common
// shapes.
const maxRun = 6

// maxAnalyzedLoops and maxAnalyzedNodes bound the static check's work on
// one pattern (it is quadratic in the worst case): repeated groups past the
// first maxAnalyzedLoops, or with bodies larger than maxAnalyzedNodes, are
// left to the probe. Catalog patterns are far below both.
const (
	maxAnalyzedLoops = 64
	maxAnalyzedNodes = 512
)

// minRiskyRepeats is the smallest upper bound on a group's repetitions that
// is treated like an unbounded one: below it an ambiguous body costs at most
// a small polynomial.
const minRiskyRepeats = 10

// ways[k] counts the ways a node matches c repeated k times, capped at 2
// ("more than one").
type ways [maxRun + 1]uint8

// ambiguity is what the static check found about one repeated group.
type ambiguity struct {
	loop        *syntax.RegexNode
	char        rune
	short, long int // lengths of c-runs the body matches; equal when one length matches two ways
}

func (a ambiguity) String() string {
	run := func(k int) string { return fmt.Sprintf("%q", strings.Repeat(string(a.char), k)) }
	if a.short == a.long {
		return fmt.Sprintf("repeated group matches %s in more than one way, so a run of %q backtracks exponentially when the rest of the pattern fails",
			run(a.short), string(a.char))
	}
	return fmt.Sprintf("repeated group matches both %s and %s, so a run of %q splits in exponentially many ways when the rest of the pattern fails",
		run(a.short), run(a.long), string(a.char))
}

// ParseTree parses expr exactly as Compile does, without building the
// program: what loading validates a messagePattern with, and the tree that
// literal analysis and the backtracking checks read. Nothing that reads the
// tree may change it.
func ParseTree(expr string) (*syntax.RegexTree, error) {
	return parseTree(expr)
}

// parseTree parses expr exactly as Compile does.
func parseTree(expr string) (*syntax.RegexTree, error) {
	return syntax.Parse(expr, syntax.ParseOptions{RegexOptions: syntax.RegexOptions(RegexOptions)})
}

// findAmbiguity returns the first repeated group of the tree whose body is
// ambiguous, in pattern order.
func findAmbiguity(root *syntax.RegexNode) (ambiguity, bool) {
	var found ambiguity
	ok := false
	analyzed := 0
	walk(root, func(n *syntax.RegexNode, _ []*syntax.RegexNode) bool {
		if ok {
			return false
		}
		if (n.T == syntax.NtLoop || n.T == syntax.NtLazyloop) && len(n.Children) == 1 && risky(n) {
			if analyzed++; analyzed > maxAnalyzedLoops || size(n.Children[0]) > maxAnalyzedNodes {
				return true
			}
			if a, amb := ambiguousBody(n.Children[0]); amb {
				a.loop = n
				found, ok = a, true
				return false
			}
		}
		return true
	})
	return found, ok
}

// risky reports whether a loop repeats often enough for ambiguity to hurt.
func risky(n *syntax.RegexNode) bool {
	return n.N == math.MaxInt32 || n.N >= minRiskyRepeats
}

func ambiguousBody(body *syntax.RegexNode) (ambiguity, bool) {
	for _, c := range candidateChars(body) {
		w := countWays(body, c)
		first := 0
		for k := 1; k <= maxRun; k++ {
			switch {
			case w[k] == 0:
				continue
			case w[k] > 1:
				return ambiguity{char: c, short: k, long: k}, true
			case first != 0:
				return ambiguity{char: c, short: first, long: k}, true
			}
			first = k
		}
	}
	return ambiguity{}, false
}

// candidateChars lists the characters worth trying as c: the body's own
// literals first (they make the clearest witness), then members of its small
// classes, then printable ASCII (letters and digits first), tab and newline.
func candidateChars(body *syntax.RegexNode) []rune {
	seen := make(map[rune]bool)
	var out []rune
	add := func(r rune) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	walk(body, func(n *syntax.RegexNode, _ []*syntax.RegexNode) bool {
		switch {
		case n.T == syntax.NtMulti:
			for _, r := range n.Str {
				add(r)
			}
		case oneChar(n.T):
			add(n.Ch)
		case n.Set != nil && !n.Set.IsNegated():
			for _, r := range n.Set.GetSetChars(8) {
				add(r)
			}
		}
		return true
	})
	for _, r := range "a0 x_-.:/" {
		add(r)
	}
	for r := rune(' '); r <= '~'; r++ {
		add(r)
	}
	add('\t')
	add('\n')
	return out
}

func oneChar(t syntax.NodeType) bool {
	switch t {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		return true
	}
	return false
}

// charLoop reports whether t is a loop over one character or class, and
// whether it gives back characters when the rest fails.
func charLoop(t syntax.NodeType) (loop, backtracks bool) {
	switch t {
	case syntax.NtOneloop, syntax.NtNotoneloop, syntax.NtSetloop,
		syntax.NtOnelazy, syntax.NtNotonelazy, syntax.NtSetlazy:
		return true, true
	case syntax.NtOneloopatomic, syntax.NtNotoneloopatomic, syntax.NtSetloopatomic:
		return true, false
	}
	return false, false
}

// accepts reports whether a one-character node or loop accepts c.
func accepts(n *syntax.RegexNode, c rune) bool {
	switch n.T {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		return c == n.Ch
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
		return c != n.Ch
	case syntax.NtSet, syntax.NtSetloop, syntax.NtSetlazy, syntax.NtSetloopatomic:
		return n.Set != nil && n.Set.Contains(c)
	}
	return false
}

// countWays counts the ways n matches c repeated k times, for k up to
// maxRun. It over-approximates where exactness would not change the answer:
// anchors and lookarounds count as always matching nothing.
func countWays(n *syntax.RegexNode, c rune) ways {
	var w ways
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		if accepts(n, c) {
			w[1] = 1
		}
	case syntax.NtMulti:
		if len(n.Str) <= maxRun && strings.Count(string(n.Str), string(c)) == len(n.Str) {
			w[len(n.Str)] = 1
		}
	case syntax.NtNothing:
	case syntax.NtConcatenate:
		w[0] = 1
		for _, ch := range n.Children {
			w = convolve(w, countWays(ch, c))
		}
	case syntax.NtAlternate, syntax.NtBackRefCond:
		for _, ch := range n.Children {
			w = sum(w, countWays(ch, c))
		}
	case syntax.NtExprCond:
		for _, ch := range n.Children[min(1, len(n.Children)):] {
			w = sum(w, countWays(ch, c))
		}
	case syntax.NtCapture, syntax.NtGroup:
		if len(n.Children) > 0 {
			w = countWays(n.Children[0], c)
		}
	case syntax.NtAtomic:
		// An atomic group commits to its first way.
		if len(n.Children) > 0 {
			w = countWays(n.Children[0], c)
			for k := range w {
				w[k] = min(w[k], 1)
			}
		}
	case syntax.NtLoop, syntax.NtLazyloop:
		if len(n.Children) > 0 {
			w = repeatWays(countWays(n.Children[0], c), n.M, n.N)
		}
	default:
		if loop, _ := charLoop(n.T); loop {
			if accepts(n, c) {
				for k := n.M; k <= min(n.N, maxRun); k++ {
					w[k] = 1
				}
			} else if n.M == 0 {
				w[0] = 1
			}
			break
		}
		w[0] = 1 // zero-width: anchors, boundaries, lookarounds, back-references
	}
	return w
}

// repeatWays counts the ways m to n iterations of a body with ways b match.
// Iterations that match nothing are not counted: the engine stops a loop
// that makes no progress, so they only let the loop end early.
func repeatWays(b ways, m, n int) ways {
	nullable := b[0] > 0
	b[0] = 0
	if nullable {
		m = 0
	}
	var res ways
	if m == 0 {
		res[0] = 1
	}
	var seq ways
	seq[0] = 1
	for it := 1; it <= min(n, maxRun); it++ {
		seq = convolve(seq, b)
		if it >= m {
			res = sum(res, seq)
		}
	}
	return res
}

func convolve(a, b ways) ways {
	var out ways
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j := 0; i+j <= maxRun; j++ {
			out[i+j] = min(2, out[i+j]+x*b[j])
		}
	}
	return out
}

func sum(a, b ways) ways {
	for k := range a {
		a[k] = min(2, a[k]+b[k])
	}
	return a
}

// size counts the nodes of a tree, stopping early past maxAnalyzedNodes.
func size(n *syntax.RegexNode) int {
	count := 0
	walk(n, func(*syntax.RegexNode, []*syntax.RegexNode) bool {
		count++
		return count <= maxAnalyzedNodes
	})
	return count
}

// walk visits n and its descendants in pattern order, passing each node's
// ancestors (root first). visit returns false to skip a node's children.
// path is reused for the next node: visit must not keep it.
func walk(n *syntax.RegexNode, visit func(n *syntax.RegexNode, path []*syntax.RegexNode) bool) {
	var rec func(n *syntax.RegexNode, path []*syntax.RegexNode)
	rec = func(n *syntax.RegexNode, path []*syntax.RegexNode) {
		if !visit(n, path) {
			return
		}
		path = append(path, n)
		for _, ch := range n.Children {
			rec(ch, path)
		}
	}
	var buf [8]*syntax.RegexNode // deep enough for most patterns: no growth
	rec(n, buf[:0])
}
