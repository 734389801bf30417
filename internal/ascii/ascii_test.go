package ascii

import "testing"

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
