package analysis

import "testing"

// TestUCXFatal reads UCX's error handler's reports (a completion error
// that exceeded its retries, a caught signal) with and without the
// header's opening bracket, and leaves silent the handler's detail lines,
// UCX's ordinary log lines, and bracketed times and tags.
func TestUCXFatal(t *testing.T) {
	for l, want := range map[string]bool{
		"[node1:2330856:0:2330856] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)":                   true,
		"node1:2330856:0:2330856] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)":                    true,
		"[ubuntu-GPU-L40S-4802111:12796:1:13303] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7fbd60001400)": true,
		"[gpu-7.cluster:991:0:1002] ib_mlx5_log.c:174  Local protection on mlx5_2:1/IB (synd 0x4 vend 0x33 hw_synd 0/0) error":                           true,

		"[node1:2330856:0:2330856] ib_mlx5_log.c:177  DCI QP 0xd16 wqe[6168]: SEND s-e [rqpn 0x17de rlid 1037] [va 0x7f9f745cea80 len 5770 lkey 0x15de4]": false,
		"[1784273406.684686] [node1:994396:0]  ib_mlx5_dv.c:452  UCX  WARN  failed to open device":                                                        false,
		"[12:00:01:123] request failed": false,
		"[INFO] request failed":         false,
		"":                              false,
	} {
		if got := ucxFatal(l); got != want {
			t.Errorf("ucxFatal(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzUCXFatal checks that ucxFatal and ucxHandlerHeader never panic.
func FuzzUCXFatal(f *testing.F) {
	for _, s := range []string{
		"[h:1:0:2] x.c:1  Caught signal 11",
		"h:1:0:2] ",
		":::] error",
		"] ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = ucxFatal(s)
		_ = ucxHandlerHeader(s)
	})
}

// TestLevelLessReportFamily checks the families of the level-less
// reports: Slurm's cancel and a memory kill are kills, UCX's caught
// signal a native crash, its transport failure a native library's error,
// a failed child a component's death.
func TestLevelLessReportFamily(t *testing.T) {
	for l, want := range map[string]string{
		"slurmstepd: error: *** JOB 1 ON n1 CANCELLED AT 2020-07-11T22:48:26 DUE TO TIME LIMIT ***":              FamilyKilled,
		"[h1:12796:1:13303] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)": FamilyNative,
		"[h1:2330856:0:2330856] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_0:1/IB":                FamilyLibrary,
		"Received sigquit from a child process. It usually means the child failed.":                              FamilyDied,
		"2 Workers (tasks / actors) killed due to memory pressure (OOM)":                                         FamilyKilled,
		"all workers are ready": "",
	} {
		if got := levelLessReportFamily(l); got != want {
			t.Errorf("levelLessReportFamily(%q) = %q, want %q", l, got, want)
		}
	}
}
