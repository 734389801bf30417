package entry

import "testing"

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
