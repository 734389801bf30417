package incident_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// matcherWithout is the default catalog less the records slugs: the
// wordings those records read stand for a wording no record has yet.
func matcherWithout(t *testing.T, slugs ...string) *matcher.Matcher {
	t.Helper()
	recs, probs := patterns.Default()
	for _, p := range probs {
		if p.Level == patterns.LevelError {
			t.Fatalf("default catalog: %v", p)
		}
	}
	kept := make([]patterns.Record, 0, len(recs))
	for _, r := range recs {
		if !slices.Contains(slugs, r.Slug) {
			kept = append(kept, r)
		}
	}
	if len(kept)+len(slugs) != len(recs) {
		t.Fatalf("not every record of %v is in the default catalog", slugs)
	}
	m, cprobs := catalog.Compile(kept, nil)
	for _, p := range cprobs {
		if p.Level == patterns.LevelError {
			t.Fatalf("catalog less %v: %v", slugs, p)
		}
	}
	return m
}

// leadsWith reports whether the alert's own line holds text.
func leadsWith(a sinks.Alert, text string) bool {
	return strings.Contains(a.Headline, text) || strings.Contains(a.Match.Text, text)
}

// NCCL reports its failures at WARN: the first WARN line of a process's
// chain says what failed, and the lines after it (its proxy's failed
// operation, its socket closed) what that broke, in words consequence
// records know. With no record for the first line's wording (the records
// that read these NCCL wordings are left out of the catalog), it still
// leads, and the consequences are listed in its incident; so does a second
// WARN line of the same event no record names. A first line that only says
// something failed, or one printed after the consequence, yields the lead
// as before: one incident either way.
func TestNCCLFirstWarnLineLeadsTheConsequencesOfItsChain(t *testing.T) {
	m := matcherWithout(t, "nccl-ib-verbs-call-failed", "nccl-shared-memory-segment-failed", "nccl-ib-async-fatal-event")
	// NCCL's own wordings (misc/ibvwrap.cc, misc/shmutils.cc,
	// transport/net_ib.cc) and one no record has.
	firsts := []string{
		"gpu-7:4016:4653 [7] misc/ibvwrap.cc:212 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Operation not permitted",
		"gpu-7:4016:4653 [7] misc/shmutils.cc:77 NCCL WARN Error while resizing the segment /dev/shm/nccl-Ab12 to 4194304 bytes, error: Read-only file system (30)",
		"gpu-7:4016:4653 [7] transport/net_ib.cc:640 NCCL WARN NET/IB : mlx5_3:1 Got async event : local catastrophic error",
		"gpu-7:4016:4653 [7] transport/nvls.cc:240 NCCL WARN Multicast object binding failed for 4194304 bytes on device 7, error 999",
	}
	detail := "gpu-7:4016:4653 [7] transport/net_ib.cc:702 NCCL WARN NET/IB : Queue pair 0x1c of mlx5_3 moved to the error state after the port went away"
	consequences := []string{
		"gpu-7:4016:4650 [7] proxy.cc:1533 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=3, closing connection",
		"gpu-7:4016:4650 [7] proxy.cc:1567 NCCL WARN [Proxy Service 10] Failed to execute operation Connect from rank 10, retcode 3",
		"gpu-7:4016:4641 [7] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer gpu-8-ib<53735>",
	}
	trace := "gpu-7:4016:4653 [7] NCCL INFO transport/net.cc:683 -> 2"
	for _, first := range firsts {
		for _, c := range consequences {
			lines := []string{first, trace, c}
			got := scanLines(t, m, lines)
			if len(got) != 1 || got[0].Record.ID != "" || !leadsWith(got[0], nativeMessageOf(first)) {
				t.Errorf("%q then %q: want one incident led by the first line, got %d:%s", first, c, len(got), describe(got))
			}
			got = scanLines(t, m, []string{first, trace, detail, c})
			if len(got) != 1 || !leadsWith(got[0], nativeMessageOf(first)) {
				t.Errorf("%q, a second WARN line, then %q: want one incident led by the first line, got %d:%s", first, c, len(got), describe(got))
			}
		}
	}
	c := consequences[1]
	want := leadOf(scanLines(t, m, []string{c})[0])
	vague := "gpu-7:4016:4653 [7] transport/net_ib.cc:640 NCCL WARN Operation failed"
	if got := scanLines(t, m, []string{vague, trace, c}); len(got) != 1 || leadOf(got[0]) != want {
		t.Errorf("a vague first line: want one incident led by %s, got %d:%s", want, len(got), describe(got))
	}
	if got := scanLines(t, m, []string{c, firsts[0]}); len(got) != 1 || leadOf(got[0]) != want {
		t.Errorf("the consequence before the line: want one incident led by %s, got %d:%s", want, len(got), describe(got))
	}
}

