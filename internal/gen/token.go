package gen

import (
	"unicode"
	"unicode/utf8"
)

// Kind is the kind of a Token.
type Kind int

// Token kinds. Tokenize reports only what message extraction needs:
// comments and non-logical line breaks are dropped, and every operator is a
// single-character Op.
const (
	Name    Kind = iota + 1 // identifier or keyword
	String                  // string literal, prefix and quotes included
	Number                  // numeric literal
	Op                      // one punctuation character
	Newline                 // end of a logical line (outside brackets)
)

// Token is one lexical token of Python source.
type Token struct {
	Kind Kind
	Text string // the source text of the token
	Line int    // 1-based line of the first character
	Pos  int    // byte offset of the first character
	// Unterminated is set on a String that reached the end of input
	// without its closing quote.
	Unterminated bool
}

// Tokenize splits Python source into tokens. It never fails: anything it
// does not understand becomes an Op of one character, and every step
// consumes at least one byte, so it always terminates. Newlines inside
// brackets and after a backslash continuation do not end a logical line,
// as in Python.
func Tokenize(src string) []Token {
	// Python source averages a token per five or six bytes.
	toks := make([]Token, 0, len(src)/5+1)
	line, depth := 1, 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 && len(toks) > 0 && toks[len(toks)-1].Kind != Newline {
				toks = append(toks, Token{Kind: Newline, Text: "\n", Line: line, Pos: i})
			}
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			line++
			i += 2
		case c == '\\' && i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n':
			line++
			i += 3
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			if n := stringStart(src, i); n >= 0 {
				end, closed := scanString(src, i, 0)
				text := src[i:end]
				toks = append(toks, Token{Kind: String, Text: text, Line: line, Pos: i, Unterminated: !closed})
				line += countNewlines(text)
				i = end
				continue
			}
			r, size := utf8.DecodeRuneInString(src[i:])
			switch {
			case r == '_' || unicode.IsLetter(r):
				j := i + size
				for j < len(src) {
					r2, s2 := utf8.DecodeRuneInString(src[j:])
					if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
						break
					}
					j += s2
				}
				toks = append(toks, Token{Kind: Name, Text: src[i:j], Line: line, Pos: i})
				i = j
			case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
				j := i + 1
				for j < len(src) && (isAlnum(src[j]) || src[j] == '.' || src[j] == '_' ||
					(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
					j++
				}
				toks = append(toks, Token{Kind: Number, Text: src[i:j], Line: line, Pos: i})
				i = j
			default:
				switch c {
				case '(', '[', '{':
					depth++
				case ')', ']', '}':
					if depth > 0 {
						depth--
					}
				}
				toks = append(toks, Token{Kind: Op, Text: src[i : i+size], Line: line, Pos: i})
				i += size
			}
		}
	}
	if len(toks) > 0 && toks[len(toks)-1].Kind != Newline {
		toks = append(toks, Token{Kind: Newline, Line: line, Pos: len(src)})
	}
	return toks
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentByte(c byte) bool { return c == '_' || isAlnum(c) || c >= 0x80 }

func countNewlines(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}

// stringStart returns the length of the string prefix (0 to 2 letters of
// r, b, u, f, t in any case) when a string literal starts at src[i], and -1
// otherwise.
func stringStart(src string, i int) int {
	for n := 0; n <= 2 && i+n < len(src); n++ {
		c := src[i+n]
		if c == '"' || c == '\'' {
			if validPrefix(src[i : i+n]) {
				return n
			}
			return -1
		}
		if !isPrefixLetter(c) {
			return -1
		}
	}
	return -1
}

func isPrefixLetter(c byte) bool {
	switch c {
	case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F', 't', 'T':
		return true
	}
	return false
}

