package entry

import "testing"

// TestShortHexPrefixCut: a code of few hexadecimal digits cut between its
// "0" and its "x" is rejoined at a terminal's default width, the stream's
// first cut (UCX's syndrome, ROCm's status code); elsewhere, or when the
// digits go on into a word, a lone "0" and an "x..." word stay apart.
func TestShortHexPrefixCut(t *testing.T) {
	ucx := "lxbk1127:2330856:0:2330856] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_0:1/IB (synd 0"
	rocm := ":0:rocdevice.cpp            :3675: 2139490044663 us:  Callback: Queue 0x7ee7b4200000 abort with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0"
	for _, tt := range []struct {
		name       string
		prev, next string
		width      int
		want       bool
	}{
		{"UCX's syndrome at 100", ucx, "x15 vend 0x81 hw_synd 0/0)", 100, true},
		{"ROCm's status code at 200", rocm, "x29", 200, true},
		{"UCX's syndrome at no terminal's width", ucx, "x15 vend 0x81 hw_synd 0/0)", 97, false},
		{"digits that go on into a word", ucx, "x15vend 0x81", 100, false},
		{"a version after the digits", ucx, "x1.5 faster than before", 100, false},
		{"a word after a zero", ucx, "xenial image", 100, false},
	} {
		if got := isWrapBreakAt(tt.prev, tt.next, len(tt.prev), tt.width); got != tt.want {
			t.Errorf("%s: isWrapBreakAt(%q, %q, %d) = %v, want %v", tt.name, tt.prev, tt.next, tt.width, got, tt.want)
		}
	}
}
