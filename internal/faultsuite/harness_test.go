package faultsuite

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// runTimeout bounds one run of the binary: a hang is a failure, not a
// stuck test process.
const runTimeout = 2 * time.Minute

var build struct {
	once sync.Once
	path string
	err  error
}

// binary builds logmatch once per test process (with the race detector
// when the tests run with it) and returns its path.
func binary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		dir, err := os.MkdirTemp("", "logmatch-faultsuite")
		if err != nil {
			build.err = err
			return
		}
		build.path = filepath.Join(dir, "logmatch")
		args := []string{"build", "-o", build.path}
		if raceEnabled {
			args = append(args, "-race")
		}
		cmd := exec.Command("go", append(args, moduleRoot()+"/cmd/logmatch")...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			build.err = errors.New("go build: " + err.Error() + "\n" + out.String())
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

// moduleRoot is the directory of go.mod, two levels above this package.
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// result is what one run of the binary did.
type result struct {
	stdout, stderr string
	code           int // exit status; -1 when killed by a signal
}

// run runs the binary with args to its end (at most runTimeout), feeding
// stdin when not nil.
func run(t testing.TB, stdin []byte, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("logmatch %v did not finish within %s\nstderr:\n%s", args, runTimeout, stderr.String())
	}
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	default:
		t.Fatalf("logmatch %v: %v", args, err)
	}
	return res
}

// process is a running logmatch started by start.
type process struct {
	t              testing.TB
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	done           chan struct{}
	code           int
}

// start starts the binary in the background; the test's cleanup kills it
// if it is still running.
func start(t testing.TB, args ...string) *process {
	t.Helper()
	return startCommand(t, binary(t), args...)
}

// startCommand is start for another program, such as a wrapper (prlimit)
// that runs the binary.
func startCommand(t testing.TB, name string, args ...string) *process {
	t.Helper()
	p := &process{t: t, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(name, args...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := p.cmd.Wait()
		var exit *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &exit):
			p.code = exit.ExitCode()
		default:
			p.code = -2
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// signal sends sig to the process.
func (p *process) signal(sig os.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
}

// wait waits up to limit for the process to exit and returns its exit
// status and whether it exited in time.
func (p *process) wait(limit time.Duration) (code int, exited bool) {
	select {
	case <-p.done:
		return p.code, true
	case <-time.After(limit):
		return 0, false
	}
}

// waitFor polls cond until it holds or limit passes; it reports whether it
// held. Polling waits for an effect, it asserts no timing.
func waitFor(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// writeFile writes content to dir/name and returns the path.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// interrupt is the signal an orchestrator stops logmatch with.
var interrupt = syscall.SIGTERM
