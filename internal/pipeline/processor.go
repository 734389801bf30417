package pipeline

import (
	"cmp"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/health"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/stream"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// groupingVersion is the version stamped on the grouping blob in the
// state store: version 3 holds the grouper's state less its incidents,
// which are stored one by one beside it (incident.Changes), and the
// digests being gathered; version 2 the grouper's whole snapshot and the
// digests, version 1 the snapshot alone. Both are still read, and the
// commit after them writes version 3. A blob of another version is
// ignored (grouping restarts).
const groupingVersion = 3

// groupingBlob is what the processor saves beside the positions.
type groupingBlob struct {
	Grouper json.RawMessage    `json:"grouper"`
	Digests map[string]*digest `json:"digests,omitempty"`
}

// maxPendingAlerts bounds the alerts waiting for a commit that keeps
// failing (a full disk); past it the oldest are dropped and counted.
const maxPendingAlerts = 10000

// defaultMaxFiles bounds the files and streams the processor keeps state
// for (assemblers, offsets, metric series): far above what the tailer
// keeps open (256 by default), so only files the tailer never reports gone
// are evicted by it.
const defaultMaxFiles = 4096

// maxRetired bounds the final checkpoints of dropped files waiting for a
// commit (commits are failing); past it the oldest are forgotten, logged.
const maxRetired = defaultMaxFiles

// processor turns lines into queued alerts. It has one owner at a time,
// whoever holds its loop's lock (loop.mu): the processor goroutine, or the
// file tailer's goroutine while it matches its own batch (loop.direct).
// No field is shared otherwise, except through the store and the atomic
// matcher.
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
	// engineOf is the configured engine of a path ("" to detect it from
	// the lines), asked once per stream when it is created.
	engineOf func(path string) string
	now      func() time.Time
	gate     *health.Monitor // the liveness gate; nil gates nothing

	// occ makes the occurrences of failure entries, their alerts built
	// only when the grouper (or the gate) needs them: a repeat of an open
	// incident builds none. finishing is the file of the occurrence
	// being made, which its alert's Finish reads.
	occ       incident.Builder
	finishing *fileState

	// restored holds the checkpoints loaded at start, by device and inode;
	// the first line of a file takes its checkpoint out.
	restored map[source.Key]state.Checkpoint
	files    map[source.Key]*fileState
	last     *fileState // the file of the latest line: lines come in runs per file
	started  time.Time  // when the processor was built: a stream's generation
	// at is the time of the batch being processed; zero between batches
	// (see clock).
	at time.Time
	// maxFiles bounds files; past it the least recently used is evicted
	// (uses is the lookup clock of fileState.used).
	maxFiles int
	uses     uint64
	evicted  int64
	// retired are the final checkpoints of files dropped since the last
	// commit (gone, or evicted by maxFiles).
	retired []state.Checkpoint
	pending []sinks.Alert  // found, not yet committed
	routes  [][]*builtSink // per pending alert, the sinks it is queued for
	grouped bool           // the grouper changed since the last commit
	dropped int64          // alerts dropped by maxPendingAlerts
	// evictions are the grouper's eviction counters as last reported to
	// the metrics.
	evictions incident.Stats

	tot *totals // the run's counts; nil counts nothing

	// shell diagnoses entries with the current catalog (shellOf); its
	// analyzer is replaced when a reload swaps the matcher.
	shell *stream.Shell
	// serverVersion is the configuration's server_version, for the shell.
	serverVersion string
	// pushed, when set, is the push inputs' state, committed with the
	// rest (ingest.go).
	pushed pushedState
}

