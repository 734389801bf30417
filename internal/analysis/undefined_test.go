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

// A package's loader that gave up on its native library is explained by a
// library the system lacks, not by a symbol its own build misses.
func TestUnloadedLibraryExplainsALoaderThatGaveUp(t *testing.T) {
	for _, c := range []struct {
		lib, use string
		want     bool
	}{
		{"ImportError: libnuma.so.1: cannot open shared object file", "[sgl_kernel] CRITICAL: Could not load any common_ops library!", true},
		{"OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory", "ERROR: Failed to load the fused kernels library for this GPU", true},
		{"OSError: libcublasLt.so.12: cannot open shared object file", "Unable to load the quantization kernels library", true},
		{"ImportError: /x/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_", "[sgl_kernel] CRITICAL: Could not load any common_ops library!", false},
		{"ImportError: libnuma.so.1: cannot open shared object file", "Failed to load the model weights", false},
	} {
		if got := analysis.UnloadedLibrary(c.lib, c.use); got != c.want {
			t.Errorf("UnloadedLibrary(%q, %q) = %v, want %v", c.lib, c.use, got, c.want)
		}
	}
}
