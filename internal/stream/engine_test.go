package stream

import (
	"testing"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/internal/entry"
)

// diagnoseAll pushes lines through s and the shell and returns, for each
// failure, its cause's slug ("" for an unclassified one) and the engine
// the entry was handed on with.
func diagnoseAll(sh *Shell, s *Stream, lines ...string) (slugs, engines []string) {
	take := func(de *Entry) {
		if !de.Failure {
			return
		}
		slug := ""
		if de.Diagnosis.Cause != nil {
			slug = de.Diagnosis.Cause.Record.Slug
		}
		slugs = append(slugs, slug)
		engines = append(engines, de.Engine)
	}
	for i, l := range lines {
		sh.Diagnose(s, s.Push(&entry.Line{Text: l, Offset: int64(i)}), take)
	}
	sh.Diagnose(s, s.Flush(), take)
	return slugs, engines
}

// vLLM prints sglang's words for an unsupported architecture: on a stream
// detected as vLLM's, sglang's record (engines: [sglang]) does not match
// and vLLM's own record (engines: [vllm]) names the failure; on an sglang
// stream, and on one whose engine is not known, sglang's record matches;
// on a TGI stream neither does. Every entry carries the stream's engine.
func TestShellDropsRecordsOfOtherEngines(t *testing.T) {
	const exc = "ValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: ['LlamaForCausalLM']"
	for _, c := range []struct {
		name      string
		lines     []string
		set       string
		slug, eng string
	}{
		{"vLLM detected", []string{"(EngineCore_DP0 pid=1) INFO 09-28 15:47:20 [core.py:70] Initializing a V1 LLM engine", exc}, "", "vllm-model-architecture-not-supported", engine.VLLM},
		{"sglang detected", []string{"[2026-05-28 00:11:08 TP0] Load weight begin.", exc}, "", "model-architecture-not-supported", engine.SGLang},
		{"not known", []string{"starting", exc}, "", "model-architecture-not-supported", ""},
		{"configured as TGI", []string{"[2026-05-28 00:11:08 TP0] Load weight begin.", exc}, engine.TGI, "", engine.TGI},
	} {
		t.Run(c.name, func(t *testing.T) {
			sh := NewShell(defaultMatcher(t), nil)
			set := NewSet(entry.Options{})
			set.SetEngine(c.set)
			s := set.Get("")
			slugs, engines := diagnoseAll(sh, s, c.lines...)
			if len(slugs) != 1 || slugs[0] != c.slug || engines[0] != c.eng {
				t.Errorf("failures %q on engines %q, want [%q] on %q", slugs, engines, c.slug, c.eng)
			}
			if s.Engine() != c.eng {
				t.Errorf("stream engine %q, want %q", s.Engine(), c.eng)
			}
		})
	}
}

// A shared-layer record matches whatever the engine.
func TestShellKeepsSharedRecords(t *testing.T) {
	for _, eng := range []string{"", engine.VLLM, engine.Ollama} {
		sh := NewShell(defaultMatcher(t), nil)
		s := New("", entry.Options{})
		s.SetEngine(eng)
		slugs, _ := diagnoseAll(sh, s, "RuntimeError: CUDA error: out of memory")
		if len(slugs) != 1 || slugs[0] != "cuda-error-out-of-memory" {
			t.Errorf("engine %q: failures %q, want cuda-error-out-of-memory", eng, slugs)
		}
	}
}

// benchLines are a decode-heavy sglang log's routine lines.
var benchLines = []string{
	"[2026-05-28 00:11:08 TP0] Decode batch, #running-req: 3, #token: 1234, token usage: 0.02, cuda graph: True, gen throughput (token/s): 98.12, #queue-req: 0",
	"[2026-05-28 00:11:08] INFO:     127.0.0.1:55504 - \"POST /generate HTTP/1.1\" 200 OK",
}

// The cost of a line pushed through a stream whose engine is decided (as
// after its first line), against one whose engine is set by
// configuration and never read for: the difference is the detector's
// per-line cost once decided.
func BenchmarkPushEngineDecided(b *testing.B) {
	s := New("", entry.Options{Reuse: true})
	s.Push(&entry.Line{Text: benchLines[0]})
	if s.Engine() != engine.SGLang {
		b.Fatalf("engine %q, want sglang decided", s.Engine())
	}
	benchPush(b, s)
}

func BenchmarkPushEngineConfigured(b *testing.B) {
	s := New("", entry.Options{Reuse: true})
	s.SetEngine(engine.SGLang)
	benchPush(b, s)
}

func benchPush(b *testing.B, s *Stream) {
	l := entry.Line{}
	i := 0
	for b.Loop() {
		l.Text = benchLines[i%len(benchLines)]
		l.Offset = int64(i)
		s.Push(&l)
		i++
	}
}
