package otel_test

import (
	"context"
	"fmt"
	"time"

	"github.com/logmatch/logmatch/sinks"
	"github.com/logmatch/logmatch/sinks/otel"
)

// A sink configured in code; fields left empty fall back to the
// OTEL_EXPORTER_OTLP_* variables. Delivery is wrapped in the shared retry
// decorator, which acts on the classification Send returns.
func ExampleNew() {
	ctx := context.Background()
	s, err := otel.New(ctx, otel.Config{
		Endpoint: "http://otel-collector.monitoring:4317",
		Protocol: otel.ProtocolGRPC,
		Headers:  map[string]string{"authorization": "Bearer token-from-a-secret"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_ = s.Shutdown(sctx)
	}()
	delivery := sinks.Retry(s, sinks.RetryConfig{Name: "otel"})
	_ = delivery
}
