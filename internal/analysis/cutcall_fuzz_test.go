package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/logmatch/logmatch/internal/entry"
)

// FuzzCutTraceback checks the readers of a traceback cut before its
// exception line (cutcall.go) on any text: they never panic; CutCall is
// one line of at most maxCutCall runes (and the mark of a cut); the
// deepest frame line is a whole frame line of the text, or cut to its
// bound; opensFrames opens on a frame line or at most maxLeadingSource
// indented lines (and blank ones) before one; and a note is never a line that ends in a
// colon.
func FuzzCutTraceback(f *testing.F) {
	for _, s := range []string{
		"Traceback (most recent call last):\n  File \"/app/x.py\", line 3, in run\n    y = f(x)\n",
		"    fused = self.forward_impl(\n            ^^^^^^\n  File \"/v/fused_moe.py\", line 647, in forward_impl\n    return self.q.apply(\n",
		"│ │   File \"/app/tok.py\", line 4, in load\n│ │     tok = cls(*args)\n",
		"[2026-05-19 08:25:33] Setting x to 0.1.\nTraceback (most recent call last):\n  File \"/usr/local/bin/sglang\", line 6, in <module>\n",
		"  File \"x\", line",
		"File \"",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := CutCall(text)
		if strings.Contains(c, "\n") {
			t.Fatalf("CutCall(%q) = %q holds a line break", text, c)
		}
		if n := utf8.RuneCountInString(c); n > maxCutCall+1 {
			t.Fatalf("CutCall(%q) is %d runes long, over %d", text, n, maxCutCall)
		}
		if d := deepestFrameLine(text); d != "" {
			if w, ok := strings.CutSuffix(d, "…"); ok {
				d = w
			} else if !entry.IsTracebackFrame(d) {
				t.Fatalf("deepestFrameLine(%q) = %q, not a frame line", text, d)
			}
			if !strings.Contains(text, d) {
				t.Fatalf("deepestFrameLine(%q) = %q, not in the text", text, d)
			}
		}
		first := FirstLine(text)
		if opensFrames(first, text) {
			n := 0
			for line := range strings.Lines(text) {
				t := strings.TrimSpace(line)
				if strings.HasPrefix(t, `File "`) {
					break
				}
				if t != "" {
					n++
				}
			}
			if n > maxLeadingSource {
				t.Fatalf("opensFrames(%q) with %d lines before its first frame", text, n)
			}
		}
		if noteLine("", strings.TrimSpace(first)) && strings.HasSuffix(strings.TrimSpace(first), ":") {
			t.Fatalf("noteLine(%q) for a label", first)
		}
		e := entry.Entry{Message: first, Text: text}
		if h := cutHeadline(&e); strings.ContainsAny(h, "\n") {
			t.Fatalf("cutHeadline(%q) = %q holds a line break", text, h)
		}
	})
}
