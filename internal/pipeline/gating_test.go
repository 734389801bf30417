package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/health"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
	"github.com/logmatch/logmatch/sinks/stdout"
)

// serverScript behaves like an sglang server, with real Python logging in
// sglang's format on stderr. "start" writes the startup lines and serves
// (hangs); "crash" starts, then the scheduler hits a CUDA illegal memory
// access, logged inside sglang's "Scheduler hit an exception:" wrapper,
// and the process lingers, as a broken server does; "nonfatal" starts,
// logs failures sglang survives and exits with status 3. A second
// argument "exit" makes "crash" exit instead of hanging.
const serverScript = `
import logging, os, sys, time, traceback
mode = sys.argv[1]
logging.basicConfig(stream=sys.stderr, format="[%(asctime)s TP0] %(message)s",
                    datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)
log = logging.getLogger("sglang")

def startup():
    log.info("server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1, port=30000)")
    log.info("Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=61.23 GB, mem usage=15.27 GB.")
    print("INFO:     Started server process [%d]" % os.getpid(), file=sys.stderr, flush=True)
    print("INFO:     Waiting for application startup.", file=sys.stderr, flush=True)
    log.info("The server is fired up and ready to roll!")

def forward_batch_generation(batch):
    raise RuntimeError(
        "CUDA error: an illegal memory access was encountered\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with ` + "`TORCH_USE_CUDA_DSA`" + ` to enable device-side assertions.\n")

def run_batch(batch):
    return forward_batch_generation(batch)

def event_loop_overlap():
    run_batch(None)

def hang():
    sys.stderr.flush()
    while True:
        time.sleep(3600)

startup()
if mode == "start":
    hang()
elif mode == "crash":
    log.info("Decode batch, #running-req: 12, #token: 4096, token usage: 0.31, cuda graph: True, gen throughput (token/s): 1234.5, #queue-req: 0")
    try:
        event_loop_overlap()
    except Exception:
        log.error("Scheduler hit an exception: %s", "".join(traceback.format_exception(*sys.exc_info())))
    if len(sys.argv) > 2 and sys.argv[2] == "exit":
        sys.exit(1)
    hang()
elif mode == "nonfatal":
    log.warning("KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 880, #new_token_ratio: 0.4000 -> 0.6000")
    try:
        raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.20 GiB is free.")
    except Exception:
        log.error("Error in request: %s", "".join(traceback.format_exception(*sys.exc_info())))
    log.info("Decode batch, #running-req: 11, #token: 4000, token usage: 0.30, cuda graph: True, gen throughput (token/s): 1200.0, #queue-req: 0")
    sys.stderr.flush()
    time.sleep(1)
    sys.exit(3)
`

