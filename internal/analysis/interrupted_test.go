package analysis

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
)

// marginEntry is an entry of text with its traceback as entry reads it.
func marginEntry(text string) *entry.Entry {
	return &entry.Entry{Text: text, Message: text, Traceback: entry.ParseTraceback(strings.Split(text, "\n"))}
}

// A traceback indented by a paste's margin is read with that margin off:
// its exception line, bare or with a message, is then read. A traceback
// cut before its exception line stays cut, and a block whose lines leave
// the margin is not re-read.
func TestMarginTracebackReadsTheIndentedExceptionLine(t *testing.T) {
	for _, c := range []struct {
		text, typ string
	}{
		{" Traceback (most recent call last):\n   File \"/x/sglang/srt/utils.py\", line 934, in broadcast_pyobj\n     tensor_size = torch.tensor([0])\n KeyboardInterrupt", "KeyboardInterrupt"},
		{"    Traceback (most recent call last):\n      File \"train.py\", line 79, in <module>\n        train(args.learning_rate)\n    KeyboardInterrupt", "KeyboardInterrupt"},
		{" Traceback (most recent call last):\n   File \"/x/sglang/srt/utils.py\", line 934, in broadcast_pyobj\n     tensor_size = torch.tensor([0])", ""},
		{" Traceback (most recent call last):\n   File \"/x/a.py\", line 1, in f\n     g()\nKeyboardInterrupt", ""},
		{"Traceback (most recent call last):\n  File \"/x/a.py\", line 1, in f\n    g()\nKeyboardInterrupt", ""},
	} {
		e := marginEntry(c.text)
		got := ""
		if tb := marginTraceback(e); tb != nil {
			got = tb.Outermost().Type
		}
		if got != c.typ {
			t.Errorf("%q: read %q, want %q", c.text, got, c.typ)
		}
	}
}

// A bare KeyboardInterrupt names where the work stood: the innermost
// frames that are not the standard library's waits; one with a message,
// or without frames, is read as any exception.
func TestInterruptedHeadlineNamesWhereTheWorkStood(t *testing.T) {
	exc := &entry.Exception{Type: "KeyboardInterrupt", Frames: []entry.Frame{
		{File: "/x/sglang/srt/managers/scheduler.py", Line: 872, Func: "recv_requests"},
		{File: "/x/sglang/srt/utils.py", Line: 934, Func: "broadcast_pyobj"},
		{File: "/usr/lib/python3.10/threading.py", Line: 355, Func: "wait"},
	}}
	want := "KeyboardInterrupt: stopped by hand in broadcast_pyobj (/x/sglang/srt/utils.py:934) < recv_requests (/x/sglang/srt/managers/scheduler.py:872)"
	if got := interruptedHeadline(exc); !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, x := range []*entry.Exception{
		{Type: "KeyboardInterrupt", Message: "interrupted", Frames: exc.Frames},
		{Type: "KeyboardInterrupt"},
		{Type: "RuntimeError", Frames: exc.Frames},
	} {
		if got := interruptedHeadline(x); got != "" {
			t.Errorf("%+v: got %q, want none", x, got)
		}
	}
}

// FuzzMarginTraceback checks that marginTraceback never panics and that
// what it returns ends in an exception line.
func FuzzMarginTraceback(f *testing.F) {
	for _, s := range []string{
		" Traceback (most recent call last):\n   File \"/x/a.py\", line 1, in f\n     g()\n KeyboardInterrupt",
		"  Traceback (most recent call last):\n    File \"a.py\", line 2, in <module>\n      main()\n  ValueError: bad\n",
		" Traceback (most recent call last):\r\n   File \"a.py\", line 2, in f\r\n",
		"x Traceback (most recent call last):\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := marginEntry(s)
		if e.Traceback == nil {
			return
		}
		if tb := marginTraceback(e); tb != nil && tb.Outermost().Type == "" {
			t.Fatalf("%q: re-read traceback ends without an exception line", s)
		}
	})
}
