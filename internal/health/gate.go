package health

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"
	"unicode/utf8"
)

// Defaults for Options fields left zero.
const (
	// DefaultMaxRestarts gated restarts within DefaultWindow engage the
	// flap guard: a server that broke three times in an hour is not
	// helped by a fourth restart.
	DefaultMaxRestarts = 3
	DefaultWindow      = time.Hour
	DefaultMaxTargets  = 1024
	DefaultForget      = 24 * time.Hour
	// MaxLineBytes bounds the matched line a Reason keeps: it is stored in
	// the checkpoint and printed by /livez.
	MaxLineBytes = 1024
)

// State is a target's gate state. Its numeric value is the value of the
// logmatch_gate_state metric.
type State int

// The states.
const (
	Healthy State = iota // no gating failure since the server last started
	Failing              // a gating failure was seen: /livez fails
	Held                 // a gating failure was seen, the flap guard keeps /livez passing
)

func (s State) String() string {
	switch s {
	case Healthy:
		return "healthy"
	case Failing:
		return "failing"
	case Held:
		return "held"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Target is one watched server.
type Target struct {
	Namespace string `json:"namespace,omitempty"`
	Pod       string `json:"pod,omitempty"`
	Container string `json:"container,omitempty"`
	// Self marks the server logmatch runs beside or wraps (sidecar, wrap
	// mode, files without a Kubernetes identity in their path). It is
	// never forgotten: a hung server writes nothing, and its gate must
	// keep failing however long that lasts.
	Self bool `json:"self,omitempty"`
}

// Key is the target's identity in the gate.
func (t Target) Key() string {
	if t.Self {
		return "self"
	}
	return t.Namespace + "/" + t.Pod + "/" + t.Container
}

// id is the target's map key: the names of a Self target do not split it.
func (t Target) id() Target {
	if t.Self {
		return Target{Self: true}
	}
	return t
}

// String names the target for people: "namespace/pod/container", or
// "this server" for an unnamed Self target.
func (t Target) String() string {
	if t.Namespace == "" && t.Pod == "" && t.Container == "" {
		return "this server"
	}
	return t.Namespace + "/" + t.Pod + "/" + t.Container
}

// Reason is the gating failure that tripped a target.
type Reason struct {
	RecordID string    `json:"recordId"`
	Slug     string    `json:"slug,omitempty"`
	Rank     string    `json:"rank,omitempty"` // "TP0", "DP1 TP3"; "" when the entry had none
	Time     time.Time `json:"time"`           // the failure's time: the log's own, else when it was read
	Line     string    `json:"line"`           // the matched line, at most MaxLineBytes
	Source   string    `json:"source,omitempty"`
}

// Options configure a Gate.
type Options struct {
	// MaxRestarts is how many gated restarts within Window the flap guard
	// allows; a gating failure after that many holds the target instead of
	// failing it. Zero means DefaultMaxRestarts; negative turns the guard
	// off.
	MaxRestarts int
	// Window is the flap guard's window (default DefaultWindow).
	Window time.Duration
	// MaxTargets bounds the targets kept; past it the least recently seen
	// target that is not failing is dropped (Stats.Evicted). Default
	// DefaultMaxTargets.
	MaxTargets int
	// Forget drops targets other than Self ones that were not seen for
	// this long (Expire); default DefaultForget.
	Forget time.Duration
}

func (o Options) withDefaults() Options {
	if o.MaxRestarts == 0 {
		o.MaxRestarts = DefaultMaxRestarts
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.MaxTargets <= 0 {
		o.MaxTargets = DefaultMaxTargets
	}
	if o.Forget <= 0 {
		o.Forget = DefaultForget
	}
	return o
}

// Trip is a target entering Failing or Held.
type Trip struct {
	Target Target
	State  State // Failing, or Held when the flap guard engaged
	Reason Reason
	// Recent is the number of gated restarts within Window before this
	// failure: the flap counter.
	Recent      int
	MaxRestarts int // the flap guard's limit; negative when it is off
	Window      time.Duration
}

// Reset is a failing or held target returning to Healthy on a restart.
type Reset struct {
	Target Target
	Was    State // Failing or Held
	Reason Reason
	Cause  string // what told of the restart
	Gated  bool   // a restart of a failing target: counted by the flap guard
	Recent int    // gated restarts within Window, this one included
}

// TargetStatus is one target as Status reports it.
type TargetStatus struct {
	Target Target
	State  State
	Reason *Reason   // nil when healthy
	Since  time.Time // processing time of the latest state change; zero when never changed
	Recent int       // gated restarts within Window up to now
	// GatedRestarts counts every gated restart of the target (while the
	// gate remembers it).
	GatedRestarts int64
}

// Stats counts what the gate did.
type Stats struct {
	Trips         int64 // targets entering Failing
	Held          int64 // gating failures the flap guard held
	GatedRestarts int64 // restarts of failing targets
	Stale         int64 // gating failures older than the target's last start, ignored
	Evicted       int64 // targets dropped by MaxTargets
	Forgotten     int64 // targets dropped by Forget
}

// target is one target's state. The exported fields are the snapshot.
type target struct {
	ID       Target      `json:"target"`
	State    State       `json:"state"`
	Reason   *Reason     `json:"reason,omitempty"`
	Since    time.Time   `json:"since,omitzero"`
	Restarts []time.Time `json:"restarts,omitempty"` // gated restarts, processing time, newest last, bounded
	Total    int64       `json:"total,omitempty"`    // every gated restart
	// Started is the log time of the latest restart; a gating failure
	// logged before it is from the previous run and is ignored.
	Started time.Time `json:"started,omitzero"`
	// Failed is the log time of the gating failure (zero when unknown); a
	// restart logged before it cannot have cleared it.
	Failed time.Time `json:"failed,omitzero"`
	// Logs are the container logs seen ("<uid>/<n>"), newest last,
	// bounded: a new one is a restart.
	Logs []string  `json:"logs,omitempty"`
	Seen time.Time `json:"seen"` // processing time of the latest entry
}

// maxLogs bounds target.Logs: enough to tell the current container log
// from the previous ones while the kubelet still keeps them.
const maxLogs = 4

// Gate is the liveness gate of every watched target. It is safe for
// concurrent use.
type Gate struct {
	mu      sync.Mutex
	opts    Options
	targets map[Target]*target // by Target.id
	stats   Stats
	gen     uint64 // bumped on every change the checkpoint must keep
}

// New returns a Gate with every target healthy.
func New(opts Options) *Gate {
	return &Gate{opts: opts.withDefaults(), targets: map[Target]*target{}}
}

// Options are the gate's options with defaults applied.
func (g *Gate) Options() Options { return g.opts }

// Generation changes whenever the gate's state changes in a way the
// checkpoint must keep; the caller commits a Snapshot when it differs from
// the one it committed last.
func (g *Gate) Generation() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gen
}

// Stats returns the counters.
func (g *Gate) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stats
}

// get returns t's state, creating it (healthy) when new and making room
// under MaxTargets.
func (g *Gate) get(t Target, now time.Time) *target {
	k := t.id()
	if tg := g.targets[k]; tg != nil {
		tg.Seen = now
		return tg
	}
	if len(g.targets) >= g.opts.MaxTargets {
		g.evict()
	}
	tg := &target{ID: t, Seen: now}
	g.targets[k] = tg
	return tg
}

// evict drops the least recently seen target that is not failing; a
// failing target is dropped only when every target is failing.
func (g *Gate) evict() {
	var victim Target
	var best *target
	for k, tg := range g.targets {
		if best == nil || evictBefore(tg, best) || (!evictBefore(best, tg) && k.Key() < victim.Key()) {
			victim, best = k, tg
		}
	}
	if best != nil {
		delete(g.targets, victim)
		g.stats.Evicted++
		g.gen++
	}
}

func evictBefore(a, b *target) bool {
	if (a.State == Failing) != (b.State == Failing) {
		return b.State == Failing
	}
	return a.Seen.Before(b.Seen)
}

// Seen notes an entry of t at processing time now: targets are listed from
// their first entry (healthy), and Expire forgets those not seen for long.
func (g *Gate) Seen(t Target, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.targets[t.id()] == nil {
		g.gen++
	}
	g.get(t, now)
}

// Fatal records a gating failure of t. logTime is the failure's own time
// from the log (zero when the entry had none); now is the processing time.
// It returns the trip when t was healthy: Failing, or Held when t already
// had MaxRestarts gated restarts within Window. A failure of a target that
// is already failing or held changes nothing (the first reason stays), and
// one logged before t's latest restart is from the previous run and is
// ignored.
func (g *Gate) Fatal(t Target, r Reason, logTime, now time.Time) (Trip, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	tg := g.get(t, now)
	if tg.State != Healthy {
		return Trip{}, false
	}
	logTime, r.Time = notAhead(logTime, now), notAhead(r.Time, now)
	tg.Started = notAhead(tg.Started, now)
	if !logTime.IsZero() && !tg.Started.IsZero() && logTime.Before(tg.Started) {
		g.stats.Stale++
		return Trip{}, false
	}
	r.Line = truncate(r.Line, MaxLineBytes)
	recent := g.recent(tg, now)
	state := Failing
	if g.opts.MaxRestarts >= 0 && recent >= g.opts.MaxRestarts {
		state = Held
		g.stats.Held++
	} else {
		g.stats.Trips++
	}
	tg.State, tg.Reason, tg.Since, tg.Failed = state, &r, now, logTime
	g.gen++
	return Trip{Target: t, State: state, Reason: r, Recent: recent, MaxRestarts: g.opts.MaxRestarts, Window: g.opts.Window}, true
}

// Restart records that t's server started again, as told by cause (a
// startup line, a new container log, a new wrapped child). logTime is the
// restart's own time from the log, zero when unknown. A failing target
// becomes healthy and the restart counts as gated; a held target becomes
// healthy without counting (the gate did not ask for it). A restart logged
// before the failure it would clear is from before that failure and
// changes nothing.
func (g *Gate) Restart(t Target, cause string, logTime, now time.Time) (Reset, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.restart(g.get(t, now), cause, logTime, now)
}

func (g *Gate) restart(tg *target, cause string, logTime, now time.Time) (Reset, bool) {
	logTime = notAhead(logTime, now)
	tg.Started, tg.Failed = notAhead(tg.Started, now), notAhead(tg.Failed, now)
	if !logTime.IsZero() {
		if tg.State != Healthy && !tg.Failed.IsZero() && logTime.Before(tg.Failed) {
			return Reset{}, false
		}
		if logTime.After(tg.Started) {
			tg.Started = logTime
			g.gen++
		}
	}
	if tg.State == Healthy {
		return Reset{}, false
	}
	rs := Reset{Target: tg.ID, Was: tg.State, Reason: *tg.Reason, Cause: cause}
	if tg.State == Failing {
		rs.Gated = true
		tg.Restarts = append(tg.Restarts, now)
		tg.Total++
		g.stats.GatedRestarts++
		g.prune(tg, now)
	}
	rs.Recent = g.recent(tg, now)
	tg.State, tg.Reason, tg.Since, tg.Failed = Healthy, nil, now, time.Time{}
	g.gen++
	return rs, true
}

// ContainerLog notes that an entry of t came from container log log, named
// "<pod uid>/<restart count>" after the kubelet's
// /var/log/pods/<ns>_<pod>_<uid>/<container>/<n>.log. A log not seen
// before, once t has one, is a new container: a restart. Rotated files of
// the same container keep its name, so rotation is not a restart.
func (g *Gate) ContainerLog(t Target, log string, logTime, now time.Time) (Reset, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.targets[t.id()] == nil {
		g.gen++
	}
	tg := g.get(t, now)
	if slices.Contains(tg.Logs, log) {
		return Reset{}, false
	}
	first := len(tg.Logs) == 0
	tg.Logs = append(tg.Logs, log)
	if len(tg.Logs) > maxLogs {
		tg.Logs = slices.Delete(tg.Logs, 0, len(tg.Logs)-maxLogs)
	}
	g.gen++
	if first {
		return Reset{}, false
	}
	return g.restart(tg, "new container log "+log, logTime, now)
}

// recent counts tg's gated restarts within Window before now.
func (g *Gate) recent(tg *target, now time.Time) int {
	n := 0
	for _, at := range tg.Restarts {
		if now.Sub(at) < g.opts.Window {
			n++
		}
	}
	return n
}

// prune keeps the gated restarts the flap guard can still count: those
// within Window, at most MaxRestarts+1 of them.
func (g *Gate) prune(tg *target, now time.Time) {
	keep := tg.Restarts[:0]
	for _, at := range tg.Restarts {
		if now.Sub(at) < g.opts.Window {
			keep = append(keep, at)
		}
	}
	if limit := max(g.opts.MaxRestarts, 0) + 1; len(keep) > limit {
		keep = keep[len(keep)-limit:]
	}
	tg.Restarts = keep
}

// Expire forgets the targets other than Self ones not seen for Forget
// before now (pods that are gone) and returns them.
func (g *Gate) Expire(now time.Time) []Target {
	g.mu.Lock()
	defer g.mu.Unlock()
	var gone []Target
	for k, tg := range g.targets {
		if !tg.ID.Self && now.Sub(tg.Seen) >= g.opts.Forget {
			delete(g.targets, k)
			gone = append(gone, tg.ID)
			g.stats.Forgotten++
		}
	}
	if len(gone) > 0 {
		g.gen++
	}
	slices.SortFunc(gone, func(a, b Target) int { return cmp.Compare(a.Key(), b.Key()) })
	return gone
}

// Status lists every target, ordered by key, with the flap counter as of
// now.
func (g *Gate) Status(now time.Time) []TargetStatus {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]TargetStatus, 0, len(g.targets))
	for _, tg := range g.targets {
		s := TargetStatus{Target: tg.ID, State: tg.State, Since: tg.Since, Recent: g.recent(tg, now), GatedRestarts: tg.Total}
		if tg.Reason != nil {
			r := *tg.Reason
			s.Reason = &r
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b TargetStatus) int { return cmp.Compare(a.Target.Key(), b.Target.Key()) })
	return out
}

