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
	for _, s := range []string{strings.Repeat("a", 90) + " ", strings.Repeat("b", 90) + " ", strings.Repeat("c", 90) + " ", strings.Repeat("d", 80) + "  ", strings.Repeat("e", 81) + "  ", strings.Repeat("f", 80) + "  "} {
		plain.trim(s)
	}
	if plain.width != 0 {
		t.Errorf("lines that end in one space, or padded lines of one length apart, taught a row width %d", plain.width)
	}
}

// TestFirstPaddedRow: the rows a padding terminal shows before the row
// width is learned lose a long padding too, so that the first row, a
// faulthandler dump's header here, reads as the line it is and is no
// cut's piece the next row would go on; a short run of spaces at a row's
// end, which a word wrap leaves after a table's column, stays.
func TestFirstPaddedRow(t *testing.T) {
	lines := []string{
		"Fatal Python error: Aborted",
		"",
		"Current thread 0x00007f3f83e9f740 (most recent call first):",
		`  File "/usr/local/aiter/aiter/jit/core.py", line 368 in wrapper`,
		`  File "/usr/local/sglang/python/sglang/srt/layers/layernorm.py", line 73 in forward_cuda`,
	}
	want := assemble(t, Options{}, strings.Join(lines, "\n"))
	for _, width := range []int{100, 120} {
		rows := make([]string, len(lines))
		for i, l := range lines {
			rows[i] = l + strings.Repeat(" ", width-len(l))
		}
		got := assemble(t, Options{}, strings.Join(rows, "\n"))
		if len(got) != len(want) {
			t.Fatalf("padded to %d: %d entries, want %d", width, len(got), len(want))
		}
		for i := range got {
			if got[i].Message != want[i].Message || got[i].Native != want[i].Native {
				t.Errorf("padded to %d: entry %d %q (%s), want %q (%s)", width, i, got[i].Message, got[i].Native, want[i].Message, want[i].Native)
			}
		}
	}
	var r rowPad
	if s := strings.Repeat("x", 90) + "    "; r.trim(s) != s {
		t.Errorf("a short run of spaces at a row's end was taken off before the row width is known")
	}
}

// TestFirstPaddedRowJoin: a line a padding terminal showed whole before
// the row width is known, and the row after it filled to the width by a
// longer line: whatever joins them, the padding's blank stays between the
// first line's last word and the next row's first.
func TestFirstPaddedRowJoin(t *testing.T) {
	const width = 120
	first := "srv  log_server_r: request: POST /v1/chat/completions 192.168.0.61 200"
	long := "Failed to parse arguments: [json.exception.parse_error.101] parse error at line 1, column 6: syntax error while parsing object separator - invalid literal; last read: '\"{\"fi'; expected ':'"
	rows := []string{first + strings.Repeat(" ", width-len(first)), long[:width], long[width:] + strings.Repeat(" ", 2*width-len(long))}
	for _, e := range assemble(t, Options{}, strings.Join(rows, "\n")) {
		if strings.Contains(e.Text, "200Failed") {
			t.Errorf("the padded row's last word is glued to the next row's first: %q", e.Text)
		}
	}
}
