package entry

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A relay re-logs every line a child process printed, its own prefix in
// front of each (a logging bridge's record header, a supervisor's or a
// compose service's column, a stream tag, Ray's actor, a container
// runtime's framing, journald): the child's traceback must assemble as
// if it had been printed directly.

// relayTraceback is a child's traceback as it printed it.
var relayTraceback = []string{
	"Traceback (most recent call last):",
	`  File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main`,
	`    return _run_code(code, main_globals, None,`,
	`  File "/srv/worker/serve/model_worker.py", line 290, in <module>`,
	`    runtime = sgl.Runtime(`,
	`  File "/srv/venv/lib/python3.10/site-packages/sglang/api.py", line 40, in Runtime`,
	`    return Runtime(*args, **kwargs)`,
	`TypeError: __init__() got multiple values for keyword argument 'log_level'`,
}

// relays put a prefix in front of the n-th line; times move with n, so
// that a learned prefix must hold whatever the digits are.
var relays = []struct {
	name   string
	prefix func(n int) string
}{
	{"stream bridge record (time | LEVEL | stream |)", func(n int) string {
		return fmt.Sprintf("2024-08-27 12:54:%02d | ERROR | stderr | ", 50+n/4)
	}},
	{"compose column before a stream bridge record", func(n int) string {
		return fmt.Sprintf("xllm-stream-1-1  | 2024-08-27 12:54:%02d | ERROR | stderr | ", 50+n/4)
	}},
	{"loguru record relaying a child", func(n int) string {
		return fmt.Sprintf("2024-08-27 12:54:%02d.%03d | ERROR    | worker:relay:42 - ", 50+n/4, 7*n)
	}},
	{"Python logging record relaying a child", func(n int) string {
		return fmt.Sprintf("2024-08-27 12:54:%02d,%03d - child - ERROR - ", 50+n/4, 7*n)
	}},
	{"stream tag", func(int) string { return "[stderr] " }},
	{"worker and stream tags", func(int) string { return "[worker-0][stderr] " }},
	{"service column", func(int) string { return "sglang  | " }},
	{"Ray worker pid", func(int) string { return "(pid=4123) " }},
	{"Ray actor with its node", func(int) string { return "(SGLangEngine pid=4123, ip=10.0.0.1) " }},
	{"CRI framing", func(n int) string {
		return fmt.Sprintf("2025-01-02T03:04:%02d.123456789Z stderr F ", n)
	}},
	{"kubectl prefix and timestamps", func(n int) string {
		return fmt.Sprintf("[pod/sglang-0/sglang] 2025-01-02T03:04:%02d.123456789Z ", n)
	}},
	{"journald", func(n int) string { return fmt.Sprintf("Jan 02 03:04:%02d gpu-3 python[2741]: ", n) }},
	{"level and stream tag", func(int) string { return "ERROR:stderr: " }},
	{"Python logging record with the stream as the message's first word", func(n int) string {
		return fmt.Sprintf("2024-08-27 12:54:%02d,%03d - launcher - INFO - stderr: ", 50+n/4, 7*n)
	}},
	{"Python logging record, level in brackets and a logger's name", func(n int) string {
		return fmt.Sprintf("2024-08-27 12:54:%02d,%03d [INFO] launcher: stdout: ", 50+n/4, 7*n)
	}},
	{"GitLab Runner job log timestamps", func(n int) string {
		return fmt.Sprintf("2024-08-27T12:54:%02d.%06dZ 01E ", 50+n/4, 7*n)
	}},
	{"annotate-output", func(n int) string { return fmt.Sprintf("12:54:%02d E: ", 50+n/4) }},
	{"journald short-full", func(n int) string {
		return fmt.Sprintf("Tue 2024-08-27 12:54:%02d UTC gpu-3 python[2741]: ", 50+n/4)
	}},
	{"Heroku", func(n int) string {
		return fmt.Sprintf("2024-08-27T12:54:%02d.%06d+00:00 app[worker.1]: ", 50+n/4, 7*n)
	}},
	{"docker service logs", func(int) string { return "sglang_sglang.1.qhc6ff4l5yrv@gpu-node-3    | " }},
	{"moreutils ts", func(n int) string { return fmt.Sprintf("Aug 27 12:54:%02d ", 50+n/4) }},
	{"GNU parallel --tag", func(int) string { return "gpu-node-3\t" }},
}

