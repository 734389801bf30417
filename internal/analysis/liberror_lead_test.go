package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
)

// With no record at all, a native library's own error line is a failure
// led by that line, whichever library printed it; the routine lines of
// several engines that mention an error in passing stay quiet.
func TestLibraryErrorLineLeadsWithoutARecord(t *testing.T) {
	m, probs := matcher.Compile(nil, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	for _, line := range []string{
		"rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory",
		"MIOpen Error: /long/pathname/src/ocl/convolutionocl.cpp:123: No suitable algorithm was found to execute the required convolution",
		"NCCL error: remote process exited or there was a network error",
		"[widget_saver.cpp] CUresult error  result=2 file=csrc/widget_saver.cpp func=create line=103",
		"[gadget_kernel] CRITICAL: Could not load any ops library!",
		"[/src/app/topology/gpu.cpp:80] ERROR: device query failed",
	} {
		got := analyzeText(m, line+"\n")
		if !one(t, line, got) {
			continue
		}
		if got[0].Headline != line || got[0].Signal != analysis.SignalLevel {
			t.Errorf("%q: headline %q, signal %q", line, got[0].Headline, got[0].Signal)
		}
	}
	for _, line := range []string{
		"[2026-02-01 10:00:00] Set error_on_oom=False, retrying failed requests once",
		"INFO 02-01 10:00:00 [core.py:61] CUDA error checking is enabled; failed requests are retried",
		"WARNING 02-01 10:00:00 [config.py:12] NCCL error handling mode is deprecated",
		"I0201 10:00:00.000000  4418 rdma_context.cpp:198] Registered memory; error count=0",
		"RMSE error: 0.0213",
		"CUDA error checking is enabled",
		"NCCL error handling mode set to 3",
		"[gpu.cpp:80] Initialized 8 devices, error reporting enabled",
		"[scheduler] Error handling: strict",
		"HTTP error count=3 in the last minute",
		"CUDA error code=0",
	} {
		if got := analyzeText(m, line+"\n"); len(got) > 0 {
			t.Errorf("%q: read as a failure: %q", line, got[0].Headline)
		}
	}
}
