package sinks

import (
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "RuntimeError: CUDA error", "RuntimeError: CUDA error"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"osc title", "x\x1b]0;pwned\x07y", `x\x1b]0;pwned\ay`},
		{"osc clipboard", "\x1b]52;c;cm0gLXJmIH4K\x07", `\x1b]52;c;cm0gLXJmIH4K\a`},
		{"c1 csi", "a\u009b2Jb", `a\u009b2Jb`},
		{"nul", "a\x00b", `a\x00b`},
		{"carriage return and backspace", "ok\r\bno", `ok\r\bno`},
		{"del", "a\x7fb", `a\x7fb`},
		{"invalid utf-8", "a\xff\xfeb", "a\ufffd\ufffdb"},
		{"right-to-left override", "file\u202Etxt.exe", `file\u202etxt.exe`},
		{"isolates", "\u2066a\u2069", `\u2066a\u2069`},
		{"marks", "a\u200fb\u061c", `a\u200fb\u061c`},
		{"other unicode kept", "é 日本 \u200b", "é 日本 \u200b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Printable(tc.in); got != tc.want {
				t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzPrintable checks that the result is valid UTF-8 and holds nothing
// Printable replaces, and that it is idempotent.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b]52;c;x\x07", "\u009b", "\xff", "\u202e", "a\nb\tc", "\\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Printable(s)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		for i, r := range got {
			if acts(r, utf8.RuneLen(r)) {
				t.Fatalf("%q left at %d in %q", r, i, got)
			}
		}
		if again := Printable(got); again != got {
			t.Fatalf("not idempotent: %q -> %q", got, again)
		}
	})
}