// nativeMessageOf is what follows the level word of a test's native line.
func nativeMessageOf(line string) string {
	for _, level := range []string{" WARN ", " ERROR "} {
		if i := strings.Index(line, level); i >= 0 {
			return strings.TrimSpace(line[i+len(level):])
		}
	}
	if i := strings.Index(line, "] "); i >= 0 {
		return line[i+2:]
	}
	return line
}

// One process's chain of consequence lines is led by its first line, not
// by the more severe record of a later one: NCCL's failed receive, then its
// proxy's failed operation. With the record of the first line's wording
// left out of the catalog, the generic record of a broken pipe reads it.
// Lines of two processes keep the order of severity.
func TestAChainOfConsequencesIsLedByItsFirstLine(t *testing.T) {
	m := matcherWithout(t, "nccl-remote-process-exited")
	first := "a100-22:183006:183220 [1] misc/socket.cc:518 NCCL WARN Net : Call to recv from 10.200.84.247<58355> failed : Broken pipe"
	trace := "a100-22:183006:183220 [1] NCCL INFO misc/socket.cc:535 -> 6"
	later := "a100-22:183006:183220 [1] proxy.cc:1119 NCCL WARN [Proxy Service 9] Failed to execute operation Connect from rank 9, retcode 6"
	alone := scanLines(t, m, []string{first})
	if len(alone) != 1 || alone[0].Record.Role != string(patterns.RoleConsequence) {
		t.Fatalf("the first line alone: want one consequence, got %d:%s", len(alone), describe(alone))
	}
	laterAlone := scanLines(t, m, []string{later})
	if len(laterAlone) != 1 || sinks.SeverityRank(laterAlone[0].Record.Severity) <= sinks.SeverityRank(alone[0].Record.Severity) {
		t.Fatalf("the later line alone: want one consequence more severe than the first's, got %d:%s", len(laterAlone), describe(laterAlone))
	}
	if got := scanLines(t, m, []string{first, trace, later}); len(got) != 1 || leadOf(got[0]) != leadOf(alone[0]) {
		t.Errorf("one process's chain: want one incident led by %s, got %d:%s", leadOf(alone[0]), len(got), describe(got))
	}
	other := strings.Replace(later, "183006:183220", "183077:183290", 1)
	if got := scanLines(t, m, []string{first, trace, other}); len(got) != 1 || leadOf(got[0]) != leadOf(laterAlone[0]) {
		t.Errorf("two processes' lines: want one incident led by %s, got %d:%s", leadOf(laterAlone[0]), len(got), describe(got))
	}
}

