package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
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

func TestHTTPErrorStatus(t *testing.T) {
	for msg, want := range map[string]bool{
		"< HTTP/1.1 400 Bad Request":              true,
		"< HTTP/1.1 500 Internal Server Error":    true,
		"< HTTP/2 503 ":                           true,
		"HTTP/1.0 422 Unprocessable Entity":       true,
		"HTTP/2 502":                              true,
		"< HTTP/1.1 200 OK":                       false,
		"< HTTP/2 307 Temporary Redirect":         false,
		"> POST /v1/chat/completions HTTP/1.1":    false,
		"HTTP/1.1 4000 lines":                     false,
		"HTTP/x 400 Bad Request":                  false,
		"HTTP/1.1400 Bad Request":                 false,
		"< http/1.1 400 bad request":              false,
		"HTTP error 400 is retried by the client": false,
		"<": false,
		"":  false,
	} {
		if got := httpErrorStatus(msg); got != want {
			t.Errorf("httpErrorStatus(%q) = %v, want %v", msg, got, want)
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

// quiet must never call an entry without a traceback quiet when signalOf
// gives it a signal: every format, level word and message opening below,
// and every entry of the example and test logs.
func TestQuietAgreesWithSignalOf(t *testing.T) {
	formats := []entry.Format{entry.FormatNone, entry.FormatSRT, entry.FormatLegacy, entry.FormatDiffusion,
		entry.FormatUvicorn, entry.FormatNative, entry.FormatDynamo, entry.FormatPython, entry.FormatRouter}
	levels := []string{"", "TRACE", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "FATAL", "info", "E", "W", "F", "panic"}
	msgs := []string{"", "Decode batch, #running-req: 1", "Error: x", "ERROR: x", "[ERROR] x", "FATAL: x",
		"Fatal error: x", "CRITICAL: x", "Errors: 0", "[INFO] x", "Failed to load", "C", "E", "F", "[",
		"< HTTP/1.1 400 Bad Request", "HTTP/2 503", "< HTTP/1.1 200 OK", "H", "<"}
	check := func(e *entry.Entry) {
		t.Helper()
		if e.Traceback != nil || !quiet(e) {
			return
		}
		if sig, sev := signalOf(e); sig != "" || sev != "" {
			t.Errorf("quiet(format %q level %q native %q message %q), yet signalOf gives %q %q",
				e.Format, e.Level, e.Native, e.Message, sig, sev)
		}
	}
	for _, f := range formats {
		for _, l := range levels {
			for _, m := range msgs {
				for _, n := range []string{"", entry.NativeShell, entry.NativeNCCL} {
					check(&entry.Entry{Format: f, Level: l, Message: m, Text: m, Native: n})
				}
			}
		}
	}
	var paths []string
	for _, glob := range []string{"../../examples/*.log", "../../testdata/logs/*.log", "../../testdata/corpus/*.log"} {
		p, _ := filepath.Glob(glob)
		paths = append(paths, p...)
	}
	if len(paths) == 0 {
		t.Fatal("no logs found")
	}
	n := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a := entry.NewAssembler(entry.Options{})
		var es []entry.Entry
		for i, l := range strings.Split(string(b), "\n") {
			es = append(es, a.Push(entry.Line{Text: l, Offset: int64(i)})...)
		}
		for _, e := range append(es, a.Flush()...) {
			check(&e)
			n++
		}
	}
	t.Logf("%d entries of %d logs", n, len(paths))
}
