package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A native library that names the function printing each of its lines
// (llama.cpp and ggml print __func__ in front: "ggml_cuda_init: found 1
// CUDA devices", "llm_load_tensors: offloaded 81/81 layers to GPU"; NIXL,
// whisper.cpp and many C libraries alike) says a failure the same way,
// with no level: "ggml_cuda_init: failed to initialize CUDA: unknown
// error", "llama_model_load: failed to load model", "prepXferDlist:
// failed to prepare the descriptors", "whisper_init_from_file: failed to
// open 'ggml-base.bin'". The line is read where a prefix the entry
// package did not take (a compose service's column, a relay's label)
// stands in front of the function's name too. The name is one token of a
// function's bytes, with an underscore or a capital after a lower-case
// letter (a sentence's word is none: "Error: failed to ..." is another
// reader's); "failed to" and what failed follow its colon. A line that
// says its writer carries on (a retry, a fallback, an optional piece it
// skips) is none.

// funcFailedCarriesOn are words of a line whose writer goes on after the
// failure it reports.
var funcFailedCarriesOn = [...]string{"retrying", "Retrying", "will retry", "falling back", "Falling back", "fallback", "ignor", "Ignor", "skipping", "Skipping", "optional", "using default", "trying ", "Trying "}

// maxFuncName bounds a function's name in front of its failure.
const maxFuncName = 64

// funcFailedCandidate is funcFailed's byte test: l holds ": failed to ",
// found by its 'f'.
func funcFailedCandidate(l string) bool {
	return ascii.IndexByRare(l, ": failed to ", 2) >= 0
}

// funcFailed reports whether l is a native library's line that a named
// function failed (see above).
func funcFailed(l string) bool {
	for from := 0; from < len(l); {
		i := ascii.IndexByRare(l[from:], ": failed to ", 2)
		if i < 0 {
			return false
		}
		at := from + i
		from = at + len(": failed to ")
		if from >= len(l) || !ascii.Letter(l[from]) || !functionNameBefore(l[:at]) {
			continue
		}
		return !containsAnyOf(l, funcFailedCarriesOn[:])
	}
	return false
}

// functionNameBefore reports whether s ends with a function's name as a
// token of its own (see above): after the line's start, a space, a '|'
// or a ']'.
func functionNameBefore(s string) bool {
	j := len(s)
	for j > 0 && len(s)-j <= maxFuncName && (isAlnum(s[j-1]) || s[j-1] == '_') {
		j--
	}
	name := s[j:]
	if len(name) < 3 || len(name) > maxFuncName || !ascii.Letter(name[0]) {
		return false
	}
	if j > 0 && s[j-1] != ' ' && s[j-1] != '|' && s[j-1] != ']' && s[j-1] != '\t' {
		return false
	}
	if strings.IndexByte(name, '_') > 0 {
		return true
	}
	for k := 1; k < len(name); k++ {
		if isUpperByte(name[k]) && isLowerByte(name[k-1]) {
			return true
		}
	}
	return false
}
