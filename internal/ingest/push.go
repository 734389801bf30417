package ingest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/sinks"
)

// Defaults of PushOptions.
const (
	DefaultPushQueue   = 16
	DefaultStreamRate  = 10000 // lines a second, per stream
	DefaultStreamBurst = 50000 // lines at once, per stream
	// DefaultPushWait stays under the HTTP server's write timeout (30s),
	// so the 503 of a push not committed in time reaches the shipper.
	DefaultPushWait      = 20 * time.Second
	maxRateStreams       = 10000
	defaultMaxLineBytes  = 256 << 10
	rateRetryAfterSecond = 1
)

// ErrClosed is returned to a push that arrives after the receiver closed
// (run is stopping).
var ErrClosed = errors.New("the input is stopping")

// Push is one accepted push request, handed to run: its lines in order,
// each stream's after its predecessors, and Done to call once they are
// committed with the alerts they produced.
type Push struct {
	Lines []source.Line
	// Alerts, when set, are enriched alerts to hand to the sinks as they
	// are (the Alertmanager enricher), committed like the alerts of lines.
	Alerts []sinks.Alert
	// Key identifies the push's content (zero when it has none: a line
	// without a time). Run commits it with the push's lines (Keys).
	Key  PushKey
	r    *Receiver
	done chan error
}

// PushKey identifies the content of a push: its input, and each stream's
// labels with the time and text of every entry. A shipper's retry sends
// the same content, so it has the same key; two pushes that are not one
// retried have different ones, for entries carry nanosecond times.
type PushKey [16]byte

// Done answers the push: nil acknowledges it (2xx), an error makes the
// shipper retry it (503). It may be called once; later calls do nothing.
// Call it with nil only once the push's key is committed with its lines
// (Keys): a retry is then answered as done without being read again.
func (p *Push) Done(err error) {
	if err == nil && p.r != nil && p.Key != (PushKey{}) {
		p.r.keys.committed(p.Key)
	}
	select {
	case p.done <- err:
	default:
	}
}

// PushOptions configure a Receiver. Zero values take defaults.
type PushOptions struct {
	// MaxBytes bounds a request body and what it decompresses to
	// (default DefaultMaxBytes).
	MaxBytes int64
	// Queue bounds the pushes waiting for the processor; past it a push
	// is answered 429 with Retry-After (default DefaultPushQueue).
	Queue int
	// Rate and Burst bound each stream's lines: Rate a second on
	// average, Burst at once (defaults DefaultStreamRate,
	// DefaultStreamBurst). A push that would exceed them is answered 429.
	Rate, Burst float64
	// Wait bounds how long a push waits for its commit before it is
	// answered 503, so the shipper retries (default DefaultPushWait).
	Wait time.Duration
	// MaxLineBytes cuts longer physical lines, as the tailer does.
	MaxLineBytes int
	// Labels map a stream's labels to its identity (default
	// DefaultLabels).
	Labels LabelMap
	// Observer counts requests, lines and refusals.
	Observer Observer
	// Now stands in for the clock of the rate bound (tests).
	Now func() time.Time
}

// Receiver serves the push inputs: the Loki push API (POST
// /loki/api/v1/push) and OTLP logs over HTTP (POST /v1/logs). Each
// request's streams become lines of sources named by their labels, handed
// to run through Pushes; the request is answered once run has committed
// them (204), or refused.
type Receiver struct {
	o      PushOptions
	queue  chan *Push
	closed chan struct{}
	once   sync.Once
	offset atomic.Int64 // the next line's offset: one sequence for all streams keeps each stream's increasing
	mu     sync.Mutex
	rates  map[string]*bucket
	keys   pushKeys
}