// A process's death (faulthandler's "Fatal Python error", the shell's
// "Segmentation fault (core dumped)") printed after a native library's
// line that says what failed ends that line's event: the line leads,
// whichever library wrote it, and the death is listed in its incident.
// A first line that only says something failed yields the lead to the
// death's record; one printed long before, healthy lines between, is a
// failure of its own.
func TestAProcessDeathEndsTheNativeEventBeforeIt(t *testing.T) {
	// UCX's wording with its record left out, and a transfer engine's
	// line no record reads.
	m := matcherWithout(t, "nixl-ucx-backend-create-failed")
	firsts := []string{
		"[1784273406.684686] [gpu-3:994396:0]      ib_mlx5_dv.c:452  UCX  ERROR   mlx5dv_devx_obj_modify(opcode=0x503) failed on mlx5_1, syndrome 0x5d668c: Remote I/O error",
		"E0115 05:20:19.945159   309 widget_engine.cpp:81] Widget registration of segment 0x7f00 on mlx5_0 was refused by the fabric manager",
	}
	deaths := []string{"Fatal Python error: Segmentation fault", "Segmentation fault (core dumped)", "Fatal Python error: Aborted"}
	for _, first := range firsts {
		for _, death := range deaths {
			if alone := scanLines(t, m, []string{death}); len(alone) != 1 || alone[0].Record.ID == "" {
				t.Fatalf("%q alone: want one classified incident, got %d:%s", death, len(alone), describe(alone))
			}
			got := scanLines(t, m, []string{first, "", death})
			if len(got) != 1 || got[0].Record.ID != "" {
				t.Errorf("%q then %q: want one incident led by the first line, got %d:%s", first, death, len(got), describe(got))
			}
		}
	}
	death := deaths[0]
	want := leadOf(scanLines(t, m, []string{death})[0])
	vague := "[1784273406.684686] [gpu-3:994396:0]      ib_mlx5_dv.c:452  UCX  ERROR   send failed"
	if got := scanLines(t, m, []string{vague, death}); len(got) != 1 || leadOf(got[0]) != want {
		t.Errorf("a vague first line: want one incident led by %s, got %d:%s", want, len(got), describe(got))
	}
	lines := []string{firsts[1]}
	for range 80 {
		lines = append(lines, "I0115 05:21:19.000000   309 widget_engine.cpp:420] Transfer batch done: 64 slices, 1048576 bytes in 0.8 ms")
	}
	lines = append(lines, death)
	for _, a := range scanLines(t, m, lines) {
		if a.Record.ID == "" && len(a.Consequences) > 0 {
			t.Errorf("a first line long before the death: it took the death as its own:%s", describe([]sinks.Alert{a}))
		}
	}
}

// A device that trapped in a kernel answers every later call with a
// sticky error ("unspecified launch failure", "an illegal memory access
// was encountered"): a native line no record names that says what failed
// on the device, printed just before, is the first report of the fault
// and leads; the sticky error's record is listed in its incident. The
// records of those first lines' wordings are left out of the catalog.
// A process's death line before the crash, a first line printed long
// before it, and the two in the other order leave the crash's record
// leading.
func TestAStickyDeviceErrorFollowsTheLineThatSaidWhatFailed(t *testing.T) {
	m := matcherWithout(t, "cuda-kernel-assertion-failed", "nvshmem-error-status", "nvshmem-heap-allocation-failed")
	firsts := []string{
		"Assertion failed: deep_gemm/include/deep_gemm/impls/smxx_layout.cuh:131, condition: (values[j] & 0x807fffffu) == 0",
		"/nvshmem/src/host/mem/mem_heap.cpp:1509: non-zero status: 2 cuMemCreate failed",
	}
	crashes := []string{
		"RuntimeError: CUDA error: unspecified launch failure",
		"[/nvshmem/src/host/coll/barrier/barrier.cpp:21] cuda failed with an illegal memory access was encountered",
	}
	says := []string{"smxx_layout.cuh:131", "cuMemCreate failed"}
	for i, first := range firsts {
		if alone := scanLines(t, m, []string{first}); len(alone) != 1 || alone[0].Record.ID != "" {
			t.Fatalf("%q alone: want one unclassified incident, got %d:%s", first, len(alone), describe(alone))
		}
		for _, crash := range crashes {
			got := scanLines(t, m, []string{first, crash})
			if len(got) != 1 || got[0].Record.ID != "" || !leadsWith(got[0], says[i]) {
				t.Errorf("%q then %q: want one incident led by the first line, got %d:%s", first, crash, len(got), describe(got))
			}
		}
	}
	crash := crashes[0]
	want := leadOf(scanLines(t, m, []string{crash})[0])
	if got := scanLines(t, m, []string{crash, firsts[0]}); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("the crash first: want %s to lead, got %d:%s", want, len(got), describe(got))
	}
	died := "terminate called after throwing an instance of 'c10::DistBackendError'"
	if got := scanLines(t, m, []string{died, crash}); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("a death line before the crash: want %s to lead, got %d:%s", want, len(got), describe(got))
	}
	lines := []string{firsts[1]}
	for range 80 {
		lines = append(lines, "[2026-06-01 00:00:05] Decode batch. #running-req: 12, #token: 40960, token usage: 0.31, gen throughput (token/s): 812.55, #queue-req: 0")
	}
	lines = append(lines, crashes[1])
	for _, a := range scanLines(t, m, lines) {
		if a.Record.ID == "" && len(a.Consequences) > 0 {
			t.Errorf("a first line long before the crash: it took the crash as its own:%s", describe([]sinks.Alert{a}))
		}
	}
}

