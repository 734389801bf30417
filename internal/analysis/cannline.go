package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// CANN, Ascend's runtime, reports an error it documents in a line of its
// own error manager: "[PID: 749] 2025-12-29-03:16:15.787.356
// Get_Socket_Timeout(EI0006): Getting socket times out. Reason: ...",
// "[PID: 78673] 2026-05-25-14:42:34.874.080 AclNN_Parameter_Error(EZ1001):
// dim 2 of tensor 1 is [32], ...", "[PID: 471424] 2026-05-08-17:31:28.781.490
// Invalid_Argument(EL0003): The argument is invalid.": the process, the
// time, the error's name and its code in parentheses (E, a letter or
// digit naming the component, four digits), then the message. Its
// "Solution:" and "TraceBack" lines follow, indented. The line has no level
// the entry package reads, and is often relayed behind a process's prefix
// ("(EngineCore pid=471424) "); cannCodedError reads it anywhere the
// header stands near the line's start.

// maxCANNPrefix bounds what stands in front of the error manager's "[PID: ".
const maxCANNPrefix = 96

// cannCodedError reports whether l is CANN's coded error line (see above).
func cannCodedError(l string) bool {
	i := strings.Index(l[:min(len(l), maxCANNPrefix+len("[PID: "))], "[PID: ")
	if i < 0 {
		return false
	}
	r := l[i+len("[PID: "):]
	n := 0
	for n < len(r) && isDigitByte(r[n]) {
		n++
	}
	if n == 0 || !strings.HasPrefix(r[n:], "] ") {
		return false
	}
	r = r[n+2:]
	// The time, one token of digits, '-', ':' and '.'.
	sp := strings.IndexByte(r, ' ')
	if sp < 8 || !isDigitByte(r[0]) {
		return false
	}
	for j := 0; j < sp; j++ {
		if c := r[j]; !isDigitByte(c) && c != '-' && c != ':' && c != '.' {
			return false
		}
	}
	r = r[sp+1:]
	// The error's name, then "(Exxxxx): " and a message.
	open := strings.IndexByte(r[:min(len(r), maxLibraryName*3)], '(')
	if open < 2 || len(r) < open+10 {
		return false
	}
	for j := 0; j < open; j++ {
		if c := r[j]; !ascii.Letter(c) && c != '_' && !isDigitByte(c) {
			return false
		}
	}
	code := r[open+1 : open+7]
	return code[0] == 'E' && (isUpperByte(code[1]) || isDigitByte(code[1])) && ascii.Digits(code[2:]) &&
		r[open+7:open+10] == "): " && hasLetter(r[open+10:])
}
