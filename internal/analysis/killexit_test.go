package analysis

import (
	"strings"
	"testing"
)

// killOrExitByReaders is what killReportOrExit stands for, by the readers
// themselves: the two shapes of killReport and the watchdog and Go exit
// readers behind watchdogOrGoExit.
func killOrExitByReaders(l string) bool {
	return memoryKill(l) || childFailed(l) || watchdogFired(l) || goExitFailure(l)
}

// TestKillReportOrExitEveryPlace holds killReportOrExit to the two
// readers it merges (killReport, watchdogOrGoExit) and to the readers
// behind them, with the words and phrases of both, their near misses and
// each of both sets' triples at every place of lines of 34 to 104 bytes,
// alone, after one another and before a reason, an ending or a fatal
// signal's name.
func TestKillReportOrExitEveryPlace(t *testing.T) {
	words := []string{"killed", "Killed", "skilled", "child", "Child", "chld", "kil", "Kil", "hil", "hdo", "al:", "xit",
		"Watchdog ", "watchdog timeout", "atchdog", "signal: ", "signal: killed", "signal:", "exit status 13", "exit status 137", "exited: exit status 139", "terminated: signal: aborted"}
	tails := []string{"", " (OOM)", " failed", " out of memory and died", " (core dumped)", " timeout"}
	pres := []string{"", " ", "x", "Child ", "runner exited: ", "Scheduler watchdog "}
	n := 0
	for size := 34; size <= 104; size += 10 {
		for _, w := range words {
			for _, tail := range tails {
				for _, pre := range pres {
					for at := 0; at+len(pre)+len(w)+len(tail) <= size; at++ {
						l := strings.Repeat(".", at) + pre + w + tail
						l += strings.Repeat("-", size-len(l))
						got := killReportOrExit(l)
						if want := killReport(l) || watchdogOrGoExit(l); got != want {
							t.Fatalf("killReportOrExit(%q) = %v, killReport and watchdogOrGoExit say %v", l, got, want)
						}
						if want := killOrExitByReaders(l); got != want {
							t.Fatalf("killReportOrExit(%q) = %v, the readers say %v", l, got, want)
						}
						n++
					}
				}
			}
		}
	}
	for _, l := range []string{
		"",
		"short",
		"runner exited: exit status 137",
		"2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node",
		"Received sigquit from a child process. It usually means the child failed.",
		"Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
		`msg="llama runner terminated" error="signal: illegal instruction (core dumped)"`,
		"Decode batch, #running-req: 91, #token: 262607, token usage: 1.00, cuda graph: True, gen throughput (token/s): 639.81, #queue-req: 26",
		"the child process was killed due to memory pressure, then the runner exited: exit status 139",
	} {
		if got, want := killReportOrExit(l), killReport(l) || watchdogOrGoExit(l); got != want {
			t.Errorf("killReportOrExit(%q) = %v, killReport and watchdogOrGoExit say %v", l, got, want)
		}
	}
	if n == 0 {
		t.Fatal("no line tried")
	}
}

// FuzzKillReportOrExit holds killReportOrExit to the two readers it
// merges and to the readers behind them.
func FuzzKillReportOrExit(f *testing.F) {
	for _, s := range []string{
		"2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons",
		"Received sigquit from a child process. It usually means the child failed.",
		"Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
		"llama runner process has terminated: signal: illegal instruction (core dumped)",
		"runner exited: exit status 137",
		"Decode batch. #running-req: 12, #token: 4410, token usage: 0.03, cuda graph: True, gen throughput (token/s): 600.12",
		"while the Child process started, xkilled kil Kil hil hdo al: xit led (OOM) ....",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := killReportOrExit(s)
		if want := killReport(s) || watchdogOrGoExit(s); got != want {
			t.Fatalf("killReportOrExit(%q) = %v, killReport and watchdogOrGoExit say %v", s, got, want)
		}
		if want := killOrExitByReaders(s); got != want {
			t.Fatalf("killReportOrExit(%q) = %v, the readers say %v", s, got, want)
		}
	})
}
