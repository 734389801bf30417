package incident

import (
	"strings"
	"testing"
	"time"
)

// TestAChainOfALowerLayerLeadsWhatItBreaks: a native library's chain of
// located lines that a record calls a consequence, with no failure before
// it, began the crash: a classified cause the same library's code prints
// after it (a location under the same source tree) is listed in the
// chain's incident. A cause located in another tree, one printed before
// the chain, or a failure before the chain that explains it, leads as
// before.
func TestAChainOfALowerLayerLeadsWhatItBreaks(t *testing.T) {
	const src = "pod/a/stderr"
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	located := func(o Occurrence, line string, off int64) Occurrence {
		o.SourceKey = src
		o.Scope = "pod:a"
		o.Alert.Match.Text = line
		o.Alert.Headline = line
		o.Native = true
		o.Offset, o.EndOffset = off, off+80
		return o
	}
	chain := func(line string, off int64) Occurrence {
		return located(cons("lib-status-chain", "pod:a", "", t0), line, off)
	}
	failure := func(key, line string, off int64, d time.Duration) Occurrence {
		return located(cause(key, "pod:a", "", at(d)), line, off)
	}
	for _, tt := range []struct {
		name string
		occs []Occurrence
		want string // the lead's record
		n    int    // incidents
	}{
		{"an RDMA library's queue pair, then its collective's CUDA fault",
			[]Occurrence{
				chain("/opt/rdmalib/src/transport/qp.cpp:88: non-zero status: 12 queue pair setup failed", 0),
				failure("device-fault", "[/opt/rdmalib/src/coll/allgather.cu:40] cuda failed with an illegal memory access", 200, 0),
			}, "lib-status-chain", 1},
		{"a store's segment registration, then its transfer",
			[]Occurrence{
				chain("/workspace/kvstore/csrc/alloc/pool.cc:301: error status: -1 segment registration failed", 0),
				failure("transfer-bad-address", "/workspace/kvstore/csrc/transfer/engine.cc:77: Transfer failed: Bad address", 160, time.Second),
			}, "lib-status-chain", 1},
		{"behind a launcher's label",
			[]Occurrence{
				chain("3: /opt/rdmalib/src/transport/qp.cpp:88: non-zero status: 12 queue pair setup failed", 0),
				failure("device-fault", "3: [/opt/rdmalib/src/coll/allgather.cu:40] cuda failed with an illegal memory access", 200, 0),
			}, "lib-status-chain", 1},
		{"a cause of another library leads",
			[]Occurrence{
				chain("/opt/rdmalib/src/transport/qp.cpp:88: non-zero status: 12 queue pair setup failed", 0),
				failure("device-fault", "[/usr/src/gpudrv/kernel/fault.cu:12] cuda failed with an illegal memory access", 200, 0),
			}, "device-fault", 1},
		{"a cause printed before the chain leads",
			[]Occurrence{
				failure("device-fault", "[/opt/rdmalib/src/coll/allgather.cu:40] cuda failed with an illegal memory access", 0, 0),
				chain("/opt/rdmalib/src/transport/qp.cpp:88: non-zero status: 12 queue pair setup failed", 200),
			}, "device-fault", 1},
		{"a failure before the chain explains it",
			[]Occurrence{
				failure("nic-down", "ib_device.c:1332 UCX ERROR ibv_query_port failed: port is down", 0, 0),
				chain("/opt/rdmalib/src/transport/qp.cpp:88: non-zero status: 12 queue pair setup failed", 200),
				failure("device-fault", "[/opt/rdmalib/src/coll/allgather.cu:40] cuda failed with an illegal memory access", 400, 0),
			}, "nic-down", 1},
	} {
		checkFoldedLead(t, tt.name, tt.occs, tt.want, tt.n)
	}
}

