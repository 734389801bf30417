package pipeline

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/sinks"
)

// syncLog is a slog destination the test reads while the pipeline writes.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncLog) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// SIGHUP reloads the configuration: a new sink takes the next alerts, a
// removed one stops; a configuration that does not load or build is
// logged, the running one stays, and the reload metrics say so.
func TestConfigReload(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(logs, "server.log")
	catalog := filepath.Join(dir, "catalog.jsonl")
	if err := os.WriteFile(catalog, []byte(recordA+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logPath, []byte("[2026-05-28 00:11:09 TP0] alpha failure in step 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	appendLine := func(s string) {
		t.Helper()
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(s + "\n"); err != nil {
			t.Fatal(err)
		}
	}

	var mu sync.Mutex
	received := map[string]int{}
	hook := func(name string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			mu.Lock()
			received[name]++
			mu.Unlock()
		}))
	}
	first, second := hook("first"), hook("second")
	defer first.Close()
	defer second.Close()
	count := func(name string) int {
		mu.Lock()
		defer mu.Unlock()
		return received[name]
	}

	args := func(extra ...string) []string {
		return append([]string{
			"--path", filepath.Join(logs, "*.log"), "--path", filepath.Join(dir, "none", "*.log"),
			"--catalog", catalog, "--no-default-catalog",
			"--state-dir", filepath.Join(dir, "state"), "--group-window", "0", "--http-addr", "127.0.0.1:0",
		}, extra...)
	}
	var cfgMu sync.Mutex
	nextArgs := args("--sink", "webhook="+first.URL)
	load := func() (*config.Config, error) {
		cfgMu.Lock()
		defer cfgMu.Unlock()
		return runConfig(nextArgs, func(string) string { return "" }, os.ReadFile)
	}
	cfg, err := load()
	if err != nil {
		t.Fatal(err)
	}
	logOut := &syncLog{}
	addr := make(chan string, 1)
	reload := make(chan struct{}, 1)
	p, err := New(context.Background(), Options{
		Config: cfg, Logger: slog.New(slog.NewTextHandler(logOut, nil)),
		Stdout: io.Discard, Stderr: io.Discard, Reload: reload, LoadConfig: load,
		Listening: func(a string) { addr <- a }, Version: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	base := "http://" + <-addr
	eventually(t, "the first alert at the first sink", func() bool { return count("first") == 1 })

	metrics, _ := get(t, base+"/metrics")
	for _, series := range []string{
		`logmatch_build_info{goversion="go`, "\nlogmatch_catalog_records 1\n", "\nlogmatch_config_last_reload_successful 1\n",
		`logmatch_source_files{`, `logmatch_source_glob_unmatched{glob="` + filepath.Join(dir, "none", "*.log") + `"`,
	} {
		if !strings.Contains(metrics, series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}
	for _, msg := range []string{"logmatch started", "glob matches no file"} {
		if !strings.Contains(logOut.String(), msg) {
			t.Errorf("log lacks %q:\n%s", msg, logOut.String())
		}
	}

	// Swap the sink: the next alert goes to the second one only.
	cfgMu.Lock()
	nextArgs = args("--sink", "webhook="+second.URL)
	cfgMu.Unlock()
	reload <- struct{}{}
	eventually(t, "the reload", func() bool { return strings.Contains(logOut.String(), "configuration reloaded") })
	appendLine("[2026-05-28 00:11:10 TP0] alpha failure in step 2")
	eventually(t, "the second alert at the second sink", func() bool { return count("second") == 1 })
	if n := count("first"); n != 1 {
		t.Errorf("the removed sink got %d alerts, want 1", n)
	}

	// A configuration that does not load: logged, the running one stays.
	cfgMu.Lock()
	nextArgs = args("--sink", "webhook=ftp://nowhere")
	cfgMu.Unlock()
	reload <- struct{}{}
	eventually(t, "the failed reload", func() bool { return strings.Contains(logOut.String(), "configuration reload failed") })
	metrics, _ = get(t, base+"/metrics")
	if !strings.Contains(metrics, "\nlogmatch_config_last_reload_successful 0\n") {
		t.Errorf("logmatch_config_last_reload_successful is not 0 after a failed reload:\n%s", grep(metrics, "reload"))
	}
	appendLine("[2026-05-28 00:11:11 TP0] alpha failure in step 3")
	eventually(t, "an alert with the running configuration", func() bool { return count("second") == 2 })

	cancel()
	waitRun(t, done, "after cancel")
	if !strings.Contains(logOut.String(), "logmatch stopped") {
		t.Errorf("no stop line in the log:\n%s", logOut.String())
	}
}

func grep(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Reloading new windows keeps the open incidents.
func TestRegroupKeepsIncidents(t *testing.T) {
	g := incident.New(incident.Options{Window: time.Minute})
	p := &Pipeline{proc: &processor{grouper: g}, log: slog.New(slog.DiscardHandler)}
	before, _ := g.Snapshot()
	p.regroup(&config.Config{GroupWindow: config.Duration(10 * time.Minute)})
	after, err := p.proc.grouper.Snapshot()
	if err != nil || string(after) != string(before) || p.proc.grouper == g {
		t.Errorf("regroup: %v; before %s after %s", err, before, after)
	}
}

// A reload of the windows builds the new grouper with the running settle
// time, correlation window and bound, not with none (every new incident
// then went out at once, unsettled, and consequences paged on their own),
// and the liveness gate asks the new grouper, not the one it replaced,
// whether an incident's first alert is still to come.
func TestRegroupKeepsSettleAndCorrelation(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	cfg := &config.Config{
		GroupWindow: config.Duration(time.Minute), SettleTime: config.Duration(2 * time.Second),
		CorrelationWindow: config.Duration(15 * time.Minute), MaxOpenIncidents: 3,
	}
	g := incident.New(groupOptions(cfg))
	p := &Pipeline{cfg: cfg, proc: &processor{grouper: g}, log: slog.New(slog.DiscardHandler)}
	next := *cfg
	next.GroupWindow = config.Duration(10 * time.Minute)
	p.regroup(&next)
	occ := func(fp string) incident.Occurrence {
		return incident.Occurrence{Time: t0, Timed: true, Scope: "node:", Alert: sinks.Alert{
			Fingerprint: fp, Count: 1, Time: t0, LastTime: t0, Record: sinks.Record{Severity: "error", Role: "cause"},
		}}
	}
	if got := p.proc.grouper.Observe(occ("a"), t0); len(got) != 0 {
		t.Errorf("after the reload a new incident is announced at once (%d alerts): no settle time", len(got))
	}
	if !p.proc.pendingIncident("a") {
		t.Errorf("the liveness gate does not see the settling incident: it asks the replaced grouper")
	}
	for _, fp := range []string{"b", "c", "d"} {
		p.proc.grouper.Observe(occ(fp), t0)
	}
	if st := p.proc.grouper.Stats(); st.Open != 3 || st.Evicted != 1 {
		t.Errorf("after the reload %d open, %d evicted; want the bound of 3 kept", st.Open, st.Evicted)
	}
}

// The kinds the sinks select by are the grouper's.
func TestKindsAgree(t *testing.T) {
	for got, want := range map[string]string{
		sinks.KindNew: incident.KindNew, sinks.KindSummary: incident.KindSummary,
		sinks.KindReminder: incident.KindReminder, sinks.KindUpdate: incident.KindUpdate,
	} {
		if got != want {
			t.Errorf("sinks kind %q, incident kind %q", got, want)
		}
	}
}

// New tells the configuration's errors from the environment's.
func TestNewMarksConfigurationErrors(t *testing.T) {
	dir := t.TempDir()
	parse := func(args ...string) *config.Config {
		cfg, err := runConfig(append(args, "--http-addr", "", "--path", "-"), func(string) string { return "" }, os.ReadFile)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	_, err := New(context.Background(), Options{Config: parse("--state-dir", dir, "--catalog", filepath.Join(dir, "none.jsonl"))})
	if err == nil || !errors.Is(err, ErrConfig) {
		t.Errorf("a missing catalog: %v, want ErrConfig", err)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = New(context.Background(), Options{Config: parse("--state-dir", notDir)})
	if err == nil || errors.Is(err, ErrConfig) {
		t.Errorf("a state directory that is a file: %v, want a runtime error", err)
	}
}
