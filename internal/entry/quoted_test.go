package entry

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnquoteException(t *testing.T) {
	tests := []struct {
		in       string
		typ, msg string // "" typ: not a quoted exception line
	}{
		{"`RuntimeError: NCCL error: unhandled system error`", "RuntimeError", "NCCL error: unhandled system error"},
		// A code span that runs over several lines has no closing
		// backtick on its first; backticks inside the message stay.
		{"`RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`.", "RuntimeError", "alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`."},
		{"- ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory", "ImportError", "libnvrtc.so.12: cannot open shared object file: No such file or directory"},
		{"  * ValueError: bad value", "ValueError", "bad value"},
		{"\t+ torch.OutOfMemoryError: CUDA out of memory.", "torch.OutOfMemoryError", "CUDA out of memory."},
		{"• KeyError: 'model.layers.0.mlp.gate.weight'", "KeyError", "'model.layers.0.mlp.gate.weight'"},
		{"`asyncio.CancelledError`", "asyncio.CancelledError", ""},
		// Markdown emphasis, numbered list items, and layers of them.
		{"**RuntimeError: CUDA error: out of memory**", "RuntimeError", "CUDA error: out of memory"},
		{"__KeyError: 'lm_head.weight'__  ", "KeyError", "'lm_head.weight'"},
		{"*OSError: model.safetensors not found*", "OSError", "model.safetensors not found"},
		{"1. ImportError: libcudart.so.12: cannot open shared object file", "ImportError", "libcudart.so.12: cannot open shared object file"},
		{"  12) ValueError: tp_size must divide the number of heads", "ValueError", "tp_size must divide the number of heads"},
		{"- **`torch.OutOfMemoryError: CUDA out of memory.`**", "torch.OutOfMemoryError", "CUDA out of memory."},
		{"**`AssertionError`**", "AssertionError", ""},
		// An exception group's leaf line, kept without the group's head.
		{"    | fastapi.exceptions.HTTPException: 500: Prefill bootstrap failed for request rank=0", "fastapi.exceptions.HTTPException", "500: Prefill bootstrap failed for request rank=0"},
		{"  | ValueError: bad value", "ValueError", "bad value"},
		{"| KeyError: 'x'", "KeyError", "'x'"},

		// Near misses: prose in a list, warnings, fences, plain lines,
		// bullets without a space, too deep an indentation.
		{"- Fixed a ValueError: in the loader", "", ""},
		{"- UserWarning: deprecated", "", ""},
		{"```RuntimeError: x", "", ""},
		{"``", "", ""},
		{"RuntimeError: x", "", ""},
		{"-ValueError: x", "", ""},
		{"*ValueError: x", "", ""},
		{"--- ValueError: x", "", ""},
		{"          - ValueError: x", "", ""},
		{"- ", "", ""},
		{"`", "", ""},
		{"", "", ""},
		{"•ValueError: x", "", ""},
		{"**ValueError: x", "", ""},
		{"**Error:** the server crashed", "", ""},
		{"***", "", ""},
		{"** ValueError: x**", "", ""},
		{"_private_helper: x_", "", ""},
		{"2024. ValueError: x", "", ""},
		{"1.ValueError: x", "", ""},
		{"1. Fixed a ValueError: in the loader", "", ""},
		// A Markdown table row, a group's border, a box line that is no
		// exception line.
		{"| ValueError: bad value | 3 |", "", ""},
		{"| ValueError | raised by the loader |", "", ""},
		{"    +---------------- 1 ----------------", "", ""},
		{"    | Traceback (most recent call last):", "", ""},
		{"|ValueError: x", "", ""},
	}
	for _, tt := range tests {
		typ, msg, ok := unquoteException(tt.in)
		if ok != (tt.typ != "") || typ != tt.typ || msg != tt.msg {
			t.Errorf("unquoteException(%q) = %q, %q, %v; want %q, %q", tt.in, typ, msg, ok, tt.typ, tt.msg)
		}
		if tt.typ != "" && !maybeQuoted(tt.in) {
			t.Errorf("maybeQuoted(%q) = false for a quoted exception line", tt.in)
		}
	}
}

