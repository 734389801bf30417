package analysis

import "testing"

// TestLibraryErrorLine reads a native library's own error line, with or
// without a bracketed tag before it, as several libraries print it (ROCm's
// math libraries, NCCL, cuDNN, MIOpen, the CUDA driver's result types
// a C++ extension prints, a component's tagged level word), and leaves
// alone the lines that only mention an error: figures, flags, prose, a
// tag followed by a routine message.
func TestLibraryErrorLine(t *testing.T) {
	for msg, want := range map[string]bool{
		"rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat":                     true,
		"hipBLASLt error: heuristic fetch failed":                                                         true,
		"MIOpen Error: /long/path/miopen/src/ocl/convolutionocl.cpp:123: No suitable algorithm was found": true,
		"NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)":                       true,
		"cuDNN error: CUDNN_STATUS_NOT_SUPPORTED":                                                         true,
		"CUDA error: out of memory":                                                                       true,
		"[widget_saver.cpp] CUresult error  result=2 file=csrc/widget_saver.cpp func=create line=103":     true,
		"[widget_saver.cpp] cudaError error: 2 (out of memory)  file=csrc/core.cpp":                       true,
		"[gadget] CRITICAL: Could not load any ops library!":                                              true,
		"[/src/app/topology/gpu.cpp:80] ERROR: device query failed":                                       true,
		"[store] HIP error: invalid device ordinal":                                                       true,

		"RMSE error: 0.02":                               false,
		"Relative error: widget too far":                 false,
		"Mean abs error: 0.1":                            false,
		"CUDA error checking is enabled":                 false,
		"NCCL error handling mode set to 3":              false,
		"NCCL error:":                                    false,
		"CUDA error:   ":                                 false,
		"NCCL_ASYNC_ERROR_HANDLING error: set":           false,
		"[gpu.cpp:80] Initialized 8 devices":             false,
		"[gpu.cpp:80] error reporting enabled":           false,
		"[INFO] CUDA error checks on":                    false,
		"[a widget] ERROR: x":                            false,
		"Widget error: could not attach":                 false,
		"the CUDA error: was logged above":               false,
		"CUresult error result":                          false,
		"CUresult error =2":                              false,
		"cudaError: 2":                                   false,
		"[widget] Error handling: strict":                false,
		"HTTP error count=3":                             false,
		"CUDA error code=0":                              false,
		"CUDA error code=700 (an illegal memory access)": true,
		"[tag]": false,
		"":      false,
	} {
		if got := libraryErrorLine(msg); got != want {
			t.Errorf("libraryErrorLine(%q) = %v, want %v", msg, got, want)
		}
	}
}
