package analysis_test

import (
	"testing"
)

// torch's shape complaints are a forward pass's failure, except when the
// frames say the checkpoint was being read: then the checkpoint's tensor
// does not fit the model's parameter and the checkpoint-shape record
// leads. Without frames, or with frames of another phase, torch's record
// stays.
func TestShapeComplaintWhileLoadingWeightsIsTheCheckpoints(t *testing.T) {
	m := defaultMatcher(t)
	head := "[2026-01-02 03:04:05 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
	loader := frame(".../sglang/srt/model_loader/loader.py", "load_weights_and_postprocess", "model.load_weights(weights)")
	model := frame("/sgl/python/sglang/srt/models/qwen3_moe.py", "load_weights", "weight_loader(param, loaded_weight, shard_id)")
	moe := frame("/sgl/python/sglang/srt/layers/moe/fused_moe_triton/layer.py", "_load_w13", "expert_data.copy_(loaded_weight)")
	utils := frame("/usr/local/lib/python3.12/dist-packages/vllm/model_executor/model_loader/weight_utils.py", "default_weight_loader", "param.data.copy_(loaded_weight)")
	forward := frame("/sgl/python/sglang/srt/models/llama.py", "forward", "hidden_states = self.mlp(hidden_states)")
	capture := frame("/sgl/python/sglang/srt/model_executor/cuda_graph_runner.py", "capture", ") = self.capture_one_batch_size(bs, forward)")
	sizes := "RuntimeError: The size of tensor a (6144) must match the size of tensor b (3072) at non-singleton dimension 1\n"
	tests := []struct{ name, in, slug string }{
		{"a weight loader's copy under the loader", head + loader + model + moe + sizes, "load-weights-shape-mismatch"},
		{"a model's load_weights alone", head + model + sizes, "load-weights-shape-mismatch"},
		{"another engine's default weight loader", "Traceback (most recent call last):\n" + utils + sizes, "load-weights-shape-mismatch"},
		{"view of a loaded tensor", head + loader + "RuntimeError: shape '[4096, 128]' is invalid for input of size 262144\n", "load-weights-shape-mismatch"},
		// Near misses: the same complaints in a forward pass, in graph
		// capture, or with no frames at all.
		{"in a forward pass", head + forward + sizes, "torch-tensor-shape-mismatch"},
		{"in graph capture", head + capture + forward + "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x4096 and 3584x4096)\n", "torch-tensor-shape-mismatch"},
		{"no frames", sizes, "torch-tensor-shape-mismatch"},
	}
	for _, tt := range tests {
		got := analyzeText(m, tt.in)
		if !one(t, tt.name, got) {
			continue
		}
		if b := brief(&got[0]); b.slug != tt.slug {
			t.Errorf("%s: lead %q, want %q", tt.name, b.slug, tt.slug)
		}
	}
}
