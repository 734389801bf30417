package analysis

import "strings"

// A schema library's validation error says in its first line only how
// many fields failed and for which model ("1 validation error for
// ModelConfig"); what failed is on the lines after it, one block a field:
// the field's location on a line of its own (absent for a model-level
// check), then, indented, the error's message and its type
// ("  Value error, No model architectures are specified [type=value_error,
// ...]" of pydantic 2, "  field required (type=value_error.missing)" of
// pydantic 1). The headline of such an exception takes its first error's
// message, as an operator reads it.

// maxValidationDetail bounds the error message validationDetail returns.
const maxValidationDetail = 160

// maxValidationLookahead bounds the lines validationDetail reads after
// the exception's line, blank lines aside.
const maxValidationLookahead = 3

// validationDetail returns the first error's message of the validation
// error whose message msg ("1 validation error for X") text holds, with
// its location when it has one ("messages.0.content: Input should be a
// valid string"); "" when msg is no such summary or its errors are not in
// text.
func validationDetail(text, msg string) string {
	if !validationSummary(msg) {
		return ""
	}
	i := strings.Index(text, msg)
	if i < 0 {
		return ""
	}
	rest := text[i+len(msg):]
	_, rest, ok := strings.Cut(rest, "\n")
	if !ok {
		return ""
	}
	loc := ""
	for read := 0; read < maxValidationLookahead && rest != ""; {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		l = strings.TrimRight(l, " \r")
		t := strings.TrimLeft(l, " \t")
		if t == "" {
			// A paste that doubled its line breaks.
			continue
		}
		read++
		switch {
		case t == l:
			// Unindented: the failing field's location.
			if loc != "" || strings.ContainsAny(t, " :") {
				return ""
			}
			loc = t
		default:
			m := errorTypeTail(t)
			if m == "" {
				return ""
			}
			if loc != "" {
				m = loc + ": " + m
			}
			if len(m) > maxValidationDetail {
				m = m[:maxValidationDetail]
			}
			return m
		}
	}
	return ""
}

// validationSummary reports whether msg is a validation error's first
// line: a count, "validation error" or "validation errors", "for" and a
// model's name.
func validationSummary(msg string) bool {
	n := 0
	for n < len(msg) && msg[n] >= '0' && msg[n] <= '9' {
		n++
	}
	if n == 0 {
		return false
	}
	r, ok := strings.CutPrefix(msg[n:], " validation error")
	if !ok {
		return false
	}
	r = strings.TrimPrefix(r, "s")
	model, ok := strings.CutPrefix(r, " for ")
	return ok && model != "" && !strings.ContainsAny(model, " \t")
}

// errorTypeTail returns an error line's message without the error type
// the library puts after it (" [type=value_error, ...]" or
// " (type=value_error.missing)"), and without pydantic 2's "Value error, "
// opening; "" when the line carries no such type.
func errorTypeTail(t string) string {
	i := strings.LastIndex(t, " [type=")
	if i < 0 {
		i = strings.LastIndex(t, " (type=")
	}
	if i <= 0 {
		return ""
	}
	m := strings.TrimSpace(t[:i])
	m = strings.TrimPrefix(m, "Value error, ")
	m = strings.TrimPrefix(m, "Assertion failed, ")
	return m
}
