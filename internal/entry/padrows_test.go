package entry

import (
	"strings"
	"testing"
)

// TestPaddedRows: a terminal that pads every row to its width (screen's
// hardcopy at 80 columns, a Windows console at 120, a pager's filled
// rows at 100) and wraps the longer lines at it: the padding goes once
// two rows of the width end in it, and a traceback's message cut at the
// width is one line again, as on a terminal that does not pad; lines of
// other lengths, and one space at a row's end, stay as written.
func TestPaddedRows(t *testing.T) {
	lines := []string{
		"[2025-11-06 02:10:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`,
		`    scheduler.event_loop_overlap()`,
		"RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5 on rank 3 of node gpu-node-7",
	}
	want := assemble(t, Options{}, strings.Join(lines, "\n"))
	for _, width := range []int{80, 100, 120} {
		var rows []string
		for _, l := range lines {
			for len(l) > width {
				rows = append(rows, l[:width])
				l = l[width:]
			}
			rows = append(rows, l+strings.Repeat(" ", width-len(l)))
		}
		got := assemble(t, Options{}, strings.Join(rows, "\n"))
		if len(got) != len(want) || got[0].Traceback == nil || got[0].Traceback.Outermost().Message != want[0].Traceback.Outermost().Message {
			t.Errorf("padded to %d: %d entries, want %d with the message whole: %+v", width, len(got), len(want), got)
		}
	}
	var r rowPad
	for _, s := range []string{strings.Repeat("x", 90) + "  ", strings.Repeat("y", 90) + "  "} {
		r.trim(s)
	}
	if r.width != 92 || r.trim(strings.Repeat("z", 91)+" ") != strings.Repeat("z", 91)+" " || r.trim("short  ") != "short  " || r.trim(strings.Repeat("w", 80)+strings.Repeat(" ", 12)) != strings.Repeat("w", 80) {
		t.Errorf("row width %d; a row's one space, a short line or the padding read wrong", r.width)
	}
	var plain rowPad
	for _, s := range []string{strings.Repeat("a", 90) + " ", strings.Repeat("b", 90) + " ", strings.Repeat("c", 90) + " "} {
		plain.trim(s)
	}
	if plain.width != 0 {
		t.Errorf("lines that end in one space taught a row width %d", plain.width)
	}
}
