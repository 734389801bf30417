package incident_test

import (
	"strings"
	"testing"
)

// Lines that only point at an error (analysis/piece.go): a traceback's
// frame, source and caret lines logged one record a line, and a header
// announcing the error printed after it. Whatever the writer's prefix,
// they never lead when the error they point at is in their burst: it
// leads, they are listed in its incident, and the crash pages once.

// pointerBursts are bursts of several writers, each with the lead it must
// have: vLLM's API server and its workers (a prefix on every line), Ray's
// reports of an unfetched task error (old and new wording),
// concurrent.futures' callback header, and a loguru-style logger split by
// a collector.
var pointerBursts = []struct {
	name  string
	lines []string
	lead  string
}{
	{"vLLM API server's raise line over the EngineDeadError", []string{
		"(APIServer pid=7) ERROR 06-01 12:00:01 [serving_chat.py:1051]     raise self._format_exception(outputs) from None",
		"(APIServer pid=7) ERROR 06-01 12:00:01 [serving_chat.py:1051] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
	}, "vllm-engine-dead"},
	{"vLLM worker's frame, source and carets over its IndexError, then the engine's failure to start", []string{
		`ERROR 06-01 12:00:01 [multiproc_executor.py:585]   File "/opt/venv/lib/python3.12/site-packages/lmcache/v1/p2p.py", line 88, in lookup`,
		"ERROR 06-01 12:00:01 [multiproc_executor.py:585]     peer = self.peers[idx]",
		"ERROR 06-01 12:00:01 [multiproc_executor.py:585]            ~~~~~~~~~~^^^^^",
		"ERROR 06-01 12:00:01 [multiproc_executor.py:585] IndexError: list index out of range",
		"INFO 06-01 12:00:01 [multiproc_executor.py:546] Parent process exited, terminating worker",
		"(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718] EngineCore failed to start.",
		"(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718] Traceback (most recent call last):",
		`(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 709, in run_engine_core`,
		"(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718]     engine_core = EngineCoreProc(*args, **kwargs)",
	}, "unclassified IndexError: list index out of range"},
	{"a worker's announcement, its exception line, then the engine's failure to start", []string{
		"(VllmWorker rank=0 pid=311) ERROR 06-01 12:00:01 [multiproc_executor.py:470] WorkerProc encountered a fatal error.",
		"(VllmWorker rank=0 pid=311) ERROR 06-01 12:00:01 [multiproc_executor.py:470] IndexError: list index out of range",
		"INFO 06-01 12:00:02 [multiproc_executor.py:546] Parent process exited, terminating worker",
		"(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718] EngineCore failed to start.",
		"(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718] Traceback (most recent call last):",
		`(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 709, in run_engine_core`,
		"(EngineCore_DP0 pid=8614) ERROR 06-01 12:00:04 [core.py:718]     engine_core = EngineCoreProc(*args, **kwargs)",
	}, "unclassified IndexError: list index out of range"},
	{"Ray's old unhandled-error header over the RayActorError", []string{
		"2021-12-13 14:51:24,751\tERROR worker.py:980 -- Possible unhandled error from worker: ray::Stepping.run() (pid=219, ip=10.0.0.2)",
		`  File "python/ray/_raylet.pyx", line 463, in ray._raylet.execute_task`,
		`  File "/home/app/rollout/rollout_func.py", line 291, in env_runner`,
		"    batch = ray.get(dataset_server.get_producer_index.remote(buffer_desc))",
		"ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.",
	}, "ray-actor-died"},
	{"Ray's new unhandled-error header over a CUDA OOM", []string{
		"2024-05-01 10:00:00,000\tERROR worker.py:409 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::RolloutWorker.generate() (pid=1234, ip=10.0.0.2, actor_id=abc)",
		`  File "/app/rollout.py", line 91, in generate`,
		"    out = self.engine.generate(batch)",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.05 GiB is free.",
	}, "cuda-out-of-memory"},
	{"Python logging's default format: source and carets over an IndexError", []string{
		"ERROR:root:    peer = self.peers[idx]",
		"ERROR:root:           ~~~~~~~~~~^^^^^",
		"ERROR:root:IndexError: list index out of range",
	}, "unclassified IndexError: list index out of range"},
	{"a logger's name before the source line, over the EngineDeadError", []string{
		"2025-06-01T12:00:01.000Z ERROR worker     return self.engine.step()",
		"2025-06-01T12:00:01.000Z ERROR worker vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
	}, "vllm-engine-dead"},
	{"a Ray worker's vLLM lines: source and carets over the NCCL error", []string{
		"(RayWorkerWrapper pid=321, ip=10.0.0.5) ERROR 06-01 12:00:01 [worker_base.py:620]     return executor(*args, **kwargs)",
		"(RayWorkerWrapper pid=321, ip=10.0.0.5) ERROR 06-01 12:00:01 [worker_base.py:620]            ^^^^^^^^^^^^^^^^^^^^^^^^^",
		"(RayWorkerWrapper pid=321, ip=10.0.0.5) ERROR 06-01 12:00:01 [worker_base.py:620] RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
	}, "nccl-unhandled-system-error"},
}

