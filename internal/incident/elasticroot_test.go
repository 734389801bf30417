package incident_test

import (
	"strings"
	"testing"
)

// torch elastic's failure summary lists under "Failures:" the ranks that
// failed after the first, then under "Root Cause (first observed
// failure):" the rank that failed first. A paste that keeps the blocks
// and loses the ChildFailedError header above them splits them into one
// entry a rank. With no record of the report (left out of the catalog),
// the root cause's block leads, headed by its rank and exit code (the
// signal a negative code names), and the other ranks' blocks are listed
// in its incident. A block with no root cause after it is still alerted.
func TestTheRootCauseBlockLeadsTheSummary(t *testing.T) {
	m := matcherWithout(t, "torch-elastic-child-failed")
	block := func(n, rank, code, pid, tb string) []string {
		return []string{
			"[" + n + "]:",
			"  time      : 2024-03-05_07:01:51",
			"  host      : vmnuvocinpoc.internal.cloudapp.net",
			"  rank      : " + rank + " (local_rank: " + rank + ")",
			"  exitcode  : " + code + " (pid: " + pid + ")",
			"  error_file: <N/A>",
			"  traceback : " + tb,
		}
	}
	const see = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
	var four []string
	four = append(four, block("1", "1", "1", "69812", see)...)
	four = append(four, block("2", "2", "1", "69813", see)...)
	four = append(four, block("3", "3", "1", "69814", see)...)
	four = append(four, "------------------------------------------------------------", "Root Cause (first observed failure):")
	four = append(four, block("0", "0", "1", "69811", see)...)
	four = append(four, "============================================================")
	killed := []string{
		"Failures:",
		"  <NO_OTHER_FAILURES>",
		"------------------------------------------------------------",
		"Root Cause (first observed failure):",
		"[0]:",
		"  time      : 2025-05-21_15:43:03",
		"  host      : mlxlab115rp2n7682d40d9-20250521025625-6dyyd3-8nir8b-worker",
		"  rank      : 0 (local_rank: 0)",
		"  exitcode  : -9 (pid: 14750)",
		"  error_file: <N/A>",
		"  traceback : Signal 9 (SIGKILL) received by PID 14750",
		"============================================================",
	}
	for _, c := range []struct {
		name  string
		lines []string
		says  []string
	}{
		{"four ranks, rank 0 first", four, []string{"Root Cause (first observed failure): rank 0 (local_rank: 0)", "exitcode  : 1 (pid: 69811)"}},
		{"one rank killed", killed, []string{"Root Cause (first observed failure): rank 0 (local_rank: 0)", "exitcode  : -9 (pid: 14750) (killed by SIGKILL)"}},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.ID != "" {
			t.Errorf("%s: want one incident no record names, got %d:%s", c.name, len(got), describe(got))
			continue
		}
		for _, s := range c.says {
			if !strings.Contains(got[0].Headline, s) {
				t.Errorf("%s: headline %q does not say %q", c.name, got[0].Headline, s)
			}
		}
	}
	if got := scanLines(t, m, block("1", "1", "1", "69812", see)); len(got) != 1 || !leadsWith(got[0], "exitcode  : 1 (pid: 69812)") {
		t.Errorf("a block alone: want it alerted by its exit code, got %d:%s", len(got), describe(got))
	}
}
