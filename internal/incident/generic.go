package incident

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// Generic lines. A failure is often announced first by a line that says
// only that something failed: a router's "ERROR ... request failed with
// server error", a client's "Error: Server error '503 Service
// Unavailable' for url ...", any bare ERROR record no record names
// (Occurrence.Generic). The line that says why (the router's "No
// available workers") comes a line or two later. Paging the generic line
// first, and the cause second, puts the operator on the wrong track.
//
// The rule: within one burst a classified cause outranks the generic
// lines around it. A generic incident and a classified cause are of one
// burst when they come from the same source (Occurrence.SourceKey: one
// file, one container's stream) and the generic line's occurrences lie
// within the settle time of the cause's, before or after them. A
// classified cause is an incident of a record with role cause (no
// wrapper, no consequence) of severity error or more. Then:
//
//   - the generic incident is folded into the cause's and listed among
//     its consequences, with its count, ranks and times; it raises the
//     cause's severity as any consequence does, and is never paged on
//     its own;
//   - a generic incident settling when its cause arrives is folded at
//     once, so the first alert leads with the cause; one whose settle
//     time ends with a cause in its burst is folded then; a generic line
//     read after its cause is folded as it is read (into the cause's
//     next alert when the cause was already announced);
//   - a generic incident already announced stays announced and keeps
//     its own repeats: nothing is paged twice and no alert is lost;
//   - what the generic incident held (consequences, context) moves with
//     it to the cause;
//   - a consequence whose burst holds both a classified cause and a
//     generic line folds into the cause, and so does a lone wrapper.
//
// A native warning no record names (NCCL WARN, UCX WARN) is generic too:
// around a named cause it is the same failure seen from another rank or
// layer. A traceback with frames, a native error and a diagnosis framed
// by a wrapper are never generic: an unclassified exception that is itself
// the failure stays its own incident, whatever record follows it; a
// warning or info record is no classified cause. Without a settle time
// (nothing waits) or without correlation the rule is off.
//
// One warning is a generic line's cause all the same: a request the
// server refused (a record tagged "request": a prompt longer than the
// context, a bad parameter), which a client logs with the status and the
// body, then again in its own words ("error occurs at <url>", "request
// failed"). A generic line with neither a classified cause nor an
// unclassified failure in its burst folds into such a refusal of its
// source and burst (refusedRequest), and raises its severity as any
// consequence does; it is never paged apart from the request it reports.

// One event, several native lines. A native library reports one failure
// in several lines: a transfer engine's glog burst ("Error from http
// client", "Failed to open segment", "Failed to submit transfer
// operation"), UCX's errors before the segfault they lead to, a CANN error
// block under the Python exception that surfaced it. Within one burst (the
// same source, within the settle time) they are one incident:
//
//   - an unclassified native error line (a glog E line, a UCX or CANN
//     ERROR no record names) is claimable like a generic line: it is
//     folded into the classified cause of its burst;
//   - two classified causes of one burst, one of them a native line, are
//     one incident led by the earlier: the later is listed among its
//     consequences, and its ranks and exception join the incident.
//
// Two causes of one burst that are both Python tracebacks stay two
// incidents, and so do two unclassified failures: what tells them apart is
// their own text, not their timing. chain.go says when the exceptions of
// one burst are one crash: an unclassified one after a classified cause, an
// exception line alone before the traceback of its chain, one library's
// lines of one event at any level.

// claimable reports whether gr yields the lead to the classified cause of
// its burst: a generic line, or a native error line no informed record
// names (unclassified, or named by a record without solutions, such as
// one "logmatch patterns gen" drafted from a bare "Transfer failed": it
// names the line, not the cause, as namedCause says).
func claimable(gr *group) bool {
	uninformed := gr.Alert.Record.ID == "" || len(gr.Alert.Record.Solutions) == 0 && gr.Alert.Record.Role == string(patterns.RoleCause)
	return gr.Generic || gr.Native && uninformed && !gr.Consequence && !loneWrapper(gr)
}

