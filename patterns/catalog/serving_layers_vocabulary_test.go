package catalog_test

import (
	"testing"
)

// The serving layers' failure lines that no record read, or that a near
// record claimed, each taken as the whole family its writer prints: the
// wordings of Ollama's runner supervisor across its releases (its own
// runner, the bundled llama-server, the MLX runner), llama-swap's errors
// for an upstream that does not become healthy or exits, every tool-call
// parser's failure in sglang, LMDeploy, vLLM, llama.cpp and Ollama, and
// the checks of FlashInfer's attention kernels (the dispatch error, the
// shared-memory limits and the TRT-LLM-generated kernels' checks). Each is
// composed the way its writer prints it, behind the prefixes it goes
// through, with the near misses that must stay silent or go to their own
// record.

// TestServingLayerVocabularies checks every serving-layer vocabulary and
// logs its count of failure strings claimed.
func TestServingLayerVocabularies(t *testing.T) {
	checkVocabularies(t, []vocabulary{
		ollamaRunnerStops,
		ollamaServerErrors,
		llamaCppServer,
		llamaSwapProcess,
		toolCallParsers,
		flashinferChecks,
		torchrunSummary,
		ggmlROCm(),
		ggmlCUDA(),
		gatewayClients,
	})
}

// ollamaSlog is a record of Ollama's server as log/slog prints it.
func ollamaSlog(level, source, msg, err string) string {
	line := "time=2026-04-06T04:11:27.342Z level=" + level + " source=" + source + ` msg="` + msg + `"`
	if err != "" {
		line += ` error="` + err + `"`
	}
	return line
}

// ollamaRunnerStops are the ways Ollama says the runner of a model
// stopped: the server's log line when it reaps the runner ('llama runner
// terminated' up to 0.12, 'llama-server terminated' since the server wraps
// llama-server), and the errors a load or a request fails with ('llama
// runner process has terminated', 'no longer running', 'model runner has
// unexpectedly stopped', 'model failed to load'), bare, behind the CLI's
// "Error: " and behind journald's prefix.
var ollamaRunnerStops = vocabulary{
	name: "Ollama runner supervisor",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "Apr 06 04:11:27 gpu01 ollama[2841]: %s"},
	},
	terms: []vocabTerm{
		{ollamaSlog("ERROR", "server.go:304", "llama runner terminated", "signal: killed"), "", "", "ollama-runner-terminated"},
		{ollamaSlog("ERROR", "server.go:304", "llama runner terminated", "exit status 2"), "", "", "ollama-runner-terminated"},
		{ollamaSlog("ERROR", "llama_server.go:1023", "llama-server terminated", "signal: segmentation fault (core dumped)") + " exit=139", "", "", "ollama-runner-terminated"},
		{ollamaSlog("ERROR", "sched.go:489", "error loading llama server", "llama runner process has terminated: exit status 0xc0000409"), "", "", "ollama-runner-terminated"},
		{"Error: llama runner process has terminated: signal: aborted (core dumped)", "", "", "ollama-runner-terminated"},
		{"Error: 500 Internal Server Error: llama runner process has terminated with exit code 1", "", "", "ollama-runner-terminated"},
		{ollamaSlog("ERROR", "routes.go:120", "error loading llama server", "llama runner process no longer running: -1 "), "", "", "ollama-runner-terminated"},
		{"Error: model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details", "", "", "ollama-runner-terminated"},
		{ollamaSlog("ERROR", "sched.go:489", "error loading llama server", "model failed to load, this may be due to resource limitations or an internal error, check ollama server logs for details"), "", "", "ollama-runner-terminated"},
		{"Error: mlx runner exited unexpectedly: exit status 1", "", "", "ollama-runner-terminated"},
		{ollamaSlog("ERROR", "sched.go:489", "error loading llama server", "timed out waiting for llama runner to start - progress 0.00 - "), "", "", "ollama-timed-out-waiting-for-runner"},
		{ollamaSlog("INFO", "server.go:1328", "llama runner started in 3.52 seconds", ""), "", "", ""},
		{ollamaSlog("INFO", "server.go:1289", "waiting for llama runner to start responding", ""), "", "", ""},
		{ollamaSlog("INFO", "llama_server.go:433", "starting llama-server", "") + ` cmd="/usr/lib/ollama/llama-server --port 41235 --model /root/.ollama/models/blobs/sha256-3f2a"`, "", "", ""},
		{ollamaSlog("DEBUG", "sched.go:342", "runner with non-zero duration has gone idle, adding timer", "") + " runner.name=registry.ollama.ai/library/qwen3:8b", "", "", ""},
	},
}

