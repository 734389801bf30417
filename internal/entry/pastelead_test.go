package entry

import (
	"fmt"
	"strings"
	"testing"
)

// summary is what a paste must not change of a stream's entries: their
// lines, headers and text.
func summary(es []Entry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%d %s %s %q %q\n", e.Lines, e.Format, e.Level, e.Message, e.Text)
	}
	return b.String()
}

// A log pasted as a whole behind a code block's indentation, a tab or a
// list item's marker reads as the log: a bare exception line with no
// header, a traceback, records and blank lines between them.
func TestPasteLeadReadsAsPlain(t *testing.T) {
	logs := map[string]string{
		"bare": "Loading the model\n" +
			"ValueError: must encode to exactly one token\n",
		"traceback": "[2025-01-16 10:11:13 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
			"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2345, in run_scheduler_process\n" +
			"    scheduler.event_loop_overlap()\n" +
			"RuntimeError: NCCL error: unhandled system error\n" +
			"\n" +
			"[2025-01-16 10:11:14] Received sigquit from a child process. It usually means the child failed.\n",
		"dump": "Fatal Python error: Aborted\n" +
			"\n" +
			"Thread 0x00007ee43dfff640 (most recent call first):\n" +
			"  File \"/usr/lib/python3.10/threading.py\", line 953 in run\n",
	}
	for name, log := range logs {
		plain := summary(assemble(t, Options{}, strings.TrimSuffix(log, "\n")))
		for _, lead := range []string{"    ", "\t", "- ", "* ", "+ "} {
			var b strings.Builder
			for _, l := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
				b.WriteString(lead + l + "\n")
			}
			got := summary(assemble(t, Options{}, strings.TrimSuffix(b.String(), "\n")))
			if got != plain {
				t.Errorf("%s behind %q:\n%s\nwant as plain:\n%s", name, lead, got, plain)
			}
		}
	}
}

