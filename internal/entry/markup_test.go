package entry

import (
	"fmt"
	"strings"
	"testing"
)

// markupWriterLines are failure lines of several writers, as they print
// them: CPython, glog (Mooncake, Triton), NCCL, a Rust panic, Go, vLLM's
// logger, CANN, Ollama's client.
var markupWriterLines = []string{
	"ModuleNotFoundError: No module named 'hipbsolidxgemm'",
	"RuntimeError: CUDA error: an illegal memory access was encountered",
	"E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory 0x7f105035d000: Input/output error [5]",
	"node1:1234:5678 [0] NCCL WARN NET/IB : Got async event : local access violation work queue error",
	"thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:",
	"panic: runtime error: invalid memory address or nil pointer dereference",
	"ERROR 05-28 00:11:09 [core.py:396] EngineCore failed to start.",
	"EZ9999: Inner Error!",
	"Error: llama runner process has terminated: exit status 0xc0000409",
	"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
}

// markupShapes are the ways a page or a chat marks up a pasted line.
var markupShapes = []string{
	"_%s_", "*%s*", "__%s__", "**%s**", "***%s***", "~~%s~~", "**_%s_**", "_**%s**_",
	"> _%s_", "> > **%s**", ">> *%s*", "- *%s*", "* **%s**", "+ _%s_", "> - _%s_",
	"_`%s`_", "`_%s_`",
	"<code>%s</code>", "<pre><code>%s</code></pre>", "<PRE>%s</PRE>", `<pre lang="text">%s`,
	"%s<br>", "%s<br/>", "%s<br />", "%s</code></pre>", "<p>%s</p>", "> <code>%s</code>",
}

// TestMarkupAroundLine reads a line marked up by a page as the line the
// writer printed.
func TestMarkupAroundLine(t *testing.T) {
	for _, line := range markupWriterLines {
		want, _ := stripWrappers(line)
		for _, shape := range markupShapes {
			s := fmt.Sprintf(shape, line)
			if got, prefix := stripWrappers(s); got != want {
				t.Errorf("stripWrappers(%q) = %q (prefix %q), want %q", s, got, prefix, want)
			}
		}
	}
}

// TestMarkupBehindPrefixes reads emphasis behind what a log's plumbing
// puts in front of a line, and the prefix stays the plumbing's.
func TestMarkupBehindPrefixes(t *testing.T) {
	for _, p := range []string{"sglang-1  | ", "2025-06-06T19:02:40.751234567Z ", "(TP0 pid=9) ", "[pod/sglang-0/sglang] "} {
		for _, line := range markupWriterLines[:2] {
			s := p + "_" + line + "_"
			if got, prefix := stripWrappers(s); got != line || !strings.HasPrefix(prefix, p) {
				t.Errorf("stripWrappers(%q) = %q, %q; want %q behind %q", s, got, prefix, line, p)
			}
		}
	}
}

// TestMarkupLeavesLogText keeps whole what a log writes with the same
// marks: Python names, globs, glibc's starred reports, a repr, text
// emphasised in parts, an arrow.
func TestMarkupLeavesLogText(t *testing.T) {
	for _, s := range []string{
		"__init__",
		"_C",
		"_C._cuda_init()",
		"*.so",
		"*** Error in `python3': double free or corruption (fasttop): 0x00007f1c2c000b20 ***",
		"*** stack smashing detected ***: terminated",
		"_a_ and _b_ failed_",
		"*x* and *y*",
		"__main__ failed: __init__",
		"~/models ~",
		"<class 'KeyError'>",
		"  File \"<frozen importlib._bootstrap>\", line 1007, in _find_and_load",
		"x -> <module>",
		"<module> raised </module>",
		"*ptr = 0x0 *",
	} {
		if got, prefix := stripWrappers(s); got != s || prefix != "" {
			t.Errorf("stripWrappers(%q) = %q, %q; want the line whole", s, got, prefix)
		}
	}
}

// FuzzEmphasisSpan checks that what emphasisSpan keeps lies inside the
// line, that a line it reads as emphasised opens and ends with the same
// marks, and that the text it keeps holds a space.
func FuzzEmphasisSpan(f *testing.F) {
	for _, s := range []string{"_ModuleNotFoundError: No module named 'x'_", "**_a b_**", "__init__", "*** x ***", "~~a b~~", "_a_ b _c_", "***a b***"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		open, close := emphasisSpan(s)
		if open < 0 || close > len(s) || open > close {
			t.Fatalf("emphasisSpan(%q) = %d, %d: out of the line", s, open, close)
		}
		if open == 0 {
			if close != len(s) {
				t.Fatalf("emphasisSpan(%q) = 0, %d: the end moved without an opening", s, close)
			}
			return
		}
		if open != len(s)-close {
			t.Fatalf("emphasisSpan(%q) = %d, %d: %d marks open, %d close", s, open, close, open, len(s)-close)
		}
		if !strings.Contains(s[open:close], " ") || strings.HasPrefix(s[open:close], " ") {
			t.Fatalf("emphasisSpan(%q) keeps %q: no message inside marks", s, s[open:close])
		}
	})
}

// FuzzHTMLTags checks that the tags taken off a line are a part of it.
func FuzzHTMLTags(f *testing.F) {
	for _, s := range []string{"<pre><code>x</code></pre>", "<code class=\"a\">x", "x<br>", "<p>", "<pre <code>>x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := htmlOpenTagsLen(s); n < 0 || n >= len(s) && n != 0 {
			t.Fatalf("htmlOpenTagsLen(%q) = %d: no text after the tags", s, n)
		}
		if got := trimHTMLEndTags(s); !strings.HasPrefix(s, got) {
			t.Fatalf("trimHTMLEndTags(%q) = %q: not a start of the line", s, got)
		}
	})
}
