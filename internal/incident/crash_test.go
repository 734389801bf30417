package incident_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// One crash is one incident, led by its cause, whatever else the burst
// holds and in whatever order the writers' buffers put it. These tests
// build bursts from several families of real log lines (a cause, and the
// consequences other processes print around it), scan them through the
// real assembler, matcher, analysis and grouper with the embedded
// catalog, and check the lead against the cause scanned alone.

// crashCause is a failure's own lines: what the lead must name.
type crashCause struct {
	name  string
	lines []string
}

// crashCauses are causes of several families: a Python exception under
// sglang's wrapper, another rank's traceback printed before the wrapper
// whose own body was cut, a native transfer engine's glog line, a
// native library's unheaded lines, a glog burst and NVSHMEM's located
// lines no record names (their first line leads the death after them),
// and an exception no record names.
var crashCauses = []crashCause{
	{"wrapped CUDA OOM", []string{
		"[2025-06-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2311, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		`  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1200, in forward_decode`,
		"    return self.model.forward(",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.05 GiB is free.",
	}},
	{"another rank's traceback before a cut wrapper", []string{
		"[2025-06-01 12:00:01 TP1] Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2311, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		`  File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/flashinfer_backend.py", line 410, in forward_decode`,
		"    o = decode_wrapper.forward(q, kv_buffer)",
		"RuntimeError: CUDA error: an illegal memory access was encountered",
		"[2025-06-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2311, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
	}},
	{"a transfer engine's glog line", []string{
		"E0601 12:00:01.133715 203020 transfer_task.cpp:305] Failed to complete transfers after 60 seconds for batch 140178538656352",
	}},
	{"a native library's unheaded timeout lines", []string{
		"DeepEP timeout for dispatch receivers, rank 3, responsible_channel = 2, tokens remained: 17",
		"DeepEP timeout for dispatch receivers, rank 3, responsible_channel = 5, tokens remained: 9",
	}},
	{"a glog burst no record names", []string{
		"E0601 12:00:01.000001 123 peer_plugin.cpp:300] Failed to parse peer descriptor from metadata: unexpected end of input",
		"E0601 12:00:01.000010 123 session.cpp:500] Session::readBody failed. Error: Connection reset by peer",
		"E0601 12:00:01.000020 124 pool.cpp:100] Worker could not post the request (opcode: 0)",
	}},
	{"NVSHMEM's located bootstrap lines", []string{
		"/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 36 bytes instead of 1",
		"/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:499: non-zero status: -3 /opt/nvshmem/src/host/topo/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed",
	}},
	{"vLLM's engine core dying of CUDA OOM", []string{
		"(EngineCore_DP0 pid=4242) ERROR 06-01 12:00:01 [core.py:708] EngineCore encountered a fatal error.",
		"(EngineCore_DP0 pid=4242) ERROR 06-01 12:00:01 [core.py:708] Traceback (most recent call last):",
		`(EngineCore_DP0 pid=4242) ERROR 06-01 12:00:01 [core.py:708]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 699, in run_engine_core`,
		"(EngineCore_DP0 pid=4242) ERROR 06-01 12:00:01 [core.py:708]     engine_core.run_busy_loop()",
		"(EngineCore_DP0 pid=4242) ERROR 06-01 12:00:01 [core.py:708] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.07 GiB is free.",
	}},
	{"a backend's error and the panic that unwrapped it", []string{
		"[2025-06-01 12:00:01.120] [error] [WASI-NN] GGML backend: Error: prompt too long (900 tokens, max 508)",
		"thread 'main' panicked at src/main.rs:40:10:",
		"called `Result::unwrap()` on an `Err` value: BackendError(InvalidArgument)",
		"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
	}},
	{"an exception no record names", []string{
		"[2025-06-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2311, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/schedule_batch.py", line 877, in prepare_for_extend`,
		"    req.fill_ids = req.origin_input_ids + req.output_ids",
		"KeyError: 'frobnicated_input_ids'",
	}},
}

