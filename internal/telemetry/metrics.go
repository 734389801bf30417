package telemetry

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/logmatch/logmatch/sinks"
)

// Failure classes, the values of the class label.
const (
	ClassRetryable = "retryable"
	ClassPermanent = "permanent"
)

// maxCachedSets bounds each cache of prepared attribute sets; beyond it sets
// are built per call (slower, never wrong).
const maxCachedSets = 16384

// Metrics records logmatch's metrics. All methods are safe for concurrent
// use and cheap enough for the per-line path; a nil *Metrics records
// nothing, so a component can run without telemetry.
type Metrics struct {
	// The per-source series are observed at each collection from
	// sources, so that they go when their source does.
	linesRead, bytesRead    metric.Int64ObservableCounter
	readLag                 metric.Float64ObservableGauge
	entries                 metric.Int64ObservableCounter
	cutLines, cutBytes      metric.Int64ObservableCounter
	timeAhead               metric.Int64ObservableCounter
	sources                 sourceSet
	hits                    metric.Int64Counter
	patternTimeouts         metric.Int64Counter
	incidents, unclassified metric.Int64Counter
	alertsSent              metric.Int64Counter
	sinkFailures            metric.Int64Counter
	sinkRetries             metric.Int64Counter
	queueDepth              metric.Int64ObservableGauge
	depths                  sinkDepths
	dropped                 metric.Int64Counter
	gateTrips               metric.Int64Counter
	gateRestarts            metric.Int64Counter
	gateDropped             metric.Int64Counter
	gateState, gateRecent   metric.Int64ObservableGauge
	gates                   atomic.Pointer[func() []GateSample]
	buildInfo               metric.Int64Gauge
	catalogRecords          metric.Int64Gauge
	reloadOK                metric.Int64Gauge
	reloadOKTime            metric.Float64Gauge
	sourceFiles             metric.Int64Gauge
	globUnmatched           metric.Int64Gauge
	commitFailures          metric.Int64Counter
	overflow                metric.Int64Counter
	evicted                 metric.Int64Counter
	incidentsEvicted        metric.Int64Counter
	incidentsDropped        metric.Int64Counter
	sourceEvents            metric.Int64Counter
	httpEvicted             metric.Int64Counter
	inputRequests           metric.Int64Counter
	inputLines              metric.Int64Counter
	inputRejects            metric.Int64Counter

	source, sink, record, kind *setCache
	hit, failure, drop         *setCache
	incident                   *setCache
	trip, reason, event        *setCache
	input, inputReason         *setCache
}

// GateSample is one watched server's liveness gate, as the per-pod gate
// metrics report it.
type GateSample struct {
	Namespace, Pod, Container string
	// State is 0 healthy, 1 failing (/livez fails), 2 held by the flap
	// guard.
	State int
	// Recent is the flap counter: gated restarts within the flap window.
	Recent int
}

var _ sinks.Observer = (*Metrics)(nil)

