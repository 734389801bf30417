package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/sinks"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func testAlert() *sinks.Alert {
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
			Solutions:        []string{"Check that the metadata store (store_url) is reachable from the pod.", "Make sure session ids are unique per engine."},
			PreventionTips:   []string{"Probe the metadata store before starting sglang."},
			Documentation:    "The underlying Ascend transfer engine's native initialize() returned a non-zero code, so the Python wrapper raises RuntimeError after logging.",
			HandlingStrategy: "fail-fast",
			GithubURL:        "https://github.com/sgl-project/sglang/blob/0132848/python/sglang/srt/disaggregation/ascend/transfer_engine.py#L66-L102",
			FilePath:         "python/sglang/srt/disaggregation/ascend/transfer_engine.py", LineNumber: 84,
		},
		Match: sinks.Match{
			Text: "[2026-03-01 12:00:00 TP0] Ascend Transfer Engine initialization failed.",
			Exception: &sinks.Exception{
				Type: "RuntimeError", Message: "Ascend Transfer Engine initialization failed.",
				Stacktrace: "Traceback (most recent call last):\n  File \"/sgl/transfer_engine.py\", line 84, in initialize\n    raise RuntimeError(\"Ascend Transfer Engine initialization failed.\")\nRuntimeError: Ascend Transfer Engine initialization failed.",
			},
		},
		Source:    sinks.Source{Path: "/var/log/pods/llm_sglang-0/sglang/0.log", Offset: 18234, Stream: "stderr", Pod: "sglang-0", Namespace: "llm", Container: "sglang"},
		Entry:     "[2026-03-01 12:00:00 TP0] Ascend Transfer Engine initialization failed.",
		Secondary: []sinks.SecondaryHit{{ID: "b1", Slug: "transfer-engine-runtime-error"}},
	}
}

// foldedAlert is one crash: TP3 out of memory, with the parent's SIGQUIT
// and seven peers' NCCL timeouts folded in. Its record has no link of its
// own, so the known-issues search stands in.
func foldedAlert() *sinks.Alert {
	a := testAlert()
	a.Count = 1
	a.Ranks, a.FirstRank = []string{"DP0 TP3"}, "DP0 TP3"
	a.Headline = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.15 GiB of which 1.12 GiB is free."
	a.Record = sinks.Record{
		ID: "82948e87499ab48f", Slug: "cuda-out-of-memory", Repo: "pytorch/pytorch", Severity: "critical",
		ErrorClass: "torch.OutOfMemoryError", ErrorMessage: "CUDA out of memory. Tried to allocate {size} GiB. GPU {index} has a total capacity of {total} GiB.",
		Solutions: []string{"Lower --mem-fraction-static", "Reduce --chunked-prefill-size", "Capture smaller CUDA graphs"},
		Role:      "cause",
	}
	a.Secondary = nil
	a.Consequences = []sinks.Consequence{
		{ID: "s", Slug: "received-sigquit-from-child", Severity: "critical", Count: 1, Time: t0, LastTime: t0,
			Headline: "Received sigquit from a child process. It usually means the child failed."},
		{ID: "n", Slug: "nccl-watchdog-collective-timeout", Severity: "critical", Count: 7, Time: t0, LastTime: t0,
			Ranks:    []string{"rank0", "rank1", "rank2", "rank4", "rank5", "rank6", "rank7"},
			Headline: "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for 600046 milliseconds before timing out."},
	}
	return a
}

// hostileAlert is an unclassified traceback whose text fights the
// renderer: code fences, mrkdwn control characters, huge sizes.
func hostileAlert() *sinks.Alert {
	stack := "Traceback (most recent call last):\n" +
		strings.Repeat("  File \"/sgl/model_runner.py\", line 1, in <module> ``` <b>&amp;</b> 日本語\n", 400) +
		"ValueError: bad ``` value <script>"
	return &sinks.Alert{
		Fingerprint: "unclassified-77", Time: t0, LastTime: t0, Count: 1, Kind: "new",
		Record: sinks.Record{Slug: "unclassified", Severity: "error"},
		Match: sinks.Match{
			Text:      strings.Repeat("```x``` <&> ", 500),
			Exception: &sinks.Exception{Type: "Value`Error", Message: "bad ``` value <script>", Stacktrace: stack, RootCause: "OSError: disk <full>"},
		},
		Source: sinks.Source{Path: "/var/log/sglang.log", Offset: 7},
	}
}

