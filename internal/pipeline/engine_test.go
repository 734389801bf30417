package pipeline

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// The configured engine of a path reaches the alert: its name, the
// remedies of that engine after the record's own solutions, and records
// of other engines dropped. A path no rule names is detected from its
// lines.
func TestProcessorConfiguredEngine(t *testing.T) {
	cfg, err := config.Load("c.yaml", []byte("engines: [{engine: tgi, paths: [/var/log/pods/ns_pod_uid/c/*.log]}]\n"),
		func(string) string { return "" }, func(string) ([]byte, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		lines      []criLine
		want       []string // engine, solutions and other records matched of each alert
	}{
		{"configured", "/var/log/pods/ns_pod_uid/c/0.log", []criLine{
			{"stderr", "[2026-05-28 00:11:09 TP0] Only sglang says this"},
			{"stderr", "RuntimeError: CUDA error: out of memory"},
		}, []string{"tgi", "neutral", "--cuda-memory-fraction 0.9"}}, // sglang's record dropped
		{"detected", "/var/log/other/0.log", []criLine{
			{"stderr", "[2026-05-28 00:11:09 TP0] Only sglang says this"},
			{"stderr", "RuntimeError: CUDA error: out of memory"},
		}, []string{"sglang", "neutral", "--mem-fraction-static 0.8", "also sglang-only"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := openTestStore(t, state.Options{})
			p := newTestProcessor(t, store)
			m, probs := matcher.Compile([]patterns.Record{
				{ID: "only", Slug: "sglang-only", MessagePattern: `Only sglang says this`, Severity: patterns.SeverityError,
					Solutions: []string{"sglang's own step"}, Engines: []string{"sglang"}},
				{ID: "oom", Slug: "cuda-error-out-of-memory", MessagePattern: `CUDA error: out of memory`, Severity: patterns.SeverityCritical,
					Solutions: []string{"neutral"}, Remedies: map[string][]string{"sglang": {"--mem-fraction-static 0.8"}, "tgi": {"--cuda-memory-fraction 0.9"}}},
			}, matcher.Options{})
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			p.matcher.Store(m)
			p.engineOf = cfg.EngineOf
			off := int64(0)
			for _, l := range c.lines {
				n := int64(len(l.text) + 1)
				sl := source.Line{Path: c.path, File: source.FileID{Dev: 1, Ino: 7, Size: 10}, Next: off + n}
				sl.Text, sl.Stream, sl.Offset, sl.Source = l.text, l.stream, off, c.path
				p.line(sl)
				off += n
			}
			p.flushAll()
			if _, err := p.commit(); err != nil {
				t.Fatal(err)
			}
			items, _, err := store.Peek("stdout", 100)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				var a struct {
					Engine    string
					Record    struct{ Solutions []string }
					Secondary []struct{ Slug string }
				}
				if err := json.Unmarshal(it.Payload, &a); err != nil {
					t.Fatal(err)
				}
				got = append(got, a.Engine)
				got = append(got, a.Record.Solutions...)
				for _, h := range a.Secondary {
					got = append(got, "also "+h.Slug)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("alerts' engine and solutions (-want +got):\n%s", diff)
			}
		})
	}
}
