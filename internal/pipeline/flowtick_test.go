package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// While the tailer flows (one file written every millisecond), the tick's
// work is done after its passes: an entry of another file, complete only
// once it has been idle (its failure is the file's last line), still
// completes and alerts while the flow goes on.
func TestIdleEntryAlertsWhileAnotherFileFlows(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join(dir, "catalog.jsonl")
	if err := os.WriteFile(catalog, []byte(recordA+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	busy, err := os.Create(filepath.Join(logs, "busy.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	quiet := filepath.Join(logs, "quiet.log")
	if err := os.WriteFile(quiet, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := runConfig([]string{
		"--path", filepath.Join(logs, "*.log"), "--catalog", catalog, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--group-window", "0", "--http-addr", "127.0.0.1:0",
	}, func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	p, err := New(context.Background(), Options{
		Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Stdout: out, Stderr: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()

	// The writer stops when the alert came or the test ends.
	stop := make(chan struct{})
	written := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				written <- nil
				return
			case <-time.After(time.Millisecond):
			}
			if _, err := fmt.Fprintf(busy, "[2026-05-28 00:11:09 TP0] Decode batch %d, #running-req: 41\n", i); err != nil {
				written <- err
				return
			}
		}
	}()
	eventually(t, "the busy file's lines to be read", func() bool {
		return p.tailer.Load() != nil && p.tailer.Load().Coverage().Open == 2
	})
	if err := os.WriteFile(quiet, []byte("[2026-05-28 00:11:09 TP0] alpha failure in step 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the idle entry's alert while the other file flows", func() bool { return out.hasSlug(t, "record-a") })
	close(stop)
	if err := <-written; err != nil {
		t.Fatal(err)
	}
	cancel()
	waitRun(t, done, "after cancel")
}
