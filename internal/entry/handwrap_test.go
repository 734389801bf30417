package entry

import (
	"strings"
	"testing"
)

// TestHandWrappedMessage: an exception's message a person wrapped by hand
// when quoting it, its rests indented under it, is one line again, its
// message whole; an exception line whose message goes on by Python's own
// layout (a colon announcing indented lines, a validation error's field
// lines), a traceback after it, a short line and a warning's source line
// keep their lines.
func TestHandWrappedMessage(t *testing.T) {
	for _, tt := range []struct {
		name, in, msg string
	}{
		{"server arguments, two spaces",
			"ValueError: Speculative decoding with EAGLE3 is not validated for 'MiniCPMForCausalLM';\n" +
				"  supported architectures are ['LlamaForCausalLM', 'Qwen3ForCausalLM']. Use\n" +
				"  --speculative-algorithm NEXTN instead.",
			"Speculative decoding with EAGLE3 is not validated for 'MiniCPMForCausalLM'; supported architectures are ['LlamaForCausalLM', 'Qwen3ForCausalLM']. Use --speculative-algorithm NEXTN instead."},
		{"a kernel's check, four spaces",
			"RuntimeError: FlashInfer's sampling kernel got a probability tensor with an inf entry at row\n" +
				"    (3, 17) while top-k renormalisation was enabled for the decode batch of\n" +
				"    request 41.",
			"FlashInfer's sampling kernel got a probability tensor with an inf entry at row (3, 17) while top-k renormalisation was enabled for the decode batch of request 41."},
		{"a dotted type, three spaces",
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity\n" +
				"   of 79.19 GiB of which 1.12 GiB is free",
			"CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.12 GiB is free"},
		{"an announced block stays lines",
			"RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM with a very long model name here:\n" +
				"  size mismatch for lm_head.weight",
			"Error(s) in loading state_dict for Qwen2ForCausalLM with a very long model name here:"},
		{"a short line is no wrap",
			"KeyError: 'model.layers.0.mlp.experts'\n  missing in checkpoint",
			"'model.layers.0.mlp.experts'"},
		{"a quoted source line is no rest",
			"ValueError: the tokenizer returned an empty sequence for the prompt of request 41 in batch 7\n" +
				"  tokens = tokenizer.encode(prompt)",
			"the tokenizer returned an empty sequence for the prompt of request 41 in batch 7"},
	} {
		es := assemble(t, Options{}, tt.in)
		if len(es) == 0 || es[0].Traceback == nil {
			t.Errorf("%s: %d entries, want an exception line first", tt.name, len(es))
			continue
		}
		if got := es[0].Traceback.Outermost().Message; got != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, got, tt.msg)
		}
	}
	// A validation error's field lines, and a traceback after an
	// exception line, are no wrap.
	const pyd = "pydantic_core._pydantic_core.ValidationError: 1 validation error for ServerArgs with model path\n" +
		"model_path\n  Field required [type=missing, input_value={}, input_type=dict]"
	if es := assemble(t, Options{}, pyd); len(es) == 0 || strings.Contains(es[0].Text, "model path model_path") {
		t.Errorf("validation error joined: %+v", es)
	}
	const next = "ValueError: the tokenizer returned an empty sequence for the prompt of request 41 in batch 7\n" +
		"Traceback (most recent call last):\n  File \"/a.py\", line 3, in f\nKeyError: 'x'"
	if es := assemble(t, Options{}, next); len(es) == 0 || strings.Contains(es[0].Text, "batch 7 Traceback") {
		t.Errorf("traceback joined: %+v", es)
	}
}

// TestHandWrappedMessageCutAgain: a hand wrap whose lines a terminal cut
// again at its width is one line again too, its message whole, for two
// checks' messages (sglang's server arguments, a DeepEP architecture
// check); the hand wrap's first line is read at its length rejoined.
func TestHandWrappedMessageCutAgain(t *testing.T) {
	cut := func(s string, width int) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			for len(l) > width {
				out = append(out, l[:width])
				l = l[width:]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	for _, tt := range []struct {
		name, in, msg string
	}{
		{"server arguments",
			"ValueError: Speculative decoding with EAGLE3 is not validated for 'MiniCPMForCausalLM';\n" +
				"  supported architectures are ['LlamaForCausalLM', 'Qwen3ForCausalLM']. Use\n" +
				"  --speculative-algorithm NEXTN instead.",
			"Speculative decoding with EAGLE3 is not validated for 'MiniCPMForCausalLM'; supported architectures are ['LlamaForCausalLM', 'Qwen3ForCausalLM']. Use --speculative-algorithm NEXTN instead."},
		{"DeepEP's architectures",
			"ValueError: DeepEP v2 MoE is not validated for 'Qwen3_5MoeForConditionalGeneration';\n" +
				"  supported architectures are ['DeepseekV3ForCausalLM', 'DeepseekV4ForCausalLM',\n" +
				"  'Qwen3MoeForCausalLM']. Use --moe-a2a-backend deepep.",
			"DeepEP v2 MoE is not validated for 'Qwen3_5MoeForConditionalGeneration'; supported architectures are ['DeepseekV3ForCausalLM', 'DeepseekV4ForCausalLM', 'Qwen3MoeForCausalLM']. Use --moe-a2a-backend deepep."},
	} {
		es := assemble(t, Options{}, cut(tt.in, 80))
		if len(es) != 1 || es[0].Traceback == nil {
			t.Errorf("%s: %d entries, want one exception line: %+v", tt.name, len(es), views(es))
			continue
		}
		if got := es[0].Traceback.Outermost().Message; got != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, got, tt.msg)
		}
	}
	// A short exception line cut by nothing keeps its indented line.
	es := assemble(t, Options{}, "KeyError: 'model.layers.0.mlp.experts'\n  missing in checkpoint")
	if len(es) == 0 || strings.Contains(es[0].Traceback.Outermost().Message, "missing") {
		t.Errorf("short line joined: %+v", views(es))
	}
}
