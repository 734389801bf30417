package entry

import (
	"strings"
	"testing"
	"time"
)

// A column console (Python's rich.logging.RichHandler) as three set-ups
// draw it: the time as "[%X]", the handler's default "[%x %X]", and no
// time column at all (show_time=False). The source column is off the
// text, a blank time column is a record of its own at the stream's time,
// the message's wrapped pieces are joined at the space the wrap broke
// at, and a traceback printed in the message column is read as one.
func TestRichLayout(t *testing.T) {
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(1, w-len(s))) }
	record := func(time, level, msg, src string) string {
		return pad(time+pad(level, 9)+msg, 100) + src
	}
	cases := []struct {
		name, time, blank string
		at                string
	}{
		{"time as [%X]", "[05:39:59] ", strings.Repeat(" ", 11), "05:39:59"},
		{"default [%x %X]", "[12/06/26 05:39:59] ", strings.Repeat(" ", 20), "05:39:59"},
		{"no time column", "", "", ""},
	}
	wrappers := []struct{ name, prefix string }{
		{"", ""},
		{" behind kubectl's stamp", "2025-11-06T02:10:00.702513093Z "},
		{" behind srun's label", "3: "},
		{" behind mpirun's tag", "[1,3]<stderr>:"},
	}
	for _, w := range wrappers {
		for _, tc := range cases {
			t.Run(tc.name+w.name, func(t *testing.T) {
				col := strings.Repeat(" ", len(tc.blank)+9)
				lines := []string{
					record(tc.time, "INFO", "Loading model weights", "loader.py:40"),
					record(tc.blank, "ERROR", "We couldn't connect to 'https://huggingface.co' to load this file,", "hub.py:839"),
					col + "couldn't find it in the cached files and it looks like org/model is not the path",
					col + "to a directory containing a file named config.json.",
					col + "Traceback (most recent call last):",
					col + `  File "/srv/app/hub.py", line 409, in cached_file`,
					col + "    resolved_file = hf_hub_download(",
					col + "OSError: We couldn't connect to 'https://huggingface.co' to load this file",
					record(tc.blank, "WARNING", "retrying in 5 s", "hub.py:850"),
				}
				for i := range lines {
					lines[i] = w.prefix + lines[i]
				}
				log := strings.Join(lines, "\n")
				got := assemble(t, Options{Location: time.UTC, Reference: time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)}, log)
				if len(got) != 3 {
					for _, e := range got {
						t.Logf("%d+%d %q %q", e.FirstOffset, e.Lines, e.Level, e.Message)
					}
					t.Fatalf("%d entries, want 3", len(got))
				}
				if got[0].Message != "Loading model weights" || got[0].Level != LevelInfo {
					t.Errorf("first record: %q %q", got[0].Level, got[0].Message)
				}
				e := got[1]
				wantMsg := "We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like org/model is not the path to a directory containing a file named config.json."
				if e.Level != LevelError || e.Message != wantMsg || e.Lines != 7 {
					t.Errorf("second record: %d lines, %q %q", e.Lines, e.Level, e.Message)
				}
				if o := e.Traceback.Outermost(); o == nil || o.Type != "OSError" || len(o.Frames) != 1 || o.Frames[0].Line != 409 {
					t.Errorf("traceback not read: %q", e.Text)
				}
				if strings.Contains(e.Text, "hub.py:839") {
					t.Errorf("source column kept: %q", e.Text)
				}
				if got[2].Level != LevelWarning || got[2].Message != "retrying in 5 s" {
					t.Errorf("third record: %q %q", got[2].Level, got[2].Message)
				}
				if tc.at != "" {
					for i, e := range got {
						if e.Time.Format("15:04:05") != tc.at {
							t.Errorf("entry %d at %v, want %s", i, e.Time, tc.at)
						}
					}
				}
			})
		}
	}
}

// Lines that only look like a column console's are read as before: a
// level-padded line without a source column, a source column after a
// level that is not padded to the level column, and indented lines of a
// stream whose layout was never shown.
func TestRichLayoutNotLearned(t *testing.T) {
	got := assemble(t, Options{}, strings.Join([]string{
		"ERROR    something failed",
		"ERROR something failed                                   app.py:3",
		"                    indented text",
	}, "\n"))
	for _, e := range got {
		if e.Format == FormatPython {
			t.Errorf("read as a console record: %q", e.Raw)
		}
	}
	if richLevelAt("ERROR    x   app.py:3") != richLevelWidth || richLevelAt("ERROR x   app.py:3") != 0 || richLevelAt("ERROR    x app.py:3") != 0 {
		t.Error("richLevelAt")
	}
}

// FuzzRichLayout checks the column console's line readers on any line:
// no panic, an indentation within the line, a source column that starts
// inside it, and a stamp read as a time of the line's own.
func FuzzRichLayout(f *testing.F) {
	for _, s := range []string{
		"[05:39:59] ERROR    Error in realtime:                 gui.py:838",
		"           ERROR    We couldn't connect                gui.py:839",
		"                    find it in the cached files",
		"12/06/26 05:39:59] ERROR    x   app.py:1",
		"ERROR    x   app.py:1",
		"x  :1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := richLayout{timeW: 11, msgCol: 20}
		if n := r.indent(s); n < 0 || n > len(s) || n > 0 && !isBlank(s[:n]) {
			t.Fatalf("indent(%q) = %d", s, n)
		}
		if k := sourceColumnAt(s); k < 0 || k > 0 && (k >= len(s) || s[k] != ' ') {
			t.Fatalf("sourceColumnAt(%q) = %d", s, k)
		}
		if n := richLevelAt(s); n != 0 && n != richLevelWidth {
			t.Fatalf("richLevelAt(%q) = %d", s, n)
		}
		if h, ok := parseSlashDateFirst(s, time.Time{}, time.UTC); ok && (h.time.IsZero() || h.level == "" || !strings.HasSuffix(s, h.msg)) {
			t.Fatalf("parseSlashDateFirst(%q) = %+v", s, h)
		}
	})
}

// A collector's RFC 3339 stamp before a record: Rust tracing's header
// puts at most two spaces before its level and one after it, so a longer
// run on either side is a column console's layout behind a stamp, which
// the stamp wraps.
func TestTracingGap(t *testing.T) {
	for _, tc := range []struct {
		line    string
		tracing bool
	}{
		{"2025-11-05T01:56:54.243403Z  INFO scheduler.__init__: x", true},
		{"2025-11-05T01:56:54.243403Z ERROR dynamo_llm::http::service::openai: x", true},
		{"2025-11-05T01:56:54.243403Z            ERROR    [05:39:59] x", false},
		{"2025-11-05T01:56:54.243403Z WARNING  retrying", false},
		{"2025-11-05T01:56:54.243403Z\t           ERROR    x", false},
	} {
		h, ok := parseHeader(tc.line, time.Time{}, time.UTC)
		if got := ok && h.format == FormatDynamo; got != tc.tracing {
			t.Errorf("%q: tracing %v, want %v", tc.line, got, tc.tracing)
		}
		if n := rfc3339PrefixLen(tc.line); (n > 0) == tc.tracing {
			t.Errorf("%q: stamp as a wrapper %d", tc.line, n)
		}
	}
}
