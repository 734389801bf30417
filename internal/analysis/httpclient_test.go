package analysis

import "testing"

// TestHTTPXServerError reads httpx's INFO line for a response with a
// server error status, and leaves silent its lines for a success, a
// redirect and a client error, and other lines that name a status.
func TestHTTPXServerError(t *testing.T) {
	for text, want := range map[string]bool{
		`2025-04-09 12:04:36,150 - INFO - HTTP Request: POST http://192.168.50.13/v1/chat/completions "HTTP/1.1 503 Service Unavailable"`: true,
		`INFO:httpx:HTTP Request: POST http://127.0.0.1:30000/generate "HTTP/1.1 500 Internal Server Error"`:                              true,
		`2025-04-09 12:04:36,150 - httpx - INFO - HTTP Request: GET https://example.org/v1/models "HTTP/2 502 Bad Gateway"`:               true,

		`2025-04-09 12:04:36,150 - INFO - HTTP Request: POST http://192.168.50.13/v1/chat/completions "HTTP/1.1 200 OK"`: false,
		`INFO:httpx:HTTP Request: GET http://127.0.0.1:30000/health_generate "HTTP/1.1 404 Not Found"`:                   false,
		`INFO:httpx:HTTP Request: GET http://h/ "HTTP/1.1 307 Temporary Redirect"`:                                       false,
		`2025-04-09 12:04:36,151 - INFO - Retrying request to /chat/completions in 0.384627 seconds`:                     false,
		`2025-04-09 12:04:36,151 - INFO - HTTP Request: POST http://h/x "HTTP/1.1 5000 Odd"`:                             false,
	} {
		s, _ := signalledOne(t, text)
		if got := s != ""; got != want {
			t.Errorf("%q: signal %q, want %v", text, s, want)
		}
	}
}

// FuzzHTTPXServerError checks that httpxServerError never panics and says
// true only of a line that opens with httpx's words.
func FuzzHTTPXServerError(f *testing.F) {
	for _, s := range []string{
		`HTTP Request: POST http://h/x "HTTP/1.1 503 Service Unavailable"`,
		`HTTP Request: GET http://h/ "HTTP/`,
		`HTTP Request: "HTTP/1.1 5`,
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if httpxServerError(s) && len(s) < len(httpxRequestPrefix) {
			t.Fatalf("httpxServerError(%q) on a short line", s)
		}
	})
}
