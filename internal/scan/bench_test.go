package scan

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// generatedCatalog is the 5,695-record catalog beside the repository (or
// where benchdata.CatalogEnv says).
var generatedCatalog = benchdata.CatalogPath("../../../shared/catalogs/sglang-generated.jsonl")

// BenchmarkScanLines is scan's per-line cost net of the catalog load: the
// generated catalog compiled once, then 300k generated sglang lines (0.1%
// error lines) scanned per op, as `logmatch scan` reads a file. cpu-ns/line
// is user+system time per line.
func BenchmarkScanLines(b *testing.B) { benchmarkScan(b, 0.001) }

// BenchmarkScanErrorLines is BenchmarkScanLines at other shares of error
// lines: none, 0.1%, 1% and 5%. What an error line costs is the
// difference of two shares' cpu-ns/line over the difference of the shares
// (scripts/bench-ab.sh sets two revisions side by side).
func BenchmarkScanErrorLines(b *testing.B) {
	for _, rate := range []float64{0, 0.001, 0.01, 0.05} {
		b.Run(fmt.Sprintf("rate=%g", rate), func(b *testing.B) { benchmarkScan(b, rate) })
	}
}

func benchmarkScan(b *testing.B, errorRate float64) {
	f, err := os.Open(generatedCatalog)
	if os.IsNotExist(err) {
		b.Skipf("%s not present", generatedCatalog)
	}
	if err != nil {
		b.Fatal(err)
	}
	recs, _ := patterns.Parse(f, generatedCatalog)
	f.Close()
	m, _ := matcher.Compile(recs, matcher.Options{})
	msgs := make([]string, 0, len(recs))
	for _, r := range recs {
		if r.ErrorMessage != "" {
			msgs = append(msgs, r.ErrorMessage)
		}
	}
	const lines = 300_000
	g := benchdata.New(benchdata.Config{Seed: 1, ErrorRate: errorRate, ErrorMessages: msgs})
	var buf bytes.Buffer
	for range lines {
		buf.WriteString(g.Line())
		buf.WriteByte('\n')
	}
	data := buf.Bytes()
	physical := int64(bytes.Count(data, []byte{'\n'})) // some messages hold a newline
	s := New(m, Options{})
	// One scan outside the timing builds the programs the errors need.
	if _, err := s.Scan(context.Background(), []Input{{Name: "bench.log", R: bytes.NewReader(data)}}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	cpu0 := cpuTime(b)
	n := 0
	for b.Loop() {
		res, err := s.Scan(context.Background(), []Input{{Name: "bench.log", R: bytes.NewReader(data)}})
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.Lines != physical {
			b.Fatalf("scanned %d lines, want %d", res.Stats.Lines, physical)
		}
		n++
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(int64(n)*physical), "cpu-ns/line")
}

// cpuTime is the user plus system time the process has used so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
