package entry

import (
	"strings"
	"testing"
)

// padTo pads every non-blank line of lines to width with spaces, as a
// terminal that fills its rows hands them over.
func padTo(lines []string, width int) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l
		if l != "" && len(l) < width {
			out[i] = l + strings.Repeat(" ", width-len(l))
		}
	}
	return strings.Join(out, "\n")
}

// piecesAt cuts line into pieces of width bytes, as a terminal wraps it.
func piecesAt(line string, width int) []string {
	var out []string
	for len(line) > width {
		out = append(out, line[:width])
		line = line[width:]
	}
	return append(out, line)
}

// TestPaddedRowBeforeTheWidthIsLearned: a line wrapped narrower than a
// padding terminal's rows (a paste wrapped at 116 columns shown on a
// 120-column terminal that pads) gives rows that each end in a padding
// too short to take off before the row width is known; once the second
// row teaches it, the first loses its padding too, and the line's pieces
// rejoin into the line as written.
func TestPaddedRowBeforeTheWidthIsLearned(t *testing.T) {
	for _, tt := range []struct {
		name, line string
		wrap, pad  int
	}{
		// om-ai-lab/VLM-R1#257, as posted wrapped at 116 columns.
		{"c10d heartbeat", "[rank6]:[E429 13:55:49.384372190 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 6] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog", 116, 120},
		// SkyRL's DistBackendError (NovaSky-AI/SkyRL#108).
		{"DistBackendError", "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3353, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2", 96, 100},
	} {
		es := assemble(t, Options{}, padTo(piecesAt(tt.line, tt.wrap), tt.pad))
		if len(es) != 1 || es[0].Prefix+es[0].Raw != tt.line {
			t.Errorf("%s: %d entries, first %q; want the line whole", tt.name, len(es), es[0].Raw)
		}
	}
}

// TestPaddedRowsStayLines: on a padding terminal, a row whose padding is
// taken off once the width is learned is still a line of its own when
// nothing says its text goes on (deepseek-ai/DeepEP#49's rows).
func TestPaddedRowsStayLines(t *testing.T) {
	lines := []string{
		"$ RANK=0 MASTER_ADDR=192.168.0.117 WORLD_SIZE=4 python tests/test_low_latency.py",
		"Allocating buffer size: 2116.290944 MB ...",
		"Assertion failed: /mnt/fs/DeepEP/csrc/kernels/internode_ll.cu:259, condition: num_recv_tokens != 0",
		"Assertion failed: /mnt/fs/DeepEP/csrc/kernels/internode_ll.cu:259, condition: num_recv_tokens != 0",
	}
	es := assemble(t, Options{}, padTo(lines, 104))
	var got []string
	for _, e := range es {
		got = append(got, e.Raw)
	}
	if len(es) < 3 || es[1].Raw != lines[1] {
		t.Errorf("entries %q: want the rows apart, without their padding", got)
	}
}
