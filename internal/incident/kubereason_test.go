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

// A crash loop's back-off (kubectl get pods' STATUS column, the kubelet's
// "back-off ... restarting failed container" waiting message) says only
// that the container keeps dying; the status of its last termination,
// as kubectl get -o yaml and KServe's lastFailureInfo print it, says how:
// exit code 137, a SIGKILL, leads the back-off in one incident, and the
// kubelet's OOMKilled reason, when the status has one, leads both. A
// back-off alone still alerts.
func TestTheLastTerminationLeadsTheCrashLoop(t *testing.T) {
	m := matcherWithout(t)
	getPods := []string{
		"NAME                                                            READY   STATUS             RESTARTS   AGE",
		"bert-v2-predictor-default-00003-deployment-7d97bb994c-mvllp     0/2     CrashLoopBackOff   6          10m",
	}
	lastFailure := []string{
		"      lastFailureInfo:",
		"        exitCode: 137",
		"        message: |",
	}
	status := func(reason string) []string {
		return []string{
			"    lastState:",
			"      terminated:",
			"        containerID: containerd://dff4777c1748c909f9a4a915f938c31f9d1543e64420dcab5a76c2a6563b87df",
			"        exitCode: 137",
			"        finishedAt: \"2026-04-22T02:50:04Z\"",
			"        reason: " + reason,
			"        startedAt: \"2026-04-22T02:50:03Z\"",
			"    name: memhog",
			"    ready: false",
			"    restartCount: 203",
			"    state:",
			"      waiting:",
			"        message: back-off 5m0s restarting failed container=memhog pod=memhog-5d8f",
			"        reason: CrashLoopBackOff",
		}
	}
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{append(append(append([]string{}, getPods...), "```", "", "```"), lastFailure...), "process-killed-sigkill"},
		{status("Error"), "process-killed-sigkill"},
		{status("OOMKilled"), "k8s-container-oom-killed"},
		{getPods, "k8s-container-crashloop"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.Slug != c.want {
			t.Errorf("%q: want one incident led by %s, got %d:%s", c.lines, c.want, len(got), describe(got))
		}
	}
}
