package source

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// endless yields n bytes of 'x' and then a newline, without holding them.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n < 0 {
		return 0, io.EOF
	}
	if e.n == 0 {
		p[0] = '\n'
		e.n = -1
		return 1, nil
	}
	k := min(len(p), e.n)
	for i := range k {
		p[i] = 'x'
	}
	e.n -= k
	return k, nil
}

func TestSplitterLongLineMemory(t *testing.T) {
	const max = 256 << 10
	sp := newSplitter(io.MultiReader(&endless{n: 20 << 20}, strings.NewReader("next\n")), max)
	line, raw, cut, err := sp.next()
	if err != nil {
		t.Fatal(err)
	}
	if len(line) != max || !cut || raw != 20<<20+1 {
		t.Errorf("len %d cut %v raw %d", len(line), cut, raw)
	}
	if c := cap(sp.buf); c > 2*max {
		t.Errorf("a 20 MB line grew the buffer to %d bytes, bound %d", c, max)
	}
	line, _, cut, _ = sp.next()
	if string(line) != "next" || cut {
		t.Errorf("line after the long one = %q cut %v", line, cut)
	}
}

func TestSplitter(t *testing.T) {
	type got struct {
		Line string
		Raw  int64
		Cut  bool
	}
	tests := []struct {
		name  string
		input []string // chunks, with an EOF between them
		max   int
		want  []got
	}{
		{"crlf and empty lines", []string{"a\r\n\nb\n"}, 10, []got{{"a", 3, false}, {"", 1, false}, {"b", 2, false}}},
		{"line completed after EOF", []string{"hel", "lo\n"}, 10, []got{{"hello", 6, false}}},
		{"cut across EOF", []string{"abcdefgh", "ijkl\nz\n"}, 5, []got{{"abcde", 13, true}, {"z", 2, false}}},
		{"CR stripped at the bound", []string{"abcd\r\n"}, 5, []got{{"abcd", 6, false}}},
		{"a cut line keeps what fits", []string{"abcdef\r\n"}, 5, []got{{"abcde", 8, true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &chunks{parts: tc.input}
			sp := newSplitter(r, tc.max)
			var lines []got
			for r.more() {
				for {
					line, raw, cut, err := sp.next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					lines = append(lines, got{string(line), raw, cut})
				}
				r.advance()
			}
			if diff := cmp.Diff(tc.want, lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// chunks returns one part, then EOF, until advanced to the next part, as
// a file does while its writer appends.
type chunks struct {
	parts []string
	i     int
	off   int
}

func (c *chunks) more() bool { return c.i < len(c.parts) }
func (c *chunks) advance()   { c.i, c.off = c.i+1, 0 }

func (c *chunks) Read(p []byte) (int, error) {
	if c.i >= len(c.parts) || c.off >= len(c.parts[c.i]) {
		return 0, io.EOF
	}
	n := copy(p, c.parts[c.i][c.off:])
	c.off += n
	return n, nil
}

func FuzzSplitter(f *testing.F) {
	f.Add("a\nbb\r\nccc", uint8(2), uint8(3))
	f.Add("\n\n\r\n", uint8(1), uint8(1))
	f.Add(strings.Repeat("x", 300)+"\ny", uint8(7), uint8(50))
	f.Fuzz(func(t *testing.T, data string, max, chunk uint8) {
		m := int(max%64) + 1
		size := int(chunk%32) + 1
		var parts []string
		for s := data; s != ""; {
			n := min(size, len(s))
			parts = append(parts, s[:n])
			s = s[n:]
		}
		// The default read buffer, and one smaller than the chunks and
		// lines, which lines outgrow and straddle.
		for _, bufSize := range []int{readBufferSize, int(max%16) + 1} {
			splitAll(t, data, parts, m, bufSize)
		}
	})
}

// splitAll splits data, read in parts, with a splitter of bound m and a
// read buffer of bufSize bytes, and checks that its lines cover data.
func splitAll(t *testing.T, data string, parts []string, m, bufSize int) {
	t.Helper()
	r := &chunks{parts: parts}
	sp := newSplitterSize(r, m, bufSize)
	var total int64
	check := func(line []byte, raw int64, cut bool) {
		seg := data[total : total+raw]
		total += raw
		if len(line) > m {
			t.Fatalf("line of %d bytes, bound %d", len(line), m)
		}
		want := seg
		if body, ok := strings.CutSuffix(seg, "\n"); ok {
			want = strings.TrimSuffix(body, "\r")
		}
		if !cut && want != string(line) {
			t.Fatalf("line %q from segment %q", line, seg)
		}
		if cut && !strings.HasPrefix(seg, string(line)) {
			t.Fatalf("cut line %q is not the start of %q", line, seg)
		}
	}
	for r.more() {
		for {
			line, raw, cut, err := sp.next()
			if err != nil {
				break
			}
			check(line, raw, cut)
		}
		r.advance()
	}
	if line, raw, cut, ok := sp.flush(); ok {
		check(line, raw, cut)
	}
	if total != int64(len(data)) {
		t.Fatalf("buffer %d: lines cover %d of %d bytes", bufSize, total, len(data))
	}
}

// A read that brings bytes and an error at once hands out the bytes first;
// a reader that keeps bringing nothing is given up.
func TestSplitterReadErrors(t *testing.T) {
	sp := newSplitter(iotest.DataErrReader(strings.NewReader("a\nb")), 10)
	line, raw, _, err := sp.next()
	if string(line) != "a" || raw != 2 || err != nil {
		t.Fatalf("first line = %q %d %v", line, raw, err)
	}
	if _, _, _, err := sp.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %v, want EOF", err)
	}
	if line, raw, _, ok := sp.flush(); string(line) != "b" || raw != 1 || !ok {
		t.Fatalf("flush = %q %d %v", line, raw, ok)
	}
	sp = newSplitter(emptyReader{}, 10)
	if _, _, _, err := sp.next(); !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("reads bringing nothing: %v, want ErrNoProgress", err)
	}
}

// emptyReader reads nothing, without an error, forever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }
