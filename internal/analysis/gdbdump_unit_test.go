package analysis

import (
	"strings"
	"testing"
)

// TestGDBFrame reads gdb's frame lines, with and without an address, a
// library on the next line, a source location and locals, and leaves
// alone numbered prose and markdown headings.
func TestGDBFrame(t *testing.T) {
	for _, c := range []struct{ l, rest, want string }{
		{"#0  0x00007f18da3258ee in epoll_wait () from /usr/lib64/libc.so.6", "", "epoll_wait (libc.so.6)"},
		{"#1  0x00007f2bb0412dd5 in torrent::PollEPoll::poll(int) ()", "   from /usr/lib/x86_64-linux-gnu/libtorrent.so.14", "torrent::PollEPoll::poll (libtorrent.so.14)"},
		{"#2  WaitEventSetWait (set=0x55dce8621638, timeout=180000) at latch.c:1435", "        rc = <optimized out>", "WaitEventSetWait (latch.c:1435)"},
		{"#12 0x000055d1 in main ()", "", "main (?)"},
		{"#1 in the list", "", ""},
		{"# Heading (draft)", "", ""},
		{"#2 (see above)", "", ""},
		{"#2 fix (see above)", "", ""},
		{"#3  main ()", "", ""},
		{"#2  0x00007f6b8811f042 in wrap_ibv_get_async_event(ibv_context*, ibv_async_event*) () from /x/libnccl.so.2", "", "wrap_ibv_get_async_event (libnccl.so.2)"},
		{"#11 0x00007f05da0639b3 in tfrt::gpu::GpuCclHandle::ExecuteCallbacks(tfrt::gpu::wrapper::CurrentContext, tfrt::gpu::wrapper::Resource<CUstream_st*, ihipStream_t*>) () from /w/pyRuntime.so", "", "tfrt::gpu::GpuCclHandle::ExecuteCallbacks (pyRuntime.so)"},
		{"#1  0x00007f326f3d9740 in virtual thunk to a::b::run() () from /x/liba.so", "", "virtual thunk to a::b::run (liba.so)"},
		{"#1 see the list (draft) for more", "", ""},
		{"#4 fix the loader (v2) at last", "", ""},
		{"#0  0xzz in f ()", "", ""},
	} {
		got, ok := gdbFrame(c.l, c.rest)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("gdbFrame(%q) = %q, %v, want %q", c.l, got, ok, c.want)
		}
	}
	for l, want := range map[string]bool{
		"Thread 3 (Thread 0x7f2bab462700 (LWP 2488)):":              true,
		`Thread 1 (Thread 0x7f3bdb0f8480 (LWP 692938) "postgres"):`: true,
		`Thread 309 (active): "MainThread"`:                         false,
		"Thread 0x00007f1c (most recent call first):":               false,
	} {
		if got := gdbThreadHeader(l); got != want {
			t.Errorf("gdbThreadHeader(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzGDBFrame checks that gdbFrame never panics, and that a frame it
// reads came from a "#" line and holds its place in parentheses.
func FuzzGDBFrame(f *testing.F) {
	f.Add("#0  0x00007f18da3258ee in epoll_wait () from /usr/lib64/libc.so.6", "")
	f.Add("#1  0x1 in a::b(int) ()", "   from /x/lib.so")
	f.Fuzz(func(t *testing.T, l, rest string) {
		if fr, ok := gdbFrame(l, rest); ok && (!strings.HasPrefix(l, "#") || !strings.HasSuffix(fr, ")")) {
			t.Fatalf("gdbFrame(%q, %q) = %q", l, rest, fr)
		}
		_ = gdbThreadHeader(l)
	})
}
