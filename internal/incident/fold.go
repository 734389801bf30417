package incident

import (
	"cmp"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// Causal folding. One crash is reported by many processes: the rank that
// failed logs the cause, its parent relays the signal ("Received sigquit
// from a child process"), the peers' NCCL watchdogs time out minutes later.
// Records with role "consequence" name those follow-ups. Within the
// correlation window, on the same pod or node, a consequence is folded
// into the incident of its root cause (the earliest failure, error or
// worse and not a consequence, of the burst nearest before it) and listed
// in it; it is alerted on its own only when no root cause is visible,
// since then it may be all there is.

// scopeClock is the latest log time seen in one scope and the processing
// time it was seen at.
type scopeClock struct {
	Log  time.Time `json:"log"`
	Seen time.Time `json:"seen"`
	// Guessed says Log's year is a guess (Occurrence.Guessed): no line
	// of the scope said its year yet.
	Guessed bool `json:"guessed,omitempty"`
}

func isConsequence(o Occurrence) bool {
	return o.Alert.Record.Role == string(patterns.RoleConsequence)
}

// correlationTime is when o happened as correlation sees it: its log time
// when the entry had a timestamp, else the latest log time of its scope
// advanced by the processing time since (a c10d line printed between two
// sglang lines happened between them), else its read time. untimed says
// it is the read time: no line of the scope had a log time yet. o is
// read, never written; by pointer, since an Occurrence is nearly 900
// bytes and this runs for every one observed.
func (g *Grouper) correlationTime(o *Occurrence, now time.Time) (at time.Time, untimed bool) {
	c, ok := g.clocks[o.Scope]
	if o.Timed {
		t, guessed := o.Time, o.Guessed
		switch {
		case guessed && ok && !c.Guessed:
			// A year the scope's own lines tell.
			t, guessed = inYearOf(t, c.Log), false
		case !guessed && (!ok || c.Guessed):
			g.reyear(o.Scope, t)
		}
		if !ok {
			g.redate(o.Scope, t, now, o.SourceKey, o.Offset)
		}
		if !ok || t.After(c.Log) || c.Guessed && !guessed {
			g.setClock(o.Scope, scopeClock{Log: t, Seen: now, Guessed: guessed}, ok)
		}
		return t, false
	}
	if ok {
		return c.Log.Add(max(now.Sub(c.Seen), 0)), false
	}
	return o.Time, true
}

// redate places the untimed incidents of scope, read within the settle
// time before now, at t: the log time of the first line of the scope that
// has one. A traceback printed without a header just before the first
// timestamped line (its "Scheduler hit an exception" line, the parent's
// "Received sigquit") happened then, not when the file was read: a
// replayed or scanned log is read long after it was written. Only the
// incidents printed just before it (within borrowedGap bytes of its source
// off, when they come from it) are dated so: a traceback with a stretch of
// healthy serving after it happened before that stretch, not at its end.
func (g *Grouper) redate(scope string, t, now time.Time, source string, off int64) {
	for _, m := range g.scopeGroups(scope) {
		gr := m.gr
		if !gr.Untimed || g.opts.Window >= 0 && now.Sub(gr.FirstSeen) > g.opts.Settle ||
			source != "" && gr.Source == source && off-gr.End > borrowedGap {
			continue
		}
		gr.Untimed = false
		gr.At, gr.Last = t, t
		gr.Alert.Time, gr.Alert.LastTime = t, t
		gr.changed()
	}
}

// reyear puts the incidents of scope whose year was guessed (a glog line
// read before the first line that says its year) in the year nearest t,
// the first time of the scope that has one.
func (g *Grouper) reyear(scope string, t time.Time) {
	for _, m := range g.scopeGroups(scope) {
		gr := m.gr
		if !gr.Guessed {
			continue
		}
		d := inYearOf(gr.At, t).Sub(gr.At)
		gr.Guessed = false
		gr.At, gr.Last = gr.At.Add(d), gr.last().Add(d)
		gr.Alert.Time, gr.Alert.LastTime = gr.Alert.Time.Add(d), gr.Alert.LastTime.Add(d)
		gr.changed()
	}
}

// inYearOf is t in the year (ref's, the one before or the one after) that
// puts it nearest ref: December 31 next to January 1 stays in December.
func inYearOf(t, ref time.Time) time.Time {
	best, bestD := t, time.Duration(-1)
	for k := -1; k <= 1; k++ {
		c := t.AddDate(ref.Year()+k-t.Year(), 0, 0)
		d := c.Sub(ref)
		if d < 0 {
			d = -d
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// setClock records a scope's clock, keeping the clocks bounded by
// MaxGroups: the one seen longest ago makes room. known says whether the
// scope has a clock already, as the caller looked it up: it is not looked
// up again.
func (g *Grouper) setClock(scope string, c scopeClock, known bool) {
	if !known && len(g.clocks) >= g.opts.MaxGroups {
		var oldest string
		for s, x := range g.clocks {
			if oldest == "" || x.Seen.Before(g.clocks[oldest].Seen) {
				oldest = s
			}
		}
		delete(g.clocks, oldest)
	}
	g.clocks[scope] = c
}

// pruneClocks forgets the clocks of scopes without an open incident.
func (g *Grouper) pruneClocks() {
	if len(g.clocks) == 0 {
		return
	}
	open := make(map[string]bool, len(g.groups))
	for _, gr := range g.groups {
		open[gr.Scope] = true
	}
	for s := range g.clocks {
		if !open[s] {
			delete(g.clocks, s)
		}
	}
}

// correlated reports whether a consequence at at belongs to a root cause
// that began at root: up to the correlation window after it, or up to the
// settle time before it (a consequence printed just before the root
// cause's entry was complete, or read first from another stream).
func (g *Grouper) correlated(root, at time.Time) bool {
	return !at.Before(root.Add(-g.opts.Settle)) && !at.After(root.Add(g.opts.Correlation))
}

// findRoot returns the open root-cause incident of scope that a
// consequence at at folds into, or nil: among the failures of the scope
// correlated with it, the burst nearest before it (failures within the
// settle time of each other are one burst: the ranks of one crash, or two
// causes of it), and in that burst the earliest failure, where the crash
// began. Without one, for a consequence whose time was borrowed from a
// line before it, the nearest burst of causes printed after it in its
// source (see printedBefore); without either, the cause printed just
// before it though dated after it (see printedJustAfter). skip is a
// fingerprint to leave out.
//
// A consequence that is a native library's line (c10d's "failure detected
// by watchdog") never takes as its root an unclassified native line of
// the same source within the settle time of it ("Stack trace of the
// failed collective not found"): both are lines of one event, and that
// line is folded into the consequence's incident (see detailOf), unless
// it began the event (beganEvent).
func (g *Grouper) findRoot(scope string, at time.Time, skip string, from eventOf) *group {
	// Room for a scope's usual few candidates on the stack: findRoot runs
	// for every new failure, and a slice grown by append would be
	// allocated each time.
	var candRoom, afterRoom [8]*group
	cands, after := candRoom[:0], afterRoom[:0]
	var printed *group
	for m := range g.eachOfScope(scope) {
		if m.id == skip || g.sameEvent(from, m.gr, at) || clientSummary(from, m.gr) || unplacedDetail(from, m.gr) || saysLess(m.gr, from) ||
			beforeLoneWrapper(from, m.gr) {
			continue
		}
		switch {
		case canBeRoot(m.gr) && g.correlated(m.gr.At, at) || g.raisedJustBefore(m.gr, at) || g.beganAtWarn(from, m.gr, at) ||
			g.peerWarnAfter(from, m.gr, at):
			cands = append(cands, m.gr)
		case saysWhyBeside(from, m.gr):
			cands = append(cands, m.gr)
		case canBeRoot(m.gr) && g.printedBefore(m.gr, from, at):
			after = append(after, m.gr)
		case canBeRoot(m.gr) && g.printedJustAfter(m.gr, from, at):
			if printed == nil || m.gr.End > printed.End {
				printed = m.gr
			}
		}
	}
	if len(cands) == 0 && len(after) == 0 && printed != nil {
		// No cause in its time: the one printed just before it (see
		// printedJustAfter).
		return printed
	}
	if len(cands) == 0 && len(after) > 0 {
		// Only a cause printed after it: the nearest, where its own
		// burst began.
		slices.SortFunc(after, func(a, b *group) int {
			if c := a.At.Compare(b.At); c != 0 {
				return c
			}
			return cmp.Compare(a.Seq, b.Seq)
		})
		burst := 1
		for burst < len(after) && after[burst].At.Sub(after[burst-1].At) <= g.opts.Settle {
			burst++
		}
		cands = after[:burst]
	}
	if len(cands) == 0 {
		return nil
	}
	// Latest first; among equal times the later-created first, so that
	// walking back ends at the first one created.
	slices.SortFunc(cands, func(a, b *group) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return cmp.Compare(b.Seq, a.Seq)
	})
	burst := 1
	for burst < len(cands) && cands[burst-1].At.Sub(cands[burst].At) <= g.opts.Settle {
		burst++
	}
	// The best of the burst by the order of rank.go, the earliest within
	// a class: a classified cause before a failure no record names,
	// before a generic line (see generic.go), before a fragment or a
	// wrapper alone ("Scheduler hit an exception" whose traceback lines
	// were interleaved away), which says which process died, not why.
	best := cands[burst-1]
	for i := burst - 2; i >= 0; i-- {
		if g.rootOrder(cands[i]) < g.rootOrder(best) {
			best = cands[i]
		}
	}
	return best
}

// rootOrder is the rank of a root cause candidate (rootClass): without
// generic folding, causes, failures and generic lines rank alike.
func (g *Grouper) rootOrder(gr *group) leadClass {
	c := rootClass(gr)
	if !g.genericFolds() && c <= classGeneric {
		return classCause
	}
	return c
}

type member struct {
	id string
	gr *group
}

// indexScope records that the incident gr, of fingerprint id, is open in
// its scope.
func (g *Grouper) indexScope(id string, gr *group) {
	addMember(g.byScope, gr.Scope, id)
	if gr.Consequence {
		addMember(g.consByScope, gr.Scope, id)
	}
	if claimable(gr) {
		addMember(g.genByScope, gr.Scope, id)
	}
	if namedCause(gr) {
		addSourceMember(g.causeBySource, causeKey(gr), id)
		if gr.Native {
			addSourceMember(g.nativeBySource, causeKey(gr), id)
		}
	}
	if unclassifiedFailure(gr) {
		addSourceMember(g.failBySource, causeKey(gr), id)
		if gr.Native && gr.NativeKind == entry.NativeAscend {
			addSourceMember(g.blockBySource, causeKey(gr), id)
		}
		if k, ok := raiseKeyOf(gr); ok {
			m := g.failByRaise[k]
			if m == nil {
				m = make(map[string]struct{})
				g.failByRaise[k] = m
			}
			m[id] = struct{}{}
		}
	}
}

func addSourceMember(index map[sourceKey]map[string]struct{}, key sourceKey, id string) {
	m := index[key]
	if m == nil {
		m = make(map[string]struct{})
		index[key] = m
	}
	m[id] = struct{}{}
}

// unclassifiedFailure reports whether gr is the incident of a failure no
// record names that says more than a generic line: a traceback or a
// native error line (see findFailure).
func unclassifiedFailure(gr *group) bool {
	return gr.Alert.Record.ID == "" && !gr.Generic && !gr.Consequence && !loneWrapper(gr)
}

// unindexScope forgets the closed incident gr of fingerprint id. Closing
// must do it: an index pruned only by Tick grew without bound in a storm
// whose incidents were all evicted before any deadline passed.
func (g *Grouper) unindexScope(id string, gr *group) {
	for _, index := range []map[string]map[string]struct{}{g.byScope, g.consByScope, g.genByScope} {
		if m := index[gr.Scope]; m != nil {
			delete(m, id)
			if len(m) == 0 {
				delete(index, gr.Scope)
			}
		}
	}
	for _, index := range []map[sourceKey]map[string]struct{}{g.causeBySource, g.nativeBySource, g.failBySource, g.blockBySource} {
		if m := index[causeKey(gr)]; m != nil {
			delete(m, id)
			if len(m) == 0 {
				delete(index, causeKey(gr))
			}
		}
	}
	if k, ok := raiseKeyOf(gr); ok {
		if m := g.failByRaise[k]; m != nil {
			delete(m, id)
			if len(m) == 0 {
				delete(g.failByRaise, k)
			}
		}
	}
}

func addMember(index map[string]map[string]struct{}, scope, id string) {
	m := index[scope]
	if m == nil {
		m = make(map[string]struct{})
		index[scope] = m
	}
	m[id] = struct{}{}
}

// scopeGroups returns the open incidents of scope, forgetting those that
// were closed (announced and forgotten, folded, evicted) since indexed.
func (g *Grouper) scopeGroups(scope string) []member { return g.members(g.byScope, scope) }

// eachOfScope yields the open incidents of scope as scopeGroups returns
// them, without gathering them in a slice: findRoot runs for every new
// failure and every consequence, and a slice the size of the scope each
// time is garbage the size of the scope each time.
func (g *Grouper) eachOfScope(scope string) iter.Seq[member] {
	return func(yield func(member) bool) {
		m := g.byScope[scope]
		for id := range m {
			gr, ok := g.groups[id]
			if !ok || gr.Scope != scope {
				delete(m, id)
				continue
			}
			if !yield(member{id, gr}) {
				return
			}
		}
	}
}

// scopeConsequences is scopeGroups for the consequence incidents only.
func (g *Grouper) scopeConsequences(scope string) []member {
	return g.members(g.consByScope, scope)
}

func (g *Grouper) members(index map[string]map[string]struct{}, scope string) []member {
	m := index[scope]
	if len(m) == 0 {
		return nil
	}
	out := make([]member, 0, len(m))
	for id := range m {
		gr, ok := g.groups[id]
		if !ok || gr.Scope != scope {
			delete(m, id)
			continue
		}
		out = append(out, member{id, gr})
	}
	return out
}

// pruneScopes drops closed incidents and empty scopes from the index, so
// it stays as small as the open incidents.
func (g *Grouper) pruneScopes() {
	for _, index := range []map[string]map[string]struct{}{g.byScope, g.consByScope, g.genByScope} {
		for scope := range index {
			if len(g.members(index, scope)) == 0 {
				delete(index, scope)
			}
		}
	}
	for _, index := range []map[sourceKey]map[string]struct{}{g.causeBySource, g.nativeBySource, g.failBySource, g.blockBySource} {
		for key := range index {
			if len(g.sourceMembers(index, key)) == 0 {
				delete(index, key)
			}
		}
	}
	for key := range g.failByRaise {
		g.raisedMembers(key, func(*group) {})
	}
}

// raisedJustBefore reports whether gr, a failure graded a warning, is an
// exception raised within the settle time before at: a "memory leak
// detected" check raised in the scheduler, then the parent's "Received
// sigquit". A warning is no root cause by itself (a retract, a slow step);
// one raised just before a process died is what it died of.
func (g *Grouper) raisedJustBefore(gr *group, at time.Time) bool {
	if gr.Consequence || gr.Alert.Record.Severity != "warning" || loneWrapper(gr) {
		return false
	}
	if x := gr.Alert.Match.Exception; x == nil || x.Type == "" {
		return false
	}
	return !at.Before(gr.At.Add(-g.opts.Settle)) && !at.After(gr.last().Add(g.opts.Settle))
}

// A state and its reason, side by side. kubectl describe prints a
// Pending pod's Conditions row ("PodScheduled   False") and, a few lines
// on, the scheduler's event that says why ("Warning  FailedScheduling
// ... 0/1 nodes are available: 1 Insufficient nvidia.com/gpu."): one
// report of one pod. The row is a consequence graded a warning, the
// event a classified cause graded a warning too, which is no root cause
// of a crash (canBeRoot); but of a consequence no graver than itself,
// printed within a few lines of it in the same source, it is: the event
// leads, the row is listed in it. A warning elsewhere, or one beside a
// consequence graded an error, is still no root.

// saysWhyBeside reports whether x, a classified cause graded a warning,
// is the reason of the consequence from, graded a warning or less and
// printed within borrowedGap bytes of it in the same source (see above).
func saysWhyBeside(from eventOf, x *group) bool {
	return from.mild && from.source != "" && x.Source == from.source && namedCause(x) &&
		x.Alert.Record.Severity == string(patterns.SeverityWarning) && gapBetween(x.Off, x.End, from.off, from.end) <= borrowedGap
}

// mildSeverity reports whether sev grades a line a warning or less: a
// warning or an info, not an ungraded line.
func mildSeverity(sev string) bool {
	return sev == string(patterns.SeverityWarning) || sev == string(patterns.SeverityInfo)
}

// canBeRoot reports whether gr can be the root cause of a consequence: a
// failure that is not itself a consequence, of severity error or more. A
// warning is a risk the server lives with (a retract, a slow step), not
// what killed it.
func canBeRoot(gr *group) bool {
	return !gr.Consequence && sinks.SeverityRank(gr.Alert.Record.Severity) >= sinks.SeverityRank("error")
}

// fold adds one consequence occurrence to the root-cause incident gr.
func (gr *group) fold(o Occurrence, now time.Time, st *Stats) {
	gr.foldAlert(&o.Alert, st)
	gr.LastSeen = now
}

// foldAlert adds a consequence (one occurrence, or a whole settling
// consequence incident) to gr's list.
func (gr *group) foldAlert(c *sinks.Alert, st *Stats) {
	n := max(c.Count, 1)
	st.Folded += int64(n)
	gr.changed()
	// What followed says how bad the root cause was: a warning that ended
	// in the server's death is as severe as the death, so that a sink's
	// min_severity does not hide the crash inside it.
	gr.worsen(c.Record)
	gr.cutFurther(c)
	cs := gr.Alert.Consequences
	i := slices.IndexFunc(cs, func(x sinks.Consequence) bool { return x.Fingerprint == c.Fingerprint })
	if i < 0 {
		if len(cs) >= maxConsequences {
			gr.Unlisted += n
			st.Unlisted += int64(n)
			return
		}
		gr.Alert.Consequences = append(cs, sinks.Consequence{
			ID: c.Record.ID, Slug: c.Record.Slug, Severity: c.Record.Severity,
			Headline: cmp.Or(c.Headline, c.Match.Text), Count: n,
			Time: c.Time, LastTime: c.LastTime, Fingerprint: c.Fingerprint,
		})
		x := &gr.Alert.Consequences[len(gr.Alert.Consequences)-1]
		for _, r := range c.Ranks {
			x.Ranks = addRank(x.Ranks, r)
		}
		return
	}
	x := &cs[i]
	x.Count += n
	if c.Time.Before(x.Time) {
		x.Time = c.Time
	}
	if c.LastTime.After(x.LastTime) {
		x.LastTime = c.LastTime
	}
	for _, r := range c.Ranks {
		x.Ranks = addRank(x.Ranks, r)
	}
}

// cutThen separates a cut traceback's text from the statement a later
// piece of it says it was cut in (cutFurther).
const cutThen = " … then "

// cutFurther extends the text of gr, a traceback cut before its exception
// line, with the source line c, one of its later lines that its logger
// wrote as a record of its own (analysis.SourceLinePiece): the traceback
// went on past the entry, and the last statement it shows is where it was
// cut, as one entry's text would have said. The text keeps one such
// statement, the latest.
func (gr *group) cutFurther(c *sinks.Alert) {
	if !gr.Fragment || gr.Hang || gr.Alert.Record.ID != "" || c.Record.ID != "" ||
		c.Record.Role != string(patterns.RoleConsequence) || !analysis.SourceLinePiece(c.Match.Text) {
		return
	}
	stmt := strings.TrimSpace(c.Match.Text)
	base := gr.Alert.Match.Text
	if i := strings.LastIndex(base, cutThen); i >= 0 {
		base = base[:i]
	}
	if strings.Contains(base, stmt) {
		return
	}
	gr.Alert.Match.Text = base + cutThen + stmt
}

// foldIncident folds the consequence incident c into gr, with what c
// lists already: a burst of consequences read before its cause was one
// incident (see consequenceLead) until the cause came.
func (gr *group) foldIncident(c *group, st *Stats) {
	gr.foldAlert(&c.Alert, st)
	gr.takeListed(c, st)
}

// consequences is the number of consequence occurrences folded into gr.
func (gr *group) consequences() int {
	n := gr.Unlisted
	for i := range gr.Alert.Consequences {
		n += gr.Alert.Consequences[i].Count
	}
	return n
}

// claim folds into root, as it is announced, the settling consequences
// it is the root cause of, so that its first alert lists them.
func (g *Grouper) claim(root *group) {
	if root.Consequence || g.opts.Correlation <= 0 {
		return
	}
	g.adopt(root)
}

// adopt folds into the new root-cause incident root the settling
// consequence incidents of its scope that it explains (consequences read
// before their cause): those whose root it now is.
func (g *Grouper) adopt(root *group) {
	// Only the last few consequences opened in the scope are looked at
	// (waiting, in creation order), and of those only the ones root can
	// be a root cause candidate of run the root search: a new incident
	// among thousands of waiting consequences must cost neither a walk of
	// them all nor a search of the scope for each. One beyond them still
	// folds into root when its own settle time is over (foldSettled).
	ids := g.waiting[root.Scope]
	if len(ids) == 0 || !canBeRoot(root) && !(namedCause(root) && root.Alert.Record.Severity == string(patterns.SeverityWarning)) {
		// (A warning is the root of a mild consequence beside it
		// only: saysWhyBeside, which findRoot weighs.)
		return
	}
	var roomIDs [maxAdopted]string
	adopted := roomIDs[:0]
	for _, id := range ids {
		c := g.groups[id]
		if c == nil || c == root || !c.Consequence || !c.Settling || c.Scope != root.Scope || slices.Contains(adopted, id) {
			continue
		}
		from := eventOfGroup(c)
		if !g.mayRoot(root, c.At, from) || g.findRoot(c.Scope, c.At, id, from) != root {
			continue
		}
		adopted = append(adopted, id)
	}
	for _, id := range adopted {
		c := g.groups[id]
		if c == nil {
			// Listed twice, folded already.
			continue
		}
		root.foldIncident(c, &g.stats)
		if c.LastSeen.After(root.LastSeen) {
			root.LastSeen = c.LastSeen
		}
		g.remove(id)
	}
	g.touch(root)
}

// maxAdopted bounds the consequences a new root cause looks at when it
// opens (see adopt): more than one crash's ranks usually print before
// their cause, few enough that a storm of waiting consequences costs each
// new failure a fixed amount.
const maxAdopted = 64

// mayRoot reports whether root is among the candidates findRoot weighs for
// a consequence at at, of the event from: correlated with it in time, a
// warning raised just before it, or printed near it in their source
// (printedBefore, printedJustAfter, saysWhyBeside). When it is not, findRoot cannot
// return it, and the search need not run.
func (g *Grouper) mayRoot(root *group, at time.Time, from eventOf) bool {
	return g.correlated(root.At, at) || g.raisedJustBefore(root, at) || g.printedBefore(root, from, at) || g.printedJustAfter(root, from, at) ||
		saysWhyBeside(from, root)
}

// noteWaiting records the new consequence incident id of scope among the
// scope's last maxAdopted (Grouper.waiting), forgetting the oldest.
func (g *Grouper) noteWaiting(scope, id string) {
	if g.waiting == nil {
		g.waiting = make(map[string][]string)
	}
	ids := g.waiting[scope]
	if slices.Contains(ids, id) {
		// A consequence incident closed and opened again under the same
		// fingerprint is still one waiting incident.
		return
	}
	if len(ids) >= maxAdopted {
		// Closed ones first; else the oldest.
		live := ids[:0]
		for _, x := range ids {
			if gr := g.groups[x]; gr != nil && gr.Consequence && gr.Scope == scope {
				live = append(live, x)
			}
		}
		clear(ids[len(live):])
		ids = live
		if len(ids) >= maxAdopted {
			n := copy(ids, ids[len(ids)-maxAdopted+1:])
			clear(ids[n:])
			ids = ids[:n]
		}
	}
	g.waiting[scope] = append(ids, id)
}

// rebuildWaiting rebuilds Grouper.waiting from the open consequence
// incidents, each scope's last maxAdopted by creation order.
func (g *Grouper) rebuildWaiting() {
	g.waiting = make(map[string][]string)
	for scope := range g.consByScope {
		ms := g.scopeConsequences(scope)
		slices.SortFunc(ms, func(a, b member) int { return cmp.Compare(a.gr.Seq, b.gr.Seq) })
		if len(ms) > maxAdopted {
			ms = ms[len(ms)-maxAdopted:]
		}
		for _, m := range ms {
			g.waiting[scope] = append(g.waiting[scope], m.id)
		}
	}
}

// foldSettled folds settling consequence incidents into a root cause that
// is open now: those whose settle time is over, or all of them at Flush.
// Adopt does this when the root cause arrives; this covers a root cause
// restored from a snapshot or a consequence restored without one.
//
// It also gives each settling wrapper alone (see loneWrapper) to the cause
// read with it.
func (g *Grouper) foldSettled(ids []string, now time.Time, all bool) {
	if g.opts.Correlation <= 0 {
		return
	}
	for _, id := range ids {
		c := g.groups[id]
		if c == nil || !c.Settling || (!all && !g.due(c, now) && !g.heldWrapper(c, now)) {
			continue
		}
		if loneWrapper(c) {
			cause := g.findCause(c, id)
			if cause != nil && (quotesCodeError(c, cause) || announcesDeathOf(c, cause) || summarisedAfter(c, cause)) {
				g.leadQuoted(c, id, cause)
				continue
			}
			if cause == nil {
				cause = g.diedOf(c, id)
			}
			if cause == nil {
				cause = g.causeAfter(c, id)
			}
			if cause == nil && c.Unplaced {
				cause = g.detailOfConsequence(c, id)
			}
			if cause != nil {
				summary := cause.Consequence && (clientSummary(eventOfGroup(cause), c) || unplacedDetail(eventOfGroup(cause), c))
				cause.absorbWrapper(c, &g.stats)
				if summary {
					g.promote(cause)
				}
				g.remove(id)
				g.touch(cause)
			}
			continue
		}
		if !c.Consequence {
			continue
		}
		if f := g.clientFragment(c, id); f != nil {
			// The client's classified summary of its failed call leads
			// the call's cut traceback (see clientSummary).
			c.absorbWrapper(f, &g.stats)
			g.remove(f.id)
			g.promote(c)
			g.touch(c)
			continue
		}
		root := g.findRoot(c.Scope, c.At, id, eventOfGroup(c))
		if root == nil {
			// No cause in sight: the consequences of one burst (a
			// peer's watchdog timeout and its "failure detected by
			// watchdog") are still one incident.
			root = g.consequenceLead(c, id)
		}
		if root != nil && root.Generic && failedOnPeer(eventOfGroup(c), root) {
			// Another rank's WARN line that caused it is a failure now.
			g.unindexScope(root.id, root)
			root.Generic = false
			g.indexScope(root.id, root)
		}
		if root != nil {
			root.foldIncident(c, &g.stats)
			if c.LastSeen.After(root.LastSeen) {
				root.LastSeen = c.LastSeen
			}
			g.remove(id)
			g.touch(root)
		}
	}
}

// heldWrapper reports whether c is a wrapper alone or a fragment whose
// settle time is over at now while it waits for the cause printed after
// it (awaitsCause): it is looked at on every Tick, so that it joins that
// cause before the cause's first alert goes out.
func (g *Grouper) heldWrapper(c *group, now time.Time) bool {
	return loneWrapper(c) && !c.Hang && !now.Before(c.FirstSeen.Add(g.opts.Settle))
}

// consequenceLead returns the consequence incident that the settling
// consequence c (fingerprint id), for which no root cause is in sight,
// joins, or nil when c leads its burst: the consequences of c's scope
// whose occurrences lie within the settle time of c's make one burst, led
// by one announced already when there is one (nothing is paged twice),
// else by the best informed (a record with solutions), the most severe,
// then the earliest.
func (g *Grouper) consequenceLead(c *group, id string) *group {
	lead := c
	b := burstOf(c)
	for _, m := range g.scopeConsequences(c.Scope) {
		x := m.gr
		if m.id == id || !g.inBurst(x, b) {
			continue
		}
		if leadsConsequences(x, lead) {
			lead = x
		}
	}
	if lead == c {
		return nil
	}
	return lead
}

// leadsConsequences reports whether consequence incident a leads a burst
// of consequences rather than b.
func leadsConsequences(a, b *group) bool {
	if a.Settling != b.Settling {
		return !a.Settling
	}
	if va, vb := restartView(a), restartView(b); va != vb {
		// The orchestrator's word that the container exited or is
		// restarted (a pod's CrashLoopBackOff, its last state's
		// "Reason: Error") is how the failure looked from outside:
		// the container's own lines in the same burst (the last
		// state's message, its log) say what failed, even cut.
		return vb
	}
	if ia, ib := len(a.Alert.Record.Solutions) > 0, len(b.Alert.Record.Solutions) > 0; ia != ib {
		return ia
	}
	if pa, pb := sourcePiece(a), sourcePiece(b); pa != pb {
		// A traceback's source line logged as a record of its own,
		// cut from the traceback above it, only points at the failure:
		// a consequence that states one ("EngineDeadError: EngineCore
		// encountered an issue") leads it.
		return !pa
	}
	if oneChain(a, b) {
		// One process's chain of native lines: the first says what
		// failed, the later ones what that broke.
		return a.beganBefore(b)
	}
	if ra, rb := sinks.SeverityRank(a.Alert.Record.Severity), sinks.SeverityRank(b.Alert.Record.Severity); ra != rb {
		return ra > rb
	}
	return a.beganBefore(b)
}

// restartView reports whether gr is the incident of an orchestrator's
// word that a container exited or is being restarted, not why: a
// consequence record tagged "kubernetes" (CrashLoopBackOff, a back-off
// event, "Reason: Error", a probe's restart), or such a row of kubectl's
// output no record names (analysis.KubeView). A record or a row that
// names the reason itself (OOMKilled) is no such view.
func restartView(gr *group) bool {
	r := &gr.Alert.Record
	if r.ID == "" {
		return analysis.KubeView(firstLine(lineOf(gr)))
	}
	return r.Role == string(patterns.RoleConsequence) && slices.Contains(r.Tags, "kubernetes") && slices.Contains(r.Tags, "consequence")
}

// sourcePiece reports whether gr is the unclassified incident of a
// traceback's source line logged as a record of its own ("    raise
// self._format_exception(outputs) from None" behind a logger's header).
func sourcePiece(gr *group) bool {
	return gr.Alert.Record.ID == "" && gr.Alert.Match.Exception == nil && analysis.SourceLinePiece(firstLine(lineOf(gr)))
}

// oneChain reports whether the native incidents a and b are lines of one
// process's chain: the same library (native shape), source and process,
// printed within a few lines of each other (borrowedGap). NCCL reports a
// failed receive ("Call to recv from <peer> failed : Broken pipe"), then
// its proxy's failed operation for it, each a consequence record's line:
// the first is what happened, whichever record is more severe.
func oneChain(a, b *group) bool {
	return a.Native && b.Native && a.NativeKind != "" && a.NativeKind == b.NativeKind && a.Source == b.Source &&
		a.Process != "" && a.Process == b.Process && gapBetween(a.Off, a.End, b.Off, b.End) <= borrowedGap
}

// Holds reports whether alert a is the incident of fingerprint fp, or the
// root-cause incident that fp was folded into (a consequence, or a wrapper
// alone taken as context). Code that marks an
// incident's first alert (the pipeline's liveness gate) finds it with this
// once the settle time is over, wherever the occurrence ended up.
func Holds(a *sinks.Alert, fp string) bool {
	if a.Fingerprint == fp {
		return true
	}
	for i := range a.Consequences {
		if a.Consequences[i].Fingerprint == fp {
			return true
		}
	}
	for i := range a.Context {
		if a.Context[i].Fingerprint == fp {
			return true
		}
	}
	return false
}

// Pending reports whether the incident of fingerprint fp, or the root
// cause it was folded into, is open and not yet announced: its first
// alert, still to come out of Tick or Flush, will hold fp (see Holds).
func (g *Grouper) Pending(fp string) bool {
	if gr, ok := g.groups[fp]; ok {
		return gr.Settling
	}
	for _, gr := range g.groups {
		if gr.Settling && Holds(&gr.Alert, fp) {
			return true
		}
	}
	return false
}

// A wrapper alone. "Scheduler hit an exception:" or "Exception in
// ModelRpcClient:" printed in an entry of its own, its traceback in the
// next one (the line cut from it by another process's output, or by a
// prefix learned only at the traceback), says which process died, not
// why. Settling, it waits for the cause read with it: a failure of the
// same scope within the settle time of it that is no wrapper and no
// consequence. That cause's incident takes it as context and its
// severity, and only the cause is announced: one crash, one page, the
// cause first. A wrapper read later than that, with no cause read with
// it, is context of the crash its source printed last before it within the
// correlation window (diedOf); only a wrapper with no failure before it is
// announced alone.

// loneWrapper reports whether gr is the incident of a wrapper record with
// no cause of its own, or of a fragment (a traceback cut before its
// exception line), which says as little.
func loneWrapper(gr *group) bool {
	return !gr.Consequence && (gr.Alert.Record.Role == string(patterns.RoleWrapper) || gr.Fragment)
}

// findCause returns the incident the lone wrapper w (fingerprint id) is
// context of, or nil: the earliest failure of its scope within the settle
// time of it that is neither a wrapper nor a consequence (for a wrapper
// record, a warning too: it says the process died of it). Without one, a
// wrapper's cause is a fragment of its burst: the frames of a traceback
// cut before its exception line still say where the process died; and a
// fragment that names no place (a hang's batch dump) takes one that does
// (the hung thread's frames).
func (g *Grouper) findCause(w *group, id string) *group {
	var best, fragment *group
	for _, m := range g.scopeGroups(w.Scope) {
		c := m.gr
		if m.id == id || c.Consequence && !clientSummary(eventOfGroup(c), w) || c.At.Sub(w.At).Abs() > g.opts.Settle ||
			c.Source == w.Source && gapBetween(c.Off, c.End, w.Off, w.End) > maxBurstGap {
			continue
		}
		if !canBeRoot(c) && (w.Fragment || sinks.SeverityRank(c.Alert.Record.Severity) < sinks.SeverityRank("warning")) {
			// A wrapper says the process died: a failure graded a
			// warning ("memory leak detected", raised in a check) read
			// with it is what killed it.
			continue
		}
		if loneWrapper(c) {
			if saysMoreThan(c, w) && (fragment == nil || better(c, fragment)) {
				fragment = c
			}
			continue
		}
		if best == nil || better(c, best) {
			best = c
		}
	}
	if best == nil && fragment == nil {
		best = g.loggedBefore(w, id)
	}
	if best == nil && fragment == nil && placeless(w) {
		fragment = g.placeOf(w, id)
	}
	if best == nil {
		return fragment
	}
	return best
}

// loggedBefore returns, for the wrapper alone w (fingerprint id), a
// wrapper record whose traceback was cut, the line of a peer's failure
// its own writer logged just before it (same source and rank, at most
// borrowedGap bytes before it, within the settle time; see reportsPeer):
// the peer the process could not reach before it died ("Error fetching
// prefill parallel info from bootstrap: ... Connection refused", then
// "Scheduler hit an exception:" with its traceback cut), or the named
// process it saw die before it died itself (vLLM's executor's "Worker
// proc VllmWorker-3 died unexpectedly, shutting down executor.", then the
// engine core's "EngineCore encountered a fatal error."). That line says
// what failed first, the wrapper only that its own process died after it:
// the wrapper is its context. A report of the death itself printed before
// it (a parent's "Received sigquit from a child process", which names no
// child, a server's 500 for the request that failed) says no more than
// the wrapper, and is no such line. Nil when there is none.
func (g *Grouper) loggedBefore(w *group, id string) *group {
	if w.Fragment || w.Source == "" {
		return nil
	}
	var best *group
	for _, m := range g.scopeConsequences(w.Scope) {
		c := m.gr
		if m.id == id || !reportsPeer(&c.Alert, c.Native, analysis.AccessLine(lineOf(c))) || c.Source != w.Source || c.End > w.Off || w.Off-c.End > borrowedGap ||
			c.Alert.FirstRank != w.Alert.FirstRank || w.At.Sub(c.At) > g.opts.Settle || c.At.After(w.At) ||
			sinks.SeverityRank(c.Alert.Record.Severity) < sinks.SeverityRank("error") {
			continue
		}
		if best == nil || c.End > best.End {
			best = c
		}
	}
	return best
}

// announcesDeathOf reports whether c, the cause findCause found for the
// lone wrapper record w, only announces the process's death by the
// exception w's own line carries: C++'s "terminate called after throwing
// an instance of 'c10::DistBackendError'" with no what() line of its own
// and no record naming it, not announced yet, printed by w's writer at
// most borrowedGap bytes from w, where w says which thread died of what
// ("Process group watchdog thread terminated with exception: CUDA error:
// an illegal memory access was encountered"). The runtime's report and the
// library's line leave through different buffers, the death often first;
// the wrapper's line says what failed, and leads (leadQuoted).
func announcesDeathOf(w, c *group) bool {
	return !w.Fragment && !w.Consequence && w.Alert.Record.ID != "" && c.Native && c.NativeKind == entry.NativeTerminate &&
		c.Alert.Record.ID == "" && c.Settling && c.Sent == 0 && c.Source != "" && c.Source == w.Source &&
		gapBetween(c.Off, c.End, w.Off, w.End) <= borrowedGap && !strings.Contains(c.Alert.Headline, "what():") &&
		carriesException(lineOf(w))
}

// summarisedAfter reports whether c, the cause findCause found for the
// lone wrapper record w, is only a summary of w's failure printed after
// it: a generic or native line no record names, not announced yet, of w's source,
// at most borrowedGap bytes after w, whose message past its error code
// only says something failed (codedVague: torch_npu's "[ERROR] ...
// (PID:N, Device:0, RankID:-1) ERR01005 OPS internal error" after the
// "call aclnnEqScalar failed, detail:EZ9999: Inner Error!" whose block
// says the operator has no binary). w's entry says what failed; it leads
// (leadQuoted) and lists the summary.
func summarisedAfter(w, c *group) bool {
	return !w.Fragment && !w.Consequence && w.Alert.Record.ID != "" && (c.Generic || c.Native) && !c.Consequence && !c.Fragment &&
		c.Alert.Record.ID == "" && c.Settling && c.Sent == 0 &&
		c.Source != "" && c.Source == w.Source && c.Off >= w.End && c.Off-w.End <= borrowedGap && codedVague(lineOf(c))
}

// codedVague reports whether line, read past its header up to an error
// code ("ERR01005", "E40021"), only says something failed
// (analysis.VagueMessage); false when it has no such code.
func codedVague(line string) bool {
	line = firstLine(line)
	for i, f := range strings.Fields(line) {
		if i >= maxCodeField {
			break
		}
		if errorCode(f) {
			_, rest, _ := strings.Cut(line, f)
			return analysis.VagueMessage(rest)
		}
	}
	return false
}

// maxCodeField bounds the fields codedVague looks at for an error code.
const maxCodeField = 12

// errorCode reports whether f is a library's error code: one to four
// capital letters and at least four digits ("ERR01005", "EZ9999").
func errorCode(f string) bool {
	i := 0
	for i < len(f) && f[i] >= 'A' && f[i] <= 'Z' {
		i++
	}
	if i == 0 || i > 4 || len(f)-i < 4 {
		return false
	}
	for _, b := range []byte(f[i:]) {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// carriesException reports whether a wrapper's line goes on with the
// exception it wraps after its words ("... terminated with exception:
// CUDA error: ..."), not with a traceback's header or nothing.
func carriesException(line string) bool {
	i := strings.Index(line, "exception: ")
	if i < 0 {
		return false
	}
	rest := strings.TrimSpace(line[i+len("exception: "):])
	return rest != "" && !strings.HasPrefix(rest, "Traceback")
}

// reportsPeer reports whether the consequence a, a native line or not,
// a server's access line or not (access: the status of a request, which the death failed), says
// which peer its writer lost: a record tagged "network" (a peer it could
// not reach), or a record with solutions, error or worse, whose matched
// words name the process that died by its number (namesDeadProcess:
// "Worker proc VllmWorker-3 died unexpectedly", "Rank 0 scheduler is
// dead"). Not a native line: a library's own chain (see nativefirst.go).
func reportsPeer(a *sinks.Alert, native, access bool) bool {
	r := &a.Record
	if slices.Contains(r.Tags, "network") {
		return true
	}
	return r.Role == string(patterns.RoleConsequence) && !native && !access && len(r.Solutions) > 0 &&
		sinks.SeverityRank(r.Severity) >= sinks.SeverityRank("error") && namesDeadProcess(a.Match.Text)
}

// deathWords are the words by which a line says a process ended.
var deathWords = [...]string{"died", "dead", "crashed", "exited", "terminated", "killed"}

// namesDeadProcess reports whether text says a process ended and names
// it by a number (a rank, a worker's index, a pid): "Worker proc
// VllmWorker-3 died unexpectedly", "Shard 1 crashed". "Received sigquit
// from a child process. It usually means the child failed." names none.
func namesDeadProcess(text string) bool {
	text = text[:min(len(text), maxPeerScan)]
	if !strings.ContainsAny(text, "0123456789") {
		return false
	}
	for _, w := range deathWords {
		if indexFold(text, w) >= 0 {
			return true
		}
	}
	return false
}

// beforeLoneWrapper reports whether the root candidate x is a wrapper
// record alone printed just after the consequence from, by its writer:
// the wrapper is that consequence's context (loggedBefore), not its root.
func beforeLoneWrapper(from eventOf, x *group) bool {
	return from.peer && from.source != "" && x.Source == from.source && !x.Fragment && loneWrapper(x) && from.end <= x.Off && x.Off-from.end <= borrowedGap
}

// saysMoreThan reports whether c, a wrapper alone or a fragment, is the
// cause of the wrapper alone or fragment w of its burst: a fragment that
// shows where the process was says more than a wrapper, a hang's dump
// that names where it hangs more than one that does not, and a wrapper,
// which names the process that died, more than a fragment that prints no
// frame (Frameless: the traceback's first line alone, its frames cut).
// A wrapper whose own line quotes the failure it reports
// (quotingWrapper: c10d's "watchdog thread terminated with exception:
// CUDA error: an illegal memory access was encountered", a CUDA check's
// "CUDA Error: device-side assert triggered (710) ... at function ...")
// says why, which a fragment never does: it says more than any fragment.
func saysMoreThan(c, w *group) bool {
	switch {
	case quotingWrapper(c) && w.Fragment:
		return true
	case quotingWrapper(w) && c.Fragment:
		return false
	case c.Frameless:
		return false
	case w.Frameless:
		return true
	}
	return c.Fragment && (!w.Fragment || namesWhere(c) && !namesWhere(w))
}

// quotingWrapper reports whether gr is a wrapper record's incident whose
// line quotes the failure it wraps (analysis.QuotesFailure).
func quotingWrapper(gr *group) bool {
	return !gr.Fragment && !gr.Consequence && gr.Alert.Record.Role == string(patterns.RoleWrapper) &&
		analysis.QuotesFailure(gr.Alert.Match.Text)
}

// clientSummary reports whether the fragment x is a detail of the
// consequence from: a traceback cut before its exception line whose
// frames end in an HTTP client library (x.Client), printed just after
// (within borrowedGap bytes) a consequence of the same source that a
// record with solutions names. A client that gives up on a request logs
// its classified summary ("Failed after 1 retries ... Last error: Server
// disconnected") and then the traceback of the call; a traceback with no
// exception line is weaker evidence than a classified line of the same
// event, so the summary leads and the fragment is its context.
func clientSummary(from eventOf, x *group) bool {
	return x.Client && x.Fragment && from.recorded && !from.native && !from.access && from.source != "" && x.Source == from.source &&
		x.Off >= from.end && x.Off-from.end <= borrowedGap
}

// A caller's traceback, cut. A traceback cut before its exception line
// whose frames name no phase and no component (Occurrence.Unplaced: the
// program's entry, a dispatch), printed just after a line a consequence
// record names in the same source, with no failure in sight for it to be
// the context of, is that line's detail: the exception the process that
// waited on a failure raised, printed again by its caller and cut before
// it says so (vLLM's API server under "RuntimeError: Engine core
// initialization failed. See root cause above."). The consequence, which
// says what failed, leads; a cut traceback that names where it died keeps
// leading it.

// unplacedDetail reports whether x is such a detail of the consequence
// from (see above).
func unplacedDetail(from eventOf, x *group) bool {
	return x.Unplaced && x.Fragment && from.recorded && !from.native && !from.access && from.source != "" && x.Source == from.source &&
		x.Off >= from.end && x.Off-from.end <= borrowedGap
}

// detailOfConsequence returns the consequence incident the unplaced
// fragment x (fingerprint id) is a detail of, or nil: the latest printed
// before it (see above).
func (g *Grouper) detailOfConsequence(x *group, id string) *group {
	var best *group
	for _, m := range g.scopeConsequences(x.Scope) {
		c := m.gr
		if m.id == id || !unplacedDetail(eventOfGroup(c), x) {
			continue
		}
		if best == nil || c.End > best.End {
			best = c
		}
	}
	return best
}

// clientFragment returns the settling client fragment that is a detail of
// the consequence c (fingerprint id), or nil (see clientSummary).
func (g *Grouper) clientFragment(c *group, id string) *group {
	from := eventOfGroup(c)
	for m := range g.eachOfScope(c.Scope) {
		if m.id != id && m.gr.Settling && !m.gr.Consequence && clientSummary(from, m.gr) {
			return m.gr
		}
	}
	return nil
}

// promote makes the consequence incident c, which took a client fragment
// of its event as context, the cause of its burst: the client's failure,
// which the consequences read with it (the shell's "Killed") fold into.
func (g *Grouper) promote(c *group) {
	if !c.Consequence {
		return
	}
	g.unindexScope(c.id, c)
	c.Consequence = false
	g.indexScope(c.id, c)
	c.changed()
}

// placeless reports whether gr is a hang's dump alone that names no place
// (a watchdog's dump of the running batch): the dump of the hung thread's
// frames (py-spy), printed just before or after it, says where it hangs.
func placeless(gr *group) bool {
	return gr.Hang && gr.Fragment && !gr.Consequence && !namesWhere(gr)
}

// placeOf returns the hang dump that names where the process hangs for
// the placeless dump w (fingerprint id) when none was read within the
// settle time of it: the nearest in its source, printed within a few
// lines (borrowedGap) before or after it and within the consequence wait
// of it (lateWait: as long as run holds it for that dump). A watchdog
// dumps the running batch and then the stuck
// threads, and a burst of healthy lines or seconds may come between.
func (g *Grouper) placeOf(w *group, id string) *group {
	if w.Source == "" {
		return nil
	}
	var best *group
	var bestGap int64
	for _, m := range g.scopeGroups(w.Scope) {
		c := m.gr
		if m.id == id || c.Source != w.Source || !c.Hang || !namesWhere(c) || c.Consequence ||
			c.At.Sub(w.At).Abs() > g.lateWait() {
			continue
		}
		gap := gapBetween(c.Off, c.End, w.Off, w.End)
		if gap > borrowedGap {
			continue
		}
		if best == nil || gap < bestGap {
			best, bestGap = c, gap
		}
	}
	return best
}

// diedOf returns the failure the lone wrapper w (fingerprint id), with no
// cause read with it, reports the death of: the failure its source printed
// last before it, within the consequence wait of it (lateWait), open still (no restart of
// the source between them: Restarted closes what the source reported
// before), when that failure is the source's own diagnosis of a crash (a
// classified cause, or an exception or native error with its type, error
// or worse; not a generic line, a consequence, another wrapper, or a
// native library's routine-looking error line, which alone is no crash). A
// parent that reports a child's death seconds after the child's traceback,
// behind the healthy lines the other processes kept printing, or another
// rank's cut traceback of the same crash, is one crash with it, not a new
// page; a wrapper with no failure before it in its source is announced
// alone. Among the failures of that last burst (within the settle time of
// the last), the best by the order of rank.go leads.
func (g *Grouper) diedOf(w *group, id string) *group {
	if w.Source == "" || g.opts.Correlation <= 0 {
		return nil
	}
	var cands []*group
	for _, m := range g.scopeGroups(w.Scope) {
		c := m.gr
		if m.id == id || !failureOfSource(c, w) ||
			c.At.After(w.At) || w.At.After(c.last().Add(g.lateWait())) || c.Off >= w.Off {
			continue
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return nil
	}
	var lastAt time.Time
	for _, c := range cands {
		if c.last().After(lastAt) {
			lastAt = c.last()
		}
	}
	var best *group
	for _, c := range cands {
		if lastAt.Sub(c.last()) > g.opts.Settle {
			continue
		}
		if best == nil || leads(c, best) {
			best = c
		}
	}
	return best
}

// failureOfSource reports whether c may be the failure a wrapper alone or
// a fragment w reports, as far as c itself tells: printed by w's source,
// a root cause of the failure class or worse, not a routine line.
func failureOfSource(c, w *group) bool {
	return c.Source == w.Source && canBeRoot(c) && rootClass(c) <= classFailure && !c.Routine
}

// lateWait is how far apart in log time one crash's signals may be
// printed when one reports on the other: the consequence wait, plus the
// settle time. A consequence waits Options.ConsequenceWait for the cause
// printed after it to begin (a stall is reported before the timeout that
// caused it), and a cause that began by then is complete, as any
// incident's burst, a settle time later. A process's death is reported
// within that long of its cause, so a wrapper alone joins the crash
// printed before it within it (diedOf), or the cause printed just after
// it (causeAfter). A wrapper later than that, with no restart between,
// reports another death: a second crash a minute after the first is no
// report of it, however close in the correlation window. A wait up to the
// settle time holds nothing (awaitsCause): the settle time alone; without
// a consequence wait, the correlation window.
func (g *Grouper) lateWait() time.Duration {
	switch {
	case g.opts.ConsequenceWait <= 0:
		return g.opts.Correlation
	case g.opts.ConsequenceWait <= g.opts.Settle:
		return g.opts.Settle
	}
	return g.opts.ConsequenceWait + g.opts.Settle
}

// causeAfter returns the failure the lone wrapper w (fingerprint id), with
// no cause read with it nor before it, is context of: the failure its
// source printed just after it (within borrowedGap bytes) and within the
// consequence wait after it (lateWait), the best of them by the order of
// rank.go. A writer's buffer prints a process's wrapper before the
// traceback of the rank that failed first, seconds apart; what came after
// a stretch of serving, or later than the wait, is another failure.
func (g *Grouper) causeAfter(w *group, id string) *group {
	if w.Source == "" || g.opts.Correlation <= 0 {
		return nil
	}
	var best *group
	for _, m := range g.scopeGroups(w.Scope) {
		c := m.gr
		if m.id == id || !failureOfSource(c, w) {
			continue
		}
		if !adjacentBefore(burstOf(w), c) &&
			(c.At.Before(w.At) || c.At.After(w.last().Add(g.lateWait())) || c.Off <= w.End || c.Off-w.End > borrowedGap) {
			// Printed right before c, w is of its burst whatever
			// the times say (see adjacentBefore).
			continue
		}
		if best == nil || leads(c, best) {
			best = c
		}
	}
	return best
}

// namesWhere reports whether the fragment gr names where the process
// stopped: a hung thread's frames. A hang shown without them (a watchdog's
// dump of the running batch) says as little as a wrapper, and a hang of
// its burst that has them is its cause.
func namesWhere(gr *group) bool { return len(gr.Alert.HungThread) > 0 }

// better reports whether c is a better cause for a lone wrapper than b,
// by the order of rank.go: a generic line only when nothing else is
// there (see generic.go), else the earlier.
func better(c, b *group) bool {
	return leads(c, b)
}

// absorbWrapper makes the lone wrapper incident w context of the cause gr.
func (gr *group) absorbWrapper(w *group, st *Stats) {
	st.Folded += int64(max(w.Alert.Count, 1))
	if !gr.Settling && gr.Sent > 0 {
		// Announced already: its next summary says the process died.
		gr.LateContext = true
	}
	gr.changed()
	a := &gr.Alert
	if i := slices.IndexFunc(a.Context, func(c sinks.ContextHit) bool { return c.ID == w.Alert.Record.ID }); i >= 0 {
		if a.Context[i].Fingerprint == "" {
			a.Context[i].Fingerprint = w.Alert.Fingerprint
		}
	} else {
		a.Context = append(a.Context, sinks.ContextHit{
			ID: w.Alert.Record.ID, Slug: w.Alert.Record.Slug,
			Text:        cmp.Or(w.Alert.Headline, w.Alert.Match.Text),
			Fingerprint: w.Alert.Fingerprint,
		})
	}
	// The wrapper says the process died: as bad as the death.
	gr.worsen(w.Alert.Record)
	if gr.Source == w.Source {
		gr.spanTo(w.Off, w.End)
	}
	for _, r := range w.Alert.Ranks {
		a.Ranks = addRank(a.Ranks, r)
	}
	takeException(a, &w.Alert)
	gr.takeListed(w, st)
}

// takeFrom takes into gr, the incident of a burst's cause, what an
// occurrence or incident folded into it says of the failure: its
// exception when gr's has none, and, for a line of the same event (a
// native library's), its ranks.
func (gr *group) takeFrom(a *sinks.Alert, sameEvent bool) {
	takeException(&gr.Alert, a)
	if sameEvent {
		for _, r := range a.Ranks {
			gr.Alert.Ranks = addRank(gr.Alert.Ranks, r)
		}
	}
	gr.changed()
}

// takeException gives dst the exception of src when dst has none with a
// type: a record matched on a logged error line, or a native line, whose
// traceback was printed in another entry of the burst.
func takeException(dst, src *sinks.Alert) {
	x := src.Match.Exception
	if x == nil || x.Type == "" {
		return
	}
	if d := dst.Match.Exception; d != nil && d.Type != "" {
		return
	}
	if refusedClass(dst.Record.ErrorClass, x.Type) {
		// Another exception than the one the record names.
		return
	}
	if dst.Record.ID == "" && analysis.VagueException(x.Type, x.Message) {
		// One that only says the task failed ("RuntimeError: Transfer
		// failed") says less than the line no record names that it
		// would name.
		return
	}
	c := *x
	dst.Match.Exception = &c
}

// refusedClass reports whether a record of error class ec names another
// exception than one of type typ.
func refusedClass(ec, typ string) bool {
	return ec != "" && lastDotted(ec) != lastDotted(typ) && lastDotted(ec) != "Exception"
}

// worsen raises gr's severity to r's, and marks it fatal when r is: what
// was folded into the incident tells how bad it was.
func (gr *group) worsen(r sinks.Record) {
	if sinks.SeverityRank(r.Severity) > sinks.SeverityRank(gr.Alert.Record.Severity) {
		gr.Alert.Record.Severity = r.Severity
	}
	gr.Alert.Record.Fatal = gr.Alert.Record.Fatal || r.Fatal
}

// eventOf is what findRoot needs of a consequence: its source and
// whether it is a native line, to tell the native lines of its own event;
// where in its source it lies and whether its time was borrowed from a
// line before it, to find a cause printed after it.
type eventOf struct {
	source string
	// native says the consequence is a native line a record names (a
	// c10d watchdog's failure): the unclassified native lines of its
	// event are its details (sameEvent). A native consequence no record
	// names (the shell's "Killed") says only that the process died: the
	// native lines before it that state a failure are its cause.
	native bool
	// kind is the consequence's native shape (Occurrence.NativeKind).
	kind     string
	off, end int64
	borrowed bool
	// recorded says a record with solutions names the consequence: a
	// client fragment printed just after it is its detail (clientSummary).
	recorded bool
	// access says the consequence is a server's access line
	// (analysis.AccessLine): the status it answered a request with. A
	// cut traceback printed beside it is the handler's failure that the
	// status reports, never a caller's detail of it.
	access bool
	// peer says the consequence names the peer its process lost
	// (reportsPeer, loggedBefore).
	peer bool
	// process is the process the consequence's first line named
	// (group.Process): NCCL's "host:pid:tid".
	process string
	// mild says the consequence is graded a warning or less: a state
	// the workload is left in (a pod Pending), which a cause graded a
	// warning printed beside it may explain (saysWhyBeside).
	mild bool
}

func eventOfGroup(c *group) eventOf {
	access := analysis.AccessLine(lineOf(c))
	return eventOf{c.Source, c.Native && c.Alert.Record.ID != "", c.NativeKind, c.Off, c.End, c.Borrowed, len(c.Alert.Record.Solutions) > 0,
		access, reportsPeer(&c.Alert, c.Native, access), c.Process, mildSeverity(c.Alert.Record.Severity)}
}

// sameLibrary reports whether two native shapes may be one library's
// lines: equal, or one unknown (a snapshot written before shapes were
// kept).
func sameLibrary(a, b string) bool { return a == "" || b == "" || a == b }

// endsEventOf reports whether the unclassified native line of shape kind
// may be a detail of a native consequence of shape of: one library's
// line of the same event, or the process's death ("terminate called
// ...", faulthandler's abort, the shell's "Aborted") that any library's
// failure ends in, which names no library of its own.
func endsEventOf(kind, of string) bool {
	switch kind {
	case entry.NativeTerminate, entry.NativeFaulthandler, entry.NativeShell:
		return true
	}
	return sameLibrary(kind, of)
}

// printedBefore reports whether the root cause candidate c, which began
// after the consequence from at at, is nevertheless its cause: the
// consequence's time was borrowed from a line before it (a bare
// "Killed" dated by the stream's last timestamp, a launcher's traceback
// read under another writer's header), so it only says the line was
// printed after that line, and c comes from the same source, within the
// correlation window, with no more than a burst's bytes between them. A
// consequence line is no evidence of when the cause happened: writers'
// buffers (stdout before stderr, a parent's line before a child's
// traceback) put it anywhere around the cause.
//
// A consequence with its own time is printed before its cause too: a
// failure that stalls the server (a health check that gets no answer, a
// rank that waits) is reported as the stall goes on, and what caused it
// when the wait that hung gives up, a timeout later. So a cause printed
// within a few lines after it (borrowedGap: the access lines a stalled
// server still answers, not a restart's start-up) and within the
// consequence wait (lateWait: as long as run holds the consequence for
// it) is its cause too, when none came before it.
func (g *Grouper) printedBefore(c *group, from eventOf, at time.Time) bool {
	if from.source == "" || c.Source != from.source || !c.At.After(at) || c.At.After(at.Add(g.opts.Correlation)) {
		return false
	}
	gap := gapBetween(c.Off, c.End, from.off, from.end)
	return from.borrowed && gap <= maxBurstGap || c.Off > from.end && gap <= borrowedGap && !c.At.After(at.Add(g.lateWait()))
}

// printedJustAfter reports whether the root cause candidate c, which
// began after the consequence from at at beyond the settle time, was
// printed just before it in their source (within borrowedGap bytes): the
// consequence's time runs backwards from its cause's, which no one writer
// does (a paste of two runs' lines, writers with clocks apart), so the
// order of the lines is the better evidence, and the consequence printed
// right after its cause is its.
func (g *Grouper) printedJustAfter(c *group, from eventOf, at time.Time) bool {
	return from.source != "" && c.Source == from.source && at.Before(c.At.Add(-g.opts.Settle)) &&
		c.End < from.off && from.off-c.End <= borrowedGap
}

// sameEvent reports whether the open incident x is an unclassified native
// line of the same event as a native consequence from at: the same
// source and library (its native shape), within the settle time.
func (g *Grouper) sameEvent(from eventOf, x *group, at time.Time) bool {
	return from.native && from.source != "" && x.Source == from.source && claimable(x) && !x.Generic && endsEventOf(x.NativeKind, from.kind) &&
		!at.Before(x.At.Add(-g.opts.Settle)) && !at.After(x.last().Add(g.opts.Settle)) &&
		!beganEvent(x, from.off, at)
}

// beganEvent reports whether the unclassified native line x, of the same
// source and event as a native consequence at offset off and time at,
// began that event: it was printed before the consequence, can be a root
// cause (error or worse) and says what went wrong, not only that something
// failed (analysis.VagueFailure). A library reports what happened first and
// what it did about it after: c10d's watchdog says which collective timed
// out and after how long, then that it detected an exception at that work;
// a transfer engine says which memory region no device registered, then
// that the transfer failed. The consequence's record reads the second line;
// a wording of the first that no record has still leads. Details printed
// after the consequence ("Stack trace of the failed collective not found")
// and a first line that only says a task failed ("Transfer failed for
// task0", then "Put operation failed with error: TRANSFER_FAIL") stay the
// consequence's. C++'s "terminate called after throwing an instance of
// 'c10::DistBackendError'" never began it: it reports the process's death
// by the exception the library's line after it says (c10d's "Process
// group watchdog thread terminated with exception: CUDA error: ..."),
// printed first when the two writers' buffers are flushed out of order.
func beganEvent(x *group, off int64, at time.Time) bool {
	ahead := x.Off < off || x.Off == off && x.At.Before(at)
	return ahead && x.NativeKind != entry.NativeTerminate && (canBeRoot(x) || reportsAtWarn(x) && !vagueNative(lineOf(x))) && !x.vagueHeadline()
}

// beganAtWarn reports whether the open incident x, a failure reported at
// WARN by a library that reports its failures so (reportsAtWarn), began
// the event of the native consequence from at at: a line of the same
// source and library printed before it, within the settle time, that says
// what went wrong (beganEvent). The consequence is then x's, as it would
// be an error line's.
func (g *Grouper) beganAtWarn(from eventOf, x *group, at time.Time) bool {
	return from.native && from.source != "" && x.Source == from.source && from.kind == x.NativeKind && x.Alert.Record.ID == "" &&
		reportsAtWarn(x) && g.correlated(x.At, at) && beganEvent(x, from.off, at)
}

// Another rank's failure, printed after. Ranks of one job write to one
// stream, each through its own buffer: the rank whose peer died often
// prints that its connection closed ("NCCL WARN socketProgress:
// Connection closed by remote peer", a consequence record's line) before
// the dying rank's own WARN line that says what failed on it ("NCCL WARN
// Cuda failure 'out of memory'", "Failed to CUDA calloc 6291456 bytes").
// That line, no record naming it, of another process of the same library
// in the same source, printed just after the consequence began (within
// borrowedGap bytes of its first line: the consequence's incident may
// span the lines it took in since)
// and within its correlation window, is the consequence's cause, as one
// printed before it would be (beganAtWarn), when it says what failed on
// its own rank: a CUDA call or a resource that ran out (ownRankFailure).
// A WARN line of the consequence's own process after it is its detail
// still (detailOf); so is another rank's that only reports a peer or a
// socket.

// peerWarnAfter reports whether the open incident x is such a cause of
// the native consequence from at at (see above).
func (g *Grouper) peerWarnAfter(from eventOf, x *group, at time.Time) bool {
	return failedOnPeer(from, x) && g.correlated(x.At, at)
}

// failedOnPeer reports whether the unclassified WARN line x is another
// process's failure printed just after the native consequence from (see
// above), whatever their times.
func failedOnPeer(from eventOf, x *group) bool {
	return from.native && from.source != "" && x.Source == from.source && from.kind == x.NativeKind && x.Alert.Record.ID == "" &&
		reportsAtWarn(x) && from.process != "" && x.Process != "" && x.Process != from.process &&
		x.Off > from.off && x.Off-from.off <= borrowedGap && ownRankFailure(lineOf(x))
}

// ownRankFailure reports whether a native line says what failed on its
// own rank: a CUDA call NCCL checked ("Cuda failure 'out of memory'",
// "Failed to CUDA calloc 6291456 bytes") or a resource that ran out
// (analysis.FamilyMemory), not a peer's or a socket's state.
func ownRankFailure(line string) bool {
	return strings.Contains(line, "Cuda failure") || strings.Contains(line, "CUDA failure") || strings.Contains(line, "Failed to CUDA ") ||
		analysis.MessageFamily(line) == analysis.FamilyMemory
}

// warnEventBefore returns, for the unclassified line gen (fingerprint id)
// of a library that reports its failures at WARN (reportsAtWarn), the
// open incident of the same library's unclassified line that began its
// event: printed before it in the same source, by the same process, within
// a few lines (borrowedGap) and the settle time, saying what went wrong.
// NCCL's proxy reports "Error encountered progressing operation", then
// "Failed to execute operation" for the same connection: one event, led
// by its first line, as when a record names that line. Nil when there is
// none.
func (g *Grouper) warnEventBefore(gen *group, id string) *group {
	if !reportsAtWarn(gen) || gen.Alert.Record.ID != "" || gen.Source == "" {
		return nil
	}
	var best *group
	for _, m := range g.members(g.genByScope, gen.Scope) {
		c := m.gr
		if m.id == id || c.Alert.Record.ID != "" || c.NativeKind != gen.NativeKind || c.Source != gen.Source || !reportsAtWarn(c) ||
			!sameProcess(c.Process, gen.Process) || c.End > gen.Off || gen.Off-c.End > borrowedGap ||
			gen.At.After(c.last().Add(g.opts.Settle)) || c.vagueHeadline() || vagueNative(lineOf(c)) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// reportsAtWarn reports whether gr is the incident of a native line of a
// library that reports its failures at WARN: NCCL prints a call that
// failed ("Call to ibv_create_cq failed", "Error while attaching to shared
// memory segment") as a WARN line, the first of its chain, and the lines
// after it (its proxy's "Failed to execute operation", its socket's
// "Connection closed by remote peer") as WARN lines too. Only the failure
// reports of its WARN lines are signals at all (analysis), so the first
// one of an event began it as an error line would.
func reportsAtWarn(gr *group) bool {
	return gr.Native && gr.NativeKind == entry.NativeNCCL && !gr.Consequence &&
		sinks.SeverityRank(gr.Alert.Record.Severity) >= sinks.SeverityRank("warning")
}

// vagueHeadline reports whether gr's headline only says that something
// failed (analysis.VagueFailure), read once for each incident: the
// searches of every new failure ask it of each open incident of their
// scope.
func (gr *group) vagueHeadline() bool {
	if gr.vague == 0 {
		gr.vague = 2
		if analysis.VagueFailure(gr.Alert.Headline) {
			gr.vague = 1
		}
	}
	return gr.vague == 1
}

// detailOf returns the native consequence incident that the unclassified
// native line gen (fingerprint id), with no classified cause in its burst,
// is a detail of: the earliest consequence of its source that is a native
// line of the same library (its native shape) a record names, within the
// settle time of it. Nil when there is
// none: a consequence no record names ("Killed") is gen's, not gen its;
// and a consequence printed after gen when gen began the event
// (beganEvent): then the consequence is gen's. A native warning no record names is such a detail too: NCCL's proxy
// prints "Error encountered progressing operation" (a consequence
// record's line) and then "Failed to execute operation" for the same
// connection, both as WARN lines.
func (g *Grouper) detailOf(gen *group, id string) *group {
	if !gen.Native {
		return nil
	}
	var best *group
	b := burstOf(gen)
	for _, m := range g.scopeConsequences(gen.Scope) {
		c := m.gr
		if m.id == id || !c.Native || c.Alert.Record.ID == "" || !endsEventOf(gen.NativeKind, c.NativeKind) || c.Source != gen.Source || beganEvent(gen, c.Off, c.At) || !g.inBurst(c, b) ||
			failedOnPeer(eventOfGroup(c), gen) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}
