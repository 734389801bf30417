package slack

import "testing"

func TestPlainNeutralisesEmphasisFromLogText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bold", "CUDA error *bold* here", "CUDA error \u2217bold\u2217 here"},
		{"strike", "~gone~", "\u223cgone\u223c"},
		{"italic at word edges", "_private_ name", "\uff3fprivate\uff3f name"},
		{"underscore inside a word stays", "max_new_tokens=128", "max_new_tokens=128"},
		{"mrkdwn escapes kept", "a <b> & c", "a &lt;b&gt; &amp; c"},
		{"bidi and controls visible", "x\u202ey\x1b]0;t\x07", `x\u202ey\x1b]0;t\a`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := plain(tc.in); got != tc.want {
				t.Errorf("plain(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
