package logfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/klauspost/compress/zstd"
)

const sample = "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nRuntimeError: CUDA error: out of memory\n"

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zst(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readAll(t *testing.T, in []byte) (string, Encoding, error) {
	t.Helper()
	r, err := Open(bytes.NewReader(in))
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return string(b), r.Encoding, err
}

func TestOpenReadsText(t *testing.T) {
	long := strings.Repeat(sample, 2000) // past every peek and buffer
	tests := []struct {
		name string
		in   []byte
		want string
		enc  Encoding
	}{
		{"plain", []byte(sample), sample, Plain},
		{"empty", nil, "", Plain},
		{"shorter than a magic", []byte("ok"), "ok", Plain},
		{"gzip", gz(t, sample), sample, Gzip},
		{"gzip long", gz(t, long), long, Gzip},
		{"gzip members concatenated", append(gz(t, sample), gz(t, "second member\n")...), sample + "second member\n", Gzip},
		{"zstd", zst(t, sample), sample, Zstd},
		{"zstd long", zst(t, long), long, Zstd},
		{"zstd frames concatenated", append(zst(t, sample), zst(t, "second frame\n")...), sample + "second frame\n", Zstd},
		{"leading hole of a copytruncate", append(make([]byte, 300), sample...), string(make([]byte, 300)) + sample, Plain},
		{"latin-1 text", []byte("caf\xe9 ok\n"), "caf\xe9 ok\n", Plain},
		{"NUL past the sniffed start", append([]byte(strings.Repeat("x", sniffBytes)), 0), strings.Repeat("x", sniffBytes) + "\x00", Plain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, enc, err := readAll(t, tt.in)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if got != tt.want {
				t.Errorf("text: got %d bytes %.60q, want %d bytes %.60q", len(got), got, len(tt.want), tt.want)
			}
			if enc != tt.enc {
				t.Errorf("encoding: got %s, want %s", enc, tt.enc)
			}
		})
	}
}

func TestOpenRefusesWhatIsNotText(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"bzip2", []byte("BZh91AY&SY\x00\x01"), "bzip2 compressed"},
		{"xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0x00, 0, 4}, "xz compressed"},
		{"lz4", []byte{0x04, 0x22, 0x4d, 0x18, 1, 2}, "lz4 compressed"},
		{"zip", []byte("PK\x03\x04\x14\x00"), "zip archive"},
		{"ELF", []byte("\x7fELF\x02\x01\x01\x00"), "ELF binary"},
		{"binary", []byte("abc\x00\x01\x02"), "binary data (a NUL byte at offset 3)"},
		{"binary after a hole", append(make([]byte, 10), "ab\x00"...), "a NUL byte at offset 12"},
		{"gzip of binary", gz(t, "x\x00y"), "gzip compressed binary data"},
		{"zstd of binary", zst(t, "x\x00y"), "zstd compressed binary data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readAll(t, tt.in)
			if !errors.Is(err, ErrNotText) {
				t.Fatalf("got %v, want ErrNotText", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

func TestOpenNamesTheDecompressorOfACorruptFile(t *testing.T) {
	long := strings.Repeat(sample, 500)
	half := func(b []byte) []byte { return b[:len(b)/2] }
	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"gzip cut short", half(gz(t, long)), "gzip: unexpected EOF"},
		{"gzip bad header", []byte{0x1f, 0x8b, 0x99, 0, 0, 0, 0, 0, 0, 0}, "gzip: "},
		{"zstd cut short", half(zst(t, long)), "zstd: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readAll(t, tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
			if errors.Is(err, ErrNotText) {
				t.Errorf("a corrupt file is not ErrNotText: %v", err)
			}
		})
	}
}

// requireTool finds a command, skipping without it unless
// LOGMATCH_TEST_REQUIRE_TOOLS=1 (CI), where it must be there.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s not found and LOGMATCH_TEST_REQUIRE_TOOLS=1: %v", name, err)
		}
		t.Skipf("%s not found: %v", name, err)
	}
	return p
}

