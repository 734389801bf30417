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
// top frames above the C library's wait they sit in; after gdb's report
// that the program stopped on a crash signal, the same backtrace is that
// crash's, one incident led by it.
func TestGDBDumpIsAHang(t *testing.T) {
	const bt = "#0  0x00007f18da3258ee in epoll_wait () from /usr/lib64/libc.so.6\n" +
		"#1  0x00007f18d2fda429 in boost::asio::detail::epoll_reactor::run(long) ()\n   from /opt/ray/_raylet.so\n" +
		"#2  0x00007f18d262917d in ray::core::CoreWorker::RunTaskExecutionLoop() () from /opt/ray/_raylet.so\n"
	for _, tt := range []struct {
		name, log, severity, headline string
	}{
		{"a dump alone", "Thread 3 (Thread 0x7f2bab462700 (LWP 2488)):\n" + bt + "\nThread 2 (Thread 0x7f2baab60700 (LWP 2489)):\n", "critical",
			"stuck in boost::asio::detail::epoll_reactor::run (_raylet.so) < ray::core::CoreWorker::RunTaskExecutionLoop (_raylet.so), waiting in epoll_wait (libc.so.6)"},
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

// TestFaultFragmentsOfACrash: faulthandler's frame lines without their
// header, or its extension-module list alone, are one critical native
// crash incident; next to the crash's own line (terminate's what(), the
// shell's report of the signal) they are that crash's, one incident led
// by it.
func TestFaultFragmentsOfACrash(t *testing.T) {
	const frames = `  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap
  File "/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py", line 116 in decorate_context
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1757 in run_scheduler_process
  File "/usr/lib/python3.10/multiprocessing/process.py", line 108 in run
`
	const modules = "Extension modules: numpy.core._multiarray_umath, torch._C, yaml._yaml, PIL._imaging (total: 4)\n"
	for _, tt := range []struct {
		name, log, slug, match string
	}{
		{"frames alone", frames, "unclassified", `line 510 in event_loop_overlap`},
		{"the module list alone", modules, "unclassified", "Extension modules: numpy.core._multiarray_umath"},
		{"frames after terminate's what()", "terminate called after throwing an instance of 'c10::Error'\n  what():  CUDA error: an illegal memory access was encountered\n\n" + frames,
			"cuda-illegal-memory-access", "an illegal memory access"},
		{"the module list before the shell's report", modules + "Segmentation fault (core dumped)\n", "process-segfault-core-dumped", "Segmentation fault (core dumped)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(defaultMatcher(t), Options{Now: func() time.Time { return fixedNow }})
			res, err := s.Scan(context.Background(), []Input{{Name: "crash.log", R: strings.NewReader(tt.log)}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Alerts) != 1 {
				t.Fatalf("got %d incidents %v, want one", len(res.Alerts), slugs(res.Alerts))
			}
			if a := res.Alerts[0]; a.Record.Slug != tt.slug || a.Record.Severity != "critical" || !strings.Contains(a.Match.Text, tt.match) {
				t.Fatalf("incident %s %s %q, want %s critical matching %q", a.Record.Slug, a.Record.Severity, a.Match.Text, tt.slug, tt.match)
			}
		})
	}
}