// validPrefix accepts Python's string prefixes: one of r, u, b, f, t, or a
// raw combination rb, br, rf, fr, rt, tr (any case).
func validPrefix(p string) bool {
	switch len(p) {
	case 0:
		return true
	case 1:
		return isPrefixLetter(p[0])
	case 2:
		a, b := lowerByte(p[0]), lowerByte(p[1])
		if a == 'r' {
			a, b = b, a
		}
		return b == 'r' && (a == 'b' || a == 'f' || a == 't')
	}
	return false
}

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Literal is a string token split into its parts.
type Literal struct {
	Prefix string // lower-cased prefix letters, e.g. "rf"
	Quote  string // ', ", ''' or """
	Body   string // source text between the quotes, escapes undecoded
}

// Raw reports an r prefix.
func (l Literal) Raw() bool { return containsByte(l.Prefix, 'r') }

// Formatted reports an f (or t) prefix.
func (l Literal) Formatted() bool {
	return containsByte(l.Prefix, 'f') || containsByte(l.Prefix, 't')
}

// Bytes reports a b prefix.
func (l Literal) Bytes() bool { return containsByte(l.Prefix, 'b') }

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// SplitLiteral splits the text of a String token. An unterminated literal
// keeps whatever body it has.
func SplitLiteral(text string) Literal {
	n := 0
	for n < len(text) && text[n] != '"' && text[n] != '\'' {
		n++
	}
	var l Literal
	for i := 0; i < n; i++ {
		l.Prefix += string(lowerByte(text[i]))
	}
	rest := text[n:]
	if len(rest) == 0 {
		return l
	}
	q := rest[:1]
	if len(rest) >= 6 && rest[:3] == q+q+q {
		q = rest[:3]
	} else if len(rest) >= 3 && rest[:3] == q+q+q {
		// An unterminated triple-quoted literal of fewer than six bytes.
		l.Quote = rest[:3]
		l.Body = rest[3:]
		return l
	}
	l.Quote = q
	body := rest[len(q):]
	if len(body) >= len(q) && body[len(body)-len(q):] == q {
		body = body[:len(body)-len(q)]
	}
	l.Body = body
	return l
}

// scanString returns the end offset of the string literal starting at
// src[i] and whether it was closed. Inside the replacement fields of an
// f-string, nested literals and brackets are skipped, so Python 3.12's
// f"{d["k"]}" is one token.
func scanString(src string, i, nest int) (end int, closed bool) {
	j := i
	for j < len(src) && src[j] != '"' && src[j] != '\'' {
		j++
	}
	prefix := src[i:j]
	formatted := containsByte(lowerString(prefix), 'f') || containsByte(lowerString(prefix), 't')
	q := src[j : j+1]
	triple := j+2 < len(src) && src[j+1] == q[0] && src[j+2] == q[0]
	if triple {
		q = src[j : j+3]
	}
	j += len(q)
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\\':
			j += 2
		case !triple && c == '\n':
			// A newline ends a single-quoted literal: it is unterminated.
			return j, false
		case len(q) == 1 && c == q[0] || len(q) == 3 && j+3 <= len(src) && src[j:j+3] == q:
			return j + len(q), true
		case formatted && c == '{':
			if j+1 < len(src) && src[j+1] == '{' {
				j += 2
				continue
			}
			j = skipField(src, j+1, nest+1)
		default:
			j++
		}
	}
	return len(src), false
}

// maxNest bounds f-string nesting (Python itself allows about 150 levels);
// deeper quotes are treated as plain characters so hostile input cannot
// exhaust the stack.
const maxNest = 32

// skipField skips an f-string replacement field starting after its '{' and
// returns the offset after its closing '}' (or len(src)).
func skipField(src string, j, nest int) int {
	depth := 0
	for j < len(src) {
		c := src[j]
		if nest < maxNest && stringStart(src, j) >= 0 && (j == 0 || !isIdentByte(src[j-1])) {
			end, _ := scanString(src, j, nest)
			j = max(end, j+1)
			continue
		}
		switch c {
		case '{', '[', '(':
			depth++
		case ']', ')':
			if depth > 0 {
				depth--
			}
		case '}':
			if depth == 0 {
				return j + 1
			}
			depth--
		}
		j++
	}
	return len(src)
}

func lowerString(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] = lowerByte(b[i])
	}
	return string(b)
}
