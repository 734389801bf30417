package entry

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/ascii"
)

// prefixView is the part of an Entry the learned-prefix tests look at.
type prefixView struct {
	Lines  string
	Format Format
	Level  string
	Prefix string
	Msg    string
	Exc    string
}

func prefixViews(es []Entry) []prefixView {
	out := make([]prefixView, len(es))
	for i, v := range views(es) {
		out[i] = prefixView{v.Lines, es[i].Format, es[i].Level, es[i].Prefix, v.Msg, v.Exc}
	}
	return out
}

func TestAssemblerLearnedPrefix(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []prefixView
	}{
		{
			// ai-dynamo/dynamo#1422, as posted (with the paste's indent):
			// dynamo relays its subprocess's stderr line by line as
			// DEBUG tracing records.
			name: "Rust tracing record around every traceback line",
			in: `    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess: Traceback (most recent call last):
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:   File "/tmp/.tmpBzdG3l", line 202, in init
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:     engine_client = await engine_context.__aenter__()
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:   File "/usr/lib/python3.12/contextlib.py", line 210, in __aenter__
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:     return await anext(self.gen)
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:            ^^^^^^^^^^^^^^^^^^^^^
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:   File "/opt/dynamo/venv/lib/python3.12/site-packages/vllm/entrypoints/openai/api_server.py", line 269, in build_async_engine_client_from_engine_args
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:     raise RuntimeError(
    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess: RuntimeError: Engine process failed to start. See stack trace for the root cause.
    2025-06-06T19:57:40.419Z DEBUG dynamo_run::subprocess: 2025-06-06T19:57:40.419Z DEBUG client.run_metrics_loop: Metrics successful.   `,
			want: []prefixView{
				{"1-10", FormatDynamo, LevelDebug, "    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess: ", "Traceback (most recent call last):", "RuntimeError: Engine process failed to start. See stack trace for the root cause."},
				{"11-11", FormatDynamo, LevelDebug, "    2025-06-06T19:57:40.419Z DEBUG dynamo_run::subprocess: ", "Metrics successful.   ", ""},
			},
		},
		{
			// vllm-project/vllm-ascend#1558: Ray's prefix (known), then
			// vLLM's per-line logging record around each traceback line.
			name: "logging record around every traceback line, behind a Ray prefix",
			in: `(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492]   File "/vllm-workspace/vllm-ascend-v0.9.1rc1/vllm_ascend/platform.py", line 98, in set_device
(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492]     torch.npu.set_device(device)
(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492]   File "/usr/local/python3.10.17/lib/python3.10/site-packages/torch_npu/npu/utils.py", line 80, in set_device
(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492]     torch_npu._C._npu_setDevice(device_id)
(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492] RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492] [ERROR] 2025-07-01-08:38:50 (PID:114020, Device:-1, RankID:1) ERR00100 PTA call acl api failed`,
			want: []prefixView{
				{"1-5", FormatPython, LevelError, "(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492] ",
					`  File "/vllm-workspace/vllm-ascend-v0.9.1rc1/vllm_ascend/platform.py", line 98, in set_device`,
					"RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033"},
				{"6-6", FormatNative, LevelError, "(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492] ",
					"[ERROR] 2025-07-01-08:38:50 (PID:114020, Device:-1, RankID:1) ERR00100 PTA call acl api failed", ""},
			},
		},
		{
			// allenai/olmocr#105: a Python logger relays sglang's
			// records; its own WARNING records interleave, and tqdm's bar
			// has no prefix.
			name: "Python logging record around sglang records",
			in: `2025-03-07 23:50:27,531 - __main__ - INFO - [2025-03-07 23:50:27 TP0] Automatically reduce --mem-fraction-static to 0.760 because this is a multimodal model.
2025-03-07 23:50:27,531 - __main__ - INFO - [2025-03-07 23:50:27 TP0] Automatically turn off --chunked-prefill-size and disable radix cache for qwen2-vl.
2025-03-07 23:50:27,532 - __main__ - INFO - [2025-03-07 23:50:27 TP0] Init torch distributed begin.
2025-03-07 23:50:27,532 - __main__ - WARNING - Attempt 13: Please wait for sglang server to become ready...
2025-03-07 23:50:27,727 - __main__ - INFO - [2025-03-07 23:50:27 TP0] Load weight begin. avail mem=22.46 GB
2025-03-07 23:50:28,606 - __main__ - INFO - [2025-03-07 23:50:28 TP0] Using model weights format ['*.safetensors']
Loading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]`,
			want: []prefixView{
				{"1-1", FormatSRT, "", "2025-03-07 23:50:27,531 - __main__ - INFO - ", "Automatically reduce --mem-fraction-static to 0.760 because this is a multimodal model.", ""},
				{"2-2", FormatSRT, "", "2025-03-07 23:50:27,531 - __main__ - INFO - ", "Automatically turn off --chunked-prefill-size and disable radix cache for qwen2-vl.", ""},
				{"3-3", FormatSRT, "", "2025-03-07 23:50:27,532 - __main__ - INFO - ", "Init torch distributed begin.", ""},
				{"4-4", FormatPython, LevelWarning, "2025-03-07 23:50:27,532 - __main__ - WARNING - ", "Attempt 13: Please wait for sglang server to become ready...", ""},
				{"5-5", FormatSRT, "", "2025-03-07 23:50:27,727 - __main__ - INFO - ", "Load weight begin. avail mem=22.46 GB", ""},
				{"6-7", FormatSRT, "", "2025-03-07 23:50:28,606 - __main__ - INFO - ", "Using model weights format ['*.safetensors']", ""},
			},
		},
		{
			// The CI shape of issue 12: a bracketed timestamp on every
			// line, inside Markdown quoting.
			name: "CI timestamp inside a Markdown quote",
			in: `> [2025-11-06T02:10:00.702Z] Traceback (most recent call last):
> [2025-11-06T02:10:00.702Z]   File "/flashinfer/jit/core.py", line 120, in build
> [2025-11-06T02:10:00.702Z]     raise RuntimeError("Ninja build failed")
> [2025-11-06T02:10:00.702Z] subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.
> [2025-11-06T02:10:00.703Z] 
> [2025-11-06T02:10:00.703Z] The above exception was the direct cause of the following exception:
> [2025-11-06T02:10:00.703Z] 
> [2025-11-06T02:10:00.703Z] Traceback (most recent call last):
> [2025-11-06T02:10:00.703Z]   File "/flashinfer/jit/core.py", line 122, in build
> [2025-11-06T02:10:00.704Z] RuntimeError: Ninja build failed
> [2025-11-06T02:10:00.704Z] [2025-11-06 02:10:00 TP0] Received sigquit from a child process. It usually means the child failed.`,
			want: []prefixView{
				{"1-10", FormatNone, "", "> [2025-11-06T02:10:00.702Z] ", "Traceback (most recent call last):", "RuntimeError: Ninja build failed"},
				{"11-11", FormatSRT, "", "> [2025-11-06T02:10:00.704Z] ", "Received sigquit from a child process. It usually means the child failed.", ""},
			},
		},
		{
			// docker compose with container_name set prints no replica
			// number, so the known compose wrapper does not apply; the
			// sglang headers behind it teach the prefix.
			name: "compose service without a replica number",
			in: "sglang-server   | [2025-08-28 15:53:28 TP0] Load weight begin. avail mem=78.21 GB\n" +
				"sglang-server   | [2025-08-28 15:53:30 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
				"sglang-server   |   File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2963, in run_scheduler_process\n" +
				"sglang-server   | torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n" +
				"sglang-server   | \n" +
				"sglang-server   | [2025-08-28 15:53:31] Received sigquit from a child process. It usually means the child failed.",
			want: []prefixView{
				{"1-1", FormatSRT, "", "sglang-server   | ", "Load weight begin. avail mem=78.21 GB", ""},
				{"2-5", FormatSRT, "", "sglang-server   | ", "Scheduler hit an exception: Traceback (most recent call last):", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB."},
				{"6-6", FormatSRT, "", "sglang-server   | ", "Received sigquit from a child process. It usually means the child failed.", ""},
			},
		},
		{
			name: "host and stream prefix",
			in: "myhost stdout: Traceback (most recent call last):\n" +
				"myhost stdout:   File \"/sgl/launch_server.py\", line 14, in <module>\n" +
				"myhost stdout: ModuleNotFoundError: No module named 'sgl_kernel'\n" +
				"myhost stdout: Segmentation fault (core dumped)",
			want: []prefixView{
				{"1-3", FormatNone, "", "myhost stdout: ", "Traceback (most recent call last):", "ModuleNotFoundError: No module named 'sgl_kernel'"},
				{"4-4", FormatNative, LevelFatal, "myhost stdout: ", "Segmentation fault (core dumped)", ""},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := prefixViews(assemble(t, Options{}, tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAssemblerLearnsNoPrefix holds streams where no prefix may be learned.
func TestAssemblerLearnsNoPrefix(t *testing.T) {
	crash := strings.Join(rankTraceback(0), "\n")
	tests := []struct {
		name string
		in   string
	}{
		{"plain sglang records and a crash", strings.Join(benchLines()[:200], "\n") + "\n" + crash + "\n" + crash},
		{"logging records whose message ends in a traceback", "2023-07-09 00:00:00,000 ERROR    app prefix: Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nException: x\n" +
			"2023-07-09 00:00:01,000 ERROR    app prefix: Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nException: y"},
		{"one piece of evidence", "myhost stdout:   File \"a.py\", line 1, in f\nValueError: x"},
		{"evidence too far apart", "h1 out:   File \"a.py\", line 1, in f\n" + strings.Repeat("x\n", evidenceWindow+1) + "h1 out:   File \"a.py\", line 2, in g"},
		{"exception group boxes", "  + Exception Group Traceback (most recent call last):\n  |   File \"g.py\", line 1, in m\n  |   File \"g.py\", line 2, in n\n  | ExceptionGroup: g (1 sub-exception)"},
		{"sglang records quoting frames", "[2026-07-01 09:31:38] Error in request:   File \"a.py\", line 1, in f\n[2026-07-01 09:31:39] Error in request:   File \"a.py\", line 2, in g"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAssembler(Options{})
			for i, l := range strings.Split(tt.in, "\n") {
				a.Push(Line{Text: l, Offset: int64(i + 1)})
			}
			a.Flush()
			if a.learner.learned() {
				t.Errorf("learned %d shapes, want none: %q", a.learner.nShapes, a.learner.shapes[0])
			}
		})
	}
}

// TestAssemblerLearnedPrefixLeavesOtherLines checks that a learned prefix
// comes off only lines that start with it: a line of the same stream
// without it keeps its text.
func TestAssemblerLearnedPrefixLeavesOtherLines(t *testing.T) {
	in := "node-1 out: Traceback (most recent call last):\n" +
		"node-1 out:   File \"a.py\", line 1, in f\n" +
		"node-1 out: ValueError: x\n" +
		"Killed\n" +
		"node out: not the prefix\n" +
		"node-12 out: KeyError: 'y'"
	got := prefixViews(assemble(t, Options{}, in))
	want := []prefixView{
		{"1-3", FormatNone, "", "node-1 out: ", "Traceback (most recent call last):", "ValueError: x"},
		{"4-4", FormatNative, LevelFatal, "", "Killed", ""},
		{"5-5", FormatNone, "", "", "node out: not the prefix", ""},
		{"6-6", FormatNone, "", "node-12 out: ", "KeyError: 'y'", "KeyError: 'y'"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestAssemblerLearnedShapesBounded(t *testing.T) {
	a := NewAssembler(Options{})
	for i := 0; i < 3*maxLearnedShapes; i++ {
		p := strings.Repeat("x", i+1) + " out: "
		for j, l := range []string{p + "Traceback (most recent call last):", p + "  File \"a.py\", line 1, in f", p + "ValueError: x"} {
			a.Push(Line{Text: l, Offset: int64(3*i + j)})
		}
	}
	if a.learner.nShapes != maxLearnedShapes {
		t.Fatalf("%d shapes, want the bound %d", a.learner.nShapes, maxLearnedShapes)
	}
	if got := string(a.learner.shapes[maxLearnedShapes-1]); !strings.HasPrefix(got, strings.Repeat("x", 3*maxLearnedShapes)) {
		t.Errorf("newest shape %q, want the last prefix learned", got)
	}
}

func TestShapeRoundTrip(t *testing.T) {
	for _, p := range []string{
		"> [2025-11-06T02:10:00.702Z] ",
		"2025-03-07 23:50:27,531 - __main__ - INFO - ",
		"(VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492] ",
		"[tid:0x7f676e4c7640] ",
		"myhost stdout: ",
	} {
		var buf [maxLearnedPrefix]byte
		n := shapeOf(buf[:0], p)
		if n == 0 {
			t.Fatalf("shapeOf(%q) = 0", p)
		}
		if got := matchShape(p+"rest", buf[:n]); got != len(p) {
			t.Errorf("matchShape(%q, shapeOf) = %d, want %d", p, got, len(p))
		}
	}
	var buf [maxLearnedPrefix]byte
	n := shapeOf(buf[:0], "2025-03-07 23:50:27,531 - __main__ - INFO - ")
	if got := matchShape("2025-03-08 02:04:48,693 - __main__ - ERROR - boom", buf[:n]); got != len("2025-03-08 02:04:48,693 - __main__ - ERROR - ") {
		t.Errorf("other digits and level: matched %d", got)
	}
	if got := matchShape("2025-03-08 02:04:48,693 - sglang - ERROR - boom", buf[:n]); got != 0 {
		t.Errorf("other logger name matched %d, want 0", got)
	}
}

// TestPushNoAllocs checks the hot path: a plain sglang line, and a line
// behind a learned prefix, allocate nothing.
func TestPushNoAllocs(t *testing.T) {
	a := NewAssembler(Options{})
	lines := benchLines()
	i := 0
	if n := testing.AllocsPerRun(500, func() { a.Push(Line{Text: lines[i%len(lines)]}); i++ }); n != 0 {
		t.Errorf("%v allocations per plain line, want 0", n)
	}
	for _, l := range []string{"h1 out: Traceback (most recent call last):", "h1 out:   File \"a.py\", line 1, in f", "h1 out:   File \"a.py\", line 2, in g"} {
		a.Push(Line{Text: l})
	}
	if !a.learner.learned() {
		t.Fatal("no prefix learned")
	}
	prefixed := make([]string, len(lines))
	for j, l := range lines {
		prefixed[j] = "h1 out: " + l
	}
	if n := testing.AllocsPerRun(500, func() { a.Push(Line{Text: prefixed[i%len(prefixed)]}); i++ }); n != 0 {
		t.Errorf("%v allocations per prefixed line, want 0", n)
	}
}

// TestLearnedPrefixStopsAtKnownWrappers: a prefix learned in front of a
// known wrapper is only its unknown part, so the lines of another Ray
// actor behind the same outer prefix lose it too and stay apart.
func TestLearnedPrefixStopsAtKnownWrappers(t *testing.T) {
	in := strings.Join([]string{
		"3: (Rollout pid=5) [2025-07-15 17:11:34] Decode batch. #running-req: 1",
		"3: (Buffer pid=4) Error: Client error '422 Unprocessable Entity' for url 'http://h:1/abort_request'",
		"3: (Rollout pid=5) [2025-07-15 17:11:35] Decode batch. #running-req: 1",
		"3: (Buffer pid=4) Error: Client error '422 Unprocessable Entity' for url 'http://h:1/abort_request'",
		"3: (Rollout pid=5) [2025-07-15 17:11:36] Decode batch. #running-req: 1",
	}, "\n")
	var got []string
	for _, v := range prefixViews(assemble(t, Options{}, in)) {
		got = append(got, v.Lines+" "+v.Msg)
	}
	// Learned from the task labels of lines 1 and 2, consecutive: line 1
	// is read again without it.
	want := []string{
		"1-1 Decode batch. #running-req: 1",
		"2-2 Error: Client error '422 Unprocessable Entity' for url 'http://h:1/abort_request'",
		"3-3 Decode batch. #running-req: 1",
		"4-4 Error: Client error '422 Unprocessable Entity' for url 'http://h:1/abort_request'",
		"5-5 Decode batch. #running-req: 1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestUnknownPrefixLen(t *testing.T) {
	for _, tt := range []struct {
		s    string
		plen int
		want int
	}{
		{"3: (Buffer pid=4) Traceback", len("3: (Buffer pid=4) "), len("3: ")},
		{"[1,3]<stderr>:(Buffer pid=4) x", len("[1,3]<stderr>:(Buffer pid=4) "), len("[1,3]<stderr>:")},
		{"node7 | sglang-1  | x", len("node7 | sglang-1  | "), len("node7 | ")},
		{"3: Traceback", len("3: "), len("3: ")},
		{"host=a (b) x", len("host=a (b) "), len("host=a (b) ")},
	} {
		if got := unknownPrefixLen(tt.s, tt.plen); got != tt.want {
			t.Errorf("unknownPrefixLen(%q, %d) = %d, want %d", tt.s, tt.plen, got, tt.want)
		}
	}
}

// TestPrefixLearnedFromGlogLines: the transfer engines' glog lines behind a
// prefix no rule knows are evidence of it, like tracebacks and sglang
// headers, so their error lines are read as native errors.
func TestPrefixLearnedFromGlogLines(t *testing.T) {
	in := strings.Join([]string{
		"3: I0618 03:16:44.792693 65611 transfer_engine.cpp:391] [Metrics] Transfer Engine Throughput: 3.63 MB/s (over last 5s)",
		"3: I0618 03:16:44.802318 65613 transfer_engine.cpp:391] [Metrics] Transfer Engine Throughput: 3.63 MB/s (over last 5s)",
		"3: E0618 03:16:45.000001 65613 client.cpp:120] Failed to allocate slices for put_batch",
	}, "\n")
	es := assemble(t, Options{}, in)
	last := es[len(es)-1]
	if last.Native != NativeGlog || last.Level != "ERROR" || last.Prefix != "3: " {
		t.Errorf("last entry: native %q level %q prefix %q, want glog ERROR behind \"3: \"", last.Native, last.Level, last.Prefix)
	}
}

func TestFailureBehindPrefix(t *testing.T) {
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		s    string
		want int
	}{
		{"3: ValueError: Not enough host memory available", len("3: ")},
		{"1812:TypeError: Scheduler.flush_cache() got an unexpected keyword argument 'timeout'", len("1812:")},
		{"[1,3]<stderr>:RuntimeError: CUDA error: invalid argument", len("[1,3]<stderr>:")},
		{"2025-11-06 02:10:00.702 | torch.OutOfMemoryError: CUDA out of memory.", len("2025-11-06 02:10:00.702 | ")},
		{"3: E0521 16:22:21.694042   162 transfer_metadata.cpp:877] Local segment descriptor not found", len("3: ")},
		{"node7 ERROR 12:00:01 | KeyError: 'x'", len("node7 ERROR 12:00:01 | ")},
		// No number in front: a message's own words, not a collector's;
		// but a Rust panic's first line, which only the panic hook prints,
		// behind a tag, and not behind a word of prose.
		{"Error handling request: ValueError: bad input", 0},
		{"[SGLang LOG] thread 'main' panicked at src/main.rs:10:5:", len("[SGLang LOG] ")},
		{"router | thread 'tokio-runtime-worker' (17) panicked at 'boom', src/lib.rs:1:2", len("router | ")},
		{"[router] the thread 'main' panicked at src/main.rs:10:5:", 0},
		{"[router] thread 'main' panicked at nowhere:", 0},
		{"[router] INFO thread 'main' panicked at src/main.rs:10:5:", 0},
		// A level below ERROR: that record's message quotes the error.
		{"12:00:01 WARNING | ValueError: retrying", 0},
		{"2025-11-06 INFO: KeyError: 'x' is ignored", 0},
		// A glog line that is no error.
		{"3: I0521 16:22:21.694042   162 transfer_metadata.cpp:877] started", 0},
		// A warning class is no exception line.
		{"3: UserWarning: deprecated", 0},
		// Far into the line, what stands in front is the message's own.
		{"At 12:00 the pool worker that served job 7 of the batch finally raised KeyError: 'x'", 0},
		{"RuntimeError('call aclnnGroupedMatmulV4 failed, detail:E89999: Inner Error!')", 0},
		// Too far into the line to be a prefix.
		{strings.Repeat("9", 60) + ": ValueError: x", 0},
		// A compiler's diagnostic, its path first, behind a launcher's
		// label, a CI runner's stamp and a build step's number.
		{"3: [2026-04-21T02:45:09.750Z] #42 3621.8 /app/csrc/kernels/gated.cu:223:5: error: use of undeclared identifier 'X'", len("3: [2026-04-21T02:45:09.750Z] #42 3621.8 ")},
		{"1812:[2026-04-21T02:45:09.750Z] #42 3621.8 /app/k.cu:1:5: error: no member named 'x'", len("1812:[2026-04-21T02:45:09.750Z] #42 3621.8 ")},
		{"3: ", 0},
		// The same behind a viewer's time column or an MPI tag, past
		// the bytes a prefix is otherwise looked for in.
		{"2025-11-06 02:10:00.702 | [2026-04-21T02:45:09.750Z] #42 3621.8 /app/k.cu:1:5: error: no member named 'x'", len("2025-11-06 02:10:00.702 | [2026-04-21T02:45:09.750Z] #42 3621.8 ")},
		{"[1,3]<stderr>:[2026-04-21T02:45:09.750Z] #42 3621.8 /app/k.cu:1:5: error: no member named 'x'", len("[1,3]<stderr>:[2026-04-21T02:45:09.750Z] #42 3621.8 ")},
		{"2025-11-06 02:10:00.702 | [2026-04-21T02:45:09.750Z] INFO /app/k.cu:1:5: error: no member named 'x'", 0},
		// A task label srun padded to the widest label's columns.
		{" 3: ValueError: Not enough host memory available", len(" 3: ")},
		{" 42: [ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [exception_handler.cc:23] [904211]HcclBatchGet: HcclException, ret=1", len(" 42: ")},
		// An exception line whose message holds numbers, and an indented
		// line, are never behind a prefix.
		{"RuntimeError: 42:42:42 NPU function error: call aclnn42 failed, error code is 42", 0},
		{"  42: ValueError: x", 0},
	} {
		if got := failureBehindPrefix(tt.s, ref, time.UTC); got != tt.want {
			t.Errorf("failureBehindPrefix(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

// TestFailureBehindPrefixTeachesThePrefix: the lines after a failure line
// read behind a prefix no rule knows lose that prefix too, so the block
// they continue stays one entry.
func TestFailureBehindPrefixTeachesThePrefix(t *testing.T) {
	in := strings.Join([]string{
		"3: terminate called after throwing an instance of 'c10::DistBackendError'",
		"3:   what():  [PG 3 Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141) ran for 600020 milliseconds before timing out.",
		"3: Exception raised from checkTimeout at ProcessGroupNCCL.cpp:609 (most recent call first):",
		"3: frame #0: c10::Error::Error() + 0x96",
	}, "\n")
	es := assemble(t, Options{}, in)
	if len(es) != 1 || es[0].Native != NativeTerminate || es[0].Prefix != "3: " {
		for _, e := range es {
			t.Logf("entry %d-%d native %q prefix %q: %q", e.FirstOffset, e.LastOffset, e.Native, e.Prefix, e.Message)
		}
		t.Fatalf("got %d entries, want one terminate block behind \"3: \"", len(es))
	}
}

func TestGlogAt(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want int
	}{
		{"3: E0521 16:22:21.694042   162 transfer_metadata.cpp:877] x", 3},
		{"[1,3]<stderr>:I0521 16:22:21.694042 162 a.cpp:1] x", len("[1,3]<stderr>:")},
		{"E0521 16:22:21.694042   162 transfer_metadata.cpp:877] x", 0}, // no prefix
		{"3: x E0521 16:22:21.694042 162 a.cpp:1] x", len("3: x ")},
		{"3: E0521 16:22:21 no fraction", 0},
		{strings.Repeat("a ", 50) + "E0521 16:22:21.694042 162 a.cpp:1] x", 0}, // beyond the bound
		{"no colon at all", 0},
		// Semicolons next to colons (the word-at-a-time search flags
		// them too), a header at the last place the bound allows and
		// one byte after it, and headers across word boundaries.
		{"host-7 | 2026;;;;:;: E0521 16:22:21.694042 162 t.cpp:877] x", len("host-7 | 2026;;;;:;: ")},
		{strings.Repeat("a", 95) + " E0521 16:22:21.694042 162 a.cpp:1] x", 96},
		{strings.Repeat("a", 96) + " E0521 16:22:21.694042 162 a.cpp:1] x", 0},
		{"1234567 E0521 16:22:21.694042 162 a.cpp:1] x", 8},
		{"1 E0521 16:22:21.694042 162 a.cpp:1] x", 2},
		{"1:", 0},
		{"12345678 E0521 16", 0},
	} {
		if got := glogAt(tt.s); got != tt.want {
			t.Errorf("glogAt(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestIndexByRare(t *testing.T) {
	for _, s := range []string{
		"", "x", "above exception", "The above exception was the direct cause of the following exception:",
		"xx above exceptio above exception above exception", "abovexexception above exception",
		`  File "a.py", line 1, in f`, `File File "`, `Fil File "x"`, "F", `x: File "`, `x: File`,
		"During handling of the above exception, another exception occurred:",
		`[2026-05-28 00:00:00.134] INFO:     10.2.228.99:41713 - "POST /generate HTTP/1.1" 200 OK`,
	} {
		for _, sub := range []struct {
			s string
			k int
		}{{`File "`, 0}, {"above exception", len("above e")}, {"above exception", 0}, {`File "`, 5}} {
			if got, want := ascii.IndexByRare(s, sub.s, sub.k), strings.Index(s, sub.s); got != want {
				t.Errorf("ascii.IndexByRare(%q, %q, %d) = %d, strings.Index %d", s, sub.s, sub.k, got, want)
			}
		}
	}
}

// TestStartsRecordIsSGLangRecord: a line startsRecord says is an srt
// record is one for isSGLangRecord, which is what lets observe skip
// findPrefix on it; the lines it says no to are left to findPrefix.
func TestStartsRecordIsSGLangRecord(t *testing.T) {
	var sc secondCache
	if _, _, ok := sc.scanDateTime("2026-05-28 00:00:00.163] x", time.UTC); !ok {
		t.Fatal("the cache was not primed")
	}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`[2026-05-28 00:00:00.163] INFO:     10.1.2.3:39321 - "GET /metrics HTTP/1.1" 200 OK`, true},
		{`[2026-05-28 00:00:00] INFO:     10.1.2.3:39321 - "GET /health HTTP/1.1" 200 OK`, true},
		{`[2026-05-28 00:00:00] E0521 16:22:21.694042 162 transfer_metadata.cpp:877] x`, true},
		{`[2026-05-28 00:00:00.163456] INFO:     started`, false},
		{`[2026-05-28 00:00:00,163] INFO:     started`, false},
		{`[2026-05-28 00:00:00.16] INFO:     started`, false},
		{`[2026-05-28 00:00:00]INFO: started`, false},
		{`[2026-05-28 00:00:01] INFO:     another second`, false},
		{`2026-05-28 00:00:00] INFO:     no bracket`, false},
		{`[2026-05-28 00:00:00]`, false},
	} {
		got := sc.startsRecord(tc.line)
		if got != tc.want {
			t.Errorf("startsRecord(%q) = %v, want %v", tc.line, got, tc.want)
		}
		if got && !isSGLangRecord(tc.line) {
			t.Errorf("startsRecord(%q) but not isSGLangRecord", tc.line)
		}
	}
	var empty secondCache
	if empty.startsRecord("[\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00] x") {
		t.Error("an empty cache starts a record")
	}
}

// TestAdoptedPrefixNotTakenTwice: a failure line behind a viewer's time
// column teaches the column (adopt); when the lines after it bring a time
// column of their own behind it (loguru's, a relayed program's), the
// first line, read without the column already, keeps its exception whole.
func TestAdoptedPrefixNotTakenTwice(t *testing.T) {
	const col = "2025-11-06 02:10:00.702 | "
	exc := "mineru_vl_utils.vlm_client.base_client.ServerError: Failed to connect to server http://19.135.189.2:30000."
	for _, next := range []string{
		"2025-11-18 03:31:54.233 | WARNING  | mineru.utils.pdf_page_id:get_end_page_id:8 - end_page_id is out of range",
		"2025-11-18 03:31:54.379 | started the predictor",
	} {
		es := assemble(t, Options{}, col+exc+"\n"+col+next+"\n"+col+next)
		if len(es) == 0 || es[0].Traceback == nil || es[0].Traceback.Outermost().Type != "mineru_vl_utils.vlm_client.base_client.ServerError" {
			t.Errorf("before %q: first entry %+v, want the ServerError whole", next, es)
		}
	}
}
