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

	"golang.org/x/sync/errgroup"

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
		closeSinks(ctx, built)
		if tel != nil {
			_ = tel.Shutdown(ctx)
		}
		return nil, configErr{err}
	}
	p.sinks, p.tel = built, tel
	if p.inputs, err = p.newInputs(cfg); err != nil {
		closeSinks(ctx, built)
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
		closeSinks(ctx, built)
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

// Close releases what New acquired; Run calls it on return.
func (p *Pipeline) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	closeSinks(ctx, p.sinks)
	var errs []error
	if p.tel != nil && !p.telRan {
		errs = append(errs, p.tel.Shutdown(ctx))
	}
	if p.store != nil {
		errs = append(errs, p.store.Close())
	}
	return errors.Join(errs...)
}

func closeSinks(ctx context.Context, bs []*builtSink) {
	for _, b := range bs {
		if b.closer != nil {
			_ = b.closer(ctx)
		}
	}
}

// ErrGraceExceeded is wrapped by Run's error when shutdown did not finish
// within shutdown_grace (matching an entry, or a final commit, was still
// running). Run returns anyway: nothing committed is lost, and lines read
// after the last commit are read again at the next start.
var ErrGraceExceeded = errors.New("shutdown grace period exceeded")

// Run runs until ctx ends, or until the inputs end (standard input at EOF,
// the wrapped command exited), or until a stage fails; then it shuts down
// in order: sources, the processor's final flush and commit, the sinks'
// drain, the HTTP server and telemetry. Each stage is supervised by one
// errgroup: the first failure (a source, a dead HTTP server, a failed
// final commit) stops the others and is returned. It returns nil on a
// clean stop. Shutdown, from the moment it begins, takes at most
// shutdown_grace; past it Run returns ErrGraceExceeded.
func (p *Pipeline) Run(ctx context.Context) (err error) {
	defer func() { err = errors.Join(err, p.Close()) }()
	grace := time.Duration(p.cfg.ShutdownGrace)
	if grace <= 0 {
		grace = config.DefaultShutdownGrace
	}
	if p.cfg.HTTPAddr != "" {
		listen := p.listen
		if listen == nil {
			listen = net.Listen
		}
		ln, err := listen("tcp", p.cfg.HTTPAddr)
		if err != nil {
			return fmt.Errorf("http_addr %s: %w", p.cfg.HTTPAddr, err)
		}
		p.httpLn = ln
		if p.opts.Listening != nil {
			p.opts.Listening(ln.Addr().String())
		}
	}

	runDone := make(chan struct{})
	defer close(runDone)
	g, gctx := errgroup.WithContext(ctx)
	lines := make(chan *batch, lineBuffer/batchLines)
	// Sources stop first, when the group's context ends or the
	// processor asks (a finite input ended).
	srcCtx, stopSources := context.WithCancel(gctx)
	defer stopSources()
	var srcWG sync.WaitGroup
	srcErrs := make(chan error, 3)
	lp := p.newLoop(gctx, stopSources)
	finite, err := p.startSources(srcCtx, &srcWG, lines, lp, srcErrs)
	if err != nil {
		stopSources()
		lp.open() // a started tailer may wait in direct
		srcWG.Wait()
		if p.httpLn != nil {
			_ = p.httpLn.Close()
		}
		return err
	}
	p.sourcesUp.Store(true)
	g.Go(func() error {
		// The sources stage: a source that fails (not one stopped by
		// its context) fails the pipeline.
		srcWG.Wait()
		close(lines)
		close(srcErrs)
		var errs []error
		for e := range srcErrs {
			errs = append(errs, e)
		}
		return errors.Join(errs...)
	})

	// shutdown is closed when the shutdown begins: the group's context
	// ended, or the processor finished (the inputs ended).
	shutdown := make(chan struct{})
	var shutdownOnce sync.Once
	beginShutdown := func() { shutdownOnce.Do(func() { close(shutdown) }) }
	go func() {
		select {
		case <-gctx.Done():
		case <-shutdown:
		}
		beginShutdown()
	}()

	drain := make(chan struct{}) // closed after the final commit
	p.processed = drain

	// Delivery, the HTTP server and telemetry outlive the processor:
	// the sinks drain after its final commit, within the grace period.
	delCtx, stopDelivery := context.WithCancel(context.WithoutCancel(ctx))
	defer stopDelivery()
	svcCtx, stopServices := context.WithCancel(context.WithoutCancel(ctx))
	defer stopServices()
	// The delivery loops run under delCtx; a reload (in the processor)
	// replaces them, so they are waited for only after the final commit.
	p.delCtx, p.drain = delCtx, drain
	p.startDelivery(p.dels)
	p.logStart()
	// The HTTP server's settings are copied before the processor starts:
	// a reload (on the processor's goroutine) replaces p.cfg.
	httpCfg := *p.cfg
	g.Go(func() error {
		defer close(drain)
		defer beginShutdown()
		return p.process(lp, lines, finite, finite != nil && !p.hasFiles())
	})
	g.Go(func() error {
		<-drain
		waitCtx, cancelWait := context.WithCancel(context.Background())
		defer cancelWait()
		go func() {
			select {
			case <-afterShutdown(shutdown, runDone, grace*4/5):
				cancelWait()
			case <-waitCtx.Done():
			}
		}()
		if !p.waitDelivery(waitCtx) {
			p.log.Warn("shutdown grace period ended with alerts still queued; they are kept for the next start", "grace", grace)
			stopDelivery()
			p.waitDelivery(context.Background())
		}
		stopServices()
		return p.deliveryErr()
	})
	if p.httpLn != nil {
		ln := p.httpLn
		g.Go(func() error { return p.serveHTTP(svcCtx, ln, &httpCfg) })
	}
	p.telRan = true
	g.Go(func() error {
		// A metrics export that fails at the end loses no alert: it is
		// logged, not made the exit status.
		if err := p.tel.Run(svcCtx); err != nil {
			p.log.Warn("telemetry shutdown", "err", err)
		}
		return nil
	})

	result := make(chan error, 1)
	go func() { result <- g.Wait() }()
	select {
	case err := <-result:
		p.logStop(ctx, err)
		return err
	case <-afterShutdown(shutdown, runDone, grace):
		p.log.Error("shutdown did not finish within the grace period; stopping now (lines read since the last commit are read again at the next start)", "grace", grace)
		stopSources()
		stopDelivery()
		stopServices()
		err := fmt.Errorf("%w (%s)", ErrGraceExceeded, grace)
		p.logStop(ctx, err)
		return err
	}
}

