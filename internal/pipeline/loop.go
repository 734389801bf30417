package pipeline

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/logmatch/logmatch/internal/catalog"
)

// loop is the processor's state between its inputs, and the one hand-off
// of the processor between goroutines: whoever holds mu owns the processor
// (and the loop). Two goroutines take it: the processor goroutine
// (process), which takes the batches of streams from the lines channel,
// the ticks, reloads and the shutdown; and the file tailer's (direct),
// which matches its own batches rather than handing them over, and does
// the ticks while its passes come on its flow's clock (flow). A hand-off
// per batch woke a second thread for every pass of a flow, which cost more
// than the pass's lines, and so did the ticker's firing between the passes
// (scripts/perf-load-and-scan.md, eighth and eleventh rounds).
// Every method that takes mu releases it before it returns; the methods
// documented "mu is held" are called only under it.
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
	ctx      context.Context
	done     <-chan struct{} // the shutdown context's, kept
	stopping bool
	// endInputs begins the shutdown when the finite inputs ended: the
	// other sources stop too.
	endInputs func()
	// The tick completes idle entries, announces settled incidents and
	// commits. It runs at the fast period while any of that may be due
	// and slows to quietTick when nothing is (no pending entry, alert,
	// digest or uncommitted position, no incident deadline within
	// quietTick), so an idle sidecar does not wake eight times a second;
	// the next line brings the fast period back.
	tick     *time.Ticker
	fastTick time.Duration
	quiet    bool
	// While the tailer's passes come on its flow's clock (flow), its
	// goroutine does the tick's work after a pass once a period has gone
	// by (direct), and the ticker is stopped: the ticker's firing woke the
	// processor goroutine's thread and the runtime's system monitor eight
	// times a second, between passes that come fifty times a second.
	flowing    bool
	lastTick   time.Time
	lastCommit time.Time
	lastPrune  time.Time
	// pushes wait for the commit of their lines (ingest.go).
	pushes []pushWaiter
}

// newLoop returns the loop of a run: ctx is its shutdown context, and
// endInputs begins the shutdown when the finite inputs ended.
func (p *Pipeline) newLoop(ctx context.Context, endInputs func()) *loop {
	fast := tickInterval(time.Duration(p.cfg.Entry.IdleFlush))
	now := time.Now()
	return &loop{p: p, ctx: ctx, done: ctx.Done(), endInputs: endInputs, tick: time.NewTicker(fast), fastTick: fast,
		lastTick: now, lastCommit: now, lastPrune: now}
}

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
	l.ackPushes(nil)
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

// stop begins the shutdown of the processing, once the shutdown context
// ended. mu is held.
func (l *loop) stop() {
	l.stopping = true
	l.ctx = context.Background()
}

// lively brings the fast tick back when lines come. mu is held.
func (l *loop) lively() {
	if l.quiet {
		l.quiet = false
		l.retick()
	}
}

// period is the tick's period: fast, or quietTick while nothing is due.
// mu is held.
func (l *loop) period() time.Duration {
	if l.quiet {
		return quietTick
	}
	return l.fastTick
}

// retick sets the ticker to the period, unless the tailer's flow does
// the ticks. mu is held.
func (l *loop) retick() {
	if !l.flowing {
		l.tick.Reset(l.period())
	}
}

// flow is the tailer's Config.Flow: while its passes come on the flow's
// clock, they do the ticks (direct) and the ticker stops; when they stop,
// the ticker takes over again.
func (l *loop) flow(on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flowing = on
	if on {
		l.tick.Stop()
		return
	}
	l.retick()
}

// direct processes a batch of the file tailer in its goroutine (b may be
// nil), and with end (the tailer's pass is over) commits when an alert is
// pending: one commit (one disk sync) a pass, as one a burst of the
// lines channel.
//
// While the tailer flows, the end of a pass also does the tick's work
// once a period has gone by since the last tick (flow).
func (l *loop) direct(b *batch, end bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.p
	var now time.Time
	if b != nil {
		l.lively()
		now = time.Now() // one clock read for the batch
		p.proc.at = now
		l.take(b)
		p.proc.at = time.Time{}
	}
	if !end {
		return
	}
	if l.flowing && !l.stopping {
		if now.IsZero() {
			now = time.Now()
		}
		if now.Sub(l.lastTick) >= l.period() {
			l.ticked(now) // commits when an alert is pending
			return
		}
	}
	if p.proc.hasAlerts() {
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
			// Standard input ended or the command exited: the shutdown
			// begins, which stops the other sources too.
			finite = nil
			l.endInputs()
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
			l.ackPushes(err)
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
	l.lastTick = now
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
	if q := p.proc.quiet(now, quietTick); q != l.quiet {
		l.quiet = q
		l.retick()
	}
}
