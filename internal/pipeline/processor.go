package pipeline

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"sync/atomic"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// groupingVersion is the version stamped on the grouping blob in the
// state store: version 2 holds the grouper's snapshot and the digests
// being gathered (groupingBlob), version 1 the grouper's snapshot alone. A
// blob of another version is ignored (grouping restarts).
const groupingVersion = 2

// groupingBlob is what the processor saves beside the positions.
type groupingBlob struct {
	Grouper json.RawMessage    `json:"grouper"`
	Digests map[string]*digest `json:"digests,omitempty"`
}

// maxPendingAlerts bounds the alerts waiting for a commit that keeps
// failing (a full disk); past it the oldest are dropped and counted.
const maxPendingAlerts = 10000

// processor turns lines into queued alerts. It is owned by one goroutine:
// no field is shared, except through the store and the atomic matcher.
type processor struct {
	log      *slog.Logger
	metrics  *telemetry.Metrics
	store    *state.Store
	matcher  *atomic.Pointer[matcher.Matcher]
	grouper  *incident.Grouper
	redactor *redact.Redactor
	sinks    []*builtSink
	entryOpt entry.Options
	idle     time.Duration
	identity Identity
	now      func() time.Time
	gate     *gating // the liveness gate; nil gates nothing

	restored map[string]state.Checkpoint // by FileID key, as loaded at start
	files    map[string]*fileState       // by file key
	streams  map[streamKey]*streamState
	pending  []sinks.Alert         // found, not yet committed
	routes   [][]*builtSink        // per pending alert, the sinks it is queued for
	bounds   map[string]*rateBound // per sink name: the bound on new incidents
	grouped  bool                  // the grouper changed since the last commit
	dropped  int64                 // alerts dropped by maxPendingAlerts

	// an diagnoses entries with the current catalog; replaced when a
	// reload swaps the matcher.
	an *analysis.Analyzer
}

type streamKey struct {
	file   string // fileState key
	stream string
}

// fileState is what the processor knows of one source file or stream.
type fileState struct {
	id        state.FileID
	resumable bool // a file with an identity (streams are not)
	path      string
	pod       source.Pod
	source    string
	next      int64            // Line.Next of the latest line
	emitted   map[string]int64 // per stream, Offset of the last line of an emitted entry
	restored  *state.Checkpoint
	dirty     bool
}

// streamState is one assembler and where its pending entry began.
type streamState struct {
	asm          *entry.Assembler
	remembered   analysis.Stream // what the analysis keeps between entries
	file         *fileState
	stream       string
	lastLine     time.Time
	lastOffset   int64 // Offset of the latest line; a smaller one means truncation
	pendingFirst int64 // Offset of the pending entry's first line; -1 when none
}

// Identity is the Kubernetes identity of this logmatch (from the downward
// API), used for sources whose path does not say whose logs they are.
type Identity struct {
	Pod, Namespace, Container, Node string
}

func newProcessor(p *processor) *processor {
	p.files = map[string]*fileState{}
	p.streams = map[streamKey]*streamState{}
	if p.bounds == nil {
		p.bounds = map[string]*rateBound{}
	}
	for _, s := range p.sinks {
		if p.bounds[s.name] == nil {
			p.bounds[s.name] = &rateBound{perMinute: s.newPerMinute, burst: s.newBurst}
		}
	}
	return p
}

// line handles one line from any source.
func (p *processor) line(l source.Line) {
	fs := p.file(l)
	fs.next = l.Next
	if l.Path != "" {
		fs.path = l.Path
	}
	fs.dirty = fs.resumable
	if p.metrics != nil && !l.Time.IsZero() {
		p.metrics.ReadLag(l.Source, p.now().Sub(l.Time))
	}
	k := streamKey{file: fileKey(l), stream: l.Stream}
	ss := p.streams[k]
	if ss == nil {
		ss = &streamState{asm: entry.NewAssembler(p.entryOpt), file: fs, stream: l.Stream, pendingFirst: -1, lastOffset: -1}
		p.streams[k] = ss
	}
	if l.Offset < ss.lastOffset {
		// The file was truncated (copytruncate) and is read again from
		// its start: offsets of the old content mean nothing now.
		fs.restored = nil
		clear(fs.emitted)
	}
	ss.lastOffset = l.Offset
	if fs.restored != nil && fs.restored.AlreadyEmitted(l.Stream, l.Offset) {
		// Read again after a restart only because an entry of another
		// stream was still pending: this line's entry was already matched.
		return
	}
	wasPending := ss.asm.Pending()
	es := ss.asm.Push(l.Line)
	switch {
	case !ss.asm.Pending():
		ss.pendingFirst = -1
	case len(es) > 0 || !wasPending:
		// This line completed the previous entry (or there was none) and
		// began the one now pending.
		ss.pendingFirst = l.Offset
	}
	ss.lastLine = p.now()
	p.entries(es, ss)
}

