package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Defaults for the zero values of CommandConfig.
const (
	DefaultStopTimeout  = 10 * time.Second
	DefaultDrainTimeout = time.Second
)

// CommandConfig configures a wrapped command (logmatch run -- COMMAND ARGS).
type CommandConfig struct {
	// Args is the command and its arguments; Args[0] is looked up in PATH.
	Args []string
	// Stdin is given to the child as is; nil means /dev/null.
	Stdin io.Reader
	// Stdout and Stderr receive the child's output byte for byte, as soon as
	// it is read; nil discards it. One that has an EndStream method (a
	// stream shared with logmatch's own lines) is told when the child's
	// stream ends.
	Stdout, Stderr io.Writer
	// Signals are forwarded to the child (the run mode sends SIGTERM and
	// SIGINT here).
	Signals <-chan os.Signal
	// StopTimeout is how long the child may take to exit after ctx is done
	// and it was sent SIGTERM, before it is killed.
	StopTimeout time.Duration
	// DrainTimeout is how long the child's output pipes may stay open after
	// it exited (grandchildren that inherited them) before reading stops.
	DrainTimeout time.Duration
	// Source is Line.Source; "" means "command".
	Source string
	// Format is the framing of both streams; "" means FormatRaw.
	Format Format
	// MaxLineBytes bounds a line; 0 means DefaultMaxLineBytes.
	MaxLineBytes int
	// Observer receives counts; nil means none.
	Observer Observer
	// Flush is StreamConfig.Flush for both output streams; the two are
	// never called at once, nor during an Emit.
	Flush func(context.Context) error
	// Borrow is StreamConfig.Borrow for both output streams.
	Borrow bool
}

// Command runs a child process, passes its stdout and stderr through and
// delivers both as two streams of lines.
type Command struct {
	cfg    CommandConfig
	stream StreamConfig
	code   int

	term     chan struct{} // closed by Terminate
	termOnce sync.Once
	running  atomic.Bool // the child started and has not exited
}

// NewCommand validates cfg and builds a Command.
func NewCommand(cfg CommandConfig) (*Command, error) {
	if len(cfg.Args) == 0 || cfg.Args[0] == "" {
		return nil, errors.New("command: no command given after --")
	}
	if cfg.StopTimeout == 0 {
		cfg.StopTimeout = DefaultStopTimeout
	}
	if cfg.DrainTimeout == 0 {
		cfg.DrainTimeout = DefaultDrainTimeout
	}
	if cfg.Source == "" {
		cfg.Source = "command"
	}
	if cfg.Format == "" {
		cfg.Format = FormatRaw
	}
	if cfg.StopTimeout < 0 || cfg.DrainTimeout < 0 {
		return nil, fmt.Errorf("command %s: stop and drain timeouts must not be negative", cfg.Args[0])
	}
	sc, err := StreamConfig{Source: cfg.Source, Format: cfg.Format, MaxLineBytes: cfg.MaxLineBytes, Observer: cfg.Observer, Borrow: cfg.Borrow}.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("command %s: %w", cfg.Args[0], err)
	}
	return &Command{cfg: cfg, stream: sc, code: -1, term: make(chan struct{})}, nil
}

// Terminate ends the child the way a stop does, SIGTERM and SIGKILL after
// StopTimeout, while its output is still passed through and delivered to
// the end; Run then returns as usual. It reports whether the child was
// running (false before Run started it or after it exited); called before
// Run, it ends the child as soon as it starts. It is safe to call from any
// goroutine, more than once.
func (c *Command) Terminate() bool {
	running := c.running.Load()
	c.termOnce.Do(func() { close(c.term) })
	return running
}

// ExitCode is the child's exit status once Run has returned: its exit code,
// or 128+n when signal n ended it (the shell convention), or -1 when it
// never ran.
func (c *Command) ExitCode() int { return c.code }

