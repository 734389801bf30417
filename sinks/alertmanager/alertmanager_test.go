package alertmanager

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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

func testAlert(first time.Time) *sinks.Alert {
	return &sinks.Alert{
		Schema:      sinks.Schema,
		Fingerprint: "9f2c1e0a77b3d401",
		Time:        first,
		LastTime:    first.Add(30 * time.Second),
		Count:       3,
		Kind:        "new",
		Ranks:       []string{"TP0", "TP1"},
		Record: sinks.Record{
			ID: "a4a00f79b8728e30", Slug: "ascend-transfer-engine-initialization-failed",
			Severity: "critical", ErrorClass: "RuntimeError", ErrorMessage: "Ascend Transfer Engine initialization failed.",
			Solutions:        []string{"Check that the metadata store is reachable.", "Make sure session ids are unique."},
			Documentation:    "The native initialize() returned a non-zero code.",
			HandlingStrategy: "fail-fast",
			GithubURL:        "https://github.com/sgl-project/sglang/blob/0132848/python/sglang/srt/disaggregation/ascend/transfer_engine.py#L66-L102",
		},
		Match: sinks.Match{
			Text:      "[2026-03-01 12:00:00 TP0] Ascend Transfer Engine initialization failed.",
			Exception: &sinks.Exception{Type: "RuntimeError", Message: "Ascend Transfer Engine initialization failed."},
		},
		Source: sinks.Source{Path: "/var/log/pods/llm_sglang-0/sglang/0.log", Offset: 18234, Pod: "sglang-0", Namespace: "llm", Container: "sglang"},
		Engine: "sglang",
	}
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestPostable(t *testing.T) {
	// Posted 30s after the first hit: endsAt follows the time of posting.
	posted := func() time.Time { return t0.Add(30 * time.Second) }
	s, err := New(Config{URL: "http://127.0.0.1:9093", Labels: map[string]string{"cluster": "eu-1"}, GeneratorURL: "https://logs.example/sglang"}, Options{Now: posted})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := testAlert(t0)
	a.Headline = "Ascend Transfer Engine initialization failed."
	a.FirstRank = "TP1"
	a.Consequences = []sinks.Consequence{{Slug: "received-sigquit-from-child", Count: 1, Headline: "Received sigquit from a child process."},
		{Slug: "nccl-watchdog-collective-timeout", Count: 2, Ranks: []string{"rank0", "rank2"}, Headline: "[Rank 0] Watchdog caught collective operation timeout"}}
	got := s.postable(a)
	want := postableAlert{
		Labels: map[string]string{
			"alertname": "LogmatchIncident", "record_id": "a4a00f79b8728e30", "slug": "ascend-transfer-engine-initialization-failed",
			"severity": "critical", "namespace": "llm", "pod": "sglang-0", "container": "sglang", "fingerprint": "9f2c1e0a77b3d401",
			"cluster": "eu-1", "engine": "sglang",
		},
		Annotations: map[string]string{
			"summary": "critical ascend-transfer-engine-initialization-failed: Ascend Transfer Engine initialization failed. (llm/sglang-0)",
			"description": "The native initialize() returned a non-zero code.\n\n" +
				"Matched: [2026-03-01 12:00:00 TP0] Ascend Transfer Engine initialization failed.\n\n" +
				"Exception: RuntimeError: Ascend Transfer Engine initialization failed.\n\n" +
				"3 occurrence(s); ranks TP0-1 (first TP1); source /var/log/pods/llm_sglang-0/sglang/0.log:18234; handling fail-fast",
			"solutions": "1. Check that the metadata store is reachable.\n2. Make sure session ids are unique.",
			"headline":  "Ascend Transfer Engine initialization failed.",
			"ranks":     "TP0-1 (first TP1)",
			"consequences": "received-sigquit-from-child: Received sigquit from a child process.\n" +
				"nccl-watchdog-collective-timeout ×2 on rank0,2: [Rank 0] Watchdog caught collective operation timeout",
			"runbook_url": "https://github.com/sgl-project/sglang/blob/0132848/python/sglang/srt/disaggregation/ascend/transfer_engine.py#L66-L102",
		},
		StartsAt:     t0,
		EndsAt:       t0.Add(30*time.Second + DefaultResolveTimeout),
		GeneratorURL: "https://logs.example/sglang",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("postable (-want +got):\n%s", diff)
	}
}

func TestPostableUnclassifiedOmitsEmptyLabels(t *testing.T) {
	s, err := New(Config{URL: "http://127.0.0.1:9093"}, Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := &sinks.Alert{
		Fingerprint: "u1", Time: t0, Kind: "new", Count: 1,
		Record: sinks.Record{Slug: "unclassified", Severity: "error"},
		Match:  sinks.Match{Text: "ValueError: bad", Exception: &sinks.Exception{Type: "ValueError", Message: "bad"}},
		Source: sinks.Source{Path: "/var/log/sglang.log", Offset: 9},
	}
	got := s.postable(a)
	wantLabels := map[string]string{"alertname": "LogmatchIncident", "slug": "unclassified", "severity": "error", "fingerprint": "u1"}
	if diff := cmp.Diff(wantLabels, got.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if _, ok := got.Annotations["runbook_url"]; ok {
		t.Errorf("runbook_url set without a link: %q", got.Annotations["runbook_url"])
	}
	if _, ok := got.Annotations["solutions"]; ok {
		t.Errorf("solutions set without solutions")
	}
	if want := t0.Add(DefaultResolveTimeout); !got.EndsAt.Equal(want) {
		t.Errorf("endsAt = %s, want %s (posted at once: now + resolve timeout)", got.EndsAt, want)
	}
}

// Issue 14 item 8: endsAt follows processing time, so an incident read
// late (its lines older than the resolve timeout) is still posted active;
// startsAt keeps the log's time, unless that is ahead of the clock (issue
// 33 finding 2): then it is now, and a resolved alert ends now, not in the
// log's future.
func TestEndsAtAndRepostBy(t *testing.T) {
	var now time.Time
	s, err := New(Config{URL: "http://127.0.0.1:9093", ResolveTimeout: 10 * time.Minute}, Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name        string
		kind        string
		first, last time.Time
		now         time.Time
		wantEnd     time.Time
		wantRepost  time.Time
	}{
		{"firing", "new", t0, t0.Add(time.Minute), t0.Add(time.Minute), t0.Add(11 * time.Minute), t0.Add(9 * time.Minute)},
		{"read 15 minutes late", "new", t0, t0.Add(time.Minute), t0.Add(16 * time.Minute), t0.Add(26 * time.Minute), t0.Add(24 * time.Minute)},
		{"summary posted later", "summary", t0, t0.Add(20 * time.Minute), t0.Add(21 * time.Minute), t0.Add(31 * time.Minute), t0.Add(29 * time.Minute)},
		{"resolved ends now", "resolved", t0, t0.Add(20 * time.Minute), t0.Add(25 * time.Minute), t0.Add(25 * time.Minute), t0.Add(23 * time.Minute)},
		{"log ahead of the clock", "resolved", t0.Add(5 * time.Minute), t0.Add(5 * time.Minute), t0, t0, t0.Add(-2 * time.Minute)},
		{"log a century ahead", "new", t0.Add(100 * 365 * 24 * time.Hour), t0.Add(100 * 365 * 24 * time.Hour), t0, t0.Add(10 * time.Minute), t0.Add(8 * time.Minute)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now = tc.now
			a := &sinks.Alert{Kind: tc.kind, Time: tc.first, LastTime: tc.last}
			if got := s.EndsAt(a); !got.Equal(tc.wantEnd) {
				t.Errorf("EndsAt = %s, want %s", got, tc.wantEnd)
			}
			if got := s.RepostBy(a); !got.Equal(tc.wantRepost) {
				t.Errorf("RepostBy = %s, want %s", got, tc.wantRepost)
			}
			wantStart := tc.first
			if wantStart.After(tc.now) {
				wantStart = tc.now
			}
			if got := s.postable(a).StartsAt; !got.Equal(wantStart) {
				t.Errorf("startsAt = %s, want %s", got, wantStart)
			}
		})
	}
}

// fakeAM records posted bodies and answers with a scripted status.
type fakeAM struct {
	mu     sync.Mutex
	code   int
	bodies [][]postableAlert
	paths  []string
	auth   []string
}

func (f *fakeAM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var got []postableAlert
	_ = json.Unmarshal(b, &got)
	f.mu.Lock()
	f.bodies = append(f.bodies, got)
	f.paths = append(f.paths, r.Method+" "+r.URL.Path)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	code := f.code
	f.mu.Unlock()
	if code == 0 {
		code = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if code == http.StatusBadRequest {
		_, _ = io.WriteString(w, `{"code":400,"message":"start time must be before end time"}`)
	}
}

func TestClassification(t *testing.T) {
	tests := []struct {
		code      int
		wantRetry bool
		wantErr   string
	}{
		{200, false, ""},
		{400, false, `http 400: {"code":400,"message":"start time must be before end time"}`},
		{401, false, "http 401"},
		{404, false, "http 404"},
		{429, true, "http 429"},
		{500, true, "http 500"},
		{503, true, "http 503"},
	}
	for _, tc := range tests {
		t.Run(http.StatusText(tc.code), func(t *testing.T) {
			f := &fakeAM{code: tc.code}
			srv := httptest.NewServer(f)
			defer srv.Close()
			s, err := New(Config{URL: srv.URL + "/am/", BearerToken: "tok-SECRET"}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			retry, err := s.Send(context.Background(), testAlert(t0))
			if retry != tc.wantRetry {
				t.Errorf("retry = %v, want %v", retry, tc.wantRetry)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Send: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error shows the token: %v", err)
			}
			if diff := cmp.Diff([]string{"POST /am/api/v2/alerts"}, f.paths); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"Bearer tok-SECRET"}, f.auth); diff != "" {
				t.Errorf("Authorization (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSendBatchIsOneRequest(t *testing.T) {
	f := &fakeAM{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	s, err := New(Config{URL: srv.URL}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var b sinks.BatchSink = s
	var batch []*sinks.Alert
	for _, fp := range []string{"a", "b", "c"} {
		a := testAlert(t0)
		a.Fingerprint = fp
		batch = append(batch, a)
	}
	if _, err := b.SendBatch(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	if len(f.bodies) != 1 || len(f.bodies[0]) != 3 {
		t.Fatalf("requests %d, first with %d alerts; want 1 request with 3", len(f.bodies), len(f.bodies[0]))
	}
	var fps []string
	for _, p := range f.bodies[0] {
		fps = append(fps, p.Labels["fingerprint"])
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, fps); diff != "" {
		t.Errorf("fingerprints (-want +got):\n%s", diff)
	}
}

func TestConfigErrors(t *testing.T) {
	_, err := New(Config{
		URL: "http://am:9093/?x=1", BearerToken: "SECRET", BearerTokenEnv: "T", ResolveTimeout: time.Millisecond,
		Timeout: -1, GeneratorURL: "logs", Labels: map[string]string{"severity": "x", "bad-name": "y", "team": ""}, MinSeverity: "loud",
	}, Options{Getenv: func(string) string { return "" }})
	for _, want := range []string{
		"alertmanager: url: must not have a query or fragment",
		"bearer_token: give only one of bearer_token, bearer_token_file or bearer_token_env",
		"resolve_timeout: 1ms is below 1s",
		"timeout: -1ns is negative",
		"generator_url: not an absolute http or https URL",
		"labels: severity is set by logmatch and cannot be configured",
		`labels: "bad-name" is not a valid label name`,
		"labels: team: empty value",
		`min_severity: unknown severity "loud"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("config error lacks %q:\n%v", want, err)
		}
	}
	if err != nil && strings.Contains(err.Error(), "SECRET") {
		t.Errorf("config error shows the token: %v", err)
	}
	if _, err := New(Config{}, Options{}); err == nil || !strings.Contains(err.Error(), "url: required") {
		t.Errorf("New(empty) = %v, want url: required", err)
	}
}

func TestConfigYAMLIsStrict(t *testing.T) {
	src := "url: http://alertmanager:9093\nresolve_timeout: 10m\nlabels:\n  cluster: eu-1\nbearer_token_file: /run/secrets/am\n"
	var got Config
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := Config{URL: "http://alertmanager:9093", ResolveTimeout: 10 * time.Minute, Labels: map[string]string{"cluster": "eu-1"}, BearerTokenFile: "/run/secrets/am", Timeout: DefaultTimeout}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	dec = yaml.NewDecoder(strings.NewReader("resolve: 1m\n"))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err == nil {
		t.Errorf("unknown key accepted")
	}
}

// The default resolve_timeout is above logmatch's default group window (5m):
// an active incident is re-posted once per window, and an endsAt reached
// before the re-post would resolve it in between.
func TestDefaultResolveTimeoutAboveGroupWindow(t *testing.T) {
	if DefaultConfig().ResolveTimeout <= 5*time.Minute {
		t.Errorf("default resolve_timeout %s is not above the default group window 5m", DefaultConfig().ResolveTimeout)
	}
	s, err := New(Config{URL: "http://127.0.0.1:9093"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Wants(sinks.KindUpdate) || !s.Wants(sinks.KindNew) {
		t.Errorf("alertmanager must take every kind, updates included")
	}
}

// A label named engine in the configuration says the engine instead of
// the detected one.
func TestPostableConfiguredEngineLabelWins(t *testing.T) {
	s, err := New(Config{URL: "http://127.0.0.1:9093", Labels: map[string]string{"engine": "vllm-fleet"}}, Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.postable(testAlert(t0)).Labels["engine"]; got != "vllm-fleet" {
		t.Errorf("engine label %q, want the configured vllm-fleet", got)
	}
}
