package incident_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

// A native library's event whose first line no record names, but says
// what failed, is led by that line; a record that names a later line of
// the event is listed in its incident. The events are composed from three
// libraries' own shapes (NCCL's WARN lines, a glog-logging transfer
// engine, UCX's log lines), each first line in a wording no record has.
// A first line that only says something failed, one of another process,
// or one printed far before the later line yields the lead as before.

var nativeEvents = []struct {
	name, first string
	later       []string
}{
	{"NCCL", "node-1:2288:2597 [0] transport/shm.cc:190 NCCL WARN Unable to map the peer's send buffer into this process",
		[]string{"node-1:2288:2597 [0] enqueue.cc:54 NCCL WARN Cuda failure 'invalid resource handle'"}},
	{"glog transfer engine", "E0115 05:20:19.945159   309 rdma_context.cpp:81] Failed to query the port state of mlx5_8 port 1",
		[]string{"W0115 05:20:19.945183   309 rdma_transport.cpp:656] Disable device mlx5_8",
			"E0115 05:20:19.945197   309 rdma_transport.cpp:106] RdmaTransport: cannot initialize RDMA resources"}},
	{"UCX", "[1647516906.396356] [node-1:82049:0]   ib_md.c:293  UCX  ERROR ibv_query_device(mlx5_0) returned unexpected status 95",
		[]string{"[1647516906.396400] [node-1:82049:0]   ucp_mm.c:164 UCX  ERROR failed to register address 0x7f mem_type bit 0x1 length 4096 on md[4]=mlx5_0: Input/output error (md reg_mem_types 0x15)"}},
}

func TestANativeEventIsLedByItsFirstLine(t *testing.T) {
	m := crashMatcher(t)
	for _, ev := range nativeEvents {
		alone := scanLines(t, m, []string{ev.first})
		if len(alone) != 1 || alone[0].Record.ID != "" {
			t.Fatalf("%s: the first line alone: want one unclassified incident, got %d:%s", ev.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		last := ev.later[len(ev.later)-1]
		if got := scanLines(t, m, []string{last}); len(got) != 1 || got[0].Record.ID == "" {
			t.Fatalf("%s: the later line alone: want one classified incident, got %d:%s", ev.name, len(got), describe(got))
		}
		got := scanLines(t, m, append([]string{ev.first}, ev.later...))
		if len(got) != 1 || leadOf(got[0]) != want {
			t.Errorf("%s: want one incident led by %s, got %d:%s", ev.name, want, len(got), describe(got))
		}
	}
}

// TestANativeEventsLaterRecordLeadsAVagueOrForeignFirstLine: the later
// line's record leads when the first line only says that an operation
// failed, when NCCL's prefix names another process for it, and when it
// was printed long before, healthy serving between.
func TestANativeEventsLaterRecordLeadsAVagueOrForeignFirstLine(t *testing.T) {
	m := crashMatcher(t)
	engine := nativeEvents[1]
	later := engine.later[len(engine.later)-1]
	want := leadOf(scanLines(t, m, []string{later})[0])
	vague := "E0115 05:20:19.945159   309 rdma_context.cpp:81] Operation failed"
	if got := scanLines(t, m, []string{vague, later}); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("a vague first line: want %s to lead, got %d:%s", want, len(got), describe(got))
	}
	nccl := nativeEvents[0]
	ncclLater := nccl.later[0]
	ncclWant := leadOf(scanLines(t, m, []string{ncclLater})[0])
	peer := strings.Replace(nccl.first, "node-1:2288:2597", "node-2:3001:3101", 1)
	for _, g := range scanLines(t, m, []string{peer, ncclLater}) {
		if g.Record.ID == "" && len(g.Consequences) > 0 {
			t.Errorf("another process's first line: it took %s's line as its own:%s", ncclWant, describe([]sinks.Alert{g}))
		}
	}
	lines := []string{engine.first}
	for k := 0; k < 40; k++ {
		lines = append(lines, fmt.Sprintf("I0115 05:%02d:19.000000   309 transfer_engine_impl.cpp:420] Transfer batch done: 64 slices", 21+k))
	}
	lines = append(lines, strings.Replace(later, "05:20:19", "05:59:19", 1))
	if got := scanLines(t, m, lines); len(got) != 2 {
		t.Errorf("a first line, healthy serving, then the later line: want two incidents, got %d:%s", len(got), describe(got))
	}
}
