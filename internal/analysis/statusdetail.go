package analysis

import "strings"

// The Hugging Face Hub client raises its HTTP errors (GatedRepoError,
// RepositoryNotFoundError, EntryNotFoundError, HfHubHTTPError) with a
// first line that gives only the status and the request's id ("401
// Client Error. (Request ID: Root=1-...)"), then, after a blank line, the
// lines that say what was refused ("Cannot access gated repo for url
// ...", "Repository Not Found for url: ..."). An operator reads those: the
// headline of such an exception no record names goes on with them.

// Bounds of statusDetail.
const (
	maxStatusDetail     = 300 // runes of the lines it returns
	maxStatusDetailRead = 2   // lines read after the exception's, blank lines aside
)

// statusDetail returns the lines that explain the HTTP status msg, an
// exception's message, reports only (see above), joined by a space; ""
// when msg is no such status or text holds no such lines after it.
func statusDetail(text, msg string) string {
	if !statusOnly(msg) {
		return ""
	}
	i := strings.Index(text, msg)
	if i < 0 {
		return ""
	}
	_, rest, ok := strings.Cut(text[i+len(msg):], "\n")
	if !ok {
		return ""
	}
	var out []string
	for read := 0; read < maxStatusDetailRead && rest != ""; {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(l)
		if t == "" {
			if len(out) > 0 {
				break
			}
			continue
		}
		read++
		if strings.HasPrefix(t, tracebackHeader) || strings.HasPrefix(t, `File "`) ||
			t == sepCauseLine || t == sepContextLine || isExceptionStart(t) {
			break
		}
		out = append(out, t)
	}
	return cutRunes(strings.Join(out, " "), maxStatusDetail)
}

// The chain separators of a Python traceback, which end an exception's
// message.
const (
	sepCauseLine   = "The above exception was the direct cause of the following exception:"
	sepContextLine = "During handling of the above exception, another exception occurred:"
)

// statusOnly reports whether msg's first line is only an HTTP status as
// the Hub's client words it: "401 Client Error. (Request ID: ...)", "500
// Server Error. (Request ID: ...)".
func statusOnly(msg string) bool {
	m := FirstLine(msg)
	if len(m) < len("401 Client Error.") || !isDigitByte(m[0]) || !isDigitByte(m[1]) || !isDigitByte(m[2]) || m[3] != ' ' {
		return false
	}
	r := m[4:]
	if !strings.HasPrefix(r, "Client Error.") && !strings.HasPrefix(r, "Server Error.") {
		return false
	}
	r = strings.TrimSpace(r[len("Client Error."):])
	return r == "" || strings.HasPrefix(r, "(Request ID:") && strings.HasSuffix(r, ")")
}

// isExceptionStart reports whether t opens like an exception line of
// another exception: a dotted or plain name ending in Error or Exception,
// then a colon.
func isExceptionStart(t string) bool {
	name, _, ok := strings.Cut(t, ":")
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return false
	}
	return strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception")
}
