package entry

import (
	"strings"
	"testing"
)

// TestIsCompilerToolNames checks isCompilerTool against its definition:
// the last path element is one of compilerTools, or ends with "-" and one.
func TestIsCompilerToolNames(t *testing.T) {
	want := func(prog string) bool {
		base := prog[strings.LastIndexByte(prog, '/')+1:]
		for _, t := range compilerTools {
			if base == t || strings.HasSuffix(base, "-"+t) {
				return true
			}
		}
		return false
	}
	names := []string{"", "/", "gcc", "g++", "x86_64-linux-gnu-gcc", "/usr/bin/ld", "ld.lld", "ld.gold",
		"collect2", "-gcc", "xgcc", "gccx", "RuntimeError", "ValueError", "torch.cuda.OutOfMemoryError",
		"nvcc", "/usr/local/cuda/bin/nvcc", "ptxas", "nvlink", "cicc", "ninja", "hipcc", "clang++",
		"aarch64-linux-gnu-g++", "c++", "cc", "acc", "a-cc", "2", "d", "+", "k", "s"}
	for _, tool := range compilerTools {
		names = append(names, tool, "x-"+tool, "x"+tool, tool+"x", "/p/"+tool)
	}
	for _, n := range names {
		if got := isCompilerTool(n); got != want(n) {
			t.Errorf("isCompilerTool(%q) = %v, want %v", n, got, want(n))
		}
	}
}
