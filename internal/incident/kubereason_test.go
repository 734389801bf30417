package incident_test

import (
	"strings"
	"testing"
)

// kubectl describe's container state says why the kubelet killed or
// will not start a container on its reason line ("Reason: OOMKilled"):
// with no record reading it, that line still leads the lines of the same
// state that say only that the container died or restarts ("Exit Code:
// 137", a crash loop's "Reason: CrashLoopBackOff") and the records that
// read them, in one incident (state blocks as users pasted them: a last
// state alone, a crash loop's waiting state then its last state). A
// reason that says only that the process exited ("Reason: Error") leaves
// the lead where it was, and an OOM kill of an earlier restart does not
// take the lead of the failure logged after it.
func TestTheKubeletsReasonLeadsTheContainersDeath(t *testing.T) {
	m := matcherWithout(t, "k8s-container-oom-killed")
	for _, lines := range [][]string{
		{
			"Last State:     Terminated",
			"  Reason:       OOMKilled",
			"  Exit Code:    137",
			"  Started:      Fri, 15 Sep 2023 09:56:14 +0200",
			"  Finished:     Fri, 15 Sep 2023 09:56:17 +0200",
		},
		{
			"    State:          Waiting",
			"      Reason:       CrashLoopBackOff",
			"    Last State:     Terminated",
			"      Reason:       OOMKilled",
			"      Exit Code:    1",
			"      Started:      Thu, 04 Jan 2024 17:52:29 +0800",
			"      Finished:     Thu, 04 Jan 2024 17:52:49 +0800",
			"    Ready:          False",
			"    Restart Count:  3",
		},
	} {
		got := scanLines(t, m, lines)
		if len(got) != 1 || got[0].Record.ID != "" || !strings.Contains(got[0].Headline, "OOMKilled") {
			t.Errorf("%q: want one incident led by the OOMKilled reason, got %d:%s", lines, len(got), describe(got))
		}
	}
	exited := []string{
		"    State:          Waiting",
		"      Reason:       CrashLoopBackOff",
		"    Last State:     Terminated",
		"      Reason:       Error",
		"      Exit Code:    137",
		"      Started:      Sun, 11 Aug 2024 17:16:14 +0200",
		"      Finished:     Sun, 11 Aug 2024 19:00:03 +0200",
	}
	if got := scanLines(t, m, exited); len(got) == 0 || got[0].Record.ID == "" {
		t.Errorf("Reason: Error: want a record leading, got %d:%s", len(got), describe(got))
	}
	earlier := []string{
		"    Last State:     Terminated",
		"      Reason:       OOMKilled",
		"      Exit Code:    137",
		"      Started:      Mon, 31 Aug 2020 16:32:42 -0500",
		"      Finished:     Mon, 31 Aug 2020 16:33:08 -0500",
		"    Ready:          True",
		"    Restart Count:  1",
		"[2024-03-05 10:12:09] ERROR Scheduler hit an exception: Traceback (most recent call last):",
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1842, in run_scheduler_process",
		"    scheduler.event_loop_normal()",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.06 GiB is free.",
	}
	got := scanLines(t, m, earlier)
	led := false
	for _, a := range got {
		if a.Record.Slug == "cuda-out-of-memory" {
			led = true
		}
	}
	if !led {
		t.Errorf("an OOM kill of an earlier restart, then CUDA's out of memory: want CUDA's record leading its incident, got %d:%s", len(got), describe(got))
	}
}
