package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

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
	return len(r) >= 4 && r[0] == '5' && isDigitByte(r[1]) && isDigitByte(r[2]) && (r[3] == ' ' || r[3] == '"') && !healthProbeURL(l[len(httpxRequestPrefix):q])
}

// healthProbePaths are the last path segments of the endpoints a client
// polls to learn whether a server is up: a 5xx there says the server is
// not ready yet (starting, draining), which the poller waits out, not that
// a request failed.
var healthProbePaths = [...]string{"health", "healthz", "health_generate", "ready", "readyz", "readiness", "live", "livez", "liveness", "ping"}

// healthProbeURL reports whether req, httpx's "METHOD URL" before the
// response's quote, asks a health or readiness endpoint
// (healthProbePaths).
func healthProbeURL(req string) bool {
	u := strings.TrimSpace(req)
	if q := strings.IndexAny(u, "?#"); q >= 0 {
		u = u[:q]
	}
	u = strings.TrimRight(u, "/")
	seg := u[strings.LastIndexByte(u, '/')+1:]
	for _, p := range healthProbePaths {
		if strings.EqualFold(seg, p) {
			return true
		}
	}
	return false
}

// A client that reports a request's failure in its own words names the
// error status it got: httpx's raise_for_status ("Client error '403
// Forbidden' for url 'http://...'", "Server error '503 Service
// Unavailable' for url ..."), a program's "warm Up Failed, status code:
// 400", "request failed with status_code=502". On a line with no level
// whose words say something failed (failureVerb), such a status is the
// request's failure, unless the line says its writer carries on (a retry,
// an optional file it skips). Both are read first at the line's end, as
// entry.StatusEnd reads a status, so that a routine line costs a few
// bytes' look: httpx's words on a line that ends with the URL's closing
// quote or with the link to the status's page that newer versions add
// ("... for url 'http://...'", "For more information check:
// https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/503"), a
// status after a label where it ends the line.

// httpStatusRoutine are the words, besides a carry-on clause
// (carriesOnPast), of a line about a failed request that carries on: an
// optional file it does without.
var httpStatusRoutine = [...]string{"optional"}

// httpStatusFailure reports whether l, a line with no level, says a
// request failed with an HTTP error status (see above).
func httpStatusFailure(l string) bool {
	if !httpStatusEnd(l) && (!httpxMessageEnd(l) || !httpxStatusError(l)) {
		return false
	}
	return failureVerb(l) && !carriesOnPast(l, httpStatusRoutine[:]) && !earlyAttempt(l) && !headProbe(l)
}

// headProbe reports whether l reports an HTTP HEAD request: a probe of
// whether a resource exists or changed ("common_download_file_single_online:
// HEAD failed, status: 404" before llama.cpp uses its cached file), whose
// error status its writer handles by doing without it.
func headProbe(l string) bool {
	i := strings.Index(l, "HEAD ")
	return i >= 0 && (i == 0 || !isAlnum(l[i-1]))
}

// httpxStatusError reports whether l holds httpx's raise_for_status
// words with a client or server error status: "Client error '4",
// "Server error '5".
func httpxStatusError(l string) bool {
	for from := 0; from < len(l); {
		i := ascii.IndexByRare(l[from:], "rror '", 5)
		if i < 0 {
			return false
		}
		at := from + i
		from = at + len("rror '")
		if from < len(l) && (strings.HasSuffix(l[:at], "Client e") && l[from] == '4' || strings.HasSuffix(l[:at], "Server e") && l[from] == '5') {
			return true
		}
	}
	return false
}

// httpxMessageEnd reports whether l ends the way httpx's raise_for_status
// message does: with the URL's closing quote, or with the link to the
// status's page ("/HTTP/Status/503"), a closing backtick or period after
// them left out.
func httpxMessageEnd(l string) bool {
	i := len(l)
	for i > 0 && (l[i-1] == ' ' || l[i-1] == '.' || l[i-1] == '`' || l[i-1] == '\r') {
		i--
	}
	if i > 0 && l[i-1] == '\'' {
		return true
	}
	return i >= len("/Status/503") && l[i-len("/Status/503"):i-3] == "/Status/" && (l[i-3] == '4' || l[i-3] == '5')
}

// httpStatusLabels name, before the number that ends a line, the HTTP
// status it is (lower-cased: "Status code 502" too).
var httpStatusLabels = [...]string{"status code", "status_code", "statuscode", "http status", "status"}

// httpStatusEnd reports whether l ends with an HTTP error status (4xx,
// 5xx) after a status label ("status code: 400", "status_code=503",
// "Status code 502."), read from the line's end only.
func httpStatusEnd(l string) bool {
	i := len(l)
	for i > 0 && (l[i-1] == ' ' || l[i-1] == '.' || l[i-1] == ')' || l[i-1] == '\r') {
		i--
	}
	if i < 4 || l[i-3] != '4' && l[i-3] != '5' || !isDigitByte(l[i-2]) || !isDigitByte(l[i-1]) || isDigitByte(l[i-4]) {
		return false
	}
	j := i - 3
	for j > 0 && i-3-j < 4 && (l[j-1] == ' ' || l[j-1] == ':' || l[j-1] == '=') {
		j--
	}
	if j == i-3 {
		return false
	}
	head := l[max(0, j-len("status code")):j]
	for _, lb := range httpStatusLabels {
		if len(head) >= len(lb) && strings.EqualFold(head[len(head)-len(lb):], lb) && (len(head) == len(lb) || !isAlnum(head[len(head)-len(lb)-1])) {
			return true
		}
	}
	return false
}

// requestsErrorLine reports whether l is the message of the HTTPError that
// Python's requests raises for an error status, printed alone as its
// exception's message: "404 Client Error: Not Found for url:
// https://...", "503 Server Error: Service Unavailable for url: ...", and
// huggingface_hub's form of it, "403 Client Error. (Request ID: ...)". The
// status's class agrees with its word: 4xx a client error, 5xx a server
// one.
func requestsErrorLine(l string) bool {
	if len(l) < len("404 Client Error.") || l[0] != '4' && l[0] != '5' || !isDigitByte(l[1]) || !isDigitByte(l[2]) || l[3] != ' ' {
		return false
	}
	var r string
	var ok bool
	if l[0] == '4' {
		r, ok = strings.CutPrefix(l[4:], "Client Error")
	} else {
		r, ok = strings.CutPrefix(l[4:], "Server Error")
	}
	return ok && (strings.HasPrefix(r, ": ") && len(r) > 2 || strings.HasPrefix(r, ". (Request ID: "))
}
