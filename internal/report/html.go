package report

import (
	"bufio"
	"html/template"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/logmatch/logmatch/sinks"
)

// geometry places the timeline's marks; the SVG scales to the page width
// through its viewBox, so these are units, not pixels on screen.
type geometry struct {
	Width, Height int
	LabelW        int // the lane names' column
	ColW, LaneH   int
	HeadH         int // the step numbers and clock times above the lanes
}

func layout(steps int, lanes []lane) geometry {
	// The lane names are monospace at 12 units: about 7.3 units a
	// character (laneLabel bounds their length).
	longest := 8
	for _, l := range lanes {
		longest = max(longest, utf8.RuneCountInString(l.Label))
	}
	g := geometry{LabelW: longest*73/10 + 22, ColW: 36, LaneH: 26, HeadH: 100}
	// The last column's time leans right, past its column.
	g.Width = g.LabelW + max(steps, 1)*g.ColW + 56
	g.Height = g.HeadH + max(len(lanes), 1)*g.LaneH + 8
	return g
}

// X is the centre of a step's column.
func (g geometry) X(step int) int { return g.LabelW + step*g.ColW + g.ColW/2 }

// Y is the centre of a lane's row.
func (g geometry) Y(lane int) int { return g.HeadH + lane*g.LaneH + g.LaneH/2 }

// Diamond is the points of a consequence's mark around a centre.
func (g geometry) Diamond(step, lane int) string {
	x, y := g.X(step), g.Y(lane)
	const r = 8
	return itoa(x) + "," + itoa(y-r) + " " + itoa(x+r) + "," + itoa(y) + " " + itoa(x) + "," + itoa(y+r) + " " + itoa(x-r) + "," + itoa(y)
}

func itoa(n int) string { return strconv.Itoa(n) }

// WriteHTML writes f as one self-contained HTML page: no script, no
// fetch, CSS and the SVG timeline inline, every piece of log text escaped.
func WriteHTML(w io.Writer, f Findings) error {
	bw := bufio.NewWriter(w)
	if err := pageTemplate.Execute(bw, build(f)); err != nil {
		return err
	}
	return bw.Flush()
}

var pageTemplate = template.Must(template.New("page").Funcs(funcs).Parse(pageHTML))

// funcs are the helpers both templates use.
var funcs = template.FuncMap{
	"add":        func(a, b int) int { return a + b },
	"sub":        func(a, b int) int { return a - b },
	"stepsDrawn": func(v view) int { return len(v.Steps) - v.Dropped },
	"clockOf":    func(s *step) string { return clock(s.Time) },
	"laneName":   func(v view, i int) string { return v.Lanes[i].Name },
	"sevClass":   sevClass,
	"upper":      func(s string) string { return strings.ToUpper(orDash(s)) },
	"slugOf":     func(a *sinks.Alert) string { return slug(a.Record.Slug) },
	"plural":     plural,
}

