package entry

import (
	"strings"
	"time"
)

// Failure lines without a level word: what a tool or a library prints to
// say a step failed, in the place a level would stand or at the end of its
// own sentence. They are read only on entries that carry no level of their
// own (sglang's records, plain lines): under a level the level decides.

// FailureSummary reports whether msg, the first line of an entry without
// a level, says a step failed without a level word:
//
//   - a diagnostic report's mark "× " in front of its message, as pip's
//     summaries ("× Building wheel for x (pyproject.toml) did not run
//     successfully.") and the Rust tools that draw their error chains so
//     (uv's "× Failed to build `x`", "× No solution found when resolving
//     dependencies:") print it;
//   - a failure sentence that ends with the non-zero status it failed with
//     (FailureStatusEnd);
//   - a rejection of an object the code does not handle, quoting its repr
//     (RejectedType).
func FailureSummary(msg string) bool {
	if msg == "" {
		return false
	}
	return reportMark(msg) || FailureStatusEnd(msg) || RejectedType(msg) != ""
}

// reportMark reports whether msg opens with a diagnostic report's "× "
// mark (after the indentation such reports carry) and a message, also
// behind an "Error: " that a caller printed in front of the report.
func reportMark(msg string) bool {
	m := strings.TrimLeft(msg, " ")
	if r, ok := strings.CutPrefix(m, "Error:"); ok {
		m = strings.TrimLeft(r, " ")
	}
	r, ok := strings.CutPrefix(m, "× ")
	return ok && strings.TrimSpace(r) != ""
}

// maxRejectedType bounds the class RejectedType returns.
const maxRejectedType = 64

// maxStatusTail bounds the digits of a status statusAtEnd reads.
const maxStatusTail = 64

// FailureStatusEnd reports whether msg ends with the status a failed step
// returned: "error code: -1" (Mooncake's store set-up as sglang logs it),
// "exit code: 1", "exit status 2", "exited with code 137", "returned
// non-zero exit status 1." (Python's subprocess), "failed (exit status:
// 1)" (uv's build backend), with a closing period or parenthesis after
// it. A zero status is a success; an exit status of 130 or 143 is a
// process stopped by Ctrl-C or SIGTERM, which an operator asked for.
func FailureStatusEnd(msg string) bool {
	head, num, negative, ok := statusAtEnd(msg)
	if !ok || strings.Trim(num, "0") == "" {
		return false
	}
	if !sentenceBefore(head) {
		// A status on a line of its own ("│ exit code: 1" under pip's
		// summary, a table's "exitcode: 1" row) details a failure
		// another line states.
		return false
	}
	switch {
	case strings.HasSuffix(head, "error code"), strings.HasSuffix(head, "error_code"), strings.HasSuffix(head, "errcode"):
		return true
	case strings.HasSuffix(head, "exit code"), strings.HasSuffix(head, "exit status"), strings.HasSuffix(head, "exitcode"),
		strings.HasSuffix(head, "exited with code"), strings.HasSuffix(head, "exited with status"),
		strings.HasSuffix(head, "non-zero exit status"):
		return negative || num != "130" && num != "143"
	}
	return false
}

// statusAtEnd splits the end of msg as a status closes a line: the digits
// before its closing periods, parentheses or spaces (at most
// maxStatusTail of them), whether a minus sign stands before them, and
// the line before the number with the blanks, colon or equals sign
// between taken off. ok is false when msg does not end in digits.
func statusAtEnd(msg string) (head, num string, negative, ok bool) {
	// A loop, not strings.TrimRight: this runs on every routine line,
	// and TrimRight builds its cutset on each call.
	i := len(msg)
	for i > 0 && (msg[i-1] == ' ' || msg[i-1] == '.' || msg[i-1] == ')' || msg[i-1] == '\r') {
		i--
	}
	t := msg[:i]
	j := len(t)
	for j > 0 && len(t)-j < maxStatusTail && isDigit(t[j-1]) {
		j--
	}
	if j == len(t) {
		return "", "", false, false
	}
	num = t[j:]
	if negative = j > 0 && t[j-1] == '-'; negative {
		j--
	}
	for j > 0 && (t[j-1] == ' ' || t[j-1] == ':' || t[j-1] == '=') {
		j--
	}
	return t[:j], num, negative, true
}

