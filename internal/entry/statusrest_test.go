package entry

import "testing"

// TestStatusSplit: a runtime's status line a person split after the
// status's colon (and before its code) is one line again, as ROCr, the
// CUDA driver's error names and cuBLAS print it; an exception, another
// status or an indented line after a status label is no rest.
func TestStatusSplit(t *testing.T) {
	for _, tt := range []struct{ in, first string }{
		{"HSA_STATUS_ERROR_EXCEPTION:\nAn HSAIL operation resulted in a hardware exception.\ncode: 0x1016",
			"HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016"},
		{"CUDA_ERROR_ILLEGAL_ADDRESS:\nan illegal memory access was encountered",
			"CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"},
		{"CUBLAS_STATUS_EXECUTION_FAILED: \nthe GPU program failed to execute",
			"CUBLAS_STATUS_EXECUTION_FAILED:  the GPU program failed to execute"},
		// One blank line apart, as a paste that doubles its spacing
		// puts them (vllm-project/vllm#50347's status, a CUDA driver
		// error name's).
		{"HSA_STATUS_ERROR_EXCEPTION:\n\nAn HSAIL operation resulted in a hardware exception.\n\ncode: 0x1016",
			"HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016"},
		{"CUDA_ERROR_ILLEGAL_ADDRESS:\n\nan illegal memory access was encountered",
			"CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"},
		{"HSA_STATUS_ERROR_EXCEPTION:\n\n\nAn HSAIL operation resulted in a hardware exception.", "HSA_STATUS_ERROR_EXCEPTION:"},
		{"HSA_STATUS_ERROR_EXCEPTION:\n\nRuntimeError: HIP error: unspecified launch failure", "HSA_STATUS_ERROR_EXCEPTION:"},
		{"HSA_STATUS_ERROR_EXCEPTION:\nRuntimeError: HIP error: unspecified launch failure", "HSA_STATUS_ERROR_EXCEPTION:"},
		{"HSA_STATUS_ERROR_EXCEPTION:\nHSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: x", "HSA_STATUS_ERROR_EXCEPTION:"},
		{"CUDA_VISIBLE_DEVICES:\n0,1", "CUDA_VISIBLE_DEVICES:"},
		{"MAX_JOBS:\nfour", "MAX_JOBS:"},
	} {
		es := assemble(t, Options{}, tt.in)
		if len(es) == 0 || firstLine(es[0].Text) != tt.first {
			t.Errorf("%q: first line %q, want %q", tt.in, firstLine(es[0].Text), tt.first)
		}
	}
}
