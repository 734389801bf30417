package telemetry

import (
	"context"
	"fmt"
	"sync"
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
	linesRead, bytesRead    metric.Int64Counter
	readLag                 metric.Float64Gauge
	entries                 metric.Int64Counter
	cutLines, cutBytes      metric.Int64Counter
	hits                    metric.Int64Counter
	patternTimeouts         metric.Int64Counter
	incidents, unclassified metric.Int64Counter
	alertsSent              metric.Int64Counter
	sinkFailures            metric.Int64Counter
	sinkRetries             metric.Int64Counter
	queueDepth              metric.Int64Gauge
	dropped                 metric.Int64Counter
	commitFailures          metric.Int64Counter
	overflow                metric.Int64Counter

	source, sink, record, kind *setCache
	hit, failure, drop         *setCache
	incident                   *setCache
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
	counter(&m.linesRead, "logmatch.source.lines", "{line}", "Lines read, per source.")
	counter(&m.bytesRead, "logmatch.source.read", "By", "Bytes read, per source.")
	counter(&m.entries, "logmatch.entries", "{entry}", "Log entries assembled from lines, per source.")
	counter(&m.cutLines, "logmatch.entry.cut.lines", "{line}", "Lines dropped by the entry bounds, per source.")
	counter(&m.cutBytes, "logmatch.entry.cut", "By", "Bytes dropped by the line and entry bounds, per source.")
	counter(&m.hits, "logmatch.hits", "{hit}", "Entries matched to a catalog record.")
	counter(&m.patternTimeouts, "logmatch.pattern.timeouts", "{timeout}", "Pattern evaluations that hit the match timeout or stack limit.")
	counter(&m.incidents, "logmatch.incidents", "{incident}", "Alerts emitted for classified incidents, by kind.")
	counter(&m.unclassified, "logmatch.incidents.unclassified", "{incident}", "Alerts emitted for tracebacks no record matched, by kind.")
	counter(&m.alertsSent, "logmatch.sink.alerts", "{alert}", "Alerts a sink delivered.")
	counter(&m.sinkFailures, "logmatch.sink.failures", "{failure}", "Alerts a sink gave up on, by failure class.")
	counter(&m.sinkRetries, "logmatch.sink.retries", "{retry}", "Delivery attempts repeated after a retryable failure.")
	counter(&m.dropped, "logmatch.sink.dropped", "{alert}", "Alerts dropped by a bound, by reason.")
	counter(&m.commitFailures, "logmatch.state.commit.failures", "{commit}", "State commits that failed (a full or read-only state disk); what they held stays pending.")
	counter(&m.overflow, "logmatch.sink.overflow", "{incident}", "New incidents above a sink's rate bound, folded into a digest alert instead of sent one by one.")
	if err != nil {
		return nil, err
	}
	if m.readLag, err = meter.Float64Gauge("logmatch.source.lag", metric.WithUnit("s"),
		metric.WithDescription("Age of the newest line read, per source: time of reading minus the line's own time.")); err != nil {
		return nil, fmt.Errorf("instrument logmatch.source.lag: %w", err)
	}
	if m.queueDepth, err = meter.Int64Gauge("logmatch.sink.queue.depth", metric.WithUnit("{alert}"),
		metric.WithDescription("Alerts waiting for a sink.")); err != nil {
		return nil, fmt.Errorf("instrument logmatch.sink.queue.depth: %w", err)
	}
	m.source = newSetCache("source")
	m.sink = newSetCache("sink")
	m.record = newSetCache("record_id")
	m.kind = newSetCache("kind")
	m.hit = newSetCache("record_id", "severity")
	m.failure = newSetCache("sink", "class")
	m.drop = newSetCache("sink", "reason")
	m.incident = newSetCache("record_id", "severity", "kind")
	return m, nil
}

// LinesRead counts lines and their bytes read from source.
func (m *Metrics) LinesRead(source string, lines, bytes int) {
	if m == nil {
		return
	}
	o := m.source.get(labels{a: source})
	m.linesRead.Add(context.Background(), int64(lines), o.add...)
	m.bytesRead.Add(context.Background(), int64(bytes), o.add...)
}

// ReadLag records how far reading source trails its writer.
func (m *Metrics) ReadLag(source string, lag time.Duration) {
	if m == nil {
		return
	}
	m.readLag.Record(context.Background(), lag.Seconds(), m.source.get(labels{a: source}).rec...)
}

// EntriesAssembled counts n entries assembled from source's lines.
func (m *Metrics) EntriesAssembled(source string, n int) {
	if m == nil {
		return
	}
	m.entries.Add(context.Background(), int64(n), m.source.get(labels{a: source}).add...)
}

// EntryCut counts what the bounds cut from an entry (or line) of source.
func (m *Metrics) EntryCut(source string, lines, bytes int) {
	if m == nil {
		return
	}
	o := m.source.get(labels{a: source})
	if lines > 0 {
		m.cutLines.Add(context.Background(), int64(lines), o.add...)
	}
	if bytes > 0 {
		m.cutBytes.Add(context.Background(), int64(bytes), o.add...)
	}
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
	m.queueDepth.Record(context.Background(), int64(n), m.sink.get(labels{a: sink}).rec...)
}

// AlertDropped counts n alerts for the sink that a bound dropped; reason
// names the bound (for example "queue_full").
func (m *Metrics) AlertDropped(sink, reason string, n int) {
	if m == nil {
		return
	}
	m.dropped.Add(context.Background(), int64(n), m.drop.get(labels{a: sink, b: reason}).add...)
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

// labels are the values of up to three labels, in a setCache's key order.
type labels struct{ a, b, c string }

// setCache keeps prepared attribute options by label values, so the hot
// path neither sorts attributes nor allocates once a label set was seen.
type setCache struct {
	keys []string // label names, one per used field of labels

	mu  sync.RWMutex
	set map[labels]opts // at most maxCachedSets
}

// opts are one attribute set as ready-made variadic arguments: passing a
// fresh one-element slice to an instrument would allocate on every call.
type opts struct {
	add []metric.AddOption
	rec []metric.RecordOption
}

func newSetCache(keys ...string) *setCache {
	return &setCache{keys: keys, set: map[labels]opts{}}
}

func (c *setCache) get(l labels) opts {
	c.mu.RLock()
	o, ok := c.set[l]
	c.mu.RUnlock()
	if ok {
		return o
	}
	vals := [3]string{l.a, l.b, l.c}
	kvs := make([]attribute.KeyValue, len(c.keys))
	for i, k := range c.keys {
		kvs[i] = attribute.String(k, vals[i])
	}
	set := metric.WithAttributeSet(attribute.NewSet(kvs...))
	o = opts{add: []metric.AddOption{set}, rec: []metric.RecordOption{set}}
	c.mu.Lock()
	if len(c.set) < maxCachedSets {
		c.set[l] = o
	}
	c.mu.Unlock()
	return o
}
