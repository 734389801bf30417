package logmatchprocessor

import (
	"container/list"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.uber.org/zap"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/stream"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// Attributes the stream key is read from: what the filelog receiver's
// container parser sets (resource) and what it adds to each record.
const (
	attrPodUID    = "k8s.pod.uid"
	attrPodName   = "k8s.pod.name"
	attrNamespace = "k8s.namespace.name"
	attrContainer = "k8s.container.name"
	attrNode      = "k8s.node.name"
	attrIOStream  = "log.iostream"
	attrFilePath  = "log.file.path"
)

// quietSourceTTL is how long a source with nothing pending is kept after
// its last line. Dropping it frees its assemblers' memory (each keeps what
// its largest entry needed) and forgets only what the analysis remembers
// between entries (a py-spy dump's frames, which its watchdog error
// follows within seconds); the bound on sources holds before then.
const quietSourceTTL = 5 * time.Minute

// tracker is the processor's state across records and batches: per source
// (a pod's container, a file, or a resource) a stream.Set whose streams
// (stdout, stderr) assemble entries, one Shell diagnosing them, and the
// incident Grouper folding the failures into incidents, as logmatch run
// does.
//
// One mutex owns it all. ConsumeLogs may be called concurrently by the
// Collector, and the processor's ticker goroutine flushes idle streams and
// settles incidents; each takes mu for the whole of its work on the state,
// and neither calls out of the processor while holding it: the alerts it
// produced are returned and turned into log records after unlocking.
type tracker struct {
	mu sync.Mutex

	cfg     *Config
	log     *zap.Logger
	metrics *telemetry.Metrics
	opts    entry.Options
	shell   *stream.Shell
	grouper *incident.Grouper
	sources map[string]*source
	lru     list.List // of *source, the most recently seen first
	last    *source   // the source of the previous record: records come in runs

	// What the entry callback needs, set for the duration of a Diagnose
	// call so the callback is one method value built once.
	cur     *source
	at      time.Time
	onEntry func(*stream.Entry)
	alerts  []sinks.Alert
	perrs   int // pattern errors since the caller last took them

	evictedSources int64
	groupEvicted   int64 // grouper.Stats().Evicted already counted
	groupEarly     int64 // grouper.Stats().EvictedEarly already counted
	groupRoutine   int64 // grouper.Stats().Routine already counted
}

// source is one origin of log records and its streams.
type source struct {
	key   string
	ident identity
	src   incident.Source
	set   *stream.Set
	next  int64 // Offset of the next line: the bytes of the record text before it
	// last is the Offset of the latest line, -1 before any.
	last     int64
	lastLine time.Time // processing time of its latest record
	elem     *list.Element
}

// identity is what a record says about where it came from; records with
// the same identity belong to one source.
type identity struct {
	uid, pod, namespace, container, node, path string
	resource                                   uint64 // hash of the resource, the fallback key
}

func newTracker(cfg *Config, m *matcher.Matcher, metrics *telemetry.Metrics, log *zap.Logger, now func() time.Time) *tracker {
	t := &tracker{
		cfg: cfg, log: log, metrics: metrics,
		// Lines are copied into each assembler's own memory and entries
		// lent to the callback, so a quiet line allocates nothing.
		opts:    entry.Options{Reuse: true},
		shell:   stream.NewShell(m, now),
		grouper: incident.New(cfg.groupOptions()),
		sources: make(map[string]*source),
	}
	t.onEntry = t.entry
	return t
}

// consume feeds every record of ld into its source's streams, observes the
// failures their completed entries hold, and closes what is due by now.
// It returns the alerts to emit and the number of pattern errors.
func (t *tracker) consume(ld plog.Logs, subject func(plog.LogRecord) string, now time.Time) ([]sinks.Alert, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.at = now
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		rl := rls.At(i)
		res := rl.Resource().Attributes()
		base := identityOf(res)
		sls := rl.ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				lr := lrs.At(k)
				t.record(lr, res, base, subject(lr), now)
			}
		}
	}
	t.settle(now)
	return t.take()
}

// record pushes the lines of one record's text into its stream.
func (t *tracker) record(lr plog.LogRecord, res pcommon.Map, base identity, text string, now time.Time) {
	attrs := lr.Attributes()
	id := base
	if id.path == "" {
		// filelog puts the file's path on the record. Without a pod the
		// file is the source.
		if id.path = str(attrs, attrFilePath); id.path != "" {
			id.resource = 0
		}
	}
	s := t.source(id, res, now)
	name := str(attrs, attrIOStream)
	if name == "" {
		name = str(res, attrIOStream)
	}
	ss := s.set.Get(name)
	ts := lr.Timestamp()
	if ts == 0 {
		ts = lr.ObservedTimestamp()
	}
	var when time.Time
	if ts != 0 {
		when = ts.AsTime()
	}
	s.lastLine = now
	t.cur = s
	for {
		line, rest, more := strings.Cut(text, "\n")
		l := entry.Line{Text: strings.TrimSuffix(line, "\r"), Source: s.src.Path, Stream: name, Offset: s.next, Time: when}
		// Offsets count bytes, as a file's do: the grouper's bounds on
		// what lies between two signals of one burst are in bytes.
		s.last = s.next
		s.next += int64(len(line)) + 1
		if es := ss.PushAt(&l, now); len(es) > 0 {
			t.shell.Diagnose(ss, es, t.onEntry)
		}
		if !more {
			break
		}
		text = rest
	}
}

