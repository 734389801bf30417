package gen

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Part is one piece of a message: literal text, or a hole for a value known
// only at run time.
type Part struct {
	Text string // the literal text, or the hole's name (the expression or key)
	Hole bool
}

// Message is a message as a sequence of literal text and holes.
type Message []Part

func (m *Message) lit(s string) {
	if s == "" {
		return
	}
	if n := len(*m); n > 0 && !(*m)[n-1].Hole {
		(*m)[n-1].Text += s
		return
	}
	*m = append(*m, Part{Text: s})
}

func (m *Message) hole(name string) { *m = append(*m, Part{Text: name, Hole: true}) }

func (m *Message) add(o Message) {
	for _, p := range o {
		if p.Hole {
			m.hole(p.Text)
		} else {
			m.lit(p.Text)
		}
	}
}

// Template renders the message with each hole as {name}, the way the
// dataset's errorMessage writes placeholders.
func (m Message) Template() string {
	var b strings.Builder
	for _, p := range m {
		if p.Hole {
			b.WriteString("{" + p.Text + "}")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// LiteralRunes counts the non-space characters of the literal parts: the
// text a pattern can be recognised by.
func (m Message) LiteralRunes() int {
	n := 0
	for _, p := range m {
		if p.Hole {
			continue
		}
		for _, r := range p.Text {
			if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
				n++
			}
		}
	}
	return n
}

// DecodeLiteral turns one string literal into a Message: escapes decoded
// (unless raw) and, for f-strings, each replacement field a hole named by
// its expression. A self-documenting field {expr=} becomes the literal
// "expr=" followed by a hole, as Python prints it.
func DecodeLiteral(l Literal) Message {
	var m Message
	if !l.Formatted() {
		m.lit(decodeEscapes(l.Body, l.Raw()))
		return m
	}
	body := l.Body
	var text strings.Builder
	flush := func() {
		m.lit(decodeEscapes(text.String(), l.Raw()))
		text.Reset()
	}
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\' && !l.Raw() && i+1 < len(body):
			// Keep escapes for decodeEscapes; "\{" is not an escape of '{'.
			text.WriteString(body[i : i+2])
			i += 2
		case c == '{' && i+1 < len(body) && body[i+1] == '{':
			text.WriteByte('{')
			i += 2
		case c == '}' && i+1 < len(body) && body[i+1] == '}':
			text.WriteByte('}')
			i += 2
		case c == '{':
			end := skipField(body, i+1, 1)
			field := body[i+1 : max(i+1, end-1)]
			if end > len(body) || end <= i+1 || body[end-1] != '}' {
				field = body[i+1:]
			}
			flush()
			expr, selfDoc := fieldExpr(field)
			if selfDoc != "" {
				m.lit(selfDoc)
			}
			m.hole(expr)
			i = end
		default:
			text.WriteByte(c)
			i++
		}
	}
	flush()
	return m
}

// fieldExpr splits an f-string replacement field into its expression
// (trimmed) and, for {expr=}, the literal text Python prints before the
// value.
func fieldExpr(field string) (expr, selfDoc string) {
	end := len(field)
	depth := 0
	for i := 0; i < len(field); i++ {
		c := field[i]
		if stringStart(field, i) >= 0 && (i == 0 || !isIdentByte(field[i-1])) {
			e, _ := scanString(field, i, 1)
			i = max(e, i+1) - 1
			continue
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '!':
			if depth == 0 && (i+1 >= len(field) || field[i+1] != '=') {
				end = i
			}
		case ':':
			if depth == 0 {
				end = i
			}
		}
		if end != len(field) {
			break
		}
	}
	raw := field[:end]
	t := strings.TrimRight(raw, " \t\n")
	if strings.HasSuffix(t, "=") && !strings.HasSuffix(t, "==") && !strings.HasSuffix(t, "!=") &&
		!strings.HasSuffix(t, "<=") && !strings.HasSuffix(t, ">=") {
		return strings.TrimSpace(t[:len(t)-1]), raw
	}
	return strings.TrimSpace(raw), ""
}