func TestLinesThatPointNeverLeadTheirError(t *testing.T) {
	m := crashMatcher(t)
	for _, b := range pointerBursts {
		got := scanLines(t, m, b.lines)
		if len(got) != 1 {
			t.Errorf("%s: %d incidents, want 1:%s", b.name, len(got), describe(got))
			continue
		}
		if lead := leadOf(got[0]); lead != b.lead {
			t.Errorf("%s: lead %q, want %q", b.name, lead, b.lead)
		}
	}
}

// A line that only points, alone, is still alerted: it may be all there
// is of the failure.
func TestALineThatPointsAloneStillAlerts(t *testing.T) {
	m := crashMatcher(t)
	for _, line := range []string{
		"(APIServer pid=7) ERROR 06-01 12:00:01 [serving_chat.py:1051]     raise self._format_exception(outputs) from None",
		"2021-12-13 14:51:24,751\tERROR worker.py:980 -- Possible unhandled error from worker: ray::Stepping.run() (pid=219, ip=10.0.0.2)",
		"ERROR 06-01 12:00:01 [multiproc_executor.py:585]            ~~~~~~~~~~^^^^^",
	} {
		got := scanLines(t, m, []string{line})
		if len(got) != 1 {
			t.Errorf("%q alone: %d incidents, want 1:%s", line, len(got), describe(got))
		}
	}
}

// A traceback cut before its exception line whose later lines were logged
// as records of their own is matched by the last statement they show, as
// the whole traceback in one entry would be.
func TestACutTracebacksLaterSourceLineSaysWhereItWasCut(t *testing.T) {
	m := crashMatcher(t)
	got := scanLines(t, m, []string{
		"2024-06-02 00:26:10 | ERROR | stderr | Traceback (most recent call last):",
		`2024-06-02 00:26:10 | ERROR | stderr |   File "/app/serve/sglang_worker.py", line 290, in <module>`,
		"2024-06-02 00:26:11 | INFO | controller | Register a new worker",
		"2024-06-02 00:26:11 | ERROR | stderr |     runtime = sgl.Runtime(",
	})
	if len(got) != 1 {
		t.Fatalf("%d incidents, want 1:%s", len(got), describe(got))
	}
	if !strings.Contains(got[0].Match.Text, "runtime = sgl.Runtime(") {
		t.Errorf("lead %s %q, want the cut call runtime = sgl.Runtime(", got[0].Record.Slug, got[0].Match.Text)
	}
}