// A library that logs its task's failure at each retry ("Transfer failed
// for task1", no reason) and the reason once the layer below gives up
// ("TcpTransport: ASIO exception: connect: Connection refused") is led by
// the reason, with no record for either wording (the transfer engine's
// record left out, and a library no record reads). A later line that
// gives no reason either (a retry's summary) leaves the first line
// leading, and the two stay one incident either way.
func TestATaskFailureYieldsToItsLibrarysReasonAfterIt(t *testing.T) {
	m := matcherWithout(t, "mooncake-tcp-connect-refused")
	events := []struct{ vague, reason string }{
		{"E0423 16:34:48.911491 217200 client.cpp:347] Transfer failed for task1",
			"E0423 16:34:48.929325 217299 tcp_transport.cpp:393] TcpTransport: ASIO exception: connect: Connection refused"},
		{"E0115 05:20:19.945159   309 widget_client.cpp:88] Widget fetch failed for shard3",
			"E0115 05:20:19.965159   309 widget_rpc.cpp:41] WidgetRpc: handshake with 10.0.0.7:9000 rejected: protocol version 3 against 5"},
	}
	for _, ev := range events {
		retry := strings.Replace(ev.vague, "task1", "task0", 1)
		got := scanLines(t, m, []string{ev.vague, retry, ev.reason, ev.vague})
		if len(got) != 1 || got[0].Record.ID != "" || !leadsWith(got[0], nativeMessageOf(ev.reason)[:20]) {
			t.Errorf("%q then %q: want one incident led by the reason, got %d:%s", ev.vague, ev.reason, len(got), describe(got))
		}
		summary := strings.Replace(ev.vague, "] ", "] transfer_incomplete max_attempts=3 // ", 1)
		summary = summary[:strings.Index(summary, " // ")]
		got = scanLines(t, m, []string{ev.vague, summary})
		if len(got) != 1 || leadsWith(got[0], "max_attempts") {
			t.Errorf("%q then a retry's summary: want one incident not led by the summary, got %d:%s", ev.vague, len(got), describe(got))
		}
	}
}

// A process that could not reach a peer logs the failed connection and
// then dies: its wrapper ("Scheduler hit an exception:") whose traceback
// was cut says only that it died. The network failure's line, printed just
// before by the same writer, leads (with the wrapper as its context), in
// each writer's wording; a parent's report of the death printed before the
// wrapper says no more than the wrapper and leaves it leading.
func TestAWrapperAloneIsContextOfTheNetworkFailureLoggedBeforeIt(t *testing.T) {
	m := crashMatcher(t)
	wrapper := []string{
		"[2025-10-29 11:00:44] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2883, in run_scheduler_process`,
		"    scheduler.event_loop_overlap_disagg_decode()",
	}
	failures := []string{
		"[2025-10-29 11:00:44] Error fetching prefill parallel info from bootstrap: HTTPConnectionPool(host='127.0.0.1', port=8998): Max retries exceeded with url: /route (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))",
		"[2025-10-29 11:00:44] Failed to connect to 10.0.0.5:5757: [Errno 113] No route to host",
	}
	for _, f := range failures {
		alone := scanLines(t, m, []string{f})
		if len(alone) != 1 || !slices.Contains(alone[0].Record.Tags, "network") {
			t.Fatalf("%q alone: want one incident of a network record, got %d:%s", f, len(alone), describe(alone))
		}
		got := scanLines(t, m, append([]string{f}, wrapper...))
		if len(got) != 1 || leadOf(got[0]) != leadOf(alone[0]) || len(got[0].Context) == 0 {
			t.Errorf("%q then the wrapper: want one incident led by %s with the wrapper as context, got %d:%s", f, leadOf(alone[0]), len(got), describe(got))
		}
	}
	sigquit := "[2025-10-29 11:00:44] Received sigquit from a child process. It usually means the child failed."
	wantWrapper := leadOf(scanLines(t, m, wrapper)[0])
	if got := scanLines(t, m, append([]string{sigquit}, wrapper...)); len(got) != 1 || leadOf(got[0]) != wantWrapper {
		t.Errorf("the parent's report of the death, then the wrapper: want one incident led by %s, got %d:%s", wantWrapper, len(got), describe(got))
	}
}

