package analysis

import "testing"

// TestInnerRecordError reads vLLM's ERROR record of an exception line
// behind a collector's prefix (Google Cloud Logging's export, kubectl's
// --prefix, a user's quote), and leaves silent the traceback's other lines
// behind the same prefix, vLLM's records at other levels, a header that
// opens the line (the entry package's), and "ERROR" words that are no
// header.
func TestInnerRecordError(t *testing.T) {
	for l, want := range map[string]bool{
		"INFO 2025-11-19T20:16:36.096638074Z [resource.labels.containerName: vllm] (EngineCore_DP0 pid=270) ERROR 11-19 12:16:36 [v1/engine/core.py:842] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.47 GiB.": true,
		"[pod/vllm-0/vllm] ERROR 05-08 21:27:27 [serving_chat.py:198] ValueError: This model's maximum context length is 8192 tokens.":                                                                                            true,
		"`ERROR 05-08 21:27:27.123 [serving_chat.py:198] ValueError: This model's maximum context length is 8192 tokens.`":                                                                                                        false,
		"got ERROR 05-08 21:27:27.123 [serving_chat.py:198] ValueError: This model's maximum context length is 8192 tokens.":                                                                                                      true,

		"INFO 2025-11-19T20:16:36.096625454Z [resource.labels.containerName: vllm] (EngineCore_DP0 pid=270) ERROR 11-19 12:16:36 [v1/engine/core.py:842] logits_sort, logits_idx = logits.sort(dim=-1, descending=False)": false,
		"INFO 2025-11-19T20:16:36.096625454Z [resource.labels.containerName: vllm] (EngineCore_DP0 pid=270) ERROR 11-19 12:16:36 [v1/engine/core.py:842] Traceback (most recent call last):":                              false,
		"INFO 2025-11-19T20:16:36.096625454Z [resource.labels.containerName: vllm] (EngineCore_DP0 pid=270) INFO 11-19 12:16:36 [core.py:90] ValueError: handled":                                                         false,
		"ERROR 05-08 21:27:27 [serving_chat.py:198] ValueError: at the line's start":                                                                                                                                      false,
		"the ERROR 404 [x] ValueError: y":               false,
		"HTTP ERROR 05-08 21:27:27 [a b] ValueError: y": false,
		"": false,
	} {
		if got := innerRecordCandidate(l) && innerRecordError(l); got != want {
			t.Errorf("innerRecordError(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzInnerRecordError checks that innerRecordError never panics and says
// true only of a line its byte test passes.
func FuzzInnerRecordError(f *testing.F) {
	for _, s := range []string{
		"x ERROR 11-19 12:16:36 [core.py:842] torch.OutOfMemoryError: CUDA out of memory",
		"x ERROR 11-19 12:16:36.5 [a] E",
		"x ERROR 11-19 12:16:36 [",
		" ERROR ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if innerRecordError(s) && !innerRecordCandidate(s) {
			t.Fatalf("innerRecordError(%q) without its byte test", s)
		}
	})
}
