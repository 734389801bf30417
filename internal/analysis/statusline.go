package analysis

import "strings"

// A failed call is often shown only by the status it returned, quoted by
// a person in inline code or prose or printed by a library with no level:
// a transfer library's callback with a negative status and its text
// ("handling callback was invoked with status -3 (Input/output error)",
// UCX's and NIXL's "status: -16 (Endpoint timeout)", "failed with
// status=-5 (Connection reset by remote peer)"), gRPC Python's error
// whose repr is the RPC's status block ("<_InactiveRpcError of RPC that
// terminated with:" and its "status = StatusCode.UNAVAILABLE" line), a
// server's error body a client printed (errorBody).
// statusFailure reads them; a status of zero or OK, and a status line
// without its text, are not failures.

// statusKeys introduce a negative status in a line.
var statusKeys = [...]string{" status -", " status: -", " status=-", "(status -", "(status=-"}

// maxRPCBlock bounds how far into an entry statusFailure looks for the
// status line of a gRPC error's block.
const maxRPCBlock = 600

// statusFailure reports whether an entry with no level of its own, first
// its message's first line and text its whole text, reports a failed call
// by its status (see above).
func statusFailure(first, text string) bool {
	l := strings.TrimRight(first, " \r")
	if l == "" {
		return false
	}
	if reasonPhraseLine(l) {
		return true
	}
	switch l[len(l)-1] { // the byte test: the line ends a status's text or a block's header
	case ')':
		return negativeStatus(l)
	case ':':
		return strings.HasSuffix(l, " of RPC that terminated with:") && rpcStatusNotOK(text)
	case '}':
		return errorBody(l)
	}
	return false
}

// A server answers a request it failed with an error body, which a client
// prints as it came: the OpenAI API's and vLLM's {"error": {"message":
// "...", "type": "BadRequestError", "code": 400}}, vLLM's and sglang's
// older {"object": "error", "message": "...", "code": 400}, Ollama's and
// Triton's {"error": "..."}, TGI's {"error": "...", "error_type": "..."},
// llama.cpp's server's {"error": {"code": 500, "message": "..."}}. The
// body is the failure, its message the cause. errorBody reads one such
// body on its own line: an object whose first key is "error" with a
// message, or whose "object" is "error" with a "message". A structured
// log line names its level and message first, and its "error" field is
// the entry package's to read.

// errorBody reports whether l, a line ending in '}', is a server's error
// body (see above).
func errorBody(l string) bool {
	t := strings.TrimLeft(l, " \t")
	if len(t) < 12 || t[0] != '{' {
		return false
	}
	if v, ok := jsonKeyValue(t[1:], "error"); ok {
		// The first key: a message, or an object holding one.
		switch {
		case strings.HasPrefix(v, `"`):
			return len(v) > 2 && v[1] != '"' && hasLetter(v[:min(len(v), 64)])
		case strings.HasPrefix(v, "{"):
			m := strings.Index(v, `"message":`)
			return m > 0 && nonEmptyJSONString(strings.TrimLeft(v[m+len(`"message":`):], " "))
		}
		return false
	}
	i := strings.Index(t, `"object":`)
	if i < 0 {
		return false
	}
	if v := strings.TrimLeft(t[i+len(`"object":`):], " "); !strings.HasPrefix(v, `"error"`) {
		return false
	}
	m := strings.Index(t, `"message":`)
	return m > 0 && nonEmptyJSONString(strings.TrimLeft(t[m+len(`"message":`):], " "))
}

// jsonKeyValue returns what follows the key in s, an object's text after
// its opening brace, when key is the object's first key ("error": ...).
func jsonKeyValue(s, key string) (string, bool) {
	s = strings.TrimLeft(s, " ")
	r, ok := strings.CutPrefix(s, `"`+key+`"`)
	if !ok {
		return "", false
	}
	r, ok = strings.CutPrefix(strings.TrimLeft(r, " "), ":")
	return strings.TrimLeft(r, " "), ok
}

