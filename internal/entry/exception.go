package entry

import "strings"

// exceptionSuffixes end the last name component of an exception class by
// convention (ValueError, asyncio.CancelledError, KeyboardInterrupt,
// SystemExit, torch.distributed.DistNetworkFailure, ...).
var exceptionSuffixes = [...]string{"Error", "Exception", "Exit", "Interrupt", "Fault", "Failure", "Timeout"}

// exceptionNames are exception classes that follow no suffix convention but
// are printed often enough to know: CPython builtins and triton's resource
// error.
var exceptionNames = [...]string{
	"Exception", "BaseException", "StopIteration", "StopAsyncIteration",
	"GeneratorExit", "ExceptionGroup", "BaseExceptionGroup", "OutOfResources",
}

// parseBareException recognises a line that CPython's traceback module
// would print as an exception line, "Type: message" or a bare "Type",
// strictly enough to trust it without a "Traceback" line above: the last
// component of the (possibly qualified) class name ends in one of
// exceptionSuffixes and is longer than it, or is one of exceptionNames; a
// lower-case "error" or "timeout" suffix counts for a qualified name
// (socket.gaierror, socket.timeout). A "...Warning:" line is a Python
// warning, never an exception here.
func parseBareException(s string) (typ, msg string, ok bool) {
	if s == "" || !(isUpper(s[0]) || s[0] >= 'a' && s[0] <= 'z' || s[0] == '_') {
		return "", "", false
	}
	typ, msg, ok = parseExceptionLine(s)
	if !ok {
		return "", "", false
	}
	last := typ
	dotted := false
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		last, dotted = typ[i+1:], true
	}
	for _, n := range exceptionNames {
		if last == n {
			return typ, msg, true
		}
	}
	for _, suf := range exceptionSuffixes {
		if len(last) > len(suf) && strings.HasSuffix(last, suf) {
			return typ, msg, true
		}
	}
	if dotted && (strings.HasSuffix(last, "error") || strings.HasSuffix(last, "timeout")) {
		return typ, msg, true
	}
	return "", "", false
}

// bareTraceback is the one-link chain of an exception line printed without
// its "Traceback" header and frames.
func bareTraceback(typ, msg string) *Traceback {
	return &Traceback{Links: []Exception{{Type: typ, Message: msg}}, Bare: true}
}
