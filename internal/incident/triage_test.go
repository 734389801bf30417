package incident

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
)

func TestTriageHeadlineAndSteps(t *testing.T) {
	tests := []struct {
		name      string
		tr        analysis.Triage
		rank      string
		fragment  bool
		headline  string
		firstStep string // a prefix of the first solution; "" for none
	}{
		{
			name:      "the scheduler of a rank died while loading weights",
			tr:        analysis.Triage{Process: "scheduler", Phase: "loading weights", Family: analysis.FamilyWeights, SGLang: true},
			rank:      "TP1",
			headline:  "scheduler TP1 died while loading weights: KeyError: 'x'",
			firstStep: "It failed while loading the checkpoint",
		},
		{
			name:      "the component's step comes first",
			tr:        analysis.Triage{Process: "scheduler", Phase: "serving requests", Component: "grammar backend", Family: analysis.FamilyImport, SGLang: true},
			headline:  "scheduler died while serving requests in the grammar backend: KeyError: 'x'",
			firstStep: "A structured-output grammar failed",
		},
		{
			name:      "a component alone",
			tr:        analysis.Triage{Component: "speculative decoding", SGLang: true},
			headline:  "speculative decoding failed: KeyError: 'x'",
			firstStep: "Speculative decoding failed",
		},
		{
			name:      "a fragment says its traceback lost its exception line",
			tr:        analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", SGLang: true},
			rank:      "TP0",
			fragment:  true,
			headline:  "scheduler TP0 died while capturing CUDA graphs (its traceback lost its exception line): KeyError: 'x'",
			firstStep: "It failed while capturing CUDA graphs",
		},
		{
			name:      "a process alone: its own step",
			tr:        analysis.Triage{Process: "scheduler", SGLang: true},
			headline:  "scheduler died: KeyError: 'x'",
			firstStep: "This rank's scheduler died",
		},
		{
			// Another engine's log, or one that does not say: the
			// engine-neutral step of its family, never sglang's.
			name:      "memory on another engine: the neutral step only",
			tr:        analysis.Triage{Process: "scheduler", Phase: "loading weights", Family: analysis.FamilyMemory},
			headline:  "scheduler died while loading weights: KeyError: 'x'",
			firstStep: "It failed while loading the checkpoint: check that the model directory",
		},
		{
			name:     "nothing known: the line as printed, no step",
			headline: "KeyError: 'x'",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := triageHeadline(tt.tr, tt.rank, "KeyError: 'x'", tt.fragment); got != tt.headline {
				t.Errorf("headline %q, want %q", got, tt.headline)
			}
			generic := []string{"Search the server's known issues"}
			sol := withTriage(tt.tr, generic)
			switch {
			case tt.firstStep == "" && len(sol) != 1:
				t.Errorf("solutions %q, want the generic ones alone", sol)
			case tt.firstStep != "" && (len(sol) < 2 || !strings.HasPrefix(sol[0], tt.firstStep) || sol[len(sol)-1] != generic[0]):
				t.Errorf("solutions %q, want %q... first and the generic ones last", sol, tt.firstStep)
			}
			if !tt.tr.SGLang {
				for _, s := range sol {
					if strings.Contains(s, "--") || strings.Contains(strings.ToLower(s), "sglang") {
						t.Errorf("a step for a log that is not sglang's names sglang or its flags: %q", s)
					}
				}
			}
		})
	}
}

// TestCutTracebackNamesTheStatementOfItsLastFrame: a traceback cut before
// its exception line is headed by its last frame and the statement that
// frame was running, which is what failed.
func TestCutTracebackNamesTheStatementOfItsLastFrame(t *testing.T) {
	text := "Traceback (most recent call last):\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2001, in run_scheduler_process\n" +
		"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py\", line 215, in initialize\n" +
		"    self.init_cuda_graphs()\n" +
		"    ^^^^^^^^^^^^^^^^^^^^^^^\n"
	a := entry.NewAssembler(entry.Options{})
	var es []entry.Entry
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		es = append(es, a.Push(entry.Line{Text: l, Offset: int64(i)})...)
	}
	es = append(es, a.Flush()...)
	if len(es) != 1 {
		t.Fatalf("%d entries, want 1", len(es))
	}
	m, err := matcher.Compile(nil, matcher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := analysis.New(m).Analyze(&es[0])
	if !ok || !d.Fragment {
		t.Fatalf("diagnosis %+v, want a fragment", d)
	}
	got := fragmentLine(&es[0], &d)
	want := "Traceback (most recent call last): (last frame: initialize in /sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py:215, running self.init_cuda_graphs())"
	if got != want {
		t.Errorf("fragmentLine =\n%q\nwant\n%q", got, want)
	}
}
