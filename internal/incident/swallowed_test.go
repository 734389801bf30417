package incident

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/sinks"
)

// unboundLocal reads an exception's type and message apart: a wording
// with a colon could lie across the ": " a joined string would hold.
func TestUnboundWordsHoldNoColon(t *testing.T) {
	for _, w := range unboundWords {
		if strings.Contains(w, ":") {
			t.Errorf("unbound wording %q holds a colon", w)
		}
		if !strings.Contains(w, "ass") {
			t.Errorf("unbound wording %q holds no \"ass\", which unboundLocal looks for first", w)
		}
	}
}

func TestUnboundLocal(t *testing.T) {
	for _, c := range []struct {
		text, typ, msg string
		want           bool
	}{
		{"UnboundLocalError: local variable 'out' referenced before assignment", "", "", true},
		{"Traceback (most recent call last):", "UnboundLocalError", "cannot access local variable 'out' where it is not associated with a value", true},
		{"Traceback (most recent call last):", "UnboundLocalError", "local variable 'out' referenced before assignment", true},
		{"Traceback (most recent call last):", "RuntimeError", "CUDA error: an illegal memory access was encountered", false},
		{"RuntimeError: boom", "", "", false},
	} {
		var o Occurrence
		o.Alert.Match.Text = c.text
		if c.typ != "" {
			o.Alert.Match.Exception = &sinks.Exception{Type: c.typ, Message: c.msg}
		}
		if got := unboundLocal(&o); got != c.want {
			t.Errorf("unboundLocal(%q, %s: %s) = %v, want %v", c.text, c.typ, c.msg, got, c.want)
		}
	}
}

// importBefore reads an exception's type and message apart before it
// joins them: what UndefinedUse finds in the joined text it finds in one
// of the two.
func TestUndefinedUseApart(t *testing.T) {
	for _, x := range [][2]string{
		{"NameError", "name 'flash_attn_varlen_func' is not defined"},
		{"AttributeError", "module 'vllm._C' has no attribute 'ops'"},
		{"ImportError", "cannot import name 'x' from 'y'"},
		{"RuntimeError", "CUDA error: an illegal memory access was encountered"},
		{"is not defined", "x"}, {"ValueError", strings.Repeat("m", 600) + " is not defined"},
	} {
		joined := analysis.UndefinedUse(x[0] + ": " + x[1])
		if joined && !analysis.UndefinedUse(x[0]) && !analysis.UndefinedUse(x[1]) {
			t.Errorf("UndefinedUse finds %q: %q joined, in neither apart", x[0], x[1])
		}
	}
}
