package report

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/sinks"
)

// Findings is what a scan found, as a report shows it.
type Findings struct {
	// Inputs are the names of the files scanned ("-" for standard input).
	Inputs []string
	// Lines and Entries are what the scan read.
	Lines, Entries int64
	// Alerts are the incidents, one each, in the order they began.
	Alerts []sinks.Alert
	// Generated is when the report was written; shown, never compared.
	Generated time.Time
	// Version is logmatch's version, shown in the footer.
	Version string
}

// Bounds of the timeline: a scan of a long log can find hundreds of
// incidents; the picture draws the first ones, says how many it left
// out, and the incident list below still has them all.
const (
	maxSteps = 48 // columns of the timeline
	maxLanes = 64 // rows: ranks and processes
	// maxBlockLines bounds a block of log text (a matched entry, an
	// exception); the JSON output carries everything.
	maxBlockLines = 40
)

// noRank is the lane of failures logged without a rank prefix: the
// server's main process, its launcher, the shell.
const noRank = "no rank"

// step is one column of the timeline: the first occurrence of an incident
// or of one of its consequences, on the ranks it was seen on.
type step struct {
	N        int // 1-based, in time order
	Time     time.Time
	Offset   string // since the first step: "+0s", "+1.5s"
	Incident int    // 1-based number of the incident it belongs to
	Cause    bool   // the incident itself, not a consequence
	Slug     string
	Severity string
	Headline string
	Count    int
	Ranks    string // compact
	First    string // the rank it was seen on first, for an incident
	lanes    []string
	// firstLane is the lane of First, when the incident was seen on
	// several: where it began.
	firstLane string
}

// lane is one row of the timeline.
type lane struct {
	Name  string // the rank, after its input's name when there are several
	Label string // Name as drawn: at most maxLabel characters
}

// maxLabel bounds a lane's label; a longer one keeps its end, where the
// rank is.
const maxLabel = 36

func laneLabel(name string) string {
	r := []rune(name)
	if len(r) <= maxLabel {
		return name
	}
	return "…" + string(r[len(r)-maxLabel+1:])
}

// mark is one occurrence on the timeline: a step on a lane.
type mark struct {
	Step, Lane int // 0-based
	Step1      *step
	First      bool // the incident's first rank: where it began
}

// incident is one alert as the report shows it.
type incident struct {
	N     int
	A     *sinks.Alert
	First bool // began first: the likely root cause
	// Ranks is the compact rank list with the first rank named.
	Ranks     string
	When      string
	Source    string
	Matched   string
	Exception string
	RootCause string
	Then      []then
	// Links are where to read more: the record's source, its
	// documentation, known issues; each http(s) only, each once.
	Links []link
}

// link is one of an incident's links.
type link struct {
	URL, Label string
}

// then is one consequence in an incident's "what followed".
type then struct {
	step     *step
	Step     int
	Slug     string
	Severity string
	Count    int
	Ranks    string
	When     string
	Headline string
}

// view is everything a template needs.
type view struct {
	Summary   string
	Inputs    []string
	Incidents []incident
	Steps     []*step
	Lanes     []lane
	Marks     []mark
	Dropped   int // steps beyond maxSteps, not drawn
	LanesCut  int // lanes beyond maxLanes, not drawn
	Generated string
	Version   string
	Day       string // the date of the first step, when every step is on it
	Geometry  geometry
}

