package entry

import (
	"strings"
	"unicode/utf8"
)

// fullwidthColon is U+FF1A, the colon of CJK punctuation, which some
// writers put between an exception type and its message.
const fullwidthColon = "："

// mayEmbedException reports, cheaply, whether s may hold an exception line
// that prose or a quoting mark runs into (parseEmbeddedException): it
// names an "...Error" or "...Exception" type somewhere after its start.
func mayEmbedException(s string) bool {
	return strings.Contains(s, "Error") || strings.Contains(s, "Exception")
}

// parseEmbeddedException finds an exception line that does not open its
// line: prose runs into it ("... failed with the error message: ValueError:
// x"), a quote, bracket or Markdown emphasis opens in front of it ("decode
// error: \"RuntimeError：E19999 ...\"", "failed（RuntimeError: x）", "**_OSError:
// x_**"), or CJK text runs into it without a space. It is strict so that
// prose never becomes an exception:
//   - the type does not open the line (parseBareException reads those),
//     and it stands where an exception is quoted or announced
//     (embedBoundary): after an opening quote, bracket or emphasis mark,
//     or after a colon, an arrow or CJK text, never after a word of prose;
//   - its last component is capitalised and ends in "Error" or "Exception"
//     with more in front (ValueError, torch.OutOfMemoryError; not "Error"
//     or "Timeout" alone);
//   - a colon and a space, or a full-width colon, follow it directly, and a
//     message follows them; or the type is the start of the exception's
//     repr, its message quoted in parentheses ("TypeError(\"...\")"), which
//     may also stand after a word of prose;
//   - no level word below ERROR stands in front of it (a record that names
//     an exception it handled).
//
// The leftmost such exception wins. When a quote, bracket or emphasis
// marker opened right before the type, the closing marks at the end of
// the line are not part of the message.
func parseEmbeddedException(s string) (typ, msg string, ok bool) {
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(isUpper(c) || c >= 'a' && c <= 'z') {
			continue
		}
		// After a word of prose, only an exception's repr, which no
		// prose writes ("the worker raised RuntimeError('...')").
		boundary := embedBoundary(s, i)
		if !boundary && s[i-1] != ' ' {
			continue
		}
		typ, rest, ok := embeddedType(s[i:])
		if !ok {
			continue
		}
		var m string
		switch {
		case boundary && strings.HasPrefix(rest, ": "):
			m = rest[2:]
		case boundary && strings.HasPrefix(rest, fullwidthColon):
			m = rest[len(fullwidthColon):]
		case len(rest) > 2 && rest[0] == '(' && (rest[1] == '"' || rest[1] == '\''):
			// The exception's repr, its message quoted in its
			// parentheses: what another program's error text holds
			// of a Python error it caught (pyo3's "PyErr { type: ...,
			// value: TypeError(\"...\"), traceback: None }", a
			// logger's "raised ValueError('x')").
			if m = reprMessage(rest[1:]); m == "" {
				continue
			}
			// A repr after an equals sign, or in a bare tuple's
			// parenthesis, is a value inside another report: asyncio's
			// future ("exception=KeyError('x')"), which the analysis
			// reads with its traceback, or a client's retry notice
			// quoting the error it retries after ("'(ReadTimeoutError(
			// \"...\"), ...)' thrown while requesting ..."). One in the
			// parenthesis of a wrapping exception's own repr
			// ("RayTaskError(KeyError('x'))") is the error it wraps.
			if p := s[i-1]; p == '=' || p == '(' && (i < 2 || !isWordByte(s[i-2])) {
				continue
			}
			if quietLevelIn(s[:i]) {
				return "", "", false
			}
			return typ, m, true
		default:
			continue
		}
		if n := backtickRun(s[:i]); n > 1 {
			// A span or fence of n backticks glued to the type
			// ("```RuntimeError: ... `cublasCreate(handle)````"):
			// closed by a run of as many, which the single backticks
			// the message quotes code in are not.
			m = closedFence(m, n)
		} else if c, ok := closedAt(m, s[i-1]); ok {
			m = m[:c]
		} else if o := s[i-1]; o == '*' || o == '_' {
			m = strings.TrimRight(m, "*_ \t") // emphasis: its marks alone
		} else if opensQuote(s, i) {
			m = strings.TrimRight(m, closingMarks)
			for strings.HasSuffix(m, "）") || strings.HasSuffix(m, "】") || strings.HasSuffix(m, "」") || strings.HasSuffix(m, "”") {
				_, n := utf8.DecodeLastRuneInString(m)
				m = strings.TrimRight(m[:len(m)-n], closingMarks)
			}
		}
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		if quietLevelIn(s[:i]) {
			return "", "", false
		}
		return typ, m, true
	}
	return "", "", false
}

