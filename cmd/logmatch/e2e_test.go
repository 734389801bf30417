package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// The end-to-end tests drive the built binary with real components: real
// Python writing sglang-format logs, real logrotate, kill -9.

var binary string // built once by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "logmatch-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "logmatch")
	build := exec.Command("go", "build", "-race", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build logmatch:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireTool skips a test when a tool is missing, unless CI demands the
// real components (LOGMATCH_TEST_REQUIRE_TOOLS=1), then it fails.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is required: %v", name, err)
		}
		t.Skipf("%s not found: %v", name, err)
	}
	return p
}

// numberedCatalog is a catalog whose one record matches the numbered
// failures the writer scripts log, capturing the number.
const numberedCatalog = `{"id":"e2e0000000000001","slug":"synthetic-failure","messagePattern":"Synthetic failure #(\\d+) in request","errorClass":"RuntimeError","severity":"error","solutions":["restart the synthetic component","check the synthetic input"]}`

// writerScript logs numbered failures in sglang format with real Python
// logging. mode "watched" reopens the file when it is renamed away
// (WatchedFileHandler), "append" keeps its descriptor (copytruncate).
const writerScript = `
import logging, logging.handlers, sys, time
path, first, last, delay, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
if mode == "watched":
    h = logging.handlers.WatchedFileHandler(path)
else:
    h = logging.FileHandler(path, mode="a")
h.setFormatter(logging.Formatter("[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S"))
root = logging.getLogger()
root.addHandler(h)
root.setLevel(logging.INFO)
for n in range(first, last + 1):
    root.info("Decode batch, #running-req: 12, #token: 4096, token usage: 0.31, cuda graph: True, gen throughput (token/s): 1234.5, #queue-req: 0")
    root.error("Synthetic failure #%d in request", n)
    time.sleep(delay)
`

type harness struct {
	t       *testing.T
	dir     string
	logDir  string
	state   string
	catalog string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	dir := t.TempDir()
	h := &harness{t: t, dir: dir, logDir: filepath.Join(dir, "logs"), state: filepath.Join(dir, "state"), catalog: filepath.Join(dir, "numbered.jsonl")}
	if err := os.MkdirAll(h.logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.catalog, []byte(numberedCatalog+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "writer.py"), []byte(writerScript), 0o644); err != nil {
		t.Fatal(err)
	}
	return h
}

// proc is a running logmatch whose stdout alerts are collected.
type proc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	alerts []sinks.Alert
	stderr bytes.Buffer
	done   chan error
}

func (h *harness) start(extra ...string) *proc {
	h.t.Helper()
	args := append([]string{"run",
		"--no-default-catalog", "--catalog", h.catalog,
		"--path", filepath.Join(h.logDir, "*.log"),
		"--state-dir", h.state,
		"--group-window", "0",
		"--http-addr", "127.0.0.1:0",
	}, extra...)
	p := &proc{cmd: exec.Command(binary, args...), done: make(chan error, 1)}
	h.collect(p)
	return p
}

type syncWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// numbers returns how often each failure number was alerted.
func (p *proc) numbers() map[int]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[int]int{}
	for _, a := range p.alerts {
		if n, err := strconv.Atoi(a.Match.Groups["1"]); err == nil {
			out[n]++
		}
	}
	return out
}

