package entry

import (
	"strings"
	"testing"
)

// TestPaddedRowsMessageGoesOn: in rows a terminal padded to its width, the
// padding takes the space an exception's message ended in after its
// colon (sglang's "Capture cuda graph failed: " with an empty inner
// error, its hints after it): the message goes on with its next line as
// in the stream that kept the space. A chained exception whose message
// ends in a colon and opens an entry of its own (sglang's multimodal
// loader) keeps the lines it had unpadded.
func TestPaddedRowsMessageGoesOn(t *testing.T) {
	const capture = "deepseek-v32-exp  |   File \"/sgl-workspace/sglang-private/python/sglang/srt/model_executor/cuda_graph_runner.py\", line 393, in __init__\n" +
		"deepseek-v32-exp  |     raise Exception(\n" +
		"deepseek-v32-exp  | Exception: Capture cuda graph failed: \n" +
		"deepseek-v32-exp  | Possible solutions:\n" +
		"deepseek-v32-exp  | 1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)\n" +
		"deepseek-v32-exp  | 2. set --cuda-graph-max-bs to a smaller value (e.g., 16)"
	plain := assemble(t, Options{}, capture)
	padded := assemble(t, Options{}, padTo(strings.Split(capture, "\n"), 120))
	if len(plain) == 0 || len(padded) == 0 {
		t.Fatalf("no entries: %d, %d", len(plain), len(padded))
	}
	if !strings.Contains(plain[0].Text, "failed: Possible solutions:") {
		t.Fatalf("unpadded: %q", plain[0].Text)
	}
	if !strings.Contains(padded[0].Text, "failed: Possible solutions:") || strings.Contains(padded[0].Text, "solutions: 1. set") {
		t.Errorf("padded: the message's next line, and only it, goes on: %q", padded[0].Text)
	}
	const chained = "The above exception was the direct cause of the following exception:\n\n" +
		"RuntimeError: Error while loading data ImageData(url='data:image/jpeg;base64,R0lGODlhEAAQAPZAAI6Ojp2d...'):\n" +
		"broken data stream when reading image file"
	if p, u := assemble(t, Options{}, padTo(strings.Split(chained, "\n"), 120)), assemble(t, Options{}, chained); len(p) != len(u) {
		t.Errorf("chained exception: %d entries padded, %d not", len(p), len(u))
	}
}
