package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// TestFaultFramesWithoutHeader alerts faulthandler's frame lines printed
// without their "Fatal Python error" and thread headers (an sglang
// scheduler's overlap loop, sglang#4585; a CUDA graph capture's all-reduce,
// sglang#4205; an import in Home Assistant, home-assistant/core#95882) as
// one native crash, critical, a fragment of the crash's report (its other
// lines lead it when in sight), headed by the frames and the printed line
// of the frame where the process's own work stood; and leaves silent a
// helper thread's tail (standard library waits only, sglang#8439) and a
// run of fewer frames than a headline needs.
func TestFaultFramesWithoutHeader(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"sglang's scheduler", `  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap
  File "/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py", line 116 in decorate_context
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1757 in run_scheduler_process
  File "/usr/lib/python3.10/multiprocessing/process.py", line 108 in run
  File "<string>", line 1 in <module>
`, `event_loop_overlap (sglang/srt/managers/scheduler.py:510) < decorate_context (torch/utils/_contextlib.py:116) < run_scheduler_process (sglang/srt/managers/scheduler.py:1757): File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap`},
		{"a CUDA graph capture's all-reduce", `  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/distributed/device_communicators/pynccl_wrapper.py", line 373 in ncclAllReduce
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/distributed/device_communicators/pynccl.py", line 138 in all_reduce
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/distributed/parallel_state.py", line 412 in _all_reduce_in_place
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/distributed/parallel_state.py", line 112 in inplace_all_reduce
`, `ncclAllReduce (sglang/srt/distributed/device_communicators/pynccl_wrapper.py:373) < all_reduce (sglang/srt/distributed/device_communicators/pynccl.py:138) < _all_reduce_in_place (sglang/srt/distributed/parallel_state.py:412): File "/usr/local/lib/python3.10/dist-packages/sglang/srt/distributed/device_communicators/pynccl_wrapper.py", line 373 in ncclAllReduce`},
		{"an import's frozen frames", `  File "<frozen importlib._bootstrap>", line 241 in _call_with_frames_removed
  File "<frozen importlib._bootstrap_external>", line 1233 in create_module
  File "<frozen importlib._bootstrap>", line 573 in module_from_spec
  File "<frozen importlib._bootstrap>", line 676 in _load_unlocked
`, `_call_with_frames_removed (<frozen importlib._bootstrap>:241) < create_module (<frozen importlib._bootstrap_external>:1233) < module_from_spec (<frozen importlib._bootstrap>:573): File "<frozen importlib._bootstrap>", line 241 in _call_with_frames_removed`},
		{"behind mpirun's tag, the frames rejoined as one wrapped line", `[1,3]<stderr>:  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap
[1,3]<stderr>:  File "/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py", line 116 in decorate_context
[1,3]<stderr>:  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1757 in run_scheduler_process
[1,3]<stderr>:  File "/usr/lib/python3.10/multiprocessing/process.py", line 108 in run
`, `event_loop_overlap (sglang/srt/managers/scheduler.py:510) < decorate_context (torch/utils/_contextlib.py:116) < run_scheduler_process (sglang/srt/managers/scheduler.py:1757): File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap`},
		{"a helper thread's tail", `  File "/usr/local/lib/python3.10/concurrent/futures/thread.py", line 81 in _worker
  File "/usr/local/lib/python3.10/threading.py", line 953 in run
  File "/usr/local/lib/python3.10/threading.py", line 1016 in _bootstrap_inner
  File "/usr/local/lib/python3.10/threading.py", line 973 in _bootstrap
`, ""},
		{"two frames", `  File "/usr/lib/python3.10/threading.py", line 1016 in _bootstrap_inner
  File "/usr/lib/python3.10/threading.py", line 973 in _bootstrap
`, ""},
		{"a frame line broken by prose", `  File "/a/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap
then I restarted it
  File "/a/sglang/srt/managers/scheduler.py", line 1757 in run_scheduler_process
  File "/usr/lib/python3.10/multiprocessing/process.py", line 108 in run
`, ""},
	} {
		got := analyzeStream(defaultMatcher(t), c.text)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %d failures, first %q", c.name, len(got), got[0].Headline)
			}
			continue
		}
		if len(got) != 1 || got[0].Signal != analysis.SignalNative || got[0].Severity != "critical" || got[0].Triage.Family != analysis.FamilyNative ||
			!got[0].Fragment || !strings.HasSuffix(got[0].Headline, c.want) {
			t.Errorf("%s: got %d failures, want one native crash headed ...%q", c.name, len(got), c.want)
			for _, d := range got {
				t.Logf("  %s %s %q %q", d.Signal, d.Severity, d.Triage.Family, d.Headline)
			}
		}
	}
}

// TestFaultFramesLent reads the same run through AnalyzeLent, whose
// entries' strings are the assembler's: the diagnosis keeps copies.
func TestFaultFramesLent(t *testing.T) {
	text := `  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap
  File "/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py", line 116 in decorate_context
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1757 in run_scheduler_process
`
	an := analysis.New(defaultMatcher(t))
	var st analysis.Stream
	var heads []string
	for _, e := range entries(text) {
		if d, ok := an.AnalyzeLent(&st, &e); ok {
			heads = append(heads, d.Headline)
		}
	}
	if len(heads) != 1 || !strings.Contains(heads[0], `line 510 in event_loop_overlap`) {
		t.Fatalf("headlines %q, want one naming the scheduler's frame", heads)
	}
}

// TestExtensionModulesLine alerts faulthandler's list of extension modules
// printed alone (its header and frames lost: sglang#3399, cut mid-name;
// xarray#9291 and Megatron-LM#1861, hard-wrapped) as a critical native
// crash headed by the line, a fragment of the crash's report, and leaves
// silent prose and build output that open with the same words.
func TestExtensionModulesLine(t *testing.T) {
	for l, want := range map[string]bool{
		"Extension modules: numpy.core._multiarray_umath, numpy.core._multiarray_tests, numpy.linalg._umath_linalg, torch._C, zmq.backend.cython._zmq, yaml._yaml, msgspec._core, sentencepiece._sentencepiece, regex._reg": true,
		"Extension modules: numpy.core._multiarray_umath, numpy.core._multiarray_tests, matplotlib._c_internal_utils, PIL._imaging, pandas._libs.tslibs.period, pandas._libs.":                                              true,
		"Extension modules: numpy.core._multiarray_umath, torch._C, yaml._yaml, grpc._cython.cygrpc, _cffi_backend, google._upb._message, scipy.sparse._sparsetools, _csparsetools (total: 93)":                             true,
		"Extension modules: enabled":                                         false,
		"Extension modules: numpy, scipy are needed for this feature":        false,
		"Extension modules: see the list below":                              false,
		"Extension modules: a, b (total: many)":                              false,
		"Building extension modules: numpy.core._multiarray_umath, torch._C": false,
	} {
		got := analyzeStream(defaultMatcher(t), l+"\n")
		switch {
		case want && (len(got) != 1 || got[0].Signal != analysis.SignalNative || got[0].Severity != "critical" || !got[0].Fragment || !strings.HasPrefix(got[0].Headline, "Extension modules: ")):
			t.Errorf("%q: got %d failures, want one critical native crash", l, len(got))
			for _, d := range got {
				t.Logf("  %s %s %q", d.Signal, d.Severity, d.Headline)
			}
		case !want && len(got) != 0:
			t.Errorf("%q: %d failures, first %q, want none", l, len(got), got[0].Headline)
		}
	}
}
