package entry

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// assemble pushes text line by line (Offset = line number) and flushes.
func assemble(t testing.TB, o Options, text string) []Entry {
	t.Helper()
	a := NewAssembler(o)
	var out []Entry
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		out = append(out, a.Push(Line{Text: l, Source: "s", Stream: "stderr", Offset: int64(i + 1)})...)
	}
	out = append(out, a.Flush()...)
	sum := 0
	for _, e := range out {
		sum += e.Lines
	}
	if sum != len(lines) {
		t.Fatalf("entries hold %d lines, pushed %d", sum, len(lines))
	}
	return out
}

// view is the part of an Entry the rule tests look at.
type view struct {
	Lines  string // first-last
	Format Format
	Native string
	Msg    string
	Exc    string // outermost exception as "Type: message"; "" without a traceback
}

func views(es []Entry) []view {
	out := make([]view, len(es))
	for i, e := range es {
		out[i] = view{Lines: fmt.Sprintf("%d-%d", e.FirstOffset, e.LastOffset), Format: e.Format, Native: e.Native, Msg: e.Message}
		if x := e.Traceback.Outermost(); x != nil {
			out[i].Exc = x.Type
			if x.Message != "" {
				out[i].Exc += ": " + x.Message
			}
		}
	}
	return out
}

func TestAssemblerSeedScenario(t *testing.T) {
	in := `[2026-03-17 17:31:52 TP0] Ascend Transfer Engine initialization failed.
[2026-03-17 17:31:52 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2963, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)
  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/ascend/transfer_engine.py", line 84, in initialize
    raise RuntimeError("Ascend Transfer Engine initialization failed.")
RuntimeError: Ascend Transfer Engine initialization failed.

[2026-03-17 17:31:53] Received sigquit from a child process. It usually means the child failed.`
	got := assemble(t, Options{}, in)
	tp0 := Ranks{DP: -1, PP: -1, AttnCP: -1, MoeDP: -1, TP: 0, EP: -1}
	tb := &Traceback{Links: []Exception{{
		Type: "RuntimeError", Message: "Ascend Transfer Engine initialization failed.",
		Frames: []Frame{
			{"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", 2963, "run_scheduler_process"},
			{"/sgl-workspace/sglang/python/sglang/srt/disaggregation/ascend/transfer_engine.py", 84, "initialize"},
		},
	}}}
	lines := strings.Split(in, "\n")
	want := []Entry{
		{
			Source: "s", Stream: "stderr", FirstOffset: 1, LastOffset: 1, Lines: 1,
			Format: FormatSRT, Time: time.Date(2026, 3, 17, 17, 31, 52, 0, time.UTC), Ranks: tp0,
			Message: "Ascend Transfer Engine initialization failed.",
			Text:    "Ascend Transfer Engine initialization failed.", Raw: lines[0],
		},
		{
			Source: "s", Stream: "stderr", FirstOffset: 2, LastOffset: 8, Lines: 7,
			Format: FormatSRT, Time: time.Date(2026, 3, 17, 17, 31, 52, 0, time.UTC), Ranks: tp0,
			Message:   "Scheduler hit an exception: Traceback (most recent call last):",
			Text:      strings.TrimPrefix(strings.Join(lines[1:7], "\n"), "[2026-03-17 17:31:52 TP0] "),
			Raw:       strings.Join(lines[1:7], "\n"),
			Traceback: tb,
		},
		{
			Source: "s", Stream: "stderr", FirstOffset: 9, LastOffset: 9, Lines: 1,
			Format: FormatSRT, Time: time.Date(2026, 3, 17, 17, 31, 53, 0, time.UTC), Ranks: NoRanks,
			Message: "Received sigquit from a child process. It usually means the child failed.",
			Text:    "Received sigquit from a child process. It usually means the child failed.", Raw: lines[8],
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestAssemblerRules(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []view
	}{
		{
			name: "every header starts an entry",
			in:   "[2026-07-01 09:31:38 TP0] a\n[2026-07-01 09:31:38 TP1] b\nINFO:     c\n[09:31:38] d",
			want: []view{{"1-1", FormatSRT, "", "a", ""}, {"2-2", FormatSRT, "", "b", ""}, {"3-3", FormatUvicorn, "", "c", ""}, {"4-4", FormatLegacy, "", "d", ""}},
		},
		{
			name: "srt multi-line message",
			in:   "[2026-07-01 09:31:39 DP0 TP0] Prefill out of memory. Try to lower your batch size.\nTry to allocate 8192 tokens.\navailable_size()=1024\n[2026-07-01 09:31:40 DP0 TP0] Decode batch",
			want: []view{{"1-3", FormatSRT, "", "Prefill out of memory. Try to lower your batch size.", ""}, {"4-4", FormatSRT, "", "Decode batch", ""}},
		},
		{
			name: "srt keeps blank lines inside py-spy dumps",
			in:   "[2026-07-01 09:36:41 TP0] Pyspy dump for PID 1 (py-spy dump --pid 1):\nProcess 1: x\n\nThread 1 (active): \"MainThread\"\n    f (a.py:1)\n\n[2026-07-01 09:36:42] next",
			want: []view{{"1-6", FormatSRT, "", "Pyspy dump for PID 1 (py-spy dump --pid 1):", ""}, {"7-7", FormatSRT, "", "next", ""}},
		},
		{
			name: "logger.exception after an srt header",
			in:   "[2026-07-01 09:36:41] Error in request: boom\nTraceback (most recent call last):\n  File \"s.py\", line 1, in f\nValueError: boom",
			want: []view{{"1-4", FormatSRT, "", "Error in request: boom", "ValueError: boom"}},
		},
		{
			name: "a second traceback after an srt record is a new entry",
			in:   "[2026-07-01 09:36:41 TP0] Scheduler hit an exception: Traceback (most recent call last):\n  File \"s.py\", line 1, in f\nValueError: a\nTraceback (most recent call last):\n  File \"m.py\", line 2, in g\nRuntimeError: b",
			want: []view{{"1-3", FormatSRT, "", "Scheduler hit an exception: Traceback (most recent call last):", "ValueError: a"}, {"4-6", FormatNone, "", "Traceback (most recent call last):", "RuntimeError: b"}},
		},
		{
			name: "blank then traceback after an srt record",
			in:   "[2026-07-01 09:36:41] Load weight begin.\n\nTraceback (most recent call last):\n  File \"m.py\", line 2, in g\nRuntimeError: b",
			want: []view{{"1-2", FormatSRT, "", "Load weight begin.", ""}, {"3-5", FormatNone, "", "Traceback (most recent call last):", "RuntimeError: b"}},
		},
		{
			name: "raw traceback ends at its exception line",
			in:   "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nException: x\nThis is not an exception.",
			want: []view{{"1-3", FormatNone, "", "Traceback (most recent call last):", "Exception: x"}, {"4-4", FormatNone, "", "This is not an exception.", ""}},
		},
		{
			name: "raw chain with blank lines, CUDA epilogue, note",
			in: "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nKeyError: 'k'\n\nThe above exception was the direct cause of the following exception:\n\n" +
				"Traceback (most recent call last):\n  File \"a.py\", line 3, in g\nRuntimeError: CUDA error: device-side assert triggered\n" +
				"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n" +
				"For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n  a note\n\nKilled",
			want: []view{{"1-13", FormatNone, "", "Traceback (most recent call last):", "RuntimeError: CUDA error: device-side assert triggered"}, {"14-14", FormatNative, NativeShell, "Killed", ""}},
		},
		{
			name: "plain line ending in a colon announces a traceback",
			in:   "An error occurred (1):\nTraceback (most recent call last):\n  File \"a.py\", line 1, in f\nZeroDivisionError: division by zero",
			want: []view{{"1-4", FormatNone, "", "An error occurred (1):", "ZeroDivisionError: division by zero"}},
		},
		{
			name: "unraisable exception header announces its traceback",
			in:   "Exception ignored in: <function _after_fork at 0x7f>\nTraceback (most recent call last):\n  File \"t.py\", line 1, in f\nAssertionError: ",
			want: []view{{"1-4", FormatNone, "", "Exception ignored in: <function _after_fork at 0x7f>", "AssertionError"}},
		},
		{
			name: "plain lines are single entries but take indented lines",
			in:   "first\nsecond\n/x/utils.py:54: FutureWarning: deprecated\n  warnings.warn(\nthird",
			want: []view{{"1-1", FormatNone, "", "first", ""}, {"2-2", FormatNone, "", "second", ""}, {"3-4", FormatNone, "", "/x/utils.py:54: FutureWarning: deprecated", ""}, {"5-5", FormatNone, "", "third", ""}},
		},
		{
			name: "warning line ends an srt entry",
			in:   "[2026-07-01 09:36:41] Load weight begin.\n/x/utils.py:54: UserWarning: y\n  warnings.warn(",
			want: []view{{"1-1", FormatSRT, "", "Load weight begin.", ""}, {"2-3", FormatNone, "", "/x/utils.py:54: UserWarning: y", ""}},
		},
		{
			name: "leading blank lines form a blank entry",
			in:   "\n\nfirst\n\n",
			want: []view{{"1-2", FormatNone, "", "", ""}, {"3-5", FormatNone, "", "first", ""}},
		},
		{
			name: "python logging traceback ends at its exception line",
			in:   "2023-07-09 00:00:00,000 ERROR    app prefix: Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nException: x\njava.lang.RuntimeException: y",
			want: []view{{"1-3", FormatPython, "", "app prefix: Traceback (most recent call last):", "Exception: x"}, {"4-4", FormatNone, "", "java.lang.RuntimeException: y", "java.lang.RuntimeException: y"}},
		},
		{
			name: "uvicorn ASGI exception group",
			in: "[2025-06-11 06:19:30] ERROR:    Exception in ASGI application\n  + Exception Group Traceback (most recent call last):\n  |   File \"s.py\", line 76, in collapse\n" +
				"  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n  +-+---------------- 1 ----------------\n    | Traceback (most recent call last):\n" +
				"    |   File \"h.py\", line 600, in generate\n    | ValueError: too long\n    +------------------------------------\nINFO:     127.0.0.1:1 - \"GET / HTTP/1.1\" 200 OK",
			want: []view{{"1-9", FormatUvicorn, "", "Exception in ASGI application", "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)"}, {"10-10", FormatUvicorn, "", "127.0.0.1:1 - \"GET / HTTP/1.1\" 200 OK", ""}},
		},
		{
			name: "header-less SyntaxError after an access line",
			in:   "INFO:     127.0.0.1:1 - \"GET / HTTP/1.1\" 200 OK\n  File \"c.py\", line 3\n    x = = 5\n        ^\nSyntaxError: invalid syntax",
			want: []view{{"1-1", FormatUvicorn, "", "127.0.0.1:1 - \"GET / HTTP/1.1\" 200 OK", ""}, {"2-5", FormatNone, "", "  File \"c.py\", line 3", "SyntaxError: invalid syntax"}},
		},
		{
			name: "faulthandler block with blank lines",
			in:   "Fatal Python error: Segmentation fault\n\nThread 0x00007f (most recent call first):\n  File \"t.py\", line 359 in wait\n\nCurrent thread 0x00007e (most recent call first):\n  File \"s.py\", line 1102 in loop\n\nExtension modules: numpy (total: 1)\nKilled",
			want: []view{{"1-9", FormatNative, NativeFaulthandler, "Fatal Python error: Segmentation fault", ""}, {"10-10", FormatNative, NativeShell, "Killed", ""}},
		},
		{
			name: "terminate called block then faulthandler",
			in:   "terminate called after throwing an instance of 'c10::DistBackendError'\n  what():  [PG 3 Rank 5] watchdog\nException raised from checkTimeout at a.cpp:609 (most recent call first):\nframe #0: f + 0x96\n\nFatal Python error: Aborted",
			want: []view{{"1-5", FormatNative, NativeTerminate, "terminate called after throwing an instance of 'c10::DistBackendError'", ""}, {"6-6", FormatNative, NativeFaulthandler, "Fatal Python error: Aborted", ""}},
		},
		{
			name: "native lines end a traceback and each other",
			in:   "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nn:1:2 [0] NCCL WARN x\nn:1:2 [0] NCCL INFO y\nI0820 02:41:20.446154 710 t.cpp:422] z",
			want: []view{{"1-2", FormatNone, "", "Traceback (most recent call last):", ""}, {"3-3", FormatNative, NativeNCCL, "n:1:2 [0] NCCL WARN x", ""}, {"4-4", FormatNative, NativeNCCL, "n:1:2 [0] NCCL INFO y", ""}, {"5-5", FormatNative, NativeGlog, "z", ""}},
		},
		{
			name: "CUDA device asserts group, then the Python error",
			in:   "a.cu:92: op(): block: [0,0,0], thread: [4,0,0] Assertion `x` failed.\na.cu:92: op(): block: [0,0,0], thread: [5,0,0] Assertion `x` failed.\n[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nRuntimeError: CUDA error: device-side assert triggered",
			want: []view{{"1-2", FormatNative, NativeCUDAAssert, "a.cu:92: op(): block: [0,0,0], thread: [4,0,0] Assertion `x` failed.", ""}, {"3-5", FormatSRT, "", "Scheduler hit an exception: Traceback (most recent call last):", "RuntimeError: CUDA error: device-side assert triggered"}},
		},
		{
			name: "Ascend block with CANN traceback",
			in:   "[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\nEZ9999: Inner Error!\n        TraceBack (most recent call last):\n        rtKernelLaunch failed\n[2025-09-19 14:34:09 TP0] next",
			want: []view{{"1-4", FormatNative, NativeAscend, "[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100 PTA call acl api failed.", ""}, {"5-5", FormatSRT, "", "next", ""}},
		},
		{
			name: "Ray-wrapped traceback",
			in:   "(TP0 pid=9, ip=10.0.0.1) Traceback (most recent call last): [repeated 2x across cluster]\n(TP0 pid=9, ip=10.0.0.1)   File \"a.py\", line 1, in f [repeated 2x across cluster]\n(TP0 pid=9, ip=10.0.0.1) ValueError: x [repeated 2x across cluster]",
			want: []view{{"1-3", FormatNone, "", "Traceback (most recent call last):", "ValueError: x"}},
		},
		{
			name: "lost indentation",
			in:   "Traceback (most recent call last):\nFile \"a.py\", line 5, in get\nraise Exception('spam')\nException: spam\nnext",
			want: []view{{"1-4", FormatNone, "", "Traceback (most recent call last):", "Exception: spam"}, {"5-5", FormatNone, "", "next", ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := views(assemble(t, Options{}, tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

// rankTraceback is one rank's crash record as sglang writes it.
func rankTraceback(tp int) []string {
	h := fmt.Sprintf("[2026-07-01 09:31:38 DP%d TP%d EP%d] ", tp, tp, tp)
	return []string{
		h + "Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl/scheduler.py", line 4128, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		`  File "/sgl/pynccl_wrapper.py", line 378, in NCCL_CHECK`,
		"    raise RuntimeError(f\"NCCL error: {error_str}\")",
		fmt.Sprintf("RuntimeError: NCCL error: unhandled system error (rank %d)", tp),
	}
}

func TestAssemblerEightRanks(t *testing.T) {
	t.Run("records back to back", func(t *testing.T) {
		// The end of one rank's traceback is followed directly by the next
		// rank's header, with or without sglang's blank line.
		var lines []string
		for tp := 0; tp < 8; tp++ {
			lines = append(lines, rankTraceback(tp)...)
			if tp%2 == 0 {
				lines = append(lines, "")
			}
		}
		got := assemble(t, Options{}, strings.Join(lines, "\n"))
		if len(got) != 8 {
			t.Fatalf("got %d entries, want 8", len(got))
		}
		for tp, e := range got {
			if e.Ranks.TP != tp || e.Ranks.DP != tp || e.Ranks.EP != tp {
				t.Errorf("entry %d: ranks %v", tp, e.Ranks)
			}
			want := fmt.Sprintf("NCCL error: unhandled system error (rank %d)", tp)
			if x := e.Traceback.Outermost(); x == nil || x.Type != "RuntimeError" || x.Message != want {
				t.Errorf("entry %d: outermost %+v, want RuntimeError: %s", tp, x, want)
			}
			if len(e.Traceback.Outermost().Frames) != 2 {
				t.Errorf("entry %d: %d frames, want 2", tp, len(e.Traceback.Outermost().Frames))
			}
		}
	})
	t.Run("interleaved line by line", func(t *testing.T) {
		// Round-robin interleaving: each rank's header still opens its own
		// entry with its ranks; header-less lines cannot carry a rank, so
		// they join the entry opened last. No line is lost.
		var lines []string
		for i := 0; i < 6; i++ {
			for tp := 0; tp < 8; tp++ {
				lines = append(lines, rankTraceback(tp)[i])
			}
		}
		got := assemble(t, Options{}, strings.Join(lines, "\n"))
		if len(got) != 8 {
			t.Fatalf("got %d entries, want 8", len(got))
		}
		for tp, e := range got {
			if e.Ranks.TP != tp {
				t.Errorf("entry %d: ranks %v", tp, e.Ranks)
			}
			if !strings.HasPrefix(e.Message, "Scheduler hit an exception:") {
				t.Errorf("entry %d: message %q", tp, e.Message)
			}
		}
		if x := got[7].Traceback.Outermost(); x == nil || x.Type != "RuntimeError" {
			t.Errorf("last entry outermost = %+v, want the RuntimeError lines", x)
		}
	})
}

func TestAssemblerHugeTraceback(t *testing.T) {
	const frames = 100000
	var b strings.Builder
	b.WriteString("[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):\n")
	for i := 0; i < frames; i++ {
		fmt.Fprintf(&b, "  File \"/sgl/r.py\", line %d, in recursive\n    recursive()\n", i+1)
	}
	b.WriteString("RecursionError: maximum recursion depth exceeded")
	o := Options{MaxLines: 1000, MaxBytes: 64 << 10}
	got := assemble(t, o, b.String())
	if len(got) != 1 {
		t.Fatalf("got %d entries, want 1", len(got))
	}
	e := got[0]
	if e.Lines != 2*frames+2 {
		t.Errorf("Lines = %d, want %d", e.Lines, 2*frames+2)
	}
	if e.Cut.Lines == 0 || e.Cut.Bytes == 0 {
		t.Errorf("Cut = %+v, want lines and bytes cut", e.Cut)
	}
	if n := strings.Count(e.Raw, "\n") + 1; n > o.MaxLines+1 {
		t.Errorf("kept %d lines, bound %d (+1 marker)", n, o.MaxLines)
	}
	if len(e.Raw) > o.MaxBytes {
		t.Errorf("kept %d bytes, bound %d", len(e.Raw), o.MaxBytes)
	}
	if !strings.Contains(e.Text, fmt.Sprintf("[logmatch: %d lines cut]", e.Cut.Lines)) {
		t.Errorf("no cut marker in text")
	}
	if !strings.HasPrefix(e.Text, "Scheduler hit an exception: Traceback") || !strings.HasSuffix(e.Text, "RecursionError: maximum recursion depth exceeded") {
		t.Errorf("head or tail lost: %q ... %q", e.Text[:60], e.Text[len(e.Text)-60:])
	}
	x := e.Traceback.Outermost()
	if x == nil || x.Type != "RecursionError" || x.Message != "maximum recursion depth exceeded" {
		t.Fatalf("outermost = %+v", x)
	}
	if x.Frames[0].Line != 1 || len(x.Frames) > MaxFrames {
		t.Errorf("frames: first line %d, %d kept", x.Frames[0].Line, len(x.Frames))
	}
}

func TestAssemblerHugeLine(t *testing.T) {
	huge := "[2026-07-01 09:31:38 TP0] server_args=ServerArgs(" + strings.Repeat("x", 20<<20) + ") [repeated 2x across cluster]"
	a := NewAssembler(Options{})
	if out := a.Push(Line{Text: huge, Offset: 1}); len(out) != 0 {
		t.Fatalf("entry before flush: %d", len(out))
	}
	out := a.Flush()
	if len(out) != 1 {
		t.Fatalf("got %d entries", len(out))
	}
	e := out[0]
	if len(e.Raw) > DefaultMaxLineBytes {
		t.Errorf("kept %d bytes of a 20 MB line, bound %d", len(e.Raw), DefaultMaxLineBytes)
	}
	if e.Cut.Bytes < 20<<20-DefaultMaxLineBytes {
		t.Errorf("Cut.Bytes = %d", e.Cut.Bytes)
	}
	if e.Format != FormatSRT || !strings.HasPrefix(e.Message, "server_args=ServerArgs(xxx") || !strings.HasSuffix(e.Message, "xxx)") {
		t.Errorf("format %q message %.40q...%q", e.Format, e.Message, e.Message[len(e.Message)-10:])
	}
	if !strings.Contains(e.Message, " bytes cut] ") {
		t.Errorf("no cut marker")
	}
}

func TestAssemblerInvalidUTF8(t *testing.T) {
	lines := []string{
		"[2026-07-01 09:31:38 TP0] bad \xff\xfe bytes",
		"\x00\x01\x02\x1b[31mbinary\xc3",
		"Traceback (most recent call last):",
		"  File \"\xe2\x82.py\", line 1, in f",
		"ValueError: \xff",
	}
	got := assemble(t, Options{}, strings.Join(lines, "\n"))
	// The traceback follows the srt record directly: logger.exception shape.
	want := []view{{"1-5", FormatSRT, "", "bad \xff\xfe bytes", "ValueError: \xff"}}
	if diff := cmp.Diff(want, views(got)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	// Invalid bytes are kept as written.
	if !strings.Contains(got[0].Text, "\x00\x01\x02binary\xc3") {
		t.Errorf("text %q lost bytes", got[0].Text)
	}
	// A cut never splits a rune.
	long := strings.Repeat("é", 40<<10)
	cut, _ := cutLine(long, DefaultMaxLineBytes)
	if !utf8.ValidString(cut) {
		t.Errorf("cutLine produced invalid UTF-8")
	}
}

func TestAssemblerFlushAndPending(t *testing.T) {
	a := NewAssembler(Options{})
	if a.Pending() {
		t.Fatal("pending before any line")
	}
	if got := a.Push(Line{Text: "[2026-07-01 09:31:38 TP0] a", Offset: 1}); len(got) != 0 {
		t.Fatalf("entry completed early: %+v", got)
	}
	if !a.Pending() {
		t.Fatal("not pending after a line")
	}
	got := a.Flush()
	if len(got) != 1 || got[0].Message != "a" {
		t.Fatalf("flush = %+v", got)
	}
	if a.Pending() || len(a.Flush()) != 0 {
		t.Fatal("pending after flush")
	}
	// After an idle flush a continuation line stands alone.
	a.Push(Line{Text: "[2026-07-01 09:31:38 TP0] b", Offset: 2})
	a.Flush()
	got = a.Push(Line{Text: "continuation", Offset: 3})
	if len(got) != 0 {
		t.Fatalf("push after flush completed %+v", got)
	}
	if got = a.Flush(); len(got) != 1 || got[0].Format != FormatNone || got[0].FirstOffset != 3 {
		t.Fatalf("flush = %+v", got)
	}
}

func TestAssemblerReferenceTime(t *testing.T) {
	// Each line the first of its stream: no neighbour's time, so the
	// line's own time or the reference supplies what the header lacks.
	loc := time.FixedZone("UTC+8", 8*3600)
	lineTime := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC) // 11:00 in UTC+8
	ref := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)      // 08:00 in UTC+8
	tests := []struct {
		l    Line
		want time.Time
	}{
		{Line{Text: "[10:59:00 TP0] line time wins", Time: lineTime, Offset: 1}, time.Date(2026, 1, 2, 10, 59, 0, 0, loc)},
		{Line{Text: "[09:30:00] later than the reference: the day before", Offset: 1}, time.Date(2019, 12, 31, 9, 30, 0, 0, loc)},
		{Line{Text: "[12-31 23:00:00] diffusion, December read in January", Offset: 1}, time.Date(2019, 12, 31, 23, 0, 0, 0, loc)},
	}
	for _, tt := range tests {
		a := NewAssembler(Options{Location: loc, Reference: ref})
		es := append(a.Push(tt.l), a.Flush()...)
		if len(es) != 1 || !es[0].Time.Equal(tt.want) || es[0].TimeInherited {
			t.Errorf("%s: %+v, want one entry at %v", tt.l.Text, es, tt.want)
		}
	}
}

func TestAssemblerPushResultReused(t *testing.T) {
	// The contract: the slice is reused, the entries copied out stay valid.
	a := NewAssembler(Options{})
	a.Push(Line{Text: "[2026-07-01 09:31:38] a", Offset: 1})
	first := a.Push(Line{Text: "[2026-07-01 09:31:39] b", Offset: 2})
	kept := first[0]
	a.Push(Line{Text: "[2026-07-01 09:31:40] c", Offset: 3})
	if kept.Message != "a" {
		t.Errorf("copied entry changed: %q", kept.Message)
	}
}

// Python prints an exception whose message begins with a newline as
// "Type: " and the message on the lines after it: they are one entry, and
// the message is the exception's.
func TestExceptionMessageOnTheNextLines(t *testing.T) {
	a := NewAssembler(Options{})
	var es []Entry
	for i, l := range []string{
		"ImportError: ",
		"[sgl_kernel] CRITICAL: Could not load any common_ops library!",
		"Attempted locations:",
		"",
		"[2026-05-28 00:11:09] Load weight begin.",
	} {
		es = append(es, a.Push(Line{Text: l, Offset: int64(i)})...)
	}
	es = append(es, a.Flush()...)
	if len(es) != 2 {
		t.Fatalf("got %d entries: %+v", len(es), es)
	}
	x := es[0].Traceback.Outermost()
	if x == nil || !es[0].Traceback.Bare || x.Type != "ImportError" ||
		x.Message != "[sgl_kernel] CRITICAL: Could not load any common_ops library!\nAttempted locations:" {
		t.Fatalf("exception %+v", x)
	}
	// A header of sglang's own still starts its own entry.
	a = NewAssembler(Options{})
	es = append(a.Push(Line{Text: "ImportError:"}), a.Push(Line{Text: "[2026-05-28 00:11:09] Load weight begin.", Offset: 1})...)
	es = append(es, a.Flush()...)
	if len(es) != 2 {
		t.Fatalf("an sglang header joined the exception: %+v", es)
	}
}

// Ray relays every actor's output into one stream: one actor's header-less
// line never continues another actor's record. (Actors are not
// demultiplexed: a record interrupted by another actor's line ends there,
// and what follows it is an entry of its own.)
func TestRayActorsDoNotShareEntries(t *testing.T) {
	a := NewAssembler(Options{})
	var es []Entry
	for i, l := range []string{
		"(RolloutRayActor pid=512474) [2025-07-15 17:11:34] Decode batch. #running-req: 1",
		"(Buffer pid=512473) Error: Client error '422 Unprocessable Entity' for url 'http://172.16.216.111:10000/abort_request'",
		"(RolloutRayActor pid=512474) Traceback (most recent call last):",
		"(RolloutRayActor pid=512474)   File \"a.py\", line 1, in f",
		"(RolloutRayActor pid=512474) ValueError: x",
	} {
		es = append(es, a.Push(Line{Text: l, Offset: int64(i)})...)
	}
	es = append(es, a.Flush()...)
	if len(es) != 3 || es[1].Message != "Error: Client error '422 Unprocessable Entity' for url 'http://172.16.216.111:10000/abort_request'" ||
		es[2].Traceback == nil || es[2].Traceback.Outermost().Type != "ValueError" {
		for _, e := range es {
			t.Logf("entry %q", e.Text)
		}
		t.Fatalf("got %d entries, want the other actor's line on its own", len(es))
	}
}

// doubleSpace puts a blank line after every line, as some pastes and
// terminals do.
func doubleSpace(text string) string {
	return strings.ReplaceAll(text, "\n", "\n\n")
}

// TestDoubleSpacedStream: a stream with a blank line after every line
// assembles into the same entries, with the same messages and exceptions,
// as the stream without them, from its first line on.
func TestDoubleSpacedStream(t *testing.T) {
	for _, in := range []string{
		"Exception in ModelRpcClient:\nTraceback (most recent call last):\n  File \"/x/model_rpc.py\", line 184, in exposed_step\n    self.forward_step()\nAttributeError: 'NoneType' object has no attribute 'cpu'\n[2024-03-01 10:00:01] INFO:     127.0.0.1:5 - \"GET /health HTTP/1.1\" 200 OK",
		"ImportError: \n[sgl_kernel] CRITICAL: Could not load any common_ops library!\nAttempted locations:\n1. /x/common_ops.abi3.so - undefined symbol: _ZN3c10\n[2025-01-01 00:00:00] Done.",
		"ImportError: \n[sgl_kernel] CRITICAL: Could not load any common_ops library!\n\nError details from previous import attempts:\n- ImportError: libnvrtc.so.12: cannot open shared object file\n[2025-01-01 00:00:00] Done.",
		// Recognised after three lines, each one blank line after the last.
		"[2025-01-01 00:00:00] Load weight end.\nframe #4: <unknown function> + 0xd6df4 (0x7f in /lib/libstdc++.so.6)\nframe #5: <unknown function> + 0x8609 (0x7f in /lib/libpthread.so.0)\nframe #6: clone + 0x43 (0x7f in /lib/libc.so.6)\n\nterminate called after throwing an instance of 'c10::DistBackendError'\n  what():  [PG 3 Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141) ran for 600020 milliseconds before timing out.\nException raised from checkTimeout at ProcessGroupNCCL.cpp:609 (most recent call first):\nframe #0: c10::Error::Error() + 0x96\n[2025-01-01 00:00:01] Next.",
		// Told at the stream's third line, two lines from the start each
		// one blank line after the last: a record's traceback right after
		// another writer's line.
		"[2025-05-03 23:03:33] Received sigquit from a child process. It usually means the child failed.\n2025-05-03 23:03:33,244 xinference.core.worker 141 ERROR    Failed to load model m-0\nTraceback (most recent call last):\n  File \"/x/worker.py\", line 1135, in launch_builtin_model\n    await model_ref.load()\nRuntimeError: failed\n[2025-05-03 23:03:34] next",
		// A record whose lines each repeat its header, the traceback
		// logger.exception appends on the second: one blank line
		// after its message before the stream is told double-spaced
		// (vllm-project/vllm#39788, OpenRLHF/OpenRLHF#536).
		"(Worker_TP2 pid=99) ERROR 04-09 20:31:10 [multiproc_executor.py:949] WorkerProc hit an exception.\n(Worker_TP2 pid=99) ERROR 04-09 20:31:10 [multiproc_executor.py:949] Traceback (most recent call last):\n(Worker_TP2 pid=99) ERROR 04-09 20:31:10 [multiproc_executor.py:949]   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py\", line 944, in worker_busy_loop\n(Worker_TP2 pid=99) ERROR 04-09 20:31:10 [multiproc_executor.py:949]     output = func(*args, **kwargs)",
		"(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466] Error executing method update_weight. This might cause deadlock in distributed execution.\n(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466] Traceback (most recent call last):\n(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466]   File \"/home/jianh/.local/lib/python3.10/site-packages/vllm/worker/worker_base.py\", line 458, in execute_method\n(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466]     return executor(*args, **kwargs)",
		"Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    f()\nValueError: first\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    g()\nKeyError: 'second'\nafter",
	} {
		want := assemble(t, Options{}, in)
		got := assemble(t, Options{}, doubleSpace(in))
		// The entries' text keeps the added blank lines: compare their
		// words.
		type gist struct{ Msg, Exc, Native string }
		words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		gists := func(es []Entry) []gist {
			var out []gist
			for _, v := range views(es) {
				if v.Msg != "" || v.Exc != "" {
					out = append(out, gist{words(v.Msg), words(v.Exc), v.Native})
				}
			}
			return out
		}
		if diff := cmp.Diff(gists(want), gists(got)); diff != "" {
			t.Errorf("double-spaced %q (-single-spaced +double-spaced):\n%s", in, diff)
		}
	}
}

// TestSingleBlankLinesStillEndEntries: blank lines between some records
// are not double spacing; a header-less record still ends at one.
func TestSingleBlankLinesStillEndEntries(t *testing.T) {
	in := "first record\nits second line\n\nValueError: separate\n\nsecond record:\n\n  indented text after a blank\n" +
		// Two lines meet: the count starts again.
		"next\nsecond record:\n\n  indented text after a blank"
	got := views(assemble(t, Options{}, in))
	var msgs []string
	for _, v := range got {
		if v.Msg != "" {
			msgs = append(msgs, v.Msg)
		}
	}
	want := []string{"first record", "its second line", "ValueError: separate", "second record:", "next", "second record:", "  indented text after a blank"}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

// TestExceptionMessageSections: the message of an exception printed with
// an empty first line ("ImportError:") goes on over one blank line when
// the next line heads a section of the same report ("Attempted
// locations:"), so its sections and their lists stay one entry; a blank
// line before anything else, two blank lines, or a log record end it.
func TestExceptionMessageSections(t *testing.T) {
	head := "ImportError:\n[sgl_kernel] CRITICAL: Could not load any common_ops library!\n\n"
	tests := []struct {
		name string
		in   string
		want []string // first-last lines of each entry
	}{
		{"sections one blank line apart", head + "Attempted locations:\n1. /x/a.so - found files: []\n\nError details from previous import attempts:\n- ImportError: libnvrtc.so.12: cannot open shared object file",
			[]string{"1-8"}},
		{"a line that heads nothing", head + "next thing", []string{"1-3", "4-4"}},
		{"two blank lines", "ImportError:\n[sgl_kernel] CRITICAL: x\n\n\nAttempted locations:\n1. y", []string{"1-4", "5-5", "6-6"}},
		{"a log record", head + "[2025-01-01 00:00:00] Scheduler hit an exception:", []string{"1-3", "4-4"}},
		{"a message that is no exception's", "Loading the model:\nweights\n\nAttempted locations:\n1. y", []string{"1-1", "2-3", "4-4", "5-5"}},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range views(assemble(t, Options{}, tt.in)) {
			got = append(got, v.Lines)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: entries %v, want %v", tt.name, got, tt.want)
		}
	}
}
