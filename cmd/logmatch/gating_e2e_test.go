package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRunOnFatalTerminate runs the binary as a supervisor would:
// logmatch run --on-fatal terminate -- python3 <server that hits a CUDA
// illegal memory access in its scheduler and hangs>. logmatch must end the
// server and exit with status 75, the documented "terminated on a fatal
// failure", not the server's own 143.
func TestRunOnFatalTerminate(t *testing.T) {
	py := requireTool(t, "python3")
	script := filepath.Join(t.TempDir(), "server.py")
	err := os.WriteFile(script, []byte(`
import logging, sys, time, traceback
logging.basicConfig(format="[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)
logging.info("The server is fired up and ready to roll!")
def forward():
    raise RuntimeError("CUDA error: an illegal memory access was encountered\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n")
try:
    forward()
except Exception:
    logging.error("Scheduler hit an exception: %s", "".join(traceback.format_exception(*sys.exc_info())))
sys.stderr.flush()
time.sleep(600)
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "run", "--state-dir", t.TempDir(), "--http-addr", "127.0.0.1:0",
		"--on-fatal", "terminate", "--", py, script)
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("logmatch did not end the hung server\nstderr:\n%s", stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 75 {
		t.Fatalf("exit = %v, want status 75\nstderr:\n%s", err, stderr.String())
	}
	for _, want := range []string{"liveness failed: terminating the wrapped command", "cuda-illegal-memory-access"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("logmatch's log lacks %q:\n%s", want, stderr.String())
		}
	}
	// With a wrapped command, alerts go to stderr by default: the
	// server's stdout is its own.
	if !strings.Contains(stderr.String(), `"liveness":{"reason":"liveness failed: the server will be restarted"`) {
		t.Errorf("no gating alert on stderr:\n%s", stderr.String())
	}
	if strings.Contains(stdout.String(), `"schema":"logmatch.alert/v1"`) {
		t.Errorf("an alert went to the server's stdout:\n%s", stdout.String())
	}
}

// syncBuffer is a bytes.Buffer the child's copier goroutine and the test
// can share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
