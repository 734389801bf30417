package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"

	"github.com/logmatch/logmatch/internal/entry"
)

// A native library reports its own errors without a logging header: its
// name, the word error, and what went wrong, printed straight to stderr
// ("rocBLAS error: Cannot read ...", "NCCL error: unhandled system error",
// "cuDNN error: CUDNN_STATUS_...", "hipBLASLt error: ...", "MIOpen Error:
// ..."), often behind a bracketed tag naming the component or the source
// file that printed it ("[torch_memory_saver.cpp] CUresult error
// result=2 file=...", "[sgl_kernel] CRITICAL: Could not load ...",
// "[mylib] ERROR: ..."). The entry package reads no level in such a line;
// libraryErrorLine reads it here.

// Bounds of libraryErrorLine's pieces.
const (
	maxLineTag     = 96 // a bracketed tag: a component or a source file and line
	minLibraryName = 2
	maxLibraryName = 24
)

// libraryErrorLine reports whether msg, the first line of a message with no
// level of its own, is a native library's error line: after an optional
// bracketed tag without spaces ("[component] ", "[file.cpp] ",
// "[/src/file.cc:80] "), a level word the way error prints open it
// (startsWithErrorWord: "CRITICAL: ...", "ERROR: ...") or a library's name
// followed by its error (libraryError).
func libraryErrorLine(msg string) bool {
	if msg == "" {
		return false
	}
	if msg[0] == '[' {
		if strings.HasPrefix(msg, "[Errno ") {
			return errnoLine(msg)
		}
		end := strings.IndexByte(msg[:min(len(msg), maxLineTag+2)], ']')
		if end < 2 || !strings.HasPrefix(msg[end:], "] ") || strings.ContainsAny(msg[1:end], " \t[") {
			return false
		}
		rest := strings.TrimLeft(msg[end+2:], " ")
		return tagLevelWord(rest) || libraryError(rest)
	}
	return libraryError(msg) || failedActionLine(msg)
}

// errnoLine reports whether msg is an OSError printed as its str, which
// opens with its errno in brackets and goes on with its text: "[Errno 98]
// error while attempting to bind on address ('0.0.0.0', 8000): address
// already in use" (uvicorn's), "[Errno 111] Connection refused", "[Errno
// 28] No space left on device". A line that opens so is the error itself,
// printed without its type or level; a notice quotes it after words of
// its own.
func errnoLine(msg string) bool {
	r := strings.TrimPrefix(msg[len("[Errno "):], "-")
	n := 0
	for n < len(r) && n < 5 && isDigitByte(r[n]) {
		n++
	}
	if n == 0 || !strings.HasPrefix(r[n:], "] ") {
		return false
	}
	return hasLetter(r[n+2:])
}

// A program that writes its failure to stderr without a level often says
// what it failed to do, then why, after a colon: nvidia-smi's "Failed to
// initialize NVML: Driver/library version mismatch", an RDMA test's
// "Failed to modify QP to RTR: Connection timed out", Go programs'
// "failed to create containerd task: failed to create shim task: ...",
// llama.cpp's server's "Failed to parse arguments: [json.exception...]",
// "Unable to find metadata storage plugin etcd with conn string: ...",
// "Could not load library libcudnn_cnn_infer.so.8: ...", and the
// lower-case chains Go's errors wrap ("unable to start process: health
// check failed after 15s", "could not open config: ..."). Such a line with
// no header is the failure itself; the same words a logger prints carry
// the logger's level, and a writer that went on says so (notice.go).

// failedActions open a line that says what its writer failed to do.
var failedActions = [...]string{"Failed to ", "failed to ", "Unable to ", "unable to ", "Could not ", "could not ", "Couldn't ", "couldn't ", "Cannot ", "cannot ", "Can't "}

// maxFailedAction bounds what a failed-action line says it failed to do,
// before the colon and the reason.
const maxFailedAction = 96

// failedActionLine reports whether msg, the first line of a message with
// no level and no logger's header, says what failed and why (see above):
// one of failedActions, a clause without a sentence break, a colon, and a
// reason with a letter in it.
func failedActionLine(msg string) bool {
	if len(msg) < 12 {
		return false
	}
	switch msg[0] { // the byte test: failedActions' first bytes
	case 'F', 'f', 'U', 'u', 'C', 'c':
	default:
		return false
	}
	r := ""
	for _, p := range failedActions {
		if rest, ok := strings.CutPrefix(msg, p); ok {
			r = rest
			break
		}
	}
	if r == "" || !ascii.Letter(r[0]) {
		return false
	}
	colon := strings.Index(r[:min(len(r), maxFailedAction+2)], ": ")
	if colon < 1 {
		return false
	}
	what := r[:colon]
	if strings.Contains(what, ". ") || strings.Contains(what, "; ") || strings.Contains(what, "? ") {
		return false
	}
	return hasLetter(r[colon+2:])
}

