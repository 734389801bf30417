package incident_test

import (
	"testing"
)

// A decode retraction is the scheduler's own answer to a full KV pool:
// it pushes a request back and runs it again, and every TP rank says so
// at the same moment. sglang's tuning guide calls about one a minute
// fine. One moment of retractions alone is no incident, in either
// release's wording (a DeepSeek-V3 benchmark's ranks; the newer wording
// as a simulator's server log and sglang's tuning guide quote it), nor
// are two moments minutes apart; retractions
// that come again within a minute (DeepSeek-R1 on sixteen ranks) are one
// warning, and a retraction with a real failure after it pages for that
// failure.
func TestRetractionsPageOnlyWhenTheyStorm(t *testing.T) {
	m := crashMatcher(t)
	decode := "[2025-01-06 02:58:41 TP0] Decode batch. #running-req: 2, #token: 307801, token usage: 1.00, gen throughput (token/s): 10.93, #queue-req: 0"
	quiet := [][]string{
		{
			decode,
			"[2025-01-06 02:58:44 TP0] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.0980 -> 0.9446",
			"[2025-01-06 02:58:44 TP5] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.0980 -> 0.9446",
			"[2025-01-06 02:58:44 TP7] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.0980 -> 0.9446",
			"[2025-01-06 02:58:45 TP2] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.0980 -> 0.9446",
		},
		{
			"[2026-05-24 03:51:45] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.1427 -> 0.3414",
		},
		{
			"[2026-05-24 03:51:45 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.9998 -> 1.0000",
			"[2026-05-24 03:56:52 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.9998 -> 1.0000",
		},
	}
	for _, lines := range quiet {
		if got := scanLines(t, m, lines); len(got) != 0 {
			t.Errorf("%q: want no incident, got %d:%s", lines[len(lines)-1], len(got), describe(got))
		}
	}
	storms := [][]string{
		{
			"[2025-03-07 21:49:33 TP13] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.1474 -> 0.1845",
			"[2025-03-07 21:49:33 TP12] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.1474 -> 0.1845",
			"[2025-03-07 21:49:45 TP9] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.0980 -> 0.1919",
			"[2025-03-07 21:49:45 TP11] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.0980 -> 0.1919",
		},
		{
			"[2026-05-24 03:51:45 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.9998 -> 1.0000",
			"[2026-05-24 03:52:10 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.1427 -> 0.3414",
		},
	}
	for _, lines := range storms {
		got := scanLines(t, m, lines)
		if len(got) != 1 || got[0].Record.Severity != "warning" || !slicesContains(got[0].Record.Tags, "retract") {
			t.Errorf("%q: want one warning of the retractions, got %d:%s", lines[0], len(got), describe(got))
		}
	}
	failed := append(quiet[0][1:],
		"[2025-01-06 02:58:45 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1800, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		"RuntimeError: Decode out of memory. Try to lower your batch size.")
	got := scanLines(t, m, failed)
	if len(got) == 0 || got[0].Record.Slug != "decode-out-of-memory" {
		t.Errorf("a retraction, then the decode's failure: want it led by decode-out-of-memory, got %d:%s", len(got), describe(got))
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
