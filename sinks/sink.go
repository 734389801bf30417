package sinks

import "context"

// Sink delivers alerts to one destination.
//
// Send returns nil when the destination accepted the alert. Otherwise retry
// reports whether the same alert may succeed later (network errors, 408, 429,
// 5xx) or never will (other 4xx, an alert the destination rejects): the sink
// classifies its own failures and does not retry by itself; the Retry
// wrapper does. A sink that knows when to try again returns an error that
// wraps *RetryAfterError.
type Sink interface {
	Send(ctx context.Context, a *Alert) (retry bool, err error)
}