// NewMetrics creates the instruments (see the package doc) on meter.
func NewMetrics(meter metric.Meter) (*Metrics, error) {
	m := &Metrics{}
	var err error
	counter := func(dst *metric.Int64Counter, name, unit, desc string) {
		if err != nil {
			return
		}
		*dst, err = meter.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err != nil {
			err = fmt.Errorf("instrument %s: %w", name, err)
		}
	}
	observed := func(dst *metric.Int64ObservableCounter, name, unit, desc string) {
		if err != nil {
			return
		}
		*dst, err = meter.Int64ObservableCounter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err != nil {
			err = fmt.Errorf("instrument %s: %w", name, err)
		}
	}
	observed(&m.linesRead, "logmatch.source.lines", "{line}", "Lines read, per source.")
	observed(&m.bytesRead, "logmatch.source.read", "By", "Bytes read, per source.")
	observed(&m.entries, "logmatch.entries", "{entry}", "Log entries assembled from lines, per source.")
	observed(&m.cutLines, "logmatch.entry.cut.lines", "{line}", "Lines dropped by the entry bounds, per source.")
	observed(&m.cutBytes, "logmatch.entry.cut", "By", "Bytes dropped by the line and entry bounds, per source.")
	observed(&m.timeAhead, "logmatch.entry.time.ahead", "{entry}", "Entries whose log time was ahead of the clock when they were read, and was set back to it, per source.")
	counter(&m.hits, "logmatch.hits", "{hit}", "Entries matched to a catalog record.")
	counter(&m.patternTimeouts, "logmatch.pattern.timeouts", "{timeout}", "Pattern evaluations that hit the match timeout or stack limit.")
	counter(&m.incidents, "logmatch.incidents", "{incident}", "Alerts emitted for classified incidents, by kind.")
	counter(&m.unclassified, "logmatch.incidents.unclassified", "{incident}", "Alerts emitted for tracebacks no record matched, by kind.")
	counter(&m.alertsSent, "logmatch.sink.alerts", "{alert}", "Alerts a sink delivered.")
	counter(&m.sinkFailures, "logmatch.sink.failures", "{failure}", "Alerts a sink gave up on, by failure class.")
	counter(&m.sinkRetries, "logmatch.sink.retries", "{retry}", "Delivery attempts repeated after a retryable failure.")
	counter(&m.dropped, "logmatch.sink.dropped", "{alert}", "Alerts dropped by a bound, by reason.")
	counter(&m.gateTrips, "logmatch.gate.trips", "{failure}", "Gating failures that tripped the liveness gate, by record and the state they caused (failing, held).")
	counter(&m.gateRestarts, "logmatch.gate.restarts", "{restart}", "Restarts of servers whose liveness gate was failing (gated restarts).")
	counter(&m.gateDropped, "logmatch.gate.targets.dropped", "{target}", "Servers the liveness gate stopped tracking, by reason (evicted, forgotten).")
	counter(&m.commitFailures, "logmatch.state.commit.failures", "{commit}", "State commits that failed (a full or read-only state disk); what they held stays pending.")
	counter(&m.overflow, "logmatch.sink.overflow", "{incident}", "New incidents above a sink's rate bound, folded into a digest alert instead of sent one by one.")
	counter(&m.sourceEvents, "logmatch.source.events", "{event}", "Events of the file tailer, by event (rotations, truncations, copy_tails, framing_errors, files_skipped, open_errors, generations_lost, symlinks_refused).")
	counter(&m.httpEvicted, "logmatch.http.connections.evicted", "{connection}", "HTTP connections closed at http_max_connections to take a new one: the idle ones, longest idle first.")
	counter(&m.evicted, "logmatch.source.evicted", "{file}", "Files and streams whose state the processor dropped at its bound on files kept, after completing their pending entries.")
	counter(&m.incidentsEvicted, "logmatch.incidents.evicted", "{incident}", "Open incidents closed at the bound max_open_incidents, by reason: forgotten (nothing left to announce; a later repeat starts a new incident) or announced (their alert sent at once, before its time).")
	counter(&m.incidentsDropped, "logmatch.incidents.dropped", "{incident}", "Incidents dropped unannounced, by reason: routine (a native library's lone error-level line amid its own INFO lines that nothing joined before it settled).")
	counter(&m.inputRequests, "logmatch.input.requests", "{request}", "Requests a network input (accept) received, by input.")
	counter(&m.inputLines, "logmatch.input.lines", "{line}", "Log lines a network input accepted, by input.")
	counter(&m.inputRejects, "logmatch.input.rejects", "{request}", "Requests a network input refused, by input and reason (too_large, encoding, content_type, malformed, not_text, busy, timeout, unauthorized, rate, unavailable).")
	if err != nil {
		return nil, err
	}
	if m.readLag, err = meter.Float64ObservableGauge("logmatch.source.lag", metric.WithUnit("s"),
		metric.WithDescription("Age of the newest line read, per source: time of reading minus the line's own time.")); err != nil {
		return nil, fmt.Errorf("instrument logmatch.source.lag: %w", err)
	}
	m.sources = sourceSet{m: map[string]*Source{}, now: time.Now}
	if _, err = meter.RegisterCallback(m.observeSources, m.linesRead, m.bytesRead, m.readLag, m.entries, m.cutLines, m.cutBytes, m.timeAhead); err != nil {
		return nil, fmt.Errorf("source metrics callback: %w", err)
	}
	// Observed, not recorded: a sink a reload removes must lose its
	// series, and a synchronous gauge keeps every set it was given.
	if m.queueDepth, err = meter.Int64ObservableGauge("logmatch.sink.queue.depth", metric.WithUnit("{alert}"),
		metric.WithDescription("Alerts waiting for a sink.")); err != nil {
		return nil, fmt.Errorf("instrument logmatch.sink.queue.depth: %w", err)
	}
	m.depths.m = map[string]int64{}
	if _, err = meter.RegisterCallback(m.observeDepths, m.queueDepth); err != nil {
		return nil, fmt.Errorf("sink queue depth callback: %w", err)
	}
	if m.gateState, err = meter.Int64ObservableGauge("logmatch.gate.state", metric.WithUnit("{state}"),
		metric.WithDescription("Liveness gate of each watched server: 0 healthy, 1 failing (/livez fails), 2 held by the flap guard.")); err != nil {
		return nil, fmt.Errorf("instrument logmatch.gate.state: %w", err)
	}
	if m.gateRecent, err = meter.Int64ObservableGauge("logmatch.gate.restarts.recent", metric.WithUnit("{restart}"),
		metric.WithDescription("Gated restarts of each watched server within the flap guard's window: the flap counter.")); err != nil {
		return nil, fmt.Errorf("instrument logmatch.gate.restarts.recent: %w", err)
	}
	if _, err = meter.RegisterCallback(m.observeGates, m.gateState, m.gateRecent); err != nil {
		return nil, fmt.Errorf("gate metrics callback: %w", err)
	}
	gauge := func(dst *metric.Int64Gauge, name, unit, desc string) {
		if err != nil {
			return
		}
		*dst, err = meter.Int64Gauge(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err != nil {
			err = fmt.Errorf("instrument %s: %w", name, err)
		}
	}
	gauge(&m.buildInfo, "logmatch.build.info", "", "Always 1; the labels say which logmatch runs.")
	gauge(&m.catalogRecords, "logmatch.catalog.records", "{record}", "Records of the catalog in use.")
	gauge(&m.reloadOK, "logmatch.config.last_reload_successful", "", "1 when the last configuration (re)load succeeded, 0 when it failed and the previous configuration is still in use.")
	gauge(&m.sourceFiles, "logmatch.source.files", "{file}", "Files the configured globs match, by state: matched, unreadable.")
	gauge(&m.globUnmatched, "logmatch.source.glob.unmatched", "", "1 for a configured glob that matches no file, else 0.")
	if err != nil {
		return nil, err
	}
	if m.reloadOKTime, err = meter.Float64Gauge("logmatch.config.last_reload_success_timestamp", metric.WithUnit("s"),
		metric.WithDescription("Unix time of the last successful configuration (re)load.")); err != nil {
		return nil, fmt.Errorf("instrument logmatch.config.last_reload_success_timestamp: %w", err)
	}
	m.source = newSetCache("source")
	m.sink = newSetCache("sink")
	m.record = newSetCache("record_id")
	m.kind = newSetCache("kind")
	m.hit = newSetCache("record_id", "severity")
	m.failure = newSetCache("sink", "class")
	m.drop = newSetCache("sink", "reason")
	m.incident = newSetCache("record_id", "severity", "kind")
	m.trip = newSetCache("record_id", "state")
	m.reason = newSetCache("reason")
	m.event = newSetCache("event")
	m.input = newSetCache("input")
	m.inputReason = newSetCache("input", "reason")
	return m, nil
}

// SetGateSource makes the per-server gate gauges report what f returns at
// each collection (a scrape, an OTLP export); nil reports none. f must be
// safe to call from any goroutine.
func (m *Metrics) SetGateSource(f func() []GateSample) {
	if m == nil {
		return
	}
	if f == nil {
		m.gates.Store(nil)
		return
	}
	m.gates.Store(&f)
}

func (m *Metrics) observeGates(_ context.Context, o metric.Observer) error {
	f := m.gates.Load()
	if f == nil {
		return nil
	}
	for _, s := range (*f)() {
		set := metric.WithAttributeSet(attribute.NewSet(
			attribute.String("namespace", s.Namespace),
			attribute.String("pod", s.Pod),
			attribute.String("container", s.Container),
		))
		o.ObserveInt64(m.gateState, int64(s.State), set)
		o.ObserveInt64(m.gateRecent, int64(s.Recent), set)
	}
	return nil
}

// GateTrip counts a gating failure of the record that made a gate enter
// state ("failing" or "held").
func (m *Metrics) GateTrip(recordID, state string) {
	if m == nil {
		return
	}
	m.gateTrips.Add(context.Background(), 1, m.trip.get(labels{a: recordID, b: state}).add...)
}

// GateRestart counts a gated restart: a server restarted while its gate
// was failing.
func (m *Metrics) GateRestart() {
	if m == nil {
		return
	}
	m.gateRestarts.Add(context.Background(), 1)
}

// GateDropped counts n servers the gate stopped tracking; reason is
// "evicted" (the bound on servers) or "forgotten" (not seen for long).
func (m *Metrics) GateDropped(reason string, n int) {
	if m == nil || n <= 0 {
		return
	}
	m.gateDropped.Add(context.Background(), int64(n), m.reason.get(labels{a: reason}).add...)
}

// LinesRead counts lines and their bytes read from source.
func (m *Metrics) LinesRead(source string, lines, bytes int) {
	if m == nil {
		return
	}
	m.sources.named(source).Read(lines, bytes)
}

// ReadLag records how far reading source trails its writer.
func (m *Metrics) ReadLag(source string, lag time.Duration) {
	if m == nil {
		return
	}
	m.sources.named(source).Lag(lag)
}

// EntriesAssembled counts n entries assembled from source's lines.
func (m *Metrics) EntriesAssembled(source string, n int) {
	if m == nil {
		return
	}
	m.sources.named(source).Entries(n)
}

// EntryCut counts what the bounds cut from an entry (or line) of source.
func (m *Metrics) EntryCut(source string, lines, bytes int) {
	if m == nil {
		return
	}
	m.sources.named(source).Cut(lines, bytes)
}

// Source returns the series of the named source for a holder that records
// into them often (the processor, for each file it follows) and takes a
// reference on them: they stay until every holder has called
// ReleaseSource. Recording through a Source is an atomic add; the SDK reads
// the totals at each collection. A nil *Metrics returns nil, which records
// nothing.
func (m *Metrics) Source(name string) *Source {
	if m == nil {
		return nil
	}
	return m.sources.acquire(name)
}

// ReleaseSource drops a reference taken by Source. With the last one the
// source's series are removed: the next scrape or export no longer has
// them. A source counted later again (a new file under the same name)
// starts its series from zero, which Prometheus reads as a counter reset.
func (m *Metrics) ReleaseSource(s *Source) {
	if m == nil || s == nil {
		return
	}
	m.sources.release(s)
}

// Sources returns how many sources have series: those held through Source
// and those counted by name in the last sourceIdle.
func (m *Metrics) Sources() int {
	if m == nil {
		return 0
	}
	m.sources.mu.RLock()
	defer m.sources.mu.RUnlock()
	return len(m.sources.m)
}

func (m *Metrics) observeSources(_ context.Context, o metric.Observer) error {
	for _, s := range m.sources.live() {
		o.ObserveInt64(m.linesRead, s.lines.Load(), s.attrs)
		o.ObserveInt64(m.bytesRead, s.bytes.Load(), s.attrs)
		o.ObserveInt64(m.entries, s.entries.Load(), s.attrs)
		o.ObserveInt64(m.cutLines, s.cutLines.Load(), s.attrs)
		o.ObserveInt64(m.cutBytes, s.cutBytes.Load(), s.attrs)
		if n := s.ahead.Load(); n > 0 {
			o.ObserveInt64(m.timeAhead, n, s.attrs)
		}
		if s.lagSet.Load() {
			o.ObserveFloat64(m.readLag, math.Float64frombits(s.lag.Load()), s.attrs)
		}
	}
	return nil
}

// sourceIdle is how long a source counted only by name (LinesRead and the
// like, by the tailer) and held by no Source keeps its series after its
// last count: a file whose lines never reached a holder does not keep a
// series forever.
const sourceIdle = 10 * time.Minute

// Source is one source's series: lines and bytes read, entries assembled,
// lines and bytes cut, and the read lag. Its methods are safe for
// concurrent use; a nil *Source records nothing.
type Source struct {
	name  string
	attrs metric.ObserveOption

	lines, bytes, entries, cutLines, cutBytes atomic.Int64
	ahead                                     atomic.Int64
	lag                                       atomic.Uint64 // math.Float64bits of seconds
	lagSet                                    atomic.Bool

	refs    int   // holders; guarded by sourceSet.mu
	touched int64 // unix nanos of the last count by name; guarded by sourceSet.mu
}

// Read counts lines and their bytes read.
func (s *Source) Read(lines, bytes int) {
	if s == nil {
		return
	}
	if lines != 0 {
		s.lines.Add(int64(lines))
	}
	if bytes != 0 {
		s.bytes.Add(int64(bytes))
	}
}

// Entries counts n entries assembled.
func (s *Source) Entries(n int) {
	if s != nil && n != 0 {
		s.entries.Add(int64(n))
	}
}

// Cut counts what the bounds cut.
func (s *Source) Cut(lines, bytes int) {
	if s == nil {
		return
	}
	if lines > 0 {
		s.cutLines.Add(int64(lines))
	}
	if bytes > 0 {
		s.cutBytes.Add(int64(bytes))
	}
}

// Ahead counts an entry whose log time was ahead of the clock when it was
// read, and was set back to it.
func (s *Source) Ahead() {
	if s != nil {
		s.ahead.Add(1)
	}
}

// Lag records the age of the newest line read.
func (s *Source) Lag(d time.Duration) {
	if s == nil {
		return
	}
	s.lag.Store(math.Float64bits(d.Seconds()))
	s.lagSet.Store(true)
}

// sourceSet holds the sources that have series.
type sourceSet struct {
	mu  sync.RWMutex
	m   map[string]*Source
	now func() time.Time
}

// named returns the source for a count by name. One held by a Source
// takes only the read lock; an unheld one notes when it was counted, for
// live to forget it once idle.
func (ss *sourceSet) named(name string) *Source {
	ss.mu.RLock()
	s := ss.m[name]
	held := s != nil && s.refs > 0
	ss.mu.RUnlock()
	if held {
		return s
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s = ss.create(name)
	if s.refs == 0 {
		s.touched = ss.now().UnixNano()
	}
	return s
}

func (ss *sourceSet) acquire(name string) *Source {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s := ss.create(name)
	s.refs++
	return s
}

// create returns the named source, adding it; ss.mu is held.
func (ss *sourceSet) create(name string) *Source {
	s := ss.m[name]
	if s == nil {
		s = &Source{name: name, attrs: metric.WithAttributeSet(attribute.NewSet(attribute.String("source", name)))}
		ss.m[name] = s
	}
	return s
}

func (ss *sourceSet) release(s *Source) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if s.refs > 0 {
		s.refs--
	}
	if s.refs == 0 && ss.m[s.name] == s {
		delete(ss.m, s.name)
	}
}

// live returns the sources to observe, forgetting the unheld ones idle
// for sourceIdle.
func (ss *sourceSet) live() []*Source {
	cutoff := ss.now().Add(-sourceIdle).UnixNano()
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]*Source, 0, len(ss.m))
	for name, s := range ss.m {
		if s.refs == 0 && s.touched < cutoff {
			delete(ss.m, name)
			continue
		}
		out = append(out, s)
	}
	return out
}

