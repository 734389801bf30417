package entry

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseEmbeddedException(t *testing.T) {
	tests := []struct {
		name, in, typ, msg string
	}{
		{"after a colon in prose", "The service fails to start with the error message: ValueError: Unrecognized model in /models/x. Should have a `model_type` key.", "ValueError", "Unrecognized model in /models/x. Should have a `model_type` key."},
		{"bold italic", "come with the error: **_OSError: org/model does not appear to have a file named preprocessor_config.json._**", "OSError", "org/model does not appear to have a file named preprocessor_config.json."},
		{"full-width colon in quotes", `decode error: "RuntimeError：E19999: Inner Error! "`, "RuntimeError", "E19999: Inner Error!"},
		{"full-width parentheses", "The model service failed to start（RuntimeError: The bias should be 1D）", "RuntimeError", "The bias should be 1D"},
		{"CJK text runs into it", "启动时报错RuntimeError: CUDA error: out of memory", "RuntimeError", "CUDA error: out of memory"},
		// StackGAN-v2#40, vllm#7953: a fence of three backticks glued
		// to the type, closed by as many, or by four when the message
		// ends in a span of its own.
		{"a glued fence, closed by four", "```RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasCreate(handle)````", "RuntimeError", "CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasCreate(handle)`"},
		{"a glued fence, closed by three", "Error: ```RuntimeError: Cannot find any model weights with...``` I located the problem to the method", "RuntimeError", "Cannot find any model weights with..."},
		{"a glued fence after a list item", "  * ```RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(handle, opa, opb, CUBLAS_GEMM_DEFAULT_TENSOR_OP)```", "RuntimeError", "CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(handle, opa, opb, CUBLAS_GEMM_DEFAULT_TENSOR_OP)"},
		{"a single backtick closes at the first", "see `RuntimeError: boom` and `x`", "RuntimeError", "boom"},
		{"arrow", "2. Run with --mem-fraction-static 0.84 → RuntimeError: Not enough memory.", "RuntimeError", "Not enough memory."},
		{"ascii arrow", "step 3 -> torch.OutOfMemoryError: CUDA out of memory.", "torch.OutOfMemoryError", "CUDA out of memory."},
		{"backticks", "it fails with `KeyError: 'pixel_values'` when the image is missing", "KeyError", "'pixel_values'"},
		{"backticks around brackets, then a space", "the server crashes with this assertion error: `AssertionError: assert logits.shape[0] == len(seq_lens_expanded)` ", "AssertionError", "assert logits.shape[0] == len(seq_lens_expanded)"},
		{"a bracket balanced inside", "it failed (RuntimeError: f(x) returned None) twice", "RuntimeError", "f(x) returned None"},
		{"a double quote, the message quoting", `error: "ValueError: bad value "x"" in the log`, "ValueError", `bad value "x"`},
		{"emphasis keeps underscores", "**_KeyError: 'lm_head.weight'_**", "KeyError", "'lm_head.weight'"},
		{"dotted type", "error=requests.exceptions.ConnectionError: Max retries exceeded", "requests.exceptions.ConnectionError", "Max retries exceeded"},
		{"leftmost wins", "got: ValueError: bad shape, then (TypeError: x)", "ValueError", "bad shape, then (TypeError: x)"},
		{"error level in front", "worker ERROR: ImportError: libcudart.so.12: cannot open shared object file", "ImportError", "libcudart.so.12: cannot open shared object file"},

		// Near misses.
		{"opens the line", "ValueError: x", "", ""},
		{"word of prose before", "Retrying (attempt two) ConnectionError: refused", "", ""},
		{"lower-case prose", "the request failed because ValueError: x", "", ""},
		{"part of an identifier", "raise MyValueError: x", "", ""},
		{"path component", "see /docs/errors/ValueError: x", "", ""},
		{"module path", "in sglang.srt.ValueError: x", "", ""},
		{"no message", "the error: ValueError: ", "", ""},
		{"no colon", "error: ValueError raised earlier", "", ""},
		{"bare suffix", "status: Error: none", "", ""},
		{"not an exception name", "status: Timeout: 30s", "", ""},
		{"warning", "note: UserWarning: deprecated", "", ""},
		{"lower-case type", "got: valueError: x", "", ""},
		{"quiet level in front", "worker INFO: handled ValueError: retrying", "", ""},
		{"warning level in front", "WARNING retry: (TimeoutError: read timed out)", "", ""},
		{"identifier underscore", "my_ValueError: x", "", ""},
	}
	for _, tt := range tests {
		typ, msg, ok := parseEmbeddedException(tt.in)
		if ok != (tt.typ != "") || typ != tt.typ || msg != tt.msg {
			t.Errorf("%s: parseEmbeddedException(%q) = %q, %q, %v; want %q, %q", tt.name, tt.in, typ, msg, ok, tt.typ, tt.msg)
		}
		if ok && !mayEmbedException(tt.in) {
			t.Errorf("%s: mayEmbedException(%q) = false for a line parseEmbeddedException reads", tt.name, tt.in)
		}
	}
}

