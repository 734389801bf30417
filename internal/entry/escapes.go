package entry

import "strings"

// A colour code whose ESC byte a log shipper, a viewer or a paste spelled
// out as text: the terminal sequence is still there, but no longer starts
// with the control character stripANSI looks for, so it sits in front of
// the wrappers and headers the line holds ("#033[2m#033[33m(raylet)#033[0m
// [2023-...] ..."). Each writer spells ESC its own way:
//
//   - rsyslog escapes every control character as "#" and three octal
//     digits ("#033", its default for $EscapeControlCharactersOnReceive);
//   - systemd and journald's exports, Python's repr and shell quoting
//     write C escapes ("\x1b", "\x1B", "\033", "\e");
//   - a container runtime's JSON log, or any JSON encoder, writes
//     "\u001b" (and "\\u001b" once more when that JSON is quoted again);
//   - cat -v, less and vim show the byte in caret notation ("^[");
//   - a Windows console without VT support shows it as an arrow ("←"),
//     a font's control picture as "␛";
//   - a paste through a tool that dropped the byte leaves a replacement
//     character ("?", U+FFFD) in its place.
//
// stripSpelledCSI removes such sequences, introducer, parameters and
// final byte, as stripANSI removes real ones; what remains is read as if
// the terminal had drawn it. The line as posted stays the source's (its
// offset and length, which a terminal's wrap counted). A line that opens
// as sglang's records do is not searched (wrapperSpan): sglang colours
// none of its records, and a shipper's codes come before what it ships;
// so the routine line pays one test.

// maxSpelledParams bounds the parameter bytes of one spelled sequence: an
// SGR with 256 or true colour ("38;2;255;255;255") fits.
const maxSpelledParams = 24

// spelledIntroLast marks the byte just before the "[" of a spelled
// sequence: the last byte of each spelling of ESC. A line's other "[" (a
// header's, a rank's, a list's) fail this lookup and cost nothing more.
var spelledIntroLast = [256]bool{
	'3':  true, // #033, \033
	'b':  true, // \x1b, \u001b
	'B':  true, // \x1B, \u001B
	'e':  true, // \e
	'[':  true, // ^[
	'?':  true, // a replacement "?"
	0x90: true, // "←" (e2 86 90)
	0x9b: true, // "␛" (e2 90 9b)
	0xbd: true, // U+FFFD (ef bf bd)
}

// spelledIntro is one spelling of ESC, and whether it is certain: an
// uncertain one ("^[", "?", "←", U+FFFD) is also other text's, so only
// the sequences logs colour and erase with follow it (spelledFinal).
type spelledIntro struct {
	text    string
	certain bool
}

// spelledIntros lists the spellings, longest first where one ends another.
var spelledIntros = [...]spelledIntro{
	{`\u001b`, true}, {`\u001B`, true}, {`\x1b`, true}, {`\x1B`, true},
	{`\033`, true}, {`#033`, true}, {`\e`, true}, {"␛", true},
	{"^[", false}, {"←", false}, {"\uFFFD", false}, {"?", false},
}

// hasSpelledCSI reports whether s holds a spelled colour code.
func hasSpelledCSI(s string) bool {
	start, _ := nextSpelledCSI(s, 0)
	return start >= 0
}

// nextSpelledCSI returns the bounds of the first spelled sequence in s at
// or after from, or -1, -1.
func nextSpelledCSI(s string, from int) (start, end int) {
	for i := from; i < len(s); {
		j := strings.IndexByte(s[i:], '[')
		if j < 0 {
			break
		}
		j += i
		i = j + 1
		if j == 0 || j+1 >= len(s) || !spelledIntroLast[s[j-1]] {
			continue
		}
		if b, e := spelledAt(s, j); b >= 0 {
			return b, e
		}
	}
	return -1, -1
}

// spelledAt reads a spelled sequence whose "[" is at s[j]: the spelling of
// ESC that ends just before it, then the parameters and the final byte.
func spelledAt(s string, j int) (start, end int) {
	for _, in := range spelledIntros {
		if !strings.HasSuffix(s[:j], in.text) {
			continue
		}
		e, digits := csiEnd(s, j+1)
		if e < 0 {
			return -1, -1
		}
		final := s[e-1]
		if in.certain {
			if strings.IndexByte(csiFinals, final) < 0 {
				return -1, -1
			}
		} else if !spelledFinal(final, digits, in.text) {
			return -1, -1
		}
		start = j - len(in.text)
		if in.text[0] == '\\' && start > 0 && s[start-1] == '\\' {
			// JSON quoted again: "\\u001b".
			start--
		}
		return start, e
	}
	return -1, -1
}

// csiFinals are the final bytes of the sequences a log's colours, erases
// and cursor moves end in: SGR, erasing, cursor position and motion,
// scrolling, modes.
const csiFinals = "mKJHfABCDEFGdhlsuSTPXLM@"

// spelledFinal reports whether an uncertain spelling's sequence, ending in
// final after digits parameter digits, is one a log colours or erases
// with: an SGR ("m") or an erase in line ("K"). A replacement character
// stands for many bytes, so its sequence needs a parameter too ("?[32m",
// not "?[m").
func spelledFinal(final byte, digits int, intro string) bool {
	if final != 'm' && final != 'K' {
		return false
	}
	return digits > 0 || intro == "^[" || intro == "←"
}

// csiEnd returns the end of a sequence's parameters and final byte that
// start at s[i] ("1;33m"), and how many digits the parameters hold; -1
// when none ends within maxSpelledParams bytes.
func csiEnd(s string, i int) (end, digits int) {
	for k := i; k < len(s) && k <= i+maxSpelledParams; k++ {
		switch c := s[k]; {
		case isDigit(c):
			digits++
		case c == ';' || c == ':' || c == '?':
		case c >= 0x40 && c <= 0x7e && c != '[' && c != ']' && c != '\\':
			return k + 1, digits
		default:
			return -1, 0
		}
	}
	return -1, 0
}

// stripSpelledCSI removes every spelled sequence from s.
func stripSpelledCSI(s string) string {
	start, end := nextSpelledCSI(s, 0)
	if start < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	from := 0
	for start >= 0 {
		b.WriteString(s[from:start])
		from = end
		start, end = nextSpelledCSI(s, end)
	}
	b.WriteString(s[from:])
	return b.String()
}
