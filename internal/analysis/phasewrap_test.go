package analysis_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// A traceback cut before its exception line inside a phase sglang wraps in
// an exception of its own is led by that phase's wrapper record, the
// process's wrapper its context; cut anywhere else, or whole, it is not.
func TestCutTracebackInAWrappedPhaseLeadsWithThePhaseRecord(t *testing.T) {
	m := defaultMatcher(t)
	head := "[2025-06-16 16:07:35 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
	sched := frame("/sgl/python/sglang/srt/managers/scheduler.py", "run_scheduler_process", "scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)")
	runner := frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "init_cuda_graphs", "self.cuda_graph_runner = CudaGraphRunner(self)")
	capture := frame("/sgl/python/sglang/srt/model_executor/cuda_graph_runner.py", "__init__", "self.capture()") +
		frame("/sgl/python/sglang/srt/model_executor/cuda_graph_runner.py", "capture", ") = self.capture_one_batch_size(bs, forward)")
	tests := []struct {
		name, in, slug string
		context        []string
	}{
		{"cut inside the CUDA graph runner", head + capture, "capture-cuda-graph-failed", []string{"scheduler-hit-an-exception"}},
		{"cut inside it, the scheduler's frames first", head + sched + runner + capture, "capture-cuda-graph-failed", []string{"scheduler-hit-an-exception"}},
		{"cut in the newer runner's capture, caret lines kept", head +
			frame("/sgl/python/sglang/srt/model_executor/runner/decode_cuda_graph_runner.py", "capture", "self.capture_one_batch_size(bs, forward)") +
			"        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n", "capture-cuda-graph-failed", []string{"scheduler-hit-an-exception"}},
		// No process header: a paste that starts at the traceback, the
		// traceback behind a time and rank header of its own, or taken
		// by the record before it.
		{"no header", "Traceback (most recent call last):\n" + sched + runner + capture, "capture-cuda-graph-failed", nil},
		{"behind a time and rank header", "[2024-10-22 06:31:49 TP0] Traceback (most recent call last):\n" + capture, "capture-cuda-graph-failed", nil},
		{"after a record that takes it", "[2025-06-16 16:07:35] Capture cuda graph bs [1, 2, 4, 8]\nTraceback (most recent call last):\n" + capture, "capture-cuda-graph-failed", nil},
		// Near misses: the same frames with their exception line, a cut
		// in another phase, a cut with no phase.
		{"the exception line kept: it leads", head + capture + "RuntimeError: CUDA error: no kernel image is available for execution on the device\n", "cuda-no-kernel-image", []string{"scheduler-hit-an-exception"}},
		{"cut while loading weights", head + sched + frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "load_model", "self.model = get_model(...)"), "scheduler-hit-an-exception", nil},
		{"cut with no phase", head + frame("/sgl/python/sglang/srt/utils.py", "helper", "x = y()"), "scheduler-hit-an-exception", nil},
		// The call the last frame printed was making is inside every
		// phase its frames name: a draft worker's constructor, under the
		// scheduler's start-up, calling into its CUDA graphs.
		{"cut at a draft worker's call into its CUDA graphs", head + sched +
			frame("/sgl/python/sglang/srt/managers/scheduler.py", "__init__", "self.init_model_worker()") +
			frame("/sgl/python/sglang/srt/speculative/eagle_worker_v2.py", "__init__", "self.init_cuda_graphs()"),
			"capture-cuda-graph-failed", []string{"scheduler-hit-an-exception"}},
		{"cut at a draft worker's call that names no phase", head + sched +
			frame("/sgl/python/sglang/srt/managers/scheduler.py", "__init__", "self.init_model_worker()") +
			frame("/sgl/python/sglang/srt/speculative/eagle_worker_v2.py", "__init__", "self.init_token_map()"),
			"scheduler-hit-an-exception", nil},
	}
	for _, tt := range tests {
		got := analyzeText(m, tt.in)
		if !one(t, tt.name, got) {
			continue
		}
		b := brief(&got[0])
		if b.slug != tt.slug || !equalStrings(b.context, tt.context) {
			t.Errorf("%s: lead %q context %q, want %q context %q", tt.name, b.slug, b.context, tt.slug, tt.context)
		}
	}
}

