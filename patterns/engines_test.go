package patterns

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A record's remedies and engines load from JSONL; unknown engine names
// are warnings at file:line and are dropped, and the record still loads.
func TestParseRemediesAndEngines(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"oom","messagePattern":"CUDA out of memory","solutions":["free the GPU"],"remedies":{"vllm":["--gpu-memory-utilization 0.8"],"sglang":["--mem-fraction-static 0.8"]}}`,
		`{"id":"arch","messagePattern":"not supported","engines":["sglang"]}`,
		`{"id":"typo","messagePattern":"x","remedies":{"vLLM":["a"],"tensorrt":["b"],"tgi":["c"]},"engines":["vlm","tgi"]}`,
		`{"id":"only-bad","messagePattern":"y","engines":["nope"]}`,
		`{"id":"plain","messagePattern":"z","solutions":["s"]}`,
	}, "\n")
	recs, probs := Parse(strings.NewReader(in), "cat.jsonl")
	var got []string
	for _, p := range probs {
		got = append(got, p.Level.String()+" "+p.Error())
	}
	want := []string{
		`warning cat.jsonl:3: remedies.tensorrt: unknown engine "tensorrt" (want sglang, vllm, tgi, trtllm, triton, lmdeploy, ollama, llamacpp); its remedies are ignored`,
		`warning cat.jsonl:3: remedies.vLLM: unknown engine "vLLM" (did you mean "vllm"?); its remedies are ignored`,
		`warning cat.jsonl:3: engines[0]: unknown engine "vlm" (want sglang, vllm, tgi, trtllm, triton, lmdeploy, ollama, llamacpp); ignored`,
		`warning cat.jsonl:4: engines[0]: unknown engine "nope" (want sglang, vllm, tgi, trtllm, triton, lmdeploy, ollama, llamacpp); ignored`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(recs) != 5 {
		t.Fatalf("loaded %d records, want 5", len(recs))
	}
	if diff := cmp.Diff(map[string][]string{"vllm": {"--gpu-memory-utilization 0.8"}, "sglang": {"--mem-fraction-static 0.8"}}, recs[0].Remedies); diff != "" {
		t.Errorf("remedies (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"sglang"}, recs[1].Engines); diff != "" {
		t.Errorf("engines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]string{"tgi": {"c"}}, recs[2].Remedies); diff != "" {
		t.Errorf("remedies left after the unknown names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"tgi"}, recs[2].Engines); diff != "" {
		t.Errorf("engines left after the unknown name (-want +got):\n%s", diff)
	}
	if recs[3].Engines != nil {
		t.Errorf("engines of only unknown names = %v, want nil (every engine)", recs[3].Engines)
	}
}

// The alert's steps: the neutral solutions, then the engine's remedies;
// an unknown engine, or one without remedies, gets the neutral ones only.
func TestSolutionsFor(t *testing.T) {
	r := Record{
		Solutions: []string{"neutral"},
		Remedies:  map[string][]string{"vllm": {"--gpu-memory-utilization 0.8"}, "sglang": {"--mem-fraction-static 0.8"}},
	}
	for _, c := range []struct {
		engine string
		want   []string
	}{
		{"vllm", []string{"neutral", "--gpu-memory-utilization 0.8"}},
		{"sglang", []string{"neutral", "--mem-fraction-static 0.8"}},
		{"tgi", []string{"neutral"}},
		{"", []string{"neutral"}},
	} {
		if diff := cmp.Diff(c.want, r.SolutionsFor(c.engine)); diff != "" {
			t.Errorf("SolutionsFor(%q) (-want +got):\n%s", c.engine, diff)
		}
	}
	// The record's own slice is never appended to.
	got := r.SolutionsFor("vllm")
	got[0] = "changed"
	if r.Solutions[0] != "neutral" {
		t.Errorf("SolutionsFor shares the record's solutions and wrote into them")
	}
	onlyRemedies := Record{Remedies: map[string][]string{"ollama": {"num_gpu"}}}
	if diff := cmp.Diff([]string{"num_gpu"}, onlyRemedies.SolutionsFor("ollama")); diff != "" {
		t.Errorf("remedies without solutions (-want +got):\n%s", diff)
	}
	plain := Record{Solutions: []string{"s"}}
	if diff := cmp.Diff([]string{"s"}, plain.SolutionsFor("vllm")); diff != "" {
		t.Errorf("a record without remedies (-want +got):\n%s", diff)
	}
}

func TestForEngine(t *testing.T) {
	only := Record{Engines: []string{"sglang"}}
	shared := Record{}
	for _, c := range []struct {
		r      Record
		engine string
		want   bool
	}{
		{only, "sglang", true}, {only, "vllm", false}, {only, "", true},
		{shared, "vllm", true}, {shared, "", true},
	} {
		if got := c.r.ForEngine(c.engine); got != c.want {
			t.Errorf("engines %v: ForEngine(%q) = %v, want %v", c.r.Engines, c.engine, got, c.want)
		}
	}
}

func TestLintRemedies(t *testing.T) {
	recs := []Record{
		{ID: "a", MessagePattern: "x", Engines: []string{"sglang"}, Remedies: map[string][]string{"sglang": {"s"}, "vllm": {"v"}}, Origin: Origin{File: "c.jsonl", Line: 2}},
		{ID: "b", MessagePattern: "y", Remedies: map[string][]string{"tgi": {}}, Origin: Origin{File: "c.jsonl", Line: 3}},
		{ID: "c", MessagePattern: "z", Remedies: map[string][]string{"tgi": {"--num-shard 2"}}, Origin: Origin{File: "c.jsonl", Line: 4}},
	}
	var got []string
	for _, p := range Lint(recs, testLintOptions()) {
		got = append(got, p.Level.String()+" "+p.Error())
	}
	want := []string{
		`warning c.jsonl:2: remedies.vllm: engine "vllm" is not in engines [sglang]: the record never matches its logs, so these remedies are never shown`,
		`warning c.jsonl:3: remedies.tgi: empty: give the steps or leave the engine out`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
	}
}
