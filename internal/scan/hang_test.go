package scan

import (
	"context"
	"strings"
	"testing"
	"time"
)

const pyspyDump = "[2026-05-28 00:20:01 TP0] Pyspy dump for PID 4242:\n" +
	"Process 4242: sglang::scheduler_TP0\nPython v3.12.3 (/usr/bin/python3.12)\n\n" +
	"Thread 4242 (active): \"MainThread\"\n" +
	"    synchronize (torch/cuda/streams.py:224)\n" +
	"    event_loop_overlap (sglang/srt/managers/scheduler.py:789)\n" +
	"    run_scheduler_process (sglang/srt/managers/scheduler.py:2100)\n\n"

func TestHangIsAnIncident(t *testing.T) {
	tests := []struct {
		name     string
		log      string
		slug     string
		headline string
	}{
		{
			name:     "a dump with no error line is a critical hang headed by the stuck thread",
			log:      "[2026-05-28 00:19:00 TP0] Decode batch, #running-req: 4\n" + pyspyDump,
			slug:     "unclassified",
			headline: "scheduler TP0 hangs while serving requests: stuck in synchronize (torch/cuda/streams.py:224) < event_loop_overlap (sglang/srt/managers/scheduler.py:789) < run_scheduler_process (sglang/srt/managers/scheduler.py:2100)",
		},
		{
			name:     "a dump with the watchdog's timeout after it is that timeout's incident",
			log:      pyspyDump + "[2026-05-28 00:20:02 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)\n",
			slug:     "watchdog-timeout",
			headline: "Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(defaultMatcher(t), Options{Now: func() time.Time { return fixedNow }})
			res, err := s.Scan(context.Background(), []Input{{Name: "hang.log", R: strings.NewReader(tt.log)}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Alerts) != 1 {
				t.Fatalf("got %d incidents %v, want one", len(res.Alerts), slugs(res.Alerts))
			}
			a := res.Alerts[0]
			if a.Record.Slug != tt.slug || a.Record.Severity != "critical" || a.Headline != tt.headline || len(a.HungThread) != 3 {
				t.Fatalf("incident %s %s %q hung thread %v\nwant %s critical %q with the stuck thread", a.Record.Slug, a.Record.Severity, a.Headline, a.HungThread, tt.slug, tt.headline)
			}
		})
	}
}

// TestGDBDumpIsAHang: gdb's backtrace of a stuck native process, with no
// error line, is one critical hang incident headed by its first thread's
// top frames; after gdb's report that the program stopped on a crash
// signal, the same backtrace is that crash's, one incident led by it.
func TestGDBDumpIsAHang(t *testing.T) {
	const bt = "#0  0x00007f18da3258ee in epoll_wait () from /usr/lib64/libc.so.6\n" +
		"#1  0x00007f18d2fda429 in boost::asio::detail::epoll_reactor::run(long) ()\n   from /opt/ray/_raylet.so\n" +
		"#2  0x00007f18d262917d in ray::core::CoreWorker::RunTaskExecutionLoop() () from /opt/ray/_raylet.so\n"
	for _, tt := range []struct {
		name, log, severity, headline string
	}{
		{"a dump alone", "Thread 3 (Thread 0x7f2bab462700 (LWP 2488)):\n" + bt, "critical", "stuck in epoll_wait (libc.so.6)"},
		{"a crash's backtrace", "Program received signal SIGSEGV, Segmentation fault.\n(gdb) bt\n" + bt, "critical", "received signal SIGSEGV"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(defaultMatcher(t), Options{Now: func() time.Time { return fixedNow }})
			res, err := s.Scan(context.Background(), []Input{{Name: "gdb.log", R: strings.NewReader(tt.log)}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Alerts) != 1 {
				t.Fatalf("got %d incidents %v, want one", len(res.Alerts), slugs(res.Alerts))
			}
			if a := res.Alerts[0]; a.Record.Severity != tt.severity || !strings.Contains(a.Headline, tt.headline) {
				t.Fatalf("incident %s %q, want %s holding %q", a.Record.Severity, a.Headline, tt.severity, tt.headline)
			}
		})
	}
}