// C++'s "terminate called after throwing an instance of 'T'" reports the
// process's death by an exception that another line says: c10d's watchdog
// line printed through its logger, which leaves after the runtime's report
// (its inner exception in a wording no record has: the records that read
// it are left out), or the what() line that interleaved ranks' reports cut
// from it. The death never leads over that line: one incident, led by the
// line that says what failed, the death listed in it.
func TestADeathReportYieldsToTheLineThatSaysWhatFailed(t *testing.T) {
	m := matcherWithout(t, "cuda-illegal-memory-access", "cuda-unspecified-launch-failure", "nccl-watchdog-collective-timeout", "gloo-enforce-not-met")
	death := "terminate called after throwing an instance of 'c10::DistBackendError'"
	for _, c := range []struct{ line, says string }{
		{"[rank2]:[E802 22:07:03.844033572 ProcessGroupNCCL.cpp:2119] [PG ID 2 PG GUID 3 Rank 2] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered", "illegal memory access"},
		{"[rank0]:[E1107 10:14:48.121581262 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated with exception: CUDA error: unspecified launch failure", "unspecified launch failure"},
		{"[rank3]:[E502 09:11:40.518123456 ProcessGroupNCCL.cpp:1682] [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1) ran for 90 milliseconds before timing out.", "Watchdog caught collective operation timeout"},
	} {
		got := scanLines(t, m, []string{death, c.line})
		if len(got) != 1 || !leadsWith(got[0], c.says) || len(got[0].Consequences) == 0 {
			t.Errorf("the death, then %q: want one incident led by that line with the death listed, got %d:%s", c.says, len(got), describe(got))
		}
	}
	// A wrapper whose traceback was cut says no more than the death: one
	// incident all the same.
	cut := []string{death, "[2026-06-01 00:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):"}
	if got := scanLines(t, m, cut); len(got) != 1 {
		t.Errorf("the death, then a cut wrapper: want one incident, got %d:%s", len(got), describe(got))
	}
	// Ranks' reports interleaved: the what() line, cut from its report,
	// says what failed.
	interleaved := []string{
		"terminate called after throwing an instance of 'terminate called after throwing an instance of 'gloo::EnforceNotMetgloo::EnforceNotMet'",
		"'",
		"  what():    what():  [enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 128 vs 8  what():  [enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 128 vs 8",
		"terminate called after throwing an instance of '",
		"gloo::EnforceNotMet'",
		"Fatal Python error: Aborted",
	}
	if got := scanLines(t, m, interleaved); len(got) != 1 || !leadsWith(got[0], "enforce fail") {
		t.Errorf("interleaved reports: want one incident led by the what() line, got %d:%s", len(got), describe(got))
	}
}

// Slurm's step daemon says why it ended a job ("*** STEP ... CANCELLED AT
// ... DUE TO TIME LIMIT ***"); srun's "tasks ...: Terminated" after it
// only reports the tasks it ended. With no record of the banner's wording
// (the record of Slurm's cancel is left out), the banner still leads, in
// one incident with the kill reports, in each source's wording.
func TestASchedulersKillLeadsTheTasksItEnded(t *testing.T) {
	m := matcherWithout(t, "slurm-job-cancelled")
	for _, lines := range [][]string{
		{
			"srun: Force Terminated job 32233190",
			"srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
			"slurmstepd: error: *** STEP 32233190.0 ON nid01934 CANCELLED AT 2020-07-03T02:59:56 DUE TO TIME LIMIT ***",
			"srun: error: nid01934: tasks 2,4-5,7: Terminated",
			"srun: Terminating job step 32233190.0",
			"srun: error: nid01935: tasks 8-15: Terminated",
		},
		{
			"srun: Job step aborted: Waiting up to 47 seconds for job step to finish.",
			"slurmstepd: error: *** JOB 494583 ON node-7 CANCELLED AT 2024-04-20T09:09:37 DUE TO TIME LIMIT ***",
			"slurmstepd: error: *** STEP 494583.0 ON node-7 CANCELLED AT 2024-04-20T09:09:37 DUE TO TIME LIMIT ***",
			"srun: error: node-7: task 0: Terminated",
		},
	} {
		got := scanLines(t, m, lines)
		if len(got) != 1 || !leadsWith(got[0], "DUE TO TIME LIMIT") {
			t.Errorf("%q: want one incident led by the cancel banner, got %d:%s", lines[2], len(got), describe(got))
		}
	}
}

