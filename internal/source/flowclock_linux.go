package source

import (
	"context"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// timerClock is a flowClock on a timerfd, read through the runtime's
// network poller: the thread waiting in the poller wakes when the timer
// fires, at its nanosecond deadline, and nothing else does. A runtime
// timer would also wake the runtime's system monitor, and the poller's
// millisecond timeout often ends just before a runtime timer is due, a
// second wake-up for one tick (scripts/perf-load-and-scan.md, eighth
// round).
type timerClock struct {
	f      *os.File
	period time.Duration
	rc     syscall.RawConn
	done   func() bool // stops the AfterFunc that ends a wait when ctx ends
}

// newFlowClock returns a timerfd clock, or a ticker clock when the system
// gives no timerfd. A wait returns false once ctx has ended.
func newFlowClock(ctx context.Context) flowClock {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return newTickerClock()
	}
	f := os.NewFile(uintptr(fd), "flow clock") // non-blocking: the poller manages it
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return newTickerClock()
	}
	c := &timerClock{f: f, rc: rc}
	c.done = context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
	return c
}

func (c *timerClock) set(period time.Duration) {
	c.period = period
	ts := unix.NsecToTimespec(int64(period))
	_ = c.rc.Control(func(fd uintptr) {
		// Cannot fail on a valid descriptor with a valid time: a wait then
		// lasts until ctx ends, which the caller's other wake-ups bound.
		_ = unix.TimerfdSettime(int(fd), 0, &unix.ItimerSpec{Interval: ts, Value: ts}, nil)
	})
}

func (c *timerClock) start(period time.Duration) { c.set(period) }
func (c *timerClock) stop()                      { c.set(0) }

func (c *timerClock) close() {
	c.done()
	c.f.Close()
}

// wait reads the timer's expiration count. The read is a raw system call
// (a non-blocking read of eight bytes), so the runtime is not told of a
// system call and does not wake its monitor; when nothing is due, the
// goroutine parks in the poller. A read that fails otherwise (it cannot
// on a valid descriptor) is replaced by a sleep of the period, so that a
// broken clock never makes the flow spin.
func (c *timerClock) wait(ctx context.Context) bool {
	var count [8]byte // the expirations since the last read
	var failed syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		_, e := sysRead(fd, count[:])
		if e == syscall.EAGAIN {
			return false
		}
		failed = e
		return true
	})
	if err == nil && failed != 0 {
		time.Sleep(c.period)
	}
	return err == nil && ctx.Err() == nil
}
