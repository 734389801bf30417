package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/internal/health"
	"github.com/logmatch/logmatch/internal/httpserve"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks/otel"
)

// lineBuffer bounds the lines between the sources and the processor (in
// batches of at most batchLines, besides the batch each source is
// filling): the sources block (backpressure) rather than buffer without
// limit.
const lineBuffer = 1024

// pruneInterval is how often the checkpoints of files gone for long are
// forgotten (state.PruneBounds), besides once at start.
const pruneInterval = time.Hour

// commitInterval is how often read positions are committed when no alert
// forces an earlier commit; each commit syncs the state file to disk.
const commitInterval = time.Second

// ErrConfig marks the errors of New that are the configuration's: a
// catalog that does not load, a sink that cannot be built, a bad redaction
// rule. Others (a locked or damaged state directory) are the
// environment's. Test with errors.Is.
var ErrConfig = errors.New("configuration")

// configErr marks err with ErrConfig without changing its message.
type configErr struct{ err error }

func (c configErr) Error() string        { return c.err.Error() }
func (c configErr) Unwrap() error        { return c.err }
func (c configErr) Is(target error) bool { return target == ErrConfig }

// Options are what a Pipeline needs from the process.
type Options struct {
	Config *config.Config
	Logger *slog.Logger
	Stdin  io.Reader
	Stdout io.Writer // alert JSON of the stdout sink; a wrapped command's stdout
	// Alerts, when set, receives the stdout sink's alert JSON instead of
	// Stdout (alert_output; a wrapped command's stdout is its own).
	Alerts io.Writer
	Stderr io.Writer // a wrapped command's stderr
	Getenv func(string) string
	// Reload receives a value for each reload request (SIGHUP): the
	// catalogs and, with LoadConfig, the configuration are loaded again.
	Reload <-chan struct{}
	// LoadConfig loads the configuration again, as at start (the same file
	// and flags); nil means the configuration is not reloadable.
	LoadConfig func() (*config.Config, error)
	// Version is logmatch's version, for the log and logmatch_build_info.
	Version string
	// Signals are forwarded to a wrapped command (SIGINT, SIGTERM), which
	// then decides when it exits; logmatch finishes when it has.
	Signals <-chan os.Signal
	// Listening, when set, is called with the HTTP server's address once
	// it listens (tests use port 0).
	Listening func(addr string)
	// StateReset moves a damaged state file aside and starts with empty
	// state, instead of failing (see state.Options.ResetDamaged).
	StateReset bool
}

// Pipeline is logmatch run.
type Pipeline struct {
	opts    Options
	cfg     *config.Config
	log     *slog.Logger
	facts   *factcache.Dir // nil when the state directory cannot hold it
	store   *state.Store
	tel     *telemetry.Telemetry
	sinks   []*builtSink
	delsMu  sync.RWMutex
	dels    []*deliverer // guarded by delsMu: /readyz reads it
	running []*running   // the delivery loops, owned by Run's goroutines
	delCtx  context.Context
	drain   chan struct{}
	globs   globState
	matcher atomic.Pointer[matcher.Matcher]
	proc    *processor
	stamp   string // catalog files' stamp at the last load

	telRan bool // Run owned the telemetry's shutdown

	sourcesUp atomic.Bool
	exitCode  atomic.Int32
	httpLn    net.Listener

	cmd       *source.Command               // the wrapped command, once started
	tailer    atomic.Pointer[source.Tailer] // the file tailer, for its coverage
	fatalExit atomic.Bool                   // --on-fatal terminate ended the command
	// listen opens the HTTP listener; net.Listen when nil (tests inject
	// a listener that fails).
	listen func(network, addr string) (net.Listener, error)

	processed chan struct{} // closed when the processor has returned

	commitFailingSince atomic.Int64 // unix nanos of the first failed commit of a streak; 0 when committing
	commitErr          atomic.Pointer[string]
	// inputs are the network inputs (accept); nil when none.
	inputs *netInputs
	// catalogErr is why the last catalog reload failed (the previous
	// catalog is still in use); nil once a load succeeds. /readyz says it.
	catalogErr atomic.Pointer[string]

	tot *totals // what the run did, for its last line
}

