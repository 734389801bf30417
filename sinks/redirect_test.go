package sinks_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/logmatch/logmatch/sinks"
	"github.com/logmatch/logmatch/sinks/alertmanager"
	"github.com/logmatch/logmatch/sinks/otel"
	"github.com/logmatch/logmatch/sinks/slack"
	"github.com/logmatch/logmatch/sinks/webhook"
)

// A destination that answers with a redirect has not taken the alert.
// Following it is worse than failing: net/http turns a POST answered
// with 301, 302 or 303 into a GET without the body, so a 200 from the
// redirect's target counted the alert delivered while no receiver ever
// saw it; a 307 or 308 sends the alert, and the headers that sign or
// authorise it, to a place nobody configured. Every HTTP sink refuses to
// follow: the alert is not accepted but kept for a retry (the URL is
// fixable), and the target never hears of it.
func TestRedirectIsNotDelivery(t *testing.T) {
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, tc := range []struct {
			name string
			new  func(t *testing.T, url string) (sinks.Sink, func())
		}{
			{"slack", func(t *testing.T, url string) (sinks.Sink, func()) {
				s, err := slack.New(slack.Config{URL: url + "/services/T0/B0/x"}, slack.Options{})
				if err != nil {
					t.Fatal(err)
				}
				return s, func() { _ = s.Close() }
			}},
			{"webhook", func(t *testing.T, url string) (sinks.Sink, func()) {
				s, err := webhook.New(webhook.Config{URL: url + "/hook", Secret: "s3cret"}, webhook.Options{})
				if err != nil {
					t.Fatal(err)
				}
				return s, func() { _ = s.Close() }
			}},
			{"alertmanager", func(t *testing.T, url string) (sinks.Sink, func()) {
				s, err := alertmanager.New(alertmanager.Config{URL: url, BearerToken: "tok"}, alertmanager.Options{})
				if err != nil {
					t.Fatal(err)
				}
				return s, func() { _ = s.Close() }
			}},
			{"otel", func(t *testing.T, url string) (sinks.Sink, func()) {
				s, err := otel.New(context.Background(), otel.Config{Endpoint: url, Protocol: otel.ProtocolHTTPProtobuf, Insecure: true, Timeout: 5 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				return s, func() { _ = s.Shutdown(context.Background()) }
			}},
		} {
			t.Run(tc.name+"/"+http.StatusText(code), func(t *testing.T) {
				var mu sync.Mutex
				var elsewhere []string // requests the redirect's target got
				mux := http.NewServeMux()
				mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					mu.Lock()
					elsewhere = append(elsewhere, r.Method+" "+string(b[:min(len(b), 40)]))
					mu.Unlock()
					_, _ = io.WriteString(w, "ok")
				})
				mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
					_, _ = io.Copy(io.Discard, r.Body)
					http.Redirect(w, r, "/elsewhere", code)
				})
				srv := httptest.NewServer(mux)
				defer srv.Close()
				s, closeSink := tc.new(t, srv.URL)
				defer closeSink()

				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				retry, err := s.Send(ctx, redirectAlert())
				if err == nil || !retry {
					t.Errorf("Send after a %d answer: retry %v, err %v; want a retryable error (the alert stays queued)", code, retry, err)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(elsewhere) > 0 {
					t.Errorf("the redirect was followed: its target got %q", elsewhere)
				}
				if err != nil && !strings.Contains(err.Error(), "redirect") {
					t.Errorf("error %q does not say a redirect was refused", err)
				}
			})
		}
	}
}

func redirectAlert() *sinks.Alert {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return &sinks.Alert{
		Schema: sinks.Schema, Fingerprint: "9f2c1e0a77b3d401", Time: t0, LastTime: t0, Count: 1, Kind: "new",
		Record: sinks.Record{ID: "a4a00f79b8728e30", Slug: "cuda-out-of-memory", Severity: "critical",
			ErrorMessage: "CUDA out of memory."},
		Match:  sinks.Match{Text: "torch.OutOfMemoryError: CUDA out of memory."},
		Source: sinks.Source{Path: "/var/log/sglang/server.log", Offset: 120},
		Entry:  "torch.OutOfMemoryError: CUDA out of memory.",
	}
}
