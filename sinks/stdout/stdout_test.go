package stdout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

func TestSendWritesOneJSONLinePerAlert(t *testing.T) {
	var buf bytes.Buffer
	s := New(&buf)
	a := &sinks.Alert{
		Schema: sinks.Schema, Fingerprint: "f1", Count: 2, Kind: "new",
		Time:   time.Date(2026, 5, 28, 0, 11, 9, 0, time.UTC),
		Record: sinks.Record{ID: "a4a00f79b8728e30", Slug: "ascend", Severity: "critical", Solutions: []string{"fix <it>"}},
		Entry:  "line one\nline two",
	}
	for i := 0; i < 2; i++ {
		if retry, err := s.Send(context.Background(), a); err != nil || retry {
			t.Fatalf("Send = %v, %v", retry, err)
		}
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2:\n%s", len(lines), buf.String())
	}
	var got sinks.Alert
	if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got.Record.ID != a.Record.ID || got.Count != 2 || got.Entry != a.Entry || got.Record.Solutions[0] != "fix <it>" {
		t.Fatalf("round trip = %+v", got)
	}
	if !strings.Contains(lines[0], "fix <it>") {
		t.Fatalf("HTML escaped: %s", lines[0])
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestSendWriteErrorIsPermanent(t *testing.T) {
	retry, err := New(failWriter{}).Send(context.Background(), &sinks.Alert{Schema: sinks.Schema})
	if err == nil || retry {
		t.Fatalf("Send = %v, %v; want a permanent error", retry, err)
	}
}

// lineChecker fails the test when a Write is not exactly one whole line.
type lineChecker struct {
	mu    sync.Mutex
	t     *testing.T
	lines int
}

func (c *lineChecker) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if bytes.Count(b, []byte("\n")) != 1 || b[len(b)-1] != '\n' {
		c.t.Errorf("write is not one line: %q", b)
	}
	c.lines++
	return len(b), nil
}

func TestConcurrentSendsDoNotInterleave(t *testing.T) {
	c := &lineChecker{t: t}
	s := New(c)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				s.Send(context.Background(), &sinks.Alert{Schema: sinks.Schema, Entry: strings.Repeat("x", 5000)})
			}
		}()
	}
	wg.Wait()
	if c.lines != 400 {
		t.Fatalf("lines = %d, want 400", c.lines)
	}
}

// TestSendEncodedWritesWhatSendWrites checks that the queued JSON handed to
// SendEncoded gives the line Send gives for the alert decoded from it: the
// delivery loop's shortcut changes nothing a reader of the output sees.
func TestSendEncodedWritesWhatSendWrites(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.FixedZone("UTC+8", 8*3600))
	a := &sinks.Alert{
		Schema: sinks.Schema, Fingerprint: "9f2c1e0a77b3d401", Time: t0, LastTime: t0.Add(3 * time.Second),
		Count: 2, Kind: "new", Ranks: []string{"TP0", "TP1"},
		Record: sinks.Record{ID: "a4a00f79b8728e30", Severity: "critical", ErrorClass: "RuntimeError",
			Solutions: []string{"Check <the> metadata & store URL.", "ünïcode \u2028 separators"}},
		Match: sinks.Match{Text: "x", Groups: map[string]string{"b": "2", "a": "1"},
			Exception: &sinks.Exception{Type: "RuntimeError", Message: "m", Stacktrace: "Traceback\n  x"}},
		Source: sinks.Source{Path: "/var/log/a.log", Offset: 18234, Stream: "stderr"},
		Entry:  "line one\nline two\t\x01",
	}
	payload, err := sinks.AlertJSON(a)
	if err != nil {
		t.Fatal(err)
	}
	var decoded sinks.Alert
	if err := json.Unmarshal(payload, &decoded); err != nil {
		t.Fatal(err)
	}
	var viaSend, viaEncoded bytes.Buffer
	if _, err := New(&viaSend).Send(context.Background(), &decoded); err != nil {
		t.Fatal(err)
	}
	if retry, err := New(&viaEncoded).SendEncoded(context.Background(), payload); err != nil || retry {
		t.Fatalf("SendEncoded = %v, %v", retry, err)
	}
	if viaSend.String() != viaEncoded.String() {
		t.Errorf("SendEncoded wrote\n%s\nSend of the decoded alert wrote\n%s", viaEncoded.String(), viaSend.String())
	}
	if retry, err := New(failWriter{}).SendEncoded(context.Background(), payload); err == nil || retry {
		t.Errorf("SendEncoded to a broken stream = %v, %v; want a permanent error", retry, err)
	}
}