// failedActionLibrary returns the first word of what a failed-action line
// (failedActionLine) failed to do that reads as a library's name (NVML,
// QP); "" when none does.
func failedActionLibrary(msg string) string {
	_, r, _ := strings.Cut(msg, " to ")
	what, _, _ := strings.Cut(r, ": ")
	for _, w := range strings.Fields(what) {
		if libraryName(w) {
			return w
		}
	}
	return ""
}

// libraryError reports whether s opens with a library's name, the word
// error and what went wrong: "NCCL error: ...", "cudaError error: 2 (out
// of memory)", "CUresult error  result=1 file=...", or the word failed
// and what failed (libraryFailed). The name is one token
// that reads as a library's, not a word of prose: two capitals at least
// ("CUDA", "MIOpen", "rocBLAS") or a capital after a lower-case letter
// ("cuDNN", "cudaError"). What follows the error word is a message with a
// letter in it after a colon ("RMSE error: 0.02" is a figure), or the
// non-zero code the failed call returned as a key=value field. A first
// token that is no library's name may still be a library logger's
// ("MIOpen(HIP): Error [SetIsaName] ...": libraryLoggerError).
func libraryError(s string) bool {
	if subjectFailed(s) {
		return true
	}
	sp := strings.IndexByte(s[:min(len(s), maxLibraryName+1)], ' ')
	if sp < minLibraryName {
		return false
	}
	if !libraryName(s[:sp]) {
		return libraryLoggerError(s[:sp], s[sp+1:])
	}
	r := s[sp+1:]
	if libraryTimeout(r) {
		return true
	}
	if f, failed := strings.CutPrefix(r, "failed"); failed {
		return libraryFailed(f)
	}
	var ok bool
	for _, w := range [...]string{"error", "Error", "ERROR"} {
		if r, ok = strings.CutPrefix(r, w); ok {
			break
		}
	}
	if !ok {
		return false
	}
	if m, colon := strings.CutPrefix(r, ":"); colon {
		return strings.HasPrefix(m, " ") && hasLetter(m)
	}
	if loc, ok := strings.CutPrefix(r, " ("); ok {
		// The source location that raised it, then the message:
		// "CUDA error (hopper/flash_fwd_launch_template.h:166): no
		// kernel image is available ...".
		end := strings.Index(loc, "): ")
		return end > 0 && !strings.ContainsAny(loc[:end], " ()") && hasLetter(loc[end+3:])
	}
	if !strings.HasPrefix(r, " ") {
		return false
	}
	field, _, _ := strings.Cut(strings.TrimLeft(r, " "), " ")
	k, v, _ := strings.Cut(field, "=")
	return resultKey(k) && strings.Trim(v, "0") != ""
}

// libraryFailed reports whether f, what follows "<library> failed" on a
// line a library printed itself ("DeepGEMM failed for matrix shapes M=256,
// ...", "NCCL failed to connect ...", "cuBLASLt failed: ..."), says what
// failed: a colon or a preposition, then words.
func libraryFailed(f string) bool {
	for _, p := range [...]string{": ", " to ", " for ", " with ", " while ", " on ", " in ", " because "} {
		if r, ok := strings.CutPrefix(f, p); ok {
			return hasLetter(r)
		}
	}
	return false
}

// A component's failure is often printed as what failed, the word
// failed, and why: Mooncake's "Batch RPC call failed: Expected
// DiskDescriptor", a Kubernetes event's "Liveness probe failed: Get
// \"http://...\": connection refused", sglang's "Capture cuda graph
// failed: ...", a launcher's "Child process unexpectedly failed with an
// exit code 256". At a line's start, with no level and no logger's
// header, such a line is the failure; a writer that went on says so
// after it (notice.go).

// Bounds of subjectFailed's subject.
const (
	maxSubjectWords = 6
	maxSubjectBytes = 64
)

