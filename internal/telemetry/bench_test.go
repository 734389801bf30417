package telemetry

import (
	"context"
	"testing"
	"time"
)

// BenchmarkHit measures one hit count on a label set seen before: the
// per-hit cost on the matching path.
func BenchmarkHit(b *testing.B) {
	m := benchMetrics(b)
	b.ReportAllocs()
	for b.Loop() {
		m.Hit("rec-1", "critical")
	}
}

// BenchmarkLinesRead measures the per-batch cost on the reading path (two
// counters).
func BenchmarkLinesRead(b *testing.B) {
	m := benchMetrics(b)
	b.ReportAllocs()
	for b.Loop() {
		m.LinesRead("/var/log/sglang.log", 1, 120)
	}
}

// BenchmarkEntriesAssembled measures the per-entry count, made once for
// every entry a source yields: about once per line.
func BenchmarkEntriesAssembled(b *testing.B) {
	m := benchMetrics(b)
	b.ReportAllocs()
	for b.Loop() {
		m.EntriesAssembled("/var/log/sglang.log", 1)
	}
}

// BenchmarkReadLag measures the per-line lag gauge.
func BenchmarkReadLag(b *testing.B) {
	m := benchMetrics(b)
	b.ReportAllocs()
	for b.Loop() {
		m.ReadLag("/var/log/sglang.log", 120*time.Millisecond)
	}
}

// BenchmarkPerLineParallel measures the two per-line methods called from
// two goroutines at once, as the tailer and the processor do.
func BenchmarkPerLineParallel(b *testing.B) {
	m := benchMetrics(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.ReadLag("/var/log/sglang.log", 120*time.Millisecond)
			m.EntriesAssembled("/var/log/sglang.log", 1)
		}
	})
}

// BenchmarkHitParallel measures contention on one label set.
func BenchmarkHitParallel(b *testing.B) {
	m := benchMetrics(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Hit("rec-1", "critical")
		}
	})
}

func benchMetrics(b *testing.B) *Metrics {
	tel, err := New(context.Background(), Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := tel.Shutdown(context.Background()); err != nil {
			b.Error(err)
		}
	})
	return tel.Metrics()
}