// ollamaServerErrors are the other failures of Ollama's model scheduler
// and its link to the runner: the memory the model needs that the layout
// cannot place, a runner that cannot be started, and the runner that
// stops answering its local port while loading, generating, embedding or
// being health-checked.
var ollamaServerErrors = vocabulary{
	name: "Ollama scheduler and runner link",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "Error: 500 Internal Server Error: %s"},
	},
	terms: []vocabTerm{
		{"model requires more system memory (43.7 GiB) than is available (30.1 GiB)", "", "", "ollama-model-requires-more-memory"},
		{"memory layout cannot be allocated with num_gpu = 999", "", "", "ollama-model-requires-more-memory"},
		{"failed to commit memory for model", "", "", "ollama-model-requires-more-memory"},
		{"failed to allocate memory for model", "", "", "ollama-model-requires-more-memory"},
		{"unable to load full model on GPU", "", "", "ollama-model-requires-more-memory"},
		{"llama-server startup failed after projector CPU offload retry: exit status 1", "", "", "ollama-runner-terminated"},
		{`error starting llama-server: exec: "/usr/lib/ollama/llama-server": stat /usr/lib/ollama/llama-server: no such file or directory`, "", "", "ollama-runner-terminated"},
		{"llama-server binary not found (checked: /usr/lib/ollama/llama-server)", "", "", "ollama-runner-terminated"},
		// The runner's own cause, quoted after the server's words, leads.
		{"llama runner process has terminated: CUDA error: out of memory", "", "", "cuda-error-out-of-memory"},
		{"error starting runner: fork/exec /usr/lib/ollama/ollama: exec format error", "", "", "container-command-not-executable"},
		{`do load request: Post "http://127.0.0.1:38873/load": EOF`, "", "", "ollama-runner-connection-lost"},
		{`do embedding request: Post "http://127.0.0.1:36367/embedding": EOF`, "", "", "ollama-runner-connection-lost"},
		{"error reading llama-server response: unexpected EOF", "", "", "ollama-runner-connection-lost"},
		{`health resp: Get "http://127.0.0.1:40123/health": dial tcp 127.0.0.1:40123: connect: connection refused`, "", "", "ollama-runner-connection-lost"},
		{"timed out waiting for llama runner to start - progress 0.95 - ", "", "", "ollama-timed-out-waiting-for-runner"},
		{"an error was encountered while running the model: unexpected EOF", "", "", "ollama-runner-terminated"},
		{"an error was encountered while running the model: GGML_ASSERT(ggml_nelements(a) == ne0*ne1) failed", "", "", "ggml-assert-failed"},
		{"panic: unable to load model: /root/.ollama/models/blobs/sha256-3f2a9c0e", "", "", "ollama-runner-terminated"},
	},
}

