package faultsuite

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 36 item 5: a catalog reload that fails shows. The reload metric
// says 0 and /readyz fails with the reason until a good load; the previous
// catalog stays in use all the while.
func TestFailedCatalogReloadShows(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	cat := writeFile(t, dir, "cat.jsonl", syntheticRecord+"\n")
	log := writeFile(t, dir, "app.log", "")
	p := start(t, "run", "--path", log, "--catalog", cat, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--http-addr", addr, "--group-window", "0")
	ready := func() (int, string) { return get("http://" + addr + "/readyz") }
	reloadOK := func() float64 {
		_, m := get("http://" + addr + "/metrics")
		return metricValue(m, "logmatch_config_last_reload_successful")
	}
	if !waitFor(time.Minute, func() bool { code, _ := ready(); return code == http.StatusOK }) {
		t.Fatalf("never ready:\n%s", p.stderr.String())
	}
	if err := os.WriteFile(cat, []byte(syntheticRecord[:40]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !waitFor(time.Minute, func() bool { code, _ := ready(); return code == http.StatusServiceUnavailable }) {
		t.Fatalf("/readyz stayed ready after a failed catalog reload:\n%s", p.stderr.String())
	}
	if _, body := ready(); !strings.Contains(body, "catalog: the last reload failed") || !strings.Contains(body, "cat.jsonl:1") {
		t.Errorf("/readyz body %q does not say the reload failed and where", body)
	}
	if v := reloadOK(); v != 0 {
		t.Errorf("logmatch_config_last_reload_successful = %v after a failed reload, want 0", v)
	}
	if code, _ := ready(); code == http.StatusServiceUnavailable {
		if c, _ := get("http://" + addr + "/readyz?exclude=catalog"); c != http.StatusOK {
			t.Errorf("/readyz?exclude=catalog = %d, want 200", c)
		}
	}
	if err := os.WriteFile(cat, []byte(syntheticRecord+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !waitFor(time.Minute, func() bool { code, _ := ready(); return code == http.StatusOK }) {
		_, body := ready()
		t.Fatalf("/readyz did not recover after the catalog was fixed: %q\n%s", body, p.stderr.String())
	}
	if v := reloadOK(); v != 1 {
		t.Errorf("logmatch_config_last_reload_successful = %v after a good reload, want 1", v)
	}
}

// Issue 36 item 6: the liveness wording is true to the mode. Reading
// standard input with no /livez listener and no --on-fatal terminate,
// nothing restarts the server: the alert and the log say so instead of
// promising a restart.
func TestLivenessWordingWhenNothingActs(t *testing.T) {
	in := "[2026-05-28 00:11:09 TP0] RuntimeError: CUDA error: an illegal memory access was encountered\n"
	res := run(t, []byte(in), "run", "--path", "-", "--state-dir", t.TempDir(), "--group-window", "0")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, `"reason":"liveness failed: the server is unusable, and nothing here restarts it"`) ||
		!strings.Contains(res.stdout, `"action":"none"`) {
		t.Errorf("the alert does not say that nothing restarts the server:\n%s", res.stdout)
	}
	if strings.Contains(res.stderr, "the server will be restarted") || !strings.Contains(res.stderr, "nothing here restarts it") {
		t.Errorf("the log promises a restart, or does not say none comes:\n%s", res.stderr)
	}
	// Issue 36 item 6: the last line says why the run stopped and what
	// it did.
	if !strings.Contains(res.stderr, `msg="logmatch stopped" reason="the inputs ended" lines=1 entries=1 incidents=1 alerts=1 delivered=1 dropped=0 queued=0`) {
		t.Errorf("the stop line lacks its reason and totals:\n%s", res.stderr)
	}
}
