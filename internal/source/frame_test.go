package source

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// framed is what a test compares of a frame.
type framed struct {
	Text      string
	Stream    string
	Offset    int64
	Next      int64
	Truncated bool
}

// A framed line tells how many bytes of framing stood in front of its
// text on the physical line: a terminal that wrapped the line wrapped it
// at that much more than the text. Raw lines and lines joined from
// partials carry none.
func TestFramerFraming(t *testing.T) {
	ts := "2025-07-25T07:53:08.217488644+08:00"
	lines := []string{ts + " stdout F [2025-07-25 07:53:08 TP2] Scheduler", "hit an exception", ts + " stderr P one ", ts + " stderr F two"}
	fr := newFramer(FormatCRI, 1<<10)
	var got []int
	var pos int64
	for _, l := range lines {
		start := pos
		pos += int64(len(l)) + 1
		_ = fr.push([]byte(l), start, pos, false, func(f frame) error {
			got = append(got, f.framing)
			return nil
		})
	}
	want := []int{len(ts + " stdout F "), 0, 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("framing %v, want %v", got, want)
	}
}

// decodeAll runs lines (each without "\n") through a framer as a file
// would, and returns the frames and the framing error count.
func decodeAll(format Format, max int, lines []string, flush bool) ([]framed, int64) {
	fr := newFramer(format, max)
	var out []framed
	var pos int64
	emit := func(f frame) error {
		if f.end > pos || f.end <= f.offset {
			panic(fmt.Sprintf("frame %q ends at %d, outside (%d, %d]", f.text, f.end, f.offset, pos))
		}
		out = append(out, framed{string(f.text), f.stream, f.offset, fr.resume(pos), f.truncated})
		return nil
	}
	for _, l := range lines {
		start := pos
		pos += int64(len(l)) + 1
		b := []byte(l)
		cut := false
		if bound := physicalBound(format, max); len(b) > bound {
			b, cut = b[:bound], true
		}
		_ = fr.push(b, start, pos, cut, emit)
	}
	if flush {
		_ = fr.flush(emit)
	}
	return out, fr.bad
}

