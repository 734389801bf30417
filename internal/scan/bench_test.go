package scan

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strconv"
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

// BenchmarkScanRepeatedErrors is BenchmarkScanErrorLines with the error
// lines of a log that repeats its errors: 64 of the catalog's messages
// (every 89th), each filled with 16 numbers, so that an error line's text
// recurs a few hundred times in a scan and its shape more often. The
// matcher keeps candidates by shape and hits by text (matcher/shapes.go);
// BenchmarkScanErrorLines, whose error lines are drawn from all 5,695
// messages, holds more shapes than it keeps.
func BenchmarkScanRepeatedErrors(b *testing.B) {
	repeated := func(msgs []string) []string {
		var out []string
		for i := 0; i < len(msgs) && len(out) < 64*16; i += 89 {
			for v := range 16 {
				out = append(out, benchdata.Fill(msgs[i], strconv.Itoa(3+v*v*37)))
			}
		}
		return out
	}
	for _, rate := range []float64{0, 0.05} {
		b.Run(fmt.Sprintf("rate=%g", rate), func(b *testing.B) { benchmarkScanWith(b, rate, repeated) })
	}
}

func benchmarkScan(b *testing.B, errorRate float64) { benchmarkScanWith(b, errorRate, nil) }

// benchmarkScanWith is benchmarkScan with the catalog's messages chosen
// from by choose (all of them when nil).
func benchmarkScanWith(b *testing.B, errorRate float64, choose func([]string) []string) {
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
	if choose != nil {
		msgs = choose(msgs)
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
	reportShapes(b, m.Stats())
}

// reportShapes reports what share of the texts the matcher looked up by
// shape were of a shape met before, and were the very text last searched
// of it (matcher.Stats), the warm-up scan included. The fields are read by
// name so that scripts/bench-ab.sh -o can build this file against
// revisions before them.
func reportShapes(b *testing.B, st matcher.Stats) {
	v := reflect.ValueOf(st)
	hits, misses, texts := v.FieldByName("ShapeHits"), v.FieldByName("ShapeMisses"), v.FieldByName("TextHits")
	if !hits.IsValid() || !misses.IsValid() || !texts.IsValid() || hits.Uint()+misses.Uint() == 0 {
		return
	}
	looked := float64(hits.Uint() + misses.Uint())
	b.ReportMetric(float64(hits.Uint())/looked, "shape-hits")
	b.ReportMetric(float64(texts.Uint())/looked, "text-hits")
}

// cpuTime is the user plus system time the process has used so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