// crashConsequences are what other processes print when a server dies:
// none may lead over a cause, nor page on its own beside one.
var crashConsequences = []struct {
	name  string
	lines []string
}{
	{"sigquit", []string{"[2025-06-01 12:00:02] Received sigquit from a child process. It usually means the child failed."}},
	{"killed", []string{"Killed"}},
	{"launcher EOFError", []string{
		"Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/entrypoints/engine.py", line 720, in _launch_subprocesses`,
		"    data = scheduler_pipe_readers[i].recv()",
		`  File "/usr/lib/python3.10/multiprocessing/connection.py", line 250, in recv`,
		"    buf = self._recv_bytes()",
		`  File "/usr/lib/python3.10/multiprocessing/connection.py", line 383, in _recv`,
		"    raise EOFError",
		"EOFError",
	}},
	{"c10d watchdog", []string{
		"[rank0]:[E601 12:00:02.123659968 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 3 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 151721, last enqueued NCCL work: 151721, last completed NCCL work: 151720.",
	}},
	{"dead rank", []string{"[2025-06-01 12:00:02] Rank 0 scheduler is dead. Please check if there are relevant logs."}},
	{"subprocess exit", []string{"[2025-06-01 12:00:02] Subprocess scheduler_0 (pid=4242) crashed with exit code -9"}},
	{"vLLM's API server seeing a dead engine", []string{
		"(APIServer pid=1) ERROR 06-01 12:00:02 [async_llm.py:485] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
	}},
	{"torchrun's rank-exit summary", []string{
		"E0601 12:00:03.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 0 (pid: 33054) of binary: /usr/bin/python3",
		"Traceback (most recent call last):",
		`  File "/usr/local/bin/torchrun", line 8, in <module>`,
		"    sys.exit(main())",
		`  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 270, in launch_agent`,
		"    raise ChildFailedError(",
		"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
		"============================================================",
		"serve.py FAILED",
		"------------------------------------------------------------",
		"Root Cause (first observed failure):",
		"[0]:",
		"  time      : 2025-06-01_12:00:03",
		"  rank      : 0 (local_rank: 0)",
		"  exitcode  : 1 (pid: 33054)",
		"============================================================",
	}},
	{"router 500", []string{"2025-06-01T12:00:02.123456Z ERROR sglang_router_rs::middleware: src/middleware.rs:256: request failed with server error status=500"}},
	{"PD router's generic error", []string{"2025-06-01T12:00:02.223456Z ERROR sglang_router_rs::routers::http::pd_router: Decode server returned error status 500 Internal Server Error for request 8f2c"}},
	{"secondary NCCL lines", []string{
		"[rank1]:[E601 12:00:02.000000001 ProcessGroupNCCL.cpp:2057] [PG ID 2 PG GUID 3 Rank 1] Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.",
		"[rank1]:[E601 12:00:02.000000002 ProcessGroupNCCL.cpp:1834] [PG ID 2 PG GUID 3 Rank 1] Process group watchdog thread terminated with exception: [PG ID 2 PG GUID 3 Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600021 milliseconds before timing out.",
	}},
	{"fatal python error", []string{"Fatal Python error: Aborted", "", "Thread 0x00007f3a1bfff640 (most recent call first):", `  File "/usr/lib/python3.10/threading.py", line 320 in wait`}},
	{"a client's vague line", []string{"[2025-06-01 12:00:02] ERROR:    Failed to complete the request"}},
	{"vLLM's stream generator header", []string{"ERROR 06-01 12:00:02 [serving_chat.py:1010] Error in chat completion stream generator."}},
}

// layouts rewrite each line of a burst the way a launcher or a collector
// prefixes it.
var layouts = []struct {
	name string
	line func(string) string
}{
	{"plain", func(s string) string { return s }},
	{"srun task label", func(s string) string { return "0: " + s }},
	{"compose column", func(s string) string { return "sglang-1  | " + s }},
	{"mpirun tag", func(s string) string { return "[1,0]<stderr>:" + s }},
	{"kubectl timestamps", func(s string) string { return "2025-06-01T12:00:09.123456789Z " + s }},
	{"journald", func(s string) string { return "Jun 01 12:00:09 node-3 sglang[4242]: " + s }},
}

var healthy = []string{
	"[2025-06-01 12:00:00 TP0] Decode batch. #running-req: 3, #token: 5120, token usage: 0.04, gen throughput (token/s): 811.20, #queue-req: 0,",
	`[2025-06-01 12:00:00] INFO:     127.0.0.1:43236 - "POST /v1/chat/completions HTTP/1.1" 200 OK`,
}

func crashMatcher(t *testing.T) *matcher.Matcher {
	t.Helper()
	m, problems, err := catalog.Load(catalog.Spec{})
	for _, p := range problems {
		if p.Level == patterns.LevelError {
			t.Errorf("default catalog: %v", p)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func scanLines(t *testing.T, m *matcher.Matcher, lines []string) []sinks.Alert {
	t.Helper()
	s := scan.New(m, scan.Options{Entry: entry.Options{}, Now: func() time.Time { return time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC) }})
	res, err := s.Scan(context.Background(), []scan.Input{{Name: "burst.log", R: strings.NewReader(strings.Join(lines, "\n") + "\n")}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Alerts
}

// leadOf names what an alert leads with: its record, or for an
// unclassified lead its exception.
func leadOf(a sinks.Alert) string {
	if a.Record.ID != "" {
		return a.Record.Slug
	}
	if x := a.Match.Exception; x != nil && x.Type != "" {
		return "unclassified " + x.Type + ": " + x.Message
	}
	return "unclassified " + a.Headline
}

func describe(as []sinks.Alert) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "\n  %s (%s)", leadOf(a), a.Record.Role)
	}
	return b.String()
}

// TestACrashIsLedByItsCause puts each cause among up to two consequences,
// at every position, under every layout: one incident, led as the cause
// alone is led, whose lead is never a consequence or a wrapper.
func TestACrashIsLedByItsCause(t *testing.T) {
	m := crashMatcher(t)
	for _, c := range crashCauses {
		alone := scanLines(t, m, c.lines)
		if len(alone) != 1 {
			t.Fatalf("%s alone: %d incidents, want 1:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		if r := alone[0].Record.Role; r == string(patterns.RoleConsequence) || r == string(patterns.RoleWrapper) {
			t.Fatalf("%s alone is led by a %s: %s", c.name, r, want)
		}
		for i := range crashConsequences {
			for j := i; j < len(crashConsequences); j++ {
				cons := [][]string{crashConsequences[i].lines}
				name := crashConsequences[i].name
				if j != i {
					cons = append(cons, crashConsequences[j].lines)
					name += "+" + crashConsequences[j].name
				}
				for pos := 0; pos <= len(cons); pos++ {
					var blocks [][]string
					blocks = append(blocks, cons[:pos]...)
					blocks = append(blocks, c.lines)
					blocks = append(blocks, cons[pos:]...)
					for _, l := range layouts {
						lines := []string{l.line(healthy[0]), l.line(healthy[1])}
						for _, b := range blocks {
							for _, s := range b {
								lines = append(lines, l.line(s))
							}
						}
						got := scanLines(t, m, lines)
						if len(got) != 1 || leadOf(got[0]) != want {
							t.Errorf("%s with %s, cause at %d, %s: want one incident led by %s, got %d:%s\n%s",
								c.name, name, pos, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
						}
					}
				}
			}
		}
	}
}

// TestIndependentFailuresStaySeparate: two different failures separated
// by healthy activity are two incidents, each led by its own cause.
func TestIndependentFailuresStaySeparate(t *testing.T) {
	m := crashMatcher(t)
	later := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, s := range lines {
			out[i] = strings.Replace(s, "2025-06-01 12:00:0", "2025-06-01 12:40:0", 1)
		}
		return out
	}
	for i, a := range crashCauses {
		for j, b := range crashCauses {
			if i == j || !strings.HasPrefix(a.lines[0], "[") || !strings.HasPrefix(b.lines[0], "[") {
				continue
			}
			var lines []string
			lines = append(lines, a.lines...)
			for k := 0; k < 20; k++ {
				lines = append(lines, strings.Replace(healthy[0], "12:00:00", fmt.Sprintf("12:%02d:00", 10+k), 1))
			}
			lines = append(lines, later(b.lines)...)
			got := scanLines(t, m, lines)
			wa, wb := leadOf(scanLines(t, m, a.lines)[0]), leadOf(scanLines(t, m, b.lines)[0])
			if len(got) != 2 || leadOf(got[0]) != wa || leadOf(got[1]) != wb {
				t.Errorf("%s, healthy lines, then %s: want two incidents led by %s and %s, got %d:%s",
					a.name, b.name, wa, wb, len(got), describe(got))
			}
		}
	}
}

// TestABorrowedTimeIsALowerBound: lines without a timestamp of their own
// (a native library's) happened at or after the last time before them, so
// a router's error printed right after them, a little later than that
// time, is of their burst; the same error after a stretch of healthy
// serving is an incident of its own.
func TestABorrowedTimeIsALowerBound(t *testing.T) {
	m := crashMatcher(t)
	deepep := crashCauses[slices.IndexFunc(crashCauses, func(c crashCause) bool { return strings.HasPrefix(c.name, "a native library's") })]
	router := "2025-06-01T12:00:05.223456Z ERROR sglang_router_rs::routers::http::pd_router: Decode server returned error status 500 Internal Server Error for request 8f2c"
	lines := append([]string{healthy[0], healthy[1]}, deepep.lines...)
	if got := scanLines(t, m, append(lines, router)); len(got) != 1 || got[0].Record.Slug != "deepep-timeout" {
		t.Errorf("right after the lines: want one incident led by deepep-timeout, got %d:%s", len(got), describe(got))
	}
	for k := 0; k < 40; k++ {
		lines = append(lines, strings.Replace(healthy[0], "12:00:00", fmt.Sprintf("12:00:%02d", 1+k%4), 1))
	}
	if got := scanLines(t, m, append(lines, router)); len(got) != 2 {
		t.Errorf("after healthy serving: want two incidents, got %d:%s", len(got), describe(got))
	}
}

// TestALineRightBeforeItsExceptionIsOfItsCrash: a line without a time of
// its own (the C++ runtime's "terminate called after throwing") printed
// right before the exception it announces is of that crash, whatever the
// exception's own time says: a glog or c10d line's guessed year, or a clock
// apart from the serving lines', can put it months from the time the line
// borrowed. With lines between them, times decide as before.
func TestALineRightBeforeItsExceptionIsOfItsCrash(t *testing.T) {
	m := crashMatcher(t)
	terminate := "terminate called after throwing an instance of 'c10::DistBackendError'"
	for _, tt := range []struct {
		name, stamp string
		between     []string
		want        int
	}{
		{"the exception dated with the serving lines", "E601 12:00:02.100000000", nil, 1},
		{"the exception dated months before them", "E802 22:07:03.844033572", nil, 1},
		{"the exception dated months after them", "E1120 09:10:11.000000000", nil, 1},
		{"the same months apart, serving lines between", "E802 22:07:03.844033572", healthy, 2},
	} {
		lines := append(slices.Clone(healthy), terminate)
		lines = append(lines, tt.between...)
		lines = append(lines, "[rank2]:["+tt.stamp+" ProcessGroupNCCL.cpp:2119] [PG ID 2 PG GUID 3 Rank 2] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered")
		got := scanLines(t, m, lines)
		if len(got) != tt.want || got[0].Record.Slug != "cuda-illegal-memory-access" && tt.want == 1 {
			t.Errorf("%s: want %d incidents led by cuda-illegal-memory-access, got %d:%s", tt.name, tt.want, len(got), describe(got))
		}
	}
}

// TestADumpRightBeforeItsTimeoutIsOfItsHang: the tail of a py-spy dump
// (thread blocks without a time of their own) printed right before the
// watchdog's timeout line is that hang's, whatever the timeout line's own
// time says against the time the dump borrowed from the lines before it:
// the same hang again after a restart's lines (dated years before the
// timeout, as a paste of two runs may show them) is no hang of its own.
func TestADumpRightBeforeItsTimeoutIsOfItsHang(t *testing.T) {
	m := crashMatcher(t)
	dump := []string{
		`Thread 4410 (idle): "Thread-7 (watchdog_thread)"`,
		"    select (selectors.py:415)",
		"    _communicate (subprocess.py:2115)",
		"    communicate (subprocess.py:1209)",
		"    run (subprocess.py:550)",
		"    pyspy_dump_schedulers (utils/common.py:2218)",
		"    watchdog_thread (scheduler.py:2257)",
		"    run (threading.py:1012)",
		"    _bootstrap_inner (threading.py:1075)",
		"    _bootstrap (threading.py:1032)",
		"",
	}
	timeout := "[2025-10-29 11:25:58 TP3] Watchdog timeout (self.watchdog_timeout=300)"
	crash := append(slices.Clone(dump), timeout)
	restart := []string{
		"[2020-01-01 01:00:00] server_args=ServerArgs(model_path='/models/Qwen3-8B', tp_size=1, port=30000)",
		"[2020-01-01 01:00:09] The server is fired up and ready to roll!",
		"[2020-01-01 00:00:04] INFO:     10.0.3.17:50004 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
		"[2020-01-01 00:00:05] INFO:     10.0.3.17:50005 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
		"",
	}
	lines := append(append(slices.Clone(crash), restart...), crash...)
	got := scanLines(t, m, lines)
	if len(got) != 2 {
		t.Errorf("want two incidents, one per crash, got %d:%s", len(got), describe(got))
	}
	for _, a := range got {
		if a.Record.Slug != "watchdog-timeout-legacy" {
			t.Errorf("want every incident led by watchdog-timeout-legacy, got %d:%s", len(got), describe(got))
			break
		}
	}
}

// TestAnEngineWrapperYieldsToTheCauseItCarries: any engine's header that
// only says a process failed (vLLM's worker and engine core, sglang's
// scheduler, LMDeploy's rank, TensorRT-LLM's executor, TGI's shard) is
// context of the library failure printed with it, before or after it: the
// cause leads one incident.
func TestAnEngineWrapperYieldsToTheCauseItCarries(t *testing.T) {
	m := crashMatcher(t)
	wrappers := []string{
		"(VllmWorker rank=0 pid=80495) ERROR 08-05 09:42:09 [multiproc_executor.py:962] WorkerProc hit an exception.",
		"(EngineCore_0 pid=80400) ERROR 08-05 09:42:10 [core.py:708] EngineCore failed to start.",
		"[2025-08-05 09:42:10 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		"2025-08-05 09:42:10,100 - lmdeploy - ERROR - engine.py:123 - Rank[0] failed.",
		"[08/05/2025-09:42:10] [TRT-LLM] [E] Failed to initialize executor on rank 0: register memory failed",
		"2025-08-05T09:42:10.123456Z ERROR text_generation_launcher: Shard 0 failed to start",
	}
	causes := []struct{ line, slug string }{
		{"E0805 09:42:09.763501 80495 ascend_direct_transport.cpp:460] Register mem ret:103900.", "mooncake-memory-registration-failed"},
		{"node-1:312:401 [0] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR", "nccl-ib-modify-qp-failed"},
	}
	for _, w := range wrappers {
		for _, c := range causes {
			for _, order := range [][]string{{c.line, w}, {w, c.line}} {
				got := scanLines(t, m, order)
				if len(got) != 1 || got[0].Record.Slug != c.slug {
					t.Errorf("%q then %q: want one incident led by %s, got %d:%s", order[0], order[1], c.slug, len(got), describe(got))
				}
			}
		}
	}
}

// TestAnInterconnectFailureLeadsTheCrashItCauses: through the whole
// pipeline, NCCL's InfiniBand completion error (either release's wording)
// printed first leads the CUDA failure its process reports after it; a
// CUDA failure printed first, or another process's out of memory, keeps
// the lead.
func TestAnInterconnectFailureLeadsTheCrashItCauses(t *testing.T) {
	m := crashMatcher(t)
	ibOld := "gpu5:35917:35994 [0] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129"
	ibNew := "gpu5:35917:35994 [0] transport/net_ib/p2p.cc:688 NCCL WARN NET/IB : Got completion from peer 10.0.0.4<48392> with error 12, opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.3 remoteGids::ffff:10.0.0.4 hca mlx5_1"
	chain := []string{"gpu5:35917:35994 [0] NCCL INFO include/net.h:34 -> 2", "gpu5:35917:35994 [0] NCCL INFO transport/net.cu:537 -> 2"}
	fault := "gpu5:35917:35917 [1] init.cu:194 NCCL WARN Cuda failure 'an illegal memory access was encountered'"
	peerOOM := "gpu5:35999:36001 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'"
	for _, tt := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"older wording, then the process's CUDA failure", append(append([]string{ibOld}, chain...), fault), "nccl-ib-completion-error"},
		{"newer wording, then the process's CUDA failure", append(append([]string{ibNew}, chain...), fault), "nccl-ib-completion-error"},
		{"the CUDA failure first", append([]string{fault}, ibOld), "cuda-illegal-memory-access"},
		{"another process's out of memory", append(append([]string{ibOld}, chain...), peerOOM), "cuda-error-out-of-memory"},
	} {
		for _, l := range layouts {
			// The process is read from NCCL's prefix behind a
			// launcher's label as without one.
			lines := make([]string, len(tt.lines))
			for i, s := range tt.lines {
				lines[i] = l.line(s)
			}
			got := scanLines(t, m, lines)
			if len(got) == 0 || got[0].Record.Slug != tt.want {
				t.Errorf("%s, %s: want the lead %s, got %d:%s", tt.name, l.name, tt.want, len(got), describe(got))
			}
		}
	}
}

// TestAHangIsLedByTheDumpThatNamesWhere: a watchdog's dump of the running
// batch says a process hung but not where; a py-spy dump of the same burst
// names the hung thread's frames. One hang, one incident, led by the
// frames, in either order; the same dumps far apart are two hangs.
func TestAHangIsLedByTheDumpThatNamesWhere(t *testing.T) {
	m := crashMatcher(t)
	batch := []string{"[2025-06-01 12:00:01 DP3 TP7] self.cur_batch.batch_size()=1, self.cur_batch.reqs=[Req(rid=7138, input_ids=[0, 671], output_ids=[11111])]"}
	pyspy := func(at string) []string {
		return []string{
			"[2025-06-01 " + at + " DP1 TP3] Pyspy dump for PID 231810:",
			"Process 231810: sglang::scheduler_DP1_TP3",
			"Python v3.10.12 (/usr/bin/python3.10)",
			"",
			`Thread 231810 (active): "MainThread"`,
			"    draft (eagle_worker.py:397)",
			"    forward_batch_speculative_generation (eagle_worker.py:267)",
			"    run_batch (scheduler.py:1573)",
			"    event_loop_normal (scheduler.py:646)",
		}
	}
	const where = "draft (eagle_worker.py:397)"
	for _, tt := range []struct {
		name  string
		lines []string
		want  int
	}{
		{"batch dump, then the py-spy dump", append(slices.Clone(batch), pyspy("12:00:01")...), 1},
		{"py-spy dump, then the batch dump", append(pyspy("12:00:01"), batch...), 1},
		{"the two dumps forty minutes apart", append(slices.Clone(batch), pyspy("12:40:01")...), 2},
	} {
		got := scanLines(t, m, tt.lines)
		if len(got) != tt.want {
			t.Errorf("%s: %d incidents, want %d:%s", tt.name, len(got), tt.want, describe(got))
			continue
		}
		if tt.want == 1 && (!strings.Contains(got[0].Match.Text, where) || len(got[0].Context) != 1) {
			t.Errorf("%s: lead %q with context %+v, want the hung thread's frames with the batch dump as context", tt.name, got[0].Match.Text, got[0].Context)
		}
	}
}

// TestARoutineNativeErrorLineAloneIsNoCrash: a native library's single
// error line, no record naming it, printed by a thread right after an INFO
// line of its own, while the start-up goes on, is no incident; the same
// line repeated, after another thread's line, with a death after it or
// with other errors of its burst, is announced as before.
func TestARoutineNativeErrorLineAloneIsNoCrash(t *testing.T) {
	m := crashMatcher(t)
	info := "I0925 00:24:39.140945  4418 store_client.cpp:214] Connecting to the master at 10.0.0.1:50051"
	errLine := "E0925 00:24:39.141773  4418 store_client.cpp:353] Failed to get the storage directory from the master"
	after := []string{
		"I0925 00:24:39.141781  4418 store_client.cpp:103] auto discovery set by env",
		"I0925 00:24:39.144016  4418 store_plugin.cpp:1100] Found active interface eth0 with IP 10.0.0.2",
	}
	tests := []struct {
		name  string
		lines []string
		want  int
	}{
		{"alone amid its thread's INFO lines", append([]string{info, errLine}, after...), 0},
		{"at the end of the paste", []string{info, errLine}, 0},
		// Near misses: announced.
		{"repeated", append([]string{info, errLine, errLine}, after...), 1},
		{"after another thread's INFO line", append([]string{strings.Replace(info, "4418", "4420", 1), errLine}, after...), 1},
		{"with no INFO line before it", append([]string{errLine}, after...), 1},
		{"then the process dies", []string{info, errLine, "Killed"}, 1},
		{"then another error of the library", []string{info, errLine, "E0925 00:24:39.150000  4418 store_client.cpp:400] Failed to mount the segment: connection refused"}, 1},
	}
	for _, tt := range tests {
		for _, l := range layouts {
			var lines []string
			for _, s := range tt.lines {
				lines = append(lines, l.line(s))
			}
			if got := scanLines(t, m, lines); len(got) != tt.want {
				t.Errorf("%s, %s: %d incidents, want %d:%s", tt.name, l.name, len(got), tt.want, describe(got))
			}
		}
	}
}

// TestALibraryFailureLeadsTheDeathItEndsIn: a library's classified native
// failure (c10d's watchdog timing out a collective) and the process's
// death after it ("terminate called ...", faulthandler's abort, the
// shell's "Aborted"), which names no library, are one incident led by the
// library's line in every layout: the death is a detail of whichever
// library's event it ends.
func TestALibraryFailureLeadsTheDeathItEndsIn(t *testing.T) {
	m := crashMatcher(t)
	cause := "[E601 12:00:01.000000000 ProcessGroupNCCL.cpp:828] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=60000) ran for 69662 milliseconds before timing out."
	for _, death := range []string{
		"terminate called after throwing an instance of 'std::runtime_error'",
		"Fatal Python error: Aborted",
		"Aborted (core dumped)",
	} {
		for _, l := range layouts {
			lines := []string{l.line(healthy[0]), l.line(cause), l.line(death)}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != "nccl-watchdog-collective-timeout" {
				t.Errorf("%q after the watchdog, %s: want one incident led by nccl-watchdog-collective-timeout, got %d:%s", death, l.name, len(got), describe(got))
			}
		}
	}
}

// TestACutTracebackIsMatchedByTheCallItWasCutIn: a traceback cut before its
// exception line, which no record names, pages unclassified; its matched
// line names where it was cut, the call the program made past a library's
// dispatch frames and the deepest frame's File line, after its header.
func TestACutTracebackIsMatchedByTheCallItWasCutIn(t *testing.T) {
	m := crashMatcher(t)
	got := scanLines(t, m, []string{
		"Traceback (most recent call last):",
		`  File "/app/train.py", line 37, in train`,
		"    ray.get(actor.init_connections(manager))",
		`  File "/venv/ray/_private/client_mode_hook.py", line 104, in wrapper`,
		"    return func(*args, **kwargs)",
		`  File "/venv/ray/_private/worker.py", line 958, in get_objects`,
		"    raise value.as_instanceof_cause()",
	})
	if len(got) != 1 {
		t.Fatalf("%d incidents, want 1:%s", len(got), describe(got))
	}
	want := "Traceback (most recent call last): … ray.get(actor.init_connections(manager)) (in train) … " +
		`File "/venv/ray/_private/worker.py", line 958, in get_objects`
	if got[0].Record.Slug != "unclassified" || got[0].Match.Text != want {
		t.Errorf("lead %s %q, want unclassified %q", got[0].Record.Slug, got[0].Match.Text, want)
	}
}

// TestALibrarysErrorLinesAreOneIncident: a library that fails logs its
// failure, then what it could not do because of it, each an ERROR line no
// record names. Printed by one writer (one logger, one header) within one
// burst of one source they are one incident led by the first line, in any
// logger's shape; the same lines apart, after a stretch of healthy
// serving, are two, and so are two writers' lines; a traceback among them
// still leads, as an unclassified failure says more than a generic line.
func TestALibrarysErrorLinesAreOneIncident(t *testing.T) {
	m := crashMatcher(t)
	shapes := []struct {
		name string
		line func(t, msg string) string
	}{
		{"bracketed time and a library's level", func(t, msg string) string { return "[2025-09-04 " + t + ",159] KVPool ERROR: " + msg }},
		{"python logging", func(t, msg string) string { return "2025-09-04 " + t + ",160 - kvpool.connector - ERROR - " + msg }},
		{"vLLM's header", func(t, msg string) string { return "ERROR 09-04 " + t + " [connector.py:360] " + msg }},
	}
	msgs := []string{
		"fetch_blocks failed: 'kvpool.store.Client' object has no attribute 'fetch_blocks'",
		"Fetched fewer blocks than were promised by the index: 0 of 239",
		"Num fetched blocks: 0, num promised blocks: 15",
	}
	for _, s := range shapes {
		var burst []string
		for _, msg := range msgs {
			burst = append(burst, s.line("01:00:51", msg))
		}
		got := scanLines(t, m, burst)
		if len(got) != 1 || !strings.Contains(got[0].Headline, "fetch_blocks failed") {
			t.Errorf("%s: want one incident led by the first line, got %d:%s", s.name, len(got), describe(got))
		}
		if len(got) == 1 && len(got[0].Consequences) != len(msgs)-1 {
			t.Errorf("%s: %d lines listed in the incident, want %d", s.name, len(got[0].Consequences), len(msgs)-1)
		}

		apart := []string{s.line("01:00:51", msgs[0])}
		for k := 0; k < 20; k++ {
			apart = append(apart, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-09-04 01:%02d:00", 10+k), 1))
		}
		apart = append(apart, s.line("01:40:51", msgs[1]))
		if got := scanLines(t, m, apart); len(got) != 2 {
			t.Errorf("%s, healthy lines between: want two incidents, got %d:%s", s.name, len(got), describe(got))
		}

		other := []string{s.line("01:00:51", msgs[0]),
			strings.Replace(strings.Replace(s.line("01:00:51", msgs[1]), "KVPool", "Loader", 1), "kvpool.connector", "app.loader", 1)}
		if strings.Contains(other[1], "[connector.py") {
			other[1] = strings.Replace(other[1], "[connector.py:360]", "[loader.py:88]", 1)
		}
		if got := scanLines(t, m, other); len(got) != 2 {
			t.Errorf("%s, two writers: want two incidents, got %d:%s", s.name, len(got), describe(got))
		}

		traced := append([]string{s.line("01:00:51", msgs[1])},
			"Traceback (most recent call last):",
			`  File "/srv/kvpool/connector.py", line 360, in fetch`,
			"    self.store.fetch_blocks(keys)",
			"AttributeError: 'Client' object has no attribute 'fetch_blocks'",
			s.line("01:00:51", msgs[2]))
		got = scanLines(t, m, traced)
		if len(got) != 1 || leadOf(got[0]) != "unclassified AttributeError: 'Client' object has no attribute 'fetch_blocks'" {
			t.Errorf("%s, a traceback among them: want one incident led by it, got %d:%s", s.name, len(got), describe(got))
		}
	}
}

// TestALibrarysNextLineAfterAWaitEndsItsEvent: c10d's heartbeat monitor
// finds the watchdog stuck, dumps its debug information for minutes, then
// aborts with a FATAL line no record names. Printed next by the same
// library for the same rank, however long after, within the correlation
// window, that line ends the same event: one incident. Another rank's
// line, one after a stretch of other lines, one past the correlation
// window, or an error line that ends nothing minutes later is apart.
func TestALibrarysNextLineAfterAWaitEndsItsEvent(t *testing.T) {
	m := crashMatcher(t)
	stuck := func(rank, at string) []string {
		pg := "[PG ID 0 PG GUID 0(default_pg) Rank " + rank + "]"
		return []string{
			"[rank" + rank + "]:[E429 " + at + ".384372190 ProcessGroupNCCL.cpp:1743] " + pg + " ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog.",
			"[rank" + rank + "]:[E429 " + at + ".384620373 ProcessGroupNCCL.cpp:1533] " + pg + " ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1",
		}
	}
	fatal := func(rank, at string) string {
		pg := "[PG ID 0 PG GUID 0(default_pg) Rank " + rank + "]"
		return "[rank" + rank + "]:[F429 " + at + ".385461578 ProcessGroupNCCL.cpp:1554] " + pg + " " + pg + " Terminating the process after attempting to dump debug info, due to collective timeout or exception."
	}
	want := leadOf(scanLines(t, m, stuck("6", "13:55:49"))[0])
	for _, l := range layouts {
		lines := func(ss ...string) []string {
			out := make([]string, len(ss))
			for i, s := range ss {
				out[i] = l.line(s)
			}
			return out
		}
		for _, wait := range []string{"13:55:50", "14:03:49", "14:09:00"} {
			got := scanLines(t, m, lines(append(stuck("6", "13:55:49"), fatal("6", wait))...))
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s, the abort at %s: want one incident led by %s, got %d:%s", l.name, wait, want, len(got), describe(got))
			}
		}
		if got := scanLines(t, m, lines(append(stuck("6", "13:55:49"), fatal("2", "14:03:49"))...)); len(got) != 2 {
			t.Errorf("%s, another rank's abort: want two incidents, got %d:%s", l.name, len(got), describe(got))
		}
		errorLine := strings.Replace(strings.Replace(fatal("6", "14:03:49"), "[F429", "[E429", 1), "Terminating the process after attempting to dump debug info", "Failed to open the debug dump file", 1)
		if got := scanLines(t, m, lines(append(stuck("6", "13:55:49"), errorLine)...)); len(got) != 2 {
			t.Errorf("%s, an error line minutes later that ends nothing: want two incidents, got %d:%s", l.name, len(got), describe(got))
		}
		if got := scanLines(t, m, lines(append(stuck("6", "13:55:49"), fatal("6", "14:30:49"))...)); len(got) != 2 {
			t.Errorf("%s, an abort past the correlation window: want two incidents, got %d:%s", l.name, len(got), describe(got))
		}
		between := stuck("6", "13:55:49")
		for k := 0; k < 60; k++ {
			between = append(between, fmt.Sprintf("[2026-04-29 13:%02d:%02d TP6] Decode batch. #running-req: 3, #token: 5120, token usage: 0.04, gen throughput (token/s): 811.20, #queue-req: 0,", 56+k/60, k%60))
		}
		if got := scanLines(t, m, lines(append(between, fatal("6", "14:03:49"))...)); len(got) != 2 {
			t.Errorf("%s, an abort after a stretch of serving: want two incidents, got %d:%s", l.name, len(got), describe(got))
		}
	}
}

// TestAnExceptionCarryingAnEarlierOnesMessageIsItsConsequence: the caller
// that waited on failed work raises an exception of its own with the
// failure's message in it ("Exception: Error executing request 7: <the
// message>", "RuntimeError: worker 2 failed: <the message>"). Printed
// after the failure's traceback in its burst, it is listed in the
// failure's incident, in any layout; a short message said of many, or
// another message, stays apart.
func TestAnExceptionCarryingAnEarlierOnesMessageIsItsConsequence(t *testing.T) {
	m := crashMatcher(t)
	failure := func(typ, msg string) []string {
		return []string{
			"Traceback (most recent call last):",
			`  File "/srv/app/models/dit.py", line 66, in forward`,
			"    self.mlp[0].weight.dtype",
			typ + ": " + msg,
		}
	}
	caller := func(typ, msg string) []string {
		return []string{
			"[2025-12-10 18:50:28] Failed to generate output for prompt 1: " + msg,
			"Traceback (most recent call last):",
			`  File "/srv/app/entrypoints/generator.py", line 276, in generate`,
			`    raise ` + typ + `(f"{output_batch.error}")`,
			typ + ": " + msg,
		}
	}
	const inner = "'LoRALayer' object has no attribute 'weight'"
	for _, tt := range []struct {
		name         string
		first, later []string
		want         int
	}{
		{"a request's error carrying the worker's message",
			failure("AttributeError", inner), caller("Exception", "Error executing request 7: "+inner), 1},
		{"a worker pool's error carrying it",
			failure("ValueError", "max_model_len exceeds the rope scaling limit of 32768"),
			caller("RuntimeError", "worker 2 failed: max_model_len exceeds the rope scaling limit of 32768"), 1},
		{"a short message said of many stays apart",
			failure("KeyError", "'weight'"), caller("Exception", "Error executing request 7: 'weight'"), 2},
		{"another message stays apart",
			failure("AttributeError", inner), caller("Exception", "Error executing request 7: the output queue was closed"), 2},
	} {
		for _, l := range layouts {
			var lines []string
			for _, s := range append(append([]string{}, tt.first...), tt.later...) {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != tt.want {
				t.Errorf("%s, %s: want %d incidents, got %d:%s", tt.name, l.name, tt.want, len(got), describe(got))
				continue
			}
			if want := "unclassified " + tt.first[len(tt.first)-1]; leadOf(got[0]) != want {
				t.Errorf("%s, %s: want the lead %s, got %s", tt.name, l.name, want, leadOf(got[0]))
			}
		}
	}
}

// TestARequestsErrorAfterTheEngineDiedFoldsIntoIt: an API server logs
// each request that ran into a dead engine under a consequence header
// ("Error in chat completion stream generator.") with the exception it
// got, which no record names. Seconds after the engine's own failure it
// is that failure's consequence: one incident, led by the engine's cause;
// alone, it is alerted as the exception it carries.
func TestARequestsErrorAfterTheEngineDiedFoldsIntoIt(t *testing.T) {
	m := crashMatcher(t)
	engine := crashCauses[slices.IndexFunc(crashCauses, func(c crashCause) bool { return strings.HasPrefix(c.name, "vLLM's engine core") })]
	request := func(at, exc string) []string {
		var out []string
		for _, l := range []string{
			"Error in chat completion stream generator.",
			"Traceback (most recent call last):",
			`  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line 642, in chat_completion_stream_generator`,
			"    async for res in result_generator:",
			exc,
		} {
			out = append(out, "(APIServer pid=1) ERROR 06-01 "+at+" [serving_chat.py:1001] "+l)
		}
		return out
	}
	want := leadOf(scanLines(t, m, engine.lines)[0])
	for _, exc := range []string{
		"RuntimeError: Engine loop is not running, the request cannot be served",
		"vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
	} {
		for _, at := range []string{"12:00:01", "12:00:12"} {
			got := scanLines(t, m, append(append([]string{}, engine.lines...), request(at, exc)...))
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("the engine's failure, then at %s %q: want one incident led by %s, got %d:%s", at, exc, want, len(got), describe(got))
			}
		}
	}
	// An exception of a library no record knows.
	alone := scanLines(t, m, request("12:00:01", "tokparse.ParseError: stray token 'zq' after the channel marker"))
	if len(alone) != 1 || leadOf(alone[0]) != "unclassified tokparse.ParseError: stray token 'zq' after the channel marker" {
		t.Errorf("the request's error alone: want one incident led by its exception, got %d:%s", len(alone), describe(alone))
	}
}