// fileState is what the processor knows of one source file or stream.
type fileState struct {
	key source.Key
	// id is the identity the tailer reported with the latest line: what
	// the checkpoint stores, so a restart resumes this content.
	id        source.FileID
	resumable bool // a file with an identity (streams are not)
	path      string
	pod       source.Pod
	source    string
	next      int64            // Line.Next of the latest line
	emitted   map[string]int64 // per stream, Offset of the last line of an emitted entry
	restored  *state.Checkpoint
	dirty     bool
	streams   []*streamState   // by stream name; a file has one to three
	ident     string           // the alerts' Source.File; "" until an alert needs it
	src       *incident.Source // the alerts' source, described for srcPath
	srcPath   string
	series    *telemetry.Source // the source's metric series, held while the file is kept
	// headerTimes is set once an entry of the file carried its own header
	// timestamp: from then on the read lag is measured against entries'
	// header times, not against the lines' times (for a plain file, the
	// time logmatch read them, which would make the lag read 0).
	headerTimes bool
	used        uint64     // when the file was last looked up, for the bound on files
	glog        health.Log // the file as the liveness gate knows it (gateLog)
}

// stream returns the file's state for stream name, creating it with the
// engine engineOf configures for the file (nil configures none).
func (fs *fileState) stream(name string, opt entry.Options, engineOf func(string) string) *streamState {
	for _, ss := range fs.streams {
		if ss.Name() == name {
			return ss
		}
	}
	ss := &streamState{Stream: stream.New(name, opt), file: fs}
	if engineOf != nil {
		path := fs.path
		switch {
		case path != "":
		case fs.source == "stdin":
			path = "-" // as the configuration names standard input
		default:
			path = fs.source
		}
		ss.SetEngine(engineOf(path))
	}
	fs.streams = append(fs.streams, ss)
	slices.SortFunc(fs.streams, func(a, b *streamState) int { return strings.Compare(a.Name(), b.Name()) })
	return ss
}

// streamState is one stream of a file: the shell's stream (assembler,
// analysis memory, where its pending entry began) and when it last had a
// line.
type streamState struct {
	*stream.Stream
	file     *fileState
	lastLine time.Time
}

// Identity is the Kubernetes identity of this logmatch (from the downward
// API), used for sources whose path does not say whose logs they are.
type Identity struct {
	Pod, Namespace, Container, Node string
}

func newProcessor(p *processor) *processor {
	p.files = map[source.Key]*fileState{}
	p.started = p.now()
	if p.maxFiles <= 0 {
		p.maxFiles = defaultMaxFiles
	}
	for _, s := range p.sinks {
		s.routeBound()
	}
	p.occ.Finish = p.finishAlert
	return p
}

// finishAlert is what an occurrence's alert takes from the processor
// once built, before the grouper keeps it (in the state file too) or
// returns it: its file's identity, and the redaction.
func (p *processor) finishAlert(a *sinks.Alert) {
	a.Source.File = p.fileIdentity(p.finishing)
	if p.redactor != nil {
		p.redactor.RedactAlert(a)
	}
}

// line handles one line from any source.
func (p *processor) line(l source.Line) {
	if l.Gone {
		p.gone(&l)
		return
	}
	p.tot.add(linesRead, 1)
	fs := p.file(&l)
	if l.NewContent {
		// The tailer reads the file again from its start (a truncation,
		// a rewrite in place): what was kept of the old content goes.
		p.newContent(fs)
	}
	if l.File != fs.id {
		// The identity the checkpoint stores: a young file's grows, new
		// content brings its own.
		fs.id, fs.ident = l.File, ""
	}
	fs.next = l.Next
	if l.Path != "" {
		fs.path = l.Path
	}
	fs.dirty = fs.resumable
	if !fs.headerTimes && !l.Time.IsZero() {
		fs.series.Lag(p.clock().Sub(l.Time))
	}
	ss := fs.stream(l.Stream, p.entryOpt, p.engineOf)
	if fs.restored != nil && fs.restored.AlreadyEmitted(l.Stream, l.Offset) {
		// Read again after a restart only because an entry of another
		// stream was still pending: this line's entry was already matched.
		return
	}
	now := p.clock()
	es := ss.PushAt(&l.Line, now)
	ss.lastLine = now
	p.entries(es, ss)
}

