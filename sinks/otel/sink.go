package otel

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/logmatch/logmatch/sinks"
)

// EventName is the event name of every record the sink emits.
const EventName = "logmatch.incident"

// scopeName is the instrumentation scope of the records.
const scopeName = "github.com/logmatch/logmatch/sinks/otel"

// Sink sends each alert as one OpenTelemetry event over OTLP. It is safe for
// concurrent use; exports are serialised by the exporter.
type Sink struct {
	provider *sdklog.LoggerProvider
	logger   log.Logger
	protocol string
	endpoint string
	timeout  time.Duration
	redact   *strings.Replacer
	now      func() time.Time
	// transport is the HTTP exporter's, closed on Shutdown (the exporter
	// leaves a client it was given alone); nil for gRPC.
	transport *http.Transport
}

var _ sinks.Sink = (*Sink)(nil)

// New validates cfg against the environment, reporting every problem at
// once, and builds the exporter. It does not connect: the first Send does.
func New(ctx context.Context, cfg Config) (*Sink, error) {
	set, err := cfg.resolve()
	res, rerr := Resource(ctx)
	if err = errors.Join(err, rerr); err != nil {
		return nil, &redactedError{err: fmt.Errorf("otel sink: %w", err), r: newRedactor(set.secrets)}
	}

	exp, transport, err := newExporter(ctx, cfg, set)
	if err != nil {
		return nil, &redactedError{err: fmt.Errorf("otel sink: exporter for %s: %w", set.endpoint, err), r: newRedactor(set.secrets)}
	}
	provider := sdklog.NewLoggerProvider(
		sdklog.WithResource(res),
		sdklog.WithProcessor(&syncProcessor{exporter: exp}),
	)
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Sink{
		provider:  provider,
		logger:    provider.Logger(scopeName),
		protocol:  set.protocol,
		endpoint:  set.endpoint,
		timeout:   set.timeout,
		redact:    newRedactor(set.secrets),
		now:       now,
		transport: transport,
	}, nil
}

// newExporter builds the OTLP exporter of the resolved protocol. Options
// are passed only for fields cfg sets, so the exporter reads the variables
// for the rest.
func newExporter(ctx context.Context, cfg Config, set settings) (sdklog.Exporter, *http.Transport, error) {
	if set.protocol == ProtocolGRPC {
		opts := []otlploggrpc.Option{
			otlploggrpc.WithRetry(otlploggrpc.RetryConfig{Enabled: false}),
			otlploggrpc.WithTimeout(set.timeout),
		}
		if cfg.Endpoint != "" {
			opts = append(opts, otlploggrpc.WithEndpointURL(cfg.Endpoint))
		}
		if cfg.Insecure {
			opts = append(opts, otlploggrpc.WithInsecure())
		}
		if cfg.Headers != nil {
			opts = append(opts, otlploggrpc.WithHeaders(cfg.Headers))
		}
		exp, err := otlploggrpc.New(ctx, opts...)
		return exp, nil, err
	}

	// Built here rather than cloned from http.DefaultTransport, which any
	// package may replace; the settings are net/http's defaults.
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       set.tls,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	opts := []otlploghttp.Option{
		otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}),
		otlploghttp.WithTimeout(set.timeout),
		otlploghttp.WithHTTPClient(sinks.NewClient(recordingTransport{next: transport}, set.timeout)),
	}
	if cfg.Endpoint != "" {
		opts = append(opts, otlploghttp.WithEndpointURL(httpLogsURL(cfg.Endpoint)))
	}
	if cfg.Insecure {
		opts = append(opts, otlploghttp.WithInsecure())
	}
	if cfg.Headers != nil {
		opts = append(opts, otlploghttp.WithHeaders(cfg.Headers))
	}
	exp, err := otlploghttp.New(ctx, opts...)
	return exp, transport, err
}

// httpLogsURL gives an http/protobuf endpoint without a path the OTLP logs
// path, as the exporter does for OTEL_EXPORTER_OTLP_ENDPOINT.
func httpLogsURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Path != "" && u.Path != "/") {
		return endpoint
	}
	u.Path = "/v1/logs"
	return u.String()
}

// Wants reports whether the sink takes alerts of kind: every kind but the
// periodic update of a still-active incident; an event stream records each
// incident's first hit, summaries and reminders.
func (s *Sink) Wants(kind string) bool { return kind != sinks.KindUpdate }

// Send exports a as one event and returns when the receiver has answered
// (or the timeout passed). See the package doc for how failures are
// classified.
func (s *Sink) Send(ctx context.Context, a *sinks.Alert) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	o := &outcome{}
	s.logger.Emit(withOutcome(ctx, o), record(a, s.now()))
	if !o.exported {
		return false, fmt.Errorf("otel sink %s: alert %s: sink is shut down", s.endpoint, a.Fingerprint)
	}
	if o.err == nil || acceptedUnreadable(o) {
		return false, nil
	}
	retry = retryable(s.protocol, o, o.err)
	err = &redactedError{err: fmt.Errorf("otel sink %s: alert %s: %s%w", s.endpoint, a.Fingerprint, o.httpStatus(), o.err), r: s.redact}
	if d, ok := retryAfter(o, s.now()); retry && ok {
		return true, &sinks.RetryAfterError{After: d, Err: err}
	}
	return retry, err
}

