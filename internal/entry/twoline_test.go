package entry

import (
	"strings"
	"testing"
	"time"
)

// Records whose message is on the line after their header, as three kinds
// of writer print them: a server whose header holds only its time and
// bracketed level (LM Studio, indenting the message by a space; a logger
// with "%(asctime)s [%(levelname)s]" and a newline), java.util.logging's
// default format (Tomcat's catalina.out, any Java tool), and journalctl
// -o verbose.
func TestMessageOnNextLine(t *testing.T) {
	type want struct {
		first       int64
		lines       int
		format      Format
		level, msg  string
		textPrefix  string
		excType     string
		timeOfEntry string // "15:04:05", "" for any
	}
	cases := []struct {
		name string
		log  string
		want []want
	}{
		{"time and bracketed level, message indented by a space", strings.Join([]string{
			"2025-08-28 01:22:52  [INFO]",
			" [qwen3-8b] Tool name generated:  search",
			"2025-08-28 01:22:58 [ERROR]",
			" [qwen3-8b] Failed to generate a tool call:  Failed to parse tool call: Unexpected end of content.",
			"Model Output:  <|start|>assistant",
			"2025-08-28 01:22:59  [INFO]",
			" [qwen3-8b] Model generated tool calls:  []",
		}, "\n"), []want{
			{1, 2, FormatPython, LevelInfo, "[qwen3-8b] Tool name generated:  search", "[qwen3-8b] Tool", "", "01:22:52"},
			{3, 3, FormatPython, LevelError, "[qwen3-8b] Failed to generate a tool call:  Failed to parse tool call: Unexpected end of content.", "[qwen3-8b] Failed to generate a tool call:  Failed to parse tool call: Unexpected end of content.\nModel Output:", "", "01:22:58"},
			{6, 2, FormatPython, LevelInfo, "[qwen3-8b] Model generated tool calls:  []", "[qwen3-8b] Model", "", ""},
		}},
		{"a level-first header alone, the exception on the next line unindented", strings.Join([]string{
			"2024-03-01 10:00:00,123 - ERROR -",
			"RuntimeError: CUDA error: an illegal memory access was encountered",
			"2024-03-01 10:00:01,000 - INFO - restarting",
		}, "\n"), []want{
			{1, 2, FormatPython, LevelError, "RuntimeError: CUDA error: an illegal memory access was encountered", "RuntimeError: CUDA error", "RuntimeError", "10:00:00"},
			{3, 1, FormatPython, LevelInfo, "restarting", "restarting", "", ""},
		}},
		{"java.util.logging, level on the second line", strings.Join([]string{
			"Dec 06, 2026 3:51:02 PM org.apache.catalina.startup.Catalina start",
			"INFO: Server startup in 1234 ms",
			"Dec 06, 2026 11:05:40 AM com.example.serving.ModelLoader load",
			"SEVERE: Failed to load model: CUDA out of memory. Tried to allocate 2.00 GiB",
			"java.lang.RuntimeException: load failed",
			"\tat com.example.serving.ModelLoader.load(ModelLoader.java:88)",
			"Jan 02, 2027 12:00:01 AM sidecar",
			"WARNING: retrying in 5 s",
		}, "\n"), []want{
			{1, 2, FormatJUL, LevelInfo, "Server startup in 1234 ms", "Server startup", "", "15:51:02"},
			{3, 4, FormatJUL, LevelError, "Failed to load model: CUDA out of memory. Tried to allocate 2.00 GiB", "Failed to load model: CUDA out of memory. Tried to allocate 2.00 GiB\njava.lang.RuntimeException", "java.lang.RuntimeException", "11:05:40"},
			{7, 2, FormatJUL, LevelWarning, "retrying in 5 s", "retrying in 5 s", "", "00:00:01"},
		}},
		{"journalctl -o verbose, PRIORITY= before and after MESSAGE=", strings.Join([]string{
			"Sat 2026-12-05 10:00:00.123456 UTC [s=6f1c;i=1f2;b=9a;m=1d;t=5f;x=77]",
			"    _TRANSPORT=stdout",
			"    PRIORITY=3",
			"    SYSLOG_IDENTIFIER=python3",
			"    MESSAGE=torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB",
			"    _PID=2741",
			"Sat 2026-12-05 10:00:01.000001 CET [s=6f1c;i=1f3;b=9a;m=1e;t=60;x=78]",
			"    MESSAGE=Started sglang.service.",
			"    PRIORITY=6",
		}, "\n"), []want{
			{1, 6, FormatJournal, LevelError, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB\n    _PID=2741", "torch.OutOfMemoryError", "10:00:00"},
			{7, 3, FormatJournal, LevelInfo, "Started sglang.service.", "Started sglang.service.\n    PRIORITY=6", "", "10:00:01"},
		}},
		{"journalctl -o export and -o json", strings.Join([]string{
			"__CURSOR=s=6f1c;i=1f2;b=9a;m=1d;t=5f;x=77",
			"__REALTIME_TIMESTAMP=1733500000123456",
			"PRIORITY=3",
			"_PID=2741",
			"MESSAGE=RuntimeError: CUDA error: out of memory",
			"",
			"__CURSOR=s=6f1c;i=1f3;b=9a;m=1e;t=60;x=78",
			"__REALTIME_TIMESTAMP=1733500001000000",
			"MESSAGE=Started sglang.service.",
			"PRIORITY=6",
			`{"__CURSOR":"s=6f1c;i=1f4","__REALTIME_TIMESTAMP":"1733500002000000","PRIORITY":"4","MESSAGE":"retrying in 5 s"}`,
		}, "\n"), []want{
			{1, 6, FormatJournal, LevelError, "RuntimeError: CUDA error: out of memory", "RuntimeError: CUDA error: out of memory", "RuntimeError", "15:46:40"},
			{7, 4, FormatJournal, LevelInfo, "Started sglang.service.", "Started sglang.service.\nPRIORITY=6", "", "15:46:41"},
			{11, 1, FormatJSON, LevelWarning, "retrying in 5 s", "retrying in 5 s", "", "15:46:42"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := assemble(t, Options{Location: time.UTC}, tc.log)
			if len(got) != len(tc.want) {
				for _, e := range got {
					t.Logf("%d+%d %q %q", e.FirstOffset, e.Lines, e.Level, e.Message)
				}
				t.Fatalf("%d entries, want %d", len(got), len(tc.want))
			}
			for i, w := range tc.want {
				e := got[i]
				if e.FirstOffset != w.first || e.Lines != w.lines || e.Format != w.format || e.Level != w.level || e.Message != w.msg || !strings.HasPrefix(e.Text, w.textPrefix) {
					t.Errorf("entry %d: %d+%d %q %q %q\ntext %q\nwant %d+%d %q %q %q, text from %q", i, e.FirstOffset, e.Lines, e.Format, e.Level, e.Message, e.Text,
						w.first, w.lines, w.format, w.level, w.msg, w.textPrefix)
				}
				if w.timeOfEntry != "" && (e.Time.Format("15:04:05") != w.timeOfEntry || e.TimeInherited) {
					t.Errorf("entry %d: time %v (inherited %v), want %s", i, e.Time, e.TimeInherited, w.timeOfEntry)
				}
				typ := ""
				if o := e.Traceback.Outermost(); o != nil {
					typ = o.Type
				}
				if typ != w.excType {
					t.Errorf("entry %d: exception %q, want %q", i, typ, w.excType)
				}
			}
		})
	}
}

// A header that held no message but announces nothing the next line
// gives: a traceback (logging.exception("")) stays the record's traceback,
// a blank line ends the record, and a line cut by a terminal is the
// message whole.
func TestMessageOnNextLineLimits(t *testing.T) {
	got := assemble(t, Options{}, strings.Join([]string{
		"2024-03-01 10:00:00,123 ERROR",
		"Traceback (most recent call last):",
		`  File "a.py", line 1, in f`,
		"ValueError: x",
		"2024-03-01 10:00:01,000 [ERROR]",
		"",
		"later text",
	}, "\n"))
	if len(got) != 3 || got[0].Lines != 4 || got[0].Message != "" || got[0].Traceback.Outermost().Type != "ValueError" {
		t.Fatalf("traceback after an empty header: %+v", got)
	}
	if got[1].Lines != 2 || got[1].Message != "" || got[2].Message != "later text" {
		t.Fatalf("blank line after an empty header: %q %d, %q", got[1].Message, got[1].Lines, got[2].Message)
	}

	long := "[qwen3-8b] Failed to generate a tool call (this tool call will be omitted from the response):  Failed to parse tool call"
	var lines []string
	lines = append(lines, "2025-08-28 01:22:58 [ERROR]")
	s := " " + long
	for len(s) > 80 {
		lines = append(lines, s[:80])
		s = s[80:]
	}
	lines = append(lines, s, "2025-08-28 01:22:59 [ERROR]", "second")
	got = assemble(t, Options{}, strings.Join(lines, "\n"))
	if len(got) != 2 || got[0].Message != long || got[1].Message != "second" {
		t.Fatalf("hard-wrapped message: %d entries, %q", len(got), got[0].Message)
	}
}

// The first lines of java.util.logging's and journalctl's records are no
// header when they do not end as those writers end them: a format that
// prints the message on the same line, a journal line without its cursor.
func TestTwoLineHeadersRefused(t *testing.T) {
	for _, s := range []string{
		"Jul 09, 2015 3:23:29 PM com.example.MakeLog: RuntimeException: Run from this message!",
		"Dec 06, 2026 13:51:02 PM a b",
		"Dec 06, 2026 3:51:02 XM a b",
		"Dec 06, 2026 3:51:02 PM",
		"Dec 6, 2026 3:51:02 PM a b",
		"Sat 2026-12-05 10:00:00.123456 UTC host python[1]: x",
		"Sat 2026-12-05 10:00:00 UTC",
	} {
		if h, ok := parseHeader(s, time.Time{}, time.UTC); ok && (h.format == FormatJUL || h.format == FormatJournal) {
			t.Errorf("parseHeader(%q) = %+v", s, h)
		}
	}
}

// FuzzTwoLineHeader checks the first-line parsers of java.util.logging and
// journalctl -o verbose on any line: no panic, no message (it is on the
// next line), and a time only when they match.
func FuzzTwoLineHeader(f *testing.F) {
	for _, s := range []string{
		"Dec 06, 2026 3:51:02 PM org.apache.catalina.startup.Catalina start",
		"Jan 02, 2027 12:00:01 AM sidecar",
		"Sat 2026-12-05 10:00:00.123456 UTC [s=6f1c;i=1f2;b=9a;m=1d;t=5f;x=77]",
		"SEVERE: Failed",
		"Dec 06, 2026 1:1",
		"Sat 2026-12-05 10:00:00. X [s=]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []func(string, *time.Location) (header, bool){parseJULHeader, parseJournalHeader} {
			h, ok := p(s, time.UTC)
			if ok && (h.msg != "" || h.level != "" || h.time.IsZero()) || !ok && h != (header{}) {
				t.Fatalf("%q: %+v %v", s, h, ok)
			}
		}
		if lvl, msg, ok := julLevel(s); ok && (normLevel(lvl) != lvl || !strings.HasSuffix(s, msg)) {
			t.Fatalf("julLevel(%q) = %q, %q", s, lvl, msg)
		}
		if l := journalLevel(s); l != "" && normLevel(l) != l {
			t.Fatalf("journalLevel(%q) = %q", s, l)
		}
		if h, ok := parseJournalExport(s); ok && (h.msg != "" || h.format != FormatJournal || !strings.HasPrefix(s, "__CURSOR=")) {
			t.Fatalf("parseJournalExport(%q) = %+v", s, h)
		}
		if tm := journalTime(s); !tm.IsZero() && tm.Year() > 5138 {
			t.Fatalf("journalTime(%q) = %v", s, tm)
		}
	})
}