func (p *proc) logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// waitFor polls until every number in [first, last] was alerted or the
// deadline passes.
func (p *proc) waitFor(t *testing.T, first, last int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		got := p.numbers()
		missing := 0
		for n := first; n <= last; n++ {
			if got[n] == 0 {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("logmatch exited with %v after SIGTERM; log:\n%s", err, p.logs())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("logmatch did not stop within 30s of SIGTERM; log:\n%s", p.logs())
	}
}

func (h *harness) writer(ctx context.Context, path string, first, last int, delay float64, mode string) *exec.Cmd {
	h.t.Helper()
	py := requireTool(h.t, "python3")
	c := exec.CommandContext(ctx, py, filepath.Join(h.dir, "writer.py"), path, strconv.Itoa(first), strconv.Itoa(last), strconv.FormatFloat(delay, 'f', -1, 64), mode)
	c.Stderr = os.Stderr
	if err := c.Start(); err != nil {
		h.t.Fatal(err)
	}
	return c
}

func checkExactlyOnce(t *testing.T, got map[int]int, first, last int, logs string) {
	t.Helper()
	var missing, repeated []int
	for n := first; n <= last; n++ {
		switch c := got[n]; {
		case c == 0:
			missing = append(missing, n)
		case c > 1:
			repeated = append(repeated, n)
		}
	}
	if len(missing) > 0 || len(repeated) > 0 {
		t.Fatalf("failures %d..%d: missing %v, alerted more than once %v\nlogmatch log:\n%s", first, last, missing, repeated, logs)
	}
}

// Real logrotate rotates the file while a real Python process writes 300
// numbered failures: each is alerted exactly once. Rotations are 1.5s
// apart, more than the tailer's RotateWait (1s) plus a poll, as the
// tailer documents: a file must sit at a watched path for a poll to be
// seen, and a renamed file is followed for RotateWait.
func TestRunThroughLogrotate(t *testing.T) {
	logrotate := requireTool(t, "logrotate")
	for _, mode := range []string{"create", "copytruncate"} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t)
			logPath := filepath.Join(h.logDir, "server.log")
			conf := filepath.Join(h.dir, "logrotate.conf")
			writerMode := "watched"
			directive := "create"
			if mode == "copytruncate" {
				writerMode, directive = "append", "copytruncate"
			}
			// rotate 50 keeps every rotated copy, so "read to its end"
			// is what is tested, not the deletion of an unread file.
			err := os.WriteFile(conf, []byte(fmt.Sprintf("%s {\n  rotate 50\n  %s\n  missingok\n}\n", logPath, directive)), 0o644)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(logPath, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			p := h.start()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			w := h.writer(ctx, logPath, 1, 300, 0.02, writerMode)
			statusFile := filepath.Join(h.dir, "logrotate.status")
			rotations := 0
			writerDone := make(chan error, 1)
			go func() { writerDone <- w.Wait() }()
		loop:
			for {
				select {
				case err := <-writerDone:
					if err != nil {
						t.Fatalf("writer: %v", err)
					}
					break loop
				case <-time.After(1500 * time.Millisecond):
					out, err := exec.Command(logrotate, "-f", "-s", statusFile, conf).CombinedOutput()
					if err != nil {
						t.Fatalf("logrotate: %v: %s", err, out)
					}
					rotations++
				}
			}
			if rotations < 3 {
				t.Fatalf("only %d rotations happened while writing", rotations)
			}
			if mode == "copytruncate" {
				// Lines written between logrotate's copy and its
				// truncation exist nowhere on disk; logmatch alerts them
				// only if it read them in that window. Every line that is
				// on disk must be alerted exactly once, none twice.
				onDisk := numbersOnDisk(t, h.logDir)
				p.waitForSet(t, onDisk, 30*time.Second)
				p.stop(t)
				got := p.numbers()
				var missing, repeated []int
				lost := 0
				for n := 1; n <= 300; n++ {
					switch {
					case onDisk[n] && got[n] == 0:
						missing = append(missing, n)
					case got[n] > 1:
						repeated = append(repeated, n)
					case !onDisk[n] && got[n] == 0:
						lost++
					}
				}
				if len(missing) > 0 || len(repeated) > 0 {
					t.Fatalf("copytruncate: on disk but not alerted %v, alerted twice %v\nlog:\n%s", missing, repeated, p.logs())
				}
				t.Logf("copytruncate: %d rotations, %d of 300 lines lost by copytruncate itself (not on disk, not read in time)", rotations, lost)
				return
			}
			p.waitFor(t, 1, 300, 30*time.Second)
			p.stop(t)
			checkExactlyOnce(t, p.numbers(), 1, 300, p.logs())
		})
	}
}