// llamaCppServer are llama.cpp's server and common library failures,
// as llama-server prints them with its 'srv'/'slot' columns and its
// library's function prefixes: a model that does not load (at every layer
// that says so), allocations that fail, a context or a batch that does not
// fit, a request the chat parser cannot read, and the port it cannot bind.
var llamaCppServer = vocabulary{
	name: "llama.cpp server and common",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "llamacpp-1  | %s"},
	},
	terms: []vocabTerm{
		{"llama_model_load: error loading model: error loading model vocabulary: unknown pre-tokenizer type: 'qwen35'", "", "", "llamacpp-unknown-pre-tokenizer"},
		{"common_init_from_params: failed to load model '/models/qwen3-8b-q4_k_m.gguf'", "", "", "llamacpp-server-model-load-failed"},
		{"llama_model_load_from_file_impl: failed to load model", "", "", "llamacpp-server-model-load-failed"},
		{"srv    load_model: failed to load model, '/models/qwen3-8b-q4_k_m.gguf'", "", "", "llamacpp-server-model-load-failed"},
		{"main: exiting due to model loading error", "", "", "llamacpp-server-model-load-failed"},
		{"llama_init_from_model: failed to initialize the context: failed to allocate compute pp buffers", "", "", "llamacpp-failed-to-allocate-buffer"},
		{"alloc_tensor_range: failed to allocate CUDA0 buffer of size 37258911744", "", "", "llamacpp-failed-to-allocate-buffer"},
		{"ggml_gallocr_reserve_n: failed to allocate CUDA1 buffer of size 10345253120", "", "", "llamacpp-failed-to-allocate-buffer"},
		{"ggml_backend_cann_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: aclrtMalloc failed: EL0004: Failed to allocate memory.", "", "", "llamacpp-failed-to-allocate-buffer"},
		{"ggml_backend_sycl_buffer_type_alloc_buffer: can't allocate 4096 Bytes of memory on device", "", "", "llamacpp-failed-to-allocate-buffer"},
		// The CUDA runtime's own out-of-memory error on the same line leads.
		{"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9866.00 MiB on device 1: cudaMalloc failed: out of memory", "", "", "cuda-error-out-of-memory"},
		{"common_init_from_params: failed to create context with model '/models/x.gguf'", "", "", "llamacpp-context-creation-failed"},
		{"send_error: task id = 12, error: the request exceeds the available context size, try increasing it", "", "", "llamacpp-request-exceeds-context"},
		{"srv  update_slots: failed to decode the batch: KV cache is full - try increasing it via the context size, i = 0, n_batch = 512, ret = 1", "", "", "llamacpp-kv-cache-full"},
		{`srv  operator(): got exception: {"code":500,"message":"Failed to parse input at pos 0: ","type":"server_error"}`, "", "", "tool-call-parse-failed"},
		{"terminate called after throwing an instance of 'std::runtime_error'\n  what():  Invalid diff: '<tool_call>' not found at start of '</tool_call>'", "", "", "tool-call-parse-failed"},
		{"main: error: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 8080", "", "", "llamacpp-server-bind-failed"},
		{"error: invalid argument: --flash-attn", "", "", "llamacpp-invalid-argument"},
		{"srv  params_from_: Chat format: Hermes 2 Pro", "", "", ""},
		{"srv    load_model: loading model '/models/qwen3-8b-q4_k_m.gguf'", "", "", ""},
		{"slot launch_slot_: id  0 | task 114 | processing task", "", "", ""},
		{"main: server is listening on http://0.0.0.0:8080 - starting the main loop", "", "", ""},
	},
}

// llamaSwapProcess are llama-swap's errors for the upstream server it
// starts per model: the health check that ran out of time (older
// releases 'health check failed after Ns' behind 'unable to start
// process:', newer ones 'health check timed out after 2m0s'), and the
// upstream that exited or could not be run. The proxy relays them in its
// error responses and its streamed loading status, and logs the exit.
var llamaSwapProcess = vocabulary{
	name: "llama-swap upstream process",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "Aug 22 09:30:11 gpu01 llama-swap[812]: %s"},
	},
	terms: []vocabTerm{
		{"unable to start process: health check failed after 15s", "", "", "llama-swap-health-check-timeout"},
		{"unable to start process: health check timed out after 300s", "", "", "llama-swap-health-check-timeout"},
		{"Unable to swap model err: unable to start process: health check timed out after 120s", "", "", "llama-swap-health-check-timeout"},
		{"error swapping process group: unable to start process: health check timed out after 60s", "", "", "llama-swap-health-check-timeout"},
		{"health check timed out after 2m0s", "", "", "llama-swap-health-check-timeout"},
		{"unable to start process: upstream command exited prematurely but successfully", "", "", "llama-swap-upstream-exited"},
		{"[qwen3-30b] upstream exited unexpectedly", "", "", "llama-swap-upstream-exited"},
		{"[WARN] <qwen3-30b> upstream process exited unexpectedly", "", "", "llama-swap-upstream-exited"},
		// A command that cannot be run names its cause after the proxy's words.
		{"unable to start process: start() failed for command '/opt/llama/llama-server --port 9001 -m /models/q.gguf': exec: \"/opt/llama/bin/llama-server\": permission denied", "", "", "shell-permission-denied"},
		// Another server's health check that times out is its own record's.
		{"[2026-05-28 00:11:09] Encoder health check timed out after 20s", "", "", "epd-encoder-unavailable"},
		{"[INFO] <qwen3-30b> Health check passed on http://127.0.0.1:9001/health", "", "", ""},
		{"[INFO] <qwen3-30b> Unloading model, TTL of 300s reached", "", "", ""},
		{"[DEBUG] <qwen3-30b> process exited cleanly", "", "", ""},
		{"health check failed after wake up: connection refused", "", "", ""},
	},
}

// toolCallParsers are the failures of the parsers that turn a model's
// tool-call text into structured calls, as each engine reports them:
// sglang's and LMDeploy's 400 answer (and the client that echoes it),
// sglang's and vLLM's parser logs, llama.cpp's chat parser and its reading
// of a call's arguments (nlohmann's json exceptions), and Ollama's model
// parsers. The command-line 'Failed to parse arguments' of other tools is
// no tool call.
var toolCallParsers = vocabulary{
	name: "tool-call parsers (sglang, LMDeploy, vLLM, llama.cpp, Ollama)",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
	},
	terms: []vocabTerm{
		{"[2026-05-28 00:11:09] Error in detect_and_parse: Expecting ',' delimiter: line 1 column 52 (char 51)", "", "", "tool-call-parse-failed"},
		{"openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': 'Failed to parse fc related info to json format!', 'type': 'BadRequestError', 'param': None, 'code': 400}", "", "", "tool-call-parse-failed"},
		{"litellm.BadRequestError: OpenAIException - Error code: 400 - {'object': 'error', 'message': '400', 'type': 'Failed to parse fc related info to json format!', 'param': None, 'code': 400}", "", "", "tool-call-parse-failed"},
		{`{"object":"error","message":"Failed to parse fc related info to json format!","type":"invalid_request_error","param":null,"code":400}`, "", "", "tool-call-parse-failed"},
		{"[2026-05-28 00:11:09] Failed to parse JSON part: {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}, JSON parse error: Expecting ',' delimiter: line 1 column 52 (char 51)", "", "", "tool-call-parse-failed"},
		// A call to a tool the request did not offer is the model's, and routine.
		{"[2026-05-28 00:11:09] Model attempted to call undefined function: get_wether", "", "", ""},
		{"ERROR 05-28 00:11:09 [hermes_tool_parser.py:108] Error in extracting tool call from response.", "", "", "tool-call-parse-failed"},
		{"ERROR 05-28 00:11:09 [llama_tool_parser.py:245] Error trying to handle streaming tool call.", "", "", "tool-call-parse-failed"},
		{"Failed to parse arguments: [json.exception.parse_error.101] parse error at line 1, column 1: syntax error while parsing value - invalid literal; last read: 'x'", "", "", "tool-call-parse-failed"},
		{"Failed to parse arguments: [json.exception.type_error.302] type must be string, but is object", "", "", "tool-call-parse-failed"},
		{`srv    operator(): got exception: {"error":{"code":500,"message":"Failed to parse input at pos 13: <tool_call>{\"name\": \"read_file\"","type":"server_error"}}`, "", "", "tool-call-parse-failed"},
		{ollamaSlog("WARN", "qwen3.go:117", "qwen3 tool call parsing failed", "invalid character '}' looking for beginning of object key string"), "", "", "tool-call-parse-failed"},
		{`Error: llama-server returned invalid tool call arguments for "get_weather": unexpected end of JSON input`, "", "", "tool-call-parse-failed"},
		{"error: Failed to parse arguments: unknown flag: --invalid-flag", "", "", ""},
		{"srv  params_from_: Chat format: GPT-OSS", "", "", ""},
		{"[2026-05-28 00:11:09] Tool call parser: qwen25, reasoning parser: qwen3", "", "", ""},
	},
}

