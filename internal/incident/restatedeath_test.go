package incident_test

import (
	"strings"
	"testing"
)

// One death, reported twice: the first line says more. A runtime's
// fatal signal handler names the function the signal struck in ("PC: @
// ... addProxyOpIfNeeded()", NCCL's proxy under vLLM on Ray;
// "_dl_allocate_tls_init" under Ray Tune), then faulthandler reports the
// same death with no frame of its own ("Fatal Python error: Segmentation
// fault"): one incident, led by the handler's report, the death listed.
// A faulthandler dump that shows its frames (gRPC's poller under Ray
// Core), a PC that names no function or only the signal's machinery
// ("raise" under an abort), or a death by another signal keep the death's
// lead, as one incident all the same.
func TestTheSignalHandlersNamedSiteLeadsTheDeathAfterIt(t *testing.T) {
	m := crashMatcher(t)
	ray := func(s string) string { return "(RayWorkerWrapper pid=376235, ip=10.10.10.61) " + s }
	for _, c := range []struct {
		name  string
		lines []string
	}{
		{"NCCL's proxy under vLLM on Ray", []string{
			ray("*** SIGSEGV received at time=1745722347 on cpu 48 ***"),
			ray("PC: @     0x7f7e7ba49b8a  (unknown)  addProxyOpIfNeeded()"),
			ray("    @     0x7fafd625d520       3744  (unknown)"),
			ray("[2025-04-27 02:52:27,217 E 376235 377651] logging.cc:484: *** SIGSEGV received at time=1745722347 on cpu 48 ***"),
			ray("[2025-04-27 02:52:27,217 E 376235 377651] logging.cc:484: PC: @     0x7f7e7ba49b8a  (unknown)  addProxyOpIfNeeded()"),
			ray("[2025-04-27 02:52:27,219 E 376235 377651] logging.cc:484:     @     0x7fafd625d520       3744  (unknown)"),
			ray("Fatal Python error: Segmentation fault"),
			ray(""),
		}},
		{"the loader's TLS set-up under Ray Tune", []string{
			"*** SIGSEGV received at time=1664230886 on cpu 14 ***",
			"PC: @     0x2b1452d395a0  (unknown)  _dl_allocate_tls_init",
			"[failure_signal_handler.cc : 331] RAW: Signal 11 raised at PC=0x2b1452d395a0 while already in AbslFailureSignalHandler()",
			"    @     0x2b1453663630  (unknown)  (unknown)",
			"    @ ... and at least 1 more frames",
			"[2022-09-27 00:21:27,008 E 73412 73420] logging.cc:361: *** SIGSEGV received at time=1664230887 on cpu 14 ***",
			"[2022-09-27 00:21:27,011 E 73412 73420] logging.cc:361: PC: @     0x2b1452d395a0  (unknown)  _dl_allocate_tls_init",
			"[2022-09-27 00:21:27,011 E 73412 73420] logging.cc:361:     @     0x2b1453663630  (unknown)  (unknown)",
			"[2022-09-27 00:21:27,015 E 73412 73420] logging.cc:361:     @ ... and at least 1 more frames",
			"Fatal Python error: Segmentation fault",
		}},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.Slug != "failure-signal-received" || len(got[0].Consequences) == 0 || got[0].Record.Severity != "critical" {
			t.Errorf("%s: want one critical incident led by the handler's report with the death listed, got %d:%s", c.name, len(got), describe(got))
		}
	}
	for _, c := range []struct {
		name, want string
		lines      []string
	}{
		{"faulthandler's frames (gRPC's poller under Ray Core)", "fatal-python-error-segfault", []string{
			"*** SIGSEGV received at time=1678337610 on cpu 10 ***",
			"PC: @     0x7fe04ff8d46a  (unknown)  pollset_work()",
			"   @     0x7fe053202090  (unknown)  (unknown)",
			"[2023-03-09 12:53:30,446 E 957 30467] logging.cc:361: *** SIGSEGV received at time=1678337610 on cpu 12 ***",
			"[2023-03-09 12:53:30,446 E 957 30467] logging.cc:361: PC: @     0x7fe04ff8d46a  (unknown)  pollset_work()",
			"[2023-03-09 12:53:30,446 E 957 30467] logging.cc:361:     @     0x7fe053202090  (unknown)  (unknown)",
			"Fatal Python error: Segmentation fault",
			"",
			"Stack (most recent call first):",
			` File "/usr/local/lib/python3.8/site-packages/grpc/_channel.py", line 813 in _blocking`,
			` File "/usr/local/lib/python3.8/site-packages/grpc/_channel.py", line 824 in __call__`,
		}},
		{"a PC that names no function (Ray Core)", "fatal-python-error-segfault", []string{
			"[2024-02-27 18:08:15,439 E 73667 73667] logging.cc:361: *** SIGSEGV received at time=1709028495 on cpu 22 ***",
			"[2024-02-27 18:08:15,441 E 73667 73667] logging.cc:361: PC: @     0x7f75332ba350  (unknown)  (unknown)",
			"[2024-02-27 18:08:15,442 E 73667 73667] logging.cc:361:     @     0x7f7586283630  (unknown)  (unknown)",
			"Fatal Python error: Segmentation fault",
		}},
		{"an abort's raise (verl on Ray)", "fatal-python-error-aborted", []string{
			"(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: *** SIGABRT received at time=1747633685 on cpu 74 ***",
			"(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: PC: @     0x7f6d68247e87  (unknown)  raise",
			"(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361:     @     0x7f6d660dd35a  (unknown)  __cxxabiv1::__terminate()",
			"(WorkerDict pid=124799) Fatal Python error: Aborted",
		}},
		{"a death by another signal", "fatal-python-error-aborted", []string{
			"[2022-09-27 00:21:27,011 E 73412 73420] logging.cc:361: *** SIGSEGV received at time=1664230887 on cpu 14 ***",
			"[2022-09-27 00:21:27,011 E 73412 73420] logging.cc:361: PC: @     0x2b1452d395a0  (unknown)  _dl_allocate_tls_init",
			"Fatal Python error: Aborted",
		}},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.Slug != c.want {
			t.Errorf("%s: want one incident led by %s, got %d:%s", c.name, c.want, len(got), describe(got))
		}
	}
}

