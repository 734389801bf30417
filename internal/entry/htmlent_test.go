package entry

import (
	"strings"
	"testing"
)

func TestUnescapeHTML(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// Python's html.escape (quote=True): "&#x27;" and "&quot;".
		{"KeyError: &#x27;model.layers.0.mlp.experts.w2_weight&#x27;", "KeyError: 'model.layers.0.mlp.experts.w2_weight'"},
		// Go's html.EscapeString and markupsafe: "&#39;" and "&#34;".
		{"TypeError: &lt;lambda&gt;() got an unexpected keyword argument &#39;timeout&#39;", "TypeError: <lambda>() got an unexpected keyword argument 'timeout'"},
		{"ValueError: bad value &#34;auto&#34; for &#34;dtype&#34;", `ValueError: bad value "auto" for "dtype"`},
		// A page's source: named references, a kept space.
		{"  File &quot;/sgl/python/sglang/srt/managers/scheduler.py&quot;, line 2345, in run_scheduler_process", `  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`},
		{"raise TypeError(f&quot;{a} &amp;&amp; {b}&quot;)&nbsp;", `raise TypeError(f"{a} && {b}") `},
		{"curl -s &apos;http://h/v1?a=1&amp;b=2&apos;", "curl -s 'http://h/v1?a=1&b=2'"},
		// Read once: a reference escaped twice keeps one level.
		{"&amp;lt;class &amp;#39;x&amp;#39;&amp;gt;", "&lt;class &#39;x&#39;&gt;"},
		// Not references: kept as written.
		{"a & b", "a & b"},
		{"R&D;&x;&#;&#x;&#12345678;&#0;&#127;&lt", "R&D;&x;&#;&#x;&#12345678;&#0;&#127;&lt"},
		{"no ampersand", "no ampersand"},
	} {
		if got := unescapeHTML(tt.in); got != tt.want {
			t.Errorf("unescapeHTML(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHTMLEscapedTraceback: a traceback a page escaped is read as the
// traceback itself, its exception and message with their quotes.
func TestHTMLEscapedTraceback(t *testing.T) {
	const tb = "Traceback (most recent call last):\n" +
		`  File "/sgl/python/sglang/srt/model_loader/loader.py", line 381, in load_weights` + "\n" +
		`    param = params_dict[name]` + "\n" +
		`KeyError: 'lm_head.weight'`
	escape := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	want := assemble(t, Options{}, tb)
	got := assemble(t, Options{}, escape.Replace(tb))
	if len(got) != 1 || len(want) != 1 || got[0].Traceback == nil || want[0].Traceback == nil {
		t.Fatalf("got %d entries, want one with a traceback as unescaped (%d)", len(got), len(want))
	}
	g, w := got[0].Traceback.Outermost(), want[0].Traceback.Outermost()
	if g.Type != w.Type || g.Message != w.Message || len(g.Frames) != len(w.Frames) {
		t.Errorf("escaped: %s: %s (%d frames), want %s: %s (%d)", g.Type, g.Message, len(g.Frames), w.Type, w.Message, len(w.Frames))
	}
}

// FuzzUnescapeHTML: reading references never lengthens a line, keeps a
// line without one as it is, and leaves no reference it reads.
func FuzzUnescapeHTML(f *testing.F) {
	for _, s := range []string{"KeyError: &#39;x&#39;", "&lt;&gt;&amp;&quot;&apos;&nbsp;", "&#x7e;&#X41;&#126;", "&#x;&#;&", "a&amp;amp;b", "&#0000000065;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := unescapeHTML(s)
		if len(got) > len(s) {
			t.Fatalf("unescapeHTML(%q) = %q: longer", s, got)
		}
		if !strings.Contains(s, "&") && got != s {
			t.Fatalf("unescapeHTML(%q) = %q: changed without a reference", s, got)
		}
		if strings.Contains(s, "&") && got == s {
			for i := 0; i < len(s); i++ {
				if _, n := entityAt(s[i:]); n > 0 {
					t.Fatalf("unescapeHTML(%q): reference at %d left", s, i)
				}
			}
		}
	})
}
