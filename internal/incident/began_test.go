package incident_test

import (
	"fmt"
	"strings"
	"testing"
)

// A library's first line of an event leads the consequence line it then
// prints about the same event, when that first line says what went wrong
// and no record reads it: c10d's watchdog says which collective stalled
// before it says it detected an exception at that work; a transfer
// engine's glog says why a peer refused before it says a transfer could
// not be submitted. These tests compose such events from several writers
// (torch's c10d lines with and without the rank prefix, Mooncake's glog
// lines), in first-line wordings no record has, under every layout.

// libraryEvent is one library's event: an unclassified first line that
// says what went wrong, a vague one that only says a task failed, and the
// line a consequence record reads.
type libraryEvent struct {
	name               string
	first, vague, then string
	// later is the first line's text moved to the same time as then,
	// printed after it.
	later string
}

var libraryEvents = []libraryEvent{
	{
		name:  "c10d's watchdog, rank-prefixed",
		first: "[rank3]:[E601 12:00:01.000001000 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog found collective operation stalled: WorkNCCL(SeqNum=12, OpType=BROADCAST, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) made no progress for 600100 milliseconds.",
		vague: "[rank3]:[E601 12:00:01.000001000 ProcessGroupNCCL.cpp:632] [Rank 3] Collective failed on rank3",
		then:  "[rank3]:[E601 12:00:01.000102000 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 3] Exception (either an error or timeout) detected by watchdog at work: 12, last enqueued NCCL work: 12, last completed NCCL work: 11.",
		later: "[rank3]:[E601 12:00:01.000201000 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog found collective operation stalled: WorkNCCL(SeqNum=12, OpType=BROADCAST, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) made no progress for 600100 milliseconds.",
	},
	{
		name:  "c10d's watchdog, bare",
		first: "[E601 12:00:01.000001000 ProcessGroupNCCL.cpp:640] [Rank 0] Watchdog found work stuck: WorkNCCL(SeqNum=7, OpType=ALLGATHER) still pending after 1800000 ms.",
		vague: "[E601 12:00:01.000001000 ProcessGroupNCCL.cpp:640] [Rank 0] Work failed.",
		then:  "[E601 12:00:01.000102000 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 7, last enqueued NCCL work: 9, last completed NCCL work: 6.",
		later: "[E601 12:00:01.000201000 ProcessGroupNCCL.cpp:640] [Rank 0] Watchdog found work stuck: WorkNCCL(SeqNum=7, OpType=ALLGATHER) still pending after 1800000 ms.",
	},
	{
		name:  "a transfer engine's glog",
		first: "E0601 12:00:01.000001 123 rdma_endpoint.cpp:210] Peer segment rejected the handshake: QP number mismatch (local 77, remote 0)",
		vague: "E0601 12:00:01.000001 123 client.cpp:444] Transfer failed for task0",
		then:  "E0601 12:00:01.000101 123 transfer_engine.cpp:420] Failed to submit transfer operation",
		later: "E0601 12:00:01.000201 123 rdma_endpoint.cpp:210] Peer segment rejected the handshake: QP number mismatch (local 77, remote 0)",
	},
}

// message is what follows the header of a c10d or glog line.
func message(line string) string {
	_, msg, _ := strings.Cut(line, "] ")
	if strings.HasPrefix(line, "[rank") {
		_, msg, _ = strings.Cut(msg, "] ")
	}
	return msg
}

func TestALibrarysFirstLineLeadsTheConsequenceItReports(t *testing.T) {
	m := crashMatcher(t)
	for _, ev := range libraryEvents {
		for _, l := range layouts {
			lines := func(ss ...string) []string {
				out := []string{l.line(healthy[0])}
				for _, s := range ss {
					out = append(out, l.line(s))
				}
				return out
			}
			first, then := message(ev.first), message(ev.then)

			got := scanLines(t, m, lines(ev.first, ev.then))
			if len(got) != 1 || !strings.Contains(got[0].Headline, first) || got[0].Record.ID != "" {
				t.Errorf("%s, %s: want one incident led by the unclassified first line %q, got %d:%s", ev.name, l.name, first, len(got), describe(got))
			} else if len(got[0].Consequences) != 1 || !strings.Contains(got[0].Consequences[0].Headline, then) {
				t.Errorf("%s, %s: want the consequence line listed in the incident, got %+v", ev.name, l.name, got[0].Consequences)
			}

			// Printed after the consequence, the same line is its detail.
			got = scanLines(t, m, lines(ev.then, ev.later))
			if len(got) != 1 || got[0].Record.ID == "" || !strings.Contains(got[0].Headline, then) {
				t.Errorf("%s, %s, first line printed after: want one incident led by the consequence record, got %d:%s", ev.name, l.name, len(got), describe(got))
			}

			// A first line that only says a task failed says less than
			// the consequence's record.
			got = scanLines(t, m, lines(ev.vague, ev.then))
			if len(got) != 1 || got[0].Record.ID == "" || !strings.Contains(got[0].Headline, then) {
				t.Errorf("%s, %s, vague first line: want one incident led by the consequence record, got %d:%s", ev.name, l.name, len(got), describe(got))
			}
		}
	}
}

// TestALibrarysLinesApartAreTwoIncidents: the first line and a consequence
// line of the same library printed forty minutes apart, healthy serving
// between, are two failures.
func TestALibrarysLinesApartAreTwoIncidents(t *testing.T) {
	m := crashMatcher(t)
	for _, ev := range libraryEvents {
		lines := []string{ev.first}
		for k := 0; k < 20; k++ {
			lines = append(lines, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-06-01 12:%02d:00", 10+k), 1))
		}
		then := strings.NewReplacer("E601 12:00:01", "E601 12:40:01", "E0601 12:00:01", "E0601 12:40:01").Replace(ev.then)
		lines = append(lines, then)
		if got := scanLines(t, m, lines); len(got) != 2 {
			t.Errorf("%s, healthy lines between: want two incidents, got %d:%s", ev.name, len(got), describe(got))
		}
	}
}
