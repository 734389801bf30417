package incident_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// A wrapper that names its component's remedy (a compiler backend, CUDA
// graph capture, an adapter's load) leads over a code error of the
// language it quotes, on its line or on the next, as one incident whose
// exception is the code error; an exception a library's or engine's record
// names still leads it, and a wrapper that only points at what it wraps
// ("Scheduler hit an exception:") never leads a code error. Composed after
// torch's dynamo (a traceback's last lines, and convert_frame's glog-style
// warnings with and without a clock in front), sglang's CUDA graph runner
// (the full-graph and the piecewise runner) and vLLM's LoRA manager.
func TestARemedyWrapperLeadsTheCodeErrorItQuotes(t *testing.T) {
	m := crashMatcher(t)
	glog := "W1024 01:17:10.936000 140404233111360 torch/_dynamo/convert_frame.py:1009] "
	frames := []string{
		"Traceback (most recent call last):",
		`  File "/usr/lib/python3.11/site-packages/torch/_dynamo/output_graph.py", line 1446, in _call_user_compiler`,
		"    compiled_fn = compiler_fn(gm, self.example_inputs())",
		`  File "/usr/lib/python3.11/site-packages/torch/_inductor/codecache.py", line 2000, in load_by_key_path`,
		"    exec(code, mod.__dict__, mod.__dict__)",
	}
	cases := []struct {
		name  string
		lines []string
		lead  string // the record that leads
		exc   string // the exception type the incident carries and leads as its cause, "" for any
	}{
		{"dynamo's traceback ends in the NameError it raised",
			append(append([]string{}, frames...), "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:", "NameError: name 's4' is not defined", "",
				`Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1 for more information`),
			"torch-dynamo-backend-compiler-failed", "NameError"},
		{"dynamo's traceback ends in an AttributeError no record names",
			append(append([]string{}, frames...), "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
				"AttributeError: 'NoneType' object has no attribute 'get_size'"),
			"torch-dynamo-backend-compiler-failed", "AttributeError"},
		{"convert_frame's warnings, glog style",
			[]string{glog + "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:", glog + "NameError: name 's4' is not defined", glog},
			"torch-dynamo-backend-compiler-failed", ""},
		{"convert_frame's warnings behind a clock",
			[]string{"[01:17:10.938]: " + glog + "torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f3a2c1d9e50>' raised:",
				"[01:17:10.938]: " + glog + "NameError: name 'primals_3' is not defined"},
			"torch-dynamo-backend-compiler-failed", ""},
		{"the full-graph runner's capture, quoting on its line",
			[]string{"Exception: Capture cuda graph failed: NameError: name 'sgl_per_token_quant_fp8' is not defined"},
			"capture-cuda-graph-failed", ""},
		{"the piecewise runner's capture, quoting on its line",
			[]string{"[2025-10-01 09:00:01 TP0] Piecewise CUDA Graph failed with error: 'NoneType' object has no attribute 'shape'",
				"AttributeError: 'NoneType' object has no attribute 'shape'"},
			"capture-cuda-graph-failed", ""},
		{"an adapter's load",
			[]string{"ERROR 05-12 10:00:00 [core.py:400] Call to add_lora method failed: AttributeError: 'NoneType' object has no attribute 'lora_a_stacked'"},
			"vllm-lora-adapter-load-failed", ""},
		// The exception leads: a record of a library names it, or the
		// wrapper only points at it.
		{"capture under a CUDA out of memory",
			[]string{"Exception: Capture cuda graph failed: RuntimeError: CUDA error: out of memory"},
			"cuda-error-out-of-memory", ""},
		{"the compiler backend under an illegal memory access",
			append(append([]string{}, frames...), "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
				"RuntimeError: CUDA error: an illegal memory access was encountered"),
			"cuda-illegal-memory-access", ""},
		{"a scheduler's catch-all over a NameError",
			[]string{"[2025-10-01 09:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2300, in run_scheduler_process`,
				"    scheduler.event_loop_overlap()",
				"NameError: name 'sgl_per_token_quant_fp8' is not defined"},
			"python-name-not-defined", ""},
	}
	for _, c := range cases {
		for _, l := range layouts {
			var lines []string
			for _, s := range c.lines {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != c.lead {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, c.lead, len(got), describe(got), strings.Join(lines, "\n"))
				continue
			}
			a := got[0]
			if c.exc != "" && a.Record.Role == string(patterns.RoleWrapper) {
				t.Errorf("%s, %s: the lead %s is still a wrapper", c.name, l.name, c.lead)
			}
			if c.exc != "" && (a.Match.Exception == nil || a.Match.Exception.Type != c.exc) {
				t.Errorf("%s, %s: want the exception %s, got %+v", c.name, l.name, c.exc, a.Match.Exception)
			}
		}
	}
}

// The wrapper leads only the code error printed with it: a code error
// read after healthy lines, long after the wrapper, is its own incident.
func TestARemedyWrapperDoesNotLeadALaterCodeError(t *testing.T) {
	m := crashMatcher(t)
	lines := []string{
		"[2025-06-01 12:00:00] WARNING torch._dynamo.convert_frame: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
		"[2025-06-01 12:00:00] WARNING torch._dynamo.convert_frame: RuntimeError: CUDA error: out of memory",
	}
	lines = append(lines, healthy...)
	for i := 0; i < 40; i++ {
		lines = append(lines, healthy[i%len(healthy)])
	}
	lines = append(lines, "[2025-06-01 12:05:00] ERROR my_app: NameError: name 'tokenizer' is not defined")
	got := scanLines(t, m, lines)
	if len(got) != 2 {
		t.Fatalf("want 2 incidents, got %d:%s", len(got), describe(got))
	}
}