// Hit counts an entry matched to the record.
func (m *Metrics) Hit(recordID, severity string) {
	if m == nil {
		return
	}
	m.hits.Add(context.Background(), 1, m.hit.get(labels{a: recordID, b: severity}).add...)
}

// PatternTimeout counts a pattern evaluation of the record that failed
// (timeout or backtracking limit).
func (m *Metrics) PatternTimeout(recordID string) {
	if m == nil {
		return
	}
	m.patternTimeouts.Add(context.Background(), 1, m.record.get(labels{a: recordID}).add...)
}

// Incident counts an alert emitted for an incident; kind is the alert's
// Kind. An empty recordID is an unclassified incident.
func (m *Metrics) Incident(recordID, severity, kind string) {
	if m == nil {
		return
	}
	if recordID == "" {
		m.unclassified.Add(context.Background(), 1, m.kind.get(labels{a: kind}).add...)
		return
	}
	m.incidents.Add(context.Background(), 1, m.incident.get(labels{a: recordID, b: severity, c: kind}).add...)
}

// AlertSent counts an alert the sink delivered.
func (m *Metrics) AlertSent(sink string) {
	if m == nil {
		return
	}
	m.alertsSent.Add(context.Background(), 1, m.sink.get(labels{a: sink}).add...)
}

