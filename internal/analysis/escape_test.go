package analysis

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
)

func TestUnescapeQuotes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`the model\'s context`, `the model's context`},
		{`flag \"should dump\" on`, `flag "should dump" on`},
		{`a\\b \n \'`, `a\\b \n '`},
		{`trailing\`, `trailing\`},
		{``, ``},
	}
	for _, tt := range tests {
		got, at := unescapeQuotes(tt.in)
		if got != tt.want {
			t.Errorf("unescapeQuotes(%q) = %q, want %q", tt.in, got, tt.want)
		}
		checkOffsets(t, tt.in, got, at)
	}
}

// checkOffsets checks that at maps every byte of u onto the same byte of s,
// in order, and the end onto the end.
func checkOffsets(t *testing.T, s, u string, at []int) {
	t.Helper()
	if len(at) != len(u)+1 || at[len(u)] != len(s) {
		t.Fatalf("%q: %d offsets for %d bytes, last %v", s, len(at), len(u), at)
	}
	for i := 0; i < len(u); i++ {
		if s[at[i]] != u[i] || (i > 0 && at[i] <= at[i-1]) {
			t.Fatalf("%q: byte %d of %q maps to %d", s, i, u, at[i])
		}
	}
}

func FuzzUnescapeQuotes(f *testing.F) {
	for _, s := range []string{`the model\'s`, `\"x\"`, `\\'`, `\`, "a\\\n\\'b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, at := unescapeQuotes(s)
		checkOffsets(t, s, u, at)
		if hasEscapedQuote(s) == (len(u) == len(s)) {
			t.Fatalf("%q: escaped quote %v, unescaped %q", s, hasEscapedQuote(s), u)
		}
		for _, l := range strings.Split(s, "\n") {
			if got := matcher.SurroundingLines(s, strings.Index(s, l), strings.Index(s, l)); !strings.Contains(s, got) {
				t.Fatalf("%q: line %q not in the text", s, got)
			}
		}
	})
}