// TestOpenReadsWhatTheRealToolsWrite reads files compressed by the gzip
// and zstd commands logrotate runs (compresscmd), at their usual levels.
func TestOpenReadsWhatTheRealToolsWrite(t *testing.T) {
	text := strings.Repeat(sample, 300)
	for _, tc := range []struct {
		tool string
		args []string
		enc  Encoding
	}{
		{"gzip", []string{"-9"}, Gzip},
		{"zstd", []string{"-q", "-19"}, Zstd},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			bin := requireTool(t, tc.tool)
			p := filepath.Join(t.TempDir(), "server.log.1")
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(bin, append(tc.args, p)...).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v: %s", tc.tool, err, out)
			}
			ext := map[string]string{"gzip": ".gz", "zstd": ".zst"}[tc.tool]
			in, err := os.ReadFile(p + ext)
			if err != nil {
				t.Fatal(err)
			}
			got, enc, err := readAll(t, in)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if got != text || enc != tc.enc {
				t.Errorf("got %d bytes as %s, want %d as %s", len(got), enc, len(text), tc.enc)
			}
		})
	}
}

func TestLazyOpensAtTheFirstRead(t *testing.T) {
	src := &countReads{r: bytes.NewReader(gz(t, sample))}
	l := Lazy(src)
	if src.n != 0 {
		t.Fatalf("Lazy read %d times before its first Read", src.n)
	}
	got, err := io.ReadAll(l)
	if err != nil || string(got) != sample {
		t.Fatalf("got %q, %v", got, err)
	}
	l.Close()
	_, err = io.ReadAll(Lazy(strings.NewReader("a\x00b")))
	if !errors.Is(err, ErrNotText) {
		t.Errorf("binary through Lazy: got %v, want ErrNotText", err)
	}
}

type countReads struct {
	r io.Reader
	n int
}

func (c *countReads) Read(p []byte) (int, error) { c.n++; return c.r.Read(p) }

// TestOpenReadsUTF16: a log a Windows tool wrote in UTF-16 with its byte
// order mark (PowerShell 5's redirect, a .NET program, Notepad's
// "Unicode"), either byte order, reads as UTF-8, characters outside the
// basic plane too; a UTF-8 byte order mark is dropped; a broken pair or
// a last odd byte reads as U+FFFD.
func TestOpenReadsUTF16(t *testing.T) {
	const text = "[2025-11-06 02:10:00] Traceback (most recent call last):\r\nRuntimeError: CUDA error: out of memory \U0001F525 – 显存不足\r\n"
	enc := func(little bool, s string) []byte {
		out := []byte{0xfe, 0xff}
		if little {
			out = []byte{0xff, 0xfe}
		}
		for _, u := range utf16.Encode([]rune(s)) {
			if little {
				out = append(out, byte(u), byte(u>>8))
			} else {
				out = append(out, byte(u>>8), byte(u))
			}
		}
		return out
	}
	for _, c := range []struct {
		name    string
		in      []byte
		want    string
		charset Charset
	}{
		{"utf-16le", enc(true, text), text, UTF16LE},
		{"utf-16be", enc(false, text), text, UTF16BE},
		{"utf-8 with a byte order mark", append([]byte{0xef, 0xbb, 0xbf}, text...), text, UTF8},
		{"a high surrogate alone, then an odd byte", append(enc(true, "a"), 0x3d, 0xd8, 0x62, 0x00, 0x63), "a\uFFFDb\uFFFD", UTF16LE},
	} {
		r, err := Open(bytes.NewReader(c.in))
		if err != nil {
			t.Errorf("%s: Open: %v", c.name, err)
			continue
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != c.want || r.Charset != c.charset {
			t.Errorf("%s: %q (%s, %v), want %q (%s)", c.name, got, r.Charset, err, c.want, c.charset)
		}
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(enc(true, text))
	w.Close()
	r, err := Open(&gz)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(r); string(got) != text || r.Encoding != Gzip || r.Charset != UTF16LE {
		t.Errorf("gzip of UTF-16: %q (%s, %s)", got, r.Encoding, r.Charset)
	}
}
