package incident_test

import "testing"

// An error line no record names, then the process's death: C++'s
// terminate with its what() and the shell's "Aborted (core dumped)"
// (onnx2trt under TensorRT 7.1), or the shell's report alone. The
// death says how the process ended, never what failed: the error line
// before it leads, in one incident with the death listed, in each
// source's wording (their records left out). An error line that only says
// something failed does not take the lead from the death, and a death
// printed before the error line keeps its own.
func TestTheErrorLineBeforeADeathLeadsIt(t *testing.T) {
	m := matcherWithout(t, "tensorrt-no-optimization-profile", "tensorrt-engine-build-failed", "trtllm-engine-deserialize-failed")
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{[]string{
			"Building TensorRT engine, FP16 available:1",
			"    Max batch size:     5",
			"[2020-08-20 11:03:50   ERROR] Network has dynamic or shape inputs, but no optimization profile has been defined.",
			"[2020-08-20 11:03:50   ERROR] Network validation failed.",
			"terminate called after throwing an instance of 'std::runtime_error'",
			"  what():  Failed to create object",
			"Aborted (core dumped)",
		}, "no optimization profile has been defined"},
		{[]string{
			"[2020-08-20 11:03:50   ERROR] Network has dynamic or shape inputs, but no optimization profile has been defined.",
			"Aborted (core dumped)",
		}, "no optimization profile has been defined"}} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || !leadsWith(got[0], c.says) || len(got[0].Consequences) == 0 {
			t.Errorf("%s, then the death: want one incident led by the error line with the death listed, got %d:%s", c.says, len(got), describe(got))
		}
	}
	death := []string{"terminate called after throwing an instance of 'std::runtime_error'", "  what():  Failed to create object", "Aborted (core dumped)"}
	want := leadOf(scanLines(t, m, death)[0])
	if got := scanLines(t, m, append([]string{"ERROR: request failed"}, death...)); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("a line that only says something failed, then the death: want %s to lead, got %d:%s", want, len(got), describe(got))
	}
	if got := scanLines(t, m, append(death, "[2020-08-20 11:03:50   ERROR] Network has dynamic or shape inputs, but no optimization profile has been defined.")); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("the death, then an error line: want %s to lead, got %d:%s", want, len(got), describe(got))
	}
}

// An exception line no record names that says what failed (a CUDA error
// of cuBLAS), then the traceback of the request that failed with it,
// whose exception says only that the work returned nothing (sglang's
// diffusion server answering 500). The first line leads, with the
// request's traceback listed in its incident (cuBLAS's record left out).
// A first line that names no family of failure does not take the lead
// from the traceback after it.
func TestAnExceptionLineThatNamesTheFailureLeadsTheTracebackAfterIt(t *testing.T) {
	m := matcherWithout(t, "cublas-status-error")
	request := []string{
		"[12-24 08:20:04] Failed to generate output for prompt: Model generation returned no output.",
		"Traceback (most recent call last):",
		`File "/usr/local/lib/python3.12/dist-packages/sglang/multimodal_gen/runtime/utils/logging_utils.py", line 495, in log_generation_timer`,
		"yield timer",
		`File "/usr/local/lib/python3.12/dist-packages/sglang/multimodal_gen/runtime/entrypoints/openai/utils.py", line 111, in process_generation_batch`,
		`raise RuntimeError("Model generation returned no output.")`,
		"RuntimeError: Model generation returned no output.",
	}
	got := scanLines(t, m, append([]string{"RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)"}, request...))
	if len(got) != 1 || !leadsWith(got[0], "CUBLAS_STATUS_ALLOC_FAILED") || len(got[0].Consequences) == 0 {
		t.Errorf("cuBLAS's error, then the request's traceback: want one incident led by cuBLAS's line with the traceback listed, got %d:%s", len(got), describe(got))
	}
	want := leadOf(scanLines(t, m, request)[0])
	if got := scanLines(t, m, append([]string{"RuntimeError: the request was cancelled"}, request...)); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("a line that names no family, then the traceback: want %s to lead, got %d:%s", want, len(got), describe(got))
	}
}

// vLLM's API server logs the traceback of EngineDeadError one line a
// record, each behind its logger's header: a paste that begins inside it
// starts at a frame's source line ("    raise
// self._format_exception(outputs) from None"), then the exception that
// sends the reader to the engine's stack trace above. Both are
// consequences, with no root in sight; the exception says what died and
// leads, the source line is listed (vLLM's engine-dead record left out),
// in two threads' lines. The source line alone is still alerted.
func TestAnExceptionLeadsTheSourceLineLoggedBeforeIt(t *testing.T) {
	m := matcherWithout(t, "vllm-engine-dead")
	for _, lines := range [][]string{
		{
			"(APIServer pid=7) ERROR 10-21 11:25:49 [serving_chat.py:1051]     raise self._format_exception(outputs) from None",
			"(APIServer pid=7) ERROR 10-21 11:25:49 [serving_chat.py:1051] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
		},
		{
			`(APIServer pid=3314) ERROR 11-10 04:36:43 [async_llm.py:430]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py", line 843, in get_output_async`,
			"(APIServer pid=3314) ERROR 11-10 04:36:43 [async_llm.py:430]     raise self._format_exception(outputs) from None",
			"(APIServer pid=3314) ERROR 11-10 04:36:43 [async_llm.py:430] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
		},
	} {
		got := scanLines(t, m, lines)
		if len(got) != 1 || !leadsWith(got[0], "EngineDeadError") {
			t.Errorf("%q: want one incident led by EngineDeadError, got %d:%s", lines[0], len(got), describe(got))
		}
	}
	if got := scanLines(t, m, []string{"(APIServer pid=7) ERROR 10-21 11:25:49 [serving_chat.py:1051]     raise self._format_exception(outputs) from None"}); len(got) != 1 {
		t.Errorf("the source line alone: want it alerted, got %d:%s", len(got), describe(got))
	}
}
