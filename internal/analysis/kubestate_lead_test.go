package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/matcher"
)

// With no record at all, kubectl's report of a failed workload is a
// failure led by its row, from describe's events, get events and get
// pods alike; the tables of a healthy workload stay quiet.
func TestKubeFailureRowLeadsWithoutARecord(t *testing.T) {
	m, probs := matcher.Compile(nil, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	for _, tt := range []struct{ in, want string }{
		{"NAME        READY   STATUS             RESTARTS   AGE\n" +
			"widget-0    1/1     Running            0          3d\n" +
			"widget-1    0/1     CrashLoopBackOff   42         3d\n",
			"widget-1    0/1     CrashLoopBackOff   42         3d"},
		{"LAST SEEN   TYPE      REASON             OBJECT         MESSAGE\n" +
			"2m          Warning   FailedScheduling   pod/widget-2   0/4 nodes are available: 4 Insufficient nvidia.com/gpu.\n",
			"2m          Warning   FailedScheduling   pod/widget-2   0/4 nodes are available: 4 Insufficient nvidia.com/gpu."},
		{"  Type     Reason   Age   From     Message\n" +
			"  ----     ------   ----  ----     -------\n" +
			"  Warning  Failed   10s   kubelet  Failed to pull image \"registry.local/widget:9\": not found\n",
			"Warning  Failed   10s   kubelet  Failed to pull image \"registry.local/widget:9\": not found"},
	} {
		got := analyzeText(m, tt.in)
		if len(got) == 0 {
			t.Errorf("%q: no failure", tt.in)
			continue
		}
		if got[0].Headline != tt.want {
			t.Errorf("%q: headline %q, want %q", tt.in, got[0].Headline, tt.want)
		}
	}
	for _, in := range []string{
		"NAME        READY   STATUS      RESTARTS   AGE\nwidget-0    1/1     Running     0          3d\njob-7       0/1     Completed   0          1h\n",
		"  Type    Reason     Age   From     Message\n  ----    ------     ----  ----     -------\n  Normal  Scheduled  1m    default-scheduler  Successfully assigned default/widget-0 to node-1\n  Normal  Pulled     1m    kubelet  Container image \"widget:1\" already present on machine\n",
		"      Reason:       Completed\n",
	} {
		if got := analyzeText(m, in); len(got) > 0 {
			t.Errorf("%q: read as a failure: %q", in, got[0].Headline)
		}
	}
}
