package analysis

import (
	"strings"
	"testing"
)

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
		"Decode batch. #running-req: 12, #token: 4410, token usage: 0.03, cuda graph: True, gen throughput (token/s): 600.12",
		"a Child process was killed; the child died after skilled work out of memory",
		"2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons",
		"Received sigquit from a child process. It usually means the child failed.",
		"while the Child process started, xkilled kil Kil hil led (OOM) ............",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := killReport(s), memoryKill(s) || childFailed(s); got != want {
			t.Fatalf("killReport(%q) = %v, the two shapes' readers say %v", s, got, want)
		}
	})
}

// TestLevelLessDeathReport reads a component's abnormal death on a line
// with no level (Ray's raylet behind its relay label, an exception's
// message), and leaves silent an ordinary exit and a death without an
// abnormal word.
func TestLevelLessDeathReport(t *testing.T) {
	for l, want := range map[string]bool{
		"(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker.": true,
		"(TaskRunner pid=3483799) ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.":                                             true,
		"supervisor: server exited: server (exit status 1; not expected)":                                                                                             true,

		"worker 3 exited with status 0":                             false,
		"The actor died because all references to it were removed.": false,
		"unexpectedly fast start-up, the worker is ready":           false,
		"": false,
	} {
		if got := levelLessDeathReport(l); got != want {
			t.Errorf("levelLessDeathReport(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestKillReportEveryPlace holds killReport to the two shapes' readers
// for "killed", "Killed", "child" and "Child" and their near misses at
// every place of lines of 34 to 90 bytes, with and without a reason or an
// ending after them, and a letter, a space or nothing before them.
func TestKillReportEveryPlace(t *testing.T) {
	words := []string{"killed", "Killed", "kille", "skilled", "child", "Child", "chil", "chld", "hild", "kil", "Kil", "hil"}
	tails := []string{"", " (OOM)", " failed", " out of memory and died"}
	for n := 34; n <= 90; n += 7 {
		for _, w := range words {
			for _, tail := range tails {
				for _, pre := range []string{"", " ", "x", "Child ", "kill "} {
					for at := 0; at+len(pre)+len(w)+len(tail) <= n; at++ {
						l := strings.Repeat(".", at) + pre + w + tail
						l += strings.Repeat("-", n-len(l))
						if got, want := killReport(l), memoryKill(l) || childFailed(l); got != want {
							t.Fatalf("killReport(%q) = %v, the two shapes' readers say %v", l, got, want)
						}
					}
				}
			}
		}
	}
}
