package incident

import (
	"cmp"
	"container/heap"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// Alert kinds: why an alert was emitted.
const (
	// KindNew is the first announcement of an incident: after the settle
	// time, with every occurrence and consequence seen by then (in the
	// one-shot scan mode, at the end, with all of them).
	KindNew      = "new"
	KindSummary  = "summary"  // repeats counted since the last alert, when a window closes
	KindReminder = "reminder" // still happening after the repeat interval
	// KindUpdate re-announces an incident that is still active at the end
	// of a later window, between reminders. It is for receivers that track
	// state and expire what is not re-posted (Alertmanager's endsAt); the
	// pipeline does not send it to people.
	KindUpdate = "update"
)

// Forever as a Window groups every occurrence of a key into one incident
// and emits nothing until Flush: the one-shot scan mode.
const Forever time.Duration = -1

// Defaults for Options fields left zero, and the defaults the
// configuration offers for the others.
const (
	DefaultMaxGroups = 10000
	// DefaultSettle is the configured default of Options.Settle: long
	// enough for a traceback, its logger.error line and the other ranks
	// of one crash to arrive, short enough not to delay a page.
	DefaultSettle = 2 * time.Second
	// DefaultCorrelation is the configured default of Options.Correlation:
	// above torch's default NCCL collective timeout (10 minutes), after
	// which peers' watchdogs report the rank that died.
	DefaultCorrelation = 15 * time.Minute
	// DefaultConsequenceWait is the configured default of
	// Options.ConsequenceWait: longer than a stalled server takes to
	// print why (a health check that fails 20 seconds into a stall, the
	// connect timeout that caused it a few seconds later), short enough
	// that a consequence whose cause is never printed still pages within
	// the minute.
	DefaultConsequenceWait = 30 * time.Second
	maxRanks               = 64
	// maxConsequences bounds the consequence kinds listed in one incident;
	// more are still folded (never paged) and counted in Stats.
	maxConsequences = 16
)

// Options configure a Grouper.
type Options struct {
	// Window is how long repeats of one incident are folded into one alert.
	// 0 turns grouping off (every occurrence is its own alert); Forever
	// folds everything until Flush.
	Window time.Duration
	// RepeatInterval is how often a reminder goes out while an incident
	// keeps happening; 0 sends none.
	RepeatInterval time.Duration
	// MaxGroups bounds the open incidents. To make room for a new one, the
	// least recently seen incident with nothing left to announce is
	// forgotten; when every open incident still has something to announce,
	// the least recently seen one is announced at once (its first alert or
	// its summary) and closed, so eviction never loses an alert. Default
	// DefaultMaxGroups.
	MaxGroups int
	// Settle delays the first notification of an incident, like
	// Alertmanager's group_wait, so that it carries the whole burst: the
	// traceback after its logger.error line, every rank that failed, the
	// consequences. 0 announces at once.
	Settle time.Duration
	// Correlation is how long after a root cause, on the same pod or node
	// (Occurrence.Scope), a consequence (a record with role
	// "consequence") is folded into the root cause's incident instead of
	// being alerted on its own. 0 turns folding off.
	Correlation time.Duration
	// ConsequenceWait is how long, from its first occurrence, an incident
	// made only of consequences (a failed health check, a peer's watchdog
	// timeout, a relayed signal) with no root cause in sight when its
	// settle time is over waits for one before it is announced alone: a
	// stalled server reports the stall before the timeout that caused it.
	// A cause read meanwhile that the consequence folds into (see
	// findRoot: printed within a few lines after it) leads, and the
	// consequence is listed in it. A hang's dump that names no place
	// waits the same way for the dump that does (placeless), and a
	// wrapper alone for the cause printed just after it (causeAfter). The
	// wait ends early when the caller says (Assembling.ReadTo) that the
	// source was read too far past the incident for what follows to be
	// its cause. It also bounds how late a wrapper alone reports the
	// death of the crash before it (diedOf, lateWait). Causes are never
	// held by it. Values up to Settle wait no longer than Settle.
	ConsequenceWait time.Duration
}

// Stats counts what the grouper did.
type Stats struct {
	Occurrences int64 // occurrences observed
	Alerts      int64 // alerts emitted
	Evicted     int64 // groups closed early by MaxGroups
	Open        int   // groups open now
	Folded      int64 // consequence and generic-line occurrences folded into a root-cause incident
	// Unlisted counts folded consequences of kinds beyond the
	// maxConsequences an incident lists.
	Unlisted int64
	// EvictedEarly counts the evicted groups that still had something to
	// announce, and were announced as they were closed.
	EvictedEarly int64
	// Routine counts the incidents dropped unannounced: a native
	// library's routine-looking error line alone in its burst.
	Routine int64
}

// Grouper folds occurrences into incidents. It is not safe for concurrent
// use; the pipeline owns one.
type Grouper struct {
	opts   Options
	groups map[string]*group
	// restartIDs is Restarted's scratch slice of ids.
	restartIDs []string
	// lru orders the open groups by LastSeen (then Seq), oldest first, so
	// making room for a new incident costs O(log n), not a scan of all.
	lru   lruHeap
	seq   int64 // creation order, for deterministic output
	stats Stats
	// clocks holds, per scope, the latest log time seen, so an entry
	// without a timestamp is placed in log time for correlation. Pruned
	// to the scopes of open groups.
	clocks map[string]scopeClock
	// byScope indexes the open incidents by correlation scope, so that
	// folding looks only at its own pod or node. Rebuilt on Restore, and
	// read through scopeGroups, which drops what was closed since.
	byScope map[string]map[string]struct{}
	// consByScope is byScope for the consequence incidents only, which
	// a new root cause looks through for those it explains.
	consByScope map[string]map[string]struct{}
	// waiting holds, by scope, the fingerprints of the last maxAdopted
	// consequence incidents opened there, oldest first: the ones a new
	// root cause looks at (adopt). Rebuilt on Restore.
	waiting map[string][]string
	// genByScope is byScope for the generic incidents only, which a new
	// classified cause looks through for those of its burst.
	genByScope map[string]map[string]struct{}
	// causeBySource indexes the incidents of cause records by scope and
	// source (causeKey), which a generic line looks through for the
	// cause of its burst: at most one per record.
	causeBySource map[sourceKey]map[string]struct{}
	// nativeBySource indexes the incidents of cause records that are
	// native lines, by scope and source: a new classified cause looks
	// through them alone for the native line of its event.
	nativeBySource map[sourceKey]map[string]struct{}
	// failBySource indexes the incidents of unclassified tracebacks and
	// native error lines by scope and source, which a generic line with
	// no classified cause in its burst looks through (findFailure).
	failBySource map[sourceKey]map[string]struct{}
	// failByRaise indexes the traced ones among failBySource's incidents
	// by their exception line too: a traceback raising one again finds
	// its incident without reading every failure of its source
	// (raisedBefore), which a storm of distinct tracebacks made quadratic.
	failByRaise map[raiseKey]map[string]struct{}
	// blockBySource indexes the Ascend error blocks among failBySource's
	// incidents, which an exception printed just after one looks through
	// (blockBefore) without reading every failure of its source.
	blockBySource map[sourceKey]map[string]struct{}
	// dirty holds the fingerprints of the incidents opened, changed or
	// closed since the last Committed: what Changes writes or deletes.
	// reset, set instead when that set outgrows its bound (commits failing
	// for long) or after Restore, makes Changes write every open incident.
	dirty map[string]struct{}
	reset bool
	// assembling, set for the length of a TickHolding, tells when the
	// entry a source is still assembling began (see due).
	assembling Assembling
}

// Assembling is what a caller that assembles entries itself (run, the
// Collector) tells TickHolding of each source (an Occurrence.SourceKey):
// when the entry it is still assembling began (its first line was
// processed then), and how far it has been read. The zero value says
// nothing of any source.
type Assembling struct {
	began map[string]time.Time
	read  map[string]int64
}

// Began notes that source has an entry pending since since (zero: none);
// of several, the earliest counts.
func (a *Assembling) Began(source string, since time.Time) {
	if since.IsZero() {
		return
	}
	if a.began == nil {
		a.began = make(map[string]time.Time)
	}
	if t, ok := a.began[source]; !ok || since.Before(t) {
		a.began[source] = since
	}
}

// ReadTo notes that the latest line read from source begins at byte off
// (negative: none yet); of several streams of one source, the furthest
// counts. An incident that waits for a cause printed after it stops
// waiting once its source has been read too far past it for that cause to
// be its (see awaitsCause).
func (a *Assembling) ReadTo(source string, off int64) {
	if off < 0 {
		return
	}
	if a.read == nil {
		a.read = make(map[string]int64)
	}
	if o, ok := a.read[source]; !ok || off > o {
		a.read[source] = off
	}
}

type group struct {
	// The fields a repeat of the incident reads and writes (group.add,
	// Grouper.touch, pending) come first, in two cache lines, with the
	// kinds Flush's passes and the searches test of every group (Settling,
	// Consequence, Generic, Fragment, Native, Routine); then, in a
	// third, what a burst is read from (burstOf, inBurst: with Off, End
	// and Last), which the searches of a new failure and Flush read of
	// many groups; then the alert, whose fields a repeat reads (Time,
	// LastTime, Count, Ranks) fill its first two lines. A repeat of an
	// incident read long ago, most error lines of a large log, misses on
	// four lines of the group rather than nine. The snapshot's JSON names
	// the fields, in any order.
	id   string // key in Grouper.groups
	slot int    // index in Grouper.lru
	// busy is pending() as it was when the group last took its place in
	// Grouper.lru: a group with something to announce is evicted only
	// when no other is left. seen is LastSeen as it was then: it only
	// grows, and the heap is put right for it when the group comes to
	// its root (evictOldest), not on every occurrence.
	busy bool
	// Settling is set until the first notification: it goes out at
	// NotifyAt. Snapshots of version 1 have neither, and their groups
	// were announced when they began, which is what false means.
	Settling bool `json:"settling,omitempty"`
	// LateContext says a wrapper or fragment joined the incident as
	// context after it was announced (a parent's report of the death
	// read late, see diedOf): its next summary carries it, as it does a
	// consequence folded late.
	LateContext bool `json:"lateContext,omitempty"`
	// Consequence marks an incident of a consequence record: it looks for
	// a root cause to fold into before it is announced.
	Consequence bool `json:"consequence,omitempty"`
	// Generic marks the incident of a generic error line, which a
	// classified cause of its burst outranks (see generic.go).
	Generic bool `json:"generic,omitempty"`
	// Fragment marks the incident of a failure shown only in part (a
	// traceback cut before its exception line): like a wrapper alone,
	// it is context of the cause of its burst (see fold.go).
	Fragment bool `json:"fragment,omitempty"`
	// Native marks the incident of a native library's lines (glog, UCX,
	// CANN, faulthandler): the lines of one event are one incident.
	Native bool `json:"native,omitempty"`
	// Routine says the incident began with a routine-looking native
	// error line (Occurrence.Routine): alone when it settles, it is
	// dropped (see routineAlone).
	Routine bool      `json:"routine,omitempty"`
	seen    time.Time // see busy
	// owner is the grouper the group is open in, nil once closed: every
	// change to a group's fields ends with changed, which marks it for
	// the next Changes.
	owner *Grouper
	// Off and End are the byte range of its source its occurrences (and
	// the lines folded into it) span: see burst.
	Off      int64     `json:"off,omitempty"`
	End      int64     `json:"end,omitempty"`
	LastSeen time.Time `json:"lastSeen"` // processing time of the latest occurrence
	// Last is the correlation time of the latest occurrence.
	Last time.Time `json:"last,omitzero"`
	// At is the log time of the first occurrence as correlation sees it;
	// FirstSeen (below) its processing time, which bounds how long a
	// quiet root-cause incident stays open for late consequences.
	At time.Time `json:"at,omitzero"`
	// Scope is the correlation scope (pod or node) of the incident.
	Scope string `json:"scope,omitempty"`
	// Source is the source identity (Occurrence.SourceKey) a burst
	// shares (see generic.go).
	Source string `json:"source,omitempty"`
	// Borrowed says At is not the time of the line matched but of a line
	// before it (Occurrence.Borrowed): it was printed at or after At.
	Borrowed bool `json:"borrowed,omitempty"`

	Alert     sinks.Alert `json:"alert"`     // the incident so far: first occurrence, running count
	Sent      int         `json:"sent"`      // Alert.Count when the last alert went out
	LastEmit  time.Time   `json:"lastEmit"`  // when the last alert went out
	WindowEnd time.Time   `json:"windowEnd"` // end of the current group window
	// FirstClosed is set once the first window has closed: later repeats
	// wait for a reminder or the end of the incident.
	FirstClosed bool  `json:"firstClosed"`
	Seq         int64 `json:"seq"`
	// FirstSeen: see At.
	FirstSeen time.Time `json:"firstSeen,omitzero"`
	// NotifyAt is when a settling incident's first notification goes out.
	NotifyAt time.Time `json:"notifyAt,omitzero"`
	// ConsSent is the number of consequence occurrences when the last
	// alert went out; Unlisted counts those beyond maxConsequences kinds.
	ConsSent int `json:"consSent,omitempty"`
	Unlisted int `json:"unlisted,omitempty"`
	// Writer is the writer of a generic line (Occurrence.Writer); "" for
	// another incident, or in a snapshot written before it was kept.
	Writer string `json:"writer,omitempty"`
	// Hang marks the incident of a hang's dump (Occurrence.Hang).
	Hang bool `json:"hang,omitempty"`
	// Client marks a fragment of an HTTP client's call
	// (Occurrence.Client).
	Client bool `json:"client,omitempty"`
	// Unplaced marks a fragment whose frames name no phase and no
	// component (Occurrence.Unplaced).
	Unplaced bool `json:"unplaced,omitempty"`
	// Tolerated says the incident began with an error a notice quotes
	// that the program went on after (Occurrence.Tolerated): held like a
	// consequence for a failure of its source after it, and dropped like
	// a routine line when nothing joined it.
	Tolerated bool `json:"tolerated,omitempty"`
	// Pressure says the incident is of a warning the scheduler handles
	// by design under load (pressureRecord: a decode retraction): alone,
	// not storming, it is dropped like a routine line (routineAlone).
	// Storm says it came again at another moment within pressureStorm of
	// the last (see pressureAt).
	Pressure bool `json:"pressure,omitempty"`
	Storm    bool `json:"storm,omitempty"`
	// Frameless marks the incident of a fragment that says less than a
	// wrapper (Occurrence.Frameless).
	Frameless bool `json:"frameless,omitempty"`
	// NativeKind is the native shape of its first line
	// (Occurrence.NativeKind); "" for another entry, or in a snapshot
	// written before it was kept.
	NativeKind string `json:"nativeKind,omitempty"`
	// Process is the process its first line named
	// (Occurrence.Process); "" when it named none, or in a snapshot
	// written before it was kept.
	Process string `json:"process,omitempty"`
	// Signal says it is the incident of a fatal signal handler's report
	// (signalReport), and Site the function its PC frame names, once
	// one of its entries named one (see signalsite.go).
	Signal bool   `json:"signal,omitempty"`
	Site   string `json:"site,omitempty"`
	// Bare says the incident began with an exception line printed alone
	// (Occurrence.Bare).
	Bare bool `json:"bare,omitempty"`
	// Traced says it began with a traceback with its frames
	// (Occurrence.Traced).
	Traced bool `json:"traced,omitempty"`
	// Untimed says At is a read time: no line of the scope had a log time
	// yet. The first that has one, read within the settle time, dates it.
	Untimed bool `json:"untimed,omitempty"`
	// Guessed says At's year is a guess (Occurrence.Guessed) that the
	// scope's first line with a year corrects (see reyear).
	Guessed bool `json:"guessed,omitempty"`
	// vague caches whether the headline only says that something failed
	// (vagueHeadline): 0 not read yet, 1 vague, 2 not.
	vague uint8
}

// changed marks gr for the next Changes after a change to its fields.
func (gr *group) changed() {
	if gr.owner != nil {
		gr.owner.markDirty(gr.id)
	}
}

// markDirty records that the incident id was opened, changed or closed.
// The set is bounded: past twice MaxGroups (commits have been failing) it
// is dropped for a rewrite of every open incident.
func (g *Grouper) markDirty(id string) {
	if g.reset {
		return
	}
	g.dirty[id] = struct{}{}
	if len(g.dirty) > 2*g.opts.MaxGroups {
		g.reset = true
		clear(g.dirty)
	}
}

// lruHeap is a min-heap of groups by (busy, LastSeen, Seq): the root is the
// one MaxGroups evicts, the least recently seen of those with nothing left
// to announce when there are any. It orders the groups by the keys they
// had when they last took their place (busy, seen): a key that grew since
// is put right when its group comes to the root.
type lruHeap []*group

func (h lruHeap) Len() int { return len(h) }

func (h lruHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	return keyLess(a.busy, a.seen, a.Seq, b.busy, b.seen, b.Seq)
}

// keyLess orders two places in the eviction order.
func keyLess(abusy bool, aseen time.Time, aseq int64, bbusy bool, bseen time.Time, bseq int64) bool {
	if abusy != bbusy {
		return !abusy
	}
	if !aseen.Equal(bseen) {
		return aseen.Before(bseen)
	}
	return aseq < bseq
}

func (h lruHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].slot, h[j].slot = i, j
}

