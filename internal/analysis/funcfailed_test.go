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
