package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Lines are lent from the tailer's read buffer to the batcher, and entries
// from the assemblers' reused memory to the processor. Alerts found among
// many thousands of lines (many reads, batches and reused buffers) must
// still carry exactly the text that was written: a string kept from lent
// memory would show another line's bytes.
func TestAlertsKeepTheirTextAcrossReusedBuffers(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog.jsonl")
	rec := `{"id":"c000000000000001","slug":"numbered","messagePattern":"numbered failure (?<n>\\d+) of (?<what>\\w+)","severity":"error","solutions":["x"]}`
	if err := os.WriteFile(catalog, []byte(rec+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "app.log")
	var b strings.Builder
	const failures = 20
	for i := range failures {
		for j := range 700 {
			fmt.Fprintf(&b, "[2026-05-28 00:11:09 TP%d] Decode batch, #running-req: %d, #token: %d, token usage: 0.%02d\n", i%8, j, i*j, j%100)
		}
		fmt.Fprintf(&b, "[2026-05-28 00:11:10 TP%d] numbered failure %d of step%d\n", i%8, i, i)
		if i%2 == 1 { // every other one with a traceback under it
			fmt.Fprintf(&b, "Traceback (most recent call last):\n  File \"/srv/step%d.py\", line %d, in run\nRuntimeError: numbered failure %d of step%d\n", i, 10+i, i, i)
		}
	}
	b.WriteString("[2026-05-28 00:11:11 TP0] the end\n")
	if err := os.WriteFile(logPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := runConfig([]string{
		"--path", logPath, "--start-at", "beginning", "--catalog", catalog, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--group-window", "0", "--http-addr", "",
	}, func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	p, err := New(context.Background(), Options{
		Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Stdin: strings.NewReader(""), Stdout: out, Stderr: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	eventually(t, "an alert for every failure", func() bool { return len(out.alerts(t)) >= failures })
	cancel()
	waitRun(t, done, "after cancel")
	seen := map[string]bool{}
	for _, a := range out.alerts(t) {
		n, what := a.Match.Groups["n"], a.Match.Groups["what"]
		line := fmt.Sprintf("numbered failure %s of %s", n, what)
		if what != "step"+n || !strings.HasSuffix(a.Match.Text, line) {
			t.Errorf("alert %s: match %q with groups n=%q what=%q", a.Fingerprint, a.Match.Text, n, what)
			continue
		}
		var i int
		fmt.Sscan(n, &i)
		head := fmt.Sprintf("[2026-05-28 00:11:10 TP%d] numbered failure %d of step%d", i%8, i, i)
		if !strings.HasPrefix(a.Entry, head) {
			t.Errorf("alert for %d: entry %q does not start with %q", i, a.Entry, head)
		}
		if i%2 == 1 {
			if a.Match.Exception == nil || a.Match.Exception.Type != "RuntimeError" || !strings.Contains(a.Entry, fmt.Sprintf(`File "/srv/step%d.py", line %d, in run`, i, 10+i)) {
				t.Errorf("alert for %d: exception %+v, entry %q", i, a.Match.Exception, a.Entry)
			}
		}
		seen[n] = true
	}
	if len(seen) != failures {
		t.Errorf("alerts for %d distinct failures, want %d", len(seen), failures)
	}
}
