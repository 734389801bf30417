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
	if sp := strings.IndexByte(s, ' '); sp > 0 && s[sp-1] != ':' {
		return "", "", false // the first space of "Type: message" follows the colon
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

// parseGluedException finds an exception line glued behind the source line
// of its innermost frame, as a paste that lost its newlines shows them:
// "raise RuntimeError( RuntimeError: Cannot re-initialize CUDA ...". Only
// under tight conditions, so that prose never becomes an exception: the
// line opens as Python source does (a lower-case name or "_": a keyword,
// a variable, a call); the exception follows one or more spaces after a
// byte that ends a code fragment (a bracket, a quote, or a caret or tilde
// of a 3.11 location line); its type is strict (parseBareException) and a
// message follows it; and no level word below ERROR stands in front of it
// (a record that names an exception it handled). The message runs to the
// end of the line.
func parseGluedException(s string) (typ, msg string, ok bool) {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] == '_') {
		return "", "", false
	}
	for i := 2; i < len(s); i++ {
		if s[i-1] != ' ' || !(isUpper(s[i]) || s[i] >= 'a' && s[i] <= 'z' || s[i] == '_') {
			continue
		}
		k := i - 1
		for k > 0 && s[k-1] == ' ' {
			k--
		}
		if k == 0 || !endsCodeFragment(s[k-1]) {
			continue
		}
		typ, msg, ok := parseBareException(s[i:])
		if !ok || msg == "" {
			continue
		}
		if quietLevelIn(s[:k]) {
			return "", "", false
		}
		return typ, msg, true
	}
	return "", "", false
}

// endsCodeFragment reports whether c may end the source line of a frame
// that an exception line was glued to: a bracket of a call, subscript or
// literal left open or closed, a string's quote, a location line's caret
// or tilde.
func endsCodeFragment(c byte) bool {
	switch c {
	case '(', ')', '[', ']', '{', '}', '"', '\'', '^', '~':
		return true
	}
	return false
}
