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
		strings.Repeat("W", 70) + " x", "Error:x y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !inert(s) {
			return
		}
		a := NewAssembler(Options{})
		a.begin(Line{Offset: 1}, s, "", kindHeader)
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
