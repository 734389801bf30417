package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// InputAlertmanager names the Alertmanager webhook input.
const InputAlertmanager = "alertmanager"

// maxWebhookAlerts bounds the alerts of one webhook notification.
const maxWebhookAlerts = 1000

// DefaultTextKeys are where the enricher looks for log text in an alert,
// first found first: a Loki ruler alert carries its matched line in an
// annotation, often log or message.
var DefaultTextKeys = []string{"annotations.log", "annotations.logs", "annotations.message", "annotations.description", "labels.log"}

// WebhookAlert is one alert of an Alertmanager webhook notification.
type WebhookAlert struct {
	Status       string            `json:"status"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     time.Time         `json:"startsAt"`
	GeneratorURL string            `json:"generatorURL"`
	Fingerprint  string            `json:"fingerprint"`
}

// webhook is Alertmanager's webhook payload (version 4).
type webhook struct {
	Version string         `json:"version"`
	Status  string         `json:"status"`
	Alerts  []WebhookAlert `json:"alerts"`
}

// DecodeWebhook reads an Alertmanager webhook notification (JSON, version
// 4). Errors are *Error, 4xx.
func DecodeWebhook(h http.Header, body []byte) ([]WebhookAlert, error) {
	if ct := h.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return nil, errorf(http.StatusUnsupportedMediaType, ReasonContentType, "Content-Type %q: want application/json", truncate(ct, 64))
		}
	}
	var w webhook
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, errorf(http.StatusBadRequest, ReasonMalformed, "JSON body: %v", err)
	}
	if w.Version != "4" {
		return nil, errorf(http.StatusBadRequest, ReasonMalformed, "version %q: want Alertmanager's webhook version 4", truncate(w.Version, 16))
	}
	if len(w.Alerts) > maxWebhookAlerts {
		return nil, errorf(http.StatusRequestEntityTooLarge, ReasonTooLarge, "more than %d alerts", maxWebhookAlerts)
	}
	return w.Alerts, nil
}

// text returns the log text of a, from the first of keys it has.
func (a *WebhookAlert) text(keys []string) string {
	for _, k := range keys {
		kind, name, _ := strings.Cut(k, ".")
		m := a.Annotations
		if kind == "labels" {
			m = a.Labels
		}
		if v := m[name]; strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// EnricherOptions configure an Enricher.
type EnricherOptions struct {
	// Diagnoser diagnoses the log text (the catalog, redaction, bounds).
	Diagnoser *Diagnoser
	// Forward hands the enriched alerts to the sinks and returns once
	// they are queued durably; nil only answers with them.
	Forward func(context.Context, []sinks.Alert) error
	// TextKeys are where to look for log text (DefaultTextKeys when
	// empty): "annotations.NAME" or "labels.NAME".
	TextKeys []string
	// MaxBytes bounds the request body (default DefaultMaxBytes).
	MaxBytes int64
	// Observer counts requests, lines and refusals.
	Observer Observer
}

// Enricher serves POST /v1/alertmanager: for each firing alert of an
// Alertmanager webhook that carries log text, it diagnoses the text and
// forwards the incidents found to the sinks, each with the alert's
// fingerprint (so Alertmanager's grouping and repeats decide when it
// comes again) and identity; it answers with them as logmatch.alert/v1
// JSON lines.
type Enricher struct{ o EnricherOptions }

// NewEnricher returns the Alertmanager webhook enricher.
func NewEnricher(o EnricherOptions) *Enricher {
	if len(o.TextKeys) == 0 {
		o.TextKeys = DefaultTextKeys
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Observer == nil {
		o.Observer = nopObserver{}
	}
	return &Enricher{o: o}
}

// ServeHTTP answers one webhook notification: 200 with the enriched
// alerts once they are queued for the sinks, or a refusal.
func (e *Enricher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	obs := e.o.Observer
	obs.Request(InputAlertmanager)
	body, err := ReadBody(r.Header, http.MaxBytesReader(w, r.Body, e.o.MaxBytes), e.o.MaxBytes)
	if err != nil {
		refuse(w, InputAlertmanager, obs, err)
		return
	}
	alerts, err := DecodeWebhook(r.Header, body)
	if err != nil {
		refuse(w, InputAlertmanager, obs, err)
		return
	}
	var out []sinks.Alert
	for i := range alerts {
		a := &alerts[i]
		text := a.text(e.o.TextKeys)
		if a.Status == "resolved" || text == "" {
			continue
		}
		name := a.Labels["alertname"]
		if name == "" {
			name = "alert"
		}
		found, err := e.o.Diagnoser.Diagnose(r.Context(), InputAlertmanager, "", []Upload{{Name: cleanName(name), Text: []byte(text + "\n")}})
		if err != nil {
			refuse(w, InputAlertmanager, obs, err)
			return
		}
		for _, f := range found {
			// The alert's own fingerprint, with the record's: a repeat of
			// the Alertmanager alert is the same incident.
			sum := sha256.Sum256([]byte(a.Fingerprint + "\x00" + f.Fingerprint))
			f.Fingerprint = hex.EncodeToString(sum[:8])
			f.Source.Path = "alertmanager/" + cleanName(name)
			f.Source.Pod, f.Source.Namespace, f.Source.Container = a.Labels["pod"], a.Labels["namespace"], a.Labels["container"]
			if !a.StartsAt.IsZero() {
				f.Time, f.LastTime = a.StartsAt, a.StartsAt
			}
			out = append(out, f)
		}
	}
	if e.o.Forward != nil {
		if err := e.o.Forward(r.Context(), out); err != nil {
			refuse(w, InputAlertmanager, obs, err)
			return
		}
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_ = writeAlerts(w, out)
}

func writeAlerts(w http.ResponseWriter, as []sinks.Alert) error {
	for i := range as {
		b, err := sinks.AlertJSON(&as[i])
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}
