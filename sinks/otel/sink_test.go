package otel

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"

	"github.com/logmatch/logmatch/internal/telemetry/otlptest"
	"github.com/logmatch/logmatch/sinks"
)

// secret is a header value that must reach the receiver and no error.
const secret = "s3cret-token"

var (
	alertTime   = time.Date(2026, 11, 29, 10, 0, 0, 123e6, time.UTC)
	observedNow = time.Date(2026, 11, 29, 10, 0, 5, 0, time.UTC)
)

func testAlert() *sinks.Alert {
	return &sinks.Alert{
		Schema:      sinks.Schema,
		Fingerprint: "fp-1234",
		Time:        alertTime,
		LastTime:    alertTime.Add(time.Minute),
		Count:       3,
		Kind:        "new",
		Ranks:       []string{"TP0", "DP1 TP3"},
		FirstRank:   "DP1 TP3",
		Headline:    "RuntimeError: transfer engine failed",
		Consequences: []sinks.Consequence{
			{Slug: "received-sigquit-from-child", Count: 1},
			{Slug: "nccl-watchdog-collective-timeout", Count: 2, Ranks: []string{"rank0", "rank1"}},
		},
		Record: sinks.Record{
			Role:             "cause",
			ID:               "rec-42",
			Slug:             "ascend-transfer-engine",
			Repo:             "sgl-project/sglang",
			Severity:         "critical",
			ErrorClass:       "RuntimeError",
			ErrorMessage:     "transfer engine failed",
			Solutions:        []string{"restart the engine", "check the NPU link"},
			PreventionTips:   []string{"pin the driver version"},
			HandlingStrategy: "fail-fast",
			GithubURL:        "https://github.com/sgl-project/sglang/blob/abc/python/x.py#L10",
			FilePath:         "python/sglang/srt/x.py",
			LineNumber:       10,
		},
		Match: sinks.Match{
			Text: "RuntimeError: transfer engine failed",
			Exception: &sinks.Exception{
				Type:       "RuntimeError",
				Message:    "transfer engine failed",
				Stacktrace: "Traceback (most recent call last):\n  File \"x.py\", line 10\nRuntimeError: transfer engine failed",
			},
		},
		Source: sinks.Source{Path: "/var/log/sglang.log", Offset: 99, Stream: "stderr", Pod: "other-pod"},
		Engine: "sglang",
		Entry:  "[2026-11-29 10:00:00 TP0] RuntimeError: transfer engine failed",
	}
}

// event is what a test compares of one received log record.
type event struct {
	EventName      string
	Severity       int32
	SeverityText   string
	Time, Observed time.Time
	Body           any
	Attrs          map[string]any
	Resource       map[string]any
}

