package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

func TestSubject(t *testing.T) {
	tests := []struct {
		family, msg, want string
	}{
		// The Hub: the repo id, quoted or not, with what a user appended.
		{analysis.FamilyHub, "Repo id must use alphanumeric chars or '-', '_', '.', '--' and '..' are forbidden, max length is 96: 'TheBloke/M-7B-GPTQ:gptq-4bit'.", "TheBloke/M-7B-GPTQ:gptq-4bit"},
		{analysis.FamilyHub, "org/m-1.5 does not appear to have a file named x.json. Checkout 'https://huggingface.co/org/m-1.5/tree/main'for available files.", "org/m-1.5"},
		{analysis.FamilyHub, "Incorrect path_or_model_id: '/data/models/llama'. Please provide either the path to a local folder or the repo_id", "/data/models/llama"},
		{analysis.FamilyHub, "We couldn't connect to 'https://huggingface.co' to load this file", ""}, // a URL is no id
		{analysis.FamilyHub, "401 Client Error: a/b/c is a path in a URL", ""},                        // two slashes
		// A file: an absolute, home or relative path.
		{analysis.FamilyFile, "[Errno 2] No such file or directory: '/models/x/tokenizer.json'", "/models/x/tokenizer.json"},
		{analysis.FamilyFile, "[Errno 13] Permission denied: '~/.cache/huggingface/hub'", "~/.cache/huggingface/hub"},
		{analysis.FamilyFile, "cannot read ./weights/shard-1.safetensors.", "./weights/shard-1.safetensors"},
		{analysis.FamilyFile, "no such file: model.bin", ""}, // a bare name is no path
		{analysis.FamilyFile, "No such file or directory: '/tmp/a b'", "/tmp/a"},
		{analysis.FamilyFile, "see http://host/x/y for help", ""},
		// A parse failure: the file it names.
		{analysis.FamilyParse, "Invalid JSON in generation_config.json: line 1", "generation_config.json"},
		{analysis.FamilyParse, "Expecting value: line 1 column 1 (char 0)", ""},
		// Import: the module, or the shared library.
		{analysis.FamilyImport, "No module named 'vllm._C'", "vllm._C"},
		{analysis.FamilyImport, "cannot import name 'fused_marlin_moe' from 'sgl_kernel' (/opt/x/sgl_kernel/__init__.py)", "sgl_kernel"},
		{analysis.FamilyImport, "libnvrtc.so.12: cannot open shared object file: No such file or directory", "libnvrtc.so.12"},
		// Quotes a paste retyped: typographic, backticks; never mixed.
		{analysis.FamilyImport, "cannot import name ‘build_regex_from_object’ from ‘outlines.fsm.json_schema’ (/opt/x/outlines/fsm/json_schema.py)", "outlines.fsm.json_schema"},
		{analysis.FamilyImport, "No module named “flash_attn”", "flash_attn"},
		{analysis.FamilyImport, "No module named `sgl_kernel.ops`", "sgl_kernel.ops"},
		{analysis.FamilyImport, "No module named ‘vllm'", ""},
		{analysis.FamilyImport, "cannot import name 'x' from '1bad'", ""},
		{analysis.FamilyImport, "cannot import name 'x' from partially initialized module 'a' (most likely due to a circular import)", ""},
		// A check: the flag, else a path.
		{analysis.FamilyValue, "--tp-size must divide 64 heads", "--tp-size"},
		{analysis.FamilySupport, "--enable-dp-attention is not supported with --pp-size > 1", "--enable-dp-attention"},
		{analysis.FamilyValue, "Unrecognized model in /m/x. Should have a `model_type` key", "/m/x"},
		{analysis.FamilyValue, "value -- must be positive", ""},
		{analysis.FamilyValue, "--Bad must be set", ""},
		{analysis.FamilyConfig, "tp_size=3 is not a divisor", ""},
		// Network: an address with a service port.
		{analysis.FamilyNetwork, "Failed to connect to 10.0.0.5:30000 (connection refused)", "10.0.0.5:30000"},
		{analysis.FamilyNetwork, "connect to localhost:8000 timed out", "localhost:8000"},
		{analysis.FamilyNetwork, "[node-7:537 :1] send completion with error", ""}, // a host and a pid
		{analysis.FamilyNetwork, "at 10:30:45 the connection reset", ""},
		{analysis.FamilyNetwork, "10.0.0.5:99999 refused", ""},
		// Families without a subject.
		{analysis.FamilyMemory, "CUDA out of memory. Tried to allocate 2.00 GiB on /dev/x", ""},
		{"", "/etc/x", ""},
	}
	for _, tt := range tests {
		if got := analysis.Subject(tt.family, tt.msg); got != tt.want {
			t.Errorf("Subject(%q, %q) = %q, want %q", tt.family, tt.msg, got, tt.want)
		}
	}
}

// FuzzSubject reads arbitrary messages for a subject: nothing panics, and
// a subject is a bounded token of the safe alphabet that the message
// holds.
func FuzzSubject(f *testing.F) {
	for _, s := range []string{
		"Repo id must use alphanumeric chars: 'a/b:c'.",
		"[Errno 2] No such file or directory: '/models/x/config.json'",
		"cannot import name 'x' from 'a.b' (/p/a/b.py)",
		"libx.so.1: cannot open shared object file",
		"--tp-size must be at least 1",
		"Failed to connect to 10.0.0.5:30000",
		"",
	} {
		f.Add(s)
	}
	families := []string{analysis.FamilyHub, analysis.FamilyFile, analysis.FamilyParse, analysis.FamilyImport,
		analysis.FamilyValue, analysis.FamilySupport, analysis.FamilyConfig, analysis.FamilyTokenizer, analysis.FamilyNetwork}
	f.Fuzz(func(t *testing.T, msg string) {
		for _, fam := range families {
			s := analysis.Subject(fam, msg)
			if s == "" {
				continue
			}
			if len(s) > 120 || !strings.Contains(msg, s) {
				t.Fatalf("Subject(%q, %q) = %q: not a bounded part of the message", fam, msg, s)
			}
			for i := 0; i < len(s); i++ {
				c := s[i]
				if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._-/~+@=:", c) >= 0) {
					t.Fatalf("Subject(%q, %q) = %q: byte %q outside the safe alphabet", fam, msg, s, c)
				}
			}
		}
	})
}
