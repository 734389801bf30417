package cases

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// File is a parsed cases file.
type File struct {
	Path  string
	Cases []Case
}

// Case is one test: an input and what it must give.
type Case struct {
	Name string `yaml:"name"`
	// Lines is the log text, one or more lines; File a log file, relative
	// to the cases file. Exactly one is set.
	Lines  string `yaml:"lines"`
	File   string `yaml:"file"`
	Expect Expect `yaml:"expect"`

	line int // where the case begins in its file
}

// Expect is what a case must give. Unset fields are not checked.
type Expect struct {
	// Record is the lead incident's record slug or id, or "unclassified"
	// for a failure no record names, or "none" for no incident at all.
	Record string `yaml:"record"`
	// Severity is the lead incident's severity.
	Severity string `yaml:"severity"`
	// Exception is the lead incident's exception type (its record's
	// errorClass when the entry held no traceback).
	Exception string `yaml:"exception"`
	// Headline is text the lead incident's headline must contain.
	Headline string `yaml:"headline"`
	// Incidents is how many incidents the input must give.
	Incidents *int `yaml:"incidents"`
}

// Place is the file and line where c begins.
func (c *Case) Place(f *File) string { return fmt.Sprintf("%s:%d", f.Path, c.line) }

// maxCasesBytes bounds a cases file: it is read whole.
const maxCasesBytes = 16 << 20

// Load reads and parses the cases file at path.
func Load(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxCasesBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxCasesBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxCasesBytes)
	}
	return Parse(path, data)
}

