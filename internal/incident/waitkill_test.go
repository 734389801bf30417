package incident_test

import (
	"fmt"
	"strings"
	"testing"
)

// A wait that ran out and the OOM kill that ended it, in one stream and
// one moment, are one incident led by the kill, whichever was printed
// first. The waits are composed from their writers' wordings (Ollama's
// scheduler in logfmt, vLLM's engine client, a glog launcher), the kills
// from the kernel's report and systemd's. A kill that the waiter may have
// sent itself is no OOM kill, and a wait printed far from the kill is
// another failure: neither is folded so.

var timedOutWaits = []string{
	`time=2025-02-24T11:16:31.470-08:00 level=ERROR source=sched.go:455 msg="error loading llama server" error="timed out waiting for llama runner to start: context canceled"`,
	`ERROR 06-01 12:00:09 [core_client.py:512] TimeoutError: Timed out waiting for engine core processes to start`,
	`E0601 12:00:09.000000 4242 launcher.cpp:88] wait for workers timed out after 600s`,
}

var oomKills = []string{
	`Jun 01 12:00:09 node-3 systemd[1]: ollama.service: A process of this unit has been killed by the OOM killer.`,
	`[ 8123.456789] Out of memory: Killed process 4242 (python3) total-vm:123456789kB, anon-rss:98765432kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:200000kB oom_score_adj:0`,
}

func TestAnOOMKillLeadsTheWaitItEnded(t *testing.T) {
	m := crashMatcher(t)
	for _, k := range oomKills {
		want := leadOf(scanLines(t, m, []string{k})[0])
		for wi, w := range timedOutWaits {
			orders := [][]string{{k, w}}
			if wi != 1 {
				// An exception line's next unstamped line is read as its
				// message: the kill is printed first there.
				orders = append(orders, []string{w, k})
			}
			for _, lines := range orders {
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%q: want one incident led by %s, got %d:%s", lines, want, len(got), describe(got))
					continue
				}
				if len(got[0].Consequences) == 0 {
					t.Errorf("%q: want the wait listed in the kill's incident, got none", lines)
				}
			}
		}
	}
}

// TestAWaitApartFromAKillStaysItsOwn: a wait that ran out long after an
// OOM kill in its stream, healthy serving between them, is another
// failure; and a runner killed by a signal no OOM killer sent does not
// take the lead from the wait.
func TestAWaitApartFromAKillStaysItsOwn(t *testing.T) {
	m := crashMatcher(t)
	wait := timedOutWaits[0]
	waitLead := leadOf(scanLines(t, m, []string{wait})[0])
	lines := []string{oomKills[1]}
	for k := 0; k < 60; k++ {
		lines = append(lines, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-06-01 12:%02d:00", k), 1))
	}
	lines = append(lines, wait)
	got := scanLines(t, m, lines)
	if len(got) != 2 {
		t.Errorf("a kill, healthy serving, then a wait: want two incidents, got %d:%s", len(got), describe(got))
	}
	signalled := `time=2025-02-24T11:16:32.100-08:00 level=ERROR source=sched.go:460 msg="error loading llama server" error="llama runner process has terminated: signal: killed"`
	got = scanLines(t, m, []string{wait, signalled})
	if len(got) == 0 || leadOf(got[0]) != waitLead {
		t.Errorf("a wait then a runner killed by a signal: want the wait %s to lead, got %d:%s", waitLead, len(got), describe(got))
	}
}
