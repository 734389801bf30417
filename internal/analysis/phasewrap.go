package analysis

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// A traceback cut before its exception line under a process's wrapper
// ("Scheduler hit an exception:") says where the process died but not
// what it was. When its frames name a phase that sglang wraps in an
// exception of its own (capturing CUDA graphs raises "Capture cuda graph
// failed: ...", the warmup request "Initialization failed. warmup error:
// ..."), the catalog's record of that phase's wrapper is what the lost
// exception line would have matched: it leads, the process's wrapper is
// its context.

// phaseTags maps a phase to the tag of the wrapper record sglang's own
// exception for that phase matches.
var phaseTags = map[string]string{
	"capturing CUDA graphs": "cuda-graph",
	"warming up":            "warmup",
}

// phaseWrapper returns the wrapper record of the catalog tagged for phase,
// nil when there is none, the log is another engine's, or the traceback
// runs through no code of sglang's (TensorRT-LLM's CUDA graph warm-up
// behind a prefix that hides which engine wrote it): only sglang's own
// code raises sglang's exception for the phase. The records are looked
// up once per Analyzer.
func (a *Analyzer) phaseWrapper(phase string, e *entry.Entry) *patterns.Record {
	tag := phaseTags[phase]
	if eng := a.entryEngine(e); tag == "" || eng != "" && eng != "sglang" ||
		!strings.Contains(e.Text, "sglang") && !strings.Contains(e.Text, "sgl_kernel") {
		return nil
	}
	if a.phaseRecs == nil {
		a.phaseRecs = map[string]*patterns.Record{}
		recs := a.m.Matcher().Records()
		for i := range recs {
			r := &recs[i]
			if !r.Role.Is(patterns.RoleWrapper) || len(r.Engines) > 0 && !slices.Contains(r.Engines, "sglang") {
				continue
			}
			for _, t := range phaseTags {
				if _, ok := a.phaseRecs[t]; !ok && slices.Contains(r.Tags, t) {
					a.phaseRecs[t] = r
				}
			}
		}
	}
	return a.phaseRecs[tag]
}

// cutTraceback reports whether e's traceback lost its exception line: it
// has frames and no link names an exception.
func cutTraceback(e *entry.Entry) bool {
	tb := e.Traceback
	if tb == nil || len(tb.Links) == 0 || tb.Outermost().Type != "" {
		return false
	}
	for i := range tb.Links {
		if len(tb.Links[i].Frames) > 0 {
			return true
		}
	}
	return false
}

// leadWithPhaseWrapper makes the phase's wrapper record the cause of d, a
// diagnosis led by a process's wrapper over a cut traceback, when the
// frames name a phase that has one; the process's wrapper becomes context.
// The phase's record matched no text: its hit is the line of the call
// that entered the phase.
func (a *Analyzer) leadWithPhaseWrapper(d *Diagnosis, e *entry.Entry) {
	if !cutTraceback(e) {
		return
	}
	rec := a.phaseWrapper(d.Triage.Phase, e)
	if rec == nil || d.Cause != nil && rec.ID == d.Cause.Record.ID {
		return
	}
	call := phaseCallAt(e.Text)
	if call == "" {
		return
	}
	start := strings.Index(e.Text, call)
	line := call
	if start < 0 {
		if d.Cause == nil {
			return
		}
		line, start = FirstLine(d.Cause.Line), d.Cause.Start
	}
	h := &matcher.Hit{Record: rec, Start: start, End: start + len(line), Line: line}
	if d.Cause != nil {
		d.Context = append([]matcher.Hit{*d.Cause}, d.Context...)
	}
	d.Cause = h
	d.Role = rec.Role
	d.Signal = SignalRecord
	d.Key = rec.ID
	d.Headline = line
	d.Severity = maxSeverity(d.Severity, rec.Severity)
	d.Fragment = false
}

// underProcessHeader reads the header of a server process's exception
// ("Exception in run_tp_server:", "Scheduler hit an exception:", every
// wording entry.ProcessExceptionHeader knows) in front of a traceback no
// record matched, as a wrapper record would be read: it names the process
// that died, and over a traceback cut inside a phase sglang wraps, that
// phase's wrapper record leads (leadWithPhaseWrapper).
func (a *Analyzer) underProcessHeader(d *Diagnosis, e *entry.Entry) {
	if e.Traceback == nil || d.Cause != nil {
		return
	}
	name, ok := entry.ProcessExceptionHeader(e.Message)
	if !ok {
		if d.Exception != nil && d.Exception.Type == "" {
			// The traceback printed with no process header (a paste
			// that starts at it, a log whose header went elsewhere, a
			// record of the phase's own that took the bare traceback
			// after it): its frames still say the phase, as under a
			// header.
			a.leadWithPhaseWrapper(d, e)
		}
		return
	}
	if d.Triage.Process == "" {
		d.Triage.Process = processOfHeader(name)
	}
	if d.Exception != nil && d.Exception.Type == "" {
		a.leadWithPhaseWrapper(d, e)
	}
}

// processOfHeader names the process a process exception header names by
// its class or function: sglang's schedulers and the model workers and
// controllers of its first releases, which ran the model as the scheduler
// does now; its detokenizer, tokenizer manager and data parallel
// controller.
func processOfHeader(name string) string {
	switch {
	case strings.Contains(name, "Detokenizer"):
		return "detokenizer"
	case strings.Contains(name, "Tokenizer"):
		return "tokenizer manager"
	case strings.Contains(name, "DataParallelController"):
		return "data parallel controller"
	case strings.Contains(name, "Scheduler"), strings.Contains(name, "TpServer"), strings.Contains(name, "tp_server"),
		strings.Contains(name, "ModelRpc"), strings.Contains(name, "ModelWorker"), strings.Contains(name, "Controller"):
		return "scheduler"
	}
	return ""
}
