package deploy

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/pipeline"
)

// standInServer is a Python stand-in for sglang: real logging in sglang's
// format on stderr; "crash" has the scheduler hit a CUDA illegal memory
// access (inside sglang's "Scheduler hit an exception:" wrapper) and then
// hang, as a broken server lingers; "start" only starts and serves.
const standInServer = `
import logging, os, sys, time, traceback
logging.basicConfig(format="[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)
print("INFO:     Started server process [%d]" % os.getpid(), file=sys.stderr, flush=True)
logging.info("The server is fired up and ready to roll!")
def forward_batch_generation():
    raise RuntimeError("CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n")
if sys.argv[1] == "crash":
    try:
        forward_batch_generation()
    except Exception:
        logging.error("Scheduler hit an exception: %s", "".join(traceback.format_exception(*sys.exc_info())))
sys.stderr.flush()
while True:
    time.sleep(3600)
`

// TestSidecarGatesLiveness runs what the shipped sidecar manifest runs: the
// sglang container's wrapper around a stand-in server that logs a CUDA
// illegal memory access and hangs, and logmatch with the manifest's
// configuration reading the files the wrapper writes. The URL the sglang
// container's livenessProbe names then fails, so the kubelet would restart
// sglang; after the restart it passes again.
func TestSidecarGatesLiveness(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("python3 is required: %v", err)
		}
		t.Skip("python3 not found")
	}
	script := wrapperScript(t)
	b := build(t, "kubernetes/sidecar")
	spec := &b.deployments[0].Spec.Template.Spec
	sg, lm := findContainer(spec, "sglang"), findContainer(spec, "logmatch")
	var p problems
	checkSglangLiveness(&p, sg, true)
	cfg := logmatchConfig(&p, b, spec, lm, secretReader(secretMounts(spec, lm)...))
	if len(p) > 0 || cfg == nil {
		t.Fatalf("sidecar manifest:\n%s", strings.Join(p, "\n"))
	}
	probe := sg.LivenessProbe.HTTPGet
	if _, port, err := net.SplitHostPort(cfg.HTTPAddr); err != nil || port != strconv.Itoa(int(probe.Port.IntVal)) {
		t.Fatalf("logmatch serves on %q, the sglang liveness probe asks port %d", cfg.HTTPAddr, probe.Port.IntVal)
	}

	dir := t.TempDir()
	serverPy := filepath.Join(dir, "server.py")
	if err := os.WriteFile(serverPy, []byte(standInServer), 0o644); err != nil {
		t.Fatal(err)
	}
	real, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	sglang := func(mode string) (*exec.Cmd, string) {
		cmd, logDir, _, _ := runWrapper(t, script, "exec "+strings.TrimSpace(string(real))+" "+serverPy+" "+mode+"\n")
		return cmd, logDir
	}
	wrapper, logDir := sglang("crash")

	// logmatch as configured by the manifest, with the pod's paths moved
	// into the test's directories and only its stdout sink (no Slack).
	catDir := filepath.Join(dir, "catalog")
	if err := os.MkdirAll(catDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(catDir, "site.jsonl"), []byte(b.configMap("logmatch").Data["site.jsonl"]), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, g := range cfg.Paths {
		cfg.Paths[i] = filepath.Join(logDir, strings.TrimPrefix(g, "/var/log/sglang/"))
	}
	cfg.Catalogs = []string{catDir}
	cfg.StateDir = filepath.Join(dir, "state")
	cfg.HTTPAddr = "127.0.0.1:0"
	var keep []config.Sink
	for _, s := range cfg.Sinks {
		if s.Type == config.SinkStdout {
			keep = append(keep, s)
		}
	}
	cfg.Sinks = keep
	addr := make(chan string, 1)
	pl, err := pipeline.New(context.Background(), pipeline.Options{
		Config: cfg, Logger: slog.New(slog.DiscardHandler), Stdout: io.Discard, Stderr: io.Discard,
		Listening: func(a string) { addr <- a },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- pl.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	url := "http://" + <-addr + probe.Path
	waitStatus := func(want int) string {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			resp, err := http.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == want {
				return string(body)
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET %s = %d %q, want %d", url, resp.StatusCode, body, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if body := waitStatus(http.StatusServiceUnavailable); !strings.Contains(body, "cuda-illegal-memory-access") || !strings.Contains(body, "rank TP0") {
		t.Fatalf("liveness probe body lacks the reason:\n%s", body)
	}

	// The kubelet kills the container and starts it again; the wrapper
	// appends to the same files on the pod's emptyDir.
	_ = syscall.Kill(-wrapper.Process.Pid, syscall.SIGKILL)
	_ = wrapper.Wait()
	restarted, _, _, _ := runWrapper(t, script, "exec "+strings.TrimSpace(string(real))+" "+serverPy+" start\n", "LOG_DIR="+logDir)
	waitStatus(http.StatusOK)
	_ = syscall.Kill(-restarted.Process.Pid, syscall.SIGKILL)
	_ = restarted.Wait()
}
