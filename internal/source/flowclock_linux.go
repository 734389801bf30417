package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// flowClock ticks the gaps of a flow (see Tailer.Run). It re-arms itself
// where it fires: a timer reset to an earlier deadline after every pass
// made the runtime break its network poller's sleep (an eventfd write and a
// thread woken) once a pass. On Linux it is a periodic timerfd read through
// the runtime's network poller rather than a runtime timer. The runtime's system monitor sleeps until the next
// runtime timer and, once awake, looks at the scheduler every 20 µs for as
// long as any goroutine runs: a runtime timer every minPassGap woke it for
// every pass of a flowing log, at a context switch each look. A descriptor
// that becomes readable wakes only the poller's thread.
type flowClock struct {
	f      *os.File
	fd     int
	unhook func() bool
	buf    [8]byte
}

// newFlowClock returns a stopped clock whose waits end once ctx is done.
func newFlowClock(ctx context.Context) (*flowClock, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("source: timerfd_create: %w", err)
	}
	c := &flowClock{f: os.NewFile(uintptr(fd), "flow timerfd"), fd: fd}
	c.unhook = context.AfterFunc(ctx, func() {
		// A deadline in the past ends the wait under way and every
		// later one.
		_ = c.f.SetReadDeadline(time.Unix(1, 0))
	})
	return c, nil
}

// start makes the clock tick every d from now on.
func (c *flowClock) start(d time.Duration) error {
	ts := unix.NsecToTimespec(d.Nanoseconds())
	return c.set(&unix.ItimerSpec{Interval: ts, Value: ts})
}

// stop disarms the clock. Setting the timer clears the ticks not yet
// taken, so a later start begins a whole period from then.
func (c *flowClock) stop() error { return c.set(&unix.ItimerSpec{}) }

func (c *flowClock) set(spec *unix.ItimerSpec) error {
	if err := unix.TimerfdSettime(c.fd, 0, spec, nil); err != nil {
		return fmt.Errorf("source: timerfd_settime: %w", err)
	}
	return nil
}

// wait blocks until the next tick, returning at once when ticks were
// missed, and reports false when ctx ended first.
func (c *flowClock) wait() (bool, error) {
	if _, err := c.f.Read(c.buf[:]); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return false, nil
		}
		return false, fmt.Errorf("source: timerfd read: %w", err)
	}
	return true, nil
}

// close releases the descriptor.
func (c *flowClock) close() {
	c.unhook()
	_ = c.f.Close()
}
