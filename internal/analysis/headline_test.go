package analysis_test

import "testing"

// TestRecordHeadlineLeavesTheHeaderOut: a glog or native line keeps its
// header (time, pid, file:line) in front of its message in the text the
// matcher searches; when a record matches that message, the headline is
// the message alone. A header-less line keeps its whole line.
func TestRecordHeadlineLeavesTheHeaderOut(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct{ name, in, slug, headline string }{
		{
			name:     "Triton glog E line",
			in:       `E0420 06:14:22.457146 115 model_lifecycle.cc:638] failed to load 'tensorrt_llm' version 1: Internal: [TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/src/tllmRuntime.cpp:72)`,
			slug:     "trtllm-engine-deserialize-failed",
			headline: `failed to load 'tensorrt_llm' version 1: Internal: [TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/src/tllmRuntime.cpp:72)`,
		},
		{
			name:     "a line without a header",
			in:       "RuntimeError: Executor worker returned error",
			slug:     "trtllm-executor-worker-error",
			headline: "RuntimeError: Executor worker returned error",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, _ := analyzeAll(t, m, tc.in+"\n")
			if len(ds) != 1 {
				t.Fatalf("got %d diagnoses, want 1: %+v", len(ds), ds)
			}
			if ds[0].slug != tc.slug || ds[0].headline != tc.headline {
				t.Errorf("got %s %q\nwant %s %q", ds[0].slug, ds[0].headline, tc.slug, tc.headline)
			}
		})
	}
}
