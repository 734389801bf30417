package analysis

import (
	"strings"
	"testing"
)

// TestProbeUnavailable reads a 503 answer to a health, liveness or
// readiness endpoint in a framework's fields and in an access line, and
// leaves alone other statuses, other paths and numbers that hold 503.
func TestProbeUnavailable(t *testing.T) {
	for l, want := range map[string]bool{
		"response failed classification=Status code: 503 Service Unavailable latency=0 ms method=GET uri=/live version=HTTP/1.1": true,
		"response failed classification=Status code: 503 Service Unavailable latency=0 ms method=GET uri=/health":                true,
		`127.0.0.1:65166 - "GET /health HTTP/1.1" 503 Service Unavailable`:                                                       true,
		`"GET /v2/health/ready HTTP/1.1" 503`:       true,
		"request failed status=503 path=/v1/health": true,
		"response failed classification=Status code: 503 Service Unavailable latency=0 ms method=POST uri=/v1/completions": false,
		"response failed classification=Status code: 500 Internal Server Error latency=0 ms method=GET uri=/health":        false,
		"took 15030 ms method=GET uri=/health":   false,
		"status 503 for GET /healthcheck-report": false,
		"":                                       false,
	} {
		if got := probeUnavailable(l); got != want {
			t.Errorf("probeUnavailable(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestServerReady reads a server's word that it finished starting, and
// leaves alone a line that waits for it or denies it.
func TestServerReady(t *testing.T) {
	for l, want := range map[string]bool{
		"Application startup complete.":                                 true,
		"Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)": true,
		"The server is fired up and ready to roll!":                     true,
		"Worker is ready":                    true,
		"Server ready":                       true,
		"Waiting for the worker to be ready": false,
		"worker not ready yet":               false,
		"Initializing NIXL Connect.":         false,
		"already loaded":                     false,
	} {
		if got := serverReady(l); got != want {
			t.Errorf("serverReady(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzProbeUnavailable checks that probeUnavailable and serverReady never
// panic and that a probe's answer it reads holds its 503.
func FuzzProbeUnavailable(f *testing.F) {
	f.Add("response failed classification=Status code: 503 Service Unavailable method=GET uri=/live")
	f.Add(`"GET /health HTTP/1.1" 503`)
	f.Fuzz(func(t *testing.T, l string) {
		if probeUnavailable(l) && !strings.Contains(l, "503") {
			t.Fatalf("probeUnavailable(%q) without a 503", l)
		}
		_ = serverReady(l)
	})
}
