package pipeline

import (
	"log/slog"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/health"
	"github.com/logmatch/logmatch/internal/source"
)

// BenchmarkGatingEntry is what the gate adds to every entry of a kubelet
// log: the target lookup, the container-log and startup-line checks.
func BenchmarkGatingEntry(b *testing.B) {
	g := &gating{gate: health.New(health.Options{}), log: slog.New(slog.DiscardHandler)}
	fs := &fileState{path: "/var/log/pods/llm_sglang-0_u1/sglang/0.log", pod: source.Pod{Namespace: "llm", Name: "sglang-0", UID: "u1", Container: "sglang"}}
	e := &entry.Entry{Message: "Decode batch, #running-req: 12, #token: 4096, token usage: 0.31, cuda graph: True, gen throughput (token/s): 1234.5, #queue-req: 0"}
	now := time.Date(2026, 5, 28, 10, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		g.entry(fs, e, now)
	}
}
