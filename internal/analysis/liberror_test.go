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

// TestFailedActionLine reads a line with no level that says what its
// writer failed to do and why, as nvidia-smi, RDMA tools, Go programs
// (their lower-case error chains too), llama.cpp's server and C++
// loaders print it, and leaves alone prose,
// a failure without its reason, and sentences that only begin alike.
func TestFailedActionLine(t *testing.T) {
	for msg, want := range map[string]bool{
		"Failed to initialize NVML: Driver/library version mismatch":                                    true,
		"Failed to modify QP to RTR: Connection timed out":                                              true,
		"failed to create containerd task: failed to create shim task: OCI runtime create failed":       true,
		"Failed to parse arguments: [json.exception.parse_error.101] parse error at line 1, column 6":   true,
		"Unable to find metadata storage plugin etcd with conn string: etcd://10.72.12.100:2379":        true,
		"Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object": false,
		"Could not load library libcudnn_cnn_infer.so.8: libnvrtc.so: cannot open shared object file":   true,
		"Cannot allocate memory for the KV cache: requested 80.00 GiB, available 10.00 GiB":             true,
		"Couldn't connect to server: Connection refused":                                                true,
		"unable to start process: health check failed after 15s":                                        true,
		"could not open config file: open /etc/app/config.yaml: no such file or directory":              true,
		"cannot pull model: pull model manifest: file does not exist":                                   true,
		"couldn't find the runner: exec: \"llama-server\": executable file not found in $PATH":          true,
		"cannot wait":                         false,
		"unable to: 3":                        false,
		"could not. see: the docs":            false,
		"cancel: the request was closed":      false,
		"Failed to initialize NVML":           false,
		"Failed to initialize NVML: ":         false,
		"Failed to see why. It says: nothing": false,
		"Failed tests: 3":                     false,
		"Failed to :x":                        false,
		"Cannot wait: 3":                      false,
		"Failed to load, see the documentation at https://example.com/docs/a-very-long-path-to-some-page-about-loading-things-in-detail: here": false,
		"Canceled: the request was cancelled by the client": false,
	} {
		if got := failedActionLine(msg); got != want {
			t.Errorf("failedActionLine(%q) = %v, want %v", msg, got, want)
		}
		if failedActionLine(msg) && !libraryErrorLine(msg) {
			t.Errorf("libraryErrorLine(%q) = false for a failed action", msg)
		}
	}
	if got := failedActionLibrary("Failed to initialize NVML: Driver/library version mismatch"); got != "NVML" {
		t.Errorf("failedActionLibrary = %q, want NVML", got)
	}
}

// TestLibraryTimeout reads a library's own line that a wait of it timed
// out (DeepEP's kernels' printf lines, in their several wordings), and
// leaves alone a library's timeout setting.
func TestLibraryTimeout(t *testing.T) {
	for msg, want := range map[string]bool{
		"DeepEP dispatch forwarder timeout (RDMA meta), channel: 8, RDMA: 0, nvl: 6, src RDMA lane: 1, dst NVL: 6, meta: 0, 0, 0, 0": true,
		"DeepEP dispatch NVL receiver timeout, channel: 0, RDMA: 0, nvl: 2, src RDMA: 1, src nvl: 6, start: 0, end: 0":               true,
		"DeepEP timeout for dispatch receivers, rank 3, responsible_channel = 2, tokens remained: 17":                                true,
		"DeepEP timeout for combine senders, rank 0, responsible_channel = 5":                                                        true,
		"DeepEP timeout check failed: rank = 1, thread = 32, value = 0)":                                                             true,
		"NVSHMEM barrier timeout: peer 3 did not arrive":                                                                             true,
		"NCCL timeout is 1800s":                   false,
		"NCCL timeout set to 600":                 false,
		"DeepEP buffer created with timeout 100s": false,
		"DeepEP low latency mode enabled, timeout (s) = 100, num_experts = 256 and more": false,
		"DeepEP timeout": false,
	} {
		if got := libraryErrorLine(msg); got != want {
			t.Errorf("libraryErrorLine(%q) = %v, want %v", msg, got, want)
		}
	}
}