// Parse parses a cases file's content; name is used in errors. Every
// problem found is reported, each naming name:line.
func Parse(name string, data []byte) (*File, error) {
	var doc struct {
		Cases []yaml.Node `yaml:"cases"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: no cases", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f := &File{Path: name}
	var errs []error
	seen := map[string]int{}
	for i := range doc.Cases {
		n := &doc.Cases[i]
		var c Case
		if err := decodeStrict(n, &c); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: case %d: %w", name, n.Line, i+1, err))
			continue
		}
		c.line = n.Line
		if err := c.check(); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: case %q: %w", name, n.Line, c.Name, err))
			continue
		}
		if at, dup := seen[c.Name]; dup {
			errs = append(errs, fmt.Errorf("%s:%d: case %q: the name is used at line %d too", name, n.Line, c.Name, at))
			continue
		}
		seen[c.Name] = n.Line
		f.Cases = append(f.Cases, c)
	}
	if len(errs) == 0 && len(f.Cases) == 0 {
		errs = append(errs, fmt.Errorf("%s: no cases", name))
	}
	return f, errors.Join(errs...)
}

// decodeStrict decodes n into v, refusing unknown keys (a node's Decode
// does not take the decoder's KnownFields).
func decodeStrict(n *yaml.Node, v any) error {
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	return dec.Decode(v)
}

func (c *Case) check() error {
	switch {
	case strings.TrimSpace(c.Name) == "":
		return errors.New("name: required")
	case c.Lines == "" && c.File == "":
		return errors.New("give lines or file")
	case c.Lines != "" && c.File != "":
		return errors.New("give lines or file, not both")
	}
	if c.Expect == (Expect{}) {
		return errors.New("expect: nothing to check")
	}
	if s := c.Expect.Severity; s != "" {
		if _, err := patterns.ParseSeverity(s); err != nil {
			return fmt.Errorf("expect.severity: %w", err)
		}
	}
	if n := c.Expect.Incidents; n != nil && *n < 0 {
		return fmt.Errorf("expect.incidents: %d is negative", *n)
	}
	return nil
}

// Outcome is what one case gave.
type Outcome struct {
	Case  *Case
	Diffs []string // want/got differences; none when it passed
	Err   error    // the input could not be read
}

// Passed reports whether the case passed.
func (o *Outcome) Passed() bool { return o.Err == nil && len(o.Diffs) == 0 }

// Run scans every case of f with s and compares what it found with what
// the case expects.
func Run(ctx context.Context, f *File, s *scan.Scanner) []Outcome {
	out := make([]Outcome, 0, len(f.Cases))
	for i := range f.Cases {
		c := &f.Cases[i]
		o := Outcome{Case: c}
		var r io.Reader
		name := c.Place(f)
		if c.File != "" {
			path := c.File
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(f.Path), path)
			}
			fh, err := os.Open(path)
			if err != nil {
				o.Err = err
				out = append(out, o)
				continue
			}
			r, name = fh, path
		} else {
			text := c.Lines
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			r = strings.NewReader(text)
		}
		res, err := s.Scan(ctx, []scan.Input{{Name: name, R: r}})
		if c, ok := r.(io.Closer); ok {
			c.Close()
		}
		if err != nil {
			o.Err = err
		}
		o.Diffs = compare(&c.Expect, res.Alerts)
		out = append(out, o)
	}
	return out
}

// Lead is the incident a case's expectations speak of: the first that is
// not a consequence, else the first.
func Lead(alerts []sinks.Alert) *sinks.Alert {
	for i := range alerts {
		if alerts[i].Record.Role != string(patterns.RoleConsequence) {
			return &alerts[i]
		}
	}
	if len(alerts) == 0 {
		return nil
	}
	return &alerts[0]
}

func compare(want *Expect, alerts []sinks.Alert) []string {
	var diffs []string
	differ := func(field, want, got string) {
		diffs = append(diffs, fmt.Sprintf("%-10s want %s, got %s", field+":", want, got))
	}
	if want.Incidents != nil && *want.Incidents != len(alerts) {
		differ("incidents", fmt.Sprint(*want.Incidents), fmt.Sprint(len(alerts)))
	}
	l := Lead(alerts)
	got := func(f func(*sinks.Alert) string) string {
		if l == nil {
			return "no incident"
		}
		return f(l)
	}
	if want.Record != "" {
		g := got(func(a *sinks.Alert) string { return a.Record.Slug })
		ok := g == want.Record || l != nil && l.Record.ID != "" && l.Record.ID == want.Record ||
			want.Record == "none" && l == nil
		if !ok {
			differ("record", want.Record, g)
		}
	}
	if want.Severity != "" {
		ws, _ := patterns.ParseSeverity(want.Severity)
		if g := got(func(a *sinks.Alert) string { return a.Record.Severity }); !strings.EqualFold(g, string(ws)) {
			differ("severity", string(ws), g)
		}
	}
	if want.Exception != "" {
		g := got(exceptionType)
		if g != want.Exception && !strings.HasSuffix(g, "."+want.Exception) {
			differ("exception", want.Exception, g)
		}
	}
	if want.Headline != "" {
		if g := got(func(a *sinks.Alert) string { return a.Headline }); !strings.Contains(g, want.Headline) {
			differ("headline", "text containing "+quote(want.Headline), quote(g))
		}
	}
	return diffs
}

func exceptionType(a *sinks.Alert) string {
	if a.Match.Exception != nil && a.Match.Exception.Type != "" {
		return a.Match.Exception.Type
	}
	if a.Record.ErrorClass != "" {
		return a.Record.ErrorClass
	}
	return "none"
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// Write prints the outcomes, a block per failed case (every case with
// verbose), and the tally; it returns how many failed.
func Write(w io.Writer, f *File, outs []Outcome, verbose bool) (failed int, err error) {
	var b strings.Builder
	for i := range outs {
		o := &outs[i]
		if o.Passed() {
			if verbose {
				fmt.Fprintf(&b, "PASS  %s  (%s)\n", o.Case.Name, o.Case.Place(f))
			}
			continue
		}
		failed++
		fmt.Fprintf(&b, "FAIL  %s  (%s)\n", o.Case.Name, o.Case.Place(f))
		if o.Err != nil {
			fmt.Fprintf(&b, "  error:     %v\n", o.Err)
		}
		for _, d := range o.Diffs {
			fmt.Fprintf(&b, "  %s\n", d)
		}
	}
	fmt.Fprintf(&b, "%s: %d %s, %d passed, %d failed\n", f.Path, len(outs), plural(len(outs), "case", "cases"), len(outs)-failed, failed)
	_, err = io.WriteString(w, b.String())
	return failed, err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
