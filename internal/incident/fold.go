package incident

import (
	"slices"
	"time"

	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// Causal folding. One crash is reported by many processes: the rank that
// failed logs the cause, its parent relays the signal ("Received sigquit
// from a child process"), the peers' NCCL watchdogs time out minutes later.
// Records with role "consequence" name those follow-ups. Within the
// correlation window, on the same pod or node, a consequence is folded
// into the incident of the root cause (the earliest failure that is not a
// consequence) and listed in it; it is alerted on its own only when no
// root cause is visible, since then it may be all there is.

// scopeClock is the latest log time seen in one scope and the processing
// time it was seen at.
type scopeClock struct {
	Log  time.Time `json:"log"`
	Seen time.Time `json:"seen"`
}

func isConsequence(o Occurrence) bool {
	return o.Alert.Record.Role == string(patterns.RoleConsequence)
}

// correlationTime is when o happened as correlation sees it: its log time
// when the entry had a timestamp, else the latest log time of its scope
// advanced by the processing time since (a c10d line printed between two
// sglang lines happened between them), else its read time.
func (g *Grouper) correlationTime(o Occurrence, now time.Time) time.Time {
	c, ok := g.clocks[o.Scope]
	if o.Timed {
		if !ok || o.Time.After(c.Log) {
			g.setClock(o.Scope, scopeClock{Log: o.Time, Seen: now})
		}
		return o.Time
	}
	if ok {
		return c.Log.Add(max(now.Sub(c.Seen), 0))
	}
	return o.Time
}

// setClock records a scope's clock, keeping the clocks bounded by
// MaxGroups: the one seen longest ago makes room.
func (g *Grouper) setClock(scope string, c scopeClock) {
	if _, ok := g.clocks[scope]; !ok && len(g.clocks) >= g.opts.MaxGroups {
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
// consequence at at folds into: the earliest one correlated with it.
// skip is a fingerprint to leave out.
func (g *Grouper) findRoot(scope string, at time.Time, skip string) *group {
	var best *group
	for id, gr := range g.groups {
		if gr.Consequence || gr.Scope != scope || id == skip || !g.correlated(gr.At, at) {
			continue
		}
		if best == nil || gr.At.Before(best.At) || (gr.At.Equal(best.At) && gr.Seq < best.Seq) {
			best = gr
		}
	}
	return best
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
			Headline: cmpOr(c.Headline, c.Match.Text), Count: n,
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

// consequences is the number of consequence occurrences folded into gr.
func (gr *group) consequences() int {
	n := gr.Unlisted
	for i := range gr.Alert.Consequences {
		n += gr.Alert.Consequences[i].Count
	}
	return n
}

// adopt folds into the new root-cause incident root the settling
// consequence incidents of its scope that it explains: consequences read
// before their cause.
func (g *Grouper) adopt(root *group, rootID string) {
	for _, id := range g.sortedIDs() {
		c := g.groups[id]
		if !c.Consequence || !c.Settling || c.Scope != root.Scope || !g.correlated(root.At, c.At) {
			continue
		}
		if r := g.findRoot(c.Scope, c.At, rootID); r != nil && !r.At.After(root.At) {
			continue // an earlier root cause explains it
		}
		root.foldAlert(&c.Alert, &g.stats)
		if c.LastSeen.After(root.LastSeen) {
			root.LastSeen = c.LastSeen
		}
		delete(g.groups, id)
	}
}

// foldSettled folds settling consequence incidents into a root cause that
// is open now: those whose settle time is over, or all of them at Flush.
// Adopt does this when the root cause arrives; this covers a root cause
// restored from a snapshot or a consequence restored without one.
func (g *Grouper) foldSettled(now time.Time, all bool) {
	if g.opts.Correlation <= 0 {
		return
	}
	for _, id := range g.sortedIDs() {
		c := g.groups[id]
		if !c.Consequence || !c.Settling || (!all && now.Before(c.NotifyAt)) {
			continue
		}
		if root := g.findRoot(c.Scope, c.At, id); root != nil {
			root.foldAlert(&c.Alert, &g.stats)
			if c.LastSeen.After(root.LastSeen) {
				root.LastSeen = c.LastSeen
			}
			delete(g.groups, id)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
