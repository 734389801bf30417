package slack

import (
	"context"
	"sync"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// Interval is the pace of one webhook: Slack accepts about one message per
// second per incoming webhook and answers 429 beyond short bursts.
const Interval = time.Second

// limiter spaces messages Interval apart and holds them back when Slack
// asked for a pause (Retry-After).
type limiter struct {
	clock    sinks.Clock
	interval time.Duration

	mu   sync.Mutex
	next time.Time // earliest time the next message may go
}

// wait reserves the next slot and sleeps until it, or until ctx ends. A
// slot given up because ctx ended is not handed back: pacing stays
// conservative.
func (l *limiter) wait(ctx context.Context) error {
	l.mu.Lock()
	now := l.clock.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		return l.clock.Sleep(ctx, d)
	}
	return ctx.Err()
}

// holdFor keeps every message back for d from now.
func (l *limiter) holdFor(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t := l.clock.Now().Add(d); t.After(l.next) {
		l.next = t
	}
}
