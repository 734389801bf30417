package sinks

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	errDown    = errors.New("http 503")
	errOther   = errors.New("http 502")
	errBadBody = errors.New("http 400: invalid_payload")
)

func TestRetry(t *testing.T) {
	tests := []struct {
		name        string
		script      []result
		cfg         RetryConfig
		wantCalls   int
		wantSleeps  []time.Duration
		wantRetry   bool
		wantErr     error // matched with errors.Is; nil means success
		wantFailed  []bool
		wantRetried int
	}{
		{
			name:      "success at once",
			script:    []result{{false, nil}},
			wantCalls: 1,
		},
		{
			name:        "retryable then success",
			script:      []result{{true, errDown}, {true, errDown}, {false, nil}},
			wantCalls:   3,
			wantSleeps:  []time.Duration{time.Second, 2 * time.Second},
			wantRetried: 2,
		},
		{
			name:       "permanent failure is not retried",
			script:     []result{{false, errBadBody}},
			wantCalls:  1,
			wantErr:    errBadBody,
			wantFailed: []bool{false},
		},
		{
			name:        "attempts run out, alert stays retryable",
			script:      []result{{true, errDown}, {true, errDown}, {true, errDown}},
			cfg:         RetryConfig{MaxAttempts: 3},
			wantCalls:   3,
			wantSleeps:  []time.Duration{time.Second, 2 * time.Second},
			wantRetry:   true,
			wantErr:     errDown,
			wantFailed:  []bool{true},
			wantRetried: 2,
		},
		{
			name:        "backoff doubles up to max",
			script:      []result{{true, errDown}, {true, errDown}, {true, errDown}, {true, errDown}, {true, errDown}, {false, nil}},
			cfg:         RetryConfig{MaxAttempts: 10, Initial: time.Second, Max: 5 * time.Second},
			wantCalls:   6,
			wantSleeps:  []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second},
			wantRetried: 5,
		},
		{
			name:        "retry-after longer than backoff is honoured",
			script:      []result{{true, &RetryAfterError{After: 30 * time.Second, Err: errDown}}, {false, nil}},
			wantCalls:   2,
			wantSleeps:  []time.Duration{30 * time.Second},
			wantRetried: 1,
		},
		{
			name:        "retry-after shorter than backoff keeps backoff",
			script:      []result{{true, &RetryAfterError{After: time.Millisecond, Err: errDown}}, {false, nil}},
			wantCalls:   2,
			wantSleeps:  []time.Duration{time.Second},
			wantRetried: 1,
		},
		{
			name:       "retry-after beyond max elapsed gives up at once",
			script:     []result{{true, &RetryAfterError{After: time.Hour, Err: errDown}}},
			wantCalls:  1,
			wantRetry:  true,
			wantErr:    errDown,
			wantFailed: []bool{true},
		},
		{
			name:        "max elapsed bounds total backoff",
			script:      []result{{true, errDown}, {true, errDown}, {true, errDown}, {true, errDown}},
			cfg:         RetryConfig{MaxAttempts: 10, MaxElapsed: 4 * time.Second},
			wantCalls:   3,
			wantSleeps:  []time.Duration{time.Second, 2 * time.Second},
			wantRetry:   true,
			wantErr:     errDown,
			wantFailed:  []bool{true},
			wantRetried: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			obs := &recordingObserver{}
			next := &scriptSink{script: tc.script}
			cfg := tc.cfg
			cfg.Clock = clock
			cfg.Observer = obs
			cfg.Jitter = func(max time.Duration) time.Duration { return max }
			s := Retry(next, cfg)

			retry, err := s.Send(context.Background(), &Alert{Fingerprint: "f1"})

			if tc.wantErr == nil && err != nil {
				t.Fatalf("Send: unexpected error %v", err)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Fatalf("Send error = %v, want one wrapping %v", err, tc.wantErr)
			}
			if retry != tc.wantRetry {
				t.Errorf("retry = %v, want %v", retry, tc.wantRetry)
			}
			if got := len(next.sent); got != tc.wantCalls {
				t.Errorf("calls = %d, want %d", got, tc.wantCalls)
			}
			if diff := cmp.Diff(tc.wantSleeps, clock.sleeps); diff != "" {
				t.Errorf("sleeps (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantFailed, obs.failed); diff != "" {
				t.Errorf("Observer.Failed (-want +got):\n%s", diff)
			}
			if got := len(obs.retried); got != tc.wantRetried {
				t.Errorf("Observer.Retried calls = %d, want %d", got, tc.wantRetried)
			}
		})
	}
}