// A stream whose own lines are indented keeps them: the lead holds only
// while every line has it.
func TestIndentLeadEndsAtALineWithout(t *testing.T) {
	var l indentLead
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"    self.init()", 4},
		{"", 0},
		{"      x", 4},
		{"  File \"a.py\", line 1, in f", 0},
		{"    raise X", 0},
	} {
		if got := l.strip(tt.in); got != tt.want {
			t.Errorf("strip(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	l = indentLead{}
	if l.strip("[2025-01-16 10:11:13] x") != 0 || l.strip("\ty") != 0 {
		t.Error("a lead taken after the stream's first line")
	}
	l = indentLead{}
	if l.strip("        [Build][Op]Build op failed") != 0 || l.strip("        [Set][Options]init failed!") != 0 {
		t.Error("a first line indented deeper than a code block's lead is the log's own")
	}
	l = indentLead{}
	if l.strip("        x = f(") != 0 || l.strip("            ^^^^") != 0 || l.strip("      File \"a.py\", line 1, in f") != 4 || l.strip("    TypeError: t") != 4 {
		t.Error("a source line and its carets at eight spaces, then a frame at six: want the code block's lead from the frame on")
	}
	l = indentLead{}
	if l.strip("        x = f(") != 0 || l.strip("  File \"a.py\", line 1, in f") != 0 || l.strip("      File \"a.py\", line 1, in f") != 0 {
		t.Error("a line indented by less than four after a deep first line: want no lead")
	}
	l = indentLead{}
	if l.strip("\t    raise X") != 1 || l.strip("\tValueError: v") != 1 {
		t.Error("a tab before a line's own indentation: want the tab alone")
	}
	l = indentLead{}
	if l.strip("- a") != 2 || l.strip("-") != 1 || l.strip("- b") != 2 || l.strip("* c") != 0 {
		t.Error("a list item's marker: want it on every line, alone on an empty item")
	}
}

// Behind a leading line of prose, a paste lead is learned from the
// records and frames behind it.
func TestPasteLeadLearnedAfterProse(t *testing.T) {
	log := "[2025-01-16 10:11:13 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
		"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2345, in run_scheduler_process\n" +
		"    scheduler.event_loop_overlap()\n" +
		"RuntimeError: NCCL error: unhandled system error"
	plain := assemble(t, Options{}, log)
	for _, lead := range []string{"    ", "\t", "- ", "* "} {
		var lines []string
		for _, l := range strings.Split(log, "\n") {
			lines = append(lines, lead+l)
		}
		es := assemble(t, Options{}, "Here is the log:\n\n"+strings.Join(lines, "\n"))
		if len(es) < 2 || summary(es[len(es)-1:]) != summary(plain) {
			t.Errorf("behind %q after prose:\n%s\nwant last as:\n%s", lead, summary(es), summary(plain))
		}
	}
}

// A code block around the tail of a traceback that opens at one of its
// frames: CPython indents a frame by two spaces, so a first line that is a
// traceback's frame at six tells the code block's four, and the tail reads
// as it would unquoted, its exception line included; so does a faulthandler
// frame at six (its dump indents frames by two as well) and a py-spy frame
// at eight (py-spy indents by four). A log's own deeper indentation does
// not.
func TestCodeBlockAroundATracebackTail(t *testing.T) {
	tail := "  File \"/sgl/python/sglang/srt/mem_cache/storage/hf3fs/storage_hf3fs.py\", line 220, in __init__\n" +
		"    self.num_pages = self.file_size // self.bytes_per_page\n" +
		"                     ~~~~~~~~~~~~~~~^^~~~~~~~~~~~~~~~~~~~~\n" +
		"ZeroDivisionError: integer division or modulo by zero"
	plain := summary(assemble(t, Options{}, tail))
	var b strings.Builder
	for _, l := range strings.Split(tail, "\n") {
		b.WriteString("    " + l + "\n")
	}
	es := assemble(t, Options{}, strings.TrimSuffix(b.String(), "\n"))
	if got := summary(es); got != plain {
		t.Errorf("behind a code block:\n%s\nwant as plain:\n%s", got, plain)
	}
	if x := es[0].Traceback.Outermost(); x == nil || x.Type != "ZeroDivisionError" {
		t.Errorf("exception %+v, want ZeroDivisionError", x)
	}
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"      File \"/a/b.py\", line 12, in f", 4},
		{"      File \"/a/b.py\", line 12 in f", 4},                      // faulthandler's, as indented
		{"        decorate_context (torch/utils/_contextlib.py:120)", 4}, // py-spy's at eight
		{"        decorate_context (torch/utils/_contextlib.py:x)", 0},
		{"        the pool holds (kv.py:12) pages", 0},
		{"      EE9999: Inner Error!", 0},           // a log's own indentation
		{"      File \"/a/b.py\", line x, in f", 0}, // no line number
	} {
		var l indentLead
		if got := l.strip(tt.in); got != tt.want {
			t.Errorf("strip(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// A paste that opens inside a traceback's tail, with a frame, a source
// line or an unindented frame (a log that lost its indentation), behind
// no lead, a list item's two spaces or a code block's four: the exception
// line, which CPython prints unindented, tells the lead, and the tail
// reads as it does plain.
func TestLeadToldByTheExceptionLine(t *testing.T) {
	tails := map[string]string{
		"frame": "  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2345, in run_scheduler_process\n" +
			"    scheduler.event_loop_overlap()\n" +
			"RuntimeError: NCCL error: unhandled system error",
		"source line": "    batch_output.next_draft_input = self.draft_worker._draft_extend_for_prefill(\n" +
			"                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
			"  File \"/sgl/python/sglang/srt/speculative/eagle_worker_v2.py\", line 391, in _draft_extend_for_prefill\n" +
			"    forward_batch.spec_info.prepare_for_extend(batch)\n" +
			"TypeError: 'NoneType' object is not subscriptable",
		"unindented frame": "File \".../sglang/srt/disaggregation/common/conn.py\", line 675, in _handle_route_get\n" +
			"    return web.json_response(self.prefill_port_table[engine_rank])\n" +
			"KeyError: 3",
		"faulthandler's dump": "  File \"/usr/lib/python3.10/threading.py\", line 1016 in _bootstrap_inner\n" +
			"\n" +
			"Thread 0x00007fdefefc5640 (most recent call first):\n" +
			"  File \"/usr/lib/python3.10/threading.py\", line 324 in wait\n" +
			"\n" +
			"Fatal Python error: Aborted",
		"py-spy's dump": "    run_scheduler_process (scheduler.py:2612)\n" +
			"    _bootstrap (multiprocessing/process.py:314)\n" +
			"Thread 4110423 (idle): \"Thread-1 (_read_thread)\"\n" +
			"    _recv_msg (torch/_inductor/compile_worker/subproc_pool.py:61)\n" +
			"RuntimeError: x",
		"chained": "  File \"/a/b.py\", line 1, in f\n" +
			"    g()\n" +
			"KeyError: 'k'\n" +
			"\n" +
			"During handling of the above exception, another exception occurred:\n" +
			"\n" +
			"Traceback (most recent call last):\n" +
			"  File \"/a/c.py\", line 2, in h\n" +
			"ValueError: v",
	}
	// What the lead must not change: the entries from the line that tells
	// it on, their lines and the exception each reads (the lines before
	// keep the lead, which a traceback's frames and source lines read
	// through, and the exception line's entry may hold them).
	from := int64(0)
	read := func(es []Entry) string {
		var b strings.Builder
		for _, e := range es {
			if e.LastOffset < from {
				continue
			}
			exc := ""
			if o := e.Traceback.Outermost(); o != nil {
				exc = o.Type + ": " + o.Message
			}
			fmt.Fprintf(&b, "%d %q\n", e.Lines, exc)
		}
		return b.String()
	}
	for name, tail := range tails {
		from = 0
		for i, l := range strings.Split(tail, "\n") {
			if l != "" && l[0] != ' ' && !strings.HasPrefix(l, "File ") {
				from = int64(i + 1)
				break
			}
		}
		plain := read(assemble(t, Options{}, tail))
		for _, lead := range []string{"  ", "    "} {
			var b strings.Builder
			for _, l := range strings.Split(tail, "\n") {
				if l != "" {
					l = lead + l
				}
				b.WriteString(l + "\n")
			}
			if got := read(assemble(t, Options{}, strings.TrimSuffix(b.String(), "\n"))); got != plain {
				t.Errorf("%s behind %q:\n%s\nwant as plain:\n%s", name, lead, got, plain)
			}
		}
	}
	// An indented exception line after an unindented line is the log's:
	// no lead.
	var l indentLead
	for _, s := range []string{"  File \"/a/b.py\", line 1, in f", "plain text", "  ValueError: x"} {
		if n := l.strip(s); n != 0 {
			t.Errorf("strip(%q) = %d", s, n)
		}
	}
}

func TestIsDumpHeader(t *testing.T) {
	for s, want := range map[string]bool{
		"Thread 0x00007fdefefc5640 (most recent call first):":         true,
		"Current thread 0x00007fe403b964c0 (most recent call first):": true,
		`Thread 4110423 (idle): "Thread-1 (_read_thread)"`:            true,
		`Thread 0x7F2A (active+gil): "MainThread"`:                    true,
		"Thread pool exhausted (idle): retrying":                      false,
		"Thread 12 (sleeping): x":                                     false,
		"Threads (idle): x":                                           false,
	} {
		if got := isDumpHeader(s); got != want {
			t.Errorf("isDumpHeader(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestNumberedPaste: a log quoted as a Markdown ordered list, one item a
// line (numbers past 9 too, an empty line as a bare marker), is read as
// the log; a message's own numbered list after a first line without a
// marker keeps its numbers.
func TestNumberedPaste(t *testing.T) {
	lines := []string{
		"[2025-11-06 02:10:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`,
		`    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)`,
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 310, in __init__`,
		`    self.init_memory_pool()`,
		`  File "/sgl/python/sglang/srt/mem_cache/memory_pool.py", line 88, in init_memory_pool`,
		`    raise RuntimeError("Not enough memory.")`,
		"RuntimeError: Not enough memory.",
		"",
		"[2025-11-06 02:10:01] Received sigquit from a child process. It usually means the child failed.",
	}
	want := assemble(t, Options{}, strings.Join(lines, "\n"))
	var numbered []string
	for i, l := range lines {
		numbered = append(numbered, strings.TrimRight(fmt.Sprintf("%d. %s", i+3, l), " "))
	}
	got := assemble(t, Options{}, strings.Join(numbered, "\n"))
	if len(got) != len(want) {
		t.Fatalf("numbered: %d entries, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Message != want[i].Message || (got[i].Traceback == nil) != (want[i].Traceback == nil) {
			t.Errorf("entry %d: %q, want %q", i, got[i].Message, want[i].Message)
		}
	}
	own := "[2025-11-06 02:10:00 TP0] Possible solutions:\n1. set --mem-fraction-static to a smaller value\n2. set --cuda-graph-max-bs to a smaller value"
	if es := assemble(t, Options{}, own); len(es) != 1 || !strings.Contains(es[0].Text, "\n2. set --cuda-graph-max-bs") {
		t.Errorf("a message's own list lost its numbers: %+v", es)
	}
}
