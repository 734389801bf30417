package faultsuite

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// startAlertmanager runs Debian's prometheus-alertmanager on a free
// loopback port (gossip off, notifications dropped) until the test ends,
// and returns its base URL once it is ready. Without it the test is
// skipped, unless LOGMATCH_TEST_REQUIRE_TOOLS=1.
func startAlertmanager(t *testing.T) string {
	t.Helper()
	bin := "/usr/bin/prometheus-alertmanager"
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is required (apt-get install prometheus-alertmanager)", bin)
		}
		t.Skipf("%s not installed", bin)
	}
	dir := t.TempDir()
	cfg := writeFile(t, dir, "alertmanager.yml", "route:\n  receiver: drop\nreceivers:\n  - name: drop\n")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var out syncBuffer
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--cluster.listen-address=")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	base := "http://" + addr
	if !waitFor(time.Minute, func() bool {
		resp, err := http.Get(base + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}) {
		t.Fatalf("alertmanager not ready:\n%s", out.String())
	}
	return base
}

// activeAlerts lists the slugs of the alerts Alertmanager holds active.
func activeAlerts(t *testing.T, base string) []string {
	t.Helper()
	resp, err := http.Get(base + "/api/v2/alerts?active=true")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var as []struct {
		Labels map[string]string `json:"labels"`
		Status struct {
			State string `json:"state"`
		} `json:"status"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&as); err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, a := range as {
		if a.Status.State == "active" {
			slugs = append(slugs, a.Labels["slug"])
		}
	}
	return slugs
}

// Issue 14 item 8: a crash whose lines are older than the resolve timeout
// when logmatch reads them (a catch-up, --start-at beginning) must still
// show as active in Alertmanager.
func TestCrashReadLateIsActiveInAlertmanager(t *testing.T) {
	base := startAlertmanager(t)
	dir := t.TempDir()
	old := time.Now().UTC().Add(-15 * time.Minute).Format("2006-01-02 15:04:05")
	log := writeFile(t, dir, "sglang.log", "["+old+" TP0] RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n\n")
	p := start(t, "run", "--path", log, "--start-at", "beginning", "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--sink", "alertmanager="+base)
	if !waitFor(time.Minute, func() bool { return len(activeAlerts(t, base)) > 0 }) {
		t.Errorf("Alertmanager lists no active alert for a crash read 15 minutes late\nlogmatch stderr:\n%s", p.stderr.String())
	}
	p.signal(syscall.SIGTERM)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Errorf("exit after SIGTERM: code %d, exited %v", code, ok)
	}
}
