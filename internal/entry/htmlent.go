package entry

import "strings"

// A log a web page showed, copied from its source or taken by a scraper,
// holds the page's character references where the log had the characters
// HTML reserves: "&lt;" and "&gt;" around a Python repr ("<class
// 'KeyError'>"), "&#39;" or "&#x27;" for a quote (Python's html.escape and
// Go's html.EscapeString write the first, some templates the second),
// "&quot;" or "&#34;" for a double quote, "&amp;" for an ampersand,
// "&nbsp;" for a space a page kept. Records name the characters, so the
// line is read with them back (unescapeHTML); its bytes as posted stay
// the source's.

// maxEntity bounds the bytes of one reference read, "&" to ";".
const maxEntity = len("&#x0007e;")

// namedEntities are the references unescapeHTML reads by name.
var namedEntities = [...]struct{ name, text string }{
	{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", `"`},
	{"&apos;", "'"}, {"&nbsp;", " "},
}

// entityAt returns the text of the character reference at the start of s
// and its length, or "", 0: one of namedEntities, or a decimal or
// hexadecimal reference to a printable ASCII character.
func entityAt(s string) (string, int) {
	if len(s) < 4 || s[0] != '&' {
		return "", 0
	}
	if s[1] != '#' {
		for _, e := range namedEntities {
			if strings.HasPrefix(s, e.name) {
				return e.text, len(e.name)
			}
		}
		return "", 0
	}
	i, base := 2, 10
	if s[2] == 'x' || s[2] == 'X' {
		i, base = 3, 16
	}
	v, j := 0, i
	for ; j < len(s) && j < maxEntity; j++ {
		c := s[j]
		var d int
		switch {
		case isDigit(c):
			d = int(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			d = -1
		}
		if d < 0 {
			break
		}
		v = v*base + d
	}
	if j == i || j >= len(s) || s[j] != ';' || v < 0x20 || v > 0x7e {
		return "", 0
	}
	return string(rune(v)), j + 1
}

// unescapeHTML returns s with its character references (entityAt) read,
// or s itself, not copied, when it holds none.
func unescapeHTML(s string) string {
	i := strings.IndexByte(s, '&')
	for i >= 0 {
		if _, n := entityAt(s[i:]); n > 0 {
			break
		}
		k := strings.IndexByte(s[i+1:], '&')
		if k < 0 {
			return s
		}
		i += 1 + k
	}
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		if s[i] == '&' {
			if t, n := entityAt(s[i:]); n > 0 {
				b.WriteString(t)
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
