package analysis

import "strings"

// An RDMA transfer that fails ends in a work completion whose status the
// verbs library names in fixed words, ibv_wc_status_str's: "transport
// retry counter exceeded", "remote access error", "local protection
// error", "Work Request Flushed Error", "RNR retry counter exceeded",
// ... Every transfer layer over verbs prints them with its own words
// around: Mooncake ("Worker: Process failed for slice (...):
// transport retry counter exceeded"), UCCL's "[WARN host pid tid pollOnce
// ...] pollOnce - channel_id: 4, CQE error, wr_id=19395, status=10 (remote
// access error)", NIXL, DeepEP, nvshmem, often at WARN or with no level
// it prints. NCCL prints the status as a number after "Got completion
// from peer <addr> with status=12" (error=12 before 2.19). A completion
// status in those words, or a completion named with a non-zero status, is
// the transfer's failure at whatever level it is logged: no routine line
// holds one. "general error" is left out: other libraries say it too.

// ibvStatusTexts are ibv_wc_status_str's words for the statuses of a
// failed work completion.
var ibvStatusTexts = [...]string{
	"local length error", "local QP operation error", "local EE context operation error", "local protection error",
	"Work Request Flushed Error", "memory management operation error", "bad response error", "local access error",
	"remote invalid request error", "remote access error", "remote operation error", "transport retry counter exceeded",
	"RNR retry counter exceeded", "local RDD violation error", "remote invalid RD request", "response timeout error",
}

// ibvStatusCandidate is the byte test before ibvStatusFailure: the 'x' of
// "exceeded" or the second 'r' of "error", by the pair "rr", or the 'p'
// of "completion", each one scan on the lines it reads (lines at WARNING
// or with no level).
func ibvStatusCandidate(l string) bool {
	return strings.Contains(l, "rr") || strings.IndexByte(l, 'x') >= 0 || strings.IndexByte(l, 'p') >= 0
}

// ibvStatusFailure reports whether l names a failed work completion's
// status (see above).
func ibvStatusFailure(l string) bool {
	return containsAnyOf(l, ibvStatusTexts[:]) || completionStatus(l)
}

// completionStatus reports whether l names a completion ("Got completion
// from peer ...", "CQE") and then a status other than zero ("status=12",
// "error=12").
func completionStatus(l string) bool {
	i := strings.Index(l, "completion")
	if i < 0 {
		i = strings.Index(l, "CQE")
		if i < 0 {
			return false
		}
	}
	for _, k := range [...]string{"status=", "error="} {
		j := strings.Index(l[i:], k)
		if j < 0 {
			continue
		}
		n, _ := leadingNumber(l[i+j+len(k):])
		if n != "" && strings.Trim(n, "0") != "" {
			return true
		}
	}
	return false
}
