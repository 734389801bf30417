package analysis_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/analysis"
)

// watchdogLog is what sglang's scheduler watchdog writes when a forward
// pass hangs: the py-spy dump of the scheduler, then the timeout line.
const watchdogLog = `[2026-05-28 00:20:01 TP0] Pyspy dump for PID 4242 (py-spy dump --pid 4242):
Process 4242: sglang::scheduler_TP0
Python v3.12.3 (/usr/bin/python3.12)

Thread 4300 (idle): "Thread-4 (_read_thread)"
    wait (threading.py:355)
    _read_thread (sglang/srt/managers/io.py:40)
Thread 4242 (active): "MainThread"
    synchronize (torch/cuda/streams.py:224)
    resolve_last_batch_result (sglang/srt/managers/tp_worker_overlap_thread.py:193)
    process_batch_result_decode (sglang/srt/managers/scheduler_output_processor_mixin.py:200)
    event_loop_overlap (sglang/srt/managers/scheduler.py:789)
    run_scheduler_process (sglang/srt/managers/scheduler.py:2100)

[2026-05-28 00:20:02 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)
`

func TestHangCarriesTheHungThread(t *testing.T) {
	an := analysis.New(defaultMatcher(t))
	var st analysis.Stream
	var got []analysis.Diagnosis
	for _, e := range entries(watchdogLog) {
		if d, ok := an.AnalyzeStream(&st, &e); ok {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Cause == nil || got[0].Cause.Record.Slug != "watchdog-timeout" {
		t.Fatalf("diagnoses %+v", got)
	}
	want := []string{
		"synchronize (torch/cuda/streams.py:224)",
		"resolve_last_batch_result (sglang/srt/managers/tp_worker_overlap_thread.py:193)",
		"process_batch_result_decode (sglang/srt/managers/scheduler_output_processor_mixin.py:200)",
		"event_loop_overlap (sglang/srt/managers/scheduler.py:789)",
		"run_scheduler_process (sglang/srt/managers/scheduler.py:2100)",
	}
	if diff := cmp.Diff(want, got[0].Stack); diff != "" {
		t.Fatalf("hung thread (-want +got):\n%s", diff)
	}
	// The dump is attached once: a later hang of the stream has none.
	again := entries("[2026-05-28 00:30:02 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)")[0]
	if d, _ := an.AnalyzeStream(&st, &again); d.Stack != nil {
		t.Fatalf("stale stack %v", d.Stack)
	}
}

func TestPySpyStack(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"no dump", "Thread 1 (active): \"MainThread\"\n    f (a.py:1)", nil},
		{"first active thread without a main thread", "Pyspy dump for PID 1:\nThread 2 (idle): \"w\"\n    wait (t.py:1)\nThread 3 (active): \"x\"\n    run (x.py:9)", []string{"run (x.py:9)"}},
		{"idle threads only", "Pyspy dump for PID 1:\nThread 2 (idle): \"w\"\n    wait (t.py:1)", []string{"wait (t.py:1)"}},
		{"frames bounded", "Pyspy dump for PID 1:\nThread 1 (active): \"MainThread\"\n" + strings.Repeat("    f (a.py:1)\n", 20), []string{
			"f (a.py:1)", "f (a.py:1)", "f (a.py:1)", "f (a.py:1)", "f (a.py:1)", "f (a.py:1)", "f (a.py:1)", "f (a.py:1)"}},
		{"locals and noise are not frames", "Pyspy dump for PID 1:\nThread 1 (active): \"MainThread\"\n    f (a.py:1)\n        Arguments:\n            self: <X at 0x7f>\n    g (b.py:x)", []string{"f (a.py:1)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, analysis.PySpyStack(tt.in)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzPySpyStack(f *testing.F) {
	f.Add(watchdogLog)
	f.Add("Pyspy dump for PID 1:\nThread (\n  ()\n  f (a:1)\n  g (:1)\n  h (a:)")
	f.Fuzz(func(t *testing.T, s string) {
		frames := analysis.PySpyStack(s)
		if len(frames) > analysis.MaxStackFrames {
			t.Fatalf("%d frames", len(frames))
		}
		for _, fr := range frames {
			if strings.Contains(fr, "\n") || !strings.HasSuffix(fr, ")") {
				t.Fatalf("frame %q", fr)
			}
		}
	})
}