func TestAssemblerRelayedTraceback(t *testing.T) {
	for _, r := range relays {
		t.Run(r.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(r.prefix(0) + "starting worker 0\n")
			for i, l := range relayTraceback {
				b.WriteString(r.prefix(i+1) + l + "\n")
			}
			b.WriteString(r.prefix(len(relayTraceback)+1) + "worker 0 exited")
			got := assemble(t, Options{}, b.String())
			tb := relayedTraceback(got)
			if tb == nil {
				t.Fatalf("no entry holds the traceback whole: %+v", views(got))
			}
		})
	}
}

// relayedTraceback returns the traceback of the entry that holds
// relayTraceback's lines 2 to 9 and ends there, or nil. The relay's line
// before it may open the entry: a logger's record the traceback follows
// directly reads as logger.exception's.
func relayedTraceback(es []Entry) *Traceback {
	for _, e := range es {
		if e.FirstOffset > 2 || e.LastOffset != 9 || e.Traceback == nil {
			continue
		}
		x := e.Traceback.Outermost()
		if x != nil && x.Type == "TypeError" && len(e.Traceback.Links[0].Frames) == 3 {
			return e.Traceback
		}
	}
	return nil
}

// A terminal that pads every row to its width with spaces, copied, glues
// a padded row to the next: the relay's prefix then stands inside a line
// behind a run of spaces.
func TestAssemblerGluedRelayLines(t *testing.T) {
	const p = "2024-06-02 00:26:10 | ERROR | stderr | "
	pad := strings.Repeat(" ", 40)
	in := strings.Join([]string{
		p + "Traceback (most recent call last):",
		p + `  File "<frozen runpy>", line 198, in _run_module_as_main`,
		p + `  File "<frozen runpy>", line 88, in _run_code` + pad + p + `  File "/srv/worker.py", line 290, in <module>`,
		p + "    runtime = sgl.Runtime(",
		p + "              ^^^^^^^^^^^^",
		p + `  File "/srv/sglang/api.py", line 39, in Runtime`,
		p + "    return Runtime(*args, **kwargs)" + pad + p + "           ^^^^^^^^^^^^^^^^^^^^^^^^" + pad + p + "TypeError: bad keyword",
		"[2024-06-02 00:26:11] next record",
	}, "\n")
	got := assemble(t, Options{}, in)
	if len(got) != 2 {
		t.Fatalf("got %d entries, want 2: %+v", len(got), views(got))
	}
	e := got[0]
	if e.FirstOffset != 1 || e.LastOffset != 7 || e.Lines != 7 {
		t.Errorf("entry %d-%d (%d lines), want 1-7 (7 lines)", e.FirstOffset, e.LastOffset, e.Lines)
	}
	if e.Traceback == nil {
		t.Fatalf("no traceback: %q", e.Text)
	}
	var funcs []string
	for _, f := range e.Traceback.Links[0].Frames {
		funcs = append(funcs, f.Func)
	}
	if want := "_run_module_as_main _run_code <module> Runtime"; strings.Join(funcs, " ") != want {
		t.Errorf("frames %q, want %q", strings.Join(funcs, " "), want)
	}
	if x := e.Traceback.Outermost(); x.Type != "TypeError" || x.Message != "bad keyword" {
		t.Errorf("exception %s: %s", x.Type, x.Message)
	}
	if strings.Contains(e.Text, p) || strings.Contains(e.Text, pad) {
		t.Errorf("a glued line's prefix or padding stayed in the text:\n%s", e.Text)
	}
}

func TestGluedAt(t *testing.T) {
	var pl prefixLearner
	pl.learn([]byte("\x01-\x01-\x01 \x01:\x01:\x01 | \x02 | stderr | "))
	pl.learn([]byte("3: "))
	const p = "2024-06-02 00:26:10 | ERROR | stderr | "
	tests := []struct {
		name      string
		in        string
		end, next int
	}{
		{"no glue", `  File "x.py", line 1, in f`, 0, 0},
		{"glued frame", `  File "x.py", line 1, in f     ` + p + "  File", 27, 32},
		{"a run of spaces in a source line", "    x = 1    # aligned comment", 0, 0},
		{"a short prefix is text", "    total  3: items", 0, 0},
		{"the prefix with nothing after it", "    x = 1   " + p + "   ", 0, 0},
		{"indentation is not a glue", "    " + p + "x", 0, 0},
	}
	for _, tt := range tests {
		end, next, _ := pl.gluedAt(tt.in, "")
		if end != tt.end || next != tt.next {
			t.Errorf("%s: gluedAt(%q) = %d, %d, want %d, %d", tt.name, tt.in, end, next, tt.end, tt.next)
		}
	}
}

