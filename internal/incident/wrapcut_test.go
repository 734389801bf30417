package incident_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

// A scheduler's wrapper over a traceback cut before its exception line
// leads (the wrapper record), and its headline says where the process
// died as a cut traceback no wrapper names does: the last frame printed
// and the statement it was running, in each paste's wording (a traceback
// cut inside ModelRunner's constructor while the weights load, one cut in
// the overlap loop's batch processing). Over a whole traceback, the
// exception says what failed and the headline names no frame.
func TestAWrapperOverACutTracebackSaysWhereItDied(t *testing.T) {
	m := matcherWithout(t)
	for _, c := range []struct {
		lines []string
		where string
	}{
		{[]string{
			"[2025-02-04 12:04:13 TP0] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1773, in run_scheduler_process`,
			"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker.py", line 68, in __init__`,
			"    self.model_runner = ModelRunner(",
			`  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 185, in __init__`,
		}, "model_runner.py:185"},
		{[]string{
			"[2025-12-15 00:02:05 DP1 TP1] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2740, in run_scheduler_process`,
			"    scheduler.event_loop_overlap()",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1033, in pop_and_process`,
			"    self.process_batch_result(tmp_batch, tmp_result)",
		}, "running self.process_batch_result(tmp_batch, tmp_result)"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.Slug != "scheduler-hit-an-exception" || !strings.Contains(got[0].Headline, "(last frame: ") || !strings.Contains(got[0].Headline, c.where) {
			t.Errorf("%q: want one incident led by the wrapper, its headline naming %q, got %d:%s %q", c.lines[0], c.where, len(got), describe(got), headlines(got))
		}
	}
	whole := []string{
		"[2025-12-15 00:02:05 DP1 TP1] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1033, in pop_and_process`,
		"    self.process_batch_result(tmp_batch, tmp_result)",
		"ValueError: batch result has no logits",
	}
	if got := scanLines(t, m, whole); len(got) != 1 || strings.Contains(got[0].Headline, "(last frame: ") {
		t.Errorf("a whole traceback: want its exception in the headline and no frame, got %d:%s %q", len(got), describe(got), headlines(got))
	}
}

func headlines(as []sinks.Alert) []string {
	var hs []string
	for _, a := range as {
		hs = append(hs, a.Headline)
	}
	return hs
}
