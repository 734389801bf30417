package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

func TestUndefinedAfterImport(t *testing.T) {
	for _, c := range []struct {
		imp, use string
		want     bool
	}{
		{`Failed to import from vllm._C with ModuleNotFoundError("No module named 'vllm._C'")`,
			"AttributeError: '_OpNamespace' '_C' object has no attribute 'rms_norm'", true},
		{"Failed to import deep_gemm: cannot import name 'get_num_sms' from 'deep_gemm' (/usr/lib/python3/deep_gemm/__init__.py)",
			"NameError: name 'deep_gemm_gemm_nt_f8f8bf16' is not defined", true},
		{"flashinfer not found, falling back to triton attention: No module named 'flashinfer'",
			"NameError: name 'flashinfer' is not defined", true},
		{"ModuleNotFoundError: No module named 'sgl_kernel'", "ImportError: cannot import name 'sgl_kernel' from 'sglang.srt.layers'", true},
		// Another name, another family, no import failure.
		{"flashinfer not found, falling back to triton attention: No module named 'flashinfer'",
			"NameError: name 'tokenizer' is not defined", false},
		{"flashinfer not found, falling back to triton attention: No module named 'flashinfer'",
			"RuntimeError: CUDA error: an illegal memory access was encountered", false},
		{"Connection refused: 'flashinfer'", "NameError: name 'flashinfer' is not defined", false},
		{"No module named 'vllm._C'", "KeyError: 'MAX_CONTEXT'", false},
		{"No module named 'x'", "NameError: name 'x_y' is not defined", false}, // a one-letter module names nothing
	} {
		if got := analysis.UndefinedAfterImport(c.imp, c.use); got != c.want {
			t.Errorf("UndefinedAfterImport(%q, %q) = %v, want %v", c.imp, c.use, got, c.want)
		}
	}
}
