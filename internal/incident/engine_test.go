package incident

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// The alert names the engine and lists the record's neutral solutions
// followed by that engine's remedies; an unknown engine gets the neutral
// ones only.
func TestFromDiagnosisEngineRemedies(t *testing.T) {
	rec := &patterns.Record{
		ID: "82948e87499ab48f", Slug: "cuda-out-of-memory", Severity: patterns.SeverityCritical,
		Solutions: []string{"Check with nvidia-smi that no other process holds memory on the GPU"},
		Remedies: map[string][]string{
			"sglang": {"Lower --mem-fraction-static"},
			"vllm":   {"Lower --gpu-memory-utilization"},
		},
	}
	e := &entry.Entry{Source: "p", Text: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", Raw: "x"}
	hits := []matcher.Hit{{Record: rec, Line: e.Text}}
	d := &analysis.Diagnosis{Cause: &hits[0], Role: patterns.RoleCause, Signal: analysis.SignalRecord,
		Severity: patterns.SeverityCritical, Headline: e.Text, Key: rec.ID}
	for _, c := range []struct {
		engine string
		want   []string
	}{
		{"vllm", []string{rec.Solutions[0], "Lower --gpu-memory-utilization"}},
		{"sglang", []string{rec.Solutions[0], "Lower --mem-fraction-static"}},
		{"tgi", rec.Solutions},
		{"", rec.Solutions},
	} {
		a := FromDiagnosis(e, d, Source{Path: "p", Engine: c.engine}, t0).Alert
		if a.Engine != c.engine {
			t.Errorf("engine %q: alert engine %q", c.engine, a.Engine)
		}
		if diff := cmp.Diff(c.want, a.Record.Solutions); diff != "" {
			t.Errorf("engine %q: solutions (-want +got):\n%s", c.engine, diff)
		}
	}
	if len(rec.Solutions) != 1 {
		t.Errorf("the record's own solutions changed: %q", rec.Solutions)
	}
}

// sglangWords are what only an sglang server understands.
var sglangWords = regexp.MustCompile(`(?i:\bsglang\b|\bsgl[-_]kernel\b)|--mem-fraction-static|--cuda-graph-max-bs|--chunked-prefill-size|--disable-cuda-graph|--max-running-requests|--tp-size|--attention-backend|--sampling-backend|--watchdog-timeout|--model-path|--skip-server-warmup|--grammar-backend|--dist-init-addr|--context-length|--max-total-tokens|--tokenizer-path|--speculative-`)

// The first steps of a failure no record names are sglang's on an sglang
// log; on another engine's log, or one not known, they are the family's
// engine-neutral step, which names no sglang option.
func TestTriageStepsPerEngine(t *testing.T) {
	var triages []analysis.Triage
	for f := range familySteps {
		triages = append(triages, analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", Family: f})
	}
	triages = append(triages, analysis.Triage{Component: "grammar backend"}, analysis.Triage{Process: "scheduler"})
	for _, tr := range triages {
		for _, eng := range []string{"vllm", "tgi", "ollama", ""} {
			steps := withTriage(onEngine(tr, eng), []string{"generic"})
			for _, s := range steps {
				if w := sglangWords.FindString(s); w != "" {
					t.Errorf("triage %+v on engine %q names %q: %s", tr, eng, w, s)
				}
			}
			if tr.Family != "" && !slices.Contains(steps, familyNeutral[tr.Family]) {
				t.Errorf("triage %+v on engine %q: steps %q, want the family's neutral step", tr, eng, steps)
			}
			if len(steps) < 2 {
				t.Errorf("triage %+v on engine %q: no step besides the generic ones", tr, eng)
			}
		}
		if sg := withTriage(onEngine(tr, "sglang"), nil); len(sg) == 0 {
			t.Errorf("triage %+v on sglang: no step", tr)
		}
	}
	for f := range familySteps {
		if familyNeutral[f] == "" {
			t.Errorf("family %q has no engine-neutral step", f)
		}
	}
	for p := range phaseSteps {
		if phaseNeutral[p] == "" {
			t.Errorf("phase %q has no engine-neutral step", p)
		}
	}
	for c := range componentSteps {
		if componentNeutral[c] == "" {
			t.Errorf("component %q has no engine-neutral step", c)
		}
	}
	for p := range processNeutral {
		if w := sglangWords.FindString(processSteps[p]); w != "" {
			t.Errorf("process %q's step is shown on every engine but names %q", p, w)
		}
	}
	if !slices.ContainsFunc(withTriage(analysis.Triage{Family: analysis.FamilyMemory, SGLang: true}, nil), func(s string) bool {
		return strings.Contains(s, "--mem-fraction-static")
	}) {
		t.Errorf("sglang's memory step lost its option")
	}
}

// onEngine is tr as FromDiagnosis reads it for a source of engine eng
// whose entry does not name sglang itself.
func onEngine(tr analysis.Triage, eng string) analysis.Triage {
	tr.SGLang = eng == sglangEngine
	return tr
}
