package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/cases"
	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/catalogcheck"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/stream"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

const testLong = `Usage:
  logmatch test [--catalog PATH]... [--no-default-catalog] [--line TEXT]... [--pattern REGEX]
                [--explain SLUG] [--expect SLUG] [--format text|json] [--failures-only]
                [--catalog-cache DIR|off] [FILE...]
  logmatch test --cases FILE [--catalog PATH]... [--no-default-catalog] [-v]

The catalog tester. For each entry of the --line texts (a text may hold
several lines, "\n"-separated) or of the FILEs ("-" is standard input), it
prints the diagnosis logmatch would make: whether the entry is a failure,
its cause (the record that names it, or the exception, error line or
native error no record names) with its severity and grouping key, the
context (the wrapper records around it), every record that matches with
the reasons of its rank and its capture groups, and the alert that would
be sent.

--pattern tries an ad-hoc regular expression (JavaScript syntax, as
messagePattern) on each entry: its match and groups, or where it fails.
--explain SLUG (or a record id) says why that record does or does not
match each entry: which literal the prefilter misses, or how far its regex
gets. --expect SLUG makes the exit status say whether every failure found
(consequences aside, which fold into their cause) was diagnosed as that record ("unclassified" for none), for CI checks of a
catalog. --format json prints one JSON object per entry; --failures-only
prints only the entries that are failures. The text output ends with a
tally. --catalog-cache is scan's: a test after an edit of the catalog
derives only what changed.

--cases FILE runs declarative tests, as promtool test rules does: a YAML
file of cases, each a few log lines (lines:) or a log file (file:, relative
to the cases file) with what the scan must give (expect: the lead
incident's record slug or id, "unclassified" or "none"; its severity,
exception type and text in its headline; the number of incidents). Each
case is scanned as "logmatch scan" would. A failed case prints its want/got
differences; the tally counts passed and failed cases, and the exit status
is 1 when one failed. -v lists passed cases too.

  cases:
    - name: a scheduler out of memory
      lines: |
        [2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):
          File "/sgl/scheduler.py", line 12, in run
        torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
      expect: {record: cuda-out-of-memory, severity: critical, incidents: 1}`

var testExit = exitHelp(
	"  0    the entries were diagnosed (and, with --expect, as expected)",
	"  1    with --expect: an entry's cause was another record, or no failure was found;",
	"       with --cases: a case failed",
	exitLineUsage,
	exitLineFailure,
)

func newTestCmd(e env) *cobra.Command {
	var o testOptions
	c := &cobra.Command{
		Use:   "test [flags] [FILE...]",
		Short: "show how the catalog diagnoses a line or a file, and why",
		Long:  testLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			o.cache, o.onCacheError = openCatalogCache(e, "test", o.cacheDir, cmd.Flags().Changed("catalog-cache"))
			if o.cases != "" {
				return runCases(cmd.Context(), e, o)
			}
			return runTest(cmd.Context(), e, o)
		},
	}
	fs := c.Flags()
	fs.StringArrayVar(&o.catalogs, "catalog", nil, "catalog file or directory to add (repeatable)")
	fs.BoolVar(&o.noDefault, "no-default-catalog", false, "do not load the embedded default catalog")
	fs.StringArrayVar(&o.lines, "line", nil, "a log text to diagnose (repeatable; \\n separates lines)")
	fs.StringVar(&o.pattern, "pattern", "", "an ad-hoc regular expression to try on each entry")
	fs.StringVar(&o.explain, "explain", "", "say why this record (slug or id) does or does not match each entry")
	fs.StringVar(&o.expect, "expect", "", "exit 1 unless every failure's cause is this record (slug or id; unclassified for none)")
	fs.StringVar(&o.format, "format", "text", "output format: text or json")
	fs.BoolVar(&o.failuresOnly, "failures-only", false, "print only the entries that are failures")
	fs.StringVar(&o.cases, "cases", "", "run the declarative test cases of this YAML file")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "with --cases: list passed cases too")
	catalogCacheFlag(fs, &o.cacheDir)
	return own(c, testExit)
}

type testOptions struct {
	catalogs  []string
	noDefault bool
	lines     []string
	files     []string
	pattern   string
	explain   string
	expect    string
	format    string
	cacheDir  string
	cases     string
	verbose   bool

	failuresOnly bool

	cache        *factcache.Dir
	onCacheError func(error)
}

