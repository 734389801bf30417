package patterns

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// The dynamic check runs a pattern against inputs built to make a
// backtracking loop fail slowly: the text the pattern needs to reach the
// loop, a long run of what the loop accepts, then a character the loop
// cannot take. A match that times out or overflows regexp2's backtracking
// stack on such a probe would do the same on a real log entry.

// Probe defaults; LintOptions can change them.
const (
	// DefaultProbeTimeout is the budget a real match gets: a pattern that
	// cannot fail a 64-character probe within it would time out on log
	// entries too.
	DefaultProbeTimeout = MatchTimeout
	// DefaultProbeRunes is the length of a probe's repeated run: enough for
	// exponential backtracking (2^64 paths) to exceed any budget, while a
	// polynomial pattern of the generated catalog's kind stays well inside.
	DefaultProbeRunes = 64
)

// maxProbedLoops bounds the probes per pattern: the loops are tried in
// pattern order and a pattern rarely has more.
const maxProbedLoops = 16

// probeFailChars are tried, in order, as the character that ends a probe's
// run; the first one the loop does not accept is used.
const probeFailChars = "!#~\x00\n"

// probeShowRunes bounds how much of a probe a problem message quotes.
const probeShowRunes = 24

// probeResult is a probe that went wrong.
type probeResult struct {
	input string
	err   error
}

func (p probeResult) String(timeout time.Duration) string {
	what := "match failed"
	switch {
	case errors.Is(p.err, regexp2.ErrBacktrackingStackLimit):
		what = "match overflowed the backtracking stack"
	case strings.Contains(p.err.Error(), "timeout"):
		what = fmt.Sprintf("match timed out after %v, and after %v on a rerun", timeout, timeout*probeConfirmFactor)
	}
	return fmt.Sprintf("%s on a %d-character probe %s", what, utf8.RuneCountInString(p.input), quoteShort(p.input))
}

// quoteShort quotes s, eliding its middle when it is long.
func quoteShort(s string) string {
	r := []rune(s)
	if len(r) <= probeShowRunes {
		return fmt.Sprintf("%q", s)
	}
	head, tail := string(r[:probeShowRunes-6]), string(r[len(r)-4:])
	return fmt.Sprintf("%q…%q", head, tail)
}

// maxUnprobedSteps bounds the work of a probe that is skipped. A pattern
// with no repeated group and k backtracking single-character loops fails a
// match on an n-rune subject in at most about n^(k+1) steps (each loop's
// split point, times each start), so with DefaultProbeRunes and k <= 2 a
// probe costs under 300,000 steps: well under a millisecond, where its
// budget is DefaultProbeTimeout twice over. Such a probe cannot fail, and
// skipping it spares building the program of almost half the patterns of a
// generated catalog at load.
const maxUnprobedSteps = 1 << 20

// probeCanFail reports whether probing the tree with runs of the given
// length could find anything: it has a repeated group (whose body may be
// ambiguous, or nest loops), or enough backtracking single-character loops
// that a probe could take more than maxUnprobedSteps.
func probeCanFail(root *syntax.RegexNode, runes int) bool {
	n := uint64(max(runes, 0)) + 1
	if n > maxUnprobedSteps {
		return true
	}
	steps := n // the starts
	can := false
	walk(root, func(node *syntax.RegexNode, _ []*syntax.RegexNode) bool {
		if can {
			return false
		}
		loop, backtracks := charLoop(node.T)
		switch {
		case (node.T == syntax.NtLoop || node.T == syntax.NtLazyloop) && node.N > 1:
			can = true
		case loop && backtracks && node.N > 1:
			steps *= n // both are at most maxUnprobedSteps here: no overflow
			can = steps > maxUnprobedSteps
		}
		return !can
	})
	return can
}

// probeInputs builds one pathological input per backtracking loop of the
// tree. amb, when set, supplies the run character for its loop.
func probeInputs(root *syntax.RegexNode, amb *ambiguity, runes int) []string {
	var inputs []string
	walk(root, func(n *syntax.RegexNode, path []*syntax.RegexNode) bool {
		if len(inputs) >= maxProbedLoops {
			return false
		}
		unit, ok := probeUnit(n, path, amb)
		if !ok {
			return true
		}
		reps := max(1, runes/utf8.RuneCountInString(unit))
		in := prefixOf(n, path) + strings.Repeat(unit, reps) + failChar(n, unit)
		inputs = append(inputs, in)
		return true
	})
	return inputs
}

// probeUnit returns what to repeat to stress loop n, or false when n is not
// a loop that backtracks.
func probeUnit(n *syntax.RegexNode, path []*syntax.RegexNode, amb *ambiguity) (string, bool) {
	if loop, backtracks := charLoop(n.T); loop {
		if !backtracks || n.N <= 1 {
			return "", false
		}
		// Prefer the character that follows the loop: that is what makes
		// the loop and its successor compete for the same text.
		if next, ok := nextRune(n, path); ok && accepts(n, next) {
			return string(next), true
		}
		if c, ok := memberOf(n); ok {
			return string(c), true
		}
		return "", false
	}
	if (n.T != syntax.NtLoop && n.T != syntax.NtLazyloop) || n.N <= 1 || len(n.Children) != 1 {
		return "", false
	}
	if amb != nil && amb.loop == n {
		return string(amb.char), true
	}
	unit := sample(n.Children[0])
	return unit, unit != ""
}

