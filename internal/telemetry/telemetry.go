package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/otlptranslator"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// The OTLP protocols of the push pipeline.
const (
	ProtocolGRPC         = "grpc"
	ProtocolHTTPProtobuf = "http/protobuf"
)

// Defaults of Config.
const (
	DefaultCardinalityLimit = 8192
	DefaultShutdownTimeout  = 5 * time.Second
)

// scopeName is the instrumentation scope of logmatch's instruments.
const scopeName = "github.com/logmatch/logmatch"

// Config configures the metrics pipeline. The zero value serves /metrics
// and pushes over OTLP only if the environment names an endpoint.
type Config struct {
	// Resource describes the process; the pipeline passes the OTel sink's
	// so that events and metrics join. nil means service.name "logmatch"
	// plus OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
	Resource *resource.Resource
	// OTLP overrides the standard variables of the push pipeline.
	OTLP OTLPConfig
	// CardinalityLimit caps the series per instrument; 0 or less means
	// DefaultCardinalityLimit.
	CardinalityLimit int
	// ShutdownTimeout bounds the final export when Run's context ends; 0 or
	// less means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
}

// OTLPConfig overrides OTEL_EXPORTER_OTLP_* for metrics; zero fields leave
// the variables in charge.
type OTLPConfig struct {
	// Endpoint is the receiver's URL; for http/protobuf a URL without a
	// path gets "/v1/metrics". Setting it turns the push pipeline on.
	Endpoint string
	Protocol string            // "grpc" or "http/protobuf"
	Headers  map[string]string // replaces OTEL_EXPORTER_OTLP_HEADERS
	Insecure bool              // true disables TLS
	Interval time.Duration     // export period; 0 means OTEL_METRIC_EXPORT_INTERVAL or 60s
}

// Telemetry owns the MeterProvider, its readers and the Metrics recorded
// through it.
type Telemetry struct {
	provider *sdkmetric.MeterProvider
	handler  http.Handler
	metrics  *Metrics
	otlp     string // the push endpoint, "" when off
	grace    time.Duration
}

// New builds the pipeline, reporting every configuration problem at once.
// It does not connect: the first periodic export does.
func New(ctx context.Context, cfg Config) (*Telemetry, error) {
	res := cfg.Resource
	if res == nil {
		var err error
		res, err = resource.New(ctx,
			resource.WithSchemaURL(semconv.SchemaURL),
			resource.WithAttributes(semconv.ServiceName("logmatch")),
			resource.WithTelemetrySDK(),
			resource.WithFromEnv(),
		)
		if err != nil {
			return nil, fmt.Errorf("telemetry: resource: OTEL_RESOURCE_ATTRIBUTES: %w", err)
		}
	}

	reg := prometheus.NewRegistry()
	var errs []error
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		errs = append(errs, fmt.Errorf("go collector: %w", err))
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		errs = append(errs, fmt.Errorf("process collector: %w", err))
	}
	prom, err := otelprom.New(
		otelprom.WithRegisterer(reg),
		otelprom.WithoutScopeInfo(),
		otelprom.WithTranslationStrategy(otlptranslator.UnderscoreEscapingWithSuffixes),
	)
	if err != nil {
		errs = append(errs, fmt.Errorf("prometheus exporter: %w", err))
	}
	push, endpoint, err := newOTLPReader(ctx, cfg.OTLP)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		if push != nil {
			// The reader never held data; this only stops its goroutine,
			// and the configuration error is the one worth reporting.
			_ = push.Shutdown(ctx)
		}
		return nil, fmt.Errorf("telemetry: %w", err)
	}

	limit := cfg.CardinalityLimit
	if limit <= 0 {
		limit = DefaultCardinalityLimit
	}
	opts := []sdkmetric.Option{
		sdkmetric.WithResource(res),
		sdkmetric.WithReader(prom),
		sdkmetric.WithCardinalityLimit(limit),
	}
	if push != nil {
		opts = append(opts, sdkmetric.WithReader(push))
	}
	provider := sdkmetric.NewMeterProvider(opts...)
	m, err := NewMetrics(provider.Meter(scopeName))
	if err != nil {
		return nil, errors.Join(fmt.Errorf("telemetry: %w", err), provider.Shutdown(ctx))
	}
	grace := cfg.ShutdownTimeout
	if grace <= 0 {
		grace = DefaultShutdownTimeout
	}
	return &Telemetry{
		provider: provider,
		handler:  promhttp.HandlerFor(reg, promhttp.HandlerOpts{}),
		metrics:  m,
		otlp:     endpoint,
		grace:    grace,
	}, nil
}

// Metrics returns the recorder every component calls.
func (t *Telemetry) Metrics() *Metrics { return t.metrics }

// Handler serves the Prometheus text (or OpenMetrics) exposition of the
// metrics, for mounting at /metrics.
func (t *Telemetry) Handler() http.Handler { return t.handler }

