package entry

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The lines below follow the shapes of ENGINE-LOGS.md; their messages are
// made up, so that no excerpt of testdata/engines is fitted.

func TestParseEngineHeaders(t *testing.T) {
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	at := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		name string
		in   string
		want *header // nil: not a header
	}{
		{"ray core error", "[2024-05-01 12:00:00,123 E 4242 4243] core_worker.cc:97: Unhandled exception in worker",
			&header{format: FormatRayCore, time: at(2024, 5, 1, 12, 0, 0, 123e6), ranks: NoRanks, level: "ERROR", msg: "Unhandled exception in worker"}},
		{"ray core info without location", "[2024-05-01 12:00:00,123 I 7 8] starting",
			&header{format: FormatRayCore, time: at(2024, 5, 1, 12, 0, 0, 123e6), ranks: NoRanks, level: "INFO", msg: "starting"}},
		{"trtllm cpp", "[TensorRT-LLM][ERROR] Assertion failed: blocks left (/src/kvCacheManager.cpp:12)",
			&header{format: FormatTRTLLM, ranks: NoRanks, level: "ERROR", msg: "Assertion failed: blocks left (/src/kvCacheManager.cpp:12)"}},
		{"trtllm cpp warning", "[TensorRT-LLM][WARNING] fallback", &header{format: FormatTRTLLM, ranks: NoRanks, level: "WARNING", msg: "fallback"}},
		{"trtllm python rank", "[TRT-LLM] [RANK 3] [E] Executor failed", &header{format: FormatTRTLLM, ranks: NoRanks, level: "ERROR", msg: "Executor failed"}},
		{"trtllm python no rank", "[TRT-LLM] [W] slow", &header{format: FormatTRTLLM, ranks: NoRanks, level: "WARNING", msg: "slow"}},
		{"trtllm python time", "[05/02/2025-10:11:12] [TRT-LLM] [RANK 0] [I] Load engine takes: 3 sec",
			&header{format: FormatTRTLLM, time: at(2025, 5, 2, 10, 11, 12, 0), ranks: NoRanks, level: "INFO", msg: "Load engine takes: 3 sec"}},
		{"turbomind", "[TM][ERROR] CUDA runtime error: out of memory /src/allocator.cc:49",
			&header{format: FormatTurboMind, ranks: NoRanks, level: "ERROR", msg: "CUDA runtime error: out of memory /src/allocator.cc:49"}},
		{"lmdeploy old", "05/01 12:00:00 - lmdeploy - ERROR - engine.py - _start - 123 - engine failed",
			&header{format: FormatLMDeploy, time: at(2026, 5, 1, 12, 0, 0, 0), ranks: NoRanks, level: "ERROR", msg: "engine failed", partial: timeNoYear}},
		{"lmdeploy new location", "2024-05-01 12:00:00,123 - lmdeploy - ERROR - async_engine.py:791 - session 1 failed",
			&header{format: FormatPython, time: at(2024, 5, 1, 12, 0, 0, 123e6), ranks: NoRanks, level: "ERROR", msg: "session 1 failed"}},
		{"vllm location", "ERROR 05-01 12:00:00 [core.py:123] EngineCore failed",
			&header{format: FormatPython, time: at(2026, 5, 1, 12, 0, 0, 0), ranks: NoRanks, level: "ERROR", msg: "EngineCore failed", partial: timeNoYear}},
		{"vllm path location", "INFO 05-01 12:00:00.5 [v1/engine/core.py:1] x",
			&header{format: FormatPython, time: at(2026, 5, 1, 12, 0, 0, 5e8), ranks: NoRanks, level: "INFO", msg: "x", partial: timeNoYear}},
		{"vllm garbled location", "ERROR 05-01 12:00:00 [async_llm.py:9[] x",
			&header{format: FormatPython, time: at(2026, 5, 1, 12, 0, 0, 0), ranks: NoRanks, level: "ERROR", msg: "x", partial: timeNoYear}},
		{"vllm header alone", "ERROR 05-01 12:00:00 [core.py:123] ",
			&header{format: FormatPython, time: at(2026, 5, 1, 12, 0, 0, 0), ranks: NoRanks, level: "ERROR", msg: "", partial: timeNoYear}},
		{"vllm message without location", "INFO 05-01 12:00:00 [a list] x",
			&header{format: FormatPython, time: at(2026, 5, 1, 12, 0, 0, 0), ranks: NoRanks, level: "INFO", msg: "[a list] x", partial: timeNoYear}},
		{"slog", `time=2024-05-01T12:00:00.000Z level=ERROR source=sched.go:1 msg="error loading server" error="runner exited: status 2"`,
			&header{format: FormatSlog, time: at(2024, 5, 1, 12, 0, 0, 0), ranks: NoRanks, level: "ERROR", msg: "error loading server: runner exited: status 2"}},
		{"slog escapes", `time=2024-05-01T12:00:00+02:00 level=WARN msg="say \"hi\"\tnow" n=3`,
			&header{format: FormatSlog, time: time.Date(2024, 5, 1, 12, 0, 0, 0, time.FixedZone("", 7200)), ranks: NoRanks, level: "WARN", msg: "say \"hi\"\tnow"}},
		{"logfmt without time", `level=info msg=started`, &header{format: FormatSlog, ranks: NoRanks, level: "INFO", msg: "started"}},
		{"json msg", `{"level":"ERROR","msg":"load failed","error":"no file","timestamp":1711360140}`,
			&header{format: FormatJSON, time: time.Unix(1711360140, 0).UTC(), ranks: NoRanks, level: "ERROR", msg: "load failed: no file"}},
		{"json tracing", `{"timestamp":"2024-11-27T20:59:27.057718Z","level":"INFO","fields":{"message":"Waiting for shard"},"target":"launcher"}`,
			&header{format: FormatJSON, time: at(2024, 11, 27, 20, 59, 27, 57718000), ranks: NoRanks, level: "INFO", msg: "Waiting for shard"}},
		{"json lower-case level", `{"severity":"warning","message":"slow\n"}`, &header{format: FormatJSON, ranks: NoRanks, level: "WARNING", msg: "slow"}},

		{"tracing without time", "ERROR batch{batch_size=1}:prefill{id=0 size=1}: text_generation_client: router/client/src/lib.rs:33: Server error: boom",
			&header{format: FormatDynamo, ranks: NoRanks, level: "ERROR", msg: "Server error: boom"}},
		{"tracing module path without time", "WARN  tokio_runtime::worker: slow poll", &header{format: FormatDynamo, ranks: NoRanks, level: "WARN", msg: "slow poll"}},
		{"tgi shard span", "2023-10-16T06:54:28.106837Z  INFO shard-manager: text_generation_launcher: Shard terminated rank=1",
			&header{format: FormatDynamo, time: time.Date(2023, 10, 16, 6, 54, 28, 106837000, time.UTC), ranks: NoRanks, level: "INFO", msg: "Shard terminated rank=1"}},
		{"tracing span keeps a message word", "2023-10-16T06:54:28Z ERROR shard-manager: Error: x", &header{format: FormatDynamo, time: time.Date(2023, 10, 16, 6, 54, 28, 0, time.UTC), ranks: NoRanks, level: "ERROR", msg: "Error: x"}},
		{"not: level word then prose", "ERROR occurred: something", nil},
		{"not: level word then a word with a colon", "INFO: x", &header{format: FormatUvicorn, ranks: NoRanks, level: "INFO", msg: "x"}},
		{"not: json without level", `{"msg":"x"}`, nil},
		{"not: json without message", `{"level":"ERROR","n":1}`, nil},
		{"not: json cut", `{"level":"ERROR","msg":"x`, nil},
		{"not: slog without msg", `time=2024-05-01T12:00:00Z level=ERROR source=a.go:1`, nil},
		{"not: slog with unknown level", `level=loud msg=x`, nil},
		{"not: slog unterminated quote", `level=error msg="x`, nil},
		{"not: prose with equals", `time=now is the time`, nil},
		{"not: trtllm without level", "[TensorRT-LLM] started", nil},
		{"not: trtllm unknown letter", "[TRT-LLM] [X] x", nil},
		{"not: ray core without pid", "[2024-05-01 12:00:00,123 E] x", nil},
		{"not: lmdeploy without level", "05/01 12:00:00 - lmdeploy - started", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseHeader(tt.in, ref, time.UTC)
			if tt.want == nil {
				if ok {
					t.Fatalf("parseHeader(%q) = %+v, want no header", tt.in, got)
				}
				return
			}
			if !ok {
				t.Fatalf("parseHeader(%q): no header", tt.in)
			}
			if !got.time.Equal(tt.want.time) {
				t.Errorf("time %v, want %v", got.time, tt.want.time)
			}
			got.time, tt.want.time = time.Time{}, time.Time{}
			if diff := cmp.Diff(*tt.want, got, cmp.AllowUnexported(header{})); diff != "" {
				t.Errorf("parseHeader(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestEngineFields(t *testing.T) {
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ in, record, proc string }{
		{"ERROR 05-01 12:00:00 [core.py:123] EngineCore failed", "ERROR 05-01 12:00:00 [core.py:123]", ""},
		{"INFO 05-01 12:00:00.5 [v1/engine/core.py:1] x", "INFO 05-01 12:00:00.5 [v1/engine/core.py:1]", ""},
		{"ERROR 05-01 12:00:00 [async_llm.py:9[] x", "ERROR 05-01 12:00:00 [async_llm.py:9[]", ""},
		{"ERROR 05-01 12:00:00 core.py:9] x", "ERROR 05-01 12:00:00 core.py:9]", ""},
		{"ERROR 05-01 12:00:00 [core.py:123] ", "ERROR 05-01 12:00:00 [core.py:123]", ""},
		{"INFO 05-01 12:00:00 [a list] x", "", ""},
		{"INFO 05-01 12:00:00 x", "", ""},
		{"[2024-05-01 12:00:00,123 E 4242 4243] core_worker.cc:97: x", "E 4242 4243] core_worker.cc:97", "4242"},
		{"[2024-05-01 12:00:00,123456 E 4242 4243] core_worker.cc:97: ", "E 4242 4243] core_worker.cc:97", "4242"},
		{"[2024-05-01 12:00:00,123 I 7 8] starting", "", "7"},
		{"[05/02/2025-10:11:12] [TRT-LLM] [RANK 3] [E] x", "", "RANK 3"},
		{"[TRT-LLM] [E] x", "", ""},
		{"[2026-07-01 09:31:38 TP0] x", "", ""},
		{"2024-05-01 12:00:00,123 - lmdeploy - ERROR - engine.py:1 - x", "", ""},
	} {
		h, ok := parseHeader(tt.in, ref, time.UTC)
		if !ok {
			t.Errorf("parseHeader(%q): no header", tt.in)
			continue
		}
		record, proc := "", ""
		if hasEngineFields(&h) {
			record, proc = engineFields(&h, tt.in)
		}
		if record != tt.record || proc != tt.proc {
			t.Errorf("engineFields(%q) = %q, %q; want %q, %q", tt.in, record, proc, tt.record, tt.proc)
		}
	}
}

func TestParseLocation(t *testing.T) {
	for in, want := range map[string]int{
		"[core.py:12] x":      len("[core.py:12] "),
		"core.py:12] x":       len("core.py:12] "),
		"[a/b.py:1[] x":       len("[a/b.py:1[] "),
		"[core.py:12]":        len("[core.py:12]"),
		"[core.py:12]x":       0,
		"[core:12] x":         0, // no file extension
		"[core.py:] x":        0,
		"[core.py] x":         0,
		"[a b.py:1] x":        0,
		"x [core.py:12] y":    0,
		"Route: /v1, GET":     0,
		"":                    0,
		"[":                   0,
		"[c.py:1234567] tail": len("[c.py:1234567] "),
	} {
		if got := parseLocation(in); got != want {
			t.Errorf("parseLocation(%q) = %d, want %d", in, got, want)
		}
	}
}

// entryView is what the engine-shape tests look at.
type entryView struct {
	Lines   string
	Format  Format
	Level   string
	Msg     string
	Exc     string
	Process string
	Re      bool
}

func entryViews(es []Entry) []entryView {
	var out []entryView
	for _, v := range views(es) {
		out = append(out, entryView{Lines: v.Lines, Format: v.Format, Msg: v.Msg, Exc: v.Exc})
	}
	for i, e := range es {
		out[i].Level, out[i].Process, out[i].Re = e.Level, e.Process, e.Reraised
	}
	return out
}

func TestAssemblerEngineRecords(t *testing.T) {
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want []entryView
	}{
		{
			name: "vllm record with its traceback and a chained exception is one entry",
			in: "INFO 05-01 11:59:59 [api_server.py:1] starting\n" +
				"ERROR 05-01 12:00:00 [core.py:7] EngineCore failed to start.\n" +
				"ERROR 05-01 12:00:00 [core.py:7] Traceback (most recent call last):\n" +
				"ERROR 05-01 12:00:00 [core.py:7]   File \"core.py\", line 3, in run\n" +
				"ERROR 05-01 12:00:00 [core.py:7]     load()\n" +
				"ERROR 05-01 12:00:00 [core.py:7] KeyError: 'w'\n" +
				"ERROR 05-01 12:00:00 [core.py:7] \n" +
				"ERROR 05-01 12:00:00 [core.py:7] The above exception was the direct cause of the following exception:\n" +
				"ERROR 05-01 12:00:00 [core.py:7] \n" +
				"ERROR 05-01 12:00:00 [core.py:7] Traceback (most recent call last):\n" +
				"ERROR 05-01 12:00:00 [core.py:7]   File \"core.py\", line 5, in start\n" +
				"ERROR 05-01 12:00:00 [core.py:7] ValueError: bad weights\n" +
				"ERROR 05-01 12:00:00 [core.py:7]   name: w\n" +
				"INFO 05-01 12:00:01 [core.py:8] shutting down",
			want: []entryView{
				{Lines: "1-1", Format: FormatPython, Level: "INFO", Msg: "starting"},
				{Lines: "2-13", Format: FormatPython, Level: "ERROR", Msg: "EngineCore failed to start.", Exc: "ValueError: bad weights"},
				{Lines: "14-14", Format: FormatPython, Level: "INFO", Msg: "shutting down"},
			},
		},
		{
			name: "lines of another record at the same place and second stay apart",
			in: "INFO 05-01 12:00:00 [launcher.py:28] Route: /health, Methods: GET\n" +
				"INFO 05-01 12:00:00 [launcher.py:28] Route: /v1/models, Methods: GET\n" +
				"ERROR 05-01 12:00:00 [serving.py:3] Error in request one\n" +
				"ERROR 05-01 12:00:00 [serving.py:3] Error in request two",
			want: []entryView{
				{Lines: "1-1", Format: FormatPython, Level: "INFO", Msg: "Route: /health, Methods: GET"},
				{Lines: "2-2", Format: FormatPython, Level: "INFO", Msg: "Route: /v1/models, Methods: GET"},
				{Lines: "3-3", Format: FormatPython, Level: "ERROR", Msg: "Error in request one"},
				{Lines: "4-4", Format: FormatPython, Level: "ERROR", Msg: "Error in request two"},
			},
		},
		{
			name: "a header with nothing after it makes no entry",
			in: "ERROR 05-01 12:00:00 [core.py:7] \n" +
				"ERROR 05-01 12:00:00 [core.py:7] \n" +
				"INFO 05-01 12:00:01 [core.py:8] x",
			want: []entryView{
				{Lines: "1-2"},
				{Lines: "3-3", Format: FormatPython, Level: "INFO", Msg: "x"},
			},
		},
		{
			name: "process prefixes: one record per process, and the re-raised traceback is marked",
			in: "(EngineCore_DP0 pid=9) ERROR 05-01 12:00:00 [core.py:7] EngineCore failed to start.\n" +
				"(EngineCore_DP0 pid=9) ERROR 05-01 12:00:00 [core.py:7] Traceback (most recent call last):\n" +
				"(EngineCore_DP0 pid=9) ERROR 05-01 12:00:00 [core.py:7]   File \"core.py\", line 3, in run\n" +
				"(EngineCore_DP0 pid=9) ERROR 05-01 12:00:00 [core.py:7] ValueError: bad weights\n" +
				"(VllmWorker rank=1 pid=11) ERROR 05-01 12:00:00 [core.py:7]   File \"core.py\", line 3, in run\n" +
				"(EngineCore_DP0 pid=9) Process EngineCore_DP0:\n" +
				"(EngineCore_DP0 pid=9) Traceback (most recent call last):\n" +
				"(EngineCore_DP0 pid=9)   File \"process.py\", line 314, in _bootstrap\n" +
				"(EngineCore_DP0 pid=9)   File \"core.py\", line 3, in run\n" +
				"(EngineCore_DP0 pid=9) ValueError: bad weights",
			want: []entryView{
				{Lines: "1-4", Format: FormatPython, Level: "ERROR", Msg: "EngineCore failed to start.", Exc: "ValueError: bad weights", Process: "EngineCore_DP0 pid=9"},
				{Lines: "5-5", Format: FormatPython, Level: "ERROR", Msg: "  File \"core.py\", line 3, in run", Process: "VllmWorker rank=1 pid=11"},
				{Lines: "6-10", Msg: "Process EngineCore_DP0:", Exc: "ValueError: bad weights", Process: "EngineCore_DP0 pid=9", Re: true},
			},
		},
		{
			name: "ray core repeats its header on every line of the failure signal dump",
			in: "[2025-05-19 13:48:05,850 E 12 34] logging.cc:361: *** SIGABRT received at time=1 on cpu 7 ***\n" +
				"[2025-05-19 13:48:05,850 E 12 34] logging.cc:361: PC: @     0x7f  (unknown)  raise\n" +
				"[2025-05-19 13:48:05,851 E 12 34] logging.cc:361:     @     0x7e  (unknown)  abort\n" +
				"[2025-05-19 13:48:05,851 E 12 35] logging.cc:361: other thread\n" +
				"Fatal Python error: Aborted",
			want: []entryView{
				{Lines: "1-3", Format: FormatRayCore, Level: "ERROR", Msg: "*** SIGABRT received at time=1 on cpu 7 ***", Process: "12"},
				{Lines: "4-4", Format: FormatRayCore, Level: "ERROR", Msg: "other thread", Process: "12"},
				{Lines: "5-5", Format: FormatNative, Level: "FATAL", Msg: "Fatal Python error: Aborted"},
			},
		},
		{
			name: "slog and JSON lines are one line each",
			in: `time=2024-05-01T12:00:00.000Z level=ERROR source=sched.go:1 msg="error loading server" error="runner exited"` + "\n" +
				"[GIN] 2024/05/01 - 12:00:00 | 500 | 1ms | 127.0.0.1 | POST \"/api/generate\"\n" +
				`{"level":"ERROR","msg":"slot failed","tid":"1"}` + "\n" +
				"Error: runner exited",
			want: []entryView{
				{Lines: "1-1", Format: FormatSlog, Level: "ERROR", Msg: "error loading server: runner exited"},
				{Lines: "2-2", Msg: "[GIN] 2024/05/01 - 12:00:00 | 500 | 1ms | 127.0.0.1 | POST \"/api/generate\""},
				{Lines: "3-3", Format: FormatJSON, Level: "ERROR", Msg: "slot failed"},
				{Lines: "4-4", Msg: "Error: runner exited"},
			},
		},
		{
			name: "tensorrt-llm's assertion keeps its numbered C++ frames",
			in: "[TensorRT-LLM][INFO] ready\n" +
				"[TensorRT-LLM][ERROR] Assertion failed: no free block (/src/kv.cpp:12)\n" +
				"1       0x7f00 tensorrt_llm::common::throwRuntimeError(char const*, int) + 71\n" +
				"2       0x7f01 /lib/libtensorrt_llm.so(+0x81e384) [0x7f01]\n" +
				"[01/20/2025-08:46:06] [TRT-LLM] [RANK 1] [E] step failed",
			want: []entryView{
				{Lines: "1-1", Format: FormatTRTLLM, Level: "INFO", Msg: "ready"},
				{Lines: "2-4", Format: FormatTRTLLM, Level: "ERROR", Msg: "Assertion failed: no free block (/src/kv.cpp:12)"},
				{Lines: "5-5", Format: FormatTRTLLM, Level: "ERROR", Msg: "step failed", Process: "RANK 1"},
			},
		},
		{
			name: "tgi's relayed shard stderr and the launcher's lines after it are one entry",
			in: "2023-10-16T06:54:27.000000Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:\n" +
				"\n" +
				"Traceback (most recent call last):\n" +
				"  File \"server.py\", line 1, in serve\n" +
				"RuntimeError: cannot bind\n" +
				" rank=0\n" +
				"2023-10-16T06:54:28.059380Z ERROR text_generation_launcher: Shard 0 failed to start\n" +
				"2023-10-16T06:54:28.059423Z  INFO text_generation_launcher: Shutting down shards\n" +
				"2023-10-16T06:54:28.106837Z  INFO shard-manager: text_generation_launcher: Shard terminated rank=1\n" +
				"Error: ShardCannotStart\n" +
				"2023-10-16T06:54:29.000000Z  INFO text_generation_launcher: Args { x }",
			want: []entryView{
				{Lines: "1-10", Format: FormatDynamo, Level: "ERROR", Msg: "Shard complete standard error output:", Exc: "RuntimeError: cannot bind"},
				{Lines: "11-11", Format: FormatDynamo, Level: "INFO", Msg: "Args { x }"},
			},
		},
		{
			name: "a relayed exception line without its header, as a paste cut it",
			in: "RuntimeError: cannot bind\n" +
				" rank=0\n" +
				"2023-10-16T06:54:28.059380Z ERROR text_generation_launcher: Shard 0 failed to start\n" +
				"Error: ShardCannotStart",
			want: []entryView{
				{Lines: "1-4", Msg: "RuntimeError: cannot bind", Exc: "RuntimeError: cannot bind"},
			},
		},
		{
			name: "a shard failure with no relayed block before it stays its own record",
			in: "2023-10-16T06:54:27.000000Z  INFO text_generation_launcher: Starting shard rank=0\n" +
				"2023-10-16T06:54:28.059380Z ERROR text_generation_launcher: Shard 0 failed to start",
			want: []entryView{
				{Lines: "1-1", Format: FormatDynamo, Level: "INFO", Msg: "Starting shard rank=0"},
				{Lines: "2-2", Format: FormatDynamo, Level: "ERROR", Msg: "Shard 0 failed to start"},
			},
		},
		{
			name: "glog's header stays out of the message",
			in:   "E0116 10:11:12.123456 1 model_lifecycle.cc:626] failed to load 'm' version 1: Internal: boom",
			want: []entryView{
				{Lines: "1-1", Format: FormatNative, Level: "ERROR", Msg: "failed to load 'm' version 1: Internal: boom"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := entryViews(assemble(t, Options{Reference: ref}, tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			// The same with Reuse, each entry owned as it comes.
			reused := entryViews(assembleReused(Options{Reference: ref}, strings.Split(tt.in, "\n")))
			if diff := cmp.Diff(tt.want, reused); diff != "" {
				t.Errorf("with Reuse: entries (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReraisedOnlyRightAfter checks that a traceback printed raw long
// after the logged one, or a second time, is not marked as its re-raise.
func TestReraisedOnlyRightAfter(t *testing.T) {
	logged := "ERROR 05-01 12:00:00 [core.py:7] EngineCore failed to start.\n" +
		"ERROR 05-01 12:00:00 [core.py:7] Traceback (most recent call last):\n" +
		"ERROR 05-01 12:00:00 [core.py:7]   File \"core.py\", line 3, in run\n" +
		"ERROR 05-01 12:00:00 [core.py:7] ValueError: bad\n"
	raw := "Traceback (most recent call last):\n  File \"core.py\", line 3, in run\nValueError: bad\n"
	var filler strings.Builder
	for i := 0; i < reraiseWindow; i++ {
		filler.WriteString("INFO 05-01 12:00:01 [metrics.py:1] throughput\n")
	}
	for _, tt := range []struct {
		name string
		in   string
		want []bool // Reraised of the raw tracebacks, in order
	}{
		{"right after", logged + raw, []bool{true}},
		{"twice", logged + raw + raw, []bool{true, false}},
		{"long after", logged + filler.String() + "\n" + raw, []bool{false}},
		{"another exception", logged + strings.Replace(raw, "bad", "worse", 1), []bool{false}},
	} {
		var got []bool
		for _, e := range assemble(t, Options{}, strings.TrimSuffix(tt.in, "\n")) {
			if e.Format == FormatNone && e.Traceback != nil {
				got = append(got, e.Reraised)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Reraised %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestEngineRecordText checks what the matcher reads of a vLLM record:
// its message and its traceback, without the header repeated on every
// line or the logger's location, and a glog line with its header.
func TestEngineRecordText(t *testing.T) {
	es := assemble(t, Options{}, "ERROR 05-01 12:00:00 [core.py:7] EngineCore failed to start.\n"+
		"ERROR 05-01 12:00:00 [core.py:7] Traceback (most recent call last):\n"+
		"ERROR 05-01 12:00:00 [core.py:7]   File \"core.py\", line 3, in run\n"+
		"ERROR 05-01 12:00:00 [core.py:7] ValueError: bad")
	want := "EngineCore failed to start.\nTraceback (most recent call last):\n  File \"core.py\", line 3, in run\nValueError: bad"
	if len(es) != 1 || es[0].Text != want {
		t.Fatalf("got %d entries, first text %q; want one, %q", len(es), es[0].Text, want)
	}
	g := assemble(t, Options{}, "E0116 10:11:12.123456 1 backend.cc:6] load failed")
	if g[0].Text != "E0116 10:11:12.123456 1 backend.cc:6] load failed" || g[0].Message != "load failed" {
		t.Errorf("glog: text %q, message %q", g[0].Text, g[0].Message)
	}
	s := assemble(t, Options{}, `level=ERROR msg="a \"b\"" error=c`)
	if s[0].Text != `a "b": c` || s[0].Raw != `level=ERROR msg="a \"b\"" error=c` {
		t.Errorf("slog: text %q, raw %q", s[0].Text, s[0].Raw)
	}
}

// FuzzParseEngineLine checks the readers of the other engines' headers:
// no input panics, a level is normalised, a message that is not rebuilt
// from fields is the line's tail, and a vLLM record's text is the start of
// the line.
func FuzzParseEngineLine(f *testing.F) {
	for _, s := range []string{
		"[2024-05-01 12:00:00,123 E 4242 4243] core_worker.cc:97: x",
		"[TensorRT-LLM][ERROR] x", "[TRT-LLM] [RANK 0] [E] x", "[04/30/2025-14:03:32] [TRT-LLM] [I] x", "[TM][WARNING] x",
		"05/01 12:00:00 - lmdeploy - ERROR - a.py - f - 1 - x",
		`time=2024-05-01T12:00:00.000Z level=ERROR source=a.go:1 msg="x \"y\"" error="z"`,
		`{"level":"ERROR","msg":"x","timestamp":1711360140}`,
		`{"timestamp":"2024-11-27T20:59:27Z","level":"INFO","fields":{"message":"x"}}`,
		"ERROR 05-01 12:00:00 [core.py:7] x", "ERROR 05-01 12:00:00 core.py:7] x", "ERROR 05-01 12:00:00 [a.py:1[] ",
	} {
		f.Add(s)
	}
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, line string) {
		h, ok := parseHeader(line, ref, time.UTC)
		if !ok {
			return
		}
		if !validLevel(normLevel(h.level)) {
			t.Fatalf("parseHeader(%q): level %q", line, h.level)
		}
		if h.format != FormatSlog && h.format != FormatJSON && !strings.HasSuffix(line, h.msg) {
			t.Fatalf("parseHeader(%q): message %q is not its tail", line, h.msg)
		}
		if hasEngineFields(&h) {
			if record, proc := engineFields(&h, line); !strings.Contains(line, record) || !strings.Contains(line, proc) {
				t.Fatalf("engineFields(%q) = %q, %q: not in the line", line, record, proc)
			}
		}
		if n := parseLocation(line); n < 0 || n > len(line) {
			t.Fatalf("parseLocation(%q) = %d", line, n)
		}
		if v, rest, ok := logfmtValue(line); ok && len(rest) > len(line) {
			t.Fatalf("logfmtValue(%q) = %q, %q", line, v, rest)
		}
	})
}

// FuzzLocatedBracket checks the reader of a user format's process and
// location fields: what it takes is a part of its input that ends in the
// bracket (and its space), names a Python file's line, and gives ranks
// only of the tokens sglang prints.
func FuzzLocatedBracket(f *testing.F) {
	for _, s := range []string{
		"31423 [ TP6 PP0 scheduler.py:2547] Scheduler hit an exception:",
		"[scheduler.py:12] x", "[ TP0 a.py:1]", "12 [x.py:3]y", "[a.py:]", "[ DP1 TP2 EP3 model_runner.py:400] Load weight begin.",
		"123456789012 [a.py:1] x", "[ [a.py:1] x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, r := locatedBracket(s)
		if n == 0 {
			if r != NoRanks {
				t.Fatalf("locatedBracket(%q) = 0 with ranks %+v", s, r)
			}
			return
		}
		if n < 0 || n > len(s) {
			t.Fatalf("locatedBracket(%q) = %d", s, n)
		}
		head := strings.TrimSuffix(s[:n], " ")
		if !strings.HasSuffix(head, "]") || !strings.Contains(head, ".py:") {
			t.Fatalf("locatedBracket(%q) took %q: no located bracket", s, s[:n])
		}
		for _, v := range []int{r.DP, r.PP, r.AttnCP, r.MoeDP, r.TP, r.EP} {
			if v < -1 {
				t.Fatalf("locatedBracket(%q): ranks %+v", s, r)
			}
		}
	})
}
