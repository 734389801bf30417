package analysis

import "strings"

// A Python exception's message printed without its type, alone on its
// line (a caller that logs str(e), a paste that kept only the message),
// says what failed when its words are CPython's own and whole: a
// NameError's "name 'x' is not defined", with 3.10's suggestion ". Did you
// mean: 'y'?" (a paste may lose its "name "), and a ModuleNotFoundError's
// "No module named 'x'". bareExceptionMessage reads them; a line that
// only holds such words among others (a warning that goes on, prose) is
// not one.

// maxBareName bounds the name or module a bare message names.
const maxBareName = 200

// bareExceptionMessage reports whether l, trimmed, is a NameError's or a
// ModuleNotFoundError's message alone (see above).
func bareExceptionMessage(l string) bool {
	t := strings.TrimSpace(l)
	if r, ok := strings.CutPrefix(t, "No module named '"); ok {
		name, ok := strings.CutSuffix(r, "'")
		return ok && bareName(name, true)
	}
	t = strings.TrimPrefix(t, "name ")
	if t == "" || t[0] != '\'' {
		return false
	}
	end := strings.IndexByte(t[1:], '\'')
	if end < 0 || !bareName(t[1:1+end], false) {
		return false
	}
	r := t[2+end:]
	if r == " is not defined" {
		return true
	}
	s, ok := strings.CutPrefix(r, " is not defined. Did you mean: '")
	if !ok {
		return false
	}
	s, ok = strings.CutSuffix(s, "'?")
	return ok && bareName(s, false)
}

// bareName reports whether s is a Python identifier, or with dotted a
// dotted module path, of at most maxBareName bytes.
func bareName(s string, dotted bool) bool {
	if s == "" || len(s) > maxBareName || isDigitByte(s[0]) || s[0] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || isAlnum(c) || dotted && c == '.' {
			continue
		}
		return false
	}
	return true
}
