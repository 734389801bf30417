package faultsuite

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 14 item 14: a storm of distinct incidents is bounded per sink:
// past the rate bound new incidents are folded into a digest alert that
// counts them, none is dropped in silence.
func TestIncidentStormFoldsIntoDigest(t *testing.T) {
	const storm = 300
	dir := t.TempDir()
	res := run(t, []byte(distinctTracebacks(storm)), "run", "--path", "-", "--state-dir", filepath.Join(dir, "state"), "--http-addr", "")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	var news, digests, accounted int
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		var a struct {
			Kind  string `json:"kind"`
			Count int    `json:"count"`
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("not an alert: %q", line)
		}
		switch a.Kind {
		case "new":
			news++
			accounted++
		case "digest":
			digests++
			accounted += a.Count
		}
	}
	if news >= storm/2 {
		t.Errorf("%d of %d new incidents sent one by one: no brake", news, storm)
	}
	if digests == 0 {
		t.Errorf("no digest alert")
	}
	if accounted != storm {
		t.Errorf("new alerts and digests account for %d incidents, want %d", accounted, storm)
	}
	if !strings.Contains(res.stderr, "rate bound") {
		t.Errorf("the overflow is not logged:\n%s", res.stderr)
	}
}