// flush completes the pending entry of ss. The entry is dated as of its
// stream's last line, not now: what delayed its completion (the idle time,
// the end of the input, a loaded machine) is no time of the log's, and an
// entry's time decides what it folds with (an undated line's place after
// its scope's last timestamp, a settle time).
func (p *processor) flush(ss *streamState) {
	at := p.at
	if !ss.lastLine.IsZero() {
		p.at = ss.lastLine
	}
	p.entries(ss.Flush(), ss)
	p.at = at
}

// assembling tells the grouper, for each source, when the entry it is
// still assembling began and how far it has been read (see
// incident.Grouper.TickHolding).
func (p *processor) assembling() incident.Assembling {
	var a incident.Assembling
	for _, fs := range p.files {
		id := p.sourceOf(fs).Identity()
		for _, ss := range fs.streams {
			if began := ss.PendingSince(); !began.IsZero() {
				a.Began(id, began)
			}
			a.ReadTo(id, ss.LastOffset())
		}
	}
	return a
}

// file returns the state of l's file or stream, creating it (with the
// checkpoint loaded at start, when it is of the same content) for its first
// line.
func (p *processor) file(l *source.Line) *fileState {
	k := l.Key()
	if fs := p.last; fs != nil && fs.key == k {
		return fs
	}
	p.uses++
	fs := p.files[k]
	if fs == nil {
		if len(p.files) >= p.maxFiles {
			p.evictOldest()
		}
		fs = &fileState{key: k, id: l.File, resumable: !l.File.IsZero(), path: l.Path, pod: l.Pod, source: l.Source, emitted: map[string]int64{}}
		fs.series = p.metrics.Source(l.Source)
		if cp, ok := p.restored[k]; ok && fs.resumable {
			delete(p.restored, k)
			if cp.File == l.File {
				fs.restored = &cp
				for s, off := range cp.Emitted {
					fs.emitted[s] = off
				}
			}
		}
		p.files[k] = fs
	}
	fs.used = p.uses
	p.last = fs
	return fs
}

// gone handles the tailer's notice that it stopped following a file (l
// has no text): the entries its streams still hold are completed and
// matched, its checkpoint goes to the next commit marked Gone (the store
// prunes it later), and everything kept for it is dropped, its metric
// series included.
func (p *processor) gone(l *source.Line) {
	if fs := p.files[l.Key()]; fs != nil && fs.id == l.File {
		p.drop(fs, true)
	} else if fs != nil {
		// The inode now holds other content than the notice is about:
		// the file was replaced at the same inode, which is followed on.
		p.log.Debug("gone notice for an earlier content of a followed inode", "path", l.Path, "file", l.File.String())
	}
}

// evictOldest drops the file looked up least recently, to keep the files
// and streams held within maxFiles. Its pending entries are completed
// first, so nothing read is lost; if it is still followed, its next line
// starts a new entry.
func (p *processor) evictOldest() {
	var old *fileState
	for _, fs := range p.files {
		if old == nil || fs.used < old.used {
			old = fs
		}
	}
	if old == nil {
		return
	}
	p.drop(old, false)
	p.evicted++
	p.metrics.FilesEvicted(1)
	if p.evicted == 1 || p.evicted%1000 == 0 {
		p.log.Warn("more files and streams than the processor keeps state for: the least recently read was dropped after completing its entries",
			"bound", p.maxFiles, "path", old.path, "source", old.source, "evicted_so_far", p.evicted)
	}
}

