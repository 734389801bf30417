package source

import (
	"context"
	"time"
)

// flowClock paces the passes of a flow (design.md, Wake-ups): started
// when a flow starts, it fires every period until stopped.
type flowClock interface {
	// start makes the clock fire every period from now.
	start(period time.Duration)
	// stop stops it; a tick already due may still be taken by wait.
	stop()
	// wait blocks until the next tick and reports false when ctx ended
	// first.
	wait(ctx context.Context) bool
	close()
}

// tickerClock is a flowClock on a runtime ticker: portable, but every
// runtime timer wakes the runtime's system monitor at its deadline, which
// then looks every 20 µs while the pass runs.
type tickerClock struct{ t *time.Ticker }

func newTickerClock() *tickerClock {
	t := time.NewTicker(time.Hour)
	t.Stop()
	return &tickerClock{t: t}
}

func (c *tickerClock) start(period time.Duration) { c.t.Reset(period) }
func (c *tickerClock) stop()                      { c.t.Stop() }
func (c *tickerClock) close()                     { c.t.Stop() }

func (c *tickerClock) wait(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-c.t.C:
		return true
	}
}
