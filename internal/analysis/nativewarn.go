package analysis

// Native components that log through glog's macros (Mooncake's transfer
// engine, NIXL, gRPC's absl log) and torch's c10 logging (c10d's sockets,
// its TCPStore, ProcessGroupNCCL) print a warning right before they return
// an error or throw, with the call that failed and the reason
// ("RdmaTransport: Failed to register memory: addr 0x7f... length 294912",
// "[c10d] recvValue failed on SocketImpl(...): Failed to recv, got 0
// bytes. Connection was likely closed.", "[c10d] The server socket has
// failed to bind to [::]:38429 (errno: 98 - Address already in use).").
// The entry package reads their header and its W level; no record may
// know the call. Most of their warnings are routine all the same: a
// connect the client's loop tries again until its timeout ("The client
// socket has failed to connect to ... (errno: 111 ...)", "TCP client
// failed to connect/validate to host ... - retrying (try=0, ...)"), an
// address family the host lacks, which the socket skips for the next
// address ("cannot be initialized to connect to [localhost]:29500
// (errno: 97 - Address family not supported by protocol)", errno 99
// "Cannot assign requested address"), a host name it cannot look up
// ("The hostname of the client socket cannot be retrieved"), a setting
// that is deprecated or ignored, a fallback. A W line whose message says
// a call failed (nativeWarnFailureWords) and that is none of these
// (nativeWarnRoutineWords) is a failure at its own warning level.

// nativeWarnFailureWords say, in a native warning's message, that a call
// or an operation failed.
var nativeWarnFailureWords = [...]string{
	" failed", "Failed", "failure", "Failure", "Unable to", "unable to", "Could not", "could not",
	"Connection closed", "closed by", "Connection reset", "connection reset", "timed out",
}

// nativeWarnRoutineWords mark, besides a carry-on clause (carriesOnPast:
// a retry, a fallback, what it ignores or skips), a native warning that
// reports no failure of its own work (see above): a try's count, a probe
// of an address family or a host name that the socket does without, a
// setting.
var nativeWarnRoutineWords = [...]string{
	"try=",
	"The client socket has failed to connect", "cannot be initialized", "cannot be retrieved",
	"errno: 97 ", "errno: 99 ", "not yet listening",
	"deprecated",
	// A probe of a device that is not there (ENODEV), which the
	// component skips for the next one, and an autotuner's candidate
	// kernel that cannot run, which it drops from its choices.
	"No such device", "benchmark choice",
}

// nativeWarnFailure reports whether msg, the message of a glog or c10
// warning (W level), says a call or an operation failed and is no routine
// warning (see above). Only such warnings are read, not every line: the
// entry package has found their header.
func nativeWarnFailure(msg string) bool {
	return containsAnyOf(msg, nativeWarnFailureWords[:]) && !carriesOnPast(msg, nativeWarnRoutineWords[:])
}