// drop completes and matches what fs's streams hold, queues its final
// checkpoint for the next commit and forgets fs.
func (p *processor) drop(fs *fileState, gone bool) {
	for _, ss := range fs.streams {
		p.flush(ss)
	}
	if fs.resumable {
		cp := fs.checkpoint()
		cp.Gone = gone
		p.retired = append(p.retired, cp)
		if over := len(p.retired) - maxRetired; over > 0 {
			// Commits keep failing: the oldest final checkpoints go. The
			// store keeps the one last committed for each, so a restart
			// reads them from there, if they are still there at all.
			p.log.Warn("state commits are failing: final checkpoints of dropped files forgotten", "files", over)
			p.retired = slices.Delete(p.retired, 0, over)
		}
	}
	delete(p.files, fs.key)
	if p.last == fs {
		p.last = nil
	}
	p.metrics.ReleaseSource(fs.series)
	fs.series = nil
}

// prune makes the store forget the checkpoints of files gone for long.
func (p *processor) prune() { pruneCheckpoints(p.store, p.log) }

// pruneCheckpoints makes store forget the checkpoints of files gone for
// long and bounds their number (state.PruneBounds defaults); what it forgot
// is logged. A failure is logged and tried again at the next prune.
func pruneCheckpoints(store *state.Store, log *slog.Logger) {
	gone, err := store.Prune(state.PruneBounds{})
	if err != nil {
		log.Warn("prune checkpoints", "err", err)
		return
	}
	if len(gone) > 0 {
		log.Info("checkpoints of files gone for long, or past the bound on checkpoints, forgotten", "files", len(gone),
			"oldest", gone[0].Path, "oldest_seen", gone[0].Seen)
	}
}

// clock is the time of the batch of lines being processed, set by the
// process loop once per batch so that no line pays for a clock read, or
// the processor's clock outside a batch.
func (p *processor) clock() time.Time {
	if !p.at.IsZero() {
		return p.at
	}
	return p.now()
}

// fileIdentity is the alerts' Source.File for fs: the identity the tailer
// reported for the content, or for a stream its name and when this
// processor started, since a stream's offsets start again with each run.
func (p *processor) fileIdentity(fs *fileState) string {
	if fs.ident == "" {
		if fs.resumable {
			fs.ident = fs.id.String()
		} else {
			fs.ident = "stream:" + fs.source + "@" + p.started.UTC().Format(time.RFC3339Nano)
		}
	}
	return fs.ident
}

// newContent forgets what the processor knows of a file's old content when
// the tailer says new content begins (source.Line.NewContent): the entries
// still being assembled are completed (the tailer delivered the old
// content's last line before the new content's first), and the offsets of
// the old content mean nothing now.
func (p *processor) newContent(fs *fileState) {
	for _, ss := range fs.streams {
		p.flush(ss)
		ss.Restart()
	}
	fs.restored = nil
	clear(fs.emitted)
}

// entries diagnoses completed entries of ss through the shell and groups
// the failures into incidents.
func (p *processor) entries(es []entry.Entry, ss *streamState) {
	if len(es) == 0 {
		return
	}
	ss.file.series.Entries(len(es))
	p.tot.add(entriesMade, len(es))
	p.shellOf().Diagnose(ss.Stream, es, func(de *stream.Entry) { p.entry(ss, de) })
}

// entry takes one diagnosed entry of ss down the rest of the path, each
// stage once: its bookkeeping and metrics, then for a failure its
// occurrence grouped into an incident (internal/incident), then the
// liveness gate (internal/health), then the routes of the alerts that
// came out (queue), which wait for the next commit.
func (p *processor) entry(ss *streamState, de *stream.Entry) {
	fs, e, now := ss.file, de.Entry, p.clock()
	if cur, ok := fs.emitted[ss.Name()]; !ok || e.LastOffset > cur {
		fs.emitted[ss.Name()] = e.LastOffset
	}
	p.count(fs, de, now)
	d := de.Diagnosis
	var o *incident.Occurrence
	var as []sinks.Alert
	if de.Failure {
		src := p.sourceOf(fs)
		src.Engine = de.Engine
		p.finishing = fs
		occ := p.occ.Occurrence(e, d, src, now)
		if p.gate != nil {
			// The liveness gate reads the alert after the grouper.
			occ.Complete()
		}
		p.grouped = true
		as, o = p.grouper.Observe(occ, now), &occ
	} else if analysis.Startup(e) {
		// The server started again: what it failed of before is over,
		// and a failure after this is a new incident (as in a scan).
		if rs := p.grouper.Restarted(p.sourceOf(fs).Identity(), now); len(rs) > 0 {
			p.grouped = true
			p.queue(p.gate.Attach(rs))
		}
	}
	as = p.gate.Observe(fs.gateLog(), e, d, o, as, now)
	if len(as) > 0 {
		p.queue(as)
	}
}

