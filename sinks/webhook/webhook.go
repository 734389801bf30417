package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"

	"github.com/logmatch/logmatch/sinks"
)

// Headers the sink sets on every request.
const (
	// SignatureHeader carries "sha256=<hex HMAC-SHA256 of the body>" when
	// a secret is configured. Receivers recompute it over the raw body and
	// compare in constant time.
	SignatureHeader = "X-Logmatch-Signature"
	// IdempotencyHeader carries IdempotencyKey of the alert.
	IdempotencyHeader = "Idempotency-Key"
)

// Options are the sink's dependencies; zero values use the real ones.
type Options struct {
	Getenv func(string) string // os.Getenv when nil
	// ReadFile reads url_file and secret_file; os.ReadFile when nil.
	ReadFile  func(string) ([]byte, error)
	Transport http.RoundTripper // http.DefaultTransport's settings when nil
}

// Sink posts alerts to one webhook. It is safe for concurrent use.
type Sink struct {
	url     string
	secret  []byte
	headers http.Header
	client  *http.Client
}

// New validates cfg, reads its secrets and returns the sink. Every
// configuration problem is reported at once.
func New(cfg Config, opts Options) (*Sink, error) {
	r, err := cfg.resolve(opts)
	if err != nil {
		return nil, fmt.Errorf("webhook: %w", err)
	}
	return &Sink{
		url:     r.url,
		secret:  r.secret,
		headers: r.headers,
		client:  sinks.NewClient(opts.Transport, r.timeout),
	}, nil
}

// Wants reports whether the sink takes alerts of kind: every kind but the
// periodic update of a still-active incident, which only receivers that
// expire alerts need.
func (s *Sink) Wants(kind string) bool { return kind != sinks.KindUpdate }

// Send posts a's JSON. Failures are classified by sinks.Classify: network
// errors, 408, 429 and 5xx may succeed later, other statuses never will.
func (s *Sink) Send(ctx context.Context, a *sinks.Alert) (bool, error) {
	body, err := sinks.AlertJSON(a)
	if err != nil {
		return false, fmt.Errorf("webhook: %w", err)
	}
	h := s.headers.Clone()
	h.Set(IdempotencyHeader, IdempotencyKey(a))
	if s.secret != nil {
		h.Set(SignatureHeader, Sign(s.secret, body))
	}
	retry, err := sinks.PostJSON(ctx, s.client, s.url, body, h)
	if err != nil {
		return retry, fmt.Errorf("webhook: alert %s: %w", a.Fingerprint, err)
	}
	return false, nil
}

// Close releases idle connections.
func (s *Sink) Close() error {
	s.client.CloseIdleConnections()
	return nil
}

// Sign returns the SignatureHeader value for body under secret.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether signature (a SignatureHeader value) signs body
// under secret, comparing in constant time: what a receiver written in Go
// calls on the raw body before decoding it.
func Verify(secret, body []byte, signature string) bool {
	return hmac.Equal([]byte(Sign(secret, body)), []byte(signature))
}

// IdempotencyKey identifies one alert message: the incident fingerprint,
// a short hash of the identity of the file content the entry was read from
// (sinks.Source.File: 12 hex digits of its SHA-256) and the entry's offset,
// "<fingerprint>-<file>-<offset>". A retry, or a resend after a restart, of
// the same alert carries the same key, so a receiver that remembers keys
// can drop the duplicate; the file part keeps apart the alerts of a file
// deleted and recreated, or truncated and rewritten, whose entries reuse
// offsets. An alert without a file identity (from a version before it was
// recorded) has "<fingerprint>-<offset>". Alerts that are not the first of
// their incident ("summary", "reminder", "resolved") add "-<kind>-<count>":
// they may share the entry with an earlier message of the incident but are
// new messages, not duplicates.
func IdempotencyKey(a *sinks.Alert) string {
	k := a.Fingerprint
	if a.Source.File != "" {
		sum := sha256.Sum256([]byte(a.Source.File))
		k += "-" + hex.EncodeToString(sum[:6])
	}
	k += "-" + strconv.FormatInt(a.Source.Offset, 10)
	if a.Kind != "" && a.Kind != "new" {
		k += "-" + a.Kind + "-" + strconv.Itoa(a.Count)
	}
	return k
}
