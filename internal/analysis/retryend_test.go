package analysis

import "testing"

// TestRetryEnd reads the line of a client's last attempt in each way
// writers say it (the attempt numbered against its bound, what it spent,
// words), and leaves silent an attempt below its bound, a retry that
// carries on and a line that says nothing failed.
func TestRetryEnd(t *testing.T) {
	for l, want := range map[string]bool{
		"Generate request to http://localhost:8001 failed (attempt 3/3)":        true,
		"Attempt 5 of 5 failed: connection refused":                             true,
		"Failed to connect to the store at 10.0.0.1:29500 after 10 attempts":    true,
		"upload failed after 3 retries: 503 Service Unavailable":                true,
		"Failed to connect to GCS within 60 seconds. GCS may have been killed.": true,
		"Could not reach the metadata server, giving up":                        true,
		"request to http://w:8000/generate failed: retries exhausted":           true,

		"Generate request to http://localhost:8001 failed (attempt 1/3)": false,
		"Retrying request after 1 failed attempts":                       false,
		"attempt 3/3 succeeded":                                          false,
		"Connected to GCS within 2 seconds":                              false,
		"Failed to connect (retry 1/1)":                                  false,
		"Loaded the model after 3 attempts":                              false,
		"request failed (attempt 12/120), retrying in 5s":                false,
		"": false,
	} {
		if got := retryEnd(l); got != want {
			t.Errorf("retryEnd(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzRetryEnd checks that retryEnd never panics and says true only of a
// line with a failure word.
func FuzzRetryEnd(f *testing.F) {
	for _, s := range []string{
		"request failed (attempt 3/3)",
		"failed after 10 attempts",
		"failed to connect within 60 seconds",
		"attempt 9999999999/9999999999 failed",
		"giving up",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if retryEnd(s) && !failureVerb(s) {
			t.Fatalf("retryEnd(%q) without a failure word", s)
		}
	})
}