func fileKey(l source.Line) string {
	if id := toStateID(l.File); id.Key() != "" {
		return id.Key()
	}
	return "stream:" + l.Source
}

func (p *processor) file(l source.Line) *fileState {
	k := fileKey(l)
	fs := p.files[k]
	if fs != nil {
		return fs
	}
	id := toStateID(l.File)
	fs = &fileState{id: id, resumable: id.Key() != "", path: l.Path, pod: l.Pod, source: l.Source, emitted: map[string]int64{}}
	if cp, ok := p.restored[id.Key()]; ok && fs.resumable && cp.ID.SameContent(id) {
		fs.restored = &cp
		for s, off := range cp.Emitted {
			fs.emitted[s] = off
		}
	}
	p.files[k] = fs
	return fs
}

// toStateID converts the tailer's file identity to the store's.
func toStateID(id source.FileID) state.FileID {
	if id.Dev == 0 && id.Ino == 0 && id.Size == 0 {
		return state.FileID{}
	}
	return state.FileID{Fingerprint: append([]byte(nil), id.Sum[:]...), Size: id.Size, Dev: id.Dev, Ino: id.Ino}
}

// entries matches completed entries and groups the hits into incidents.
func (p *processor) entries(es []entry.Entry, ss *streamState) {
	if len(es) == 0 {
		return
	}
	an := p.analyzer()
	src := p.sourceOf(ss.file)
	for i := range es {
		e := &es[i]
		if cur, ok := ss.file.emitted[ss.stream]; !ok || e.LastOffset > cur {
			ss.file.emitted[ss.stream] = e.LastOffset
		}
		if p.metrics != nil {
			p.metrics.EntriesAssembled(ss.file.source, 1)
			if e.Cut.Lines > 0 || e.Cut.Bytes > 0 {
				p.metrics.EntryCut(ss.file.source, e.Cut.Lines, e.Cut.Bytes)
			}
		}
		p.gate.entry(ss.file, e, p.now())
		d, ok := an.AnalyzeStream(&ss.remembered, e)
		for _, pe := range d.PatternErrors {
			p.metrics.PatternTimeout(pe.Record.ID)
			p.log.Warn("pattern failed while matching", "record", pe.Record.ID, "origin", pe.Record.Origin.String(), "err", pe.Err)
		}
		if !ok {
			continue
		}
		if d.Cause != nil {
			p.metrics.Hit(d.Cause.Record.ID, string(d.Severity))
		}
		o := incident.FromDiagnosis(e, &d, src, p.now())
		p.grouped = true
		p.queue(p.gate.occurrence(ss.file, e, &d, o, p.grouper.Observe(o, p.now()), p.now()))
	}
}

// analyzer returns the Analyzer of the current catalog.
func (p *processor) analyzer() *analysis.Analyzer {
	m := p.matcher.Load()
	if p.an == nil || p.an.Matcher() != m {
		p.an = analysis.New(m)
	}
	return p.an
}

// sourceOf describes a file for alerts: the Kubernetes identity from its
// path when it is a kubelet log, else this pod's own identity.
func (p *processor) sourceOf(fs *fileState) incident.Source {
	s := incident.Source{
		Path:      fs.path,
		Pod:       p.identity.Pod,
		Namespace: p.identity.Namespace,
		Container: p.identity.Container,
		Node:      p.identity.Node,
	}
	if s.Path == "" {
		s.Path = fs.source
	}
	if fs.pod.Name != "" {
		s.Pod, s.Namespace, s.Container = fs.pod.Name, fs.pod.Namespace, fs.pod.Container
	}
	// The grouping identity survives rotation: a pod's container, or the
	// file's directory and base name with rotation suffixes left out.
	switch {
	case fs.pod.Name != "":
		s.Key = "pod:" + s.Namespace + "/" + s.Pod + "/" + s.Container
	case fs.path != "":
		s.Key = "file:" + rotationBase(fs.path)
	default:
		s.Key = "stream:" + fs.source
	}
	return s
}

