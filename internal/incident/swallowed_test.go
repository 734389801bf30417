package incident

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

// unboundLocal reads an exception's type and message apart: a wording
// with a colon could lie across the ": " a joined string would hold.
func TestUnboundWordsHoldNoColon(t *testing.T) {
	for _, w := range unboundWords {
		if strings.Contains(w, ":") {
			t.Errorf("unbound wording %q holds a colon", w)
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
