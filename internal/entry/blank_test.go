package entry

import (
	"strings"
	"testing"
)

// isBlank and isChainSeparator stop at the first byte they can decide on;
// they must agree with trimming the whole line.
func FuzzBlankAndSeparator(f *testing.F) {
	for _, s := range []string{
		"", " ", "\t\n\v\f\r ", "x", "  x  ", "\u00a0", " \u0085 ", "\u3000x", "\xff", " \xc2",
		sepCause, sepContext, "  " + sepCause + "  ", "\r" + sepContext, "\u00a0" + sepCause,
		"\v" + sepCause + "\n", sepCause[:20], "T", "D", "During", "The above",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isBlank(s), strings.TrimSpace(s) == ""; got != want {
			t.Errorf("isBlank(%q) = %v, want %v", s, got, want)
		}
		trimmed := strings.TrimSpace(s)
		if got, want := isChainSeparator(s), trimmed == sepCause || trimmed == sepContext; got != want {
			t.Errorf("isChainSeparator(%q) = %v, want %v", s, got, want)
		}
	})
}
