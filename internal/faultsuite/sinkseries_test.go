package faultsuite

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Issue 33 finding 9: a sink a reload removes stops exporting its
// logmatch_sink_queue_depth series; the sink kept and the sink added
// export theirs.
func TestReloadRemovesTheQueueDepthOfARemovedSink(t *testing.T) {
	hook := &countingHook{accepted: map[string]bool{}}
	srv := httptest.NewServer(hook)
	defer srv.Close()
	dir := t.TempDir()
	sinksOf := func(names ...string) string {
		s := "sinks:\n"
		for _, n := range names {
			s += fmt.Sprintf("  - {type: webhook, name: %s, url: %q}\n", n, srv.URL+"/"+n)
		}
		return s
	}
	cfg := writeConfig(t, dir, sinksOf("kept", "removed"))
	log := writeFile(t, dir, "server.log", "")
	addr := freeAddr(t)
	p := start(t, "run", "--config", cfg, "--path", log, "--state-dir", filepath.Join(dir, "state"), "--http-addr", addr)
	depth := func(sink string) float64 {
		_, body := get("http://" + addr + "/metrics")
		return metricValue(body, `logmatch_sink_queue_depth{sink="`+sink+`"}`)
	}
	if !waitFor(time.Minute, func() bool { return depth("kept") == 0 && depth("removed") == 0 }) {
		t.Fatalf("no queue depth series for the configured sinks\n%s", p.stderr.String())
	}
	if err := os.WriteFile(cfg, []byte(sinksOf("kept", "added")), 0o644); err != nil {
		t.Fatal(err)
	}
	p.signal(syscall.SIGHUP)
	if !waitFor(time.Minute, func() bool { return depth("added") == 0 }) {
		t.Fatalf("the reload did not start the added sink\n%s", p.stderr.String())
	}
	if v := depth("removed"); v != -1 {
		t.Errorf("logmatch_sink_queue_depth{sink=\"removed\"} = %v after the reload removed the sink, want no series", v)
	}
	if v := depth("kept"); v != 0 {
		t.Errorf("logmatch_sink_queue_depth{sink=\"kept\"} = %v, want 0", v)
	}
	p.signal(interrupt)
	p.wait(time.Minute)
}
