package incident_test

import (
	"fmt"
	"testing"
)

// TestAnUnreachablePeerIsOneIncident: a process whose server or store is
// unreachable fails every call that needs it, and each call logs a
// generic line of its own in the words of whichever client made it. One
// failure, one incident, led by the first line; a line that says
// something else stays its own incident, and so does the same failure
// after a stretch of healthy serving.
func TestAnUnreachablePeerIsOneIncident(t *testing.T) {
	m := crashMatcher(t)
	line := func(at, logger, msg string) string {
		return "2025-06-01 " + at + ",120 - " + logger + " - ERROR - " + msg
	}
	calls := []string{
		line("12:00:01", "app.watcher", "Failed to watch deployments: failed to connect to the controller"),
		line("12:00:01", "app.metrics", "Error pushing metrics: [Errno 111] Connection refused"),
		line("12:00:02", "app.sync", "Error running sync_state: the request to the controller timed out after 3 tries"),
		line("12:00:02", "app.registry", "Heartbeat to the registry failed: connection reset during the handshake"),
		line("12:00:03", "app.queue", "Poll of the job queue failed: timed out"),
	}
	for n := 2; n <= len(calls); n++ {
		if got := scanLines(t, m, calls[:n]); len(got) != 1 || got[0].Match.Text != "Failed to watch deployments: failed to connect to the controller" {
			t.Errorf("the first %d calls: want one incident led by the first, got %d:%s", n, len(got), describe(got))
		}
	}
	other := append([]string{}, calls[:2]...)
	other = append(other, line("12:00:02", "app.loader", "Error loading plugin: acme.register() takes 2 positional arguments but 3 were given"))
	if got := scanLines(t, m, other); len(got) != 2 {
		t.Errorf("another failure among them: want two incidents, got %d:%s", len(got), describe(got))
	}
	for _, tt := range []struct {
		name string
		a, b string
		want int
	}{
		{"two peers named", "Error: Failed to connect to the store at store-0.svc:50051: Connection refused",
			"Error: Failed to connect to the queue at 10.0.0.9:4222: Connection refused", 2},
		{"one peer named twice", "Error: Failed to connect to the store at store-0.svc:50051: Connection refused",
			"Error: Request to http://store-0.svc:50051/v1/keys failed: timed out", 1},
		{"a time is no peer", "Error: Sync at 12:00:01 failed: Connection refused",
			"Error: Failed to connect to the store at store-0.svc:50051: Connection refused", 1},
	} {
		got := scanLines(t, m, []string{line("12:00:01", "app.client", tt.a), line("12:00:01", "app.client", tt.b)})
		if len(got) != tt.want {
			t.Errorf("%s: %d incidents, want %d:%s", tt.name, len(got), tt.want, describe(got))
		}
	}
	apart := []string{calls[0]}
	for k := 0; k < 20; k++ {
		apart = append(apart, fmt.Sprintf("2025-06-01 12:%02d:00,000 - app.server - INFO - served 120 requests", 10+k))
	}
	apart = append(apart, line("12:40:01", "app.metrics", "Error pushing metrics: [Errno 111] Connection refused"))
	if got := scanLines(t, m, apart); len(got) != 2 {
		t.Errorf("after healthy serving: want two incidents, got %d:%s", len(got), describe(got))
	}
}