func (h *lruHeap) Push(x any) {
	gr := x.(*group)
	gr.slot = len(*h)
	*h = append(*h, gr)
}

func (h *lruHeap) Pop() any {
	old := *h
	gr := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	gr.slot = -1
	return gr
}

// add opens a group under id.
func (g *Grouper) add(id string, gr *group) {
	gr.id = id
	gr.owner = g
	gr.busy, gr.seen = gr.pending(), gr.LastSeen
	g.groups[id] = gr
	g.lru.push(gr)
	g.markDirty(id)
}

// push is heap.Push(h, gr) without the interface: the same sift up, by
// Less and Swap called directly (a new incident's, most of a scan's).
func (h *lruHeap) push(gr *group) {
	h.Push(gr)
	for j := len(*h) - 1; ; {
		i := (j - 1) / 2 // parent
		if i == j || !h.Less(j, i) {
			break
		}
		h.Swap(i, j)
		j = i
	}
}

// touch restores the eviction order after gr's LastSeen changed or it
// announced what it had or got more to announce. A place that only moved
// later (a repeat, the common case) is left for evictOldest to put right:
// the heap stays ordered by places no later than the groups' own, which
// is all the root needs.
func (g *Grouper) touch(gr *group) {
	// The group's own fields first: most touches change neither key, and
	// then the heap's slot of the group (another cache line) is not read.
	busy := gr.pending()
	if busy == gr.busy && !gr.LastSeen.Before(gr.seen) {
		return
	}
	if gr.slot >= 0 && gr.slot < len(g.lru) && g.lru[gr.slot] == gr {
		gr.busy, gr.seen = busy, gr.LastSeen
		heap.Fix(&g.lru, gr.slot)
	}
}

