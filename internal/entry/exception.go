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

// maxQuoteIndent bounds the indentation in front of a list item's bullet.
const maxQuoteIndent = 8

// unquoteException returns the exception line inside a line that quotes
// it the way chat tools, issue pastes and some wrappers re-log one: in
// backticks ("`RuntimeError: x`", the closing backtick optional, since a
// code span may run over several lines), in Markdown emphasis ("**KeyError:
// 'x'**", "__ValueError: y__", "*OSError: z*"), or as a list item ("- ImportError:
// x", "  * ValueError: x", "+ ...", "• ...", "1. ...", "2) ..."), or in an
// exception group's box ("    | KeyError: 'x'"), after at most
// maxQuoteIndent spaces or tabs; up to maxQuoteLayers of these nest ("-
// **`RuntimeError: x`**"). The exception line must be strict
// (parseBareException); a message that quotes code in backticks keeps
// them. ok is false for every other line, a plain exception line
// included.
func unquoteException(s string) (typ, msg string, ok bool) {
	i := 0
	for i < len(s) && i <= maxQuoteIndent && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) {
		return "", "", false
	}
	r := s[i:]
	quoted := false
	for range maxQuoteLayers {
		inner, closer, ok := unquoteOnce(r)
		if !ok {
			break
		}
		quoted = true
		r = inner
		if closer != "" {
			t := strings.TrimRight(r, " \t")
			c, ok := strings.CutSuffix(t, closer)
			switch {
			case ok && c != "":
				r = c
			case closer != "`":
				// Emphasis opens and closes on its line; an
				// opening marker alone is prose or a list.
				return "", "", false
			}
		}
	}
	if !quoted {
		return "", "", false
	}
	return parseBareException(r)
}

// maxQuoteLayers bounds the quoting layers unquoteException peels.
const maxQuoteLayers = 3

// unquoteOnce peels one quoting layer off the front of r: a backtick, a
// Markdown emphasis marker, a list bullet or a list number. closer is what
// closes the layer at the end of the line ("" for a list item).
func unquoteOnce(r string) (inner, closer string, ok bool) {
	if r == "" {
		return "", "", false
	}
	switch r[0] {
	case '`':
		if strings.HasPrefix(r, "``") {
			return "", "", false // a code fence or an empty span
		}
		return r[1:], "`", true
	case '*', '_':
		if len(r) < 2 {
			return "", "", false
		}
		if r[0] == '*' && r[1] == ' ' {
			return r[2:], "", true // a list item
		}
		if r[1] == r[0] {
			if len(r) < 3 || r[2] == ' ' || r[2] == r[0] {
				return "", "", false // a rule, or emphasis of nothing
			}
			return r[2:], r[:2], true
		}
		if r[1] == ' ' {
			return "", "", false
		}
		return r[1:], r[:1], true
	case '-', '+':
		if len(r) < 2 || r[1] != ' ' {
			return "", "", false
		}
		return r[2:], "", true
	case 0xE2: // "•", U+2022
		b, ok := strings.CutPrefix(r, "• ")
		return b, "", ok
	case '|':
		// An exception group's box ("  | ValueError: x"): a leaf's
		// exception line, printed apart from the group's own lines when
		// the paste or the log kept only the group's tail. A table row
		// ("| x | y |") closes its cells on the line.
		b, ok := strings.CutPrefix(r, "| ")
		if !ok || strings.HasSuffix(strings.TrimRight(b, " \t"), "|") {
			return "", "", false
		}
		return b, "", true
	}
	// "1. x", "12) x": a numbered list item.
	n := 0
	for n < len(r) && n < 3 && r[n] >= '0' && r[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(r) && (r[n] == '.' || r[n] == ')') && r[n+1] == ' ' {
		return r[n+2:], "", true
	}
	return "", "", false
}

// maybeQuoted reports, on its first bytes alone, whether s may be a line
// unquoteException reads: cheap enough for every line.
func maybeQuoted(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c == '`', c == '-', c == '*', c == '+', c == '_', c == 0xE2, c == '|', c == ' ', c == '\t':
		return true
	case c >= '0' && c <= '9':
		// A numbered list item; rare enough to check in full.
		return true
	}
	return false
}

// parseIndentedException reads s, a line indented by at most
// maxQuoteIndent spaces or tabs, as the strict exception line
// (parseBareException) behind its indentation: "    RuntimeError: x".
func parseIndentedException(s string) (typ, msg string, ok bool) {
	i := 0
	for i < len(s) && i <= maxQuoteIndent && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == 0 || i > maxQuoteIndent {
		return "", "", false
	}
	return parseBareException(s[i:])
}

// parseExceptionAnyQuote is parseBareException, then unquoteException:
// an exception line as printed or as quoted.
func parseExceptionAnyQuote(s string) (typ, msg string, ok bool) {
	if typ, msg, ok = parseBareException(s); ok {
		return typ, msg, true
	}
	if maybeQuoted(s) {
		return unquoteException(s)
	}
	return "", "", false
}

// BuiltinException reports whether name is one of Python's built-in
// exception classes (undotted): a class no library owns, so it names no
// component and the language reference documents it.
func BuiltinException(name string) bool { return builtinExceptions[name] }

var builtinExceptions = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`BaseException BaseExceptionGroup GeneratorExit KeyboardInterrupt SystemExit
		Exception ArithmeticError FloatingPointError OverflowError ZeroDivisionError AssertionError AttributeError
		BufferError EOFError ExceptionGroup ImportError ModuleNotFoundError LookupError IndexError KeyError
		MemoryError NameError UnboundLocalError OSError BlockingIOError ChildProcessError ConnectionError
		BrokenPipeError ConnectionAbortedError ConnectionRefusedError ConnectionResetError FileExistsError
		FileNotFoundError InterruptedError IsADirectoryError NotADirectoryError PermissionError ProcessLookupError
		TimeoutError ReferenceError RuntimeError NotImplementedError RecursionError StopAsyncIteration
		StopIteration SyntaxError IndentationError TabError SystemError TypeError ValueError UnicodeError
		UnicodeDecodeError UnicodeEncodeError UnicodeTranslateError`) {
		m[n] = true
	}
	return m
}()
