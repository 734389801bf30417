package incident_test

import (
	"strings"
	"testing"
)

// A process stopped with Ctrl+C prints where it was: a traceback ending in
// a bare KeyboardInterrupt. Two multiprocessing children stopped at once
// interleave theirs, and a paste may indent every line by one space. The
// stop is one incident, named by KeyboardInterrupt, whose headline says
// where the process's own work stood (verl's sglang rollout waiting in
// broadcast_pyobj, a simulation's process sleeping in its update loop). A
// real failure before the interrupt still leads.
func TestAnInterruptedProcessIsOneStopWhereItsWorkStood(t *testing.T) {
	m := matcherWithout(t)
	verl := []string{
		"Process Process-3:",
		" Process Process-1:",
		" Traceback (most recent call last):",
		`   File "/disk0/anaconda3/envs/verl/lib/python3.10/multiprocessing/process.py", line 314, in _bootstrap`,
		"     self.run()",
		" Traceback (most recent call last):",
		`   File "/disk0/anaconda3/envs/verl/lib/python3.10/multiprocessing/process.py", line 108, in run`,
		"     self._target(*self._args, **self._kwargs)",
		`   File "/disk0/anaconda3/envs/verl/lib/python3.10/site-packages/sglang/srt/managers/scheduler.py", line 2311, in run_scheduler_process`,
		"     scheduler.event_loop_overlap()",
		`   File "/disk0/anaconda3/envs/verl/lib/python3.10/site-packages/sglang/srt/managers/scheduler.py", line 872, in recv_requests`,
		"     recv_reqs = broadcast_pyobj(",
		`   File "/disk0/anaconda3/envs/verl/lib/python3.10/site-packages/sglang/srt/utils.py", line 934, in broadcast_pyobj`,
		"     tensor_size = torch.tensor([0], dtype=torch.long, device=device)",
		" KeyboardInterrupt",
	}
	sim := []string{
		"Process EnvProcess:",
		"Traceback (most recent call last):",
		`  File "/Library/Frameworks/Python.framework/Versions/3.9/lib/python3.9/multiprocessing/process.py", line 315, in _bootstrap`,
		"    self.run()",
		`  File "/Library/Frameworks/Python.framework/Versions/3.9/lib/python3.9/multiprocessing/process.py", line 108, in run`,
		"    self._target(*self._args, **self._kwargs)",
		`  File "/Users/me/language-models-trajectory-generators/env.py", line 156, in run_simulation_environment`,
		"    env.update()",
		`  File "/Users/me/language-models-trajectory-generators/env.py", line 34, in update`,
		"    time.sleep(config.control_dt)",
		"KeyboardInterrupt",
	}
	for _, c := range []struct {
		lines []string
		where string
	}{
		{verl, "stopped by hand in broadcast_pyobj (sglang/srt/utils.py:934) < recv_requests"},
		{sim, "stopped by hand in update (/Users/me/language-models-trajectory-generators/env.py:34) < run_simulation_environment"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.ID != "" || got[0].Match.Exception == nil || got[0].Match.Exception.Type != "KeyboardInterrupt" ||
			!strings.Contains(got[0].Headline, c.where) {
			t.Errorf("%q: want one KeyboardInterrupt incident naming %q, got %d:%s", c.lines, c.where, len(got), describe(got))
		}
	}
	crashed := append([]string{
		"[2024-03-05 10:12:09 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1842, in run_scheduler_process`,
		"    scheduler.event_loop_normal()",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.06 GiB is free.",
	}, sim[1:]...)
	if got := scanLines(t, m, crashed); len(got) == 0 || got[0].Record.Slug != "cuda-out-of-memory" {
		t.Errorf("a crash, then the interrupt: want CUDA's record leading, got %d:%s", len(got), describe(got))
	}
}
