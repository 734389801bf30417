package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/sinks"
)

// peekBatch is how many queued alerts a delivery loop takes at a time.
const peekBatch = 64

// ackMaxWait bounds how long a delivered alert's acknowledgement is held
// before it is settled. Each acknowledgement is journaled as soon as the
// sink has the alert (state.Store.JournalAck: a write, no disk sync), so a
// kill -9 repeats at most the alert in flight, and Peek no longer hands it
// out. The next state.Store.Commit settles every journaled ack in its own
// transaction. So while alerts flow (a round begins within ackMaxWait of
// the one before) a round's acks are held for that commit and cost no sync
// of their own. The loop settles what it holds itself when a round ends
// with alerts not flowing (an alert now and then: settling at once costs
// no extra wake-up), once it holds peekBatch acks or a deferral (Peek would
// hand a deferred item out again), when its oldest has waited this long
// with no commit, and when the loop ends. A crash of the machine can
// repeat the alerts delivered since the last settle.
const ackMaxWait = 50 * time.Millisecond

// stuckAfter is how long a sink may fail every attempt, with alerts
// waiting, before /readyz reports it stuck.
const stuckAfter = 5 * time.Minute

// deliverer runs one sink's delivery loop over its durable queue.
type deliverer struct {
	name    string
	sink    sinks.Sink // wrapped in sinks.Retry for short outages
	retry   config.Retry
	store   *state.Store
	log     *slog.Logger
	metrics *telemetry.Metrics
	now     func() time.Time
	wake    chan struct{} // a commit queued alerts for this sink

	// outcome is the round's acks and deferrals held for its settle; since
	// is when the first was added. Only the loop's goroutine touches them.
	// A Settle that fails leaves them here, and the loop retries it before
	// it delivers more.
	outcome     state.Settlement
	since       time.Time
	unwritten   bool      // the last flush failed; logged once per streak
	unjournaled bool      // an ack held since the last flush is not in the journal
	lastRound   time.Time // when the last round began

	failingSince atomic.Int64 // unix nanos of the first failure of the current streak; 0 when healthy
	waiting      atomic.Int64 // queue depth seen last

	tot *totals // the run's counts, for its last line; nil counts nothing

	// peeked, when a test sets it, runs after each Peek of the loop.
	peeked func()
}

func newDeliverer(b *builtSink, store *state.Store, log *slog.Logger, m *telemetry.Metrics, now func() time.Time) *deliverer {
	d := &deliverer{
		name:    b.name,
		retry:   b.retry,
		store:   store,
		log:     log.With("sink", b.name),
		metrics: m,
		now:     now,
		wake:    make(chan struct{}, 1),
	}
	// In-process retries ride out a blip within seconds; what still fails
	// goes back to the durable queue with a longer, persisted backoff.
	d.sink = sinks.Retry(b.sink, sinks.RetryConfig{
		Name:        b.name,
		Initial:     time.Duration(b.retry.InitialBackoff),
		Max:         time.Duration(b.retry.MaxBackoff),
		MaxAttempts: 3,
		MaxElapsed:  30 * time.Second,
		Logger:      log, // Retry names the sink itself
		Observer:    m,
	})
	return d
}

// notify wakes the loop without blocking.
func (d *deliverer) notify() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// stuck reports whether the sink has failed every attempt for stuckAfter
// with alerts waiting.
func (d *deliverer) stuck(now time.Time) bool {
	since := d.failingSince.Load()
	return since != 0 && d.waiting.Load() > 0 && now.Sub(time.Unix(0, since)) > stuckAfter
}