// Retried counts a repeated delivery attempt; it implements
// sinks.Observer.
func (m *Metrics) Retried(sink string, _ time.Duration) {
	if m == nil {
		return
	}
	m.sinkRetries.Add(context.Background(), 1, m.sink.get(labels{a: sink}).add...)
}

// Failed counts an alert the sink gave up on, by class; it implements
// sinks.Observer.
func (m *Metrics) Failed(sink string, retryable bool) {
	if m == nil {
		return
	}
	class := ClassPermanent
	if retryable {
		class = ClassRetryable
	}
	m.sinkFailures.Add(context.Background(), 1, m.failure.get(labels{a: sink, b: class}).add...)
}

// QueueDepth records how many alerts wait for the sink.
func (m *Metrics) QueueDepth(sink string, n int) {
	if m == nil {
		return
	}
	m.depths.mu.Lock()
	m.depths.m[sink] = int64(n)
	m.depths.mu.Unlock()
}

// KeepSinks removes the queue depth series of every sink not named in
// names: a sink a configuration reload removed no longer exports one.
func (m *Metrics) KeepSinks(names []string) {
	if m == nil {
		return
	}
	keep := make(map[string]bool, len(names))
	for _, n := range names {
		keep[n] = true
	}
	m.depths.mu.Lock()
	defer m.depths.mu.Unlock()
	for n := range m.depths.m {
		if !keep[n] {
			delete(m.depths.m, n)
		}
	}
}

