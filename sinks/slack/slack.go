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
	Getenv    func(string) string // os.Getenv when nil
	Clock     sinks.Clock         // sinks.SystemClock when nil
	Transport http.RoundTripper   // a clone of http.DefaultTransport when nil
}

// Sink posts alerts to one Slack incoming webhook. It is safe for
// concurrent use; messages are paced Interval apart.
type Sink struct {
	url    string
	cfg    Config
	digest int
	client *http.Client
	limit  *limiter
}

// New validates cfg, reads the webhook URL and returns the sink. Every
// configuration problem is reported at once.
func New(cfg Config, opts Options) (*Sink, error) {
	r, err := cfg.resolve(opts.Getenv)
	if err != nil {
		return nil, fmt.Errorf("slack: %w", err)
	}
	clock := opts.Clock
	if clock == nil {
		clock = sinks.SystemClock{}
	}
	tr := opts.Transport
	if tr == nil {
		tr = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &Sink{
		url:    r.url,
		cfg:    cfg,
		digest: r.digest,
		client: &http.Client{Transport: tr, Timeout: r.timeout},
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

// BatchMin is the configured digest threshold.
func (s *Sink) BatchMin() int { return s.digest }

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
	m.Channel, m.Username, m.IconEmoji, m.IconURL = s.cfg.Channel, s.cfg.Username, s.cfg.IconEmoji, s.cfg.IconURL
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
		if h := hints[se.Body]; h != "" {
			return retry, fmt.Errorf("%w (%s)", err, h)
		}
	}
	return retry, err
}

// hints explain Slack's documented webhook errors (the answer's body) to
// the operator who reads the log.
var hints = map[string]string{
	"invalid_payload":                   "Slack could not parse the message; a logmatch bug, the alert is dropped",
	"invalid_blocks":                    "Slack rejected the message layout; a logmatch bug, the alert is dropped",
	"invalid_blocks_format":             "Slack rejected the message layout; a logmatch bug, the alert is dropped",
	"no_text":                           "the message had no text; a logmatch bug, the alert is dropped",
	"action_prohibited":                 "a workspace admin restricted posting to this channel",
	"posting_to_general_channel_denied": "only admins may post to this channel",
	"user_not_found":                    "the configured channel or user does not exist",
	"channel_not_found":                 "the webhook's channel was deleted or the channel override is wrong",
	"channel_is_archived":               "the webhook's channel is archived",
	"no_service":                        "the webhook is disabled, revoked or its URL is wrong",
	"no_service_id":                     "the webhook URL is wrong",
	"no_team":                           "the webhook's workspace is gone or the URL is wrong",
	"team_disabled":                     "the webhook's workspace is disabled",
	"invalid_token":                     "the webhook URL's token is invalid",
	"rate_limited":                      "Slack is rate limiting this webhook",
}