func withKind(a *sinks.Alert, kind string, count int) *sinks.Alert {
	a.Kind, a.Count, a.LastTime = kind, count, t0.Add(10*time.Minute)
	return a
}

func stormAlerts() []*sinks.Alert {
	var out []*sinks.Alert
	sev := []string{"critical", "error", "error", "warning", "info"}
	for i := range 30 {
		a := testAlert()
		a.Fingerprint = fmt.Sprintf("fp%02d", i)
		a.Record.ID = fmt.Sprintf("rec%02d", i%12)
		a.Record.Slug = fmt.Sprintf("record-%02d", i%12)
		a.Record.Severity = sev[i%12%len(sev)]
		a.Source.Pod = fmt.Sprintf("sglang-%d", i%3)
		a.Count = i%4 + 1
		a.Time = t0.Add(time.Duration(i) * time.Second)
		a.LastTime = a.Time.Add(time.Second)
		if i%10 == 9 {
			a.Kind = "resolved"
		}
		out = append(out, a)
	}
	return out
}

func TestRenderGolden(t *testing.T) {
	tests := []struct {
		name string
		msg  message
	}{
		{"new", render(testAlert())},
		{"summary", render(withKind(testAlert(), "summary", 57))},
		{"reminder", render(withKind(testAlert(), "reminder", 340))},
		{"resolved", render(withKind(testAlert(), "resolved", 341))},
		{"new-folded", render(foldedAlert())},
		{"summary-folded", render(withKind(foldedAlert(), "summary", 9))},
		{"unclassified-hostile", render(hostileAlert())},
		{"digest", renderDigest(stormAlerts())},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.MarshalIndent(tc.msg, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			var decoded map[string]any
			if err := json.Unmarshal(got, &decoded); err != nil {
				t.Fatal(err)
			}
			if err := validate(decoded); err != nil {
				t.Errorf("Slack would reject the message: %v", err)
			}
			if n := len(tc.msg.Text); n == 0 || n > maxFallbackBytes || strings.Contains(tc.msg.Text, "\n") {
				t.Errorf("fallback text is %d bytes or multi-line: %q", n, tc.msg.Text)
			}
			path := filepath.Join("testdata", tc.name+".golden.json")
			if *update {
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)+"\n"); diff != "" {
				t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, diff)
			}
		})
	}
}

func TestRenderBounds(t *testing.T) {
	a := hostileAlert()
	a.Record.Slug = strings.Repeat("very-long-slug-", 40)
	a.Record.Solutions = make([]string, 200)
	for i := range a.Record.Solutions {
		a.Record.Solutions[i] = strings.Repeat("restart the scheduler ", 10)
	}
	a.Record.Documentation = strings.Repeat("doc <&> ", 1000)
	a.Ranks = make([]string, 500)
	for i := range a.Ranks {
		a.Ranks[i] = fmt.Sprintf("DP%d TP%d", i, i)
	}
	a.Source.Path = strings.Repeat("/deep", 400)
	a.Record.ErrorMessage = strings.Repeat("<&>", 200)
	a.Record.ID = strings.Repeat("<id>", 1000)
	a.Record.GithubURL = "https://github.com/" + strings.Repeat("x", 5000)
	a.Match.Exception.Type = strings.Repeat("<Error>", 1000)
	a.Secondary = []sinks.SecondaryHit{{Slug: strings.Repeat("<s>", 2000)}, {ID: "b"}}
	a.FirstRank = strings.Repeat("TP9", 100)
	for i := range 16 {
		a.Consequences = append(a.Consequences, sinks.Consequence{
			Slug: fmt.Sprintf("consequence-%d-%s", i, strings.Repeat("<&>", 200)), Count: i + 1,
			Ranks: a.Ranks[:100], Headline: strings.Repeat("``` <b>", 500),
		})
	}
	for _, kind := range []string{"new", "summary", "reminder", "resolved"} {
		a.Kind = kind
		b, _ := json.Marshal(render(a))
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if err := validate(m); err != nil {
			t.Errorf("%s: Slack would reject: %v", kind, err)
		}
		if text := m["text"].(string); len(text) > maxFallbackBytes || strings.Contains(text, "\n") {
			t.Errorf("%s: fallback text of %d bytes or multi-line: %q", kind, len(text), text)
		}
	}
	// A digest of such alerts fits too.
	b, _ := json.Marshal(renderDigest([]*sinks.Alert{a, a, a, a, a, a, a, a, a, a, a, a}))
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if err := validate(m); err != nil {
		t.Errorf("digest: Slack would reject: %v", err)
	}
}

