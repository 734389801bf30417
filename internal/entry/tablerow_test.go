package entry

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Triton's model status table, its status cell wrapped over rows:
// triton-inference-server/tensorrtllm_backend#33, broken at the space
// before a word that does not fit ...
const tritonStatusWordWrap = "" +
	"+----------------+---------+--------------------------------------------------------------------------------------------------------------------+\n" +
	"| Model          | Version | Status                                                                                                             |\n" +
	"+----------------+---------+--------------------------------------------------------------------------------------------------------------------+\n" +
	"| postprocessing | 1       | READY                                                                                                              |\n" +
	"| preprocessing  | 1       | READY                                                                                                              |\n" +
	"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed:  |\n" +
	"|                |         | mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:80)                                 |\n"

// ... and tensorrtllm_backend#129, cut at the column's width inside a
// word, then a stack frame the message printed on a line of its own.
const tritonStatusCut = "" +
	"+----------------+---------+--------------------------------------------------------------------------------------------+\n" +
	"| Model          | Version | Status                                                                                     |\n" +
	"+----------------+---------+--------------------------------------------------------------------------------------------+\n" +
	"| postprocessing | 1       | READY                                                                                      |\n" +
	"| preprocessing  | 1       | READY                                                                                      |\n" +
	"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][E |\n" +
	"|                |         | RROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/wor |\n" +
	"|                |         | ldConfig.cpp:80)                                                                           |\n" +
	"|                |         | 3       0x7f06d283e9e2 /opt/tritonserver/backends/tensorrtllm/libtriton_tensorrtllm.so(+0x |\n" +
	"|                |         | 569e2) [0x7f06d283e9e2]                                                                    |\n"

func TestTableRowJoin(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		failing bool     // only the entries of the failing row's lines
		want    []string // the entries' texts
	}{
		{"word wrap at a space", tritonStatusWordWrap, false, []string{
			rowsOf(tritonStatusWordWrap, 0), rowsOf(tritonStatusWordWrap, 1), rowsOf(tritonStatusWordWrap, 2),
			rowsOf(tritonStatusWordWrap, 3), rowsOf(tritonStatusWordWrap, 4),
			"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:80) |",
		}},
		{"cut inside a word, then the message's next line", tritonStatusCut, false, []string{
			rowsOf(tritonStatusCut, 0), rowsOf(tritonStatusCut, 1), rowsOf(tritonStatusCut, 2),
			rowsOf(tritonStatusCut, 3), rowsOf(tritonStatusCut, 4),
			"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:80) |",
			"|                |         | 3       0x7f06d283e9e2 /opt/tritonserver/backends/tensorrtllm/libtriton_tensorrtllm.so(+0x569e2) [0x7f06d283e9e2] |",
		}},
		// The table cut again by a terminal narrower than its rows:
		// each row's pieces rejoined, the continuation row's first
		// piece goes on with the row before.
		{"cut at 80 columns", hardWrapText(tritonStatusWordWrap, 80), true, []string{
			"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:80) |",
		}},
		{"cut at 100 columns", hardWrapText(tritonStatusCut, 100), true, []string{
			"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:80) |",
			"|                |         | 3       0x7f06d283e9e2 /opt/tritonserver/backends/tensorrtllm/libtriton_tensorrtllm.so(+0x569e2) [0x7f06d283e9e2] |",
		}},
		// Near misses. Rows whose first cell holds text are rows of
		// their own (triton-inference-server/server#5197).
		{"rows of their own", "" +
			"| densenet_onnx      | 1       | UNAVAILABLE: Internal: unable to create stream: the provided PTX was compiled with an unsupported toolchain. |\n" +
			"| inception_graphdef | 1       | UNAVAILABLE: Not found: model configuration is not provided for model 'inception_graphdef'                   |",
			false, []string{
				"| densenet_onnx      | 1       | UNAVAILABLE: Internal: unable to create stream: the provided PTX was compiled with an unsupported toolchain. |",
				"| inception_graphdef | 1       | UNAVAILABLE: Not found: model configuration is not provided for model 'inception_graphdef'                   |",
			}},
		// nvidia-smi's cells are aligned right, its third row blank but
		// for the last cell (utensils/comfyui-nix#80).
		{"cells aligned right", "" +
			"|   0  NVIDIA GeForce RTX 5080        Off |   00000000:2B:00.0  On |                  N/A |\n" +
			"|  0%   43C    P8             11W /  360W |    1030MiB /  16303MiB |      1%      Default |\n" +
			"|                                         |                        |                  N/A |",
			false, []string{
				"|   0  NVIDIA GeForce RTX 5080        Off |   00000000:2B:00.0  On |                  N/A |",
				"|  0%   43C    P8             11W /  360W |    1030MiB /  16303MiB |      1%      Default |",
				"|                                         |                        |                  N/A |",
			}},
		{"a row of another width", "" +
			"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][E |\n" +
			"|                |         | RROR] Assertion failed: mpiSize == tp * pp |",
			false, []string{
				"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][E |",
				"|                |         | RROR] Assertion failed: mpiSize == tp * pp |",
			}},
		{"after a blank line", "" +
			"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][E |\n\n" +
			"|                |         | RROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/wor |",
			false, []string{
				"| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][E |",
				"|                |         | RROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/wor |",
			}},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range assemble(t, Options{}, tt.in) {
			if e.Text != "" && (!tt.failing || strings.Contains(e.Text, "0x7f06d283e9e2") || strings.Contains(e.Text, "Assertion")) {
				got = append(got, e.Text)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: entries (-want +got):\n%s", tt.name, diff)
		}
	}
}