// TestAssemblerEmbeddedException checks that a header-less line with an
// embedded exception becomes a bare exception entry and that a record's
// message never does.
func TestAssemblerEmbeddedException(t *testing.T) {
	tests := []struct {
		name, in string
		want     []bareView
	}{
		{"prose with a colon", "Service fails to start with the error message: ValueError: Unrecognized model", []bareView{{Lines: "1-1", Exc: "ValueError: Unrecognized model", Bare: true}}},
		{"full-width parentheses", "The service failed to start（RuntimeError: The bias should be 1D）", []bareView{{Lines: "1-1", Exc: "RuntimeError: The bias should be 1D", Bare: true}}},
		{"python logging INFO", "2025-03-07 23:50:27,531 - app - INFO - the error: ValueError: handled",
			[]bareView{{Lines: "1-1", Format: FormatPython}}},
		{"prose", "Retrying (attempt two) ConnectionError: refused", []bareView{{Lines: "1-1"}}},
	}
	for _, tt := range tests {
		got := bareViews(t, assemble(t, Options{}, tt.in))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
	}
}

func FuzzParseEmbeddedException(f *testing.F) {
	for _, s := range []string{
		"error: ValueError: x", `decode error: "RuntimeError：E19999 "`, "failed（RuntimeError: x）",
		"come with the error: **_OSError: y_**", "Retrying (attempt two) ConnectionError: refused",
		"INFO: handled ValueError: x", "→ KeyError: 'k'", "",
		"```RuntimeError: x `f(h)````", "Error: ```RuntimeError: y``` z", "``ValueError: a `b` c``",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, msg, ok := parseEmbeddedException(s)
		if !ok {
			return
		}
		if !mayEmbedException(s) || !strings.Contains(s, typ) || !strings.Contains(s, msg) || msg == "" {
			t.Fatalf("parseEmbeddedException(%q) = %q, %q", s, typ, msg)
		}
		if strings.HasPrefix(s, typ) {
			t.Fatalf("parseEmbeddedException(%q) = %q: the type opens the line", s, typ)
		}
		if _, _, plain := parseBareException(typ + ": " + msg); !plain {
			t.Fatalf("parseEmbeddedException(%q) = %q, %q: not a strict exception line", s, typ, msg)
		}
	})
}

// TestEmbeddedRepr: a Python exception's repr inside another program's
// error text (pyo3's PyErr, quoted whole or as its value, a logger that
// names what a call raised, a wrapping exception's repr) reads as that
// exception; a repr without a quoted message, behind a quiet level, in a
// bare tuple of another's arguments or as a task's field does not.
func TestEmbeddedRepr(t *testing.T) {
	for _, tt := range []struct{ in, typ, msg string }{
		{`"TypeError("TokenizedGenerateReqInput.__init__() missing 1 required positional argument: 'stream'"), traceback: None }note: run with ` + "`RUST_BACKTRACE=1`",
			"TypeError", "TokenizedGenerateReqInput.__init__() missing 1 required positional argument: 'stream'"},
		{`Err(PyErr { type: <class 'ValueError'>, value: ValueError('max_tokens must be at least 1, got 0'), traceback: None })`,
			"ValueError", "max_tokens must be at least 1, got 0"},
		{`the worker raised RuntimeError('CUDA error: an illegal memory access was encountered', 700)`,
			"RuntimeError", "CUDA error: an illegal memory access was encountered"},
		{`ray.exceptions.RayTaskError(KeyError("'model.layers.0.weight'"))`, "KeyError", "'model.layers.0.weight'"},
	} {
		typ, msg, ok := parseEmbeddedException(tt.in)
		if !ok || typ != tt.typ || msg != tt.msg {
			t.Errorf("%q: %q %q %v, want %q %q", tt.in, typ, msg, ok, tt.typ, tt.msg)
		}
	}
	for _, in := range []string{
		`handled ValueError(code) and went on`,
		`INFO retrying after ValueError('x')`,
		`the ValueError("unterminated`,
		// Among another's arguments (a retry's warning), or a task's
		// field the analysis reads.
		`'(ReadTimeoutError("HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out."), '(Request ID: 4f1c)')' thrown while requesting HEAD https://huggingface.co/x`,
		`future: <Future finished exception=ConnectionResetError("peer 10.0.0.3 closed the stream")>`,
	} {
		if typ, msg, ok := parseEmbeddedException(in); ok {
			t.Errorf("%q read as %s: %s", in, typ, msg)
		}
	}
}
