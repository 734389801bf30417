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
		// A poll of a health or readiness endpoint while the server starts.
		`2025-04-09 12:04:01,007 - INFO - HTTP Request: GET http://192.168.50.13/health "HTTP/1.1 503 Service Unavailable"`: false,
		`INFO:httpx:HTTP Request: GET http://127.0.0.1:8000/v1/health/ready?verbose=1 "HTTP/1.1 503 Service Unavailable"`:   false,
		`INFO:httpx:HTTP Request: GET http://w:30000/health_generate "HTTP/1.1 503 Service Unavailable"`:                    false,
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

// TestHTTPStatusFailure reads a request's failure with the error status
// it got, in httpx's raise_for_status words (alone too: its "error" is
// the failure word; sglang's slime rollout, a bot relaying the error)
// and after a status label that ends the line (sglang's disaggregation
// warm-up, axios's "Request failed with status code"), and leaves silent
// a success, a failure without a status, a status the line goes on
// after, a retry, an optional file skipped and a 4xx-looking number that
// is no status.
func TestHTTPStatusFailure(t *testing.T) {
	for l, want := range map[string]bool{
		"Prefill disaggregation mode warm Up Failed, status code: 400":                                                                                                                   true,
		"http_utils.py:186 - Error: Client error '403 Forbidden' for url 'http://xxx/generate'":                                                                                          true,
		"request failed: Server error '503 Service Unavailable' for url 'http://w:8000/generate'":                                                                                        true,
		"API Error: Server error '500 Internal Server Error' for url 'http://bot-core:8000/api/v1/config/guild/1/reset'":                                                                 true,
		"Client error '403 Forbidden' for url 'http://xxx/generate'":                                                                                                                     true,
		"- `3` x `Server error '503 Service Unavailable' for url 'http://localhost:8000/chat' For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/503`": true,
		"Request failed with status code 503":                                                                                                                                            true,
		"Upload failed with status_code=502":                                                                                                                                             true,
		"health check failed (HTTP status: 500).":                                                                                                                                        true,

		"Warmup finished, status code: 200":                                                                   false,
		"request failed: connection reset":                                                                    false,
		"request failed with status code 503, retrying in 2s":                                                 false,
		"Request failed with status code 503, will retry":                                                     false,
		"Failed to fetch optional file generation_config.json, status code: 404, skipping":                    false,
		"Failed to fetch optional file, status code: 404 (optional)":                                          false,
		"Server error '200 OK' for url 'http://x/'":                                                           false,
		"failed requests: 0, tokens: 404":                                                                     false,
		"failed with substatus 503":                                                                           false,
		"failed, status code 4040":                                                                            false,
		"request failed: Server error '503 Service Unavailable' for url 'http://w:8000/generate' (attempt 3)": false,
		// An attempt below its bound, and a HEAD probe of a file.
		"[2026-05-28 00:11:09 TP1] Prefill register attempt 1/5 failed: status 503": false,
		"common_download_file_single_online: HEAD failed, status: 404":              false,
		"[2026-05-28 00:11:09 TP1] Prefill register attempt 5/5 failed: status 503": true,
		"": false,
	} {
		if got := httpStatusFailure(l); got != want {
			t.Errorf("httpStatusFailure(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzHTTPStatusFailure checks that httpStatusFailure never panics and
// says true only of a line with a failure word and either httpx's end
// or a status at its end.
func FuzzHTTPStatusFailure(f *testing.F) {
	for _, s := range []string{
		"warm Up Failed, status code: 400",
		"Error: Client error '4",
		"failed status",
		"rror '",
		"failed status 5",
		"failed=500",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if httpStatusFailure(s) && (!failureVerb(s) || !httpStatusEnd(s) && !httpxMessageEnd(s)) {
			t.Fatalf("httpStatusFailure(%q) without a failure word or a status", s)
		}
	})
}

// TestRequestsErrorLine reads the message of requests' HTTPError, as
// requests' raise_for_status words it ("%s Client Error: %s for url: %s")
// and as huggingface_hub adds its request id (IBM/unitxt#837), and no
// status line whose word disagrees with its class or that says nothing
// after it.
func TestRequestsErrorLine(t *testing.T) {
	for l, want := range map[string]bool{
		"404 Client Error: Not Found for url: https://huggingface.co/x/resolve/main/config.json":           true,
		"503 Server Error: Service Unavailable for url: http://localhost:30000/generate":                   true,
		"403 Client Error. (Request ID: Root=1-6645c5b8-2237f00314bba9e420fba48f;11768b56-c164-4fc7-81ef)": true,
		"404 Server Error: Not Found for url: http://x":                                                    false,
		"500 Client Error: x":           false,
		"404 Not Found":                 false,
		"400 Client Error: ":            false,
		"2024 Client Error: x":          false,
		"404 Client Errors are retried": false,
	} {
		if got := requestsErrorLine(l); got != want {
			t.Errorf("requestsErrorLine(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzRequestsErrorLine: requestsErrorLine never panics and reads only a
// line that opens with a client or server error status.
func FuzzRequestsErrorLine(f *testing.F) {
	for _, s := range []string{"404 Client Error: Not Found for url: https://x", "403 Client Error. (Request ID: Root=1)", "500 Server Error: "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if requestsErrorLine(l) && l[0] != '4' && l[0] != '5' {
			t.Fatalf("requestsErrorLine(%q)", l)
		}
	})
}