// sentenceBefore reports whether s, a line up to the status it ends with,
// holds a sentence before the status's own words: two words of letters
// at least.
func sentenceBefore(s string) bool {
	words, in := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if letter && !in {
			words++
		}
		in = letter
	}
	// The status's own words ("error code", "exited with code") are
	// two or three of them.
	return words >= 4
}

// RejectedType is the class of the object a rejection's message quotes
// ("UpdateWeightReqInput", "class 'x.Req'" of an angle-bracketed repr),
// or "" when msg is not such a message. A rejection says code met an
// object it has no handler for and quotes the object's repr: "Invalid
// object: UpdateWeightReqInput(model_path=...)" (sglang's dispatchers),
// "Unknown request type: <class 'x.Req'>", "Unexpected message:
// Foo(...)". The adjective, a lower-case noun phrase and a colon, then a
// repr: a class name and its fields in parentheses, or an angle-bracketed
// repr, to the end of the line (or a repr's named fields cut before its
// close). A message that names a value rather than an object ("Invalid
// value for --x: 3, using the default") is none.
func RejectedType(msg string) string {
	var rest string
	ok := false
	for _, w := range [...]string{"Invalid ", "Unknown ", "Unexpected ", "Unsupported ", "Unrecognized ", "Unrecognised ", "Unhandled "} {
		if rest, ok = strings.CutPrefix(msg, w); ok {
			break
		}
	}
	if !ok {
		return ""
	}
	c := strings.Index(rest[:min(len(rest), 40)], ": ")
	if c <= 0 {
		return ""
	}
	for j := 0; j < c; j++ {
		if b := rest[j]; !(b >= 'a' && b <= 'z') && b != ' ' && b != '_' {
			return ""
		}
	}
	repr := strings.TrimRight(rest[c+2:], " \r")
	switch {
	case strings.HasPrefix(repr, "<") && strings.HasSuffix(repr, ">"):
		name, _, _ := strings.Cut(repr[1:len(repr)-1], " object at ")
		if len(name) > maxRejectedType {
			name = name[:maxRejectedType]
		}
		return name
	default:
		o := strings.IndexByte(repr, '(')
		if o <= 0 || !isUpper(repr[0]) {
			return ""
		}
		for j := 0; j < o; j++ {
			if b := repr[j]; !isLetter(b) && !isDigit(b) && b != '_' && b != '.' {
				return ""
			}
		}
		if !strings.HasSuffix(repr, ")") && !keywordField(repr[o+1:]) {
			// Not closed on this line: only a repr whose fields are
			// named ("X(model_path='...'," cut by a wrap or a
			// truncated repr) is one.
			return ""
		}
		return repr[:o]
	}
}

// keywordField reports whether s opens with a keyword argument's name
// and "=", as a dataclass's or a named tuple's repr prints its fields.
func keywordField(s string) bool {
	i := 0
	for i < len(s) && (isLetter(s[i]) || isDigit(s[i]) || s[i] == '_') {
		i++
	}
	return i > 0 && i < len(s) && s[i] == '=' && !isDigit(s[0])
}

// StatusEnd reports whether msg may end with a status FailureStatusEnd
// reads: digits at its end with "code" or "status" just before them. Most
// lines end otherwise, and it reads only the bytes at their end: it runs
// on every routine line without a level.
func StatusEnd(msg string) bool {
	head, _, _, ok := statusAtEnd(msg)
	return ok && (strings.HasSuffix(head, "code") || strings.HasSuffix(head, "status"))
}

// summaryRecord reports whether s is an sglang record (or another header
// without a level) whose message is a FailureSummary: what
// failureBehindPrefix looks for behind a launcher's label on a line of its
// own ("0: [14:26:31] Invalid object: X(...)").
func summaryRecord(s string, ref time.Time, loc *time.Location) bool {
	if s == "" || s[0] != '[' {
		return false
	}
	h, ok := parseHeader(s, ref, loc)
	return ok && h.level == "" && FailureSummary(h.msg)
}
