package analysis

import "testing"

// TestIBVStatusFailure reads a failed work completion in the words of
// the transfer layers over verbs (Mooncake, UCCL, NCCL's numbered
// status), and leaves silent a completion with status zero and lines
// that only talk of completions or errors.
func TestIBVStatusFailure(t *testing.T) {
	for l, want := range map[string]bool{
		"Worker: Process failed for slice (opcode: 0, source_addr: 0x7f, length: 65536, local_nic: mlx5_0, retry_cnt: 0): transport retry counter exceeded":                               true,
		"[WARN node-098 1711891 1711891 pollOnce rdma/providers/ib_data_channel_impl.cc:203] pollOnce - channel_id: 4, CQE error, wr_id=19395, status=10 (remote access error), opcode=1": true,
		"NET/IBP:Got completion from peer 7.6.13.83<36315> with status=12 opcode=32698 len=32696 vendor err 129 (Send)":                                                                   true,
		"NET/IB : Got completion from peer 10.0.0.2<52130> with error 12, opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.1 error=5":                                        true,
		"send failed: Work Request Flushed Error": true,

		"Got completion from peer 10.0.0.2 with status=0":                 false,
		"Polled 128 completions in 3 ms":                                  false,
		"transfer of 64 MiB done in 2 ms, 0 errors, completion rate 100%": false,
		"": false,
	} {
		got := ibvStatusCandidate(l) && ibvStatusFailure(l)
		if got != want {
			t.Errorf("ibvStatusFailure(%q) = %v, want %v", l, got, want)
		}
		if ibvStatusFailure(l) && !ibvStatusCandidate(l) {
			t.Errorf("ibvStatusCandidate(%q) = false", l)
		}
	}
}

// FuzzIBVStatusFailure checks that ibvStatusFailure never panics and
// that its candidate test holds of every line it says true of.
func FuzzIBVStatusFailure(f *testing.F) {
	for _, s := range []string{
		"Got completion from peer x with status=12",
		"CQE status=",
		"completion error=0",
		"remote access error",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ibvStatusFailure(s) && !ibvStatusCandidate(s) {
			t.Fatalf("ibvStatusFailure(%q) without its candidate test", s)
		}
	})
}
