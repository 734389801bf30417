package incident

import (
	"strings"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// One crash, several exceptions. A process that fails on a classified
// cause often raises more on its way down: the request that ran into a
// cuBLAS allocation failure ends with "RuntimeError: Model generation
// returned no output", the HTTP server's wrapper re-raises, a launcher's
// pipe breaks. A traceback cut by a paste, or a chain whose "During
// handling of the above exception" line was lost, prints its links as
// separate entries: the first link's exception line alone, then the
// traceback of the last. Within one burst of one source:
//
//   - an exception no record names, read after a classified cause of its
//     burst (which began at or before it, and printed before it), is that
//     cause's consequence: listed in its incident, never paged alone
//     (causeBefore). One read before the cause stays its own incident:
//     what failed first may be what the classified line reports on;
//   - an exception line printed alone that a record names, followed within
//     a few lines (borrowedGap) and the settle time by a traceback another
//     record names, is the earlier link of that traceback's chain: the
//     traceback's record leads, as it does for a chain printed whole, and
//     the line is listed as its context (claimChained);
//   - two lines of one native library a record names are one event
//     whatever their levels: c10d's warning that the store is gone and its
//     error that a read of it failed, from two ranks (nativeEvent);
//   - a traceback no record names whose exception line carries no
//     message ("ImportError: " or "ValueError: the checks failed:"), its
//     message on the lines after it, followed within a few lines
//     (borrowedGap) and the settle time by a line a record names, is that
//     record's failure: the message the record matched is the
//     exception's. The record leads, and the traceback, its frames and
//     exception, is listed as its context (claimContinued), unless the
//     record names another exception class.
//
//   - a traceback no record names whose exception line (type and
//     message) is that of a traceback no record names printed before it
//     in its burst is the same failure raised again: by the caller that
//     waited on a worker's future or a pool's result, by a remote call's
//     client, by a framework that logs what it re-raises. So is one whose
//     message ends with that traceback's message, in an exception of its
//     own ("Exception: Error executing request 7: <the message>"). It is
//     listed in the first one's incident, which shows where it was raised
//     (raisedBefore).
//
//   - a classified exception that relays a native library's failure
//     (torch_npu's "HCCL function error: hcclCommInitRootInfoConfig(...),
//     error code is 4"), followed within a few lines (borrowedGap) and the
//     settle time by a CANN block whose documented error code a record
//     names ("EJ0001: ... Failed to initialize the HCCP process"), is
//     that code's failure: the code says in CANN's own words why the call
//     failed, so its record leads and the exception is listed as its
//     context (claimRelayed). An internal x9999 code says no such thing.
//   - an exception no record names printed just after (borrowedGap) a
//     CANN block no record reads, within its burst, is what torch_npu
//     raises for that block ("RuntimeError: ACL stream synchronize
//     failed, error code:507053" after "EZ9999  [Init][Env]init env
//     failed!"): listed in the block's incident, whose detail line names
//     the cause (blockBefore).
//
// Two exceptions no record names that say different things stay two
// incidents, whatever their timing; so do two classified tracebacks.

// causeBefore returns the classified cause of the burst b that began at or
// before it, and, from the same source, began to be printed before it; nil
// when there is none. Where the cause's incident ends says nothing: the
// other ranks' lines of the same cause, interleaved with this rank's,
// extend it past what this rank printed after its own.
func (g *Grouper) causeBefore(b burst) *group {
	c := g.findClassified(b, "")
	if c == nil || c.At.After(b.from) || c.Source == b.source && c.Off >= b.off {
		return nil
	}
	return c
}

// claimChained makes the settling classified causes that are an exception
// line printed alone just before the classified traceback gr context of
// gr: the earlier links of its chain.
func (g *Grouper) claimChained(gr *group) {
	if !g.genericFolds() || !gr.Traced || !classifiedCause(gr) || gr.Source == "" {
		return
	}
	g.absorbJustBefore(gr, g.sourceCauses(causeKey(gr)), func(a *group) bool {
		return a.Bare && classifiedCause(a) && a.End < gr.Off
	})
}

// absorbJustBefore makes the settling incidents among members that keep
// accepts, printed at most borrowedGap before gr and within its settle
// time, context of gr.
func (g *Grouper) absorbJustBefore(gr *group, members []member, keep func(a *group) bool) {
	folded := false
	for _, m := range members {
		a := m.gr
		if a == gr || !a.Settling || a.At.After(gr.At) || gr.At.Sub(a.last()) > g.opts.Settle ||
			gr.Off-a.End > borrowedGap || !keep(a) {
			continue
		}
		gr.absorbWrapper(a, &g.stats)
		g.remove(m.id)
		folded = true
	}
	if folded {
		g.touch(gr)
	}
}

// nativeEvent returns the earliest incident of the burst b that is a line
// of the same native library (b.kind) a record of role cause names,
// whatever its severity: the first line of the event that the line b is
// looked up for belongs to. skip is a fingerprint to leave out.
func (g *Grouper) nativeEvent(b burst, skip string) *group {
	if b.source == "" || b.kind == "" {
		return nil
	}
	var best *group
	for _, m := range g.sourceMembers(g.nativeBySource, sourceKey{b.scope, b.source}) {
		c := m.gr
		if m.id == skip || !namedCause(c) || c.NativeKind != b.kind || !g.inBurst(c, b) ||
			c.Alert.Record.Role != string(patterns.RoleCause) || sinks.SeverityRank(c.Alert.Record.Severity) < sinks.SeverityRank("warning") {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// claimRelayed makes the settling exceptions printed just before the CANN
// block gr that names its cause context of gr (see above): classified
// ones under a documented code's record, ones no record names under a
// documented code or an internal code's detail.
func (g *Grouper) claimRelayed(gr *group) {
	if !g.genericFolds() || gr.Source == "" || gr.NativeKind != entry.NativeAscend {
		return
	}
	switch {
	case documentedCode(gr.NativeKind, &gr.Alert) && namedCause(gr):
		g.absorbJustBefore(gr, g.sourceCauses(causeKey(gr)), func(a *group) bool {
			return relays(a, gr.Off)
		})
	case !innerDetail(gr.NativeKind, &gr.Alert):
		return
	}
	g.absorbJustBefore(gr, g.sourceMembers(g.failBySource, causeKey(gr)), func(a *group) bool {
		return relaysUnread(a, gr.Off)
	})
}

// innerDetail reports whether the alert a, of a line of native shape
// kind, is a CANN block no record reads led by the line that names its
// cause under an internal code (analysis.CANNDetail).
func innerDetail(kind string, a *sinks.Alert) bool {
	return kind == entry.NativeAscend && a.Record.ID == "" && analysis.CANNDetail(a.Match.Text)
}

// relaysUnread reports whether a is an exception no record names, not a
// native library's line, printed before off.
func relaysUnread(a *group, off int64) bool {
	x := a.Alert.Match.Exception
	return !a.Native && a.Alert.Record.ID == "" && !a.Generic && !a.Consequence && x != nil && x.Type != "" && a.End <= off
}

// documentedCode reports whether the alert a, of a line of native shape
// kind, is a cause record's match on a CANN documented error code's line.
func documentedCode(kind string, a *sinks.Alert) bool {
	return kind == entry.NativeAscend && a.Record.Role == string(patterns.RoleCause) &&
		sinks.SeverityRank(a.Record.Severity) >= sinks.SeverityRank("error") && analysis.CANNDocumented(a.Match.Text)
}

// blockBefore returns the incident of a CANN block no record reads that
// ended at most borrowedGap before the burst b began, in its source and
// burst; nil when there is none (see above).
func (g *Grouper) blockBefore(b burst) *group {
	if b.source == "" {
		return nil
	}
	var best *group
	for _, m := range g.sourceMembers(g.blockBySource, sourceKey{b.scope, b.source}) {
		c := m.gr
		if !c.Native || c.NativeKind != entry.NativeAscend || c.Alert.Record.ID != "" ||
			c.End > b.off || b.off-c.End > borrowedGap || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.End > best.End {
			best = c
		}
	}
	return best
}

// documentedOccurrence reports whether o, completed, is a cause record's
// match on a CANN documented error code's line (documentedCode).
func documentedOccurrence(o *Occurrence) bool {
	if !o.Native || o.NativeKind != entry.NativeAscend {
		return false
	}
	o.Complete()
	return documentedCode(o.NativeKind, &o.Alert)
}

// detailOccurrence reports whether o, completed, is a CANN block no record
// reads led by its internal code's detail (innerDetail).
func detailOccurrence(o *Occurrence) bool {
	if !o.Native || o.NativeKind != entry.NativeAscend {
		return false
	}
	o.Complete()
	return innerDetail(o.NativeKind, &o.Alert)
}

// relays reports whether a is a classified exception, not a native
// library's line, printed before off: one that may relay the failure a
// native block printed at off explains.
func relays(a *group, off int64) bool {
	return !a.Native && classifiedCause(a) && a.Alert.Match.Exception != nil && a.Alert.Match.Exception.Type != "" && a.End <= off
}

// claimContinued makes the settling unclassified tracebacks whose
// exception message continues on the lines after them, printed just
// before the classified cause gr, context of gr (see above).
func (g *Grouper) claimContinued(gr *group) {
	if !g.genericFolds() || !classifiedCause(gr) || gr.Source == "" {
		return
	}
	g.absorbJustBefore(gr, g.sourceMembers(g.failBySource, causeKey(gr)), func(a *group) bool {
		return continues(a) && !refusedClass(gr.Alert.Record.ErrorClass, a.Alert.Match.Exception.Type) && a.End <= gr.Off
	})
}

// continues reports whether gr is an exception no record names whose
// exception line carries no message of its own, or only the start of
// one that a colon says goes on: Python prints a message that begins with
// a line break, or spans several lines, after the type, on lines of its
// own.
func continues(gr *group) bool {
	x := gr.Alert.Match.Exception
	if gr.Alert.Record.ID != "" || x == nil || x.Type == "" {
		return false
	}
	msg := strings.TrimSpace(x.Message)
	return msg == "" || strings.HasSuffix(msg, ":")
}

// raisedBefore returns the incident of a traceback no record names that
// the traceback o, no record naming it either, raises again: begun before
// it in its source (as for causeBefore, where the incident ends says
// nothing), within its burst b, with the same exception line, a message
// included. Nil when there is none.
func (g *Grouper) raisedBefore(o *Occurrence, b burst) *group {
	x := o.Alert.Match.Exception
	if b.source == "" || o.Alert.Record.ID != "" || x == nil || x.Type == "" || strings.TrimSpace(x.Message) == "" {
		return nil
	}
	var best *group
	g.raisedMembers(raiseKey{sourceKey{b.scope, b.source}, x.Type, x.Message}, func(c *group) {
		if c.Alert.Record.ID != "" || c.Off >= b.off || !g.inBurst(c, b) {
			return
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	})
	if best == nil {
		best = g.carriedBefore(x.Message, b)
	}
	return best
}

// carriedBefore returns the incident of a traceback no record names,
// begun before the burst b in its source and within it, whose exception's
// message the message msg of a later exception ends with: the caller
// that waited on the failed work raised its own exception and put the
// failure's message in it ("Exception: Error executing request 7:
// 'LoRALayer' object has no attribute 'weight'" after that
// AttributeError). Only a message long enough to be one failure's
// (minRestated) is read so. Nil when there is none.
func (g *Grouper) carriedBefore(msg string, b burst) *group {
	msg = strings.TrimSpace(msg)
	if len(msg) <= minRestated {
		return nil
	}
	var best *group
	for _, m := range g.sourceMembers(g.failBySource, sourceKey{b.scope, b.source}) {
		c := m.gr
		x := c.Alert.Match.Exception
		if !c.Traced || x == nil || x.Type == "" || c.Off >= b.off || !g.inBurst(c, b) {
			continue
		}
		inner := strings.TrimSpace(x.Message)
		if len(inner) < minRestated || len(inner) >= len(msg) || !strings.HasSuffix(msg, inner) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// raiseKey is an unclassified traceback's key in Grouper.failByRaise: its
// source and its exception line.
type raiseKey struct {
	sourceKey
	typ, msg string
}

// raiseKeyOf returns gr's key in Grouper.failByRaise; false when gr is no
// traceback whose exception line has a type and a message.
func raiseKeyOf(gr *group) (raiseKey, bool) {
	x := gr.Alert.Match.Exception
	if !gr.Traced || x == nil || x.Type == "" || strings.TrimSpace(x.Message) == "" {
		return raiseKey{}, false
	}
	return raiseKey{causeKey(gr), x.Type, x.Message}, true
}

// raisedMembers calls fn with each open incident indexed under key in
// Grouper.failByRaise, forgetting those closed or changed since.
func (g *Grouper) raisedMembers(key raiseKey, fn func(*group)) {
	m := g.failByRaise[key]
	for id := range m {
		gr, ok := g.groups[id]
		if !ok {
			delete(m, id)
			continue
		}
		if k, indexed := raiseKeyOf(gr); !indexed || k != key {
			delete(m, id)
			continue
		}
		fn(gr)
	}
	if len(m) == 0 {
		delete(g.failByRaise, key)
	}
}
