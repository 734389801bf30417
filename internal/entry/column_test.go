package entry

import (
	"strings"
	"testing"
	"time"
)

// A console copied row by row: each record's time and source columns on
// lines of their own after its message.
func TestAssemblerConsoleColumns(t *testing.T) {
	tb := []string{
		"Traceback (most recent call last):",
		`  File "/srv/train.py", line 100, in <module>`,
		"    train(args)",
		`  File "/srv/train.py", line 69, in train`,
		"    data = ray.get(manager.generate.remote(rollout_id))",
		`  File "/usr/lib/python3/ray/_private/worker.py", line 2981, in get`,
		"    values = worker.get_objects(",
	}
	rows := []struct {
		name string
		row  func(n int, msg string) []string
	}{
		{"time, blank, cut pod name", func(n int, msg string) []string {
			return []string{msg, "2026-03-18 05:25:0" + string(rune('0'+n%10)), "", "2855e530…vdumckda"}
		}},
		{"RFC 3339 time and host", func(n int, msg string) []string {
			return []string{msg, "2026-03-18T05:25:02.123Z", "gpu-node-17"}
		}},
		{"time only", func(n int, msg string) []string {
			return []string{msg, "2026-03-18 05:25:02", ""}
		}},
	}
	for _, r := range rows {
		for _, label := range []string{"", "3: "} {
			t.Run(r.name+" "+label, func(t *testing.T) {
				var lines []string
				for i, m := range tb {
					for _, l := range r.row(i, m) {
						lines = append(lines, label+l)
					}
				}
				lines = append(lines, label+"[2026-03-18 05:26:00] next record")
				got := assemble(t, Options{}, strings.Join(lines, "\n"))
				if len(got) != 2 {
					t.Fatalf("got %d entries, want 2: %+v", len(got), views(got))
				}
				e := got[0]
				if e.Lines != len(lines)-1 || e.Traceback == nil || len(e.Traceback.Links[0].Frames) != 3 {
					t.Fatalf("first entry %d lines, want %d, traceback %+v:\n%s", e.Lines, len(lines)-1, e.Traceback, e.Text)
				}
				if strings.Contains(e.Text, "2026-03-18") || strings.Contains(e.Text, "vdumckda") || strings.Contains(e.Text, "gpu-node") {
					t.Errorf("a column line stayed in the text:\n%s", e.Text)
				}
			})
		}
	}
}

func TestColumnFiller(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []bool
	}{
		{"records", []string{"[2026-03-18 05:25:02] x", "Killed", "RuntimeError: x"}, []bool{false, false, false}},
		{"a time, then a word of prose", []string{"2026-03-18 05:25:02", "Killed"}, []bool{true, false}},
		{"a time, then a source, then it again", []string{"2026-03-18 05:25:02", "pod-7f9c", "x", "pod-7f9c"}, []bool{true, true, false, true}},
		{"a label announces", []string{"2026-03-18 05:25:02", "step1:"}, []bool{true, false}},
		{"a time with a message is a record", []string{"2026-03-18 05:25:02 started"}, []bool{false}},
	}
	for _, tt := range tests {
		var c columnFiller
		for i, l := range tt.lines {
			if got := c.filler(l); got != tt.want[i] {
				t.Errorf("%s: line %d %q: filler = %v, want %v", tt.name, i, l, got, tt.want[i])
			}
		}
	}
}

func TestFamilyLabelAlone(t *testing.T) {
	for s, want := range map[string]bool{
		"3: ":                        true,
		"[1,3]<stderr>:":             true,
		"1812:":                      true,
		"2025-11-06 02:10:00.702 | ": true,
		"3: x":                       false,
		"RuntimeError:":              false,
		"[2025-11-06 02:10:00] ":     false,
	} {
		if got := familyLabelAlone(s); got != want {
			t.Errorf("familyLabelAlone(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzColumnFiller checks that no input panics, the remembered source
// column stays within its bound, and an assembler reading console rows
// around the lines keeps FuzzAssemble's promises.
func FuzzColumnFiller(f *testing.F) {
	for _, s := range []string{"2026-03-18 05:25:02", "2855e530…vdumckda", "3: ", "Traceback (most recent call last):", "", "3: 2026-03-18T05:25:02Z"} {
		f.Add(s, "pod-1")
	}
	o := Options{MaxLines: 20, MaxBytes: 2048, MaxLineBytes: 256, Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)}
	f.Fuzz(func(t *testing.T, a, b string) {
		var c columnFiller
		for _, s := range []string{a, b, a, "", b} {
			c.filler(s)
			if c.n > maxColumnToken {
				t.Fatalf("source column of %d bytes", c.n)
			}
		}
		as := NewAssembler(o)
		lines := []string{"Traceback (most recent call last):", a, "", b, `  File "a.py", line 1, in f`, a, b, "    g()", "3: " + a, "3: "}
		var got []Entry
		for i, l := range lines {
			got = append(got, as.Push(Line{Text: l, Offset: int64(i + 1)})...)
		}
		got = append(got, as.Flush()...)
		next, sum := int64(1), 0
		for _, e := range got {
			if e.FirstOffset != next || int64(e.Lines) != e.LastOffset-e.FirstOffset+1 {
				t.Fatalf("entry %d-%d (%d lines) does not follow line %d", e.FirstOffset, e.LastOffset, e.Lines, next-1)
			}
			next = e.LastOffset + 1
			sum += e.Lines
			checkTextAndMessage(t, &e)
		}
		if sum != len(lines) {
			t.Fatalf("entries hold %d lines, pushed %d", sum, len(lines))
		}
	})
}