// commitFailingAfter is how long commits may keep failing (a full or
// read-only state disk) before /readyz reports it: long enough to ride out
// a blip, short enough that an orchestrator notices within a minute.
const commitFailingAfter = 10 * time.Second

// New validates the configuration, loads the catalog, opens the state
// store and builds the sinks. Every problem it can find before starting is
// reported at once; nothing runs until Run.
func New(ctx context.Context, opts Options) (*Pipeline, error) {
	cfg := opts.Config
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	p := &Pipeline{opts: opts, cfg: cfg, log: opts.Logger, tot: &totals{}}
	var errs []error

	p.facts = openFactCache(cfg.StateDir, p.log)
	// The stamp is taken before the files are read: a catalog saved
	// while they are being loaded then differs from it, and the next
	// poll loads the new one. Taken after, such a save went unseen until
	// the file changed again.
	p.stamp = catalog.Stamp(cfg.Catalogs)
	m, problems, err := catalog.Load(p.catalog(cfg))
	if testHookCatalogRead != nil {
		testHookCatalogRead()
	}
	p.logCatalogProblems(problems)
	if err != nil {
		errs = append(errs, err)
	} else {
		p.matcher.Store(m)
		u := m.FactsUse()
		p.log.Info("catalog loaded", "records", m.Len(), "problems", len(problems),
			"cached_patterns", u.Known, "parsed_patterns", u.Derived)
	}

	red, err := redactor(cfg.Redact)
	if err != nil {
		errs = append(errs, fmt.Errorf("redact: %w", err))
	}
	if _, err := source.ParseFormat(cfg.Format); err != nil {
		errs = append(errs, fmt.Errorf("format: %w", err))
	}
	built, err := buildSinks(ctx, cfg.Sinks, opts.Getenv, opts.alerts())
	if err != nil {
		errs = append(errs, err)
	}
	// Metrics carry the same resource (service, Kubernetes identity) as
	// the OTel sink's events, so the two join in a backend.
	var tel *telemetry.Telemetry
	if res, err := otel.Resource(ctx); err != nil {
		errs = append(errs, err)
	} else if tel, err = telemetry.New(ctx, telemetry.Config{Resource: res}); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		_ = closeSinks(ctx, built) // New fails with its own error
		if tel != nil {
			_ = tel.Shutdown(ctx)
		}
		return nil, configErr{err}
	}
	p.sinks, p.tel = built, tel
	if p.inputs, err = p.newInputs(cfg); err != nil {
		_ = closeSinks(ctx, built) // New fails with its own error
		_ = tel.Shutdown(ctx)
		return nil, configErr{fmt.Errorf("accept: %w", err)}
	}
	tel.Metrics().BuildInfo(opts.Version, runtime.Version())
	if m := p.matcher.Load(); m != nil {
		tel.Metrics().CatalogRecords(m.Len())
	}
	tel.Metrics().ConfigReload(true, time.Now())

	store, err := state.Open(cfg.StateDir, state.Options{
		Queue:        state.QueueBounds{MaxItems: cfg.Queue.MaxItems, MaxAge: time.Duration(cfg.Queue.MaxAge)},
		SinkQueues:   sinkQueues(built),
		ResetDamaged: opts.StateReset,
	})
	if err != nil {
		_ = closeSinks(ctx, built) // New fails with its own error
		_ = tel.Shutdown(ctx)
		return nil, err
	}
	p.store = store
	if aside, why := store.MovedAside(); aside != "" {
		p.log.Warn("state file was damaged: moved aside, starting with empty state (read positions and queued alerts in it are lost)",
			"moved_to", aside, "damage", why)
	}

	g := incident.New(groupOptions(cfg))

	pruneCheckpoints(store, p.log)
	cps, err := store.Files()
	if err != nil {
		p.Close()
		return nil, err
	}
	restored := restoredByKey(cps)
	p.proc = newProcessor(&processor{
		log:      p.log,
		metrics:  tel.Metrics(),
		store:    store,
		matcher:  &p.matcher,
		grouper:  g,
		redactor: red,
		sinks:    built,
		entryOpt: entry.Options{MaxLines: cfg.Entry.MaxLines, MaxBytes: cfg.Entry.MaxBytes, MaxLineBytes: cfg.MaxLineBytes, Reuse: true},
		idle:     time.Duration(cfg.Entry.IdleFlush),
		identity: Identity{Pod: cfg.Kubernetes.Pod, Namespace: cfg.Kubernetes.Namespace, Container: cfg.Kubernetes.Container, Node: cfg.Kubernetes.Node},
		engineOf: cfg.EngineOf,
		now:      time.Now,
		restored: restored,
	})
	p.proc.entryOpt.Redact = p.proc.redactLine
	p.proc.pushed = p.newPushState(store, cfg)
	gate := health.MonitorOptions{
		Self:     selfTarget(p.proc.identity),
		Redact:   p.proc.redactLine,
		ShowLine: cfg.HTTPProbeDetail,
		Probed:   cfg.HTTPAddr != "",
		Pending:  p.proc.pendingIncident,
	}
	if cfg.OnFatal == config.OnFatalTerminate {
		gate.Terminate = p.terminateOnFatal
	}
	p.proc.gate = newGate(store, p.log, tel.Metrics(), gate)
	p.proc.tot = p.tot
	p.proc.serverVersion = cfg.ServerVersion
	if blob, ok, err := store.Grouping(); err != nil {
		p.log.Warn("grouping state unreadable; grouping starts afresh", "err", err)
	} else if ok {
		if err := p.proc.restore(blob.Version, blob.Data, store.Incidents); err != nil {
			p.log.Warn("grouping state unreadable; grouping starts afresh", "err", err)
		}
	}
	for _, b := range built {
		d := newDeliverer(b, store, p.log, tel.Metrics(), time.Now)
		d.tot = p.tot
		p.dels = append(p.dels, d)
	}
	p.dropRemovedQueues()
	return p, nil
}

