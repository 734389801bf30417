package sinks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"
)

// RetryAfterError is returned (possibly wrapped) by a sink whose destination
// said when to try again, usually through an HTTP Retry-After header.
type RetryAfterError struct {
	After time.Duration // how long to wait before the next attempt
	Err   error         // the failure itself
}

// Error says what failed and when to try again.
func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("%v (retry after %s)", e.Err, e.After)
}

// Unwrap returns the failure.
func (e *RetryAfterError) Unwrap() error { return e.Err }

// Clock is the time source of the decorators and of sinks that pace
// themselves. Tests pass a fake so that backoff and rate limits run without
// real sleeps.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx ends, whichever comes first, and
	// returns ctx.Err() in the second case.
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the real Clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// Sleep waits with a timer so that ctx can interrupt it.
func (SystemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Observer receives the delivery events that run mode turns into metrics.
// Implementations must be safe for concurrent use and must not block.
type Observer interface {
	// Retried is called before the Retry decorator waits wait and tries
	// the named sink again.
	Retried(sink string, wait time.Duration)
	// Failed is called once when Retry gives up on an alert: retryable
	// says whether the alert may still succeed later (it should stay
	// queued) or was rejected for good.
	Failed(sink string, retryable bool)
}

// RetryConfig configures the Retry decorator. Zero fields take the
// defaults named on each field.
type RetryConfig struct {
	Name        string        // sink name used in logs and Observer calls; default "sink"
	Initial     time.Duration // backoff cap of the first retry; default 1s
	Max         time.Duration // largest backoff cap; default 1m
	MaxAttempts int           // attempts per Send, the first included; default 5
	MaxElapsed  time.Duration // give up when the next wait would end after this much time since Send began; default 5m

	Clock    Clock        // default SystemClock
	Logger   *slog.Logger // default: no logging
	Observer Observer     // default: none
	// Jitter picks the wait in [0, max] for a backoff cap max. The default
	// is uniformly random ("full jitter"), which spreads the retries of
	// many logmatch instances hitting one destination.
	Jitter func(max time.Duration) time.Duration
}

func (c RetryConfig) withDefaults() RetryConfig {
	if c.Name == "" {
		c.Name = "sink"
	}
	if c.Initial <= 0 {
		c.Initial = time.Second
	}
	if c.Max <= 0 {
		c.Max = time.Minute
	}
	if c.Max < c.Initial {
		c.Max = c.Initial
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 5
	}
	if c.MaxElapsed <= 0 {
		c.MaxElapsed = 5 * time.Minute
	}
	if c.Clock == nil {
		c.Clock = SystemClock{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Jitter == nil {
		c.Jitter = fullJitter
	}
	return c
}

func fullJitter(max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	return rand.N(max + 1)
}

// Retry wraps next so that retryable failures are tried again with
// exponential backoff and full jitter, honouring RetryAfterError. ctx is
// checked before every attempt; permanent failures are returned at once.
//
// When Retry gives up it returns the last error with retry=true if that
// failure was retryable (attempts or time ran out, or ctx ended), so a
// durable queue keeps the alert for later; retry=false only for failures
// the sink called permanent. A wait the destination asked for that would
// overrun MaxElapsed ends the loop early, with retry=true.
//
// If next implements BatchSink, so does the returned Sink, with the same
// retry loop around SendBatch; otherwise, if next implements EncodedSink, so
// does the returned Sink, around SendEncoded.
func Retry(next Sink, cfg RetryConfig) Sink {
	r := &retrySink{next: next, cfg: cfg.withDefaults()}
	if b, ok := next.(BatchSink); ok {
		return &retryBatchSink{retrySink: r, batch: b}
	}
	if e, ok := next.(EncodedSink); ok {
		return &retryEncodedSink{retrySink: r, encoded: e}
	}
	return r
}

type retrySink struct {
	next Sink
	cfg  RetryConfig
}

// Send delivers a through the retry loop.
func (r *retrySink) Send(ctx context.Context, a *Alert) (bool, error) {
	return r.loop(ctx, func(ctx context.Context) (bool, error) { return r.next.Send(ctx, a) })
}

type retryBatchSink struct {
	*retrySink
	batch BatchSink
}

// BatchMin is the wrapped sink's.
func (r *retryBatchSink) BatchMin() int { return r.batch.BatchMin() }

// SendBatch delivers the batch through the retry loop.
func (r *retryBatchSink) SendBatch(ctx context.Context, alerts []*Alert) (bool, error) {
	return r.loop(ctx, func(ctx context.Context) (bool, error) { return r.batch.SendBatch(ctx, alerts) })
}

type retryEncodedSink struct {
	*retrySink
	encoded EncodedSink
}

// SendEncoded delivers payload through the retry loop.
func (r *retryEncodedSink) SendEncoded(ctx context.Context, payload []byte) (bool, error) {
	return r.loop(ctx, func(ctx context.Context) (bool, error) { return r.encoded.SendEncoded(ctx, payload) })
}

// loop runs attempt until it succeeds, fails for good or runs out of
// attempts, time or context.
func (r *retrySink) loop(ctx context.Context, attempt func(context.Context) (bool, error)) (bool, error) {
	c := r.cfg
	start := c.Clock.Now()
	var lastMsg string
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return r.giveUp(true, fmt.Errorf("%s: stopped before attempt %d: %w", c.Name, n, err))
		}
		retry, err := attempt(ctx)
		if err == nil {
			if n > 1 {
				c.Logger.Info("sink delivered after retries", "sink", c.Name, "attempts", n)
			}
			return false, nil
		}
		if msg := err.Error(); msg != lastMsg {
			// Logging only changes keeps a long outage to a few lines.
			c.Logger.Warn("sink delivery failed", "sink", c.Name, "attempt", n, "retryable", retry, "err", msg)
			lastMsg = msg
		}
		if !retry {
			return r.giveUp(false, err)
		}
		if n >= c.MaxAttempts {
			return r.giveUp(true, fmt.Errorf("%s: gave up after %d attempts: %w", c.Name, n, err))
		}
		wait := c.Jitter(r.backoffCap(n))
		var ra *RetryAfterError
		if errors.As(err, &ra) && ra.After > wait {
			wait = ra.After
		}
		if c.Clock.Now().Add(wait).Sub(start) > c.MaxElapsed {
			return r.giveUp(true, fmt.Errorf("%s: gave up after %d attempts, next wait %s would pass %s: %w", c.Name, n, wait, c.MaxElapsed, err))
		}
		if c.Observer != nil {
			c.Observer.Retried(c.Name, wait)
		}
		if serr := c.Clock.Sleep(ctx, wait); serr != nil {
			return r.giveUp(true, fmt.Errorf("%s: stopped waiting to retry: %w (last error: %v)", c.Name, serr, err))
		}
	}
}

// backoffCap is the upper bound of the wait after attempt n (1-based):
// Initial doubled n-1 times, at most Max.
func (r *retrySink) backoffCap(n int) time.Duration {
	d := r.cfg.Initial
	for i := 1; i < n && d < r.cfg.Max; i++ {
		d *= 2
	}
	return min(d, r.cfg.Max)
}

func (r *retrySink) giveUp(retryable bool, err error) (bool, error) {
	if r.cfg.Observer != nil {
		r.cfg.Observer.Failed(r.cfg.Name, retryable)
	}
	return retryable, err
}
