package sinks

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func response(code int, body string, header ...string) *http.Response {
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return &http.Response{StatusCode: code, Header: h, Body: io.NopCloser(strings.NewReader(body))}
}

func TestClassify(t *testing.T) {
	future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		resp       *http.Response
		err        error
		wantRetry  bool
		wantErr    string // "" for success
		wantStatus int
		wantAfter  bool
	}{
		{name: "200", resp: response(200, "ok")},
		{name: "204", resp: response(204, "")},
		{name: "400 permanent", resp: response(400, "invalid_payload"), wantErr: "http 400: invalid_payload", wantStatus: 400},
		{name: "404 permanent", resp: response(404, "no_service"), wantErr: "http 404: no_service", wantStatus: 404},
		{name: "410 permanent", resp: response(410, "channel_is_archived"), wantErr: "http 410: channel_is_archived", wantStatus: 410},
		{name: "408 retry", resp: response(408, ""), wantRetry: true, wantErr: "http 408", wantStatus: 408},
		{name: "429 with seconds", resp: response(429, "rate_limited", "Retry-After", "7"), wantRetry: true, wantErr: "http 429: rate_limited (retry after 7s)", wantStatus: 429, wantAfter: true},
		{name: "429 with date", resp: response(429, "", "Retry-After", future), wantRetry: true, wantErr: "http 429", wantStatus: 429, wantAfter: true},
		{name: "429 without header", resp: response(429, ""), wantRetry: true, wantErr: "http 429", wantStatus: 429},
		{name: "500 retry", resp: response(500, "boom\n\x00 trace"), wantRetry: true, wantErr: "http 500: boom trace", wantStatus: 500},
		{name: "503 malformed retry-after", resp: response(503, "", "Retry-After", "soon"), wantRetry: true, wantErr: "http 503", wantStatus: 503},
		{name: "network error", err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}, wantRetry: true, wantErr: "dial: connection refused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			retry, err := Classify(tc.resp, tc.err)
			if retry != tc.wantRetry {
				t.Errorf("retry = %v, want %v", retry, tc.wantRetry)
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want prefix %q", err, tc.wantErr)
			}
			var se *StatusError
			if tc.wantStatus != 0 && (!errors.As(err, &se) || se.StatusCode != tc.wantStatus) {
				t.Errorf("err %v does not carry status %d", err, tc.wantStatus)
			}
			var ra *RetryAfterError
			if got := errors.As(err, &ra); got != tc.wantAfter {
				t.Errorf("RetryAfterError present = %v, want %v", got, tc.wantAfter)
			}
		})
	}
}

func TestClassifyBoundsBody(t *testing.T) {
	_, err := Classify(response(400, strings.Repeat("x", 10*MaxErrorBody)), nil)
	var se *StatusError
	if !errors.As(err, &se) || len(se.Body) != MaxErrorBody {
		t.Fatalf("err = %v, want a StatusError with a %d-byte body", err, MaxErrorBody)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"seconds", "120", 2 * time.Minute, true},
		{"spaces", " 3 ", 3 * time.Second, true},
		{"zero", "0", 0, true},
		{"negative", "-1", 0, false},
		{"http date", "Sun, 01 Mar 2026 12:00:30 GMT", 30 * time.Second, true},
		{"date in the past", "Sun, 01 Mar 2026 11:00:00 GMT", 0, true},
		{"huge", "99999999999999999", MaxRetryAfter, true},
		{"date far ahead", "Fri, 31 Dec 9999 23:59:59 GMT", MaxRetryAfter, true},
		{"empty", "", 0, false},
		{"garbage", "soon", 0, false},
		{"fraction", "1.5", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseRetryAfter(tc.in, now)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("ParseRetryAfter(%q) = (%s, %v), want (%s, %v)", tc.in, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"120", "0", "-5", "Sun, 01 Mar 2026 12:00:30 GMT", "Sunday, 01-Mar-26 12:00:30 GMT", "Sun Mar  1 12:00:30 2026", "", "9223372036854775807"} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseRetryAfter(s, now)
		if d < 0 {
			t.Fatalf("ParseRetryAfter(%q) = %s, negative", s, d)
		}
		if !ok && d != 0 {
			t.Fatalf("ParseRetryAfter(%q) = (%s, false), want 0 when not ok", s, d)
		}
	})
}

func TestSafeURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://hooks.slack.com/services/T000/B000/XXXX", "https://hooks.slack.com/[REDACTED]"},
		{"https://user:pw@example.com", "https://example.com/[REDACTED]"},
		{"http://127.0.0.1:9093", "http://127.0.0.1:9093"},
		{"http://127.0.0.1:9093/", "http://127.0.0.1:9093"},
		{"https://example.com/?token=abc", "https://example.com/[REDACTED]"},
		{"not a url at all", "[REDACTED URL]"},
		{"::::", "[REDACTED URL]"},
	}
	for _, tc := range tests {
		if got := SafeURL(tc.in); got != tc.want {
			t.Errorf("SafeURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPostJSONNeverShowsURL(t *testing.T) {
	const secret = "T0SECRET/B0SECRET/abcdefSECRET"
	// A listener that is closed at once: connecting fails.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	client := &http.Client{}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name   string
		ctx    context.Context
		target string
		wantIs error
	}{
		{"connection refused", context.Background(), "http://" + addr + "/services/" + secret + "?token=" + secret, nil},
		{"cancelled", ctx, "http://" + addr + "/services/" + secret, context.Canceled},
		{"malformed url", context.Background(), "http://exa mple.com/" + secret, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PostJSON(tc.ctx, client, tc.target, []byte(`{}`), nil)
			if err == nil {
				t.Fatal("PostJSON succeeded, want an error")
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error shows the URL: %v", err)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("err = %v, want errors.Is %v", err, tc.wantIs)
			}
		})
	}
}

func TestPostJSON(t *testing.T) {
	var gotType, gotUA, gotCustom, gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotType, gotUA, gotCustom = r.Header.Get("Content-Type"), r.Header.Get("User-Agent"), r.Header.Get("X-Custom")
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "down for maintenance")
	}))
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()
	retry, err := PostJSON(context.Background(), client, srv.URL+"/hook", []byte(`{"a":1}`), http.Header{"X-Custom": {"v"}})
	if !retry || err == nil || err.Error() != "http 503: down for maintenance" {
		t.Errorf("PostJSON = (%v, %v), want (true, http 503: down for maintenance)", retry, err)
	}
	if gotType != "application/json" || gotUA != "logmatch" || gotCustom != "v" || gotBody != `{"a":1}` {
		t.Errorf("request: type %q, agent %q, custom %q, body %q", gotType, gotUA, gotCustom, gotBody)
	}
}

func FuzzSafeURL(f *testing.F) {
	for _, s := range []string{
		"https://hooks.slack.com/services/T000/B000/XXXX", "http://u:p@h:1/p?q=1#f", "http://127.0.0.1:9093",
		"::", "", "https://[::1]:80/x", "http://exa mple.com/x", "//host/path",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := SafeURL(raw)
		if got == "[REDACTED URL]" {
			return
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("SafeURL(%q) = %q for an unparsable URL", raw, got)
		}
		want := u.Scheme + "://" + u.Host
		if got != want && got != want+"/[REDACTED]" {
			t.Fatalf("SafeURL(%q) = %q, want %q with or without /[REDACTED]", raw, got, want)
		}
		// Wrapping a *url.Error never leaks more than SafeURL shows.
		err = RedactURL(&url.Error{Op: "Post", URL: raw, Err: errors.New("boom")})
		if want := "Post " + strconv.Quote(got) + ": boom"; err.Error() != want {
			t.Fatalf("RedactURL message = %q, want %q", err.Error(), want)
		}
	})
}

func TestClassifyWithoutResponse(t *testing.T) {
	if retry, err := Classify(nil, nil); !retry || err == nil {
		t.Errorf("Classify(nil, nil) = (%v, %v), want a retryable error", retry, err)
	}
}
