package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// UCX reports what ends a process through its error handler, in a header
// of its own, "[host:pid:thread:tid]" (four fields, where its ordinary
// log lines print "[host:pid:thread]" after a time and carry "UCX ERROR"),
// followed by the source location and the message, or by the signal it
// caught: "[node1:2330856:0:2330856] ib_mlx5_log.c:177  Transport retry
// count exceeded on mlx5_0:1/IB (synd 0x15 ...)", "[node1:12796:1:13303]
// Caught signal 11 (Segmentation fault: invalid permissions for mapped
// object at address 0x7f...)", then "==== backtrace (tid: N) ====". A
// transfer library built on UCX (NIXL, UCC, Open MPI's PML) prints it
// from inside the serving process. The handler's detail lines under the
// same header ("DCI QP 0xd16 wqe[6168]: SEND s-e ...") say nothing
// failed; a line under the header that says a signal was caught, or that
// something failed, was exceeded or met an error, is the fatal report. A
// paste or a cut may lose the header's opening bracket.

// ucxFatalWords say, in a message under UCX's error handler header, that
// something failed.
var ucxFatalWords = [...]string{"Caught signal", "exceeded", "error", "Error", "failed", "Failed", "Fatal", "fatal"}

// ucxFatal reports whether l is UCX's error handler's fatal report (see
// above). Its header is found by the "] " that closes it after digits:
// a rare pair on routine lines, the ']' found first.
func ucxFatal(l string) bool {
	for from := 0; from < len(l); {
		i := ascii.IndexByRare(l[from:], "] ", 0)
		if i < 0 {
			return false
		}
		at := from + i
		from = at + 2
		if !ucxHandlerHeader(l[:at]) {
			continue
		}
		return containsAnyOf(l[from:], ucxFatalWords[:])
	}
	return false
}

// ucxHandlerHeader reports whether s ends in the fields of UCX's error
// handler header, "host:pid:thread:tid" (its opening bracket, if any,
// before them): a host, not a number (a time's "12:00:01:123" is none),
// and three colon-separated numbers.
func ucxHandlerHeader(s string) bool {
	s = s[strings.LastIndexAny(s, "[ ")+1:]
	var nums int
	for nums < 3 {
		c := strings.LastIndexByte(s, ':')
		if c < 0 || !ascii.Digits(s[c+1:]) {
			return false
		}
		s = s[:c]
		nums++
	}
	return s != "" && strings.IndexByte(s, ':') < 0 && !ascii.Digits(s)
}
