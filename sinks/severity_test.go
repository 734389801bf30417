package sinks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckMinSeverity(t *testing.T) {
	for min, want := range map[string]int{"": 0, "info": 1, "warning": 2, "ERROR": 3, "critical": 4} {
		if got, err := CheckMinSeverity(min); err != nil || got != want {
			t.Errorf("CheckMinSeverity(%q) = (%d, %v), want %d", min, got, err, want)
		}
	}
	if _, err := CheckMinSeverity("loud"); err == nil || !strings.Contains(err.Error(), `min_severity: unknown severity "loud"`) {
		t.Errorf("CheckMinSeverity(\"loud\") = %v, want an error naming min_severity and the value", err)
	}
}

func TestSeverityRank(t *testing.T) {
	got := []int{SeverityRank("info"), SeverityRank("warning"), SeverityRank("warn"), SeverityRank("error"), SeverityRank("critical"), SeverityRank("crit"), SeverityRank("fatal"), SeverityRank("")}
	want := []int{1, 2, 2, 3, 4, 4, 0, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ranks (-want +got):\n%s", diff)
	}
}

// TestSeverityRankAnyCase holds SeverityRank to its reading of the
// severity lower-cased whole, on the catalog's spellings and others.
func TestSeverityRankAnyCase(t *testing.T) {
	for _, s := range []string{"info", "INFO", "Info", "İNFO", "warning", "WARNING", "Warn", "error", "Error", "ERROR",
		"critical", "CRITICAL", "Crit", "fatal", "", "errors", " error", "ınfo", "\u212arit"} {
		if got, want := SeverityRank(s), lowerSeverityRank(strings.ToLower(s)); got != want {
			t.Errorf("SeverityRank(%q) = %d, lower-cased %d", s, got, want)
		}
	}
}