// build turns findings into the view both renderers use.
func build(f Findings) view {
	v := view{Inputs: f.Inputs, Version: f.Version, Summary: summary(f)}
	if !f.Generated.IsZero() {
		v.Generated = f.Generated.UTC().Format("2006-01-02 15:04:05 MST")
	}
	many := len(distinctSources(f.Alerts)) > 1
	laneOf := func(a *sinks.Alert, rank string) string {
		name := rank
		if name == "" {
			name = noRank
		}
		if many {
			name = filepath.Base(a.Source.Path) + ": " + name
		}
		return name
	}
	order := make([]int, len(f.Alerts))
	for i := range order {
		order[i] = i
	}
	// Incidents in the order they began; the scan's order breaks ties.
	// A time that is not known sorts last.
	slices.SortStableFunc(order, func(i, j int) int { return cmpTime(f.Alerts[i].Time, f.Alerts[j].Time) })
	var steps []*step
	for n, i := range order {
		a := &f.Alerts[i]
		in := incident{
			N:      n + 1,
			A:      a,
			First:  n == 0,
			Ranks:  sinks.RanksText(a),
			When:   when(a.Time, a.LastTime, a.Count),
			Source: source(a),
		}
		in.Matched = block(a.Match.Text)
		if x := a.Match.Exception; x != nil {
			// Said once when it is the matched line.
			if exc := block(strings.TrimSuffix(x.Type+": "+x.Message, ": ")); exc != in.Matched {
				in.Exception = exc
			}
			in.RootCause = block(x.RootCause)
		}
		in.Links = links(a)
		s := &step{Time: a.Time, Incident: in.N, Cause: true, Slug: slug(a.Record.Slug), Severity: a.Record.Severity,
			Headline: headline(a), Count: a.Count, Ranks: sinks.CompactRanks(a.Ranks), First: a.FirstRank}
		for _, r := range orNoRank(a.Ranks) {
			s.lanes = append(s.lanes, laneOf(a, r))
		}
		if len(a.Ranks) > 1 && a.FirstRank != "" {
			s.firstLane = laneOf(a, a.FirstRank)
		}
		steps = append(steps, s)
		for k := range a.Consequences {
			c := &a.Consequences[k]
			cs := &step{Time: c.Time, Incident: in.N, Slug: slug(c.Slug), Severity: c.Severity,
				Headline: sinks.OneLine(c.Headline), Count: c.Count, Ranks: sinks.CompactRanks(c.Ranks)}
			for _, r := range orNoRank(c.Ranks) {
				cs.lanes = append(cs.lanes, laneOf(a, r))
			}
			steps = append(steps, cs)
			in.Then = append(in.Then, then{step: cs, Slug: cs.Slug, Severity: c.Severity, Count: c.Count, Ranks: cs.Ranks,
				When: when(c.Time, c.LastTime, c.Count), Headline: cs.Headline})
		}
		v.Incidents = append(v.Incidents, in)
	}
	// Steps in time order; at one time an incident comes before what
	// followed it, and incidents keep their order.
	slices.SortStableFunc(steps, func(x, y *step) int {
		if c := cmpTime(x.Time, y.Time); c != 0 {
			return c
		}
		if x.Incident != y.Incident {
			return cmp.Compare(x.Incident, y.Incident)
		}
		if x.Cause != y.Cause {
			if x.Cause {
				return -1
			}
			return 1
		}
		return 0
	})
	var t0 time.Time
	for i, s := range steps {
		s.N = i + 1
		if i == 0 {
			t0 = s.Time
		}
		s.Offset = offset(t0, s.Time)
	}
	// The incidents' "what followed" name their steps.
	for i := range v.Incidents {
		for j := range v.Incidents[i].Then {
			v.Incidents[i].Then[j].Step = v.Incidents[i].Then[j].step.N
		}
	}
	v.Steps = steps
	v.Day = sameDay(steps)
	drawn := steps
	if len(drawn) > maxSteps {
		v.Dropped = len(drawn) - maxSteps
		drawn = drawn[:maxSteps]
	}
	laneIdx := map[string]int{}
	var names []string
	for _, s := range drawn {
		for _, l := range s.lanes {
			if _, ok := laneIdx[l]; !ok {
				laneIdx[l] = -1
				names = append(names, l)
			}
		}
	}
	slices.SortFunc(names, compareLanes)
	if len(names) > maxLanes {
		v.LanesCut = len(names) - maxLanes
		names = names[:maxLanes]
	}
	for i, n := range names {
		laneIdx[n] = i
		v.Lanes = append(v.Lanes, lane{Name: n, Label: laneLabel(n)})
	}
	for i, s := range drawn {
		for _, l := range s.lanes {
			li := laneIdx[l]
			if li < 0 {
				continue
			}
			v.Marks = append(v.Marks, mark{Step: i, Lane: li, Step1: s, First: l == s.firstLane})
		}
	}
	v.Geometry = layout(len(drawn), v.Lanes)
	return v
}

// links lists a's links: the record's source, its documentation when
// that is a URL, and a search of the known issues of its repository.
func links(a *sinks.Alert) []link {
	var out []link
	add := func(u, label string) {
		if !sinks.IsHTTPURL(u) {
			return
		}
		for _, l := range out {
			if l.URL == u {
				return
			}
		}
		out = append(out, link{URL: u, Label: label})
	}
	add(a.Record.GithubURL, "Source on GitHub")
	add(a.Record.Documentation, "Documentation")
	if u := sinks.IssueSearchURL(a); u != "" {
		add(u, "Known issues in "+a.Record.Repo)
	}
	return out
}

func orNoRank(ranks []string) []string {
	if len(ranks) == 0 {
		return []string{""}
	}
	return ranks
}

func distinctSources(as []sinks.Alert) map[string]bool {
	m := map[string]bool{}
	for i := range as {
		m[as[i].Source.Path] = true
	}
	return m
}

