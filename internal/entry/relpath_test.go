package entry

import (
	"strings"
	"testing"
)

// TestAssemblerRejoinsRelativePathRest: a word wrap (fold -s) that moved
// a relative or a Windows path too long for the rest of the line to a line
// of its own is rejoined, for three writers; a short pair and a line that
// ends in no space stay apart.
func TestAssemblerRejoinsRelativePathRest(t *testing.T) {
	tests := []struct {
		name, in, whole string // whole: the first entry's text holds it; after "!", it does not
	}{
		{"torch's DistBackendError", "torch.distributed.DistBackendError: NCCL error in: \n../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled system error (run with \nNCCL_DEBUG=INFO for details), NCCL version 2.18.6",
			"NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled system error"},
		{"a kernel library's undefined symbol", "ImportError: \n./build/lib.linux-x86_64-cpython-310/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEa",
			"ImportError: ./build/lib.linux-x86_64-cpython-310/sgl_kernel/common_ops.abi3.so: undefined symbol"},
		{"a Windows path", "OSError: Can't load tokenizer for \nC:\\Users\\me\\models\\Qwen2.5-7B-Instruct-AWQ\\tokenizer. Make sure the path is correct.",
			"Can't load tokenizer for C:\\Users\\me\\models\\Qwen2.5-7B-Instruct-AWQ\\tokenizer."},
		{"a short pair", "error in: \n../x/y.cpp:1", "!in: ../x"},
		{"no space before", "torch.distributed.DistBackendError: NCCL error in:\n../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled", "!in:../torch"},
	}
	for _, tc := range tests {
		es := assemble(t, Options{}, tc.in)
		want, not := strings.CutPrefix(tc.whole, "!")
		if got := strings.Contains(es[0].Text, want); got == not {
			t.Errorf("%s: first entry %q, holds %q: %v", tc.name, es[0].Text, want, got)
		}
	}
	for _, w := range []string{"../a/b.cpp:1,", "./build/x.so:", `C:\Users\x`, "C:/x/y"} {
		if !isRelativePath(w) {
			t.Errorf("isRelativePath(%q) = false", w)
		}
	}
	for _, w := range []string{"..", "a/b", "C:", "CUDA:0", "x:\\"} {
		if isRelativePath(w) {
			t.Errorf("isRelativePath(%q) = true", w)
		}
	}
}
