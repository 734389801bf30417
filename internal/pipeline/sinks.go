package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/sinks"
	"github.com/logmatch/logmatch/sinks/alertmanager"
	"github.com/logmatch/logmatch/sinks/otel"
	"github.com/logmatch/logmatch/sinks/slack"
	"github.com/logmatch/logmatch/sinks/stdout"
	"github.com/logmatch/logmatch/sinks/webhook"
)

// builtSink is one configured destination with its route, ready for its
// delivery loop: everything that decides what reaches it (the severity and
// kind filter, the storm bound with its digest, the queue's bounds) is here,
// built with it and replaced with it on a reload.
type builtSink struct {
	name    string
	kind    string
	minRank int // alerts below this severity rank are not queued for it
	sink    sinks.Sink
	retry   config.Retry
	closer  func(context.Context) error // nil when nothing to release
	// newPerMinute and newBurst bound the new incidents sent to it; see
	// DefaultNewIncidentRate. 0 is no bound.
	newPerMinute, newBurst int
	// bound is the storm bound on new incidents and the digest of what it
	// held back (routeBound makes it).
	bound *rateBound
	// queue bounds the sink's queue in the state store.
	queue state.QueueBounds
}

// routeBound makes b's storm bound if it has none yet.
func (b *builtSink) routeBound() {
	if b.bound == nil {
		b.bound = &rateBound{perMinute: b.newPerMinute, burst: b.newBurst}
	}
}

// adopt takes over what old, the sink of the same name before a reload,
// held back: its digest is sent by this sink, nothing is lost or repeated.
func (b *builtSink) adopt(old *builtSink) {
	b.routeBound()
	if old.bound != nil && old.bound.digest != nil && b.bound.digest == nil {
		b.bound.digest = old.bound.digest
		old.bound.digest = nil
	}
}

// sinkQueues is the queue bounds of each sink by name, for the store.
func sinkQueues(bs []*builtSink) map[string]state.QueueBounds {
	qs := make(map[string]state.QueueBounds, len(bs))
	for _, b := range bs {
		qs[b.name] = b.queue
	}
	return qs
}

// buildSinks builds every configured sink, reporting all configuration
// problems at once (one bad sink never hides the next), each prefixed with
// the sink's place in the list.
func buildSinks(ctx context.Context, cfgs []config.Sink, getenv func(string) string, out io.Writer) ([]*builtSink, error) {
	var built []*builtSink
	var errs []error
	for i, c := range cfgs {
		b, err := buildSink(ctx, c, getenv, out)
		if err != nil {
			errs = append(errs, fmt.Errorf("sinks[%d] (%s): %w", i, c.Name, err))
			continue
		}
		built = append(built, b)
	}
	if err := errors.Join(errs...); err != nil {
		for _, b := range built {
			if b.closer != nil {
				_ = b.closer(ctx)
			}
		}
		return nil, err
	}
	return built, nil
}

// buildSink builds one sink from its section; the section's own package
// already checked it when the configuration loaded.
func buildSink(ctx context.Context, c config.Sink, getenv func(string) string, out io.Writer) (*builtSink, error) {
	rank, err := sinks.CheckMinSeverity(string(c.MinSeverity))
	if err != nil {
		return nil, err
	}
	b := &builtSink{name: c.Name, kind: c.Type, minRank: rank, retry: c.Retry,
		newPerMinute: DefaultNewIncidentRate, newBurst: DefaultNewIncidentBurst,
		queue: state.QueueBounds{MaxItems: c.Queue.MaxItems, MaxAge: time.Duration(c.Queue.MaxAge)}}
	b.routeBound()
	switch {
	case c.Type == config.SinkStdout:
		b.sink = stdout.New(out)
	case c.Slack != nil:
		s, err := slack.New(*c.Slack, slack.Options{Getenv: getenv})
		if err != nil {
			return nil, err
		}
		b.sink, b.closer = s, func(context.Context) error { return s.Close() }
	case c.Webhook != nil:
		s, err := webhook.New(*c.Webhook, webhook.Options{Getenv: getenv})
		if err != nil {
			return nil, err
		}
		b.sink, b.closer = s, func(context.Context) error { return s.Close() }
	case c.Alertmanager != nil:
		s, err := alertmanager.New(*c.Alertmanager, alertmanager.Options{Getenv: getenv})
		if err != nil {
			return nil, err
		}
		b.sink, b.closer = s, func(context.Context) error { return s.Close() }
	case c.OTel != nil:
		s, err := otel.New(ctx, *c.OTel)
		if err != nil {
			return nil, err
		}
		b.sink, b.closer = s, s.Shutdown
	default:
		return nil, fmt.Errorf("type: %q has no configuration section", c.Type)
	}
	return b, nil
}

// wants reports whether the sink takes alerts of this kind; the sink
// says, see sinks.Wants.
func (b *builtSink) wants(kind string) bool { return sinks.Wants(b.sink, kind) }

// TestResult is one sink's answer to a test alert.
type TestResult struct {
	Sink, Type string
	// Err is the sink's failure, nil when it accepted the alert; Retryable
	// says whether it classified the failure as one that may pass later.
	Err       error
	Retryable bool
	Elapsed   time.Duration
}

// SendTest builds every configured sink and sends each one the alert,
// once, directly: no queue, no retry, no severity filter, so the answer
// is the sink's own. One sink failing never stops the others; a sink that
// cannot be built is reported as its result.
func SendTest(ctx context.Context, cfgs []config.Sink, a *sinks.Alert, getenv func(string) string, out io.Writer) []TestResult {
	var res []TestResult
	for _, c := range cfgs {
		r := TestResult{Sink: c.Name, Type: c.Type}
		b, err := buildSink(ctx, c, getenv, out)
		if err != nil {
			r.Err = err
			res = append(res, r)
			continue
		}
		start := time.Now()
		r.Retryable, r.Err = b.sink.Send(ctx, a)
		if r.Err == nil {
			r.Retryable = false
		}
		r.Elapsed = time.Since(start)
		if b.closer != nil {
			_ = b.closer(ctx)
		}
		res = append(res, r)
	}
	return res
}