func TestSendDeliversEvent(t *testing.T) {
	tests := []struct {
		name string
		// configure points the sink at r, through the environment or the
		// Config.
		configure func(t *testing.T, r *otlptest.Receiver) Config
	}{
		{"grpc from env", func(t *testing.T, r *otlptest.Receiver) Config {
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+r.GRPCAddr)
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20"+secret)
			return Config{}
		}},
		{"http/protobuf from env", func(t *testing.T, r *otlptest.Receiver) Config {
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
			t.Setenv("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "http/protobuf")
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", r.HTTPURL)
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20"+secret)
			return Config{}
		}},
		{"grpc from config", func(t *testing.T, r *otlptest.Receiver) Config {
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=wrong")
			return Config{Endpoint: "http://" + r.GRPCAddr, Protocol: ProtocolGRPC, Headers: map[string]string{"authorization": "Bearer " + secret}}
		}},
		{"http/protobuf from config", func(t *testing.T, r *otlptest.Receiver) Config {
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
			return Config{Endpoint: r.HTTPURL, Protocol: ProtocolHTTPProtobuf, Headers: map[string]string{"authorization": "Bearer " + secret}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("K8S_POD_NAME", "sglang-0")
			t.Setenv("LOGMATCH_POD_NAME", "ignored-pod")
			t.Setenv("LOGMATCH_POD_NAMESPACE", "serving")
			t.Setenv("LOGMATCH_NODE_NAME", "node-from-downward-api")
			t.Setenv("LOGMATCH_CONTAINER_NAME", "logmatch")
			// Generic names from an unrelated shell are not logmatch's.
			t.Setenv("POD_UID", "not-this-pod")
			t.Setenv("CONTAINER_NAME", "not-this-container")
			t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "k8s.node.name=node-a,deployment.environment.name=test")
			t.Setenv("OTEL_SERVICE_NAME", "logmatch-test")
			r := otlptest.Start(t)
			cfg := tt.configure(t, r)
			cfg.Now = func() time.Time { return observedNow }

			s := newSink(t, cfg)
			retry, err := s.Send(context.Background(), testAlert())
			if err != nil {
				t.Fatalf("Send: retry=%v err=%v", retry, err)
			}

			got := received(t, r)
			want := []event{{
				EventName:    "logmatch.incident",
				Severity:     21,
				SeverityText: "critical",
				Time:         alertTime,
				Observed:     observedNow,
				Body:         "RuntimeError: transfer engine failed",
				Attrs: map[string]any{
					"logmatch.record.id":         "rec-42",
					"logmatch.slug":              "ascend-transfer-engine",
					"logmatch.severity":          "critical",
					"logmatch.kind":              "new",
					"logmatch.fingerprint":       "fp-1234",
					"logmatch.count":             int64(3),
					"exception.type":             "RuntimeError",
					"exception.message":          "transfer engine failed",
					"exception.stacktrace":       "Traceback (most recent call last):\n  File \"x.py\", line 10\nRuntimeError: transfer engine failed",
					"code.file.path":             "python/sglang/srt/x.py",
					"code.line.number":           int64(10),
					"logmatch.solutions":         []any{"restart the engine", "check the NPU link"},
					"logmatch.prevention_tips":   []any{"pin the driver version"},
					"logmatch.ranks":             []any{"TP0", "DP1 TP3"},
					"logmatch.github_url":        "https://github.com/sgl-project/sglang/blob/abc/python/x.py#L10",
					"logmatch.handling_strategy": "fail-fast",
					"logmatch.error_class":       "RuntimeError",
					"logmatch.repo":              "sgl-project/sglang",
					"logmatch.source.path":       "/var/log/sglang.log",
					"logmatch.source.pod":        "other-pod",
					"logmatch.engine":            "sglang",
					"logmatch.headline":          "RuntimeError: transfer engine failed",
					"logmatch.role":              "cause",
					"logmatch.first_rank":        "DP1 TP3",
					"logmatch.runbook_url":       "https://github.com/sgl-project/sglang/blob/abc/python/x.py#L10",
					"logmatch.consequences":      []any{"received-sigquit-from-child", "nccl-watchdog-collective-timeout ×2 on rank0-1"},
					"logmatch.consequence.slugs": []any{"received-sigquit-from-child", "nccl-watchdog-collective-timeout"},
				},
				Resource: map[string]any{
					"service.name":                "logmatch-test",
					"k8s.pod.name":                "sglang-0",
					"k8s.namespace.name":          "serving",
					"k8s.node.name":               "node-a",
					"k8s.container.name":          "logmatch",
					"deployment.environment.name": "test",
				},
			}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("received event (-want +got):\n%s", diff)
			}
			for _, h := range r.Headers() {
				if a := h["authorization"]; len(a) != 1 || a[0] != "Bearer "+secret {
					t.Errorf("authorization header = %q, want the configured one", a)
				}
			}
		})
	}
}

func TestSeverityMapping(t *testing.T) {
	tests := []struct {
		severity string
		want     int32
	}{
		{"critical", 21},
		{"error", 17},
		{"warning", 13},
		{"info", 9},
		{"", 17},
		{"bogus", 17},
	}
	r := otlptest.Start(t)
	s := newSink(t, Config{Endpoint: "http://" + r.GRPCAddr, Protocol: ProtocolGRPC})
	for _, tt := range tests {
		a := testAlert()
		a.Record.Severity = tt.severity
		if _, err := s.Send(context.Background(), a); err != nil {
			t.Fatalf("Send(%q): %v", tt.severity, err)
		}
	}
	recs := r.LogRecords()
	if len(recs) != len(tests) {
		t.Fatalf("received %d records, want %d", len(recs), len(tests))
	}
	for i, tt := range tests {
		if got := int32(recs[i].GetSeverityNumber()); got != tt.want {
			t.Errorf("severity %q: got %d, want %d", tt.severity, got, tt.want)
		}
	}
}

func TestSendMinimalAlert(t *testing.T) {
	r := otlptest.Start(t)
	s := newSink(t, Config{Endpoint: "http://" + r.GRPCAddr, Protocol: ProtocolGRPC, Now: func() time.Time { return observedNow }})
	a := &sinks.Alert{Fingerprint: "fp-u", Kind: "new", Count: 1, Record: sinks.Record{Slug: "unclassified"}, Entry: "Traceback ..."}
	if _, err := s.Send(context.Background(), a); err != nil {
		t.Fatalf("Send: %v", err)
	}
	got := received(t, r)
	want := map[string]any{
		"logmatch.record.id":   "",
		"logmatch.slug":        "unclassified",
		"logmatch.severity":    "",
		"logmatch.kind":        "new",
		"logmatch.fingerprint": "fp-u",
		"logmatch.count":       int64(1),
	}
	if diff := cmp.Diff(want, got[0].Attrs); diff != "" {
		t.Errorf("attributes (-want +got):\n%s", diff)
	}
	if got[0].Body != "Traceback ..." || !got[0].Time.Equal(observedNow) {
		t.Errorf("body %q time %v, want the entry and the observed time", got[0].Body, got[0].Time)
	}
}

