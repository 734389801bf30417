package analysis

import "testing"

// TestTaggedFailureLine reads library lines behind bracketed tags with no
// level word, as TensorRT's logger and trtexec, JIT and kernel libraries
// print them, and TensorRT's untagged forms; it leaves alone their
// warnings and information, a tag followed by a routine message, a level
// tag the entry package or levelTokenLead reads, and prose.
func TestTaggedFailureLine(t *testing.T) {
	for l, want := range map[string]bool{
		"[TRT] [E] 1: [defaultAllocator.cpp::deallocate::42] Error Code 1: Cuda Runtime (invalid argument)":                          true,
		"[05/25/2023-20:44:13] [E] Error[1]: [executionContext.cpp::handleTrainStationRunnerPhase1::146] Error Code 1: Cuda Runtime": true,
		"[12/07/2026-10:10:10] [TRT] [E] 3: [builder.cpp::buildSerializedNetwork::609] Error Code 3: API Usage Error":                true,
		"[12/07/2026-10:10:10] [TRT] [F] [runner.cpp::execute::100] Error Code 2: Internal Error":                                    true,
		"Error[1]: [executionContext.cpp::handleTrainStationRunnerPhase1::146] Error Code 1: Cuda Runtime (operation not permitted)": true,
		"[12/07/2026-10:10:10] Error[4]: [network.cpp::validate::2789] Error Code 4: Internal Error (input has no shape)":            true,
		"INTERNAL_ERROR: Assertion failed: engine != nullptr":                                                                        true,
		"[DeepGEMM] Failed to compile kernel: nvcc returned 1":                                                                       true,
		"[sgl_kernel] Failed to load common_ops: libcudart.so.12: cannot open shared object file":                                    true,
		"[vllm-flash-attn] Unsupported GPU architecture sm_61":                                                                       true,
		"[triton] Compilation failed: out of resources":                                                                              true,
		"[mooncake] Could not open device mlx5_0":                                                                                    true,
		"[12/07/2026-10:10:10] [TRT] [W] CUDA lazy loading is not enabled.":                                                          false,
		"[05/25/2023-20:44:13] [I] Latency: min = 1.2 ms":                                                                            false,
		"[05/25/2023-20:44:13] [W] The CUDA graph capture on the stream has failed.":                                                 false,
		"[05/25/2023-20:44:13] [V] [TRT] Failed to find a tactic, trying the next one":                                               false,
		"[DeepGEMM] Compiling kernel for M=256":                                                                                      false,
		"[sgl_kernel] Loaded common_ops from /usr/lib":                                                                               false,
		"[INFO] Failed to find a cached tactic":                                                                                      false,
		"[WARN] Unsupported dtype, falling back":                                                                                     false,
		"[12/07/2026-10:10:10] Failed to find a cached tactic":                                                                       false,
		"[a b] Failed to load":     false,
		"[E]":                      false,
		"Error[x]: y":              false,
		"Error[1]: ":               false,
		"The [E] tag marks errors": false,
		"":                         false,
	} {
		if got := taggedFailureLine(l); got != want {
			t.Errorf("taggedFailureLine(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestLibraryFailedLine reads a library's bare line that it failed, its
// name first ("DeepGEMM failed for ...", "NCCL failed to ..."), and
// names the library a tagged or bare failure line comes from; a word of
// prose or a line that says only "failed" is none.
func TestLibraryFailedLine(t *testing.T) {
	for l, want := range map[string]string{
		"DeepGEMM failed for matrix shapes M=256, N=1076, K=1152.":                          "DeepGEMM",
		"CUDA error (hopper/flash_fwd_launch_template.h:166): no kernel image is available": "CUDA",
		"CUDA error (see above): x":                                  "",
		"CUDA error (x.h:1): ":                                       "",
		"NCCL failed to connect to rank 3":                           "NCCL",
		"cuBLASLt failed: no algorithm for this shape":               "cuBLASLt",
		"MIOpen failed with status 3 (miopenStatusUnknownError)":     "MIOpen",
		"[sgl_kernel] Failed to load common_ops: libx.so not found":  "sgl_kernel",
		"[12/07/2026-10:10:10] [TRT] [E] 3: Error Code 3: API Usage": "TRT",
		"[05/25/2023-20:44:13] [E] Error[1]: Error Code 1: Cuda":     "",
		"The job failed to start":                                    "",
		"Download failed for shard 3":                                "",
		"DeepGEMM failed":                                            "",
		"DeepGEMM failed over to the fallback kernel":                "",
	} {
		if got := ownLibraryName(l); got != want {
			t.Errorf("ownLibraryName(%q) = %q, want %q", l, got, want)
		}
	}
}

// FuzzTaggedFailureLine: taggedFailureLine and ownLibraryName never
// panic, and a name is given only for a failure line.
func FuzzTaggedFailureLine(f *testing.F) {
	for _, s := range []string{"[TRT] [E] 1: x", "[a] [b] [c] [d] [e] Failed to x", "Error[1]: x", "[x] y failed: z", "DeepGEMM failed for x", "["} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if ownLibraryName(l) != "" && !taggedFailureLine(l) && !libraryErrorLine(l) {
			t.Fatalf("ownLibraryName(%q) names a line that is no failure", l)
		}
	})
}
