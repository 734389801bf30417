package pipeline

import (
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/health"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// ExitTerminatedOnFatal is logmatch run's exit status when --on-fatal
// terminate ended the wrapped command after a gating failure, in place of
// the command's own status (143 or 137 after the signal). It is
// EX_TEMPFAIL of sysexits.h: the failure is the server's state, and a
// restart is the cure.
const ExitTerminatedOnFatal = 75

// KindLiveness is the kind of the alert a gating failure produces when the
// failure's incident sent no alert of its own at that moment (a repeat
// inside the group window): the restart is always announced.
const KindLiveness = "liveness"

// gateVersion is the version stamped on the gate's blob in the state
// store; a blob of another version is ignored (every gate starts healthy).
const gateVersion = 1

// expireEvery is how often targets not seen for long are forgotten.
const expireEvery = time.Minute

// Startup lines: written once when an sglang server (re)starts.
var startupLines = []string{
	"The server is fired up and ready to roll!", // sglang, after warmup
	"Started server process",                    // uvicorn, as the HTTP server starts
}

// gating connects the processor to the liveness gate: it tells the gate
// about restarts and gating failures, turns trips into alerts, and serves
// /livez. Its methods run on the processor goroutine, except livez and
// the metrics callback, which only read the gate (it locks). A nil
// *gating (a processor built without one) gates nothing.
type gating struct {
	// pending says whether an incident's first alert is still to come
	// (settling); waiting holds the trips to announce on it.
	pending  func(fingerprint string) bool
	waiting  map[string]*sinks.Liveness
	gate     *health.Gate
	log      *slog.Logger
	metrics  *telemetry.Metrics
	redactor *redact.Redactor
	identity Identity
	// showLine adds the matched line, escaped, to /livez's body
	// (http_probe_detail); off, the body carries no log text.
	showLine bool
	// terminate is called on a trip to Failing when --on-fatal terminate
	// is set; nil otherwise.
	terminate func()
	// probed is set when /livez is served, so a probe can act on a trip;
	// without it and without terminate, nothing restarts the server and
	// the alert and log say so.
	probed bool

	logFile, logPath, logName string // containerLog's last answer, reused for the next entry of the file

	// The target and container log the gate was last told of, and when:
	// entry tells it again only for another target or log, or seenEvery
	// later.
	seenTarget health.Target
	seenLog    string
	seenAt     time.Time

	committed  uint64 // gate generation of the last commit
	lastExpire time.Time
	last       health.Stats // counters already turned into metrics
}

func newGating(store *state.Store, log *slog.Logger, m *telemetry.Metrics, red *redact.Redactor, id Identity) *gating {
	g := &gating{gate: health.New(health.Options{}), log: log, metrics: m, redactor: red, identity: id, waiting: map[string]*sinks.Liveness{}}
	if blob, ok, err := store.Gate(); err != nil {
		log.Warn("liveness gate state unreadable; every gate starts healthy", "err", err)
	} else if ok && blob.Version == gateVersion {
		if err := g.gate.Restore(blob.Data); err != nil {
			log.Warn("liveness gate state unreadable; every gate starts healthy", "err", err)
		}
	}
	for _, s := range g.gate.Status(time.Now()) {
		if s.State != health.Healthy {
			log.Warn("liveness gate restored "+s.State.String(), "target", s.Target.String(), "record", s.Reason.RecordID, "time", s.Reason.Time)
		}
	}
	g.committed = g.gate.Generation()
	g.last = g.gate.Stats()
	m.SetGateSource(g.samples)
	return g
}

// target is the server whose log fs is: the pod in a kubelet log path,
// else the one logmatch runs beside.
func (g *gating) target(fs *fileState) health.Target {
	if fs.pod.Name != "" {
		return health.Target{Namespace: fs.pod.Namespace, Pod: fs.pod.Name, Container: fs.pod.Container}
	}
	return g.self()
}

func (g *gating) self() health.Target {
	return health.Target{Self: true, Namespace: g.identity.Namespace, Pod: g.identity.Pod, Container: g.identity.Container}
}

// seenEvery is how often the entries of one target and container log
// tell the gate again that the target is alive. Being seen only dates a
// target for Expire (after hours) and for eviction, least recently seen
// first: a second is exact enough for both, and spares a lock and a map
// look-up on every entry.
const seenEvery = time.Second

// entry is called for every entry before it is matched: it tells the gate
// that the target is alive and whether the entry shows a restart.
func (g *gating) entry(fs *fileState, e *entry.Entry, now time.Time) {
	if g == nil {
		return
	}
	t := g.target(fs)
	log, isLog := g.containerLog(fs)
	told := false
	if t != g.seenTarget || log != g.seenLog || now.Sub(g.seenAt) >= seenEvery || now.Before(g.seenAt) {
		if isLog {
			if rs, ok := g.gate.ContainerLog(t, log, e.Time, now); ok {
				g.reset(rs)
			}
		} else {
			g.gate.Seen(t, now)
		}
		g.seenTarget, g.seenLog, g.seenAt, told = t, log, now, true
	}
	if cause, ok := startupLine(e); ok {
		if rs, ok := g.gate.Restart(t, cause, e.Time, now); ok {
			g.reset(rs)
		}
		told = true
	}
	if now.Sub(g.lastExpire) >= expireEvery {
		g.lastExpire = now
		for _, t := range g.gate.Expire(now) {
			g.log.Info("liveness gate: server not seen for long, forgotten", "target", t.String())
		}
		told = true
	}
	if told {
		g.account()
	}
}

// commandStarted tells the gate that the wrapped command was (re)started:
// in wrap mode, a new logmatch means a new server.
func (g *gating) commandStarted(now time.Time) {
	if g == nil {
		return
	}
	if rs, ok := g.gate.Restart(g.self(), "wrapped command started", time.Time{}, now); ok {
		g.reset(rs)
	}
	g.account()
}

// containerLog is the package's containerLog, remembering the last answer:
// consecutive entries come from the same file.
func (g *gating) containerLog(fs *fileState) (string, bool) {
	if fs.path != g.logPath || fs.pod.UID != g.logFile {
		g.logName, _ = containerLog(fs)
		g.logPath, g.logFile = fs.path, fs.pod.UID
	}
	return g.logName, g.logName != ""
}

// containerLog names a kubelet container log "<pod uid>/<restart count>"
// (/var/log/pods/<ns>_<pod>_<uid>/<container>/<n>.log); rotated copies
// (<n>.log.<timestamp>) are not container logs of their own.
func containerLog(fs *fileState) (string, bool) {
	if fs.pod.UID == "" || fs.path == "" {
		return "", false
	}
	n, ok := strings.CutSuffix(filepath.Base(fs.path), ".log")
	if !ok || !allDigits(n) {
		return "", false
	}
	return fs.pod.UID + "/" + n, true
}

// startupLine reports whether e is one of the lines a starting server
// writes. The line must open the entry's message: a traceback, a request
// dump (sglang's --log-requests) or any other message can quote it, and a
// quote is no restart.
func startupLine(e *entry.Entry) (string, bool) {
	if e.Traceback != nil {
		return "", false
	}
	for _, s := range startupLines {
		if strings.HasPrefix(e.Message, s) {
			return "startup line " + strconv.Quote(s), true
		}
	}
	return "", false
}

func (g *gating) reset(rs health.Reset) {
	if rs.Gated {
		g.metrics.GateRestart()
	}
	g.log.Info("liveness gate reset: the server restarted", "target", rs.Target.String(), "was", rs.Was.String(),
		"cause", rs.Cause, "record", rs.Reason.RecordID, "gated", rs.Gated, "recent_gated_restarts", rs.Recent)
}

// occurrence is called where an entry's occurrence became alerts (as):
// when the diagnosis's cause record is fatal, or a wrapper around it is
// (a dead detokenizer is fatal whatever killed it), it trips the gate, and the trip
// is announced on the occurrence's new alert, or on an alert of its own
// when the occurrence was a repeat that sent none. It returns the alerts
// to queue.
func (g *gating) occurrence(fs *fileState, e *entry.Entry, d *analysis.Diagnosis, o incident.Occurrence, as []sinks.Alert, now time.Time) []sinks.Alert {
	if g == nil {
		return as
	}
	h := fatalHit(d)
	if h == nil {
		return as
	}
	line := h.Line
	if g.redactor != nil {
		line = g.redactor.Redact(line)
	}
	r := health.Reason{RecordID: h.Record.ID, Slug: h.Record.Slug, Rank: o.Rank, Time: o.Time, Line: line, Source: o.Alert.Source.Path}
	trip, ok := g.gate.Fatal(g.target(fs), r, e.Time, now)
	g.account()
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
	g.metrics.GateTrip(r.RecordID, trip.State.String())
	switch {
	case trip.State == health.Held:
		live.Reason, live.Action = sinks.LivenessHeld, "none"
		g.log.Error("liveness gate held by the flap guard: a gating failure, but the server already had too many gated restarts; it will not be restarted",
			"target", trip.Target.String(), "record", r.RecordID, "slug", r.Slug, "rank", r.Rank,
			"gated_restarts", trip.Recent, "max", trip.MaxRestarts, "window", trip.Window)
	case g.terminate != nil:
		live.Action = "terminate"
		g.log.Error("liveness failed: terminating the wrapped command", "record", r.RecordID, "slug", r.Slug, "rank", r.Rank, "gated_restarts", trip.Recent)
	case !g.probed:
		live.Reason, live.Action = sinks.LivenessUnwatched, "none"
		g.log.Error("liveness failed: the server is unusable, and nothing here restarts it (no /livez listener for a probe, no --on-fatal terminate)",
			"target", trip.Target.String(), "record", r.RecordID, "slug", r.Slug, "rank", r.Rank)
	default:
		g.log.Error("liveness failed: the server will be restarted", "target", trip.Target.String(), "record", r.RecordID,
			"slug", r.Slug, "rank", r.Rank, "gated_restarts", trip.Recent)
	}
	attached := false
	for i := range as {
		if as[i].Fingerprint == o.Alert.Fingerprint && as[i].Kind == incident.KindNew {
			as[i].Liveness, attached = live, true
			break
		}
	}
	if !attached && g.pending != nil && g.pending(o.Alert.Fingerprint) {
		// The incident is settling: its first alert, out of a later Tick,
		// announces the trip (see attach).
		if len(g.waiting) < maxWaitingLiveness {
			g.waiting[o.Alert.Fingerprint] = live
			attached = true
		}
	}
	if !attached {
		a := o.Alert
		a.Kind, a.Liveness = KindLiveness, live
		as = append(as, a)
	}
	if trip.State == health.Failing && g.terminate != nil {
		g.terminate()
	}
	return as
}

// maxWaitingLiveness bounds the trips waiting for their incident's first
// alert; past it a trip is announced on an alert of its own.
const maxWaitingLiveness = 1024

// attach puts the trips that waited for a settling incident on its first
// alert.
func (g *gating) attach(as []sinks.Alert) {
	if g == nil || len(g.waiting) == 0 {
		return
	}
	for i := range as {
		if as[i].Kind != incident.KindNew {
			continue
		}
		for fp, live := range g.waiting {
			if incident.Holds(&as[i], fp) {
				if as[i].Liveness == nil {
					as[i].Liveness = live
				}
				delete(g.waiting, fp)
			}
		}
	}
}

// account turns the gate's bound counters into metrics and logs.
func (g *gating) account() {
	s := g.gate.Stats()
	if n := s.Evicted - g.last.Evicted; n > 0 {
		g.metrics.GateDropped("evicted", int(n))
		g.log.Warn("liveness gate: too many servers, the least recently seen dropped", "dropped", n, "max", g.gate.Options().MaxTargets)
	}
	if n := s.Forgotten - g.last.Forgotten; n > 0 {
		g.metrics.GateDropped("forgotten", int(n))
	}
	if n := s.Stale - g.last.Stale; n > 0 {
		g.log.Info("liveness gate: a gating failure logged before the server's latest start was ignored", "count", n)
	}
	g.last = s
}

// snapshot returns the gate's blob when it changed since the last commit,
// with the generation to pass to committed once the commit succeeded.
func (g *gating) snapshot() (*state.Gate, uint64, error) {
	if g == nil {
		return nil, 0, nil
	}
	gen := g.gate.Generation()
	if gen == g.committed {
		return nil, gen, nil
	}
	data, err := g.gate.Snapshot()
	if err != nil {
		return nil, gen, err
	}
	return &state.Gate{Version: gateVersion, Data: data}, gen, nil
}

func (g *gating) changed() bool { return g != nil && g.gate.Generation() != g.committed }

func (g *gating) commit(gen uint64) {
	if g != nil {
		g.committed = gen
	}
}

// samples are the per-server gate metrics.
func (g *gating) samples() []telemetry.GateSample {
	st := g.gate.Status(time.Now())
	out := make([]telemetry.GateSample, 0, len(st))
	for _, s := range st {
		out = append(out, telemetry.GateSample{
			Namespace: s.Target.Namespace, Pod: s.Target.Pod, Container: s.Target.Container,
			State: int(s.State), Recent: s.Recent,
		})
	}
	return out
}

// livez is 200 while no watched server is failing and 503 once one is,
// with the reason per server: record, rank and time, and the matched line
// only with http_probe_detail (log text is not trusted; quoted, it cannot
// carry a control sequence to a terminal). A
// server held by the flap guard is listed but does not fail the probe.
func (g *gating) livez(w http.ResponseWriter, _ *http.Request) {
	st := g.gate.Status(time.Now())
	opts := g.gate.Options()
	var failing, held []string
	for _, s := range st {
		if s.State == health.Healthy {
			continue
		}
		r := s.Reason
		line := fmt.Sprintf("%s: %s: record %s (%s)", s.Target, s.State, r.RecordID, r.Slug)
		if r.Rank != "" {
			line += " rank " + r.Rank
		}
		line += " at " + r.Time.UTC().Format(time.RFC3339)
		if g.showLine {
			line += ": " + strconv.QuoteToASCII(sinks.OneLine(r.Line))
		}
		line += fmt.Sprintf("; gated restarts in the last %s: %d of %d", opts.Window, s.Recent, opts.MaxRestarts)
		if s.State == health.Failing {
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
