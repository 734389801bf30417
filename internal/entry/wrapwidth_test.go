package entry

import (
	"strings"
	"testing"
)

// Lines a terminal cut at one column teach the stream that width; a
// later line cut there is rejoined even where the rest alone reads as a
// short line of its own ("...in a current s" and "tate"), and a frame or
// an exception line after a line of that width is not.
func TestWrapWidthLearned(t *testing.T) {
	const w = 90
	long := []string{
		"RuntimeError: first failure of the run while the scheduler was reading its requests and answer",
		"ValueError: second failure of the run while the scheduler was reading its requests and then answering",
		"KeyError: a key that the scheduler looked up and did not find in the table of requests it keeps Xrequest",
		"OSError: the scheduler waited for the next batch of requests and found none in a current state",
	}
	var lines []string
	for _, l := range long {
		for len(l) > w {
			lines = append(lines, l[:w])
			l = l[w:]
		}
		lines = append(lines, l)
	}
	es := assemble(t, Options{}, strings.Join(lines, "\n"))
	var texts []string
	for _, e := range es {
		texts = append(texts, e.Text)
	}
	got := strings.Join(texts, "\n")
	for _, l := range long[3:] {
		if !strings.Contains(got, l) {
			t.Errorf("%q not rejoined after the width was learned; entries:\n%s", l, got)
		}
	}

	var ww wrapWidth
	ww.confirm(90)
	if ww.at(90) {
		t.Error("a width learned from one break")
	}
	ww.confirm(90)
	if !ww.at(90) || ww.at(91) {
		t.Error("two breaks at 90 must teach 90 alone")
	}
	if isColumnBreak("x", `  File "a.py", line 1, in f`) || isColumnBreak("x", "KeyError: 'k'") {
		t.Error("a frame or an exception line is a line of its own")
	}
}

// A terminal wraps a line with its collector's prefix: the rest, which
// carries none, is joined to the line the prefix came off even when that
// line is narrower than minWrapWidth without it.
func TestWrapWidthCountsThePrefix(t *testing.T) {
	line := "sglang-1  | [Gloo] Rank 1 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1"
	es := assemble(t, Options{}, line[:80]+"\n"+line[80:])
	if len(es) != 1 || !strings.Contains(es[0].Text, "Expected number of connected peer ranks") {
		var texts []string
		for _, e := range es {
			texts = append(texts, e.Text)
		}
		t.Errorf("want one entry rejoined, got %q", texts)
	}
}

// Records of one length repeated without a header teach no width: a
// line that opens as the one before it is never its rest.
func TestWrapWidthKeepsRepeatedLines(t *testing.T) {
	var lines []string
	for i := 1; i <= 5; i++ {
		lines = append(lines, "Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=38.1"+string(rune('0'+i))+" GB")
	}
	if es := assemble(t, Options{}, strings.Join(lines, "\n")); len(es) != len(lines) {
		t.Errorf("%d entries of %d repeated lines, want one each", len(es), len(lines))
	}
}

// A terminal's width confirmed by one break, a second line of that raw
// length cut inside a token is its rest whatever the rest's one word
// says; and a rest whose wrapper suffix came off (Ray's "[repeated 2x
// across cluster]") is measured as pushed.
func TestAssemblerSecondCutAtConfirmedWidth(t *testing.T) {
	const pre = "(Worker pid=7) [2025-05-19 13:48:05,850 E 7 9] logging.cc:361: "
	lines := []string{
		pre + "*** SIGABRT received at time=1747633685 on cpu 74 ***",
		pre + "PC: @   0x7f6d68247e87  (unknown)  raise", // cut after its "r"
		pre + "    @     0x7f6d660dd35a  (unknown)  __cxxabiv1::__terminate() [repeated 2x across cluster]",
	}
	var in []string
	for _, l := range lines {
		for len(l) > 100 {
			in = append(in, l[:100])
			l = l[100:]
		}
		in = append(in, l)
	}
	got := assemble(t, Options{}, strings.Join(in, "\n"))
	if len(got) != 1 {
		t.Fatalf("got %d entries, want the record's lines in one: %+v", len(got), views(got))
	}
	for _, want := range []string{"time=1747633685 on cpu 74", "(unknown)  raise", "__cxxabiv1::__terminate()"} {
		if !strings.Contains(got[0].Text, want) {
			t.Errorf("text lacks %q:\n%s", want, got[0].Text)
		}
	}
}

