package catalogcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/logmatch/logmatch/patterns"
)

// The kinds of Finding, the values `patterns lint --show` takes.
const (
	KindProblem    = "problem"    // the catalog does not load cleanly: bad JSON, a bad field, a catastrophic pattern
	KindSelfMiss   = "self-miss"  // a pattern misses its own errorMessage
	KindShadowed   = "shadowed"   // another record ranks first on this record's message
	KindOverlap    = "overlap"    // another record also matches this record's message, ranking below it
	KindUnanchored = "unanchored" // the prefilter cannot key the pattern
	KindExpensive  = "expensive"  // one of the most expensive patterns
)

// Kinds lists every kind, in the order findings are printed.
var Kinds = []string{KindProblem, KindSelfMiss, KindShadowed, KindOverlap, KindUnanchored, KindExpensive}

// DefaultKinds are the kinds listed unless asked otherwise. Overlaps and
// shadowed records run into the thousands in a large generated catalog
// (7,242 overlaps, 3,280 of them shadowing, in 5,695 records), so they are
// counted in the summary, which says how to list them, but not listed.
var DefaultKinds = []string{KindProblem, KindSelfMiss, KindUnanchored, KindExpensive}

// Finding is one line of lint output, in a form for both text and JSON.
type Finding struct {
	Kind    string `json:"kind"`
	Level   string `json:"level"` // error or warning
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	ID      string `json:"id,omitempty"`
	Slug    string `json:"slug,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	// Other is the record that overlaps or shadows this one.
	Other string `json:"other,omitempty"`
}

// String renders the finding as one line: a problem as "file:line: field:
// message" (a warning marked so), an analysis finding as "file:line: id
// slug: message".
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.File)
	if f.Line > 0 {
		fmt.Fprintf(&b, ":%d", f.Line)
	}
	b.WriteString(": ")
	if f.Kind == KindProblem {
		if f.Field != "" {
			b.WriteString(f.Field + ": ")
		}
	} else {
		slug := f.Slug
		if slug == "" {
			slug = "-"
		}
		b.WriteString(f.ID + " " + slug + ": ")
	}
	b.WriteString(f.Message)
	if f.Kind == KindProblem && f.Level != "error" {
		b.WriteString(" (" + f.Level + ")")
	}
	return b.String()
}

// Lint is the whole result of `patterns lint`: what loading found and what
// the analysis found, with one summary.
type Lint struct {
	Summary  patterns.Summary
	Problems []patterns.Problem
	Report   Report
	Analysed bool // the analysis ran (some record compiled)
}

// Findings returns every finding, problems first, in Kinds order.
func (l Lint) Findings() []Finding {
	var out []Finding
	for _, p := range l.Problems {
		out = append(out, Finding{Kind: KindProblem, Level: p.Level.String(), File: p.File, Line: p.Line, Field: p.Field, Message: p.Message})
	}
	r := l.Report
	rec := func(kind, level string, rc *patterns.Record, msg string) Finding {
		return Finding{Kind: kind, Level: level, File: rc.Origin.File, Line: rc.Origin.Line, ID: rc.ID, Slug: rc.Slug, Message: msg}
	}
	for _, s := range r.SelfMisses {
		why := "does not match"
		if s.Err != nil {
			why = "failed on"
		}
		out = append(out, rec(KindSelfMiss, "warning", s.Record, fmt.Sprintf("messagePattern %s its own errorMessage (filled: %q)", why, s.Message)))
	}
	for _, shadowed := range []bool{true, false} {
		for _, o := range r.Overlaps {
			if o.Shadowed != shadowed {
				continue
			}
			kind, how := KindOverlap, "overlap"
			if shadowed {
				kind, how = KindShadowed, "shadowed: ranks first"
			}
			f := rec(kind, "warning", o.Record, fmt.Sprintf("errorMessage also matched by %s %s (%s; %s)", o.Other.ID, o.Other.Slug, o.Other.Origin, how))
			f.Other = o.Other.ID
			out = append(out, f)
		}
	}
	for _, u := range r.Unanchored {
		msg := "messagePattern has no literal anchor: tried on every entry"
		if u.Longest != "" {
			msg = fmt.Sprintf("messagePattern's longest literal %q is too short to index: tried on every entry", u.Longest)
		}
		out = append(out, rec(KindUnanchored, "warning", u.Record, msg))
	}
	for i, c := range r.Expensive {
		msg := fmt.Sprintf("cost rank %d: %v per match on the standard input", i+1, c.PerMatch.Round(time.Microsecond))
		if c.Err != nil {
			msg = fmt.Sprintf("cost rank %d: %v on the standard input", i+1, c.Err)
		}
		out = append(out, rec(KindExpensive, "warning", c.Record, msg))
	}
	return out
}

// Filter selects findings.
type Filter struct {
	// Kinds are the kinds kept; empty means DefaultKinds.
	Kinds []string
	// Records, when not empty, keeps only findings about these record ids
	// or slugs (load problems are kept: they may be why a record is
	// missing).
	Records []string
}

// ParseKinds reads a --show value: kinds separated by commas, or "all".
func ParseKinds(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		if k == "all" {
			return slices.Clone(Kinds), nil
		}
		if !slices.Contains(Kinds, k) {
			return nil, fmt.Errorf("unknown kind %q (want all or %s)", k, strings.Join(Kinds, ", "))
		}
		out = append(out, k)
	}
	return out, nil
}

// Apply returns the findings f keeps and how many of each kind it hid.
func (f Filter) Apply(all []Finding) (kept []Finding, hidden map[string]int) {
	kinds := f.Kinds
	if len(kinds) == 0 {
		kinds = DefaultKinds
	}
	hidden = map[string]int{}
	for _, x := range all {
		if !slices.Contains(kinds, x.Kind) {
			hidden[x.Kind]++
			continue
		}
		if len(f.Records) > 0 && x.Kind != KindProblem && !slices.Contains(f.Records, x.ID) && !slices.Contains(f.Records, x.Slug) {
			continue
		}
		kept = append(kept, x)
	}
	return kept, hidden
}

// SummaryLine is the one summary of a lint run: the load counts, the
// analysis counts, and what the filter hid.
func (l Lint) SummaryLine(hidden map[string]int) string {
	s := l.Summary.String()
	if l.Analysed {
		s += "; " + l.Report.analysisCounts()
	}
	var hid []string
	for _, k := range Kinds {
		if n := hidden[k]; n > 0 {
			hid = append(hid, fmt.Sprintf("%d %s", n, k))
		}
	}
	if len(hid) > 0 {
		s += " (not listed: " + strings.Join(hid, ", ") + "; see --show)"
	}
	return s
}

// analysisCounts is Summary without the record count, which the load
// summary already gives.
func (r Report) analysisCounts() string {
	shadowed := 0
	for _, o := range r.Overlaps {
		if o.Shadowed {
			shadowed++
		}
	}
	return fmt.Sprintf("%d patterns miss their own message, %d overlaps (%d shadowed), %d unanchored",
		len(r.SelfMisses), len(r.Overlaps), shadowed, len(r.Unanchored))
}

// WriteText prints the findings, one per line, then the summary line.
func WriteText(w io.Writer, l Lint, findings []Finding, hidden map[string]int, summaryOnly bool) error {
	var b strings.Builder
	if !summaryOnly {
		for _, f := range findings {
			b.WriteString(f.String())
			b.WriteByte('\n')
		}
	}
	b.WriteString(l.SummaryLine(hidden))
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonLint is the JSON form of a lint run.
type jsonLint struct {
	Records  int            `json:"records"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	Counts   map[string]int `json:"counts"` // every finding by kind, listed or not
	Findings []Finding      `json:"findings"`
	Summary  string         `json:"summary"`
}

// WriteJSON prints the run as one JSON document: the counts, the findings
// the filter kept (none with summaryOnly) and the summary line.
func WriteJSON(w io.Writer, l Lint, all, findings []Finding, hidden map[string]int, summaryOnly bool) error {
	counts := map[string]int{}
	for _, k := range Kinds {
		counts[k] = 0
	}
	for _, f := range all {
		counts[f.Kind]++
	}
	if summaryOnly || findings == nil {
		findings = []Finding{}
	}
	doc := jsonLint{
		Records: l.Summary.Records, Errors: l.Summary.Errors, Warnings: l.Summary.Warnings,
		Counts: counts, Findings: findings, Summary: l.SummaryLine(hidden),
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