// joinsBurst reports whether the occurrence o, which opens no incident of
// its own yet, is folded into the classified cause of its burst: a
// generic line, an unclassified native error line, or a classified cause
// of the same event (one of the two a native line).
func (g *Grouper) joinsBurst(o *Occurrence, cause *group) bool {
	switch {
	case o.Generic:
		return true
	case o.Fragment || o.Alert.Record.Role == string(patterns.RoleWrapper):
		return false
	case o.Alert.Record.ID == "":
		// A native line of the event, or an exception read after its
		// burst's classified cause (causeBefore found only those).
		return true
	case o.Alert.Record.Role != string(patterns.RoleCause):
		return false
	case o.Native && cause.Native && o.NativeKind == cause.NativeKind:
		// One library's lines of one event (nativeEvent).
		return true
	}
	return (o.Native || cause.Native) && sinks.SeverityRank(o.Alert.Record.Severity) >= sinks.SeverityRank("error")
}

// genericFolds reports whether generic lines are folded into causes.
func (g *Grouper) genericFolds() bool {
	return g.opts.Correlation > 0 && g.opts.Settle > 0 && g.opts.Window != 0
}

// classifiedCause reports whether gr can outrank a generic line: the
// incident of a record of role cause, of severity error or more.
func classifiedCause(gr *group) bool {
	return namedCause(gr) && canBeRoot(gr)
}

// namedCause reports whether gr is the incident of a record of role
// cause, whatever its severity (which folding may raise), that says what
// to do: a record without solutions (one "logmatch patterns gen" drafted)
// names the line but is no better a lead than the failure's own
// diagnosis, so it never takes over the failures of its burst, as it never
// displaces an informed record on the same line.
func namedCause(gr *group) bool {
	return !gr.Consequence && !gr.Generic && gr.Alert.Record.ID != "" &&
		gr.Alert.Record.Role == string(patterns.RoleCause) && len(gr.Alert.Record.Solutions) > 0
}

// sourceKey keys Grouper.causeBySource: a scope and a source in it.
type sourceKey struct{ scope, source string }

// causeKey is the key of gr in Grouper.causeBySource.
func causeKey(gr *group) sourceKey { return sourceKey{gr.Scope, gr.Source} }

// sourceCauses returns the open incidents indexed under key in
// Grouper.causeBySource, forgetting those closed since.
func (g *Grouper) sourceCauses(key sourceKey) []member { return g.sourceMembers(g.causeBySource, key) }

// sourceMembers returns the open incidents indexed under key in index (one
// of the Grouper's by-source indexes), forgetting those closed since.
func (g *Grouper) sourceMembers(index map[sourceKey]map[string]struct{}, key sourceKey) []member {
	m := index[key]
	if len(m) == 0 {
		return nil
	}
	out := make([]member, 0, len(m))
	for id := range m {
		gr, ok := g.groups[id]
		if !ok || causeKey(gr) != key {
			delete(m, id)
			continue
		}
		out = append(out, member{id, gr})
	}
	return out
}

// last is the correlation time of gr's latest occurrence; At for an
// incident restored from a state that did not record it.
// beganBefore reports whether gr began before o: earlier in time, or at
// the same time and read first.
func (gr *group) beganBefore(o *group) bool {
	return gr.At.Before(o.At) || gr.At.Equal(o.At) && gr.Seq < o.Seq
}

func (gr *group) last() time.Time {
	if gr.Last.After(gr.At) {
		return gr.Last
	}
	return gr.At
}

// findClassified returns the open classified cause of scope and source
// that occurrences of a generic line between from and to are of one burst
// with, or nil: the earliest such cause, where the burst began. skip is a
// fingerprint to leave out. Only the causes of that scope and source are
// looked at, from their own index: at most one incident per record, so a
// new generic line costs the same among thousands of open incidents.
func (g *Grouper) findClassified(b burst, skip string) *group {
	return g.findCauseIn(g.causeBySource, b, skip)
}

// burst is what the burst rules compare a candidate with: the scope and
// source of a line or an incident, when it happened (from, to) and where
// in its source (off, end).
type burst struct {
	scope, source string
	from, to      time.Time
	off, end      int64
	// kind is the native shape of the line the burst is looked up for
	// (Occurrence.NativeKind), "" for another.
	kind string
	// lineEnd is where the line after it begins when it is one line whose
	// text is known (see adjacentBefore), else 0.
	lineEnd int64
}