func TestIsSecondCut(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"PC: @     0x7f6d68247e87  (unknown)  r", "aise", true},
		{"PC: @     0x7f6d68247e87  (unknown)  r", "  File \"x.py\", line 1, in f", false},
		{"PC: @     0x7f6d68247e87  (unknown)  r", "RuntimeError: x", false},
		{"PC: @     0x7f6d68247e87  (unknown) ", "raise", false},
		{"PC: @     0x7f6d68247e87  (unknown)  r", "    raise", false},
	} {
		if got := isSecondCut(tt.prev, tt.next); got != tt.want {
			t.Errorf("isSecondCut(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}

func TestIsTwinSpaceBreak(t *testing.T) {
	prev := "E0612 14:05:26.176716 1192408 tcp_transport.cpp:136] Session::readBody failed. "
	next := "Error: Bad address (value: 14), total_transferred_bytes_: 0, current transferred_bytes: 0"[:len(prev)]
	for _, tt := range []struct {
		name       string
		prev, next string
		want       bool
	}{
		{"twin pieces, the cut after a space", prev, next, true},
		{"the rest shorter", prev, next[:60], false},
		{"two spaces end prev", prev[:len(prev)-2] + "  ", next, false},
		{"the rest a frame", prev, `  File "/srv/x.py", line 1, in f` + strings.Repeat("x", len(prev)-32), false},
		{"the rest opens as prev does", prev, prev[:len(prev)-1] + "x", false},
		{"too short", prev[:40] + " ", next[:41], false},
	} {
		if got := isTwinSpaceBreak(tt.prev, tt.next, len(tt.prev), len(tt.next)); got != tt.want {
			t.Errorf("%s: isTwinSpaceBreak = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsAssertConditionRest(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"Assertion failed: kernels/layout.cuh:131, conditi", "on: (values[j] & 0xff) == 0", true},
		{"Assertion failed: kernels/layout.cuh:131, ", "condition: x == 0", true},
		{"Assertion failed: kernels/layout.cuh:131, c", "ondition: x", true},
		{"Assertion failed: kernels/layout.cuh:131, conditi", "on (values)", false},
		{"Assertion failed: kernels/layout.cuh:131, file", "on: x", false},
		{"Assertion failed: kernels/layout.cuh:131, condition:", " x", false},
	} {
		if got := isAssertConditionRest(tt.prev, tt.next); got != tt.want {
			t.Errorf("isAssertConditionRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}

// Inline code a paste's lone backtick opened before the line (it goes
// with the line's prefix) and the line's rest closes, cut inside a token.
func TestAssemblerSpanRest(t *testing.T) {
	line := "`(Worker pid=9, ip=10.0.0.2) [rank1]:[E528 08:52:46.164295950 ProcessGroupGloo.cpp:145] Gloo connectFullMesh failed with [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:144] no error`"
	got := assemble(t, Options{}, line[:120]+"\n"+line[120:])
	if len(got) != 1 || !strings.Contains(got[0].Text, "connectFullMesh failed") {
		t.Fatalf("got %+v, want one entry with the line whole", views(got))
	}
	// Not a line of its own that closes the span: an exception line.
	got = assemble(t, Options{}, "`Assertion failed: deep_gemm/include/impls/smxx_layout.cuh:131, condition: (values[j] & 0x7f) == 0\ntvm.error.InternalError: CUDA driver error`")
	if len(got) != 2 {
		t.Errorf("got %d entries, want the exception line apart: %+v", len(got), views(got))
	}
}

func TestIsParenRest(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"[W socket.cpp:426] [c10d] The server socket has failed to listen on [::]:38429 (", "errno: 98 - Address already in use).", true},
		{"[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:38429 (er", "rno: 98 - Address already in use).", true},
		{"[W socket.cpp:426] [c10d] The server socket has failed (see the notes below", "for details) and more", false},
		{"[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:38429 (er", "RuntimeError: x (y)", false},
		{"[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:38429 (er", "no closing parenthesis", false},
		{"[W socket.cpp:426] [c10d] The server socket (closed) failed to bind", "rno: 98)", false},
		// gdb's frame of a C++ function cut inside its signature's
		// argument list (TensorRT-LLM's NCCL thread, Ray's core
		// worker): spaces only after its commas.
		{"#2  0x00007f6b8811f042 in wrap_ibv_get_async_event(ibv_context*, ibv_async_e", "vent*) () from /home/askhoroshev/wmcore/lib/libnccl.so.2", true},
		{"#2  0x00007f6b8811f042 in wrap_ibv_get_async_event(ibv_context*, ibv_async_event", "*) () from /home/askhoroshev/wmcore/lib/libnccl.so.2", true},
		{"#1  0x00007f18d2fda429 in boost::asio::detail::epoll_reactor::run(long, boost::a", "sio::detail::op_queue<boost::asio::detail::scheduler_operation>&) ()", true},
		{"[W socket.cpp:426] [c10d] The server socket has failed (see the notes, below", "for details) and more", false},
	} {
		if got := isParenRest(tt.prev, tt.next); got != tt.want {
			t.Errorf("isParenRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}