// run delivers until ctx ends. With drain closed, it returns as soon as the
// queue has nothing ready: the shutdown drain.
//
// Whether the drain has begun is read before the queue, never after: drain
// closes once the final commit is made, so a Peek that follows a closed
// drain sees every alert that commit queued. Read after the Peek, a final
// commit made between the two looked like an empty queue at the drain, and
// its alerts were left queued although they were ready.
func (d *deliverer) run(ctx context.Context, drain <-chan struct{}) error {
	defer d.abandon()
	for {
		if ctx.Err() != nil {
			return nil
		}
		draining := isClosed(drain)
		if d.due() && !d.flush() {
			// The state disk refuses writes: retry before delivering
			// more, so the outcome held in memory stays bounded.
			if isClosed(drain) || !d.sleep(ctx, drain, time.Second) {
				return nil
			}
			continue
		}
		items, drops, err := d.store.Peek(d.name, peekBatch)
		if d.peeked != nil {
			d.peeked()
		}
		for _, dr := range drops {
			d.metrics.AlertDropped(dr.Sink, dr.Reason, dr.Count)
			d.tot.add(alertsDropped, int(dr.Count))
			d.log.Warn("queue bound dropped alerts", "reason", dr.Reason, "count", dr.Count)
		}
		if err != nil {
			d.log.Error("read queue", "err", err)
			if !d.sleep(ctx, drain, time.Second) {
				return nil
			}
			continue
		}
		if depth, err := d.store.Depth(d.name); err == nil {
			d.waiting.Store(int64(depth))
			d.metrics.QueueDepth(d.name, depth)
		}
		if len(items) == 0 {
			if draining {
				return nil
			}
			wait := time.Hour
			if next, ok, err := d.store.NextAttempt(d.name); err == nil && ok {
				wait = max(next.Sub(d.now()), 10*time.Millisecond)
			}
			if d.held() {
				// Held acks no commit has settled are settled by
				// the loop once they have waited ackMaxWait.
				wait = min(wait, max(d.since.Add(ackMaxWait).Sub(d.now()), time.Millisecond))
			}
			if !d.sleep(ctx, drain, wait) {
				return nil
			}
			continue
		}
		if pause := d.deliver(ctx, items); pause > 0 {
			if isClosed(drain) {
				return nil
			}
			if !d.sleep(ctx, drain, pause) {
				return nil
			}
		}
	}
}

// deliver sends items in order, journaling each acknowledgement, and
// settles the round before it returns (and within it when due). It returns how long to
// pause when a retryable failure deferred the head of the queue (order is
// kept: nothing behind it goes first), or 0 to continue at once.
func (d *deliverer) deliver(ctx context.Context, items []state.Item) time.Duration {
	now := d.now()
	flowing := !d.lastRound.IsZero() && now.Sub(d.lastRound) < ackMaxWait
	d.lastRound = now
	defer func() {
		if !flowing || d.due() {
			d.flush()
		}
	}()
	// A sink whose message is the queued JSON itself gets it as it is:
	// no decoding into an Alert, no encoding again.
	enc, encoded := d.sink.(sinks.EncodedSink)
	alerts := make([]*sinks.Alert, 0, len(items))
	payloads := make([][]byte, 0, len(items))
	seqs := make([]uint64, 0, len(items))
	for _, it := range items {
		if encoded {
			if !json.Valid(it.Payload) {
				d.dropUndecodable(it.Seq, errors.New("not valid JSON"))
				continue
			}
			payloads = append(payloads, it.Payload)
			seqs = append(seqs, it.Seq)
			continue
		}
		a := new(sinks.Alert)
		if err := json.Unmarshal(it.Payload, a); err != nil {
			d.dropUndecodable(it.Seq, err)
			continue
		}
		alerts = append(alerts, a)
		seqs = append(seqs, it.Seq)
	}
	if bs, ok := d.sink.(sinks.BatchSink); ok && bs.BatchMin() > 0 && len(alerts) >= bs.BatchMin() {
		retry, err := bs.SendBatch(ctx, alerts)
		return d.settle(items[0], seqs, retry, err, len(alerts))
	}
	for i := range seqs {
		var retry bool
		var err error
		if encoded {
			retry, err = enc.SendEncoded(ctx, payloads[i])
		} else {
			retry, err = d.sink.Send(ctx, alerts[i])
		}
		if pause := d.settle(itemBySeq(items, seqs[i]), seqs[i:i+1], retry, err, 1); pause > 0 {
			return pause
		}
		if ctx.Err() != nil {
			return 0
		}
		if d.due() {
			d.flush()
		}
	}
	return 0
}

