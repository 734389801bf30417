package analysis

import "strings"

// A C or C++ assertion that failed prints one line, in its library's
// wording; the entry package reads those with a source location (glibc's
// "prog: x.c:81: f: Assertion `n > 0' failed.", a CUDA kernel's
// "x.cu:92: f: block: [0,0,0], thread: [4,0,0] Assertion `...` failed.",
// "x.c:12: GGML_ASSERT(...) failed", MSVC's and BSD's "Assertion failed:
// ..."). A log often keeps the line without its location: a device
// assertion whose kernel name is all that is left ("vectorized_gather_kernel:
// Assertion `ind >= 0` failed"), HIP's "Device-side assertion `...'
// failed.", a library's assert macro printed alone ("GGML_ASSERT(x)
// failed"), glog's and Abseil's CHECK without glog's header ("Check
// failed: x == y (1 vs. 2)"), musl's "Assertion failed: n > 0 (x.c: main:
// 12)", newlib's "assertion "n > 0" failed: file "x.c", line 12, function:
// main". assertionLine reads those.

// assertionLine reports whether l, a line with no level of its own, is a
// failed assertion's line (see above).
func assertionLine(l string) bool {
	if !assertionEnd(l) && (l == "" || l[0] != 'C' && l[0] != 'A' && l[0] != 'a' ||
		!strings.HasPrefix(l, "Check failed: ") && !strings.HasPrefix(l, "Assertion failed: ") && !strings.HasPrefix(l, "assertion \"")) {
		return false
	}
	t := strings.TrimRight(l, " \r")
	if r, ok := strings.CutPrefix(t, "assertion \""); ok {
		// newlib: the expression in double quotes, then its file,
		// line and function.
		end := strings.Index(r, "\" failed")
		return end > 0 && strings.Contains(r[end:], "line ")
	}
	if r, ok := strings.CutPrefix(t, "Check failed: "); ok {
		return hasLetter(r)
	}
	if r, ok := strings.CutPrefix(t, "Assertion failed: "); ok {
		// musl: the expression, then file, function and line in
		// parentheses.
		open := strings.LastIndexByte(r, '(')
		return open > 0 && strings.HasSuffix(r, ")") && strings.Count(r[open:], ": ") == 2
	}
	body := strings.TrimSuffix(strings.TrimSuffix(t, "."), " failed")
	if i := strings.Index(body, "ssertion `"); i > 0 && (body[i-1] == 'A' || body[i-1] == 'a') {
		// The expression quoted as glibc and nvcc quote it: a
		// backtick, then a quote or another backtick.
		q := body[i+len("ssertion `"):]
		return len(q) > 1 && (q[len(q)-1] == '`' || q[len(q)-1] == '\'')
	}
	return assertMacro(body)
}

// assertionEnd reports, with a byte test, whether l ends the way an
// assertion's line does: "failed", or "failed." (glibc's and nvcc's
// full stop), before trailing blanks. It is what a routine line pays.
func assertionEnd(l string) bool {
	n := len(l)
	for n > 0 && (l[n-1] == ' ' || l[n-1] == '\r') {
		n--
	}
	if n > 0 && l[n-1] == '.' {
		n--
	}
	return n >= 8 && l[n-1] == 'd' && l[n-2] == 'e' && l[n-6:n] == "failed"
}

// assertMacro reports whether body, a line without its final " failed",
// is an assert macro with its condition: an upper-case name ending in
// ASSERT ("GGML_ASSERT", "TORCH_INTERNAL_ASSERT", "XGRAMMAR_ASSERT") and
// the condition in parentheses that close the line.
func assertMacro(body string) bool {
	open := strings.IndexByte(body, '(')
	if open < len("ASSERT") || !strings.HasSuffix(body, ")") {
		return false
	}
	name := body[:open]
	if sp := strings.LastIndexAny(name, " \t"); sp >= 0 {
		name = name[sp+1:]
	}
	if !strings.HasSuffix(name, "ASSERT") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isUpperByte(c) && !isDigitByte(c) && c != '_' {
			return false
		}
	}
	return true
}
