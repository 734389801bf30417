package faultsuite

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// freeAddr returns a loopback address free at the time of the call.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// get returns the status and body of GET url; status 0 when it failed.
func get(url string) (int, string) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// metricValue returns the value of the first sample of name in a
// Prometheus text exposition, or -1.
func metricValue(body, name string) float64 {
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, name+" ") || strings.HasPrefix(line, name+"{") {
			f := strings.Fields(line)
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err == nil {
				return v
			}
		}
	}
	return -1
}

// Issue 14 items 5 and 6: with the state disk full (here: the file size
// limit, RLIMIT_FSIZE, below what the state file must grow to), failing
// commits are counted, /readyz fails with the reason once they have lasted
// its bound, and a final commit that fails makes the exit status non-zero.
// A later run with space again delivers what the failed one found.
func TestFullStateDisk(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) not installed")
	}
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	log := writeFile(t, dir, "app.log", "")
	// A first run creates the state file, so the limit only stops its
	// growth.
	res := run(t, nil, "run", "--path", "-", "--state-dir", state, "--http-addr", "")
	if res.code != 0 {
		t.Fatalf("first run: %d\n%s", res.code, res.stderr)
	}
	info, err := os.Stat(filepath.Join(state, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	args := []string{"--fsize=" + strconv.FormatInt(info.Size()+4096, 10) + ":unlimited", binary(t), "run", "--path", log,
		"--state-dir", state, "--http-addr", addr}
	p := startCommand(t, prlimit, args...)
	if !waitFor(time.Minute, func() bool { code, _ := get("http://" + addr + "/readyz"); return code == http.StatusOK }) {
		t.Fatalf("never ready:\n%s", p.stderr.String())
	}
	// Enough distinct incidents that their queued alerts outgrow the limit.
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(distinctTracebacks(400)); err != nil {
		t.Fatal(err)
	}
	f.Close()

	var body string
	if !waitFor(time.Minute, func() bool {
		var code int
		code, body = get("http://" + addr + "/readyz")
		return code == http.StatusServiceUnavailable && strings.Contains(body, "state: commits failing")
	}) {
		t.Errorf("/readyz never reported the failing commits; last body %q\nstderr:\n%s", body, p.stderr.String())
	}
	_, metrics := get("http://" + addr + "/metrics")
	if v := metricValue(metrics, "logmatch_state_commit_failures_total"); v < 1 {
		t.Errorf("logmatch_state_commit_failures_total = %v, want at least 1", v)
	}
	p.signal(interrupt)
	code, exited := p.wait(time.Minute)
	if !exited || code == 0 {
		t.Errorf("exit after SIGTERM with the final commit failing: %d (exited %v), want non-zero\nstderr:\n%s", code, exited, p.stderr.String())
	}
	if !strings.Contains(p.stderr.String(), "final commit") {
		t.Errorf("stderr does not report the failed final commit:\n%s", p.stderr.String())
	}

	// A new run on the same full disk fails its commits again; when space
	// returns (the limit lifted while it runs) it queues and sends what
	// the failed run could not, from the last good checkpoint.
	out := startCommand(t, prlimit, args...)
	if !waitFor(time.Minute, func() bool {
		_, m := get("http://" + addr + "/metrics")
		return metricValue(m, "logmatch_state_commit_failures_total") >= 1
	}) {
		t.Fatalf("the second run's commits did not fail:\n%s", out.stderr.String())
	}
	lift := exec.Command(prlimit, "--pid", strconv.Itoa(out.cmd.Process.Pid), "--fsize=unlimited:unlimited")
	if b, err := lift.CombinedOutput(); err != nil {
		t.Fatalf("prlimit --pid: %v: %s", err, b)
	}
	// 400 distinct incidents: the storm bound lets 30 through at once
	// and folds the rest into a digest due a minute later.
	sent := func() int { return strings.Count(p.stdout.String(), "\n") + strings.Count(out.stdout.String(), "\n") }
	if !waitFor(time.Minute, func() bool { return sent() >= 30 && strings.Count(out.stdout.String(), "\n") > 0 }) {
		t.Errorf("after space returned %d alerts in all, want at least 30\nstderr:\n%s", sent(), out.stderr.String())
	}
	if !waitFor(time.Minute, func() bool { code, _ := get("http://" + addr + "/readyz"); return code == http.StatusOK }) {
		t.Errorf("/readyz did not recover once commits succeeded")
	}
	out.signal(interrupt)
	if code, ok := out.wait(time.Minute); !ok || code != 0 {
		t.Errorf("exit after recovery: %d (exited %v)\n%s", code, ok, out.stderr.String())
	}
}