// TestAssemblerQuotedExceptions: an exception line in backticks or as a
// list item is read as the same line unquoted would be: a bare exception
// of its own entry, or the exception a line ending in ":" announces.
func TestAssemblerQuotedExceptions(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []bareView
	}{
		{"backticks", "`RuntimeError: NCCL error: unhandled system error`",
			[]bareView{{"1-1", FormatNone, "", "RuntimeError: NCCL error: unhandled system error", true}}},
		{"list of import errors, each its own", "- ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory\n- ModuleNotFoundError: No module named 'common_ops'",
			[]bareView{
				{"1-1", FormatNone, "", "ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory", true},
				{"2-2", FormatNone, "", "ModuleNotFoundError: No module named 'common_ops'", true},
			}},
		{"indented item after prose is its own, as unquoted", "The server did not start\n  * ValueError: bad value",
			[]bareView{{"1-1", FormatNone, "", "", false}, {"2-2", FormatNone, "", "ValueError: bad value", true}}},
		{"indented item a line announces", "It failed with:\n  * ValueError: bad value",
			[]bareView{{"1-2", FormatNone, "", "ValueError: bad value", true}}},
		{"quoted line as a record's message", "[2026-07-01 09:31:38 TP0] `ValueError: Unsupported model architecture`",
			[]bareView{{"1-1", FormatSRT, "", "ValueError: Unsupported model architecture", true}}},
		{"after a logging record, as unquoted", "2025-03-07 23:50:27,531 - app - ERROR - request failed\n- ConnectionError: refused",
			[]bareView{{"1-1", FormatPython, "", "", false}, {"2-2", FormatNone, "", "ConnectionError: refused", true}}},
		{"multi-line code span takes the epilogue", "`RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.`",
			[]bareView{{"1-2", FormatNone, "", "RuntimeError: CUDA error: an illegal memory access was encountered", true}}},

		// Near misses: prose in a list is no exception.
		{"prose item", "- Fixed the ValueError: in the loader", []bareView{{"1-1", FormatNone, "", "", false}}},
		{"indented prose item continues", "Changes\n  * ValueError raised earlier is gone", []bareView{{"1-2", FormatNone, "", "", false}}},
	}
	for _, tt := range tests {
		got := bareViews(t, assemble(t, Options{}, tt.in))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
	}
}

// TestQuotedSameAsUnquoted checks the rule on every exception line of the
// bare-exception tests: quoted each way, the entries keep their lines and
// their exception.
func TestQuotedSameAsUnquoted(t *testing.T) {
	lines := []string{
		"ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
		"ValueError: Unsupported model architecture Qwen9ForCausalLM",
		"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error",
		"socket.gaierror: [Errno -2] Name or service not known",
		"KeyboardInterrupt",
	}
	for _, l := range lines {
		want := bareViews(t, assemble(t, Options{}, "Loading the model\n"+l+"\n[2026-07-01 09:31:38] next"))
		for _, q := range []string{"`" + l + "`", "- " + l, "  * " + l, "• " + l} {
			got := bareViews(t, assemble(t, Options{}, "Loading the model\n"+q+"\n[2026-07-01 09:31:38] next"))
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%q: (-unquoted +quoted)\n%s", q, d)
			}
		}
	}
}

// FuzzUnquoteException checks that a quoted exception line is read from
// the line itself: its type and message are parts of it, the type is
// strict, and the line is one maybeQuoted lets through.
func FuzzUnquoteException(f *testing.F) {
	for _, s := range []string{"`RuntimeError: x`", "- ImportError: y", "  * ValueError: z", "• KeyError: 'k'", "```", "- UserWarning: w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, msg, ok := unquoteException(s)
		if !ok {
			return
		}
		if !maybeQuoted(s) || !strings.Contains(s, typ) || !strings.Contains(s, msg) || strings.HasSuffix(typ, "Warning") {
			t.Fatalf("unquoteException(%q) = %q, %q", s, typ, msg)
		}
		if _, _, plain := parseBareException(typ + ": " + msg); msg != "" && !plain {
			t.Fatalf("unquoteException(%q) = %q, %q: not a strict exception line", s, typ, msg)
		}
	})
}
