package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// streamFailures returns the headlines of the failures AnalyzeStream finds
// in text, read as one stream.
func streamFailures(t *testing.T, text string) []string {
	t.Helper()
	an := analysis.New(defaultMatcher(t))
	var st analysis.Stream
	var got []string
	for _, e := range entries(text) {
		if d, ok := an.AnalyzeStream(&st, &e); ok {
			got = append(got, d.Headline)
		}
	}
	return got
}

// TestProbeUnavailableWhileStarting lets a health, liveness or readiness
// probe's 503 answer pass while the server starts (Dynamo's tower-http
// ERROR line for GET /live and for GET /health, from two deployments), and
// still alerts the same answer to a request, the probe's 503s once the
// server said it is ready, and those that go on past any start-up.
func TestProbeUnavailableWhileStarting(t *testing.T) {
	const live = "2025-11-13T12:45:21.221971Z ERROR http-request: tower_http::trace::on_failure: response failed classification=Status code: 503 Service Unavailable latency=0 ms method=GET uri=/live version=HTTP/1.1\n"
	const health = "2025-11-13T12:45:31.221971Z ERROR http-request: tower_http::trace::on_failure: response failed classification=Status code: 503 Service Unavailable latency=0 ms method=GET uri=/health\n"
	for _, c := range []struct {
		name, text string
		want       int
	}{
		{"probe while starting", live + "2025-11-13T12:45:21.404051Z  INFO main.init: Initializing NIXL Connect.\n" + health, 0},
		{"health probe while starting", health + health, 0},
		{"request path", strings.Replace(live, "uri=/live", "uri=/v1/chat/completions", 1), 1},
		{"probe after ready", live + "2025-11-13T12:46:00.000000Z  INFO dynamo_runtime: Worker is ready\n" + health, 1},
		{"probe past start-up", live + strings.Replace(health, "12:45:31", "13:15:31", 1), 1},
		{"waiting is no ready", live + "2025-11-13T12:46:00.000000Z  INFO main: waiting until the worker is ready\n" + health, 0},
	} {
		if got := streamFailures(t, c.text); len(got) != c.want {
			t.Errorf("%s: %d failures %q, want %d", c.name, len(got), got, c.want)
		}
	}
}