// Run starts the child and returns once it has exited and its output is
// read. When ctx is done the child is sent SIGTERM, and killed after
// StopTimeout; its output is still passed through until it exits. An emit
// error stops the delivery of lines (output is still passed through), ends
// the child the same way and is returned. Run returns an error when the
// child cannot start; the child's own failure is its ExitCode. While emit
// blocks, the pass-through waits too, and the child's writes block once its
// pipe is full: backpressure reaches the child rather than lines being
// dropped.
func (c *Command) Run(ctx context.Context, emit Emit) error {
	outR, outW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("command %s: stdout pipe: %w", c.cfg.Args[0], err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return fmt.Errorf("command %s: stderr pipe: %w", c.cfg.Args[0], err)
	}
	defer outR.Close()
	defer errR.Close()
	cmd := exec.Command(c.cfg.Args[0], c.cfg.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.cfg.Stdin, outW, errW
	err = cmd.Start()
	outW.Close() // the child holds its own copies
	errW.Close()
	if err != nil {
		return fmt.Errorf("command %s: start: %w", c.cfg.Args[0], err)
	}
	c.running.Store(true)

	// Both streams deliver through one lock: the consumer sees one caller
	// at a time. After the first emit error lines are dropped, output is not.
	var (
		mu       sync.Mutex
		stopped  bool  // no more lines are delivered
		emitErr  error // the first emit error not caused by ctx
		stopOnce sync.Once
		stopReq  = make(chan struct{})
	)
	// deliver emits l, or flushes when l is nil, under the lock.
	deliver := func(ctx context.Context, l *Line) error {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return nil
		}
		var err error
		if l != nil {
			err = emit(ctx, *l)
		} else {
			err = c.cfg.Flush(ctx)
		}
		if err != nil {
			stopped = true
			if ctx.Err() == nil {
				emitErr = err
			}
			stopOnce.Do(func() { close(stopReq) })
		}
		return nil
	}
	serial := func(ctx context.Context, l Line) error { return deliver(ctx, &l) }
	serialFlush := func(ctx context.Context) error { return deliver(ctx, nil) }
	var wg sync.WaitGroup
	pumpErrs := make([]error, 2)
	for i, s := range []struct {
		r    *os.File
		name string
		w    io.Writer
	}{{outR, "stdout", c.cfg.Stdout}, {errR, "stderr", c.cfg.Stderr}} {
		sc := c.stream
		sc.Stream = s.name
		if c.cfg.Flush != nil {
			sc.Flush = serialFlush
		}
		var r io.Reader = s.r
		if s.w != nil {
			r = &passThrough{r: s.r, w: s.w}
		}
		wg.Go(func() { pumpErrs[i] = pump(ctx, r, sc, serial) })
	}
	exited := make(chan struct{})
	var waitErr error
	wg.Go(func() {
		defer close(exited)
		waitErr = cmd.Wait()
		c.running.Store(false)
	})
	c.supervise(ctx, cmd.Process, exited, stopReq)

	// Output pipes held open by grandchildren must not keep Run alive.
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		wg.Wait()
	}()
	drain := time.NewTimer(c.cfg.DrainTimeout)
	select {
	case <-drained:
	case <-drain.C:
		outR.SetReadDeadline(time.Unix(1, 0))
		errR.SetReadDeadline(time.Unix(1, 0))
		<-drained
	}
	drain.Stop()

	c.code = exitCode(cmd.ProcessState, waitErr)
	mu.Lock()
	defer mu.Unlock()
	if emitErr != nil {
		return fmt.Errorf("command %s: %w", c.cfg.Args[0], emitErr)
	}
	for _, err := range pumpErrs {
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("command %s: %w", c.cfg.Args[0], err)
		}
	}
	return nil
}

// supervise forwards signals until the child exits, and ends it when ctx
// is done or delivery failed: SIGTERM, then SIGKILL after StopTimeout.
func (c *Command) supervise(ctx context.Context, p *os.Process, exited, stopReq <-chan struct{}) {
	done := ctx.Done()
	term := c.term
	var kill <-chan time.Time
	for {
		select {
		case <-exited:
			return
		case sig := <-c.cfg.Signals:
			_ = p.Signal(sig) // the child may have exited already
		case <-term:
			term = nil
			if kill == nil {
				kill = c.terminate(p)
			}
		case <-done:
			done, stopReq = nil, nil
			kill = c.terminate(p)
		case <-stopReq:
			done, stopReq = nil, nil
			kill = c.terminate(p)
		case <-kill:
			_ = p.Kill()
			kill = nil
		}
	}
}

func (c *Command) terminate(p *os.Process) <-chan time.Time {
	_ = p.Signal(syscall.SIGTERM)
	return time.After(c.cfg.StopTimeout)
}

func exitCode(ps *os.ProcessState, err error) int {
	if ps == nil {
		if err != nil {
			return -1
		}
		return 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// passThrough copies every chunk it reads to w before the line splitter
// sees it, so the child's output reaches the terminal as soon as it is
// written, partial lines and prompts included. A failed write (our own
// stdout closed) stops the copy, not the reading.
type passThrough struct {
	r      io.Reader
	w      io.Writer
	failed bool
}

func (p *passThrough) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 && !p.failed {
		if _, werr := p.w.Write(b[:n]); werr != nil {
			p.failed = true
		}
	}
	if err != nil {
		if e, ok := p.w.(streamEnder); ok {
			e.EndStream()
		}
	}
	return n, err
}

// streamEnder is a pass-through destination that wants to know when the
// child's stream ended, so that what it holds back for the end of the
// child's line goes out.
type streamEnder interface{ EndStream() }
