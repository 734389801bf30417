package analysis_test

import (
	"strings"

	"github.com/google/go-cmp/cmp"
	"sync"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

var (
	defaultOnce sync.Once
	defaultM    *matcher.Matcher
)

// defaultMatcher compiles the embedded catalog once per test binary.
func defaultMatcher(t testing.TB) *matcher.Matcher {
	t.Helper()
	defaultOnce.Do(func() {
		recs, probs := patterns.Default()
		for _, p := range probs {
			if p.Level == patterns.LevelError {
				t.Fatalf("default catalog: %v", p)
			}
		}
		defaultM, _ = matcher.Compile(recs, matcher.Options{})
	})
	return defaultM
}

// entries assembles text the way a source's lines reach the pipeline.
func entries(text string) []entry.Entry {
	a := entry.NewAssembler(entry.Options{})
	var out []entry.Entry
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		out = append(out, a.Push(entry.Line{Text: l, Offset: int64(i)})...)
	}
	return append(out, a.Flush()...)
}

// analyzeText returns the diagnoses of every failure entry of text.
func analyzeText(m *matcher.Matcher, text string) []analysis.Diagnosis {
	an := analysis.New(m)
	var got []analysis.Diagnosis
	for _, e := range entries(text) {
		if d, ok := an.Analyze(&e); ok {
			got = append(got, d)
		}
	}
	return got
}

// analyzeStream returns the diagnoses of every failure entry of text read
// as one stream, as the stream shell reads it: the shapes read across
// entries (dumps, help boxes, a probe's answers) see each other.
func analyzeStream(m *matcher.Matcher, text string) []analysis.Diagnosis {
	an := analysis.New(m)
	var st analysis.Stream
	var got []analysis.Diagnosis
	for _, e := range entries(text) {
		if d, ok := an.AnalyzeStream(&st, &e); ok {
			got = append(got, d)
		}
	}
	return got
}

// one reports whether got holds exactly one diagnosis, and says so when it
// does not.
func one(t *testing.T, name string, got []analysis.Diagnosis) bool {
	t.Helper()
	if len(got) != 1 {
		t.Errorf("%s: %d diagnoses, want 1", name, len(got))
		return false
	}
	return true
}

// diagnosis is the part of a Diagnosis a test compares.
type diagnosis struct {
	slug     string // cause record's slug, "" when unclassified
	role     patterns.Role
	signal   analysis.Signal
	exc      string // exception type
	root     string // root cause type
	context  []string
	severity patterns.Severity
	headline string
	fragment bool
}

func brief(d *analysis.Diagnosis) diagnosis {
	b := diagnosis{role: d.Role, signal: d.Signal, severity: d.Severity, headline: d.Headline, fragment: d.Fragment}
	if d.Cause != nil {
		b.slug = d.Cause.Record.Slug
	}
	if d.Exception != nil {
		b.exc = d.Exception.Type
	}
	if d.RootCause != nil {
		b.root = d.RootCause.Type
	}
	for _, h := range d.Context {
		b.context = append(b.context, h.Record.Slug)
	}
	return b
}

// analyzeAll returns the diagnoses of every failure entry of text.
func analyzeAll(t *testing.T, m *matcher.Matcher, text string) ([]diagnosis, []string) {
	t.Helper()
	an := analysis.New(m)
	var ds []diagnosis
	var keys []string
	for _, e := range entries(text) {
		d, ok := an.Analyze(&e)
		if ok {
			ds = append(ds, brief(&d))
			keys = append(keys, d.Key)
		}
	}
	return ds, keys
}

const schedTB = "[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
	"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 3120, in run_scheduler_process\n" +
	"    scheduler.event_loop_overlap()\n" +
	"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1200, in run_batch\n" +
	"    out = self.model_worker.forward(batch)\n"

