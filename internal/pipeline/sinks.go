package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/sinks"
	"github.com/logmatch/logmatch/sinks/alertmanager"
	"github.com/logmatch/logmatch/sinks/otel"
	"github.com/logmatch/logmatch/sinks/slack"
	"github.com/logmatch/logmatch/sinks/stdout"
	"github.com/logmatch/logmatch/sinks/webhook"
)

// builtSink is one configured destination, ready for its delivery loop.
type builtSink struct {
	name    string
	kind    string
	minRank int // alerts below this severity rank are not queued for it
	sink    sinks.Sink
	retry   config.Retry
	closer  func(context.Context) error // nil when nothing to release
	// newPerMinute and newBurst bound the new incidents sent to it; see
	// DefaultNewIncidentRate. 0 is no bound.
	newPerMinute, newBurst int
}

// buildSinks builds every configured sink, reporting all configuration
// problems at once (one bad sink never hides the next), each prefixed with
// the sink's place in the list.
func buildSinks(ctx context.Context, cfgs []config.Sink, getenv func(string) string, out io.Writer) ([]*builtSink, error) {
	var built []*builtSink
	var errs []error
	for i, c := range cfgs {
		b, err := buildSink(ctx, c, getenv, out)
		if err != nil {
			errs = append(errs, fmt.Errorf("sinks[%d] (%s): %w", i, c.Name, err))
			continue
		}
		built = append(built, b)
	}
	if err := errors.Join(errs...); err != nil {
		for _, b := range built {
			if b.closer != nil {
				_ = b.closer(ctx)
			}
		}
		return nil, err
	}
	return built, nil
}

func buildSink(ctx context.Context, c config.Sink, getenv func(string) string, out io.Writer) (*builtSink, error) {
	rank, err := sinks.CheckMinSeverity(string(c.MinSeverity))
	if err != nil {
		return nil, err
	}
	b := &builtSink{name: c.Name, kind: c.Type, minRank: rank, retry: c.Retry,
		newPerMinute: DefaultNewIncidentRate, newBurst: DefaultNewIncidentBurst}
	timeout := time.Duration(c.Timeout)
	switch c.Type {
	case config.SinkStdout:
		b.sink = stdout.New(out)
	case config.SinkSlack:
		s, err := slack.New(slack.Config{
			URL:             c.URL.Value(),
			Channel:         c.Channel,
			Username:        c.Username,
			DigestThreshold: c.DigestThreshold,
			Timeout:         timeout,
			MinSeverity:     string(c.MinSeverity),
		}, slack.Options{Getenv: getenv})
		if err != nil {
			return nil, err
		}
		b.sink = s
		b.closer = func(context.Context) error { return s.Close() }
	case config.SinkWebhook:
		s, err := webhook.New(webhook.Config{
			URL:         c.URL.Value(),
			Secret:      c.Secret.Value(),
			Headers:     plainHeaders(c.Headers),
			Timeout:     timeout,
			MinSeverity: string(c.MinSeverity),
		}, webhook.Options{Getenv: getenv})
		if err != nil {
			return nil, err
		}
		b.sink = s
		b.closer = func(context.Context) error { return s.Close() }
	case config.SinkAlertmanager:
		token, err := bearerOnly(c.Headers)
		if err != nil {
			return nil, err
		}
		s, err := alertmanager.New(alertmanager.Config{
			URL:            c.URL.Value(),
			BearerToken:    token,
			ResolveTimeout: time.Duration(c.ResolveTimeout),
			Timeout:        timeout,
			MinSeverity:    string(c.MinSeverity),
		}, alertmanager.Options{Getenv: getenv})
		if err != nil {
			return nil, err
		}
		b.sink = s
		b.closer = func(context.Context) error { return s.Close() }
	case config.SinkOTel:
		oc := otel.Config{
			Endpoint: c.Endpoint,
			Protocol: c.Protocol,
			Headers:  plainHeaders(c.Headers),
			Timeout:  timeout,
		}
		if c.Insecure != nil {
			oc.Insecure = *c.Insecure
		}
		s, err := otel.New(ctx, oc)
		if err != nil {
			return nil, err
		}
		b.sink = s
		b.closer = s.Shutdown
	default:
		return nil, fmt.Errorf("type: unknown sink type %q", c.Type)
	}
	return b, nil
}

// bearerOnly extracts the token of an "Authorization: Bearer" header, the
// one header the Alertmanager sink sends (for an authenticating proxy).
func bearerOnly(h map[string]config.Secret) (string, error) {
	var token string
	for k, v := range h {
		if !strings.EqualFold(k, "Authorization") || !strings.HasPrefix(v.Value(), "Bearer ") {
			return "", fmt.Errorf("headers: %s: the alertmanager sink sends only \"Authorization: Bearer <token>\"", k)
		}
		token = strings.TrimPrefix(v.Value(), "Bearer ")
	}
	return token, nil
}

// wants reports whether the sink takes alerts of this kind. Updates keep
// an active incident alive in receivers that expire what is not re-posted
// (Alertmanager); people and event streams get the first alert, summaries
// and reminders only.
func (b *builtSink) wants(kind string) bool {
	return kind != incident.KindUpdate || b.kind == config.SinkAlertmanager
}

func plainHeaders(h map[string]config.Secret) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = v.Value()
	}
	return out
}