// torch_npu prints CANN's report of a failed operator call ("call
// aclnnEqScalar failed, detail:EZ9999: Inner Error!" and the block that
// says why) and then its own summary under an error code ("[ERROR] ...
// ERR01005 OPS internal error"), which only says something failed. With
// no record of the call's wording (npu-function-error left out), the CANN
// report still leads, with the summary listed in its incident, in each
// report's wording.
func TestACodedSummaryYieldsToTheReportBeforeIt(t *testing.T) {
	m := matcherWithout(t, "npu-function-error")
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{[]string{
			"[E OpParamMaker.cpp:273] call aclnnEqScalar failed, detail:EZ9999: Inner Error!",
			"EZ9999: 2024-05-17-18:46:14.721.067  Op Equal does not has any binary.",
			"        TraceBack (most recent call last):",
			"        Kernel Run failed. opType: 88, Equal",
			"        launch failed for Equal, errno:561000.",
			"",
			"[ERROR] 2024-05-17-18:46:14 (PID:40093, Device:0, RankID:-1) ERR01005 OPS internal error",
		}, "aclnnEqScalar"},
		{[]string{
			"[E OpParamMaker.cpp:273] call aclnnCast failed, detail:EZ9999: Inner Error!",
			"EZ9999: 2024-05-17-01:30:26.960.959  Op Cast does not has any binary.",
			"        TraceBack (most recent call last):",
			"        Kernel Run failed. opType: 53, Cast",
			"        launch failed for Cast, errno:561000.",
			"",
			"[ERROR] 2024-05-17-01:30:26 (PID:41961, Device:0, RankID:-1) ERR01005 OPS internal error",
		}, "aclnnCast"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || !leadsWith(got[0], c.says) || len(got[0].Consequences) == 0 {
			t.Errorf("%s's report, then the coded summary: want one incident led by the report with the summary listed, got %d:%s", c.says, len(got), describe(got))
		}
	}
}

// A device's sticky error after a line no record names, without a
// library's native shape, that says what failed on the device: DeepEP's
// kernels print their timeouts with the device's printf, a plain line.
// That line is the first report of the fault and leads, as a native line
// would (the records of DeepEP's timeouts left out); a line that only
// says something failed does not.
func TestAStickyDeviceErrorFollowsAPlainLineThatSaidWhatFailed(t *testing.T) {
	m := matcherWithout(t, "deepep-timeout")
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{[]string{
			"DeepEP dispatch NVL receiver timeout, channel: 6, RDMA: 0, nvl: 0, src NVL: 5, head: 315, tail: 315",
			"DeepEP dispatch NVL receiver timeout, channel: 10, RDMA: 0, nvl: 0, src NVL: 5, head: 300, tail: 300",
			"terminate called after throwing an instance of 'EPException'",
			"  what():  Failed: CUDA error /workspace/DeepEP/csrc/deep_ep.cpp:83 'unspecified launch failure'",
		}, "NVL receiver timeout"},
		{[]string{
			"DeepEP dispatch forwarder timeout (RDMA meta), channel: 2, RDMA: 1, nvl: 7, src RDMA lane: 3, dst NVL: 7, meta: 0, 0, 0, 0",
			"RuntimeError: CUDA error: unspecified launch failure",
		}, "forwarder timeout"},
	} {
		if alone := scanLines(t, m, c.lines[:1]); len(alone) != 1 || alone[0].Record.ID != "" {
			t.Fatalf("%q alone: want one unclassified incident, got %d:%s", c.lines[0], len(alone), describe(alone))
		}
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || !leadsWith(got[0], c.says) {
			t.Errorf("%s, then the sticky error: want one incident led by the first line, got %d:%s", c.says, len(got), describe(got))
		}
	}
	crash := "RuntimeError: CUDA error: unspecified launch failure"
	want := leadOf(scanLines(t, m, []string{crash})[0])
	if got := scanLines(t, m, []string{"ERROR: request failed", crash}); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("a line that only says something failed, then the crash: want %s to lead, got %d:%s", want, len(got), describe(got))
	}
}