// A client's echo of the server's error body (echo.go) yields to the
// server's own line of that error when it was read before it in the
// stream, whichever server wrote it and whether a record names it; an
// echo of another error, or an echo alone, still leads.
func TestAClientsEchoYieldsToTheServersFailure(t *testing.T) {
	m := crashMatcher(t)
	for _, c := range []struct {
		name  string
		lines []string
		lead  string
	}{
		{"sglang's request error, then a harness's echo", []string{
			"[2025-06-01 12:00:01] ERROR:    Error in request: Requested grammar backend xgrammar failed to compile the schema",
			`[2025-06-01 12:00:01] INFO:     127.0.0.1:51234 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request`,
			"2025-06-01 12:00:01,300 ERROR bench: Error code: 400 - {'object': 'error', 'message': 'Requested grammar backend xgrammar failed to compile the schema', 'type': 'BadRequestError', 'param': None, 'code': 400}",
		}, "unclassified Error in request: Requested grammar backend xgrammar failed to compile the schema"},
		{"vLLM's preprocessing error, then the echo", []string{
			"ERROR 06-01 12:00:01 [serving_chat.py:222] Error in preprocessing prompt inputs: tool call arguments are not valid JSON: Expecting value: line 1 column 2",
			"2026-06-01 12:00:01,300 ERROR bench: Error code: 400 - {'object': 'error', 'message': 'tool call arguments are not valid JSON: Expecting value: line 1 column 2', 'type': 'BadRequestError', 'param': None, 'code': 400}",
		}, "unclassified Error in preprocessing prompt inputs: tool call arguments are not valid JSON: Expecting value: line 1 column 2"},
		{"a server's logger, then the OpenAI SDK's exception", []string{
			"2025-06-01 12:00:01,100 ERROR server: request rejected: lora adapter 'sql-lora' was not found in the registry",
			`openai.BadRequestError: Error code: 400 - {'error': {'message': "lora adapter 'sql-lora' was not found in the registry", 'type': 'invalid_request_error', 'param': None, 'code': None}}`,
		}, "unclassified server: request rejected: lora adapter 'sql-lora' was not found in the registry"},
		{"an echo of another error", []string{
			"2025-06-01 12:00:01,100 ERROR server: request rejected: lora adapter 'sql-lora' was not found in the registry",
			`openai.BadRequestError: Error code: 400 - {'error': {'message': "the sampling parameter top_k must be -1 or at least 1, got 0", 'type': 'invalid_request_error', 'param': None, 'code': None}}`,
		}, "http-client-request-rejected"},
		{"an echo alone", []string{
			`openai.BadRequestError: Error code: 400 - {'error': {'message': "lora adapter 'sql-lora' was not found in the registry", 'type': 'invalid_request_error', 'param': None, 'code': None}}`,
		}, "http-client-request-rejected"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 {
			t.Errorf("%s: %d incidents, want 1:%s", c.name, len(got), describe(got))
			continue
		}
		if text, ok := strings.CutPrefix(c.lead, "unclassified "); ok {
			if got[0].Record.ID != "" || got[0].Match.Text != text {
				t.Errorf("%s: lead %s %q, want unclassified %q", c.name, got[0].Record.Slug, got[0].Match.Text, text)
			}
		} else if lead := leadOf(got[0]); lead != c.lead {
			t.Errorf("%s: lead %q, want %q", c.name, lead, c.lead)
		}
	}
}

// torch elastic's failure summary without its ChildFailedError header is
// still its report that a worker failed (analysis/summary.go): alone it is
// the incident; after the worker's own error it is listed there.
func TestALaunchersSummaryAloneIsItsReport(t *testing.T) {
	m := crashMatcher(t)
	block := []string{
		"------------------------------------------------------------",
		"Root Cause (first observed failure):",
		"[0]:",
		"  time      : 2026-06-01_12:00:02",
		"  host      : node-1",
		"  rank      : 1 (local_rank: 1)",
		"  exitcode  : 1 (pid: 69812)",
		"  error_file: <N/A>",
		"  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
		"============================================================",
	}
	got := scanLines(t, m, block)
	if len(got) != 1 || leadOf(got[0]) != "torch-elastic-child-failed" {
		t.Errorf("the summary alone:%s, want torch-elastic-child-failed", describe(got))
	}
	withCause := append([]string{
		"[rank1]: Traceback (most recent call last):",
		`[rank1]:   File "/app/train.py", line 88, in <module>`,
		"[rank1]:     dist.all_reduce(t)",
		"[rank1]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
	}, block...)
	got = scanLines(t, m, withCause)
	if len(got) != 1 || leadOf(got[0]) != "nccl-unhandled-system-error" {
		t.Errorf("the summary after the worker's error:%s, want nccl-unhandled-system-error", describe(got))
	}
}

// A program that caught a failed call and went on then uses what the call
// was to assign (UnboundLocalError, in either of CPython's wordings):
// printed after a failure of its source within its burst it is listed
// there (swallowed.go); alone, or after a stretch of healthy lines, it is
// its own incident.
func TestASwallowedFailuresFollowOnIsListedInIt(t *testing.T) {
	m := crashMatcher(t)
	for _, c := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"a client's echo, then its harness's follow-on", []string{
			"qwen_infer error, idx: 130 Error code: 400 - {'object': 'error', 'message': 'Requested grammar backend xgrammar failed to compile the schema', 'type': 'BadRequestError', 'param': None, 'code': 400}",
			"generated an exception: local variable 'cot_response' referenced before assignment",
		}, []string{"http-client-request-rejected"}},
		{"a client's 500, then the 3.11 wording", []string{
			"2026-06-01 12:00:01,000 ERROR client: request 7 failed: Error code: 500 - {'object': 'error', 'message': 'Internal server error', 'type': 'InternalServerError', 'code': 500}",
			"2026-06-01 12:00:01,002 ERROR client: task 7 generated an exception: cannot access local variable 'answer' where it is not associated with a value",
		}, []string{"http-client-server-error-status"}},
		{"an error line, then the traceback of the follow-on", []string{
			"[2026-06-01 12:00:01] Error: failed to fetch completion for sample 12: Connection reset by peer",
			"[2026-06-01 12:00:01] Traceback (most recent call last):",
			`  File "/app/eval.py", line 77, in run`,
			"    scores.append(score(answer))",
			"UnboundLocalError: local variable 'answer' referenced before assignment",
		}, []string{"unclassified Error: failed to fetch completion for sample 12: Connection reset by peer"}},
		{"a scheduler's own UnboundLocalError after another rank's error line", []string{
			"[2025-06-01 12:00:01 TP1] ERROR:  Failed to allocate pinned buffer for request 12",
			"[2025-06-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2311, in run_scheduler_process`,
			"    scheduler.event_loop_overlap()",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 900, in get_next_batch_to_run`,
			"    return ret",
			"UnboundLocalError: cannot access local variable 'ret' where it is not associated with a value",
		}, []string{"python-name-not-defined"}},
		{"the follow-on alone", []string{
			"Traceback (most recent call last):",
			`  File "/app/bench.py", line 40, in <module>`,
			"    print(resp.json())",
			"UnboundLocalError: local variable 'resp' referenced before assignment",
		}, []string{"python-name-not-defined"}},
		{"the follow-on after a stretch of healthy lines", []string{
			"[2025-06-01 12:00:01] ERROR:    Error in request: Requested grammar backend xgrammar failed to compile the schema",
			"[2025-06-01 12:10:00 TP0] Decode batch. #running-req: 3, #token: 5120, token usage: 0.04, gen throughput (token/s): 811.20, #queue-req: 0,",
			"[2025-06-01 12:40:01] ERROR:    cannot access local variable 'resp' where it is not associated with a value",
		}, []string{"unclassified Error in request: Requested grammar backend xgrammar failed to compile the schema", "python-name-not-defined"}},
	} {
		got := scanLines(t, m, c.lines)
		var leads []string
		for _, a := range got {
			if a.Record.ID == "" {
				leads = append(leads, "unclassified "+a.Match.Text)
			} else {
				leads = append(leads, a.Record.Slug)
			}
		}
		if strings.Join(leads, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: leads %q, want %q", c.name, leads, c.want)
		}
	}
}