// FuzzLibraryErrorLine checks that libraryErrorLine never panics and that
// a failed-action line passes its byte test.
func FuzzLibraryErrorLine(f *testing.F) {
	for _, s := range []string{"[Errno 98] x", "[Errno -", "Failed to initialize NVML: x", "DeepEP dispatch forwarder timeout (RDMA meta), channel: 8", "DeepEP timeout for x", "NCCL error: x", "[a.cpp] ERROR: x", "Cannot x: y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		ok := libraryErrorLine(msg)
		if failedActionLine(msg) {
			if !ok {
				t.Fatalf("libraryErrorLine(%q) = false for a failed action", msg)
			}
			switch msg[0] {
			case 'F', 'f', 'U', 'u', 'C', 'c':
			default:
				t.Fatalf("failedActionLine(%q) past its byte test", msg)
			}
		}
	})
}

// TestErrnoLine reads an OSError printed as its str at a line's start
// (uvicorn's bind failure, a refused connection, a full disk) with the
// family its errno names, and leaves alone a bracketed tag that only
// looks like it.
func TestErrnoLine(t *testing.T) {
	for msg, family := range map[string]string{
		"[Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use": FamilyNetwork,
		"[Errno 13] error while attempting to bind on address ('127.0.0.1', 5000): permission denied":    FamilyNetwork,
		"[Errno 111] Connection refused":                        FamilyNetwork,
		"[Errno 28] No space left on device: '/dev/shm/x'":      FamilyDisk,
		"[Errno 2] No such file or directory: '/models/config'": FamilyFile,
		"[Errno -2] Name or service not known":                  FamilyNetwork,
		"[Errno 5] Input/output error":                          "",
	} {
		if !errnoLine(msg) || !libraryErrorLine(msg) {
			t.Errorf("errnoLine(%q) = false", msg)
		}
		if got := errnoFamily(msg); got != family {
			t.Errorf("errnoFamily(%q) = %q, want %q", msg, got, family)
		}
	}
	for _, msg := range []string{"[Errno]", "[Errno 98]", "[Errno 98] ", "[Errno x] y", "[Errno 123456] y", "[Errno 98]x"} {
		if errnoLine(msg) {
			t.Errorf("errnoLine(%q) = true", msg)
		}
	}
}

// TestSubjectFailed reads a line that names what failed, the word
// failed and why (Mooncake's RPC, a Kubernetes probe, sglang's graph
// capture, a launcher's child), and leaves alone prose, counts, a failure
// without its reason and a sentence that ended before the word.
func TestSubjectFailed(t *testing.T) {
	for msg, want := range map[string]bool{
		"Batch RPC call failed: Expected DiskDescriptor":                                                              true,
		`Liveness probe failed: Get "http://10.0.171.162:8080/healthz": dial tcp 10.0.171.162:8080: connect: refused`: true,
		"Capture cuda graph failed: CUDA error: out of memory":                                                        true,
		"Child process unexpectedly failed with an exit code 256. pid=97721":                                          true,
		"KV transfer failed due to a timeout on rank 3":                                                               true,
		"Tests failed: 3":                     false,
		"3 tests failed: see below":           false,
		"Nothing failed":                      false,
		"The job ran. Step 3 failed: see log": false,
		"When I run the server on eight GPUs with this config it failed: help": false,
		"Request (id=3) failed: timeout":                                       false,
		"Warmup failed.":                                                       false,
	} {
		if got := subjectFailed(msg); got != want {
			t.Errorf("subjectFailed(%q) = %v, want %v", msg, got, want)
		}
		if subjectFailed(msg) && (!libraryError(msg) || !libraryErrorLine(msg)) {
			t.Errorf("libraryError(%q) = false for a subject that failed", msg)
		}
	}
	if got := ownLibraryName("Batch RPC call failed: Expected DiskDescriptor"); got != "" {
		t.Errorf("ownLibraryName = %q, want none", got)
	}
}
