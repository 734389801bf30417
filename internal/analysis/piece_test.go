package analysis

import "testing"

// A traceback's own lines, as the messages of records a logger wrote one a
// line, in the shapes CPython prints them: frames, source lines of
// several statement kinds, carets (whole, or cut by a terminal's wrap).
func TestTracebackPieces(t *testing.T) {
	pieces := []string{
		`  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line 1051, in chat_completion_full_generator`,
		`File "/app/worker.py", line 42, in run`,
		"    raise self._format_exception(outputs) from None",
		"    return func(*args, **kwargs)",
		"    await self.engine_core.add_request_async(request)",
		"    out = run_once()",
		"    self.prefill_tp_size, self.prefill_dp_size = (",
		"    param = params_dict[name]",
		"    model.load_weights(",
		"    assert len(blocks) > 0",
		"    with torch.cuda.graph(graph, pool=pool):",
		"    for name, loaded_weight in weights:",
		"    if self.server_args.enable_dp_attention:",
		"    from sgl_kernel import flash_ops",
		"    self.counter += 1",
		"    raise",
		"    raise e",
		"    return out",
		"                          ~~~~~~~~~~~~~~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^",
		"           ^^^^^^^^^^^^^^^^^^^^^",
		"~~~~~~~~~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^",
		"                          ~~~~~",
		"worker     return self.engine.step()",
		"vllm.v1.engine.exc",
		"torch.distributed.elastic.multiprocessing.err",
		"stderr            ^^^^^^^^",
	}
	for _, p := range pieces {
		if !pointsOnly(p) {
			t.Errorf("%q: not read as a traceback's line", p)
		}
	}
	prose := []string{
		"Failed to connect to 10.0.0.1:5000",
		"    Failed to connect to 10.0.0.1:5000 (retry 3)",
		"    for more details see the documentation",
		"    if you see this, please report it",
		"    with the following arguments: tp=8",
		"    not enough memory on device 0",
		"    while loading the model",
		"raise the limit with --max-model-len",
		"    return code 1",
		"    raise the limit",
		"    Return",
		"    Error: invalid value",
		"    max_model_len: 4096",
		"    2025-06-01 12:00:01",
		"Loading    model weights",
		"torch.OutOfMemoryError",
		"model.safetensors",
		"1.2.3",
		"v1.2.3",
		"see docs.vllm.ai for help",
		"worker     failed to start",
		"~~",
		"---------------------",
		"",
		"   ",
		"\n\n",
	}
	for _, p := range prose {
		if pointsOnly(p) {
			t.Errorf("%q: read as a traceback's line", p)
		}
	}
}

// What writers print before an error they are about to print, and lines
// that state the error themselves.
func TestAnnouncesError(t *testing.T) {
	headers := []string{
		"worker.py:980 -- Possible unhandled error from worker: ray::Stepping.run() (pid=219, ip=10.0.0.2)",
		"worker.py:409 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::RolloutWorker.generate() (pid=1234, ip=10.0.0.2)",
		"exception calling callback for <Future at 0x7fd4182ce270 state=finished raised RuntimeError>",
		"Exception in callback _handle_result(<Task finished>) at /app/server.py:120",
		"Exception ignored in: <function Engine.__del__ at 0x7f>",
		"Exception occurred during processing of request from ('127.0.0.1', 51234)",
		"--- Logging error ---",
		"Uncaught exception GET /v1/models (10.0.0.3)",
		"Error handling request",
		"Exception on /generate [POST]",
		"Traceback (most recent call last):",
		"The following error occurred:",
		"Loading the model raised the following exception:",
		"Caught exception:",
		"Error:",
		"Unexpected error occurred:",
		"Stack trace:",
		"EngineCore encountered a fatal error.",
		"Method Prefill encountered an error.",
		"Loading the adapter raised an exception:",
	}
	for _, h := range headers {
		if !pointsOnly(h) {
			t.Errorf("%q: not read as an announcement", h)
		}
	}
	errors := []string{
		"The following error occurred: CUDA out of memory",
		"Error handling request: connection reset by peer",
		"Exception in ASGI application: boom",
		"Unhandled exception: ValueError: bad shape",
		"Error in request: timeout",
		"Exception on /generate [POST] failed with 500 after retry",
		"Error: CUDA out of memory",
		"Failed to load the model from /models/llama because of an error:",
		"Configuration:",
		"Error in request 'abc':",
		"EngineCore encountered a fatal error: CUDA out of memory",
		"Uncaught exception in main loop: ValueError: bad shape",
		"Exception in callback _run(): RuntimeError: loop closed",
		"Method Prefill encountered an error. Shard 1 exited with signal 9",
	}
	for _, e := range errors {
		if pointsOnly(e) {
			t.Errorf("%q: read as an announcement, but it states its error", e)
		}
	}
}

func TestSourceLinePiece(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"    runtime = sgl.Runtime(", true},
		{"    raise self._format_exception(outputs) from None", true},
		{"runtime = sgl.Runtime(", false},
		{"    ~~~~^^^^", false},
		{`  File "/app/x.py", line 1, in f`, false},
		{"    runtime = sgl.Runtime(\n    x = 1", false},
	} {
		if got := SourceLinePiece(tc.line); got != tc.want {
			t.Errorf("SourceLinePiece(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func FuzzPointsOnly(f *testing.F) {
	for _, s := range []string{"    raise X from None", "~~~^^", "Possible unhandled error from worker: x", "Exception on /a [GET]", "    a, b = (", "    x.y["} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pointsOnly(s)
		SourceLinePiece(s)
	})
}
