package ingest

import (
	"compress/gzip"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Names of the inputs, as --accept and the metrics name them.
const (
	InputDiagnose = "diagnose"
	InputLoki     = "loki"
)

// Reasons a request is refused, the values of the reason label.
const (
	ReasonTooLarge     = "too_large"    // body or its decompressed text over the bound
	ReasonEncoding     = "encoding"     // an unknown Content-Encoding, or a corrupt compressed body
	ReasonContentType  = "content_type" // a Content-Type the input does not read
	ReasonMalformed    = "malformed"    // the body does not parse
	ReasonNotText      = "not_text"     // an upload that is binary data
	ReasonBusy         = "busy"         // the input is at its bound of requests or queued lines
	ReasonTimeout      = "timeout"      // the work did not finish within its deadline
	ReasonUnauthorized = "unauthorized" // a missing or wrong bearer token
	ReasonRate         = "rate"         // a stream over its rate bound
	ReasonUnavailable  = "unavailable"  // the input is not running (shutting down)
)

// Observer counts what the inputs receive; run turns the counts into
// metrics. Its methods are called from the HTTP handlers' goroutines and
// must not block.
type Observer interface {
	// Request counts a request to input, whatever becomes of it.
	Request(input string)
	// Lines counts n log lines input accepted.
	Lines(input string, n int)
	// Rejected counts a request input refused, by reason.
	Rejected(input, reason string)
}

type nopObserver struct{}

func (nopObserver) Request(string)          {}
func (nopObserver) Lines(string, int)       {}
func (nopObserver) Rejected(string, string) {}

// Error is a refused request: the status to answer, the reason it is
// counted under and a message for the client.
type Error struct {
	Status int
	Reason string
	Msg    string
	// RetryAfter, when positive, is sent as Retry-After (seconds).
	RetryAfter int
}

// Error returns the message for the client.
func (e *Error) Error() string { return e.Msg }

func errorf(status int, reason, format string, args ...any) *Error {
	return &Error{Status: status, Reason: reason, Msg: fmt.Sprintf(format, args...)}
}

// refuse answers err (an *Error, or any error as a 400) and counts it.
func refuse(w http.ResponseWriter, input string, obs Observer, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Status: http.StatusBadRequest, Reason: ReasonMalformed, Msg: err.Error()}
	}
	obs.Rejected(input, e.Reason)
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	// http.Error sets text/plain and nosniff: the message may quote
	// client bytes, and must never be taken for HTML.
	http.Error(w, input+": "+e.Msg, e.Status)
}

// ReadBody reads a request body of at most max bytes, decompressing it
// when Content-Encoding says gzip; what it decompresses to is bounded by
// max too, so a small compressed bomb is refused, not inflated. The
// errors are *Error: 413 over the bound, 415 for an encoding other than
// gzip or identity, 400 for a corrupt gzip stream.
func ReadBody(h http.Header, body io.Reader, max int64) ([]byte, error) {
	raw, err := readAtMost(body, max, "body")
	if err != nil {
		return nil, err
	}
	switch enc := strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding"))); enc {
	case "", "identity":
		return raw, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(strings.NewReader(string(raw)))
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonEncoding, "Content-Encoding gzip: %v", err)
		}
		text, err := readAtMost(zr, max, "decompressed body")
		var e *Error
		if errors.As(err, &e) {
			return nil, e
		}
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonEncoding, "Content-Encoding gzip: %v", err)
		}
		return text, nil
	default:
		return nil, errorf(http.StatusUnsupportedMediaType, ReasonEncoding, "Content-Encoding %q: want gzip or identity", truncate(enc, 64))
	}
}

// readAtMost reads r to its end, refusing more than max bytes (413).
func readAtMost(r io.Reader, max int64, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) || int64(len(b)) > max {
		return nil, errorf(http.StatusRequestEntityTooLarge, ReasonTooLarge, "%s over %d bytes", what, max)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// truncate shortens client text quoted in a message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Auth is what the inputs require of a client: a bearer token, a client
// certificate, both or neither.
type Auth struct {
	// Token, when set, must come as Authorization: Bearer TOKEN.
	Token string
	// ClientCert requires a client certificate that the TLS listener
	// verified against its CA bundle. The listener verifies any
	// certificate sent and refuses the handshake of one it does not
	// trust; it lets a client without one in, so health probes and
	// metric scrapes work without one, and the inputs refuse it here.
	ClientCert bool
}

// Authenticate wraps next so that it serves only requests that meet auth;
// a zero auth lets every request in. The token comparison takes the same
// time whatever the token sent.
func Authenticate(auth Auth, input string, obs Observer, next http.Handler) http.Handler {
	if auth == (Auth{}) {
		return next
	}
	if obs == nil {
		obs = nopObserver{}
	}
	want := []byte("Bearer " + auth.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth.ClientCert && (r.TLS == nil || len(r.TLS.VerifiedChains) == 0) {
			obs.Request(input)
			refuse(w, input, obs, errorf(http.StatusUnauthorized, ReasonUnauthorized, "a client certificate signed by the configured CA (accept_tls_client_ca_file) is required, and none was sent"))
			return
		}
		if auth.Token != "" && subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			obs.Request(input)
			w.Header().Set("WWW-Authenticate", `Bearer realm="logmatch"`)
			refuse(w, input, obs, errorf(http.StatusUnauthorized, ReasonUnauthorized, "a bearer token is required (Authorization: Bearer TOKEN), and the one sent is missing or wrong"))
			return
		}
		next.ServeHTTP(w, r)
	})
}
