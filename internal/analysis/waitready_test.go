package analysis_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
)

// waitLines prints TGI's launcher waiting for its shards, as it does every
// ten seconds, from start for span, one line per rank each time (format
// as a pre-ranks launcher prints it when ranks is 0,
// huggingface/text-generation-inference#81; with the shard manager's
// rank field otherwise, #2139 and #2728).
func waitLines(start time.Time, span time.Duration, ranks int) string {
	var b strings.Builder
	for t := start; !t.After(start.Add(span)); t = t.Add(10 * time.Second) {
		stamp := t.UTC().Format("2006-01-02T15:04:05.000000Z")
		if ranks == 0 {
			fmt.Fprintf(&b, "%s  INFO text_generation_launcher: Waiting for shard 0 to be ready...\n", stamp)
			continue
		}
		for r := range ranks {
			fmt.Fprintf(&b, "%s  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=%d\n", stamp, r)
		}
	}
	return b.String()
}

// TestWaitingLauncherHang: a launcher that repeats its waiting line for
// longer than any load takes, by the lines' own times, with nothing else
// in between, is a hang (one, critical, headed by the line and how long
// it repeated); a start that becomes ready after minutes of waiting, a
// few waiting lines, a wait that other lines interrupt, and waiting lines
// with no time of their own stay silent.
func TestWaitingLauncherHang(t *testing.T) {
	start := time.Date(2024, 6, 28, 11, 28, 38, 0, time.UTC)
	args := "2023-02-20T16:45:10.672340Z  INFO text_generation_launcher: Starting shard 0\n"
	for _, c := range []struct {
		name, text, want string
	}{
		{"one shard waiting 31 minutes", args + waitLines(start, 31*time.Minute, 0), "'Waiting for shard 0 to be ready...' repeated for 30m"},
		{"two ranks waiting 40 minutes", waitLines(start, 40*time.Minute, 2), "'Waiting for shard to be ready... rank=0' repeated for 30m"},
		{"ready after five minutes", waitLines(start, 5*time.Minute, 2) +
			"2024-06-28T11:33:48.100639Z  INFO shard-manager: text_generation_launcher: Shard ready in 310.2s rank=0\n", ""},
		{"two lines, as the paste of a stuck start keeps them", args + waitLines(start, 10*time.Second, 0), ""},
		{"interrupted by progress", waitLines(start, 20*time.Minute, 0) +
			"2024-06-28T11:48:40.000000Z  INFO text_generation_launcher: Downloaded weights in 1180s\n" +
			waitLines(start.Add(20*time.Minute+10*time.Second), 20*time.Minute, 0), ""},
		{"no times of their own", strings.Repeat("Waiting for shard 0 to be ready...\n", 400), ""},
	} {
		got := analyzeStream(defaultMatcher(t), c.text)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %d failures, first %q", c.name, len(got), got[0].Headline)
			}
			continue
		}
		if len(got) != 1 || got[0].Signal != analysis.SignalHang || got[0].Severity != "critical" || got[0].Triage.Family != analysis.FamilyHang ||
			!strings.Contains(got[0].Headline, c.want) {
			t.Errorf("%s: got %d failures, want one hang headed %q", c.name, len(got), c.want)
			for _, d := range got {
				t.Logf("  %s %s %q", d.Signal, d.Severity, d.Headline)
			}
		}
	}
}
