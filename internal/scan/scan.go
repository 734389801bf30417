// Package scan is the one-shot pipeline behind `logmatch scan`: it reads
// whole inputs, assembles entries, matches them, folds the hits into
// incidents and returns one alert per incident. Nothing is kept between
// runs.
package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/stream"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// Input is one log stream to scan.
type Input struct {
	Name string    // file path, or "-" for standard input
	R    io.Reader // the content
}

// Options configure a scan.
type Options struct {
	Entry entry.Options
	// Format is the framing of the inputs (raw, cri, docker); "" detects
	// it per input.
	Format source.Format
	// Redact, when set, is applied to every alert before it is returned.
	Redact func(*sinks.Alert)
	// Now stands in for the wall clock (read time of lines without a
	// header time); time.Now when nil.
	Now func() time.Time
	// ServerVersion is the sglang release that wrote the inputs ("" when
	// not known): records of other releases only are not matched.
	ServerVersion string
	// OnIncidents, when set, is called with the number of incidents
	// found so far each time it changes, for a progress display. It runs
	// on the scanning goroutine, once per failure entry at most (never per
	// line), so it must return quickly. The number is before the final
	// folding of consequences into their root causes, so the result may
	// hold fewer.
	OnIncidents func(n int)
}

// Stats counts what a scan read and found.
type Stats struct {
	Inputs        int
	Lines         int64
	Bytes         int64
	Entries       int64
	Hits          int64
	Unclassified  int64 // incidents with no record
	Incidents     int
	PatternErrors int64 // pattern timeouts and stack-limit errors
	LinesCut      int64 // lines cut at the length bound
}

// Result is what a scan found.
type Result struct {
	Alerts []sinks.Alert // one per incident, in the order incidents began
	Stats  Stats
	// PatternErrors lists the records whose patterns failed while
	// matching (at most one line per record), for the operator.
	PatternErrors []string
}

// Scanner runs scans with one compiled catalog.
type Scanner struct {
	m    *matcher.Matcher
	opts Options
}

// New returns a Scanner that matches with m.
func New(m *matcher.Matcher, opts Options) *Scanner {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Scanner{m: m, opts: opts}
}

// Scan reads every input to its end and returns the incidents found. A read
// error stops that input only; the error names the input and the others
// are still scanned. ctx cancels between lines.
func (s *Scanner) Scan(ctx context.Context, inputs []Input) (Result, error) {
	var res Result
	g := incident.New(incident.Options{Window: incident.Forever, Settle: incident.DefaultSettle, Correlation: incident.DefaultCorrelation,
		ConsequenceWait: incident.DefaultConsequenceWait})
	// The grouper closes its least recently seen incident when too many
	// are open; a one-shot scan keeps what it closes and reports it too.
	var evicted, restarted []sinks.Alert
	patternErrs := map[string]string{}
	var count *incidentCount
	if s.opts.OnIncidents != nil {
		count = &incidentCount{report: s.opts.OnIncidents, closed: map[string]struct{}{}}
	}
	var errs []error
	for _, in := range inputs {
		res.Stats.Inputs++
		if err := s.scanOne(ctx, in, g, &evicted, &restarted, count, &res.Stats, patternErrs); err != nil {
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
		}
	}
	// Most scans close nothing early: the flushed alerts are then kept
	// as they are, neither copied onto an empty slice nor merged.
	// Flush gives one alert for each open incident, and the grouper keys
	// its incidents by fingerprint: only alerts closed early may share one
	// with another.
	res.Alerts = g.Flush(s.opts.Now())
	if len(evicted) > 0 {
		res.Alerts = mergeIncidents(append(evicted, res.Alerts...))
	}
	if len(restarted) > 0 {
		res.Alerts = append(restarted, res.Alerts...)
	}
	for i := range res.Alerts {
		if res.Alerts[i].Record.ID == "" {
			res.Stats.Unclassified++
		}
		if s.opts.Redact != nil {
			s.opts.Redact(&res.Alerts[i])
		}
	}
	res.Stats.Incidents = len(res.Alerts)
	for _, msg := range patternErrs {
		res.PatternErrors = append(res.PatternErrors, msg)
	}
	sort.Strings(res.PatternErrors)
	return res, errors.Join(errs...)
}

// mergeIncidents folds alerts of one fingerprint (an incident closed early
// by the grouper's bound, then seen again) into the first, keeping order.
func mergeIncidents(as []sinks.Alert) []sinks.Alert {
	at := make(map[string]int, len(as))
	out := as[:0]
	for _, a := range as {
		i, seen := at[a.Fingerprint]
		if !seen {
			at[a.Fingerprint] = len(out)
			out = append(out, a)
			continue
		}
		m := &out[i]
		m.Count += a.Count
		if a.Time.Before(m.Time) {
			m.Time = a.Time
		}
		if a.LastTime.After(m.LastTime) {
			m.LastTime = a.LastTime
		}
		for _, r := range a.Ranks {
			if !slices.Contains(m.Ranks, r) {
				m.Ranks = append(m.Ranks, r)
			}
		}
	}
	return out
}

// incidentCount follows the number of incidents found so far for
// Options.OnIncidents: those the grouper holds open, plus those it closed
// early to stay in its bound (each fingerprint once, as mergeIncidents
// counts them). One closed early and seen again is counted twice until the
// scan ends: that takes more open incidents than the grouper's bound, and
// the count is for display.
type incidentCount struct {
	report  func(int)
	closed  map[string]struct{}
	counted int // evicted alerts already in closed
	last    int
}

