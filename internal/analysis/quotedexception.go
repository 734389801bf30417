package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A Python program that catches an exception and carries on often logs
// what failed with the exception itself, not its traceback: "Decode
// transfer failed for request rank=0 ... with exception
// KVTransferError(bootstrap_room=...): Failed due to an unknown reason
// from another rank" (sglang's disaggregation, `{e!r}` or the type and
// `{e}`), "Request 12 failed with exception TimeoutError: ...", "handler
// raised exception ValueError('bad shape')". Its logger may print no level
// (sglang's format has none), so only the words say it is an error: a
// failure word before the exception, and the exception's type, a Python
// class name ending in Error or Exception, right after the label
// "exception" and before its arguments or its message. The same line
// about an optional import that failed is a notice (notice.go), and so is
// one that says its writer carries on (a retry, a fallback).

// exceptionLabels are the words a line puts before the exception it
// quotes.
var exceptionLabels = [...]string{"with exception ", "raised exception ", "exception: ", "Exception: "}

// quotedExceptionRoutine are the words, besides a carry-on clause
// (carriesOnPast), of a line that quotes an exception and carries on: an
// optional import.
var quotedExceptionRoutine = [...]string{"ImportError", "ModuleNotFoundError", "import "}

// exceptionQuoteCandidate is the byte test before exceptionQuoted: the
// 'x' of "exception", found in one vectorised scan.
func exceptionQuoteCandidate(l string) bool {
	return strings.IndexByte(l, 'x') >= 0
}

// exceptionQuoted reports whether l says something failed and quotes the
// exception that made it fail (see above), and is no notice.
func exceptionQuoted(l string) bool {
	at := quotedExceptionAt(l)
	return at > 0 && failureVerb(l[:at]) && !carriesOnPast(l, quotedExceptionRoutine[:])
}

// quotedExceptionAt returns where the first exception label of l opens
// that a Python exception's type follows (exceptionTypeOpens); -1 when
// there is none.
func quotedExceptionAt(l string) int {
	at := -1
	for _, label := range exceptionLabels {
		for from := 0; from < len(l); {
			i := ascii.IndexByRare(l[from:], label, 1)
			if i < 0 {
				break
			}
			p := from + i
			from = p + len(label)
			if exceptionTypeOpens(l[from:]) {
				if at < 0 || p < at {
					at = p
				}
				break
			}
		}
	}
	return at
}

// exceptionTypeOpens reports whether s opens with a Python exception's
// type (a dotted name whose last part is a capitalised class name ending
// in Error or Exception) followed by its arguments in parentheses, a
// colon and its message, or the line's end.
func exceptionTypeOpens(s string) bool {
	n := 0
	for n < len(s) && (isAlnum(s[n]) || s[n] == '_' || s[n] == '.') {
		n++
	}
	name := s[:n]
	base := name[strings.LastIndexByte(name, '.')+1:]
	if base == "" || base[0] < 'A' || base[0] > 'Z' || !strings.HasSuffix(base, "Error") && !strings.HasSuffix(base, "Exception") {
		return false
	}
	rest := s[n:]
	return rest == "" || rest[0] == '(' || strings.HasPrefix(rest, ": ")
}
