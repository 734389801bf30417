package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
)

// BenchmarkLokiPush pushes batches of 1000 sglang progress lines (the
// bulk of a server's log) through run over loopback, one push at a time
// as a shipper sends them: each answered after its commit. The pushes
// rotate over 64 streams, each within its rate bound (10000 lines a
// second), so what is measured is the path, not the bound.
func BenchmarkLokiPush(b *testing.B) {
	cfg, err := runConfig([]string{"--state-dir", b.TempDir(), "--http-addr", "127.0.0.1:0", "--accept", "loki"},
		func(string) string { return "" }, os.ReadFile)
	if err != nil {
		b.Fatal(err)
	}
	addr := make(chan string, 1)
	p, err := New(context.Background(), Options{Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Stdout: io.Discard, Stderr: io.Discard, Listening: func(a string) { addr <- a }})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	url := "http://" + <-addr + "/loki/api/v1/push"
	lines := make([]string, 1000)
	for i := range lines {
		lines[i] = fmt.Sprintf("[2026-05-28 00:11:09 TP0] Decode batch, #running-req: %d, #token: 4096, token usage: 0.31, cuda graph: True, gen throughput (token/s): 1234.5, #queue-req: 0", i)
	}
	// Each push has times of its own: the same body again would be a
	// retry, answered without being read.
	start := time.Now()
	n := 0
	for b.Loop() {
		n++
		b.StopTimer()
		s := []ingest.PushStream{{Labels: []ingest.Label{{Name: "pod", Value: fmt.Sprintf("sglang-%d", n%64)}}, Entries: pushtest.Entries(start.Add(time.Duration(n)*time.Millisecond), lines)}}
		body := pushtest.Protobuf(s)
		b.StartTimer()
		resp, err := http.Post(url, "application/x-protobuf", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.ReportMetric(float64(b.N*len(lines))/b.Elapsed().Seconds(), "lines/s")
	cancel()
	<-done
}