// source returns the source of id, creating it, and marks it the most
// recently seen. At the bound, the least recently seen source is
// completed and dropped first.
func (t *tracker) source(id identity, res pcommon.Map, now time.Time) *source {
	if s := t.last; s != nil && s.ident == id {
		t.lru.MoveToFront(s.elem)
		return s
	}
	key := id.key()
	if s := t.sources[key]; s != nil {
		s.ident = id
		t.lru.MoveToFront(s.elem)
		t.last = s
		return s
	}
	for len(t.sources) >= t.cfg.MaxStreams && t.lru.Len() > 0 {
		t.evict(t.lru.Back().Value.(*source), now)
	}
	s := &source{key: key, ident: id, src: id.incidentSource(key, res), set: stream.NewSet(t.opts), last: -1}
	if t.cfg.Engine != "" {
		// The configured engine: its remedies, and no record of
		// another engine only; else each stream's own detection.
		s.set.SetEngine(t.cfg.Engine)
		s.src.Engine = t.cfg.Engine
	}
	s.elem = t.lru.PushFront(s)
	t.sources[key] = s
	t.last = s
	return s
}

// pending reports whether an entry of s is being assembled.
func (s *source) pending() bool {
	for _, ss := range s.set.All() {
		if ss.Pending() {
			return true
		}
	}
	return false
}

// evict completes what s's streams hold and forgets s.
func (t *tracker) evict(s *source, now time.Time) {
	t.flushSource(s, now)
	t.drop(s)
	t.evictedSources++
	t.metrics.FilesEvicted(1)
	if t.evictedSources == 1 || t.evictedSources%1000 == 0 {
		t.log.Warn("more streams than the processor keeps state for: the least recently seen was completed and dropped",
			zap.Int("max_streams", t.cfg.MaxStreams), zap.String("source", s.key), zap.Int64("evicted_so_far", t.evictedSources))
	}
}

func (t *tracker) drop(s *source) {
	t.lru.Remove(s.elem)
	delete(t.sources, s.key)
	if t.last == s {
		t.last = nil
	}
}

// flushSource completes the pending entries of s's streams. They are
// dated as of the source's last record, as run dates what a flush
// completes: when the flush comes (an idle ticker, the end of the
// pipeline, a loaded machine) is no time of the log's.
func (t *tracker) flushSource(s *source, now time.Time) {
	t.cur, t.at = s, now
	if !s.lastLine.IsZero() {
		t.at = s.lastLine
	}
	for _, ss := range s.set.All() {
		t.shell.Diagnose(ss, ss.Flush(), t.onEntry)
	}
}

// entry takes one diagnosed entry: its pattern errors, and for a failure
// its occurrence, folded into the grouper.
func (t *tracker) entry(de *stream.Entry) {
	d := de.Diagnosis
	for _, pe := range d.PatternErrors {
		t.perrs++
		t.metrics.PatternTimeout(pe.Record.ID)
		t.log.Debug("pattern failed while matching", zap.String("record", pe.Record.ID), zap.Error(pe.Err))
	}
	if !de.Failure {
		if analysis.Startup(de.Entry) {
			// The server started again: what it failed of before is
			// over, and a failure after this is a new incident (as in
			// run and scan).
			t.alerts = append(t.alerts, t.grouper.Restarted(t.cur.src.Identity(), t.at)...)
		}
		return
	}
	if d.Cause != nil {
		t.metrics.Hit(d.Cause.Record.ID, string(d.Severity))
	}
	o := incident.FromDiagnosis(de.Entry, d, t.cur.src, t.at)
	t.alerts = append(t.alerts, t.grouper.Observe(o, t.at)...)
}

// tick completes the entries of streams quiet for the idle time, forgets
// sources quiet for long, and closes what is due by now.
func (t *tracker) tick(now time.Time) ([]sinks.Alert, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var quiet []*source
	// The list is in order of last sight, so the walk stops at the first
	// source seen within the idle time.
	for e := t.lru.Back(); e != nil; e = e.Prev() {
		s := e.Value.(*source)
		if now.Sub(s.lastLine) < t.cfg.IdleFlush {
			break
		}
		if s.pending() || now.Sub(s.lastLine) >= quietSourceTTL {
			quiet = append(quiet, s)
		}
	}
	// Key order, so that what two streams complete together is observed
	// in the same order on every run.
	slices.SortFunc(quiet, func(a, b *source) int { return strings.Compare(a.key, b.key) })
	for _, s := range quiet {
		t.flushSource(s, now)
		if now.Sub(s.lastLine) >= quietSourceTTL {
			t.drop(s)
		}
	}
	t.settle(now)
	return t.take()
}

