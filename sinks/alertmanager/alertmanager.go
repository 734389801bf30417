package alertmanager

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// AlertName is the alertname label of every logmatch alert.
const AlertName = "LogmatchIncident"

// ownLabels are the labels the sink sets; config labels cannot replace them.
var ownLabels = []string{"alertname", "record_id", "slug", "severity", "namespace", "pod", "container", "fingerprint"}

// maxAnnotation bounds each annotation: Alertmanager keeps them in memory
// and in every notification.
const maxAnnotation = 4096

// Options are the sink's dependencies; zero values use the real ones.
type Options struct {
	Getenv func(string) string // os.Getenv when nil
	// ReadFile reads bearer_token_file; os.ReadFile when nil.
	ReadFile  func(string) ([]byte, error)
	Transport http.RoundTripper // a clone of http.DefaultTransport when nil
	Now       func() time.Time  // the processing-time clock; time.Now when nil
}

// Sink posts alerts to one Alertmanager. It is safe for concurrent use.
type Sink struct {
	endpoint       string
	header         http.Header
	resolveTimeout time.Duration
	generatorURL   string
	labels         map[string]string
	client         *http.Client
	now            func() time.Time
}

// New validates cfg and returns the sink. Every configuration problem is
// reported at once.
func New(cfg Config, opts Options) (*Sink, error) {
	r, err := cfg.resolve(opts)
	if err != nil {
		return nil, fmt.Errorf("alertmanager: %w", err)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	h := http.Header{}
	if r.token != "" {
		h.Set("Authorization", "Bearer "+r.token)
	}
	return &Sink{
		endpoint:       r.endpoint,
		header:         h,
		resolveTimeout: r.resolveTimeout,
		generatorURL:   cfg.GeneratorURL,
		labels:         cfg.Labels,
		client:         sinks.NewClient(opts.Transport, r.timeout),
		now:            now,
	}, nil
}

// postableAlert is one element of the POST /api/v2/alerts array.
type postableAlert struct {
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     time.Time         `json:"startsAt"`
	EndsAt       time.Time         `json:"endsAt"`
	GeneratorURL string            `json:"generatorURL,omitempty"`
}

// Send posts one alert.
func (s *Sink) Send(ctx context.Context, a *sinks.Alert) (bool, error) {
	retry, err := s.post(ctx, []postableAlert{s.postable(a)})
	if err != nil {
		return retry, fmt.Errorf("alertmanager: alert %s: %w", a.Fingerprint, err)
	}
	return false, nil
}

// BatchMin is 2: Alertmanager takes any number of alerts in one request.
func (s *Sink) BatchMin() int { return 2 }

// Wants reports whether the sink takes alerts of kind: every kind.
// Alertmanager resolves an alert that is not re-posted before its endsAt,
// so the periodic update of a still-active incident keeps it firing.
func (s *Sink) Wants(string) bool { return true }

// SendBatch posts all alerts in one request. Alertmanager answers 400 when
// any alert is invalid, a permanent failure, so a batch is never retried
// after part of it was stored.
func (s *Sink) SendBatch(ctx context.Context, alerts []*sinks.Alert) (bool, error) {
	if len(alerts) == 0 {
		return false, nil
	}
	body := make([]postableAlert, len(alerts))
	for i, a := range alerts {
		body[i] = s.postable(a)
	}
	retry, err := s.post(ctx, body)
	if err != nil {
		return retry, fmt.Errorf("alertmanager: batch of %d alerts: %w", len(alerts), err)
	}
	return false, nil
}

// Close releases idle connections.
func (s *Sink) Close() error {
	s.client.CloseIdleConnections()
	return nil
}

func (s *Sink) post(ctx context.Context, alerts []postableAlert) (bool, error) {
	body, err := json.Marshal(alerts)
	if err != nil {
		return false, fmt.Errorf("encode alerts: %w", err)
	}
	return sinks.PostJSON(ctx, s.client, s.endpoint, body, s.header)
}

// EndsAt is when Alertmanager resolves a's alert unless it is posted
// again: the resolve timeout after the alert is posted (processing time,
// as Alertmanager's own clients refresh it), or the moment of posting for
// a "resolved" alert. It is never before the alert's start.
//
// The log's own time would be wrong here: an incident read late (after a
// restart, a catch-up, --start-at beginning) has lines older than the
// resolve timeout and would be posted already resolved, never shown as
// active. StartsAt keeps the log's time.
func (s *Sink) EndsAt(a *sinks.Alert) time.Time {
	now := s.now()
	start := s.startsAt(a, now)
	end := now
	if a.Kind != "resolved" {
		end = end.Add(s.resolveTimeout)
	}
	if end.Before(start) {
		end = start
	}
	return end
}

// RepostBy is the latest time run mode should post a's incident again if
// it has had hits since a was posted: a fifth of the resolve timeout before
// EndsAt, which leaves room for a retry or two. An incident without new
// hits needs no re-post; its alert resolves at EndsAt, which is the point.
func (s *Sink) RepostBy(a *sinks.Alert) time.Time {
	return s.EndsAt(a).Add(-s.resolveTimeout / 5)
}

// startsAt is a's first hit time, never after now: a log time ahead of the
// clock (a node clock stepped back, a forged stamp) would keep the alert
// active in Alertmanager until that time, whatever endsAt says.
func (s *Sink) startsAt(a *sinks.Alert, now time.Time) time.Time {
	start, _ := span(a)
	if start.After(now) {
		return now
	}
	return start
}

// span returns the first and last hit times of a, each standing in for
// the other when unset.
func span(a *sinks.Alert) (start, last time.Time) {
	start, last = a.Time, a.LastTime
	if start.IsZero() {
		start = last
	}
	if last.IsZero() || last.Before(start) {
		last = start
	}
	return start, last
}

// postable maps an alert to Alertmanager's model.
func (s *Sink) postable(a *sinks.Alert) postableAlert {
	labels := make(map[string]string, len(ownLabels)+len(s.labels))
	for k, v := range s.labels {
		labels[k] = v
	}
	set := func(k, v string) {
		if v = sinks.OneLine(v); v != "" {
			labels[k] = sinks.TruncateEnd(v, 256)
		}
	}
	set("alertname", AlertName)
	set("record_id", a.Record.ID)
	set("slug", a.Record.Slug)
	set("severity", strings.ToLower(a.Record.Severity))
	set("namespace", a.Source.Namespace)
	set("pod", a.Source.Pod)
	set("container", a.Source.Container)
	set("fingerprint", a.Fingerprint)
	if _, configured := labels["engine"]; !configured {
		// The serving engine that wrote the log, so routes and silences
		// can tell a vLLM pod's alerts from an sglang one's; a label of
		// that name in the configuration says it instead.
		set("engine", a.Engine)
	}

	ann := map[string]string{}
	note := func(k, v string) {
		if v != "" {
			ann[k] = sinks.TruncateMiddle(v, maxAnnotation)
		}
	}
	note("summary", sinks.Title(a))
	note("description", description(a))
	note("solutions", sinks.NumberedList(a.Record.Solutions))
	note("runbook_url", sinks.RunbookURL(a))
	note("headline", sinks.OneLine(a.Headline))
	note("consequences", consequences(a))
	note("ranks", sinks.RanksText(a))

	start := s.startsAt(a, s.now())
	return postableAlert{
		Labels:       labels,
		Annotations:  ann,
		StartsAt:     start,
		EndsAt:       s.EndsAt(a),
		GeneratorURL: s.generatorURL,
	}
}

// consequences lists what followed the root cause, one per line with its
// real line: "nccl-watchdog-collective-timeout ×7 on rank0-2,4-7: [Rank 0] ...".
func consequences(a *sinks.Alert) string {
	var b strings.Builder
	for i := range a.Consequences {
		c := &a.Consequences[i]
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(sinks.ConsequenceLine(c))
		if c.Headline != "" {
			b.WriteString(": ")
			b.WriteString(sinks.TruncateEnd(sinks.OneLine(c.Headline), 300))
		}
	}
	return b.String()
}

// description tells what happened and where, in a few plain lines.
func description(a *sinks.Alert) string {
	var parts []string
	if doc := a.Record.Documentation; doc != "" && !sinks.IsHTTPURL(doc) {
		parts = append(parts, doc)
	}
	if a.Match.Text != "" {
		parts = append(parts, "Matched: "+sinks.TruncateMiddle(a.Match.Text, 1024))
	}
	if e := a.Match.Exception; e != nil && e.Type != "" {
		parts = append(parts, "Exception: "+sinks.TruncateEnd(sinks.OneLine(e.Type+": "+e.Message), 512))
	}
	var where []string
	if a.Count > 0 {
		where = append(where, fmt.Sprintf("%d occurrence(s)", a.Count))
	}
	if r := sinks.RanksText(a); r != "" {
		where = append(where, "ranks "+r)
	}
	if a.Source.Path != "" {
		where = append(where, fmt.Sprintf("source %s:%d", a.Source.Path, a.Source.Offset))
	}
	if a.Record.HandlingStrategy != "" {
		where = append(where, "handling "+a.Record.HandlingStrategy)
	}
	if len(where) > 0 {
		parts = append(parts, strings.Join(where, "; "))
	}
	return strings.Join(parts, "\n\n")
}