// python resolves the real interpreter behind python3 (a pyenv shim would
// sit between a signal and the child).
func python(t *testing.T) string {
	t.Helper()
	shim, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("python3 is required: %v", err)
		}
		t.Skipf("python3 not found: %v", err)
	}
	out, err := exec.Command(shim, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatalf("python3 -c sys.executable: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func writeScript(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "server.py")
	if err := os.WriteFile(p, []byte(serverScript), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// server runs serverScript with its stderr appended to logPath, as the
// sidecar's wrapper tees it into the shared volume.
type server struct {
	cmd *exec.Cmd
}

func startServer(t *testing.T, py, script, logPath string, args ...string) *server {
	t.Helper()
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(py, append([]string{script}, args...)...)
	cmd.Stderr, cmd.Stdout = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd}
	t.Cleanup(s.kill)
	return s
}

// kill ends the server as the kubelet ends a container that failed its
// liveness probe (after the grace period).
func (s *server) kill() {
	if s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

// gateRun is one logmatch run on a state directory.
type gateRun struct {
	p      *Pipeline
	base   string
	out    *lockedBuffer
	cancel context.CancelFunc
	done   chan error
}

func startRun(t *testing.T, args ...string) *gateRun {
	t.Helper()
	cfg, err := runConfig(args, func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	r := &gateRun{out: &lockedBuffer{}, done: make(chan error, 1)}
	addr := make(chan string, 1)
	r.p, err = New(context.Background(), Options{
		Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Stdout: r.out, Stderr: io.Discard,
		Listening: func(a string) { addr <- a },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- r.p.Run(ctx) }()
	select {
	case a := <-addr:
		r.base = "http://" + a
	case err := <-r.done:
		t.Fatalf("Run: %v", err)
	}
	return r
}

func (r *gateRun) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	waitRun(t, r.done, "after cancel")
}

func (r *gateRun) livez(t *testing.T) (int, string) {
	t.Helper()
	body, code := get(t, r.base+"/livez")
	return code, body
}

func (r *gateRun) waitLivez(t *testing.T, want int) string {
	t.Helper()
	var body string
	eventually(t, fmt.Sprintf("/livez %d", want), func() bool {
		var code int
		code, body = r.livez(t)
		return code == want
	})
	return body
}

// gated returns the alerts that carry a liveness block.
func gated(t *testing.T, out *lockedBuffer) []sinks.Alert {
	var as []sinks.Alert
	for _, a := range out.alerts(t) {
		if a.Liveness != nil {
			as = append(as, a)
		}
	}
	return as
}

func metric(t *testing.T, base, series string) bool {
	body, _ := get(t, base+"/metrics")
	return strings.Contains(body, series)
}

// TestLivezSidecar follows a server's log file as the sidecar does:
// /livez is 200 while it serves, 503 with the reason once the scheduler
// hits a CUDA illegal memory access and the server hangs, still 503 after
// logmatch itself restarts, and 200 again once the server restarted; the
// resolved gate stays resolved across another logmatch restart. The
// second failure, inside the first one's group window, still gets its
// own alert with the flap counter.
func TestLivezSidecar(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	script := writeScript(t, dir)
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(logs, "stderr.log")
	args := []string{"--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"), "--http-addr", "127.0.0.1:0"}

	srv := startServer(t, py, script, logPath, "start")
	r := startRun(t, args...)
	eventually(t, "the startup lines read", func() bool {
		return metric(t, r.base, `logmatch_gate_state{container="",namespace="",pod=""} 0`)
	})
	if code, body := r.livez(t); code != 200 || strings.TrimSpace(body) != "ok" {
		t.Fatalf("/livez of a serving server = %d %q, want 200 ok", code, body)
	}

	srv.kill()
	srv = startServer(t, py, script, logPath, "crash")
	body := r.waitLivez(t, 503)
	for _, want := range []string{
		sinks.LivenessRestart,
		"this server: failing: record ",
		"(cuda-illegal-memory-access) rank TP0 at 20",
		"gated restarts in the last 1h0m0s: 0 of 3",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/livez body lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "illegal memory access was encountered") {
		t.Errorf("/livez body carries log text without http_probe_detail:\n%s", body)
	}
	eventually(t, "the gating alert", func() bool { return len(gated(t, r.out)) == 1 })
	a := gated(t, r.out)[0]
	if a.Record.Slug != "cuda-illegal-memory-access" || a.Kind != "new" || a.Liveness.Reason != sinks.LivenessRestart ||
		a.Liveness.State != "failing" || a.Liveness.Action != "probe" || a.Liveness.GatedRestarts != 0 || a.Liveness.MaxRestarts != 3 {
		t.Fatalf("gating alert = %s %s %+v", a.Record.Slug, a.Kind, *a.Liveness)
	}
	if !metric(t, r.base, `logmatch_gate_state{container="",namespace="",pod=""} 1`) ||
		!metric(t, r.base, `logmatch_gate_trips_total{record_id="`+a.Record.ID+`",state="failing"} 1`) {
		t.Error("/metrics does not show the failing gate and its trip")
	}

	// logmatch restarts while the server hangs: still failing, before any
	// new line is read.
	r.stop(t)
	r = startRun(t, args...)
	if code, body := r.livez(t); code != 503 || !strings.Contains(body, "cuda-illegal-memory-access") {
		t.Fatalf("/livez after a logmatch restart = %d %q, want the failure kept", code, body)
	}

	// The kubelet restarts the server.
	srv.kill()
	srv = startServer(t, py, script, logPath, "start")
	r.waitLivez(t, 200)
	eventually(t, "the gated restart counted", func() bool {
		return metric(t, r.base, "logmatch_gate_restarts_total 1") &&
			metric(t, r.base, `logmatch_gate_restarts_recent{container="",namespace="",pod=""} 1`)
	})

	// It breaks again within the group window: the restart closed the
	// first incident (incident.Grouper.Restarted), so the crash is a new
	// incident of the same fingerprint, and its alert carries the gate's
	// restart, with the counter.
	srv.kill()
	srv = startServer(t, py, script, logPath, "crash")
	r.waitLivez(t, 503)
	eventually(t, "the second gating alert", func() bool { return len(gated(t, r.out)) == 1 })
	a = gated(t, r.out)[0]
	if a.Kind != "new" || a.Liveness.GatedRestarts != 1 || a.Record.Slug != "cuda-illegal-memory-access" {
		t.Fatalf("second gating alert = %s %s %+v", a.Record.Slug, a.Kind, *a.Liveness)
	}

	srv.kill()
	startServer(t, py, script, logPath, "start")
	r.waitLivez(t, 200)
	r.stop(t)
	r = startRun(t, args...)
	if code, body := r.livez(t); code != 200 {
		t.Fatalf("/livez after a logmatch restart = %d %q, want the resolved gate to stay resolved", code, body)
	}
	r.stop(t)
}

// TestOnFatalTerminate wraps a server that crashes and hangs: logmatch
// ends it and exits with ExitTerminatedOnFatal, and the alert says so.
// A server that only logs failures it survives is not touched, and its
// own exit status is kept.
func TestOnFatalTerminate(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	script := writeScript(t, dir)
	run := func(mode string) (*gateRun, error) {
		r := startRun(t, "--state-dir", filepath.Join(dir, "state-"+mode), "--http-addr", "127.0.0.1:0",
			"--on-fatal", "terminate", "--", py, script, mode)
		select {
		case err := <-r.done:
			return r, err
		case <-time.After(60 * time.Second):
			r.p.terminateOnFatal()
			t.Fatalf("%s: the wrapped server was not ended", mode)
		}
		return r, nil
	}

	r, err := run("crash")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := r.p.ExitCode(); got != ExitTerminatedOnFatal {
		t.Fatalf("exit code = %d, want %d (terminated on a fatal failure)", got, ExitTerminatedOnFatal)
	}
	as := gated(t, r.out)
	if len(as) != 1 || as[0].Liveness.Action != "terminate" || as[0].Liveness.Reason != sinks.LivenessRestart {
		t.Fatalf("gating alerts = %+v, want one saying the server is terminated", as)
	}

	r, err = run("nonfatal")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := r.p.ExitCode(); got != 3 {
		t.Fatalf("exit code = %d, want the server's own 3", got)
	}
	if len(r.out.alerts(t)) == 0 {
		t.Fatal("the failures sglang survives were not alerted at all")
	}
	if as := gated(t, r.out); len(as) != 0 {
		t.Fatalf("a failure sglang survives gated: %+v", as[0])
	}
}

// TestNonFatalNeverGates checks, over a file, that failures sglang
// survives (a KV cache retraction, a request's CUDA out of memory) are
// alerted but never fail /livez.
func TestNonFatalNeverGates(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	script := writeScript(t, dir)
	logPath := filepath.Join(dir, "server.log")
	srv := startServer(t, py, script, logPath, "nonfatal")
	if err := srv.cmd.Wait(); err == nil {
		t.Fatal("the nonfatal server exited 0, want 3")
	}
	r := startRun(t, "--path", logPath, "--state-dir", filepath.Join(dir, "state"), "--http-addr", "127.0.0.1:0", "--group-window", "0")
	eventually(t, "the non-gating alerts", func() bool { return r.out.hasSlug(t, "kv-cache-pool-full-retract") })
	if code, body := r.livez(t); code != 200 {
		t.Fatalf("/livez = %d %q after failures sglang survives", code, body)
	}
	if as := gated(t, r.out); len(as) != 0 {
		t.Fatalf("gated alerts %+v", as)
	}
	r.stop(t)
}

// TestFlapGuardAlerts drives the processor with an injected clock through
// failure and restart cycles of one wrapped server: each gating alert
// carries the flap counter, and once MaxRestarts gated restarts happened
// within the window the next failure is held (alerted, /livez passing)
// and does not terminate the command.
func TestFlapGuardAlerts(t *testing.T) {
	store, err := state.Open(t.TempDir(), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	recs := []patterns.Record{
		{ID: "cuda", Slug: "cuda-illegal-memory-access", MessagePattern: `CUDA error: an illegal memory access was encountered`, Severity: patterns.SeverityCritical, Fatal: true},
		{ID: "retract", Slug: "kv-cache-pool-full-retract", MessagePattern: `KV cache pool is full\. Retract requests\.`, Severity: patterns.SeverityWarning},
	}
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var mp atomic.Pointer[matcher.Matcher]
	mp.Store(m)
	now := time.Date(2026, 5, 28, 10, 0, 0, 0, time.UTC)
	terminated := 0
	gate := newGate(store, slog.New(slog.DiscardHandler), nil, health.MonitorOptions{
		Gate: health.Options{MaxRestarts: 2, Window: time.Hour},
		Self: selfTarget(Identity{Pod: "sglang-0"}), Terminate: func() { terminated++ },
	})
	p := newProcessor(&processor{
		log: slog.New(slog.DiscardHandler), store: store, matcher: &mp,
		grouper: incident.New(incident.Options{Window: 0}),
		sinks:   []*builtSink{{name: "stdout", kind: "stdout", sink: stdout.New(nil)}},
		idle:    time.Hour, now: func() time.Time { return now }, gate: gate,
	})
	off := int64(0)
	say := func(msg string) {
		l := source.Line{Next: off + int64(len(msg)) + 1}
		l.Text = "[" + now.Format("2006-01-02 15:04:05") + " TP0] " + msg
		l.Source, l.Offset = "command", off
		off = l.Next
		p.line(l)
		p.flushAll()
	}
	type step struct {
		state    string
		reason   string
		recent   int
		liveness bool
	}
	var got []step
	for range 4 {
		say("KV cache pool is full. Retract requests. #retracted_reqs: 1")
		say("Scheduler hit an exception: RuntimeError: CUDA error: an illegal memory access was encountered")
		for _, a := range p.pending {
			s := step{}
			if a.Liveness != nil {
				s = step{a.Liveness.State, a.Liveness.Reason, a.Liveness.GatedRestarts, true}
			}
			got = append(got, s)
		}
		p.pending = p.pending[:0]
		now = now.Add(10 * time.Minute)
		say("The server is fired up and ready to roll!")
		now = now.Add(time.Minute)
	}
	want := []step{
		{}, {"failing", sinks.LivenessRestart, 0, true},
		{}, {"failing", sinks.LivenessRestart, 1, true},
		{}, {"held", sinks.LivenessHeld, 2, true},
		{}, {"held", sinks.LivenessHeld, 2, true},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(step{})); diff != "" {
		t.Fatalf("alerts per cycle (-want +got):\n%s", diff)
	}
	if terminated != 2 {
		t.Fatalf("terminated %d times, want 2 (held failures terminate nothing)", terminated)
	}
	// The gate's state commits with the offsets.
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	if blob, ok, err := store.Gate(); err != nil || !ok || blob.Version != gateVersion || !strings.Contains(string(blob.Data), `"total":2`) {
		t.Fatalf("committed gate = %v %v %s", ok, err, blob.Data)
	}
}

// TestNodeAgentGates reads two pods' kubelet logs as the node agent does:
// each pod has its own gate in the per-pod samples, and a pod's new
// container log (the kubelet restarted the container) resets only its own,
// at once even when its lines come within the second in which the gate is
// not told again of a target it was just told of (seenEvery).
func TestNodeAgentGates(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 0, time.Millisecond} {
		t.Run(step.String(), func(t *testing.T) { testNodeAgentGates(t, step) })
	}
}

func testNodeAgentGates(t *testing.T, step time.Duration) {
	store, err := state.Open(t.TempDir(), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	m, probs := matcher.Compile([]patterns.Record{
		{ID: "cuda", Slug: "cuda-illegal-memory-access", MessagePattern: `CUDA error: an illegal memory access was encountered`, Severity: patterns.SeverityCritical, Fatal: true},
	}, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var mp atomic.Pointer[matcher.Matcher]
	mp.Store(m)
	now := time.Date(2026, 5, 28, 10, 0, 0, 0, time.UTC)
	gate := newGate(store, slog.New(slog.DiscardHandler), nil, health.MonitorOptions{Self: selfTarget(Identity{Pod: "logmatch-node-x"})})
	p := newProcessor(&processor{
		log: slog.New(slog.DiscardHandler), store: store, matcher: &mp,
		grouper: incident.New(incident.Options{Window: 0}),
		sinks:   []*builtSink{{name: "stdout", kind: "stdout", sink: stdout.New(nil)}},
		idle:    time.Hour, now: func() time.Time { return now }, gate: gate,
	})
	ino := uint64(0)
	say := func(pod, file, msg string) {
		path := "/var/log/pods/llm_" + pod + "_uid-" + pod + "/sglang/" + file
		ino++
		l := source.Line{Path: path, File: source.FileID{Dev: 1, Ino: ino, Size: 1}, Next: 1}
		l.Pod, _ = source.ParsePodPath(path)
		l.Text, l.Source = "[2026-05-28 10:00:00 TP0] "+msg, path
		p.line(l)
		p.flushAll()
		now = now.Add(step)
	}
	states := func() map[string]int {
		out := map[string]int{}
		for _, s := range gateSamples(gate.Status(now)) {
			out[s.Pod] = s.State
		}
		return out
	}
	say("sglang-a", "0.log", "The server is fired up and ready to roll!")
	say("sglang-b", "0.log", "The server is fired up and ready to roll!")
	say("sglang-a", "0.log", "RuntimeError: CUDA error: an illegal memory access was encountered")
	say("sglang-b", "0.log", "RuntimeError: CUDA error: an illegal memory access was encountered")
	if diff := cmp.Diff(map[string]int{"sglang-a": 1, "sglang-b": 1}, states()); diff != "" {
		t.Fatalf("gates after both failed (-want +got):\n%s", diff)
	}
	say("sglang-a", "0.log", "Decode batch, #running-req: 1, #token: 300")
	say("sglang-a", "1.log", "Load weight begin. avail mem=61.23 GB")
	if diff := cmp.Diff(map[string]int{"sglang-a": 0, "sglang-b": 1}, states()); diff != "" {
		t.Fatalf("gates after a's new container log (-want +got):\n%s", diff)
	}
	for _, a := range p.pending {
		if a.Liveness == nil || a.Source.Pod == "" {
			t.Errorf("alert %s of pod %q without a liveness block", a.Record.Slug, a.Source.Pod)
		}
	}
}