// prefixOf samples everything that must match before n, so anchored
// patterns reach the loop.
func prefixOf(n *syntax.RegexNode, path []*syntax.RegexNode) string {
	// Walk outwards collecting each level's earlier siblings, then write the
	// levels outermost first.
	var levels [][]string
	child := n
	for i := len(path) - 1; i >= 0; i-- {
		parent := path[i]
		var lvl []string
		if parent.T == syntax.NtConcatenate {
			for _, sib := range parent.Children {
				if sib == child {
					break
				}
				lvl = append(lvl, sample(sib))
			}
		}
		levels = append(levels, lvl)
		child = parent
	}
	var b strings.Builder
	for i := len(levels) - 1; i >= 0; i-- {
		for _, s := range levels[i] {
			if b.Len()+len(s) > maxPrefixBytes {
				return b.String()
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

// nextRune returns the first character of a sample of what follows n.
func nextRune(n *syntax.RegexNode, path []*syntax.RegexNode) (rune, bool) {
	child := n
	for i := len(path) - 1; i >= 0; i-- {
		parent := path[i]
		if parent.T == syntax.NtConcatenate {
			after := false
			for _, sib := range parent.Children {
				if after {
					if s := sample(sib); s != "" {
						r, _ := utf8.DecodeRuneInString(s)
						return r, true
					}
				}
				if sib == child {
					after = true
				}
			}
		}
		child = parent
	}
	return 0, false
}

// failChar returns a character that loop n does not accept where its run
// ends, or "" when it accepts them all (the end of input then ends the run).
func failChar(n *syntax.RegexNode, unit string) string {
	for _, c := range probeFailChars {
		if strings.ContainsRune(unit, c) {
			continue
		}
		if loop, _ := charLoop(n.T); loop {
			if !accepts(n, c) {
				return string(c)
			}
			continue
		}
		if len(n.Children) == 1 && countWays(n.Children[0], c)[1] == 0 {
			return string(c)
		}
	}
	return ""
}

// maxSampleBytes bounds one sample: nested counted repetitions such as
// ((a{16}){4}){4} would otherwise multiply into a huge probe.
const maxSampleBytes = 1 << 10

// maxPrefixBytes bounds the text a probe puts before its run.
const maxPrefixBytes = 4 << 10

// sample returns a short text n matches, or a best effort where it cannot
// tell (back-references, conditionals, or past maxSampleBytes).
func sample(n *syntax.RegexNode) string {
	var b strings.Builder
	writeSample(&b, n)
	return b.String()
}

func writeSample(b *strings.Builder, n *syntax.RegexNode) {
	if b.Len() >= maxSampleBytes {
		return
	}
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		if c, ok := memberOf(n); ok {
			b.WriteRune(c)
		}
	case syntax.NtMulti:
		b.WriteString(string(n.Str))
	case syntax.NtConcatenate:
		for _, ch := range n.Children {
			writeSample(b, ch)
		}
	case syntax.NtAlternate, syntax.NtCapture, syntax.NtGroup, syntax.NtAtomic, syntax.NtBackRefCond:
		if len(n.Children) > 0 {
			writeSample(b, n.Children[0])
		}
	case syntax.NtLoop, syntax.NtLazyloop:
		for i := 0; i < min(n.M, 4) && len(n.Children) > 0 && b.Len() < maxSampleBytes; i++ {
			writeSample(b, n.Children[0])
		}
	default:
		if loop, _ := charLoop(n.T); loop {
			if c, ok := memberOf(n); ok {
				for i := 0; i < min(n.M, 16); i++ {
					b.WriteRune(c)
				}
			}
		}
	}
}

// memberOf picks a character a one-character node or loop accepts,
// preferring plain letters and digits so probes read well.
func memberOf(n *syntax.RegexNode) (rune, bool) {
	for _, c := range "a0 x_-.:/Z" {
		if accepts(n, c) {
			return c, true
		}
	}
	if n.Set != nil {
		if cs := n.Set.GetSetChars(1); len(cs) == 1 && !n.Set.IsNegated() {
			return cs[0], true
		}
	}
	for c := rune(0); c < 0x3000; c++ {
		if accepts(n, c) {
			return c, true
		}
	}
	return 0, false
}

// probeConfirmFactor stretches the timeout of the rerun that confirms a
// probe's failure. A loaded machine can deschedule a healthy match for
// longer than the probe timeout; a catastrophic one fails the rerun too,
// since its cost grows exponentially with the probe length.
const probeConfirmFactor = 5

// probe runs re against each input and returns the first that errs twice:
// once within timeout and again within probeConfirmFactor times that.
func probe(re *regexp2.Regexp, inputs []string, timeout time.Duration) (probeResult, bool) {
	for _, in := range inputs {
		re.MatchTimeout = timeout
		if _, err := re.MatchString(in); err == nil {
			continue
		}
		re.MatchTimeout = timeout * probeConfirmFactor
		if _, err := re.MatchString(in); err != nil {
			return probeResult{input: in, err: err}, true
		}
	}
	return probeResult{}, false
}
