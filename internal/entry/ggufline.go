package entry

import "strings"

// ggml's GGUF reader (gguf.cpp, inside llama.cpp, Ollama's runner and
// every program that bundles ggml) says why a model file could not be read
// on a line of its own named by the reading function, with no level word:
// "gguf_init_from_file: invalid magic characters 'M-oM-?M-='",
// "gguf_init_from_file_impl: tensor 'blk.25.ffn_down.weight' has invalid
// ggml type 42 (NONE)", "gguf_init_from_file_impl: failed to read
// key-value pairs", "gguf_init_from_file: failed to open GGUF file
// '<path>'". It prints them at its error level; the loader's
// "llama_model_load: error loading model: llama_model_loader: failed to
// load model" follows and only says that the load failed. The reader
// prints no routine line under these names (the loader's own INFO lines
// are "llama_model_loader: ..."), so such a line with one of the reader's
// failure words is a diagnostic at the error level, of the same shape as
// the loader's line after it.

// ggufReaderPrefix opens the reader's function names: gguf_init_from_file,
// gguf_init_from_file_impl, gguf_init_from_reader.
const ggufReaderPrefix = "gguf_init_from_"

// maxGGUFMessage bounds the message ggufReaderFailure looks for words in.
const maxGGUFMessage = 256

// ggufFailureWords are the words of the reader's error messages.
var ggufFailureWords = [...]string{
	"invalid", "failed", "not supported", "no longer supported", "duplicate", "not within",
	"extremely large", "not a multiple", "overflow", "bad_alloc", "empty key",
}

// ggufReaderFailure reports whether prog, the name a diagnostic line opens
// with, is one of the GGUF reader's functions and msg, the text after its
// colon, one of its failure messages (see above).
func ggufReaderFailure(prog, msg string) bool {
	if len(prog) <= len(ggufReaderPrefix) || !strings.HasPrefix(prog, ggufReaderPrefix) {
		return false
	}
	msg = msg[:min(len(msg), maxGGUFMessage)]
	for _, w := range ggufFailureWords {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// maxGluedAt bounds where gluedGGUFAt looks for the reader's name.
const maxGluedAt = 64

// gluedGGUFAt returns where the GGUF reader's line starts in s when
// another writer's output without its newline runs into it: a
// progress message or a spinner's text printed to the terminal, then the
// reader's diagnostic on stderr ("Loading modelgguf_init_from_file:
// failed to open GGUF file '...'", llama-run). The name follows a
// letter, with no space between; 0 when s holds no such line.
func gluedGGUFAt(s string) int {
	i := strings.Index(s[:min(len(s), maxGluedAt+len(ggufReaderPrefix))], ggufReaderPrefix)
	if i <= 0 || !isLetter(s[i-1]) {
		return 0
	}
	return i
}