// flashinferChecks are the checks of FlashInfer's attention kernels that
// refuse a shape they have no kernel for, behind flashinfer::Error's
// "Error in function '...' at file:line: " as torch raises it in a
// scheduler's traceback and in vLLM's engine core: the dispatch's invalid
// tile configuration (with its old num_frags names and the JIT build's
// "Error:" wording), the shared-memory limits per architecture, and the
// TRT-LLM-generated kernels' head-size and page-size checks.
var flashinferChecks = vocabulary{
	name: "FlashInfer kernel checks",
	shapes: []vocabShape{
		{Field: fieldText, Format: tb("RuntimeError: Error in function 'SinglePrefillWithKVCacheDispatched' at /workspace/include/flashinfer/attention/prefill.cuh:2631: %s")},
		{Field: fieldText, Format: "(EngineCore_DP0 pid=3339) RuntimeError: %s"},
		{Field: fieldText, Format: "%s"},
	},
	terms: []vocabTerm{
		{"FlashInfer Internal Error: Invalid configuration : NUM_MMA_Q=1 NUM_MMA_D_QK=2 NUM_MMA_D_VO=2 NUM_MMA_KV=4 NUM_WARPS_Q=4 NUM_WARPS_KV=1 please create an issue (https://github.com/flashinfer-ai/flashinfer/issues) and report the issue to the developers.", "", "", "flashinfer-unsupported-kernel-config"},
		{"Error: Invalid configuration : NUM_MMA_Q=2 NUM_MMA_D_QK=2 NUM_MMA_D_VO=2 NUM_MMA_KV=4 NUM_WARPS_Q=4 NUM_WARPS_KV=1 please create an issue (https://github.com/flashinfer-ai/flashinfer/issues) and report the issue to the developers.", "", "", "flashinfer-unsupported-kernel-config"},
		{"Invalid configuration : num_frags_x=1 num_frags_y=4 num_frags_z=4 num_warps_x=4 num_warps_z=1 please create an issue (https://github.com/flashinfer-ai/flashinfer/issues) and report the issue to the developers.", "", "", "flashinfer-unsupported-kernel-config"},
		{"Even the smallest KV tile for head_dim_qk=512, head_dim_vo=512, cta_tile_q=16 exceeds this GPU's 101376 bytes of shared memory per block; this configuration is not supported on this architecture.", "", "", "flashinfer-unsupported-kernel-config"},
		{"Required shared memory (115200 bytes) for head_dim_qk=256, head_dim_vo=256, cta_tile_q=64 exceeds this GPU's per-block limit (101376 bytes); this configuration is not supported on this architecture.", "", "", "flashinfer-unsupported-kernel-config"},
		{"Expect (32 <= headDim <= 1024), got headDimPerCtaV=16, headDimQk=16, headDimV=16", "", "", "flashinfer-unsupported-kernel-config"},
		{"Expect (32 <= headDim <= 2048) && (numTokensPerPage <= 128), got headDimPerCtaV=256, headDimQk=256, headDimV=256, numTokensPerPage=544", "", "", "flashinfer-unsupported-kernel-config"},
		{"The numTokensPerPage must be 0 or power of 2.", "", "", "flashinfer-unsupported-kernel-config"},
		{"Buffer overflow when allocating memory for batch_prefill_tmp_v with size 283115520 and alignment 16, but only 268435456 bytes available in AlignedAllocator. Increase the workspace buffer size.", "", "", "flashinfer-workspace-too-small"},
		{"Failed to allocate memory for batch_prefill_tmp_v with size 458752000 and alignment 16 in AlignedAllocator", "", "", "flashinfer-workspace-too-small"},
		{"Out of workspace memory in AlignedAlloactor", "", "", "flashinfer-workspace-too-small"},
		{"Invalid configuration: max_batch_size must be positive", "", "", ""},
	},
}

