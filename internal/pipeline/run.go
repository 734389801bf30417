package pipeline

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
)

// ErrGraceExceeded is wrapped by Run's error when shutdown did not finish
// within shutdown_grace (matching an entry, or a final commit, was still
// running). Run returns anyway: nothing committed is lost, and lines read
// after the last commit are read again at the next start.
var ErrGraceExceeded = errors.New("shutdown grace period exceeded")

// errInputsEnded is the shutdown's cause when the finite inputs (standard
// input, a wrapped command) ended.
var errInputsEnded = errors.New("the inputs ended")

// Run runs until ctx ends, or until the inputs end (standard input at EOF,
// the wrapped command exited), or until a stage fails; then it shuts down
// in order: sources, the processor's final flush and commit, the sinks'
// drain, the HTTP server and telemetry, and last what New acquired (sinks,
// telemetry, the state store), whose close errors are joined to its own.
// The first stage to fail (a source, a dead HTTP server, a failed final
// commit) begins the shutdown and is returned. It returns nil on a clean
// stop. Shutdown, from the moment it begins, takes at most
// shutdown_grace; past it Run returns ErrGraceExceeded. The stages and
// their order are described in design.md.
func (p *Pipeline) Run(ctx context.Context) (err error) {
	defer func() { err = errors.Join(err, p.Close()) }()
	if err := p.listenHTTP(); err != nil {
		return err
	}
	r := p.newRun(ctx)
	defer r.clock.stop()
	if err := r.start(); err != nil {
		return err
	}
	err = r.wait()
	p.logStop(ctx, err)
	return err
}

// listenHTTP opens the HTTP listener when http_addr is set.
func (p *Pipeline) listenHTTP() error {
	if p.cfg.HTTPAddr == "" {
		return nil
	}
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
	return nil
}

// run is one run of the pipeline's stages. Upstream to downstream:
//
//	sources -> processor -> delivery -> HTTP server, telemetry
//
// They start downstream first (nothing is produced before it can be taken)
// and stop upstream first, each when the one before it has finished.
//
// There is one shutdown context: shutdown, derived from Run's. It ends
// when Run's ends, when a stage fails (its error is the cause), or when
// the finite inputs ended (errInputsEnded). The sources run under it; the
// processor sees it and stops matching lines of files (they are read again
// from the checkpoint), then drains the lines channel, which closes once
// the sources have returned, and makes its final commit. The stages after
// the commit run under after, which shutdown does not end: delivery drains
// the queues once the final commit is made (committed), within 4/5 of the
// grace, and then ends after, which stops the HTTP server and telemetry.
type run struct {
	p        *Pipeline
	shutdown context.Context
	begin    context.CancelCauseFunc
	after    context.Context
	endAfter context.CancelFunc
	group    errgroup.Group
	clock    *graceClock
	lines    chan *batch
	loop     *loop
	// committed is closed when the processor has returned, after its
	// final commit: the delivery loops drain from then on.
	committed chan struct{}
}

func (p *Pipeline) newRun(ctx context.Context) *run {
	grace := time.Duration(p.cfg.ShutdownGrace)
	if grace <= 0 {
		grace = config.DefaultShutdownGrace
	}
	r := &run{p: p, lines: make(chan *batch, lineBuffer/batchLines), committed: make(chan struct{})}
	r.shutdown, r.begin = context.WithCancelCause(ctx)
	r.after, r.endAfter = context.WithCancel(context.WithoutCancel(ctx))
	r.clock = startGraceClock(r.shutdown, grace)
	r.loop = p.newLoop(r.shutdown, func() { r.begin(errInputsEnded) })
	p.processed = r.committed
	return r
}

// fail begins the shutdown with err as its cause, and returns err.
func (r *run) fail(err error) error {
	if err != nil {
		r.begin(err)
	}
	return err
}

// start builds the sources and starts the stages, downstream first. When
// a source cannot be built, nothing has started.
func (r *run) start() error {
	p := r.p
	src, err := p.newSources(r.lines, r.loop)
	if err != nil {
		if p.httpLn != nil {
			_ = p.httpLn.Close()
		}
		return err
	}
	// Delivery first: the loops wait for alerts, and drain once the
	// processor has made its final commit. A reload replaces them.
	p.delCtx, p.drain = r.after, r.committed
	p.startDelivery(p.dels)
	// The HTTP server's settings are copied before the processor starts:
	// a reload (on the processor's goroutine) replaces p.cfg.
	httpCfg := *p.cfg
	if ln := p.httpLn; ln != nil {
		r.group.Go(func() error { return r.fail(p.serveHTTP(r.after, ln, &httpCfg)) })
	}
	p.telRan = true
	r.group.Go(func() error {
		// A metrics export that fails at the end loses no alert: it is
		// logged, not made the exit status.
		if err := p.tel.Run(r.after); err != nil {
			p.log.Warn("telemetry shutdown", "err", err)
		}
		return nil
	})
	r.group.Go(r.deliveryStage)
	onlyFinite := src.finite != nil && !p.hasFiles()
	r.group.Go(func() error {
		defer close(r.committed)
		err := p.process(r.loop, r.lines, src.finite, onlyFinite)
		// The processor returns once the sources have: the shutdown has
		// begun (this only names a cause if none was set).
		r.begin(errInputsEnded)
		return r.fail(err)
	})
	p.sourcesUp.Store(true)
	r.group.Go(func() error {
		err := src.run(r.shutdown)
		close(r.lines)
		return r.fail(err)
	})
	// Under the loop's mutex: the processor's catalog poll checks the
	// globs too (a data race under -race once the poll has come).
	r.loop.mu.Lock()
	p.logStart()
	r.loop.mu.Unlock()
	return nil
}

