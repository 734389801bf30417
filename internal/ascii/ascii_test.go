package ascii

import (
	"strings"
	"testing"
)

func TestDigits(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"", false},
		{"0", true},
		{"0123456789", true},
		{"12a", false},
		{" 12", false},
		{"-1", false},
		{"١٢", false}, // Arabic-Indic digits are not ASCII digits
		{"3.5", false},
	} {
		if got := Digits(tt.s); got != tt.want {
			t.Errorf("Digits(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestIndexByRare(t *testing.T) {
	for _, c := range []struct{ s, sub string }{
		{"", "exitcode"}, {"exitcode", "exitcode"}, {"exitcod", "exitcode"}, {"xexitcode", "exitcode"},
		{"exit exitcode: 1 (pid: 3)", "exitcode"}, {"ex ex ex", "exitcode"}, {"aaxbxx", "xx"}, {"x", "ax"},
	} {
		for k := range len(c.sub) {
			if got, want := IndexByRare(c.s, c.sub, k), strings.Index(c.s, c.sub); got != want {
				t.Errorf("IndexByRare(%q, %q, %d) = %d, want %d", c.s, c.sub, k, got, want)
			}
		}
	}
}

func FuzzIndexByRare(f *testing.F) {
	f.Add("exitcode: 1 (pid: 42)", "exitcode", 1)
	f.Add("aaaab", "aab", 2)
	f.Fuzz(func(t *testing.T, s, sub string, k int) {
		if sub == "" {
			return
		}
		k = int(uint(k) % uint(len(sub)))
		if got, want := IndexByRare(s, sub, k), strings.Index(s, sub); got != want {
			t.Fatalf("IndexByRare(%q, %q, %d) = %d, want %d", s, sub, k, got, want)
		}
	})
}
