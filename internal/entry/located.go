package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A native library's error line that opens with the place in its C, C++
// or CUDA source that printed it, as NVSHMEM's and many libraries' error
// macros write them:
//
//	/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 36 bytes instead of 1
//	/src/host/topo/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed
//	src/transport.cc:231:connect() failed: Connection refused
//
// Only a line whose message states a failure counts, so that a library's
// own progress lines printed with their place stay quiet; a compiler's
// diagnostic ("x.cpp:3:10: error: ..."), an assertion and a CUDA device
// assert have shapes of their own, read before this one.

// locatedExts are the source files a located line may name.
var locatedExts = [...]string{".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hh", ".hpp"}

// maxLocation bounds the place a located line opens with.
const maxLocation = 512

// parseLocatedLine matches a located error line and returns its level
// (ERROR, or WARNING for a message that says it is a warning) and where
// its message starts.
func parseLocatedLine(s string) (level string, msg int, ok bool) {
	end := locationEnd(s)
	if end <= 0 {
		return "", 0, false
	}
	m := strings.TrimLeft(s[end:], " ")
	if m == "" {
		return "", 0, false
	}
	lower := strings.ToLower(m)
	if strings.HasPrefix(lower, "warn") {
		return LevelWarning, len(s) - len(m), statesFailure(lower)
	}
	if strings.HasPrefix(lower, "info") || strings.HasPrefix(lower, "debug") || strings.HasPrefix(lower, "note:") {
		return "", 0, false
	}
	if !statesFailure(lower) {
		return "", 0, false
	}
	return LevelError, len(s) - len(m), true
}

// locationEnd returns the length of the place s opens with, its closing
// ':' included: "path/file.ext:N:", "path/file.ext:function:N:" or
// "path/file.ext:N:function:", ext one of locatedExts and no space in it;
// 0 when s opens with none.
func locationEnd(s string) int {
	limit := min(len(s), maxLocation)
	dot := -1
	for i := 0; i < limit; i++ {
		switch s[i] {
		case ' ', '\t':
			return 0
		case '.':
			dot = i
		case ':':
			if dot < 0 || !locatedExt(s[dot:i]) {
				continue
			}
			// The fields after the file: one or two of a line number
			// and a function name, one of them a number.
			rest := s[i+1:]
			num := false
			n := i + 1
			for f := 0; f < 2; f++ {
				c := strings.IndexByte(rest, ':')
				if c <= 0 || c > 256 {
					break
				}
				field := rest[:c]
				switch {
				case ascii.Digits(field):
					num = true
				case isIdentifier(field):
				default:
					c = -1
				}
				if c < 0 {
					break
				}
				n += c + 1
				rest = rest[c+1:]
				if num {
					return n
				}
			}
			return 0
		}
	}
	return 0
}

// locatedExt reports whether ext (from its dot) is one of locatedExts.
func locatedExt(ext string) bool {
	for _, e := range locatedExts {
		if ext == e {
			return true
		}
	}
	return false
}

// failureWords are what a located message says when something failed,
// lower-cased.
var failureWords = [...]string{"fail", "error", "truncated", "non-zero status", "abort", "cannot", "can't", "unable to",
	"invalid", "timed out", "timeout", "refused", "denied", "not found", "no such", "mismatch", "exception", "fatal", "unreachable"}

// statesFailure reports whether a lower-cased message says something
// failed.
func statesFailure(m string) bool {
	for _, w := range failureWords {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}