// remove closes the group under id.
func (g *Grouper) remove(id string) {
	gr := g.groups[id]
	if gr == nil {
		return
	}
	delete(g.groups, id)
	if gr.slot >= 0 && gr.slot < len(g.lru) && g.lru[gr.slot] == gr {
		heap.Remove(&g.lru, gr.slot)
	}
	gr.owner = nil
	g.unindexScope(id, gr)
	g.markDirty(id)
}

// New returns a Grouper.
func New(opts Options) *Grouper {
	if opts.MaxGroups <= 0 {
		opts.MaxGroups = DefaultMaxGroups
	}
	return &Grouper{opts: opts, groups: make(map[string]*group), clocks: make(map[string]scopeClock),
		byScope: make(map[string]map[string]struct{}), consByScope: make(map[string]map[string]struct{}),
		genByScope: make(map[string]map[string]struct{}), causeBySource: make(map[sourceKey]map[string]struct{}),
		nativeBySource: make(map[sourceKey]map[string]struct{}), failBySource: make(map[sourceKey]map[string]struct{}),
		failByRaise: make(map[raiseKey]map[string]struct{}), blockBySource: make(map[sourceKey]map[string]struct{}),
		// A new grouper's first Changes clears whatever incidents are
		// stored: a state it did not restore is not its own.
		dirty: make(map[string]struct{}), reset: true}
}

// Stats returns the counters.
func (g *Grouper) Stats() Stats {
	s := g.stats
	s.Open = len(g.groups)
	return s
}

// Observe records one occurrence seen at processing time now and returns
// the alerts to send at once: the first of a new incident, nothing for a
// repeat inside the window.
func (g *Grouper) Observe(o Occurrence, now time.Time) []sinks.Alert {
	return g.ObserveByRef(&o, now)
}

