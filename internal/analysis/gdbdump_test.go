package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// TestGDBDumpHang reads gdb's backtrace of a stuck process (thread apply
// all bt of an event loop, a Ray worker's bt, a postgres backend's frames
// with their locals, NCCL's threads blocked in the C library, each from
// another report) as one hang, critical and headed by its first thread's
// top frames above the C library's wait and by the thread's header, and
// leaves silent the lines gdb prints around a session and a numbered
// list.
func TestGDBDumpHang(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"thread apply all bt", "(gdb) thread apply all backtrace\n\nThread 3 (Thread 0x7f2bab462700 (LWP 2488)):\n#0  0x00007f2baec811f3 in epoll_wait ()\n" +
			"#1  0x00007f2bb0412dd5 in torrent::PollEPoll::poll(int) ()\n   from /usr/lib/x86_64-linux-gnu/libtorrent.so.14\n" +
			"#2  0x00007f2bb0412f4d in torrent::PollEPoll::do_poll(long, int) ()\n   from /usr/lib/x86_64-linux-gnu/libtorrent.so.14\n" +
			"#3  0x00007f2bb0449266 in torrent::thread_base::event_loop(torrent::thread_base*) () from /usr/lib/x86_64-linux-gnu/libtorrent.so.14\n\n" +
			"Thread 2 (Thread 0x7f2baab60700 (LWP 2489)):\n#0  0x00007f2baec811f3 in epoll_wait ()\n",
			"no progress: stuck in epoll_wait (?) < torrent::PollEPoll::poll (libtorrent.so.14) < torrent::PollEPoll::do_poll (libtorrent.so.14): Thread 3 (Thread 0x7f2bab462700 (LWP 2488)):"},
		{"ray worker bt", "#0  0x00007f18da3258ee in epoll_wait () from /usr/lib64/libc.so.6\n" +
			"#1  0x00007f18d2fda429 in boost::asio::detail::epoll_reactor::run(long, boost::asio::detail::op_queue<boost::asio::detail::scheduler_operation>&) ()\n   from /home/ray/anaconda3/lib/python3.9/site-packages/ray/_raylet.so\n" +
			"#2  0x00007f18d2fda6dd in boost::asio::detail::scheduler::do_run_one(boost::asio::detail::conditionally_enabled_mutex::scoped_lock&, boost::asio::detail::scheduler_thread_info&, boost::system::error_code const&) () from /home/ray/anaconda3/lib/python3.9/site-packages/ray/_raylet.so\n" +
			"#3  0x00007f18d2fdc329 in boost::asio::detail::scheduler::run(boost::system::error_code&) () from /home/ray/anaconda3/lib/python3.9/site-packages/ray/_raylet.so\n",
			"no progress: stuck in boost::asio::detail::epoll_reactor::run (_raylet.so) < boost::asio::detail::scheduler::do_run_one (_raylet.so) < boost::asio::detail::scheduler::run (_raylet.so), waiting in epoll_wait (libc.so.6)"},
		{"frames with locals", "Thread 1 (Thread 0x7f3bdb0f8480 (LWP 692938) \"postgres\"):\n" +
			"#0  0x00007f3bda725dea in epoll_wait (epfd=8, events=0x55dce8621698, maxevents=1, timeout=timeout@entry=180000) at ../sysdeps/unix/sysv/linux/epoll_wait.c:30\n        sc_ret = -4\n" +
			"#1  0x000055dce81078ad in WaitEventSetWaitBlock (nevents=1, occurred_events=0x7fff2d489660, cur_timeout=<optimized out>, set=0x55dce8621638) at latch.c:1489\n        returned_events = 0\n" +
			"#2  WaitEventSetWait (set=0x55dce8621638, timeout=180000, occurred_events=0x7fff2d489660, nevents=1, wait_event_info=<optimized out>) at latch.c:1435\n        rc = <optimized out>\n",
			"no progress: stuck in epoll_wait (epoll_wait.c:30) < WaitEventSetWaitBlock (latch.c:1489) < WaitEventSetWait (latch.c:1435): Thread 1 (Thread 0x7f3bdb0f8480 (LWP 692938) \"postgres\"):"},
		// NVIDIA/TensorRT-LLM#2560: NCCL's InfiniBand async threads
		// blocked in read(), a C++ parameter list with a space.
		{"threads blocked in the C library", "#5  0x00007f6b83e0be73 in clone () from /home/u/lib/libc.so.6\n\n" +
			"Thread 7 (Thread 0x7f64ab6dc000 (LWP 2791195) \"executor_server\"):\n" +
			"#0  0x00007f6b84ad7ab4 in read () from /home/u/lib/libpthread.so.0\n" +
			"#1  0x00007f6b72cabfa3 in ibv_get_async_event () from /lib64/libibverbs.so.1\n" +
			"#2  0x00007f6b8811f042 in wrap_ibv_get_async_event(ibv_context*, ibv_async_event*) () from /home/u/lib/libnccl.so.2\n" +
			"#3  0x00007f6b88141b54 in ncclIbAsyncThreadMain(void*) () from /home/u/lib/libnccl.so.2\n" +
			"#4  0x00007f6b84ace1ca in start_thread () from /home/u/lib/libpthread.so.0\n" +
			"#5  0x00007f6b83e0be73 in clone () from /home/u/lib/libc.so.6\n\n" +
			"Thread 6 (Thread 0x7f64abedd000 (LWP 2791192) \"executor_server\"):\n" +
			"#0  0x00007f6b84ad7ab4 in read () from /home/u/lib/libpthread.so.0\n",
			"no progress: stuck in ibv_get_async_event (libibverbs.so.1) < wrap_ibv_get_async_event (libnccl.so.2) < ncclIbAsyncThreadMain (libnccl.so.2), waiting in read (libpthread.so.0): Thread 7 (Thread 0x7f64ab6dc000 (LWP 2791195) \"executor_server\"):"},
		// NVIDIA/nccl#899: a thread blocked on a lock in ncclGroupEnd,
		// template arguments and parameter types with spaces.
		{"a lock wait under C++ frames", "(gdb) thread apply all bt\n\nThread 18 (Thread 0x7f0498ffd700 (LWP 135332)):\n" +
			"#0  0x00007f05daa8fe8b in pthread_rwlock_wrlock () from /usr/lib/x86_64-linux-gnu/libpthread.so.0\n" +
			"#1  0x00007f0580bb3641 in ?? () from /usr/lib/x86_64-linux-gnu/libcuda.so\n" +
			"#2  0x00007f04fc98d6e6 in ncclGroupEnd () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n" +
			"#3  0x00007f05da0639b3 in tfrt::gpu::GpuCclHandle::ExecuteCallbacks(tfrt::gpu::wrapper::CurrentContext, tfrt::gpu::wrapper::Resource<CUstream_st*, ihipStream_t*>) () from /workdir/pyRuntime.so\n",
			"no progress: stuck in ?? (libcuda.so) < ncclGroupEnd (libnccl.so.2) < tfrt::gpu::GpuCclHandle::ExecuteCallbacks (pyRuntime.so), waiting in pthread_rwlock_wrlock (libpthread.so.0): Thread 18 (Thread 0x7f0498ffd700 (LWP 135332)):"},
		{"session lines", "[New Thread 0x7fffec5ff000 (LWP 1068)]\n[Thread debugging using libthread_db enabled]\n#1 in the list\n#2 (see above)\n", ""},
	} {
		got := analyzeStream(defaultMatcher(t), c.text)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %d failures, first %q", c.name, len(got), got[0].Headline)
			}
			continue
		}
		if len(got) != 1 || got[0].Signal != analysis.SignalHang || got[0].Severity != "critical" || got[0].Headline != c.want || len(got[0].Stack) < 3 {
			t.Errorf("%s: got %d failures", c.name, len(got))
			for _, d := range got {
				t.Logf("  %s %s %q %q", d.Signal, d.Severity, d.Headline, d.Stack)
			}
		}
	}
}

// TestGDBCrashThenBacktrace alerts gdb's report that the program stopped
// on a crash signal as a native crash, and reads the backtrace after it
// as the dump that crash leads (a hang's signal, which the incident folds
// into the crash).
func TestGDBCrashThenBacktrace(t *testing.T) {
	text := "Program received signal SIGSEGV, Segmentation fault.\n0x0000000000400d19 in fn2 (str=\"abcdefg\") at badString.cpp:14\n14\t    if (str[i] < ch)\n(gdb) bt\n" +
		"#0  0x0000000000400d19 in fn2 (str=\"abcdefg\") at badString.cpp:14\n#1  0x0000000000400d5a in fn1 () at badString.cpp:22\n#2  0x0000000000400e01 in main () at badString.cpp:30\n"
	got := analyzeStream(defaultMatcher(t), text)
	if len(got) != 2 || got[0].Signal != analysis.SignalNative || got[0].Severity != "critical" || got[1].Signal != analysis.SignalHang {
		for _, d := range got {
			t.Logf("  %s %s %q", d.Signal, d.Severity, d.Headline)
		}
		t.Fatalf("got %d failures, want the crash then its dump", len(got))
	}
}
