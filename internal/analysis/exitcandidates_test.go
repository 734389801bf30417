package analysis

import (
	"strings"
	"testing"
)

// exitCandidatesByIndex is exitCandidates by plain searches: the phrases
// the watchdog and Go exit readers need, each found by strings.Index.
func exitCandidatesByIndex(line string) (watchdog, goExit bool) {
	head := line
	if len(head) > watchdogHead {
		head = head[:watchdogHead]
	}
	return strings.Contains(head, "atchdog "), strings.Contains(line, "signal: ") || strings.Contains(line, "exit status 13")
}

// TestExitCandidates checks exitCandidates against its plain searches on
// lines composed from the writers the two readers know (sglang's
// watchdogs, a timer thread's, Go's os/exec as Ollama, a supervisor and
// the kubelet quote it) with each phrase moved through the line's head
// and past its bound, alone and together, and on routine lines full of
// 'g's.
func TestExitCandidates(t *testing.T) {
	phrases := []string{"Watchdog timeout", "watchdog timed out", "signal: killed", "signal: segmentation fault", "exit status 137", "atchdog ", "signal: ", "exit status 13", "signal:", "atchdog", "exit status 1"}
	fillers := []string{"", "g", "gg ", "total: 3 ", "exited ", "hdo", "Scheduler ", "token usage: 0.42, cuda graph: True, gen throughput (token/s): 639.81 ", "x", "error=\"", "llama runner process has terminated: "}
	lines := []string{
		"",
		"g",
		"signal: ",
		"atchdog ",
		"Decode batch, #running-req: 91, #token: 262607, token usage: 1.00, cuda graph: True, gen throughput (token/s): 639.81, #queue-req: 26",
		`level=ERROR source=server.go:614 msg="llama runner terminated" error="signal: illegal instruction (core dumped)"`,
		"Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
		"Error syncing pod, skipping: failed to \"StartContainer\": exit status 139",
	}
	for _, p := range phrases {
		for _, a := range fillers {
			for _, b := range fillers {
				lines = append(lines, a+p+b, a+b+p, p+a+p+b)
				for pad := 0; pad < watchdogHead+4; pad += 3 {
					lines = append(lines, strings.Repeat("g", pad)+a+p+b, strings.Repeat(".", pad)+p+a)
				}
			}
		}
	}
	for _, l := range lines {
		w, x := exitCandidates(l)
		if bw, bx := exitCandidatesByByte(l); bw != w || bx != x {
			t.Errorf("exitCandidatesByByte(%q) = %v, %v; exitCandidates says %v, %v", l, bw, bx, w, x)
		}
		ww, wx := exitCandidatesByIndex(l)
		if w != ww || x != wx {
			t.Errorf("exitCandidates(%q) = %v, %v; the plain searches say %v, %v", l, w, x, ww, wx)
		}
	}
}

// FuzzExitCandidates holds exitCandidates to its plain searches, and
// watchdogOrGoExit to the two readers it stands for.
func FuzzExitCandidates(f *testing.F) {
	for _, s := range []string{
		"Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
		"llama runner process has terminated: signal: illegal instruction (core dumped)",
		"runner exited: exit status 137",
		"gsignal: atchdog g",
		"Decode batch, token usage: 1.00, cuda graph: True, gen throughput (token/s): 639.81",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, x := exitCandidates(s)
		if bw, bx := exitCandidatesByByte(s); bw != w || bx != x {
			t.Fatalf("exitCandidatesByByte(%q) = %v, %v; exitCandidates says %v, %v", s, bw, bx, w, x)
		}
		if ww, wx := exitCandidatesByIndex(s); w != ww || x != wx {
			t.Fatalf("exitCandidates(%q) = %v, %v; the plain searches say %v, %v", s, w, x, ww, wx)
		}
		if got, want := watchdogOrGoExit(s), watchdogFired(s) || goExitFailure(s); got != want {
			t.Fatalf("watchdogOrGoExit(%q) = %v, the readers say %v", s, got, want)
		}
	})
}
