package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/logmatch/logmatch/internal/ascii"
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
		if k := workFrame(stack); k < 0 || len(stack) > 0 && k >= len(stack) {
			t.Fatalf("work frame %d of %d", k, len(stack))
		}
	})
}

// FuzzLastFrameSource: the source line of the last frame of any text is
// empty or one bounded line that is neither a frame nor a header.
func FuzzLastFrameSource(f *testing.F) {
	f.Add("Traceback (most recent call last):\n  File \"a.py\", line 2, in f\n    self.init_cuda_graphs()\n    ^^^^^^^^^^^^^^^^^^^^^^^\n")
	f.Add("  File \"a.py\", line 2, in f\n  File \"b.py\", line 3, in g\n")
	f.Add("File \"")
	f.Fuzz(func(t *testing.T, s string) {
		src := LastFrameSource(s)
		if src == "" {
			return
		}
		if strings.ContainsAny(src, "\n\r") || strings.HasPrefix(src, `File "`) || src != strings.TrimSpace(src) && !strings.HasSuffix(src, "…") {
			t.Fatalf("source %q", src)
		}
		if utf8.RuneCountInString(src) > maxFrameSource+1 {
			t.Fatalf("source of %d runes", utf8.RuneCountInString(src))
		}
	})
}

// FuzzPhaseCall: the call a cut traceback's phase was entered by is empty
// or one bounded line that is no frame line.
func FuzzPhaseCall(f *testing.F) {
	f.Add("Traceback (most recent call last):\n  File \"m.py\", line 216, in initialize\n    self.init_cuda_graphs()\n  File \"m.py\", line 934, in init_cuda_graphs\n    raise Exception(\n")
	f.Add("  File \"m.py\", line 2, in load_weights\n")
	f.Add("  File \"s.py\", line 3, in event_loop_overlap\n    self.run_batch()\n  File \"\n")
	f.Add("File \"")
	f.Add("Traceback (most recent call last):\n  File \"/s/cuda_graph_runner.py\", line 147, in __init__\n\n    self.capture()\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range []string{phaseCall(s), phaseCallAt(s)} {
			if c == "" {
				continue
			}
			if strings.ContainsAny(c, "\n\r") || strings.HasPrefix(c, `File "`) || utf8.RuneCountInString(c) > maxFrameSource+1 {
				t.Fatalf("call %q", c)
			}
		}
	})
}

// FuzzGlogThread: a glog line's thread id is a run of digits of the line.
func FuzzGlogThread(f *testing.F) {
	for _, s := range []string{"E0925 00:24:39.141773  4418 client.cpp:353] Failed", "I0101 00:00:00.0 1 a.cc:1] x", "E 1 2 3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id := glogThread(s)
		if id != "" && (!ascii.Digits(id) || !strings.Contains(s, id)) {
			t.Fatalf("glogThread(%q) = %q", s, id)
		}
	})
}
