package slack

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

// A 429 whose Retry-After is huge, negative, garbage or a date centuries
// ahead must not hold the webhook for longer than sinks.MaxRetryAfter:
// the hold is the sink's for every later message, so one hostile or
// broken answer would otherwise stop Slack delivery until a restart.
func TestHostileRetryAfterHoldsTheWebhookBoundedly(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		wantAfter   bool // the answer yields a RetryAfterError
	}{
		{"68 years in seconds", "2147483647", true},
		{"beyond int64", "99999999999999999999999", false},
		{"negative", "-30", false},
		{"garbage", "soon, maybe", false},
		{"date in year 9999", "Fri, 31 Dec 9999 23:59:59 GMT", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			answered := false
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				mu.Lock()
				first := !answered
				answered = true
				mu.Unlock()
				if first {
					w.Header().Set("Retry-After", tc.value)
					w.WriteHeader(http.StatusTooManyRequests)
					_, _ = io.WriteString(w, "rate_limited")
					return
				}
				_, _ = io.WriteString(w, "ok")
			}))
			defer srv.Close()
			clock := &fakeClock{now: t0}
			s := newSink(t, srv.URL+hookPath, clock)
			retry, err := s.Send(context.Background(), testAlert())
			if err == nil || !retry {
				t.Fatalf("first Send: retry %v, err %v; want a retryable 429", retry, err)
			}
			var ra *sinks.RetryAfterError
			if got := errors.As(err, &ra); got != tc.wantAfter {
				t.Fatalf("RetryAfterError %v (%v), want %v", got, err, tc.wantAfter)
			}
			if ra != nil && (ra.After <= 0 || ra.After > sinks.MaxRetryAfter) {
				t.Errorf("Retry-After %q read as %s, want within (0, %s]", tc.value, ra.After, sinks.MaxRetryAfter)
			}
			if _, err := s.Send(context.Background(), testAlert()); err != nil {
				t.Fatalf("second Send: %v", err)
			}
			clock.mu.Lock()
			defer clock.mu.Unlock()
			for _, d := range clock.sleeps {
				if d > sinks.MaxRetryAfter {
					t.Errorf("the webhook was held %s, more than %s", d, sinks.MaxRetryAfter)
				}
			}
		})
	}
}
