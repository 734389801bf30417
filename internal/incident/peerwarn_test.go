package incident_test

import "testing"

// Ranks of one job write to one stream through their own buffers: rank
// 0's NCCL reports that its peer closed the connection (a consequence
// record's line) before rank 3's own WARN lines say what failed on it
// ("Cuda failure 'out of memory'", "Failed to CUDA calloc ..."). With no
// record for rank 3's wording (left out of the catalog), rank 3's line
// still leads, and the consequence is listed in its incident. Another
// process's WARN line that only reports a socket, or the consequence's
// own process's lines after it, stay the consequence's details: one
// incident led by its record.
func TestAnotherRanksWarnAfterAConsequenceLeadsIt(t *testing.T) {
	m := matcherWithout(t, "cuda-error-out-of-memory")
	closed := []string{
		"ng30903:3063025:3066048 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer ng30903-ib.narval.calcul.quebec<51159>",
		"ng30903:3063025:3066048 [0] NCCL INFO misc/socket.cc:749 -> 6",
		"",
		"ng30903:3063025:3066048 [0] proxy.cc:1143 NCCL WARN Socket recv failed while polling for opId=0x55a51966cc80",
		"ng30903:3063025:3066048 [0] NCCL INFO transport/p2p.cc:438 -> 3",
		"ng30903:3063025:3066048 [0] NCCL INFO init.cc:1358 -> 3",
		"ng30903:3063025:3066048 [0] NCCL INFO group.cc:65 -> 3 [Async thread]",
		"",
	}
	oom := append(append([]string{}, closed...),
		"ng30903:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'",
		"",
		"ng30903:3063028:3066152 [3] include/alloc.h:185 NCCL WARN Failed to CUDA calloc 6291456 bytes",
		"ng30903:3063028:3066152 [3] NCCL INFO transport/p2p.cc:204 -> 1",
	)
	got := scanLines(t, m, oom)
	if len(got) != 1 || got[0].Record.ID != "" || !leadsWith(got[0], "Cuda failure 'out of memory'") || len(got[0].Consequences) == 0 {
		t.Errorf("rank 3's out of memory after rank 0's closed socket: want one incident led by rank 3's line, got %d:%s", len(got), describe(got))
	}
	socket := append(append([]string{}, closed...),
		"ng30903:3063028:3066152 [3] proxy.cc:1143 NCCL WARN Socket recv failed while polling for opId=0x55a51966cd10",
	)
	got = scanLines(t, m, socket)
	if len(got) != 1 || got[0].Record.Slug != "nccl-bootstrap-connection-closed" {
		t.Errorf("another rank's socket line after the closed socket: want the record leading, got %d:%s", len(got), describe(got))
	}
	own := append(append([]string{}, closed[:3]...),
		"ng30903:3063025:3066048 [0] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'",
	)
	got = scanLines(t, m, own)
	if len(got) != 1 || got[0].Record.Slug != "nccl-bootstrap-connection-closed" {
		t.Errorf("the consequence's own process's line after it: want the record leading, got %d:%s", len(got), describe(got))
	}
}