func redactor(r config.Redact) (*redact.Redactor, error) {
	if !r.Builtin && len(r.Patterns) == 0 {
		return nil, nil
	}
	if !r.Builtin {
		return redact.NewExtra(r.Patterns)
	}
	return redact.New(r.Patterns)
}

// dropRemovedQueues discards the queues of sinks no longer configured:
// their alerts have nowhere to go. Each is logged with its size.
func (p *Pipeline) dropRemovedQueues() {
	names, err := p.store.Sinks()
	if err != nil {
		p.log.Warn("list sink queues", "err", err)
		return
	}
	configured := map[string]bool{}
	for _, b := range p.sinks {
		configured[b.name] = true
	}
	for _, n := range names {
		if configured[n] {
			continue
		}
		dropped, err := p.store.DropQueue(n)
		if err != nil {
			p.log.Warn("drop queue of removed sink", "sink", n, "err", err)
			continue
		}
		p.tel.Metrics().AlertDropped(n, state.ReasonSinkRemoved, dropped)
		p.log.Warn("sink removed from the configuration: its queued alerts were dropped", "sink", n, "alerts", dropped)
	}
}

// alerts is where the stdout sink writes.
func (o *Options) alerts() io.Writer {
	if o.Alerts != nil {
		return o.Alerts
	}
	return o.Stdout
}

// ExitCode is the wrapped command's exit status once Run has returned (0
// when there is no command), or ExitTerminatedOnFatal when --on-fatal
// terminate ended it.
func (p *Pipeline) ExitCode() int {
	if p.fatalExit.Load() {
		return ExitTerminatedOnFatal
	}
	return int(p.exitCode.Load())
}

// terminateOnFatal ends the wrapped command after a gating failure; the
// inputs then end and Run finishes as when the command exits by itself.
func (p *Pipeline) terminateOnFatal() {
	if p.cmd != nil && p.cmd.Terminate() {
		p.fatalExit.Store(true)
	}
}

// Close releases what New acquired, in order: the sinks, telemetry (unless
// Run ran it) and last the state store. Every error is returned, joined;
// Run calls it on return.
func (p *Pipeline) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errs := []error{closeSinks(ctx, p.sinks)}
	if p.tel != nil && !p.telRan {
		errs = append(errs, p.tel.Shutdown(ctx))
	}
	if p.store != nil {
		errs = append(errs, p.store.Close())
	}
	return errors.Join(errs...)
}

