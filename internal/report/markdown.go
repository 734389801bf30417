package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes f as GitHub-flavoured Markdown, to paste into an
// issue next to the log: the summary, the timeline as a table, then each
// incident. Log text goes into code spans and fenced blocks whose fences
// are longer than any run of backticks in it, and other text is escaped,
// so nothing in a log can close a block, open a link or become HTML.
func WriteMarkdown(w io.Writer, f Findings) error {
	v := build(f)
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("### logmatch: %s\n\n", mdText(v.Summary))
	if len(v.Inputs) > 0 {
		names := make([]string, len(v.Inputs))
		for i, n := range v.Inputs {
			names[i] = mdCode(n)
		}
		p("Read: %s\n\n", strings.Join(names, ", "))
	}
	if len(v.Incidents) == 0 {
		p("No failure was recognised in these logs.\n")
		return bw.Flush()
	}
	p("#### Timeline")
	if v.Day != "" {
		p(" (%s)", v.Day)
	}
	p("\n\n| # | time | after | what | ranks | incident |\n|---:|---|---|---|---|---:|\n")
	for _, s := range v.Steps {
		what := "**" + strings.ToUpper(orDash(s.Severity)) + "** " + mdCode(s.Slug)
		if s.Count > 1 {
			what += fmt.Sprintf(" ×%d", s.Count)
		}
		if !s.Cause {
			what += " *(followed)*"
		}
		if s.Headline != "" {
			what += "<br>" + mdCode(clip(s.Headline, 200))
		}
		ranks := s.Ranks
		if s.Cause && s.First != "" && s.First != s.Ranks {
			ranks += ", first " + s.First
		}
		if ranks != "" {
			ranks = mdCode(ranks)
		}
		p("| %d | %s | %s | %s | %s | %d |\n", s.N, clock(s.Time), s.Offset, cell(what), cell(ranks), s.Incident)
	}
	for _, in := range v.Incidents {
		a := in.A
		p("\n#### %d. %s %s", in.N, strings.ToUpper(orDash(a.Record.Severity)), mdCode(slug(a.Record.Slug)))
		if a.Count > 1 {
			p(" ×%d", a.Count)
		}
		if in.First {
			p(": first to fail, the likely root cause")
		}
		p("\n\n")
		if in.Ranks != "" {
			p("- **ranks:** %s\n", mdCode(in.Ranks))
		}
		p("- **when:** %s\n", in.When)
		p("- **source:** %s\n", mdCode(in.Source))
		if a.Record.ID != "" {
			rec := mdCode(a.Record.ID)
			if a.Record.ErrorClass != "" {
				rec += " (" + mdText(a.Record.ErrorClass) + ")"
			}
			if a.Record.HandlingStrategy != "" {
				rec += ", handling: " + mdText(a.Record.HandlingStrategy)
			}
			p("- **record:** %s\n", rec)
		} else {
			p("- **record:** none: no record names this failure\n")
		}
		for _, c := range a.Context {
			p("- **context:** %s: %s\n", mdCode(c.Slug), mdCode(clip(c.Text, 300)))
		}
		for _, t := range in.Then {
			line := fmt.Sprintf("step %d: **%s** %s", t.Step, strings.ToUpper(orDash(t.Severity)), mdCode(t.Slug))
			if t.Count > 1 {
				line += fmt.Sprintf(" ×%d", t.Count)
			}
			if t.Ranks != "" {
				line += " on " + mdCode(t.Ranks)
			}
			p("- **then:** %s, %s\n", line, t.When)
		}
		p("\nMatched:\n\n%s", fence(in.Matched))
		if in.Exception != "" {
			p("\nException:\n\n%s", fence(in.Exception))
		}
		if in.RootCause != "" {
			p("\nRoot cause in the chain:\n\n%s", fence(in.RootCause))
		}
		if len(a.HungThread) > 0 {
			p("\nHung in:\n\n%s", fence(block(strings.Join(a.HungThread, "\n"))))
		}
		if d := a.Record.Documentation; d != "" {
			p("\n%s\n", mdText(d))
		}
		if len(a.Record.Solutions) > 0 {
			p("\nSolutions:\n\n")
			for i, s := range a.Record.Solutions {
				p("%d. %s\n", i+1, mdText(s))
			}
		}
		if len(a.Record.PreventionTips) > 0 {
			p("\nPrevention:\n\n")
			for _, s := range a.Record.PreventionTips {
				p("- %s\n", mdText(s))
			}
		}
		if len(in.Links) > 0 {
			p("\nLinks:\n\n")
			for _, l := range in.Links {
				p("- %s: <%s>\n", mdText(l.Label), strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(l.URL))
			}
		}
	}
	p("\n<sub>Written by logmatch%s.</sub>\n", versionSuffix(v.Version))
	return bw.Flush()
}

func versionSuffix(v string) string {
	if v == "" {
		return ""
	}
	return " " + mdText(v)
}

// mdEscaper backslash-escapes the ASCII punctuation Markdown acts on
// (parentheses only act after a bracket, which is escaped). Every ASCII
// punctuation character may be escaped in CommonMark, so escaping one
// that would not act is harmless.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "{", `\{`, "}", `\}`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "#", `\#`, "+", `\+`, "!", `\!`, "|", `\|`,
	"~", `\~`, "&", `\&`, "$", `\$`,
)

// mdText is text for Markdown prose: on one line, with its punctuation
// escaped and its control characters made visible.
func mdText(s string) string {
	return mdEscaper.Replace(oneLine(block(s)))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// mdCode is s as an inline code span: on one line, delimited by one
// backtick more than its longest run of backticks, padded when it starts
// or ends with one.
func mdCode(s string) string {
	s = oneLine(block(s))
	if s == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// cell makes a table cell of Markdown already escaped: a pipe inside a
// code span still ends a cell in GitHub's tables unless escaped.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, `\|`, "|"), "|", `\|`)
}

// fence is s as a fenced code block whose fence is longer than any run
// of backticks in it.
func fence(s string) string {
	f := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return f + "text\n" + s + "\n" + f + "\n"
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// clip bounds a line shown in a table or list.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