// update reports the count when it changed; nil does nothing.
func (c *incidentCount) update(g *incident.Grouper, evicted []sinks.Alert) {
	if c == nil {
		return
	}
	for _, a := range evicted[c.counted:] {
		c.closed[a.Fingerprint] = struct{}{}
	}
	c.counted = len(evicted)
	n := g.Stats().Open + len(c.closed)
	if n != c.last {
		c.last = n
		c.report(n)
	}
}

// inputScan is what the scan of one input needs for each entry. Entries
// are handled by a method rather than by a closure: the quiet path (an
// entry that is no failure) then reads two fields through one pointer, and
// what a failure needs stays out of that path (failure).
type inputScan struct {
	s           *Scanner
	src         incident.Source
	g           *incident.Grouper
	evicted     *[]sinks.Alert
	count       *incidentCount
	st          *Stats
	patternErrs map[string]string
	occ         incident.Builder
	de          *stream.Entry // the failure being recorded
	// o is the occurrence of the failure being recorded, made in place
	// and observed by pointer (an Occurrence is over a kilobyte).
	o incident.Occurrence
	// restarted are the incidents closed by a restart of the server
	// (Grouper.Restarted): kept apart, since one of the same fingerprint
	// after it is another incident.
	restarted *[]sinks.Alert
	// readAt is the scan's clock (Options.Now) as the source read it for
	// its latest read, which raw lines are stamped with: a failure's
	// processing time, read once a read rather than once a failure (a
	// failure is handled within that read's lines, microseconds after it).
	readAt time.Time
}

// own gives the failure being recorded memory of its own, when its
// occurrence's alert is built: a repeat of an open incident keeps nothing
// of the entry, and its memory stays lent.
func (p *inputScan) own() { p.de.Own() }

// entry takes one diagnosed entry from the shell.
func (p *inputScan) entry(de *stream.Entry) {
	p.st.Entries++
	if de.Failure || len(de.Diagnosis.PatternErrors) > 0 {
		p.failure(de)
	} else if analysis.Startup(de.Entry) {
		// The server started again: what it failed of before is over.
		*p.restarted = append(*p.restarted, p.g.Restarted(p.src.Identity(), p.s.opts.Now())...)
	}
}

// failure records what the analysis of an entry found: the pattern
// errors, and for a failure the occurrence, folded into the grouper.
func (p *inputScan) failure(de *stream.Entry) {
	d := de.Diagnosis
	for _, pe := range d.PatternErrors {
		p.st.PatternErrors++
		if _, seen := p.patternErrs[pe.Record.ID]; !seen {
			p.patternErrs[pe.Record.ID] = fmt.Sprintf("%s: %s: %v", pe.Record.Origin, pe.Record.ID, pe.Err)
		}
	}
	if !de.Failure {
		return
	}
	if d.Cause != nil {
		p.st.Hits++
	}
	now := p.readAt
	if now.IsZero() {
		now = p.s.opts.Now()
	}
	src := p.src
	src.Engine = de.Engine
	// The occurrence's alert is built only if the grouper needs it: a
	// repeat of an open incident does not.
	p.de = de
	p.occ.OccurrenceTo(&p.o, de.Entry, d, src, now)
	*p.evicted = append(*p.evicted, p.g.ObserveByRef(&p.o, now)...)
	p.count.update(p.g, *p.evicted)
}

func (s *Scanner) scanOne(ctx context.Context, in Input, g *incident.Grouper, evicted, restarted *[]sinks.Alert, count *incidentCount, st *Stats, patternErrs map[string]string) error {
	// One stream per name: stdout and stderr of a container log are
	// interleaved in one file but are separate streams of entries.
	o := s.opts.Entry
	o.Reuse = true
	streams := stream.NewSet(o)
	sh := stream.NewShell(s.m, s.opts.Now)
	sh.SetServerVersion(s.opts.ServerVersion)
	sh.OwnLater()
	src := incident.Source{Path: in.Name, Key: in.Name}
	p := &inputScan{s: s, src: src, g: g, evicted: evicted, restarted: restarted, count: count, st: st, patternErrs: patternErrs}
	p.occ.Own = p.own
	// Lines are lent by the reader and copied by the assembler into its
	// own reused memory: a line allocates nothing.
	clock := s.opts.Now
	readClock := func() time.Time {
		p.readAt = clock()
		return p.readAt
	}
	lines, err := source.NewStream(in.R, source.StreamConfig{Source: in.Name, Format: s.opts.Format, Now: readClock, Borrow: true})
	if err != nil {
		return err
	}
	// The stream lends each line by pointer: nothing of it is kept.
	err = lines.RunLent(ctx, func(l *source.Line) error {
		st.Lines++
		st.Bytes = l.Next
		if l.Truncated {
			st.LinesCut++
		}
		ss := streams.Get(l.Stream)
		if es := ss.Push(&l.Line); len(es) > 0 { // a continuation line completes none
			sh.Diagnose(ss, es, p.entry)
		}
		return nil
	})
	for _, ss := range streams.All() {
		sh.Diagnose(ss, ss.Flush(), p.entry)
	}
	return err
}
