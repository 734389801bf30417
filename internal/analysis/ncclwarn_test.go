package analysis

import (
	"strings"
	"testing"
)

// TestNCCLWarnFailure reads NCCL WARN lines that report a failed call or
// operation behind whatever a launcher, a pod log or a paste put before
// NCCL's header (pdsh's host, Ray's actor and a timestamp, a quote mark,
// a masked pid, a stripped host, the first releases' header), composed
// from NCCL's socket, IB, proxy, shared-memory and CUDA checks, and
// leaves silent NCCL's routine warnings (plugins, optional libraries,
// deprecated settings, features the environment cannot use) and prose
// that names NCCL's warnings.
func TestNCCLWarnFailure(t *testing.T) {
	for l, want := range map[string]bool{
		"10.0.0.7: node-7:1307367:1307586 [0] transport/net_ib.cc:1038 NCCL WARN NET/IB : req 0/1 tag 0 peer 10.0.0.6<58683> collective mismatch error, local size 4096 remote size 512": true,
		"(Trainer pid=2281) [2025-12-13 03:21:03] gpu-host:2281:2290 [1] enqueue.cc:42 NCCL WARN Cuda failure 'invalid device function'":                                                 true,
		"> [2026-01-04 21:33:04] worker-0:617:2799 [3] transport/net_ib.cc:2360 NCCL WARN NET/IB: Got completion from peer 10.1.2.3<53393> with status=5 opcode=1 len=0 vendor err 244":  true,
		"[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_reg_mr failed with 12 Cannot allocate memory":                                          true,
		"NCCL WARN NET/IB : Got async event : local catastrophic error":                                                                                                                  true,
		"misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer gpu-3<40112>":                                                                                      true,
		"include/socket.h:344 WARN Net : Socket creation failed : Address family not supported by protocol":                                                                              true,
		"WARN socket.h:344 Connect to 10.0.0.2<4321> failed : Connection refused":                                                                                                        true,
		"[1] transport/shm.cc:590 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)":                                                                 true,
		"box:12:13 [0] proxy.cc:1120 NCCL WARN [Proxy Service 3] Failed to execute operation Connect from rank 3, retcode 3":                                                             true,
		"box:12:13 [0] misc/socket.cc:540 NCCL WARN socketPollConnect: connect returned Connection timed out, exceeded error retry count (35)":                                           true,
		"e54db9740f9d:228664:229081 [1] enqueue.cc:42 NCCL WARN Cuda failure 'named symbol not found'":                                                                                   true,
		// The releases before 2.4 print no NCCL in the header.
		"gpu-bql-144-103:18553:18611 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out": true,
		"*server name* [0] include/socket.h:185 WARN Call to connect failed : Connection refused":                 true,
		// aws-ofi-nccl prints its function where NCCL prints a file.
		"[2025-10-16 22:16:08] ip-172-31-3-90:1929:1937 [0] nccl_net_ofi_rdma_init:7978 NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available":                                                                                         true,
		"ofi_process_cq:196 NCCL WARN NET/OFI Request completed with error. RC: 107.":                                                                                                                                                              true,
		"[2026-01-01 12:08:32] llama-3-8b-node-0-0:194:710 [0] int cm_req_handle_error_entry(nccl_net_ofi_context_t*, fid_cq*, fi_cq_err_entry*, uint16_t):46 NCCL WARN NET/OFI Request 0x7f456c222f60 completed with error. RC: 103. Error: 4126": true,

		"host:1:2 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]":                                                              false,
		"host:1:2 [0] net.cc:112 NCCL WARN NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file": false,
		"host:1:2 [0] NCCL WARN NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.":                                       false,
		"host:1:2 [0] init.cc:2065 NCCL WARN MSCCL++: Cannot enable MSCCL++; environment is not MSCCL compatible":                                 false,
		"host:1:2 [0] net_fastsocket.cc:652 NCCL WARN Cannot get incoming CPU.":                                                                   false,
		"host:1:2 [0] param.cc:53 NCCL WARN NCCL_SOCKET_NTHREADS is deprecated, please use NCCL_NSOCKS_PERTHREAD":                                 false,
		"host:1:2 [0] init.cc:100 NCCL WARN Invalid NCCL_TOPO_FILE":                                                                               false,
		"algo-1:46:58 [0] configure_nvls_option:287 NCCL WARN NET/OFI Could not find ncclGetVersion symbol":                                       false,
		"[2026-01-01 12:00:00] algo-1:46:58 [0] configure_nvls_option:287 NCCL WARN NET/OFI Could not find ncclGetVersion symbol":                 false,
		"see nccl_net_ofi_rdma_init:7978 for NCCL WARN lines that failed":                                                                         false,
		"2024-Sep-23 00:09:01.0830 1:26 [1] include/socket.h:270 CCOM WARN Skipping IPv6 loopback adddress failed":                                false,
		"the build of include/socket.h:360 WARN failed":                                                                                           false,
		"gpu-bql-144-103:18553:18553 [0] INFO NET/IB : Using interface enp3s0 for sideband communication":                                         false,
		"[0] Section:12 NCCL WARN lines failed":                                                                                                   false,
		"when I call ncclCommInitRank with NCCL_DEBUG=WARN the following warnings are listed":                                                     false,
		"we see NCCL WARN lines failed on every rank":                                                                                             false,
		"the job failed: WARN socket creation failed":                                                                                             false,
		"host:1:2 [0] NCCL INFO NET/IB : Got completion from peer 10.0.0.1 with status=12":                                                        false,
		"WARN: disk almost full, write failed soon":                                                                                               false,
		"": false,
	} {
		if got := ncclWarnFailure(l); got != want {
			t.Errorf("ncclWarnFailure(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestNCCLRoutineWarnIsNoSignal checks both readings of an NCCL warning
// at the level of an entry: a parsed routine warning gives no signal, a
// parsed failure its own warning level, and an unparsed failure behind a
// launcher's prefix the same.
func TestNCCLRoutineWarnIsNoSignal(t *testing.T) {
	for text, want := range map[string]string{
		"node-1:4300:4325 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]":                                        "",
		"node-1:4300:4325 [0] misc/socket.cc:484 NCCL WARN Net : Connect to 10.0.0.2<4321> failed : Connection refused":             "warning",
		"10.0.0.7: node-1:4300:4325 [0] misc/socket.cc:484 NCCL WARN Net : Connect to 10.0.0.2<4321> failed : Connection refused":   "warning",
		"10.0.0.7: node-1:4300:4325 [0] net.cc:112 NCCL WARN NET/Plugin : Plugin load (libnccl-net.so) returned 2 : cannot open it": "",
	} {
		es := assembleAll(text)
		if len(es) != 1 {
			t.Fatalf("%q: %d entries", text, len(es))
		}
		sig, sev := "", ""
		if !quiet(&es[0]) {
			s, v := signalOf(&es[0])
			sig, sev = string(s), string(v)
		}
		if sev != want || (want == "") != (sig == "") {
			t.Errorf("%q: signal %q severity %q, want severity %q", text, sig, sev, want)
		}
	}
}

// FuzzNCCLWarnMessage checks that the message ncclWarnMessage returns is
// a part of its line, and that a line it reads as a failure is one it
// reads as an NCCL warning.
func FuzzNCCLWarnMessage(f *testing.F) {
	for _, s := range []string{
		"h:1:2 [0] a.cc:1 NCCL WARN Cuda failure 'x'",
		"include/socket.h:344 WARN Socket creation failed : x",
		"WARN socket.h:1 Connect failed",
		"NCCL WARN ",
		"WARN ",
		"10.0.0.1: h:XX:3 [1] NCCL WARN Got async event : port error",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		msg, ok := ncclWarnMessage(l)
		if ok && !strings.Contains(l, msg) {
			t.Fatalf("ncclWarnMessage(%q) = %q, not a part of the line", l, msg)
		}
		if ncclWarnFailure(l) && !ok {
			t.Fatalf("ncclWarnFailure(%q) without an NCCL warning", l)
		}
	})
}
