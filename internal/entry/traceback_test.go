package entry

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTraceback(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *Traceback
	}{
		{
			name: "simple",
			in: `Traceback (most recent call last):
  File "/app/main.py", line 17, in start
    return get()
  File "/app/main.py", line 5, in get
    raise Exception('spam', 'eggs')
Exception: ('spam', 'eggs')`,
			want: &Traceback{Links: []Exception{{
				Type: "Exception", Message: "('spam', 'eggs')",
				Frames: []Frame{{"/app/main.py", 17, "start"}, {"/app/main.py", 5, "get"}},
			}}},
		},
		{
			name: "sglang record: message before Traceback is not part of it",
			in: `Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl/scheduler.py", line 2963, in run_scheduler_process
    scheduler = Scheduler(server_args)
                ^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: Ascend Transfer Engine initialization failed.`,
			want: &Traceback{Links: []Exception{{
				Type: "RuntimeError", Message: "Ascend Transfer Engine initialization failed.",
				Frames: []Frame{{"/sgl/scheduler.py", 2963, "run_scheduler_process"}},
			}}},
		},
		{
			name: "context chain, multi-line message",
			in: `Traceback (most recent call last):
  File "/r.py", line 470, in __init__
    self.capture()
torch.OutOfMemoryError: CUDA out of memory.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/r.py", line 482, in __init__
    raise Exception(
Exception: Capture cuda graph failed: CUDA out of memory.
Possible solutions:
1. set --mem-fraction-static to a smaller value`,
			want: &Traceback{Links: []Exception{
				{Type: "torch.OutOfMemoryError", Message: "CUDA out of memory.", Frames: []Frame{{"/r.py", 470, "__init__"}}},
				{Type: "Exception", Message: "Capture cuda graph failed: CUDA out of memory.", Frames: []Frame{{"/r.py", 482, "__init__"}}, Separator: SeparatorContext},
			}},
		},
		{
			name: "cause chain, bare outermost",
			in: `Traceback (most recent call last):
  File "a.py", line 20, in bar
    f = foo(x, y)
ZeroDivisionError: division by zero

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "a.py", line 22, in bar
    raise ValueError from e
ValueError`,
			want: &Traceback{Links: []Exception{
				{Type: "ZeroDivisionError", Message: "division by zero", Frames: []Frame{{"a.py", 20, "bar"}}},
				{Type: "ValueError", Frames: []Frame{{"a.py", 22, "bar"}}, Separator: SeparatorCause},
			}},
		},
		{
			name: "exception group: top box only",
			in: `  + Exception Group Traceback (most recent call last):
  |   File "g.py", line 41, in <module>
  |     main()
  | ExceptionGroup: group (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "g.py", line 12, in a
    |     x / y
    | ZeroDivisionError: division by zero
    +---------------- 2 ----------------
    | Exception Group Traceback (most recent call last):
    |   File "g.py", line 26, in main
    | ExceptionGroup: inner (1 sub-exception)
    +-+---------------- 1 ----------------
      | ValueError: 100
      +------------------------------------
    +------------------------------------`,
			want: &Traceback{Links: []Exception{{
				Type: "ExceptionGroup", Message: "group (2 sub-exceptions)", Group: true,
				Frames:     []Frame{{"g.py", 41, "<module>"}},
				MemberType: "ZeroDivisionError", MemberMessage: "division by zero",
				MemberFrames: []Frame{{"g.py", 12, "a"}},
			}}},
		},
		{
			name: "group starting mid-line in an sglang record",
			in: `Scheduler hit an exception:   + Exception Group Traceback (most recent call last):
  |   File "c.py", line 99, in group
  |     raise ExceptionGroup("unhandled errors in a TaskGroup", errors)
  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "c.py", line 96, in group
    | ValueError: member 0
    +------------------------------------`,
			want: &Traceback{Links: []Exception{{
				Type: "ExceptionGroup", Message: "unhandled errors in a TaskGroup (1 sub-exception)", Group: true,
				Frames:     []Frame{{"c.py", 99, "group"}},
				MemberType: "ValueError", MemberMessage: "member 0",
				MemberFrames: []Frame{{"c.py", 96, "group"}},
			}}},
		},
		{
			name: "chain ending in a group",
			in: `Traceback (most recent call last):
  File "a.py", line 34, in main
ValueError: Error

During handling of the above exception, another exception occurred:

  + Exception Group Traceback (most recent call last):
  |   File "a.py", line 36, in main
  | ExceptionGroup: from_context (1 sub-exception)
  +-+---------------- 1 ----------------
    | ValueError: ContextError
    +------------------------------------`,
			want: &Traceback{Links: []Exception{
				{Type: "ValueError", Message: "Error", Frames: []Frame{{"a.py", 34, "main"}}},
				{Type: "ExceptionGroup", Message: "from_context (1 sub-exception)", Group: true, Separator: SeparatorContext, Frames: []Frame{{"a.py", 36, "main"}},
					MemberType: "ValueError", MemberMessage: "ContextError"},
			}},
		},
		{
			name: "group: the first member is a nested group, its first leaf counts",
			in: `  + Exception Group Traceback (most recent call last):
  |   File "g.py", line 41, in <module>
  | ExceptionGroup: outer (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Exception Group Traceback (most recent call last):
    |   File "g.py", line 26, in main
    | ExceptionGroup: inner (2 sub-exceptions)
    +-+---------------- 1 ----------------
      | Traceback (most recent call last):
      |   File "g.py", line 12, in a
      | KeyError: 'k'
      +---------------- 2 ----------------
      | OSError: second
      +------------------------------------
    +---------------- 2 ----------------
    | TypeError: third
    +------------------------------------`,
			want: &Traceback{Links: []Exception{{
				Type: "ExceptionGroup", Message: "outer (2 sub-exceptions)", Group: true,
				Frames:     []Frame{{"g.py", 41, "<module>"}},
				MemberType: "KeyError", MemberMessage: "'k'",
				MemberFrames: []Frame{{"g.py", 12, "a"}},
			}}},
		},
		{
			name: "group: a member's own chain gives its outermost exception",
			in: `  + Exception Group Traceback (most recent call last):
  |   File "/x/starlette/_utils.py", line 76, in collapse_excgroups
  |     yield
  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/x/tokenizer.py", line 9, in decode
    | KeyError: 200012
    | 
    | During handling of the above exception, another exception occurred:
    | 
    | Traceback (most recent call last):
    |   File "/x/serving_chat.py", line 120, in stream
    |     parsed = self.parse(tokens)
    | openai_harmony.HarmonyError: Unexpected token 12606
    +------------------------------------`,
			want: &Traceback{Links: []Exception{{
				Type: "ExceptionGroup", Message: "unhandled errors in a TaskGroup (1 sub-exception)", Group: true,
				Frames:     []Frame{{"/x/starlette/_utils.py", 76, "collapse_excgroups"}},
				MemberType: "openai_harmony.HarmonyError", MemberMessage: "Unexpected token 12606",
				MemberFrames: []Frame{{"/x/serving_chat.py", 120, "stream"}},
			}}},
		},
		{
			name: "header-less SyntaxError",
			in: `  File "<stdin>", line 1
    1+
     ^
SyntaxError: invalid syntax`,
			want: &Traceback{Links: []Exception{{Type: "SyntaxError", Message: "invalid syntax", Frames: []Frame{{"<stdin>", 1, ""}}}}},
		},
		{
			name: "qualified bare name right after a frame",
			in: `Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
builtins.NameError`,
			want: &Traceback{Links: []Exception{{Type: "builtins.NameError", Frames: []Frame{{"<stdin>", 1, "<module>"}}}}},
		},
		{
			name: "lower-case qualified type",
			in: `Traceback (most recent call last):
  File "/usr/lib/python3.10/socket.py", line 955, in getaddrinfo
    for res in _socket.getaddrinfo(host, port, family, type, proto, flags):
socket.gaierror: [Errno -2] Name or service not known`,
			want: &Traceback{Links: []Exception{{Type: "socket.gaierror", Message: "[Errno -2] Name or service not known",
				Frames: []Frame{{"/usr/lib/python3.10/socket.py", 955, "getaddrinfo"}}}}},
		},
		{
			name: "repeated lines and 3.13 carets",
			in: `Traceback (most recent call last):
  File "r.py", line 15, in recursive
    recursive()
    ~~~~~~~~~^^
  [Previous line repeated 996 more times]
RecursionError: maximum recursion depth exceeded`,
			want: &Traceback{Links: []Exception{{Type: "RecursionError", Message: "maximum recursion depth exceeded", Frames: []Frame{{"r.py", 15, "recursive"}}}}},
		},
		{
			name: "source line that lost its indentation",
			in: `Traceback (most recent call last):
File "a.py", line 5, in get
raise Exception('spam')
Exception: spam`,
			want: &Traceback{Links: []Exception{{Type: "Exception", Message: "spam", Frames: []Frame{{"a.py", 5, "get"}}}}},
		},
		{
			name: "statements that lost their indentation are not exception lines",
			in: `Traceback (most recent call last):
File "pynccl.py", line 110, in __init__
self.comm: ncclComm_t = self.nccl.ncclCommInitRank(
File "pynccl_wrapper.py", line 375, in ncclCommInitRank
self.NCCL_CHECK(
File "pynccl_wrapper.py", line 350, in NCCL_CHECK
raise RuntimeError(f"NCCL error: {error_str}")
RuntimeError: NCCL error: unhandled system error`,
			want: &Traceback{Links: []Exception{{Type: "RuntimeError", Message: "NCCL error: unhandled system error", Frames: []Frame{
				{"pynccl.py", 110, "__init__"}, {"pynccl_wrapper.py", 375, "ncclCommInitRank"}, {"pynccl_wrapper.py", 350, "NCCL_CHECK"}}}}},
		},
		{
			name: "an exception whose message holds an assignment is still one",
			in: `Traceback (most recent call last):
File "a.py", line 5, in get
assert x == 4
AssertionError: x = 3, expected 4`,
			want: &Traceback{Links: []Exception{{Type: "AssertionError", Message: "x = 3, expected 4", Frames: []Frame{{"a.py", 5, "get"}}}}},
		},
		{
			name: "second traceback without separator replaces the first",
			in: `Traceback (most recent call last):
  File "a.py", line 1, in f
KeyError: 'a'
Traceback (most recent call last):
  File "b.py", line 2, in g
OSError: [Errno 98] Address already in use`,
			want: &Traceback{Links: []Exception{{Type: "OSError", Message: "[Errno 98] Address already in use", Frames: []Frame{{"b.py", 2, "g"}}}}},
		},
		{
			name: "cut before the exception line",
			in: `Traceback (most recent call last):
  File "a.py", line 1, in f`,
			want: &Traceback{Links: []Exception{{Frames: []Frame{{"a.py", 1, "f"}}}}},
		},
		{
			name: "loguru marker frame",
			in: `Traceback (most recent call last):
> File "a.py", line 3, in <module>
    a()
ZeroDivisionError: division by zero`,
			want: &Traceback{Links: []Exception{{Type: "ZeroDivisionError", Message: "division by zero", Frames: []Frame{{"a.py", 3, "<module>"}}}}},
		},
		{name: "no traceback", in: "RuntimeError: not inside a traceback\nplain text", want: nil},
		{name: "CANN traceback is not Python", in: "EZ9999: Inner Error!\n        TraceBack (most recent call last):\n        rtKernelLaunch failed", want: nil},
		{name: "escaped in JSON", in: `{"message":"Traceback (most recent call last):\\n  File \"a.py\", line 1, in f\\nException: x"}`, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseTraceback(strings.Split(tt.in, "\n"))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseTraceback (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseTracebackBounds(t *testing.T) {
	t.Run("frames keep head and tail", func(t *testing.T) {
		lines := []string{tbStart}
		for i := 1; i <= 1000; i++ {
			lines = append(lines, fmt.Sprintf(`  File "f.py", line %d, in f%d`, i, i), "    f()")
		}
		lines = append(lines, "RecursionError: maximum recursion depth exceeded")
		out := ParseTraceback(lines).Outermost()
		if len(out.Frames) != MaxFrames || out.FramesCut != 1000-MaxFrames {
			t.Fatalf("kept %d frames, cut %d; want %d, %d", len(out.Frames), out.FramesCut, MaxFrames, 1000-MaxFrames)
		}
		if out.Frames[0].Line != 1 || out.Frames[MaxFrames-1].Line != 1000 || out.Frames[MaxFrames/2-1].Line != MaxFrames/2 {
			t.Errorf("frames not head and tail: first %d, last %d", out.Frames[0].Line, out.Frames[MaxFrames-1].Line)
		}
		if out.Type != "RecursionError" {
			t.Errorf("type = %q", out.Type)
		}
	})
	t.Run("links keep root cause and outermost", func(t *testing.T) {
		var lines []string
		for i := 0; i < 100; i++ {
			if i > 0 {
				lines = append(lines, "", sepContext, "")
			}
			lines = append(lines, tbStart, `  File "a.py", line 1, in f`, fmt.Sprintf("ValueError: %d", i))
		}
		tb := ParseTraceback(lines)
		if len(tb.Links) != MaxLinks || tb.LinksCut != 100-MaxLinks {
			t.Fatalf("kept %d links, cut %d", len(tb.Links), tb.LinksCut)
		}
		if tb.RootCause().Message != "0" || tb.Outermost().Message != "99" {
			t.Errorf("root %q, outermost %q", tb.RootCause().Message, tb.Outermost().Message)
		}
	})
}

func TestParseExceptionLine(t *testing.T) {
	tests := []struct {
		in           string
		typ, msg     string
		ok           bool
		afterFrameOK bool
	}{
		{"RuntimeError: CUDA error: device-side assert triggered", "RuntimeError", "CUDA error: device-side assert triggered", true, true},
		{"torch.OutOfMemoryError: CUDA out of memory.", "torch.OutOfMemoryError", "CUDA out of memory.", true, true},
		{"triton.runtime.errors.OutOfResources: out of resource: shared memory", "triton.runtime.errors.OutOfResources", "out of resource: shared memory", true, true},
		{"socket.gaierror: [Errno -2] Name or service not known", "socket.gaierror", "[Errno -2] Name or service not known", true, true},
		{"__main__.MyError: x", "__main__.MyError", "x", true, true},
		{"KeyboardInterrupt", "KeyboardInterrupt", "", true, true},
		{"ValueError", "ValueError", "", true, true},
		{"StopIteration", "StopIteration", "", true, true},
		{"Foo", "Foo", "", true, false},
		{"KeyError: ", "KeyError", "", true, true},
		{"ray.exceptions.RayTaskError(OutOfMemoryError): ray::main_task() (pid=5, ip=10.1.2.6)", "ray.exceptions.RayTaskError(OutOfMemoryError)", "ray::main_task() (pid=5, ip=10.1.2.6)", true, true},
		{"RayTaskError(KeyError): ray::f()", "RayTaskError(KeyError)", "ray::f()", true, true},
		{"ray.exceptions.RayTaskError(RayActorError)", "ray.exceptions.RayTaskError(RayActorError)", "", true, true},
		{"Model(Llama): loaded", "", "", false, false},   // not an error type around it
		{"RayTaskError(lower): x", "", "", false, false}, // the wrapped name is a class
		{"RayTaskError(torch.OutOfMemoryError): x", "", "", false, false},
		{"RayTaskError(): x", "", "", false, false},
		{"RayTaskError(KeyError: x", "", "", false, false},
		{"print(ValueError): x", "", "", false, false},
		{"gaierror: x", "", "", false, false},
		{"raise Exception('spam')", "", "", false, false},
		{"ERROR:root:x", "", "", false, false},
		{"During handling of the above exception, another exception occurred:", "", "", false, false},
		{"Traceback (most recent call last):", "", "", false, false},
		{"", "", "", false, false},
	}
	for _, tt := range tests {
		typ, msg, ok := parseExceptionLine(tt.in)
		if diff := cmp.Diff([]any{tt.typ, tt.msg, tt.ok}, []any{typ, msg, ok}); diff != "" {
			t.Errorf("parseExceptionLine(%q) (-want +got):\n%s", tt.in, diff)
		}
		if got := isExceptionLine(tt.in, true); got != tt.afterFrameOK {
			t.Errorf("isExceptionLine(%q, afterFrame) = %v, want %v", tt.in, got, tt.afterFrameOK)
		}
	}
}
