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
		{"slurm step", "slurmstepd: error: widget plugin could not attach to step 77.0 cgroup.\n",
			"slurmstepd: error: widget plugin could not attach to step 77.0 cgroup.", patterns.RoleCause, analysis.FamilyLibrary},
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
		{"cargo without a program", "error: could not compile `widget-kernels` (lib) due to 3 previous errors\n",
			"error: could not compile `widget-kernels` (lib) due to 3 previous errors", patterns.RoleCause, ""},
		{"apt", "E: Unable to locate package libwidget-dev\n",
			"E: Unable to locate package libwidget-dev", patterns.RoleCause, ""},
		{"curl's exit code", "curl: (52) Empty reply from server, widget health check failed\n",
			"curl: (52) Empty reply from server, widget health check failed", patterns.RoleCause, ""},
		{"rejected object", "[14:26:31] Invalid object: FrobnicateReqInput(widget='a', count=2)\n",
			"Invalid object: FrobnicateReqInput(widget='a', count=2)", patterns.RoleCause, analysis.FamilySupport},
		{"rejected object cut after its colon", "[14:26:31] Invalid object: \nFrobnicateReqInput(widget_path='/mnt/widgets/a-very-long-name',\nload_format='auto')\n",
			"Invalid object: FrobnicateReqInput(widget_path='/mnt/widgets/a-very-long-name',", patterns.RoleCause, analysis.FamilySupport},
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
		"[2025-03-01 10:00:00] Unknown widgets:\nfrob, skipped\n",
		"2025-03-01 10:00:00,000 INFO worker.py:1 -- Worker exits with an exit code 1.\n",
		"W: Failed to fetch http://archive.widgets/dists/x  404  Not Found\n",
		"Errors: 0, warnings: 2\n",
		"results: (3) widgets found\n",
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

// A routine line that reports another component's abnormal death alerts
// as that death's consequence, in the words of Ray's core worker,
// supervisord and torch's elastic agent; their ordinary deaths, and a
// state quoted in an echoed text, stay silent.
func TestDeathReportsAtRoutineLevels(t *testing.T) {
	m := defaultMatcher(t)
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"[2021-09-14 10:11:20,565 I 2122527 2122927] actor_manager.cc:139: received notification on actor, state: DEAD, actor_id: 80, num_restarts: 0, has creation_task_exception=1\n", true},
		{"2024-05-01 10:00:00,000 INFO exited: widgetd (exit status 1; not expected)\n", true},
		{"INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left; will restart worker group\n", true},

		{"[2021-09-14 10:11:20,565 I 2122527 2122927] actor_manager.cc:139: received notification on actor, state: DEAD, actor_id: 80, num_restarts: 0, has creation_task_exception=0\n", false},
		{"[2021-09-14 10:11:20,565 I 2122527 2122927] actor_manager.cc:139: received notification on actor, state: ALIVE, actor_id: 80\n", false},
		{"2024-05-01 10:00:00,000 INFO exited: widgetd (exit status 0; expected)\n", false},
		{"INFO:torch.distributed.elastic.agent.server.api:[default] Worker group SUCCEEDED\n", false},
		{"INFO 12-04 10:00:00 [logger.py:60] Generated response chatcmpl-1: output: 'the worker died unexpectedly, state: FAILED'\n", false},
		{"2024-05-01 10:00:00,000 INFO Test suite: 3 FAILED tests rerun\n", false},
	} {
		an := analysis.New(m)
		var st analysis.Stream
		n, role := 0, patterns.Role("")
		for _, e := range entries(tt.in) {
			if d, ok := an.AnalyzeStream(&st, &e); ok {
				n, role = n+1, d.Role
				if d.Cause == nil && d.Triage.Family != analysis.FamilyDied {
					t.Errorf("%q: unclassified family %q, want %q", strings.TrimSpace(tt.in), d.Triage.Family, analysis.FamilyDied)
				}
			}
		}
		if got := n > 0; got != tt.want || got && role != patterns.RoleConsequence {
			t.Errorf("%q: %d failures (role %q), want a failure %v", strings.TrimSpace(tt.in), n, role, tt.want)
		}
	}
}

// The job schedulers' and runtimes' words for a cgroup's OOM kill are the
// killed family, whatever prints them.
func TestOOMKillWordsAreTheKilledFamily(t *testing.T) {
	for _, msg := range []string{
		"slurmstepd: error: Detected 2 oom-kill event(s) in step 3756240.batch cgroup.",
		"Detected 1 oom_kill event in StepId=11300781.0. Some of the step tasks have been OOM Killed.",
		"Last State: Terminated, Reason: OOMKilled, Exit Code: 137",
	} {
		if f := analysis.MessageFamily(msg); f != analysis.FamilyKilled {
			t.Errorf("MessageFamily(%q) = %q, want %q", msg, f, analysis.FamilyKilled)
		}
	}
}
