package entry

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
)

// A line over MaxLineBytes is redacted before it is cut: the kept tail of
// a long password value, whose key is in the cut middle, must not reach
// the entry.
func TestLongLineIsRedactedBeforeItIsCut(t *testing.T) {
	r, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	value := strings.Repeat("Zq7", 2000) // 6,000 bytes, longer than the kept tail
	line := "[2026-05-28 00:17:00 TP0] RuntimeError: connect failed password=" + value + " after retry"
	for _, tc := range []struct {
		name   string
		opt    Options
		secret bool
	}{
		{"without Redact the tail leaks", Options{MaxLineBytes: 2048}, true},
		{"with Redact", Options{MaxLineBytes: 2048, Redact: r.Redact}, false},
		{"with Redact and Reuse", Options{MaxLineBytes: 2048, Redact: r.Redact, Reuse: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			es := assemble(t, tc.opt, line)
			if len(es) != 1 {
				t.Fatalf("%d entries, want 1", len(es))
			}
			if got := strings.Contains(es[0].Text, "Zq7Zq7"); got != tc.secret {
				t.Errorf("secret in the entry: %v, want %v:\n%.300s", got, tc.secret, es[0].Text)
			}
			if !strings.Contains(es[0].Text, "after retry") {
				t.Errorf("the line's end is lost: %.300s", es[0].Text)
			}
		})
	}
}
