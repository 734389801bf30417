package sinks

import (
	"context"
	"sync"
	"time"
)

// fakeClock advances only when slept on; it records every sleep.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	// onSleep, when set, runs before a sleep returns (to cancel a context).
	onSleep func()
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	f := c.onSleep
	c.mu.Unlock()
	if f != nil {
		f()
	}
	return ctx.Err()
}

// result is one scripted answer of scriptSink.
type result struct {
	retry bool
	err   error
}

// scriptSink answers Send and SendBatch from a script and records calls.
type scriptSink struct {
	mu      sync.Mutex
	script  []result
	sent    []*Alert
	batches [][]*Alert
}

func (s *scriptSink) next() (bool, error) {
	if len(s.script) == 0 {
		return false, nil
	}
	r := s.script[0]
	s.script = s.script[1:]
	return r.retry, r.err
}

func (s *scriptSink) Send(_ context.Context, a *Alert) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, a)
	return s.next()
}

type scriptBatchSink struct{ scriptSink }

func (s *scriptBatchSink) BatchMin() int { return 3 }

func (s *scriptBatchSink) SendBatch(_ context.Context, alerts []*Alert) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches = append(s.batches, alerts)
	return s.next()
}

type scriptEncodedSink struct {
	scriptSink
	payloads [][]byte
}

func (s *scriptEncodedSink) SendEncoded(_ context.Context, payload []byte) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.payloads = append(s.payloads, payload)
	return s.next()
}

// recordingObserver records Observer calls.
type recordingObserver struct {
	mu      sync.Mutex
	retried []time.Duration
	failed  []bool
}

func (o *recordingObserver) Retried(_ string, wait time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.retried = append(o.retried, wait)
}

func (o *recordingObserver) Failed(_ string, retryable bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failed = append(o.failed, retryable)
}
