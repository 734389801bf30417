package ingest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
)

// BenchmarkDecodeLoki decodes a push of 1000 sglang lines, protobuf and
// JSON: the receiver's cost per request before the processor.
func BenchmarkDecodeLoki(b *testing.B) {
	lines := make([]string, 1000)
	for i := range lines {
		lines[i] = fmt.Sprintf("[2026-05-28 00:11:09 TP0] Decode batch, #running-req: %d, #token: 4096, token usage: 0.31, gen throughput (token/s): 1234.5", i)
	}
	s := []ingest.PushStream{{Labels: []ingest.Label{{Name: "pod", Value: "sglang-0"}}, Entries: pushtest.Entries(time.Now(), lines)}}
	for _, c := range []struct{ ct, name string }{{"application/x-protobuf", "protobuf"}, {"application/json", "json"}} {
		body := pushtest.Protobuf(s)
		if c.name == "json" {
			body = pushtest.JSON(s)
		}
		b.Run(c.name, func(b *testing.B) {
			h := http.Header{}
			h.Set("Content-Type", c.ct)
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := ingest.DecodeLoki(h, body, 8<<20); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(lines))/b.Elapsed().Seconds(), "lines/s")
		})
	}
}