// sinkDepths are the last queue depth recorded per sink.
type sinkDepths struct {
	mu sync.Mutex
	m  map[string]int64
}

func (m *Metrics) observeDepths(_ context.Context, o metric.Observer) error {
	m.depths.mu.Lock()
	defer m.depths.mu.Unlock()
	for sink, n := range m.depths.m {
		o.ObserveInt64(m.queueDepth, n, metric.WithAttributeSet(attribute.NewSet(attribute.String("sink", sink))))
	}
	return nil
}

// AlertDropped counts n alerts for the sink that a bound dropped; reason
// names the bound (for example "queue_full").
func (m *Metrics) AlertDropped(sink, reason string, n int) {
	if m == nil {
		return
	}
	m.dropped.Add(context.Background(), int64(n), m.drop.get(labels{a: sink, b: reason}).add...)
}

// BuildInfo records which logmatch runs, as the constant 1 labelled with
// its version and Go version.
func (m *Metrics) BuildInfo(version, goVersion string) {
	if m == nil {
		return
	}
	m.buildInfo.Record(context.Background(), 1, metric.WithAttributes(
		attribute.String("version", version), attribute.String("goversion", goVersion)))
}

// CatalogRecords records the size of the catalog in use.
func (m *Metrics) CatalogRecords(n int) {
	if m == nil {
		return
	}
	m.catalogRecords.Record(context.Background(), int64(n))
}