// settle runs the grouper's clock when something is due. An incident
// whose source is still assembling an entry that began by its deadline is
// held (incident.Grouper.TickHolding): the settle time waits for what was
// read, not for how soon the ticker came.
func (t *tracker) settle(now time.Time) {
	if d := t.grouper.NextDeadline(); !d.IsZero() && !now.Before(d) {
		t.alerts = append(t.alerts, t.grouper.TickHolding(now, t.assembling())...)
	}
}

// assembling tells the grouper, for each source, when the entry it is
// still assembling began and how far it has been read.
func (t *tracker) assembling() incident.Assembling {
	var a incident.Assembling
	for _, s := range t.sources {
		a.Began(s.src.Identity(), s.set.PendingSince())
		a.ReadTo(s.src.Identity(), s.last)
	}
	return a
}

// flush completes every stream and closes every incident: the end of the
// pipeline.
func (t *tracker) flush(now time.Time) ([]sinks.Alert, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := make([]string, 0, len(t.sources))
	for k := range t.sources {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.flushSource(t.sources[k], now)
	}
	t.alerts = append(t.alerts, t.grouper.Flush(now)...)
	return t.take()
}

// take hands over the alerts and pattern errors gathered so far, and
// counts the incidents the grouper closed at its bound.
func (t *tracker) take() ([]sinks.Alert, int) {
	st := t.grouper.Stats()
	if ev, early := st.Evicted-t.groupEvicted, st.EvictedEarly-t.groupEarly; ev > 0 {
		t.metrics.IncidentsEvicted("forgotten", ev-early)
		t.metrics.IncidentsEvicted("announced", early)
		t.groupEvicted, t.groupEarly = st.Evicted, st.EvictedEarly
	}
	if n := st.Routine - t.groupRoutine; n > 0 {
		t.metrics.IncidentsDropped("routine", n)
		t.groupRoutine = st.Routine
	}
	as, n := t.alerts, t.perrs
	t.alerts, t.perrs, t.cur = nil, 0, nil
	return as, n
}

// stats reports the sources held and the incidents open, for tests.
func (t *tracker) stats() (sources, open int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.sources), t.grouper.Stats().Open
}

// identityOf reads the resource's part of a record's identity.
func identityOf(res pcommon.Map) identity {
	id := identity{
		uid:       str(res, attrPodUID),
		pod:       str(res, attrPodName),
		namespace: str(res, attrNamespace),
		container: str(res, attrContainer),
		node:      str(res, attrNode),
		path:      str(res, attrFilePath),
	}
	if id.uid == "" && id.pod == "" && id.path == "" {
		id.resource = resourceHash(res)
	}
	return id
}

// key is the source's key: the pod's container, else the file, else the
// resource.
func (id identity) key() string {
	switch {
	case id.uid != "":
		return "pod:" + id.uid + "/" + id.container
	case id.pod != "":
		return "pod:" + id.namespace + "/" + id.pod + "/" + id.container
	case id.path != "":
		return "file:" + id.path
	}
	return "resource:" + strconv.FormatUint(id.resource, 16)
}

// incidentSource is the alerts' source block and grouping identity. A
// pod's container is grouped as run groups it, so a restarted container
// (a new file, a new uid) continues the incidents of the one before.
func (id identity) incidentSource(key string, res pcommon.Map) incident.Source {
	s := incident.Source{Path: id.path, Pod: id.pod, Namespace: id.namespace, Container: id.container, Node: id.node, Key: key}
	if id.pod != "" {
		s.Key = "pod:" + id.namespace + "/" + id.pod + "/" + id.container
	}
	if s.Path == "" && id.uid == "" && id.pod == "" {
		s.Path = key
		if name := str(res, "service.name"); name != "" {
			s.Path = name
		}
	}
	return s
}

// resourceHash identifies a resource by its attributes, in key order.
func resourceHash(res pcommon.Map) uint64 {
	keys := make([]string, 0, res.Len())
	for k := range res.All() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := fnv.New64a()
	for _, k := range keys {
		v, _ := res.Get(k)
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write([]byte(v.AsString()))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// str returns the attribute k of m as a string; "" when absent.
func str(m pcommon.Map, k string) string {
	v, ok := m.Get(k)
	if !ok {
		return ""
	}
	if v.Type() == pcommon.ValueTypeStr {
		return v.Str()
	}
	return v.AsString()
}
