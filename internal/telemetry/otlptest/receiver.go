package otlptest

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	collogspb "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetricspb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// maxBody bounds an HTTP request body; OTLP exporters default to far less.
const maxBody = 32 << 20

// Receiver accepts OTLP logs and metrics over gRPC and HTTP/protobuf on
// loopback and records what arrived. Its methods are safe for concurrent use.
type Receiver struct {
	// GRPCAddr is the host:port of the gRPC server.
	GRPCAddr string
	// HTTPURL is the base URL of the HTTP server; exporters post to
	// HTTPURL+"/v1/logs" and HTTPURL+"/v1/metrics".
	HTTPURL string
	// HTTPSURL is the same HTTP service over TLS; CAFile is the path of a
	// PEM file holding its certificate, for OTEL_EXPORTER_OTLP_CERTIFICATE.
	HTTPSURL string
	CAFile   string

	mu         sync.Mutex
	fail       codes.Code
	retryAfter string
	discard    bool
	logs       []*logspb.ResourceLogs
	metrics    []*metricspb.ResourceMetrics
	headers    []map[string][]string
}

// Start runs a Receiver until the test ends.
func Start(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{}

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("otlptest: listen: %v", err)
	}
	srv := grpc.NewServer()
	collogspb.RegisterLogsServiceServer(srv, logsService{r: r})
	colmetricspb.RegisterMetricsServiceServer(srv, metricsService{r: r})
	served := make(chan struct{})
	go func() {
		defer close(served)
		// Serve returns nil after Stop; any other error surfaces as failed
		// exports in the test itself.
		_ = srv.Serve(lis)
	}()
	r.GRPCAddr = lis.Addr().String()

	hs := httptest.NewServer(r.httpHandler())
	r.HTTPURL = hs.URL
	tlsSrv := httptest.NewTLSServer(r.httpHandler())
	r.HTTPSURL = tlsSrv.URL
	r.CAFile = filepath.Join(t.TempDir(), "otlptest-ca.pem")
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw})
	if err := os.WriteFile(r.CAFile, cert, 0o600); err != nil {
		t.Fatalf("otlptest: write CA file: %v", err)
	}

	t.Cleanup(func() {
		tlsSrv.Close()
		hs.Close()
		srv.Stop()
		<-served
	})
	return r
}

// ClosedAddr returns a loopback host:port on which nothing listens, for
// testing a receiver that is down.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("otlptest: listen: %v", err)
	}
	addr := lis.Addr().String()
	if err := lis.Close(); err != nil {
		t.Fatalf("otlptest: close listener: %v", err)
	}
	return addr
}

// Fail makes every later export answer with code (over HTTP, the status
// the OTLP specification pairs with it); codes.OK accepts again.
func (r *Receiver) Fail(code codes.Code) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail = code
}

// RetryAfter makes failed HTTP answers carry a Retry-After header with
// value v; "" sends none.
func (r *Receiver) RetryAfter(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retryAfter = v
}

// Discard makes the receiver accept requests without keeping their
// content, so that benchmarks do not grow its memory.
func (r *Receiver) Discard(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.discard = on
}

// ResourceLogs returns every accepted ResourceLogs in arrival order.
func (r *Receiver) ResourceLogs() []*logspb.ResourceLogs {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*logspb.ResourceLogs(nil), r.logs...)
}

// LogRecords returns every accepted log record, flattened.
func (r *Receiver) LogRecords() []*logspb.LogRecord {
	var out []*logspb.LogRecord
	for _, rl := range r.ResourceLogs() {
		for _, sl := range rl.GetScopeLogs() {
			out = append(out, sl.GetLogRecords()...)
		}
	}
	return out
}

// ResourceMetrics returns every accepted ResourceMetrics in arrival order.
func (r *Receiver) ResourceMetrics() []*metricspb.ResourceMetrics {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*metricspb.ResourceMetrics(nil), r.metrics...)
}