// rotationBase strips the suffixes logrotate and friends add (".1",
// ".2.gz", "-20260528") so a rotated file groups with its successor.
func rotationBase(path string) string {
	dir, base := filepath.Split(path)
	for {
		ext := filepath.Ext(base)
		if ext == "" || ext == base {
			break
		}
		tail := ext[1:]
		if tail == "gz" || tail == "bz2" || tail == "xz" || tail == "zst" || allDigits(tail) {
			base = base[:len(base)-len(ext)]
			continue
		}
		break
	}
	if i := lastDash(base); i > 0 && len(base)-i-1 >= 8 && allDigits(base[i+1:]) {
		base = base[:i]
	}
	return dir + base
}

func lastDash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '-' {
			return i
		}
	}
	return -1
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// queue records alerts for the next commit, redacted, with the sinks
// each goes to: those whose min_severity it meets and that take its kind,
// less those whose bound on new incidents it is over (it is folded into
// their digest instead, and counted).
func (p *processor) queue(as []sinks.Alert) {
	p.gate.attach(as)
	now := p.now()
	for i := range as {
		a := as[i]
		if p.redactor != nil {
			p.redactor.RedactAlert(&a)
		}
		p.metrics.Incident(a.Record.ID, a.Record.Severity, a.Kind)
		rank := sinks.SeverityRank(a.Record.Severity)
		var route []*builtSink
		for _, s := range p.sinks {
			if rank < s.minRank || !s.wants(a.Kind) {
				continue
			}
			if b := p.bounds[s.name]; a.Kind == incident.KindNew && b != nil && !b.admit(a.Fingerprint, now) {
				if b.fold(&a, now) {
					p.log.Warn("new incidents above the sink's rate bound: folding them into a digest", "sink", s.name,
						"per_minute", b.perMinute, "digest_due", b.digest.Due)
				}
				p.metrics.Overflow(s.name, 1)
				p.grouped = true // the digest is saved with the grouping state
				continue
			}
			route = append(route, s)
		}
		p.pending = append(p.pending, a)
		p.routes = append(p.routes, route)
	}
	p.trimPending()
}

// trimPending enforces maxPendingAlerts: past it (commits keep failing)
// the oldest alerts are dropped and counted.
func (p *processor) trimPending() {
	if over := len(p.pending) - maxPendingAlerts; over > 0 {
		p.pending = append(p.pending[:0], p.pending[over:]...)
		p.routes = append(p.routes[:0], p.routes[over:]...)
		p.dropped += int64(over)
		for _, s := range p.sinks {
			p.metrics.AlertDropped(s.name, "commit_backlog", over)
		}
		p.log.Error("state commits are failing: oldest alerts dropped", "dropped", over)
	}
}

// flushDigests queues each sink's digest that is due by now, or every
// digest when all is set (the end of a finite input).
func (p *processor) flushDigests(now time.Time, all bool) {
	for _, s := range p.sinks {
		b := p.bounds[s.name]
		if b == nil || b.digest == nil || (!all && now.Before(b.digest.Due)) {
			continue
		}
		a := b.digest.alert(s.name, b.perMinute)
		b.digest = nil
		p.log.Warn("digest of new incidents above the rate bound queued", "sink", s.name, "incidents", a.Count)
		p.pending = append(p.pending, a)
		p.routes = append(p.routes, []*builtSink{s})
		p.grouped = true
	}
	p.trimPending()
}

// snapshot is the grouping blob: the grouper's state and the digests.
func (p *processor) snapshot() ([]byte, error) {
	g, err := p.grouper.Snapshot()
	if err != nil {
		return nil, err
	}
	blob := groupingBlob{Grouper: g}
	for name, b := range p.bounds {
		if b.digest != nil {
			if blob.Digests == nil {
				blob.Digests = map[string]*digest{}
			}
			blob.Digests[name] = b.digest
		}
	}
	return json.Marshal(blob)
}

// restore loads a grouping blob saved by snapshot (or, version 1, the
// grouper's snapshot alone).
func (p *processor) restore(version uint32, data []byte) error {
	switch version {
	case 1:
		return p.grouper.Restore(data)
	case groupingVersion:
		var blob groupingBlob
		if err := json.Unmarshal(data, &blob); err != nil {
			return fmt.Errorf("grouping state: %w", err)
		}
		if err := p.grouper.Restore(blob.Grouper); err != nil {
			return err
		}
		for name, d := range blob.Digests {
			if b := p.bounds[name]; b != nil && d != nil {
				b.digest = d
			}
		}
		return nil
	}
	return fmt.Errorf("grouping state: version %d, want %d", version, groupingVersion)
}

