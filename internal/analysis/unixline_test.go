package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/patterns"
)

// A failure line no record reads still alerts when it says so the way its
// writer's tradition does: a program's "prog: error: ..." diagnostic
// (Slurm, llama.cpp's functions, argparse, the dynamic loader, docker's
// client, PostgreSQL's client, GNU make), a diagnostic report's "× "
// summary (pip, uv and the Rust tools drawing error chains so), a failure
// sentence ending in the status it failed with (a store's set-up, Ray's
// worker exit detail, Python's subprocess), a rejection quoting the
// object's repr (a dispatcher with no handler for a request type). The
// messages are made up, so that no record of the catalog reads them; the
// headline names the line, and the lines of the same writers that report
// progress stay silent.
func TestFailureLinesOfTheUnixTradition(t *testing.T) {
	m := defaultMatcher(t)
	for _, tt := range []struct {
		name, in, headline string
		role               patterns.Role
		family             string
	}{
		{"slurm step", "slurmstepd: error: widget step 77.0 lost 3 tasks to the oom-kill of its cgroup\n",
			"slurmstepd: error: widget step 77.0 lost 3 tasks to the oom-kill of its cgroup", patterns.RoleCause, analysis.FamilyKilled},
		{"slurm behind a task label", "3: srun: error: quasar-12: task 3: widget socket closed\n",
			"srun: error: quasar-12: task 3: widget socket closed", patterns.RoleCause, ""},
		{"llama.cpp function", "common_init_from_params: error: the widget cache is unreadable\n",
			"common_init_from_params: error: the widget cache is unreadable", patterns.RoleCause, analysis.FamilyLibrary},
		{"kinded error", "acme-container-cli: initialization error: widget registry locked\n",
			"acme-container-cli: initialization error: widget registry locked", patterns.RoleCause, analysis.FamilyLibrary},
		{"make", "make[1]: *** [widgets/Makefile:31: frob.o] Error 2\n",
			"make[1]: *** [widgets/Makefile:31: frob.o] Error 2", patterns.RoleCause, ""},
		{"after an sglang record", "[2025-03-01 10:00:00 TP0] Load weight end. type=LlamaForCausalLM\nsrun: error: quasar-12: task 0: widget frobnication refused\n",
			"srun: error: quasar-12: task 0: widget frobnication refused", patterns.RoleCause, ""},
		{"report mark", "  × Failed to frobnicate `widget-lib==1.2.3`\n",
			"× Failed to frobnicate `widget-lib==1.2.3`", patterns.RoleCause, ""},
		{"status at the end of an sglang record", "[2025-03-01 10:00:00 TP1] Widget store could not be attached, error code: -5\n",
			"Widget store could not be attached, error code: -5", patterns.RoleConsequence, ""},
		{"worker exit detail", "Worker exit detail: Widget worker stopped. Widget worker exits with an exit code 3.\n",
			"Worker exit detail: Widget worker stopped. Widget worker exits with an exit code 3.", patterns.RoleConsequence, ""},
		{"rejected object", "[14:26:31] Invalid object: FrobnicateReqInput(widget='a', count=2)\n",
			"Invalid object: FrobnicateReqInput(widget='a', count=2)", patterns.RoleCause, analysis.FamilySupport},
		{"rejected class", "Unknown request type: <class 'widgets.io.FrobReq'>\n",
			"Unknown request type: <class 'widgets.io.FrobReq'>", patterns.RoleCause, analysis.FamilySupport},
	} {
		an := analysis.New(m)
		var st analysis.Stream
		var got []analysis.Diagnosis
		for _, e := range entries(tt.in) {
			if d, ok := an.AnalyzeStream(&st, &e); ok {
				got = append(got, d)
			}
		}
		if len(got) != 1 {
			t.Errorf("%s: %d failures, want 1", tt.name, len(got))
			continue
		}
		d := got[0]
		if d.Cause != nil || d.Headline != tt.headline || d.Role != tt.role || tt.family != "" && d.Triage.Family != tt.family {
			t.Errorf("%s: record %v headline %q role %q family %q; want unclassified %q %q %q", tt.name, d.Cause != nil,
				d.Headline, d.Role, d.Triage.Family, tt.headline, tt.role, tt.family)
		}
	}
}

// The same writers' routine lines, and lines that only look like their
// failures, stay silent.
func TestRoutineLinesOfTheUnixTradition(t *testing.T) {
	m := defaultMatcher(t)
	for _, in := range []string{
		"srun: job 9479148 queued and waiting for resources\n",
		"srun: job 9479148 has been allocated resources\n",
		"slurmstepd: info: widget step 3 started\n",
		"llama_model_loader: loaded meta data with 33 key-value pairs and 291 tensors\n",
		"main: build = 964 (f3c3b4b)\n",
		"launch_server.py: warning: flag --widget is deprecated\n",
		"eval: error rate: 0.05\n",
		"make: *** Waiting for unfinished jobs....\n",
		"make[1]: Leaving directory '/src/widgets'\n",
		"  │ exit code: 1\n",
		"  Building wheel for widget-lib (pyproject.toml) ... done\n",
		"[2025-03-01 10:00:00] Widget worker exited with code 0\n",
		"[2025-03-01 10:00:00] Widget worker stopped, exit code: 143\n",
		"exited with code 1\n",
		"[2025-03-01 10:00:00 TP0] Invalid value for --widget: 3, using the default\n",
		"[2025-03-01 10:00:00] Decode batch. #running-req: 1, #token: 100, gen throughput (token/s): 30.5, #queue-req: 0\n",
		"[2025-03-01 10:00:00] Unknown widget: frob, skipped\n",
		"2025-03-01 10:00:00,000 INFO worker.py:1 -- Worker exits with an exit code 1.\n",
	} {
		an := analysis.New(m)
		var st analysis.Stream
		for _, e := range entries(in) {
			if d, ok := an.AnalyzeStream(&st, &e); ok {
				t.Errorf("%q: alerted %q (%s)", strings.TrimSpace(in), d.Headline, d.Signal)
			}
		}
	}
}