func FuzzRender(f *testing.F) {
	f.Add("ok", "Traceback\nValueError: x", "slug", "doc")
	f.Add("```", "``````", "`", "<&>")
	f.Add(strings.Repeat("é", 3000), strings.Repeat("```\n", 1000), strings.Repeat("s", 200), strings.Repeat("<", 4000))
	f.Fuzz(func(t *testing.T, text, stack, slug, doc string) {
		a := testAlert()
		a.Match.Text, a.Match.Exception.Stacktrace, a.Record.Slug, a.Record.Documentation = text, stack, slug, doc
		a.Record.Solutions = []string{text, doc}
		for _, m := range []message{render(a), renderDigest([]*sinks.Alert{a, a})} {
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var decoded map[string]any
			if err := json.Unmarshal(b, &decoded); err != nil {
				t.Fatal(err)
			}
			if err := validate(decoded); err != nil {
				t.Fatalf("Slack would reject: %v\n%s", err, b)
			}
		}
	})
}

// fakeClock advances only when slept on.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func newSink(t *testing.T, url string, clock sinks.Clock) *Sink {
	t.Helper()
	cfg := DefaultConfig()
	cfg.URL = url
	s, err := New(cfg, Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

const hookPath = "/services/T0ABCDEF1/B0ABCDEF2/q1w2e3r4t5y6SECRET"

func TestSendClassifiesSlackAnswers(t *testing.T) {
	tests := []struct {
		path      string
		wantRetry bool
		wantErr   string // "" for success
	}{
		{"/ok", false, ""},
		{"/rejected", false, "http 400: invalid_payload (Slack rejected the message itself"},
		{"/forbidden", false, "http 403: action_prohibited"},
		{"/gone", false, "http 404: no_service (the webhook is disabled, revoked or its URL is wrong)"},
		{"/archived", false, "http 410: channel_is_archived"},
		{"/busy", true, "http 429: rate_limited (retry after 2s)"},
		{"/down", true, "http 500"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			em := &emulator{}
			srv := httptest.NewServer(em)
			defer srv.Close()
			s := newSink(t, srv.URL+hookPath+tc.path, &fakeClock{now: t0})
			retry, err := s.Send(context.Background(), testAlert())
			if retry != tc.wantRetry {
				t.Errorf("retry = %v, want %v", retry, tc.wantRetry)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Send: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
			}
			if tc.wantErr == "" && len(em.messages) != 1 {
				t.Errorf("Slack accepted %d messages, want 1", len(em.messages))
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	em := &emulator{}
	srv := httptest.NewServer(em)
	defer srv.Close()
	clock := &fakeClock{now: t0}
	ok := newSink(t, srv.URL+hookPath, clock)
	for range 3 {
		if _, err := ok.Send(context.Background(), testAlert()); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]time.Duration{time.Second, time.Second}, clock.sleeps); diff != "" {
		t.Errorf("pacing sleeps (-want +got):\n%s", diff)
	}

	// A 429 holds the webhook for Retry-After, beyond the normal pace.
	clock = &fakeClock{now: t0}
	busy := newSink(t, srv.URL+hookPath+"/busy", clock)
	if _, err := busy.Send(context.Background(), testAlert()); err == nil {
		t.Fatal("first send to /busy succeeded, want 429")
	}
	if _, err := busy.Send(context.Background(), testAlert()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Duration{2 * time.Second}, clock.sleeps); diff != "" {
		t.Errorf("sleeps after 429 (-want +got):\n%s", diff)
	}
}

func TestRateLimitHonoursContext(t *testing.T) {
	clock := &fakeClock{now: t0}
	l := &limiter{clock: clock, interval: Interval}
	if err := l.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("wait with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestRetryDecoratorHonoursSlackRetryAfter(t *testing.T) {
	em := &emulator{}
	srv := httptest.NewServer(em)
	defer srv.Close()
	clock := &fakeClock{now: t0}
	s := sinks.Retry(newSink(t, srv.URL+hookPath+"/busy", clock), sinks.RetryConfig{Clock: clock, Jitter: func(time.Duration) time.Duration { return 0 }})
	if _, err := s.Send(context.Background(), testAlert()); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if em.requests != 2 || len(em.messages) != 1 {
		t.Errorf("requests = %d, accepted = %d; want 2 and 1", em.requests, len(em.messages))
	}
	// The retry waits Retry-After; the limiter then has nothing left to wait.
	if diff := cmp.Diff([]time.Duration{2 * time.Second}, clock.sleeps); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
}

func TestSendBatchIsOneDigest(t *testing.T) {
	em := &emulator{}
	srv := httptest.NewServer(em)
	defer srv.Close()
	s := newSink(t, srv.URL+hookPath, &fakeClock{now: t0})
	var b sinks.BatchSink = s
	if got := b.BatchMin(); got != DefaultDigestThreshold+1 {
		t.Errorf("BatchMin = %d, want %d (more than the threshold)", got, DefaultDigestThreshold+1)
	}
	if _, err := b.SendBatch(context.Background(), stormAlerts()); err != nil {
		t.Fatal(err)
	}
	if len(em.messages) != 1 {
		t.Fatalf("messages = %d, want 1 digest", len(em.messages))
	}
	text := em.messages[0]["text"].(string)
	if want := "logmatch: 30 incidents (8 critical, 12 error, 5 warning, 5 info)"; text != want {
		t.Errorf("digest text = %q, want %q", text, want)
	}
}

func TestWebhookURLNeverInErrorsOrLogs(t *testing.T) {
	em := &emulator{}
	srv := httptest.NewServer(em)
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()

	for _, base := range []string{srv.URL + hookPath + "/gone", srv.URL + hookPath + "/down", srv.URL + hookPath + "/rejected", closed + hookPath} {
		var logs bytes.Buffer
		clock := &fakeClock{now: t0}
		s := sinks.Retry(newSink(t, base, clock), sinks.RetryConfig{
			Name: "slack", Clock: clock, MaxAttempts: 3,
			Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		})
		_, err := s.Send(context.Background(), testAlert())
		if err == nil {
			t.Fatalf("Send succeeded, want an error")
		}
		if strings.Contains(err.Error(), "SECRET") || strings.Contains(logs.String(), "SECRET") || strings.Contains(logs.String(), "T0ABCDEF1") {
			t.Errorf("webhook URL leaked:\nerror: %v\nlogs: %s", err, logs.String())
		}
		if logs.Len() == 0 {
			t.Errorf("no log line for a failing webhook")
		}
	}
	// Configuration errors never echo the URL either.
	_, err = New(Config{URL: "hooks.slack.com" + hookPath}, Options{})
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("New with a bad URL: %v", err)
	}
}

func TestOverridesReachSlack(t *testing.T) {
	em := &emulator{}
	srv := httptest.NewServer(em)
	defer srv.Close()
	s, err := New(Config{URL: srv.URL + hookPath, Channel: "#llm-alerts", Username: "logmatch", IconEmoji: ":rotating_light:"}, Options{Clock: &fakeClock{now: t0}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Send(context.Background(), testAlert()); err != nil {
		t.Fatal(err)
	}
	m := em.messages[0]
	got := []any{m["channel"], m["username"], m["icon_emoji"], m["icon_url"]}
	want := []any{"#llm-alerts", "logmatch", ":rotating_light:", nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("overrides (-want +got):\n%s", diff)
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	urlFile := filepath.Join(dir, "url")
	if err := os.WriteFile(urlFile, []byte("https://hooks.slack.com"+hookPath+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "SLACK_URL" {
			return "https://hooks.slack.com" + hookPath
		}
		return ""
	}
	for _, cfg := range []Config{{URLFile: urlFile, DigestThreshold: DefaultDigestThreshold}, {URLEnv: "SLACK_URL", DigestThreshold: DefaultDigestThreshold}} {
		s, err := New(cfg, Options{Getenv: getenv})
		if err != nil {
			t.Fatalf("New(%+v): %v", cfg, err)
		}
		if s.url != "https://hooks.slack.com"+hookPath || s.BatchMin() != DefaultDigestThreshold+1 {
			t.Errorf("New(%+v): url read wrong or digest %d", cfg, s.BatchMin())
		}
		s.Close()
	}
	_, err := New(Config{
		URL: "https://hooks.slack.com" + hookPath, URLEnv: "SLACK_URL", MinSeverity: "urgent", Channel: "llm",
		IconEmoji: "siren", IconURL: "nope", DigestThreshold: -1, Timeout: -1,
	}, Options{Getenv: getenv})
	for _, want := range []string{
		"slack: url: give only one of url, url_file or url_env",
		`min_severity: unknown severity "urgent"`,
		`channel: "llm" is not #name, @user or a channel id`,
		`icon_emoji: "siren" is not an emoji code`,
		"icon_emoji and icon_url: give only one",
		"icon_url: not an absolute http or https URL",
		"digest_threshold: -1 is negative",
		"timeout: -1ns is negative",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("config error lacks %q:\n%v", want, err)
		}
	}
	if err != nil && strings.Contains(err.Error(), "SECRET") {
		t.Errorf("config error shows the URL: %v", err)
	}
}

func TestConfigYAMLIsStrict(t *testing.T) {
	src := "url_file: /run/secrets/slack\nmin_severity: error\nchannel: '#llm'\ndigest_threshold: 8\ntimeout: 5s\n"
	var got Config
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := Config{URLFile: "/run/secrets/slack", MinSeverity: "error", Channel: "#llm", DigestThreshold: 8, Timeout: 5 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	// Keys left out keep their defaults.
	got = Config{}
	if err := yaml.Unmarshal([]byte("url: https://hooks.slack.com/x\n"), &got); err != nil {
		t.Fatal(err)
	}
	if got.DigestThreshold != DefaultDigestThreshold || got.Timeout != DefaultTimeout {
		t.Errorf("defaults not applied: %+v", got)
	}
	dec = yaml.NewDecoder(strings.NewReader("webhook: x\n"))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err == nil {
		t.Errorf("unknown key accepted")
	}
}

func BenchmarkRender(b *testing.B) {
	for _, bc := range []struct {
		name string
		a    *sinks.Alert
	}{{"typical", testAlert()}, {"hostile-40KB", hostileAlert()}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(render(bc.a)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("digest-30", func(b *testing.B) {
		alerts := stormAlerts()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(renderDigest(alerts)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// digest_threshold 0 is "never digest", 1 digests two or more waiting
// alerts, and icon_emoji decodes and reaches the message.
func TestDigestThresholdAndIcon(t *testing.T) {
	for _, tc := range []struct {
		src          string
		wantBatchMin int
	}{
		{"digest_threshold: 0\n", 0},
		{"digest_threshold: 1\n", 2},
		{"", DefaultDigestThreshold + 1},
	} {
		var cfg Config
		if err := yaml.Unmarshal([]byte("url: https://hooks.slack.com/x\nicon_emoji: ':rotating_light:'\n"+tc.src), &cfg); err != nil {
			t.Fatal(err)
		}
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if got := s.BatchMin(); got != tc.wantBatchMin {
			t.Errorf("%q: BatchMin = %d, want %d", tc.src, got, tc.wantBatchMin)
		}
		if s.over.iconEmoji != ":rotating_light:" {
			t.Errorf("%q: icon_emoji = %q", tc.src, s.over.iconEmoji)
		}
		if s.Wants(sinks.KindUpdate) || !s.Wants(sinks.KindNew) {
			t.Errorf("slack wants updates, or not new alerts")
		}
	}
}