// rowsOf returns the i-th line of text.
func rowsOf(text string, i int) string {
	return strings.Split(text, "\n")[i]
}

// An exception line indented under prose, as a Markdown code block or a
// list item's next paragraph quotes it, alerts as it does unindented:
// sgl-project/sglang#32020's RuntimeError, and sglang#28541's and
// sglang#8668's exception lines quoted the same way.
func TestIndentedExceptionLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []bareView
	}{
		{"four spaces under prose", "When Mooncake standalone_storage is enabled, the MooncakeStore requires a MooncakeHostTensorAllocator to manage host-side buffers, and the mismatch triggers:\n\n" +
			"    RuntimeError: MooncakeStore with standalone_storage=True requires MooncakeHostTensorAllocator",
			[]bareView{{Lines: "1-2"}, {Lines: "3-3", Exc: "RuntimeError: MooncakeStore with standalone_storage=True requires MooncakeHostTensorAllocator", Bare: true}}},
		{"a tab", "Enabling hicache will hit the following issue for dsv4 unified kv triton\n\n\tAttributeError: 'NoneType' object has no attribute 'kv_buffer",
			[]bareView{{Lines: "1-2"}, {Lines: "3-3", Exc: "AttributeError: 'NoneType' object has no attribute 'kv_buffer", Bare: true}}},
		{"two spaces, alone", "  NameError: name 'MooncakeStore' is not defined",
			[]bareView{{Lines: "1-1", Exc: "NameError: name 'MooncakeStore' is not defined", Bare: true}}},
		// Near misses: deeper than a quote's indentation, no strict
		// exception name, a warning.
		{"nine spaces", "         NameError: name 'MooncakeStore' is not defined", []bareView{{Lines: "1-1"}}},
		{"no exception name", "    Error: name 'MooncakeStore' is not defined", []bareView{{Lines: "1-1"}}},
		{"a warning", "    FutureWarning: `resume_download` is deprecated", []bareView{{Lines: "1-1"}}},
		{"a source line", "    raise RuntimeError(f\"NCCL error: {error_str}\")", []bareView{{Lines: "1-1"}}},
	}
	for _, tt := range tests {
		got := bareViews(t, assemble(t, Options{}, tt.in))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.name, diff)
		}
	}
}

// FuzzTableRow: a row that continues another is as long as it, opens
// with its bar and has its last cell where the other has; the separator
// is a space or nothing.
func FuzzTableRow(f *testing.F) {
	f.Add(rowsOf(tritonStatusWordWrap, 5), rowsOf(tritonStatusWordWrap, 6))
	f.Add(rowsOf(tritonStatusCut, 5), rowsOf(tritonStatusCut, 6))
	f.Add(rowsOf(tritonStatusCut, 7), rowsOf(tritonStatusCut, 8))
	f.Fuzz(func(t *testing.T, prev, next string) {
		row, ok := parseTableRow(prev)
		if !ok {
			return
		}
		if row.cell < row.lead+2 || row.cell >= row.width || prev[row.lead] != '|' || prev[row.cell-2] != '|' || row.cell+row.text > row.width-2 {
			t.Fatalf("parseTableRow(%q) = %+v: no last cell", prev, row)
		}
		if text, sep, ok := row.continues(next); ok {
			if len(next) != len(prev) || next[row.lead] != '|' || next[row.cell-2] != '|' || sep != "" && sep != " " || text == "" || text[0] == ' ' {
				t.Fatalf("continues(%q, %q) = %q, %q: no continuation row", prev, next, text, sep)
			}
		}
		if text, sep, ok := row.continuesPiece(next); ok {
			if len(next) >= len(prev) || next[row.lead] != '|' || next[row.cell-2] != '|' || sep != "" && sep != " " || text == "" || text[0] == ' ' {
				t.Fatalf("continuesPiece(%q, %q) = %q, %q: no continuation row's piece", prev, next, text, sep)
			}
		}
	})
}
