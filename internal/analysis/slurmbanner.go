package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Slurm's step daemon announces the end of a job or a step it was told to
// stop in a banner framed in stars, at its error level: "slurmstepd:
// error: *** JOB 13055114 ON node17 CANCELLED AT 2020-07-11T22:48:26 DUE
// TO TIME LIMIT ***", "*** STEP 12.0 ON node3 CANCELLED AT ... DUE TO
// NODE FAILURE ***", "... DUE TO PREEMPTION ***". The reason after "DUE
// TO" is the scheduler's: a limit reached, a node lost, a job preempted;
// the server in the job ends with it, a failure whoever reads it. The
// banner without a reason is a cancel someone asked for (scancel), and
// one "DUE TO JOB REQUEUE" a job the scheduler runs again: stops, not
// failures. The entry package keeps the banner from being a diagnostic
// of its own (a state: entry's banner); slurmCancelled reads it wherever
// it stands, behind the daemon's name, a quote or a paste's markup.

// slurmCancelled reports whether l holds Slurm's cancel banner (see
// above) with a reason that is a failure.
func slurmCancelled(l string) bool {
	i := ascii.IndexByRare(l, " CANCELLED AT ", 1)
	if i < 0 {
		return false
	}
	open := strings.LastIndex(l[:i], "*** ")
	if open < 0 {
		return false
	}
	entity := l[open+len("*** ") : i]
	if !strings.HasPrefix(entity, "JOB ") && !strings.HasPrefix(entity, "STEP ") || !strings.Contains(entity, " ON ") {
		return false
	}
	rest := l[i+len(" CANCELLED AT "):]
	end := strings.Index(rest, " ***")
	if end < 0 {
		return false
	}
	_, reason, ok := strings.Cut(rest[:end], " DUE TO ")
	return ok && reason != "" && !strings.Contains(reason, "REQUEUE")
}
