package source

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// lockedBuffer is a bytes.Buffer safe for the pass-through goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const childScript = `
import sys
sys.stdout.write("[2026-11-29 10:00:00] out 1\n"); sys.stdout.flush()
sys.stderr.write("Traceback (most recent call last):\n"); sys.stderr.flush()
sys.stdout.write("out 2 \x1b[31mred\x1b[0m\r\n"); sys.stdout.flush()
sys.stderr.write("RuntimeError: boom\n"); sys.stderr.flush()
sys.stdout.write("no newline at exit")
sys.exit(3)
`

func TestCommandPassThroughAndExitCode(t *testing.T) {
	py := requirePython(t)
	var stdout, stderr lockedBuffer
	c, err := NewCommand(CommandConfig{Args: []string{py, "-c", childScript}, Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	got := &collector{}
	if err := c.Run(context.Background(), got.emit); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if c.ExitCode() != 3 {
		t.Errorf("exit code = %d, want 3", c.ExitCode())
	}
	if want := "[2026-11-29 10:00:00] out 1\nout 2 \x1b[31mred\x1b[0m\r\nno newline at exit"; stdout.String() != want {
		t.Errorf("stdout passed through as %q, want %q", stdout.String(), want)
	}
	if want := "Traceback (most recent call last):\nRuntimeError: boom\n"; stderr.String() != want {
		t.Errorf("stderr passed through as %q, want %q", stderr.String(), want)
	}
	byStream := map[string][]string{}
	for _, l := range got.all() {
		byStream[l.Stream] = append(byStream[l.Stream], l.Text)
		if l.Source != "command" {
			t.Errorf("source = %q", l.Source)
		}
	}
	want := map[string][]string{
		"stdout": {"[2026-11-29 10:00:00] out 1", "out 2 \x1b[31mred\x1b[0m", "no newline at exit"},
		"stderr": {"Traceback (most recent call last):", "RuntimeError: boom"},
	}
	if diff := cmp.Diff(want, byStream); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// waitScript says it is ready, then waits for a signal.
const waitScript = `
import sys, time
try:
    print("ready", flush=True)
    time.sleep(60)
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr, flush=True)
    sys.exit(5)
`

func TestCommandSignals(t *testing.T) {
	py := requirePython(t)
	tests := []struct {
		name     string
		signal   os.Signal // forwarded through Signals; nil: cancel ctx instead
		wantCode int
		wantLast string
	}{
		{"SIGINT is forwarded", syscall.SIGINT, 5, "interrupted"},
		{"SIGTERM is forwarded", syscall.SIGTERM, 128 + 15, "ready"},
		{"cancel sends SIGTERM", nil, 128 + 15, "ready"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 1)
			c, err := NewCommand(CommandConfig{Args: []string{py, "-c", waitScript}, Signals: sigs})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ready := make(chan struct{})
			var once sync.Once
			got := &collector{}
			done := make(chan error, 1)
			go func() {
				done <- c.Run(ctx, func(ctx context.Context, l Line) error {
					if l.Text == "ready" {
						once.Do(func() { close(ready) })
					}
					return got.emit(ctx, l)
				})
			}()
			<-ready
			if tc.signal != nil {
				sigs <- tc.signal
			} else {
				cancel()
			}
			if err := <-done; err != nil {
				t.Fatalf("Run: %v", err)
			}
			if c.ExitCode() != tc.wantCode {
				t.Errorf("exit code = %d, want %d", c.ExitCode(), tc.wantCode)
			}
			lines := got.texts()
			if lines[len(lines)-1] != tc.wantLast {
				t.Errorf("lines = %q, want the last to be %q", lines, tc.wantLast)
			}
		})
	}
}

func TestCommandGrandchildHoldsPipe(t *testing.T) {
	sh := requireTool(t, "sh")
	c, err := NewCommand(CommandConfig{Args: []string{sh, "-c", "echo started; sleep 3 & exit 0"}, DrainTimeout: 50e6})
	if err != nil {
		t.Fatal(err)
	}
	got := &collector{}
	if err := c.Run(context.Background(), got.emit); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if diff := cmp.Diff([]string{"started"}, got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if c.ExitCode() != 0 {
		t.Errorf("exit code = %d", c.ExitCode())
	}
}

func TestCommandEmitErrorStopsChild(t *testing.T) {
	py := requirePython(t)
	var stdout lockedBuffer
	c, err := NewCommand(CommandConfig{Args: []string{py, "-c", waitScript}, Stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(context.Background(), func(context.Context, Line) error { return errStop })
	if err == nil || !errors.Is(err, errStop) {
		t.Errorf("Run = %v, want the emit error", err)
	}
	if c.ExitCode() != 128+15 || stdout.String() != "ready\n" {
		t.Errorf("exit code %d, stdout %q", c.ExitCode(), stdout.String())
	}
}

func TestCommandStartError(t *testing.T) {
	c, err := NewCommand(CommandConfig{Args: []string{"/nonexistent/logmatch-child"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), (&collector{}).emit); err == nil {
		t.Error("Run started a missing command")
	}
	if c.ExitCode() != -1 {
		t.Errorf("exit code = %d, want -1", c.ExitCode())
	}
	if _, err := NewCommand(CommandConfig{}); err == nil {
		t.Error("NewCommand accepted no command")
	}
}

func TestCommandKilledAfterStopTimeout(t *testing.T) {
	py := requirePython(t)
	const ignoreTerm = `
