package incident_test

import (
	"fmt"
	"strings"
	"testing"
)

// torch's report of a failed NCCL call stands for the warning NCCL printed
// where the call failed, which torch appends after "Last error:". Under a
// logger that heads every line, that warning is a record of its own a few
// lines later: when a record names it, it leads and torch's report is its
// context, whatever the header; when none does, torch's record keeps the
// lead. Another rank's failure, or one printed long after, is another
// incident.

// ncclReport is torch's report of a failed NCCL call: the DistBackendError
// line, NCCL's error name, "Last error:" and the warning.
func ncclReport(result, name, warning string) []string {
	return []string{
		"torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, " + result + ", NCCL version 2.26.2",
		name,
		"Last error:",
		warning,
	}
}

var ncclHeaders = []struct {
	name string
	head func(line string) string
}{
	{"vLLM worker", func(l string) string {
		return "(VllmWorker rank=3 pid=15164) ERROR 06-19 07:06:13 [multiproc_executor.py:527] " + l
	}},
	{"Python logging", func(l string) string { return "2025-06-19 07:06:13,512 - worker - ERROR - " + l }},
	{"torchrun rank", func(l string) string { return "[rank3]: " + l }},
}

func TestNCCLsWarningLeadsTorchsReportOfIt(t *testing.T) {
	m := crashMatcher(t)
	for _, w := range []struct{ result, name, warning, want string }{
		{"unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "ncclUnhandledCudaError: Call to CUDA function failed.",
			"Cuda failure 2 'out of memory'", ""},
		{"unhandled system error (run with NCCL_DEBUG=INFO for details)", "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
			"socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host", ""},
	} {
		want := leadOf(scanLines(t, m, []string{w.warning})[0])
		for _, h := range ncclHeaders {
			var lines []string
			for _, l := range ncclReport(w.result, w.name, w.warning) {
				lines = append(lines, h.head(l))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s", h.name, w.warning, want, len(got), describe(got))
			}
		}
	}
}

func TestTorchsNCCLReportKeepsTheLeadOverAnUnnamedWarning(t *testing.T) {
	m := crashMatcher(t)
	report := ncclReport("unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "ncclUnhandledCudaError: Call to CUDA function failed.",
		"Cuda failure 1 'a failure no record names'")
	want := leadOf(scanLines(t, m, report[:1])[0])
	for _, h := range ncclHeaders {
		var lines []string
		for _, l := range report {
			lines = append(lines, h.head(l))
		}
		if got := scanLines(t, m, lines); len(got) == 0 || leadOf(got[0]) != want {
			t.Errorf("%s: want the lead %s, got %d:%s", h.name, want, len(got), describe(got))
		}
	}
}

// Contrasts: the warning of another rank, and one printed long after torch's
// report with healthy serving between, are failures of their own.
func TestAnotherRanksOrALaterNCCLWarningStaysItsOwn(t *testing.T) {
	m := crashMatcher(t)
	report := ncclReport("unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "ncclUnhandledCudaError: Call to CUDA function failed.", "")
	rank := func(r int, l string) string { return fmt.Sprintf("[rank%d]: %s", r, l) }
	other := []string{rank(3, report[0]), rank(3, report[1]), rank(5, "RuntimeError: CUDA error: out of memory")}
	if got := scanLines(t, m, other); len(got) != 2 {
		t.Errorf("another rank's warning: want two incidents, got %d:%s", len(got), describe(got))
	}
	later := []string{"[2025-06-01 12:00:00] " + report[0]}
	for k := 0; k < 30; k++ {
		later = append(later, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-06-01 12:%02d:00", 10+k), 1))
	}
	later = append(later, "[2025-06-01 12:45:00] RuntimeError: CUDA error: out of memory")
	if got := scanLines(t, m, later); len(got) != 2 {
		t.Errorf("a later failure: want two incidents, got %d:%s", len(got), describe(got))
	}
}
