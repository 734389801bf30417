package entry

import (
	"strings"
	"testing"
	"time"
)

// Records stamped with the time of day alone and a level, as three kinds
// of writer print them: logback's default pattern (Java services beside a
// server), Python logging with datefmt "%H:%M:%S" (scripts, launchers),
// and a shell or Node tool's bracketed stamp. Their date is the stream's
// last known date, or the read time's.
func TestClockFirstRecords(t *testing.T) {
	log := strings.Join([]string{
		"2026-03-02 23:59:58,000 INFO launcher: starting",
		"23:59:59.120 [main] ERROR c.e.serving.ModelLoader - Failed to load model: CUDA out of memory",
		"00:00:01.004 [pool-1-thread-2] WARN  c.e.serving.Retry - retrying in 5 s",
		"00:00:02 ERROR Invalid object: FrobnicateReqInput",
		"00:00:03,250 - ERROR - Invalid object: FrobnicateReqInput",
		"[00:00:04] ERROR: Invalid object: FrobnicateReqInput",
		"[00:00:05.5] [ERROR] Invalid object: FrobnicateReqInput",
		"[00:00:06 ERROR] Invalid object: FrobnicateReqInput",
		"[00:00:07] Invalid object: FrobnicateReqInput",
		"00:00:08 Invalid object: FrobnicateReqInput",
	}, "\n")
	got := assemble(t, Options{Location: time.UTC}, log)
	type want struct {
		format Format
		level  string
		msg    string
		at     string
	}
	wants := []want{
		{FormatPython, LevelInfo, "launcher: starting", "2026-03-02 23:59:58"},
		{FormatPython, LevelError, "c.e.serving.ModelLoader - Failed to load model: CUDA out of memory", "2026-03-02 23:59:59"},
		{FormatPython, LevelWarning, "c.e.serving.Retry - retrying in 5 s", "2026-03-03 00:00:01"},
		{FormatPython, LevelError, "Invalid object: FrobnicateReqInput", "2026-03-03 00:00:02"},
		{FormatPython, LevelError, "Invalid object: FrobnicateReqInput", "2026-03-03 00:00:03"},
		{FormatPython, LevelError, "Invalid object: FrobnicateReqInput", "2026-03-03 00:00:04"},
		{FormatPython, LevelError, "Invalid object: FrobnicateReqInput", "2026-03-03 00:00:05"},
		{FormatPython, LevelError, "Invalid object: FrobnicateReqInput", "2026-03-03 00:00:06"},
		// No level: legacy sglang's "[HH:MM:SS] msg", which takes the
		// line after it (sglang's records take header-less lines).
		{FormatLegacy, "", "Invalid object: FrobnicateReqInput", "2026-03-03 00:00:07"},
	}
	if len(got) != len(wants) {
		for _, e := range got {
			t.Logf("%d+%d %q %q %q", e.FirstOffset, e.Lines, e.Format, e.Level, e.Message)
		}
		t.Fatalf("%d entries, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		e := got[i]
		if e.Format != w.format || e.Level != w.level || e.Message != w.msg || e.Time.Format(time.DateTime) != w.at || e.TimeInherited {
			t.Errorf("entry %d: %q %q %q %v (inherited %v), want %+v", i, e.Format, e.Level, e.Message, e.Time, e.TimeInherited, w)
		}
	}
}

// Without a dated line before it, a time-only record takes the read
// time's date (or Options.Reference's): the day before when its time is
// more than an hour after the read time.
func TestClockFirstDateFromReadTime(t *testing.T) {
	a := NewAssembler(Options{Location: time.UTC})
	read := time.Date(2026, 12, 6, 1, 0, 0, 0, time.UTC)
	var got []Entry
	for i, l := range []string{"00:59:00 ERROR first", "23:30:00 ERROR second"} {
		got = append(got, a.Push(Line{Text: l, Offset: int64(i + 1), Time: read})...)
	}
	got = append(got, a.Flush()...)
	if len(got) != 2 || got[0].Time.Format(time.DateTime) != "2026-12-06 00:59:00" || got[1].Time.Format(time.DateTime) != "2026-12-05 23:30:00" {
		t.Fatalf("%v", got)
	}
}

func TestClockFirstRefused(t *testing.T) {
	for _, s := range []string{
		"14:26:31 Invalid object",
		"14:26:31ERROR x",
		"24:00:00 ERROR x",
		"14:26:31. ERROR x",
		"14:26:31.1234567890 ERROR x",
		"14:26:31 ERRORS x",
	} {
		if h, ok := parseHeader(s, time.Time{}, time.UTC); ok && h.level != "" && h.partial == timeNoDate {
			t.Errorf("parseHeader(%q) = %+v", s, h)
		}
	}
	if !endsInSourceColumn("x    gui.py:838") || endsInSourceColumn("x gui.py:838") || endsInSourceColumn("ratio  3:2") || endsInSourceColumn("x  :8") {
		t.Error("endsInSourceColumn")
	}
}

// FuzzClockFirst checks parseClockFirst on any line, bare and bracketed:
// no panic, and a header it reads has a level, a message that is the
// line's tail, and a time of day taken from the line.
func FuzzClockFirst(f *testing.F) {
	for _, s := range []string{
		"23:59:59.120 [main] ERROR c.e.M - x",
		"00:00:03,250 - ERROR - x",
		"00:00:06 ERROR] x",
		"00:00:05.5] [ERROR] x",
		"12:00:00] ERROR:",
		"99:99:99 ERROR x",
	} {
		f.Add(s)
	}
	ref := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		for _, br := range []bool{false, true} {
			h, ok := parseClockFirst(s, ref, time.UTC, br)
			if !ok {
				continue
			}
			if normLevel(h.level) == "" || !strings.HasSuffix(s, h.msg) || h.partial != timeNoDate ||
				h.time.Format("15:04:05") != s[:8] {
				t.Fatalf("parseClockFirst(%q, %v) = %+v", s, br, h)
			}
		}
		endsInSourceColumn(s)
	})
}
