package incident_test

import "testing"

// A wrapper whose own line quotes the failure it wraps says why the
// process died; a traceback cut before its exception line says only
// where. Printed together, in either order, the wrapper leads and the
// fragment is its context, for wrappers of several writers. A wrapper
// that quotes nothing, or only that something failed, still yields to the
// fragment's frames.

var cutTraceback = []string{
	"Exception in thread Thread-3 (forward_thread_func):",
	"Traceback (most recent call last):",
	`  File "/usr/lib/python3.10/threading.py", line 1016, in _bootstrap_inner`,
	"    self.run()",
	`  File "/srv/widget/worker.py", line 99, in forward_thread_func`,
	"    self.forward_thread_func_()",
}

func TestAWrapperQuotingItsFailureLeadsACutTraceback(t *testing.T) {
	m := crashMatcher(t)
	for _, w := range []struct{ name, line, want string }{
		{"c10d watchdog", "[PG ID 2 PG GUID 3 Rank 2] Process group watchdog thread terminated with exception: widget fabric lost queue pair 7 on port 2", "c10d-watchdog-thread-terminated"},
		{"TensorRT-LLM executor", "Failed to initialize executor on rank 6: WidgetNorm failed with error code 4711 on stream 3", "trtllm-executor-init-failed"},
		{"native CUDA check", "CUDA Error: widget kernel refused its launch (9001) /srv/widget/kernels.cuh: line 12 at function widget_launch", "native-cuda-error-at-function"},
	} {
		alone := scanLines(t, m, []string{w.line})
		if len(alone) != 1 || leadOf(alone[0]) != w.want {
			t.Fatalf("%s alone: want %s, got %d:%s", w.name, w.want, len(alone), describe(alone))
		}
		before := append([]string{w.line}, cutTraceback...)
		after := append(append([]string{}, cutTraceback...), w.line)
		for order, lines := range map[string][]string{"wrapper first": before, "wrapper last": after} {
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != w.want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s", w.name, order, w.want, len(got), describe(got))
			}
		}
	}
}

func TestAWrapperQuotingNothingYieldsToACutTraceback(t *testing.T) {
	m := crashMatcher(t)
	for _, line := range []string{
		"Failed to initialize executor on rank 6: initialization failed",
		"[PG ID 2 PG GUID 3 Rank 2] Process group watchdog thread terminated with exception:",
	} {
		got := scanLines(t, m, append([]string{line}, cutTraceback...))
		if len(got) != 1 || got[0].Record.ID != "" {
			t.Errorf("%q: want one incident led by the cut traceback, got %d:%s", line, len(got), describe(got))
		}
	}
}