// subjectFailed reports whether s opens with a subject of a few words
// (the first a capitalised word, none ending a clause), the word
// "failed", and the reason: after a colon, or "with", "because" or "due
// to" and words (see above).
func subjectFailed(s string) bool {
	if s == "" || !isUpperByte(s[0]) {
		// A message opens with a capital; a lower-case word first is
		// a clause of something longer, or a name.
		return false
	}
	i := strings.Index(s[:min(len(s), maxSubjectBytes+len(" failed"))], " failed")
	if i < 1 {
		return false
	}
	subject, r := s[:i], s[i+len(" failed"):]
	if strings.Count(subject, " ")+1 > maxSubjectWords || subject == "Readiness probe" {
		// A readiness probe that fails keeps traffic away while the
		// server starts or is busy (kubestate.go): no failure alone.
		return false
	}
	for j := 0; j < len(subject); j++ {
		switch c := subject[j]; {
		case ascii.Letter(c), isDigitByte(c), c == ' ', c == '_', c == '-', c == '.', c == '/':
			if c == '.' && j+1 < len(subject) && subject[j+1] == ' ' {
				// A sentence ended before it.
				return false
			}
		default:
			return false
		}
	}
	for _, p := range [...]string{": ", " with ", " because ", " due to "} {
		if rest, ok := strings.CutPrefix(r, p); ok {
			return hasLetter(rest)
		}
	}
	return false
}

// maxTimeoutWords bounds the words between a library's name and its
// "timeout" (libraryTimeout).
const maxTimeoutWords = 4

// libraryTimeout reports whether r, what follows a library's name on a
// line it printed itself, says a wait of it timed out: a few words naming
// what waited, "timeout", then what it was waiting on or the state it
// left ("DeepEP dispatch forwarder timeout (RDMA meta), channel: 8, ...",
// "DeepEP timeout for dispatch receivers, rank 3, ...", "DeepEP
// dispatch NVL receiver timeout, channel: 0, ..."). Not a setting
// ("NCCL timeout is 1800s", "NCCL timeout set to 600").
func libraryTimeout(r string) bool {
	for n := 0; n <= maxTimeoutWords && r != ""; n++ {
		w, rest, _ := strings.Cut(r, " ")
		switch w {
		case "timeout":
			return strings.HasPrefix(rest, "for ") || strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "check failed")
		case "timeout,", "timeout:":
			return hasLetter(rest)
		}
		for i := 0; i < len(w); i++ {
			if !ascii.Letter(w[i]) {
				return false
			}
		}
		r = rest
	}
	return false
}

// resultKey reports whether k names the code a failed call returned, in a
// key=value field: "result=2", "code=700", "status=5", "errno=12".
func resultKey(k string) bool {
	switch k {
	case "result", "code", "status", "errno", "err", "rc", "ret":
		return true
	}
	return false
}

// tagLevelWord reports whether s, what follows a line's bracketed tag,
// opens with an error level word and a colon, then a message: "ERROR:
// ...", "CRITICAL: ...", "Error: ...", "fatal: ...", or a level token put
// first (levelTokenLead). The Unix convention's looser forms ("error
// while ...") are read only at the start of a line: behind a tag they are
// a component's routine wording too often.
func tagLevelWord(s string) bool {
	for _, p := range [...]string{"Error: ", "ERROR: ", "error: ", "FATAL: ", "Fatal: ", "fatal: ", "Fatal error: ", "CRITICAL: ", "Critical: "} {
		if m, ok := strings.CutPrefix(s, p); ok {
			return strings.TrimSpace(m) != ""
		}
	}
	return levelTokenLead(s)
}

// libraryName reports whether w reads as a library's or a type's name:
// letters, digits and underscores, with two capitals at least or a
// capital right after a lower-case letter.
func libraryName(w string) bool {
	capitals, camel := 0, false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case isUpperByte(c):
			capitals++
			if i > 0 && isLowerByte(w[i-1]) {
				camel = true
			}
		case isLowerByte(c), isDigitByte(c), c == '_':
		default:
			return false
		}
	}
	return capitals >= 2 || camel
}

// hasLetter reports whether s holds an ASCII letter.
func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if ascii.Letter(s[i]) {
			return true
		}
	}
	return false
}

// loggerHeader reports whether f is the header of sglang's own logger,
// which prints no level: its lines are the engine's Python logging,
// never a native library's own error line nor a crash handler's banner,
// which go to stderr with no header (libraryErrorLine, crashBanner). The
// engine's routine lines, most of a log, are spared those reads.
func loggerHeader(f entry.Format) bool {
	return f == entry.FormatSRT || f == entry.FormatLegacy || f == entry.FormatDiffusion
}