// testInput is one text to diagnose: a --line or a file.
type testInput struct {
	name string
	r    io.Reader
}

func runTest(ctx context.Context, e env, o testOptions) error {
	if o.format != "text" && o.format != "json" {
		return usageError("--format: %q is not text or json", o.format)
	}
	if len(o.lines) == 0 && len(o.files) == 0 {
		return usageError("nothing to test: give --line TEXT or a FILE (- for standard input)")
	}
	if o.pattern != "" {
		if _, err := patterns.Compile(o.pattern); err != nil {
			return usageError("--pattern: %v", err)
		}
	}
	m, problems, err := catalog.Load(catalog.Spec{Paths: o.catalogs, NoDefault: o.noDefault, Cache: o.cache, OnCacheError: o.onCacheError})
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "logmatch test: catalog: %s: %v\n", p.Level, p)
	}
	if err != nil {
		return configError(err)
	}
	explainIdx := -1
	if o.explain != "" {
		if explainIdx = findRecord(m, o.explain); explainIdx < 0 {
			return usageError("--explain: no record with slug or id %q in the catalog", o.explain)
		}
	}
	red, err := redact.New(nil)
	if err != nil {
		return err
	}
	t := &tester{m: m, red: red, pattern: o.pattern, explain: explainIdx, now: time.Now}

	var inputs []testInput
	for i, l := range o.lines {
		inputs = append(inputs, testInput{name: fmt.Sprintf("--line %d", i+1), r: strings.NewReader(strings.ReplaceAll(l, `\n`, "\n") + "\n")})
	}
	for _, name := range o.files {
		if name == "-" {
			inputs = append(inputs, testInput{name: "-", r: e.stdin})
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		inputs = append(inputs, testInput{name: name, r: f})
	}

	var results []testEntry
	var tally testTally
	for _, in := range inputs {
		rs, err := t.input(ctx, in)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		for _, r := range rs {
			tally.add(&r)
			if r.Failure || !o.failuresOnly {
				results = append(results, r)
			}
		}
	}
	if err := writeTest(e.stdout, o.format, results); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	if o.format == "text" {
		if _, err := fmt.Fprintln(e.stdout, tally.String()); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	if o.expect != "" {
		return checkExpect(results, o.expect)
	}
	return nil
}

// findRecord returns the index of the record with this slug or id, or -1.
func findRecord(m *matcher.Matcher, name string) int {
	for i, r := range m.Records() {
		if r.Slug == name || r.ID == name {
			return i
		}
	}
	return -1
}

// checkExpect is nil when every failure found was diagnosed as want.
func checkExpect(results []testEntry, want string) error {
	failures := 0
	for _, r := range results {
		if !r.Failure || r.Cause != nil && r.Cause.Role == string(patterns.RoleConsequence) {
			// A consequence (the SIGQUIT relayed to the parent, a peer's
			// timeout) follows the cause in a crash log: it folds into
			// the cause's incident and says nothing of the diagnosis.
			continue
		}
		failures++
		got := "unclassified"
		if r.Cause != nil {
			got = r.Cause.Slug
			if want == r.Cause.ID {
				got = want
			}
		}
		if got != want {
			return exitStatus{code: exitFound, msg: fmt.Sprintf("test: %s: cause is %s, want %s", r.Place, got, want)}
		}
	}
	if failures == 0 {
		return exitStatus{code: exitFound, msg: "test: no failure found, want " + want}
	}
	return nil
}

// tester diagnoses entries as run and scan do, through the stream shell.
type tester struct {
	m       *matcher.Matcher
	red     *redact.Redactor
	pattern string
	explain int // record index, -1 for none
	now     func() time.Time
}

// input assembles one input into entries, per stream (CRI and docker
// framing decoded as run does), and diagnoses each.
func (t *tester) input(ctx context.Context, in testInput) ([]testEntry, error) {
	// Entries are owned, not lent: what is printed keeps their text.
	streams := stream.NewSet(entry.Options{Redact: t.red.Redact})
	sh := stream.NewShell(t.m, t.now)
	var out []testEntry
	take := func(de *stream.Entry) {
		out = append(out, t.diagnose(de, in.name))
	}
	src, err := source.NewStream(in.r, source.StreamConfig{Source: in.name, Format: source.FormatAuto})
	if err != nil {
		return nil, err
	}
	err = src.Run(ctx, func(_ context.Context, l source.Line) error {
		ss := streams.Get(l.Stream)
		sh.Diagnose(ss, ss.Push(&l.Line), take)
		return nil
	})
	for _, ss := range streams.All() {
		sh.Diagnose(ss, ss.Flush(), take)
	}
	return out, err
}

// testEntry is everything logmatch test prints about one entry.
type testEntry struct {
	Place     string `json:"place"` // input:line of the entry's first line
	Lines     int    `json:"lines"`
	FirstLine string `json:"firstLine"`
	// Failure is whether logmatch would alert on the entry.
	Failure   bool      `json:"failure"`
	Signal    string    `json:"signal,omitempty"`
	Severity  string    `json:"severity,omitempty"`
	Key       string    `json:"key,omitempty"`
	Headline  string    `json:"headline,omitempty"`
	Cause     *testHit  `json:"cause,omitempty"`
	Exception string    `json:"exception,omitempty"`
	RootCause string    `json:"rootCause,omitempty"`
	Context   []testHit `json:"context,omitempty"`
	// Matches is every record that matched, best first, the cause among
	// them, each with its place in the diagnosis and the reasons of its
	// rank.
	Matches []testHit    `json:"matches,omitempty"`
	Alert   *sinks.Alert `json:"alert,omitempty"`
	Pattern *testPattern `json:"pattern,omitempty"`
	Explain *testExplain `json:"explain,omitempty"`
	Errors  []string     `json:"patternErrors,omitempty"`
	// Stack is the hung thread's frames, when a py-spy dump preceded.
	Stack []string `json:"stack,omitempty"`
}

// testHit is one record hit as printed.
type testHit struct {
	ID       string            `json:"id"`
	Slug     string            `json:"slug"`
	As       string            `json:"as"` // cause, alternative, context or other
	Role     string            `json:"role,omitempty"`
	Severity string            `json:"severity"`
	Line     string            `json:"line"`
	Groups   map[string]string `json:"groups,omitempty"`
	Reasons  []string          `json:"reasons"`
	Origin   string            `json:"origin"`
}

type testPattern struct {
	Expr    string                   `json:"expr"`
	Match   string                   `json:"match,omitempty"`
	Groups  map[string]string        `json:"groups,omitempty"`
	Explain catalogcheck.Explanation `json:"explain"`
	// Keyed is whether the prefilter can index the pattern; an unkeyed
	// pattern is tried on every entry.
	Literals []string `json:"literals,omitempty"`
}

type testExplain struct {
	Record string `json:"record"`
	// As is where the record stands in the diagnosis when it matched.
	As          string                   `json:"as,omitempty"`
	Explanation catalogcheck.Explanation `json:"explanation"`
}

// diagnose is the one function that makes what logmatch test prints for
// an entry, from the analysis core's Diagnosis.
func (t *tester) diagnose(de *stream.Entry, input string) testEntry {
	e, d, failure := de.Entry, de.Diagnosis, de.Failure
	r := testEntry{
		Place:     fmt.Sprintf("%s:%d", input, de.Stream.Line()),
		Lines:     strings.Count(e.Text, "\n") + 1,
		FirstLine: firstOf(e.Text),
		Failure:   failure,
	}
	for _, pe := range d.PatternErrors {
		r.Errors = append(r.Errors, fmt.Sprintf("%s: %v", pe.Record.ID, pe.Err))
	}
	var types []string
	types = e.Traceback.AppendTypes(types)
	if failure {
		r.Signal, r.Severity, r.Key, r.Headline = string(d.Signal), string(d.Severity), d.Key, d.Headline
		r.Exception = analysis.ExceptionLine(d.Exception)
		r.RootCause = analysis.ExceptionLine(d.RootCause)
		r.Stack = slices.Clone(d.Stack)
		if d.Cause != nil {
			h := hitOf(d.Cause, "cause", types)
			r.Cause = &h
			r.Matches = append(r.Matches, h)
		}
		for i := range d.Context {
			r.Context = append(r.Context, hitOf(&d.Context[i], "context", types))
		}
		o := incident.FromDiagnosis(e, d, incident.Source{Path: input, Key: input, Engine: de.Engine}, t.now())
		a := o.Alert
		a.Fingerprint = incident.Fingerprint(o.Key, o.SourceKey)
		t.red.RedactAlert(&a)
		r.Alert = &a
	}
	for i := range d.Alternatives {
		r.Matches = append(r.Matches, hitOf(&d.Alternatives[i], "alternative", types))
	}
	r.Matches = append(r.Matches, r.Context...)
	for i := range d.Others {
		r.Matches = append(r.Matches, hitOf(&d.Others[i], "other", types))
	}
	if !failure && d.Cause == nil {
		// A routine entry: the records that matched it are still worth
		// seeing (an info record annotates without alerting).
		hits, _ := t.m.Match(matcher.Subject{Text: e.Text, ExceptionTypes: types})
		for i := range hits {
			r.Matches = append(r.Matches, hitOf(&hits[i], "not alerted", types))
		}
	}
	if t.pattern != "" {
		p := &testPattern{Expr: t.pattern, Explain: catalogcheck.ExplainPattern(t.pattern, e.Text)}
		if re, err := patterns.Compile(t.pattern); err == nil {
			if m, err := re.FindStringMatch(e.Text); err == nil && m != nil {
				p.Match = m.String()
				for _, g := range m.Groups()[1:] {
					if len(g.Captures) > 0 {
						if p.Groups == nil {
							p.Groups = map[string]string{}
						}
						p.Groups[g.Name] = g.String()
					}
				}
			}
		}
		if req, err := matcher.ExtractLiterals(t.pattern); err == nil {
			for _, c := range req {
				alts := make([]string, len(c))
				for i, l := range c {
					alts[i] = l.Text
				}
				p.Literals = append(p.Literals, strings.Join(alts, " | "))
			}
		}
		r.Pattern = p
	}
	if t.explain >= 0 {
		rec := &t.m.Records()[t.explain]
		x := &testExplain{Record: rec.Slug, Explanation: catalogcheck.ExplainRecord(t.m, t.explain, e.Text)}
		for _, h := range r.Matches {
			if h.ID == rec.ID {
				x.As = h.As
				break
			}
		}
		r.Explain = x
	}
	return r
}

// hitOf describes a hit with the reasons of its rank: what the analysis
// and the matcher weigh, in their order.
func hitOf(h *matcher.Hit, as string, types []string) testHit {
	rec := h.Record
	out := testHit{
		ID: rec.ID, Slug: rec.Slug, As: as, Role: string(rec.Role), Severity: string(rec.Severity),
		Line: firstOf(h.Line), Origin: rec.Origin.String(),
	}
	groups := h.Groups()
	named := false
	for k := range groups {
		if !isNumber(k) {
			named = true
		}
	}
	for k, v := range groups {
		if named && isNumber(k) {
			continue // a named group is listed by name only
		}
		if out.Groups == nil {
			out.Groups = map[string]string{}
		}
		out.Groups[k] = v
	}
	role := "cause"
	if rec.Role != "" {
		role = string(rec.Role)
	}
	out.Reasons = append(out.Reasons, "role "+role)
	if len(rec.Solutions) > 0 {
		out.Reasons = append(out.Reasons, fmt.Sprintf("informed: %d solutions", len(rec.Solutions)))
	} else {
		out.Reasons = append(out.Reasons, "uninformed: no solutions")
	}
	switch {
	case h.ClassAgrees:
		out.Reasons = append(out.Reasons, "errorClass "+rec.ErrorClass+" agrees with the exception")
	case rec.ErrorClass != "" && len(types) > 0:
		out.Reasons = append(out.Reasons, "errorClass "+rec.ErrorClass+" is not the exception's ("+strings.Join(types, ", ")+")")
	}
	out.Reasons = append(out.Reasons, fmt.Sprintf("%d literal characters", h.LiteralLen), "catalog order "+rec.Origin.String())
	return out
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func firstOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// writeTest prints the results as text, or one JSON object per entry.
func writeTest(w io.Writer, format string, rs []testEntry) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		for _, r := range rs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "entry %d  %s  (%d lines)\n  %s\n", i+1, r.Place, r.Lines, r.FirstLine)
		if r.Failure {
			cause := "unclassified (" + r.Signal + ": no record names it)"
			if r.Cause != nil {
				cause = "record " + r.Cause.Slug + " (" + r.Cause.ID + ")"
			}
			fmt.Fprintf(&b, "  diagnosis:  %s failure; cause %s; key %s\n", r.Severity, cause, r.Key)
			fmt.Fprintf(&b, "  headline:   %s\n", r.Headline)
			if r.Exception != "" {
				fmt.Fprintf(&b, "  exception:  %s\n", r.Exception)
			}
			if r.RootCause != "" {
				fmt.Fprintf(&b, "  root cause: %s\n", r.RootCause)
			}
			for _, c := range r.Context {
				fmt.Fprintf(&b, "  context:    %s (%s): %s\n", c.Slug, c.Role, c.Line)
			}
			for _, f := range r.Stack {
				fmt.Fprintf(&b, "  hung at:    %s\n", f)
			}
		} else {
			b.WriteString("  diagnosis:  not a failure (no alert)\n")
		}
		if len(r.Matches) == 0 {
			b.WriteString("  records:    none match\n")
		} else {
			b.WriteString("  records that match, best first:\n")
			for j, h := range r.Matches {
				fmt.Fprintf(&b, "    %d. %s [%s] %s: %s\n", j+1, h.Slug, h.As, h.Severity, h.Line)
				fmt.Fprintf(&b, "       why: %s\n", strings.Join(h.Reasons, "; "))
				if len(h.Groups) > 0 {
					fmt.Fprintf(&b, "       groups: %s\n", groupsText(h.Groups))
				}
			}
		}
		for _, pe := range r.Errors {
			fmt.Fprintf(&b, "  pattern error: %s\n", pe)
		}
		if p := r.Pattern; p != nil {
			if p.Explain.Matched {
				fmt.Fprintf(&b, "  --pattern:  matches %q", p.Match)
				if len(p.Groups) > 0 {
					fmt.Fprintf(&b, "; groups: %s", groupsText(p.Groups))
				}
				b.WriteByte('\n')
			} else {
				fmt.Fprintf(&b, "  --pattern:  %s\n", p.Explain)
			}
			if len(p.Literals) == 0 {
				b.WriteString("              (no literal the prefilter can index: it would be tried on every entry)\n")
			}
		}
		if x := r.Explain; x != nil {
			if x.As != "" {
				fmt.Fprintf(&b, "  --explain %s: matches, as %s\n", x.Record, x.As)
			} else {
				fmt.Fprintf(&b, "  --explain %s: %s\n", x.Record, x.Explanation)
			}
		}
		if r.Alert != nil {
			js, err := sinks.AlertJSON(r.Alert)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "  alert:      %s\n", js)
		}
	}
	if len(rs) == 0 {
		b.WriteString("no entries\n")
	}
	_, err := io.WriteString(w, scan.Printable(b.String()))
	return err
}

