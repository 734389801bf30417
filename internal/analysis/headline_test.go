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

// TestAHeaderWithoutItsMessageIsHeadlinedByItsNextLine: a record whose
// header line ends at its level (a desktop server's "<time> [ERROR]"
// over an indented message, a logging format with a line break after the
// level, a bracketed time and level alone) and that no record names is
// headlined by the first line of its message, not by nothing.
func TestAHeaderWithoutItsMessageIsHeadlinedByItsNextLine(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct{ name, in, headline string }{
		{"a desktop server's two-line record",
			"2025-06-01 12:00:01 [ERROR]\n [qwen3-8b] Failed to generate a tool call:  Failed to parse tool call: Unexpected end of content.\n",
			"[qwen3-8b] Failed to generate a tool call:  Failed to parse tool call: Unexpected end of content."},
		{"the same folded at a blank by a word-wrapping tool",
			"2025-06-01 12:00:01 [ERROR]\n [qwen3-8b] Failed to generate a tool call (this tool call will be omitted from the \nresponse):  Failed to parse tool call: Unexpected end of content. \nModel Output:  <|start|>assistant\n",
			"[qwen3-8b] Failed to generate a tool call (this tool call will be omitted from the response):  Failed to parse tool call: Unexpected end of content."},
		{"a long message line that ends a sentence is not joined to the next",
			"2025-06-01 12:00:01 [ERROR]\n [qwen3-8b] Failed to generate a tool call (this tool call will be omitted from the response):  Failed to parse tool call: Unexpected end of content. \nModel Output:  <|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{\"city\":\"Paris\",\"units\":\"metric\",\"days\":[{\"offset\":0},{\"offset\":1},{\"offset\":2},{\"offset\":3}]\n",
			"[qwen3-8b] Failed to generate a tool call (this tool call will be omitted from the response):  Failed to parse tool call: Unexpected end of content."},
		{"a line break after the level",
			"2025-06-01 12:00:01,123 ERROR:\n  worker 3 lost its connection to the scheduler at 10.0.0.2:5555\n",
			"worker 3 lost its connection to the scheduler at 10.0.0.2:5555"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, _ := analyzeAll(t, m, tc.in)
			if len(ds) != 1 {
				t.Fatalf("got %d diagnoses, want 1: %+v", len(ds), ds)
			}
			if ds[0].slug != "" || ds[0].headline != tc.headline {
				t.Errorf("got %s %q\nwant unclassified %q", ds[0].slug, ds[0].headline, tc.headline)
			}
		})
	}
}
