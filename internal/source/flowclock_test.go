package source

import (
	"context"
	"testing"
	"time"
)

func TestFlowClockTicksUntilStopped(t *testing.T) {
	c, err := newFlowClock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	if err := c.start(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if ok, err := c.wait(); !ok || err != nil {
			t.Fatalf("wait = %v, %v; want a tick", ok, err)
		}
	}
	// Ticks pile up unread, then the clock is stopped and started again
	// with a long period: the next tick is a whole period away, none of
	// the old ones is left over.
	time.Sleep(20 * time.Millisecond)
	if err := c.stop(); err != nil {
		t.Fatal(err)
	}
	const period = 300 * time.Millisecond
	if err := c.start(period); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	if ok, err := c.wait(); !ok || err != nil {
		t.Fatalf("wait = %v, %v; want a tick", ok, err)
	}
	if waited := time.Since(begin); waited < period/2 {
		t.Fatalf("first tick after a restart came %v after it, want a whole period (%v): a tick from before the stop was left", waited, period)
	}
}

func TestFlowClockWaitEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	c, err := newFlowClock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	if err := c.start(time.Hour); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() {
		ok, err := c.wait()
		if err != nil {
			t.Error(err)
		}
		done <- ok
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("wait reported a tick after the context ended")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("wait did not end with its context")
	}
	// Every later wait ends at once too.
	if ok, err := c.wait(); ok || err != nil {
		t.Fatalf("wait after the end = %v, %v; want false, nil", ok, err)
	}
}