func TestRetryStopsWhenContextEnds(t *testing.T) {
	t.Run("before the first attempt", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		next := &scriptSink{}
		retry, err := Retry(next, RetryConfig{Clock: newFakeClock()}).Send(ctx, &Alert{})
		if !errors.Is(err, context.Canceled) || !retry {
			t.Fatalf("Send = (%v, %v), want (true, context.Canceled)", retry, err)
		}
		if len(next.sent) != 0 {
			t.Errorf("calls = %d, want 0", len(next.sent))
		}
	})
	t.Run("while waiting", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		clock := newFakeClock()
		clock.onSleep = cancel
		next := &scriptSink{script: []result{{true, errDown}, {true, errDown}}}
		retry, err := Retry(next, RetryConfig{Clock: clock}).Send(ctx, &Alert{})
		if !errors.Is(err, context.Canceled) || !retry {
			t.Fatalf("Send = (%v, %v), want (true, context.Canceled)", retry, err)
		}
		if len(next.sent) != 1 {
			t.Errorf("calls = %d, want 1", len(next.sent))
		}
	})
}

func TestRetryLogsOnlyChanges(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	next := &scriptSink{script: []result{
		{true, errDown}, {true, errDown}, {true, errDown}, {true, errOther}, {true, errOther}, {false, nil},
	}}
	_, err := Retry(next, RetryConfig{Name: "slack", Clock: newFakeClock(), Logger: log, MaxAttempts: 10}).
		Send(context.Background(), &Alert{})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		switch {
		case strings.Contains(line, "err="):
			got = append(got, line[strings.Index(line, "err="):])
		case strings.Contains(line, "delivered after retries"):
			got = append(got, "delivered")
		}
	}
	want := []string{`err="http 503"`, `err="http 502"`, "delivered"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log lines (-want +got):\n%s\nfull log:\n%s", diff, buf.String())
	}
}

func TestRetryKeepsBatchSink(t *testing.T) {
	next := &scriptBatchSink{scriptSink{script: []result{{true, errDown}, {false, nil}}}}
	s := Retry(next, RetryConfig{Clock: newFakeClock()})
	b, ok := s.(BatchSink)
	if !ok {
		t.Fatalf("Retry(BatchSink) is %T, not a BatchSink", s)
	}
	if got := b.BatchMin(); got != 3 {
		t.Errorf("BatchMin = %d, want 3", got)
	}
	batch := []*Alert{{Fingerprint: "a"}, {Fingerprint: "b"}, {Fingerprint: "c"}}
	if _, err := b.SendBatch(context.Background(), batch); err != nil {
		t.Fatalf("SendBatch: %v", err)
	}
	if got := len(next.batches); got != 2 {
		t.Errorf("SendBatch calls = %d, want 2 (one retry)", got)
	}
	if _, ok := Retry(&scriptSink{}, RetryConfig{}).(BatchSink); ok {
		t.Errorf("Retry of a plain Sink claims to be a BatchSink")
	}
}

func TestFullJitterStaysInRange(t *testing.T) {
	for _, max := range []time.Duration{0, 1, time.Second, time.Minute} {
		for range 100 {
			if got := fullJitter(max); got < 0 || got > max {
				t.Fatalf("fullJitter(%s) = %s, outside [0, %s]", max, got, max)
			}
		}
	}
}

func TestRetryKeepsEncodedSink(t *testing.T) {
	next := &scriptEncodedSink{scriptSink: scriptSink{script: []result{{true, errDown}, {false, nil}}}}
	s := Retry(next, RetryConfig{Clock: newFakeClock()})
	e, ok := s.(EncodedSink)
	if !ok {
		t.Fatalf("Retry(EncodedSink) is %T, not an EncodedSink", s)
	}
	if _, err := e.SendEncoded(context.Background(), []byte(`{"schema":"x"}`)); err != nil {
		t.Fatalf("SendEncoded: %v", err)
	}
	if got := len(next.payloads); got != 2 || string(next.payloads[1]) != `{"schema":"x"}` {
		t.Errorf("SendEncoded calls = %q, want the payload twice (one retry)", next.payloads)
	}
	if _, ok := Retry(&scriptSink{}, RetryConfig{}).(EncodedSink); ok {
		t.Errorf("Retry of a plain Sink claims to be an EncodedSink")
	}
}