// decodeEscapes decodes Python string escapes. Unknown escapes keep their
// backslash, as Python does; raw literals are returned as written.
func decodeEscapes(s string, raw bool) string {
	if raw || !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
			// Line continuation inside the literal: nothing is printed.
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			b.WriteRune(rune(v))
			i = j - 1
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+n <= len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// PercentFormat applies printf-style formatting ("..." % args) to the
// literal parts: each conversion specifier becomes a hole named by the
// matching operand (or its %(key)), and %% becomes %. Invalid specifiers
// are left as text, which is what Python would refuse at run time anyway.
func PercentFormat(m Message, operands []string) Message {
	var out Message
	k := 0
	for _, p := range m {
		if p.Hole {
			out.hole(p.Text)
			continue
		}
		s := p.Text
		for {
			i := strings.IndexByte(s, '%')
			if i < 0 {
				out.lit(s)
				break
			}
			out.lit(s[:i])
			n, key, ok := percentSpec(s[i:])
			switch {
			case !ok:
				out.lit("%")
				n = 1
			case n == 2 && s[i+1] == '%':
				out.lit("%")
			default:
				name := key
				if name == "" {
					name = operandName(operands, k)
					k++
				}
				out.hole(name)
			}
			s = s[i+n:]
		}
	}
	return out
}

func operandName(operands []string, k int) string {
	if k < len(operands) && operands[k] != "" {
		return operands[k]
	}
	return strconv.Itoa(k)
}

// percentSpec parses one %-specifier at the start of s (which starts with
// '%'): its length, its mapping key and whether it is valid.
func percentSpec(s string) (n int, key string, ok bool) {
	i := 1
	if i < len(s) && s[i] == '(' {
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return 0, "", false
		}
		key = s[i+1 : i+j]
		i += j + 1
	}
	for i < len(s) && strings.IndexByte("#0- +", s[i]) >= 0 {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '*') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '*') {
			i++
		}
	}
	for i < len(s) && strings.IndexByte("hlL", s[i]) >= 0 {
		i++
	}
	if i < len(s) && strings.IndexByte("diouxXeEfFgGcrsa%", s[i]) >= 0 {
		return i + 1, key, true
	}
	return 0, "", false
}

// BraceFormat applies str.format to the literal parts: {{ and }} become
// braces and each replacement field becomes a hole named by the positional
// argument it takes, or by its keyword.
func BraceFormat(m Message, args []string) Message {
	var out Message
	auto := 0
	for _, p := range m {
		if p.Hole {
			out.hole(p.Text)
			continue
		}
		s := p.Text
		for len(s) > 0 {
			i := strings.IndexAny(s, "{}")
			if i < 0 {
				out.lit(s)
				break
			}
			out.lit(s[:i])
			if i+1 < len(s) && s[i+1] == s[i] {
				out.lit(s[i : i+1])
				s = s[i+2:]
				continue
			}
			if s[i] == '}' {
				out.lit("}")
				s = s[i+1:]
				continue
			}
			end := matchingBrace(s, i)
			if end < 0 {
				out.lit(s[i:])
				break
			}
			field := s[i+1 : end]
			name := field
			if j := strings.IndexAny(name, "!:"); j >= 0 {
				name = name[:j]
			}
			base := name
			if j := strings.IndexAny(base, ".["); j >= 0 {
				base = base[:j]
			}
			switch {
			case base == "":
				name = operandName(args, auto) + name
				auto++
			case ascii.Digits(base):
				k, _ := strconv.Atoi(base)
				name = operandName(args, k) + name[len(base):]
			}
			out.hole(name)
			s = s[end+1:]
		}
	}
	return out
}

// matchingBrace returns the index of the '}' closing the '{' at s[i],
// allowing one level of nested fields in the format spec, or -1.
func matchingBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
