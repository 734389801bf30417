package telemetry_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/sinks/otel"
)

// The metrics pipeline shares the OTel sink's resource, serves /metrics and
// hands its Metrics to every component.
func ExampleNew() {
	ctx := context.Background()
	res, err := otel.Resource(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	tel, err := telemetry.New(ctx, telemetry.Config{Resource: res})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = tel.Shutdown(ctx) }()

	mux := http.NewServeMux()
	mux.Handle("GET /metrics", tel.Handler())

	m := tel.Metrics()
	m.LinesRead("/var/log/sglang/server.log", 1, 120)
	m.Hit("c0ffee", "critical")
}
