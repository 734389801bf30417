package analysis

import (
	"slices"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// Some libraries' messages say what went wrong but not which failure it
// is: torch's "The size of tensor a (6144) must match the size of tensor
// b (3072) at non-singleton dimension 1" is a forward pass given a tensor
// of the wrong shape, unless it is raised while the checkpoint is read (a
// weight loader copying a checkpoint tensor into its parameter): then the
// checkpoint's tensor does not fit the model, and the record of that
// failure leads. The frames of the entry's traceback name the phase
// (TriageOf), as they do for a failure no record names.

// inPhase maps the tag of a record whose failure depends on the phase to
// the phase that changes it and the tag of the record that leads there.
var inPhase = []struct{ tag, phase, lead string }{
	{tag: "shape", phase: "loading weights", lead: "checkpoint-shape"},
}

// inPhaseRecord returns the record tagged tag in the catalog, nil when
// there is none or it is not for the analyser's engine. The records are
// looked up once per Analyzer.
func (a *Analyzer) inPhaseRecord(tag string, e *entry.Entry) *patterns.Record {
	if a.inPhaseRecs == nil {
		a.inPhaseRecs = map[string]*patterns.Record{}
		recs := a.m.Matcher().Records()
		for _, p := range inPhase {
			a.inPhaseRecs[p.lead] = nil
			for i := range recs {
				r := &recs[i]
				if slices.Contains(r.Tags, p.lead) && len(r.Solutions) > 0 && (r.Role == "" || r.Role.Is(patterns.RoleCause)) {
					a.inPhaseRecs[p.lead] = r
					break
				}
			}
		}
	}
	r := a.inPhaseRecs[tag]
	if r == nil || !r.ForEngine(a.entryEngine(e)) {
		return nil
	}
	return r
}

// leadInPhase makes the record of d's cause's failure in the phase its
// frames name the cause of d, on the same line.
func (a *Analyzer) leadInPhase(d *Diagnosis, e *entry.Entry) {
	c := d.Cause
	if c == nil || e.Traceback == nil {
		return
	}
	for _, p := range inPhase {
		if !slices.Contains(c.Record.Tags, p.tag) {
			continue
		}
		if TriageOf(e, d.Exception).Phase != p.phase {
			continue
		}
		rec := a.inPhaseRecord(p.lead, e)
		if rec == nil || rec == c.Record {
			return
		}
		hit := *c
		hit.Record = rec
		d.Cause = &hit
		d.Key = rec.ID
		d.Severity = rec.Severity
		return
	}
}
