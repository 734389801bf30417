package source

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nxadm/tail"
)

const benchLines = 1_000_000

// millionLines writes a 1M-line sglang log into the benchmark's temp dir.
func millionLines(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "sglang.log")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for i := range benchLines {
		fmt.Fprintf(w, "[2026-11-29 10:%02d:%02d TP0] Decode batch. #running-req: 8, #token: %d, token usage: 0.05, gen throughput (token/s): 812.44, #queue-req: 0, line %d\n", i/60%60, i%60, i*7, i)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkTailerCatchUp measures reading a 1M-line file from its beginning,
// as after a restart with a backlog: lines/s is the number to compare.
func BenchmarkTailerCatchUp(b *testing.B) {
	path := millionLines(b)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	start := time.Now()
	for b.Loop() {
		tl, err := New(Config{Paths: []string{path}, Format: FormatRaw})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		err = tl.Run(ctx, func(context.Context, Line) error {
			if n++; n == benchLines {
				cancel()
			}
			return nil
		})
		cancel()
		if err != nil || n != benchLines {
			b.Fatalf("read %d lines: %v", n, err)
		}
	}
	b.ReportMetric(float64(b.N)*benchLines/time.Since(start).Seconds(), "lines/s")
}

// BenchmarkNxadmCatchUp is the same read through github.com/nxadm/tail.
func BenchmarkNxadmCatchUp(b *testing.B) {
	path := millionLines(b)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	start := time.Now()
	for b.Loop() {
		tf, err := tail.TailFile(path, tail.Config{Follow: true, ReOpen: true, Poll: true, Logger: tail.DiscardingLogger})
		if err != nil {
			b.Fatal(err)
		}
		for range benchLines {
			<-tf.Lines
		}
		if err := tf.Stop(); err != nil {
			b.Fatal(err)
		}
		tf.Cleanup()
	}
	b.ReportMetric(float64(b.N)*benchLines/time.Since(start).Seconds(), "lines/s")
}

// BenchmarkFramerCRI measures CRI decoding per line.
func BenchmarkFramerCRI(b *testing.B) {
	fr := newFramer(FormatCRI, DefaultMaxLineBytes)
	line := []byte("2026-11-29T10:00:00.123456789Z stderr F [2026-11-29 10:00:00 TP0] Decode batch. #running-req: 8, #token: 1234")
	out := func(frame) error { return nil }
	for b.Loop() {
		if err := fr.push(line, 0, int64(len(line))+1, false, out); err != nil {
			b.Fatal(err)
		}
	}
}
