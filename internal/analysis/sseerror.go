package analysis

import (
	"encoding/json"
	"strings"
)

// A server that streams its answer as server-sent events and fails after
// it committed to the stream sends the failure as one more event: an
// OpenAI-compatible server's `data: {"error": {"message": "...", "type":
// "server_error"}}`, TGI's `data: {"error": "Input validation error: ...",
// "error_type": "validation"}`. A client that prints the events it got
// (a shell script's curl, a Python client printing each chunk as bytes,
// "data: b'{...}'") shows the failure only there, on a line with no level.
// sseError reads it: a data line whose payload is a JSON object with a
// top-level "error" that holds a message or an object. A chunk of the
// answer, "[DONE]", a null error and an answer whose text holds the word
// are not.

// sseDataPrefix opens a server-sent event's data line.
const sseDataPrefix = "data: "

// maxSSELine bounds the data line sseError decodes.
const maxSSELine = 16 << 10

// sseError reports whether l is a server-sent event's data line that
// carries an error (see above).
func sseError(l string) bool {
	_, ok := sseErrorMessage(l)
	return ok
}

// sseErrorMessage returns the message of the error a server-sent event's
// data line carries, "" when it holds none that is a string, and whether
// the line carries an error at all.
func sseErrorMessage(l string) (string, bool) {
	r, ok := strings.CutPrefix(l, sseDataPrefix)
	if !ok || len(r) > maxSSELine || !strings.Contains(r, `"error"`) {
		return "", false
	}
	r = strings.TrimSpace(r)
	if b, ok := strings.CutPrefix(r, "b'"); ok {
		// A Python client printed the event's bytes.
		r, ok = strings.CutSuffix(b, "'")
		if !ok {
			return "", false
		}
	}
	if r == "" || r[0] != '{' {
		return "", false
	}
	var ev map[string]json.RawMessage
	if json.Unmarshal([]byte(r), &ev) != nil {
		return "", false
	}
	raw, ok := ev["error"]
	if !ok {
		return "", false
	}
	var msg string
	if json.Unmarshal(raw, &msg) == nil {
		return msg, strings.TrimSpace(msg) != ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || len(obj) == 0 {
		return "", false
	}
	if m, ok := obj["message"]; ok && json.Unmarshal(m, &msg) == nil {
		return msg, true
	}
	return "", true
}
