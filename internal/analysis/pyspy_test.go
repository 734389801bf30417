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
	// The dump is a hang of its own (alone it is the incident; with the
	// timeout record, grouping makes it that record's context), and the
	// timeout record carries its hung thread.
	if len(got) != 2 || got[0].Signal != analysis.SignalHang || got[1].Cause == nil || got[1].Cause.Record.Slug != "watchdog-timeout" {
		t.Fatalf("diagnoses %+v", got)
	}
	if diff := cmp.Diff(got[0].Stack, got[1].Stack); diff != "" {
		t.Fatalf("the hang and the timeout name different threads (-hang +timeout):\n%s", diff)
	}
	got = got[1:]
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

func TestThreadDumpsAreHangs(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		headline string
		process  string
	}{
		{
			name: "py-spy's own output, one block per thread: one hang, headed by the first thread",
			in: "Process 309: sglang::scheduler_TP6\nPython v3.12.12 (/usr/bin/python3.12)\n\n" +
				"Thread 309 (active): \"MainThread\"\n" +
				"    all_reduce (sglang/srt/distributed/parallel_state.py:500)\n" +
				"    forward_batch_generation (sglang/srt/managers/tp_worker.py:268)\n" +
				"    run_batch (sglang/srt/managers/scheduler.py:1700)\n" +
				"    event_loop_normal (sglang/srt/managers/scheduler.py:1000)\n" +
				"Thread 400 (idle): \"Thread-1\"\n" +
				"    wait (threading.py:359)\n" +
				"    _bootstrap (threading.py:1030)\n",
			headline: "no progress: stuck in all_reduce (sglang/srt/distributed/parallel_state.py:500) < forward_batch_generation (sglang/srt/managers/tp_worker.py:268) < run_batch (sglang/srt/managers/scheduler.py:1700)",
			process:  "scheduler",
		},
		{
			name: "py-spy's threads pasted without the main thread's header: a helper thread that idles does not head, the thread doing the work does",
			in: "    run_scheduler_process (scheduler.py:2612)\n" +
				"    <module> (<string>:1)\n" +
				"Thread 4110423 (idle): \"Thread-1 (_read_thread)\"\n" +
				"    _recv_msg (torch/_inductor/compile_worker/subproc_pool.py:61)\n" +
				"    _read_thread (torch/_inductor/compile_worker/subproc_pool.py:195)\n" +
				"    run (threading.py:1012)\n" +
				"    _bootstrap (threading.py:1032)\n" +
				"Thread 4110500 (idle): \"ThreadPoolExecutor-0_0\"\n" +
				"    _worker (concurrent/futures/thread.py:89)\n" +
				"    run (threading.py:1012)\n" +
				"Thread 4113894 (idle): \"Thread-2 (forward_thread_func)\"\n" +
				"    ncclCommWindowRegister (pynccl_wrapper.py:540)\n" +
				"    register_comm_window_raw (pynccl.py:308)\n" +
				"    __exit__ (pynccl_allocator.py:122)\n" +
				"    forward (vocab_parallel_embedding.py:476)\n" +
				"    forward_batch_generation (tp_worker.py:251)\n" +
				"Thread 4113900 (active): \"Thread-3\"\n" +
				"    all_reduce (parallel_state.py:500)\n",
			headline: "no progress: stuck in ncclCommWindowRegister (pynccl_wrapper.py:540) < register_comm_window_raw (pynccl.py:308) < __exit__ (pynccl_allocator.py:122)",
			process:  "scheduler",
		},
		{
			name: "sglang's py-spy record with no timeout after it",
			in: "[2026-05-28 00:20:01 TP0] Pyspy dump for PID 4242:\nProcess 4242: sglang::scheduler_TP0\n\n" +
				"Thread 4242 (idle): \"MainThread\"\n" +
				"    wait (torch/distributed/distributed_c10d.py:4000)\n" +
				"    event_loop_overlap (sglang/srt/managers/scheduler.py:789)\n",
			headline: "no progress: stuck in wait (torch/distributed/distributed_c10d.py:4000) < event_loop_overlap (sglang/srt/managers/scheduler.py:789)",
			process:  "scheduler",
		},
		{
			name: "a main thread waiting in the standard library: headed where its own work stopped",
			in: "Pyspy dump for PID 77:\nProcess 77: sglang::scheduler_TP0\n\n" +
				"Thread 77 (idle): \"MainThread\"\n" +
				"    wait (threading.py:355)\n" +
				"    get (queue.py:171)\n" +
				"    resolve_last_batch_result (sglang/srt/managers/tp_worker_overlap_thread.py:180)\n" +
				"    process_batch_result (sglang/srt/managers/scheduler.py:1500)\n" +
				"    event_loop_overlap (sglang/srt/managers/scheduler.py:700)\n" +
				"    run_scheduler_process (sglang/srt/managers/scheduler.py:2100)\n",
			headline: "no progress: stuck in resolve_last_batch_result (sglang/srt/managers/tp_worker_overlap_thread.py:180) < process_batch_result (sglang/srt/managers/scheduler.py:1500) < event_loop_overlap (sglang/srt/managers/scheduler.py:700), waiting in wait (threading.py:355)",
			process:  "scheduler",
		},
		{
			name: "a py-spy record printed whole: a main thread that only idles loses to a thread doing the work",
			in: "[2026-05-28 00:20:01 TP0] Pyspy dump for PID 78:\nProcess 78: sglang::scheduler_TP0\n" +
				"Thread 78 (idle): \"MainThread\"\n" +
				"    wait (threading.py:359)\n" +
				"    join (threading.py:1119)\n" +
				"Thread 90 (active): \"Thread-4 (forward_thread_func)\"\n" +
				"    all_gather (sglang/srt/distributed/parallel_state.py:610)\n" +
				"    forward_thread_func_ (sglang/srt/managers/tp_worker_overlap_thread.py:150)\n",
			headline: "no progress: stuck in all_gather (sglang/srt/distributed/parallel_state.py:610) < forward_thread_func_ (sglang/srt/managers/tp_worker_overlap_thread.py:150)",
			process:  "scheduler",
		},
		{
			name: "faulthandler's dump without a current thread: the first thread that runs its own code",
			in: "Thread 0x00007f5b0dffb640 (most recent call first):\n" +
				"  File \"/usr/lib/python3.10/threading.py\", line 324 in wait\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/tqdm/_monitor.py\", line 60 in run\n" +
				"  File \"/usr/lib/python3.10/threading.py\", line 1016 in _bootstrap_inner\n\n" +
				"Thread 0x00007f5c2a1f4740 (most recent call first):\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/utils.py\", line 1093 in broadcast_pyobj\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py\", line 1012 in recv_requests\n",
			headline: "no progress: stuck in broadcast_pyobj (sglang/srt/utils.py:1093) < recv_requests (sglang/srt/managers/scheduler.py:1012): File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/utils.py\", line 1093 in broadcast_pyobj",
			process:  "scheduler",
		},
		{
			name: "faulthandler's dump stopped in torch under the engine's frame: the printed line quoted is the engine's",
			in: "Thread 0x00007fe403b964c0 (most recent call first):\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py\", line 2425 in broadcast\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/c10d_logger.py\", line 83 in wrapper\n" +
				"  File \"/opt/sglang/python/sglang/srt/utils.py\", line 693 in broadcast_pyobj\n" +
				"  File \"/opt/sglang/python/sglang/srt/managers/scheduler.py\", line 575 in recv_requests\n",
			headline: "no progress: stuck in broadcast (torch/distributed/distributed_c10d.py:2425) < wrapper (torch/distributed/c10d_logger.py:83) < broadcast_pyobj (sglang/srt/utils.py:693): File \"/opt/sglang/python/sglang/srt/utils.py\", line 693 in broadcast_pyobj",
			process:  "scheduler",
		},
		{
			name: "faulthandler's thread in torch only: the innermost frame is quoted",
			in: "Thread 0x00007fe403b964c0 (most recent call first):\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py\", line 2425 in broadcast\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py\", line 116 in decorate_context\n",
			headline: "no progress: stuck in broadcast (torch/distributed/distributed_c10d.py:2425) < decorate_context (torch/utils/_contextlib.py:116): File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py\", line 2425 in broadcast",
		},
		{
			name:     "the legacy watchdog's batch dump without its timeout line",
			in:       "[2025-08-02 19:24:30 TP3] self.cur_batch.batch_size()=109, self.cur_batch.reqs=[Req(rid=185e)]\n",
			headline: "no progress: the watchdog dumped the running batch: self.cur_batch.batch_size()=109, self.cur_batch.reqs=[Req(rid=185e)]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := analyzeStream(defaultMatcher(t), tt.in)
			if len(got) != 1 {
				t.Fatalf("got %d diagnoses %+v, want one hang", len(got), got)
			}
			d := got[0]
			if d.Signal != analysis.SignalHang || d.Severity != "critical" || d.Headline != tt.headline || d.Triage.Process != tt.process || d.Triage.Family != analysis.FamilyHang {
				t.Fatalf("diagnosis %+v\nwant a critical hang headed %q, process %q", d, tt.headline, tt.process)
			}
		})
	}
}

