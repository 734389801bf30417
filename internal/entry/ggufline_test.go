package entry

import (
	"strings"
	"testing"
)

// TestGGUFReaderFailure reads ggml's GGUF reader's error lines, as
// llama.cpp's tools, its server and programs that bundle ggml print them,
// as diagnostics at the error level, and leaves silent the reader's
// deprecation notice and the loader's routine lines.
func TestGGUFReaderFailure(t *testing.T) {
	for line, want := range map[string]bool{
		// llama.cpp's main, 2023 (a GGML .bin given as the model).
		"gguf_init_from_file: invalid magic number 67676a74": true,
		// llama-server on Kubernetes, the model path a folder.
		"gguf_init_from_file: invalid magic characters '\ufffd'": true,
		// llama.cpp with a gpt-oss GGUF of a newer tensor type.
		"gguf_init_from_file_impl: tensor 'blk.0.ffn_down_exps.weight' has invalid ggml type 39 (NONE)": true,
		"gguf_init_from_file_impl: failed to read tensor info":                                          true,
		"gguf_init_from_file_impl: failed to read key-value pairs":                                      true,
		"gguf_init_from_file: failed to open GGUF file '/models/gemma-3-12b-it-qat-q4_0.gguf'":          true,
		"gguf_init_from_file_impl: GGUFv1 is no longer supported, please use a more up-to-date version": true,

		"gguf_init_from_file: GGUFv1 is deprecated. please update if possible.":                                                    false,
		"llama_model_loader: loaded meta data with 34 key-value pairs and 389 tensors from /root/.ollama/models/blobs/sha256-8c62": false,
		"llama_model_loader: - kv   0:                       general.architecture str              = bert":                         false,
		"gguf_kv_to_str: invalid":  false,
		"gguf_init_from_: invalid": false,
	} {
		lvl, ok := parseDiagnosticLine(line)
		if got := ok && lvl == LevelError; got != want {
			t.Errorf("parseDiagnosticLine(%q) = %q, %v; want an error line %v", line, lvl, ok, want)
		}
	}
}

// TestGluedGGUFLine: the reader's line with another writer's output run
// into it without a newline (llama-run's "Loading model" before the
// reader's failure, ggml-org/llama.cpp#15164; the reader's wording of
// ggml-org/llama.cpp#15919) is read as the reader's diagnostic, the glued
// text a wrapper's part; the same words after a space, or the reader's
// routine lines, are not.
func TestGluedGGUFLine(t *testing.T) {
	tests := []struct {
		in, msg, prefix string // msg "": no diagnostic entry
	}{
		{"Loading modelgguf_init_from_file: failed to open GGUF file 'Kimi-K2-Instruct-BF16-384x14B-Q2_K_S-00002-of-00013.gguf'",
			"gguf_init_from_file: failed to open GGUF file 'Kimi-K2-Instruct-BF16-384x14B-Q2_K_S-00002-of-00013.gguf'", "Loading model"},
		{"Loading modelgguf_init_from_file: failed to open GGUF file '/home/user/models/ggml-org/gemma-3-12b-it-qat-q4_0.gguf'",
			"gguf_init_from_file: failed to open GGUF file '/home/user/models/ggml-org/gemma-3-12b-it-qat-q4_0.gguf'", "Loading model"},
		// Behind moreutils' ts, the spinner's word and the glued name
		// are no syslog host and program; a syslog line's program is.
		{"Nov 06 02:10:00 Loading modelgguf_init_from_file: failed to open GGUF file 'Kimi-K2-Instruct-BF16-384x14B-Q2_K_S-00002-of-00013.gguf'",
			"gguf_init_from_file: failed to open GGUF file 'Kimi-K2-Instruct-BF16-384x14B-Q2_K_S-00002-of-00013.gguf'", "Nov 06 02:10:00 Loading model"},
		{"Nov  6 02:10:00 gpu-node-3 llama-server[2741]: gguf_init_from_file: failed to open GGUF file 'x.gguf'",
			"gguf_init_from_file: failed to open GGUF file 'x.gguf'", "Nov  6 02:10:00 gpu-node-3 llama-server[2741]: "},
		{"Loading modelgguf_init_from_file: GGUFv1 is deprecated. please update if possible.", "", ""},
		{"the loader called gguf_init_from_file: failed to open GGUF file 'x.gguf'", "", ""},
		{"llama_gguf_init_from_file: failed to open GGUF file 'x.gguf'", "", ""},
	}
	for _, tt := range tests {
		es := assemble(t, Options{}, tt.in)
		got, prefix := "", ""
		if len(es) == 1 && es[0].Native == NativeDiagnostic {
			got, prefix = es[0].Message, es[0].Prefix
		}
		if got != tt.msg || prefix != tt.prefix {
			t.Errorf("%q: diagnostic %q behind %q, want %q behind %q", tt.in, got, prefix, tt.msg, tt.prefix)
		}
	}
}

// FuzzGluedGGUFAt: the reader's name found is after a letter, within
// the bytes looked at.
func FuzzGluedGGUFAt(f *testing.F) {
	f.Add("Loading modelgguf_init_from_file: failed to open GGUF file 'x.gguf'")
	f.Add("gguf_init_from_file: invalid magic number 67676a74")
	f.Fuzz(func(t *testing.T, s string) {
		i := gluedGGUFAt(s)
		if i == 0 {
			return
		}
		if i > maxGluedAt || !isLetter(s[i-1]) || !strings.HasPrefix(s[i:], ggufReaderPrefix) {
			t.Fatalf("gluedGGUFAt(%q) = %d", s, i)
		}
	})
}
