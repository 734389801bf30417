package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/sinks"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func testAlert() *sinks.Alert {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return &sinks.Alert{
		Schema:      sinks.Schema,
		Fingerprint: "9f2c1e0a77b3d401",
		Time:        t0,
		LastTime:    t0.Add(3 * time.Second),
		Count:       2,
		Kind:        "new",
		Ranks:       []string{"TP0", "TP1"},
		Record: sinks.Record{
			ID: "a4a00f79b8728e30", Slug: "ascend-transfer-engine-initialization-failed", Repo: "sgl-project/sglang",
			Severity: "critical", ErrorClass: "RuntimeError", ErrorMessage: "Ascend Transfer Engine initialization failed.",
			Solutions:     []string{"Check the metadata store URL.", "Make sure session ids are unique."},
			Documentation: "The native initialize() returned a non-zero code.", HandlingStrategy: "fail-fast",
			GithubURL: "https://github.com/sgl-project/sglang/blob/0132848/python/sglang/srt/disaggregation/ascend/transfer_engine.py#L66-L102",
			FilePath:  "python/sglang/srt/disaggregation/ascend/transfer_engine.py", LineNumber: 84,
		},
		Match: sinks.Match{
			Text:      "[2026-03-01 12:00:00 TP0] Ascend Transfer Engine initialization failed.",
			Groups:    map[string]string{},
			Exception: &sinks.Exception{Type: "RuntimeError", Message: "Ascend Transfer Engine initialization failed.", Stacktrace: "Traceback (most recent call last):\n  File \"x.py\", line 84\nRuntimeError: Ascend Transfer Engine initialization failed."},
		},
		Source: sinks.Source{Path: "/var/log/pods/llm_sglang-0/sglang/0.log", Offset: 18234, Stream: "stderr", Pod: "sglang-0", Namespace: "llm", Container: "sglang"},
		Entry:  "[2026-03-01 12:00:00 TP0] Ascend Transfer Engine initialization failed.",
	}
}

// receiver records what a webhook endpoint received and answers from a
// script of status codes (then 200).
type receiver struct {
	mu       sync.Mutex
	codes    []int
	requests []*http.Request
	bodies   [][]byte
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.requests = append(rc.requests, r)
	rc.bodies = append(rc.bodies, b)
	code := http.StatusOK
	if len(rc.codes) > 0 {
		code, rc.codes = rc.codes[0], rc.codes[1:]
	}
	rc.mu.Unlock()
	if code == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "3")
	}
	w.WriteHeader(code)
	_, _ = io.WriteString(w, http.StatusText(code))
}

func newSink(t *testing.T, cfg Config) *Sink {
	t.Helper()
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestSendBodyIsTheJSONContract(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s := newSink(t, Config{URL: srv.URL + "/hook", Headers: map[string]string{"X-Team": "llm-infra"}})

	a := testAlert()
	if _, err := s.Send(context.Background(), a); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if len(rc.requests) != 1 {
		t.Fatalf("requests = %d, want 1", len(rc.requests))
	}
	r := rc.requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/hook" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("request %s %s type %q, want POST /hook application/json", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
	}
	if got := r.Header.Get("X-Team"); got != "llm-infra" {
		t.Errorf("X-Team = %q, want llm-infra", got)
	}
	if got := r.Header.Get(SignatureHeader); got != "" {
		t.Errorf("%s = %q without a secret", SignatureHeader, got)
	}
	var got sinks.Alert
	dec := json.NewDecoder(bytes.NewReader(rc.bodies[0]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("body is not an alert: %v\n%s", err, rc.bodies[0])
	}
	want := *a
	want.Record.PreventionTips, want.Record.Tags = []string{}, []string{}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(rc.bodies[0], &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema", "fingerprint", "time", "count", "record", "match", "source", "entry"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("body lacks key %q", k)
		}
	}
}

