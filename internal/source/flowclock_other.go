//go:build !linux

package source

import (
	"context"
	"time"
)

// flowClock ticks the gaps of a flow (see Tailer.Run): a ticker, which
// re-arms where it fires. Linux has its own (flowclock_linux.go).
type flowClock struct {
	ctx context.Context
	t   *time.Ticker
}

// newFlowClock returns a stopped clock whose waits end once ctx is done.
func newFlowClock(ctx context.Context) (*flowClock, error) {
	t := time.NewTicker(time.Hour)
	t.Stop()
	return &flowClock{ctx: ctx, t: t}, nil
}

// start makes the clock tick every d from now on.
func (c *flowClock) start(d time.Duration) error {
	c.t.Reset(d)
	return nil
}

// stop stops the clock; since Go 1.23 a stopped ticker delivers no tick
// left from before.
func (c *flowClock) stop() error {
	c.t.Stop()
	return nil
}

// wait blocks until the next tick and reports false when ctx ended first.
func (c *flowClock) wait() (bool, error) {
	select {
	case <-c.ctx.Done():
		return false, nil
	case <-c.t.C:
		return true, nil
	}
}

// close releases the clock.
func (c *flowClock) close() { c.t.Stop() }
