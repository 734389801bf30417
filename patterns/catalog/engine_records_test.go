package catalog_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/patterns"
)

// engineFiles are the embedded files of records taken from other
// engines' own error messages, and the engines each file's records must
// name. ray.jsonl describes a shared layer and names none.
var engineFiles = map[string][]string{
	"vllm.jsonl":     {"vllm"},
	"tgi.jsonl":      {"tgi"},
	"trtllm.jsonl":   {"trtllm", "triton"},
	"lmdeploy.jsonl": {"lmdeploy"},
	"ollama.jsonl":   {"ollama"},
	"llamacpp.jsonl": {"llamacpp", "ollama"},
	"ray.jsonl":      nil,
}

// sglangOnlyAdvice are words that only make sense on an sglang server;
// an engine record's advice must name the engine's own options.
var sglangOnlyAdvice = []string{
	"sglang", "sgl-kernel", "--mem-fraction-static", "--cuda-graph-max-bs", "--chunked-prefill-size",
	"--disable-cuda-graph", "--cuda-graph-backend", "--hicache", "--disaggregation-", "--max-running-requests", "--tp-size", "--sampling-backend", "SGLANG_",
	"--tokenizer-path", "--enable-memory-saver", "--enable-torch-compile", "--moe-a2a-backend",
}

// TestEngineCatalogRecords checks every record of the engine files: the
// keys every curated record carries, a unique id, engines among the
// file's, complete advice that names no sglang option, and its examples
// (testdata/engine-records.json) through the real assembler and matcher:
// each matching example must be reported, no near-miss may be.
func TestEngineCatalogRecords(t *testing.T) {
	var examples map[string]struct {
		Match []string `json:"match"`
		Miss  []string `json:"miss"`
	}
	data, err := os.ReadFile("testdata/engine-records.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, r := range append(curated(t), embedded(t, "engines.jsonl")...) {
		ids[r.ID] = true
	}
	m := compileCatalog(t)
	seen := map[string]bool{}
	for file, want := range engineFiles {
		recs := embedded(t, file)
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		if len(lines) != len(recs) {
			t.Fatalf("%s: %d lines but %d records", file, len(lines), len(recs))
		}
		for i, r := range recs {
			t.Run(file+"/"+r.Slug, func(t *testing.T) {
				var keys map[string]json.RawMessage
				if err := json.Unmarshal([]byte(lines[i]), &keys); err != nil {
					t.Fatal(err)
				}
				for _, k := range requiredKeys {
					if _, ok := keys[k]; !ok {
						t.Errorf("key %q missing", k)
					}
				}
				if !idRE.MatchString(r.ID) || ids[r.ID] {
					t.Errorf("id %q is not 16 hex chars or is used twice", r.ID)
				}
				ids[r.ID] = true
				if !slugRE.MatchString(r.Slug) {
					t.Errorf("slug %q", r.Slug)
				}
				if len(r.Engines) == 0 && want != nil {
					t.Errorf("no engines: a record of %s must name the engines that print it", file)
				}
				for _, e := range r.Engines {
					if !engine.Known(e) || !slices.Contains(want, e) {
						t.Errorf("engine %q is not one of %v", e, want)
					}
				}
				if r.Role != "" && r.Role != patterns.RoleWrapper && r.Role != patterns.RoleConsequence {
					t.Errorf("role %q", r.Role)
				}
				if len(r.Solutions) < 2 && !(len(r.Solutions) == 1 && r.HandlingStrategy == "retry") || len(r.PreventionTips) == 0 || len(r.Tags) == 0 || strings.TrimSpace(r.Documentation) == "" {
					t.Errorf("solutions %d, prevention tips %d, tags %d, documentation %q", len(r.Solutions), len(r.PreventionTips), len(r.Tags), r.Documentation)
				}
				if !slices.Contains(handlingStrategies, r.HandlingStrategy) {
					t.Errorf("handlingStrategy %q not in %v", r.HandlingStrategy, handlingStrategies)
				}
				for _, s := range append(append([]string(nil), r.Solutions...), r.PreventionTips...) {
					for _, w := range sglangOnlyAdvice {
						if strings.Contains(strings.ToLower(s), strings.ToLower(w)) {
							t.Errorf("advice names %s: %q", w, s)
						}
					}
				}
				ex, ok := examples[r.Slug]
				if !ok {
					t.Fatalf("no examples for %s", r.Slug)
				}
				seen[r.Slug] = true
				if len(ex.Match) < 2 || len(ex.Miss) < 1 {
					t.Errorf("want at least 2 matching examples and 1 near-miss, got %d and %d", len(ex.Match), len(ex.Miss))
				}
				re := compile(t, r)
				if filled := benchdata.Fill(r.ErrorMessage, "42"); !matches(t, re, filled) {
					t.Errorf("messagePattern %q does not match its own errorMessage filled: %q", r.MessagePattern, filled)
				}
				if r.ErrorType != "exception" && r.ErrorType != "log" {
					t.Errorf("errorType %q, want exception or log", r.ErrorType)
				}
				for _, text := range ex.Match {
					if !hasRecord(hitsOf(t, m, text), r.ID) {
						t.Errorf("matcher does not report %s for the entries of\n%s", r.Slug, text)
					}
				}
				for _, text := range ex.Miss {
					if matches(t, re, text) || hasRecord(hitsOf(t, m, text), r.ID) {
						t.Errorf("pattern %q matches the near-miss\n%s", r.MessagePattern, text)
					}
				}
			})
		}
	}
	for slug := range examples {
		if !seen[slug] {
			t.Errorf("examples for %s, which is in no engine file", slug)
		}
	}
}
