package entry

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStripWrappers(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		wantText   string
		wantPrefix string
	}{
		{"plain", "[2026-07-01 09:31:38 TP0] Decode batch", "[2026-07-01 09:31:38 TP0] Decode batch", ""},
		{"two-backtick span behind a prefix", "``(TP0 pid=1) [rank3]:[E809 14:59:30.411 ProcessGroupNCCL.cpp:2168] `x` timed out``...", "[E809 14:59:30.411 ProcessGroupNCCL.cpp:2168] `x` timed out", "``(TP0 pid=1) [rank3]:"},
		{"padded span around a line's own opening quote", "`` `(TP0 pid=1) [rank3]:[E809 14:59:30.411 ProcessGroupNCCL.cpp:629] Watchdog caught collective operation timeout ``", "[E809 14:59:30.411 ProcessGroupNCCL.cpp:629] Watchdog caught collective operation timeout", "`` `(TP0 pid=1) [rank3]:"},
		{"padded span as a list item", "- `` `E0326 14:23:06.526178 18039 rdma_transport.cpp:529] Memory region not registered`... ``", "E0326 14:23:06.526178 18039 rdma_transport.cpp:529] Memory region not registered", "- `` `"},
		{"actions annotation", "2025-11-06T02:10:00.7025130Z ##[error]RuntimeError: CUDA error: out of memory", "RuntimeError: CUDA error: out of memory", "2025-11-06T02:10:00.7025130Z ##[error]"},
		{"actions group", "##[group]Run python -m sglang.launch_server --model-path x", "Run python -m sglang.launch_server --model-path x", "##[group]"},
		{"not an actions command", "##[foo]bar", "##[foo]bar", ""},
		{"tai64n", "@40000000690c039d2c605e45 [2025-11-06 02:10:00 TP0] x", "[2025-11-06 02:10:00 TP0] x", "@40000000690c039d2c605e45 "},
		{"tai64n upper case is no label", "@40000000690C039D2C605E45 x", "@40000000690C039D2C605E45 x", ""},
		{"html references", "ValueError: &lt;class &#39;x&#39;&gt;", "ValueError: <class 'x'>", ""},
		{"ansi sgr", "\x1b[91m[12-16 14:27:08] Rank 0 scheduler is dead.\x1b[0;0m", "[12-16 14:27:08] Rank 0 scheduler is dead.", ""},
		{"ansi inside message", "[2026-07-01 09:31:38] \x1b[1;33mDeprecated flag\x1b[0m", "[2026-07-01 09:31:38] Deprecated flag", ""},
		{"ansi erase line kept text", "\x1b[2Kprogress 50%", "progress 50%", ""},
		{"lone escape kept", "a\x1bb", "a\x1bb", ""},
		{"ray actor", "(SGLangEngine pid=5123, ip=10.0.0.7) [2025-07-02 07:41:59 DP7 TP7] x", "[2025-07-02 07:41:59 DP7 TP7] x", "(SGLangEngine pid=5123, ip=10.0.0.7) "},
		{"ray task no name", "(pid=77) Traceback (most recent call last):", "Traceback (most recent call last):", "(pid=77) "},
		{"ray dedup suffix", "(TP0 pid=1) ValueError: bad [repeated 3x across cluster]", "ValueError: bad", "(TP0 pid=1) "},
		{"ray suffix alone", "  File \"x.py\", line 1, in f [repeated 12x across cluster]", "  File \"x.py\", line 1, in f", ""},
		{"not ray: no pid", "(note) something", "(note) something", ""},
		{"compose v2", "sglang-1  | [2025-08-28 15:53:28 TP10] Load weight end.", "[2025-08-28 15:53:28 TP10] Load weight end.", "sglang-1  | "},
		{"compose v1", "router_1 | hello", "hello", "router_1 | "},
		{"compose empty line", "sglang-1  |", "", "sglang-1  |"},
		{"not compose: no number", "sglang  | hello", "sglang  | hello", ""},
		{"collector time", "05-28 00:11:09.816 [2026-05-28 00:11:09 DP0 TP0 EP0] Init", "[2026-05-28 00:11:09 DP0 TP0 EP0] Init", "05-28 00:11:09.816 "},
		{"github actions", "2025-10-01T12:00:00.1234567Z [rank0]: Traceback (most recent call last):", "Traceback (most recent call last):", "2025-10-01T12:00:00.1234567Z [rank0]: "},
		{"kubectl timestamps offset", "2025-10-01T12:00:00.123456789+02:00 INFO:     Started server process", "2025-10-01T12:00:00.123456789+02:00 INFO:     Started server process", ""},
		{"kubectl timestamps", "2025-10-01T12:00:00.123456789Z [2025-10-01 12:00:00] x", "[2025-10-01 12:00:00] x", "2025-10-01T12:00:00.123456789Z "},
		{"log viewer export", "2025-10-01T12:00:00.123Z\t[2025-10-01 12:00:00] x", "[2025-10-01 12:00:00] x", "2025-10-01T12:00:00.123Z\t"},
		{"tab-separated header kept", "2025-11-05T01:56:54.243403Z\tERROR\tscheduler: x", "2025-11-05T01:56:54.243403Z\tERROR\tscheduler: x", ""},
		{"dynamo header kept", "2025-11-05T01:56:54.243403Z  INFO scheduler.__init__: x", "2025-11-05T01:56:54.243403Z  INFO scheduler.__init__: x", ""},
		{"kubectl timestamps before vLLM's header", "2026-05-28T00:11:09.123456789Z ERROR 05-28 00:11:09 [core.py:708] x", "ERROR 05-28 00:11:09 [core.py:708] x", "2026-05-28T00:11:09.123456789Z "},
		{"kubectl timestamps before a dated level-first header", "2026-05-28T00:11:09Z ERROR 2026-05-28 00:11:09,693 name: x", "ERROR 2026-05-28 00:11:09,693 name: x", "2026-05-28T00:11:09Z "},
		{"tracing header with a time in its message kept", "2026-05-28T00:11:09Z ERROR 05-28 worker: x", "2026-05-28T00:11:09Z ERROR 05-28 worker: x", ""},
		{"torchrun rank", "[rank3]:[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x", "[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x", "[rank3]:"},
		{"torchrun default", "[default0]:  File \"a.py\", line 1, in f", " File \"a.py\", line 1, in f", "[default0]: "},
		{"kubectl prefix", "[pod/sglang-0/sglang] [2025-01-01 00:00:00] x", "[2025-01-01 00:00:00] x", "[pod/sglang-0/sglang] "},
		{"markdown quote", "> [2025-11-05 16:38:03] WARNING:  Invalid HTTP request received.", "[2025-11-05 16:38:03] WARNING:  Invalid HTTP request received.", "> "},
		{"markdown empty", ">", "", ">"},
		{"python prompt kept", ">>> 3/\"3\"", ">>> 3/\"3\"", ""},
		{"loguru marker frame", "> File \"a.py\", line 1, in f", "File \"a.py\", line 1, in f", "> "},
		{"stacked", "2025-10-01T12:00:00Z sglang-1  | (TP0 pid=9) [2025-10-01 12:00:00 TP0] x", "[2025-10-01 12:00:00 TP0] x", "2025-10-01T12:00:00Z sglang-1  | (TP0 pid=9) "},
		{"bracketed ci time", "[2025-11-06T02:10:00.702Z] Traceback (most recent call last):", "Traceback (most recent call last):", "[2025-11-06T02:10:00.702Z] "},
		{"bracketed ci time quoted", "> [2025-11-06T02:10:00.702Z] [2025-11-06 02:10:00 TP0] x", "[2025-11-06 02:10:00 TP0] x", "> [2025-11-06T02:10:00.702Z] "},
		{"sglang bracketed time is no wrapper", "[2025-11-06 02:10:00] x", "[2025-11-06 02:10:00] x", ""},
		{"journald short", "Nov 06 02:10:00 gpu-node-3 sglang[2741]: Traceback (most recent call last):", "Traceback (most recent call last):", "Nov 06 02:10:00 gpu-node-3 sglang[2741]: "},
		{"syslog padded day no pid", "Nov  6 02:10:00 gpu-node-3 kernel: Out of memory: Killed process 2741 (python3)", "Out of memory: Killed process 2741 (python3)", "Nov  6 02:10:00 gpu-node-3 kernel: "},
		{"journald short-precise", "Nov 06 02:10:00.702513 node python3[12]: ValueError: x", "ValueError: x", "Nov 06 02:10:00.702513 node python3[12]: "},
		{"journald short-iso", "2025-11-06T02:10:00+0000 node sglang[12]:   File \"a.py\", line 1, in f", "  File \"a.py\", line 1, in f", "2025-11-06T02:10:00+0000 node sglang[12]: "},
		{"journald short-iso-precise", "2025-11-06T02:10:00.702513+01:00 node sglang[12]: x", "x", "2025-11-06T02:10:00.702513+01:00 node sglang[12]: "},
		{"journald empty message", "Nov 06 02:10:00 node sglang[12]:", "", "Nov 06 02:10:00 node sglang[12]:"},
		{"utc stamp then a message with a colon is not journald", "2025-11-06T02:10:00.7020000Z ImportError: libnvrtc.so.12: cannot open", "ImportError: libnvrtc.so.12: cannot open", "2025-11-06T02:10:00.7020000Z "},
		{"utc stamp then words and a colon", "2025-11-06T02:10:00Z some message: text", "some message: text", "2025-11-06T02:10:00Z "},
		{"month word then text is not syslog", "Nov 06 was the day: nothing", "Nov 06 was the day: nothing", ""},
		// No journald prefix: the time alone is moreutils' ts's.
		{"journald bad pid", "Nov 06 02:10:00 node sglang[x]: y", "node sglang[x]: y", "Nov 06 02:10:00 "},
		{"buildkit step", "#42 3621.8 /app/aiter/csrc/kernels/x.cu:223:5: error: use of undeclared identifier 'C10_HIP_KERNEL_LAUNCH_CHECK'", "/app/aiter/csrc/kernels/x.cu:223:5: error: use of undeclared identifier 'C10_HIP_KERNEL_LAUNCH_CHECK'", "#42 3621.8 "},
		{"buildkit step after ci time", "[2026-04-21T02:45:09.750Z] #42 3621.8 FAILED: build/x.o", "FAILED: build/x.o", "[2026-04-21T02:45:09.750Z] #42 3621.8 "},
		{"buildkit step traceback", "#7 0.512 Traceback (most recent call last):", "Traceback (most recent call last):", "#7 0.512 "},
		{"buildkit step header kept", "#42 [builder 5/9] RUN pip install .", "#42 [builder 5/9] RUN pip install .", ""},
		{"buildkit done kept", "#42 DONE 3.2s", "#42 DONE 3.2s", ""},
		{"gdb frame kept", "#0  0x00007f3a8c49e9fc in raise () from /lib/x86_64-linux-gnu/libc.so.6", "#0  0x00007f3a8c49e9fc in raise () from /lib/x86_64-linux-gnu/libc.so.6", ""},
		{"gdb frame one space kept", "#1 0x00007f3a8c44a476 in abort ()", "#1 0x00007f3a8c44a476 in abort ()", ""},
		{"code span", "`(WorkerDict pid=835) [rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] x", "[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] x", "`(WorkerDict pid=835) [rank38]:"},
		{"double backtick code span", "``(WorkerDict pid=835) [rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] x", "[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] x", "``(WorkerDict pid=835) [rank38]:"},
		{"double backtick code span closed at the end", "``Traceback (most recent call last):``", "Traceback (most recent call last):", "``"},
		{"double backtick inline code kept", "``a`b`` failed to start", "``a`b`` failed to start", ""},
		{"code span before an ellipsis", "`E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory 0x7f10: Input/output error [5]`...", "E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory 0x7f10: Input/output error [5]", "`"},
		{"code span before a unicode ellipsis", "`RuntimeError: NCCL error`…", "RuntimeError: NCCL error", "`"},
		{"code span before a full stop", "`Killed`.", "Killed", "`"},
		{"code span as a list item", "- `E0326 14:23:05.675921 18944 rdma_context.cpp:265] x`", "E0326 14:23:05.675921 18944 rdma_context.cpp:265] x", "- `"},
		{"code span as a starred item before a comma", "* `ValueError: x`,", "ValueError: x", "* `"},
		{"indented line in a whole-line code span", "`    scheduler.event_loop_overlap()`", "    scheduler.event_loop_overlap()", "`"},
		{"code span before words kept", "`x` failed, see above.", "`x` failed, see above.", ""},
		{"code span before a long tail kept", "`x`.............", "`x`.............", ""},
		{"list item with inline code in prose kept", "- `x` failed", "- `x` failed", ""},
		{"indented unclosed span kept", "`  x is not a paste", "`  x is not a paste", ""},
		{"indented glog line", "  E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory", "E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory", "  "},
		{"indented plog line", "  [ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [exception_handler.cc:23] x", "[ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [exception_handler.cc:23] x", "  "},
		{"indented c10d line in a code block", "      [E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x", "[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x", "      "},
		{"indented NCCL line", " node1:12:34 [0] NCCL WARN x", "node1:12:34 [0] NCCL WARN x", " "},
		{"indented plog line in a code span", "`  [ERROR] HCCL(1,):2026-08-11-07:03:46.026.970 x`", "[ERROR] HCCL(1,):2026-08-11-07:03:46.026.970 x", "`  "},
		{"indented frame kept", "  File \"a.py\", line 1, in f", "  File \"a.py\", line 1, in f", ""},
		{"indented exception kept", "  RuntimeError: x", "  RuntimeError: x", ""},
		{"indented CANN inner line kept", "        TraceBack (most recent call last):", "        TraceBack (most recent call last):", ""},
		{"indented soft native kept", "  CUDA error: an illegal memory access was encountered", "  CUDA error: an illegal memory access was encountered", ""},
		{"glog line indented too deep kept", "          E0326 14:23:05.675921 18944 a.cpp:265] x", "          E0326 14:23:05.675921 18944 a.cpp:265] x", ""},
		{"fence kept", "```python", "```python", ""},
		{"fence glued to a line kept", "```ai:480850:480850 [0] NCCL INFO Bootstrap : Using eth0", "```ai:480850:480850 [0] NCCL INFO Bootstrap : Using eth0", ""},
		{"crlf", "Killed\r", "Killed", ""},
		{"tqdm redraws", "Loading shards:   0% 0/4\rLoading shards:  50% 2/4\rLoading shards: 100% 4/4\r", "Loading shards: 100% 4/4", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, prefix := stripWrappers(tt.in)
			if diff := cmp.Diff([2]string{tt.wantText, tt.wantPrefix}, [2]string{text, prefix}); diff != "" {
				t.Errorf("stripWrappers(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestStripWrappersNoAllocWithoutANSI(t *testing.T) {
	line := "sglang-1  | [2026-07-01 09:31:38 DP0 TP0] Decode batch, #running-req: 31 [repeated 2x across cluster]"
	allocs := testing.AllocsPerRun(100, func() { stripWrappers(line) })
	if allocs != 0 {
		t.Errorf("stripWrappers allocated %v times per line without ANSI codes, want 0", allocs)
	}
}

func TestOtherRayActor(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"(Buffer pid=1) ", "(Rollout pid=2) ", true},
		{"(Buffer pid=1) ", "(Buffer pid=1, ip=10.0.0.1) ", false},
		{"", "(Rollout pid=2) ", false},
		{"sglang-1  | ", "sglang-1  | ", false},
		// Behind a collector's timestamp or a compose service.
		{"2025-11-06T02:10:00Z (Buffer pid=1) ", "2025-11-06T02:10:01Z (Rollout pid=2) ", true},
		{"sglang-1  | (Buffer pid=1) ", "sglang-1  | (Buffer pid=1) ", false},
		// Ray inside Ray: the outer actor is the same, the inner differs.
		{"(Engine pid=9) (Buffer pid=1) ", "(Engine pid=9) (Rollout pid=2) ", true},
		{"(Engine pid=9) (Buffer pid=1) ", "(Engine pid=9) (Buffer pid=1) ", false},
		// A parenthesis inside another prefix is not an actor.
		{"[pod/x(pid=1)/c] ", "[pod/x(pid=2)/c] ", false},
	}
	for _, tt := range tests {
		if got := otherRayActor(tt.a, tt.b); got != tt.want {
			t.Errorf("otherRayActor(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzCodeSpanWrapper checks the code span a paste quotes a whole line
// in: what is left of a line is a part of it after its prefixes, and a
// line quoted as a span reads the same whether the span closes at the
// line's end, before an ellipsis or a full stop, or opens behind a list
// item's marker.
func FuzzCodeSpanWrapper(f *testing.F) {
	for _, s := range []string{
		"E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory",
		"    scheduler.event_loop_overlap()",
		"sglang-1  | [2025-01-16 10:11:13 TP0] x",
		"(TP0 pid=1) ValueError: bad [repeated 3x across cluster]",
		"x^M", "- y", "> z", "...",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\x1b\r&") || strings.Contains(s, "](") {
			return
		}
		if text, prefix := stripWrappers(s); !strings.HasPrefix(s, prefix+text) {
			t.Fatalf("stripWrappers(%q) = %q, %q: not a part of the line after its prefix", s, text, prefix)
		}
		if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "`\n") || prefixCount(s) > maxWrapperPasses-3 {
			// (Prefixes stacked up to maxWrapperPasses leave the
			// last behind, the list marker and the quote taking two.)
			return
		}
		want, _ := stripWrappers("`" + s + "`")
		for _, q := range []string{"`" + s + "`...", "`" + s + "`…", "`" + s + "`.", "- `" + s + "`", "* `" + s + "`,"} {
			if got, _ := stripWrappers(q); got != want {
				t.Fatalf("stripWrappers(%q) = %q, want %q as for the span closed at the line's end", q, got, want)
			}
		}
	})
}

// prefixCount returns how many wrapper prefixes s stacks.
func prefixCount(s string) int {
	c := 0
	for n := wrapperPrefixLen(s); n > 0 && c <= maxWrapperPasses; n = wrapperPrefixLen(s) {
		s = s[n:]
		c++
	}
	return c
}

// FuzzIndentedNativeLen checks the indentation taken off a native line:
// only spaces, at most maxNativeIndent of them, before a native line that
// parses without them.
func FuzzIndentedNativeLen(f *testing.F) {
	for _, s := range []string{
		"  E0326 14:23:05.675921 18944 rdma_context.cpp:265] x",
		"  [ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [e.cc:23] x",
		"   [E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x",
		" node1:12:34 [0] NCCL WARN x",
		"  File \"a.py\", line 1, in f",
		"  [1784273406.684686] [host:994396:0]      ib_mlx5_dv.c:452  UCX  ERROR   x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := indentedNativeLen(s)
		if n == 0 {
			return
		}
		if n > maxNativeIndent || strings.Trim(s[:n], " ") != "" || s[n] == ' ' {
			t.Fatalf("indentedNativeLen(%q) = %d: not the line's indentation", s, n)
		}
		if _, ok := parseNative(s[n:], time.Time{}, time.UTC); !ok {
			t.Fatalf("indentedNativeLen(%q) = %d: no native line after it", s, n)
		}
	})
}
