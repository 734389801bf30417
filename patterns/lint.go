package patterns

import (
	"fmt"
	"time"

	"github.com/dlclark/regexp2/v2/syntax"
)

// LintOptions tunes Lint. The zero value runs every check with the defaults.
type LintOptions struct {
	// NoProbe skips the dynamic backtracking check, leaving the static one.
	NoProbe bool
	// ProbeTimeout bounds one probe match; 0 means DefaultProbeTimeout. A
	// probe that times out is rerun with 5 times the budget before it is
	// reported, so a busy machine does not turn a slow run into a finding.
	ProbeTimeout time.Duration
	// ProbeRunes is the length of a probe's repeated run; 0 means
	// DefaultProbeRunes.
	ProbeRunes int
}

func (o LintOptions) withDefaults() LintOptions {
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = DefaultProbeTimeout
	}
	if o.ProbeRunes <= 0 {
		o.ProbeRunes = DefaultProbeRunes
	}
	return o
}

// Lint checks a whole catalog, as loaded (Parse, Load, Default), for what no
// single line shows:
//   - duplicate ids (LevelError), reported at the later record and naming
//     the earlier one's place;
//   - messagePatterns that backtrack catastrophically. A pattern the static
//     check proves ambiguous (a repeated group that can match the same text
//     in several ways, like (a+)+ or (\w+\s?)+) is a LevelWarning; a pattern
//     whose generated probe input times out or overflows the backtracking
//     stack is a LevelError. One pattern gets at most one such problem.
//   - remedies no alert can show (LevelWarning): remedies for an engine
//     the record's engines list leaves out, and an empty remedy list.
//
// Problems come in record order. Lint does not modify recs.
func Lint(recs []Record, opts LintOptions) []Problem {
	opts = opts.withDefaults()
	var probs []Problem
	first := make(map[string]Origin, len(recs))
	for _, r := range recs {
		if prev, dup := first[r.ID]; dup {
			probs = append(probs, Problem{File: r.Origin.File, Line: r.Origin.Line, Field: "id",
				Message: fmt.Sprintf("duplicate id %q, first defined at %s", r.ID, prev)})
		} else {
			first[r.ID] = r.Origin
		}
		if p, bad := lintPattern(r.MessagePattern, opts); bad {
			p.File, p.Line = r.Origin.File, r.Origin.Line
			probs = append(probs, p)
		}
		for _, p := range lintEngines(&r) {
			p.File, p.Line = r.Origin.File, r.Origin.Line
			probs = append(probs, p)
		}
	}
	return probs
}

// RefuseCatastrophic is the load path's half of Lint's backtracking check,
// the same check, so what lint calls an error never loads: it returns recs
// without the records whose messagePattern the probe proves catastrophic
// (each reported as a LevelError problem at the record's file:line, saying
// it was refused), and with the records the static check only suspects,
// each reported as a LevelWarning. recs is not modified.
func RefuseCatastrophic(recs []Record, opts LintOptions) ([]Record, []Problem) {
	opts = opts.withDefaults()
	kept := make([]Record, 0, len(recs))
	var probs []Problem
	for _, r := range recs {
		p, bad := lintPattern(r.MessagePattern, opts)
		p, bad = refusal(&r, p, bad)
		if !bad || p.Level != LevelError {
			kept = append(kept, r)
		}
		if bad {
			probs = append(probs, p)
		}
	}
	return kept, probs
}

// RefuseTree is RefuseCatastrophic's check of one record whose
// messagePattern the caller has already parsed (tree is ParseTree's result
// for it), so a compiler that parses every pattern anyway runs the check
// without a second parse. It reports whether there is a problem; a
// LevelError problem means the record is refused, and then says so. The
// problem carries the record's file:line. tree is only read.
func RefuseTree(rec *Record, tree *syntax.RegexTree, opts LintOptions) (Problem, bool) {
	if rec.MessagePattern == "" {
		return Problem{}, false // Parse already refused the record
	}
	p, bad := lintTree(rec.MessagePattern, tree, opts.withDefaults())
	return refusal(rec, p, bad)
}

// refusal places a backtracking problem at rec and, when it refuses the
// record, says so.
func refusal(rec *Record, p Problem, bad bool) (Problem, bool) {
	if !bad {
		return Problem{}, false
	}
	p.File, p.Line = rec.Origin.File, rec.Origin.Line
	if p.Level == LevelError {
		p.Message = fmt.Sprintf("record %s refused: %s", rec.ID, p.Message)
	}
	return p, true
}

// lintPattern runs the backtracking checks on one pattern. The problem it
// returns has no place; the caller adds the record's.
func lintPattern(expr string, opts LintOptions) (Problem, bool) {
	if expr == "" {
		return Problem{}, false // Parse already refused the record
	}
	tree, err := parseTree(expr)
	if err != nil {
		return Problem{Field: "messagePattern", Message: "does not compile: " + err.Error(), Err: err}, true
	}
	return lintTree(expr, tree, opts)
}

// lintTree is lintPattern on expr's parse tree.
func lintTree(expr string, tree *syntax.RegexTree, opts LintOptions) (Problem, bool) {
	amb, ambiguous := findAmbiguity(tree.Root)
	if !opts.NoProbe {
		var hint *ambiguity
		if ambiguous {
			hint = &amb
		}
		// A pattern the probe cannot fail gets none, so its program is
		// not built here.
		var inputs []string
		if probeCanFail(tree.Root, opts.ProbeRunes) {
			inputs = probeInputs(tree.Root, hint, opts.ProbeRunes)
		}
		if len(inputs) > 0 {
			re, err := Compile(expr)
			if err != nil {
				return Problem{Field: "messagePattern", Message: "does not compile: " + err.Error(), Err: err}, true
			}
			if res, bad := probe(re, inputs, opts.ProbeTimeout); bad {
				msg := "catastrophic backtracking: " + res.String(opts.ProbeTimeout)
				if ambiguous {
					msg += "; " + amb.String()
				}
				return Problem{Field: "messagePattern", Message: msg, Err: res.err}, true
			}
		}
	}
	if ambiguous {
		return Problem{Field: "messagePattern", Level: LevelWarning,
			Message: "possible catastrophic backtracking: " + amb.String()}, true
	}
	return Problem{}, false
}

// LoadForLint loads the given files and directories (the embedded catalog
// when paths is empty) and lints the result: everything a "patterns lint"
// command reports, in one call. Load problems come first, then Lint's.
//
//	recs, probs := patterns.LoadForLint(flag.Args(), patterns.LintOptions{})
//	for _, p := range probs {
//		fmt.Fprintf(os.Stderr, "%s: %v\n", p.Level, p) // "warning: a.jsonl:3: severity: ..."
//	}
//	sum := patterns.Summarize(recs, probs)
//	fmt.Println(sum) // "5695 records, 0 errors, 0 warnings"
//	if !sum.OK() {
//		os.Exit(1)
//	}
func LoadForLint(paths []string, opts LintOptions) ([]Record, []Problem) {
	var recs []Record
	var probs []Problem
	if len(paths) == 0 {
		recs, probs = Default()
	} else {
		recs, probs = Load(paths...)
	}
	return recs, append(probs, Lint(recs, opts)...)
}