func TestFramer(t *testing.T) {
	const ts = "2026-11-29T10:00:00.123456789Z"
	tests := []struct {
		name   string
		format Format
		max    int
		lines  []string
		flush  bool
		want   []framed
		bad    int64
	}{
		{
			name:   "cri full lines",
			format: FormatCRI,
			lines:  []string{ts + " stdout F hello", ts + " stderr F  indented", ts + " stdout F "},
			want: []framed{
				{"hello", "stdout", 0, 46, false},
				{" indented", "stderr", 46, 96, false},
				{"", "stdout", 96, 137, false},
			},
		},
		{
			name:   "cri partial lines interleaved per stream",
			format: FormatCRI,
			lines: []string{
				ts + " stderr P Traceback (most ", // 0..50
				ts + " stdout F GET /health",      // 50..95
				ts + " stderr P recent call",      // 95..140
				ts + " stderr F  last):",          // 140..180
			},
			want: []framed{
				// The stdout line resumes at the open stderr partial.
				{"GET /health", "stdout", 57, 0, false},
				{"Traceback (most recent call last):", "stderr", 0, 209, false},
			},
		},
		{
			name:   "cri extra tags and empty message without space",
			format: FormatCRI,
			lines:  []string{ts + " stdout F:x msg", ts + " stdout F"},
			want:   []framed{{"msg", "stdout", 0, 46, false}, {"", "stdout", 46, 86, false}},
		},
		{
			name:   "cri malformed lines pass through raw",
			format: FormatCRI,
			lines:  []string{"not cri at all", ts + " stdin F x", "2026-13-45T00:00:00Z stdout F bad time"},
			want: []framed{
				{"not cri at all", "", 0, 15, false},
				{ts + " stdin F x", "", 15, 56, false},
				{"2026-13-45T00:00:00Z stdout F bad time", "", 56, 95, false},
			},
			bad: 3,
		},
		{
			// A terminal or a paste folded the runtime's lines: each
			// rest passes through raw on the stream of the line it
			// goes on from.
			name:   "cri folded rests keep the stream before them",
			format: FormatCRI,
			lines:  []string{ts + " stderr F Scheduler hit an exception: ", "Traceback (most recent call last):", ts + " stdout F ready", "the rest"},
			want: []framed{
				{"Scheduler hit an exception: ", "stderr", 0, 69, false},
				{"Traceback (most recent call last):", "stderr", 69, 104, false},
				{"ready", "stdout", 104, 150, false},
				{"the rest", "stdout", 150, 159, false},
			},
			bad: 2,
		},
		{
			name:   "cri partial join is bounded",
			format: FormatCRI,
			max:    10,
			lines:  []string{ts + " stdout P 0123456", ts + " stdout F 789abc"},
			want:   []framed{{"0123456789", "stdout", 0, 95, true}},
		},
		{
			name:   "cri open partial flushed at the end",
			format: FormatCRI,
			lines:  []string{ts + " stdout P dangling"},
			flush:  true,
			want:   []framed{{"dangling", "stdout", 0, 49, false}},
		},
		{
			name:   "docker lines and partials",
			format: FormatDocker,
			lines: []string{
				`{"log":"part one ","stream":"stderr","time":"` + ts + `"}`,
				`{"log":"out\n","stream":"stdout","time":"` + ts + `"}`,
				`{"log":"part two\n","stream":"stderr","time":"` + ts + `"}`,
				`{"log":"tab\there \u00e9\r\n","stream":"stdout","time":"` + ts + `","attrs":{"k":"v"}}`,
			},
			want: []framed{
				{"out", "stdout", 78, 0, false},
				{"part one part two", "stderr", 0, 231, false},
				{"tab\there é", "stdout", 231, 338, false},
			},
		},
		{
			name:   "docker malformed lines pass through raw",
			format: FormatDocker,
			lines:  []string{`{"log":"x"`, `{"stream":"stdout"}`, `{"log":"x\n","stream":"other"}`, `plain`},
			want: []framed{
				{`{"log":"x"`, "", 0, 11, false},
				{`{"stream":"stdout"}`, "", 11, 31, false},
				{`{"log":"x\n","stream":"other"}`, "", 31, 62, false},
				{"plain", "", 62, 68, false},
			},
			bad: 4,
		},
		{
			name:   "auto detects cri after blank lines",
			format: FormatAuto,
			lines:  []string{"", ts + " stdout F hi"},
			want:   []framed{{"", "", 0, 1, false}, {"hi", "stdout", 1, 44, false}},
		},
		{
			name:   "auto detects docker",
			format: FormatAuto,
			lines:  []string{`{"log":"hi\n","stream":"stderr","time":"` + ts + `"}`},
			want:   []framed{{"hi", "stderr", 0, 73, false}},
		},
		{
			name:   "auto falls back to raw",
			format: FormatAuto,
			lines:  []string{"[2026-11-29 10:00:00 TP0] hello", ts + " stdout F not decoded"},
			want: []framed{
				{"[2026-11-29 10:00:00 TP0] hello", "", 0, 32, false},
				{ts + " stdout F not decoded", "", 32, 84, false},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			max := tc.max
			if max == 0 {
				max = 1 << 10
			}
			got, bad := decodeAll(tc.format, max, tc.lines, tc.flush)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
			if bad != tc.bad {
				t.Errorf("framing errors = %d, want %d", bad, tc.bad)
			}
		})
	}
}

func TestParseCRITime(t *testing.T) {
	c, ok := parseCRI([]byte("2026-11-29T10:00:00.5+02:00 stderr F x"))
	if !ok {
		t.Fatal("not parsed")
	}
	if want := time.Date(2026, 11, 29, 8, 0, 0, 5e8, time.UTC); !c.time.Equal(want) {
		t.Errorf("time = %v, want %v", c.time, want)
	}
}

// checkFrames holds for any input: texts are bounded, offsets lie inside
// the input, and every complete frame resumes at or before the end.
func checkFrames(t *testing.T, got []framed, max int, total int64) {
	t.Helper()
	for _, f := range got {
		if len(f.Text) > max {
			t.Fatalf("frame of %d bytes, bound %d", len(f.Text), max)
		}
		if f.Offset < 0 || f.Offset >= total || f.Next < 0 || f.Next > total {
			t.Fatalf("frame %+v outside input of %d bytes", f, total)
		}
	}
}

func fuzzLines(data string) ([]string, int64) {
	lines := strings.Split(data, "\n")
	var total int64
	for _, l := range lines {
		total += int64(len(l)) + 1
	}
	return lines, total
}

func FuzzCRI(f *testing.F) {
	f.Add("2026-11-29T10:00:00Z stdout F hello")
	f.Add("2026-11-29T10:00:00Z stderr P a\n2026-11-29T10:00:00Z stdout F b\n2026-11-29T10:00:00Z stderr F c")
	f.Add("2026-11-29T10:00:00.123456789+05:30 stdout F:extra msg with spaces ")
	f.Add("2026-11-29T10:00:00Z stdout")
	f.Add("garbage\n\n2026-11-29T10:00:00Z stdout P \n")
	f.Fuzz(func(t *testing.T, data string) {
		lines, total := fuzzLines(data)
		for _, max := range []int{1, 7, 1 << 10} {
			got, bad := decodeAll(FormatCRI, max, lines, true)
			checkFrames(t, got, max, total)
			if bad > int64(len(lines)) {
				t.Fatalf("%d framing errors for %d lines", bad, len(lines))
			}
		}
		for _, l := range lines {
			if c, ok := parseCRI([]byte(l)); ok {
				if c.stream != "stdout" && c.stream != "stderr" {
					t.Fatalf("stream %q accepted", c.stream)
				}
				if !bytes.HasSuffix([]byte(l), c.msg) {
					t.Fatalf("message %q is not the end of %q", c.msg, l)
				}
			}
		}
	})
}

