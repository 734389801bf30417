package analysis

import "testing"

// TestLevelTokenLead reads a level put first with no time before it, in
// the formats that print it so: Python logging without a time ("ERROR -
// ...", basicConfig's "ERROR:root:..."), Rust's env_logger without its
// time ("[ERROR widget::store] ..."), a bracketed level, a
// column-aligned level; and leaves alone what only starts with the word,
// and spdlog's lower-case level field.
func TestLevelTokenLead(t *testing.T) {
	for msg, want := range map[string]bool{
		"ERROR - widget store could not attach":    true,
		"ERROR | widget store could not attach":    true,
		"ERROR:root:widget store could not attach": true,
		"ERROR:widgets.store:could not attach":     true,
		"CRITICAL   widget store could not attach": true,
		"ERROR widget store could not attach":      true,
		"[ERROR widget::store] could not attach":   true,
		"ERROR Failed to attach the widget store":  true,
		"[ERR] widget store could not attach":      true,
		"[PANIC] widget store could not attach":    true,
		"FATAL widget store could not attach":      true,

		"ERROR RATE: 0.1":                      false,
		"ERRORS: 0":                            false,
		"ERROR":                                false,
		"ERROR - ":                             false,
		"ERROR:root:":                          false,
		"[INFO] widget store attached":         false,
		"[ERROR] ":                             false,
		"[error handling] enabled for widgets": false,
		"[E] widget":                           false,
		"[error] [WASI-NN] GGML backend: could not attach": false,
		"ERROR    [05:39:59] Error in realtime":            false,
		"Error widget store could not attach":              false,
		"PANIC widget":                                     false,
		"[ERROR: widget] x":                                false,
		"[ERROR widget store] could not":                   false,
	} {
		if got := levelTokenLead(msg); got != want {
			t.Errorf("levelTokenLead(%q) = %v, want %v", msg, got, want)
		}
	}
}
