package incident_test

import (
	"strings"
	"testing"
)

// kubectl describe of a Pending pod prints its Conditions row
// ("PodScheduled   False") and, a few lines on, the scheduler's event that
// says why: one report of one pod, one incident led by the event, the row
// listed in it, with the events of two threads (a node cordoned beside
// one without the GPU; an OpenShift cluster whose GPU nodes are full).
// The row alone still alerts; an event another describe printed far
// below, after other output, keeps its own incident.
func TestAPendingPodsConditionJoinsTheEventThatSaysWhy(t *testing.T) {
	m := crashMatcher(t)
	pod := []string{
		"root@ttogpu:~# kubectl describe pod triton-inference-server-5b6c7f889c-f54c6 ",
		"Name:             triton-inference-server-5b6c7f889c-f54c6",
		"Namespace:        default",
		"Node:             <none>",
		"Status:           Pending",
		"Containers:",
		"  triton-server:",
		"    Image:       triton_server:latest",
		"    Limits:",
		"      nvidia.com/gpu:  1",
		"Conditions:",
		"  Type           Status",
		"  PodScheduled   False",
		"Volumes:",
		"  model-repository:",
		"    Type:          HostPath (bare host directory volume)",
	}
	events := [][]string{
		{
			"Events:",
			" Warning FailedScheduling  40s (x2 over 40s)  default-scheduler  0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable.",
		},
		{
			"Events:",
			"  Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are available: 3 node(s) didn't match node selector, 6 Insufficient nvidia.com/gpu.",
		},
	}
	for _, ev := range events {
		got := scanLines(t, m, append(append([]string{}, pod...), ev...))
		if len(got) != 1 || got[0].Record.Slug != "k8s-gpu-unschedulable" || len(got[0].Consequences) == 0 {
			t.Errorf("%q: want one incident led by the event with the condition listed, got %d:%s", ev[1], len(got), describe(got))
		}
	}
	if got := scanLines(t, m, pod); len(got) != 1 {
		t.Errorf("the condition alone: want it alerted, got %d:%s", len(got), describe(got))
	}
	far := append([]string{}, pod...)
	for i := range 80 {
		far = append(far, "  INFO model repository poll "+strings.Repeat("x", 40)+" "+string(rune('a'+i%26)))
	}
	far = append(far, events[0]...)
	if got := scanLines(t, m, far); len(got) != 2 {
		t.Errorf("an event far below the condition: want two incidents, got %d:%s", len(got), describe(got))
	}
}
