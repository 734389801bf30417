package analysis

import "strings"

// httpx, the HTTP client under openai's and many serving tools' Python
// clients, logs every response it receives at INFO, in one fixed form:
// `HTTP Request: POST http://host/v1/chat/completions "HTTP/1.1 503
// Service Unavailable"` (the method, the URL, then the response's version,
// status and reason phrase in quotes). A 2xx, a redirect, and a client
// error the caller made (a 404 on a probe, a 400 on a bad request) are
// routine; a server error (5xx) says the server the caller depends on
// failed it, and the callers retry it silently until they give up, so the
// line is the first and often the only word of that failure.

// httpxRequestPrefix opens httpx's response line.
const httpxRequestPrefix = "HTTP Request: "

// httpxServerError reports whether msg is httpx's response line (see
// above) with a server error status.
func httpxServerError(msg string) bool {
	if !strings.HasPrefix(msg, httpxRequestPrefix) {
		return false
	}
	l := FirstLine(msg)
	q := strings.LastIndex(l, `"HTTP/`)
	if q < 0 {
		return false
	}
	r := l[q+len(`"HTTP/`):]
	sp := strings.IndexByte(r, ' ')
	if sp < 1 || sp > 3 {
		return false
	}
	r = r[sp+1:]
	return len(r) >= 4 && r[0] == '5' && isDigitByte(r[1]) && isDigitByte(r[2]) && (r[3] == ' ' || r[3] == '"')
}