// idleFlush completes entries whose stream has been quiet for the idle
// time, so a traceback's last line is not held until the next log line,
// and closes grouping windows that ended.
func (p *processor) idleFlush(now time.Time) {
	for _, k := range p.sortedStreams() {
		ss := p.streams[k]
		if !ss.asm.Pending() || now.Sub(ss.lastLine) < p.idle {
			continue
		}
		es := ss.asm.Flush()
		ss.pendingFirst = -1
		ss.file.dirty = ss.file.resumable
		p.entries(es, ss)
	}
	if d := p.grouper.NextDeadline(); !d.IsZero() && !now.Before(d) {
		as := p.grouper.Tick(now)
		p.grouped = true
		p.queue(as)
	}
}

// flushAll completes every pending entry: end of input or shutdown.
func (p *processor) flushAll() {
	for _, k := range p.sortedStreams() {
		ss := p.streams[k]
		es := ss.asm.Flush()
		ss.pendingFirst = -1
		ss.file.dirty = ss.file.resumable
		p.entries(es, ss)
	}
}

// flushGroups closes every incident, queueing the summaries of repeats not
// yet announced.
func (p *processor) flushGroups() {
	p.grouped = true
	p.queue(p.grouper.Flush(p.now()))
}

func (p *processor) sortedStreams() []streamKey {
	ks := make([]streamKey, 0, len(p.streams))
	for k := range p.streams {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].file != ks[j].file {
			return ks[i].file < ks[j].file
		}
		return ks[i].stream < ks[j].stream
	})
	return ks
}

// hasAlerts reports whether alerts wait for a commit: they are committed
// at once, while positions alone wait for the periodic commit.
func (p *processor) hasAlerts() bool { return len(p.pending) > 0 }

func (p *processor) dirty() bool {
	if len(p.pending) > 0 || p.grouped || p.gate.changed() {
		return true
	}
	for _, fs := range p.files {
		if fs.dirty {
			return true
		}
	}
	return false
}

// commit writes positions, the grouper's state and the pending alerts in
// one transaction. On failure nothing is lost: everything stays pending
// for the next commit.
func (p *processor) commit() (woke []string, err error) {
	if !p.dirty() {
		return nil, nil
	}
	var b state.Batch
	resume := p.resumeOffsets()
	for k, fs := range p.files {
		if !fs.dirty {
			continue
		}
		cp := state.Checkpoint{ID: fs.id, Path: fs.path, Offset: resume[k], Emitted: copyMap(fs.emitted)}
		b.Files = append(b.Files, cp)
	}
	sort.Slice(b.Files, func(i, j int) bool { return b.Files[i].ID.Key() < b.Files[j].ID.Key() })
	if p.grouped {
		snap, err := p.snapshot()
		if err != nil {
			return nil, err
		}
		b.Grouping = &state.Grouping{Version: groupingVersion, Data: snap}
	}
	gateBlob, gateGen, err := p.gate.snapshot()
	if err != nil {
		return nil, err
	}
	b.Gate = gateBlob
	queued := map[string]bool{}
	for i := range p.pending {
		a := &p.pending[i]
		payload, err := sinks.AlertJSON(a)
		if err != nil {
			p.log.Error("alert cannot be encoded; dropped", "fingerprint", a.Fingerprint, "err", err)
			continue
		}
		for _, s := range p.routes[i] {
			b.Enqueue = append(b.Enqueue, state.Enqueue{Sink: s.name, Payload: payload})
			queued[s.name] = true
		}
	}
	res, err := p.store.Commit(b)
	if err != nil {
		return nil, err
	}
	for _, d := range res.Dropped {
		p.metrics.AlertDropped(d.Sink, d.Reason, d.Count)
		p.log.Warn("queue bound dropped alerts", "sink", d.Sink, "reason", d.Reason, "count", d.Count)
	}
	for _, fs := range p.files {
		fs.dirty = false
	}
	p.grouped = false
	p.gate.commit(gateGen)
	p.pending = p.pending[:0]
	p.routes = p.routes[:0]
	for name := range queued {
		woke = append(woke, name)
	}
	sort.Strings(woke)
	return woke, nil
}

// resumeOffsets computes, per file, where reading must resume after a
// restart: the first line of the oldest pending entry of any of its
// streams, or the position after the last line read.
func (p *processor) resumeOffsets() map[string]int64 {
	out := make(map[string]int64, len(p.files))
	for k, fs := range p.files {
		out[k] = fs.next
	}
	for k, ss := range p.streams {
		if ss.pendingFirst >= 0 && ss.pendingFirst < out[k.file] {
			out[k.file] = ss.pendingFirst
		}
	}
	return out
}

func copyMap(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