func TestSourceTree(t *testing.T) {
	for line, want := range map[string]string{
		"/opt/rdmalib/src/transport/qp.cpp:88: non-zero status: 12":      "opt/rdmalib",
		"[/opt/rdmalib/src/coll/allgather.cu:40] cuda failed":            "opt/rdmalib",
		"[1,0]<stdout>:/opt/rdmalib/src/transport/qp.cpp:88: status: 12": "opt/rdmalib",
		"12:/opt/rdmalib/src/transport/qp.cpp:88: status: 12":            "opt/rdmalib",
		"torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64":             "torch_npu/csrc",
		"E0601 12:00:01.000001 123 transfer_engine.cpp:305] Failed":      "",
		"src/qp.cpp:88: status: 12":                                      "",
		`File "/srv/app/worker.py", line 12, in run`:                     "",
		"version 1.2.3 of a/b/c/kernel.cuh:9":                            "a/b",
		"ends in a dot.":                                                 "",
		"x/y/z/mem.h":                                                    "",
	} {
		if got := sourceTree(line); got != want {
			t.Errorf("sourceTree(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestATransportFailureLeadsWhatRunsOverIt: a transport's failure (a
// consequence of a network stack) printed first, with no failure before
// it, leads the CUDA, device or collective failure its process reports
// after it, across libraries; a network failure after it, an allocation
// failure, another process's line, a cause printed first, or a failure
// before the transport keep their order.
func TestATransportFailureLeadsWhatRunsOverIt(t *testing.T) {
	const src = "pod/a/stderr"
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	line := func(o Occurrence, text string, off int64, tags ...string) Occurrence {
		if host, rest, ok := strings.Cut(text, ":"); ok && (strings.HasPrefix(host, "gpu5") || strings.HasPrefix(host, "ng3")) {
			// NCCL's "host:pid:tid [dev]" prefix, as the assembler
			// reads it into the entry's Process.
			pid, _, _ := strings.Cut(rest, ":")
			o.Process = host + ":" + pid
		}
		o.SourceKey = src
		o.Scope = "pod:a"
		o.Alert.Match.Text = text
		o.Alert.Headline = text
		o.Alert.Record.Tags = tags
		o.Native = true
		o.Offset, o.EndOffset = off, off+80
		return o
	}
	transport := func(key, text string, off int64, tags ...string) Occurrence {
		return line(cons(key, "pod:a", "", t0), text, off, tags...)
	}
	failure := func(key, text string, off int64, d time.Duration, tags ...string) Occurrence {
		return line(cause(key, "pod:a", "", at(d)), text, off, tags...)
	}
	ib := func(off int64) Occurrence {
		return transport("ib-cqe", "gpu5:35917:35994 [0] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129", off,
			"nccl", "rdma", "network")
	}
	// A consequence printed after the cause that leads folds into it, so
	// each case is one incident: the order is in its lead.
	for _, tt := range []struct {
		name string
		occs []Occurrence
		want string // the lead's record
		n    int    // incidents
	}{
		{"an InfiniBand completion error, then NCCL's CUDA failure in the same process",
			[]Occurrence{
				ib(0),
				failure("kernel-fault", "gpu5:35917:35917 [1] init.cu:194 NCCL WARN Cuda failure 'an illegal memory access was encountered'", 400, time.Second,
					"gpu", "cuda", "kernel", "crash"),
			}, "ib-cqe", 1},
		{"a UCX transport error, then a collective's failure",
			[]Occurrence{
				transport("ucx-peer", "[1764000000.1] [node:812:0] ib_iface.c:746 UCX ERROR transport retry count exceeded on mlx5_0:1/IB", 0,
					"ucx", "rdma", "network"),
				failure("coll-failed", "RuntimeError: NCCL error: unhandled cuda error", 300, 2*time.Second, "nccl", "collective"),
			}, "ucx-peer", 1},
		{"an NVSHMEM transport error behind a launcher's label, then a CUDA failure",
			[]Occurrence{
				transport("shmem-transport", "3: /opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:1200: NULL value transport failed", 0,
					"nvshmem", "rdma", "network"),
				failure("launch-failure", "3: RuntimeError: CUDA error: unspecified launch failure", 200, time.Second, "cuda", "gpu", "crash"),
			}, "shmem-transport", 1},
		{"an HCCL link's failure, then the device's",
			[]Occurrence{
				transport("hccl-link", "EI0013: link down between ranks 3 and 4", 0, "hccl", "network"),
				failure("hccl-exec", "RuntimeError: HCCL function error: HcclAllreduce, error code is 7", 200, time.Second, "hccl", "collective"),
			}, "hccl-link", 1},
		{"a CUDA failure printed first leads",
			[]Occurrence{
				failure("kernel-fault", "gpu5:35917:35917 [1] init.cu:194 NCCL WARN Cuda failure 'an illegal memory access was encountered'", 0, 0,
					"gpu", "cuda", "kernel", "crash"),
				ib(400),
			}, "kernel-fault", 1},
		{"another process's out of memory closed the socket",
			[]Occurrence{
				transport("peer-closed", "ng3:3063025:3066048 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer ng3-ib<51159>", 0,
					"nccl", "network"),
				failure("device-oom", "ng3:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'", 800, time.Second,
					"memory", "oom", "cuda"),
			}, "device-oom", 1},
		{"another process's CUDA failure",
			[]Occurrence{
				transport("peer-closed", "ng3:3063025:3066048 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer ng3-ib<51159>", 0,
					"nccl", "network"),
				failure("kernel-fault", "ng3:3063028:3066152 [3] init.cu:194 NCCL WARN Cuda failure 'an illegal memory access was encountered'", 800, time.Second,
					"gpu", "cuda", "kernel", "crash"),
			}, "kernel-fault", 1},
		{"an HTTP client's connect failure is not an interconnect",
			[]Occurrence{
				transport("upstream-connect", "httpx.ConnectError: All connection attempts failed", 0, "http", "client", "network"),
				failure("kernel-fault", "RuntimeError: CUDA error: an illegal memory access was encountered", 200, time.Second, "cuda", "gpu", "crash"),
			}, "kernel-fault", 1},
		{"a kernel's assertion checks the data, not the link",
			[]Occurrence{
				ib(0),
				failure("index-assert", "../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [4,0,0] Assertion `index < sizes[i]` failed.", 400, time.Second,
					"gpu", "cuda", "assert", "native"),
			}, "index-assert", 1},
		{"a failure that is not a crash (a missing toolkit) is not carried",
			[]Occurrence{
				ib(0),
				failure("no-toolkit", "RuntimeError: CUDA_HOME environment variable is not set", 400, time.Second, "build", "cuda"),
			}, "no-toolkit", 1},
		{"a network failure after it is not carried by it",
			[]Occurrence{
				ib(0),
				failure("qp-down", "gpu5:35917:35994 [0] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out", 400, time.Second,
					"nccl", "rdma", "network"),
			}, "qp-down", 1},
		{"a failure before the transport explains it",
			[]Occurrence{
				failure("nic-down", "ib_device.c:1332 UCX ERROR ibv_query_port failed: port is down", 0, 0, "ucx"),
				ib(200),
				failure("kernel-fault", "gpu5:35917:35917 [1] init.cu:194 NCCL WARN Cuda failure 'an illegal memory access was encountered'", 400, time.Second,
					"gpu", "cuda", "kernel", "crash"),
			}, "nic-down", 1},
	} {
		checkFoldedLead(t, tt.name, tt.occs, tt.want, tt.n)
	}
}

// checkFoldedLead observes occs in one grouper and checks that they fold
// into n incidents, the first led by want.
func checkFoldedLead(t *testing.T, name string, occs []Occurrence, want string, n int) {
	t.Helper()
	g := New(foldOpts)
	for _, o := range occs {
		g.Observe(o, t0)
	}
	got := g.Flush(t0.Add(time.Minute))
	if len(got) != n || got[0].Record.ID != want {
		var ids []string
		for _, a := range got {
			ids = append(ids, a.Record.ID)
		}
		t.Errorf("%s: incidents %v, want %d led by %s", name, ids, n, want)
	}
}
