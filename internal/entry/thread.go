package entry

import "strings"

// ThreadExceptionHeader reports whether s is the header Python's threading module
// prints before a thread's uncaught exception: "Exception in thread
// Thread-13 (backup_thread_func):" or "Exception in thread worker:". Cut
// after it, the header alone still says that a thread of the process
// died.
func ThreadExceptionHeader(s string) bool {
	r, ok := strings.CutPrefix(strings.TrimRight(s, " \t"), threadHeaderPrefix)
	if !ok {
		return false
	}
	name, ok := strings.CutSuffix(r, ":")
	if !ok || name == "" || len(name) > maxThreadHeader {
		return false
	}
	if open := strings.IndexByte(name, '('); open >= 0 {
		// "Thread-13 (backup_thread_func)": the target's name in
		// parentheses, a Python identifier.
		fn, ok := strings.CutSuffix(name[open+1:], ")")
		if !ok || !isIdentifier(fn) || strings.TrimSpace(name[:open]) == "" {
			return false
		}
		name = strings.TrimSpace(name[:open])
	}
	return !strings.ContainsAny(name, " \t:")
}

// threadHeaderPrefix opens a thread's exception header.
const threadHeaderPrefix = "Exception in thread "

// maxThreadHeader bounds the thread name threadHeader reads.
const maxThreadHeader = 256

// isIdentifier reports whether s is a Python identifier of ASCII letters,
// digits and '_'.
func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}
