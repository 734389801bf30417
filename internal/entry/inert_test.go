package entry

import (
	"strings"
	"testing"
)

// FuzzInert checks open's shortcut: when inert(s) holds, advance and
// noteBare leave an entry just opened with message s exactly as it was.
func FuzzInert(f *testing.F) {
	for _, s := range []string{
		"", "x", "Decode batch, #running-req: 91, #token: 262607",
		"Prefill batch, #new-seq: 4", "Failed to load the model", "File \"a.py\", line 3, in f",
		"Filed away", "> File \"a.py\", line 3, in f", "  File \"a.py\", line 3, in f",
		"ValueError: bad", "ValueError", "KeyboardInterrupt", "torch.OutOfMemoryError: CUDA out of memory",
		"Traceback (most recent call last):", "Scheduler hit an exception: Traceback (most recent call last):",
		"+ Exception Group Traceback (most recent call last):", sepCause, sepContext, "  " + sepCause,
		"Exception ignored in: <function f>", "msg ending in space ", "tab\t", "ünïcode", "x\u00a0",
		"_private: thing", "a.b.c: d", "[42] Embedding recv timeout after 42s", "10.2.3.4:5 - \"POST /x\" 200 OK",
		strings.Repeat("W", 70) + " x", "Error:x y", "Abcdefgh: x", "Abcdefg: x", "Abcdefghi x", "A\x80 \xa0 b y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := inert(s), inertByteByByte(s); got != want {
			t.Fatalf("inert(%q) = %v, byte by byte %v", s, got, want)
		}
		if !inert(s) {
			return
		}
		a := NewAssembler(Options{})
		a.begin(&Line{Offset: 1}, s, "", kindHeader)
		p := &a.cur
		p.msg, p.greedy = s, true
		before := *p
		a.advance(s)
		a.noteBare(s)
		if *p != before {
			t.Fatalf("inert(%q) but advance or noteBare changed the entry: %+v, want %+v", s, *p, before)
		}
	})
}

// inertByteByByte is inert with its first word read a byte at a time.
func inertByteByByte(s string) bool {
	n := len(s)
	if n == 0 {
		return false
	}
	if last := s[n-1]; last == ':' || last >= 0x80 || isASCIISpace(last) {
		return false
	}
	c := s[0]
	if c == ' ' || c == '\t' || c == '>' || c == 'F' && strings.HasPrefix(s, `File "`) {
		return false
	}
	if !(isUpper(c) || c >= 'a' && c <= 'z' || c == '_') {
		return true
	}
	for i := 1; i < n && i < maxInertWord; i++ {
		if s[i] == ' ' {
			return s[i-1] != ':'
		}
	}
	return false
}
