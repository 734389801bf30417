package analysis

import (
	"strings"
	"testing"
)

func TestUnmark(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"**bold:** rest", "bold: rest"},
		{"`code` and `more`", "code and more"},
		{"a * b and 2**31", "a * b and 231"},
		{"***", "*"},
		{"", ""},
	} {
		got, at := unmark(tt.in)
		if got != tt.want || len(at) != len(got)+1 || at[len(got)] != len(tt.in) {
			t.Errorf("unmark(%q) = %q, %v; want %q", tt.in, got, at, tt.want)
		}
	}
}

// FuzzUnmark: every byte of the unmarked text is the byte of the input at
// its mapped position, positions increase, and no backtick or "**" is left
// of a pair.
func FuzzUnmark(f *testing.F) {
	f.Add("**Watchdog caught collective operation timeout:** WorkNCCL(")
	f.Add("`[rank4]:[E304 12:54:52.1 ProcessGroupNCCL.cpp:616] x`")
	f.Add("***`**`")
	f.Fuzz(func(t *testing.T, s string) {
		u, at := unmark(s)
		if len(at) != len(u)+1 || at[len(u)] != len(s) {
			t.Fatalf("%d positions for %d bytes", len(at), len(u))
		}
		for i := range len(u) {
			if s[at[i]] != u[i] || i > 0 && at[i] <= at[i-1] {
				t.Fatalf("byte %d of %q maps to %d of %q", i, u, at[i], s)
			}
		}
		if strings.IndexByte(u, '`') >= 0 {
			t.Fatalf("backtick left in %q", u)
		}
	})
}
