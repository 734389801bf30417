package analysis_test

import (
	"testing"
)

// An exception of a library's own class that only one record names is led
// by that record, whatever its message; built-in classes, classes several
// records share and wrappers of those stay unclassified.
func TestExceptionClassNamesItsOneRecord(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct{ in, slug string }{
		{tbHead + frame("/w/ray/_private/worker.py", "get", "raise value.as_instanceof_cause()") +
			"ray.exceptions.RayTaskError(OutOfMemoryError): ray::main_task() (pid=5102, ip=10.0.0.3)\n", "cuda-out-of-memory"},
		{tbHead + frame("/w/trainer.py", "step", "loss.backward()") + "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory\n", "cuda-out-of-memory"},
		{"huggingface_hub.errors.GatedRepoError: 403 Forbidden: Please enable access to public gated repositories in your fine-grained token settings.\n", "hf-gated-repo"},
		// Near misses.
		{"RuntimeError: the worker stopped\n", ""},
		{"MemoryError: cannot allocate the buffer\n", ""},
		{tbHead + frame("/w/ray/_private/worker.py", "get", "raise value.as_instanceof_cause()") +
			"ray.exceptions.RayTaskError(KeyError): ray::f() (pid=1, ip=10.0.0.1)\n", ""},
		{"torch.distributed.DistNetworkError: the store went away\n", ""},
		{"mylib.DeviceOutOfMemoryError: pool exhausted\n", ""},
	}
	for _, tt := range tests {
		ds, _ := analyzeAll(t, m, tt.in)
		if len(ds) != 1 {
			t.Errorf("%q: %d failures, want 1", tt.in, len(ds))
			continue
		}
		if ds[0].slug != tt.slug {
			t.Errorf("%q: led by %q, want %q", tt.in, ds[0].slug, tt.slug)
		}
	}
}
