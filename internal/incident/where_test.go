package incident_test

import (
	"strings"
	"testing"
)

// TestTheLibrarysLinesLeadAnExceptionThatSaysOnlyWhere: a Python
// exception whose message says only where a native library reported an
// error ("HCCL error in: ProcessGroupHCCL.cpp:64") is followed by the
// library's own lines that say what failed. One crash, one incident, led
// by the library's line, in either order; the exception alone is still
// alerted.
func TestTheLibrarysLinesLeadAnExceptionThatSaysOnlyWhere(t *testing.T) {
	m := crashMatcher(t)
	raised := func(msg string) []string {
		return []string{
			"Traceback (most recent call last):",
			`  File "/srv/train/dist.py", line 31, in setup`,
			"    dist.barrier()",
			`  File "/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py", line 3439, in barrier`,
			"    work = default_pg.barrier(opts=opts)",
			"RuntimeError: " + msg,
		}
	}
	for _, tt := range []struct {
		name    string
		where   string
		library []string
		want    string // a piece of the lead's line
	}{
		{"a CANN error block",
			"[ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64",
			[]string{
				"[ERROR] 2025-03-02-10:11:12 (PID:4100, Device:1, RankID:1) ERR02200 DIST call hccl api failed.",
				"EJ0007: 2025-03-02-10:11:12.345.678 Failed to bind the device socket. Reason: the port range is exhausted.",
				"        Solution: Free ports or widen the range and try again.",
				"        TraceBack (most recent call last):",
				"        rtGetDevMsg execute failed, reason=[driver error:internal error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
			},
			"Failed to bind the device socket"},
		{"a glog line",
			"XCCL error in: csrc/xccl/process_group_xccl.cc:211",
			[]string{
				"E0302 10:11:12.345678  4100 comm_init.cc:88] Rendezvous with rank 3 failed: peer closed the session during the handshake",
			},
			"Rendezvous with rank 3 failed"},
	} {
		exc := raised(tt.where)
		if got := scanLines(t, m, exc); len(got) != 1 {
			t.Errorf("%s: the exception alone: %d incidents, want 1:%s", tt.name, len(got), describe(got))
		}
		for _, order := range []string{"exception first", "library first"} {
			var lines []string
			if order == "exception first" {
				lines = append(append(lines, exc...), tt.library...)
			} else {
				lines = append(append(lines, tt.library...), exc...)
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || !strings.Contains(got[0].Match.Text, tt.want) {
				var text string
				if len(got) > 0 {
					text = got[0].Match.Text
				}
				t.Errorf("%s, %s: want one incident led by %q, got %d led by %q:%s", tt.name, order, tt.want, len(got), text, describe(got))
			}
		}
	}
}