// nonEmptyJSONString reports whether s opens with a JSON string holding
// a letter.
func nonEmptyJSONString(s string) bool {
	return len(s) > 2 && s[0] == '"' && s[1] != '"' && hasLetter(s[:min(len(s), 64)])
}

// negativeStatus reports whether l, a line ending in ')', ends with a
// negative status and its text in parentheses: "... with status -3
// (Input/output error)".
func negativeStatus(l string) bool {
	for _, k := range statusKeys {
		i := strings.LastIndex(l, k)
		if i < 0 {
			continue
		}
		r := l[i+len(k):]
		n := 0
		for n < len(r) && isDigitByte(r[n]) {
			n++
		}
		if n == 0 || strings.Trim(r[:n], "0") == "" {
			continue
		}
		r = r[n:]
		if t, ok := strings.CutPrefix(r, " ("); ok && strings.HasSuffix(t, ")") && hasLetter(t) {
			return true
		}
	}
	return false
}

// rpcStatusNotOK reports whether msg, a gRPC error's status block, holds
// its status line with a code other than OK: "status =
// StatusCode.UNAVAILABLE".
func rpcStatusNotOK(msg string) bool {
	w := msg[:min(len(msg), maxRPCBlock)]
	i := strings.Index(w, "status = StatusCode.")
	if i < 0 {
		return false
	}
	code := w[i+len("status = StatusCode."):]
	end := 0
	for end < len(code) && (isUpperByte(code[end]) || code[end] == '_') {
		end++
	}
	return end > 0 && code[:end] != "OK"
}

// rpcStatusHeadline returns, for a gRPC error's status block (first its
// header line, text the entry's text), its status line and its details
// line, trimmed and joined ("status = StatusCode.UNAVAILABLE … details =
// "failed to connect to all addresses""): the header says only that an
// RPC ended. "" for any other entry.
func rpcStatusHeadline(first, text string) string {
	if !strings.HasSuffix(strings.TrimRight(first, " \r"), " of RPC that terminated with:") || !rpcStatusNotOK(text) {
		return ""
	}
	w := text[:min(len(text), maxRPCBlock)]
	i := strings.Index(w, "status = StatusCode.")
	h := strings.TrimSpace(FirstLine(w[i:]))
	if j := strings.Index(w, "details = "); j >= 0 {
		h += " … " + strings.TrimSpace(FirstLine(w[j:]))
	}
	return h
}

// statusNames are the canonical codes of gRPC's and Abseil's status that
// say a call failed, as absl::Status's ToString and Triton Inference
// Server's errors open a line with them ("UNAVAILABLE: Not found: unable
// to load shared library: ...", "INTERNAL: ...", "INVALID_ARGUMENT:
// ..."); Triton's own short forms (INVALID_ARG, UNSUPPORTED) too.
var statusNames = [...]string{
	"UNAVAILABLE", "INTERNAL", "INVALID_ARGUMENT", "INVALID_ARG", "NOT_FOUND", "UNIMPLEMENTED", "UNSUPPORTED",
	"DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "PERMISSION_DENIED", "UNAUTHENTICATED",
	"DATA_LOSS", "ABORTED", "ALREADY_EXISTS", "OUT_OF_RANGE",
}

// statusNameLead reports whether l opens with a failed status's
// canonical code, a colon and a message (see statusNames), or is a status
// table's row whose state cell says so (statusTableRow). The first
// byte is tested before any name: it is what a routine line pays.
func statusNameLead(l string) bool {
	if len(l) < 8 {
		return false
	}
	switch l[0] {
	case 'U', 'I', 'N', 'D', 'R', 'F', 'P', 'A', 'O':
	case '|', 0xE2: // 0xE2: a box-drawn table's "│"
		return statusTableRow(l)
	default:
		return false
	}
	for _, n := range statusNames {
		if r, ok := strings.CutPrefix(l, n); ok {
			m, ok := strings.CutPrefix(r, ": ")
			return ok && hasLetter(m)
		}
	}
	return false
}

