package analysis

import (
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

func TestStartsWithErrorWord(t *testing.T) {
	for msg, want := range map[string]bool{
		"Error: no such file":        true,
		"ERROR: model not found":     true,
		"[ERROR] launch failed":      true,
		"FATAL: out of memory":       true,
		"Fatal error: killed":        true,
		"CRITICAL: gone":             true,
		"Decode batch, #running-req": false,
		"Errors: 0":                  false,
		"[INFO] ready":               false,
		"Failed to load":             false,
		"C":                          false,
		"":                           false,
	} {
		if got := startsWithErrorWord(msg); got != want {
			t.Errorf("startsWithErrorWord(%q) = %v, want %v", msg, got, want)
		}
	}
}

// levelSeverity answers the assembler's common levels without mapping
// them; every word must still get what its normalised form states.
func TestLevelSeverity(t *testing.T) {
	for l, want := range map[string]patterns.Severity{
		"":         "",
		"INFO":     "",
		"info":     "",
		"DEBUG":    "",
		"TRACE":    "",
		"WARNING":  patterns.SeverityWarning,
		"warn":     patterns.SeverityWarning,
		"W":        patterns.SeverityWarning,
		"ERROR":    patterns.SeverityError,
		"err":      patterns.SeverityError,
		"E":        patterns.SeverityError,
		"CRITICAL": patterns.SeverityCritical,
		"crit":     patterns.SeverityCritical,
		"FATAL":    patterns.SeverityCritical,
		"F":        patterns.SeverityCritical,
		"panic":    patterns.SeverityCritical,
	} {
		if got := levelSeverity(l); got != want {
			t.Errorf("levelSeverity(%q) = %q, want %q", l, got, want)
		}
	}
}