// torchrunSummary is the failure summary torchrun's elastic agent prints
// when a worker fails, composed from its parts as a log cut anywhere in it
// shows them: the ChildFailedError header, a rank's block, the root cause
// heading. Its routine lines stay silent.
var torchrunSummary = vocabulary{
	name: "torchrun failure summary",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "[rank0]: %s"},
	},
	terms: []vocabTerm{
		{"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n============================================================\ntrain.py FAILED", "", "", "torch-elastic-child-failed"},
		{"Root Cause (first observed failure):\n[0]:\n  time      : 2024-03-05_07:01:51\n  host      : node-1\n  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 69811)", "", "", "torch-elastic-child-failed"},
		{"  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html", "", "", "torch-elastic-child-failed"},
		{"torch.distributed.elastic.agent.server.api: [INFO] Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish", "", "", ""},
		{"To enable traceback see the elastic docs before launching", "", "", ""},
	},
}

// ggmlROCm is HIP's vocabulary as ggml's CUDA backend prints it when built
// for ROCm (llama.cpp, Ollama on AMD GPUs): its error check names the
// backend "ROCm" instead of "HIP", then the device and the function. (The
// line it aborts at next, 'ggml-cuda.cu:75: ROCm error', folds into the
// same incident when a scan reads the whole burst.)
func ggmlROCm() vocabulary {
	v := vocabulary{
		name: "ggml ROCm backend (hipError_t texts)",
		shapes: []vocabShape{
			{Field: fieldText, Format: "ggml_cuda_compute_forward: MUL_MAT failed\nROCm error: %s\n  current device: 0, in function ggml_cuda_compute_forward at /ollama/ml/backend/ggml/ggml/src/ggml-cuda/ggml-cuda.cu:2323"},
			{Field: fieldText, Format: "ROCm error: %s"},
		},
	}
	for _, t := range hipRuntime.terms {
		if t.text != "" {
			v.terms = append(v.terms, vocabTerm{t.text, "", "", t.want})
		}
	}
	return v
}

// ggmlCUDA is the CUDA runtime's vocabulary as ggml's CUDA backend prints
// it (llama.cpp, Ollama, whisper.cpp): 'CUDA error: <text>' and the device
// and function after it.
func ggmlCUDA() vocabulary {
	v := vocabulary{
		name: "ggml CUDA backend (cudaError_t texts)",
		shapes: []vocabShape{
			{Field: fieldText, Format: "ggml_cuda_compute_forward: ADD failed\nCUDA error: %s\n  current device: 1, in function ggml_cuda_compute_forward at /app/ggml/src/ggml-cuda/ggml-cuda.cu:2441"},
		},
	}
	for _, t := range cudaRuntime.terms {
		if t.text != "" {
			v.terms = append(v.terms, vocabTerm{t.text, "", "", t.want})
		}
	}
	return v
}

// gatewayClients are the failures the clients in front of a server report
// for it, the openai SDK's and LiteLLM's wrapping of it ('litellm.<Error>:
// OpenAIException - ...'): a server that cannot be reached or answers too
// late, a request it refuses, and the server's own reason when the body
// carries one.
var gatewayClients = vocabulary{
	name: "gateway clients (openai SDK, LiteLLM)",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "2026-05-28 00:11:09,123 - LiteLLM Router:ERROR: router.py:2871 - %s"},
	},
	terms: []vocabTerm{
		{"openai.APIConnectionError: Connection error.", "", "", "http-upstream-connect-failed"},
		{"litellm.exceptions.APIConnectionError: litellm.APIConnectionError: OpenAIException - Connection error.", "", "", "http-upstream-connect-failed"},
		{"openai.APITimeoutError: Request timed out.", "", "", "http-client-read-timeout"},
		{"litellm.Timeout: APITimeoutError - Request timed out. Error_str: Request timed out.", "", "", "http-client-read-timeout"},
		{"litellm.InternalServerError: InternalServerError: OpenAIException - Error code: 500 - {'object': 'error', 'message': 'Internal server error', 'type': 'InternalServerError', 'param': None, 'code': 500}", "", "", "http-client-server-error-status"},
		{"litellm.exceptions.NotFoundError: litellm.NotFoundError: OpenAIException - Error code: 404 - {'object': 'error', 'message': 'The model `qwen3` does not exist.', 'type': 'NotFoundError', 'param': None, 'code': 404}", "", "", "http-client-request-rejected"},
		{"openai.InternalServerError: Error code: 502 - {'error': 'unable to start process: health check timed out after 120s'}", "", "", "llama-swap-health-check-timeout"},
		{"litellm.BadRequestError: OpenAIException - Error code: 400 - {'object': 'error', 'message': '400', 'type': 'Failed to parse fc related info to json format!', 'param': None, 'code': 400}", "", "", "tool-call-parse-failed"},
		{"2026-05-28 00:11:09 - LiteLLM Proxy:INFO: proxy_server.py:1981 - POST /v1/chat/completions 200", "", "", ""},
	},
}

