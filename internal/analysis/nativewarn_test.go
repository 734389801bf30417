package analysis

import (
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// signalledOne assembles text into one entry and returns the signal and
// severity signalOf gives it, none when quiet says it has none.
func signalledOne(t *testing.T, text string) (Signal, patterns.Severity) {
	t.Helper()
	es := assembleAll(text)
	if len(es) != 1 {
		t.Fatalf("%q: %d entries", text, len(es))
	}
	if es[0].Traceback == nil && quiet(&es[0]) {
		return "", ""
	}
	return signalOf(&es[0])
}

// TestNativeWarnFailure reads the warnings torch's c10 logging and glog's
// users (Mooncake, NIXL, gRPC) print before a call returns its error, and
// leaves silent the same writers' routine warnings: a connect their loop
// retries, an address family or a host name the socket does without, a
// fork notice.
func TestNativeWarnFailure(t *testing.T) {
	for text, want := range map[string]bool{
		"[W1119 17:59:26.271588084 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=61, addr=[localhost]:33850, remote=[localhost]:30005): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?": true,
		"[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).":                                                                                                                              true,
		"[rank3]:[W318 10:00:41.915284135 ProcessGroupNCCL.cpp:1500] [PG ID 0 PG GUID 0 Rank 3] Failed to check the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Connection reset by peer":              true,
		"W1212 12:06:27.218729   205 rdma_transport.cpp:166] RdmaTransport: Failed to register memory: addr 0x7fd3e6368000 length 294912":                                                                                                                 true,
		"W0713 23:29:03.494601 4242 nixl_agent.cpp:631] prepXferDlist: failed to prepare the descriptors for any of the specified or potential backends":                                                                                                  true,

		"[W socket.cpp:697] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 111 - Connection refused).":                                                                                         false,
		"[W1226 15:44:31.548330712 TCPStore.cpp:358] [c10d] TCP client failed to connect/validate to host node-05:8000 - retrying (try=0, timeout=600000ms, delay=77116ms): The client socket has timed out after 600000ms": false,
		"[W socket.cpp:426] [c10d] The server socket has failed to listen on [::]:29500 (errno: 97 - Address family not supported by protocol).":                                                                            false,
		"[W socket.cpp:558] [c10d] The client socket cannot be initialized to connect to [localhost]:29619 (errno: 97 - Address family not supported by protocol).":                                                         false,
		"[W1030 12:00:00.000000000 socket.cpp:752] [c10d] The hostname of the client socket cannot be retrieved. err=-3":                                                                                                    false,
		// A device probe that finds no device, an autotuner's candidate
		// kernel dropped.
		"W0528 00:11:09.418211  4021 rdma_context.cpp:88] ibv_open_device failed: No such device":                                                                                                         false,
		"W0528 00:11:09.418000 4021 torch/_inductor/select_algorithm.py:2215] [0/0] Failed to benchmark choice 'triton_mm_12': out of resource: shared memory, Required: 147456, Hardware limit: 101376.": false,
		"W0000 00:00:1700000000.123456   12345 fork_posix.cc:77] Other threads are currently calling into gRPC, skipping fork() handlers":                                                                 false,
		"W20250516 09:00:52.240088 45697 topology.cpp:55] Topology discovery complete. Found 2 HCAs.":                                                                                                     false,
		"I0605 17:52:59.713197 178707 rdma_context.cpp:413] Failed attempts so far: 0":                                                                                                                    false,
	} {
		s, sev := signalledOne(t, text)
		if got := s != ""; got != want {
			t.Errorf("%q: signal %q, want %v", text, s, want)
			continue
		}
		if want && sev != patterns.SeverityWarning {
			t.Errorf("%q: severity %q, want its own warning", text, sev)
		}
	}
}

// FuzzNativeWarnFailure checks that nativeWarnFailure never panics and
// says false of a message that holds a routine word.
func FuzzNativeWarnFailure(f *testing.F) {
	for _, s := range []string{
		"[c10d] recvValue failed on SocketImpl(fd=61): Failed to recv, got 0 bytes.",
		"RdmaTransport: Failed to register memory: addr 0x7f length 4096",
		"[c10d] The client socket has failed to connect to [localhost]:29500 (errno: 111 - Connection refused).",
		"TCP client failed to connect - retrying (try=0",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if nativeWarnFailure(s) && carriesOnPast(s, nativeWarnRoutineWords[:]) {
			t.Fatalf("nativeWarnFailure(%q) with a routine word", s)
		}
	})
}
