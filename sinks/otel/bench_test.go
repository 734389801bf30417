package otel

import (
	"context"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/telemetry/otlptest"
)

// BenchmarkSend measures one alert end to end: the event is built,
// exported and answered by a loopback receiver. allocs/op counts the
// receiver's decoding too, since it runs in the same process.
func BenchmarkSend(b *testing.B) {
	for _, protocol := range []string{ProtocolGRPC, ProtocolHTTPProtobuf} {
		b.Run(protocol, func(b *testing.B) {
			r := otlptest.Start(b)
			r.Discard(true)
			endpoint := "http://" + r.GRPCAddr
			if protocol == ProtocolHTTPProtobuf {
				endpoint = r.HTTPURL
			}
			s := newSink(b, Config{Endpoint: endpoint, Protocol: protocol})
			a := testAlert()
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Send(ctx, a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRecord measures building the event alone, the part of Send that
// is logmatch's own code.
func BenchmarkRecord(b *testing.B) {
	a := testAlert()
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		r := record(a, now)
		if r.AttributesLen() == 0 {
			b.Fatal("no attributes")
		}
	}
}
