package entry

import (
	"testing"
	"time"
)

// TestAssemblerTimeInheritance: an entry without a timestamp takes its
// stream's last known time, as it was (not advanced by the read time
// elapsed since, which would date it after the next record of the same
// second); a
// timestamp without a year or a date takes them from its neighbours, also
// across the turn of a year or a day.
func TestAssemblerTimeInheritance(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	read := utc(2026, 12, 4, 22, 0, 0, 0) // a 2025 log scanned in 2026
	type want struct {
		time      time.Time
		inherited bool
	}
	tests := []struct {
		name  string
		lines []string
		times []time.Time // Line.Time of each line; read for all when nil
		want  []want
	}{
		{"undated lines after a record", []string{
			"[2025-01-16 10:11:13 TP0] Decode batch, #running-req: 3",
			"Killed",
			"some line with no time",
		}, nil, []want{
			{utc(2025, 1, 16, 10, 11, 13, 0), false},
			{utc(2025, 1, 16, 10, 11, 13, 0), true},
			{utc(2025, 1, 16, 10, 11, 13, 0), true},
		}},
		{"undated lines before any time stay undated", []string{
			"Killed",
			"[2025-01-16 10:11:13 TP0] x",
		}, nil, []want{{}, {utc(2025, 1, 16, 10, 11, 13, 0), false}}},
		{"read later, not dated after the next record", []string{
			"[2025-01-16 10:11:13 TP0] x",
			"INFO:     Started server process [5]",
			"[2025-01-16 10:11:13 TP0] y",
		}, []time.Time{read, read.Add(3 * time.Millisecond), read.Add(4 * time.Millisecond)}, []want{
			{utc(2025, 1, 16, 10, 11, 13, 0), false},
			{utc(2025, 1, 16, 10, 11, 13, 0), true},
			{utc(2025, 1, 16, 10, 11, 13, 0), false},
		}},
		{"glog year from the records around it, not the reader's", []string{
			"[2025-01-16 10:11:13 TP0] x",
			"E0116 10:11:14.123456 77969 transfer_metadata_plugin.cpp:173] Failed to get metadata",
			"[rank1]:[E116 10:11:15.000000001 ProcessGroupNCCL.cpp:1828] [PG ID 0 PG GUID 0 Rank 1] Watchdog caught collective operation timeout",
		}, nil, []want{
			{utc(2025, 1, 16, 10, 11, 13, 0), false},
			{utc(2025, 1, 16, 10, 11, 14, 123456000), false},
			{utc(2025, 1, 16, 10, 11, 15, 1), false},
		}},
		{"December, then January", []string{
			"[2025-12-31 23:59:58 TP0] x",
			"I1231 23:59:59.000000 710 transfer_engine.cpp:422] y",
			"E0101 00:00:01.000000 710 transfer_engine.cpp:422] z",
			"WARNING 01-01 00:00:02 [config.py:1] w",
		}, []time.Time{read, read, read, read}, []want{
			{utc(2025, 12, 31, 23, 59, 58, 0), false},
			{utc(2025, 12, 31, 23, 59, 59, 0), false},
			{utc(2026, 1, 1, 0, 0, 1, 0), false},
			{utc(2026, 1, 1, 0, 0, 2, 0), false},
		}},
		{"January, then a December line printed late", []string{
			"[2026-01-01 00:00:03 TP0] x",
			"E1231 23:59:59.000000 710 transfer_engine.cpp:422] z",
		}, nil, []want{
			{utc(2026, 1, 1, 0, 0, 3, 0), false},
			{utc(2025, 12, 31, 23, 59, 59, 0), false},
		}},
		{"legacy time of day across midnight", []string{
			"[2024-09-30 23:59:58] x",
			"[23:59:59 TP0] y",
			"[00:00:01 TP0] z",
		}, nil, []want{
			{utc(2024, 9, 30, 23, 59, 58, 0), false},
			{utc(2024, 9, 30, 23, 59, 59, 0), false},
			{utc(2024, 10, 1, 0, 0, 1, 0), false},
		}},
		{"glog first takes the reader's year", []string{
			"E0116 10:11:14.123456 77969 transfer_metadata_plugin.cpp:173] Failed",
			"Killed",
		}, nil, []want{
			{utc(2026, 1, 16, 10, 11, 14, 123456000), false},
			{utc(2026, 1, 16, 10, 11, 14, 123456000), true},
		}},
	}
	// Which of those years are guesses: the glog lines read before the
	// stream said its year, and what inherited from them, until a full
	// timestamp comes.
	guessed := map[string][]bool{
		"glog first takes the reader's year": {true, true},
	}
	tests = append(tests, struct {
		name  string
		lines []string
		times []time.Time
		want  []want
	}{"a c10d line before the first full timestamp, then one after it", []string{
		"[rank4]:[E421 02:05:38.764490322 ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed",
		"E0421 02:05:38.800000 77969 transfer_engine.cpp:173] Failed",
		"[2025-04-21 02:05:39 TP4] Scheduler hit an exception: Traceback (most recent call last):",
		"[rank4]:[E421 02:05:40.000000001 ProcessGroupNCCL.cpp:1828] [PG ID 0 PG GUID 0 Rank 4] Watchdog caught collective operation timeout",
	}, nil, []want{
		{utc(2026, 4, 21, 2, 5, 38, 764490322), false},
		{utc(2026, 4, 21, 2, 5, 38, 800000000), false},
		{utc(2025, 4, 21, 2, 5, 39, 0), false},
		{utc(2025, 4, 21, 2, 5, 40, 1), false},
	}})
	guessed["a c10d line before the first full timestamp, then one after it"] = []bool{true, true, false, false}
	for _, tt := range tests {
		a := NewAssembler(Options{})
		var es []Entry
		for i, s := range tt.lines {
			lt := read
			if tt.times != nil {
				lt = tt.times[i]
			}
			es = append(es, a.Push(Line{Text: s, Time: lt, Offset: int64(i + 1)})...)
		}
		es = append(es, a.Flush()...)
		if len(es) != len(tt.want) {
			t.Fatalf("%s: %d entries, want %d", tt.name, len(es), len(tt.want))
		}
		for i, e := range es {
			if !e.Time.Equal(tt.want[i].time) || e.TimeInherited != tt.want[i].inherited {
				t.Errorf("%s: entry %d (%q): time %v inherited %v; want %v %v", tt.name, i+1, e.Message, e.Time, e.TimeInherited, tt.want[i].time, tt.want[i].inherited)
			}
			if g := guessed[tt.name]; e.TimeGuessed != (g != nil && g[i]) {
				t.Errorf("%s: entry %d (%q): year guessed %v", tt.name, i+1, e.Message, e.TimeGuessed)
			}
		}
	}
}