// Pushing reports whether the OTLP push pipeline is on.
func (t *Telemetry) Pushing() bool { return t.otlp != "" }

// Run blocks until ctx ends, then shuts the pipeline down with a final
// OTLP export bounded by Config.ShutdownTimeout. The periodic reader runs on
// its own from New; Run gives it an owner in an errgroup.
func (t *Telemetry) Run(ctx context.Context) error {
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.grace)
	defer cancel()
	return t.Shutdown(sctx)
}

// ForceFlush exports everything recorded so far over OTLP now.
func (t *Telemetry) ForceFlush(ctx context.Context) error {
	if err := t.provider.ForceFlush(ctx); err != nil {
		return fmt.Errorf("telemetry: flush to %s: %w", t.otlp, err)
	}
	return nil
}

// Shutdown exports what is left and stops the readers; later recordings
// are dropped.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if err := t.provider.Shutdown(ctx); err != nil {
		return fmt.Errorf("telemetry: shutdown (final export to %s): %w", t.otlp, err)
	}
	return nil
}

// lookup returns the first of the named variables that is set and not
// empty, with its name.
func lookup(names ...string) (name, value string) {
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok && strings.TrimSpace(v) != "" {
			return n, strings.TrimSpace(v)
		}
	}
	return "", ""
}

// newOTLPReader builds the periodic OTLP reader, or returns nil when no
// endpoint is configured. endpoint names the receiver for messages, without
// user info.
func newOTLPReader(ctx context.Context, c OTLPConfig) (r sdkmetric.Reader, endpoint string, err error) {
	_, envEndpoint := lookup("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
	if c.Endpoint == "" && envEndpoint == "" {
		return nil, "", nil
	}
	if _, v := lookup("OTEL_METRICS_EXPORTER"); v == "none" && c.Endpoint == "" {
		return nil, "", nil
	}
	var errs []error
	endpoint = envEndpoint
	if c.Endpoint != "" {
		u, perr := url.Parse(c.Endpoint)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("otlp endpoint: want an http:// or https:// URL with a host"))
		} else {
			u.User = nil
			endpoint = u.String()
		}
	} else if u, perr := url.Parse(envEndpoint); perr == nil {
		u.User = nil
		endpoint = u.String()
	}

	protocol := c.Protocol
	name := "otlp protocol"
	if protocol == "" {
		name, protocol = lookup("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if protocol == "" {
		protocol = ProtocolHTTPProtobuf
	}
	if protocol != ProtocolGRPC && protocol != ProtocolHTTPProtobuf {
		errs = append(errs, fmt.Errorf("%s: unsupported protocol %q (want %q or %q)", name, protocol, ProtocolGRPC, ProtocolHTTPProtobuf))
	}
	if c.Interval < 0 {
		errs = append(errs, fmt.Errorf("otlp interval: %v is negative", c.Interval))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, "", err
	}

	var exp sdkmetric.Exporter
	if protocol == ProtocolGRPC {
		// No exporter retries: cumulative totals make the next period's
		// export carry what a failed one missed, and a retrying export
		// would hold Shutdown up while the receiver is down.
		opts := []otlpmetricgrpc.Option{otlpmetricgrpc.WithRetry(otlpmetricgrpc.RetryConfig{Enabled: false})}
		if c.Endpoint != "" {
			opts = append(opts, otlpmetricgrpc.WithEndpointURL(c.Endpoint))
		}
		if c.Insecure {
			opts = append(opts, otlpmetricgrpc.WithInsecure())
		}
		if c.Headers != nil {
			opts = append(opts, otlpmetricgrpc.WithHeaders(c.Headers))
		}
		exp, err = otlpmetricgrpc.New(ctx, opts...)
	} else {
		opts := []otlpmetrichttp.Option{otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{Enabled: false})}
		if c.Endpoint != "" {
			opts = append(opts, otlpmetrichttp.WithEndpointURL(httpMetricsURL(c.Endpoint)))
		}
		if c.Insecure {
			opts = append(opts, otlpmetrichttp.WithInsecure())
		}
		if c.Headers != nil {
			opts = append(opts, otlpmetrichttp.WithHeaders(c.Headers))
		}
		exp, err = otlpmetrichttp.New(ctx, opts...)
	}
	if err != nil {
		return nil, "", fmt.Errorf("otlp exporter for %s: %w", endpoint, err)
	}
	var ropts []sdkmetric.PeriodicReaderOption
	if c.Interval > 0 {
		ropts = append(ropts, sdkmetric.WithInterval(c.Interval))
	}
	return sdkmetric.NewPeriodicReader(exp, ropts...), endpoint, nil
}

// httpMetricsURL gives an endpoint without a path the OTLP metrics path.
func httpMetricsURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Path != "" && u.Path != "/") {
		return endpoint
	}
	u.Path = "/v1/metrics"
	return u.String()
}
