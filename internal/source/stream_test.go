package source

import (
	"context"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStream(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		format Format
		want   []framed
	}{
		{
			name:  "raw lines and an unterminated last line",
			input: "one\r\ntwo\nthree",
			want:  []framed{{"one", "", 0, 5, false}, {"two", "", 5, 9, false}, {"three", "", 9, 14, false}},
		},
		{
			name:   "cri framed stdin",
			input:  "2026-11-29T10:00:00Z stderr P a\n2026-11-29T10:00:00Z stderr F b\n",
			format: FormatAuto,
			want:   []framed{{"ab", "stderr", 0, 64, false}},
		},
		{
			name:  "empty input",
			input: "",
			want:  nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewStream(strings.NewReader(tc.input), StreamConfig{Format: tc.format})
			if err != nil {
				t.Fatal(err)
			}
			got := &collector{}
			if err := s.Run(context.Background(), got.emit); err != nil {
				t.Fatalf("Run: %v", err)
			}
			var frames []framed
			for _, l := range got.all() {
				frames = append(frames, framed{l.Text, l.Stream, l.Offset, l.Next, l.Truncated})
				if l.Source != "stdin" || l.File != (FileID{}) || l.Time.IsZero() {
					t.Errorf("line %q: source %q file %v time %v", l.Text, l.Source, l.File, l.Time)
				}
			}
			if diff := cmp.Diff(tc.want, frames); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStreamStopsOnCancel(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	s, err := NewStream(r, StreamConfig{Source: "pipe"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan Line)
	done := make(chan error, 1)
	go func() {
		done <- s.Run(ctx, func(_ context.Context, l Line) error { got <- l; return nil })
	}()
	if _, err := io.WriteString(w, "hello\n"); err != nil {
		t.Fatal(err)
	}
	if l := <-got; l.Text != "hello" {
		t.Errorf("line = %q", l.Text)
	}
	cancel() // Run is blocked in Read: cancelling must unblock it
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v", err)
	}
}

func TestStreamEmitError(t *testing.T) {
	s, err := NewStream(strings.NewReader("a\nb\n"), StreamConfig{})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Run(context.Background(), func(context.Context, Line) error { return errStop })
	if err != errStop {
		t.Errorf("Run = %v, want the emit error", err)
	}
}

// TestStreamStopsBlockingFile covers stdin as a process inherits it: a pipe
// in blocking mode, which only the non-blocking copy can stop.
func TestStreamStopsBlockingFile(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "writer")
	defer r.Close()
	defer w.Close()
	s, err := NewStream(r, StreamConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan Line, 1)
	done := make(chan error, 1)
	go func() {
		done <- s.Run(ctx, func(_ context.Context, l Line) error { got <- l; return nil })
	}()
	if _, err := w.WriteString("from stdin\n"); err != nil {
		t.Fatal(err)
	}
	if l := <-got; l.Text != "from stdin" || l.Source != "stdin" {
		t.Errorf("line = %+v", l.Line)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v", err)
	}
}

// chunkReader returns one chunk per Read.
type chunkReader struct{ chunks []string }

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	r.chunks[0] = r.chunks[0][n:]
	if r.chunks[0] == "" {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

// A raw line is stamped with the time of the read that completed it: the
// clock is read once per read, however many lines the read brought.
func TestStreamStampsLinesPerRead(t *testing.T) {
	base := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	calls := 0
	now := func() time.Time {
		calls++
		return base.Add(time.Duration(calls) * time.Second)
	}
	r := &chunkReader{chunks: []string{"a\nb\nc", "d\ne\n", "f"}}
	s, err := NewStream(r, StreamConfig{Format: FormatRaw, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	got := &collector{}
	if err := s.Run(context.Background(), got.emit); err != nil {
		t.Fatalf("Run: %v", err)
	}
	stamps := map[string]int{}
	for _, l := range got.all() {
		stamps[l.Text] = int(l.Time.Sub(base) / time.Second)
	}
	want := map[string]int{"a": 1, "b": 1, "cd": 2, "e": 2, "f": 3}
	if diff := cmp.Diff(want, stamps); diff != "" {
		t.Errorf("read time per line, in clock readings (-want +got):\n%s", diff)
	}
	if calls != 3 {
		t.Errorf("clock read %d times for 3 reads", calls)
	}
}

// TestStreamBorrowedLinesMatchCopies reads the same inputs with and
// without StreamConfig.Borrow, one byte or half a buffer a read so that
// lines straddle reads, and wants the same lines when each borrowed text
// is copied inside Emit.
func TestStreamBorrowedLinesMatchCopies(t *testing.T) {
	const ts = "2026-11-29T10:00:00.123456789Z"
	long := strings.Repeat("x", 3000)
	inputs := map[string]string{
		"raw":    "one\r\ntwo\n\n" + long + "\n[2026-11-29 10:00:00 TP0] hello\nunterminated",
		"cri":    ts + " stdout P a\n" + ts + " stderr P b\n" + ts + " stdout F c\n" + ts + " stderr F " + long + "\nnot cri\n",
		"docker": `{"log":"hi\n","stream":"stderr","time":"` + ts + `"}` + "\n" + `{"log":"par","stream":"stdout"}` + "\n" + `{"log":"tial\n","stream":"stdout"}` + "\nplain\n",
	}
	read := func(input string, borrow bool, wrap func(io.Reader) io.Reader) []framed {
		t.Helper()
		s, err := NewStream(wrap(strings.NewReader(input)), StreamConfig{MaxLineBytes: 1024, Borrow: borrow, Now: func() time.Time { return time.Unix(1, 0) }})
		if err != nil {
			t.Fatal(err)
		}
		var out []framed
		err = s.Run(context.Background(), func(_ context.Context, l Line) error {
			out = append(out, framed{strings.Clone(l.Text), l.Stream, l.Offset, l.Next, l.Truncated})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for name, input := range inputs {
		for wname, wrap := range map[string]func(io.Reader) io.Reader{"one byte": iotest.OneByteReader, "half": iotest.HalfReader} {
			want, got := read(input, false, wrap), read(input, true, wrap)
			if len(want) < 3 {
				t.Fatalf("%s: only %d lines", name, len(want))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %s reads: borrowed lines differ (-copied +borrowed):\n%s", name, wname, diff)
			}
		}
	}
}

// referenceLines frames data as the splitter and the framer do, one
// physical line at a time: what a Stream must deliver.
func referenceLines(data string, format Format, max int) []framed {
	sp := newSplitter(strings.NewReader(data), physicalBound(format, max))
	fr := newFramer(format, max)
	var pos int64
	var out []framed
	keep := func(f frame) error {
		out = append(out, framed{string(f.text), f.stream, f.offset, fr.resume(pos), f.truncated})
		return nil
	}
	for {
		b, raw, c, err := sp.next()
		if err != nil {
			break
		}
		off := pos
		pos += raw
		fr.push(b, off, pos, c, keep)
	}
	if b, raw, c, ok := sp.flush(); ok {
		off := pos
		pos += raw
		fr.push(b, off, pos, c, keep)
	}
	fr.flush(keep)
	return out
}

// FuzzStreamLines checks the lines a Stream delivers, raw ones cut in its
// read buffer and lines across reads alike, against the splitter and the
// framer line by line, with small bounds and reads of a few bytes.
func FuzzStreamLines(f *testing.F) {
	f.Add("a\nbb\r\nccc", uint8(2), uint8(3), false)
	f.Add("abcde\r\nabcd\r\n\r\n\n", uint8(4), uint8(200), true)
	f.Add("\n\nx\n"+strings.Repeat("y", 300)+"\r\nz", uint8(7), uint8(50), false)
	f.Add("2026-11-29T10:00:00Z stdout P a\n2026-11-29T10:00:00Z stdout F b\nraw\r\n", uint8(60), uint8(9), false)
	f.Fuzz(func(t *testing.T, data string, max, chunk uint8, raw bool) {
		m := int(max%64) + 1
		format := FormatAuto
		if raw {
			format = FormatRaw
		}
		want := referenceLines(data, format, m)
		var parts []string
		for s, size := data, int(chunk%32)+1; s != ""; {
			n := min(size, len(s))
			parts = append(parts, s[:n])
			s = s[n:]
		}
		s, err := NewStream(&chunkReader{chunks: parts}, StreamConfig{Format: format, MaxLineBytes: m, Borrow: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []framed
		err = s.RunLent(context.Background(), func(l *Line) error {
			got = append(got, framed{strings.Clone(l.Text), l.Stream, l.Offset, l.Next, l.Truncated})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("stream lines differ from the splitter's and framer's (-want +got):\n%s", diff)
		}
	})
}