func TestSendClassifiesFailures(t *testing.T) {
	tests := []struct {
		name      string
		protocol  string
		down      bool       // nothing listens at the endpoint
		fail      codes.Code // the receiver's answer otherwise
		wantRetry bool
	}{
		{"grpc receiver down", ProtocolGRPC, true, codes.OK, true},
		{"http receiver down", ProtocolHTTPProtobuf, true, codes.OK, true},
		{"grpc unavailable", ProtocolGRPC, false, codes.Unavailable, true},
		{"http 503", ProtocolHTTPProtobuf, false, codes.Unavailable, true},
		{"grpc resource exhausted", ProtocolGRPC, false, codes.ResourceExhausted, true},
		{"http 429", ProtocolHTTPProtobuf, false, codes.ResourceExhausted, true},
		{"grpc invalid argument", ProtocolGRPC, false, codes.InvalidArgument, false},
		{"http 400", ProtocolHTTPProtobuf, false, codes.InvalidArgument, false},
		{"grpc permission denied", ProtocolGRPC, false, codes.PermissionDenied, false},
		{"http 403", ProtocolHTTPProtobuf, false, codes.PermissionDenied, false},
		{"http 500", ProtocolHTTPProtobuf, false, codes.Internal, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key="+secret)
			r := otlptest.Start(t)
			r.Fail(tt.fail)
			endpoint := "http://" + r.GRPCAddr
			if tt.protocol == ProtocolHTTPProtobuf {
				endpoint = r.HTTPURL
			}
			if tt.down {
				endpoint = "http://" + otlptest.ClosedAddr(t)
			}
			s := newSink(t, Config{Endpoint: endpoint, Protocol: tt.protocol})
			retry, err := s.Send(context.Background(), testAlert())
			if err == nil {
				t.Fatal("Send succeeded, want an error")
			}
			t.Logf("Send: %v", err)
			if retry != tt.wantRetry {
				t.Errorf("retry = %v, want %v (err: %v)", retry, tt.wantRetry, err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error shows the header secret: %v", err)
			}
			if !strings.Contains(err.Error(), "fp-1234") {
				t.Errorf("error %q does not name the alert", err)
			}
		})
	}
}

func TestSendHonoursRetryAfter(t *testing.T) {
	r := otlptest.Start(t)
	r.Fail(codes.ResourceExhausted)
	r.RetryAfter("7")
	s := newSink(t, Config{Endpoint: r.HTTPURL, Protocol: ProtocolHTTPProtobuf})
	retry, err := s.Send(context.Background(), testAlert())
	var ra *sinks.RetryAfterError
	if !retry || !errors.As(err, &ra) {
		t.Fatalf("Send = %v, %v; want retry with a *sinks.RetryAfterError", retry, err)
	}
	if ra.After != 7*time.Second {
		t.Errorf("After = %v, want 7s", ra.After)
	}
}

func TestSendAfterShutdownIsPermanent(t *testing.T) {
	r := otlptest.Start(t)
	s, err := New(context.Background(), Config{Endpoint: "http://" + r.GRPCAddr, Protocol: ProtocolGRPC})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	retry, err := s.Send(context.Background(), testAlert())
	if err == nil || retry {
		t.Errorf("Send after Shutdown = %v, %v; want a permanent error", retry, err)
	}
}

func TestNewReportsEveryConfigError(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		cfg  Config
		want []string // substrings of the error, one per problem
	}{
		{
			name: "bad variables",
			env: map[string]string{
				"OTEL_EXPORTER_OTLP_LOGS_PROTOCOL":      "http/json",
				"OTEL_EXPORTER_OTLP_TIMEOUT":            "soon",
				"OTEL_EXPORTER_OTLP_HEADERS":            "authorization=" + secret + ",novalue",
				"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": "/nonexistent/cert.pem",
			},
			want: []string{
				`OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: unsupported protocol "http/json"`,
				`OTEL_EXPORTER_OTLP_TIMEOUT: "soon" is not a positive number of milliseconds`,
				"OTEL_EXPORTER_OTLP_HEADERS: entry 2: want key=value",
			},
		},
		{
			name: "bad config",
			env:  map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"},
			cfg:  Config{Endpoint: "localhost:4317", Protocol: "thrift", Timeout: -time.Second},
			want: []string{
				`protocol: unsupported protocol "thrift"`,
				"endpoint: ",
				"timeout: -1s is negative",
			},
		},
		{
			name: "client certificate without key",
			env: map[string]string{
				"OTEL_EXPORTER_OTLP_PROTOCOL":           "http/protobuf",
				"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": "/nonexistent/cert.pem",
			},
			want: []string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE is set without OTEL_EXPORTER_OTLP_CLIENT_KEY"},
		},
		{
			name: "unreadable CA",
			env: map[string]string{
				"OTEL_EXPORTER_OTLP_PROTOCOL":         "http/protobuf",
				"OTEL_EXPORTER_OTLP_LOGS_CERTIFICATE": "/nonexistent/ca.pem",
			},
			want: []string{"OTEL_EXPORTER_OTLP_LOGS_CERTIFICATE: open /nonexistent/ca.pem"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			s, err := New(context.Background(), tt.cfg)
			if err == nil {
				_ = s.Shutdown(context.Background())
				t.Fatal("New succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error shows a secret: %v", err)
			}
		})
	}
}

func TestHTTPLogsURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://collector:4318", "http://collector:4318/v1/logs"},
		{"http://collector:4318/", "http://collector:4318/v1/logs"},
		{"https://collector/custom/logs", "https://collector/custom/logs"},
	}
	for _, tt := range tests {
		if got := httpLogsURL(tt.in); got != tt.want {
			t.Errorf("httpLogsURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func newSink(t testing.TB, cfg Config) *Sink {
	t.Helper()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return s
}

// received flattens what r accepted into events, keeping only the resource
// attributes a test sets (the SDK adds telemetry.sdk.*).
func received(t *testing.T, r *otlptest.Receiver) []event {
	t.Helper()
	var out []event
	for _, rl := range r.ResourceLogs() {
		res := otlptest.Attributes(rl.GetResource().GetAttributes())
		for k := range res {
			if strings.HasPrefix(k, "telemetry.sdk.") {
				delete(res, k)
			}
		}
		for _, sl := range rl.GetScopeLogs() {
			if got := sl.GetScope().GetName(); got != scopeName {
				t.Errorf("scope = %q, want %q", got, scopeName)
			}
			for _, lr := range sl.GetLogRecords() {
				out = append(out, event{
					EventName:    lr.GetEventName(),
					Severity:     int32(lr.GetSeverityNumber()),
					SeverityText: lr.GetSeverityText(),
					Time:         time.Unix(0, int64(lr.GetTimeUnixNano())).UTC(),
					Observed:     time.Unix(0, int64(lr.GetObservedTimeUnixNano())).UTC(),
					Body:         otlptest.Value(lr.GetBody()),
					Attrs:        otlptest.Attributes(lr.GetAttributes()),
					Resource:     res,
				})
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("the receiver got no log record")
	}
	return out
}

func TestSendOverTLS(t *testing.T) {
	tests := []struct {
		name      string
		trustCA   bool
		wantErr   bool
		wantRetry bool
	}{
		{"trusted through OTEL_EXPORTER_OTLP_CERTIFICATE", true, false, false},
		{"untrusted certificate is permanent", false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := otlptest.Start(t)
			if tt.trustCA {
				t.Setenv("OTEL_EXPORTER_OTLP_CERTIFICATE", r.CAFile)
			}
			s := newSink(t, Config{Endpoint: r.HTTPSURL, Protocol: ProtocolHTTPProtobuf})
			retry, err := s.Send(context.Background(), testAlert())
			if (err != nil) != tt.wantErr || retry != tt.wantRetry {
				t.Fatalf("Send = %v, %v; want error %v, retry %v", retry, err, tt.wantErr, tt.wantRetry)
			}
			if !tt.wantErr && len(r.LogRecords()) != 1 {
				t.Errorf("receiver got %d records, want 1", len(r.LogRecords()))
			}
		})
	}
}

func TestConcurrentSends(t *testing.T) {
	const workers, each = 4, 25
	for _, protocol := range []string{ProtocolGRPC, ProtocolHTTPProtobuf} {
		t.Run(protocol, func(t *testing.T) {
			r := otlptest.Start(t)
			endpoint := "http://" + r.GRPCAddr
			if protocol == ProtocolHTTPProtobuf {
				endpoint = r.HTTPURL
			}
			s := newSink(t, Config{Endpoint: endpoint, Protocol: protocol})
			errs := make(chan error, workers*each)
			done := make(chan struct{})
			for range workers {
				go func() {
					defer func() { done <- struct{}{} }()
					for range each {
						_, err := s.Send(context.Background(), testAlert())
						errs <- err
					}
				}()
			}
			for range workers {
				<-done
			}
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("Send: %v", err)
				}
			}
			if got := len(r.LogRecords()); got != workers*each {
				t.Errorf("receiver got %d records, want %d", got, workers*each)
			}
		})
	}
}