// servingLayerExamples are lines of the records the serving-layer
// vocabularies added, with the near misses each must leave alone.
var servingLayerExamples = map[string]example{
	"flashinfer-workspace-too-small": {
		match: []string{
			"RuntimeError: Failed to allocate memory for batch_prefill_tmp_v with size 458752000 and alignment 16 in AlignedAllocator",
			"site-packages/flashinfer/data/include/flashinfer/allocator.h:49: Buffer overflow when allocating memory for batch_prefill_tmp_v with size 283115520 and alignment 16, but only 268435456 bytes available in AlignedAllocator. Increase the workspace buffer size.",
		},
		miss: []string{"[2026-05-28 00:11:09] Using FlashInfer workspace of 384 MiB", "AlignedAllocator::aligned_alloc cannot return a pointer in counting mode for batch_prefill_tmp_v"},
	},
	"llama-swap-health-check-timeout": {
		match: []string{
			"unable to start process: health check failed after 15s",
			"Unable to swap model err: unable to start process: health check timed out after 120s",
			"health check timed out after 2m0s",
		},
		miss: []string{
			"[INFO] <qwen3-30b> Health check passed on http://127.0.0.1:9001/health",
			"Encoder health check timed out after 20s",
			"vLLM health check failed after wake up: connection refused",
		},
	},
	"llama-swap-upstream-exited": {
		match: []string{
			"unable to start process: upstream command exited prematurely but successfully",
			"[WARN] <qwen3-30b> upstream process exited unexpectedly",
			"[qwen3-30b] upstream exited unexpectedly",
		},
		miss: []string{"[DEBUG] <qwen3-30b> process exited cleanly", "[qwen3-30b] shutdown"},
	},
}

// servingLayerWidened are lines of existing records the serving-layer
// vocabularies widened.
var servingLayerWidened = map[string]example{
	"torch-elastic-child-failed": {
		match: []string{
			"Root Cause (first observed failure):",
			"  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
		},
		miss: []string{"Root Cause analysis follows", "  rank      : 0 (local_rank: 0)"},
	},
	"tool-call-parse-failed": {
		match: []string{
			"Failed to parse arguments: [json.exception.parse_error.101] parse error at line 1, column 6: syntax error while parsing object separator - invalid literal; last read: '\"{\"fi'; expected ':'",
			"qwen_infer error, idx: 130 Error code: 400 - {'object': 'error', 'message': '400', 'type': 'Failed to parse fc related info to json format!', 'param': None, 'code': 400}",
			`Error: llama-server returned invalid tool call arguments for "get_weather": unexpected end of JSON input`,
		},
		miss: []string{"Failed to parse arguments: unknown flag: --verbose", "Failed to parse arguments!"},
	},
	"flashinfer-unsupported-kernel-config": {
		match: []string{
			"Error: Invalid configuration : NUM_MMA_Q=2 NUM_MMA_D_QK=2 NUM_MMA_D_VO=2 NUM_MMA_KV=4 NUM_WARPS_Q=4 ",
			"RuntimeError: Expect (32 <= headDim <= 2048) && (numTokensPerPage <= 128), got headDimPerCtaV=%d, headDimQk=%d, headDimV=%d, numTokensPerPage=%d256256256544",
		},
		miss: []string{"Invalid kernel configuration: nblks=(0,8)", "Expect (ckv_cache, kpe_cache)"},
	},
}

func init() { addExamples(servingLayerExamples, servingLayerWidened) }

