package analysis

import (
	"strings"
	"testing"
)

// FuzzPlatformExitCode checks that platformExitCode never panics and
// returns only a non-zero code of digits from a line that holds the
// platform's words.
func FuzzPlatformExitCode(f *testing.F) {
	f.Add("Exit code: 1. Reason: :\"backends/v3/src/client/mod.rs\"")
	f.Add("Exit code: -11. Reason:")
	f.Fuzz(func(t *testing.T, l string) {
		c := platformExitCode(l)
		if c != "" && (!strings.Contains(l, platformExitMarker+c+platformReasonMarker) || strings.Trim(c, "-0") == "") {
			t.Fatalf("platformExitCode(%q) = %q", l, c)
		}
	})
}