// Failing reports whether any target is failing: what /livez answers.
func (g *Gate) Failing() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, tg := range g.targets {
		if tg.State == Failing {
			return true
		}
	}
	return false
}

// snapshotVersion is bumped when the snapshot layout changes; Restore
// rejects other versions rather than misreading them.
const snapshotVersion = 1

type snapshot struct {
	Version int       `json:"version"`
	Targets []*target `json:"targets"`
}

// Snapshot serialises the gate for the checkpoint.
func (g *Gate) Snapshot() ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := snapshot{Version: snapshotVersion, Targets: make([]*target, 0, len(g.targets))}
	for _, tg := range g.targets {
		s.Targets = append(s.Targets, tg)
	}
	slices.SortFunc(s.Targets, func(a, b *target) int { return cmp.Compare(a.ID.Key(), b.ID.Key()) })
	return json.Marshal(s)
}

// Restore replaces the gate's targets with a snapshot taken by Snapshot:
// a target that was failing is failing again, a resolved one stays
// healthy. An empty snapshot restores nothing. Targets past MaxTargets are
// dropped as New's bound would.
func (g *Gate) Restore(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	var s snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("gate state: %w", err)
	}
	if s.Version != snapshotVersion {
		return fmt.Errorf("gate state: version %d, want %d", s.Version, snapshotVersion)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.targets = make(map[Target]*target, len(s.Targets))
	for i, tg := range s.Targets {
		if tg == nil {
			continue
		}
		switch {
		case tg.State < Healthy || tg.State > Held:
			return fmt.Errorf("gate state: targets[%d] (%s): unknown state %d", i, tg.ID, tg.State)
		case tg.State != Healthy && tg.Reason == nil:
			return fmt.Errorf("gate state: targets[%d] (%s): %s without a reason", i, tg.ID, tg.State)
		}
		if len(g.targets) >= g.opts.MaxTargets {
			g.evict()
		}
		g.targets[tg.ID.id()] = tg
	}
	g.gen++
	return nil
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// notAhead returns t, or now when t is ahead of it. A log's time never runs
// ahead of the clock in a decision: a node clock that booted ahead and was
// stepped back by NTP, or a forged stamp, would otherwise keep a failure
// "newer" than every real restart, or a start "newer" than every real
// failure. Times restored from a checkpoint written under such a clock are
// brought back the same way when next used.
func notAhead(t, now time.Time) time.Time {
	if t.After(now) {
		return now
	}
	return t
}
