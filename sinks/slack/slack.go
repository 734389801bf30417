package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/logmatch/logmatch/sinks"
)

// Options are the sink's dependencies; zero values use the real ones.
type Options struct {
	Getenv func(string) string // os.Getenv when nil
	// ReadFile reads url_file; os.ReadFile when nil.
	ReadFile  func(string) ([]byte, error)
	Clock     sinks.Clock       // sinks.SystemClock when nil
	Transport http.RoundTripper // a clone of http.DefaultTransport when nil
}

// Sink posts alerts to one Slack incoming webhook. It is safe for
// concurrent use; messages are paced Interval apart.
type Sink struct {
	url    string
	over   overrides
	digest int
	client *http.Client
	limit  *limiter
}

// overrides are the message fields a legacy webhook lets the sender set.
type overrides struct {
	channel, username, iconEmoji, iconURL string
}

// New validates cfg, reads the webhook URL and returns the sink. Every
// configuration problem is reported at once.
func New(cfg Config, opts Options) (*Sink, error) {
	r, err := cfg.resolve(opts)
	if err != nil {
		return nil, fmt.Errorf("slack: %w", err)
	}
	clock := opts.Clock
	if clock == nil {
		clock = sinks.SystemClock{}
	}
	return &Sink{
		url:    r.url,
		over:   overrides{cfg.Channel, cfg.Username, cfg.IconEmoji, cfg.IconURL},
		digest: r.digest,
		client: sinks.NewClient(opts.Transport, r.timeout),
		limit:  &limiter{clock: clock, interval: Interval},
	}, nil
}

// Send posts one alert's message.
func (s *Sink) Send(ctx context.Context, a *sinks.Alert) (bool, error) {
	retry, err := s.post(ctx, render(a))
	if err != nil {
		return retry, fmt.Errorf("slack: alert %s: %w", a.Fingerprint, err)
	}
	return false, nil
}

// BatchMin is one more than the digest threshold: a digest goes out when
// more alerts than the threshold wait. It is 0, never batch, when the
// threshold is 0.
func (s *Sink) BatchMin() int {
	if s.digest <= 0 {
		return 0
	}
	return s.digest + 1
}

// Wants reports whether the sink takes alerts of kind: people read Slack,
// so a still-active incident's periodic update is not sent.
func (s *Sink) Wants(kind string) bool { return kind != sinks.KindUpdate }

// SendBatch posts one digest for a storm of alerts: counts by severity and
// kind and the records with the most weight. It is one message, so the
// batch is delivered whole or not at all.
func (s *Sink) SendBatch(ctx context.Context, alerts []*sinks.Alert) (bool, error) {
	if len(alerts) == 0 {
		return false, nil
	}
	retry, err := s.post(ctx, renderDigest(alerts))
	if err != nil {
		return retry, fmt.Errorf("slack: digest of %d alerts: %w", len(alerts), err)
	}
	return false, nil
}

// Close releases idle connections.
func (s *Sink) Close() error {
	s.client.CloseIdleConnections()
	return nil
}

func (s *Sink) post(ctx context.Context, m message) (bool, error) {
	m.Channel, m.Username, m.IconEmoji, m.IconURL = s.over.channel, s.over.username, s.over.iconEmoji, s.over.iconURL
	body, err := json.Marshal(m)
	if err != nil {
		return false, fmt.Errorf("encode message: %w", err)
	}
	if err := s.limit.wait(ctx); err != nil {
		return true, fmt.Errorf("waiting for the rate limit: %w", err)
	}
	retry, err := sinks.PostJSON(ctx, s.client, s.url, body, nil)
	if err == nil {
		return false, nil
	}
	var ra *sinks.RetryAfterError
	if errors.As(err, &ra) {
		// Slack's pause applies to the webhook, not to this one message.
		s.limit.holdFor(ra.After)
	}
	var se *sinks.StatusError
	if errors.As(err, &se) {
		if h := hint(se.Body); h != "" {
			return retry, fmt.Errorf("%w (%s)", err, h)
		}
	}
	return retry, err
}

// hint explains one of Slack's documented webhook errors (the answer's
// body) to the operator who reads the log; "" for any other answer.
func hint(code string) string {
	switch code {
	case "invalid_payload", "invalid_blocks", "invalid_blocks_format", "no_text":
		return "Slack rejected the message itself; a logmatch bug, the alert is dropped"
	case "action_prohibited":
		return "a workspace admin restricted posting to this channel"
	case "posting_to_general_channel_denied":
		return "only admins may post to this channel"
	case "user_not_found":
		return "the configured channel or user does not exist"
	case "channel_not_found":
		return "the webhook's channel was deleted or the channel override is wrong"
	case "channel_is_archived":
		return "the webhook's channel is archived"
	case "no_service", "no_service_id", "invalid_token":
		return "the webhook is disabled, revoked or its URL is wrong"
	case "no_team", "team_disabled":
		return "the webhook's workspace is gone or disabled"
	case "rate_limited":
		return "Slack is rate limiting this webhook"
	}
	return ""
}
