package entry

import (
	"strings"
	"testing"
	"time"
)

// TestErrorBody checks that an API's error body alone on a line is an
// ERROR entry whose message is the error's exception line, and that JSON
// objects that are no error body stay what they were.
func TestErrorBody(t *testing.T) {
	for _, tt := range []struct {
		name, line string
		msg        string // "" when the line is no error body
		exc        string // the bare exception, "" for none
	}{
		{"sglang bad request", `{"object":"error","message":"The input is longer than the model's context length","type":"BadRequestError","param":null,"code":400}`,
			"BadRequestError: The input is longer than the model's context length", "BadRequestError"},
		{"server error with trailing blanks", `{"object":"error","message":"Internal server error: x","type":"InternalServerError","param":null,"code":500}  `,
			"InternalServerError: Internal server error: x", "InternalServerError"},
		{"openai nested, snake type", `{"error":{"message":"Invalid model name","type":"invalid_request_error","param":"model","code":null}}`,
			"Error (invalid_request_error): Invalid model name", ""},
		{"nested with a code only", `{"error":{"message":"rate limited","code":429}}`, "Error 429: rate limited", ""},
		{"escaped newlines kept", `{"object":"error","message":"Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nValueError: bad\n","type":"BadRequestError","code":400}`,
			"BadRequestError: Traceback (most recent call last):", "BadRequestError"},
		{"a streamed response's event", `data: {"error":{"message":"Requested token count exceeds the model's maximum context length","type":"BadRequestError","code":400}}`,
			"BadRequestError: Requested token count exceeds the model's maximum context length", "BadRequestError"},
		{"a streamed chunk", `data: {"id":"x","object":"chat.completion.chunk","choices":[]}`, "", ""},
		{"object error without type or code", `{"object":"error","message":"x"}`, "", ""},
		{"a chat completion", `{"id":"1","object":"chat.completion","choices":[{"message":{"role":"assistant","content":"hi"}}]}`, "", ""},
		{"a message field of something else", `{"message":"hello","type":"greeting"}`, "", ""},
		{"error as a string is a JSON log line's field", `{"error":"boom","message":"x","code":1}`, "", ""},
		{"not JSON", `{"object":"error","message":"x","code":400`, "", ""},
	} {
		es := assemble(t, Options{}, tt.line)
		if len(es) != 1 {
			t.Fatalf("%s: %d entries", tt.name, len(es))
		}
		e := es[0]
		if tt.msg == "" {
			if e.Format == FormatJSON || e.Level == LevelError {
				t.Errorf("%s: read as an error body: format %q level %q message %q", tt.name, e.Format, e.Level, e.Message)
			}
			continue
		}
		if e.Format != FormatJSON || e.Level != LevelError || bodyFirstLine(e.Message) != tt.msg {
			t.Errorf("%s: format %q level %q message %q, want json ERROR %q", tt.name, e.Format, e.Level, bodyFirstLine(e.Message), tt.msg)
		}
		if e.Raw != strings.TrimRight(tt.line, " ") && e.Raw != tt.line && !strings.HasPrefix(tt.line, "data: ") {
			t.Errorf("%s: raw %q", tt.name, e.Raw)
		}
		got := ""
		if e.Traceback != nil {
			got = e.Traceback.Outermost().Type
		}
		if got != tt.exc {
			t.Errorf("%s: exception %q, want %q", tt.name, got, tt.exc)
		}
	}
}

// bodyFirstLine is s up to its first newline.
func bodyFirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// FuzzParseErrorBody checks the error body reader: no input panics, a
// body it reads is an ERROR record with a one-line type or code, and its
// message is never empty.
func FuzzParseErrorBody(f *testing.F) {
	for _, s := range []string{
		`{"object":"error","message":"x","type":"BadRequestError","param":null,"code":400}`,
		`{"error":{"message":"x","type":"invalid_request_error","param":null,"code":null}}`,
		`{"error":{"message":"x","code":1e400}}`,
		`{"object":"ERROR","message":"a\nb","type":"T","code":-1}`,
		`{"object":"error","message":null,"type":"X"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		h, ok := parseErrorBody(line)
		if !ok {
			return
		}
		if h.level != LevelError || h.format != FormatJSON || h.msg == "" {
			t.Fatalf("parseErrorBody(%q) = level %q format %q message %q", line, h.level, h.format, h.msg)
		}
		if _, ok := parseHeader(line, time.Time{}, time.UTC); !ok {
			t.Fatalf("parseHeader(%q) does not read the error body parseErrorBody reads", line)
		}
	})
}
