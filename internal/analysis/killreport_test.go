package analysis

import "testing"

// TestKillReport reads a supervisor's report of a kill for memory (Ray's
// raylet and memory monitor) and of a failed child (sglang's launcher, a
// process pool), and leaves silent a kill for another reason, a child
// that started or ended normally, and prose about memory alone.
func TestKillReport(t *testing.T) {
	for l, want := range map[string]bool{
		"(raylet) node_manager.cc:3007: 2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: ab, IP: 10.0.0.1)": true,
		"Task was killed due to the node running low on memory.":                      true,
		"Worker 3 was killed by the memory monitor: out of memory":                    true,
		"Received sigquit from a child process. It usually means the child failed.":   true,
		"A child process terminated abruptly, the process pool is not usable anymore": true,
		"Child worker 2 died with exit code -9":                                       true,

		"Killed 2 idle workers to free their slots":                            false,
		"child process started with pid 1234":                                  false,
		"Child exited with status 0":                                           false,
		"Refer to the documentation on how to address the out of memory issue": false,
		"Skilled operators only: the memory pressure threshold is 0.95":        false,
		"": false,
	} {
		if got := killReport(l); got != want {
			t.Errorf("killReport(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestKillReportFamily checks that a kill for memory is a kill and a
// failed child a component's death.
func TestKillReportFamily(t *testing.T) {
	for l, want := range map[string]string{
		"2 Workers (tasks / actors) killed due to memory pressure (OOM)":            FamilyKilled,
		"Received sigquit from a child process. It usually means the child failed.": FamilyDied,
		"child process started": "",
	} {
		if got := killReportFamily(l); got != want {
			t.Errorf("killReportFamily(%q) = %q, want %q", l, got, want)
		}
	}
}

// FuzzKillReport checks that killReport never panics and that what it
// reads names a kill or a child.
func FuzzKillReport(f *testing.F) {
	for _, s := range []string{
		"2 Workers killed due to memory pressure (OOM)",
		"killed",
		"k",
		"the child failed",
		"Child",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if killReport(s) && !memoryKill(s) && !childFailed(s) {
			t.Fatalf("killReport(%q) with neither shape", s)
		}
	})
}
