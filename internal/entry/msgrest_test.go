package entry

import (
	"strings"
	"testing"
)

// TestExceptionMessageRest: an exception's message a terminal or a paste
// broke at a space, its rest at the first column, is one line again (a
// quoted value); a line of another writer after an exception line (prose
// after a closed message, a program's label, a field name, c10's frame
// list, a short line) keeps its own.
func TestExceptionMessageRest(t *testing.T) {
	for _, tt := range []struct {
		name, in, msg string
		entries       int
	}{
		// sglang#19033: DeepEP's CUDA check, its quoted error on the
		// next line.
		{"a quoted value, a bare line",
			"RuntimeError: Failed: CUDA error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:200\n" +
				"'peer access is not supported between these two devices'",
			"Failed: CUDA error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:200 'peer access is not supported between these two devices'", 1},
		// deepseek-ai/DeepEP#87: the same check in a traceback, cut by
		// the paste before its quoted error.
		{"a quoted value, a traceback's exception line",
			"Traceback (most recent call last):\n" +
				"  File \"/home1/DeepEP/deep_ep/buffer.py\", line 227, in get_dispatch_layout\n" +
				"    self.runtime.get_dispatch_layout(topk_idx, num_experts, getattr(previous_event, 'event', None),\n" +
				"RuntimeError: Failed: CUDA error /home1/DeepEP/csrc/kernels/internode.cu:133\n" +
				"'named symbol not found'",
			"Failed: CUDA error /home1/DeepEP/csrc/kernels/internode.cu:133 'named symbol not found'", 1},
		{"another writer's line after a closed quote",
			"TypeError: __init__() got multiple values for keyword argument 'log_level'\n" +
				"worker 0 exited",
			"__init__() got multiple values for keyword argument 'log_level'", 2},
		{"a program's label",
			"RuntimeError: CUDA error: an illegal memory access was encountered while launching the\n" +
				"srun: error: node-3: task 0: Exited with exit code 1",
			"CUDA error: an illegal memory access was encountered while launching the", 2},
		{"a short line is no wrap",
			"RuntimeError: Failed: CUDA error /x/deep_ep.cpp:200\n'peer access is not supported between'",
			"Failed: CUDA error /x/deep_ep.cpp:200", 2},
		{"a full stop ends the message",
			"RuntimeError: CUDA error: an illegal memory access was encountered in the decode step.\n" +
				"'peer access is not supported between these two devices'",
			"CUDA error: an illegal memory access was encountered in the decode step.", 2},
	} {
		es := assemble(t, Options{}, tt.in)
		if len(es) != tt.entries {
			t.Errorf("%s: %d entries, want %d: %+v", tt.name, len(es), tt.entries, es)
		}
		var tb *Traceback
		for _, e := range es {
			if e.Traceback != nil {
				tb = e.Traceback
				break
			}
		}
		if tb == nil {
			t.Errorf("%s: no exception read", tt.name)
			continue
		}
		if got := tb.Outermost().Message; got != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, got, tt.msg)
		}
	}
}

// TestC10FrameListNoRest: c10's frame list after an error's message stays
// its lines when a paste dropped the "Exception raised from" line between
// (the watchdog's line of sglang#22987, the what() line of sglang#8296),
// however long the message's line.
func TestC10FrameListNoRest(t *testing.T) {
	const frame0 = "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f8416d6c1b6 in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10.so)"
	for _, in := range []string{
		"[E416 13:29:57.332110411 ProcessGroupNCCL.cpp:2057] [PG ID 2 PG GUID 3 Rank 3] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n" + frame0,
		"terminate called after throwing an instance of 'c10::DistBackendError'\n" +
			"  what():  [PG ID 2 PG GUID 3 Rank 1] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n" + frame0,
		"RuntimeError: CUDA error: an illegal memory access was encountered while launching the\n" + frame0,
	} {
		for _, e := range assemble(t, Options{}, in) {
			if strings.Contains(e.Text, "encounteredframe") || strings.Contains(e.Text, "the frame #0") || strings.Contains(e.Text, "encountered frame") {
				t.Errorf("frame list joined to the message: %q", e.Text)
			}
		}
	}
}

// FuzzMessageRest: isMessageRest takes only a line at the first column,
// of two words or more, that opens with a lower-case word or a quote or
// parenthesis, after an exception line that does not end a sentence.
func FuzzMessageRest(f *testing.F) {
	f.Add("RuntimeError: Failed: CUDA error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:200", "'peer access is not supported between these two devices'")
	f.Add("TypeError: __init__() got multiple values for keyword argument 'log_level'", "worker 0 exited")
	f.Add("RuntimeError: x while launching the", "srun: error: node-3: task 0")
	f.Fuzz(func(t *testing.T, prev, next string) {
		c := &classified{s: next}
		if !isMessageRest(prev, c) {
			return
		}
		if next == "" || isIndented(next) || !strings.Contains(next, " ") || !(isLower(next[0]) || strings.IndexByte("'\"(", next[0]) >= 0) {
			t.Fatalf("isMessageRest(%q, %q): no rest's shape", prev, next)
		}
		if strings.ContainsAny(prev[len(prev)-1:], ".:!?,; \t") {
			t.Fatalf("isMessageRest(%q, %q): prev ends a sentence", prev, next)
		}
		if _, _, ok := parseExceptionAnyQuote(strings.TrimLeft(prev, " \t")); !ok {
			t.Fatalf("isMessageRest(%q, %q): prev is no exception line", prev, next)
		}
		if isC10Line(next) {
			t.Fatalf("isMessageRest(%q, %q): a c10 frame line", prev, next)
		}
	})
}

// TestSpacedPasteRests: at the start of a double-spaced paste, before it
// has shown lines enough to tell its spacing, a hand wrap's indented rest
// and a source location alone in parentheses go on with the line across
// the one blank line (sglang#... as posted in 879's and 1271's threads,
// doubled); after lines that were not double-spaced, the blank line ends
// the entry.
func TestSpacedPasteRests(t *testing.T) {
	for _, tt := range []struct {
		name, in, text string
	}{
		{"a location alone",
			"Capture cuda graph failed: Assertion error\n\n(/deepgemm/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:57):\n",
			"Capture cuda graph failed: Assertion error (/deepgemm/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:57):"},
		{"a hand wrap's rest",
			"ValueError: DeepEP v2 MoE is not validated for 'Qwen3_5MoeForConditionalGeneration';\n\n" +
				"  supported architectures are ['DeepseekV3ForCausalLM', 'DeepseekV4ForCausalLM',\n",
			"ValueError: DeepEP v2 MoE is not validated for 'Qwen3_5MoeForConditionalGeneration'; supported architectures are ['DeepseekV3ForCausalLM', 'DeepseekV4ForCausalLM',"},
	} {
		es := assemble(t, Options{}, tt.in)
		if len(es) == 0 || es[0].Text != tt.text {
			t.Errorf("%s: %+v, want first entry %q", tt.name, es, tt.text)
		}
	}
	// Single-spaced lines first: the stream is no double-spaced paste,
	// and its blank line ends the record.
	const single = "INFO server starting\nINFO loading weights\nINFO weights loaded\nINFO capturing graphs\n" +
		"Capture cuda graph failed: Assertion error\n\n(/deepgemm/csrc/utils/layout.hpp:57):\n"
	for _, e := range assemble(t, Options{}, single) {
		if strings.Contains(e.Text, "error (/deepgemm") {
			t.Errorf("joined across a blank line of a single-spaced stream: %q", e.Text)
		}
	}
}
