package logfile

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"unicode/utf8"
)

// FuzzOpen checks that any input either opens and reads to its end, or
// is refused with an error, without panicking; that plain text without a
// NUL byte or a byte order mark always reads back unchanged; and that
// UTF-16 reads back as valid UTF-8.
func FuzzOpen(f *testing.F) {
	f.Add([]byte("[2026-03-01 10:00:00] hello\n"))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3})
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0x58})
	f.Add([]byte("BZh9"))
	f.Add([]byte("\xff\xfeT\x00r\x00\n\x00=\xd8\x00\xde\x00\xdc"))
	f.Add([]byte("\xfe\xff\x00K\x00\n\xd8"))
	f.Add([]byte("\xef\xbb\xbfKilled\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := Open(bytes.NewReader(in))
		if err != nil {
			return
		}
		defer r.Close()
		// A bomb is bounded by what the fuzzer gives: read at most 64 MiB.
		got, err := io.ReadAll(io.LimitReader(r, 64<<20))
		if r.Encoding == Plain && r.Charset == UTF8 && !bytes.HasPrefix(in, []byte("\xef\xbb\xbf")) {
			if err != nil {
				t.Fatalf("plain text read failed: %v", err)
			}
			if !bytes.Equal(got, in) {
				t.Fatalf("plain text changed: %q to %q", in, got)
			}
		}
		if r.Charset != UTF8 && err == nil && !utf8.Valid(got) {
			t.Fatalf("%s read as invalid UTF-8: %q", r.Charset, got)
		}
		if errors.Is(err, ErrNotText) {
			t.Fatalf("ErrNotText after Open succeeded: %v", err)
		}
	})
}
