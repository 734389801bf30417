package source

import (
	"context"
	"testing"
	"time"
)

// TestTimerClock: a started clock ticks, a stopped one does not keep a
// wait from ending with its context.
func TestTimerClock(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := newFlowClock(ctx)
	defer c.close()
	if _, ok := c.(*timerClock); !ok {
		t.Fatalf("newFlowClock gave %T, want the timerfd clock on Linux", c)
	}
	c.start(time.Millisecond)
	for i := range 3 {
		if !c.wait(ctx) {
			t.Fatalf("wait %d reported an ended context", i)
		}
	}
	c.stop()
	done := make(chan bool)
	go func() { done <- c.wait(ctx) }()
	cancel()
	if <-done {
		t.Fatal("wait on a stopped clock reported a tick after its context ended")
	}
}
