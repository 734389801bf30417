package analysis

import "testing"

// TestRustNetFailure reads a Rust client's error (reqwest's, hyper's,
// tonic's, the standard library's I/O error) after a program's words for
// what failed, in Display and Debug forms and at any level, and leaves
// silent a retry, a start-up wait, and the same forms without a failure.
func TestRustNetFailure(t *testing.T) {
	for l, want := range map[string]bool{
		`HTTP health check failed for grpc://10.0.0.2:31001: reqwest::Error { kind: Builder, url: "grpc://10.0.0.2:31001/health", source: BadScheme }`:                                                true,
		`gRPC health RPC error for grpc://10.0.0.2:31001: Status { code: Unknown, message: "h2 protocol error: http2 error", source: Some(tonic::transport::Error(Transport, hyper::Error(Http2))) }`: true,
		"Failed to send request to worker http://10.0.0.3:8000: error sending request for url (http://10.0.0.3:8000/generate)":                                                                        true,
		"Request to prefill failed: error trying to connect: tcp connect error: Connection refused (os error 111)":                                                                                    true,
		"could not reach the metadata server: Connection refused (os error 111)":                                                                                                                      true,
		"Worker http://w:8000 returned an error: HTTP status server error (503 Service Unavailable) for url (http://w:8000/generate)":                                                                 true,
		"shard connection failed: hyper::Error(Connect, ConnectError(\"tcp connect error\", Os { code: 111 }))":                                                                                       true,

		"Worker http://0.0.0.0:31000 health check is pending with error: error sending request for url (http://0.0.0.0:31000/health)": false,
		"Request failed: error sending request for url (http://w:8000/generate), retrying in 2s":                                      false,
		"Connection refused (os error 111)":                                  false,
		"Waiting for worker: Connection refused (os error 111)":              false,
		"Serving on http://0.0.0.0:30000 (os error page disabled)":           false,
		"Loaded 3 workers (failed: 0) from config { path: \"router.toml\" }": false,
		"": false,
	} {
		got := rustNetFailure(l)
		if got != want {
			t.Errorf("rustNetFailure(%q) = %v, want %v", l, got, want)
		}
		if got && !rustNetCandidate(l) {
			t.Errorf("rustNetCandidate(%q) = false", l)
		}
	}
}

// TestRustNetSignal checks that the line is a failure in a tracing WARN
// line and at INFO, and that the router's start-up wait stays silent.
func TestRustNetSignal(t *testing.T) {
	for text, want := range map[string]bool{
		`2025-10-01T10:00:00.123456Z  WARN sglang_router_rs::core::worker: src/core/worker.rs:615: HTTP health check failed for grpc://10.0.0.2:31001: reqwest::Error { kind: Builder, url: "grpc://10.0.0.2:31001/health", source: BadScheme }`: true,
		"2025-10-01T10:00:00.123456Z  INFO router::proxy: src/proxy.rs:88: Request to prefill failed: error trying to connect: tcp connect error: Connection refused (os error 111)":                                                             true,
		"2025-10-01T10:00:00.123456Z  INFO sglang_router_rs::core::worker: src/core/worker.rs:615: Worker http://0.0.0.0:31000 health check is pending with error: error sending request for url (http://0.0.0.0:31000/health)":                  false,
	} {
		s, _ := signalledOne(t, text)
		if got := s != ""; got != want {
			t.Errorf("%q: signal %q, want %v", text, s, want)
		}
	}
}

// FuzzRustNetErrorAt checks that rustNetErrorAt returns an index inside
// its line or -1, that rustNetCandidate holds of every line rustNetFailure
// says true of, and that neither panics.
func FuzzRustNetErrorAt(f *testing.F) {
	for _, s := range []string{
		"health check failed: reqwest::Error { kind: Request }",
		"failed: Connection refused (os error 111)",
		"(os error ",
		"error trying to connect: ",
		"failed: Status {",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at := rustNetErrorAt(s)
		if at < -1 || at >= len(s) {
			t.Fatalf("rustNetErrorAt(%q) = %d", s, at)
		}
		if rustNetFailure(s) && !rustNetCandidate(s) {
			t.Fatalf("rustNetFailure(%q) without rustNetCandidate", s)
		}
	})
}

// TestRustNetFamily checks the families of a Rust client's errors: a
// request that did not get through is the network's, one reqwest could
// not build is the configured address's; and c10d's store peer that
// closed its socket is a dropped connection.
func TestRustNetFamily(t *testing.T) {
	for msg, want := range map[string]string{
		"Request to prefill failed: error trying to connect: tcp connect error: Connection refused (os error 111)":                       FamilyNetwork,
		"Failed to send request to worker http://10.0.0.3:8000: error sending request for url (http://10.0.0.3:8000/generate)":           FamilyNetwork,
		`HTTP health check failed for grpc://h:31001: reqwest::Error { kind: Builder, url: "grpc://h:31001/health", source: BadScheme }`: FamilyConfig,
		"[c10d] recvValue failed on SocketImpl(fd=61): Failed to recv, got 0 bytes. Connection was likely closed.":                       FamilyNetwork,
	} {
		if got := familyOf("", msg); got != want {
			t.Errorf("familyOf(%q) = %q, want %q", msg, got, want)
		}
	}
	if got := refineFamily(FamilyNetwork, "failed to recv, got 0 bytes. connection was likely closed."); got != FamilyDropped {
		t.Errorf("refineFamily: %q, want %q", got, FamilyDropped)
	}
}