// dropUndecodable drops a queued payload this version cannot read: it
// will never deliver.
func (d *deliverer) dropUndecodable(seq uint64, err error) {
	d.log.Error("undecodable queued alert dropped", "seq", seq, "err", err)
	d.ack(seq)
	d.metrics.AlertDropped(d.name, "undecodable", 1)
	d.tot.add(alertsDropped, 1)
}

func itemBySeq(items []state.Item, seq uint64) state.Item {
	for _, it := range items {
		if it.Seq == seq {
			return it
		}
	}
	return state.Item{Seq: seq}
}

// settle records the outcome of one send (of n alerts with the given
// sequence ids) in the round: ack on success and on permanent failure
// (counted), defer on a retryable one and return the pause.
func (d *deliverer) settle(head state.Item, seqs []uint64, retry bool, err error, n int) time.Duration {
	switch {
	case err == nil:
		// Counted before the ack's disk sync: the sink has it already.
		for range n {
			d.metrics.AlertSent(d.name)
		}
		d.tot.add(alertsDelivered, n)
		d.ack(seqs...)
		d.failingSince.Store(0)
		return 0
	case !retry:
		d.log.Error("alert rejected for good; dropped", "alerts", n, "err", err)
		d.ack(seqs...)
		d.metrics.AlertDropped(d.name, "permanent", n)
		d.tot.add(alertsDropped, n)
		return 0
	}
	// A round is one Send through the in-process retry (itself a few
	// attempts, which it logs as "attempt"); rounds are what the queue
	// persists and retry.max_attempts bounds, so they get their own name.
	d.failingSince.CompareAndSwap(0, d.now().UnixNano())
	rounds := head.Attempts + 1
	if d.retry.MaxAttempts > 0 && rounds >= d.retry.MaxAttempts {
		d.log.Error("alert still failing after retry.max_attempts delivery rounds; dropped", "rounds", rounds, "err", err)
		d.ack(seqs...)
		d.metrics.AlertDropped(d.name, "max_attempts", n)
		return 0
	}
	wait := d.backoff(rounds)
	var ra *sinks.RetryAfterError
	if errors.As(err, &ra) && ra.After > wait {
		wait = ra.After
	}
	d.begin()
	next := d.now().Add(wait)
	for _, s := range seqs {
		d.outcome.Defers = append(d.outcome.Defers, state.Deferral{Seq: s, Next: next, Attempts: rounds})
	}
	d.log.Warn("delivery round failed; alerts stay queued", "alerts", n, "round", rounds, "wait", wait.Round(time.Millisecond), "err", err)
	return wait
}

// ack adds seqs to the held acknowledgements, journaled at once so a kill
// before their settle does not send them again; flush makes them durable.
// When the journal cannot be written they are settled now instead: Peek
// would hand them out again.
func (d *deliverer) ack(seqs ...uint64) {
	d.begin()
	d.outcome.Acks = append(d.outcome.Acks, seqs...)
	if err := d.store.JournalAck(d.name, seqs...); err != nil {
		d.log.Warn("journal acknowledgements; settling them now", "err", err)
		d.unjournaled = true
		d.flush()
	}
}

// held reports whether an outcome waits to be settled.
func (d *deliverer) held() bool { return len(d.outcome.Acks) > 0 || len(d.outcome.Defers) > 0 }

// due reports whether the held outcome must be settled now: it holds a
// deferral (Peek would hand that item out again until it is written), or
// peekBatch acknowledgements, or its oldest has waited ackMaxWait, or the
// last settle failed. Acks a commit has settled meanwhile are let go first;
// the wait of those left then starts again, so an ack is held at most
// about twice ackMaxWait.
func (d *deliverer) due() bool {
	d.pruneSettled()
	if !d.held() {
		return false
	}
	return d.unwritten || len(d.outcome.Defers) > 0 || len(d.outcome.Acks) >= peekBatch ||
		d.now().Sub(d.since) >= ackMaxWait
}

