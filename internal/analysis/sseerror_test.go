package analysis

import "testing"

// TestSSEError reads a streamed answer's event that carries the server's
// error, as a client printed it: TGI's string error behind a Python
// client's bytes (opea-project/GenAIInfra#487), an OpenAI-compatible
// server's error object (fr0ster/llm-agent#22; sglang's BadRequestError
// chunk as BerriAI/litellm#25505 quotes it); and leaves alone the
// answer's chunks, the stream's end, a null or empty error, and an
// answer whose text holds the word.
func TestSSEError(t *testing.T) {
	for l, want := range map[string]string{
		"data: b'{\"error\":\"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 1887 `inputs` tokens and 1024 `max_new_tokens`\",\"error_type\":\"validation\"}'": "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 1887 `inputs` tokens and 1024 `max_new_tokens`",
		`data: {"error":{"message":"...","type":"server_error"}}`:                                                 "...",
		`data: {"error": {"type": "BadRequestError", "code": 400, "message": "The input is too long"}}`:           "The input is too long",
		`data: {"error": {"type": "BadRequestError", "code": 400}}`:                                               "",
		`data: {"id":"cmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}}]}`: "-",
		`data: {"id":"cmpl-1","choices":[{"delta":{"content":"the \"error\" key is optional"}}]}`:                 "-",
		`data: [DONE]`:                           "-",
		`data: {"error": null}`:                  "-",
		`data: {"error": ""}`:                    "-",
		`data: {"error": {}}`:                    "-",
		`data: {"error": "x"`:                    "-",
		`data: b'{"error": "cut`:                 "-",
		`metadata: {"error": "not a data line"}`: "-",
	} {
		msg, ok := sseErrorMessage(l)
		if want == "-" {
			if ok {
				t.Errorf("sseErrorMessage(%q) = %q, an error", l, msg)
			}
			continue
		}
		if !ok || msg != want {
			t.Errorf("sseErrorMessage(%q) = %q, %v; want %q", l, msg, ok, want)
		}
	}
}

// FuzzSSEError: sseErrorMessage never panics and reads only a data line.
func FuzzSSEError(f *testing.F) {
	for _, s := range []string{
		`data: {"error":{"message":"boom","type":"server_error"}}`,
		`data: b'{"error":"Input validation error","error_type":"validation"}'`,
		`data: [DONE]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if _, ok := sseErrorMessage(l); ok && (len(l) < len(sseDataPrefix) || l[:len(sseDataPrefix)] != sseDataPrefix) {
			t.Fatalf("sseErrorMessage(%q): an error on no data line", l)
		}
	})
}