// NewReceiver returns a Receiver; run reads Pushes and calls Close when
// it stops.
func NewReceiver(o PushOptions) *Receiver {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Queue <= 0 {
		o.Queue = DefaultPushQueue
	}
	if o.Rate <= 0 {
		o.Rate = DefaultStreamRate
	}
	if o.Burst <= 0 {
		o.Burst = DefaultStreamBurst
	}
	if o.Wait <= 0 {
		o.Wait = DefaultPushWait
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = defaultMaxLineBytes
	}
	if o.Observer == nil {
		o.Observer = nopObserver{}
	}
	if o.Labels.Pod == nil && o.Labels.Namespace == nil && o.Labels.Container == nil && o.Labels.Extra == nil {
		o.Labels = DefaultLabels()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Receiver{o: o, queue: make(chan *Push, o.Queue), closed: make(chan struct{}), rates: map[string]*bucket{},
		keys: pushKeys{set: map[PushKey]bool{}}}
}

// Pushes are the accepted pushes, in the order accepted.
func (r *Receiver) Pushes() <-chan *Push { return r.queue }

// Close makes the receiver refuse new pushes (503) and answers those
// still queued with ErrClosed; pushes already handed on are answered by
// whoever took them.
func (r *Receiver) Close() {
	r.once.Do(func() {
		close(r.closed)
		for {
			select {
			case p := <-r.queue:
				p.Done(ErrClosed)
			default:
				return
			}
		}
	})
}

// Ready reports why the receiver cannot accept now ("" when it can): it
// is closed, or its queue is full.
func (r *Receiver) Ready() string {
	select {
	case <-r.closed:
		return "stopping"
	default:
	}
	if len(r.queue) == cap(r.queue) {
		return "queue full"
	}
	return ""
}

// Decoder turns a push request's body (after its Content-Encoding) into
// streams; its errors are *Error, 4xx.
type Decoder func(h http.Header, body []byte, max int64) ([]PushStream, error)

// ServeHTTP serves Loki's push API: 204 once committed.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.serve(w, req, InputLoki, DecodeLoki, func(w http.ResponseWriter, _ http.Header) { w.WriteHeader(http.StatusNoContent) })
}

// serve answers one push request of input: decode, bound, queue for run,
// and answer with ok once run has committed its lines.
func (r *Receiver) serve(w http.ResponseWriter, req *http.Request, input string, decode Decoder, ok func(http.ResponseWriter, http.Header)) {
	obs := r.o.Observer
	obs.Request(input)
	select {
	case <-r.closed:
		refuse(w, input, obs, errorf(http.StatusServiceUnavailable, ReasonUnavailable, "%v", ErrClosed))
		return
	default:
	}
	// Refused before the body is read when no push could be queued.
	if len(r.queue) == cap(r.queue) {
		refuse(w, input, obs, busy())
		return
	}
	if req.ContentLength > r.o.MaxBytes {
		refuse(w, input, obs, errorf(http.StatusRequestEntityTooLarge, ReasonTooLarge, "body of %d bytes over %d", req.ContentLength, r.o.MaxBytes))
		return
	}
	body, err := ReadBody(req.Header, http.MaxBytesReader(w, req.Body, r.o.MaxBytes), r.o.MaxBytes)
	if err != nil {
		refuse(w, input, obs, err)
		return
	}
	streams, err := decode(req.Header, body, r.o.MaxBytes)
	if err != nil {
		refuse(w, input, obs, err)
		return
	}
	if err := r.accept(req.Context(), input, streams); err != nil {
		refuse(w, input, obs, err)
		return
	}
	ok(w, req.Header)
}

// accept hands the lines of streams to run and waits until they are
// committed. Its errors are *Error: 429 (busy, rate) or 503 (not
// acknowledged: the client retries).
func (r *Receiver) accept(ctx context.Context, input string, streams []PushStream) error {
	lines := r.lines(streams)
	if len(lines) > MaxPushLines {
		return tooManyLines()
	}
	if len(lines) == 0 {
		return nil
	}
	key, keyed := pushKeyOf(input, streams)
	if keyed {
		switch r.keys.begin(key) {
		case keyCommitted:
			// A retry of a push committed whose answer was lost (a
			// crash, a timeout): done already, nothing is read twice.
			return nil
		case keyInFlight:
			return &Error{Status: http.StatusTooManyRequests, Reason: ReasonBusy, RetryAfter: 1,
				Msg: "the same push is being committed; retry later"}
		}
		defer r.keys.end(key)
	} else {
		key = PushKey{}
	}
	if err := r.admit(streams); err != nil {
		return err
	}
	if err := r.hand(ctx, &Push{Lines: lines, Key: key, r: r, done: make(chan error, 1)}); err != nil {
		return err
	}
	r.o.Observer.Lines(input, len(lines))
	return nil
}

// Restored returns a push of lines run held for entries still open when it
// last stopped (its state): numbered afresh after the lines of this run,
// answered to no one.
func (r *Receiver) Restored(lines []source.Line) *Push {
	out := make([]source.Line, len(lines))
	for i, l := range lines {
		off := r.offset.Add(int64(len(l.Text)) + 1)
		l.Offset = off - int64(len(l.Text)) - 1
		l.End, l.Next = off, off
		out[i] = l
	}
	return &Push{Lines: out}
}

// Keys are the keys of the pushes committed lately, oldest first: what
// run commits (with the keys of the pushes it is committing) so that a
// push retried after a restart is recognised.
func (r *Receiver) Keys() []PushKey { return r.keys.list() }

// RestoreKeys makes the receiver know keys as committed (from the state
// of the last run).
func (r *Receiver) RestoreKeys(keys []PushKey) {
	for _, k := range keys {
		r.keys.committed(k)
	}
}

