package analysis

import (
	"strings"
	"testing"
)

// FuzzHelpBox checks that a help box's reading never panics and stays
// within its bounds.
func FuzzHelpBox(f *testing.F) {
	f.Add(strings.Repeat("-", 74) + "It looks like orte_init failed for some reason; x\n  getting local rank failed\n  --> Returned value No permission (-17) instead of ORTE_SUCCESS")
	f.Add("WARNING: x\n\t--> y")
	f.Fuzz(func(t *testing.T, text string) {
		var b helpBox
		b.open = true
		for l := range strings.Lines(text) {
			t := strings.TrimSpace(l)
			if rest, ok := ruleRest(t); ok {
				t = rest
			}
			b.line(t, len(l)-len(strings.TrimLeft(l, " ")))
		}
		if len(b.reasons) > maxBoxReasons || len([]rune(b.head)) > maxBoxText+1 {
			t.Fatalf("box out of bounds: %d reasons, head %q", len(b.reasons), b.head)
		}
	})
}
