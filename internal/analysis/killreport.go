package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/triples"
)

// A supervisor reports the end of what it supervises in its own words, on
// a line its logger may print without a level (sglang's format has none,
// a relay's prefix hides Ray's): Ray's raylet that its memory monitor
// killed workers ("2 Workers (tasks / actors) killed due to memory
// pressure (OOM), 0 Workers crashed due to other reasons at node ...",
// "Task was killed due to the node running low on memory"), sglang's
// launcher that a child signalled it ("Received sigquit from a child
// process. It usually means the child failed."), a process pool that a
// child ended ("A child process terminated abruptly"). Two shapes are
// read: a kill whose line names memory as the reason (memoryKill), and a
// child that failed, died or crashed (childFailed). A line that only
// names a kill or a child ("killed 2 idle workers", "child process
// started") is none.

// memoryKillReasons name memory as the reason of a kill.
var memoryKillReasons = [...]string{"memory pressure", "low on memory", "out of memory", "(OOM)", "memory usage threshold"}

// childEnds say, after "child", that it ended badly.
var childEnds = [...]string{"failed", "died", "crashed", "terminated abruptly", "exited unexpectedly", "was killed"}

// killReport reports whether l is a supervisor's report of a kill for
// memory or of a child's failure (see above). It runs on every routine
// line: one vectorised pass (triples.Index3) finds the triples "kil" and
// "Kil" of "killed" and "hil" of "child" and "Child", which ordinary
// lines seldom hold, where a byte search of "illed" stopped at each of a
// line's many 'd's and one of "child" at each 'c'; each word is compared
// around its triple. A line shorter than the pass reads, or a processor
// without its instructions, takes killReportByByte.
func killReport(l string) bool {
	if !triples.Vector || len(l) < triples.MinLen {
		return killReportByByte(l)
	}
	k := killHits{child: -1, capChild: -1}
	for from := 0; ; {
		j := triples.Index3(l, from, killTriples)
		if j < 0 {
			break
		}
		from = j + 1
		k.hit(l, j)
		if k.done() {
			break
		}
	}
	return k.report(l)
}

// killHits is what killReport has found of its words so far: whether
// "killed" or "Killed" is a word of l, where the first "child" and the
// first "Child" open (-1 for none).
type killHits struct {
	killed          bool
	child, capChild int
}

// hit compares the word around the triple of killTriples at j of l.
func (k *killHits) hit(l string, j int) {
	if l[j] == 'h' { // "hil" of "child" or "Child"
		if j >= 1 && j+4 <= len(l) && l[j+3] == 'd' {
			if l[j-1] == 'c' && k.child < 0 {
				k.child = j - 1
			} else if l[j-1] == 'C' && k.capChild < 0 {
				k.capChild = j - 1
			}
		}
	} else if !k.killed { // "kil" or "Kil" of "killed" or "Killed"
		k.killed = j+6 <= len(l) && l[j+3:j+6] == "led" && (j == 0 || !isAlnum(l[j-1]))
	}
}

// done reports whether a search further on can change nothing: a kill and
// a "child" are found.
func (k *killHits) done() bool { return k.killed && k.child >= 0 }

// report is killReport's answer for l from what the search found.
func (k *killHits) report(l string) bool {
	if k.killed && containsAnyOf(l, memoryKillReasons[:]) {
		return true
	}
	child := k.child
	if child < 0 {
		child = k.capChild
	}
	return child >= 0 && containsAnyOf(l[child:], childEnds[:])
}

// killReportOrExit is killReport(l) || watchdogOrGoExit(l), the two
// readers quiet asks of every level-less line, in one vectorised pass
// (triples.Index6) over the six triples the two search for, where each
// took its own Index3 pass; each triple found is compared as its reader
// compares it. A line shorter than the pass reads, or a processor without
// its instructions, takes the two readers' byte searches.
func killReportOrExit(l string) bool {
	if !triples.Vector || len(l) < triples.MinLen {
		return killReportByByte(l) || watchdogOrGoExit(l)
	}
	var x exitHits
	k := killHits{child: -1, capChild: -1}
	for from := 0; ; {
		j := triples.Index6(l, from, killExitTriples)
		if j < 0 {
			break
		}
		from = j + 1
		switch l[j] {
		case 'k', 'K':
			k.hit(l, j)
		case 'h':
			if l[j+1] == 'i' { // "hil"; "hdo" is the watchdog's
				k.hit(l, j)
			} else {
				x.hit(l, j)
			}
		default: // "al:", "xit"
			x.hit(l, j)
		}
		if k.done() && x.done(from) {
			break
		}
	}
	return k.report(l) || x.watchdog && watchdogFired(l) || x.goExit && goExitFailure(l)
}

// killExitTriples are killTriples and exitTriples, for killReportOrExit.
var killExitTriples = triples.Of6("kil", "Kil", "hil", "al:", "hdo", "xit")

// killTriples are the triples killReport searches: "kil" and "Kil" of
// "killed" and "Killed", "hil" of "child" and "Child".
var killTriples = triples.Of("kil", "Kil", "hil")

// killReportByByte is killReport by byte searches, for any line: the 'd'
// of "killed", the 'c' and 'C' of "child" and "Child".
func killReportByByte(l string) bool {
	return memoryKill(l) || childFailed(l)
}

// memoryKill reports whether l says something was killed, and that
// memory was the reason.
func memoryKill(l string) bool {
	return killedWord(l) && containsAnyOf(l, memoryKillReasons[:])
}

// killedWord reports whether l holds "killed" or "Killed" as a word of
// its own ("skilled" is none).
func killedWord(l string) bool {
	for from := 0; from < len(l); {
		i := ascii.IndexByRare(l[from:], "illed", 4)
		if i < 0 {
			return false
		}
		at := from + i
		from = at + len("illed")
		if at >= 1 && (l[at-1] == 'k' || l[at-1] == 'K') && (at == 1 || !isAlnum(l[at-2])) {
			return true
		}
	}
	return false
}

// childFailed reports whether l names a child, then says it failed,
// died or crashed.
func childFailed(l string) bool {
	i := ascii.IndexByRare(l, "child", 0)
	if i < 0 {
		i = ascii.IndexByRare(l, "Child", 0)
		if i < 0 {
			return false
		}
	}
	return containsAnyOf(l[i:], childEnds[:])
}

// killReportFamily is the family of a line killReport reads: a kill for
// memory is a kill by a signal (the memory monitor's SIGKILL), a child's
// failure a component's death, whose own log holds the cause.
func killReportFamily(l string) string {
	if memoryKill(l) {
		return FamilyKilled
	}
	if childFailed(l) {
		return FamilyDied
	}
	return ""
}

// levelLessReportFamily is the family of a level-less line that a
// supervisor's or a runtime's report reader finds (killreport.go,
// slurmbanner.go, ucxfatal.go), "" for any other: Slurm's cancel for a
// limit or a lost node is a kill by the scheduler's signal; UCX's caught
// signal a native crash, its other fatal reports a native library's
// error.
func levelLessReportFamily(l string) string {
	if f := killReportFamily(l); f != "" {
		return f
	}
	if slurmCancelled(l) {
		return FamilyKilled
	}
	if ucxFatal(l) {
		if strings.Contains(l, "Caught signal") {
			return FamilyNative
		}
		return FamilyLibrary
	}
	return ""
}

// SupervisorKill reports whether l is a supervisor's report that it ended
// a process, with the reason: Slurm's cancel banner for a time limit, a
// lost node or a preemption (slurmbanner.go), a memory monitor's kill for
// memory.
func SupervisorKill(l string) bool {
	return slurmCancelled(l) || memoryKill(l)
}
