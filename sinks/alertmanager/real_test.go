package alertmanager

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/sinks"
)

// alertmanagerBinary is where Debian's prometheus-alertmanager package
// installs Alertmanager.
const alertmanagerBinary = "/usr/bin/prometheus-alertmanager"

// startAlertmanager runs a real Alertmanager on a free loopback port with
// gossip disabled and a receiver that drops notifications, waits until it
// is ready and stops it when the test ends. It returns the base URL.
func startAlertmanager(t *testing.T) string {
	t.Helper()
	bin := alertmanagerBinary
	if _, err := os.Stat(bin); err != nil {
		if p, lerr := exec.LookPath("alertmanager"); lerr == nil {
			bin = p
		} else if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("alertmanager not found at %s or on PATH (apt-get install prometheus-alertmanager); LOGMATCH_TEST_REQUIRE_TOOLS=1 forbids skipping", alertmanagerBinary)
		} else {
			t.Skipf("alertmanager not found at %s or on PATH; apt-get install prometheus-alertmanager to run this test", alertmanagerBinary)
		}
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "alertmanager.yml")
	if err := os.WriteFile(cfg, []byte("route:\n  receiver: drop\nreceivers:\n  - name: drop\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	var out bytes.Buffer
	cmd := exec.Command(bin,
		"--config.file="+cfg,
		"--storage.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr,
		"--cluster.listen-address=",
	)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	base := "http://" + addr
	client := &http.Client{Timeout: time.Second}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if resp, err := client.Get(base + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("alertmanager exited before it was ready: %v\n%s", err, out.String())
		case <-ctx.Done():
			t.Fatalf("alertmanager not ready at %s: %v\n%s", base, ctx.Err(), out.String())
		case <-tick.C:
		}
	}
}

// gettableAlert is the part of GET /api/v2/alerts this test reads.
type gettableAlert struct {
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     time.Time         `json:"startsAt"`
	EndsAt       time.Time         `json:"endsAt"`
	GeneratorURL string            `json:"generatorURL"`
	Status       struct {
		State string `json:"state"`
	} `json:"status"`
}

func listAlerts(t *testing.T, base string) map[string]gettableAlert {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	resp, err := client.Get(base + "/api/v2/alerts")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/v2/alerts: %s", resp.Status)
	}
	var got []gettableAlert
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	byFP := map[string]gettableAlert{}
	for _, a := range got {
		byFP[a.Labels["fingerprint"]] = a
	}
	return byFP
}

func TestRealAlertmanager(t *testing.T) {
	base := startAlertmanager(t)
	var now time.Time // the processing-time clock, set before each post
	s, err := New(Config{URL: base, ResolveTimeout: 10 * time.Minute, GeneratorURL: "https://logs.example/sglang", Labels: map[string]string{"cluster": "test"}}, Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()

	// Alertmanager lists only alerts that are still active, and keeps
	// times at millisecond precision, so the test uses recent whole seconds.
	first := time.Now().Add(-time.Minute).Truncate(time.Second)
	now = first.Add(30 * time.Second)
	firing := testAlert(first)
	if _, err := s.Send(ctx, firing); err != nil {
		t.Fatalf("Send: %v", err)
	}
	var batch []*sinks.Alert
	for i := range 3 {
		a := testAlert(first)
		a.Fingerprint = fmt.Sprintf("batch-%d", i)
		a.Source.Pod = fmt.Sprintf("sglang-%d", i+1)
		batch = append(batch, a)
	}
	unclassified := &sinks.Alert{
		Fingerprint: "unclassified-1", Time: first, LastTime: first, Count: 1, Kind: "new",
		Record: sinks.Record{Slug: "unclassified", Severity: "error"},
		Match:  sinks.Match{Text: "ValueError: bad", Exception: &sinks.Exception{Type: "ValueError", Message: "bad"}},
	}
	batch = append(batch, unclassified)
	if _, err := s.SendBatch(ctx, batch); err != nil {
		t.Fatalf("SendBatch: %v", err)
	}

	got := listAlerts(t, base)
	if len(got) != 5 {
		t.Fatalf("Alertmanager lists %d alerts, want 5: %v", len(got), got)
	}
	a := got[firing.Fingerprint]
	want := s.postable(firing)
	if diff := cmp.Diff(want.Labels, a.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Annotations, a.Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
	if !a.StartsAt.Equal(first) || !a.EndsAt.Equal(first.Add(30*time.Second+10*time.Minute)) {
		t.Errorf("startsAt %s endsAt %s, want %s and %s", a.StartsAt, a.EndsAt, first, first.Add(30*time.Second+10*time.Minute))
	}
	if a.GeneratorURL != "https://logs.example/sglang" || a.Status.State != "active" {
		t.Errorf("generatorURL %q state %q", a.GeneratorURL, a.Status.State)
	}
	u := got["unclassified-1"]
	if _, ok := u.Labels["record_id"]; ok || u.Labels["slug"] != "unclassified" {
		t.Errorf("unclassified labels = %v, want slug=unclassified and no record_id", u.Labels)
	}

	// A re-post with a later hit extends endsAt; Alertmanager updates the
	// same alert rather than adding one.
	later := testAlert(first)
	later.Kind, later.Count, later.LastTime = "summary", 9, first.Add(50*time.Second)
	now = first.Add(50 * time.Second)
	if _, err := s.Send(ctx, later); err != nil {
		t.Fatal(err)
	}
	got = listAlerts(t, base)
	if len(got) != 5 || !got[firing.Fingerprint].EndsAt.Equal(first.Add(50*time.Second+10*time.Minute)) {
		t.Errorf("after re-post: %d alerts, endsAt %s; want 5 and %s", len(got), got[firing.Fingerprint].EndsAt, first.Add(50*time.Second+10*time.Minute))
	}

	// Resolving ends the alert at the time of posting: it leaves the
	// active list.
	resolved := testAlert(first)
	resolved.Kind = "resolved"
	if _, err := s.Send(ctx, resolved); err != nil {
		t.Fatal(err)
	}
	got = listAlerts(t, base)
	if _, ok := got[firing.Fingerprint]; ok || len(got) != 4 {
		t.Errorf("after resolve: %d alerts, resolved one listed %v; want 4 without it", len(got), ok)
	}
}