// count is what an entry adds to the metrics: its source's cut, lag and
// stamps ahead of the clock, the patterns that failed on it, and for a
// failure its cause record's hit.
func (p *processor) count(fs *fileState, de *stream.Entry, now time.Time) {
	e, d := de.Entry, de.Diagnosis
	if e.Cut.Lines > 0 || e.Cut.Bytes > 0 {
		fs.series.Cut(e.Cut.Lines, e.Cut.Bytes)
	}
	if !e.Time.IsZero() && !e.TimeInherited {
		// An inherited time (an undated line's, its stream's last known
		// one) is as old as that line was when it was read later: it
		// measures no lag and counts no stamp ahead.
		fs.headerTimes = true
		if de.Ahead {
			fs.series.Ahead()
		}
		fs.series.Lag(now.Sub(e.Time))
	}
	for _, pe := range d.PatternErrors {
		p.metrics.PatternTimeout(pe.Record.ID)
		p.log.Warn("pattern failed while matching", "record", pe.Record.ID, "origin", pe.Record.Origin.String(), "err", pe.Err)
	}
	if de.Failure && d.Cause != nil {
		p.metrics.Hit(d.Cause.Record.ID, string(d.Severity))
	}
}

// redactLine is entry.Options.Redact: the current redactor's, so a reload
// that changes it applies to lines cut from then on.
func (p *processor) redactLine(s string) string {
	if p.redactor == nil {
		return s
	}
	return p.redactor.Redact(s)
}

// shellOf returns the shell, diagnosing with the current catalog.
func (p *processor) shellOf() *stream.Shell {
	m := p.matcher.Load()
	if p.shell == nil {
		p.shell = stream.NewShell(m, p.clock)
		p.shell.SetServerVersion(p.serverVersion)
	} else {
		p.shell.SetMatcher(m)
	}
	return p.shell
}

// sourceOf describes a file for alerts: the Kubernetes identity from its
// path when it is a kubelet log, else this pod's own identity. It is
// computed once per path.
func (p *processor) sourceOf(fs *fileState) incident.Source {
	if fs.src == nil || fs.srcPath != fs.path {
		s := p.describe(fs)
		fs.src, fs.srcPath = &s, fs.path
	}
	return *fs.src
}

