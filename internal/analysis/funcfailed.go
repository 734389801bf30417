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

// funcFailedCarriesOn are the words, besides a carry-on clause
// (carriesOnPast), of a line whose writer goes on after the failure it
// reports: an optional piece, another try.
var funcFailedCarriesOn = [...]string{"optional", "trying ", "Trying "}

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
		return !carriesOnPast(l, funcFailedCarriesOn[:])
	}
	return false
}

// functionNameBefore reports whether s ends with a function's name as a
// token of its own (see above), or with the source location a logger
// prints in its place (sourceLocationBefore).
func functionNameBefore(s string) bool {
	return functionName(s) || sourceLocationBefore(s)
}

// functionName reports whether s ends with a function's name as a token
// of its own (see above): after the line's start, a space, a '|' or a
// ']'.
func functionName(s string) bool {
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

// A program's logger may print the source file and line in front of each
// message instead of a function's name: Go's standard logger with
// Lshortfile ("2023/12/24 23:48:35 llama.go:459: error starting llama
// runner: llama runner process has terminated", ollama's), a C++
// library's "grammar_parser.cc:72: ...". Its failure reads as the
// function's above ("server.go:88: failed to bind ...: address already in
// use"), or as Go's error wrapping words: "error", what the program was
// doing in lower-case words, a colon and the error ("error starting llama
// runner: ...", "error loading model: ..."). Its routine lines ("total
// blobs: 17", "starting llama runner", "warning: gpu support may not be
// enabled") are none. llama.cpp wraps its errors in the same words behind
// a function's name ("llama_model_load: error loading model: unknown
// model architecture: 'phi3'").

// sourceExts are the source files' extensions a located line names.
var sourceExts = [...]string{".go", ".cc", ".cpp", ".c", ".cu", ".h", ".hpp", ".rs"}

// maxErrorPhrase bounds the words between "error" and its colon.
const maxErrorPhrase = 64

// sourceLocationBefore reports whether s ends with a source file's name
// and a line number ("llama.go:459"), as a token of its own.
func sourceLocationBefore(s string) bool {
	j := len(s)
	for j > 0 && len(s)-j < 8 && isDigitByte(s[j-1]) {
		j--
	}
	if j == len(s) || j == 0 || s[j-1] != ':' {
		return false
	}
	file := s[:j-1]
	for _, ext := range sourceExts {
		if f, ok := strings.CutSuffix(file, ext); ok {
			k := len(f)
			for k > 0 && len(f)-k <= maxLineTag && (isAlnum(f[k-1]) || f[k-1] == '_' || f[k-1] == '-' || f[k-1] == '.' || f[k-1] == '/') {
				k--
			}
			return k < len(f) && (k == 0 || f[k-1] == ' ' || f[k-1] == '|' || f[k-1] == ']' || f[k-1] == '\t')
		}
	}
	return false
}

// locatedError reports whether l holds, after a source location or a
// function's name and its colon, Go's error wrapping words (see above):
// "error", lower-case words, a colon and the error.
// quotedFailureCandidate ("rror") is its byte test.
func locatedError(l string) bool {
	for from, n := 0, 0; from < len(l) && n < maxQuotedAnchors; n++ {
		i := strings.Index(l[from:], ": error ")
		if i < 0 {
			return false
		}
		at := from + i
		from = at + len(": error ")
		if !functionNameBefore(l[:at]) {
			continue
		}
		r := l[from:]
		c := strings.Index(r[:min(len(r), maxErrorPhrase)], ": ")
		if c <= 0 || !hasLetter(r[c+2:]) {
			continue
		}
		phrase := true
		for j := 0; j < c; j++ {
			if b := r[j]; !isLowerByte(b) && b != ' ' && b != '_' && b != '-' {
				phrase = false
				break
			}
		}
		if phrase {
			return !carriesOnPast(l, funcFailedCarriesOn[:])
		}
	}
	return false
}

// A C++ library's own logger may print the source location in brackets
// instead ("[/sgl-workspace/mori/src/application/topology/gpu.cpp:80] rocm
// smi failed with RSMI_STATUS_INIT_ERROR: An error occurred during
// initialization"). Behind such a tag, what failed, the word "failed" and
// its reason (after a colon, "with" or "because") is the failure. The
// line opens with '[', which quiet's first-byte test already lets
// through.

// maxTagFailSubject bounds the words before "failed" behind a location
// tag.
const maxTagFailSubject = 6

// taggedLocationFailed reports whether l opens with a bracketed source
// location and says what failed and why (see above).
func taggedLocationFailed(l string) bool {
	if l == "" || l[0] != '[' {
		return false
	}
	end := strings.IndexByte(l[:min(len(l), maxLineTag+2)], ']')
	if end < 2 || !strings.HasPrefix(l[end:], "] ") || strings.ContainsAny(l[1:end], " [") || !sourceLocationBefore(l[1:end]) {
		return false
	}
	r := l[end+2:]
	i := strings.Index(r[:min(len(r), maxSubjectBytes+len(" failed"))], " failed")
	if i < 1 || strings.Count(r[:i], " ")+1 > maxTagFailSubject || strings.ContainsAny(r[:i], ".,;:") {
		return false
	}
	rest := r[i+len(" failed"):]
	for _, p := range [...]string{": ", " with ", " because "} {
		if x, ok := strings.CutPrefix(rest, p); ok && hasLetter(x) {
			return !carriesOnPast(l, funcFailedCarriesOn[:])
		}
	}
	return false
}