// Shutdown releases the exporter's connection. Every accepted Send has
// already been exported, so there is nothing left to flush; later Sends
// fail permanently.
func (s *Sink) Shutdown(ctx context.Context) error {
	err := s.provider.Shutdown(ctx)
	if s.transport != nil {
		s.transport.CloseIdleConnections()
	}
	if err != nil {
		return &redactedError{err: fmt.Errorf("otel sink %s: shutdown: %w", s.endpoint, err), r: s.redact}
	}
	return nil
}

// severity maps a catalog severity to an OpenTelemetry one (table in the
// package doc).
func severity(s string) log.Severity {
	switch s {
	case "critical":
		return log.SeverityFatal
	case "warning":
		return log.SeverityWarn
	case "info":
		return log.SeverityInfo
	}
	return log.SeverityError
}

// record builds the event for a; observed is the observed timestamp.
func record(a *sinks.Alert, observed time.Time) log.Record {
	var r log.Record
	r.SetEventName(EventName)
	t := a.Time
	if t.IsZero() {
		t = observed
	}
	r.SetTimestamp(t)
	r.SetObservedTimestamp(observed)
	r.SetSeverity(severity(a.Record.Severity))
	r.SetSeverityText(a.Record.Severity)
	body := a.Match.Text
	if body == "" {
		body = a.Entry
	}
	r.SetBody(attribute.StringValue(body))

	rec := &a.Record
	// Collected first so that the record grows its attribute storage once.
	var buf [maxAttrs]attribute.KeyValue
	kvs := append(buf[:0],
		attribute.String("logmatch.record.id", rec.ID),
		attribute.String("logmatch.slug", rec.Slug),
		attribute.String("logmatch.severity", rec.Severity),
		attribute.String("logmatch.kind", a.Kind),
		attribute.String("logmatch.fingerprint", a.Fingerprint),
		attribute.Int("logmatch.count", a.Count),
	)
	if e := a.Match.Exception; e != nil {
		kvs = appendString(kvs, semconv.ExceptionTypeKey, e.Type)
		kvs = appendString(kvs, semconv.ExceptionMessageKey, e.Message)
		kvs = appendString(kvs, semconv.ExceptionStacktraceKey, e.Stacktrace)
	}
	kvs = appendString(kvs, semconv.CodeFilePathKey, rec.FilePath)
	if rec.LineNumber > 0 {
		kvs = append(kvs, semconv.CodeLineNumber(rec.LineNumber))
	}
	kvs = appendStrings(kvs, "logmatch.solutions", rec.Solutions)
	kvs = appendStrings(kvs, "logmatch.prevention_tips", rec.PreventionTips)
	kvs = appendStrings(kvs, "logmatch.ranks", a.Ranks)
	kvs = appendString(kvs, "logmatch.github_url", rec.GithubURL)
	kvs = appendString(kvs, "logmatch.handling_strategy", rec.HandlingStrategy)
	kvs = appendString(kvs, "logmatch.error_class", rec.ErrorClass)
	kvs = appendString(kvs, "logmatch.repo", rec.Repo)
	kvs = appendString(kvs, "logmatch.source.path", a.Source.Path)
	kvs = appendString(kvs, "logmatch.source.pod", a.Source.Pod)
	kvs = appendString(kvs, "logmatch.source.namespace", a.Source.Namespace)
	kvs = appendString(kvs, "logmatch.source.container", a.Source.Container)
	kvs = appendString(kvs, "logmatch.source.node", a.Source.Node)
	kvs = appendString(kvs, "logmatch.engine", a.Engine)
	kvs = appendString(kvs, "logmatch.headline", a.Headline)
	kvs = appendString(kvs, "logmatch.role", rec.Role)
	kvs = appendString(kvs, "logmatch.first_rank", a.FirstRank)
	kvs = appendString(kvs, "logmatch.runbook_url", sinks.RunbookURL(a))
	if len(a.Consequences) > 0 {
		cs := make([]string, len(a.Consequences))
		slugs := make([]string, len(a.Consequences))
		for i := range a.Consequences {
			cs[i] = sinks.ConsequenceLine(&a.Consequences[i])
			slugs[i] = a.Consequences[i].Slug
		}
		kvs = append(kvs, attribute.StringSlice("logmatch.consequences", cs), attribute.StringSlice("logmatch.consequence.slugs", slugs))
	}
	r.AddAttributes(kvs...)
	return r
}

// maxAttrs is the number of attributes record can set.
const maxAttrs = 32

func appendString(kvs []attribute.KeyValue, key attribute.Key, v string) []attribute.KeyValue {
	if v == "" {
		return kvs
	}
	return append(kvs, key.String(v))
}

func appendStrings(kvs []attribute.KeyValue, key attribute.Key, v []string) []attribute.KeyValue {
	if len(v) == 0 {
		return kvs
	}
	return append(kvs, key.StringSlice(v))
}