// ObserveByRef is Observe with the occurrence passed by pointer, which it
// does not keep; it may complete it (Occurrence.Complete). An Occurrence
// is over a kilobyte: a caller that makes one for every failure line in
// place (Builder.OccurrenceTo) saves copying it on the way in.
func (g *Grouper) ObserveByRef(o *Occurrence, now time.Time) []sinks.Alert {
	g.stats.Occurrences++
	if g.opts.Window == 0 {
		g.stats.Alerts++
		o.Complete()
		return []sinks.Alert{o.Alert}
	}
	at, untimed := g.correlationTime(o, now)
	guessed := o.Guessed && at.Equal(o.Time)
	consequence := o.consequence()
	if consequence && g.opts.Correlation > 0 {
		// A consequence waits out its settle time in an incident of its
		// own, so that a root cause read just after it (another stream, an
		// entry still being assembled) can claim it; only without a settle
		// time, or once it was announced alone, is it folded at once.
		gr, ok := g.incidentOf(o)
		waits := g.opts.Settle > 0 || g.opts.Window < 0
		if !ok && !waits || ok && !gr.Settling {
			o.Complete()
			access := analysis.AccessLine(lineOfAlert(&o.Alert))
			from := eventOf{o.SourceKey, o.Native && o.Alert.Record.ID != "", o.NativeKind, o.Offset, o.EndOffset, o.Borrowed || !o.Timed && !untimed, len(o.Alert.Record.Solutions) > 0,
				access, reportsPeer(&o.Alert, o.Native, access), o.Process, mildSeverity(o.Alert.Record.Severity)}
			if root := g.findRoot(o.Scope, at, "", from); root != nil {
				root.fold(*o, now, &g.stats)
				g.touch(root)
				return nil
			}
		}
	}
	gr, ok := g.incidentOf(o)
	if !ok && !consequence && g.genericFolds() {
		var cause *group
		b := burst{o.Scope, o.SourceKey, at, at, o.Offset, o.EndOffset, o.NativeKind, 0}
		if o.Alert.Record.ID != "" {
			o.Complete()
			if clientEcho(o) {
				if c := g.echoedFailure(o, b); c != nil {
					// A client's echo of the server's failure read
					// before it (see echo.go).
					c.fold(*o, now, &g.stats)
					c.spanTo(o.Offset, o.EndOffset)
					g.touch(c)
					return nil
				}
			}
		}
		if o.Alert.Record.ID != "" || o.exception {
			o.Complete()
			if c := g.swallowedFailure(o, b); c != nil {
				// The follow-on of a failure its program caught
				// and went on from (see swallowed.go).
				c.fold(*o, now, &g.stats)
				c.spanTo(o.Offset, o.EndOffset)
				g.touch(c)
				return nil
			}
			if c := g.importBefore(o, at); c != nil {
				// A name a failed import should have defined (see
				// imported.go).
				c.fold(*o, now, &g.stats)
				g.touch(c)
				return nil
			}
		}
		switch {
		case o.Generic || o.Native:
			cause = g.findClassified(b, "")
		case o.Alert.Record.ID != "":
			// A classified cause joins only a native line of its
			// event: only those are looked at.
			cause = g.findCauseIn(g.nativeBySource, b, "")
		case !o.Fragment:
			// An exception no record names, read after the classified
			// cause of its burst (see chain.go).
			cause = g.causeBefore(b)
			if cause == nil {
				// The exception torch_npu raises for a CANN block
				// no record reads, printed just after it (see
				// chain.go).
				cause = g.blockBefore(b)
			}
			if cause == nil && o.Traced {
				// The same exception raised again by the caller
				// that waited on it (see chain.go).
				o.Complete()
				cause = g.raisedBefore(o, b)
			}
			if cause == nil {
				// An exception that only says its task failed, after
				// the failure it gave up on (see restate.go).
				cause = g.gaveUpOn(o, b)
			}
			if cause == nil {
				// A peer's channel that broke after a failure (see
				// restate.go).
				cause = g.lostPeer(o, b)
			}
		}
		if cause == nil && o.Native && o.Alert.Record.ID != "" {
			// A line of the same library's event, whatever its
			// severity (see nativeEvent).
			cause = g.nativeEvent(b, "")
		}
		if cause != nil && o.Alert.Record.ID != "" && cause.Settling && narrowsGroup(o, cause) {
			// The library's own record of the event whose first line a
			// general record names: it leads, and claims that line
			// (claimNarrowed).
			cause = nil
		}
		if cause == nil && o.Alert.Record.ID != "" && o.Alert.Record.Role == string(patterns.RoleCause) {
			if k := g.killBefore(o, b, o.Borrowed || !o.Timed && !untimed); k != nil {
				// A wait that ran out after the OOM kill that ended it
				// (see waitkill.go).
				g.joinKill(o, k, now)
				return nil
			}
			if p := g.platformBefore(o, b); p != nil {
				// An engine's verdict on the device after the
				// platform's failure that hid it (see platform.go).
				p.fold(*o, now, &g.stats)
				p.spanTo(o.Offset, o.EndOffset)
				g.touch(p)
				return nil
			}
			if s := g.siteBefore(o, b); s != nil {
				// The process's death after the signal handler's
				// report that named where it crashed (see
				// signalsite.go).
				g.promote(s)
				s.fold(*o, now, &g.stats)
				s.spanTo(o.Offset, o.EndOffset)
				g.touch(s)
				return nil
			}
			if own := g.narrowerBefore(o, b); own != nil {
				// A general record's line of the event the library's
				// own record, printed just before it, names (see
				// narrower.go).
				own.fold(*o, now, &g.stats)
				own.spanTo(o.Offset, o.EndOffset)
				g.touch(own)
				return nil
			}
		}
		if cause == nil && o.Native && o.Alert.Record.ID != "" {
			if first := g.eventBegunBefore(o, b); first != nil {
				// A later line of a native event whose first line, no
				// record naming it, says what failed (see
				// nativefirst.go).
				o.Complete()
				first.fold(*o, now, &g.stats)
				first.spanTo(o.Offset, o.EndOffset)
				first.takeFrom(&o.Alert, true)
				g.touch(first)
				return nil
			}
		}
		if cause == nil && o.Alert.Record.ID != "" {
			// A failure of the library whose chain of lines began the
			// burst (see lower.go).
			o.Complete()
			if chain := g.chainBefore(o, b); chain != nil {
				chain.fold(*o, now, &g.stats)
				chain.spanTo(o.Offset, o.EndOffset)
				chain.takeFrom(&o.Alert, o.Native)
				g.touch(chain)
				return nil
			}
			if f := g.faultBefore(o, b); f != nil {
				// The same device fault, reported again by a call
				// on the dead context (see fault.go).
				f.fold(*o, now, &g.stats)
				f.spanTo(o.Offset, o.EndOffset)
				if f.Alert.Record.ID != "" {
					// A first report no record names keeps its
					// own line, which says more than the crash's
					// exception.
					f.takeFrom(&o.Alert, false)
				}
				g.touch(f)
				return nil
			}
		}
		if cause == nil && (o.Generic || o.Native && o.Alert.Record.ID == "" && !o.Fragment) {
			// A generic line, or a native line of an event whose first
			// line no record names either.
			cause = g.findFailure(b, "")
			if cause != nil && saysWhatFailedAfter(o, cause) {
				// Its library's line that says what failed, after
				// the line that only said its task failed: it
				// leads (saidAfter).
				cause = nil
			}
			if cause != nil && cause.Settling && relaysUnread(cause, o.Offset) && o.Offset-cause.End <= borrowedGap &&
				detailOccurrence(o) {
				// The CANN block names the cause of the exception
				// that relayed it: it leads (claimRelayed).
				cause = nil
			}
		}
		if cause == nil && o.Generic {
			// A client's own words for a request the server refused
			// (see generic.go).
			cause = g.findRefusal(b, "")
		}
		if cause == nil && o.Generic {
			// A line that only says something failed, after the line
			// a consequence record reads of the same source: what
			// failed, said again (see restate.go).
			cause = g.saidBefore(o, b)
		}
		if cause != nil && o.Native && cause.Settling && relays(cause, o.Offset) && o.Offset-cause.End <= borrowedGap &&
			documentedOccurrence(o) {
			// The CANN block explains the exception that relayed it:
			// it leads, and claims the exception (claimRelayed).
			cause = nil
		}
		if cause != nil && o.Alert.Record.ID != "" && quotesChild(cause, o.Offset) {
			// The child's own line, which the cause's line quotes
			// the output of: it leads (claimQuoted).
			cause = nil
		}
		if cause != nil && g.joinsBurst(o, cause) {
			// A generic line, or a native line, read after the
			// classified cause of its burst is listed in the cause's
			// incident at once.
			o.Complete()
			cause.fold(*o, now, &g.stats)
			cause.spanTo(o.Offset, o.EndOffset)
			cause.takeFrom(&o.Alert, o.Native)
			g.touch(cause)
			return nil
		}
	}
	if ok {
		if gr.Pressure {
			gr.pressureAt(at)
		}
		gr.add(o, now)
		if at.After(gr.Last) {
			gr.Last = at
		}
		g.touch(gr)
		return nil
	}
	var out []sinks.Alert
	// A loop, not one eviction: a state restored from a larger bound
	// comes down to this one at once.
	for len(g.groups) >= g.opts.MaxGroups && len(g.lru) > 0 {
		out = append(out, g.evictOldest()...)
	}
	g.seq++
	o.Complete()
	id := o.Alert.Fingerprint
	gr = &group{Alert: o.Alert, LastSeen: now, Seq: g.seq, Scope: o.Scope, Consequence: consequence, At: at, FirstSeen: now,
		Generic: o.Generic && !consequence, Source: o.SourceKey, Last: at, Writer: o.Writer,
		Fragment: o.Fragment && !consequence, Hang: o.Hang, Client: o.Client && !consequence, Unplaced: o.Unplaced && !consequence, Frameless: o.Frameless && !consequence, Native: o.Native, NativeKind: o.NativeKind, Process: o.Process, Routine: o.Routine, Tolerated: o.Tolerated, Pressure: pressureRecord(&o.Alert.Record), Bare: o.Bare, Traced: o.Traced, Untimed: untimed, Borrowed: o.Borrowed || !o.Timed && !untimed, Guessed: guessed, Off: o.Offset, End: o.EndOffset}
	gr.Alert.FirstRank = o.Rank
	if signalReport(&gr.Alert.Record) {
		gr.Signal, gr.Site = true, crashSite(gr.Alert.Entry)
	}
	if !o.Timed && !untimed || o.Guessed {
		// A line without a timestamp happened when its scope's log
		// says, not when it was read (a replayed or scanned log); one
		// without a year, in the year its scope's lines say.
		gr.Alert.Time, gr.Alert.LastTime = at, at
	}
	g.add(id, gr)
	g.indexScope(id, gr)
	if consequence {
		g.noteWaiting(gr.Scope, id)
	}
	if !consequence && g.opts.Correlation > 0 {
		// Generic lines first: a consequence of the burst then finds
		// the cause, not the generic line, as its root.
		g.claimGenerics(gr)
		g.claimChained(gr)
		g.claimContinued(gr)
		g.claimQuoted(gr)
		g.claimNarrowed(gr)
		g.claimHidden(gr)
		g.claimAwaited(gr)
		g.claimWaited(gr)
		g.claimRelayed(gr)
		g.adopt(gr)
	}
	switch {
	case g.opts.Window > 0 && g.opts.Settle > 0:
		gr.Settling = true
		gr.NotifyAt = now.Add(g.opts.Settle)
	case g.opts.Window > 0:
		gr.WindowEnd = now.Add(g.opts.Window)
		out = append(out, g.emit(gr, KindNew, now))
	default:
		// Forever: announced by Flush.
		gr.Settling = true
	}
	g.touch(gr)
	return out
}