func TestSignatureVerifies(t *testing.T) {
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "secret")
	if err := os.WriteFile(secretFile, []byte("whsec-file-0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		cfg    Config
		secret string
	}{
		{"by value", Config{Secret: "whsec-value-0123"}, "whsec-value-0123"},
		{"from file", Config{SecretFile: secretFile}, "whsec-file-0123"},
		{"from env", Config{SecretEnv: "HOOK_SECRET"}, "whsec-env-0123"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rc := &receiver{}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			cfg := tc.cfg
			cfg.URL = srv.URL
			s, err := New(cfg, Options{Getenv: func(k string) string {
				if k == "HOOK_SECRET" {
					return "whsec-env-0123"
				}
				return ""
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Send(context.Background(), testAlert()); err != nil {
				t.Fatal(err)
			}
			got := rc.requests[0].Header.Get(SignatureHeader)
			if !strings.HasPrefix(got, "sha256=") || !Verify([]byte(tc.secret), rc.bodies[0], got) {
				t.Errorf("%s = %q does not verify", SignatureHeader, got)
			}
			// An independent HMAC agrees, and a changed body fails.
			m := hmac.New(sha256.New, []byte(tc.secret))
			m.Write(rc.bodies[0])
			if want := "sha256=" + hex.EncodeToString(m.Sum(nil)); got != want {
				t.Errorf("%s = %q, want %q", SignatureHeader, got, want)
			}
			if Verify([]byte(tc.secret), append(rc.bodies[0], ' '), got) || Verify([]byte("other"), rc.bodies[0], got) {
				t.Errorf("signature verifies a changed body or another secret")
			}
		})
	}
}

// noSleep is a sinks.Clock whose sleeps return at once.
type noSleep struct{}

func (noSleep) Now() time.Time                                   { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }
func (noSleep) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func TestIdempotencyKeyStableAcrossRetry(t *testing.T) {
	rc := &receiver{codes: []int{503, 429}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s := sinks.Retry(newSink(t, Config{URL: srv.URL}), sinks.RetryConfig{Clock: noSleep{}})
	if _, err := s.Send(context.Background(), testAlert()); err != nil {
		t.Fatalf("Send: %v", err)
	}
	var keys []string
	for _, r := range rc.requests {
		keys = append(keys, r.Header.Get(IdempotencyHeader))
	}
	want := []string{"9f2c1e0a77b3d401-18234", "9f2c1e0a77b3d401-18234", "9f2c1e0a77b3d401-18234"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("Idempotency-Key per attempt (-want +got):\n%s", diff)
	}
}

func TestIdempotencyKey(t *testing.T) {
	tests := []struct {
		name  string
		kind  string
		count int
		want  string
	}{
		{"new", "new", 1, "fp-7"},
		{"empty kind is new", "", 1, "fp-7"},
		{"summary", "summary", 12, "fp-7-summary-12"},
		{"resolved", "resolved", 12, "fp-7-resolved-12"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &sinks.Alert{Fingerprint: "fp", Kind: tc.kind, Count: tc.count, Source: sinks.Source{Offset: 7}}
			if got := IdempotencyKey(a); got != tc.want {
				t.Errorf("IdempotencyKey = %q, want %q", got, tc.want)
			}
		})
	}
}

// The same entry offset in two contents of one path (deleted and
// recreated: another inode; truncated and rewritten: another fingerprint)
// is two alerts with two keys; the same alert sent again has its key.
func TestIdempotencyKeyPerFileContent(t *testing.T) {
	alert := func(file string) *sinks.Alert {
		return &sinks.Alert{Fingerprint: "fp", Kind: "new", Count: 1, Source: sinks.Source{Path: "/var/log/a.log", File: file, Offset: 120}}
	}
	first := "2049:131:1024:0a000000000000000000000000000000"
	keys := map[string]string{
		"first":                 IdempotencyKey(alert(first)),
		"deleted and recreated": IdempotencyKey(alert("2049:132:1024:0b000000000000000000000000000000")),
		"truncated, rewritten":  IdempotencyKey(alert("2049:131:300:0c000000000000000000000000000000")),
		"stream":                IdempotencyKey(alert("stream:stdin@2026-05-28T00:00:00Z")),
	}
	seen := map[string]string{}
	for name, k := range keys {
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s share the key %q", name, other, k)
		}
		seen[k] = name
	}
	if again := IdempotencyKey(alert(first)); again != keys["first"] {
		t.Errorf("the same alert keyed %q, then %q", keys["first"], again)
	}
	if !regexp.MustCompile(`^fp-[0-9a-f]{12}-120$`).MatchString(keys["first"]) {
		t.Errorf("key %q, want <fingerprint>-<12 hex digits>-<offset>", keys["first"])
	}
}

func TestClassification(t *testing.T) {
	tests := []struct {
		code      int
		wantRetry bool
		wantErr   bool
	}{
		{200, false, false}, {202, false, false}, {204, false, false},
		{400, false, true}, {401, false, true}, {403, false, true}, {404, false, true}, {410, false, true}, {422, false, true},
		{408, true, true}, {429, true, true}, {500, true, true}, {502, true, true}, {503, true, true},
	}
	for _, tc := range tests {
		t.Run(http.StatusText(tc.code), func(t *testing.T) {
			rc := &receiver{codes: []int{tc.code}}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			s := newSink(t, Config{URL: srv.URL + "/t0ken-in-path"})
			retry, err := s.Send(context.Background(), testAlert())
			if retry != tc.wantRetry || (err != nil) != tc.wantErr {
				t.Errorf("Send = (%v, %v), want retry %v, error %v", retry, err, tc.wantRetry, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "t0ken") {
				t.Errorf("error shows the URL: %v", err)
			}
		})
	}
}

func TestSecretsNeverInErrorsOrLogs(t *testing.T) {
	const token = "ZZSECRETZZ"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every attempt fails to connect

	var logs bytes.Buffer
	s := newSink(t, Config{URL: "http://" + addr + "/hooks/" + token + "?key=" + token, Secret: token})
	r := sinks.Retry(s, sinks.RetryConfig{Clock: noSleep{}, Logger: slog.New(slog.NewTextHandler(&logs, nil)), MaxAttempts: 2})
	_, err = r.Send(context.Background(), testAlert())
	if err == nil {
		t.Fatal("Send succeeded against a closed port")
	}
	if strings.Contains(err.Error(), token) || strings.Contains(logs.String(), token) {
		t.Errorf("secret leaked:\nerror: %v\nlogs: %s", err, logs.String())
	}
	if logs.Len() == 0 {
		t.Errorf("no log line for the failure")
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"nothing", Config{}, []string{"webhook: url: one of url, url_file or url_env is required"}},
		{"all at once", Config{
			URL: "ftp://x/ZZSECRETZZ", Secret: "a", SecretEnv: "B", Timeout: -time.Second, MinSeverity: "loud",
			Headers: map[string]string{"Bad Name": "v", "idempotency-key": "x", "X-Ok": "line\nbreak"},
		}, []string{
			"url: not an absolute http or https URL",
			"secret: give only one of secret, secret_file or secret_env",
			`headers: "Bad Name" is not a valid header name`,
			"headers: Idempotency-Key is set by logmatch and cannot be configured",
			"headers: X-Ok: value contains a line break or NUL",
			"timeout: -1s is negative",
			`min_severity: unknown severity "loud"`,
		}},
		{"user info", Config{URL: "https://u:ZZSECRETZZ@example.com/"}, []string{"url: user info is not supported"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg, Options{Getenv: func(string) string { return "" }})
			if err == nil {
				t.Fatal("New succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if strings.Contains(err.Error(), "ZZSECRETZZ") {
				t.Errorf("error shows a secret: %v", err)
			}
		})
	}
}

func TestConfigYAMLIsStrict(t *testing.T) {
	src := "url_env: HOOK_URL\nsecret_file: /run/secrets/hook\nheaders:\n  X-Team: llm\ntimeout: 3s\nmin_severity: error\n"
	var got Config
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := Config{URLEnv: "HOOK_URL", SecretFile: "/run/secrets/hook", Headers: map[string]string{"X-Team": "llm"}, Timeout: 3 * time.Second, MinSeverity: "error"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	dec = yaml.NewDecoder(strings.NewReader("urll: x\n"))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err == nil {
		t.Errorf("unknown key accepted")
	}
}
