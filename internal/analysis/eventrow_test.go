package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

func TestEventRowType(t *testing.T) {
	for line, want := range map[string]string{
		// kubectl describe's Events: type, reason, age, from, message.
		"  Warning  Unhealthy  25m (x3 over 25m)  kubelet  Liveness probe failed: HTTP probe failed with statuscode: 404": "Warning",
		"  Normal   Killing    25m                kubelet  Container app failed liveness probe, will be restarted":        "Normal",
		// kubectl get events and kubectl events: last seen first.
		"5m          Warning   BackOff            pod/app-0   Back-off restarting failed container": "Warning",
		"5m          Normal    Killing            pod/app-0   Stopping container app":               "Normal",
		"LAST SEEN   TYPE      REASON             OBJECT      MESSAGE":                              "",
		"  Type     Reason     Age   From     Message":                                              "",
		// Prose and log lines that say the words are no rows.
		"Warning: the probe failed, will be restarted": "",
		"Normal Killing of the container, no padding":  "",
		"[2025-01-02 10:00:00] Warning  cache is full": "",
		"  Warning  liveness probe failed for app":     "",
		"": "",
	} {
		if got := analysis.EventRowType(line); got != want {
			t.Errorf("EventRowType(%q) = %q, want %q", line, got, want)
		}
	}
}

// Two rows of one event table that two records read: the Warning row says
// why, the Normal row what the kubelet did about it; the Warning row leads
// in either order, even when the matcher ranks the Normal row's record
// first.
func TestWarningEventRowLeadsNormalRow(t *testing.T) {
	restart := patterns.Record{ID: "r", Slug: "restarted-after-probe", MessagePattern: `failed (?:liveness|startup) probe, will be restarted`,
		Severity: patterns.SeverityError, Solutions: []string{"look at the probe"}}
	why := patterns.Record{ID: "w", Slug: "probe-answered-404", MessagePattern: `statuscode: 404`,
		Severity: patterns.SeverityError, Solutions: []string{"point the probe at the health path"}}
	m, probs := matcher.Compile([]patterns.Record{restart, why}, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	const head = "Events:\n  Type     Reason     Age                From     Message\n  ----     ------     ----               ----     -------\n"
	for name, in := range map[string]string{
		"oldest first": head +
			"  Warning  Unhealthy  25m (x3 over 25m)  kubelet  Liveness probe failed: HTTP probe failed with statuscode: 404\n" +
			"  Normal   Killing    25m                kubelet  Container app failed liveness probe, will be restarted\n",
		"newest first": head +
			"  Normal   Killing    3m                 kubelet  Container app failed startup probe, will be restarted\n" +
			"  Warning  Unhealthy  4m                 kubelet  Startup probe failed: HTTP probe failed with statuscode: 404\n",
	} {
		ds := analyzeText(m, in)
		if len(ds) != 1 || ds[0].Cause == nil || ds[0].Cause.Record.Slug != "probe-answered-404" {
			t.Errorf("%s: %+v", name, ds)
		}
	}
	// Lines that are no event rows keep the matcher's order.
	ds := analyzeText(m, "probe report:\n  Container app failed liveness probe, will be restarted\n  Liveness probe failed: HTTP probe failed with statuscode: 404\n")
	if len(ds) != 1 || ds[0].Cause == nil || ds[0].Cause.Record.Slug != "restarted-after-probe" {
		t.Errorf("plain lines: %+v", ds)
	}
}

func TestAwaitsNCCLDetail(t *testing.T) {
	const torch = "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2"
	const usage = "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5"
	for _, c := range []struct {
		name, line, text string
		want             bool
	}{
		{"alone in its entry", torch, torch, true},
		{"its last error a record of its own", usage, usage + "\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.", true},
		{"last error left empty", torch, torch + "\nncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\n\n", true},
		{"last error in the entry", torch, torch + "\nncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\nCuda failure 2 'out of memory'", false},
		{"last error on the same line", torch, torch + " Last error: Cuda failure 'invalid argument'", false},
		// Writers that append no last error: their line is all there is.
		{"pynccl", "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)", false},
		{"ggml", "CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)", false},
		// A result NCCL explains in no warning.
		{"remote error", "NCCL error in: x.cpp:1, remote process exited or there was a network error, NCCL version 2.21.5", "", false},
	} {
		if got := analysis.AwaitsNCCLDetail(c.line, c.text); got != c.want {
			t.Errorf("%s: AwaitsNCCLDetail = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestQuotesFailure(t *testing.T) {
	for line, want := range map[string]bool{
		"[PG ID 2 PG GUID 3 Rank 2] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered": true,
		"Failed to initialize executor on rank 6: Executor creation failed with error code 209 on device 6":                                        true,
		"CUDA Error: device-side assert triggered (710) /x/decode.cuh: line 749 at function cudaFuncSetAttribute":                                  true,
		// A traceback, nothing, or only that something failed.
		"Scheduler hit an exception: Traceback (most recent call last):":  false,
		"DetokenizerManager hit an exception: ":                           false,
		"Failed to initialize executor on rank 6: initialization failed":  false,
		"Exception in ASGI application":                                   false,
		"EngineCore failed to start.":                                     false,
		"Capture cuda graph failed: \nTraceback (most recent call last):": false,
	} {
		if got := analysis.QuotesFailure(line); got != want {
			t.Errorf("QuotesFailure(%q) = %v, want %v", line, got, want)
		}
	}
}
