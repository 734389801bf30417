package scan

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// WriteJSON writes one alert per line in the logmatch.alert/v1 shape.
func WriteJSON(w io.Writer, alerts []sinks.Alert) error {
	var enc sinks.AlertEncoder // one buffer and encoder for every alert
	for i := range alerts {
		b, err := enc.Encode(&alerts[i])
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// maxTextLines bounds how much of a matched line or exception the text
// report shows; the JSON form carries everything.
const maxTextLines = 8

// WriteText writes the incidents for people: severity, slug, count and
// ranks, what matched, the exception, the solutions as a numbered list, the
// prevention tips and the source link; then a one-line summary.
func WriteText(w io.Writer, res Result) error {
	tw := &textWriter{w: w}
	for i := range res.Alerts {
		if i > 0 {
			tw.line("")
		}
		writeAlert(tw, &res.Alerts[i])
	}
	if len(res.Alerts) > 0 {
		tw.line("")
	}
	tw.line(summary(res))
	for _, pe := range res.PatternErrors {
		tw.line("pattern error: " + pe)
	}
	return tw.err
}

func writeAlert(tw *textWriter, a *sinks.Alert) {
	r := &a.Record
	head := fmt.Sprintf("%s  %s", strings.ToUpper(orDash(r.Severity)), orDash(r.Slug))
	if a.Count > 1 {
		head += fmt.Sprintf("  x%d", a.Count)
	}
	if r := sinks.RanksText(a); r != "" {
		head += "  ranks " + r
	}
	tw.line(head)
	if r.ID != "" {
		meta := "record " + r.ID
		var extra []string
		if r.ErrorClass != "" {
			extra = append(extra, r.ErrorClass)
		}
		if r.HandlingStrategy != "" {
			extra = append(extra, "handling: "+r.HandlingStrategy)
		}
		if len(extra) > 0 {
			meta += " (" + strings.Join(extra, ", ") + ")"
		}
		tw.field("record", meta[len("record "):])
	} else {
		tw.field("record", "none: no record names this failure")
	}
	for _, c := range a.Context {
		tw.field("context", c.Slug+": "+c.Text)
	}
	for i := range a.Consequences {
		c := &a.Consequences[i]
		tw.field("then", sinks.ConsequenceLine(c)+": "+c.Headline)
	}
	when := stamp(a.Time)
	if a.Count > 1 && !a.LastTime.Equal(a.Time) {
		when += " .. " + stamp(a.LastTime)
	}
	tw.field("when", when)
	src := a.Source.Path
	if a.Source.Offset > 0 {
		src += fmt.Sprintf(" (offset %d)", a.Source.Offset)
	}
	tw.field("source", src)
	if a.Engine != "" {
		tw.field("engine", a.Engine)
	}
	tw.block("matched", a.Match.Text)
	if x := a.Match.Exception; x != nil {
		exc := x.Type
		if x.Message != "" {
			exc += ": " + x.Message
		}
		if exc == "" {
			// A traceback cut before its exception line: its frames
			// are all it printed.
			exc = "none printed: the traceback stops before its exception line"
		}
		tw.block("exception", exc)
		if x.RootCause != "" {
			tw.block("root cause", x.RootCause)
		}
	}
	if len(a.HungThread) > 0 {
		tw.block("hung in", strings.Join(a.HungThread, "\n"))
	}
	if r.Documentation != "" {
		tw.block("what", r.Documentation)
	}
	if len(r.Solutions) > 0 {
		tw.line("  solutions:")
		for i, s := range r.Solutions {
			tw.line(fmt.Sprintf("    %d. %s", i+1, s))
		}
	}
	if len(r.PreventionTips) > 0 {
		tw.line("  prevention:")
		for _, s := range r.PreventionTips {
			tw.line("    - " + s)
		}
	}
	if r.GithubURL != "" {
		tw.field("code", r.GithubURL)
	} else if u, label := sinks.Runbook(a); u != "" {
		tw.field("link", u+" ("+label+")")
	}
	if len(a.Secondary) > 0 {
		var names []string
		for _, s := range a.Secondary {
			names = append(names, s.Slug)
		}
		tw.field("also", strings.Join(names, ", "))
	}
}

func summary(res Result) string {
	st := res.Stats
	if st.Incidents == 0 {
		return fmt.Sprintf("no incidents (%s)", readCounts(st))
	}
	bySev := map[string]int{}
	for _, a := range res.Alerts {
		bySev[a.Record.Severity]++
	}
	var parts []string
	for _, s := range []string{"critical", "error", "warning", "info"} {
		if n := bySev[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	noun := "incidents"
	if st.Incidents == 1 {
		noun = "incident"
	}
	return fmt.Sprintf("%d %s (%s) in %s", st.Incidents, noun, strings.Join(parts, ", "), readCounts(st))
}

// readCounts says what a scan read: "1 line, 2 entries, 1 input".
func readCounts(st Stats) string {
	count := func(n int64, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	return count(st.Lines, "line", "lines") + ", " + count(st.Entries, "entry", "entries") + ", " + count(int64(st.Inputs), "input", "inputs")
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format("2006-01-02 15:04:05 MST")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// textWriter remembers the first write error so the renderers stay linear.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) line(s string) {
	if t.err != nil {
		return
	}
	_, t.err = io.WriteString(t.w, Printable(s)+"\n")
}

func (t *textWriter) field(name, value string) {
	t.line(fmt.Sprintf("  %-10s %s", name+":", value))
}

// block prints a possibly multi-line value indented under its name, at most
// maxTextLines lines.
func (t *textWriter) block(name, value string) {
	lines := strings.Split(strings.TrimRight(value, "\n"), "\n")
	if len(lines) > maxTextLines {
		n := len(lines) - maxTextLines
		lines = append(lines[:maxTextLines:maxTextLines], fmt.Sprintf("... (%d more lines)", n))
	}
	t.field(name, lines[0])
	for _, l := range lines[1:] {
		t.line(strings.Repeat(" ", 13) + l)
	}
}