// closeSinks closes every sink, all of them even when one fails, and
// returns their errors joined, each naming its sink.
func closeSinks(ctx context.Context, bs []*builtSink) error {
	var errs []error
	for _, b := range bs {
		if b.closer != nil {
			if err := b.closer(ctx); err != nil {
				errs = append(errs, fmt.Errorf("sink %s: close: %w", b.name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// hasFiles reports whether file globs are configured.
func (p *Pipeline) hasFiles() bool {
	for _, path := range p.cfg.Paths {
		if path != "-" {
			return true
		}
	}
	return false
}

// restoredByKey indexes checkpoints as the processor looks them up.
func restoredByKey(cps []state.Checkpoint) map[source.Key]state.Checkpoint {
	m := make(map[source.Key]state.Checkpoint, len(cps))
	for _, cp := range cps {
		if !cp.Gone && !cp.File.IsZero() {
			m[cp.File.Key()] = cp
		}
	}
	return m
}

// observer turns source counts into metrics.
type observer struct{ m *telemetry.Metrics }

func (o observer) Add(src string, c source.Counter, n int64) {
	switch c {
	case source.CountLines:
		o.m.LinesRead(src, int(n), 0)
	case source.CountBytes:
		o.m.LinesRead(src, 0, int(n))
	case source.CountLinesCut:
		o.m.EntryCut(src, int(n), 0)
		o.m.SourceEvent(c.String(), int(n))
	default:
		o.m.SourceEvent(c.String(), int(n))
	}
}

// commitFailed records a failed commit: logged, counted, and reported by
// /readyz once the failures have lasted commitFailingAfter. Nothing is lost
// while it lasts: the alerts and positions stay pending for the next
// commit (up to maxPendingAlerts, counted when dropped).
func (p *Pipeline) commitFailed(err error) {
	p.tel.Metrics().CommitFailed()
	msg := err.Error()
	p.commitErr.Store(&msg)
	if p.commitFailingSince.CompareAndSwap(0, time.Now().UnixNano()) {
		p.log.Error("commit state: failing; alerts and positions stay pending until a commit succeeds", "err", err)
		return
	}
	p.log.Debug("commit state", "err", err)
}

// tickInterval is how often idle entries and grouping windows are checked:
// a quarter of the idle flush time, between 50ms and 1s.
// quietTick is the tick period while nothing is due (see process).
const quietTick = 2 * time.Second

func tickInterval(idle time.Duration) time.Duration {
	return min(max(idle/4, 50*time.Millisecond), time.Second)
}

// reloadCatalog loads the catalogs again when forced (SIGHUP) or when a
// catalog file changed. A catalog that fails to load is reported and the
// last good one stays in use.
func (p *Pipeline) reloadCatalog(force bool) {
	stamp := catalog.Stamp(p.cfg.Catalogs)
	if !force && stamp == p.stamp {
		return
	}
	p.stamp = stamp
	m, problems, err := catalog.Load(p.catalog(p.cfg))
	p.logCatalogProblems(problems)
	if lerr := leftOut(problems); lerr != nil {
		// Says which record was left out and where, which "no usable
		// records" alone does not.
		err = lerr
	}
	// The metric and readiness first: whoever reads the log line finds
	// them already set.
	p.tel.Metrics().ConfigReload(err == nil, time.Now())
	if err != nil {
		msg := err.Error()
		p.catalogErr.Store(&msg)
		p.log.Error("catalog reload failed; keeping the previous catalog", "err", err)
		return
	}
	p.catalogErr.Store(nil)
	p.matcher.Store(m)
	p.tel.Metrics().CatalogRecords(m.Len())
	p.log.Info("catalog reloaded", "records", m.Len(), "problems", len(problems))
}

// leftOut is the error of a reloaded catalog that leaves records out (a
// line that does not parse, a refused pattern): a reload takes a catalog
// whole or not at all, so the running records stay until the file is
// fixed. Otherwise an editor's half-written save, or a typo in the record
// being edited, would silence that record's alerts. At start there is
// nothing to keep, and the records that load are used.
func leftOut(problems []patterns.Problem) error {
	var first *patterns.Problem
	n := 0
	for i := range problems {
		if problems[i].Level == patterns.LevelError {
			if first == nil {
				first = &problems[i]
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("catalog: %d problem(s) would leave records out, the first %w", n, *first)
}

// logCatalogProblems logs each problem with the file:line it names; an
// error (a record left out) at error level.
func (p *Pipeline) logCatalogProblems(problems []patterns.Problem) {
	for _, pr := range problems {
		level := slog.LevelWarn
		if pr.Level == patterns.LevelError {
			level = slog.LevelError
		}
		p.log.Log(context.Background(), level, "catalog problem", "problem", pr.Error())
	}
}

// serveHTTP serves health and metrics until ctx ends.
func (p *Pipeline) serveHTTP(ctx context.Context, ln net.Listener, cfg *config.Config) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", p.readyz)
	mux.HandleFunc("GET /livez", p.proc.gate.Livez)
	mux.Handle("GET /metrics", p.tel.Handler())
	p.inputs.register(mux)
	var lastWarn atomic.Int64
	return httpserve.Serve(ctx, ln, mux, httpserve.Options{
		MaxConns:    cfg.HTTPMaxConnections,
		IdleTimeout: time.Duration(cfg.HTTPIdleTimeout),
		TLS:         p.inputs.httpTLS(),
		ErrorLog:    slog.NewLogLogger(p.log.With("component", "http").Handler(), slog.LevelWarn),
		Evicted: func() {
			p.tel.Metrics().HTTPConnEvicted()
			// Logged at most once a minute: a flood of connections must
			// not flood the log too.
			now := time.Now().UnixNano()
			if last := lastWarn.Load(); now-last > int64(time.Minute) && lastWarn.CompareAndSwap(last, now) {
				p.log.Warn("http: connection bound reached; the connections idle longest are closed for new ones (counted in logmatch_http_connections_evicted_total)",
					"http_max_connections", cfg.HTTPMaxConnections)
			}
		},
	})
}

// readyz is 200 when the catalog is loaded, the sources are running and no
// sink is stuck; otherwise 503 with the reasons, one per line. Checks can
// be left out with ?exclude=catalog|sources|sinks (repeatable), as the
// Kubernetes API server's /readyz does: a sidecar whose readiness gates
// the sglang Pod's Service excludes sinks, so a Slack outage does not take
// the model server out of rotation.
func (p *Pipeline) readyz(w http.ResponseWriter, r *http.Request) {
	skip := map[string]bool{}
	for _, x := range r.URL.Query()["exclude"] {
		switch x {
		case "catalog", "sources", "sinks", "inputs":
			skip[x] = true
		default:
			http.Error(w, fmt.Sprintf("exclude: unknown check %q (catalog, sources, sinks, inputs)", x), http.StatusBadRequest)
			return
		}
	}
	var problems []string
	if m := p.matcher.Load(); !skip["catalog"] && (m == nil || m.Len() == 0) {
		problems = append(problems, "catalog: not loaded")
	}
	if e := p.catalogErr.Load(); e != nil && !skip["catalog"] {
		problems = append(problems, "catalog: the last reload failed, the previous catalog is still in use: "+*e)
	}
	if !skip["sources"] && !p.sourcesUp.Load() {
		problems = append(problems, "sources: not started")
	}
	if !skip["inputs"] {
		problems = append(problems, p.inputs.problems()...)
	}
	now := time.Now()
	if since := p.commitFailingSince.Load(); since != 0 && now.Sub(time.Unix(0, since)) > commitFailingAfter {
		msg := ""
		if e := p.commitErr.Load(); e != nil {
			msg = *e
		}
		problems = append(problems, fmt.Sprintf("state: commits failing for over %s (alerts found since are held in memory, not queued): %s", commitFailingAfter, msg))
	}
	for _, d := range p.deliverers() {
		if !skip["sinks"] && d.stuck(now) {
			problems = append(problems, fmt.Sprintf("sink %s: failing for over %s with %d alerts waiting", d.name, stuckAfter, d.waiting.Load()))
		}
	}
	if len(problems) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		for _, pr := range problems {
			fmt.Fprintln(w, pr)
		}
		return
	}
	fmt.Fprintln(w, "ready")
}

// groupOptions are the grouper's options in cfg.
func groupOptions(cfg *config.Config) incident.Options {
	return incident.Options{
		Window:          time.Duration(cfg.GroupWindow),
		RepeatInterval:  time.Duration(cfg.RepeatInterval),
		Settle:          time.Duration(cfg.SettleTime),
		Correlation:     time.Duration(cfg.CorrelationWindow),
		ConsequenceWait: time.Duration(cfg.ConsequenceWait),
		MaxGroups:       cfg.MaxOpenIncidents,
	}
}