// A process that sees a named peer die, then dies itself: vLLM's engine
// core logs "Worker proc VllmWorker-3 died unexpectedly, shutting down
// executor." from its executor, then its own wrapper ("EngineCore
// encountered a fatal error.", "EngineCore hit an exception:") whose
// traceback says only where the core was. The worker's death is where the
// crash began: it leads, with the wrapper as its context, in two
// threads' lines (Intel's llm-scaler behind compose's prefix, a V1
// engine in a fine-tuning loop). The worker's own error printed before
// both still leads; a parent's report that names no child (sigquit)
// leaves the wrapper leading (TestAWrapperAloneIsContextOfTheNetwork...).
func TestANamedPeersDeathLeadsTheWrapperOfItsWatcher(t *testing.T) {
	m := crashMatcher(t)
	compose := func(s string) string { return "eap-llm-server-on-arc  | " + s }
	bursts := [][]string{
		{
			compose(`INFO:     127.0.0.1:48802 - "GET /health HTTP/1.1" 200 OK`),
			compose("ERROR 11-08 11:01:29 [multiproc_executor.py:135] Worker proc VllmWorker-3 died unexpectedly, shutting down executor."),
			compose("ERROR 11-08 11:01:30 [core.py:502] EngineCore encountered a fatal error."),
			compose("ERROR 11-08 11:01:30 [core.py:502] Traceback (most recent call last):"),
			compose(`ERROR 11-08 11:01:30 [core.py:502]   File "/usr/local/lib/python3.10/dist-packages/vllm/v1/engine/core.py", line 493, in run_engine_core`),
			compose("ERROR 11-08 11:01:30 [core.py:502]     engine_core.run_busy_loop()"),
			compose(`ERROR 11-08 11:01:30 [core.py:502]   File "/usr/local/lib/python3.10/dist-packages/vllm/v1/engine/core.py", line 531, in _process_input_queue`),
			compose("ERROR 11-08 11:01:30 [core.py:502]     self._handle_client_request(*req)"),
		},
		{
			"DEBUG 07-04 17:35:10 [shm_broadcast.py:456] No available shared memory broadcast block found in 60 second.",
			"ERROR 07-04 17:35:16 [multiproc_executor.py:140] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.",
			"ERROR 07-04 17:35:16 core.py:200] EngineCore hit an exception: Traceback (most recent call last):",
			`ERROR 07-04 17:35:16 core.py:200]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 193, in run_engine_core`,
			"ERROR 07-04 17:35:16 core.py:200]     engine_core.run_busy_loop()",
		},
	}
	for _, lines := range bursts {
		got := scanLines(t, m, lines)
		if len(got) != 1 || got[0].Record.Slug != "vllm-engine-core-died-unexpectedly" || len(got[0].Context) == 0 {
			t.Errorf("%q: want one incident led by the worker's death with the wrapper as context, got %d:%s", lines[1], len(got), describe(got))
		}
	}
	cause := []string{
		"(VllmWorker rank=1 pid=2120281) ERROR 07-04 17:35:15 [multiproc_executor.py:527] WorkerProc hit an exception.",
		"(VllmWorker rank=1 pid=2120281) ERROR 07-04 17:35:15 [multiproc_executor.py:527] Traceback (most recent call last):",
		`(VllmWorker rank=1 pid=2120281) ERROR 07-04 17:35:15 [multiproc_executor.py:527]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 1200, in execute_model`,
		"(VllmWorker rank=1 pid=2120281) ERROR 07-04 17:35:15 [multiproc_executor.py:527]     hidden_states = self.model(",
		"(VllmWorker rank=1 pid=2120281) ERROR 07-04 17:35:15 [multiproc_executor.py:527] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which 1.05 GiB is free.",
	}
	got := scanLines(t, m, append(cause, bursts[1][1:]...))
	if len(got) != 1 || !strings.Contains(got[0].Record.Slug, "out-of-memory") {
		t.Errorf("the worker's own error, then its death and the wrapper: want one incident led by the out-of-memory error, got %d:%s", len(got), describe(got))
	}
}
