package matcher

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/patterns"
)

// Compile with Options.Refuse keeps, drops and reports exactly what
// patterns.RefuseCatastrophic followed by Compile does: the load path's
// one-parse form of the same check.
func TestCompileRefuseAgreesWithRefuseCatastrophic(t *testing.T) {
	recs := []patterns.Record{
		{ID: "bad", MessagePattern: `(a+)+$`, Origin: patterns.Origin{File: "c.jsonl", Line: 1}},
		{ID: "good", MessagePattern: `Synthetic failure #(\d+)`, Origin: patterns.Origin{File: "c.jsonl", Line: 2}},
		{ID: "suspect", MessagePattern: `(.*a){12}`, Origin: patterns.Origin{File: "c.jsonl", Line: 3}},
		{ID: "broken", MessagePattern: `(abc`, Origin: patterns.Origin{File: "c.jsonl", Line: 4}},
		{ID: "plain", MessagePattern: `CUDA out of memory`, Origin: patterns.Origin{File: "c.jsonl", Line: 5}},
	}
	// The bad pattern is exponential: it fails any budget, so a short one
	// keeps the test quick without making the verdicts depend on load.
	opts := patterns.LintOptions{ProbeTimeout: 100 * time.Millisecond, ProbeRunes: 48}

	kept, wantProbs := patterns.RefuseCatastrophic(recs, opts)
	want, compileProbs := Compile(kept, Options{})
	wantProbs = append(wantProbs, compileProbs...)

	got, gotProbs := Compile(recs, Options{Refuse: &opts})

	ids := func(m *Matcher) []string {
		var out []string
		for _, r := range m.Records() {
			out = append(out, r.ID)
		}
		return out
	}
	if diff := cmp.Diff(ids(want), ids(got)); diff != "" {
		t.Errorf("records compiled (-two steps +Refuse):\n%s", diff)
	}
	msgs := func(ps []patterns.Problem) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Level.String()+" "+p.Error())
		}
		return out
	}
	if diff := cmp.Diff(msgs(wantProbs), msgs(gotProbs)); diff != "" {
		t.Errorf("problems (-two steps +Refuse):\n%s", diff)
	}
	if len(gotProbs) < 3 {
		t.Errorf("want the refusal, the warning and the parse error, got %v", msgs(gotProbs))
	}
	for i := range want.Records() {
		if diff := cmp.Diff(want.Required(i), got.Required(i)); diff != "" {
			t.Errorf("record %s literals differ (-two steps +Refuse):\n%s", want.Records()[i].ID, diff)
		}
	}
}
