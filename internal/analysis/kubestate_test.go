package analysis

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
)

// TestKubeFailureRow reads the rows of kubectl's output that report a
// failed workload, as describe's events, get events, get pods and
// describe's container state print them, and leaves alone the rows of a
// healthy one.
func TestKubeFailureRow(t *testing.T) {
	for l, want := range map[string]bool{
		"  Warning  BackOff    2m (x12 over 5m)  kubelet  Back-off restarting failed container widget in pod web-0": true,
		"  Warning  Failed     3m                kubelet  Error: ErrImagePull":                                      true,
		"  Warning  FailedMount  1m  kubelet  MountVolume.SetUp failed for volume \"cache\"":                        true,
		"5m          Warning   FailedScheduling   pod/web-0   0/3 nodes are available: 3 Insufficient memory.":      true,
		"12s   Warning   Unhealthy   pod/api-7   Readiness probe failed: HTTP probe failed with statuscode: 503":    false,
		"web-0                       0/1     CrashLoopBackOff    7 (2m ago)   12m":                                  true,
		"api-7f9c   0/1   Init:Error   2   3m":                                                                      true,
		"worker-2   0/1   OOMKilled    1   40s":                                                                     true,
		"      Reason:       CrashLoopBackOff":                                                                      true,
		"      Reason:       OOMKilled":                                                                             true,

		"  Warning  Unhealthy  1s (x2 over 2s)  kubelet  Readiness probe failed: Get http://10.0.0.1:8000/health: connection refused": false,
		"  Warning  Unhealthy  5m  kubelet  Liveness probe failed: Get \"http://10.0.0.1:8000/health\": context deadline exceeded":    true,
		"  Normal   Pulled     3m   kubelet  Successfully pulled image \"widget:1\"":                                                  false,
		"  Normal   BackOff    3m   kubelet  note":    false,
		"  Warning  Preempting 3m   kubelet  note":    false,
		"  Warning  BackOff":                          false,
		"NAME       READY   STATUS    RESTARTS   AGE": false,
		"web-0      1/1     Running   0          12m": false,
		"job-1      0/1     Completed 0          12m": false,
		"      Reason:       Completed":               false,
		"      Reason:       the disk filled up":      false,
		"Warning: FailedMount is deprecated":          false,
		"Warning  FailedToAttach widgets later":       true,
		"Warning  Failedwidget x":                     false,
		"ratio 1/2 Error 3 samples":                   false,
		"  PodScheduled   False":                      true,
		"  PodScheduled   False ":                     true,
		"  PodScheduled   True":                       false,
		"  Ready          False":                      false,
		"PodScheduled False":                          false,
	} {
		if got := kubeFailureRow(l); got != want {
			t.Errorf("kubeFailureRow(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestSchedulerFitError reads the scheduler's message that no node fits
// a pod wherever it is quoted (an event glued to prose, describe's
// message, an autoscaler's log), and leaves alone counts of nodes that
// fit and the message without its reasons.
func TestSchedulerFitError(t *testing.T) {
	for l, want := range map[string]bool{
		"**What happened**:Warning  FailedScheduling  67s   hami-scheduler  0/4 nodes are available: 1 NodeUnfitPod, 2 node unregistered.":                  true,
		"0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found.":                       true,
		"I0601 12:00:00.000000 1 scheduler.go:100] Unable to schedule pod; 0/12 nodes are available: 12 node(s) didn't match Pod's node affinity/selector.": true,
		"Message: 0/1 nodes are available: 1 Too many pods.": true,
		"4/4 nodes are available: all good":                  false,
		"10/12 nodes are available: 2 cordoned":              false,
		"0/4 nodes are available: ":                          false,
		"nodes are available: 3 Insufficient memory":         false,
		"100/4 nodes are available: x":                       false,
	} {
		if got := kubeFailureRow(l); got != want {
			t.Errorf("kubeFailureRow(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzKubeFailureRow checks that kubeFailureRow never panics and that the
// scheduler's message it reads holds its mark.
func FuzzKubeFailureRow(f *testing.F) {
	for _, s := range []string{"0/4 nodes are available: 1 x", "  Warning  BackOff  1s  kubelet  x", "web-0  0/1  CrashLoopBackOff  7  12m", "0/ nodes are available: x", "/0 nodes are available: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if schedulerFitError(l) && !strings.Contains(l, "0/") {
			t.Fatalf("schedulerFitError(%q) without a count", l)
		}
		_ = kubeFailureRow(l)
	})
}

// TestPodUnscheduled alerts kubectl describe's Conditions row of a pod the
// scheduler placed nowhere, with no events in sight (the NVIDIA device
// plugin's and a Triton deployment's Pending pods asking nvidia.com/gpu),
// at a warning's severity and as the consequence the scheduler's own
// message leads when the events show it; a scheduled pod's row is silent.
func TestPodUnscheduled(t *testing.T) {
	for _, text := range []string{
		"Conditions:\n  Type           Status\n  PodScheduled   False\nVolumes:\n  default-token-k95tg:\n",
		"Conditions:\n  Type           Status\n  PodScheduled   False \n",
	} {
		var got []Diagnosis
		an := New(emptyCatalog(t))
		for _, e := range assembleAll(text) {
			if d, ok := an.Analyze(&e); ok {
				got = append(got, d)
			}
		}
		if len(got) != 1 || got[0].Severity != "warning" || got[0].Role != "consequence" || !strings.Contains(got[0].Headline, "PodScheduled") {
			t.Errorf("%q: got %+v", text, got)
		}
	}
	an := New(emptyCatalog(t))
	for _, e := range assembleAll("Conditions:\n  Type              Status\n  Initialized       True\n  Ready             True\n  ContainersReady   True\n  PodScheduled      True\n") {
		if d, ok := an.Analyze(&e); ok {
			t.Errorf("a scheduled pod's conditions alert: %q", d.Headline)
		}
	}
}

// emptyCatalog is a matcher of no record: what the analysis reads alone.
func emptyCatalog(t *testing.T) *matcher.Matcher {
	t.Helper()
	m, err := matcher.Compile(nil, matcher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