// burstOf is the burst of the incident gr.
func burstOf(gr *group) burst {
	b := burst{gr.Scope, gr.Source, gr.At, gr.last(), gr.Off, gr.End, gr.NativeKind, 0}
	if gr.Borrowed {
		b.lineEnd = lastLineEnd(gr)
	}
	return b
}

// lastLineEnd is where the line after the incident gr begins in its
// source, as far as its text tells: past the last line of its entry (the
// entry's text as the alert keeps it, or its matched line for a one-line
// entry); 0 when neither is known.
func lastLineEnd(gr *group) int64 {
	line := gr.Alert.Entry
	if line == "" && gr.Off == gr.End {
		line = lineOf(gr)
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
	}
	if line == "" {
		return 0
	}
	line = strings.TrimRight(line, "\n")
	return gr.End + int64(len(line)-strings.LastIndexByte(line, '\n'))
}

// maxBurstGap is how many bytes of a source may separate two failures of
// one burst: the other ranks' tracebacks and a few lines around them, not
// a stretch of healthy serving.
const maxBurstGap = 32 << 10

// inBurst reports whether the incident c is of the burst b: within the
// settle time of it and, from the same source, not separated from it by
// more than maxBurstGap bytes of that source.
func (g *Grouper) inBurst(c *group, b burst) bool {
	if adjacentBefore(b, c) {
		return true
	}
	if b.to.Before(c.At.Add(-g.opts.Settle)) || b.from.After(c.last().Add(g.opts.Settle)) && !g.borrowedJustBefore(c, b) {
		return false
	}
	return c.Source != b.source || gapBetween(c.Off, c.End, b.off, b.end) <= maxBurstGap
}

// adjacentBefore reports whether the burst b, whose time was borrowed
// from a line before it, was printed right before the incident c in their
// source, not a line between them: a runtime's "terminate called after
// throwing" line and the exception it announces. Its time is only a lower
// bound, and nothing says any time passed between the two, whatever c's
// own time says (a glog line's guessed year puts it months away).
func adjacentBefore(b burst, c *group) bool {
	return b.lineEnd > 0 && b.source != "" && b.source == c.Source && c.Off > b.end && c.Off <= b.lineEnd+adjacentSlack
}

// adjacentSlack is how many bytes past the end of a line's text (as read:
// a carriage return, a collector's prefix taken off, a blank line the
// entry ended with) the next line may begin and still be the line right
// after it.
const adjacentSlack = 48

// borrowedGap is how many bytes of a source may separate an incident
// whose time was borrowed from the line printed after it, for that line
// to be of its burst whatever their times say (see borrowedJustBefore):
// a few dozen lines, not a stretch of serving.
const borrowedGap = 4 << 10

// borrowedJustBefore reports whether c, whose time was borrowed from a
// line before it (Occurrence.Borrowed: native lines without a timestamp,
// a traceback under another writer's header), was printed just before b
// in the same source. Its time is only a lower bound: it happened at
// most when b did, so b is of its burst as long as it comes within the
// correlation window and borrowedGap bytes.
func (g *Grouper) borrowedJustBefore(c *group, b burst) bool {
	return c.Borrowed && c.Source == b.source && c.End <= b.off && b.off-c.End <= borrowedGap &&
		!b.from.After(c.last().Add(g.opts.Correlation))
}

// gapBetween is the number of bytes between two ranges of a source, 0
// when they overlap.
func gapBetween(aOff, aEnd, bOff, bEnd int64) int64 {
	return max(bOff-aEnd, aOff-bEnd, 0)
}

// spanTo extends gr's range of its source to take in [off, end].
func (gr *group) spanTo(off, end int64) {
	if off < gr.Off {
		gr.Off = off
	}
	if end > gr.End {
		gr.End = end
	}
}

// findCauseIn is findClassified over the causes of one by-source index:
// Grouper.causeBySource, or Grouper.nativeBySource for the native lines
// among them, which a classified cause of another kind looks through for
// the native line of its event (see joinsBurst).
func (g *Grouper) findCauseIn(index map[sourceKey]map[string]struct{}, b burst, skip string) *group {
	return g.earliestInBurst(index, b, skip, classifiedCause)
}

// refusedRequest reports whether gr is the incident of a record of role
// cause that says what to do about a request the server refused or failed
// (tagged "request"), whatever its severity.
func refusedRequest(gr *group) bool {
	return namedCause(gr) && slices.Contains(gr.Alert.Record.Tags, "request")
}

