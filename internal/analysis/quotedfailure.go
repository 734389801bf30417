package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// A failure is often reported with words of the reporter's own before
// it: a user's sentence ("it gives me the error slurmstepd: error:
// Detected 1 oom_kill event ..."), a quotation ("the error \"CUDA error:
// misaligned address"), a label or a banner ("!!! Exception during
// processing !!! CUDA error: no kernel image ..."), emphasis
// ("**docker: Error response from daemon: could not select device driver
// ...**") or a sentence in another script glued to it ("会显示
// launch_server.py: error: unrecognized arguments: ..."). What follows
// those words is a line the failing program printed in one of the fixed
// forms read at a line's start: a program's diagnostic in the Unix
// convention (argparse's, Slurm's, docker's client's, the loader's; the
// entry package's DiagnosticLevel) or a native library's own error line
// ("CUDA error: ...", "NCCL error: ...", "HIP error: ...";
// libraryError) of a GPU runtime or library (quotedLibraries: after
// prose, a name of any other acronym is too often a measure's, "the
// RMSE error: 0.02 on the test set"). quotedFailure finds such a line
// after the words before it, on a line with no level of its own.

// maxQuotedAnchors bounds the error words quotedFailure tries on a line.
const maxQuotedAnchors = 8

// quotedFailureCandidate is quiet's byte test for quotedFailure: the
// error word's common bytes.
func quotedFailureCandidate(l string) bool { return strings.Contains(l, "rror") }

// quotedFailure reports whether l, the first line of a message with no
// level and no logger's header, carries after words of its own a
// program's diagnostic or a native library's error line (see above).
func quotedFailure(l string) bool {
	for n, from := 0, 0; n < maxQuotedAnchors; n++ {
		i := strings.Index(l[from:], "rror")
		if i < 0 {
			return false
		}
		at := from + i - 1 // the error word's first letter
		from += i + len("rror")
		if at < 2 {
			continue
		}
		if start := quotedStart(l, at-2); start > 0 && strings.HasPrefix(l[at-2:], ": ") && quotedDiagnostic(l[start:]) {
			return true
		}
		if l[at-1] == ' ' {
			if start := quotedStart(l, at-1); start > 0 && quotedLibrary(l[start:at-1]) && libraryError(l[start:]) {
				return true
			}
		}
	}
	return false
}

// quotedDiagnostic reports whether s opens with a program's diagnostic
// of the Unix convention at an error or fatal level.
func quotedDiagnostic(s string) bool {
	lvl, ok := entry.DiagnosticLevel(s)
	return ok && lvl != ""
}

// quotedStart returns where the name that ends at end in l (a program's
// or a library's) opens, when words of another's stand before it: the
// name's bytes reach back to a space, a quote, a mark of emphasis or a
// bracket, or to a byte of another script. -1 when the name is empty,
// opens the line, or follows anything else.
func quotedStart(l string, end int) int {
	s := end
	for s > 0 && programByte(l[s-1]) {
		s--
	}
	if s == end || s == 0 {
		return -1
	}
	switch c := l[s-1]; {
	case c == ' ', c == '"', c == '\'', c == '`', c == '*', c == '(', c == '[', c == '!', c >= 0x80:
		return s
	}
	return -1
}

// programByte reports whether c may be part of a program's or a
// library's name: letters, digits and "_.-/+".
func programByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == '+'
}

// quotedLibraries are the GPU runtimes and libraries whose own error
// lines ("<name> error: <what>") quotedFailure reads after prose.
var quotedLibraries = [...]string{
	"CUDA", "HIP", "NCCL", "RCCL", "cuDNN", "CUDNN", "cuBLAS", "CUBLAS", "cuBLASLt", "hipBLASLt", "rocBLAS",
	"MIOpen", "NVML", "NVRTC", "HCCL", "ACL", "CANN", "TensorRT", "cudaError", "CUresult", "hipError",
}

// quotedLibrary reports whether name is one of quotedLibraries.
func quotedLibrary(name string) bool {
	for _, q := range quotedLibraries {
		if name == q {
			return true
		}
	}
	return false
}