// deliveryStage waits for the final commit, lets the delivery loops drain
// the queues until the drain deadline, and then ends the stages after it.
func (r *run) deliveryStage() error {
	p := r.p
	<-r.committed
	if !p.waitDelivery(r.clock.drainBy) {
		p.log.Warn("shutdown grace period ended with alerts still queued; they are kept for the next start", "grace", r.clock.grace)
		r.endAfter()
		p.waitDelivery(nil)
	}
	r.endAfter()
	return r.fail(p.deliveryErr())
}

// wait waits for every stage to return, or for the grace period to run
// out once the shutdown began; then it stops the delivery loops and the
// services where they are, and leaves the processor to end on its own.
func (r *run) wait() error {
	done := make(chan error, 1)
	go func() { done <- r.group.Wait() }()
	select {
	case err := <-done:
		return err
	case <-r.clock.overdue:
		r.p.log.Error("shutdown did not finish within the grace period; stopping now (lines read since the last commit are read again at the next start)", "grace", r.clock.grace)
		r.endAfter()
		return fmt.Errorf("%w (%s)", ErrGraceExceeded, r.clock.grace)
	}
}

// graceClock measures the shutdown against the grace period once it
// begins: drainBy closes at 4/5 of it (the delivery loops' drain
// deadline) and overdue at its end.
type graceClock struct {
	grace   time.Duration
	drainBy chan struct{}
	overdue chan struct{}
	stop    func() // releases the timers; Run calls it as it returns
}

func startGraceClock(shutdown context.Context, grace time.Duration) *graceClock {
	c := &graceClock{grace: grace, drainBy: make(chan struct{}), overdue: make(chan struct{})}
	began := make(chan struct{})
	unwatch := context.AfterFunc(shutdown, func() { close(began) })
	ended := make(chan struct{})
	go func() {
		select {
		case <-began:
		case <-ended:
			return
		}
		t := time.NewTimer(grace * 4 / 5)
		defer t.Stop()
		for _, ch := range []chan struct{}{c.drainBy, c.overdue} {
			select {
			case <-t.C:
				close(ch)
				t.Reset(grace - grace*4/5)
			case <-ended:
				return
			}
		}
	}()
	c.stop = func() {
		unwatch()
		close(ended)
	}
	return c
}

// sources are the configured inputs, built and ready to run.
type sources struct {
	stages []sourceStage
	// finite is closed when every finite source (standard input, a
	// wrapped command) has ended; nil when the sources only end with the
	// shutdown.
	finite <-chan struct{}
	done   func() // closes finite
}

type sourceStage struct {
	name   string
	finite bool
	run    func(context.Context) error
}

// run runs every source until ctx ends (or a finite one ends by itself)
// and returns the errors of those that failed, joined. A source stopped by
// ctx has not failed.
func (s *sources) run(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, len(s.stages))
	var finWG sync.WaitGroup
	for i, st := range s.stages {
		wg.Add(1)
		if st.finite {
			finWG.Add(1)
		}
		go func() {
			defer wg.Done()
			if st.finite {
				defer finWG.Done()
			}
			if err := st.run(ctx); err != nil && ctx.Err() == nil {
				errs[i] = fmt.Errorf("%s: %w", st.name, err)
			}
		}()
	}
	if s.done != nil {
		go func() { finWG.Wait(); s.done() }()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// newSources builds the configured sources: the file tailer, standard
// input, the wrapped command and the network inputs. The tailer matches
// its own batches in its goroutine (loop.direct); the others send theirs
// on lines.
func (p *Pipeline) newSources(lines chan<- *batch, lp *loop) (*sources, error) {
	files, stdin := splitPaths(p.cfg.Paths)
	format, _ := source.ParseFormat(p.cfg.Format)
	obs := observer{m: p.tel.Metrics()}
	s := &sources{}
	add := func(name string, finite bool, f func(context.Context) error) {
		s.stages = append(s.stages, sourceStage{name: name, finite: finite, run: f})
	}
	if len(files) > 0 {
		cps, err := p.store.Files()
		if err != nil {
			return nil, err
		}
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
			Flow:           lp.flow,
			Borrow:         true, // the batcher copies the text
		})
		if err != nil {
			return nil, err
		}
		p.tailer.Store(t)
		add("tail", false, func(ctx context.Context) error { return t.Run(ctx, tb.emit) })
	}
	if stdin {
		sb := newBatcher(lines)
		st, err := source.NewStream(p.opts.Stdin, source.StreamConfig{Source: "stdin", Format: format, MaxLineBytes: p.cfg.MaxLineBytes, Observer: obs, Flush: sb.flush, Borrow: true})
		if err != nil {
			return nil, err
		}
		add("stdin", true, func(ctx context.Context) error { return st.Run(ctx, sb.emit) })
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
		add("command", true, func(ctx context.Context) error {
			err := c.Run(ctx, cb.emit)
			p.exitCode.Store(int32(c.ExitCode()))
			return err
		})
	}
	if p.inputs != nil {
		add("accept", false, p.runInputs(lines))
	}
	for _, st := range s.stages {
		if st.finite {
			ch := make(chan struct{})
			s.finite, s.done = ch, func() { close(ch) }
			break
		}
	}
	return s, nil
}

// splitPaths separates the configured paths into the file globs and
// whether standard input ("-") is among them.
func splitPaths(paths []string) (globs []string, stdin bool) {
	for _, path := range paths {
		if path == "-" {
			stdin = true
			continue
		}
		globs = append(globs, path)
	}
	return globs, stdin
}
