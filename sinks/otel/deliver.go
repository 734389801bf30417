package otel

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	sdklog "go.opentelemetry.io/otel/sdk/log"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/logmatch/logmatch/sinks"
)

// outcome carries one Send's export result from the processor (and, over
// HTTP, the response status from the transport) back to Send through the
// context that Logger.Emit passes down.
type outcome struct {
	exported bool // the processor ran the exporter
	err      error

	mu         sync.Mutex // the HTTP transport writes from its own goroutine
	attempted  bool       // a request reached the transport
	status     int        // HTTP status of the last response; 0 when none
	retryAfter string     // its Retry-After header
}

type outcomeKey struct{}

func withOutcome(ctx context.Context, o *outcome) context.Context {
	return context.WithValue(ctx, outcomeKey{}, o)
}

func outcomeFrom(ctx context.Context) *outcome {
	o, _ := ctx.Value(outcomeKey{}).(*outcome)
	return o
}

// syncProcessor exports each record as it is emitted and reports the
// exporter's error to the Send that emitted it, instead of to the global
// error handler (where the SDK's own processors send it).
type syncProcessor struct {
	exporter sdklog.Exporter
	pool     sync.Pool // of *[1]sdklog.Record, to export without allocating
}

var _ sdklog.Processor = (*syncProcessor)(nil)

func (p *syncProcessor) OnEmit(ctx context.Context, r *sdklog.Record) error {
	batch, _ := p.pool.Get().(*[1]sdklog.Record)
	if batch == nil {
		batch = new([1]sdklog.Record)
	}
	batch[0] = *r
	err := p.exporter.Export(ctx, batch[:])
	batch[0] = sdklog.Record{}
	p.pool.Put(batch)

	if o := outcomeFrom(ctx); o != nil {
		o.exported, o.err = true, err
		return nil
	}
	return err
}

func (p *syncProcessor) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }

// Shutdown shuts the exporter down; nothing is buffered, so nothing is lost.
func (p *syncProcessor) Shutdown(ctx context.Context) error { return p.exporter.Shutdown(ctx) }

func (p *syncProcessor) ForceFlush(ctx context.Context) error { return p.exporter.ForceFlush(ctx) }

// httpStatus names the HTTP status of the answer for an error message, or
// returns "" when there was none: the exporter's message for a retryable
// status does not name it.
func (o *outcome) httpStatus() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.status == 0 {
		return ""
	}
	return fmt.Sprintf("http %d: ", o.status)
}

// recordingTransport notes each HTTP response's status in the request's
// outcome: the HTTP exporter reports statuses only inside error strings.
type recordingTransport struct {
	next http.RoundTripper
}

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if o := outcomeFrom(req.Context()); o != nil {
		o.mu.Lock()
		o.attempted = true
		if resp != nil {
			o.status, o.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
		}
		o.mu.Unlock()
	}
	return resp, err
}

// acceptedUnreadable reports whether the receiver accepted the export (a
// 2xx status) with a body that is not an OTLP response: a proxy's page,
// garbage, a response cut short. The status is the answer; calling it a
// failure would count an alert the receiver has as dropped, or send it
// again. A partial success that names the record rejected decodes, and
// stays a failure.
func acceptedUnreadable(o *outcome) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.status >= 200 && o.status <= 299 && errors.Is(o.err, proto.Error)
}

// retryable classifies a failed export of protocol (see the package doc).
func retryable(protocol string, o *outcome, err error) bool {
	var cv *tls.CertificateVerificationError
	if errors.As(err, &cv) {
		// A certificate the sink cannot trust stays untrusted.
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	if protocol == ProtocolHTTPProtobuf {
		o.mu.Lock()
		defer o.mu.Unlock()
		switch {
		case o.status == http.StatusRequestTimeout, o.status == http.StatusTooManyRequests, o.status >= 500:
			return true
		case o.status != 0:
			return false
		}
		// No response: a transport failure is worth retrying, a request
		// that never left (too large, shut down) is not.
		return o.attempted
	}
	s, ok := status.FromError(err)
	if !ok {
		return false
	}
	switch s.Code() {
	case codes.Canceled, codes.DeadlineExceeded, codes.Aborted, codes.OutOfRange,
		codes.Unavailable, codes.DataLoss, codes.ResourceExhausted:
		return true
	}
	return false
}

// retryAfter returns the delay an HTTP answer asked for in Retry-After.
func retryAfter(o *outcome, now time.Time) (time.Duration, bool) {
	o.mu.Lock()
	v := o.retryAfter
	o.mu.Unlock()
	return sinks.ParseRetryAfter(v, now)
}

// redactedError hides secrets (header values, URL passwords) from the
// message of the error it wraps.
type redactedError struct {
	err error
	r   *strings.Replacer
}

func (e *redactedError) Error() string { return e.r.Replace(e.err.Error()) }
func (e *redactedError) Unwrap() error { return e.err }

// newRedactor replaces every non-empty secret with "REDACTED".
func newRedactor(secrets []string) *strings.Replacer {
	var pairs []string
	for _, s := range secrets {
		if s != "" {
			pairs = append(pairs, s, "REDACTED")
		}
	}
	return strings.NewReplacer(pairs...)
}
