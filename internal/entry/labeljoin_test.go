package entry

import (
	"strings"
	"testing"
)

// TestLabelJoins: a failure record that ends in a message label, and the
// same logger's next record carrying what it labels, are one entry; any
// other pair of records stays two.
func TestLabelJoins(t *testing.T) {
	for _, c := range []struct {
		name string
		text string
		want int // entries
	}{
		{"python-reason", "" +
			"2025-11-06 02:10:00,702 - worker - ERROR - Model load failed. Reason:\n" +
			"2025-11-06 02:10:00,702 - worker - ERROR - CUDA out of memory. Tried to allocate 2.00 GiB\n", 1},
		{"python-nccl-last-error", "" +
			"2025-11-06 02:10:00,702 - worker - ERROR - ncclUnhandledCudaError: Call to CUDA function failed.\n" +
			"2025-11-06 02:10:00,702 - worker - ERROR - Last error:\n" +
			"2025-11-06 02:10:00,702 - worker - ERROR - Cuda failure 2 'out of memory'\n", 1},
		{"python-caused-by-next-millisecond", "" +
			"2025-11-06 02:10:00,702 ERROR engine: Engine core failed. Caused by:\n" +
			"2025-11-06 02:10:00,703 ERROR engine: RuntimeError: CUDA error: an illegal memory access was encountered\n", 1},
		{"vllm-nccl-name-line", "" +
			"(VllmWorker rank=3 pid=1) ERROR 06-19 07:06:13 [multiproc_executor.py:527] torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error\n" +
			"(VllmWorker rank=3 pid=1) ERROR 06-19 07:06:13 [multiproc_executor.py:527] ncclUnhandledCudaError: Call to CUDA function failed.\n" +
			"(VllmWorker rank=3 pid=1) ERROR 06-19 07:06:13 [multiproc_executor.py:527] Last error:\n" +
			"(VllmWorker rank=3 pid=1) ERROR 06-19 07:06:13 [multiproc_executor.py:527] Cuda failure 2 'out of memory'\n", 1},

		// Contrasts: independent records.
		{"info-listing", "" +
			"2025-11-06 02:10:00,702 - worker - INFO - Output:\n" +
			"2025-11-06 02:10:00,702 - worker - INFO - 42 tokens\n", 2},
		{"no-label", "" +
			"2025-11-06 02:10:00,702 - worker - ERROR - Model load failed\n" +
			"2025-11-06 02:10:00,702 - worker - ERROR - CUDA out of memory\n", 2},
		{"label-inside-a-word", "" +
			"2025-11-06 02:10:00,702 - worker - ERROR - could not parse field UserError:\n" +
			"2025-11-06 02:10:00,702 - worker - ERROR - CUDA out of memory\n", 2},
		{"other-second", "" +
			"2025-11-06 02:10:00,702 - worker - ERROR - Model load failed. Reason:\n" +
			"2025-11-06 02:10:02,702 - worker - ERROR - CUDA out of memory\n", 2},
		{"other-level", "" +
			"2025-11-06 02:10:00,702 - worker - ERROR - Model load failed. Reason:\n" +
			"2025-11-06 02:10:00,702 - worker - INFO - Retrying\n", 2},
		{"blank-between", "" +
			"2025-11-06 02:10:00,702 - worker - ERROR - Model load failed. Reason:\n" +
			"\n" +
			"2025-11-06 02:10:00,702 - worker - ERROR - CUDA out of memory\n", 2},
		{"other-rank", "" +
			"(VllmWorker rank=3 pid=1) ERROR 06-19 07:06:13 [multiproc_executor.py:527] Last error:\n" +
			"(VllmWorker rank=2 pid=2) ERROR 06-19 07:06:13 [multiproc_executor.py:527] Cuda failure 2 'out of memory'\n", 2},
	} {
		n := 0
		for _, e := range assembleText(t, c.text) {
			if e.Raw != "" {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%s: %d entries, want %d", c.name, n, c.want)
		}
	}
}

func TestEndsInMessageLabel(t *testing.T) {
	for s, want := range map[string]bool{
		"Last error:":                      true,
		"Engine failed. Caused by:  ":      true,
		"Error:":                           true,
		"failed to start. Reason:":         true,
		"ValueError:":                      false,
		"Loading:":                         false,
		"see the error":                    false,
		"":                                 false,
		"RuntimeError: Caused by: x":       false,
		"could not parse field UserError:": false,
	} {
		if got := endsInMessageLabel(s); got != want {
			t.Errorf("endsInMessageLabel(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzEndsInMessageLabel checks a label is found only at a line's end,
// as its last token.
func FuzzEndsInMessageLabel(f *testing.F) {
	for _, s := range []string{"Last error:", "x Caused by:", "xError:", "Reason: ", ":", "Root cause:\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !endsInMessageLabel(s) {
			return
		}
		r := strings.TrimRight(s, " \t")
		k := strings.LastIndexByte(r[:len(r)-1], ' ')
		for _, l := range messageLabels {
			if r == l || strings.HasSuffix(r, " "+l) {
				return
			}
		}
		t.Fatalf("endsInMessageLabel(%q) = true, last token %q", s, r[k+1:])
	})
}
