package stream

import (
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/internal/entry"
)

// Lines of two engines in one stream, synthesized: each engine's serving
// lines, and one failure of each, vLLM's under its process prefix and
// logger header, sglang's under its ranked header through its runtime's
// frames. Both print the same words for an unsupported architecture,
// which each engine's own record names.
const archExc = "ValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: ['LlamaForCausalLM']"

var (
	vllmServing = []string{
		"(APIServer pid=7) INFO 09-28 15:47:18 [api_server.py:1896] vLLM API server version 0.10.2",
		"(EngineCore_DP0 pid=9) INFO 09-28 15:47:20 [core.py:70] Initializing a V1 LLM engine",
	}
	vllmFailure = []string{
		"(EngineCore_DP0 pid=9) ERROR 09-28 15:47:21 [core.py:708] EngineCore failed to start.",
		"(EngineCore_DP0 pid=9) ERROR 09-28 15:47:21 [core.py:708] Traceback (most recent call last):",
		`(EngineCore_DP0 pid=9) ERROR 09-28 15:47:21 [core.py:708]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 699, in run_engine_core`,
		"(EngineCore_DP0 pid=9) ERROR 09-28 15:47:21 [core.py:708]     engine_core = EngineCoreProc(*args, **kwargs)",
		"(EngineCore_DP0 pid=9) ERROR 09-28 15:47:21 [core.py:708] " + archExc,
	}
	sglangServing = []string{
		"[2026-05-28 00:11:08 TP0] Load weight begin. avail mem=78.12 GB",
		"[2026-05-28 00:11:08 TP1] Load weight begin. avail mem=78.12 GB",
	}
	sglangFailure = []string{
		"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3120, in run_scheduler_process`,
		"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)",
		archExc,
	}
	tgiServing = []string{
		"2023-09-26T21:47:50.100000Z  INFO text_generation_launcher: Starting download process.",
		"2023-09-26T21:47:55.200000Z  INFO text_generation_launcher: Successfully downloaded weights.",
	}
	tgiFailure = []string{
		"2023-09-26T21:48:00.969072Z ERROR text_generation_launcher: Method Warmup encountered an error.",
		"Traceback (most recent call last):",
		`  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/models/flash_causal_lm.py", line 755, in warmup`,
		"    raise RuntimeError(",
		"RuntimeError: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`",
	}
	relayedVLLM = "[2026-05-28 00:11:10] ValueError: [address=127.0.0.1:37657, pid=3125985] User-specified max_model_len (4096) is greater than the derived max_model_len (seq_length=2048 or model_max_length=None in model's config.json)."
)

// A log that carries two engines reads each failure with its own
// engine's record, whichever engine's lines came first and decided the
// stream, and hands the entry on with that engine.
func TestShellReadsEachEngineOwnEntries(t *testing.T) {
	const vSlug, sSlug = "vllm-model-architecture-not-supported", "model-architecture-not-supported"
	join := func(parts ...[]string) []string { return slices.Concat(parts...) }
	for _, c := range []struct {
		name        string
		lines       []string
		slugs, engs []string
	}{
		{"sglang's lines, then vLLM's failure", join(sglangServing, vllmServing, vllmFailure), []string{vSlug}, []string{engine.VLLM}},
		{"vLLM's lines, then sglang's failure", join(vllmServing, sglangServing, sglangFailure), []string{sSlug}, []string{engine.SGLang}},
		{"sglang's failure, then vLLM's", join(sglangServing, sglangFailure, vllmServing, vllmFailure), []string{sSlug, vSlug}, []string{engine.SGLang, engine.VLLM}},
		{"vLLM's failure, then sglang's", join(vllmServing, vllmFailure, sglangServing, sglangFailure), []string{vSlug, sSlug}, []string{engine.VLLM, engine.SGLang}},
		// Relayed without either engine's header: the stream's engine
		// reads it; a vLLM stream never takes sglang's record.
		{"vLLM's stream, a bare line", join(vllmServing, []string{"", archExc}), []string{vSlug}, []string{engine.VLLM}},
		{"sglang's stream, a bare line", join(sglangServing, []string{"", archExc}), []string{sSlug}, []string{engine.SGLang}},
		// Another engine in an sglang stream: TGI's launcher and its
		// traceback; vLLM's refusal relayed (an actor's address in front)
		// in a line no engine's own shape names.
		{"sglang's stream, TGI's traceback", join(sglangServing, tgiFailure), []string{"tgi-not-enough-memory-warmup"}, []string{engine.TGI}},
		{"sglang's stream, vLLM's relayed line", join(sglangServing, []string{"", relayedVLLM}), []string{"vllm-max-model-len-exceeds-derived"}, []string{engine.VLLM}},
		{"TGI's stream, sglang's failure", join(tgiServing, sglangFailure), []string{sSlug}, []string{engine.SGLang}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sh := NewShell(defaultMatcher(t), nil)
			s := NewSet(entry.Options{}).Get("")
			slugs, engines := diagnoseAll(sh, s, c.lines...)
			if !slices.Equal(slugs, c.slugs) || !slices.Equal(engines, c.engs) {
				t.Errorf("failures %q on engines %q, want %q on %q\n%s", slugs, engines, c.slugs, c.engs, strings.Join(c.lines, "\n"))
			}
		})
	}
}

// A configured engine is the operator's word for every entry: an entry
// under another engine's header is still read as the configured engine's.
func TestShellConfiguredEngineOverridesEntry(t *testing.T) {
	sh := NewShell(defaultMatcher(t), nil)
	set := NewSet(entry.Options{})
	set.SetEngine(engine.VLLM)
	s := set.Get("")
	slugs, engines := diagnoseAll(sh, s, slices.Concat(sglangServing, sglangFailure)...)
	for i := range slugs {
		if slugs[i] == "model-architecture-not-supported" || engines[i] != engine.VLLM {
			t.Errorf("configured vLLM: failure %q on %q, want no sglang record, on vllm", slugs[i], engines[i])
		}
	}
}