func TestNearest(t *testing.T) {
	utc := func(y int, mo time.Month, d, h int) time.Time { return time.Date(y, mo, d, h, 0, 0, 0, time.UTC) }
	tests := []struct {
		t       time.Time
		partial int8
		near    time.Time
		want    time.Time
	}{
		{utc(2026, 1, 16, 10), timeNoYear, utc(2025, 1, 16, 9), utc(2025, 1, 16, 10)},
		{utc(2025, 1, 1, 0), timeNoYear, utc(2025, 12, 31, 23), utc(2026, 1, 1, 0)},
		{utc(2026, 12, 31, 23), timeNoYear, utc(2026, 1, 1, 1), utc(2025, 12, 31, 23)},
		{utc(2024, 2, 29, 1), timeNoYear, utc(2025, 3, 1, 0), utc(2024, 2, 29, 1)}, // 2025 has no February 29
		{utc(2026, 7, 1, 23), timeNoDate, utc(2024, 10, 1, 0), utc(2024, 9, 30, 23)},
		{utc(2026, 7, 1, 1), timeNoDate, utc(2024, 9, 30, 23), utc(2024, 10, 1, 1)},
		{utc(2026, 7, 1, 1), 0, utc(2024, 9, 30, 23), utc(2026, 7, 1, 1)},
		{utc(2026, 7, 1, 1), timeNoYear, time.Time{}, utc(2026, 7, 1, 1)},
	}
	for _, tt := range tests {
		if got := nearest(tt.t, tt.partial, tt.near, time.UTC); !got.Equal(tt.want) {
			t.Errorf("nearest(%v, %d, %v) = %v, want %v", tt.t, tt.partial, tt.near, got, tt.want)
		}
	}
}

// FuzzNearest checks that nearest changes only what the timestamp lacks
// and lands within a year (or a day) and a half of its neighbour.
func FuzzNearest(f *testing.F) {
	f.Add(int64(1767225600), int64(1767139200), int8(1))
	f.Add(int64(1727740800), int64(1727740799), int8(2))
	f.Add(int64(1709164800), int64(1740787200), int8(1))
	f.Fuzz(func(t *testing.T, ts, ns int64, partial int8) {
		if ts < 0 || ns < 0 || ts > 1<<36 || ns > 1<<36 || partial < 0 || partial > timeNoDate {
			return
		}
		tm, near := time.Unix(ts, 0).UTC(), time.Unix(ns, 0).UTC()
		got := nearest(tm, partial, near, time.UTC)
		if got.Hour() != tm.Hour() || got.Minute() != tm.Minute() || got.Second() != tm.Second() {
			t.Fatalf("nearest(%v, %d, %v) = %v: the time of day changed", tm, partial, near, got)
		}
		d := got.Sub(near)
		if d < 0 {
			d = -d
		}
		switch partial {
		case timeNoYear:
			if got.Month() != tm.Month() || got.Day() != tm.Day() || d > 550*24*time.Hour && !(tm.Month() == time.February && tm.Day() == 29) {
				t.Fatalf("nearest(%v, year, %v) = %v", tm, near, got)
			}
		case timeNoDate:
			if d > 36*time.Hour {
				t.Fatalf("nearest(%v, date, %v) = %v", tm, near, got)
			}
		default:
			if !got.Equal(tm) {
				t.Fatalf("nearest(%v, 0, %v) = %v", tm, near, got)
			}
		}
	})
}
