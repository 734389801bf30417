package pipeline

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

// A line read from standard input reaches the processor while the input
// stays open: the stream's batch is handed on before the next read, which
// blocks, not when 128 lines are held or the input ends.
func TestStdinLineAlertsWhileTheInputStaysOpen(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog.jsonl")
	if err := os.WriteFile(catalog, []byte(recordA+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := runConfig([]string{
		"--path", "-", "--catalog", catalog, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--group-window", "0", "--http-addr", "",
	}, func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	stdin, feed := io.Pipe()
	out := &lockedBuffer{}
	p, err := New(context.Background(), Options{
		Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Stdin: stdin, Stdout: out, Stderr: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Run(context.Background()) }()
	// The second line completes the first entry.
	if _, err := io.WriteString(feed, "[2026-05-28 00:11:09 TP0] alpha failure in step 1\n[2026-05-28 00:11:10 TP0] next\n"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the alert with standard input still open", func() bool { return out.hasSlug(t, "record-a") })
	feed.Close()
	waitRun(t, done, "at the end of standard input")
}