// closedAt returns where in m, the message of an exception quoted after
// the ASCII mark open, the quote closes: the code span's first backtick,
// the bracket that balances the one opened, or a quote's last mark; so
// that what the message holds of the same marks ("assert x ==
// len(y)" in backticks) and what prose follows the quote stay apart. False
// when m holds no such mark (the line ends inside the quote), or open
// is emphasis, whose marks a message holds too ("lm_head").
func closedAt(m string, open byte) (int, bool) {
	switch open {
	case '`':
		i := strings.IndexByte(m, '`')
		return i, i >= 0
	case '"', '\'':
		i := strings.LastIndexByte(m, open)
		return i, i >= 0
	case '(', '[', '{':
		closer := byte(')')
		switch open {
		case '[':
			closer = ']'
		case '{':
			closer = '}'
		}
		depth := 0
		for i := 0; i < len(m); i++ {
			switch m[i] {
			case open:
				depth++
			case closer:
				if depth == 0 {
					return i, true
				}
				depth--
			}
		}
	}
	return 0, false
}

// closingMarks are the ASCII marks that close a quote, bracket or emphasis
// opened in front of an embedded exception, and trailing space.
const closingMarks = "\"'`*_)]} \t"

// embedBoundary reports whether the type starting at s[i] stands where an
// exception line is quoted or announced, not in the middle of prose: right
// after an opening quote, bracket or emphasis mark (an underscore only
// when no word runs into it), or, past any spaces, right after a colon, an
// "=", a ">" (an arrow) or a non-ASCII character (CJK text or punctuation,
// a full-width colon, an arrow). A word before it ("the ValueError: ...",
// "(attempt two) ConnectionError: ...") is prose.
func embedBoundary(s string, i int) bool {
	switch c := s[i-1]; c {
	case '"', '\'', '`', '(', '[', '{', '*':
		return true
	case '_':
		return i == 1 || !isWordByte(s[i-2])
	}
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	if j == 0 {
		return false
	}
	switch c := s[j-1]; {
	case c == ':', c == '=', c == '>':
		return true
	case c >= utf8.RuneSelf:
		return true
	}
	return false
}

// opensQuote reports whether a quote, bracket or emphasis mark stands right
// before s[i]: ASCII ones, or a full-width bracket or a curly quote.
func opensQuote(s string, i int) bool {
	switch s[i-1] {
	case '"', '\'', '`', '(', '[', '{', '*', '_':
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	switch r {
	case '（', '【', '「', '“', '『', '‘':
		return true
	}
	return false
}

// embeddedType reads a possibly dotted type name at the start of s whose
// last component is capitalised and ends in "Error" or "Exception" with
// more in front, and returns it and what follows it.
func embeddedType(s string) (typ, rest string, ok bool) {
	n := 0
	for n < len(s) && (isWordByte(s[n]) || s[n] == '.') {
		n++
	}
	typ = s[:n]
	if n == 0 || typ[n-1] == '.' || strings.Contains(typ, "..") {
		return "", "", false
	}
	last := typ
	if j := strings.LastIndexByte(typ, '.'); j >= 0 {
		last = typ[j+1:]
	}
	if last == "" || !isUpper(last[0]) {
		return "", "", false
	}
	for _, suf := range [...]string{"Error", "Exception"} {
		if len(last) > len(suf) && strings.HasSuffix(last, suf) {
			return typ, s[n:], true
		}
	}
	return "", "", false
}

// reprMessage returns the message of an exception's repr after its
// opening parenthesis: a string in the quote s opens with, closed by the
// same quote and the parenthesis, with more arguments after a comma
// allowed ("('x', 3)"); "" when s holds no such string.
func reprMessage(s string) string {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			if i+1 < len(s) && (s[i+1] == ')' || s[i+1] == ',') {
				return strings.TrimSpace(s[1:i])
			}
			return ""
		}
	}
	return ""
}

// backtickRun returns the number of backticks s ends with.
func backtickRun(s string) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '`' {
		n++
	}
	return n
}

// closedFence returns m, the message of an exception quoted after a run
// of n backticks (n > 1), up to the run that closes the quote: the first
// run of exactly n backticks, as CommonMark closes a code span; else a
// run of more at the end of the line, whose last n close the quote and
// whose first ones close a span the message opened ("...calling
// `cublasCreate(handle)````"). A line the quote does not close keeps its
// text.
func closedFence(m string, n int) string {
	for i := 0; i < len(m); {
		if m[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(m) && m[j] == '`' {
			j++
		}
		if j-i == n {
			return m[:i]
		}
		if j-i > n && strings.TrimRight(m[j:], " \t.,;") == "" {
			return m[:j-n]
		}
		i = j
	}
	return m
}
