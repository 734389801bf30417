package incident_test

import (
	"fmt"
	"strings"
	"testing"
)

// A library that prints the failed call in the operating system's words
// and then what it was doing in its own is led by its own record, which
// says what to do about it, not by the general record of the errno text,
// whichever line comes first: NCCL's shared-memory transport's lines,
// with its own host:pid:tid prefix, under every layout and behind a
// bracketed date. The general line of another writer printed apart from
// the library's line is another failure.

var ownAfterGeneral = []struct {
	name         string
	general, own string
}{
	{name: "NCCL open ENOENT, then attach",
		general: "a100-8:421780:421780 [0] misc/shmutils.cc:93 NCCL WARN Call to open failed: No such file or directory",
		own:     "a100-8:421780:421780 [0] misc/shmutils.cc:129 NCCL WARN Error while attaching to shared memory segment /dev/shm/nccl-AbC123 (size 192814336), error: No such file or directory (2)"},
	{name: "NCCL open EACCES, then create",
		general: "node-1:2288:2597 [0] misc/shmutils.cc:93 NCCL WARN Call to open failed: Permission denied",
		own:     "node-1:2288:2597 [0] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)"},
	{name: "NCCL open ENOENT without the host prefix, then extend",
		general: "[0] misc/shmutils.cc:60 NCCL WARN Call to open failed: No such file or directory",
		own:     "[0] misc/shmutils.cc:62 NCCL WARN Error: failed to extend /dev/shm/nccl-xYz to 9637892 bytes"},
}

func TestALibrarysOwnRecordLeadsTheGeneralLineOfItsEvent(t *testing.T) {
	m := crashMatcher(t)
	for _, tc := range ownAfterGeneral {
		own := leadOf(scanLines(t, m, []string{tc.own})[0])
		general := leadOf(scanLines(t, m, []string{tc.general})[0])
		if own == general {
			t.Fatalf("%s: the two lines alone are led by one record %s", tc.name, own)
		}
		for _, l := range layouts {
			for _, lines := range [][]string{{tc.general, tc.own}, {tc.own, tc.general}} {
				laid := []string{l.line(lines[0]), l.line(lines[1])}
				got := scanLines(t, m, laid)
				if len(got) != 1 || leadOf(got[0]) != own {
					t.Errorf("%s, %s, %q first: want one incident led by %s, got %d:%s", tc.name, l.name, lines[0], own, len(got), describe(got))
				}
			}
		}
		// Behind a bracketed date, which no native shape reads.
		dated := []string{"[2025-05-28 03:19:56] " + tc.general, "[2025-05-28 03:19:56] " + tc.own}
		if got := scanLines(t, m, dated); len(got) != 1 || leadOf(got[0]) != own {
			t.Errorf("%s, bracketed date: want one incident led by %s, got %d:%s", tc.name, own, len(got), describe(got))
		}
	}
}

// TestAGeneralLineOfAnotherWriterStaysItsOwn: the errno record's line of a
// writer that does not name the library, printed long before the
// library's own line, healthy serving between, is another failure.
func TestAGeneralLineOfAnotherWriterStaysItsOwn(t *testing.T) {
	m := crashMatcher(t)
	lines := []string{"[2025-06-01 12:00:00] FileNotFoundError: [Errno 2] No such file or directory: '/models/llama/tokenizer.json'"}
	for k := 0; k < 30; k++ {
		lines = append(lines, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-06-01 12:%02d:00", 10+k), 1))
	}
	lines = append(lines, "[2025-06-01 12:45:00] "+ownAfterGeneral[0].own)
	if got := scanLines(t, m, lines); len(got) != 2 {
		t.Errorf("a model path's ENOENT, healthy lines, then NCCL's own line: want two incidents, got %d:%s", len(got), describe(got))
	}
}
