package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/logmatch/logmatch/internal/entry"
)

// FuzzAssertStatement: for any text, the statement quoted for a bare
// AssertionError is empty or one assert line, bounded.
func FuzzAssertStatement(f *testing.F) {
	for _, s := range []string{
		"Traceback (most recent call last):\n  File \"a.py\", line 2, in f\n    assert x == 1\nAssertionError\n",
		"  File \"a.py\", line 2, in f\n    assert (x\n           ^^\nAssertionError\n",
		"  File \"a.py\", line 2, in f\n    raise AssertionError\nAssertionError\n",
		"AssertionError\n",
		"File \"\nAssertionError",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		exc := &entry.Exception{Type: "AssertionError", Frames: []entry.Frame{{File: "a.py", Line: 2, Func: "f"}}}
		st := assertStatement(s, exc)
		if st == "" {
			return
		}
		if strings.ContainsAny(st, "\n\r") || !strings.HasPrefix(st, "assert") {
			t.Fatalf("statement %q", st)
		}
		if utf8.RuneCountInString(st) > maxAssertStatement+1 {
			t.Fatalf("statement of %d runes", utf8.RuneCountInString(st))
		}
	})
}

// FuzzHangFrames: the headline part of any stack is one line that names
// at most hangHeadlineFrames frames and the wait, and never panics.
func FuzzHangFrames(f *testing.F) {
	f.Add("wait (threading.py:355)\nget (queue.py:171)\nresolve (sglang/srt/x.py:1)")
	f.Add("wait (/usr/lib/python3.10/threading.py:324)")
	f.Add("run (/usr/local/lib/python3.10/dist-packages/tqdm/_monitor.py:60)\n(\n)")
	f.Fuzz(func(t *testing.T, s string) {
		stack := strings.Split(s, "\n")
		if len(stack) > MaxStackFrames {
			stack = stack[:MaxStackFrames]
		}
		h := hangFrames(stack)
		if n := strings.Count(h, " < "); n > hangHeadlineFrames-1+strings.Count(s, " < ") {
			t.Fatalf("%d frames in %q", n+1, h)
		}
		_ = runsOwnCode(stack)
	})
}