func (p *processor) describe(fs *fileState) incident.Source {
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
	case fs.path == "" && strings.HasPrefix(fs.source, "{"):
		// A pushed stream: its name is its identity, the pod's labels
		// with the configured extra ones (accept_labels).
		s.Key = "stream:" + fs.source
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
		if tail == "gz" || tail == "bz2" || tail == "xz" || tail == "zst" || ascii.Digits(tail) {
			base = base[:len(base)-len(ext)]
			continue
		}
		break
	}
	if i := lastDash(base); i > 0 && len(base)-i-1 >= 8 && ascii.Digits(base[i+1:]) {
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

// pendingIncident reports whether an incident's first alert is still to
// come (it is settling), asking the current grouper (a reload replaces it).
func (p *processor) pendingIncident(fingerprint string) bool { return p.grouper.Pending(fingerprint) }

// queue records alerts for the next commit, redacted, with the sinks
// each goes to: those whose min_severity it meets and that take its kind,
// less those whose bound on new incidents it is over (it is folded into
// their digest instead, and counted).
func (p *processor) queue(as []sinks.Alert) {
	now := p.clock()
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
			if b := s.bound; a.Kind == incident.KindNew && b != nil && !b.admit(a.Fingerprint, now) {
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
		if a.Kind == incident.KindNew {
			p.tot.add(incidentsFound, 1)
		}
		if len(route) > 0 {
			p.tot.add(alertsQueued, 1)
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
		b := s.bound
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

// snapshot is the grouping blob, the grouper's state less its incidents
// and the digests, and the incidents changed since the last commit.
func (p *processor) snapshot() ([]byte, *state.IncidentChanges, error) {
	c, err := p.grouper.Changes()
	if err != nil {
		return nil, nil, err
	}
	ic := &state.IncidentChanges{Reset: c.Reset, Delete: c.Delete, Put: make([]state.KeyValue, len(c.Put))}
	for i, part := range c.Put {
		ic.Put[i] = state.KeyValue{Key: part.ID, Value: part.Data}
	}
	blob := groupingBlob{Grouper: c.Meta}
	for _, s := range p.sinks {
		if b := s.bound; b != nil && b.digest != nil {
			if blob.Digests == nil {
				blob.Digests = map[string]*digest{}
			}
			blob.Digests[s.name] = b.digest
		}
	}
	data, err := json.Marshal(blob)
	return data, ic, err
}

// restore loads a grouping blob saved by snapshot, with the incidents
// stored beside it that incidents yields (or, version 2, a blob that holds
// them all; version 1, the grouper's snapshot alone).
func (p *processor) restore(version uint32, data []byte, incidents func(yield func(id string, data []byte) error) error) error {
	switch version {
	case 1:
		return p.grouper.Restore(data)
	case 2, groupingVersion:
		var blob groupingBlob
		if err := json.Unmarshal(data, &blob); err != nil {
			return fmt.Errorf("grouping state: %w", err)
		}
		var err error
		if version == groupingVersion {
			err = p.grouper.RestoreParts(blob.Grouper, incidents)
		} else {
			err = p.grouper.Restore(blob.Grouper)
		}
		if err != nil {
			return err
		}
		for _, s := range p.sinks {
			if d := blob.Digests[s.name]; d != nil && s.bound != nil {
				s.bound.digest = d
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
	for _, ss := range p.sortedStreams(func(ss *streamState) bool {
		return ss.Pending() && now.Sub(ss.lastLine) >= p.idle
	}) {
		ss.file.dirty = ss.file.resumable
		p.flush(ss)
	}
	if d := p.grouper.NextDeadline(); !d.IsZero() && !now.Before(d) {
		as := p.grouper.TickHolding(now, p.assembling())
		p.grouped = true
		p.queue(p.gate.Attach(as))
	}
}

// flushAll completes every pending entry: end of input or shutdown.
func (p *processor) flushAll() {
	for _, ss := range p.sortedStreams(nil) {
		ss.file.dirty = ss.file.resumable
		p.flush(ss)
	}
}

// flushGroups closes every incident, queueing the summaries of repeats not
// yet announced.
func (p *processor) flushGroups() {
	p.grouped = true
	p.queue(p.gate.Attach(p.grouper.Flush(p.now())))
}

// sortedStreams lists the streams of every file for which keep reports
// true (all when keep is nil), in the order of their keys, so flushes are
// deterministic; only those kept are sorted, so the periodic idle check
// over many quiet files costs a pass, not a sort.
func (p *processor) sortedStreams(keep func(*streamState) bool) []*streamState {
	var out []*streamState
	for _, fs := range p.files {
		for _, ss := range fs.streams {
			if keep == nil || keep(ss) {
				out = append(out, ss)
			}
		}
	}
	slices.SortFunc(out, func(a, b *streamState) int {
		if c := compareKeys(a.file.key, b.file.key); c != 0 {
			return c
		}
		return strings.Compare(a.Name(), b.Name())
	})
	return out
}

func compareKeys(a, b source.Key) int {
	if c := cmp.Compare(a.Dev, b.Dev); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Ino, b.Ino); c != 0 {
		return c
	}
	return strings.Compare(a.Stream, b.Stream)
}

// hasAlerts reports whether alerts wait for a commit: they are committed
// at once, while positions alone wait for the periodic commit.
func (p *processor) hasAlerts() bool { return len(p.pending) > 0 }

// quiet reports whether nothing the tick does can be due before
// now+horizon: no pending entry to complete, no alert, digest or position
// to commit, no incident deadline sooner.
func (p *processor) quiet(now time.Time, horizon time.Duration) bool {
	if p.dirty() {
		return false
	}
	for _, fs := range p.files {
		for _, ss := range fs.streams {
			if ss.Pending() {
				return false
			}
		}
	}
	for _, s := range p.sinks {
		if s.bound != nil && s.bound.digest != nil {
			return false
		}
	}
	d := p.grouper.NextDeadline()
	return d.IsZero() || !d.Before(now.Add(horizon))
}

func (p *processor) dirty() bool {
	if len(p.pending) > 0 || len(p.retired) > 0 || p.grouped || p.gate.Changed() {
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
	var b state.Batch
	if p.pushed != nil {
		if b.Pushed, err = p.pushed.blob(); err != nil {
			return nil, err
		}
	}
	if !p.dirty() && b.Pushed == nil {
		return nil, nil
	}
	// The final checkpoints of dropped files come first: a file followed
	// now at a reused inode replaces its predecessor's.
	b.Files = append(b.Files, p.retired...)
	for _, fs := range p.files {
		if fs.dirty {
			b.Files = append(b.Files, fs.checkpoint())
		}
	}
	slices.SortStableFunc(b.Files, func(x, y state.Checkpoint) int {
		return compareKeys(x.File.Key(), y.File.Key())
	})
	if p.grouped {
		snap, incidents, err := p.snapshot()
		if err != nil {
			return nil, err
		}
		b.Grouping = &state.Grouping{Version: groupingVersion, Data: snap}
		b.Incidents = incidents
	}
	gateData, gateGen, gateChanged, err := p.gate.Snapshot()
	if err != nil {
		return nil, err
	}
	if gateChanged {
		b.Gate = &state.Gate{Version: gateVersion, Data: gateData}
	}
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
	p.countEvictions()
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
	p.retired = p.retired[:0]
	if p.grouped {
		p.grouper.Committed()
	}
	p.grouped = false
	p.gate.Committed(gateGen)
	if b.Pushed != nil {
		p.pushed.committed()
	}
	p.pending = p.pending[:0]
	p.routes = p.routes[:0]
	for name := range queued {
		woke = append(woke, name)
	}
	sort.Strings(woke)
	return woke, nil
}

// countEvictions reports the incidents the grouper's bound closed, and
// those it dropped as routine, since the last report.
func (p *processor) countEvictions() {
	st := p.grouper.Stats()
	early := st.EvictedEarly - p.evictions.EvictedEarly
	forgotten := st.Evicted - p.evictions.Evicted - early
	p.metrics.IncidentsEvicted("forgotten", forgotten)
	p.metrics.IncidentsEvicted("announced", early)
	p.metrics.IncidentsDropped("routine", st.Routine-p.evictions.Routine)
	p.evictions = st
}

// checkpoint is where reading the file must resume after a restart: the
// first line of the oldest pending entry of any of its streams, or the
// position after the last line read; with the identity of the content read.
func (fs *fileState) checkpoint() state.Checkpoint {
	off := fs.next
	for _, ss := range fs.streams {
		if first := ss.PendingFirst(); first >= 0 && first < off {
			off = first
		}
	}
	return state.Checkpoint{
		Checkpoint: source.Checkpoint{File: fs.id, Offset: off},
		Path:       fs.path,
		Emitted:    maps.Clone(fs.emitted),
	}
}
