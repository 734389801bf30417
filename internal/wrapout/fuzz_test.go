package wrapout

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzStream drives a Stream with command chunks, logmatch lines, held
// lines expiring and the end of the command's stream in any order. Every
// line of logmatch's comes out whole, on a line of its own, in order; the
// command's bytes come out unchanged and in order, with at most line
// breaks added before a released line.
func FuzzStream(f *testing.F) {
	f.Add([]byte("progress: 10%\x01\x02 100%\nnext\x03"))
	f.Add([]byte("a\nb\x01c\x02d\n\x01\x01e"))
	f.Add([]byte("\x01partial\x04\x01"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		s, out, h := newStream()
		p := s.Passthrough()
		var child bytes.Buffer
		lines := 0
		ended := false
		chunk := []byte(nil)
		flush := func() {
			if len(chunk) > 0 && !ended {
				p.Write(chunk)
				child.Write(chunk)
			}
			chunk = nil
		}
		for _, b := range ops {
			switch b {
			case 0x01: // a line of logmatch's
				flush()
				s.Lines(false).Write([]byte("\x00L\x00"))
				lines++
			case 0x02: // the hold expires
				flush()
				if h.f != nil {
					h.expire()
				}
			case 0x03: // a chunk ends
				flush()
			case 0x04: // the command's stream ends
				flush()
				p.EndStream()
				ended = true
			case 0x00:
			default:
				chunk = append(chunk, b)
			}
		}
		flush()
		p.EndStream()

		got := out.String()
		var rest strings.Builder
		n := 0
		for i, l := range strings.SplitAfter(got, "\n") {
			if strings.Contains(l, "\x00") {
				if l != "\x00L\x00\n" {
					t.Fatalf("line %d of the output holds a split line of logmatch's: %q\n%q", i, l, got)
				}
				n++
				continue
			}
			rest.WriteString(l)
		}
		if n != lines {
			t.Fatalf("%d whole lines of logmatch's, want %d: %q", n, lines, got)
		}
		// The command's bytes, with at most added line breaks.
		want, have := child.String(), rest.String()
		j := 0
		for i := 0; i < len(have); i++ {
			if j < len(want) && have[i] == want[j] {
				j++
				continue
			}
			if have[i] != '\n' {
				t.Fatalf("the command's output changed: got %q, want %q", have, want)
			}
		}
		if j != len(want) {
			t.Fatalf("the command's output lost bytes: got %q, want %q", have, want)
		}
	})
}