// incidentOf returns the open incident of o's fingerprint.
func (g *Grouper) incidentOf(o *Occurrence) (*group, bool) {
	if o.lazy != nil {
		gr, ok := g.groups[string(o.fp[:])] // no string is made
		return gr, ok
	}
	gr, ok := g.groups[o.Alert.Fingerprint]
	return gr, ok
}

func (gr *group) add(o *Occurrence, now time.Time) {
	a := &gr.Alert
	a.Count++
	// The same record read later on a line that is no notice is a
	// failure in its own right: the incident is no longer tolerated.
	gr.Tolerated = gr.Tolerated && o.Tolerated
	if o.Time.After(a.LastTime) {
		a.LastTime = o.Time
	}
	if o.Time.Before(a.Time) {
		// An earlier occurrence read later (another stream): it is where
		// the failure began.
		a.Time = o.Time
		if o.Rank != "" {
			a.FirstRank = o.Rank
		}
	}
	a.Ranks = addRank(a.Ranks, o.Rank)
	gr.spanTo(o.Offset, o.EndOffset)
	// o's side first: a repeat without an exception, most of them, reads
	// neither the alert's exception pointer nor what it points to (two
	// cache misses, on an incident read long ago).
	if (o.lazy == nil || o.exception) && (a.Match.Exception == nil || a.Match.Exception.Type == "") && !refusesLazy(a, o) {
		// The record's first line came without its traceback (a logged
		// error line, then the exception): the traceback names it.
		o.Complete()
		takeException(a, &o.Alert)
	}
	if gr.Signal && gr.Site == "" {
		// The handler's report again, behind a logger's prefix that
		// kept its PC frame with it (see signalsite.go).
		o.Complete()
		gr.Site = crashSite(o.Alert.Entry)
	}
	gr.LastSeen = now
	gr.changed()
}

// refusesLazy reports whether takeException would refuse the exception
// of o, whose alert is not built yet, for a: the record a names another
// exception. A repeat that brings such an exception then builds no alert
// (the type is the diagnosis's, which no Finish rewrites).
func refusesLazy(a *sinks.Alert, o *Occurrence) bool {
	b := o.lazy
	if b == nil || b.seq != o.seq || b.d == nil || b.d.Exception == nil {
		return false
	}
	return refusedClass(a.Record.ErrorClass, b.d.Exception.Type)
}

func addRank(ranks []string, r string) []string {
	if r == "" || slices.Contains(ranks, r) || len(ranks) >= maxRanks {
		return ranks
	}
	// ranks is sorted (addRank made it, one rank at a time): r moves down
	// to its place, as a sort would put it, with no comparison of the
	// ranks before that place among themselves.
	ranks = append(ranks, r)
	for i := len(ranks) - 1; i > 0 && compareRanks(ranks[i-1], ranks[i]) > 0; i-- {
		ranks[i-1], ranks[i] = ranks[i], ranks[i-1]
	}
	return ranks
}

// Tick closes windows that ended by now: it returns a summary for each
// incident with uncounted repeats when its window closes, a reminder when
// it keeps happening past the repeat interval, and forgets incidents that
// were quiet for a whole window.
func (g *Grouper) Tick(now time.Time) []sinks.Alert {
	return g.TickHolding(now, Assembling{})
}

