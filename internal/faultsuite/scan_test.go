package faultsuite

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// oomLine is a critical failure the default catalog knows, ended by a
// blank line so the traceback after it is an entry of its own.
const oomLine = "[2026-05-28 00:17:00 TP0] RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n\n"

// distinctTracebacks returns n tracebacks no record matches, each with its
// own exception type, so each is an incident of its own.
func distinctTracebacks(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Traceback (most recent call last):\n  File \"/app/mod%d.py\", line %d, in handler%d\n    run()\nFaultSuiteError%d: distinct failure %d\n", i, i+1, i, i, i)
	}
	return b.String()
}

// servingLater is a healthy line an hour after oomLine: the undated
// tracebacks after it take its time, so they are no burst of the
// out-of-memory crash (whose unclassified exceptions would be its
// consequences) but failures of their own.
const servingLater = "[2026-05-28 01:17:00 TP0] Decode batch. #running-req: 1, #token: 100, token usage: 0.01, gen throughput (token/s): 50.00, #queue-req: 0\n"

// Issue 14 item 1: a scan with more incidents than the grouper keeps open
// must still report the first one, and --fail-on must see it.
func TestScanReportsEveryIncidentPastTheGroupBound(t *testing.T) {
	dir := t.TempDir()
	log := writeFile(t, dir, "storm.log", oomLine+servingLater+distinctTracebacks(10001))
	res := run(t, nil, "scan", "--format", "json", "--fail-on", "critical", log)
	if res.code != 1 {
		t.Errorf("exit status %d, want 1 (a critical incident was in the log)\nstderr:\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, `"slug":"cuda-out-of-memory"`) {
		t.Errorf("the out-of-memory incident is missing from the output")
	}
	if n := strings.Count(res.stdout, "\n"); n != 10002 {
		t.Errorf("%d incidents printed, want 10002", n)
	}
}

// A scan of a file that does not exist prints no "no incidents" verdict:
// nothing was scanned, and the error says which file. An unreadable input
// is a runtime failure (exit 3), not a usage error.
func TestScanMissingInputPrintsNoVerdict(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent.log")
	res := run(t, nil, "scan", missing)
	if res.code != 3 {
		t.Errorf("exit status %d, want 3", res.code)
	}
	if res.stdout != "" {
		t.Errorf("stdout = %q, want nothing", res.stdout)
	}
	if !strings.Contains(res.stderr, missing) {
		t.Errorf("stderr does not name %s:\n%s", missing, res.stderr)
	}
}