func slug(s string) string {
	if s == "" {
		return "unclassified"
	}
	return s
}

// headline is the line that names a's failure.
func headline(a *sinks.Alert) string {
	if a.Headline != "" {
		return sinks.OneLine(a.Headline)
	}
	return sinks.OneLine(firstLine(a.Match.Text))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func source(a *sinks.Alert) string {
	s := a.Source.Path
	if s == "-" {
		s = "standard input"
	}
	if a.Source.Offset > 0 {
		s += fmt.Sprintf(" (offset %d)", a.Source.Offset)
	}
	return s
}

// block is log text for a block: control characters made visible, at
// most maxBlockLines lines.
func block(s string) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > maxBlockLines {
		n := len(lines) - maxBlockLines
		lines = append(lines[:maxBlockLines:maxBlockLines], fmt.Sprintf("... (%d more %s)", n, plural(n, "line", "lines")))
	}
	return scan.Printable(strings.Join(lines, "\n"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func cmpTime(a, b time.Time) int {
	switch {
	case a.IsZero() && b.IsZero():
		return 0
	case a.IsZero():
		return 1
	case b.IsZero():
		return -1
	}
	return a.Compare(b)
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "time unknown"
	}
	t = t.UTC()
	if t.Nanosecond() >= int(time.Millisecond) {
		return t.Format("2006-01-02 15:04:05.000 MST")
	}
	return t.Format("2006-01-02 15:04:05 MST")
}

// clock is stamp without the date, for the timeline's columns.
func clock(t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	t = t.UTC()
	if t.Nanosecond() >= int(time.Millisecond) {
		return t.Format("15:04:05.000")
	}
	return t.Format("15:04:05")
}

func when(first, last time.Time, count int) string {
	s := stamp(first)
	if count > 1 && !last.IsZero() && !last.Equal(first) {
		s += " .. " + stamp(last)
	}
	return s
}

// offset is how long after t0 t came, as people say it: "+0s",
// "+850ms", "+4.2s", "+2m05s", "+3h12m", "+5d4h".
func offset(t0, t time.Time) string {
	if t0.IsZero() || t.IsZero() {
		return ""
	}
	d := t.Sub(t0)
	switch {
	case d < time.Second:
		return "+" + d.Round(time.Millisecond).String()
	case d < time.Minute:
		return "+" + d.Round(100*time.Millisecond).String()
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("+%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		d = d.Round(time.Minute)
		return fmt.Sprintf("+%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	d = d.Round(time.Hour)
	return fmt.Sprintf("+%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
}

// sameDay is the date every step is on, or "".
func sameDay(steps []*step) string {
	day := ""
	for _, s := range steps {
		if s.Time.IsZero() {
			continue
		}
		d := s.Time.UTC().Format("2006-01-02")
		if day != "" && d != day {
			return ""
		}
		day = d
	}
	return day
}

// compareLanes orders lanes as people count ranks: TP2 before TP10, the
// lane with no rank last.
func compareLanes(a, b string) int {
	an, bn := strings.HasSuffix(a, noRank), strings.HasSuffix(b, noRank)
	if an != bn {
		if an {
			return 1
		}
		return -1
	}
	ta, tb := tokens(a), tokens(b)
	for i := 0; i < len(ta) && i < len(tb); i++ {
		x, y := ta[i], tb[i]
		xn, xerr := strconv.Atoi(x)
		yn, yerr := strconv.Atoi(y)
		if xerr == nil && yerr == nil {
			if c := cmp.Compare(xn, yn); c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(x, y); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(ta), len(tb))
}

// tokens splits s into runs of digits and runs of everything else.
func tokens(s string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(s); i++ {
		if i == len(s) || isDigit(s[i]) != isDigit(s[i-1]) {
			out = append(out, s[start:i])
			start = i
		}
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// summary is the report's one-line count, as scan's text output says it.
func summary(f Findings) string {
	in := fmt.Sprintf("%d %s, %d %s, %d %s", f.Lines, plural(int(f.Lines), "line", "lines"),
		f.Entries, plural(int(f.Entries), "entry", "entries"), len(f.Inputs), plural(len(f.Inputs), "input", "inputs"))
	if len(f.Alerts) == 0 {
		return "no incidents in " + in
	}
	bySev := map[string]int{}
	for i := range f.Alerts {
		bySev[f.Alerts[i].Record.Severity]++
	}
	var parts []string
	for _, s := range []string{"critical", "error", "warning", "info"} {
		if n := bySev[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	n := len(f.Alerts)
	return fmt.Sprintf("%d %s (%s) in %s", n, plural(n, "incident", "incidents"), strings.Join(parts, ", "), in)
}
