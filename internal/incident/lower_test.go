package incident

import (
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
		g := New(foldOpts)
		for _, o := range tt.occs {
			g.Observe(o, t0)
		}
		got := g.Flush(at(time.Minute))
		if len(got) != tt.n || got[0].Record.ID != tt.want {
			var ids []string
			for _, a := range got {
				ids = append(ids, a.Record.ID)
			}
			t.Errorf("%s: incidents %v, want %d led by %s", tt.name, ids, tt.n, tt.want)
		}
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
	} {
		if got := sourceTree(line); got != want {
			t.Errorf("sourceTree(%q) = %q, want %q", line, got, want)
		}
	}
}
