package analysis

import "testing"

// TestFuncFailed reads a named function's failure as llama.cpp and ggml
// print it (alone and behind a compose service's column), NIXL's
// camel-case function, whisper.cpp's, and leaves silent their routine
// lines, a failure its writer goes on after, and a failure behind a word
// of prose or a level word rather than a function's name.
func TestFuncFailed(t *testing.T) {
	for l, want := range map[string]bool{
		"ggml_cuda_init: failed to initialize CUDA: unknown error":                                     true,
		"llama-cpp    | ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected": true,
		"llama_model_load_from_file: failed to load model":                                             true,
		"E0713 23:29:03.494601 nixl_agent.cpp:631] prepXferDlist: failed to prepare the descriptors":   true,
		"whisper_init_from_file_with_params_no_state: failed to open 'models/ggml-base.en.bin'":        true,
		"llama_kv_cache_init: failed to allocate buffer for kv cache":                                  true,

		"ggml_cuda_init: found 1 CUDA devices:":                                                false,
		"llm_load_tensors: offloaded 81/81 layers to GPU":                                      false,
		"llama_new_context_with_model: n_ctx      = 8192":                                      false,
		"load_model: failed to load optional draft model, skipping":                            false,
		"worker_3: failed to connect to the master, retrying in 5s":                            false,
		"ggml_metal_init: failed to load library, falling back to the default":                 false,
		"Error: failed to connect to the server: connection refused":                           false,
		"The request failed: failed to parse":                                                  false,
		"Prefill batch, #new-seq: 7, #new-token: 3251, #cached-token: 2095, token usage: 0.55": false,
		"my_func: failed to ": false,
		"xy: failed to go":    false,
		"":                    false,
	} {
		if got := funcFailedCandidate(l) && funcFailed(l); got != want {
			t.Errorf("funcFailed(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzFuncFailed checks that funcFailed never panics and says true only
// of a line its byte test passes.
func FuzzFuncFailed(f *testing.F) {
	for _, s := range []string{
		"ggml_cuda_init: failed to initialize CUDA: unknown error",
		"x | prepXferDlist: failed to prepare",
		": failed to x",
		"a_b: failed to",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if funcFailed(s) && !funcFailedCandidate(s) {
			t.Fatalf("funcFailed(%q) without its byte test", s)
		}
	})
}

// TestLocatedError reads Go's error wrapping words after a source
// location (ollama's standard logger) or a function's name (llama.cpp),
// and a failed action after a location, and leaves silent the same
// loggers' routine lines, a figure named "error", a warning, a retry,
// and the words without a location or a name in front.
func TestLocatedError(t *testing.T) {
	for l, want := range map[string]bool{
		"2023/12/24 23:48:35 llama.go:459: error starting llama runner: llama runner process has terminated":                       true,
		"llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'phi3'":              true,
		"Jun 01 13:52:31 host ollama[317976]: 2025/06/01 13:52:31 server.go:88: error loading model: open /m/x.gguf: no such file": true,

		"2023/12/24 23:48:35 llama.go:525: llama runner stopped successfully":                                                                              false,
		"2023/12/24 23:48:35 images.go:996: total blobs: 17":                                                                                               false,
		"2024/01/05 10:00:00 routes.go:891: warning: gpu support may not be enabled, check that you have installed GPU drivers: nvidia-smi command failed": false,
		"2024/01/05 10:00:00 stats.go:12: error rate: 0.1":                                                                                                 false,
		"2024/01/05 10:00:00 client.go:40: error connecting to peer: EOF, retrying in 1s":                                                                  false,
		"we saw an error loading model: unknown architecture":                                                                                              false,
		"Error: error loading model: unknown architecture":                                                                                                 false,
		"x.go:: error a: b": false,
		"":                  false,
	} {
		if got := quotedFailureCandidate(l) && locatedError(l); got != want {
			t.Errorf("locatedError(%q) = %v, want %v", l, got, want)
		}
	}
	for l, want := range map[string]bool{
		"2024/01/05 10:00:00 server.go:88: failed to bind 0.0.0.0:11434: address already in use": true,
		"src/engine.cc:120: failed to open device: no such device":                               true,
		"notes.txt:3: failed to read":                                                            false,
	} {
		if got := funcFailedCandidate(l) && funcFailed(l); got != want {
			t.Errorf("funcFailed(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzLocatedError checks that locatedError never panics and says true
// only of a line with "rror" (its byte test).
func FuzzLocatedError(f *testing.F) {
	for _, s := range []string{
		"llama.go:459: error starting llama runner: terminated",
		"a_b: error x: y",
		"x.go:1: error : y",
		": error ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if locatedError(s) && !quotedFailureCandidate(s) {
			t.Fatalf("locatedError(%q) without %q", s, "rror")
		}
	})
}

// TestTaggedLocationFailed reads what failed and why behind a bracketed
// source location (MORI's topology probe, a C++ engine's), and leaves
// silent the same tags' routine lines, a failure its writer retries, a
// failure without its reason, and a tag that is no source location.
func TestTaggedLocationFailed(t *testing.T) {
	for l, want := range map[string]bool{
		"[/sgl-workspace/mori/src/application/topology/gpu.cpp:80] rocm smi failed with RSMI_STATUS_INIT_ERROR: An error occurred during initialization": true,
		"[src/transport/rdma_endpoint.cc:212] handshake failed: connection reset by peer":                                                                true,

		"[src/transport/rdma_endpoint.cc:212] handshake done with peer 10.0.0.2":            false,
		"[src/transport/rdma_endpoint.cc:212] handshake failed: timeout, retrying in 1s":    false,
		"[src/transport/rdma_endpoint.cc:212] handshake failed":                             false,
		"[worker-3] handshake failed: connection reset by peer":                             false,
		"[src/a.cc:1] Some very long sentence that goes on and on. Then it failed: because": false,
		"": false,
	} {
		if got := taggedLocationFailed(l); got != want {
			t.Errorf("taggedLocationFailed(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzTaggedLocationFailed checks that taggedLocationFailed never panics
// and says true only of a line that opens with '[' (quiet's first-byte
// test lets such a line through).
func FuzzTaggedLocationFailed(f *testing.F) {
	for _, s := range []string{
		"[gpu.cpp:80] rocm smi failed with RSMI_STATUS_INIT_ERROR: x",
		"[a.go:1] b failed: c",
		"[x.cc:] y failed",
		"[",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if taggedLocationFailed(s) && s[0] != '[' {
			t.Fatalf("taggedLocationFailed(%q) on a line that does not open with '['", s)
		}
	})
}
