package ingest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

const webhookSample = `{"version":"4","status":"firing","receiver":"logmatch","alerts":[` +
	`{"status":"firing","labels":{"alertname":"SglangCrash","pod":"sglang-0","namespace":"ml"},"annotations":{"log":"Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: bad value"},"startsAt":"2026-05-28T00:11:09Z","fingerprint":"a1b2c3"},` +
	`{"status":"resolved","labels":{"alertname":"Old"},"annotations":{"log":"RuntimeError: old"},"fingerprint":"d4"},` +
	`{"status":"firing","labels":{"alertname":"NoText"},"annotations":{"summary":"x"},"fingerprint":"e5"}]}`

// The enricher diagnoses the firing alert that carries log text, keeps
// the alert's identity and fingerprint, forwards what it found and
// answers with it.
func TestEnricher(t *testing.T) {
	d, rec := newTestDiagnoser(t, DiagnoseOptions{})
	var forwarded []sinks.Alert
	e := NewEnricher(EnricherOptions{Diagnoser: d, Observer: rec, Forward: func(_ context.Context, as []sinks.Alert) error {
		forwarded = append(forwarded, as...)
		return nil
	}})
	r := httptest.NewRequest("POST", "/v1/alertmanager", strings.NewReader(webhookSample))
	r.Header.Set("Content-Type", "application/json")
	w := serve(e, r)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if len(forwarded) != 1 {
		t.Fatalf("forwarded %d alerts, want the one diagnosis: %+v", len(forwarded), forwarded)
	}
	a := forwarded[0]
	if a.Match.Exception == nil || a.Match.Exception.Type != "ValueError" || a.Source.Path != "alertmanager/SglangCrash" || a.Source.Pod != "sglang-0" {
		t.Errorf("alert %+v", a)
	}
	if strings.Count(w.Body.String(), "\n") != 1 || !strings.Contains(w.Body.String(), `"schema":"logmatch.alert/v1"`) {
		t.Errorf("answer %s", w.Body)
	}
	// The same Alertmanager alert again: the same fingerprint.
	w2 := serve(e, func() *http.Request {
		r := httptest.NewRequest("POST", "/v1/alertmanager", strings.NewReader(webhookSample))
		return r
	}())
	if w2.Code != http.StatusOK || forwarded[1].Fingerprint != a.Fingerprint {
		t.Errorf("a repeat has fingerprint %q, the first %q", forwarded[1].Fingerprint, a.Fingerprint)
	}
}

func TestDecodeWebhookRefuses(t *testing.T) {
	for _, c := range []struct {
		name, ct, body string
		status         int
		says           string
	}{
		{"not json", "application/json", "{", 400, "JSON body"},
		{"old version", "application/json", `{"version":"3","alerts":[]}`, 400, "version"},
		{"text", "text/plain", `{"version":"4"}`, 415, "want application/json"},
		{"too many", "application/json", `{"version":"4","alerts":[` + strings.Repeat(`{},`, maxWebhookAlerts) + `{}]}`, 413, "more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			h.Set("Content-Type", c.ct)
			_, err := DecodeWebhook(h, []byte(c.body))
			var e *Error
			if !errors.As(err, &e) || e.Status != c.status || !strings.Contains(e.Msg, c.says) {
				t.Fatalf("error %v, want %d saying %q", err, c.status, c.says)
			}
		})
	}
}

// FuzzDecodeWebhook: any body decodes or is refused with a 4xx *Error.
func FuzzDecodeWebhook(f *testing.F) {
	f.Add([]byte(webhookSample))
	f.Add([]byte(`{"version":"4","alerts":[{"labels":null}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		h := http.Header{}
		h.Set("Content-Type", "application/json")
		as, err := DecodeWebhook(h, b)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Status/100 != 4 {
				t.Fatalf("refusal %v is not a 4xx *Error", err)
			}
			return
		}
		for i := range as {
			_ = as[i].text(DefaultTextKeys)
		}
		if len(as) > maxWebhookAlerts {
			t.Fatalf("%d alerts accepted", len(as))
		}
	})
}
