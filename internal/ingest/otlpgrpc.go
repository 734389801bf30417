package ingest

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	_ "google.golang.org/grpc/encoding/gzip" // the Collector's otlp exporter compresses with gzip by default
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// NewOTLPGRPC returns a gRPC server of OTLP's LogsService on the
// receiver's queue: messages bounded by MaxBytes after decompression,
// calls per connection bounded, every call requiring auth's token when
// it is set (authorization metadata "Bearer TOKEN"). With tlsCfg it
// serves TLS; auth.ClientCert then requires a verified client
// certificate, which tlsCfg should require in the handshake already
// (tls.RequireAndVerifyClientCert: nothing but OTLP is served there).
// Serve it on a listener from LimitListener; GracefulStop it.
func (r *Receiver) NewOTLPGRPC(auth Auth, tlsCfg *tls.Config) *grpc.Server {
	opts := []grpc.ServerOption{grpc.MaxRecvMsgSize(int(r.o.MaxBytes)), grpc.MaxConcurrentStreams(uint32(r.o.Queue) * 4),
		grpc.ConnectionTimeout(10 * time.Second)}
	if tlsCfg != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(tlsCfg)))
	}
	s := grpc.NewServer(opts...)
	collogs.RegisterLogsServiceServer(s, &logsService{r: r, auth: auth})
	return s
}

type logsService struct {
	collogs.UnimplementedLogsServiceServer
	r    *Receiver
	auth Auth
}

// Export takes one ExportLogsServiceRequest. Refusals follow OTLP's
// rules: Unavailable (busy, over a rate bound, stopping, not committed
// in time) is retried by the exporter; InvalidArgument and
// Unauthenticated are not.
func (s *logsService) Export(ctx context.Context, req *collogs.ExportLogsServiceRequest) (*collogs.ExportLogsServiceResponse, error) {
	obs := s.r.o.Observer
	obs.Request(InputOTLP)
	if s.auth.ClientCert && !verifiedPeer(ctx) {
		obs.Rejected(InputOTLP, ReasonUnauthorized)
		return nil, status.Error(codes.Unauthenticated, "otlp: a client certificate signed by the configured CA (accept_tls_client_ca_file) is required, and none was sent")
	}
	if s.auth.Token != "" {
		md, _ := metadata.FromIncomingContext(ctx)
		got := ""
		if v := md.Get("authorization"); len(v) == 1 {
			got = v[0]
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte("Bearer "+s.auth.Token)) != 1 {
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

// verifiedPeer reports whether the call came over TLS with a client
// certificate the listener verified.
func verifiedPeer(ctx context.Context) bool {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return false
	}
	ti, ok := p.AuthInfo.(credentials.TLSInfo)
	return ok && len(ti.State.VerifiedChains) > 0
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
