package pipeline

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/telemetry"
)

// BenchmarkProcessor is the processor's per-line path in run mode: four
// files' serving lines (no errors, so no alert and no commit) through the
// file and stream lookup, the metrics, the assembler and the matcher of a
// small catalog. It reports the cost per line.
func BenchmarkProcessor(b *testing.B) { benchmarkProcessor(b, 0) }

// BenchmarkProcessorErrorLines is BenchmarkProcessor with 5% of the lines
// the catalog's error messages: their occurrences go to the grouper (the
// alerts it sends wait for a commit, which the benchmark does not make).
func BenchmarkProcessorErrorLines(b *testing.B) { benchmarkProcessor(b, 0.05) }

func benchmarkProcessor(b *testing.B, errorRate float64) {
	store, err := state.Open(b.TempDir(), state.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	tel, err := telemetry.New(context.Background(), telemetry.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	p := newTestProcessor(b, store)
	p.metrics = tel.Metrics()
	p.now = time.Now // as in run mode

	var msgs []string // none at rate 0: the lines stay BenchmarkProcessor's
	for _, r := range p.matcher.Load().Records() {
		if errorRate > 0 {
			msgs = append(msgs, r.ErrorMessage)
		}
	}
	texts := benchdata.New(benchdata.Config{Seed: 1, ErrorRate: errorRate, ErrorMessages: msgs}).Lines(4096)
	lines := make([]source.Line, len(texts))
	offs := make([]int64, 4)
	for i, text := range texts {
		f := i % 4
		path := "/var/log/sglang/server-" + strconv.Itoa(f) + ".log"
		l := source.Line{Path: path, File: source.FileID{Dev: 1, Ino: uint64(100 + f), Size: 1024, Sum: [16]byte{byte(f)}}}
		l.Text, l.Source, l.Offset = text, path, offs[f]
		offs[f] += int64(len(text) + 1)
		l.Next = offs[f]
		lines[i] = l
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if n%lineBuffer == 0 {
			p.at = time.Now() // as the process loop does, once per burst
		}
		p.line(lines[n%len(lines)])
		n++
	}
}
