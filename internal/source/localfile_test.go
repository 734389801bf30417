package source

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeTemp writes content to a new file and opens it.
func writeTemp(t *testing.T, content string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scan.log")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// readFramed runs a Stream over r through RunLent and copies what each
// lent Line holds.
func readFramed(t *testing.T, r interface{ Read([]byte) (int, error) }, cfg StreamConfig) []framed {
	t.Helper()
	cfg.Now = func() time.Time { return time.Unix(1, 0) }
	s, err := NewStream(r, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []framed
	err = s.RunLent(context.Background(), func(l *Line) error {
		out = append(out, framed{strings.Clone(l.Text), l.Stream, l.Offset, l.Next, l.Truncated})
		if l.Source != cfg.Source || (l.Stream == "" && l.End != l.Next) {
			t.Errorf("line %q: source %q end %d next %d", l.Text, l.Source, l.End, l.Next)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A regular file is read with raw reads where they are made, and gives
// the lines a reader of the same bytes gives: lines longer than the read
// buffer and the bound, CRLF, an unterminated last line.
func TestStreamLocalFileMatchesReader(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "[2026-11-29 10:00:00 TP%d] line %d\r\n", i%8, i)
		if i%1000 == 999 {
			b.WriteString(strings.Repeat("y", streamBufferSize+100) + "\n")
		}
	}
	b.WriteString("unterminated")
	content := b.String()
	for _, format := range []Format{FormatAuto, FormatRaw} {
		cfg := StreamConfig{Source: "scan.log", Format: format, MaxLineBytes: 64 << 10, Borrow: true}
		f := writeTemp(t, content)
		s, err := NewStream(f, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, raw := s.r.(*localFile); raw != (rawDescriptor(f) >= 0) {
			t.Errorf("%s: read raw %v, raw descriptor %d", format, raw, rawDescriptor(f))
		}
		want := readFramed(t, strings.NewReader(content), cfg)
		got := readFramed(t, f, cfg)
		if len(want) != 5006 {
			t.Fatalf("%s: %d lines from the reader", format, len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: file lines differ from reader lines (-reader +file):\n%s", format, diff)
		}
	}
}

// Cancelling the context stops a file's raw reads: the lines of the
// buffer read are delivered, no more.
func TestStreamLocalFileStopsOnCancel(t *testing.T) {
	line := strings.Repeat("z", 99) + "\n"
	const total = 3 * streamBufferSize / 100
	f := writeTemp(t, strings.Repeat(line, total))
	s, err := NewStream(f, StreamConfig{Source: "scan.log"})
	if err != nil {
		t.Fatal(err)
	}
	lf, ok := s.r.(*localFile)
	if !ok {
		t.Skip("no raw reads here")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	err = s.RunLent(ctx, func(*Line) error {
		if n++; n == 1 {
			cancel()
			// The context stops the reads from a goroutine of its own.
			waitFor(t, "the reads to stop", lf.stopped.Load)
		}
		return nil
	})
	if err != nil {
		t.Errorf("RunLent after cancel: %v", err)
	}
	if n == 0 || n >= total {
		t.Errorf("%d of %d lines delivered after a cancel at the first", n, total)
	}
}
