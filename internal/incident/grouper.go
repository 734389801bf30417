package incident

import (
	"container/heap"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// Alert kinds: why an alert was emitted.
const (
	KindNew      = "new"      // the first hit of an incident, sent at once
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

// Defaults for Options fields left zero.
const (
	DefaultMaxGroups = 10000
	maxRanks         = 64
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
	// MaxGroups bounds the open incidents; the least recently seen one is
	// closed (with its summary) to make room. Default DefaultMaxGroups.
	MaxGroups int
}

// Stats counts what the grouper did.
type Stats struct {
	Occurrences int64 // occurrences observed
	Alerts      int64 // alerts emitted
	Evicted     int64 // groups closed early by MaxGroups
	Open        int   // groups open now
}

// Grouper folds occurrences into incidents. It is not safe for concurrent
// use; the pipeline owns one.
type Grouper struct {
	opts   Options
	groups map[string]*group
	// lru orders the open groups by LastSeen (then Seq), oldest first, so
	// making room for a new incident costs O(log n), not a scan of all.
	lru   lruHeap
	seq   int64 // creation order, for deterministic output
	stats Stats
}

type group struct {
	Alert     sinks.Alert `json:"alert"`     // the incident so far: first occurrence, running count
	Sent      int         `json:"sent"`      // Alert.Count when the last alert went out
	LastEmit  time.Time   `json:"lastEmit"`  // when the last alert went out
	WindowEnd time.Time   `json:"windowEnd"` // end of the current group window
	LastSeen  time.Time   `json:"lastSeen"`  // processing time of the latest occurrence
	// FirstClosed is set once the first window has closed: later repeats
	// wait for a reminder or the end of the incident.
	FirstClosed bool  `json:"firstClosed"`
	Seq         int64 `json:"seq"`

	id   string // key in Grouper.groups
	slot int    // index in Grouper.lru
}

// lruHeap is a min-heap of groups by (LastSeen, Seq): the root is the one
// MaxGroups evicts.
type lruHeap []*group

func (h lruHeap) Len() int { return len(h) }

func (h lruHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if !a.LastSeen.Equal(b.LastSeen) {
		return a.LastSeen.Before(b.LastSeen)
	}
	return a.Seq < b.Seq
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
	g.groups[id] = gr
	heap.Push(&g.lru, gr)
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
}

// New returns a Grouper.
func New(opts Options) *Grouper {
	if opts.MaxGroups <= 0 {
		opts.MaxGroups = DefaultMaxGroups
	}
	return &Grouper{opts: opts, groups: make(map[string]*group)}
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
	g.stats.Occurrences++
	if g.opts.Window == 0 {
		g.stats.Alerts++
		return []sinks.Alert{o.Alert}
	}
	id := o.Alert.Fingerprint
	if gr, ok := g.groups[id]; ok {
		gr.add(o, now)
		heap.Fix(&g.lru, gr.slot)
		return nil
	}
	var out []sinks.Alert
	if len(g.groups) >= g.opts.MaxGroups {
		out = append(out, g.evictOldest()...)
	}
	g.seq++
	gr := &group{Alert: o.Alert, LastSeen: now, Seq: g.seq}
	if g.opts.Window > 0 {
		gr.WindowEnd = now.Add(g.opts.Window)
		gr.Sent = gr.Alert.Count
		gr.LastEmit = now
		out = append(out, gr.Alert)
		g.stats.Alerts++
	}
	g.add(id, gr)
	return out
}

func (gr *group) add(o Occurrence, now time.Time) {
	a := &gr.Alert
	a.Count++
	if o.Time.After(a.LastTime) {
		a.LastTime = o.Time
	}
	if o.Time.Before(a.Time) {
		a.Time = o.Time
	}
	if o.Rank != "" && !slices.Contains(a.Ranks, o.Rank) && len(a.Ranks) < maxRanks {
		a.Ranks = append(a.Ranks, o.Rank)
		slices.SortFunc(a.Ranks, compareRanks)
	}
	gr.LastSeen = now
}

// Tick closes windows that ended by now: it returns a summary for each
// incident with uncounted repeats when its window closes, a reminder when
// it keeps happening past the repeat interval, and forgets incidents that
// were quiet for a whole window.
func (g *Grouper) Tick(now time.Time) []sinks.Alert {
	if g.opts.Window <= 0 {
		return nil
	}
	var out []sinks.Alert
	for _, id := range g.sortedIDs() {
		gr := g.groups[id]
		if now.Before(gr.WindowEnd) {
			continue
		}
		quiet := !now.Before(gr.LastSeen.Add(g.opts.Window))
		pending := gr.Alert.Count > gr.Sent
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
		if quiet {
			g.remove(id)
			continue
		}
		gr.WindowEnd = now.Add(g.opts.Window)
	}
	return out
}

// update returns the incident as a KindUpdate alert without counting it as
// announced: reminders and summaries still report the repeats to people.
func (g *Grouper) update(gr *group) sinks.Alert {
	a := gr.Alert
	a.Kind = KindUpdate
	a.Ranks = slices.Clone(a.Ranks)
	g.stats.Alerts++
	return a
}

func (g *Grouper) emit(gr *group, kind string, now time.Time) sinks.Alert {
	gr.Sent = gr.Alert.Count
	gr.LastEmit = now
	a := gr.Alert
	a.Kind = kind
	a.Ranks = slices.Clone(a.Ranks)
	g.stats.Alerts++
	return a
}

// NextDeadline is the earliest time Tick has work to do; zero when none.
// The pipeline sleeps until then (or the next occurrence).
func (g *Grouper) NextDeadline() time.Time {
	var next time.Time
	for _, gr := range g.groups {
		if gr.WindowEnd.IsZero() {
			continue
		}
		if next.IsZero() || gr.WindowEnd.Before(next) {
			next = gr.WindowEnd
		}
	}
	return next
}

// Flush closes every incident and returns one alert for each that has
// occurrences not yet announced, in the order the incidents began. In
// Forever mode that is every incident, with its total count.
func (g *Grouper) Flush(now time.Time) []sinks.Alert {
	var out []sinks.Alert
	for _, id := range g.sortedIDs() {
		gr := g.groups[id]
		if g.opts.Window < 0 || gr.Alert.Count > gr.Sent {
			out = append(out, g.emit(gr, KindSummary, now))
		}
		g.remove(id)
	}
	return out
}

func (g *Grouper) evictOldest() []sinks.Alert {
	if len(g.lru) == 0 {
		return nil
	}
	oldest := g.lru[0]
	g.remove(oldest.id)
	g.stats.Evicted++
	if g.opts.Window < 0 || oldest.Alert.Count > oldest.Sent {
		return []sinks.Alert{g.emit(oldest, KindSummary, oldest.LastSeen)}
	}
	return nil
}

func (g *Grouper) sortedIDs() []string {
	ids := make([]string, 0, len(g.groups))
	for id := range g.groups {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		sa, sb := g.groups[a].Seq, g.groups[b].Seq
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	return ids
}

// snapshotVersion is bumped when the snapshot layout changes; Restore
// rejects other versions rather than misreading them.
const snapshotVersion = 1

type snapshot struct {
	Version int               `json:"version"`
	Seq     int64             `json:"seq"`
	Groups  map[string]*group `json:"groups"`
}

// Snapshot serialises the open incidents for the checkpoint.
func (g *Grouper) Snapshot() ([]byte, error) {
	return json.Marshal(snapshot{Version: snapshotVersion, Seq: g.seq, Groups: g.groups})
}

// Restore replaces the open incidents with a snapshot taken by Snapshot.
// An empty snapshot restores nothing.
func (g *Grouper) Restore(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	var s snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("grouping state: %w", err)
	}
	if s.Version != snapshotVersion {
		return fmt.Errorf("grouping state: version %d, want %d", s.Version, snapshotVersion)
	}
	g.seq = s.Seq
	g.groups = make(map[string]*group, len(s.Groups))
	g.lru = g.lru[:0]
	for id, gr := range s.Groups {
		if gr == nil {
			continue
		}
		gr.id = id
		g.groups[id] = gr
		gr.slot = len(g.lru)
		g.lru = append(g.lru, gr)
	}
	heap.Init(&g.lru)
	return nil
}

// compareRanks orders rank strings by their numbers where the tokens agree
// ("TP2" before "TP10"), falling back to plain string order.
func compareRanks(a, b string) int {
	na, nb := rankKey(a), rankKey(b)
	for i := 0; i < len(na) && i < len(nb); i++ {
		if na[i] != nb[i] {
			if na[i] < nb[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(na) != len(nb):
		return len(na) - len(nb)
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// rankKey extracts the numbers of a rank string: "DP1 TP10" -> [1 10].
func rankKey(s string) []int {
	var out []int
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if '0' <= c && c <= '9' {
			n = n*10 + int(c-'0')
			in = true
			continue
		}
		if in {
			out = append(out, n)
			n, in = 0, false
		}
	}
	if in {
		out = append(out, n)
	}
	return out
}
