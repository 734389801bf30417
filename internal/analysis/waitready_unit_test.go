package analysis

import (
	"strings"
	"testing"
)

// TestWaitingLine reads launchers' waiting lines and no other line.
func TestWaitingLine(t *testing.T) {
	for m, want := range map[string]bool{
		"Waiting for shard 0 to be ready...":                          true,
		"Waiting for shard to be ready... rank=3":                     true,
		"Waiting for 1 local, 0 remote core engine proc(s) to start.": true,
		"waiting for server to become available":                      true,
		"Waiting for the next request":                                false,
		"Shard ready in 72.12s rank=0":                                false,
		"Still waiting for shard 0 to be ready":                       false,
		"Waiting for " + strings.Repeat("x", 200) + " to be ready":    false,
	} {
		if got := waitingLine(m); got != want {
			t.Errorf("waitingLine(%q) = %v, want %v", m, got, want)
		}
	}
	if k := string(waitKey(nil, "Waiting for shard to be ready... rank=12")); k != "Waiting for shard to be ready" {
		t.Errorf("waitKey = %q", k)
	}
}

// FuzzWaitKey: waitKey never panics, keeps no digit and is no longer than
// its line.
func FuzzWaitKey(f *testing.F) {
	for _, s := range []string{"Waiting for shard to be ready... rank=0", "Waiting for shard 0 to be ready...", "waiting for server to become available"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, m string) {
		_ = waitingLine(m)
		k := waitKey(nil, m)
		if len(k) > len(m) || strings.ContainsAny(string(k), "0123456789") {
			t.Fatalf("waitKey(%q) = %q", m, k)
		}
	})
}
