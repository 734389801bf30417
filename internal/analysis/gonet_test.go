package analysis

import (
	"strings"
	"testing"
)

// TestGoNetFailure reads lines that report a failure with one of Go's
// network errors (net.OpError, net.DNSError, net/url's Error around the
// HTTP client's), as Ollama, Kubernetes' components, NATS and operators
// log them whatever their level, and leaves silent the same errors in a
// notice that retries, a readiness probe's, lines that only mention a
// network or a URL, and a Go error with no failure words before it.
func TestGoNetFailure(t *testing.T) {
	for msg, want := range map[string]bool{
		`request failed: Get "https://registry.ollama.ai/v2/library/llama3/manifests/8b": dial tcp 104.21.75.227:443: connect: bad file descriptor`: true,
		`request failed: Get \"https://registry.example/v2/x/manifests/latest\": dial tcp 10.0.0.1:443: i/o timeout`:                                true,
		`error pulling model: Head "https://blob.example/sha256-abc": dial tcp: lookup blob.example on 127.0.0.53:53: no such host`:                 true,
		`failed to list *v1.Pod: Get "https://10.96.0.1:443/api/v1/pods?limit=500": dial tcp 10.96.0.1:443: connect: connection refused`:            true,
		`Error trying to connect to route: dial tcp 10.0.0.2:6222: connect: no route to host`:                                                       true,
		`could not reach the frontend: Post "http://frontend:8000/v1/chat/completions": EOF`:                                                        true,
		`unable to fetch the model list: Get "https://hub.example/api/models": net/http: TLS handshake timeout`:                                     true,
		`failed to serve: listen tcp :8080: bind: address already in use`:                                                                           true,
		`connection failed: read tcp 10.0.0.1:5000->10.0.0.2:4222: read: connection reset by peer`:                                                  true,
		`Failed to resolve the registry: lookup registry.example: no such host`:                                                                     true,

		`part 3 attempt 0 failed: Get "https://blob.example/x": dial tcp 10.0.0.1:443: i/o timeout, retrying in 2s`:      false,
		`request failed: Get "https://x.example/": dial tcp 10.0.0.1:443: connect: connection refused; will retry`:       false,
		`Readiness probe failed: Get "http://10.0.0.9:8000/health": dial tcp 10.0.0.9:8000: connect: connection refused`: false,
		`Get "https://registry.example/v2/": dial tcp 10.0.0.1:443: connect: connection refused`:                         false,
		`listening on tcp 127.0.0.1:11434`:                                             false,
		`server config env="map[OLLAMA_HOST:http://0.0.0.0:11434 OLLAMA_DEBUG:false]"`: false,
		`Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)`:                false,
		`error rate 0.0, dial tcp pool warmed`:                                         false,
		`pulled "https://hub.example/x": done`:                                         false,
		`lookup table built: 3 entries, no error`:                                      false,
		`error budget: Get "https://x" took 3s`:                                        false,
		``:                                                                             false,
	} {
		if got := goNetFailure(msg); got != want {
			t.Errorf("goNetFailure(%q) = %v, want %v", msg, got, want)
		}
	}
}

// TestGoNetFailureAtInfo checks that an Ollama logfmt line at INFO that
// reports a registry request failing at the socket is a failure of its
// own, and its retry notice is none.
func TestGoNetFailureAtInfo(t *testing.T) {
	for text, want := range map[string]bool{
		`time=2024-11-21T14:45:50.689-08:00 level=INFO source=images.go:1020 msg="request failed: Get \"https://registry.example/v2/library/m/manifests/8b\": dial tcp 10.0.0.1:443: connect: network is unreachable"`:             true,
		`time=2024-11-21T14:45:50.689-08:00 level=INFO source=download.go:175 msg="sha256-abc part 3 attempt 1 failed: Get \"https://blob.example/x\": dial tcp 10.0.0.1:443: i/o timeout, retrying in 2s"`:                        false,
		`time=2024-11-21T14:45:50.689-08:00 level=INFO source=routes.go:1200 msg="Listening on 127.0.0.1:11434 (version 0.4.2)"`:                                                                                                   false,
		`time=2024-11-21T14:45:50.689-08:00 level=INFO source=types.go:123 msg="inference compute" id=GPU-1 library=cuda variant=v12 compute=8.9 driver=12.4 name="NVIDIA GeForce RTX 4090" total="23.6 GiB" available="22.1 GiB"`: false,
	} {
		es := assembleAll(text)
		if len(es) != 1 {
			t.Fatalf("%q: %d entries", text, len(es))
		}
		got := false
		if !quiet(&es[0]) {
			s, _ := signalOf(&es[0])
			got = s != ""
		}
		if got != want {
			t.Errorf("%q: signal %v, want %v", text, got, want)
		}
	}
}

