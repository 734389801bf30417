package incident_test

import (
	"strings"
	"testing"
)

// Frames pasted without their header and cut before the exception are
// headed by the call they were making and their deepest File line: the
// headline names that frame once, without a "(last frame: ...)" that
// repeats it. A traceback with its header still says where it was cut.
func TestHeaderlessFramesNameTheirDeepestFrameOnce(t *testing.T) {
	m := matcherWithout(t)
	for _, c := range []struct {
		name  string
		lines []string
		frame string
	}{
		{"npu event loop", []string{ // sgl-project/sglang#18329
			`File "/home/yang/sglang/python/sglang/srt/managers/scheduler.py", line 3091, in run_scheduler_process`,
			"    scheduler.event_loop_overlap()",
			`  File "/home/yang/sglang/python/sglang/srt/managers/scheduler.py", line 2299, in run_batch`,
			"    batch_result = self.model_worker.forward_batch_generation(",
			"                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
			`  File "/home/yang/sglang/python/sglang/srt/managers/tp_worker.py", line 451, in forward_batch_generation`,
		}, "tp_worker.py"},
		{"ascend start-up, quoted", []string{ // sgl-project/sglang#8700
			`>   File "/usr/local/python3.11.13/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 2421, in run_scheduler_process`,
			">     scheduler = Scheduler(",
			">                 ^^^^^^^^^^",
			`>   File "/usr/local/python3.11.13/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 312, in __init__`,
			">     self.tp_worker = TpWorkerClass(",
			">                      ^^^^^^^^^^^^^^",
			`>   File "/usr/local/python3.11.13/lib/python3.11/site-packages/sglang/srt/managers/tp_worker_overlap_thread.py", line 67, in __init__`,
		}, "tp_worker_overlap_thread.py"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 {
			t.Errorf("%s: want one incident, got %d:%s", c.name, len(got), describe(got))
			continue
		}
		h := got[0].Headline
		if strings.Count(h, c.frame) != 1 || strings.Contains(h, "(last frame: ") {
			t.Errorf("%s: want the deepest frame named once, got %q", c.name, h)
		}
	}
	// With its header, the cut traceback still names where it was cut.
	headed := []string{
		"Traceback (most recent call last):",
		`  File "/home/yang/sglang/python/sglang/srt/managers/scheduler.py", line 3091, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		`  File "/home/yang/sglang/python/sglang/srt/managers/tp_worker.py", line 451, in forward_batch_generation`,
		"    logits_output = self.model_runner.forward(forward_batch)",
	}
	if got := scanLines(t, m, headed); len(got) != 1 || !strings.Contains(got[0].Headline, "(last frame: forward_batch_generation") {
		t.Errorf("a headed cut traceback: want its last frame named, got %d:%s", len(got), describe(got))
	}
}