// FuzzGluedAt checks that gluedAt's cut points lie in the line, the first
// line ends before the next begins, and the next begins with a learned
// prefix; and that an assembler reading the line among a relay's lines
// keeps its promises (FuzzAssemble's checks, on lines with glue).
func FuzzGluedAt(f *testing.F) {
	const p = "2024-06-02 00:26:10 | ERROR | stderr | "
	for _, s := range []string{
		`  File "x.py", line 1, in f     ` + p + "  File \"y.py\", line 2, in g",
		"    return f(*a)" + strings.Repeat(" ", 30) + p + "    ^^^^" + strings.Repeat(" ", 30) + p + "E: x",
		"    x = 1    # aligned",
		"  " + p,
		p + "  " + p + "  " + p,
	} {
		f.Add(s)
	}
	o := Options{MaxLines: 20, MaxBytes: 2048, MaxLineBytes: 256, Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)}
	f.Fuzz(func(t *testing.T, s string) {
		var pl prefixLearner
		pl.learn([]byte("\x01-\x01-\x01 \x01:\x01:\x01 | \x02 | stderr | "))
		for _, own := range []string{"", p, "3: " + p} {
			if end, next, n := pl.gluedAt(s, own); end != 0 || next != 0 || n != 0 {
				if end <= 0 || end >= next || next+n > len(s) || n < minGluedPrefix || isBlank(s[next+n:]) {
					t.Fatalf("gluedAt(%q, %q) = %d, %d, %d", s, own, end, next, n)
				}
			}
		}
		a := NewAssembler(o)
		lines := []string{p + tbStart, p + `  File "a.py", line 1, in f`, p + s, p + s, "next"}
		var got []Entry
		for i, l := range lines {
			got = append(got, a.Push(Line{Text: l, Offset: int64(i + 1)})...)
		}
		got = append(got, a.Flush()...)
		next, sum := int64(1), 0
		for _, e := range got {
			if e.FirstOffset != next || int64(e.Lines) != e.LastOffset-e.FirstOffset+1 {
				t.Fatalf("entry %d-%d (%d lines) does not follow line %d", e.FirstOffset, e.LastOffset, e.Lines, next-1)
			}
			next = e.LastOffset + 1
			sum += e.Lines
			checkTextAndMessage(t, &e)
			if len(e.Raw) > o.MaxBytes || strings.Count(e.Raw, "\n")+1 > o.MaxLines+1 {
				t.Fatalf("entry of %d bytes and %d lines, bounds %d and %d", len(e.Raw), strings.Count(e.Raw, "\n")+1, o.MaxBytes, o.MaxLines)
			}
		}
		if sum != len(lines) {
			t.Fatalf("entries hold %d lines, pushed %d", sum, len(lines))
		}
	})
}

// A viewer's column (Loki's "time | "), a kubectl stamp or a launcher's
// label before a relay's records, the second line holding its next line
// glued behind a run of padding (a copied terminal): the frame in the
// glued part is no evidence of a prefix that long, so the column is
// learned from the first two lines, and the first record is read behind it
// as the others are.
func TestPrefixLearnedPastGluedFrame(t *testing.T) {
	body := []string{
		"ERROR 10-11 16:03:09 engine.py:157] RuntimeError('Error in model execution: Loading lora /m/adapter failed')",
		"ERROR 10-11 16:03:09 engine.py:157] Traceback (most recent call last):" + strings.Repeat(" ", 40) + "ERROR 10-11 16:03:09 engine.py:157]   File \"/v/lora/worker_manager.py\", line 94, in _load_adapter",
		"ERROR 10-11 16:03:09 engine.py:157]     lora = self._lora_model_cls.from_local_checkpoint(",
		"ERROR 10-11 16:03:09 engine.py:157] ValueError: base_model.model.lm_head.weight is unsupported LoRA weight",
	}
	for _, prefix := range []func(n int) string{
		func(n int) string { return "2025-11-06 02:10:00." + itoa(100+n) + " | " },
		func(n int) string { return "3: " },
		func(n int) string { return "[pod/vllm-0/vllm] " },
	} {
		var lines []string
		for n, l := range body {
			lines = append(lines, prefix(n)+l)
		}
		got := assemble(t, Options{}, strings.Join(lines, "\n"))
		if len(got) == 0 || got[0].Prefix != prefix(0) || got[0].Format != FormatPython || got[0].Level != LevelError {
			t.Fatalf("%q: first record not read behind its prefix: %+v", prefix(0), prefixViews(got))
		}
		last := got[len(got)-1]
		if o := last.Traceback.Outermost(); o == nil || o.Type != "ValueError" {
			t.Errorf("%q: traceback not read: %+v", prefix(0), prefixViews(got))
		}
	}
}
