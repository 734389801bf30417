package analysis_test

import (
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
		// Near misses: the same frames with their exception line, a cut
		// in another phase, a cut with no phase.
		{"the exception line kept: it leads", head + capture + "RuntimeError: CUDA error: no kernel image is available for execution on the device\n", "cuda-no-kernel-image", []string{"scheduler-hit-an-exception"}},
		{"cut while loading weights", head + sched + frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "load_model", "self.model = get_model(...)"), "scheduler-hit-an-exception", nil},
		{"cut with no phase", head + frame("/sgl/python/sglang/srt/utils.py", "helper", "x = y()"), "scheduler-hit-an-exception", nil},
	}
	for _, tt := range tests {
		an := analysis.New(m)
		var got []analysis.Diagnosis
		for _, e := range entries(tt.in) {
			if d, ok := an.Analyze(&e); ok {
				got = append(got, d)
			}
		}
		if len(got) != 1 {
			t.Errorf("%s: %d failures, want 1", tt.name, len(got))
			continue
		}
		b := brief(&got[0])
		if b.slug != tt.slug || !equalStrings(b.context, tt.context) {
			t.Errorf("%s: lead %q context %q, want %q context %q", tt.name, b.slug, b.context, tt.slug, tt.context)
		}
	}
}

// Another engine's log never takes sglang's phase records.
func TestPhaseRecordOnlyForSGLang(t *testing.T) {
	m := defaultMatcher(t)
	in := "Scheduler hit an exception: Traceback (most recent call last):\n" +
		frame("/sgl/python/sglang/srt/model_executor/cuda_graph_runner.py", "capture", "self.capture_one_batch_size(bs, forward)")
	an := analysis.New(m)
	an.SetEngine("vllm")
	for _, e := range entries(in) {
		if d, ok := an.Analyze(&e); ok && d.Cause != nil && d.Cause.Record.Slug == "capture-cuda-graph-failed" {
			t.Errorf("vllm: led by %s", d.Cause.Record.Slug)
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
