package entry

import (
	"strings"
	"testing"
)

// NCCL's error name's line ends in a space ("... or device error. "),
// which a word wrap's piece does too; "Last error:" after it is NCCL's own
// line, and the line it announces is the message's: one entry
// (hkproj/pytorch-transformer-distributed#1, pytorch/torchtitan#853 quoted
// with two spaces).
func TestNCCLLastErrorAfterSpace(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		lines []string // each entry's first and last offsets
		last  string   // the first entry's last line
	}{
		{"socket", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.6\n" +
			"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n" +
			"Last error:\n" +
			"socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host\n" +
			"[2024-03-18 17:38:50,208] torch.distributed.elastic.multiprocessing.api: [ERROR] failed",
			[]string{"1-4", "5-5"}, "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host"},
		{"shared memory, quoted", "  torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n" +
			"  ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n" +
			"  Last error:\n" +
			"  Error while creating shared memory segment /dev/shm/nccl-1YsMbG (size 7340384)\n" +
			"  Exception raised from create at /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268 (most recent call first):",
			[]string{"1-4", "5-5"}, "Error while creating shared memory segment /dev/shm/nccl-1YsMbG (size 7340384)"},
		{"on one line", "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. Last error:\n" +
			"socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host",
			[]string{"1-2"}, "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host"},
		// Near miss: a word wrap's piece that ends in a space, outside
		// NCCL's message, goes on with its rest as before.
		{"no NCCL message", "Failed to initialize the distributed environment because the rendezvous backend could not reach its peer and raised an \n" +
			"error: connection refused",
			[]string{"1-2"}, "Failed to initialize the distributed environment because the rendezvous backend could not reach its peer and raised an error: connection refused"},
	}
	for _, tt := range tests {
		es := assemble(t, Options{}, tt.in)
		var got []string
		for _, v := range views(es) {
			got = append(got, v.Lines)
		}
		if strings.Join(got, " ") != strings.Join(tt.lines, " ") {
			t.Errorf("%s: entries %v, want %v", tt.name, got, tt.lines)
			continue
		}
		ls := strings.Split(es[0].Text, "\n")
		if ls[len(ls)-1] != tt.last {
			t.Errorf("%s: last line %q, want %q", tt.name, ls[len(ls)-1], tt.last)
		}
	}
}
