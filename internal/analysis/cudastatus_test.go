package analysis

import "testing"

// TestCUDAStatusFailure reads a CUDA call's failed status from the CUDA
// samples (deviceQuery's "returned N", checkCudaErrors' enum name), a
// program that reports the runtime's error number, MEGADOCK's and the
// driver API's enum names, and leaves silent the routine lines of
// sglang, vLLM and TGI that name CUDA, a status a caller polls or meets
// by design, a success, and a status its writer goes on after.
func TestCUDAStatusFailure(t *testing.T) {
	for l, want := range map[string]bool{
		"cudaGetDeviceCount returned 35":                                 true,
		"cudaGetDeviceProperties returned 100":                           true,
		"cudaGetDeviceCount() ... Error 802: system not yet initialized": true,
		`CUDA error at src/main.cu:88 code=35(cudaErrorInsufficientDriver) "cudaGetDeviceCount(&device_count_gpu)"`:                                                     true,
		`CUDA error at D:/Bld/rel/gpgpu/toolkit/r8.0/demo_suite/bandwidthTest/bandwidthTest.cu:255 code=35(cudaErrorInsufficientDriver) "cudaSetDevice(currentDevice)"`: true,
		"cuInit failed: CUDA_ERROR_NO_DEVICE":                    true,
		"[worker] cuMemCreate returned CUDA_ERROR_OUT_OF_MEMORY": true,

		"Decode batch, #running-req: 124, #token: 227417, token usage: 0.18, cuda graph: False, gen throughput (token/s): 67.04":                 false,
		"Capture cuda graph begin. This can take up to several minutes. avail mem=63.43 GB":                                                      false,
		"Using cudaMallocAsync allocator for the KV cache":                                                                                       false,
		"CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization`": false,
		"Setting CUDA_VISIBLE_DEVICES=0,1 for the shard":                                                                                         false,
		"cudaGetDeviceCount returned 0":                                 false,
		"cudaStreamQuery: cudaErrorNotReady":                            false,
		"cudaDeviceEnablePeerAccess: cudaErrorPeerAccessAlreadyEnabled": false,
		"cudaError_t err = cudaGetLastError();":                         false,
		"[torch_memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. torch allocator will free cache and retry)": false,
		"cudaMalloc returned 2, falling back to host memory": false,
		"mycudaErrorX and xcudaMalloc returned 2":            false,
		"": false,
	} {
		if got := cudaStatusCandidate(l) && cudaStatusFailure(l); got != want {
			t.Errorf("cudaStatusFailure(%q) = %v, want %v", l, got, want)
		}
		if cudaStatusFailure(l) && !cudaStatusCandidate(l) {
			t.Errorf("cudaStatusFailure(%q) without its byte test", l)
		}
	}
}

// FuzzCUDAStatusFailure checks that cudaStatusFailure never panics and
// says true only of a line its byte test passes.
func FuzzCUDAStatusFailure(f *testing.F) {
	for _, s := range []string{
		"cudaGetDeviceCount returned 35",
		"cudaX() Error 802: y",
		"code=35(cudaErrorInsufficientDriver)",
		"CUDA_ERROR_NO_DEVICE",
		"cudaA returned ",
		"cudaA Error 1:",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if cudaStatusFailure(s) && !cudaStatusCandidate(s) {
			t.Fatalf("cudaStatusFailure(%q) without its byte test", s)
		}
	})
}