func TestAnalyze(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct {
		name string
		in   string
		want []diagnosis
	}{
		{
			name: "record inside the scheduler wrapper: the cause leads, the wrapper is context",
			in:   schedTB + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.11 GiB of which 1.2 GiB is free.\n",
			want: []diagnosis{{
				slug: "cuda-out-of-memory", role: patterns.RoleCause, signal: analysis.SignalRecord, exc: "torch.OutOfMemoryError",
				context: []string{"scheduler-hit-an-exception"}, severity: patterns.SeverityCritical,
				headline: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.11 GiB of which 1.2 GiB is free.",
			}},
		},
		{
			name: "unknown exception inside the scheduler wrapper: unclassified, named by the exception, as severe as the wrapper",
			in:   schedTB + "ZeroDivisionError: division by zero\n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalException, exc: "ZeroDivisionError",
				context: []string{"scheduler-hit-an-exception"}, severity: patterns.SeverityCritical,
				headline: "ZeroDivisionError: division by zero",
			}},
		},
		{
			name: "chained unknown exceptions: the outermost names it, the root cause is kept",
			in: schedTB + "KeyError: 'rope_theta'\n\nDuring handling of the above exception, another exception occurred:\n\n" +
				"Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py\", line 12, in load\n    raise ValueError(\"bad checkpoint\")\n" +
				"ValueError: bad checkpoint\n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalException, exc: "ValueError", root: "KeyError",
				context: []string{"scheduler-hit-an-exception"}, severity: patterns.SeverityCritical,
				headline: "ValueError: bad checkpoint",
			}},
		},
		{
			name: "wrapper exception around a known inner error: the inner record leads",
			in: "Traceback (most recent call last):\n  File \"/sgl/runner.py\", line 470, in capture\n    graph.replay()\n" +
				"RuntimeError: CUDA error: an illegal memory access was encountered\n\nDuring handling of the above exception, another exception occurred:\n\n" +
				"Traceback (most recent call last):\n  File \"/sgl/runner.py\", line 481, in __init__\n    raise Exception(\n" +
				"Exception: Capture cuda graph failed: CUDA error: an illegal memory access was encountered\n",
			want: []diagnosis{{
				slug: "cuda-illegal-memory-access", role: patterns.RoleCause, signal: analysis.SignalRecord,
				exc: "RuntimeError", context: []string{"capture-cuda-graph-failed"}, severity: patterns.SeverityCritical,
				headline: "RuntimeError: CUDA error: an illegal memory access was encountered",
			}},
		},
		{
			name: "wrapper exception around an unknown inner error: the inner exception is the cause",
			in: "Traceback (most recent call last):\n  File \"/sgl/runner.py\", line 470, in capture\n    graph.replay()\n" +
				"AssertionError: graph pool exhausted\n\nDuring handling of the above exception, another exception occurred:\n\n" +
				"Traceback (most recent call last):\n  File \"/sgl/runner.py\", line 481, in __init__\n    raise Exception(\n" +
				"Exception: Capture cuda graph failed: graph pool exhausted\n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalException, exc: "AssertionError",
				context: []string{"capture-cuda-graph-failed"}, severity: patterns.SeverityCritical,
				headline: "AssertionError: graph pool exhausted",
			}},
		},
		{
			name: "a wrapper line that quotes the failure is read as the failure",
			in: "[rank3]:[E416 13:29:57.332110411 ProcessGroupNCCL.cpp:2057] [PG ID 2 PG GUID 3 Rank 3] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n" +
				"terminate called after throwing an instance of 'c10::DistBackendError'\n",
			want: []diagnosis{
				{
					slug: "cuda-illegal-memory-access", role: patterns.RoleCause, signal: analysis.SignalRecord,
					context: []string{"c10d-watchdog-thread-terminated"}, severity: patterns.SeverityCritical,
					headline: "[PG ID 2 PG GUID 3 Rank 3] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered",
				},
				{role: patterns.RoleCause, signal: analysis.SignalNative, severity: patterns.SeverityCritical,
					headline: "terminate called after throwing an instance of 'c10::DistBackendError'"},
			},
		},
		{
			name: "a traceback cut before its exception line is headed by its first line; stray frames are nothing",
			in: "Exception in thread Thread-3 (forward_thread_func):\nTraceback (most recent call last):\n  File \"/usr/lib/python3.10/threading.py\", line 1016, in _bootstrap_inner\n    self.run()\n" +
				"\n\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/schedule_batch.py\", line 1627, in retract_decode\n",
			want: []diagnosis{{role: patterns.RoleCause, signal: analysis.SignalException, severity: patterns.SeverityError,
				headline: "Exception in thread Thread-3 (forward_thread_func):", fragment: true}},
		},
		{
			name: "a message that opens with Error: is a failure",
			in:   "(Buffer pid=512473) Error: sample 12 of the rollout buffer has no reward, retrying\n",
			want: []diagnosis{{role: patterns.RoleCause, signal: analysis.SignalLevel, severity: patterns.SeverityError,
				headline: "Error: sample 12 of the rollout buffer has no reward, retrying"}},
		},
		{
			name: "a consequence on its own is still reported, with its role",
			in:   "[2026-05-28 00:11:10] Received sigquit from a child process. It usually means the child failed.\n",
			want: []diagnosis{{
				slug: "received-sigquit-from-child", role: patterns.RoleConsequence, signal: analysis.SignalRecord,
				severity: patterns.SeverityCritical, headline: "Received sigquit from a child process. It usually means the child failed.",
			}},
		},
		{
			name: "ERROR record of Python logging's default format",
			in:   "2025-03-08 02:04:48,693 - sglang_router - ERROR - Failed to reach worker http://10.0.0.7:30000: connection refused\n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalLevel, severity: patterns.SeverityError,
				headline: "Failed to reach worker http://10.0.0.7:30000: connection refused",
			}},
		},
		{
			name: "glog error line of a transfer engine",
			in:   "E0414 03:56:41.856248 77969 transfer_metadata_plugin.cpp:173] Failed to retrieve segment descriptor\n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalNative, severity: patterns.SeverityError,
				headline: "Failed to retrieve segment descriptor", // the glog header is where, not what
			}},
		},
		{
			// A consequence: around a cause it folds into the cause's
			// incident, alone it is still alerted.
			name: "the shell reports a killed server, a consequence",
			in:   "Killed\n",
			want: []diagnosis{{role: patterns.RoleConsequence, signal: analysis.SignalNative, severity: patterns.SeverityCritical, headline: "Killed"}},
		},
		{
			name: "NCCL's last error names the cause; the unhandled system error around it is context",
			in: "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n" +
				"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n" +
				"Last error:\n" +
				"Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)\n",
			want: []diagnosis{{
				slug: "nccl-shared-memory-segment-failed", role: patterns.RoleCause, signal: analysis.SignalRecord, exc: "torch.distributed.DistBackendError",
				context: []string{"nccl-unhandled-system-error"}, severity: patterns.SeverityCritical,
				headline: "Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)",
			}},
		},
		{
			name: "NCCL's unhandled system error with no detail is still the diagnosis",
			in:   schedTB + "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)\n",
			want: []diagnosis{{
				slug: "nccl-unhandled-system-error", role: patterns.RoleWrapper, signal: analysis.SignalRecord, exc: "RuntimeError",
				context: []string{"scheduler-hit-an-exception"}, severity: patterns.SeverityCritical,
				headline: "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
			}},
		},
		{
			name: "a kernel library's device assertion before an abort is a critical failure named by its line",
			in: "192.168.11.161 [08/May/2025:13:42:06 +0000] \"GET /route?engine_rank=15 HTTP/1.1\" 200 207 \"-\" \"python-requests/2.32.3\"\n" +
				"Assertion failed: /sgl-workspace/DeepEP/csrc/kernels/internode.cu:712, condition: num_worst_tokens >= num_recv_tokens\n",
			want: []diagnosis{{
				slug: "deepep-device-check-failed", role: patterns.RoleCause, signal: analysis.SignalRecord, severity: patterns.SeverityCritical,
				headline: "Assertion failed: /sgl-workspace/DeepEP/csrc/kernels/internode.cu:712, condition: num_worst_tokens >= num_recv_tokens",
			}},
		},
		{
			name: "glibc's assertion line",
			in:   "python3: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion `mutex->__data.__owner == 0' failed.\n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalNative, severity: patterns.SeverityCritical,
				headline: "python3: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion `mutex->__data.__owner == 0' failed.",
			}},
		},
		{
			name: "CANN's inner error lines are an Ascend failure named by the first",
			in: "        [Build][Op]Build op failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n" +
				"        [Set][Options]OpCompileProcessor init failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalNative, severity: patterns.SeverityError,
				headline: "        [Build][Op]Build op failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]",
			}},
		},
		{
			name: "a Fatal Python error spliced into another rank's thread dump is still a crash, named from the error on",
			in: "Thread 0x00007f0159038740 (most recent call first):\n" +
				"  File \"/opt/conda/lib/python3.10/queue.py\", line 171 in get\n" +
				"  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/_contextlib.pyFatal Python error: \"Aborted, line \n",
			want: []diagnosis{{
				role: patterns.RoleCause, signal: analysis.SignalNative, severity: patterns.SeverityCritical,
				headline: "Fatal Python error: \"Aborted, line",
			}},
		},
		{
			// A soft watchdog's dump (faulthandler.dump_traceback_later):
			// the process stopped making progress.
			name: "a thread dump alone is a hang, headed by its thread's top frames",
			in: "Thread 0x00007f0159038740 (most recent call first):\n" +
				"  File \"/opt/conda/lib/python3.10/queue.py\", line 171 in get\n",
			want: []diagnosis{{role: patterns.RoleCause, signal: analysis.SignalHang, severity: patterns.SeverityCritical,
				headline: "no progress: stuck in get (/opt/conda/lib/python3.10/queue.py:171): File \"/opt/conda/lib/python3.10/queue.py\", line 171 in get"}},
		},
		{
			name: "INFO, WARNING and native INFO lines are not failures",
			in: "[2026-05-28 00:11:09 TP0] Load weight begin. avail mem=78.12 GB\n" +
				"2025-03-08 02:04:48,693 - sglang_router - WARNING - worker slow to answer\n" +
				"I0820 02:41:20.446154   710 transfer_engine.cpp:422] Topology discovery complete.\n" +
				"[2026-05-28 00:11:30] INFO:     127.0.0.1:40192 - \"POST /generate HTTP/1.1\" 200 OK\n" +
				"Terminated\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := analyzeAll(t, m, tt.in)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnoses %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if !equal(got[i], tt.want[i]) {
					t.Errorf("diagnosis %d:\n got %+v\nwant %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func equal(a, b diagnosis) bool { return cmp.Equal(a, b, cmp.AllowUnexported(diagnosis{})) }

// Two different failures inside the same wrapper are two incidents, each
// named by its own exception; the same failure on another rank is one.
func TestUnknownFailuresInOneWrapperKeepTheirOwnKeys(t *testing.T) {
	m := defaultMatcher(t)
	chained := schedTB + "KeyError: 'x'\n\nThe above exception was the direct cause of the following exception:\n\n" +
		"Traceback (most recent call last):\n  File \"/sgl/io.py\", line 3, in parse\n    raise ValueError(\"bad request\") from e\nValueError: bad request\n"
	zero := schedTB + "ZeroDivisionError: division by zero\n"
	zeroTP1 := strings.Replace(zero, " TP0]", " TP1]", 1)
	ds, keys := analyzeAll(t, m, chained+"\n"+zero+"\n"+zeroTP1)
	if len(ds) != 3 {
		t.Fatalf("got %d diagnoses, want 3: %+v", len(ds), ds)
	}
	if ds[0].exc != "ValueError" || ds[0].root != "KeyError" || ds[1].exc != "ZeroDivisionError" {
		t.Fatalf("diagnoses %+v", ds)
	}
	if keys[0] == keys[1] {
		t.Fatalf("two different failures share key %s", keys[0])
	}
	if keys[1] != keys[2] {
		t.Fatalf("the same failure on two ranks has keys %s and %s", keys[1], keys[2])
	}
}

// asgiGroup is an HTTP handler failure as starlette reports it: an
// ExceptionGroup from anyio's task group whose first member is the failure.
func asgiGroup(member string) string {
	return "[2025-08-12 08:36:55] ERROR:    Exception in ASGI application\n" +
		"  + Exception Group Traceback (most recent call last):\n" +
		"  |   File \"/v/starlette/_utils.py\", line 77, in collapse_excgroups\n" +
		"  |     yield\n" +
		"  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n" +
		"  +-+---------------- 1 ----------------\n" +
		"    | Traceback (most recent call last):\n" +
		"    |   File \"/sglang/srt/entrypoints/openai/serving_chat.py\", line 120, in stream\n" +
		"    |     parsed = self.harmony.parse(tokens)\n" +
		"    | " + member + "\n" +
		"    +------------------------------------\n"
}

// An exception group no record names is named by its first member, not by
// "unhandled errors in a TaskGroup": the member is the diagnosis's
// exception, and two groups with different members are two incidents.
func TestUnclassifiedGroupIsNamedByItsMember(t *testing.T) {
	m := defaultMatcher(t)
	ds, keys := analyzeAll(t, m, asgiGroup("jinja2.sandbox.SecurityError: access to attribute '__class__' of 'str' object is unsafe.")+
		asgiGroup("KeyError: 'reasoning_content'"))
	if len(ds) != 2 {
		t.Fatalf("got %d diagnoses, want 2: %+v", len(ds), ds)
	}
	if ds[0].slug != "" || ds[0].exc != "jinja2.sandbox.SecurityError" || ds[0].headline != "jinja2.sandbox.SecurityError: access to attribute '__class__' of 'str' object is unsafe." {
		t.Errorf("first diagnosis %+v", ds[0])
	}
	if ds[1].headline != "KeyError: 'reasoning_content'" {
		t.Errorf("second diagnosis %+v", ds[1])
	}
	if keys[0] == keys[1] {
		t.Errorf("two groups with different members share key %s", keys[0])
	}
}

// A failure whose quotes are backslash-escaped, as in an error body pasted
// from a JSON or Python string, is named by the record that names it with
// plain quotes, and the alert shows the line as it was printed. Escaped
// quotes in a routine line still say nothing.
func TestEscapedQuotesStillMatch(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct{ in, slug, headline string }{
		{
			in:       `{"object":"error","message":"The input (61709 tokens) is longer than the model\'s context length (40960 tokens).","type":"BadRequestError","param":null,"code":400}`,
			slug:     "input-longer-than-context-length",
			headline: `{"object":"error","message":"The input (61709 tokens) is longer than the model\'s context length (40960 tokens).","type":"BadRequestError","param":null,"code":400}`,
		},
		{
			in:       `[2025-05-02 10:11:12] ERROR:    {'detail': 'ModuleNotFoundError(\"No module named \'sgl_kernel\'\")'}`,
			slug:     "no-module-sgl-kernel",
			headline: `{'detail': 'ModuleNotFoundError(\"No module named \'sgl_kernel\'\")'}`,
		},
		{
			in:   `{"log":"[rank0]:[W521 04:01:01.000000000 ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0(default_pg) Rank 0] Failed to check the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Connection reset by peer\n","stream":"stderr"}`,
			slug: "c10d-tcpstore-should-dump-failed",
		},
	}
	for _, tt := range tests {
		ds, _ := analyzeAll(t, m, tt.in)
		if len(ds) != 1 || ds[0].slug != tt.slug {
			t.Errorf("%s: got %+v, want %s", tt.in, ds, tt.slug)
			continue
		}
		if tt.headline != "" && ds[0].headline != tt.headline {
			t.Errorf("%s: headline %q", tt.in, ds[0].headline)
		}
	}
	for _, quiet := range []string{
		`[2025-05-02 10:11:12] INFO:     sampling defaults {\"temperature\": 0.7, \"note\": \"the model\'s own\"}`,
		`{"log":"[2025-05-02 10:11:12] Decode batch, #running-req: 3, \"ok\"\n","stream":"stderr"}`,
	} {
		if ds, _ := analyzeAll(t, m, quiet); len(ds) != 0 {
			t.Errorf("%s: alerted %+v", quiet, ds)
		}
	}
}

// An exception line a page or terminal hard-wrapped in two is named by the
// record that names its whole message, and the headline is the joined line.
// A join only counts when it names something the text alone did not: an
// exception followed by an unrelated line stays unclassified, and an
// exception the text already names keeps its reading.
func TestHardWrappedExceptionLineIsJoined(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct{ name, in, slug, headline string }{
		{
			name:     "cause record",
			in:       schedTB + "torch.OutOfMemoryError: CUDA out of memory. Tried to allo\ncate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n",
			slug:     "cuda-out-of-memory",
			headline: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.",
		},
		{
			name:     "wrapper record naming more than the scheduler's",
			in:       schedTB + "RuntimeError: NCCL error: unhandled syst\nem error (run with NCCL_DEBUG=INFO for details)\n",
			slug:     "nccl-unhandled-system-error",
			headline: "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
		},
		{
			name:     "an indented continuation is no wrap",
			in:       "Traceback (most recent call last):\n  File \"/x.py\", line 1, in <module>\n    run()\nRuntimeError: CUDA error: unspecified launch fai\n    lure\n",
			slug:     "",
			headline: "RuntimeError: CUDA error: unspecified launch fai",
		},
		{
			name:     "an unrelated line after the exception",
			in:       schedTB + "ValueError: something nobody catalogued\nplease report this\n",
			slug:     "",
			headline: "ValueError: something nobody catalogued",
		},
		{
			name:     "already named",
			in:       schedTB + "RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n",
			slug:     "cuda-illegal-memory-access",
			headline: "RuntimeError: CUDA error: an illegal memory access was encountered",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, _ := analyzeAll(t, m, tt.in)
			if len(ds) != 1 || ds[0].slug != tt.slug || ds[0].headline != tt.headline {
				t.Fatalf("got %+v, want %q with headline %q", ds, tt.slug, tt.headline)
			}
		})
	}
}

// The best-informed reading of a line wins: a record without solutions
// (generated from source) never displaces one with solutions that matches
// the same line, even when its literal text is longer; across lines,
// informed groups come first too.
func TestInformedRecordWinsTheSameLine(t *testing.T) {
	curated := patterns.Record{ID: "c", Slug: "curated", MessagePattern: `Received sigquit from a child process`,
		Severity: patterns.SeverityCritical, Role: patterns.RoleConsequence, Solutions: []string{"look above"}}
	generated := patterns.Record{ID: "g", Slug: "generated", MessagePattern: `Received sigquit from a child process\. It usually means the child failed\.`,
		Severity: patterns.SeverityError}
	genWrapper := patterns.Record{ID: "gw", Slug: "generated-wrapper", MessagePattern: `Scheduler hit an exception: (.+?)`, Severity: patterns.SeverityError}
	recs, _ := patterns.Default()
	withGen, _ := matcher.Compile(append(append([]patterns.Record{}, recs...), curated, generated, genWrapper), matcher.Options{})

	ds, _ := analyzeAll(t, withGen, "[2026-05-28 00:11:10] Received sigquit from a child process. It usually means the child failed.\n")
	if len(ds) != 1 || ds[0].slug == "generated" {
		t.Fatalf("generated record displaced the curated one: %+v", ds)
	}
	ds, _ = analyzeAll(t, withGen, schedTB+"ZeroDivisionError: division by zero\n")
	if len(ds) != 1 || ds[0].slug != "" || ds[0].exc != "ZeroDivisionError" || len(ds[0].context) != 1 || ds[0].context[0] != "scheduler-hit-an-exception" {
		t.Fatalf("an uninformed record on the wrapper's line took the cause: %+v", ds)
	}
}

// A record of severity info annotates a routine line: it never alerts by
// itself, not even on a line printed at ERROR level; an exception in the
// same entry still does.
func TestInfoRecordsNeverAlertAlone(t *testing.T) {
	note := patterns.Record{ID: "n", Slug: "dump-note", MessagePattern: `preparing to dump debug info`,
		Severity: patterns.SeverityInfo, Solutions: []string{"read the dump"}}
	m, _ := matcher.Compile([]patterns.Record{note}, matcher.Options{})
	if ds, _ := analyzeAll(t, m, "[2026-05-28 00:11:09] ProcessGroupNCCL preparing to dump debug info.\n"); len(ds) != 0 {
		t.Fatalf("an info record alerted: %+v", ds)
	}
	if ds, _ := analyzeAll(t, m, "2025-03-08 02:04:48,693 - torch - ERROR - ProcessGroupNCCL preparing to dump debug info.\n"); len(ds) != 0 {
		t.Fatalf("a routine line printed at ERROR and named by an info record alerted: %+v", ds)
	}
	ds, _ := analyzeAll(t, m, "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nRuntimeError: ProcessGroupNCCL preparing to dump debug info.\n")
	if len(ds) != 1 || ds[0].slug != "dump-note" || ds[0].severity != patterns.SeverityError {
		t.Fatalf("an exception named by an info record: %+v", ds)
	}
}

func TestAnalyzeReportsPatternErrorsOnMisses(t *testing.T) {
	slow := patterns.Record{ID: "slow", MessagePattern: `^(a+)+$`}
	m, _ := matcher.Compile([]patterns.Record{slow}, matcher.Options{NoPrefilter: true, MatchTimeout: 1})
	an := analysis.New(m)
	e := entries(strings.Repeat("a", 40) + "b")[0]
	d, _ := an.Analyze(&e)
	if len(d.PatternErrors) == 0 {
		t.Fatal("a timed-out pattern was not reported")
	}
}

// An info note never hides a failure: not on its own line, where any real
// reading of the line wins, and not on another line of the entry.
func TestInfoNotesNeverHideAFailure(t *testing.T) {
	note := patterns.Record{ID: "n", Slug: "note", MessagePattern: `Ignore import error when loading`,
		Severity: patterns.SeverityInfo, Solutions: []string{"harmless"}}
	gcc := patterns.Record{ID: "g", Slug: "gcc", MessagePattern: `Command '\['/usr/bin/gcc'`,
		Severity: patterns.SeverityCritical, Solutions: []string{"install gcc"}}
	m, _ := matcher.Compile([]patterns.Record{note, gcc}, matcher.Options{})
	ds, _ := analyzeAll(t, m, "[2025-03-10 14:17:52 TP6] Ignore import error when loading sglang.srt.models.x. Command '['/usr/bin/gcc', 'main.c']' returned non-zero exit status 1.\n")
	if len(ds) != 1 || ds[0].slug != "gcc" {
		t.Fatalf("same line: %+v", ds)
	}
	ds, _ = analyzeAll(t, m, "[2025-03-10 14:17:52 TP6] Ignore import error when loading sglang.srt.models.x.\nCommand '['/usr/bin/gcc', 'main.c']' returned non-zero exit status 1.\n")
	if len(ds) != 1 || ds[0].slug != "gcc" {
		t.Fatalf("another line: %+v", ds)
	}
}

// TestRecordNamingTheExceptionLeads: when two records of the same role
// and advice read one entry, the one whose errorClass names the entry's
// exception leads, even when the generic one matches earlier in the line
// (huggingface_hub's GatedRepoError starts with the 401 response's text).
// The matcher ranks a record whose class agrees first, and choose keeps
// that rank between groups of the same role.
func TestRecordNamingTheExceptionLeads(t *testing.T) {
	tb := "Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.10/dist-packages/huggingface_hub/utils/_errors.py\", line 304, in hf_raise_for_status\n" +
		"    response.raise_for_status()\n"
	gated := tb + "huggingface_hub.utils._errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-6604c5e0-374ff039) " +
		"Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-2-7b-chat-hf/resolve/main/config.json.\n"
	ds, _ := analyzeAll(t, defaultMatcher(t), gated)
	if len(ds) != 1 || ds[0].slug != "hf-gated-repo" {
		t.Fatalf("the record naming GatedRepoError did not lead: %+v", ds)
	}
	// Near miss: the same 401 text raised as requests' HTTPError is the
	// generic record's.
	plain := tb + "requests.exceptions.HTTPError: 401 Client Error. (Request ID: Root=1-6604c5e0-374ff039)\n"
	ds, _ = analyzeAll(t, defaultMatcher(t), plain)
	if len(ds) != 1 || ds[0].slug != "hf-unauthorized-401" {
		t.Fatalf("the generic 401 record did not read a plain HTTPError: %+v", ds)
	}
}