// FuzzGoNetErrorAt checks that goNetErrorAt returns an index inside its
// line or -1, and never panics.
func FuzzGoNetErrorAt(f *testing.F) {
	for _, s := range []string{
		`failed: Get "https://x": dial tcp 1.2.3.4:443: connect: refused`,
		`Get \"http://x\": EOF`,
		`dial tcp: lookup x on 1.1.1.1:53: no such host`,
		`lookup x: `,
		`read tcp`,
		`"http`,
		`Get "http`,
		`2026/12/07 12:00:00 request failed: Get "https://registry.ollama.ai/v2/": dial tcp 104.21.75.227:443: connect: connection refused`,
		`2026/12/07 12:00:00 error reading from peer: read udp 10.0.0.1:5000->10.0.0.2:53: i/o timeout`,
		`listen unix /tmp/x.sock: bind: address already in use ........................`,
		`unable to write ip4 packet; read tcpx 1.2.3.4; dial  tcp 1.2.3.4:1: x; redial tcp 1:1: y`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at := goNetErrorAt(s)
		if at < -1 || at >= len(s) {
			t.Fatalf("goNetErrorAt(%q) = %d", s, at)
		}
		if want := goNetErrorAtEveryOp(s); at != want {
			t.Fatalf("goNetErrorAt(%q) = %d, every operation searched says %d", s, at, want)
		}
		_ = goNetFailure(s)
	})
}

// goNetErrorAtEveryOp is goNetErrorAt without goOpCandidate's byte test:
// the reference FuzzGoNetErrorAt and TestGoOpCandidateEveryPlace hold it to.
func goNetErrorAtEveryOp(s string) int {
	at := -1
	for _, i := range []int{goOpErrorAt(s, "dial "), goOpErrorAt(s, "read "), goOpErrorAt(s, "write "), goOpErrorAt(s, "listen "), goDNSErrorAt(s), goURLErrorAt(s)} {
		if i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	return at
}

// TestGoOpCandidateEveryPlace holds goNetErrorAt to goNetErrorAtEveryOp
// for every operation before every network, and near misses, at every
// place of lines of 34 to 100 bytes.
func TestGoOpCandidateEveryPlace(t *testing.T) {
	if len(goNetOps) != 4 {
		t.Fatalf("goNetErrorAtEveryOp names 4 operations, goNetOps holds %d", len(goNetOps))
	}
	var errs []string
	for _, op := range append(goNetOps[:], "dail ", "reads ", "wrote ", "listen", "x ") {
		for _, n := range append(goNetNetworks[:], "tc", "ud", "un", "i", "tcpx", "unknown") {
			errs = append(errs, op+n+" 1.2.3.4:5: connect: refused", op+n+": bind: x", "failed: "+op+n+" a->b: reset")
		}
	}
	for n := 34; n <= 100; n += 11 {
		for _, e := range errs {
			for at := 0; at+len(e) <= n; at++ {
				for _, fill := range []string{".", " "} {
					l := strings.Repeat(fill, at) + e
					l += strings.Repeat("-", n-len(l))
					if got, want := goNetErrorAt(l), goNetErrorAtEveryOp(l); got != want {
						t.Fatalf("goNetErrorAt(%q) = %d, every operation searched says %d", l, got, want)
					}
				}
			}
		}
	}
}