// TestCollectorEnvelopes reads the container line that collectors keep
// whole in a JSON object a line as docker's json-file does: Fluent Bit's
// "log" (a multiline parser's merged traceback too), Vector's "message"
// beside its "source_type", and a journal entry's "MESSAGE" of a unit's
// captured output; an application's own JSON log, with a level and no
// collector's marker, stays a raw line.
func TestCollectorEnvelopes(t *testing.T) {
	tb := "Traceback (most recent call last):\n  File \"/sgl/x.py\", line 3, in f\nValueError: bad\n"
	for _, c := range []struct {
		line, text, stream string
		time               time.Time
	}{
		{`{"log":` + strconv.Quote(tb) + `,"stream":"stderr","time":"2026-11-29T10:00:00.5Z"}`, "Traceback (most recent call last):\n  File \"/sgl/x.py\", line 3, in f\nValueError: bad", "stderr", time.Date(2026, 11, 29, 10, 0, 0, 5e8, time.UTC)},
		{`{"file":"/var/log/pods/a/0.log","message":"ValueError: bad","source_type":"kubernetes_logs","stream":"stdout","timestamp":"2026-11-29T10:00:01Z"}`, "ValueError: bad", "stdout", time.Date(2026, 11, 29, 10, 0, 1, 0, time.UTC)},
		{`{"file":"/srv/app.log","host":"n1","message":"ValueError: bad","source_type":"file","timestamp":"2026-11-29T10:00:02Z"}`, "ValueError: bad", "stderr", time.Date(2026, 11, 29, 10, 0, 2, 0, time.UTC)},
		{`{"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1764410403000000","PRIORITY":"6","_TRANSPORT":"stdout","MESSAGE":"ValueError: bad","_PID":"7"}`, "ValueError: bad", "stderr", time.UnixMicro(1764410403000000).UTC()},
	} {
		d, ok := parseDocker([]byte(c.line))
		if !ok {
			t.Errorf("%s: not read", c.line)
			continue
		}
		if text := strings.TrimSuffix(string(d.log), "\n"); text != c.text || d.stream != c.stream || !d.time.Equal(c.time) {
			t.Errorf("%s: %q on %s at %v, want %q on %s at %v", c.line, text, d.stream, d.time, c.text, c.stream, c.time)
		}
	}
	for _, l := range []string{
		`{"level":"error","message":"ValueError: bad","time":"2026-11-29T10:00:00Z"}`,
		`{"__REALTIME_TIMESTAMP":"1764410403000000","PRIORITY":"3","_TRANSPORT":"journal","MESSAGE":"failed"}`,
		`{"log":"x","stream":"other"}`,
	} {
		if _, ok := parseDocker([]byte(l)); ok {
			t.Errorf("%s: read as a collector's record", l)
		}
	}
}

func FuzzDocker(f *testing.F) {
	f.Add(`{"log":"hello\n","stream":"stdout","time":"2026-11-29T10:00:00Z"}`)
	f.Add(`{"log":"part","stream":"stderr","time":"x"}` + "\n" + `{"log":"end\n","stream":"stderr"}`)
	f.Add(`{"log":"\u0000\ud800\n","stream":"stdout","attrs":{}}`)
	f.Add(`{"log":null,"stream":"stdout"}`)
	f.Add(`  {"log":"x","stream":"stdout"}  `)
	f.Add(`{"message":"x","source_type":"kubernetes_logs","timestamp":"2026-11-29T10:00:00Z"}`)
	f.Add(`{"__REALTIME_TIMESTAMP":"1764410400000000","MESSAGE":"x","_TRANSPORT":"stdout"}`)
	f.Add(`{"__REALTIME_TIMESTAMP":"-1","MESSAGE":null,"_TRANSPORT":"stdout"}`)
	f.Fuzz(func(t *testing.T, data string) {
		lines, total := fuzzLines(data)
		for _, max := range []int{1, 7, 1 << 10} {
			got, _ := decodeAll(FormatDocker, max, lines, true)
			checkFrames(t, got, max, total)
		}
		for _, l := range lines {
			if d, ok := parseDocker([]byte(l)); ok && d.stream != "stdout" && d.stream != "stderr" {
				t.Fatalf("stream %q accepted", d.stream)
			}
		}
	})
}
