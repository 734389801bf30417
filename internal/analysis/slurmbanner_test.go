package analysis

import "testing"

// TestSlurmCancelled reads Slurm's cancel banner with a failure's reason,
// for a job and a step, behind the daemon's name, in a quote and alone,
// and leaves silent a cancel someone asked for, a requeue, and prose
// that names the words.
func TestSlurmCancelled(t *testing.T) {
	for l, want := range map[string]bool{
		"slurmstepd: error: *** JOB 13055114 ON compute-h-17-51 CANCELLED AT 2020-07-11T22:48:26 DUE TO TIME LIMIT ***":     true,
		"*** STEP 12.0 ON node3 CANCELLED AT 2026-05-28T00:11:09 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***":    true,
		"the job died with `slurmstepd: error: *** JOB 77 ON gpu-4 CANCELLED AT 2025-01-02T03:04:05 DUE TO PREEMPTION ***`": true,

		"slurmstepd: error: *** JOB 13055114 ON compute-h-17-51 CANCELLED AT 2020-07-11T22:48:26 ***":                    false,
		"slurmstepd: error: *** JOB 13055114 ON compute-h-17-51 CANCELLED AT 2020-07-11T22:48:26 DUE TO JOB REQUEUE ***": false,
		"The job was CANCELLED AT noon DUE TO a typo":                                                                    false,
		"*** JOB 1 ON n1 CANCELLED AT 2020-07-11T22:48:26 DUE TO TIME LIMIT":                                             false,
		"": false,
	} {
		if got := slurmCancelled(l); got != want {
			t.Errorf("slurmCancelled(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzSlurmCancelled checks that slurmCancelled never panics and says
// true only of a line with the banner's words.
func FuzzSlurmCancelled(f *testing.F) {
	for _, s := range []string{
		"*** JOB 1 ON n1 CANCELLED AT 2020-07-11T22:48:26 DUE TO TIME LIMIT ***",
		"*** STEP 1.0 ON n CANCELLED AT  DUE TO  ***",
		" CANCELLED AT ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if slurmCancelled(s) && !containsAnyOf(s, []string{" DUE TO "}) {
			t.Fatalf("slurmCancelled(%q) without a reason", s)
		}
	})
}
