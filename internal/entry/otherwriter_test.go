package entry

import (
	"fmt"
	"strings"
	"testing"
)

// A line under another writer's own header (vLLM's relayed or plain
// logger header, TGI's launcher, a Python logger's), a Python warning's
// first line, or a traceback's start after a blank line is that writer's
// record, whatever sglang record is open before it: it never lends its
// text to the sglang entry, nor the sglang header its engine to it. An
// sglang record's own continuations (indented lines, an exception's
// message lines, a dict or JSON dump, wrapped text) still join it.

// sglangOpeners are sglang records the next line may continue: a plain
// message, an exception type alone whose message lines follow (with and
// without the space a print leaves), a line that announces a traceback
// with a word wrap's space, and a record whose traceback ended.
var sglangOpeners = []struct {
	name  string
	lines []string
}{
	{"plain message", []string{"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: boom"}},
	{"exception type alone", []string{"[2026-05-28 00:11:09 TP0] ValueError:"}},
	{"exception type and a space", []string{"[2026-05-28 00:11:09 TP3] torch.OutOfMemoryError: "}},
	{"announcing line ending in a space", []string{"[2026-05-28 00:11:09 DP0 TP0 EP0] Scheduler hit an exception: "}},
	{"record with its traceback", []string{
		"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3120, in run_scheduler_process`,
		"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)",
		"RuntimeError: bad",
	}},
}

// otherWriters are another writer's lines: the first (after the blank
// lines it starts with) opens its record.
var otherWriters = []struct {
	name   string
	format Format
	lines  []string
}{
	{"vLLM relayed by its process", FormatPython, []string{"(EngineCore_DP0 pid=12) ERROR 05-28 00:11:09 [core.py:708] EngineCore failed to start."}},
	{"vLLM logger", FormatPython, []string{"ERROR 05-28 00:11:09 [file.py:12] something failed"}},
	{"TGI launcher", FormatDynamo, []string{"2026-05-28T00:11:09.123456Z ERROR text_generation_launcher: Shard 0 failed to start"}},
	{"Python logging", FormatPython, []string{"2026-05-28 00:11:09,123 - module - ERROR - it failed"}},
	{"Python warning", "", []string{"/srv/venv/lib/python3.10/site-packages/x.py:54: FutureWarning: `foo` is deprecated"}},
	{"traceback after a blank line", "", []string{
		"",
		"Traceback (most recent call last):",
		`  File "x.py", line 1, in f`,
		"ValueError: x",
	}},
}

// otherWriterWrappers put a wrapper in front of every line of the log
// (none, a compose service's column, kubectl's, ANSI colour): the
// lines it wraps are read as they would be alone.
var otherWriterWrappers = []struct {
	name string
	wrap func(n int) string
}{
	{"bare", func(int) string { return "" }},
	{"compose column", func(int) string { return "sglang-1  | " }},
	{"kubectl prefix and timestamps", func(n int) string {
		return fmt.Sprintf("[pod/sglang-0/sglang] 2026-05-28T00:11:%02d.123456789Z ", n)
	}},
	{"ANSI colour", func(int) string { return "\x1b[0;31m" }},
}

func TestOtherWriterAfterSGLangRecord(t *testing.T) {
	for _, wr := range otherWriterWrappers {
		for _, o := range sglangOpeners {
			for _, w := range otherWriters {
				t.Run(wr.name+"/"+o.name+"/"+w.name, func(t *testing.T) {
					testOtherWriterAfter(t, wr.wrap, o.lines, w.lines, w.format)
				})
			}
		}
	}
}

func testOtherWriterAfter(t *testing.T, wrap func(int) string, sg, other []string, format Format) {
	t.Helper()
	var ls []string
	for i, l := range append(append([]string{}, sg...), other...) {
		if l != "" {
			l = wrap(i) + l
		}
		ls = append(ls, l)
	}
	text := strings.Join(ls, "\n")
	es := assemble(t, Options{}, text)
	blanks := 0
	for blanks < len(other) && other[blanks] == "" {
		blanks++
	}
	want := []string{
		fmt.Sprintf("%s lines=%d", FormatSRT, len(sg)+blanks),
		fmt.Sprintf("%s lines=%d", format, len(other)-blanks),
	}
	if got := formatsAndLines(es); strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("entries %q, want %q\n%s", got, want, text)
	}
}

// In the other order, an sglang record after another writer's line starts
// its own entry, and each keeps its own format.
func TestSGLangRecordAfterOtherWriter(t *testing.T) {
	for _, w := range otherWriters {
		for _, o := range sglangOpeners {
			t.Run(w.name+"/"+o.name, func(t *testing.T) {
				text := strings.Join(append(append([]string{}, w.lines...), o.lines...), "\n")
				es := assemble(t, Options{}, text)
				var got []Format
				for _, e := range es {
					if e.Format != "" || e.Message != "" {
						got = append(got, e.Format)
					}
				}
				if len(got) != 2 || got[0] != w.format || got[1] != FormatSRT {
					t.Errorf("formats %q (%q), want [%q srt]\n%s", got, formatsAndLines(es), w.format, text)
				}
			})
		}
	}
}

// An sglang record's own lines still continue it: they carry no writer's
// header.
func TestSGLangRecordKeepsItsContinuations(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines []string
	}{
		{"indented line", []string{"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: boom", "    while loading the model"}},
		{"exception's message lines", []string{"[2026-05-28 00:11:09 TP0] ValueError:", "The checkpoint you are trying to load has model type `foo`", "but Transformers does not recognize this architecture."}},
		{"exception's message after a space", []string{"[2026-05-28 00:11:09 TP0] RuntimeError: ", "CUDA error: an illegal memory access was encountered"}},
		{"dict dump", []string{"[2026-05-28 00:11:09 TP0] server_args:", "{'model_path': 'x', 'tp_size': 2,", " 'port': 30000}"}},
		{"JSON dump", []string{"[2026-05-28 00:11:09 TP0] Received request:", `{"text": "hi", "sampling_params": {"max_new_tokens": 8}}`}},
		{"wrapped text", []string{"[2026-05-28 00:11:09 TP0] Not enough memory. Please try to increase --mem-fraction-static or", "decrease --max-running-requests."}},
		{"announced traceback with a wrap's space", []string{"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: ", "Traceback (most recent call last):", `  File "x.py", line 1, in f`, "ValueError: x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Join(c.lines, "\n")
			es := assemble(t, Options{}, text)
			want := fmt.Sprintf("%s lines=%d", FormatSRT, len(c.lines))
			if got := formatsAndLines(es); len(got) != 1 || got[0] != want {
				t.Errorf("entries %q, want [%q]\n%s", got, want, text)
			}
		})
	}
}

func formatsAndLines(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = fmt.Sprintf("%s lines=%d", e.Format, e.Lines)
	}
	return out
}
