package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// slackEmulator answers like a Slack incoming webhook ("ok") and keeps
// every message posted to it.
type slackEmulator struct {
	srv  *httptest.Server
	mu   sync.Mutex
	msgs []slackMessage
}

type slackMessage struct {
	Text   string `json:"text"`
	Blocks []struct {
		Type string `json:"type"`
		Text *struct {
			Text string `json:"text"`
		} `json:"text"`
		Fields []struct {
			Text string `json:"text"`
		} `json:"fields"`
		Elements []struct {
			Text string `json:"text"`
		} `json:"elements"`
	} `json:"blocks"`
}

// all is every text of the message, blocks included, one per line.
func (m slackMessage) all() string {
	parts := []string{m.Text}
	for _, b := range m.Blocks {
		if b.Text != nil {
			parts = append(parts, b.Text.Text)
		}
		for _, f := range b.Fields {
			parts = append(parts, f.Text)
		}
		for _, e := range b.Elements {
			parts = append(parts, e.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func newSlackEmulator(t *testing.T) *slackEmulator {
	e := &slackEmulator{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m slackMessage
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil || len(m.Blocks) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte("invalid_payload"))
			return
		}
		e.mu.Lock()
		e.msgs = append(e.msgs, m)
		e.mu.Unlock()
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *slackEmulator) messages() []slackMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]slackMessage(nil), e.msgs...)
}

// waitFor polls until at least n messages arrived or the deadline passes.
func (e *slackEmulator) waitFor(n int, within time.Duration) []slackMessage {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if ms := e.messages(); len(ms) >= n {
			return ms
		}
		time.Sleep(50 * time.Millisecond)
	}
	return e.messages()
}

// crashLines splits the crash scenario written by gen.py into the crash
// itself (TP3's out-of-memory traceback and the parent's SIGQUIT) and the
// peers' NCCL watchdog lines that follow it.
func crashLines(t *testing.T) (crash, peers string) {
	t.Helper()
	b, err := os.ReadFile("../../testdata/logs/crash-tp3.log")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "[rank0]:")
	if i < 0 {
		t.Fatal("crash-tp3.log has no peer lines; regenerate with go generate ./cmd/logmatch")
	}
	return s[:i], s[i:]
}

// startTailing runs logmatch on logDir/*.log with the default catalog and
// a Slack sink pointed at the emulator.
func startTailing(t *testing.T, h *harness, slackURL, window string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(binary, "run",
		"--path", filepath.Join(h.logDir, "*.log"),
		"--state-dir", h.state,
		"--http-addr", "127.0.0.1:0",
		"--settle-time", "2s",
		"--group-window", window,
		"--correlation-window", "15m",
		"--sink", "slack="+slackURL,
	), done: make(chan error, 1)}
	h.collect(p)
	return p
}