// TickHolding is Tick for a caller that assembles entries itself (run
// mode): assembling says when the entry each source is still assembling
// began.
// An incident whose settle time is over is still held while its source has
// such an entry that began by its deadline: that entry is the rest of its
// burst, read in time but not yet complete (it waits for the next line, or
// the end of the input). The settle time waits for what was read, not for
// how fast the machine got to it: a loaded machine that ticks between the
// lines of a burst and its last entry decides what an unloaded one does,
// and what scan decides (see due). The zero Assembling holds nothing.
func (g *Grouper) TickHolding(now time.Time, assembling Assembling) []sinks.Alert {
	if g.opts.Window <= 0 {
		return nil
	}
	g.assembling = assembling
	defer func() { g.assembling = Assembling{} }()
	var out []sinks.Alert
	g.foldGenerics(now, false)
	// One order for the passes below: a fold removes incidents (skipped
	// where they were) and changes no incident's place in it.
	ids := g.sortedIDs()
	g.foldRestatements(ids, now, false)
	g.foldSettled(ids, now, false)
	for _, id := range ids {
		gr, ok := g.groups[id]
		if !ok {
			continue // folded into a root cause announced before it
		}
		if gr.Settling {
			if !g.due(gr, now) {
				continue
			}
			if g.awaitsCause(gr, now) {
				// Looked at again when the wait ends, or a settle time
				// on when the caller says how far its source is read:
				// it may have been read past it by then.
				gr.NotifyAt = gr.FirstSeen.Add(g.lateWait())
				if _, ok := g.assembling.read[gr.Source]; ok && now.Add(g.opts.Settle).Before(gr.NotifyAt) {
					gr.NotifyAt = now.Add(g.opts.Settle)
				}
				gr.changed()
				continue
			}
			if g.dropRoutine(id, gr) {
				continue
			}
			g.claim(gr)
			gr.Settling, gr.NotifyAt = false, time.Time{}
			gr.WindowEnd = now.Add(g.opts.Window)
			out = append(out, g.emit(gr, KindNew, now)) // emit marks it changed
			g.touch(gr)
			continue
		}
		if now.Before(gr.WindowEnd) {
			continue
		}
		quiet := !now.Before(gr.LastSeen.Add(g.opts.Window))
		pending := gr.pending()
		switch {
		case pending && !gr.FirstClosed:
			// The first window closed with repeats in it.
			out = append(out, g.emit(gr, KindSummary, now))
		case pending && quiet:
			// The incident stopped: account for the repeats since the
			// last alert before forgetting it.
			out = append(out, g.emit(gr, KindSummary, now))
		case pending && g.opts.RepeatInterval > 0 && !now.Before(gr.LastEmit.Add(g.opts.RepeatInterval)):
			out = append(out, g.emit(gr, KindReminder, now))
		case pending:
			out = append(out, g.update(gr))
		}
		gr.FirstClosed = true
		gr.changed()
		if quiet && g.expired(gr, now) {
			g.remove(id)
			continue
		}
		gr.WindowEnd = now.Add(g.opts.Window)
		g.touch(gr)
	}
	g.pruneClocks()
	g.pruneScopes()
	return out
}

// due reports whether the settle time of the settling incident gr is over
// at now: its deadline has passed, and its source is assembling no entry
// that began by then (TickHolding).
func (g *Grouper) due(gr *group, now time.Time) bool {
	if now.Before(gr.NotifyAt) {
		return false
	}
	since, ok := g.assembling.began[gr.Source]
	return !ok || since.After(gr.NotifyAt)
}

// awaitsCause reports whether the settling incident gr, due at now, is
// still held for its cause: an incident of consequences that no cause
// claimed by its settle time waits until ConsequenceWait after its first
// occurrence (see Options.ConsequenceWait), and the settle time of a
// cause that began by then (lateWait), and so do a hang's dump that
// names no place (placeless), for the dump that does, and a wrapper alone
// or a fragment with no cause read with it or before it, for the cause
// printed just after it (causeAfter). The wait ends with whichever comes
// first: its time, or its source read too far past it for what is printed
// next to be its cause (readPast), as scan decides from the lines between
// them (printedBefore, causeAfter, placeOf).
func (g *Grouper) awaitsCause(gr *group, now time.Time) bool {
	return (gr.Consequence || placeless(gr) || loneWrapper(gr) && !gr.Hang || (gr.Tolerated || gr.Pressure) && gr.routineAlone()) && g.opts.Correlation > 0 && g.opts.ConsequenceWait > g.opts.Settle &&
		now.Before(gr.FirstSeen.Add(g.lateWait())) && !g.readPast(gr)
}

// readPast reports whether gr's source has been read further past it than
// a cause printed after it may lie: borrowedGap bytes, or maxBurstGap for a
// consequence whose time was borrowed from a line before it (see
// printedBefore). False when the caller did not say (Tick, scan).
func (g *Grouper) readPast(gr *group) bool {
	pos, ok := g.assembling.read[gr.Source]
	if !ok || gr.Source == "" {
		return false
	}
	limit := int64(borrowedGap)
	if gr.Consequence && gr.Borrowed {
		limit = maxBurstGap
	}
	return pos-gr.End > limit
}

// pending reports whether the incident has occurrences or consequences
// not yet announced.
func (gr *group) pending() bool {
	return gr.Settling || gr.Alert.Count > gr.Sent || gr.consequences() > gr.ConsSent || gr.LateContext
}

// expired reports whether a quiet incident may be forgotten: a root cause
// stays open for the correlation window, so that a late consequence (a
// peer's NCCL timeout minutes later) still finds it.
func (g *Grouper) expired(gr *group, now time.Time) bool {
	return gr.Consequence || g.opts.Correlation <= 0 || !now.Before(gr.FirstSeen.Add(g.opts.Correlation))
}

// update returns the incident as a KindUpdate alert without counting it as
// announced: reminders and summaries still report the repeats to people.
func (g *Grouper) update(gr *group) sinks.Alert {
	a := gr.alert()
	a.Kind = KindUpdate
	g.stats.Alerts++
	return a
}

// emit returns the incident as an alert of kind and marks it announced.
// An incident never announced before goes out as KindNew whatever the
// caller's reason (an eviction or Flush of a settling incident is still
// its first notification).
func (g *Grouper) emit(gr *group, kind string, now time.Time) sinks.Alert {
	kind = g.announce(gr, kind, now)
	a := gr.alert()
	a.Kind = kind
	return a
}

// announce marks gr announced at now as emit does and returns the kind its
// alert goes out as.
func (g *Grouper) announce(gr *group, kind string, now time.Time) string {
	if gr.Sent == 0 {
		kind = KindNew
	}
	gr.Settling, gr.NotifyAt = false, time.Time{}
	gr.Sent = gr.Alert.Count
	gr.ConsSent = gr.consequences()
	gr.LateContext = false
	gr.LastEmit = now
	gr.changed()
	g.stats.Alerts++
	return kind
}

// emitLast is emit for an incident closed at once, whose state nothing
// reads again: its alert takes the incident's slices as they are.
func (g *Grouper) emitLast(gr *group, kind string, now time.Time) sinks.Alert {
	kind = g.announce(gr, kind, now)
	a := gr.Alert
	a.Kind = kind
	return a
}

// alert is a copy of the incident's alert that shares no slice with the
// grouper's state: the pipeline redacts alerts in place.
func (gr *group) alert() sinks.Alert {
	a := gr.Alert
	a.Ranks = slices.Clone(a.Ranks)
	a.Context = slices.Clone(a.Context)
	if len(a.Consequences) > 0 {
		a.Consequences = slices.Clone(a.Consequences)
		for i := range a.Consequences {
			a.Consequences[i].Ranks = slices.Clone(a.Consequences[i].Ranks)
		}
	}
	return a
}