// Another engine's log never takes sglang's phase records: not when the
// engine is configured, nor when the entry stands under that engine's
// header. An entry through sglang's frames in a stream detected as
// another engine's is sglang's (a log relaying both) and takes them.
func TestPhaseRecordOnlyForSGLang(t *testing.T) {
	m := defaultMatcher(t)
	in := "Scheduler hit an exception: Traceback (most recent call last):\n" +
		frame("/sgl/python/sglang/srt/model_executor/cuda_graph_runner.py", "capture", "self.capture_one_batch_size(bs, forward)")
	const slug = "capture-cuda-graph-failed"
	for _, c := range []struct {
		name       string
		in         string
		configured bool
		want       bool
	}{
		{"configured", in, true, false},
		{"detected, vLLM's header", "(EngineCore_DP0 pid=9) ERROR 09-28 15:47:20 [core.py:70] " + in, false, false},
		{"detected, sglang's frames", in, false, true},
	} {
		an := analysis.New(m)
		an.SetEngine("vllm")
		an.ConfigureEngine(c.configured)
		got := false
		for _, e := range entries(c.in) {
			if d, ok := an.Analyze(&e); ok && d.Cause != nil && d.Cause.Record.Slug == slug {
				got = true
			}
		}
		if got != c.want {
			t.Errorf("vllm, %s: led by %s %v, want %v", c.name, slug, got, c.want)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The exception headers of sglang's processes in every release's wording
// are read as wrappers: they name the process that died, and over a
// traceback cut inside a phase sglang wraps, that phase's record leads;
// prose that opens the same way is no header.
func TestOldProcessHeadersAreWrappers(t *testing.T) {
	m := defaultMatcher(t)
	capture := frame("/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", "__init__", "self.capture()")
	forward := frame("/sgl/python/sglang/srt/managers/controller/tp_worker.py", "exposed_step", "self.forward_step()")
	tests := []struct {
		name, in, slug, process string
	}{
		{"0.3 tp server, time-only header, cut at capture", "[23:17:08 TP4] Exception in run_tp_server:\nTraceback (most recent call last):\n" + capture,
			"capture-cuda-graph-failed", "scheduler"},
		{"double-spaced, cut at capture", strings.Repeat("[23:17:01 TP4] Memory pool end. avail mem=18.61 GB\n\n", 6) + "[23:17:01 TP4] Capture cuda graph begin.\n\n[23:17:08 TP4] Exception in run_tp_server:\n\nTraceback (most recent call last):\n\n" +
			strings.ReplaceAll(capture, "\n", "\n\n"), "capture-cuda-graph-failed", "scheduler"},
		{"0.2 model tp server, cut at capture", "Exception in ModelTpServer:\nTraceback (most recent call last):\n" + capture,
			"capture-cuda-graph-failed", "scheduler"},
		{"0.2 controller, cut at capture", "[gpu=0] Exception in ControllerSingle:\nTraceback (most recent call last):\n" + capture,
			"capture-cuda-graph-failed", "scheduler"},
		{"a newer process's wording, cut at capture", "[2025-01-01 00:00:00] FooRunner hit an exception: Traceback (most recent call last):\n" + capture,
			"capture-cuda-graph-failed", ""},
		{"the exception kept: it is the cause, the process named", "Exception in run_tp_server:\nTraceback (most recent call last):\n" + forward +
			"IndexError: list index out of range\n", "", "scheduler"},
		{"cut elsewhere: the process named", "Exception in ControllerMulti:\nTraceback (most recent call last):\n" + forward, "", "scheduler"},
	}
	for _, tt := range tests {
		got := analyzeText(m, tt.in)
		if !one(t, tt.name, got) {
			continue
		}
		d := &got[0]
		if b := brief(d); b.slug != tt.slug && !(tt.slug == "" && b.slug == "legacy-subprocess-exception") {
			t.Errorf("%s: lead %q, want %q", tt.name, b.slug, tt.slug)
		}
		if tt.process != "" && d.Triage.Process != tt.process {
			t.Errorf("%s: process %q, want %q", tt.name, d.Triage.Process, tt.process)
		}
	}
	// Prose opening the same way: not a header. The traceback after it
	// is read as it is read alone (a bare traceback cut inside a phase
	// sglang wraps is led by that phase's record), and names no process
	// the prose would.
	leads := func(in string) []string {
		an := analysis.New(m)
		var got []string
		for _, e := range entries(in) {
			if d, ok := an.Analyze(&e); ok && d.Cause != nil {
				got = append(got, d.Cause.Record.Slug+"/"+d.Triage.Process)
			}
		}
		return got
	}
	alone := leads("Traceback (most recent call last):\n" + capture)
	if got := leads("Exception in the main loop: see below\nTraceback (most recent call last):\n" + capture); !slices.Equal(got, alone) {
		t.Errorf("prose: leads %q, want %q as without it", got, alone)
	}
}

// A native library's located error line is a failure no record names, and
// NVSHMEM's or DeepEP's names expert-parallel communication as its
// component, from the file it prints or a frame.
func TestLocatedNativeLineComponent(t *testing.T) {
	m := defaultMatcher(t)
	for _, tt := range []struct{ in, component string }{
		{"/sglang/3rdparty/nvshmem_src/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_accept:120: handshake with the peer failed", analysis.ComponentEP},
		{"/opt/DeepEP/csrc/kernels/internode.cu:120: failed to allocate the RDMA buffer", analysis.ComponentEP},
		{"/src/transfer_engine/rdma_context.cpp:88: failed to query the device context", "transfer engine"},
		{"/src/other/thing.cpp:12: open failed", ""},
	} {
		got := analyzeText(m, tt.in)
		if len(got) != 1 || got[0].Signal != analysis.SignalNative || got[0].Triage.Component != tt.component {
			t.Errorf("%q: %d failures, %+v; want one native failure of component %q", tt.in, len(got), got, tt.component)
		}
	}
}

// A wrapper of the web framework alone ("Exception in ASGI application",
// its traceback cut or logged line by line behind another writer's prefix)
// names the process that failed a request: the HTTP server.
func TestHTTPWrapperNamesTheHTTPServer(t *testing.T) {
	an := analysis.New(defaultMatcher(t))
	for _, in := range []string{
		"ERROR:    Exception in ASGI application\n",
		"2024-05-26 16:08:33 | ERROR | stderr | ERROR:    Exception in ASGI application\n",
	} {
		var got []analysis.Diagnosis
		for _, e := range entries(in) {
			if d, ok := an.Analyze(&e); ok {
				got = append(got, d)
			}
		}
		if len(got) != 1 || got[0].Cause == nil || got[0].Cause.Record.Slug != "exception-in-asgi-application" || got[0].Triage.Process != "HTTP server" {
			t.Errorf("%q: diagnoses %+v, want the ASGI wrapper naming the HTTP server", in, got)
		}
	}
}
