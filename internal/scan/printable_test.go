package scan

import (
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "RuntimeError: CUDA out of memory", "RuntimeError: CUDA out of memory"},
		{"newline and tab kept", "a\tb\nc", "a\tb\nc"},
		{"utf-8 kept", "déjà vu ✓", "déjà vu ✓"},
		{"osc title", "x\x1b]0;pwned\x07y", `x\x1b]0;pwned\ay`},
		{"c1 csi", "\u009b2J", `\u009b2J`},
		{"carriage return and backspace", "ok\r\bno", `ok\r\bno`},
		{"del", "a\x7fb", `a\x7fb`},
		{"invalid utf-8", "a\xffb\xc3", "a\ufffdb\ufffd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Printable(tc.in); got != tc.want {
				t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]52;c;aGk=\x07", "\u009b\xff\r\n\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Printable(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Printable(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if acts(r, utf8.RuneLen(r)) && r != utf8.RuneError {
				t.Fatalf("Printable(%q) = %q keeps %U", s, out, r)
			}
		}
		clean := true
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			clean = clean && !acts(r, size)
			i += size
		}
		if clean && out != s {
			t.Fatalf("Printable(%q) = %q changed clean text", s, out)
		}
	})
}
