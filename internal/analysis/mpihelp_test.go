package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// rule is Open MPI's help box rule.
var rule = strings.Repeat("-", 74) + "\n"

// TestHelpBox reads Open MPI's help box as one failure headed by its
// sentence and its indented reasons (orte_init's local rank, orte_ess_init
// unable to start a daemon, MPI_INIT's ompi_rte_init, each from another
// report), with its rule cut from the paste too, and leaves silent a box
// that calls itself a warning and a benchmark's dashed sections.
func TestHelpBox(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"orte_init local rank", rule +
			"It looks like orte_init failed for some reason; your parallel process is\nlikely to abort.  There are many reasons that a parallel process can\nfail during orte_init; some of which are due to configuration or\nenvironment problems.  This failure appears to be an internal failure;\nhere's some additional information (which may only be relevant to an\nOpen MPI developer):\n\n" +
			"  getting local rank failed\n  --> Returned value No permission (-17) instead of ORTE_SUCCESS\n" + rule,
			[]string{"It looks like orte_init failed for some reason: getting local rank failed; Returned value No permission (-17) instead of ORTE_SUCCESS"}},
		{"orte_ess_init daemon", "[comp-bc-0240:148101] [[INVALID],INVALID] ORTE_ERROR_LOG: Unable to start a daemon on the local node in file ess_singleton_module.c at line 582\n" + rule +
			"It looks like orte_init failed for some reason; your parallel process is\nlikely to abort.  There are many reasons that a parallel process can\nfail during orte_init; some of which are due to configuration or\nenvironment problems.  This failure appears to be an internal failure;\nhere's some additional information (which may only be relevant to an\nOpen MPI developer):\n\n" +
			"  orte_ess_init failed\n  --> Returned value Unable to start a daemon on the local node (-127) instead of ORTE_SUCCESS\n" + rule,
			[]string{"orte_ess_init failed; Returned value Unable to start a daemon on the local node (-127)"}},
		{"MPI_INIT, opening rule cut", "It looks like MPI_INIT failed for some reason; your parallel process is\nlikely to abort.  There are many reasons that a parallel process can\nfail during MPI_INIT; some of which are due to configuration or environment\nproblems.  This failure appears to be an internal failure; here's some\nadditional information (which may only be relevant to an Open MPI\ndeveloper):\n\n" +
			"  ompi_mpi_init: ompi_rte_init failed\n  --> Returned \"(null)\" (-43) instead of \"Success\" (0)\n" + rule,
			[]string{"It looks like MPI_INIT failed for some reason: ompi_mpi_init: ompi_rte_init failed"}},
		{"warning box", rule + "WARNING: There was an error initializing an OpenFabrics device.\n\n  Local host:   gpu-node-1\n  Local device: mlx5_0\n" + rule, nil},
		{"defaults notice", rule + "By default, for Open MPI 4.0 and later, infiniband ports on a device\nare not used by default.  The intent is to use UCX for these devices.\n" + rule, nil},
		{"folded table border", "+----------------+---------+--------------------------------------\n" + strings.Repeat("-", 60) + "+\n| preprocessing | 1 | READY |\n+----------------+---------+--------------------------------------\n" + strings.Repeat("-", 60) + "+\n", nil},
		{"benchmark table", rule + "concurrency: 256\nelapsed_time: 123.4s\nfailed requests: 0\nerror rate: 0.00%\n" + rule, nil},
		{"benchmark sections", "============ Serving Benchmark Result ============\nSuccessful requests:                     1000\n" + strings.Repeat("-", 50) + "\nMean TTFT (ms):                          123.4\n" + strings.Repeat("-", 50) + "\n", nil},
	} {
		got := streamFailures(t, c.text)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d failures %q, want %d", c.name, len(got), got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: headline %q, want it to hold %q", c.name, got[i], w)
			}
		}
	}
}

// TestHelpBoxChildDied reads mpirun's boxes that report a process of the
// job that exited non-zero or died of a signal (from two runs' output) as
// the consequence the process's own failure leads.
func TestHelpBoxChildDied(t *testing.T) {
	text := rule + "Primary job  terminated normally, but 1 process returned\na non-zero exit code. Per user-direction, the job has been aborted.\n" + rule +
		rule + "mpirun noticed that process rank 12 with PID 6866 on node queue1-dy-compute-resource-1-1 exited on signal 9 (Killed).\n" + rule
	got := analyzeStream(defaultMatcher(t), text)
	if len(got) != 2 {
		t.Fatalf("got %d failures, want the two boxes", len(got))
	}
	if d := got[0]; d.Triage.Family != analysis.FamilyDied {
		t.Errorf("%q: family %q, want a component's death", d.Headline, d.Triage.Family)
	}
	for _, d := range got {
		if d.Role != "consequence" {
			t.Errorf("%q: role %s, want a consequence", d.Headline, d.Role)
		}
	}
	if !strings.Contains(got[1].Headline, "exited on signal 9 (Killed)") {
		t.Errorf("headline %q, want the signal death", got[1].Headline)
	}
}
