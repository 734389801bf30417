package analysis

import (
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// TestTimedLevelSeverity reads the level word among a header's fields
// after its time, in the headers of KServe's model servers
// (kserve/kserve#3769, kserve/kserve#5056) and Xinference
// (xorbitsai/inference#3373, sgl-project/sglang#2552), and leaves alone
// their routine lines, the headers the entry package reads itself (the
// level first after the time), and lines that only open with a time.
func TestTimedLevelSeverity(t *testing.T) {
	for l, want := range map[string]patterns.Severity{
		"2024-07-01 07:28:04.488 1 kserve ERROR [__main__.py:<module>():254] Failed to start model server: integer division or modulo by zero":                                    patterns.SeverityError,
		"2026-02-11 02:15:04.629 1 kserve ERROR [__main__.py:<module>():337] Failed to start model server: Engine core initialization failed. See root cause above.":              patterns.SeverityError,
		"2024-12-21 20:28:44,695 xinference.core.worker 30898 ERROR    [request 1a599982-bf97-11ef-b326-5ebbf69eeefa] Leave launch_builtin_model, error: [address=0.0.0.0:40067]": patterns.SeverityError,
		"2025-05-08 08:12:19,121 xinference.core.worker 14 CRITICAL Worker lost its supervisor":                                                                                   patterns.SeverityCritical,
		"2024-07-01T07:28:04.488 7 kserve.trace FATAL cannot bind":                                                                                                                patterns.SeverityCritical,

		// Routine lines of the same headers.
		"2024-07-01 07:28:04.488 1 kserve INFO [model_server.py:start():338] Starting uvicorn with 1 workers":                              "",
		"2024-12-21 20:28:43,611 xinference.core.worker 30898 INFO     [request 1a599982] Enter launch_builtin_model, args: <WorkerActor>": "",
		"2024-07-01 07:28:04.488 1 kserve WARNING [logging.py:log():12] Slow start":                                                        "",
		"2024-07-01 07:28:04.488 1 kserve DEBUG ERROR rates are computed below":                                                            "",

		// The level first after the time (the entry package's headers),
		// a level with no message, more fields than a header has, and
		// lines that only open with a time.
		"2024-01-28 17:52:00,514 ERROR [main] Something failed here":        "",
		"2024-01-28 17:52:00,514 1 kserve ERROR":                            "",
		"2024-01-28 17:52:00,514 1 kserve ERROR    ":                        "",
		"2024-01-28 17:52:00 a b c d ERROR too far":                         "",
		"2024-01-28 17:52:00 ERROR: 0":                                      "",
		"2024-01-28 reported 3 ERROR lines":                                 "",
		"2024-01-28 17:52 kserve ERROR no seconds":                          "",
		"2024-01-28 17:52:00.x 1 kserve ERROR fraction without digits":      "",
		"2024-01-28 17:52:00,514 1 kserve ERROR - \"POST /v1/models\" done": "",
		"": "",
	} {
		if got := timedLevelSeverity(l); got != want {
			t.Errorf("timedLevelSeverity(%q) = %q, want %q", l, got, want)
		}
	}
}

// FuzzTimedLevelSeverity: timedLevelSeverity never panics and reads only
// a line timedLevelStart lets in.
func FuzzTimedLevelSeverity(f *testing.F) {
	for _, s := range []string{
		"2024-07-01 07:28:04.488 1 kserve ERROR [__main__.py:<module>():254] Failed to start model server",
		"2024-12-21 20:28:44,695 xinference.core.worker 30898 ERROR    [request 1a59] Leave launch_builtin_model",
		"2024-07-01 07:28:04.488 1 kserve INFO [model_server.py:start():338] Starting uvicorn",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if timedLevelSeverity(l) != "" && !timedLevelStart(l) {
			t.Fatalf("timedLevelSeverity(%q): a level timedLevelStart refuses", l)
		}
	})
}
