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
	m := matcherWithout(t, "cuda-kernel-assertion-failed", "nvshmem-error-status")
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