// numbersOnDisk reads every file in dir and returns the failure numbers
// found in them.
func numbersOnDisk(t *testing.T, dir string) map[int]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if i := strings.Index(line, "Synthetic failure #"); i >= 0 {
				var n int
				if _, err := fmt.Sscanf(line[i:], "Synthetic failure #%d", &n); err == nil {
					out[n] = true
				}
			}
		}
	}
	return out
}

// waitForSet polls until every number in want was alerted or the deadline
// passes.
func (p *proc) waitForSet(t *testing.T, want map[int]bool, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		got := p.numbers()
		done := true
		for n := range want {
			if got[n] == 0 {
				done = false
				break
			}
		}
		if done {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Rename without a pause: the file is renamed away while the writer keeps
// logging, and the writer reopens a new file at the path at once.
func TestRunThroughRenameWithoutPause(t *testing.T) {
	h := newHarness(t)
	logPath := filepath.Join(h.logDir, "server.log")
	if err := os.WriteFile(logPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := h.start()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := h.writer(ctx, logPath, 1, 300, 0.02, "watched")
	writerDone := make(chan error, 1)
	go func() { writerDone <- w.Wait() }()
	for i := 1; ; i++ {
		select {
		case err := <-writerDone:
			if err != nil {
				t.Fatalf("writer: %v", err)
			}
			p.waitFor(t, 1, 300, 30*time.Second)
			p.stop(t)
			checkExactlyOnce(t, p.numbers(), 1, 300, p.logs())
			return
		case <-time.After(1500 * time.Millisecond):
			// The renamed file leaves the glob (*.log): it must still be
			// read to its end.
			if err := os.Rename(logPath, fmt.Sprintf("%s.%d", logPath, i)); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
	}
}

// kill -9 in the middle of the stream, then a restart on the same state
// directory: no failure is lost and at most one is alerted twice.
func TestRunKill9AndRestart(t *testing.T) {
	h := newHarness(t)
	logPath := filepath.Join(h.logDir, "server.log")
	if err := os.WriteFile(logPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := h.start()
	w := h.writer(ctx, logPath, 1, 300, 0.01, "append")
	// Kill once a third has been alerted, while the writer goes on.
	deadline := time.Now().Add(30 * time.Second)
	for len(first.numbers()) < 100 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.done
	if err := w.Wait(); err != nil {
		t.Fatalf("writer: %v", err)
	}
	second := h.start()
	second.waitFor(t, 1, 300, 30*time.Second)
	second.stop(t)

	total := map[int]int{}
	for n, c := range first.numbers() {
		total[n] += c
	}
	for n, c := range second.numbers() {
		total[n] += c
	}
	var missing []int
	repeats := 0
	for n := 1; n <= 300; n++ {
		if total[n] == 0 {
			missing = append(missing, n)
		}
		repeats += max(total[n]-1, 0)
	}
	if len(missing) > 0 || repeats > 1 {
		t.Fatalf("after kill -9: missing %v, %d repeated (at most 1 allowed)\nfirst run alerted %d, second %d\nlog:\n%s",
			missing, repeats, len(first.numbers()), len(second.numbers()), second.logs())
	}
	t.Logf("first run alerted %d failures before kill -9, the restart %d; %d repeated", len(first.numbers()), len(second.numbers()), repeats)
}

// A Kubernetes CRI log file with partial lines and both streams.
func TestRunCRIFile(t *testing.T) {
	h := newHarness(t)
	// The kubelet's layout: pods/<namespace>_<pod>_<uid>/<container>/<n>.log
	dir := filepath.Join(h.logDir, "pods", "sglang_server-0_0e9c1f6a-2b7d-4c57-9a0e-7f1a2b3c4d5e", "sglang")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cri := strings.Join([]string{
		"2026-05-28T00:11:09.000000001Z stdout F [2026-05-28 00:11:09 TP0] Decode batch, #running-req: 1",
		"2026-05-28T00:11:09.000000002Z stderr P [2026-05-28 00:11:09 TP0] Synthetic fail",
		"2026-05-28T00:11:09.000000003Z stdout F [2026-05-28 00:11:09] INFO:     10.0.0.1:1 - \"GET /health HTTP/1.1\" 200 OK",
		"2026-05-28T00:11:09.000000004Z stderr F ure #7 in request",
		"",
	}, "\n")
	if err := os.WriteFile(filepath.Join(dir, "0.log"), []byte(cri), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--no-default-catalog", "--catalog", h.catalog,
		"--path", filepath.Join(h.logDir, "pods", "*", "*", "*.log"), "--format", "cri",
		"--state-dir", h.state, "--group-window", "0", "--http-addr", "127.0.0.1:0"}
	p := &proc{cmd: exec.Command(binary, args...), done: make(chan error, 1)}
	h.collect(p)
	p.waitFor(t, 7, 7, 20*time.Second)
	p.stop(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.alerts) != 1 {
		t.Fatalf("alerts = %d, want 1; log:\n%s", len(p.alerts), p.stderr.String())
	}
	a := p.alerts[0]
	if a.Source.Pod != "server-0" || a.Source.Namespace != "sglang" || a.Source.Container != "sglang" || a.Source.Stream != "stderr" {
		t.Fatalf("source = %+v, want pod identity from the kubelet path and stream stderr", a.Source)
	}
}

// collect starts p and gathers its alerts, like start does.
func (h *harness) collect(p *proc) {
	h.t.Helper()
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		h.t.Fatal(err)
	}
	p.cmd.Stderr = &syncWriter{w: &p.stderr, mu: &p.mu}
	if err := p.cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var a sinks.Alert
			if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
				h.t.Errorf("stdout line is not an alert: %v: %s", err, sc.Text())
				continue
			}
			p.mu.Lock()
			p.alerts = append(p.alerts, a)
			p.mu.Unlock()
		}
		p.done <- p.cmd.Wait()
	}()
	h.t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
		}
	})
}

