package incident

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
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
			tr:        analysis.Triage{Process: "scheduler", Phase: "loading weights", Family: analysis.FamilyWeights},
			rank:      "TP1",
			headline:  "scheduler TP1 died while loading weights: KeyError: 'x'",
			firstStep: "It failed while loading the checkpoint",
		},
		{
			name:      "the component's step comes first",
			tr:        analysis.Triage{Process: "scheduler", Phase: "serving requests", Component: "grammar backend", Family: analysis.FamilyImport},
			headline:  "scheduler died while serving requests in the grammar backend: KeyError: 'x'",
			firstStep: "A structured-output grammar failed",
		},
		{
			name:      "a fragment says its traceback lost its exception line",
			tr:        analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs"},
			rank:      "TP0",
			fragment:  true,
			headline:  "scheduler TP0 died while capturing CUDA graphs (its traceback lost its exception line): KeyError: 'x'",
			firstStep: "It failed while capturing CUDA graphs",
		},
		{
			name:      "a process alone: its own step",
			tr:        analysis.Triage{Process: "scheduler"},
			headline:  "scheduler died: KeyError: 'x'",
			firstStep: "This rank's scheduler died",
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
			sol := withTriage(tt.tr, "sglang", generic)
			switch {
			case tt.firstStep == "" && len(sol) != 1:
				t.Errorf("solutions %q, want the generic ones alone", sol)
			case tt.firstStep != "" && (len(sol) < 2 || !strings.HasPrefix(sol[0], tt.firstStep) || sol[len(sol)-1] != generic[0]):
				t.Errorf("solutions %q, want %q... first and the generic ones last", sol, tt.firstStep)
			}
		})
	}
}