import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("ready", flush=True)
time.sleep(60)
`
	c, err := NewCommand(CommandConfig{Args: []string{py, "-c", ignoreTerm}, StopTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err = c.Run(ctx, func(_ context.Context, l Line) error {
		if l.Text == "ready" {
			cancel() // SIGTERM is ignored: the child must be killed
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if c.ExitCode() != 128+9 {
		t.Errorf("exit code = %d, want %d (SIGKILL)", c.ExitCode(), 128+9)
	}
}

// TestCommandTerminate ends a child from outside Run: one that dies on
// SIGTERM, and one that ignores it and is killed after StopTimeout. The
// lines it writes after the signal are still delivered.
func TestCommandTerminate(t *testing.T) {
	py := requirePython(t)
	for _, tc := range []struct {
		name   string
		script string
		want   int
	}{
		{name: "dies on SIGTERM", want: 128 + 15, script: `
import time
print("ready", flush=True)
time.sleep(60)
`},
		{name: "ignores SIGTERM", want: 128 + 9, script: `
import signal, time
def bye(*_):
    print("bye", flush=True)
signal.signal(signal.SIGTERM, bye)
print("ready", flush=True)
time.sleep(60)
time.sleep(60)
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The stop timeout is what the child has to act on SIGTERM
			// (die, or write its line) before SIGKILL: on a loaded machine
			// under -race, 100 ms was sometimes too short to be scheduled.
			c, err := NewCommand(CommandConfig{Args: []string{py, "-c", tc.script}, StopTimeout: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			got := &collector{}
			err = c.Run(context.Background(), func(ctx context.Context, l Line) error {
				if l.Text == "ready" && !c.Terminate() {
					t.Error("Terminate of a running child reported none")
				}
				return got.emit(ctx, l)
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if c.ExitCode() != tc.want {
				t.Errorf("exit code = %d, want %d", c.ExitCode(), tc.want)
			}
			if c.Terminate() {
				t.Error("Terminate after exit reported a running child")
			}
			texts := got.texts()
			if tc.want == 128+9 && (len(texts) != 2 || texts[1] != "bye") {
				t.Errorf("lines %q, want the line written after SIGTERM too", texts)
			}
		})
	}
	t.Run("before Run", func(t *testing.T) {
		c, err := NewCommand(CommandConfig{Args: []string{py, "-c", "import time; time.sleep(60)"}, StopTimeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if c.Terminate() {
			t.Error("Terminate before Run reported a running child")
		}
		if err := c.Run(context.Background(), (&collector{}).emit); err != nil {
			t.Fatal(err)
		}
		if c.ExitCode() != 128+15 && c.ExitCode() != 128+9 {
			t.Errorf("exit code = %d, want the child ended by a signal", c.ExitCode())
		}
	})
}