// findRefusal returns, for a generic line with no classified cause and no
// unclassified failure in its burst b, the earliest refused request of its
// source and burst (see refusedRequest), or nil. skip is a fingerprint to
// leave out.
func (g *Grouper) findRefusal(b burst, skip string) *group {
	return g.earliestInBurst(g.causeBySource, b, skip, refusedRequest)
}

// earliestInBurst returns the earliest incident of b's source in index,
// within burst b, for which is holds, or nil; skip is a fingerprint to leave
// out.
func (g *Grouper) earliestInBurst(index map[sourceKey]map[string]struct{}, b burst, skip string, is func(*group) bool) *group {
	if b.source == "" {
		return nil
	}
	var best *group
	for _, m := range g.sourceMembers(index, sourceKey{b.scope, b.source}) {
		c := m.gr
		if m.id == skip || !is(c) || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// causeOfGeneric is the incident the generic incident gen (fingerprint
// id) folds into when a cause arrives or its settle time ends: the
// classified cause of its burst, else a refused request of it.
func (g *Grouper) causeOfGeneric(gen *group, id string) *group {
	cause := g.findClassified(burstOf(gen), id)
	if cause == nil && gen.Generic && g.findFailure(burstOf(gen), id) == nil {
		cause = g.findRefusal(burstOf(gen), id)
	}
	return cause
}

// findFailure returns, for a generic line with no classified cause in its
// burst, the unclassified failure of its burst that says more than it: the
// earliest open incident of scope and source, within the settle time, of
// a traceback or a native error line (no generic line, no consequence, no
// fragment), error or worse. A router's "server returned error status
// 500" next to the transfer engine's own error line is that error's
// consequence, whether a record names the error or not.
func (g *Grouper) findFailure(b burst, skip string) *group {
	if b.source == "" {
		return nil
	}
	var best *group
	// From their own index, as findClassified: a generic line among
	// thousands of open incidents looks at its source's failures only.
	for _, m := range g.sourceMembers(g.failBySource, sourceKey{b.scope, b.source}) {
		c := m.gr
		if m.id == skip || !unclassifiedFailure(c) || !canBeRoot(c) || !g.inBurst(c, b) {
			continue
		}
		if b.kind != "" && c.Native && !sameLibrary(b.kind, c.NativeKind) && c.At.After(b.from) {
			// Another library's line that happened after this one (its
			// writer's buffer printed it first): this one is where the
			// event began, and leads its own incident.
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// earlierFailure returns, for the unclassified native line gen
// (fingerprint id) with no classified cause in its burst, the unclassified
// failure of its burst that began before it: the native lines of one
// event ("terminate called ..." then "Fatal Python error: Aborted"), or a
// traceback and the native crash after it, are one incident led by the
// first. Nil when gen began its burst.
func (g *Grouper) earlierFailure(gen *group, id string) *group {
	if !gen.Native || gen.Generic || gen.Alert.Record.ID != "" {
		return nil
	}
	c := g.findFailure(burstOf(gen), id)
	if c == nil || c.At.After(gen.At) || c.At.Equal(gen.At) && c.Seq > gen.Seq {
		return nil
	}
	return c
}

// saidAfter returns, for the unclassified native line gen (fingerprint
// id) that only says something failed (vagueNative: a transfer engine's
// "Transfer failed for task1", logged at each retry), the unclassified
// line of the same library, source and burst, printed after it, that says
// what failed and why (statesWhy: "TcpTransport: ASIO exception: connect:
// Connection refused"): the earliest such one still settling. The library reports
// the task's failure as it happens and its cause when the layer below
// gives up; the cause leads, and gen is listed in its incident. Nil when
// gen says more or there is none.
func (g *Grouper) saidAfter(gen *group, id string) *group {
	if !gen.Native || gen.Generic || gen.Alert.Record.ID != "" || gen.NativeKind == "" || gen.Source == "" || !vagueNative(lineOf(gen)) {
		return nil
	}
	b := burstOf(gen)
	var best *group
	for _, m := range g.sourceMembers(g.failBySource, causeKey(gen)) {
		c := m.gr
		if m.id == id || !c.Native || c.NativeKind != gen.NativeKind || !c.Settling || !canBeRoot(c) || !gen.beganBefore(c) ||
			!g.inBurst(c, b) || !statesWhy(lineOf(c)) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// saysWhatFailedAfter reports whether the unclassified native occurrence o says
// what failed where the settling unclassified line c of the same library,
// printed before it, only said that something failed (see saidAfter).
func saysWhatFailedAfter(o *Occurrence, c *group) bool {
	if !o.Native || o.Generic || o.Alert.Record.ID != "" || o.NativeKind == "" || !c.Native || c.NativeKind != o.NativeKind ||
		!c.Settling || c.Alert.Record.ID != "" || !vagueNative(lineOf(c)) {
		return false
	}
	o.Complete()
	return statesWhy(lineOfAlert(&o.Alert))
}

// statesWhy reports whether the native line says what failed and why: not
// only that something failed (vagueNative), and with a detail after a
// colon, as libraries write their reasons ("TcpTransport: ASIO exception:
// connect: Connection refused"); a retry's summary ("transfer_incomplete
// max_attempts=3") gives none.
func statesWhy(line string) bool {
	return !vagueNative(line) && strings.Contains(nativeMessage(line), ": ")
}

// claimGenerics folds into the new classified cause gr the settling
// generic incidents of its burst.
func (g *Grouper) claimGenerics(cause *group) {
	if !g.genericFolds() || !classifiedCause(cause) && !refusedRequest(cause) {
		return
	}
	var ids []string
	// Only the generic incidents of the scope are looked at, from their
	// own index: a new incident among thousands must not walk them all.
	for _, m := range g.members(g.genByScope, cause.Scope) {
		if m.gr.Settling {
			ids = append(ids, m.id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(g.groups[a].Seq, g.groups[b].Seq) })
	folded := false
	for _, id := range ids {
		gen := g.groups[id]
		if g.causeOfGeneric(gen, id) != cause || leadsDeathRecord(gen, cause) || leadsErrnoRecord(gen, cause) {
			// An error line before a process's death leads it when
			// its settle time is over (foldGenericsOf).
			continue
		}
		cause.absorbGeneric(gen, &g.stats)
		g.remove(id)
		folded = true
	}
	if folded {
		g.touch(cause)
	}
}

// foldGenerics folds the settling generic incidents whose settle time is
// over (all of them at Flush) into the classified cause of their burst.
func (g *Grouper) foldGenerics(now time.Time, all bool) { g.foldGenericsOf(now, all, "") }

// foldGenericsOf is foldGenerics for the generic incidents of source only,
// or of every source when it is "".
func (g *Grouper) foldGenericsOf(now time.Time, all bool, source string) {
	if !g.genericFolds() {
		return
	}
	// From their own index, like claimGenerics: a Tick does not sort
	// every open incident for the few generic ones.
	var ids []string
	for scope := range g.genByScope {
		for _, m := range g.members(g.genByScope, scope) {
			if m.gr.Settling && (all || g.due(m.gr, now)) && (source == "" || m.gr.Source == source) {
				ids = append(ids, m.id)
			}
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(g.groups[a].Seq, g.groups[b].Seq) })
	for _, id := range ids {
		gen := g.groups[id]
		if gen == nil {
			continue
		}
		cause := g.findClassified(burstOf(gen), id)
		if cause != nil && (leadsDeathRecord(gen, cause) || leadsErrnoRecord(gen, cause)) {
			// A record that reads only the process's death (the
			// shell's segfault report), or only the error number a
			// call returned, after the error line that says what
			// failed: that line leads, as over an unread death.
			g.leadKill(gen, id, cause)
			continue
		}
		if cause == nil && gen.Generic {
			cause = g.findFailure(burstOf(gen), id)
			if cause != nil && (killedFor(gen, cause) || diedAfter(gen, cause) || namedBefore(gen, cause)) {
				// The tasks a supervisor ended, after its report of
				// why, or the process's death after its error line:
				// that line leads.
				g.leadKill(gen, id, cause)
				continue
			}
		}
		if cause == nil && gen.Generic {
			cause = g.findRefusal(burstOf(gen), id)
		}
		if cause == nil {
			cause = g.earlierFailure(gen, id)
		}
		if cause == nil {
			// A line that only says its task failed, before its
			// library's line that says what failed.
			cause = g.saidAfter(gen, id)
		}
		if cause == nil {
			// c10d's "Stack trace of the failed collective not found"
			// beside its "failure detected by watchdog": a detail of
			// the consequence's event.
			cause = g.detailOf(gen, id)
		}
		if cause == nil {
			// NCCL's next WARN line of the event its first WARN line
			// began (see fold.go).
			cause = g.warnEventBefore(gen, id)
		}
		if cause == nil {
			// A line that only says its task failed, beside a line of
			// its burst that says what failed (see restate.go).
			cause = g.vaguePeer(gen, id)
		}
		if cause == nil {
			// The same message logged, then printed again as the
			// process exits with it (see restate.go).
			cause = g.restatedEarlier(gen, id)
		}
		if cause == nil {
			// Its library's next line, printed after a wait.
			cause = g.nextOfLibrary(gen, id)
		}
		if cause == nil {
			// A line that only says its task failed, beside the line
			// a consequence record reads (see restate.go).
			cause = g.saidNear(gen, id)
		}
		if cause != nil {
			cause.absorbGeneric(gen, &g.stats)
			g.remove(id)
			g.touch(cause)
		}
	}
}

// nextOfLibrary returns, for the unclassified fatal native line gen
// (fingerprint id) with nothing in its burst that says more, the incident
// of a line a record names that the same library printed just before it
// in the same source (within borrowedGap bytes), for the same rank, at
// most the correlation window earlier; nil when there is none. A library
// that reports a failure may wait before it ends the process: c10d's
// heartbeat monitor finds the watchdog stuck, dumps its debug information
// for minutes, then aborts with a FATAL line. Nothing else printed
// between the two, the wait is the library's own, not a stretch of
// healthy serving: the abort ends the same event. A line that does not
// end the process (an error, a warning) after such a silence may be a
// new failure, and stays apart.
func (g *Grouper) nextOfLibrary(gen *group, id string) *group {
	if !gen.Native || gen.NativeKind == "" || gen.Alert.Record.ID != "" || gen.Source == "" ||
		gen.Alert.Record.Severity != string(patterns.SeverityCritical) {
		return nil
	}
	var best *group
	consider := func(ms []member) {
		for _, m := range ms {
			c := m.gr
			if m.id == id || !c.Native || c.NativeKind != gen.NativeKind || c.Alert.Record.ID == "" || c.Source != gen.Source ||
				c.End >= gen.Off || gen.Off-c.End > borrowedGap || gen.At.Before(c.At) || gen.At.After(c.last().Add(g.opts.Correlation)) ||
				c.Alert.FirstRank != gen.Alert.FirstRank {
				continue
			}
			if best == nil || c.End > best.End {
				best = c
			}
		}
	}
	consider(g.sourceMembers(g.nativeBySource, causeKey(gen)))
	consider(g.scopeConsequences(gen.Scope))
	return best
}

// absorbGeneric lists the generic incident gen among gr's consequences,
// with what gen held.
func (gr *group) absorbGeneric(gen *group, st *Stats) {
	gr.foldAlert(&gen.Alert, st)
	gr.spanTo(gen.Off, gen.End)
	gr.takeFrom(&gen.Alert, gen.Native)
	gr.takeListed(gen, st)
	if gen.LastSeen.After(gr.LastSeen) {
		gr.LastSeen = gen.LastSeen
	}
}

// takeListed moves into gr what the incident from, folded into gr, lists:
// its consequences (counted as folded when from took them) and its
// context. A burst's signals may gather under one of them before its
// cause is read (consequences under a wrapper alone, a fragment or the
// first consequence); none is lost when that one yields to the cause.
func (gr *group) takeListed(from *group, st *Stats) {
	folded, unlisted := st.Folded, st.Unlisted
	for i := range from.Alert.Consequences {
		x := &from.Alert.Consequences[i]
		gr.foldAlert(&sinks.Alert{
			Record:   sinks.Record{ID: x.ID, Slug: x.Slug, Severity: x.Severity},
			Headline: x.Headline, Count: x.Count, Time: x.Time, LastTime: x.LastTime,
			Fingerprint: x.Fingerprint, Ranks: x.Ranks,
		}, st)
	}
	st.Folded, st.Unlisted = folded, unlisted
	gr.Unlisted += from.Unlisted
	for _, h := range from.Alert.Context {
		if !slices.ContainsFunc(gr.Alert.Context, func(c sinks.ContextHit) bool { return c.ID == h.ID }) {
			gr.Alert.Context = append(gr.Alert.Context, h)
		}
	}
}

// A supervisor's kill and the kills it caused. A scheduler or a monitor
// that ends a job says why in a line of its own ("slurmstepd: error: ***
// STEP 123.0 ON node3 CANCELLED AT ... DUE TO TIME LIMIT ***", a memory
// monitor's kill for memory pressure); the launcher then reports each
// task it lost by the signal alone ("srun: error: node3: tasks 0-3:
// Terminated"). The report of the signal is the failure line that first
// ranks, but the supervisor's line says what ended them: with no record
// naming it, it still leads, and the kill reports are listed in its
// incident (leadKill).

// killedFor reports whether the failure c, which the generic line gen
// would be folded into, is only the report of a kill by a signal
// ("tasks 0-3: Terminated", the shell's "Killed") of gen's source, not
// announced yet, where gen, no record naming it, says which supervisor
// ended the process and why (analysis.SupervisorKill).
func killedFor(gen, c *group) bool {
	return gen.Alert.Record.ID == "" && c.Alert.Record.ID == "" && c.Settling && c.Sent == 0 && c.Source != "" && c.Source == gen.Source &&
		signalReportOnly(lineOf(c)) && analysis.SupervisorKill(lineOf(gen))
}

// signalReportOnly reports whether line only reports that a process was
// ended by SIGKILL or SIGTERM: the shell's "Killed", a launcher's "...:
// Terminated".
func signalReportOnly(line string) bool {
	t := strings.TrimSpace(firstLine(line))
	if sig, ok := entry.ShellSignal(t); ok {
		return sig == "Killed" || sig == "Terminated"
	}
	return strings.HasSuffix(t, ": Terminated") || strings.HasSuffix(t, ": Killed")
}

// diedAfter reports whether the failure c, which the generic line gen
// would be folded into, only reports the process's own death (C++'s
// "terminate called after throwing ...", faulthandler's abort, the shell's
// "Aborted (core dumped)") printed after gen in gen's source,
// within borrowedGap bytes, where gen, no record naming either, is an
// error line that says what went wrong ("[E] Network has dynamic or shape
// inputs, but no optimization profile has been defined."), not only that
// something failed, nor a request's answer. A process's death says how it
// ended, never what failed first (see firstReportOf): the error line
// before it leads, and the death is listed in its incident. A death
// printed before the line, or an error line that only says a task failed,
// keeps the death's lead; so does a kill from outside ("Killed",
// "Terminated"), which an error line of the process does not explain.
func diedAfter(gen, c *group) bool {
	return gen.Alert.Record.ID == "" && (c.Alert.Record.ID == "" && c.Settling || deathRecord(&c.Alert.Record)) && c.Sent == 0 && c.Source != "" && c.Source == gen.Source &&
		gen.End <= c.Off && c.Off-gen.End <= borrowedGap && canBeRoot(gen) && !vagueLine(gen) && !gen.vagueHeadline() &&
		!analysis.AccessLine(lineOf(gen)) && deathShape(c.NativeKind) && !signalReportOnly(lineOf(c))
}

// leadsDeathRecord reports whether the generic line gen leads the failure
// c, a record that reads only the process's death printed after gen (see
// diedAfter and deathRecord), because gen says in words what failed.
func leadsDeathRecord(gen, c *group) bool {
	return gen.Generic && deathRecord(&c.Alert.Record) && diedAfter(gen, c) && saysInWords(lineOf(gen))
}

// A native library's error line says which call failed ("ibv_reg_mr(
// address=0x7f72..., length=4096) failed: Bad address", UCX's); the lines
// after it of the layers above report the same failure by the error
// number the OS answered with ("ucx send failed: Input/output error", Open
// MPI's), which a record of an errno's words reads. That record says what
// the OS answered, not which call: the native line before it leads, and
// the record's incident is listed in its own.

// leadsErrnoRecord reports whether gen, an unclassified native error line
// that says in words what failed, leads the failure c, a record that
// reads only an error number's words (errnoRecord), printed after gen in
// gen's source within borrowedGap bytes and not announced yet (see
// above).
func leadsErrnoRecord(gen, c *group) bool {
	return gen.Alert.Record.ID == "" && gen.Native && errnoRecord(&c.Alert.Record) && c.Sent == 0 && c.Source != "" &&
		c.Source == gen.Source && gen.End <= c.Off && c.Off-gen.End <= borrowedGap && canBeRoot(gen) && !vagueLine(gen) &&
		!gen.vagueHeadline() && saysInWords(lineOf(gen))
}

// errnoRecord reports whether r is a record of an error number's words
// (tagged errno: "Input/output error", "No such file or directory"),
// which an OS call answers whatever was called.
func errnoRecord(r *sinks.Record) bool {
	return r.ID != "" && slices.Contains(r.Tags, "errno")
}

// deathRecord reports whether r is a record that reads only a process's
// death by its own signal (the shell's "Segmentation fault (core
// dumped)", faulthandler's "Fatal Python error: Aborted"): a crash tagged
// for a segfault or an abort, which says how the process ended, not what
// failed. A record of what was thrown, of the native extension that
// crashed or of the kernel's report says more, and keeps its lead.
func deathRecord(r *sinks.Record) bool {
	if r.ID == "" {
		return false
	}
	crash, death := false, false
	for _, t := range r.Tags {
		switch t {
		case "crash":
			crash = true
		case "segfault", "abort", "faulthandler":
			death = true
		case "kernel", "glibc", "python", "distributed", "host":
			return false
		}
	}
	return crash && death
}

// minWords is how many distinct words saysInWords wants.
const minWords = 3

// saysInWords reports whether line says something in words: at least
// minWords distinct runs of three letters or more, "unknown" and a link's
// scheme not counted. A frame of a crash's own dump that a logger prints
// as an error line ("logging.cc:440: PC: @ 0x5266a0  (unknown)
// (unknown)", before faulthandler's "Fatal Python error: Segmentation
// fault"), its source file made a link or not, says where, not what
// failed.
func saysInWords(line string) bool {
	line = line[:min(len(line), maxPeerScan)]
	var seen [minWords]string
	n := 0
	for i := 0; i < len(line); {
		if !ascii.Letter(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && ascii.Letter(line[j]) {
			j++
		}
		w := line[i:j]
		i = j
		if len(w) < 3 || w == "unknown" || w == "http" || w == "https" || slices.Contains(seen[:n], w) {
			continue
		}
		seen[n] = w
		if n++; n >= minWords {
			return true
		}
	}
	return false
}

// namedBefore reports whether the failure c, which the exception line gen
// would be folded into, says less than gen of what failed: gen, an
// exception line no record names ("RuntimeError: CUDA error:
// CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)"), was
// printed before c in gen's source, within borrowedGap bytes, and its
// exception names a family of failure (the device, memory, the network, a
// file, an import), where c's (a traceback of the request or the task that
// failed with it: "RuntimeError: Model generation returned no output.")
// names none and has no root cause that could. The first line that says
// what failed leads; the traceback that only says its work failed is
// listed in its incident.
func namedBefore(gen, c *group) bool {
	gx, cx := gen.Alert.Match.Exception, c.Alert.Match.Exception
	return gen.Alert.Record.ID == "" && c.Alert.Record.ID == "" && c.Settling && c.Sent == 0 && c.Source != "" && c.Source == gen.Source &&
		gen.End <= c.Off && c.Off-gen.End <= borrowedGap && canBeRoot(gen) &&
		gx != nil && gx.Type != "" && analysis.ExceptionFamily(gx.Type, gx.Message) != "" &&
		cx != nil && cx.RootCause == "" && analysis.ExceptionFamily(cx.Type, cx.Message) == ""
}

// leadKill makes the generic line gen (fingerprint id), a supervisor's
// kill with its reason, lead the incident of the kill report c: a failure
// in its own right now, it takes c into its incident.
func (g *Grouper) leadKill(gen *group, id string, c *group) {
	g.unindexScope(id, gen)
	gen.Generic = false
	g.indexScope(id, gen)
	gen.foldIncident(c, &g.stats)
	g.absorbed(gen, c)
}
