package ingest

import (
	"context"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // the Collector's otlp exporter compresses with gzip by default
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// NewOTLPGRPC returns a gRPC server of OTLP's LogsService on the
// receiver's queue: messages bounded by MaxBytes after decompression,
// calls per connection bounded, every call requiring token when it is
// set (authorization metadata "Bearer TOKEN"). Serve it on a listener
// from LimitListener; GracefulStop it.
func (r *Receiver) NewOTLPGRPC(token string) *grpc.Server {
	s := grpc.NewServer(grpc.MaxRecvMsgSize(int(r.o.MaxBytes)), grpc.MaxConcurrentStreams(uint32(r.o.Queue)*4),
		grpc.ConnectionTimeout(10*time.Second))
	collogs.RegisterLogsServiceServer(s, &logsService{r: r, token: token})
	return s
}

type logsService struct {
	collogs.UnimplementedLogsServiceServer
	r     *Receiver
	token string
}

// Export takes one ExportLogsServiceRequest. Refusals follow OTLP's
// rules: Unavailable (busy, over a rate bound, stopping, not committed
// in time) is retried by the exporter; InvalidArgument and
// Unauthenticated are not.
func (s *logsService) Export(ctx context.Context, req *collogs.ExportLogsServiceRequest) (*collogs.ExportLogsServiceResponse, error) {
	obs := s.r.o.Observer
	obs.Request(InputOTLP)
	if s.token != "" {
		md, _ := metadata.FromIncomingContext(ctx)
		got := ""
		if v := md.Get("authorization"); len(v) == 1 {
			got = v[0]
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte("Bearer "+s.token)) != 1 {
			obs.Rejected(InputOTLP, ReasonUnauthorized)
			return nil, status.Error(codes.Unauthenticated, "otlp: a bearer token is required (authorization: Bearer TOKEN), and the one sent is missing or wrong")
		}
	}
	select {
	case <-s.r.closed:
		obs.Rejected(InputOTLP, ReasonUnavailable)
		return nil, status.Error(codes.Unavailable, "otlp: "+ErrClosed.Error())
	default:
	}
	streams, err := otlpStreams(req)
	if err == nil {
		err = s.r.accept(ctx, InputOTLP, streams)
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Status: http.StatusBadRequest, Reason: ReasonMalformed, Msg: err.Error()}
		}
		obs.Rejected(InputOTLP, e.Reason)
		code := codes.InvalidArgument
		if e.Status == http.StatusTooManyRequests || e.Status == http.StatusServiceUnavailable {
			code = codes.Unavailable
		}
		return nil, status.Error(code, "otlp: "+e.Msg)
	}
	return &collogs.ExportLogsServiceResponse{}, nil
}

// LimitListener bounds the connections accepted from ln to n at once: an
// Accept past the bound waits until one closes, so clients queue in the
// kernel's backlog rather than take file descriptors the tailer needs.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n)}
}

type limitListener struct {
	net.Listener
	sem chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.sem <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
