package analysis

import "testing"

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
