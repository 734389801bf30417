package health

import (
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// KindLiveness is the kind of the alert a gating failure produces when the
// failure's incident sent no alert of its own at that moment (a repeat
// inside the group window): the restart is always announced.
const KindLiveness = "liveness"

// expireEvery is how often targets not seen for long are forgotten.
const expireEvery = time.Minute

// seenEvery is how often the entries of one target and container log
// tell the gate again that the target is alive. Being seen only dates a
// target for Expire (after hours) and for eviction, least recently seen
// first: a second is exact enough for both, and spares a lock and a map
// look-up on every entry.
const seenEvery = time.Second

// maxWaitingLiveness bounds the trips waiting for their incident's first
// alert; past it a trip is announced on an alert of its own.
const maxWaitingLiveness = 1024

// Log is where an entry was read, as far as the gate cares: the file's
// path (empty for a stream) and, for a kubelet container log, the pod its
// path names. It decides the entry's target and whether a new container
// log began.
type Log struct {
	Path                           string
	Namespace, Pod, Container, UID string // from a kubelet log path; empty otherwise
}

// Metrics counts what the monitor sees; *telemetry.Metrics is one.
type Metrics interface {
	GateRestart()
	GateTrip(recordID, state string)
	GateDropped(reason string, n int)
}

// MonitorOptions configure a Monitor.
type MonitorOptions struct {
	Gate    Options
	Logger  *slog.Logger // nil logs nothing
	Metrics Metrics      // nil counts nothing
	// Self is the server logmatch runs beside or wraps: the target of
	// every log whose path names no pod.
	Self Target
	// Redact is applied to the matched line a Reason keeps; nil keeps it
	// as it is.
	Redact func(string) string
	// ShowLine adds the matched line, escaped, to /livez's body
	// (http_probe_detail); off, the body carries no log text.
	ShowLine bool
	// Probed is set when /livez is served, so a probe can act on a trip;
	// without it and without Terminate, nothing restarts the server and
	// the alert and log say so.
	Probed bool
	// Terminate is called on a trip to Failing (--on-fatal terminate);
	// nil when nothing is to be ended.
	Terminate func()
	// Pending says whether an incident's first alert is still to come
	// (it is settling): a trip is then announced on that alert (Attach).
	// nil: never.
	Pending func(fingerprint string) bool
}

// Monitor is the gate's glue to a log pipeline: it tells the gate of the
// restarts the entries show (startup lines, new container logs, a new
// wrapped child) and of gating failures, turns trips into the alerts'
// liveness blocks, keeps the gate's checkpoint generation and serves
// /livez. Its methods are called by the one goroutine that processes
// entries, except Livez and Status, which only read the gate (it locks).
// A nil *Monitor gates nothing.
type Monitor struct {
	gate    *Gate
	opts    MonitorOptions
	log     *slog.Logger
	metrics Metrics
	// waiting holds the trips to announce on a settling incident's first
	// alert.
	waiting map[string]*sinks.Liveness

	logPath, logUID, logName string // containerLog's last answer, reused for the next entry of the file

	// The target and container log the gate was last told of, and when:
	// Entry tells it again only for another target or log, or seenEvery
	// later.
	seenTarget Target
	seenLog    string
	seenAt     time.Time

	committed  uint64 // gate generation of the last commit
	lastExpire time.Time
	last       Stats // counters already turned into metrics and logs
}

// NewMonitor returns a monitor over a new gate with every target healthy.
func NewMonitor(opts MonitorOptions) *Monitor {
	m := &Monitor{gate: New(opts.Gate), opts: opts, log: opts.Logger, metrics: opts.Metrics, waiting: map[string]*sinks.Liveness{}}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.metrics == nil {
		m.metrics = noMetrics{}
	}
	m.committed = m.gate.Generation()
	return m
}

type noMetrics struct{}

func (noMetrics) GateRestart()            {}
func (noMetrics) GateTrip(string, string) {}
func (noMetrics) GateDropped(string, int) {}

// Restore loads the gate's state from a checkpoint (Snapshot's data) and
// logs each target it restores failing or held. The restored state counts
// as committed.
func (m *Monitor) Restore(data []byte, now time.Time) error {
	if err := m.gate.Restore(data); err != nil {
		return err
	}
	for _, s := range m.gate.Status(now) {
		if s.State != Healthy {
			m.log.Warn("liveness gate restored "+s.State.String(), "target", s.Target.String(), "record", s.Reason.RecordID, "time", s.Reason.Time)
		}
	}
	m.committed = m.gate.Generation()
	m.last = m.gate.Stats()
	return nil
}

// target is the server whose log l is: the pod in a kubelet log path,
// else the one logmatch runs beside.
func (m *Monitor) target(l *Log) Target {
	if l.Pod != "" {
		return Target{Namespace: l.Namespace, Pod: l.Pod, Container: l.Container}
	}
	return m.opts.Self
}

// Observe takes every entry once, after grouping: it tells the gate that
// the entry's target is alive and whether the entry shows a restart, and
// when the entry is a failure (o is its occurrence, as the alerts the
// grouper made of it; o is nil otherwise) it hands the diagnosis to
// Occurrence. It returns the alerts to route.
func (m *Monitor) Observe(l *Log, e *entry.Entry, d *analysis.Diagnosis, o *incident.Occurrence, as []sinks.Alert, now time.Time) []sinks.Alert {
	if m == nil {
		return as
	}
	m.Entry(l, e, now)
	if o == nil {
		return as
	}
	return m.Occurrence(l, e, d, o, as, now)
}

// Entry tells the gate that the target of an entry read from l is alive
// and whether the entry shows a restart.
func (m *Monitor) Entry(l *Log, e *entry.Entry, now time.Time) {
	if m == nil {
		return
	}
	t := m.target(l)
	log, isLog := m.containerLog(l)
	told := false
	if t != m.seenTarget || log != m.seenLog || now.Sub(m.seenAt) >= seenEvery || now.Before(m.seenAt) {
		if isLog {
			if rs, ok := m.gate.ContainerLog(t, log, e.Time, now); ok {
				m.reset(rs)
			}
		} else {
			m.gate.Seen(t, now)
		}
		m.seenTarget, m.seenLog, m.seenAt, told = t, log, now, true
	}
	if cause, ok := startupLine(e); ok {
		if rs, ok := m.gate.Restart(t, cause, e.Time, now); ok {
			m.reset(rs)
		}
		told = true
	}
	if now.Sub(m.lastExpire) >= expireEvery {
		m.lastExpire = now
		for _, t := range m.gate.Expire(now) {
			m.log.Info("liveness gate: server not seen for long, forgotten", "target", t.String())
		}
		told = true
	}
	if told {
		m.account()
	}
}

// CommandStarted tells the gate that the wrapped command was (re)started:
// in wrap mode, a new logmatch means a new server.
func (m *Monitor) CommandStarted(now time.Time) {
	if m == nil {
		return
	}
	if rs, ok := m.gate.Restart(m.opts.Self, "wrapped command started", time.Time{}, now); ok {
		m.reset(rs)
	}
	m.account()
}

// containerLog is the package's containerLog, remembering the last answer:
// consecutive entries come from the same file.
func (m *Monitor) containerLog(l *Log) (string, bool) {
	if l.Path != m.logPath || l.UID != m.logUID {
		m.logName, _ = containerLog(l)
		m.logPath, m.logUID = l.Path, l.UID
	}
	return m.logName, m.logName != ""
}

// containerLog names a kubelet container log "<pod uid>/<restart count>"
// (/var/log/pods/<ns>_<pod>_<uid>/<container>/<n>.log); rotated copies
// (<n>.log.<timestamp>) are not container logs of their own.
func containerLog(l *Log) (string, bool) {
	if l.UID == "" || l.Path == "" {
		return "", false
	}
	n, ok := strings.CutSuffix(filepath.Base(l.Path), ".log")
	if !ok || !ascii.Digits(n) {
		return "", false
	}
	return l.UID + "/" + n, true
}

// startupLine reports whether e is one of the lines a starting server
// writes (analysis.Startup: the same lines close a source's incidents),
// with the cause the gate's reset logs.
func startupLine(e *entry.Entry) (string, bool) {
	line, ok := analysis.StartupLine(e)
	if !ok {
		return "", false
	}
	return "startup line " + strconv.Quote(line), true
}

func (m *Monitor) reset(rs Reset) {
	if rs.Gated {
		m.metrics.GateRestart()
	}
	m.log.Info("liveness gate reset: the server restarted", "target", rs.Target.String(), "was", rs.Was.String(),
		"cause", rs.Cause, "record", rs.Reason.RecordID, "gated", rs.Gated, "recent_gated_restarts", rs.Recent)
}

// Occurrence is called where an entry's occurrence o became alerts (as):
// when the diagnosis's cause record is fatal, or a wrapper around it is
// (a dead detokenizer is fatal whatever killed it), it trips the gate, and
// the trip is announced on the occurrence's new alert, or on an alert of
// its own when the occurrence was a repeat that sent none. It returns the
// alerts to queue.
func (m *Monitor) Occurrence(l *Log, e *entry.Entry, d *analysis.Diagnosis, o *incident.Occurrence, as []sinks.Alert, now time.Time) []sinks.Alert {
	if m == nil {
		return as
	}
	h := fatalHit(d)
	if h == nil {
		return as
	}
	line := h.Line
	if m.opts.Redact != nil {
		line = m.opts.Redact(line)
	}
	r := Reason{RecordID: h.Record.ID, Slug: h.Record.Slug, Rank: o.Rank, Time: o.Time, Line: line, Source: o.Alert.Source.Path}
	trip, ok := m.gate.Fatal(m.target(l), r, e.Time, now)
	m.account()
	if !ok {
		return as
	}
	live := &sinks.Liveness{
		Reason:        sinks.LivenessRestart,
		State:         trip.State.String(),
		Action:        "probe",
		GatedRestarts: trip.Recent,
		MaxRestarts:   trip.MaxRestarts,
		Window:        trip.Window.String(),
	}
	m.metrics.GateTrip(r.RecordID, trip.State.String())
	switch {
	case trip.State == Held:
		live.Reason, live.Action = sinks.LivenessHeld, "none"
		m.log.Error("liveness gate held by the flap guard: a gating failure, but the server already had too many gated restarts; it will not be restarted",
			"target", trip.Target.String(), "record", r.RecordID, "slug", r.Slug, "rank", r.Rank,
			"gated_restarts", trip.Recent, "max", trip.MaxRestarts, "window", trip.Window)
	case m.opts.Terminate != nil:
		live.Action = "terminate"
		m.log.Error("liveness failed: terminating the wrapped command", "record", r.RecordID, "slug", r.Slug, "rank", r.Rank, "gated_restarts", trip.Recent)
	case !m.opts.Probed:
		live.Reason, live.Action = sinks.LivenessUnwatched, "none"
		m.log.Error("liveness failed: the server is unusable, and nothing here restarts it (no /livez listener for a probe, no --on-fatal terminate)",
			"target", trip.Target.String(), "record", r.RecordID, "slug", r.Slug, "rank", r.Rank)
	default:
		m.log.Error("liveness failed: the server will be restarted", "target", trip.Target.String(), "record", r.RecordID,
			"slug", r.Slug, "rank", r.Rank, "gated_restarts", trip.Recent)
	}
	attached := false
	for i := range as {
		if as[i].Fingerprint == o.Alert.Fingerprint && as[i].Kind == incident.KindNew {
			as[i].Liveness, attached = live, true
			break
		}
	}
	if !attached && m.opts.Pending != nil && m.opts.Pending(o.Alert.Fingerprint) {
		// The incident is settling: its first alert, out of a later Tick,
		// announces the trip (see Attach).
		if len(m.waiting) < maxWaitingLiveness {
			m.waiting[o.Alert.Fingerprint] = live
			attached = true
		}
	}
	if !attached {
		a := o.Alert
		a.Kind, a.Liveness = KindLiveness, live
		as = append(as, a)
	}
	if trip.State == Failing && m.opts.Terminate != nil {
		m.opts.Terminate()
	}
	return as
}

// Attach puts the trips that waited for a settling incident on its first
// alert, among as (the alerts of settled incidents), and returns as.
func (m *Monitor) Attach(as []sinks.Alert) []sinks.Alert {
	if m == nil || len(m.waiting) == 0 {
		return as
	}
	for i := range as {
		if as[i].Kind != incident.KindNew {
			continue
		}
		for fp, live := range m.waiting {
			if incident.Holds(&as[i], fp) {
				if as[i].Liveness == nil {
					as[i].Liveness = live
				}
				delete(m.waiting, fp)
			}
		}
	}
	return as
}

// account turns the gate's bound counters into metrics and logs.
func (m *Monitor) account() {
	s := m.gate.Stats()
	if n := s.Evicted - m.last.Evicted; n > 0 {
		m.metrics.GateDropped("evicted", int(n))
		m.log.Warn("liveness gate: too many servers, the least recently seen dropped", "dropped", n, "max", m.gate.Options().MaxTargets)
	}
	if n := s.Forgotten - m.last.Forgotten; n > 0 {
		m.metrics.GateDropped("forgotten", int(n))
	}
	if n := s.Stale - m.last.Stale; n > 0 {
		m.log.Info("liveness gate: a gating failure logged before the server's latest start was ignored", "count", n)
	}
	m.last = s
}

// Snapshot returns the gate's checkpoint when it changed since the last
// commit (changed false and no data otherwise), with the generation to
// pass to Committed once that commit succeeded.
func (m *Monitor) Snapshot() (data []byte, gen uint64, changed bool, err error) {
	if m == nil {
		return nil, 0, false, nil
	}
	gen = m.gate.Generation()
	if gen == m.committed {
		return nil, gen, false, nil
	}
	data, err = m.gate.Snapshot()
	return data, gen, err == nil, err
}

// Changed reports whether the gate changed since the last commit.
func (m *Monitor) Changed() bool { return m != nil && m.gate.Generation() != m.committed }

// Committed records that the snapshot of generation gen was committed.
func (m *Monitor) Committed(gen uint64) {
	if m != nil {
		m.committed = gen
	}
}

// Status lists every target as of now (the per-server metrics).
func (m *Monitor) Status(now time.Time) []TargetStatus { return m.gate.Status(now) }

// Livez is 200 while no watched server is failing and 503 once one is,
// with the reason per server: record, rank and time, and the matched line
// only with ShowLine (log text is not trusted; quoted, it cannot carry a
// control sequence to a terminal). A server held by the flap guard is
// listed but does not fail the probe.
func (m *Monitor) Livez(w http.ResponseWriter, _ *http.Request) {
	st := m.gate.Status(time.Now())
	opts := m.gate.Options()
	var failing, held []string
	for _, s := range st {
		if s.State == Healthy {
			continue
		}
		r := s.Reason
		line := fmt.Sprintf("%s: %s: record %s (%s)", s.Target, s.State, r.RecordID, r.Slug)
		if r.Rank != "" {
			line += " rank " + r.Rank
		}
		line += " at " + r.Time.UTC().Format(time.RFC3339)
		if m.opts.ShowLine {
			line += ": " + strconv.QuoteToASCII(sinks.OneLine(r.Line))
		}
		line += fmt.Sprintf("; gated restarts in the last %s: %d of %d", opts.Window, s.Recent, opts.MaxRestarts)
		if s.State == Failing {
			failing = append(failing, line)
		} else {
			held = append(held, line+" (held by the flap guard: not restarting)")
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if len(failing) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, sinks.LivenessRestart)
	} else {
		fmt.Fprintln(w, "ok")
	}
	for _, l := range append(failing, held...) {
		fmt.Fprintln(w, sinks.Printable(l)) // log text: no terminal controls
	}
}

// fatalHit returns the hit that makes a diagnosis gate: its cause record
// when that is fatal, else the first fatal wrapper around it; nil when
// neither is.
func fatalHit(d *analysis.Diagnosis) *matcher.Hit {
	if d.Cause != nil && d.Cause.Record.Fatal {
		return d.Cause
	}
	for i := range d.Context {
		if d.Context[i].Record.Fatal {
			return &d.Context[i]
		}
	}
	return nil
}