// pruneSettled lets go of the held acks a commit has settled since they
// were journaled, and restarts the wait of those left.
func (d *deliverer) pruneSettled() {
	if n := len(d.outcome.Acks); n > 0 && !d.unjournaled {
		if d.outcome.Acks = d.store.Unsettled(d.name, d.outcome.Acks); len(d.outcome.Acks) < n {
			d.since = d.now()
		}
	}
}

// begin notes when the first unwritten outcome was added.
func (d *deliverer) begin() {
	if !d.held() {
		d.since = d.now()
	}
}

// flush writes the held outcome in one transaction and reports whether
// nothing is left unwritten. On failure the outcome is kept for the next
// flush.
func (d *deliverer) flush() bool {
	d.pruneSettled()
	if !d.held() {
		return true
	}
	if _, err := d.store.Settle(d.name, d.outcome); err != nil {
		if !d.unwritten {
			d.log.Error("acknowledge delivered alerts: failing; retrying before delivering more",
				"alerts", len(d.outcome.Acks), "deferred", len(d.outcome.Defers), "err", err)
		}
		d.unwritten = true
		return false
	}
	if d.unwritten {
		d.log.Info("acknowledge delivered alerts: succeeding again", "alerts", len(d.outcome.Acks))
		d.unwritten = false
	}
	d.outcome.Acks = d.outcome.Acks[:0]
	d.outcome.Defers = d.outcome.Defers[:0]
	d.unjournaled = false
	return true
}

// abandon makes a last attempt to write the outcome when the loop ends,
// and says what a failure costs.
func (d *deliverer) abandon() {
	if n := len(d.outcome.Acks); !d.flush() && n > 0 {
		d.log.Error("acknowledgements of delivered alerts could not be written; those alerts are sent again at the next start", "alerts", n)
	}
}

// backoff is the durable retry's wait before attempt n+1: exponential from
// InitialBackoff, capped at MaxBackoff, with full jitter above half of it
// so a fleet of sidecars does not retry in step.
func (d *deliverer) backoff(attempts int) time.Duration {
	initial := time.Duration(d.retry.InitialBackoff)
	if initial <= 0 {
		initial = config.DefaultInitialBackoff
	}
	limit := time.Duration(d.retry.MaxBackoff)
	if limit <= 0 {
		limit = config.DefaultMaxBackoff
	}
	w := initial
	for i := 1; i < attempts && w < limit; i++ {
		w *= 2
	}
	w = min(w, limit)
	return w/2 + rand.N(w/2+1)
}

// sleep waits for d, a wake-up, the drain signal or the end of ctx; it
// returns false when ctx ended.
func (d *deliverer) sleep(ctx context.Context, drain <-chan struct{}, wait time.Duration) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-d.wake:
	case <-drain:
	case <-t.C:
	}
	return true
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// totals counts what one run did, for the line that says it stopped. Its
// methods are safe for concurrent use (the processor and every delivery
// loop add); a nil *totals counts nothing.
type totals struct {
	lines, entries, incidents, alerts, delivered, dropped atomic.Int64
}

// add adds n to the counter that field picks; a nil t counts nothing.
func (t *totals) add(field func(*totals) *atomic.Int64, n int) {
	if t != nil && n != 0 {
		field(t).Add(int64(n))
	}
}

// The counters, for add.
func linesRead(t *totals) *atomic.Int64       { return &t.lines }
func entriesMade(t *totals) *atomic.Int64     { return &t.entries }
func incidentsFound(t *totals) *atomic.Int64  { return &t.incidents }
func alertsQueued(t *totals) *atomic.Int64    { return &t.alerts }
func alertsDelivered(t *totals) *atomic.Int64 { return &t.delivered }
func alertsDropped(t *totals) *atomic.Int64   { return &t.dropped }

// attrs are the counts as log attributes, and the alerts still queued.
func (t *totals) attrs(queued int64) []any {
	return []any{"lines", t.lines.Load(), "entries", t.entries.Load(), "incidents", t.incidents.Load(),
		"alerts", t.alerts.Load(), "delivered", t.delivered.Load(), "dropped", t.dropped.Load(), "queued", queued}
}