// ConfigReload records the outcome of a configuration load or reload at
// time now: a success sets both series, a failure only clears the first,
// so the timestamp keeps saying when the configuration in use loaded.
func (m *Metrics) ConfigReload(ok bool, now time.Time) {
	if m == nil {
		return
	}
	if !ok {
		m.reloadOK.Record(context.Background(), 0)
		return
	}
	m.reloadOK.Record(context.Background(), 1)
	m.reloadOKTime.Record(context.Background(), float64(now.UnixNano())/1e9)
}

// SourceFiles records how many files the globs match in state (matched,
// unreadable).
func (m *Metrics) SourceFiles(state string, n int) {
	if m == nil {
		return
	}
	m.sourceFiles.Record(context.Background(), int64(n), metric.WithAttributes(attribute.String("state", state)))
}

// GlobUnmatched records whether the configured glob matches no file.
func (m *Metrics) GlobUnmatched(glob string, unmatched bool) {
	if m == nil {
		return
	}
	v := int64(0)
	if unmatched {
		v = 1
	}
	m.globUnmatched.Record(context.Background(), v, metric.WithAttributes(attribute.String("glob", glob)))
}

// CommitFailed counts a state commit that failed.
func (m *Metrics) CommitFailed() {
	if m == nil {
		return
	}
	m.commitFailures.Add(context.Background(), 1)
}