// One crash, one page: the out-of-memory cause on TP3, its solutions and
// link, with the parent's SIGQUIT and the seven peers' NCCL timeouts
// inside it.
func TestRunCrashIsOneSlackMessage(t *testing.T) {
	slack := newSlackEmulator(t)
	h := newHarness(t)
	crash, peers := crashLines(t)
	if err := os.WriteFile(filepath.Join(h.logDir, "server.log"), []byte(crash+peers), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startTailing(t, h, slack.srv.URL+"/services/T0/B0/x", "5m")
	msgs := slack.waitFor(1, 30*time.Second)
	// Give a wrong second page (a consequence alerted alone) its chance:
	// more than the settle time, far less than the group window.
	time.Sleep(3 * time.Second)
	p.stop(t)
	msgs = slack.messages()
	if len(msgs) != 1 {
		var texts []string
		for _, m := range msgs {
			texts = append(texts, m.Text)
		}
		t.Fatalf("%d Slack messages, want exactly one: %q\nlog:\n%s", len(msgs), texts, p.logs())
	}
	body := msgs[0].all()
	for _, want := range []string{
		"cuda-out-of-memory",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3", // the real line, not the template
		"DP0 TP3",
		"--mem-fraction-static", // its first solution
		"https://github.com/pytorch/pytorch/issues?q=",
		"received-sigquit-from-child",
		"nccl-watchdog-collective-timeout ×7 on rank0-2,4-7",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the message does not contain %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "{size}") {
		t.Errorf("the message shows the catalog's template:\n%s", body)
	}
}

// The peers' timeouts arrive after the page went out: they update the
// open incident (a summary of it), never a page of their own.
func TestRunLateConsequenceIsNoNewPage(t *testing.T) {
	slack := newSlackEmulator(t)
	h := newHarness(t)
	crash, peers := crashLines(t)
	path := filepath.Join(h.logDir, "server.log")
	if err := os.WriteFile(path, []byte(crash), 0o644); err != nil {
		t.Fatal(err)
	}
	// A short group window, so the incident's summary comes soon.
	p := startTailing(t, h, slack.srv.URL+"/services/T0/B0/x", "6s")
	first := slack.waitFor(1, 30*time.Second)
	if len(first) != 1 || strings.Contains(first[0].all(), "nccl-watchdog") {
		t.Fatalf("before the peers' lines: %d messages, want one without them; log:\n%s", len(first), p.logs())
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(peers); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	msgs := slack.waitFor(2, 30*time.Second)
	time.Sleep(time.Second)
	p.stop(t)
	msgs = slack.messages()
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want the page and one summary; log:\n%s", len(msgs), p.logs())
	}
	second := msgs[1].all()
	if !strings.HasPrefix(msgs[1].Text, "[×") || !strings.Contains(second, "cuda-out-of-memory") ||
		!strings.Contains(second, "nccl-watchdog-collective-timeout ×7 on rank0-2,4-7") {
		t.Fatalf("the second message is not the incident's summary with the peers in it:\n%s", second)
	}
	if !strings.Contains(second, "olutions") || !strings.Contains(second, "<https://") {
		t.Errorf("the summary lacks its solutions or link:\n%s", second)
	}
}

// Every message the example log sends to Slack shows a solution and a
// link, digests included.
func TestRunExampleLogEveryMessageHasTheFix(t *testing.T) {
	slack := newSlackEmulator(t)
	in, err := os.ReadFile("../../examples/sglang-crash.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "run", "--path", "-", "--state-dir", t.TempDir(), "--http-addr", "127.0.0.1:0",
		"--sink", "slack="+slack.srv.URL+"/services/T0/B0/x")
	cmd.Stdin = bytes.NewReader(in)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	msgs := slack.messages()
	if len(msgs) == 0 {
		t.Fatal("no Slack message")
	}
	for i, m := range msgs {
		body := m.all()
		hasSolution := strings.Contains(body, "Solutions") || strings.Contains(body, "Top solutions") || strings.Contains(body, ":bulb:")
		if !hasSolution || !strings.Contains(body, "<https://") {
			t.Errorf("message %d (%s) lacks a solution or a link:\n%s", i, m.Text, body)
		}
		if strings.Contains(m.Text, "received-sigquit-from-child") || strings.Contains(m.Text, "sigquit-received-child-failed") {
			t.Errorf("message %d pages a consequence whose cause is in the log: %s", i, m.Text)
		}
	}
}

// runStdinToSlack runs logmatch on log as standard input with a Slack sink
// and returns the messages Slack received.
func runStdinToSlack(t *testing.T, log string) []slackMessage {
	t.Helper()
	slack := newSlackEmulator(t)
	cmd := exec.Command(binary, "run", "--path", "-", "--state-dir", t.TempDir(), "--http-addr", "127.0.0.1:0",
		"--sink", "slack="+slack.srv.URL+"/services/T0/B0/x")
	cmd.Stdin = strings.NewReader(log)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	return slack.messages()
}

// The peers' timeouts and the parent's SIGQUIT with no cause in sight: it
// may be all there is, so it is alerted.
func TestRunConsequenceWithoutRootCauseIsAlerted(t *testing.T) {
	crash, peers := crashLines(t)
	i := strings.Index(crash, "[2026-05-28 00:11:22] Received sigquit")
	if i < 0 {
		t.Fatal("crash-tp3.log has no SIGQUIT line")
	}
	msgs := runStdinToSlack(t, crash[i:]+peers)
	var slugs []string
	for _, m := range msgs {
		slugs = append(slugs, m.Text)
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0].Text, "received-sigquit-from-child") ||
		!strings.Contains(msgs[1].Text, "nccl-watchdog-collective-timeout") {
		t.Fatalf("messages %q, want the SIGQUIT and the NCCL timeouts, each alerted", slugs)
	}
	if body := msgs[1].all(); !strings.Contains(body, "rank0-2,4-7") || !strings.Contains(body, "olutions") {
		t.Errorf("the NCCL alert lacks its ranks or solutions:\n%s", body)
	}
}

// Two different failures in one burst are two incidents; the parent's
// SIGQUIT goes into the first.
func TestRunTwoRootCausesAreTwoIncidents(t *testing.T) {
	log := `[2026-05-28 00:11:20 DP0 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 10, in forward_extend
    raise OutOfMemoryError(
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.15 GiB of which 1.12 GiB is free.
[2026-05-28 00:11:20 DP0 TP5] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 12, in forward_decode
    torch.cuda.synchronize()
RuntimeError: CUDA error: an illegal memory access was encountered
[2026-05-28 00:11:21] Received sigquit from a child process. It usually means the child failed.
`
	msgs := runStdinToSlack(t, log)
	var texts []string
	for _, m := range msgs {
		texts = append(texts, m.Text)
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0].Text, "cuda-out-of-memory") || !strings.Contains(msgs[1].Text, "cuda-illegal-memory-access") {
		t.Fatalf("messages %q, want the out-of-memory and the illegal memory access", texts)
	}
	if !strings.Contains(msgs[0].all(), "received-sigquit-from-child") || strings.Contains(msgs[1].all(), "received-sigquit-from-child") {
		t.Errorf("the SIGQUIT belongs to the first incident only:\n%s\n---\n%s", msgs[0].all(), msgs[1].all())
	}
}