// sevClass is the CSS class of a severity: an unknown one is "none", so
// a catalog's value never becomes markup.
func sevClass(s string) string {
	switch s {
	case "critical", "error", "warning", "info":
		return s
	}
	return "none"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>logmatch report: {{.Summary}}</title>
<style>
:root { --critical: #b91c1c; --error: #c2410c; --warning: #a16207; --info: #1d4ed8; --none: #4b5563; --line: #d1d5db; --muted: #4b5563; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #111827; margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 1.5em; margin: 0 0 4px; }
h2 { font-size: 1.2em; margin: 28px 0 8px; }
h3 { font-size: 1.05em; margin: 16px 0 6px; }
.sub { color: var(--muted); margin: 0; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.86em; }
pre { background: #f3f4f6; border: 1px solid #e5e7eb; border-radius: 4px; padding: 8px 10px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0 10px; }
.sev { display: inline-block; color: #fff; font-weight: 600; font-size: 0.78em; padding: 1px 7px; border-radius: 3px; letter-spacing: 0.03em; vertical-align: 2px; }
.sev-critical { background: var(--critical); } .sev-error { background: var(--error); } .sev-warning { background: var(--warning); } .sev-info { background: var(--info); } .sev-none { background: var(--none); }
.timeline { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
.timeline .grid { stroke: #eef0f3; }
.timeline .lane-label { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; fill: #111827; }
.timeline .step-label { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: var(--muted); }
.timeline .step-num { font: bold 12px system-ui, "DejaVu Sans", sans-serif; fill: #111827; }
.timeline .m-critical { fill: var(--critical); } .timeline .m-error { fill: var(--error); } .timeline .m-warning { fill: var(--warning); } .timeline .m-info { fill: var(--info); } .timeline .m-none { fill: var(--none); }
.timeline .then { fill-opacity: 0.35; stroke-width: 2; }
.timeline .s-critical { stroke: var(--critical); } .timeline .s-error { stroke: var(--error); } .timeline .s-warning { stroke: var(--warning); } .timeline .s-info { stroke: var(--info); } .timeline .s-none { stroke: var(--none); }
.timeline .ring { fill: none; stroke: #111827; stroke-width: 2.5; }
.legend { color: var(--muted); font-size: 0.9em; margin: 6px 0 0; }
.legend svg { vertical-align: -3px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 0.92em; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 4px 8px; }
th { background: #f9fafb; }
td.num, td.ranks { white-space: nowrap; }
.incident { border: 1px solid var(--line); border-left: 6px solid var(--none); border-radius: 4px; padding: 4px 16px 10px; margin: 16px 0; }
.incident.critical { border-left-color: var(--critical); } .incident.error { border-left-color: var(--error); } .incident.warning { border-left-color: var(--warning); } .incident.info { border-left-color: var(--info); }
.incident h2 { margin-top: 10px; }
.first-tag { font-size: 0.75em; font-weight: 600; color: #111827; background: #fde68a; border-radius: 3px; padding: 1px 6px; vertical-align: 2px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0 10px; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
ol, ul { margin: 4px 0 10px; padding-left: 24px; }
a { color: #1d4ed8; }
footer { color: var(--muted); font-size: 0.85em; margin-top: 32px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  @page { margin: 14mm; }
  .incident, .timeline, figure { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  pre { white-space: pre-wrap; }
  a { color: inherit; }
  a.ext::after { content: " <" attr(href) ">"; font-size: 0.85em; overflow-wrap: anywhere; }
  .sev, .first-tag, .timeline { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
</style>
</head>
<body>
<header>
<h1>logmatch report</h1>
<p class="sub" id="summary">{{.Summary}}</p>
<p class="sub">Read: {{range $i, $n := .Inputs}}{{if $i}}, {{end}}<span class="mono">{{$n}}</span>{{end}}{{with .Generated}}. Written {{.}}{{end}}.</p>
</header>
{{if .Incidents}}
<section id="timeline-section">
<h2>Timeline{{with .Day}} <span class="sub">{{.}}</span>{{end}}</h2>
<figure style="margin:0">
{{$g := .Geometry}}<svg class="timeline" id="timeline" role="img" aria-labelledby="timeline-title" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {{$g.Width}} {{$g.Height}}" width="{{$g.Width}}" height="{{$g.Height}}" preserveAspectRatio="xMinYMin meet">
<title id="timeline-title">Failures in time order (columns) on each rank and process (rows)</title>
{{range $i, $l := .Lanes}}<line class="grid" x1="0" x2="{{$g.Width}}" y1="{{$g.Y $i}}" y2="{{$g.Y $i}}"/>
<text class="lane-label" data-lane="{{$l.Name}}" x="{{sub $g.LabelW 10}}" y="{{add ($g.Y $i) 4}}" text-anchor="end"><title>{{$l.Name}}</title>{{$l.Label}}</text>
{{end}}{{range $i, $s := .Steps}}{{if lt $i (stepsDrawn $)}}<line class="grid" x1="{{$g.X $i}}" x2="{{$g.X $i}}" y1="{{sub $g.HeadH 6}}" y2="{{sub $g.Height 4}}"/>
<a href="#step-{{$s.N}}"><text class="step-num" x="{{$g.X $i}}" y="{{sub $g.HeadH 10}}" text-anchor="middle">{{$s.N}}</text></a>
<text class="step-label" transform="translate({{add ($g.X $i) 4}} {{sub $g.HeadH 26}}) rotate(-55)">{{clockOf $s}}</text>
{{end}}{{end}}{{range .Marks}}<a href="#incident-{{.Step1.Incident}}" class="mark" data-step="{{.Step1.N}}" data-lane="{{laneName $ .Lane}}"><title>{{.Step1.N}}. {{.Step1.Slug}} ({{.Step1.Severity}}) on {{laneName $ .Lane}}{{if .First}}: began here{{end}}</title>{{if .Step1.Cause}}<circle class="m-{{sevClass .Step1.Severity}}" cx="{{$g.X .Step}}" cy="{{$g.Y .Lane}}" r="8"/>{{if .First}}<circle class="ring first" cx="{{$g.X .Step}}" cy="{{$g.Y .Lane}}" r="12"/>{{end}}{{else}}<polygon class="then m-{{sevClass .Step1.Severity}} s-{{sevClass .Step1.Severity}}" points="{{$g.Diamond .Step .Lane}}"/>{{end}}</a>
{{end}}</svg>
<figcaption class="legend">
<svg width="18" height="18" aria-hidden="true"><circle cx="9" cy="9" r="7" fill="#4b5563"/></svg> a failure (incident) on that rank
&nbsp; <svg width="30" height="18" aria-hidden="true"><circle cx="15" cy="9" r="6" fill="#4b5563"/><circle cx="15" cy="9" r="8.5" fill="none" stroke="#111827" stroke-width="2"/></svg> the rank it began on
&nbsp; <svg width="18" height="18" aria-hidden="true"><polygon points="9,2 16,9 9,16 2,9" fill="#4b5563" fill-opacity="0.35" stroke="#4b5563" stroke-width="2"/></svg> what followed it (a consequence)
&nbsp; Colour: severity. Columns are in time order, not to scale.
{{if .Dropped}}<br><strong>{{.Dropped}} later {{plural .Dropped "event is" "events are"}} not drawn;</strong> the table and the incidents below list {{plural .Dropped "it" "them"}}.{{end}}
{{if .LanesCut}}<br><strong>{{.LanesCut}} more {{plural .LanesCut "rank" "ranks"}} not drawn.</strong>{{end}}
</figcaption>
</figure>
<table id="steps">
<thead><tr><th>#</th><th>time</th><th>after</th><th>what</th><th>ranks</th><th>incident</th></tr></thead>
<tbody>
{{range .Steps}}<tr id="step-{{.N}}" class="step"><td class="num">{{.N}}</td><td class="num mono">{{clockOf .}}</td><td class="num mono">{{.Offset}}</td><td><span class="sev sev-{{sevClass .Severity}}">{{upper .Severity}}</span> <code>{{.Slug}}</code>{{if gt .Count 1}} ×{{.Count}}{{end}}{{if not .Cause}} <em>(followed)</em>{{end}}<br><span class="mono">{{.Headline}}</span></td><td class="mono ranks">{{.Ranks}}{{if and .Cause .First (ne .First .Ranks)}}<br>first {{.First}}{{end}}</td><td><a href="#incident-{{.Incident}}">{{.Incident}}</a></td></tr>
{{end}}</tbody>
</table>
</section>
<section id="incidents">
{{range .Incidents}}{{$sev := sevClass .A.Record.Severity}}<article class="incident {{$sev}}" id="incident-{{.N}}" data-slug="{{slugOf .A}}">
<h2>{{.N}}. <span class="sev sev-{{$sev}}">{{upper .A.Record.Severity}}</span> <code>{{slugOf .A}}</code>{{if gt .A.Count 1}} ×{{.A.Count}}{{end}}{{if .First}} <span class="first-tag">first to fail: the likely root cause</span>{{end}}</h2>
<dl>
{{with .Ranks}}<dt>ranks</dt><dd class="mono">{{.}}</dd>{{end}}
<dt>when</dt><dd>{{.When}}</dd>
<dt>source</dt><dd class="mono">{{.Source}}</dd>
<dt>record</dt><dd>{{if .A.Record.ID}}<span class="mono">{{.A.Record.ID}}</span>{{with .A.Record.ErrorClass}} ({{.}}){{end}}{{with .A.Record.HandlingStrategy}}, handling: {{.}}{{end}}{{else}}none: no record names this failure{{end}}</dd>
{{range .A.Context}}<dt>context</dt><dd><code>{{.Slug}}</code>: <span class="mono">{{.Text}}</span></dd>{{end}}
{{with .A.Secondary}}<dt>also matched</dt><dd>{{range $i, $s := .}}{{if $i}}, {{end}}<code>{{$s.Slug}}</code>{{end}}</dd>{{end}}
</dl>
{{with .Then}}<h3>What followed</h3>
<ul class="then">{{range .}}<li><a href="#step-{{.Step}}">step {{.Step}}</a>: <span class="sev sev-{{sevClass .Severity}}">{{upper .Severity}}</span> <code>{{.Slug}}</code>{{if gt .Count 1}} ×{{.Count}}{{end}}{{with .Ranks}} on <span class="mono">{{.}}</span>{{end}}, {{.When}}<br><span class="mono">{{.Headline}}</span></li>{{end}}</ul>{{end}}
<h3>Matched</h3>
<pre class="matched">{{.Matched}}</pre>
{{with .Exception}}<h3>Exception</h3><pre>{{.}}</pre>{{end}}
{{with .RootCause}}<h3>Root cause in the chain</h3><pre>{{.}}</pre>{{end}}
{{with .A.HungThread}}<h3>Hung in</h3><pre>{{range .}}{{.}}
{{end}}</pre>{{end}}
{{with .A.Record.Documentation}}<h3>What it is</h3><p>{{.}}</p>{{end}}
{{with .A.Record.Solutions}}<h3>Solutions</h3><ol class="solutions">{{range .}}<li>{{.}}</li>{{end}}</ol>{{end}}
{{with .A.Record.PreventionTips}}<h3>Prevention</h3><ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Links}}<h3>Links</h3><ul class="links">{{range .}}<li>{{.Label}}: <a class="ext" href="{{.URL}}" rel="noreferrer">{{.URL}}</a></li>{{end}}</ul>{{end}}
</article>
{{end}}</section>
{{else}}<p id="no-incidents">No failure was recognised in these logs.</p>
{{end}}<footer>Written by logmatch{{with .Version}} {{.}}{{end}}. This page fetches nothing and runs no script; links open only when followed.</footer>
</body>
</html>
`