// Overflow counts n new incidents for the sink that its rate bound folded
// into a digest.
func (m *Metrics) Overflow(sink string, n int) {
	if m == nil {
		return
	}
	m.overflow.Add(context.Background(), int64(n), m.sink.get(labels{a: sink}).add...)
}

// SourceEvent counts n events of the file tailer (a source.Counter name
// other than lines and bytes). The label is the event alone, not the file:
// kubelet's rotated names are unique, and a series per file would grow
// without bound.
func (m *Metrics) SourceEvent(event string, n int) {
	if m == nil || n <= 0 {
		return
	}
	m.sourceEvents.Add(context.Background(), int64(n), m.event.get(labels{a: event}).add...)
}

// IncidentsEvicted counts n open incidents closed at the bound on open
// incidents; reason is "forgotten" (nothing was left to announce) or
// "announced" (their alert went out at once).
func (m *Metrics) IncidentsEvicted(reason string, n int64) {
	if m == nil || n <= 0 {
		return
	}
	m.incidentsEvicted.Add(context.Background(), n, m.reason.get(labels{a: reason}).add...)
}

// IncidentsDropped counts n incidents dropped without an alert; reason is
// "routine" (a lone routine-looking native error line nothing joined).
func (m *Metrics) IncidentsDropped(reason string, n int64) {
	if m == nil || n <= 0 {
		return
	}
	m.incidentsDropped.Add(context.Background(), n, m.reason.get(labels{a: reason}).add...)
}

