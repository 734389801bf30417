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

// TestAssemblerRejoinsJSONRest: a word wrap (fold -s) that broke a JSON
// error body inside a string value is rejoined when the rest goes on with
// the object's members, for three servers' bodies (sglang's and vLLM's
// OpenAI-compatible errors, TGI's); a JSON object of its own after a
// line that ends in a space stays apart.
func TestAssemblerRejoinsJSONRest(t *testing.T) {
	for _, tc := range []struct{ name, in, whole string }{
		{"sglang's error body", "{\"object\":\"error\",\"message\":\"Internal server error: list index out of \nrange\",\"type\":\"InternalServerError\",\"param\":null,\"code\":500}",
			"Internal server error: list index out of range"},
		{"vLLM's error body", "{\"object\":\"error\",\"message\":\"This model's maximum context length is 4096 tokens. \nHowever,\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}",
			"maximum context length is 4096 tokens. However,"},
		{"TGI's error body", "{\"error\":\"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: \n4000\",\"error_type\":\"validation\"}",
			"must be <= 4096. Given: 4000"},
		{"a JSON object of its own after a label", "2026-12-06 18:42:43,046 INFO sending the request to the router with body: \n{\"model\":\"x\",\"messages\":[]}", "!body: {"},
	} {
		es := assemble(t, Options{}, tc.in)
		want, not := strings.CutPrefix(tc.whole, "!")
		if strings.Contains(es[0].Text, want) == not {
			t.Errorf("%s: first entry %q, holds %q: %v", tc.name, es[0].Text, want, !not)
		}
	}
}
