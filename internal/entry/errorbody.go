package entry

import (
	"encoding/json"
	"strconv"
	"strings"
)

// An API error body printed alone on a line. An OpenAI-compatible server
// (sglang, vLLM, a gateway in front of them) answers a failed request with
// a JSON object that names the error, and a client, a benchmark or a
// reporter prints that body as it came:
//
//	{"object":"error","message":"...","type":"BadRequestError","param":null,"code":400}
//	{"error":{"message":"...","type":"invalid_request_error","param":null,"code":null}}
//
// A streamed response carries it as a server-sent event, "data: {...}".
// The body has no level and no time: it is the request's failure itself.
// parseErrorBody reads it as an ERROR record whose message is the error's
// exception line, "Type: message" when its type is an exception class
// name, so that the entry carries it as a bare exception of that type.

// errorBody is what an error body may hold; encoding/json matches the keys
// without regard to case.
type errorBody struct {
	Object  string          `json:"object"`
	Message *string         `json:"message"`
	Type    json.RawMessage `json:"type"`
	Code    json.RawMessage `json:"code"`
	Error   json.RawMessage `json:"error"`
}

// parseErrorBody matches a JSON object on one line that is an API's error
// body: "object" is "error" with a "message", or "error" is an object with
// a "message"; and a "type" or a "code" says which error. The header it
// returns has level ERROR, no time, and the message errorBodyMessage
// builds.
func parseErrorBody(s string) (header, bool) {
	t := strings.TrimRight(s, " \t")
	if len(t) < 2 || len(t) > maxKeyValueLine || t[len(t)-1] != '}' || !strings.Contains(t, `"message"`) {
		return header{}, false
	}
	var b errorBody
	if json.Unmarshal([]byte(t), &b) != nil {
		return header{}, false
	}
	if !strings.EqualFold(b.Object, "error") || b.Message == nil {
		// OpenAI's own shape nests the error.
		var inner errorBody
		if len(b.Error) == 0 || b.Error[0] != '{' || json.Unmarshal(b.Error, &inner) != nil || inner.Message == nil {
			return header{}, false
		}
		b = inner
	}
	typ, code := jsonScalar(b.Type), jsonScalar(b.Code)
	if typ == "" && code == "" {
		return header{}, false
	}
	msg := errorBodyMessage(strings.TrimRight(*b.Message, "\n"), typ, code)
	if msg == "" {
		return header{}, false
	}
	return header{format: FormatJSON, ranks: NoRanks, level: LevelError, msg: msg}, true
}

// errorBodyMessage is the message of an error body: "Type: message" when
// typ reads as an exception class (BadRequestError, InternalServerError),
// else "Error <code>: message" or "<type>: message" as the body names it.
func errorBodyMessage(msg, typ, code string) string {
	if msg == "" {
		return ""
	}
	if typ != "" {
		if _, _, ok := parseBareException(typ); ok && strings.IndexByte(typ, ' ') < 0 {
			return typ + ": " + msg
		}
	}
	if code != "" {
		head := "Error " + code
		if typ != "" {
			head += " (" + typ + ")"
		}
		return head + ": " + msg
	}
	return "Error (" + typ + "): " + msg
}

// maxBodyField bounds a type or code an error body names.
const maxBodyField = 64

// jsonScalar is a JSON string or number as text, "" for anything else
// (null, an object) or one longer than maxBodyField.
func jsonScalar(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v string
	switch raw[0] {
	case '"':
		if json.Unmarshal(raw, &v) != nil {
			return ""
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return ""
		}
		v = strconv.FormatFloat(f, 'f', -1, 64)
	default:
		return ""
	}
	v = strings.TrimSpace(v)
	if len(v) > maxBodyField || strings.ContainsAny(v, "\n\r") {
		return ""
	}
	return v
}