// HTTPConnEvicted counts an idle HTTP connection closed at the bound on
// connections to take a new one.
func (m *Metrics) HTTPConnEvicted() {
	if m == nil {
		return
	}
	m.httpEvicted.Add(context.Background(), 1)
}

// FilesEvicted counts n files or streams whose state the processor dropped
// at its bound.
func (m *Metrics) FilesEvicted(n int) {
	if m == nil {
		return
	}
	m.evicted.Add(context.Background(), int64(n))
}

// labels are the values of up to three labels, in a setCache's key order.
type labels struct{ a, b, c string }

// setCache keeps prepared attribute options by label values, so the hot
// path neither sorts attributes nor allocates once a label set was seen.
// Lookups of a set seen before take no lock: they read an immutable map
// through an atomic pointer. Sets added since that map was built wait in
// a small map under a mutex, which is merged into a new immutable map once
// it holds a quarter as many sets, so adding n sets copies O(n) entries in
// all.
type setCache struct {
	keys []string // label names, one per used field of labels

	read  atomic.Pointer[map[labels]opts]
	last  atomic.Pointer[cached] // the set found last: calls come in runs of one set
	mu    sync.Mutex             // guards added and the merge
	added map[labels]opts        // not yet in read
	n     int                    // sets in read and added: at most maxCachedSets
}

// cached is one entry of a setCache.
type cached struct {
	l labels
	o opts
}

// opts are one attribute set as ready-made variadic arguments: passing a
// fresh one-element slice to an instrument would allocate on every call.
type opts struct {
	add []metric.AddOption
	rec []metric.RecordOption
}

func newSetCache(keys ...string) *setCache {
	c := &setCache{keys: keys, added: map[labels]opts{}}
	c.read.Store(&map[labels]opts{})
	return c
}

func (c *setCache) get(l labels) opts {
	// Comparing strings that share their bytes with the cached ones (the
	// caller passes the same source string each time) costs less than
	// hashing them.
	if e := c.last.Load(); e != nil && e.l == l {
		return e.o
	}
	if o, ok := (*c.read.Load())[l]; ok {
		c.last.Store(&cached{l: l, o: o})
		return o
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	read := *c.read.Load()
	if o, ok := read[l]; ok {
		return o
	}
	if o, ok := c.added[l]; ok {
		return o
	}
	vals := [3]string{l.a, l.b, l.c}
	kvs := make([]attribute.KeyValue, len(c.keys))
	for i, k := range c.keys {
		kvs[i] = attribute.String(k, vals[i])
	}
	set := metric.WithAttributeSet(attribute.NewSet(kvs...))
	o := opts{add: []metric.AddOption{set}, rec: []metric.RecordOption{set}}
	if c.n >= maxCachedSets {
		return o
	}
	c.added[l] = o
	c.n++
	if len(c.added) > len(read)/4 {
		m := make(map[labels]opts, c.n)
		for k, v := range read {
			m[k] = v
		}
		for k, v := range c.added {
			m[k] = v
		}
		c.read.Store(&m)
		c.added = map[labels]opts{}
	}
	return o
}

// InputRequest counts a request to a network input.
func (m *Metrics) InputRequest(input string) {
	if m == nil {
		return
	}
	m.inputRequests.Add(context.Background(), 1, m.input.get(labels{a: input}).add...)
}

// InputLines counts n log lines a network input accepted.
func (m *Metrics) InputLines(input string, n int) {
	if m == nil || n <= 0 {
		return
	}
	m.inputLines.Add(context.Background(), int64(n), m.input.get(labels{a: input}).add...)
}

// InputRejected counts a request a network input refused, by reason.
func (m *Metrics) InputRejected(input, reason string) {
	if m == nil {
		return
	}
	m.inputRejects.Add(context.Background(), 1, m.inputReason.get(labels{a: input, b: reason}).add...)
}
