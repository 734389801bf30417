package faultsuite

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// idleConns is how many idle keep-alive connections the attacker opens:
// the whole descriptor budget of the process under test (prlimit below),
// so that on a server without a bound the last ones are never accepted.
const idleConns = 1024

// sglangLine is one line as sglang logs it, stamped now.
func sglangLine(msg string) string {
	return fmt.Sprintf("[%s TP0] %s\n", time.Now().Format("2006-01-02 15:04:05"), msg)
}

// illegalAccess is a scheduler crash on a CUDA illegal memory access: a
// gating failure, stamped now.
func illegalAccess() string {
	return sglangLine("Scheduler hit an exception: Traceback (most recent call last):") +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2290, in run_scheduler_process\n" +
		"    scheduler.event_loop_overlap()\n" +
		"RuntimeError: CUDA error: an illegal memory access was encountered\n"
}

// probe is one kubelet-like probe: a fresh connection, a bounded wait.
func probe(url string) (int, string, error) {
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// Issue 33 finding 3: with the process's descriptor limit at 1,024 and
// 1,024 idle keep-alive connections open against the HTTP server,
// /livez and /readyz still answer, and a log file rotated in with a fatal
// line is still opened and read: the server keeps a bounded number of
// connections and closes the longest idle for each new one. /livez's body
// names the record but carries no log text.
func TestIdleConnectionsDoNotStarveProbesOrTheTailer(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) not installed")
	}
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	log := writeFile(t, logs, "server.log", sglangLine("The server is fired up and ready to roll!")+serving("gen1", 512))
	addr := freeAddr(t)
	p := startCommand(t, prlimit, "--nofile=1024:1024", "--", binary(t), "run",
		"--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", addr, "--group-window", "0", "--settle-time", "0")
	base := "http://" + addr
	if !waitFor(time.Minute, func() bool { code, _, _ := probe(base + "/readyz"); return code == 200 }) {
		t.Fatalf("/readyz never answered 200\n%s", p.stderr.String())
	}

	// The attacker: a request on each connection, then silence.
	held, answered := 0, 0
	for range idleConns {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			continue
		}
		defer c.Close()
		held++
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			answered++
		}
		_ = c.SetDeadline(time.Time{})
	}
	t.Logf("%d connections opened and left idle, %d of them answered", held, answered)

	for _, path := range []string{"/livez", "/readyz"} {
		code, body, err := probe(base + path)
		if err != nil || code != 200 {
			t.Fatalf("%s with %d idle connections open: %d %q %v\n%s", path, held, code, body, err, p.stderr.String())
		}
	}

	// Rotation: the file renamed, a new one with a fatal line created.
	if err := os.Rename(log, log+".1"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, logs, "server.log", serving("gen2", 256)+illegalAccess())
	var code int
	var body string
	if !waitFor(time.Minute, func() bool { code, body, _ = probe(base + "/livez"); return code == 503 }) {
		t.Fatalf("/livez did not fail after the rotated-in fatal line (last %d %q)\n%s", code, body, p.stderr.String())
	}
	if !strings.Contains(body, "cuda-illegal-memory-access") {
		t.Errorf("/livez body does not name the record:\n%s", body)
	}
	if strings.Contains(body, "illegal memory access was encountered") {
		t.Errorf("/livez body carries log text without http_probe_detail:\n%s", body)
	}
	if !waitFor(time.Minute, func() bool {
		return strings.Contains(p.stdout.String(), `"slug":"cuda-illegal-memory-access"`)
	}) {
		t.Errorf("no alert for the rotated-in fatal line\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	p.wait(time.Minute)
}

// Issue 33 finding 3, the probe body: the matched line reaches /livez
// only with http_probe_detail, and then quoted, so a control sequence in
// it (here one that sets a terminal's title) cannot reach a terminal
// reading the probe.
func TestProbeDetailIsOptInAndQuoted(t *testing.T) {
	dir := t.TempDir()
	crash := strings.Replace(illegalAccess(), "was encountered\n", "was encountered \x1b]0;pwned\x07\n", 1)
	log := writeFile(t, dir, "server.log", sglangLine("The server is fired up and ready to roll!")+crash)
	cfg := writeConfig(t, dir, "http_probe_detail: true\n")
	addr := freeAddr(t)
	p := start(t, "run", "--config", cfg, "--path", log, "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", addr, "--group-window", "0", "--settle-time", "0")
	var code int
	var body string
	if !waitFor(time.Minute, func() bool { code, body, _ = probe("http://" + addr + "/livez"); return code == 503 }) {
		t.Fatalf("/livez did not fail (last %d %q)\n%s", code, body, p.stderr.String())
	}
	if !strings.Contains(body, `CUDA error: an illegal memory access was encountered \x1b]0;pwned\a`) {
		t.Errorf("/livez body lacks the quoted line:\n%s", body)
	}
	if strings.ContainsAny(body, "\x1b\x07") {
		t.Errorf("/livez body carries a raw control character: %q", body)
	}
	p.signal(interrupt)
	p.wait(time.Minute)
}