func groupsText(g map[string]string) string {
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%q", k, g[k])
	}
	return strings.Join(parts, " ")
}

// testTally counts what test diagnosed.
type testTally struct {
	entries, failures, classified int
}

func (t *testTally) add(r *testEntry) {
	t.entries++
	if r.Failure {
		t.failures++
		if r.Cause != nil {
			t.classified++
		}
	}
}

func (t testTally) String() string {
	return fmt.Sprintf("%s, %s (%d classified, %d unclassified)",
		count(t.entries, "entry", "entries"), count(t.failures, "failure", "failures"), t.classified, t.failures-t.classified)
}

// count is n with the noun in the number it takes.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// runCases runs the declarative test cases of o.cases.
func runCases(ctx context.Context, e env, o testOptions) error {
	if len(o.lines) > 0 || len(o.files) > 0 || o.pattern != "" || o.explain != "" || o.expect != "" {
		return usageError("--cases takes no --line, FILE, --pattern, --explain or --expect: the cases file says what to test")
	}
	f, err := cases.Load(o.cases)
	if err != nil {
		return configError(err)
	}
	m, problems, err := catalog.Load(catalog.Spec{Paths: o.catalogs, NoDefault: o.noDefault, Cache: o.cache, OnCacheError: o.onCacheError})
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "logmatch test: catalog: %s: %v\n", p.Level, p)
	}
	if err != nil {
		return configError(err)
	}
	red, err := redact.New(nil)
	if err != nil {
		return err
	}
	s := scan.New(m, scan.Options{Entry: entry.Options{Redact: red.Redact}, Redact: red.RedactAlert})
	failed, err := cases.Write(e.stdout, f, cases.Run(ctx, f, s), o.verbose)
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	if failed > 0 {
		return exitStatus{code: exitFound}
	}
	return nil
}