// A server prints the state of what it serves as a table, one row a
// model: Triton Inference Server's model table ("| Model | Version |
// Status |") gives each model's state, and for a model that failed to
// load the reason after it ("| resnet | 1 | UNAVAILABLE: Internal: unable
// to create TensorRT engine |", "UNAVAILABLE: Not found: unable to load
// shared library: ..."), as a box-drawn table (rich's "│") does in other
// programs. A row whose state cell is a failed status and a reason is a
// failure line carrying its reason. A state without a reason ("READY",
// "UNAVAILABLE" of a model not loaded yet), and the reason Triton gives a
// model it was asked to unload ("UNAVAILABLE: unloaded"), are not.

// maxTableCells bounds the cells of a row statusTableRow reads.
const maxTableCells = 16

// tableStates are the state words of a status table's cell that say the
// row's model failed, besides statusNames.
var tableStates = [...]string{"FAILED", "ERROR"}

// statusTableRow reports whether l is a status table's row whose state
// cell is a failed status with its reason (see above).
func statusTableRow(l string) bool {
	t := strings.TrimRight(l, " \t\r")
	bar := "|"
	if t[0] != '|' {
		bar = "│"
		if !strings.HasPrefix(t, bar) {
			return false
		}
	}
	if !strings.HasSuffix(t, bar) || len(t) < 2*len(bar) {
		return false
	}
	cells := t[len(bar) : len(t)-len(bar)]
	for n := 0; n < maxTableCells; n++ {
		cell, rest, more := strings.Cut(cells, bar)
		if n > 0 && failedStateCell(strings.TrimSpace(cell)) {
			// The first cell names the row; the state follows.
			return true
		}
		if !more {
			break
		}
		cells = rest
	}
	return false
}

// failedStateCell reports whether c, a table cell, is a failed status, a
// colon and the reason, other than an asked-for unload.
func failedStateCell(c string) bool {
	if len(c) < 8 || !isUpperByte(c[0]) {
		return false
	}
	r, ok := "", false
	for _, n := range statusNames {
		if r, ok = strings.CutPrefix(c, n); ok {
			break
		}
	}
	if !ok {
		for _, n := range tableStates {
			if r, ok = strings.CutPrefix(c, n); ok {
				break
			}
		}
	}
	if !ok {
		return false
	}
	reason, ok := strings.CutPrefix(r, ": ")
	return ok && hasLetter(reason) && !strings.HasPrefix(reason, "unload")
}

// statusTableRowLine reports whether l is a status table's row with a
// failed state (statusTableRow), behind statusNameLead's byte test.
func statusTableRowLine(l string) bool {
	return len(l) >= 8 && (l[0] == '|' || l[0] == 0xE2) && statusTableRow(l)
}

// A client that prints the error response it got often opens the line
// with the status's reason phrase, the fixed text HTTP gives each status
// (Go's net/http StatusText, Python's http.HTTPStatus phrases), and the
// server's message after a colon: "Bad Request: Requested token count
// exceeds the model's maximum context length of 8192 tokens", "Service
// Unavailable: no healthy upstream", "Too Many Requests: rate limit
// exceeded". Such a line with no level is a failed call. "Not Found: "
// is left out: a path that does not exist is what a server's routine
// warnings about stray requests print.

// reasonPhrases are the error statuses' reason phrases reasonPhraseLine
// reads.
var reasonPhrases = [...]string{
	"Bad Request", "Unauthorized", "Forbidden", "Payload Too Large", "Request Entity Too Large",
	"Unprocessable Entity", "Too Many Requests", "Internal Server Error", "Bad Gateway",
	"Service Unavailable", "Gateway Timeout",
}

// reasonPhraseLine reports whether l opens with an error status's reason
// phrase, a colon and a message with a letter in it (see above).
func reasonPhraseLine(l string) bool {
	switch l[0] { // the byte test: the phrases' first bytes
	case 'B', 'U', 'F', 'P', 'R', 'T', 'I', 'S', 'G':
	default:
		return false
	}
	for _, p := range reasonPhrases {
		if r, ok := strings.CutPrefix(l, p); ok {
			r, ok = strings.CutPrefix(r, ": ")
			return ok && hasLetter(r)
		}
	}
	return false
}