// servingLayerRoutine are lines the same layers print while healthy, which
// no record may raise.
var servingLayerRoutine = []string{
	"[INFO] <qwen3-30b> Health check passed on http://127.0.0.1:9001/health",
	"[INFO] <qwen3-30b> Unloading model, TTL of 300s reached",
	ollamaSlog("INFO", "server.go:1328", "llama runner started in 3.52 seconds", ""),
	"srv  log_server_r: request: POST /v1/chat/completions 192.168.0.61 200",
	"srv  params_from_: Chat format: GPT-OSS",
	"slot update_slots: id  0 | task 114 | prompt processing progress, n_past = 6385, n_tokens = 79, progress = 0.012373",
	"slot      release: id  0 | task 114 | stop processing: n_past = 6417, truncated = 0",
	"[2026-05-28 00:11:09] Using FlashInfer attention backend with head_dim=128",
}

// TestServingLayerRoutineLinesDoNotAlert checks the serving layers'
// healthy lines raise no failure record.
func TestServingLayerRoutineLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), servingLayerRoutine)
}

// TestServingLayerIncidents checks whole outputs of the serving layers
// page once, led by their cause: the GPU library's error before Ollama's
// report that the runner stopped, llama.cpp's load error before
// llama-swap's report that the upstream exited, a FlashInfer check inside
// its envelope, and a healthy stretch.
func TestServingLayerIncidents(t *testing.T) {
	tests := []incidentCase{
		{
			name: "Ollama on ROCm: the kernel image, then the runner's exit",
			lines: []string{
				ollamaSlog("INFO", "server.go:1289", "waiting for llama runner to start responding", ""),
				"ggml_cuda_compute_forward: MUL_MAT failed",
				"ROCm error: invalid device function",
				"  current device: 0, in function ggml_cuda_compute_forward at /ollama/ml/backend/ggml/ggml/src/ggml-cuda/ggml-cuda.cu:2323",
				"/ollama/ml/backend/ggml/ggml/src/ggml-cuda/ggml-cuda.cu:75: ROCm error",
				ollamaSlog("ERROR", "server.go:304", "llama runner terminated", "exit status 2"),
				ollamaSlog("ERROR", "sched.go:489", "error loading llama server", "llama runner process has terminated: ROCm error"),
			},
			lead: "hip-no-binary-for-gpu", incidents: 1, folded: "ollama-runner-terminated",
		},
		{
			name: "llama-swap: the upstream's load error, then the proxy's report",
			lines: []string{
				"[INFO] <qwen3-30b> Executing start command: /opt/llama/llama-server --port 9001 -m /models/qwen3-30b.gguf",
				"llama_model_load: error loading model: error loading model vocabulary: unknown pre-tokenizer type: 'qwen35'",
				"llama_model_load_from_file_impl: failed to load model",
				"srv    load_model: failed to load model, '/models/qwen3-30b.gguf'",
				"main: exiting due to model loading error",
				"[WARN] <qwen3-30b> upstream process exited unexpectedly",
				"unable to start process: upstream command exited prematurely",
			},
			lead: "llamacpp-unknown-pre-tokenizer", incidents: 1, folded: "llama-swap-upstream-exited",
		},
		{
			name: "a FlashInfer check in its envelope",
			lines: []string{
				"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3120, in run_scheduler_process`,
				"    scheduler.event_loop_overlap()",
				"RuntimeError: Error in function 'SinglePrefillWithKVCacheDispatched' at /workspace/include/flashinfer/attention/prefill.cuh:2631: FlashInfer Internal Error: Invalid configuration : NUM_MMA_Q=1 NUM_MMA_D_QK=2 NUM_MMA_D_VO=2 NUM_MMA_KV=4 NUM_WARPS_Q=4 NUM_WARPS_KV=1 please create an issue (https://github.com/flashinfer-ai/flashinfer/issues) and report the issue to the developers.",
			},
			lead: "flashinfer-unsupported-kernel-config", incidents: 1,
		},
		{
			name:  "healthy serving",
			lines: servingLayerRoutine,
		},
	}
	checkIncidents(t, "serving.log", tests)
}
