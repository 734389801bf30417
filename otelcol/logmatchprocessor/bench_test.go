package logmatchprocessor

import (
	"context"
	"errors"
	"os"
	"testing"

	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/processor/processorhelper"

	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

// generatedCatalog is the 5,695-record catalog kept beside the repository
// (shared/catalogs), the scale the sidecar is measured at.
const generatedCatalog = "../../../shared/catalogs/sglang-generated.jsonl"

// benchBatch is the records per plog.Logs: filelog's default batch.
const benchBatch = 100

// BenchmarkProcessLogs measures records per second through processLogs over
// realistic sglang lines (0.1% error lines built from the catalog's
// errorMessage fields), one line per record as filelog hands them over.
//
//	go test -run XXX -bench ProcessLogs -benchtime 200x ./
func BenchmarkProcessLogs(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  func(*Config)
		msgs string // catalog whose errorMessages make the error lines
	}{
		{name: "catalog=default/incidents=on", cfg: func(*Config) {}, msgs: "testdata/ascend-transfer-engine.jsonl"},
		{name: "catalog=default/incidents=off", cfg: func(c *Config) { c.EmitIncidents = false }, msgs: "testdata/ascend-transfer-engine.jsonl"},
		{name: "catalog=default/forward=none", cfg: func(c *Config) { c.Forward = ForwardNone }, msgs: "testdata/ascend-transfer-engine.jsonl"},
		{name: "catalog=generated/incidents=on", cfg: func(c *Config) {
			c.Catalogs = []string{generatedCatalog}
			c.NoDefaultCatalog = true
		}, msgs: generatedCatalog},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := os.Stat(bc.msgs); err != nil {
				b.Skipf("catalog: %v", err)
			}
			recs, _ := patterns.LoadFile(bc.msgs)
			var msgs []string
			for _, r := range recs {
				if r.ErrorMessage != "" {
					msgs = append(msgs, r.ErrorMessage)
				}
			}
			lines := benchdata.New(benchdata.Config{Seed: 1, ErrorRate: 0.001, ErrorMessages: msgs}).Lines(200 * benchBatch)
			batches := make([]plog.Logs, 0, len(lines)/benchBatch)
			for i := 0; i < len(lines); i += benchBatch {
				ins := make([]input, benchBatch)
				for j := range ins {
					ins[j] = input{Body: lines[i+j]}
				}
				batches = append(batches, logsOf(b, ins...))
			}
			p := startProcessor(b, defaultConfig(bc.cfg), consumertest.NewNop())
			ctx := context.Background()
			work := plog.NewLogs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				work = plog.NewLogs()
				batches[i%len(batches)].CopyTo(work)
				b.StartTimer()
				// forward: none sends nothing on while no incident is due.
				if _, err := p.processLogs(ctx, work); err != nil && !errors.Is(err, processorhelper.ErrSkipProcessingData) {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
