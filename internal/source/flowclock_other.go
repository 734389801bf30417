//go:build !linux

package source

import "context"

// newFlowClock returns a ticker clock: only Linux has a timerfd.
func newFlowClock(context.Context) flowClock { return newTickerClock() }