// afterShutdown returns a channel that is closed d after shutdown closes,
// unless stop closes first.
func afterShutdown(shutdown, stop <-chan struct{}, d time.Duration) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		select {
		case <-shutdown:
		case <-stop:
			return
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			close(c)
		case <-stop:
		}
	}()
	return c
}

// startSources starts the configured sources, each in its own goroutine
// writing to lines. finite is closed when every finite source (standard
// input, a wrapped command) has ended; it is nil when the sources only end
// with ctx.
func (p *Pipeline) startSources(ctx context.Context, wg *sync.WaitGroup, lines chan<- *batch, lp *loop, errs chan<- error) (finite <-chan struct{}, err error) {
	var files []string
	stdin := false
	for _, path := range p.cfg.Paths {
		if path == "-" {
			stdin = true
			continue
		}
		files = append(files, path)
	}
	format, _ := source.ParseFormat(p.cfg.Format)
	obs := observer{m: p.tel.Metrics()}
	var finiteWG sync.WaitGroup
	hasFinite := false
	run := func(name string, isFinite bool, f func(context.Context) error) {
		wg.Add(1)
		if isFinite {
			finiteWG.Add(1)
			hasFinite = true
		}
		go func() {
			defer wg.Done()
			if isFinite {
				defer finiteWG.Done()
			}
			if err := f(ctx); err != nil && ctx.Err() == nil {
				errs <- fmt.Errorf("%s: %w", name, err)
			}
		}()
	}
	if len(files) > 0 {
		cps, err := p.store.Files()
		if err != nil {
			return nil, err
		}
		// The tailer matches its lines in its own goroutine (loop.direct).
		tb := &batcher{direct: lp.direct}
		t, err := source.New(source.Config{
			Paths:          files,
			Format:         format,
			StartAt:        source.StartAt(p.cfg.StartAt),
			PollInterval:   time.Duration(p.cfg.PollInterval),
			RescanInterval: time.Duration(p.cfg.RescanInterval),
			NoWatch:        !p.cfg.Watch,
			MaxOpenFiles:   p.cfg.MaxOpenFiles,
			RotatedDirs:    p.cfg.RotatedDirs,
			SymlinkRoots:   p.cfg.SymlinkRoots,
			MaxLineBytes:   p.cfg.MaxLineBytes,
			Positions:      state.ByPath(cps),
			Observer:       obs,
			Logger:         p.log.With("component", "tail"),
			Flush:          tb.flush,
			Borrow:         true, // the batcher copies the text
		})
		if err != nil {
			return nil, err
		}
		p.tailer.Store(t)
		run("tail", false, func(ctx context.Context) error { return t.Run(ctx, tb.emit) })
	}
	if stdin {
		sb := newBatcher(lines)
		s, err := source.NewStream(p.opts.Stdin, source.StreamConfig{Source: "stdin", Format: format, MaxLineBytes: p.cfg.MaxLineBytes, Observer: obs, Flush: sb.flush, Borrow: true})
		if err != nil {
			return nil, err
		}
		run("stdin", true, func(ctx context.Context) error { return s.Run(ctx, sb.emit) })
	}
	if len(p.cfg.Command) > 0 {
		cb := newBatcher(lines)
		c, err := source.NewCommand(source.CommandConfig{
			Args:         p.cfg.Command,
			Stdout:       p.opts.Stdout,
			Stderr:       p.opts.Stderr,
			Signals:      p.opts.Signals,
			MaxLineBytes: p.cfg.MaxLineBytes,
			Observer:     obs,
			Flush:        cb.flush,
			Borrow:       true,
		})
		if err != nil {
			return nil, err
		}
		p.cmd = c
		p.proc.gate.CommandStarted(time.Now())
		run("command", true, func(ctx context.Context) error {
			err := c.Run(ctx, cb.emit)
			p.exitCode.Store(int32(c.ExitCode()))
			return err
		})
	}
	if p.inputs != nil {
		run("accept", false, p.runInputs(lines))
	}
	if !hasFinite {
		return nil, nil
	}
	ch := make(chan struct{})
	go func() { finiteWG.Wait(); close(ch) }()
	return ch, nil
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

// loop is the processor's state between its inputs. Two goroutines
// drive it: the processor's, which takes the batches of streams from the
// lines channel, the ticks, reloads and the shutdown; and the file
// tailer's, which matches its own batches (direct) rather than handing
// them over. A hand-off woke a second thread for every pass of a flow,
// which cost more than the pass's lines (scripts/perf-load-and-scan.md,
// eighth round). mu serializes the two.
type loop struct {
	p  *Pipeline
	mu sync.Mutex
	// ctx is the pipeline's context until the shutdown begins; then
	// stopping is set and ctx is context.Background, so that the final
	// flush and commit run to their end. From then on, lines of files
	// (which have a checkpoint) that are still buffered are not matched:
	// they are read again from the checkpoint at the next start, so a
	// slow match cannot hold up the shutdown. Lines of streams, which
	// cannot be read again, are still matched.
	ctx         context.Context
	done        <-chan struct{} // the pipeline context's, kept
	stopping    bool
	stopSources func()
	// The tick completes idle entries, announces settled incidents and
	// commits. It runs at the fast period while any of that may be due
	// and slows to quietTick when nothing is (no pending entry, alert,
	// digest or uncommitted position, no incident deadline within
	// quietTick), so an idle sidecar does not wake eight times a second;
	// the next line brings the fast period back.
	tick       *time.Ticker
	fastTick   time.Duration
	quiet      bool
	lastCommit time.Time
	lastPrune  time.Time
	// pushes wait for the commit of their lines (ingest.go).
	pushes []pushWaiter
}

// newLoop returns a loop that is closed: direct waits until open, which
// Run calls once the processor goroutine starts (delivery is up then) or
// when the sources fail to start.
func (p *Pipeline) newLoop(ctx context.Context, stopSources func()) *loop {
	fast := tickInterval(time.Duration(p.cfg.Entry.IdleFlush))
	now := time.Now()
	l := &loop{p: p, ctx: ctx, done: ctx.Done(), stopSources: stopSources, tick: time.NewTicker(fast), fastTick: fast,
		lastCommit: now, lastPrune: now}
	l.mu.Lock()
	return l
}

// open lets direct in; call it once.
func (l *loop) open() { l.mu.Unlock() }

// commit commits the processor's state and wakes the sinks with new
// alerts. mu is held.
func (l *loop) commit() error {
	p := l.p
	woke, err := p.proc.commit()
	if err != nil {
		p.commitFailed(err)
		return err
	}
	if p.commitFailingSince.Swap(0) != 0 {
		p.log.Info("commit state: succeeding again; pending alerts queued")
	}
	l.lastCommit = time.Now()
	l.ackPushes(false, nil)
	for _, d := range p.dels {
		for _, n := range woke {
			if d.name == n {
				d.notify()
			}
		}
	}
	return nil
}

// take processes a batch, recycles it and returns its length. mu is held.
func (l *loop) take(batch *batch) int {
	for _, ln := range batch.lines {
		if !l.stopping && l.ctx.Err() != nil {
			// Checked at every line: the end of ctx must not wait behind
			// buffered lines, nor behind the rest of a batch.
			l.stop()
		}
		if l.stopping && !ln.File.IsZero() {
			continue
		}
		l.p.proc.line(ln)
	}
	l.waitCommit(batch)
	n := len(batch.lines)
	recycle(batch)
	return n
}

// stop begins the shutdown of the processing. mu is held.
func (l *loop) stop() {
	l.stopSources()
	l.stopping = true
	l.ctx = context.Background()
}

// lively brings the fast tick back when lines come. mu is held.
func (l *loop) lively() {
	if l.quiet {
		l.tick.Reset(l.fastTick)
		l.quiet = false
	}
}

// direct processes a batch of the file tailer in its goroutine (b may be
// nil), and with end (the tailer's pass is over) commits when an alert is
// pending: one commit (one disk sync) a pass, as one a burst of the
// lines channel.
func (l *loop) direct(b *batch, end bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.p
	if b != nil {
		l.lively()
		p.proc.at = time.Now() // one clock read for the batch
		l.take(b)
		p.proc.at = time.Time{}
	}
	if end && p.proc.hasAlerts() {
		_ = l.commit()
	}
}

// process is the processor goroutine's loop. It returns after the lines
// channel is closed (sources stopped) with a final flush and commit.
//
// When onlyFinite is set (standard input or a wrapped command, no files),
// the end of the input is the end of the story: the grouper is flushed so
// the repeats counted since the last alert go out as summaries. With files,
// the grouping state is kept for the next start instead.
func (p *Pipeline) process(l *loop, lines <-chan *batch, finite <-chan struct{}, onlyFinite bool) error {
	l.open()
	defer l.tick.Stop()
	reload := p.opts.Reload
	catalogPoll := time.NewTicker(catalog.Poll)
	defer catalogPoll.Stop()
	done := l.done
	for {
		select {
		case batch, ok := <-lines:
			l.mu.Lock()
			err := l.batches(batch, ok, lines, onlyFinite)
			l.mu.Unlock()
			if !ok {
				return err
			}
		case now := <-l.tick.C:
			l.mu.Lock()
			l.ticked(now)
			l.mu.Unlock()
		case <-finite:
			// Standard input ended or the command exited: stop the other
			// sources too and finish.
			finite = nil
			l.stopSources()
		case <-reload:
			l.mu.Lock()
			p.reloadCatalog(true)
			p.reloadConfig(l.ctx)
			l.mu.Unlock()
		case <-catalogPoll.C:
			l.mu.Lock()
			p.reloadCatalog(false)
			p.checkGlobs()
			l.mu.Unlock()
		case <-done:
			// Stop reading; the lines channel closes once the sources
			// have returned, and the loop ends there.
			done = nil
			l.mu.Lock()
			l.stop()
			l.mu.Unlock()
		}
	}
}

// batches processes a batch from the lines channel and whatever else is
// waiting there, then commits when an alert is pending: one commit (one
// disk sync) per burst, not per batch. When the channel is closed (!ok)
// it makes the final flush and commit. mu is held.
func (l *loop) batches(batch *batch, ok bool, lines <-chan *batch, onlyFinite bool) error {
	p := l.p
	if !ok {
		p.proc.flushAll()
		if onlyFinite {
			p.proc.flushGroups()
			p.proc.flushDigests(time.Now(), true)
		}
		if err := l.commit(); err != nil {
			l.ackPushes(true, err)
			return fmt.Errorf("final commit: alerts found since the last commit are not queued: %w", err)
		}
		return nil
	}
	l.lively()
	// One clock read for the burst, not one per line.
	p.proc.at = time.Now()
	n := l.take(batch)
	for n < lineBuffer && !l.stopping && l.ctx.Err() == nil {
		select {
		case batch, ok = <-lines:
		default:
			ok = false
		}
		if !ok {
			break
		}
		n += l.take(batch)
	}
	p.proc.at = time.Time{}
	if p.proc.hasAlerts() || l.pushesReady() {
		_ = l.commit()
	}
	return nil
}

// ticked is the work of a tick. mu is held.
func (l *loop) ticked(now time.Time) {
	p := l.p
	p.proc.at = now
	p.proc.idleFlush(now)
	p.proc.flushDigests(now, false)
	p.proc.at = time.Time{}
	if now.Sub(l.lastPrune) >= pruneInterval {
		l.lastPrune = now
		p.proc.prune()
	}
	if p.proc.hasAlerts() || now.Sub(l.lastCommit) >= commitInterval || l.pushesReady() {
		_ = l.commit()
	}
	if !l.quiet && p.proc.quiet(now, quietTick) {
		l.tick.Reset(quietTick)
		l.quiet = true
	} else if l.quiet && !p.proc.quiet(now, quietTick) {
		l.tick.Reset(l.fastTick)
		l.quiet = false
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
		Window:         time.Duration(cfg.GroupWindow),
		RepeatInterval: time.Duration(cfg.RepeatInterval),
		Settle:         time.Duration(cfg.SettleTime),
		Correlation:    time.Duration(cfg.CorrelationWindow),
		MaxGroups:      cfg.MaxOpenIncidents,
	}
}
