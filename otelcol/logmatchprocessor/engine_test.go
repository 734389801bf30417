package logmatchprocessor

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The configured engine names every enriched record, its remedies follow
// the record's engine-neutral solutions, and a record of another engine
// only does not match (on vLLM, vLLM's own record names the unsupported
// architecture, not sglang's); without an engine only the neutral ones are
// given.
func TestEngine(t *testing.T) {
	const oom = "RuntimeError: CUDA error: out of memory"
	const arch = "ValueError: Model architectures ['FooForCausalLM'] are not supported for now."
	for _, c := range []struct {
		engine     string
		wantSlugs  []string
		wantRemedy string // a solution only that engine's remedies give; "" for none
	}{
		{"vllm", []string{"cuda-error-out-of-memory", "vllm-model-architecture-not-supported"}, "--gpu-memory-utilization"},
		{"sglang", []string{"cuda-error-out-of-memory", "model-architecture-not-supported"}, "--mem-fraction-static"},
		{"", []string{"cuda-error-out-of-memory", "model-architecture-not-supported"}, ""},
	} {
		t.Run("engine "+c.engine, func(t *testing.T) {
			got := records(run(t, defaultConfig(func(cfg *Config) { cfg.Engine = c.engine }), logsOf(t, input{Body: oom}, input{Body: arch})))
			var slugs []string
			for _, r := range got {
				slugs = append(slugs, r.Attrs[AttrSlug].(string))
				if e, _ := r.Attrs[AttrEngine].(string); e != c.engine {
					t.Errorf("%s: engine attribute %q, want %q", r.Body, e, c.engine)
				}
			}
			if diff := cmp.Diff(c.wantSlugs, slugs); diff != "" {
				t.Errorf("slugs (-want +got):\n%s", diff)
			}
			sol, _ := got[0].Attrs[AttrSolutions].([]any)
			var all []string
			for _, s := range sol {
				all = append(all, s.(string))
			}
			joined := strings.Join(all, "\n")
			for _, flag := range []string{"--gpu-memory-utilization", "--mem-fraction-static"} {
				if has := strings.Contains(joined, flag); has != (flag == c.wantRemedy) {
					t.Errorf("solutions name %s: %v, want %v:\n%s", flag, has, flag == c.wantRemedy, joined)
				}
			}
		})
	}
	if err := defaultConfig(func(cfg *Config) { cfg.Engine = "vLLM" }).Validate(); err == nil || !strings.Contains(err.Error(), `engine: unknown engine "vLLM"`) {
		t.Errorf("Validate of an unknown engine: %v", err)
	}
}