// Headers returns the request headers (gRPC metadata or HTTP headers, keys
// lower-cased) of every export request, accepted or not, in arrival order.
func (r *Receiver) Headers() []map[string][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string][]string(nil), r.headers...)
}

// admit records the request headers and returns the status to answer and
// the Retry-After value to send with a failure.
func (r *Receiver) admit(h map[string][]string) (codes.Code, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.discard {
		r.headers = append(r.headers, h)
	}
	return r.fail, r.retryAfter
}

func (r *Receiver) addLogs(rl []*logspb.ResourceLogs) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.discard {
		r.logs = append(r.logs, rl...)
	}
}

func (r *Receiver) addMetrics(rm []*metricspb.ResourceMetrics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.discard {
		r.metrics = append(r.metrics, rm...)
	}
}

type logsService struct {
	collogspb.UnimplementedLogsServiceServer
	r *Receiver
}

func (s logsService) Export(ctx context.Context, req *collogspb.ExportLogsServiceRequest) (*collogspb.ExportLogsServiceResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if c, _ := s.r.admit(md); c != codes.OK {
		return nil, status.Error(c, "otlptest: refused by test")
	}
	s.r.addLogs(req.GetResourceLogs())
	return &collogspb.ExportLogsServiceResponse{}, nil
}

type metricsService struct {
	colmetricspb.UnimplementedMetricsServiceServer
	r *Receiver
}

func (s metricsService) Export(ctx context.Context, req *colmetricspb.ExportMetricsServiceRequest) (*colmetricspb.ExportMetricsServiceResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if c, _ := s.r.admit(md); c != codes.OK {
		return nil, status.Error(c, "otlptest: refused by test")
	}
	s.r.addMetrics(req.GetResourceMetrics())
	return &colmetricspb.ExportMetricsServiceResponse{}, nil
}

func (r *Receiver) httpHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/logs", func(w http.ResponseWriter, req *http.Request) {
		var in collogspb.ExportLogsServiceRequest
		if !r.decode(w, req, &in) {
			return
		}
		r.addLogs(in.GetResourceLogs())
		writeProto(w, http.StatusOK, &collogspb.ExportLogsServiceResponse{})
	})
	mux.HandleFunc("POST /v1/metrics", func(w http.ResponseWriter, req *http.Request) {
		var in colmetricspb.ExportMetricsServiceRequest
		if !r.decode(w, req, &in) {
			return
		}
		r.addMetrics(in.GetResourceMetrics())
		writeProto(w, http.StatusOK, &colmetricspb.ExportMetricsServiceResponse{})
	})
	return mux
}

// decode admits the request and unmarshals its body into m; on failure it
// has already answered and returns false.
func (r *Receiver) decode(w http.ResponseWriter, req *http.Request, m proto.Message) bool {
	h := make(map[string][]string, len(req.Header))
	for k, v := range req.Header {
		h[strings.ToLower(k)] = v
	}
	if c, ra := r.admit(h); c != codes.OK {
		if ra != "" {
			w.Header().Set("Retry-After", ra)
		}
		writeProto(w, httpStatus(c), status.New(c, "otlptest: refused by test").Proto())
		return false
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		writeProto(w, http.StatusUnsupportedMediaType, status.New(codes.InvalidArgument, fmt.Sprintf("content type %q", ct)).Proto())
		return false
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxBody))
	if err == nil {
		err = proto.Unmarshal(body, m)
	}
	if err != nil {
		writeProto(w, http.StatusBadRequest, status.New(codes.InvalidArgument, err.Error()).Proto())
		return false
	}
	return true
}

// httpStatus is the HTTP status the OTLP specification pairs with a gRPC
// code for the failures tests need.
func httpStatus(c codes.Code) int {
	switch c {
	case codes.InvalidArgument:
		return http.StatusBadRequest
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

func writeProto(w http.ResponseWriter, code int, m proto.Message) {
	b, err := proto.Marshal(m)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(code)
	// A failed write means the client went away; it sees the error itself.
	_, _ = w.Write(b)
}
