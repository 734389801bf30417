package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// TestGDBDumpHang reads gdb's backtrace of a stuck process (thread apply
// all bt of an event loop, a Ray worker's bt, a postgres backend's frames
// with their locals, each from another report) as one hang, critical and
// headed by its first thread's top frames, and leaves silent the lines
// gdb prints around a session and a numbered list.
func TestGDBDumpHang(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"thread apply all bt", "(gdb) thread apply all backtrace\n\nThread 3 (Thread 0x7f2bab462700 (LWP 2488)):\n#0  0x00007f2baec811f3 in epoll_wait ()\n" +
			"#1  0x00007f2bb0412dd5 in torrent::PollEPoll::poll(int) ()\n   from /usr/lib/x86_64-linux-gnu/libtorrent.so.14\n" +
			"#2  0x00007f2bb0412f4d in torrent::PollEPoll::do_poll(long, int) ()\n   from /usr/lib/x86_64-linux-gnu/libtorrent.so.14\n" +
			"#3  0x00007f2bb0449266 in torrent::thread_base::event_loop(torrent::thread_base*) () from /usr/lib/x86_64-linux-gnu/libtorrent.so.14\n\n" +
			"Thread 2 (Thread 0x7f2baab60700 (LWP 2489)):\n#0  0x00007f2baec811f3 in epoll_wait ()\n",
			"no progress: stuck in epoll_wait (?) < torrent::PollEPoll::poll (libtorrent.so.14) < torrent::PollEPoll::do_poll (libtorrent.so.14)"},
		{"ray worker bt", "#0  0x00007f18da3258ee in epoll_wait () from /usr/lib64/libc.so.6\n" +
			"#1  0x00007f18d2fda429 in boost::asio::detail::epoll_reactor::run(long, boost::asio::detail::op_queue<boost::asio::detail::scheduler_operation>&) ()\n   from /home/ray/anaconda3/lib/python3.9/site-packages/ray/_raylet.so\n" +
			"#2  0x00007f18d2fda6dd in boost::asio::detail::scheduler::do_run_one(boost::asio::detail::conditionally_enabled_mutex::scoped_lock&, boost::asio::detail::scheduler_thread_info&, boost::system::error_code const&) () from /home/ray/anaconda3/lib/python3.9/site-packages/ray/_raylet.so\n" +
			"#3  0x00007f18d2fdc329 in boost::asio::detail::scheduler::run(boost::system::error_code&) () from /home/ray/anaconda3/lib/python3.9/site-packages/ray/_raylet.so\n",
			"no progress: stuck in epoll_wait (libc.so.6) < boost::asio::detail::epoll_reactor::run (_raylet.so) < boost::asio::detail::scheduler::do_run_one (_raylet.so)"},
		{"frames with locals", "Thread 1 (Thread 0x7f3bdb0f8480 (LWP 692938) \"postgres\"):\n" +
			"#0  0x00007f3bda725dea in epoll_wait (epfd=8, events=0x55dce8621698, maxevents=1, timeout=timeout@entry=180000) at ../sysdeps/unix/sysv/linux/epoll_wait.c:30\n        sc_ret = -4\n" +
			"#1  0x000055dce81078ad in WaitEventSetWaitBlock (nevents=1, occurred_events=0x7fff2d489660, cur_timeout=<optimized out>, set=0x55dce8621638) at latch.c:1489\n        returned_events = 0\n" +
			"#2  WaitEventSetWait (set=0x55dce8621638, timeout=180000, occurred_events=0x7fff2d489660, nevents=1, wait_event_info=<optimized out>) at latch.c:1435\n        rc = <optimized out>\n",
			"no progress: stuck in epoll_wait (epoll_wait.c:30) < WaitEventSetWaitBlock (latch.c:1489) < WaitEventSetWait (latch.c:1435)"},
		{"session lines", "[New Thread 0x7fffec5ff000 (LWP 1068)]\n[Thread debugging using libthread_db enabled]\n#1 in the list\n#2 (see above)\n", ""},
	} {
		got := analyzeStream(defaultMatcher(t), c.text)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %d failures, first %q", c.name, len(got), got[0].Headline)
			}
			continue
		}
		if len(got) != 1 || got[0].Signal != analysis.SignalHang || got[0].Severity != "critical" || got[0].Headline != c.want || len(got[0].Stack) != 3 {
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
