package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// TestPlatformExitStatus alerts a hosting platform's report that the
// server's container exited with a non-zero code, its reason the cut tail
// of the container's log (Inference Endpoints, text-generation-inference
// #3317; Spaces' runtime errors of facebook/MusicGen and of the
// hallucinations leaderboard), as critical, headed by the bare line before
// it that says what failed; and leaves silent a zero code, a code without
// the platform's reason, and an IDE's or a runner's own exit lines.
func TestPlatformExitStatus(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"an endpoint that failed to start", "[Server message]Endpoint failed to start\n" +
			`Exit code: 1. Reason: :"backends/v3/src/client/mod.rs","line_number":45,"span":{"batch_id":"Some(69)","name":"clear_cache"}}` + "\n",
			`[Server message]Endpoint failed to start … Exit code: 1. Reason: :"backends/v3/src/client/mod.rs"`},
		{"a space's runtime error, a warning's tail", "Exit code: 1. Reason: ib/python3.9/site-packages/torchaudio/compliance/kaldi.py:22: UserWarning: Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at ../torch/csrc/utils/tensor_numpy.cpp:84.)\n",
			"Exit code: 1. Reason: ib/python3.9/site-packages/torchaudio/compliance/kaldi.py:22"},
		{"a space's runtime error, a message's tail", "Exit code: 1. Reason: nection and try again or make sure your Internet connection is on.\n",
			"Exit code: 1. Reason: nection and try again"},
		{"a zero code", "Exit code: 0. Reason: completed\n", ""},
		{"a code without the platform's reason", "Exit code: 1\n", ""},
		{"an IDE's line for a clean exit", "Process finished with exit code 0\n", ""},
		{"prose", "Exit code: see the table below. Reason: unknown\n", ""},
	} {
		got := analyzeStream(defaultMatcher(t), c.text)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %d failures, first %q", c.name, len(got), got[0].Headline)
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != "critical" || !strings.HasPrefix(got[0].Headline, c.want) || got[0].Signal != analysis.SignalLevel {
			t.Errorf("%s: got %d failures, want one critical headed %q...", c.name, len(got), c.want)
			for _, d := range got {
				t.Logf("  %s %s %q", d.Signal, d.Severity, d.Headline)
			}
		}
	}
}
