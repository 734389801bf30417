package incident_test

import (
	"strings"
	"testing"
)

// torch reports a failed NCCL call with NCCL's result string, its error
// name, "Last error:" and the warning NCCL printed where the call failed.
// When no record reads that warning, the record of torch's report leads,
// and its headline says the warning: what failed (a shared memory segment
// it could not create, a CUDA call refused between two GPUs), in the lines
// of two threads' entries, the warning on the line after the marker or on
// its own. A report without a last error keeps its line as headline.
func TestTorchsNCCLReportSaysTheLastError(t *testing.T) {
	m := matcherWithout(t, "nccl-shared-memory-segment-failed", "cuda-peer-access-unsupported")
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{[]string{
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
			"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
			"Last error:",
			"Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)",
		}, "Last error: Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)"},
		{[]string{
			"torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3353, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2",
			"ncclUnhandledCudaError: Call to CUDA function failed.",
			"Last error:",
			"Cuda failure 217 'peer access is not supported between these two devices'",
		}, "Last error: Cuda failure 217 'peer access is not supported between these two devices'"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.ID == "" || !strings.Contains(got[0].Headline, c.says) {
			t.Errorf("%s: want one classified incident whose headline says it, got %d:%s", c.says, len(got), describe(got))
		}
	}
	bare := "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"
	if got := scanLines(t, m, []string{bare}); len(got) != 1 || strings.Contains(got[0].Headline, "Last error") {
		t.Errorf("a report without its last error: want its line as headline, got %d:%s", len(got), describe(got))
	}
}