// Forward hands enriched alerts to run's sinks and waits until they are
// committed to the sinks' durable queues. Its errors are *Error, 429 or
// 503.
func (r *Receiver) Forward(ctx context.Context, alerts []sinks.Alert) error {
	if len(alerts) == 0 {
		return nil
	}
	return r.hand(ctx, &Push{Alerts: alerts, done: make(chan error, 1)})
}

// hand queues p for run and waits for its answer.
func (r *Receiver) hand(ctx context.Context, p *Push) error {
	select {
	case <-r.closed:
		return errorf(http.StatusServiceUnavailable, ReasonUnavailable, "%v", ErrClosed)
	default:
	}
	select {
	case r.queue <- p:
	default:
		return busy()
	}
	t := time.NewTimer(r.o.Wait)
	defer t.Stop()
	var err error
	select {
	case err = <-p.done:
	case <-r.closed:
		// Stopping: the push may still be committed by the final commit,
		// but it cannot be known here; the shipper's retry repeats it.
		select {
		case err = <-p.done:
		default:
			err = ErrClosed
		}
	case <-t.C:
		err = errors.New("not committed in time")
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		// 503: the sender retries; the push may have been processed, so
		// a retry can count an occurrence twice (never lose one).
		return errorf(http.StatusServiceUnavailable, ReasonUnavailable, "push not acknowledged: %v", err)
	}
	return nil
}

func busy() *Error {
	return &Error{Status: http.StatusTooManyRequests, Reason: ReasonBusy, RetryAfter: 1,
		Msg: "busy: the pushes waiting for the processor are at their bound; retry later"}
}

// lines turns the streams into source lines: each entry's text split into
// its physical lines, each cut at MaxLineBytes, named and labelled with
// the identity the label map reads from the stream's labels.
func (r *Receiver) lines(streams []PushStream) []source.Line {
	var out []source.Line
	for _, s := range streams {
		name, pod := r.o.Labels.Identity(s.Labels)
		stream := labelValue(s.Labels, "stream")
		if stream != "stdout" && stream != "stderr" {
			stream = ""
		}
		for _, e := range s.Entries {
			text := strings.TrimSuffix(e.Line, "\n")
			for {
				if len(out) > MaxPushLines {
					return out // refused by the caller; no more memory for it
				}
				phys, rest, more := strings.Cut(text, "\n")
				phys = strings.TrimSuffix(phys, "\r")
				cut := false
				if len(phys) > r.o.MaxLineBytes {
					phys, cut = strings.ToValidUTF8(phys[:r.o.MaxLineBytes], ""), true
				}
				off := r.offset.Add(int64(len(phys)) + 1)
				out = append(out, source.Line{
					Line: entry.Line{Text: phys, Source: name, Stream: stream, Offset: off - int64(len(phys)) - 1, Time: e.Time, Truncated: cut},
					End:  off, Next: off, Pod: pod,
				})
				if !more {
					break
				}
				text = rest
			}
		}
	}
	return out
}

// admit charges each stream's lines to its rate bound; a push that would
// exceed one is refused whole, and charges nothing.
func (r *Receiver) admit(streams []PushStream) error {
	now := r.o.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	need := map[string]float64{}
	for _, s := range streams {
		need[LabelString(s.Labels)] += float64(len(s.Entries))
	}
	for name, n := range need {
		b := r.rates[name]
		if b == nil {
			if len(r.rates) >= maxRateStreams {
				// Buckets full again are forgotten first: a new one
				// starts full, so forgetting them changes nothing.
				r.forgetFull(now)
			}
			b = &bucket{tokens: r.o.Burst, at: now}
			r.rates[name] = b
		}
		b.refill(now, r.o.Rate, r.o.Burst)
		if b.tokens < n {
			return &Error{Status: http.StatusTooManyRequests, Reason: ReasonRate, RetryAfter: rateRetryAfterSecond,
				Msg: "stream " + truncate(name, 200) + ": over its rate bound of lines a second; retry later"}
		}
	}
	for name, n := range need {
		r.rates[name].tokens -= n
	}
	return nil
}

func (r *Receiver) forgetFull(now time.Time) {
	for name, b := range r.rates {
		b.refill(now, r.o.Rate, r.o.Burst)
		if b.tokens >= r.o.Burst {
			delete(r.rates, name)
		}
	}
	if len(r.rates) >= maxRateStreams {
		clear(r.rates) // a flood of streams: start every bound afresh
	}
}

// bucket is one stream's token bucket.
type bucket struct {
	tokens float64
	at     time.Time
}

func (b *bucket) refill(now time.Time, rate, burst float64) {
	if d := now.Sub(b.at).Seconds(); d > 0 {
		b.tokens = min(burst, b.tokens+d*rate)
	}
	b.at = now
}
