package faultsuite

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sglangTime formats t as sglang's record header does.
func sglangTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }

// appendLines appends lines to path, each ended by a newline.
func appendLines(t *testing.T, path string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.WriteString(l + "\n"); err != nil {
			t.Fatal(err)
		}
	}
}

// marker is an unclassified exception line of its own type: once its alert
// is on stdout, every line before it was read and matched.
func marker(name string) string {
	return fmt.Sprintf("[%s TP0] %s: marker line", sglangTime(time.Now()), name)
}

// livezAfter appends a marker, waits until its alert is out, and returns
// /livez's status then.
func livezAfter(t *testing.T, p *process, log, addr, name string) (int, string) {
	t.Helper()
	appendLines(t, log, marker(name))
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stdout.String(), name) }) {
		t.Fatalf("the marker %s was never alerted:\nstdout:\n%s\nstderr:\n%s", name, p.stdout.String(), p.stderr.String())
	}
	return get("http://" + addr + "/livez")
}

// Issue 33 finding 1: with --log-requests, sglang logs every prompt and
// output. A prompt quoting a fatal line must not fail /livez or alert; one
// quoting the start-up line must not clear a real failure; and prompts
// never use up the flap guard, so a real failure still fails the probe.
func TestLoggedPromptsDoNotDriveLiveness(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	now := sglangTime(time.Now())
	log := writeFile(t, dir, "server.log", "["+now+"] The server is fired up and ready to roll!\n")
	p := start(t, "run", "--path", log, "--state-dir", filepath.Join(dir, "state"), "--http-addr", addr,
		"--start-at", "beginning", "--settle-time", "0", "--group-window", "0")

	for i := range 7 {
		appendLines(t, log,
			fmt.Sprintf("[%s] Receive: obj=GenerateReqInput(text='quote %d: RuntimeError: CUDA error: an illegal memory access was encountered', sampling_params={'max_new_tokens': 8}, rid='r%d')", now, i, i),
			fmt.Sprintf("[%s] Finish: obj=GenerateReqInput(rid='r%d'), out={'text': 'The server is fired up and ready to roll! NCCL error: unhandled system error', 'meta_info': {'id': 'r%d'}}", now, i, i),
			fmt.Sprintf(`[%s] {"timestamp": "2026-12-04T10:00:00", "event": "request.received", "rid": "j%d", "obj": {"text": "Fatal Python error: Segmentation fault"}}`, now, i),
		)
	}
	if code, body := livezAfter(t, p, log, addr, "FirstMarkerError"); code != http.StatusOK {
		t.Fatalf("after prompts quoting fatal lines /livez = %d %q, want 200", code, body)
	}
	for _, slug := range []string{"cuda-illegal-memory-access", "nccl-unhandled-system-error", "fatal-python-error-segfault"} {
		if strings.Contains(p.stdout.String(), slug) {
			t.Errorf("a prompt quoting %s alerted:\n%s", slug, p.stdout.String())
		}
	}

	// A real failure fails the probe: the prompts used no gated restart.
	appendLines(t, log, fmt.Sprintf("[%s TP0] RuntimeError: CUDA error: an illegal memory access was encountered", sglangTime(time.Now())))
	if !waitFor(time.Minute, func() bool { code, _ := get("http://" + addr + "/livez"); return code == http.StatusServiceUnavailable }) {
		code, body := get("http://" + addr + "/livez")
		t.Fatalf("a real CUDA failure: /livez = %d %q, want 503\nstderr:\n%s", code, body, p.stderr.String())
	}
	if strings.Contains(p.stderr.String(), "held by the flap guard") {
		t.Errorf("the real failure was held by the flap guard:\n%s", p.stderr.String())
	}

	// An output quoting the start-up line is no restart.
	appendLines(t, log, fmt.Sprintf("[%s] Finish: obj=GenerateReqInput(rid='x'), out={'text': 'The server is fired up and ready to roll!'}", sglangTime(time.Now())))
	if code, body := livezAfter(t, p, log, addr, "SecondMarkerError"); code != http.StatusServiceUnavailable {
		t.Fatalf("an output quoting the start-up line cleared the failure: /livez = %d %q", code, body)
	}
	// The real start-up line is one.
	appendLines(t, log, "["+sglangTime(time.Now())+"] The server is fired up and ready to roll!")
	if !waitFor(time.Minute, func() bool { code, _ := get("http://" + addr + "/livez"); return code == http.StatusOK }) {
		t.Fatalf("the real start-up line did not clear the failure\nstderr:\n%s", p.stderr.String())
	}
}

