package scan

import "testing"

// The summary's counts are in the singular for one.
func TestSummaryPlurals(t *testing.T) {
	for _, tc := range []struct {
		st   Stats
		want string
	}{
		{Stats{Lines: 1, Entries: 1, Inputs: 1}, "no incidents (1 line, 1 entry, 1 input)"},
		{Stats{Lines: 12, Entries: 0, Inputs: 2}, "no incidents (12 lines, 0 entries, 2 inputs)"},
	} {
		if got := summary(Result{Stats: tc.st}); got != tc.want {
			t.Errorf("summary = %q, want %q", got, tc.want)
		}
	}
}