func TestIdleHelperThreadsAloneAreNoHang(t *testing.T) {
	in := "Thread 4110423 (idle): \"Thread-1 (_read_thread)\"\n" +
		"    _recv_msg (torch/_inductor/compile_worker/subproc_pool.py:61)\n" +
		"    run (threading.py:1012)\n" +
		"Thread 4110500 (idle): \"ThreadPoolExecutor-0_0\"\n" +
		"    _worker (concurrent/futures/thread.py:89)\n" +
		"    run (threading.py:1012)\n"
	an := analysis.New(defaultMatcher(t))
	var st analysis.Stream
	for _, e := range entries(in) {
		if d, ok := an.AnalyzeStream(&st, &e); ok {
			t.Fatalf("diagnosis %q, want none: the dump's threads only idle", d.Headline)
		}
	}
}

func TestFragmentIsNamedByTheMessageBeforeIt(t *testing.T) {
	cut := "Traceback (most recent call last):\n" +
		"  File \"/sgl/python/sglang/srt/disaggregation/nixl/conn.py\", line 1153, in transfer_worker\n" +
		"    raise RuntimeError(\n"
	tests := []struct {
		name, before, headline string
	}{
		{"logger.exception's message names the failure", "Unexpected transfer worker error for room 17\n", "Unexpected transfer worker error for room 17"},
		{"a line that reads as no error does not", "Loading safetensors checkpoint shards: 100% Completed\n", "Traceback (most recent call last):"},
		// A record's header holds the traceback in its own entry.
		{"a record with a header is its traceback's first line", "[2026-05-28 00:11:09 TP0] Unexpected error in batch\n", "Unexpected error in batch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			an := analysis.New(defaultMatcher(t))
			var st analysis.Stream
			var got []analysis.Diagnosis
			for _, e := range entries(tt.before + cut) {
				if d, ok := an.AnalyzeStream(&st, &e); ok && d.Fragment {
					got = append(got, d)
				}
			}
			if len(got) != 1 || got[0].Headline != tt.headline {
				t.Fatalf("fragments %+v, want one headed %q", got, tt.headline)
			}
		})
	}
}