// NextDeadline is the earliest time Tick has work to do; zero when none.
// The pipeline sleeps until then (or the next occurrence).
func (g *Grouper) NextDeadline() time.Time {
	var next time.Time
	for _, gr := range g.groups {
		at := gr.WindowEnd
		if gr.Settling {
			at = gr.NotifyAt
		}
		if at.IsZero() {
			continue
		}
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// Flush closes every incident and returns one alert for each that has
// occurrences not yet announced, in the order the incidents began. In
// Forever mode that is every incident, with its total count.
func (g *Grouper) Flush(now time.Time) []sinks.Alert {
	g.foldGenerics(now, true)
	ids := g.sortedIDs()
	g.foldRestatements(ids, now, true)
	g.foldSettled(ids, now, true)
	ids = slices.DeleteFunc(ids, func(id string) bool {
		gr := g.groups[id]
		if gr != nil && g.dropRoutine(id, gr) {
			return true
		}
		return gr == nil
	})
	// The alerts are counted first: an Alert is large, and a slice grown
	// by append allocates about twice what it keeps.
	n := 0
	for _, id := range ids {
		if g.opts.Window < 0 || g.groups[id].pending() {
			n++
		}
	}
	var out []sinks.Alert
	if n > 0 {
		out = make([]sinks.Alert, 0, n)
	}
	// Every incident closes (ids are the open ones, each once: the folds
	// above only remove incidents, and those removed were dropped): each is
	// announced and marked as remove marks it, and the heap and indexes
	// are emptied at once rather than one incident at a time. The alerts
	// take the incidents' slices: nothing reads those incidents again.
	for _, id := range ids {
		gr := g.groups[id]
		if g.opts.Window < 0 || gr.pending() {
			// emitLast, its alert copied once, into its place.
			kind := g.announce(gr, KindSummary, now)
			out = append(out, gr.Alert)
			out[len(out)-1].Kind = kind
		}
		gr.owner = nil
		gr.slot = -1
		g.markDirty(id)
	}
	clear(g.groups)
	clear(g.lru)
	g.lru = g.lru[:0]
	for _, index := range []map[string]map[string]struct{}{g.byScope, g.consByScope, g.genByScope} {
		clear(index)
	}
	clear(g.waiting)
	for _, index := range []map[sourceKey]map[string]struct{}{g.causeBySource, g.nativeBySource, g.failBySource, g.blockBySource} {
		clear(index)
	}
	clear(g.failByRaise)
	g.pruneClocks()
	return out
}

// Restarted closes the open incidents of source (an Occurrence.SourceKey):
// the server that writes it started again (analysis.Startup), so what it
// reports from now on is a new incident, even of the same record, and what
// it reported before is over. Each is folded as at Flush, then announced
// when it has something to announce (its first alert, or the repeats since
// its last) and forgotten; the alerts are returned in the order the
// incidents began. A scan's crash after a restart is thus an incident of
// its own, as a run's is once its window closed.
func (g *Grouper) Restarted(source string, now time.Time) []sinks.Alert {
	if g.opts.Window == 0 || source == "" {
		return nil
	}
	ids := g.restartIDs[:0] // the Grouper's, kept for the next start-up line
	for id, gr := range g.groups {
		if gr.Source == source {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	defer func() { clear(ids); g.restartIDs = ids[:0] }()
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(g.groups[a].Seq, g.groups[b].Seq) })
	g.foldGenericsOf(now, true, source)
	g.foldRestatements(ids, now, true)
	g.foldSettled(ids, now, true)
	out := make([]sinks.Alert, 0, len(ids))
	for _, id := range ids {
		gr := g.groups[id]
		if gr == nil || gr.Source != source {
			continue // folded into another
		}
		if g.dropRoutine(id, gr) {
			continue
		}
		g.remove(id)
		if g.opts.Window < 0 || gr.pending() {
			out = append(out, g.emitLast(gr, KindSummary, now))
		}
	}
	return out
}

func (g *Grouper) evictOldest() []sinks.Alert {
	if len(g.lru) == 0 {
		return nil
	}
	oldest := g.lru[0]
	for {
		// The root's place may have moved later since it took it.
		busy := oldest.pending()
		if busy == oldest.busy && oldest.LastSeen.Equal(oldest.seen) {
			break
		}
		oldest.busy, oldest.seen = busy, oldest.LastSeen
		heap.Fix(&g.lru, 0)
		oldest = g.lru[0]
	}
	g.remove(oldest.id)
	g.stats.Evicted++
	if g.opts.Window < 0 || oldest.pending() {
		g.stats.EvictedEarly++
		return []sinks.Alert{g.emit(oldest, KindSummary, oldest.LastSeen)}
	}
	return nil
}

func (g *Grouper) sortedIDs() []string {
	// Sorted as (Seq, id) pairs: a comparison that looked both groups up
	// by id cost two map reads, n log n times. Seq is unique.
	type seqID struct {
		seq int64
		id  string
	}
	byseq := make([]seqID, 0, len(g.groups))
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for id, gr := range g.groups {
		byseq = append(byseq, seqID{gr.Seq, id})
		lo, hi = min(lo, gr.Seq), max(hi, gr.Seq)
	}
	if n := len(byseq); n > 1 && hi-lo < 2*int64(n) {
		// The open incidents' numbers are dense (a scan's, or a run's
		// that closed few): each id is put at its number's place, and
		// the places left empty are dropped.
		at := make([]int32, hi-lo+1) // the pair's index in byseq plus one
		for i, x := range byseq {
			at[x.seq-lo] = int32(i + 1)
		}
		ids := make([]string, 0, n)
		for _, i := range at {
			if i > 0 {
				ids = append(ids, byseq[i-1].id)
			}
		}
		return ids
	}
	slices.SortFunc(byseq, func(a, b seqID) int { return cmp.Compare(a.seq, b.seq) })
	ids := make([]string, len(byseq))
	for i := range byseq {
		ids[i] = byseq[i].id
	}
	return ids
}

// snapshotVersion is bumped when the snapshot layout changes; Restore
// rejects other versions rather than misreading them. Version 2 added
// settling, scopes and folded consequences; a version 1 snapshot reads as
// incidents already announced, which is what they were.
const snapshotVersion = 2

// partsVersion is the version of the state Changes writes in parts: the
// incidents one by one, and the rest (Changes.Meta) beside them. Its
// groups have the layout of snapshotVersion's.
const partsVersion = 3

type snapshot struct {
	Version int                   `json:"version"`
	Seq     int64                 `json:"seq"`
	Groups  map[string]*group     `json:"groups"`
	Clocks  map[string]scopeClock `json:"clocks,omitempty"`
}

// Snapshot serialises the open incidents in one piece: the JSON of a
// snapshot value. The pipeline carries incidents over a reload with it;
// its checkpoint writes only what changed (Changes).
func (g *Grouper) Snapshot() ([]byte, error) {
	return json.Marshal(snapshot{Version: snapshotVersion, Seq: g.seq, Groups: g.groups, Clocks: g.clocks})
}

// Restore replaces the open incidents with a snapshot taken by Snapshot.
// An empty snapshot restores nothing. The next Changes writes every open
// incident.
func (g *Grouper) Restore(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	var s snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("grouping state: %w", err)
	}
	if s.Version != snapshotVersion && s.Version != 1 {
		return fmt.Errorf("grouping state: version %d, want %d", s.Version, snapshotVersion)
	}
	g.restore(s.Seq, s.Clocks, s.Groups)
	g.reset = true
	return nil
}

// restore makes groups the open incidents, rebuilding the indexes.
func (g *Grouper) restore(seq int64, clocks map[string]scopeClock, groups map[string]*group) {
	g.seq = seq
	g.groups = make(map[string]*group, len(groups))
	g.lru = g.lru[:0]
	clear(g.dirty)
	for id, gr := range groups {
		if gr == nil {
			continue
		}
		gr.id, gr.owner, gr.busy, gr.seen = id, g, gr.pending(), gr.LastSeen
		g.groups[id] = gr
		gr.slot = len(g.lru)
		g.lru = append(g.lru, gr)
	}
	g.clocks = clocks
	if g.clocks == nil {
		g.clocks = make(map[string]scopeClock)
	}
	g.byScope = make(map[string]map[string]struct{})
	g.consByScope = make(map[string]map[string]struct{})
	g.genByScope = make(map[string]map[string]struct{})
	g.causeBySource = make(map[sourceKey]map[string]struct{})
	g.nativeBySource = make(map[sourceKey]map[string]struct{})
	g.failBySource = make(map[sourceKey]map[string]struct{})
	g.failByRaise = make(map[raiseKey]map[string]struct{})
	g.blockBySource = make(map[sourceKey]map[string]struct{})
	for id, gr := range g.groups {
		g.indexScope(id, gr)
	}
	g.rebuildWaiting()
	heap.Init(&g.lru)
}

// Changes is what the grouper's durable state needs since the last
// Committed: the incidents to write and those to delete, one by one, and
// the rest of the state (small: a counter and the scopes' clocks) whole.
// A checkpoint that applies it, in the transaction of the read positions,
// holds the grouper's state at that point, whatever the number of open
// incidents: a commit costs what changed, not what is open.
type Changes struct {
	// Reset says to delete every stored incident before Put, which then
	// holds every open one.
	Reset bool
	// Put are the incidents opened or changed, by fingerprint, as JSON.
	Put []Part
	// Delete are the fingerprints of incidents closed.
	Delete []string
	// Meta is the rest of the state, for RestoreParts.
	Meta []byte
}

// Part is one incident's stored form.
type Part struct {
	ID   string
	Data []byte
}

type meta struct {
	Version int                   `json:"version"`
	Seq     int64                 `json:"seq"`
	Clocks  map[string]scopeClock `json:"clocks,omitempty"`
}

// Changes returns what changed since the last Committed, in fingerprint
// order. It changes nothing: until Committed is called (the checkpoint
// holding them succeeded), the same changes and any later ones are
// returned again.
func (g *Grouper) Changes() (Changes, error) {
	m, err := json.Marshal(meta{Version: partsVersion, Seq: g.seq, Clocks: g.clocks})
	if err != nil {
		return Changes{}, fmt.Errorf("grouping state: %w", err)
	}
	c := Changes{Reset: g.reset, Meta: m}
	var ids []string
	if g.reset {
		ids = slices.Collect(maps.Keys(g.groups))
	} else {
		ids = slices.Collect(maps.Keys(g.dirty))
	}
	slices.Sort(ids)
	for _, id := range ids {
		gr, ok := g.groups[id]
		if !ok {
			c.Delete = append(c.Delete, id)
			continue
		}
		b, err := json.Marshal(gr)
		if err != nil {
			return Changes{}, fmt.Errorf("grouping state: incident %s: %w", id, err)
		}
		c.Put = append(c.Put, Part{ID: id, Data: b})
	}
	return c, nil
}

// Committed records that the last Changes are durable: the next Changes
// holds only what changes from now on.
func (g *Grouper) Committed() {
	clear(g.dirty)
	g.reset = false
}

// RestoreParts replaces the open incidents with the state a checkpoint
// built from Changes holds: its Meta, and each stored incident, which
// parts yields to the function it is given. An empty meta restores
// nothing.
func (g *Grouper) RestoreParts(metaData []byte, parts func(yield func(id string, data []byte) error) error) error {
	if len(metaData) == 0 {
		return nil
	}
	var m meta
	if err := json.Unmarshal(metaData, &m); err != nil {
		return fmt.Errorf("grouping state: %w", err)
	}
	if m.Version != partsVersion {
		return fmt.Errorf("grouping state: version %d, want %d", m.Version, partsVersion)
	}
	groups := make(map[string]*group)
	err := parts(func(id string, data []byte) error {
		gr := new(group)
		if err := json.Unmarshal(data, gr); err != nil {
			return fmt.Errorf("grouping state: incident %s: %w", id, err)
		}
		groups[id] = gr
		return nil
	})
	if err != nil {
		return err
	}
	g.restore(m.Seq, m.Clocks, groups)
	g.reset = false
	return nil
}

// compareRanks orders rank strings by their numbers where the tokens agree
// ("TP2" before "TP10"), falling back to plain string order.
func compareRanks(a, b string) int {
	// The numbers are read in step, without building lists of them: the
	// grouper sorts ranks on every occurrence.
	i, j := 0, 0
	for {
		na, ni, oka := nextNumber(a, i)
		nb, nj, okb := nextNumber(b, j)
		switch {
		case oka && okb:
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			i, j = ni, nj
			continue
		case oka != okb:
			// One has more numbers: the longer list sorts after.
			if oka {
				return 1
			}
			return -1
		}
		break
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// nextNumber reads the first run of digits in s at or after i: its value,
// the index after it, and whether there was one. "DP1 TP10" from 0 gives
// 1, from 3 gives 10.
func nextNumber(s string, i int) (n, next int, ok bool) {
	for ; i < len(s); i++ {
		if c := s[i]; '0' <= c && c <= '9' {
			break
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		ok = true
	}
	return n, i, ok
}

// routineAlone reports whether gr is a routine-looking native error line
// (Occurrence.Routine), a tolerated error (Occurrence.Tolerated) or a
// warning of load the scheduler handles by design (group.Pressure), that
// nothing joined: seen once (a pressure warning: at one moment, on
// however many ranks), with no consequence, context or other line of its
// burst folded in. A start-up that logs one error and goes on is no
// crash, nor is one retraction under a burst of long outputs; the same
// line repeated (retractions at moment after moment: the pool is too
// small for the load), or with anything after it that failed, is
// announced as any other.
func (gr *group) routineAlone() bool {
	a := &gr.Alert
	if !gr.Routine && !gr.Tolerated && !gr.Pressure || len(a.Consequences) > 0 || len(a.Context) > 0 || gr.Unlisted > 0 {
		return false
	}
	// A notice of a tolerated error that every rank prints is still a
	// notice, and so is one retraction that every TP rank reports.
	return gr.Tolerated || gr.Pressure && !gr.Storm || gr.Routine && a.Count <= 1
}

// pressureMoment is how far apart in log time the lines of one moment
// of load may be: the ranks of one scheduler step print its retraction
// within it. pressureStorm is how soon the next moment makes a storm:
// sglang's tuning guide calls a retraction about once a minute fine, and
// frequent ones a sign to admit fewer requests.
const (
	pressureMoment = 2 * time.Second
	pressureStorm  = time.Minute
)

// pressureAt notes a repeat of the pressure incident gr at the
// correlation time at: a new moment (more than pressureMoment after its
// last line) within pressureStorm of the last makes it a storm.
func (gr *group) pressureAt(at time.Time) {
	if gap := at.Sub(gr.last()); gap > pressureMoment && gap <= pressureStorm {
		gr.Storm = true
	}
}

// pressureRecord reports whether r reads a warning the scheduler handles
// by design under load: a decode retraction (tagged retract, graded a
// warning: "KV cache pool is full. Retract requests.", "Decode out of
// memory happened. #retracted_reqs: 1"), which pushes a request back to
// the queue to run it again. A retraction that fails (no request left to
// retract) is graded an error and is no such warning.
func pressureRecord(r *sinks.Record) bool {
	return r.Severity == string(patterns.SeverityWarning) && slices.Contains(r.Tags, "retract")
}

// dropRoutine drops the settling incident gr (id) when it is a routine
// line alone (routineAlone) and counts it in Stats.Routine; it reports
// whether it did.
func (g *Grouper) dropRoutine(id string, gr *group) bool {
	if !gr.Settling || !gr.routineAlone() {
		return false
	}
	g.remove(id)
	g.stats.Routine++
	return true
}
