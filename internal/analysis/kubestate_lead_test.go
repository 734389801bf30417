package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
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

// An event table's Normal row says what the kubelet did about a failure
// ("Killing ... failed liveness probe, will be restarted"); the Warning
// row above it says what failed. When a record reads only the Normal row
// (the probe records left out), the Warning row leads; a table whose only Warning row is a
// readiness probe's (which restarts nothing) stays led by the record.
func TestAnEventsWarningRowLeadsTheRestartItCaused(t *testing.T) {
	recs, _ := patterns.Default()
	kept := recs[:0:0]
	for _, r := range recs {
		if r.Slug != "k8s-probe-failed" && r.Slug != "health-probe-endpoint-not-found" {
			kept = append(kept, r)
		}
	}
	m, _ := matcher.Compile(kept, matcher.Options{})
	for _, tt := range []struct{ name, in, want string }{
		{"cert-manager-webhook-hetzner#91", // vadimkim/cert-manager-webhook-hetzner#91
			"Events:\n" +
				"  Type     Reason     Age                    From               Message\n" +
				"  ----     ------     ----                   ----               -------\n" +
				"  Normal   Scheduled  5m12s                  default-scheduler  Successfully assigned cert-manager/cert-manager-webhook-hetzner-6d56ff8dd9-rw6vc to lxkubenode04\n" +
				"  Warning  Unhealthy  5m1s                   kubelet            Liveness probe failed: Get \"https://10.244.46.210:8443/healthz\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)\n" +
				"  Warning  Unhealthy  4m41s                  kubelet            Readiness probe failed: Get \"https://10.244.46.210:8443/healthz\": context deadline exceeded\n" +
				"  Normal   Killing    4m41s                  kubelet            Container cert-manager-webhook-hetzner failed liveness probe, will be restarted\n",
			"Liveness probe failed: Get \"https://10.244.46.210:8443/healthz\": context deadline exceeded"},
		{"llm-d-inference-sim#45", // llm-d/llm-d-inference-sim#45
			"luding waiting). Image size: 119461385 bytes.\n" +
				"  Warning  Unhealthy               25m (x3 over 25m)     kubelet                  Liveness probe failed: HTTP probe failed with statuscode: 404\n" +
				"  Normal   Killing                 25m                   kubelet                  Container vllm-standalone-3b-vllm-llama-3-3b-instruct failed liveness probe, will be restarted\n" +
				"  Normal   Pulling                 25m (x2 over 28m)     kubelet                  Pulling image \"ghcr.io/llm-d/llm-d-inference-sim:v0.1.1\"\n",
			"Liveness probe failed: HTTP probe failed with statuscode: 404"},
	} {
		got := analyzeText(m, tt.in)
		if len(got) != 1 || got[0].Cause != nil || !strings.Contains(got[0].Headline, tt.want) {
			t.Errorf("%s: want the Warning row leading, got %+v", tt.name, got)
		}
	}
	readiness := "Events:\n" +
		"  Type     Reason     Age                    From               Message\n" +
		"  ----     ------     ----                   ----               -------\n" +
		"  Warning  Unhealthy  4m41s                  kubelet            Readiness probe failed: Get \"https://10.244.46.210:8443/healthz\": context deadline exceeded\n" +
		"  Normal   Killing    4m41s                  kubelet            Container cert-manager-webhook-hetzner failed liveness probe, will be restarted\n"
	if got := analyzeText(m, readiness); len(got) != 1 || got[0].Cause == nil || got[0].Cause.Record.Slug != "k8s-probe-restarted-container" {
		t.Errorf("a readiness failure beside the restart: want the restart's record leading, got %+v", got)
	}
}