// alertTimes returns the "time" of every alert on stdout.
func alertTimes(t *testing.T, stdout string) []time.Time {
	t.Helper()
	var out []time.Time
	for _, line := range strings.Split(stdout, "\n") {
		if !strings.Contains(line, `"schema":"logmatch.alert/v1"`) {
			continue
		}
		var a struct {
			Time time.Time `json:"time"`
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("alert %q: %v", line, err)
		}
		out = append(out, a.Time)
	}
	return out
}

// Issue 33 finding 2: log times ahead of the clock (a node clock that
// booted ahead and was stepped back, a forged stamp) never decide. A fatal
// line stamped an hour ahead is cleared by the next real start, after a
// restart of logmatch too; a start-up line stamped a day ahead does not make
// a later real failure look stale; alerts are never dated in the future.
func TestLogTimesAheadOfTheClock(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	state := filepath.Join(dir, "state")
	log := writeFile(t, dir, "server.log", "["+sglangTime(time.Now())+"] The server is fired up and ready to roll!\n")
	args := []string{"run", "--path", log, "--state-dir", state, "--http-addr", addr,
		"--start-at", "beginning", "--settle-time", "0", "--group-window", "0"}
	p := start(t, args...)

	appendLines(t, log, fmt.Sprintf("[%s TP0] RuntimeError: CUDA error: an illegal memory access was encountered", sglangTime(time.Now().Add(time.Hour))))
	if !waitFor(time.Minute, func() bool { code, _ := get("http://" + addr + "/livez"); return code == http.StatusServiceUnavailable }) {
		t.Fatalf("the failure did not fail /livez\nstderr:\n%s", p.stderr.String())
	}
	// logmatch restarts while the gate fails; the server then restarts.
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
	first := p.stdout.String()
	p = start(t, args...)
	appendLines(t, log, "["+sglangTime(time.Now())+"] The server is fired up and ready to roll!")
	if !waitFor(time.Minute, func() bool { code, _ := get("http://" + addr + "/livez"); return code == http.StatusOK }) {
		code, body := get("http://" + addr + "/livez")
		t.Fatalf("a real restart after a failure stamped an hour ahead: /livez = %d %q, want 200\nstderr:\n%s", code, body, p.stderr.String())
	}

	// A start stamped a day ahead, then a real failure now.
	appendLines(t, log,
		"["+sglangTime(time.Now().Add(24*time.Hour))+"] The server is fired up and ready to roll!",
		fmt.Sprintf("[%s TP0] RuntimeError: CUDA error: an illegal memory access was encountered", sglangTime(time.Now().Add(time.Second))))
	if !waitFor(time.Minute, func() bool { code, _ := get("http://" + addr + "/livez"); return code == http.StatusServiceUnavailable }) {
		code, body := get("http://" + addr + "/livez")
		t.Fatalf("a real failure after a start stamped a day ahead: /livez = %d %q, want 503\nstderr:\n%s", code, body, p.stderr.String())
	}
	_, metrics := get("http://" + addr + "/metrics")
	if v := metricValue(metrics, "logmatch_entry_time_ahead_total"); v < 1 {
		t.Errorf("logmatch_entry_time_ahead_total = %v, want at least 1", v)
	}
	p.signal(interrupt)
	p.wait(time.Minute)
	limit := time.Now().Add(5 * time.Second)
	for _, at := range alertTimes(t, first+p.stdout.String()) {
		if at.After(limit) {
			t.Errorf("an alert is dated %s, ahead of the clock", at)
		}
	}
}