// stdin mode: a log pipeline plugin, lines in, alert JSON out, exit 0 at
// the end of the input with the repeats summarised.
func TestRunStdin(t *testing.T) {
	in, err := os.ReadFile("../../testdata/logs/seed-ascend.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "run", "--path", "-", "--state-dir", t.TempDir(), "--http-addr", "127.0.0.1:0")
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var a sinks.Alert
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		k := fmt.Sprintf("%s/%d", a.Kind, a.Count)
		for _, c := range a.Consequences {
			k += "+" + c.Slug
		}
		kinds = append(kinds, k)
	}
	// The logger.error line and the traceback settle into one alert, and
	// the parent's SIGQUIT is folded into it, not alerted on its own.
	if want := []string{"new/2+received-sigquit-from-child"}; strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Fatalf("seed record alerts = %v, want %v\nstdout:\n%s", kinds, want, stdout.String())
	}
}

// The wrapped command's output passes through unchanged, both streams are
// matched, and logmatch exits with the command's exit status.
func TestRunWrappedCommand(t *testing.T) {
	py := requireTool(t, "python3")
	script := filepath.Join(t.TempDir(), "child.py")
	err := os.WriteFile(script, []byte(`
import logging, sys
logging.basicConfig(format="[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)
print("plain stdout line", flush=True)
logging.info("Load weight begin. avail mem=61.23 GB")
try:
    raise RuntimeError("Ascend Transfer Engine initialization failed.")
except RuntimeError:
    logging.exception("Scheduler hit an exception:")
sys.exit(3)
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	// Alerts asked on stdout, which the child shares: each is a line of
	// its own there.
	cmd := exec.Command(binary, "run", "--state-dir", t.TempDir(), "--http-addr", "127.0.0.1:0", "--alert-output", "stdout", "--", py, script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("exit = %v, want status 3\nstderr:\n%s", err, stderr.String())
	}
	// Standard output carries the child's own line, unchanged, and the
	// alerts of the stdout sink.
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if lines[0] != "plain stdout line" {
		t.Fatalf("stdout = %q, want the child's line first, unchanged", stdout.String())
	}
	found := false
	for _, l := range lines[1:] {
		var a sinks.Alert
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("stdout line is neither the child's nor an alert: %q", l)
		}
		found = found || (a.Record.ID == "a4a00f79b8728e30" && a.Match.Exception != nil && a.Match.Exception.Type == "RuntimeError")
	}
	if !found {
		t.Fatalf("no alert for the seed record in:\n%s", stdout.String())
	}
	for _, want := range []string{"TP0] Load weight begin.", "RuntimeError: Ascend Transfer Engine initialization failed."} {
		if !strings.Contains(stderr.String(), want) {
			t.Fatalf("child's stderr not passed through (%q missing):\n%s", want, stderr.String())
		}
	}
}

// A webhook that is down (503, then 429 with Retry-After) while failures
// are found, and a logmatch restart during the outage: once the receiver
// recovers, every alert is delivered exactly once.
func TestRunSinkOutageAcrossRestart(t *testing.T) {
	var mu sync.Mutex
	var down = true
	got := map[string]int{} // by Idempotency-Key
	numbers := map[int]int{}
	attempts := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		attempts++
		if down {
			if attempts%2 == 0 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		var a sinks.Alert
		if err := json.NewDecoder(r.Body).Decode(&a); err != nil {
			t.Errorf("webhook body: %v", err)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		got[r.Header.Get("Idempotency-Key")]++
		if n, err := strconv.Atoi(a.Match.Groups["1"]); err == nil {
			numbers[n]++
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()

	h := newHarness(t)
	logPath := filepath.Join(h.logDir, "server.log")
	var b strings.Builder
	for n := 1; n <= 20; n++ {
		fmt.Fprintf(&b, "[2026-05-28 00:11:%02d TP0] Synthetic failure #%d in request\n", n, n)
	}
	if err := os.WriteFile(logPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sink := []string{"--sink", "webhook=" + srv.URL + "/hook"}
	first := h.start(sink...)
	// Wait until the receiver has refused a few attempts, then restart
	// logmatch while it is still down.
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := attempts
		mu.Unlock()
		if n >= 4 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	first.stop(t)
	second := h.start(sink...)
	time.Sleep(500 * time.Millisecond)
	mu.Lock()
	down = false
	mu.Unlock()
	deadline = time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(numbers)
		mu.Unlock()
		if n == 20 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	second.stop(t)
	mu.Lock()
	defer mu.Unlock()
	for n := 1; n <= 20; n++ {
		if numbers[n] != 1 {
			t.Errorf("failure #%d delivered %d times, want exactly once", n, numbers[n])
		}
	}
	for k, c := range got {
		if c != 1 {
			t.Errorf("Idempotency-Key %s delivered %d times", k, c)
		}
	}
	if t.Failed() {
		t.Logf("first run log:\n%s\nsecond run log:\n%s", first.logs(), second.logs())
	}
}

// SIGTERM to logmatch is forwarded to the wrapped command, which decides
// how to exit; logmatch matches its last words and exits with its status.
func TestRunWrappedCommandSignal(t *testing.T) {
	py := requireTool(t, "python3")
	script := filepath.Join(t.TempDir(), "child.py")
	err := os.WriteFile(script, []byte(`
import logging, signal, sys, time
logging.basicConfig(format="[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)
def stop(signum, frame):
    logging.error("SIGQUIT received. signum=None, frame=None. It usually means one child failed.")
    sys.exit(7)
signal.signal(signal.SIGTERM, stop)
print("ready", flush=True)
time.sleep(60)
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "run", "--state-dir", t.TempDir(), "--http-addr", "127.0.0.1:0", "--alert-output", "stdout", "--", py, script)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "ready" {
		t.Fatalf("child did not start: %q %v", sc.Text(), sc.Err())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var alerts []sinks.Alert
	for sc.Scan() {
		var a sinks.Alert
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("stdout line is not an alert: %s", sc.Text())
		}
		alerts = append(alerts, a)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("exit = %v, want the child's status 7\nstderr:\n%s", err, stderr.String())
	}
	if len(alerts) == 0 || alerts[0].Record.Slug == "" {
		t.Fatalf("no alert for the child's last words; stderr:\n%s", stderr.String())
	}
}
