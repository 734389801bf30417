package catalog_test

import (
	"testing"
)

// The third round of the other engines' failure wordings: each writer's
// fatal lines read from its own sources across releases, with the
// prefixes the writer puts before a shared layer's message and the copies
// that lose them:
//   - ggml's CUDA backend reports a failed initialisation as
//     "ggml_cuda_init: failed to initialize CUDA: <cudaGetErrorString>"
//     (ROCm and MUSA builds name themselves), so each CUDA error record reads
//     its error string behind that prefix as it does behind "CUDA error: ";
//     its buffer allocation "ggml_backend_cuda_buffer_type_alloc_buffer:
//     allocating N MiB on device D: cudaMalloc failed: <error>" is the CUDA
//     driver's out of memory; the CPU backend's posix_memalign failure
//     ("ggml_aligned_malloc: insufficient memory (attempted to allocate N
//     MB)", then "ggml_backend_cpu_buffer_type_alloc_buffer: failed to
//     allocate buffer of size N") is host memory; the Vulkan backend's lost
//     device surfaces as vulkan-hpp's vk::DeviceLostError ("<call>:
//     ErrorDeviceLost"), newer builds logging "ggml_vulkan: device lost on
//     <device>" first; the tools before the common_ rename reported a
//     failed load as "llama_init_from_gpt_params: error: failed to load
//     model '<path>'", and before GGUF as "llama_init_from_file: failed to
//     load model" and "main: error: failed to load model '<path>'"; a context it cannot shift aborts through GGML_ABORT
//     ("Deepseek2 does not support K-shift", later "The current context ..."
//     and "The current KV cache / model configuration does not support
//     K-shift");
//   - Ollama's first releases (2023) word a runner that could not start
//     or died "failed to start a llama runner" and "llama runner exited:
//     ..."; its server quotes the runner's loader error after its exit
//     ("llama runner process has terminated: [exit status or signal]
//     error loading model: ..."), and, since it runs llama-server itself,
//     answers with "llama-server process has terminated: ..." and
//     "llama-server process no longer running: ..." where it said "llama
//     runner process ...";
//   - TGI's launcher exits with "Error: ArgumentValidation(\"<reason>\")",
//     the router (before 1.0) panics with the same reasons and words its own
//     enum "Argument validation error: <reason>", and hosted consoles show
//     the enum without its "Error: " prefix; the router's warmup failure
//     ("Unable to warmup model: <error>" as a panic before 1.0, "Error:
//     Warmup(...)" and "Error: Backend(Warmup(...))" after) quotes the
//     shard's error, torch's allocator among them with its memory-fraction
//     wording "Allocation on device N would exceed allowed memory. (out of
//     memory)";
//   - TGI's launcher names each way its start-up ends: a shard's closed
//     status channel ("Shard status channel disconnected", "Error:
//     ShardDisconnected"), the download step ("Download encountered an
//     error: ..."), a router it cannot start ("Failed to start webserver:
//     ...", "Error: WebserverCannotStart"); a shard that cannot build the
//     model logs "Error when initializing model" before the traceback;
//   - TurboMind's failed checks: "[TM][ERROR] Assertion fail: <file>:<line>"
//     (FT_CHECK), "[TM][FATAL] <file>(<line>): Check failed: <cond>" (TM_CHECK
//     from LMDeploy 0.8.0), and "[TM][FATAL][<MMDD.HH:MM:SS.us>][<file>:<line>]
//     Check failed: <cond>" (the logger of 0.13.0), with their null checks
//     ("'<expr>' Must be non NULL").
//   - TensorRT-LLM's C++ runtime refuses a request longer than its engine:
//     "Prompt length (N) exceeds maximum input length (M)." (with draft
//     tokens: "Prompt length + number of draft tokens (N + D) exceeds ..."),
//     and in the older runtime "Input length (N) + max new tokens (M) [+
//     draft tokens (D)] must be less than max sequence length (L).", behind
//     the batch manager's "Cannot process new request: "; the warning that
//     trims the output tokens is routine.
//   - vLLM refuses LoRA on a model class without it: "Model <class> does not
//     support LoRA, but LoRA is enabled." (until 0.5), "<class> does not
//     support LoRA yet." (the worker's LoRA runner), and in the first V1
//     releases "V1 does not support LoRA yet.".
// Every family is read as its engine's log; the near misses are the same
// components' routine lines that mention the same words.

// llamaLog writes msg the way llama.cpp's common logger prefixes it with
// --log-prefix and --log-timestamps (newer builds' default).
func llamaLog(level, msg string) string { return "0.00.806.033 " + level + " " + msg }

// composeLog writes line the way docker compose prefixes a service's
// output.
func composeLog(line string) string { return "llama-cpp    | " + line }

// cudaInit is ggml_cuda_init's line for a CUDA (or ROCm) runtime that did
// not initialise.
func cudaInit(runtime, reason string) string {
	return "ggml_cuda_init: failed to initialize " + runtime + ": " + reason
}

// llamacppFatals lists ggml's and llama.cpp's fatal wordings of the third
// round.
var llamacppFatals = []engineComponent{
	{name: "ggml-cuda: initialisation", families: []raiseFamily{
		{family: "the runtime reports an unknown error", want: "cuda-unknown-error", bare: true, lines: []string{
			cudaInit("CUDA", "unknown error"),
			composeLog(cudaInit("CUDA", "unknown error")) + "\n" + composeLog("llm_load_tensors: offloaded 0/33 layers to GPU"),
			llamaLog("E", cudaInit("CUDA", "unknown error")),
			"Dec 02 08:14:09 gpu-3 llama-server[2211]: " + cudaInit("CUDA", "unknown error"),
		}},
		{family: "the runtime failed to initialise", want: "cuda-initialization-error", bare: true, lines: []string{
			cudaInit("CUDA", "initialization error"),
		}},
		{family: "the fabric manager has not brought the system up", want: "cuda-system-not-ready", bare: true, lines: []string{
			cudaInit("CUDA", "system not yet initialized"),
		}},
		{family: "the runtime does not support the call here", want: "cuda-operation-not-supported", bare: true, lines: []string{
			cudaInit("CUDA", "operation not supported"),
		}},
		{family: "a driver older than the runtime", want: "cuda-driver-version-insufficient", bare: true, lines: []string{
			cudaInit("CUDA", "CUDA driver version is insufficient for CUDA runtime version"),
		}},
		{family: "a driver the user-space libraries do not match", want: "cuda-driver-mismatch", bare: true, lines: []string{
			cudaInit("CUDA", "system has unsupported display driver / cuda driver combination"),
			cudaInit("CUDA", "forward compatibility was attempted on non supported HW"),
		}},
		{family: "a device another process holds", want: "cuda-devices-busy-or-unavailable", bare: true, lines: []string{
			cudaInit("CUDA", "CUDA-capable device(s) is/are busy or unavailable"),
		}},
		{family: "no device visible", want: "no-cuda-gpus-available", bare: true, lines: []string{
			cudaInit("CUDA", "no CUDA-capable device is detected"),
			cudaInit("ROCm", "no ROCm-capable device is detected"),
		}},
		{family: "near misses: initialisation notices", bare: true, lines: []string{
			"ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no\nggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no\nggml_cuda_init: found 1 CUDA devices:",
			composeLog("ggml_cuda_init: found 4 CUDA devices:") + "\n" + composeLog("  Device 0: NVIDIA A100-SXM4-80GB, compute capability 8.0, VMM: yes"),
		}},
	}},
	{name: "ggml-cuda: buffers", families: []raiseFamily{
		{family: "cudaMalloc out of memory for the weights", want: "cuda-error-out-of-memory", bare: true, lines: []string{
			"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 70312.50 MiB on device 1: cudaMalloc failed: out of memory\n" +
				"alloc_tensor_range: failed to allocate CUDA1 buffer of size 73728000000\n" +
				"llama_model_load: error loading model: unable to allocate CUDA1 buffer",
			llamaLog("E", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: out of memory") + "\n" +
				llamaLog("E", "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 4294967296"),
		}},
		{family: "near misses: buffer sizes", bare: true, lines: []string{
			"load_tensors: offloading 32 repeating layers to GPU\nload_tensors:        CUDA0 model buffer size =  4155.99 MiB\nload_tensors:   CPU_Mapped model buffer size =   281.81 MiB",
			"llama_kv_cache_unified:      CUDA0 KV buffer size =  1024.00 MiB",
		}},
	}},
	{name: "ggml-cpu: host memory", families: []raiseFamily{
		{family: "posix_memalign failed for a CPU buffer", want: "ggml-host-out-of-memory", bare: true, lines: []string{
			"ggml_aligned_malloc: insufficient memory (attempted to allocate 24576.00 MB)\n" +
				"ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 25769803776\n" +
				"alloc_tensor_range: failed to allocate CPU buffer of size 25769803776\n" +
				"llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache",
			llamaLog("E", "ggml_aligned_malloc: insufficient memory (attempted to allocate 60438.47 MB)") + "\n" +
				llamaLog("E", "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 63374323968"),
			"ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 8589934592",
		}},
		{family: "near misses: host buffers", bare: true, lines: []string{
			"llama_kv_cache_unified:        CPU KV buffer size = 16384.00 MiB",
			"llama_context:        CPU  output buffer size =     0.58 MiB",
		}},
	}},
	{name: "ggml-vulkan: device", families: []raiseFamily{
		{family: "the driver lost the device", want: "ggml-vulkan-device-lost", bare: true, lines: []string{
			"terminate called after throwing an instance of 'vk::DeviceLostError'\n  what():  vk::Queue::submit: ErrorDeviceLost",
			"radv/amdgpu: The CS has been cancelled because the context is lost.\nterminate called after throwing an instance of 'vk::DeviceLostError'\n  what():  vk::Device::waitForFences: ErrorDeviceLost",
			llamaLog("E", "ggml_vulkan: device lost on Vulkan0"),
			"ggml_vulkan: device lost on Vulkan1\nllama_model_load: error loading model: vk::Queue::submit: ErrorDeviceLost\nllama_model_load_from_file_impl: failed to load model",
		}},
		{family: "near misses: Vulkan device notices", bare: true, lines: []string{
			"ggml_vulkan: Found 1 Vulkan devices:\nggml_vulkan: 0 = AMD Radeon Graphics (RADV RENOIR) (radv) | uma: 1 | fp16: 1 | warp size: 64 | shared memory: 65536 | int dot: 0 | matrix cores: none",
			"load_tensors:      Vulkan0 model buffer size =  4096.00 MiB",
		}},
	}},
	{name: "llama context: K-shift", families: []raiseFamily{
		{family: "a full context the cache cannot shift", want: "llamacpp-k-shift-unsupported", bare: true, lines: []string{
			"/app/src/llama-kv-cache.cpp:1021: The current KV cache / model configuration does not support K-shift",
			"/llama.cpp/src/llama.cpp:18168: Deepseek2 does not support K-shift\nAborted (core dumped)",
			llamaLog("E", "/app/src/llama-context.cpp:412: The current context does not support K-shift"),
		}},
		{family: "near misses: shift notices", bare: true, lines: []string{
			"slot update_slots: id  0 | task 7 | slot context shift, n_keep = 0, n_left = 4094, n_discard = 2047",
			"slot update_slots: id  0 | task 7 | context shift is disabled, stopping generation",
		}},
	}},
	{name: "server: model load, older builds", families: []raiseFamily{
		{family: "the model did not load", want: "llamacpp-server-model-load-failed", bare: true, lines: []string{
			"llama_init_from_gpt_params: error: failed to load model '/models/llama-2-13b-chat.Q4_K_M.gguf'",
			"llama_init_from_file: failed to load model\nmain: error: failed to load model './models/13B/ggml-model-q4_0.bin'",
			"main: error: failed to load model 'models/ggml-vicuna-7b-q4_0.bin'",
		}},
		{family: "near misses: load notices", bare: true, lines: []string{
			"llama_model_loader: loaded meta data with 19 key-value pairs and 363 tensors from /models/llama-2-13b-chat.Q4_K_M.gguf (version GGUF V2)",
			"llm_load_tensors: ggml ctx size =    0.14 MiB",
		}},
	}},
}

// ollamaFatals lists the wordings of Ollama's server since it runs
// llama-server itself.
var ollamaFatals = []engineComponent{
	{name: "server: llama-server lifecycle", families: []raiseFamily{
		{family: "llama-server exited", want: "ollama-runner-terminated", bare: true, lines: []string{
			ollamaLog("ERROR", "sched.go:511", "error loading llama server", "llama-server process has terminated: exit status 2"),
			"Error: 500 Internal Server Error: llama-server process no longer running: exit status 1 ",
			`{"error":"llama-server process has terminated: signal: killed"}`,
		}},
		{family: "the first releases' runner failures", want: "ollama-runner-terminated", bare: true, lines: []string{
			"Error: failed to start a llama runner",
			"Error: llama runner exited, you may not have enough available memory to run this model",
			"Dec 15 15:34:10 gpu-3 ollama[25174]: 2023/12/15 15:34:10 llama.go:701: llama runner exited: signal: killed",
		}},
		{family: "near misses: the first releases' runner notices", bare: true, lines: []string{
			"Dec 15 15:34:10 gpu-3 ollama[25174]: 2023/12/15 15:34:10 llama.go:508: llama runner started in 3.012000 seconds",
			"2023/12/15 15:34:10 llama.go:525: llama runner stopped successfully",
		}},
		{family: "llama-server exited out of host memory", want: "ggml-host-out-of-memory", bare: true, lines: []string{
			"Error: 500 Internal Server Error: llama-server process has terminated: exit status 1: ggml_aligned_malloc: insufficient memory (attempted to allocate 36000.00 MB)",
			ollamaLog("ERROR", "sched.go:511", "error loading llama server", "llama-server reported out-of-memory during startup: ggml_aligned_malloc: insufficient memory (attempted to allocate 9409.00 MB)"),
		}},
		{family: "the runner's loader refused the model", want: "llamacpp-error-loading-model", bare: true, lines: []string{
			"Error: llama runner process no longer running: 1 error loading model: create_tensor: tensor 'blk.0.attn_q.weight' has wrong shape",
		}},
		{family: "the runner's loader missed a tensor the architecture needs", want: "llamacpp-missing-tensor", bare: true, lines: []string{
			"Error: llama runner process has terminated: error loading model: done_getting_tensors: wrong number of tensors; expected 292, got 291",
			ollamaLog("ERROR", "sched.go:455", "error loading llama server", "llama runner process has terminated: exit status 0xc0000409 error loading model: check_tensor_dims: tensor 'output.weight' not found"),
		}},
		{family: "the runner aborted on a context it cannot shift", want: "llamacpp-k-shift-unsupported", bare: true, lines: []string{
			"Nov 18 11:02:34 gpu-3 ollama[1187]: /go/src/github.com/ollama/ollama/llm/llama.cpp/src/llama.cpp:18168: Deepseek2 does not support K-shift",
		}},
		{family: "llama-server could not initialise CUDA", want: "cuda-unknown-error", bare: true, lines: []string{
			"Dec 02 08:14:09 gpu-3 ollama[2211]: " + cudaInit("CUDA", "unknown error"),
		}},
		{family: "near misses: llama-server notices", bare: true, lines: []string{
			ollamaLog("INFO", "llama_server.go:1295", "waiting for llama-server to start responding", ""),
			ollamaLog("INFO", "llama_server.go:1365", "llama-server started in 2.10 seconds", ""),
			ollamaLog("INFO", "llama_server.go:1340", "waiting for llama-server to become available", "") + " status=\"llm server loading model\"",
		}},
	}},
}

// tgiFatals lists the TGI launcher's and router's wordings of refused
// arguments and failed warmups.
var tgiFatals = []engineComponent{
	{name: "launcher and router: arguments", families: []raiseFamily{
		{family: "arguments the launcher or router refuses", want: "tgi-argument-validation", bare: true, lines: []string{
			"Error: ArgumentValidation(\"`max_input_tokens`(32768) must be < `max_total_tokens`(32768)\")",
			": ArgumentValidation(\"`max_input_tokens`(8193) must be < `max_total_tokens`(8192)\")\n--\n \nAny idea how to fix it?",
			"ArgumentValidation(\"`max_batch_prefill_tokens` must be >= `max_input_tokens`. Given: 4096 and 8000\")",
			"Error: ArgumentValidation(\"Both `max_input_tokens` (4096) and `max_input_length` (4096) are set. Please define only `max_input_tokens` as `max_input_length is deprecated for naming consistency.\")",
			"Error: ArgumentValidation(\"`num_shard` cannot be < 1\")",
			"thread 'main' panicked at '`max_input_length` must be < `max_total_tokens`', router/src/main.rs:98:9",
			"thread 'main' panicked at '`max_total_tokens` must be <= `max_batch_total_tokens`. Given: 4096 and 2048', router/src/main.rs:108:9\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
			"Error: Argument validation error: `max_input_tokens` must be < `max_total_tokens`",
			tgiLauncher("ERROR", "Webserver Crashed") + "\nError: ArgumentValidation(\"`validation_workers` must be > 0\")",
		}},
		{family: "near misses: the launcher's limits", bare: true, lines: []string{
			tgiLauncher(" INFO", "Default `max_input_tokens` to 4095"),
			tgiLauncher(" INFO", "Default `max_total_tokens` to 4096"),
			tgiLauncher(" INFO", "Default `max_batch_prefill_tokens` to 4145"),
			"2024-03-01T10:00:00.000000Z  WARN text_generation_router: router/src/main.rs:372: `--max-input-length` is deprecated and will be removed, use `--max-input-tokens` instead",
		}},
	}},
	{name: "launcher: lifecycle", families: []raiseFamily{
		{family: "a starting shard's status channel closed", want: "tgi-shard-failed-to-start", bare: true, lines: []string{
			tgiLauncher("ERROR", "Shard status channel disconnected") + "\nError: ShardDisconnected",
		}},
		{family: "the download step failed", want: "tgi-download-error", bare: true, lines: []string{
			"2024-03-01T10:00:00.000000Z ERROR download: text_generation_launcher: Download encountered an error: \n2024-03-01T10:00:00.000000Z  INFO text_generation_launcher: Args { model_id: \"bigscience/bloom-560m\" }",
		}},
		{family: "the router could not be started", want: "tgi-webserver-failed", bare: true, lines: []string{
			tgiLauncher("ERROR", "Failed to start webserver: No such file or directory (os error 2)") + "\n" + tgiLauncher("ERROR", "text-generation-router not found in PATH") + "\nError: WebserverCannotStart",
		}},
		{family: "near misses: lifecycle notices", bare: true, lines: []string{
			tgiLauncher(" INFO", "Starting download process."),
			tgiLauncher(" INFO", "Successfully downloaded weights for bigscience/bloom-560m"),
			tgiLauncher(" INFO", "Starting Webserver"),
			tgiLauncher(" INFO", "Shard ready in 9.52s rank=0"),
		}},
	}},
	{name: "shard: model initialisation", shapes: tgiInitShapes, families: []raiseFamily{
		{family: "the exception the shard logged leads", want: "tgi-unsupported-model-type", lines: []string{
			"ValueError: Unsupported model type minimax_m2",
		}},
		{family: "out of memory loading the weights", want: "cuda-out-of-memory", lines: []string{
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 896.00 MiB. GPU 0 has a total capacity of 22.05 GiB of which 402.00 MiB is free.",
		}},
	}},
	{name: "shard: model initialisation, cut", families: []raiseFamily{
		{family: "the shard's line alone", want: "tgi-shard-model-init-error", bare: true, lines: []string{
			tgiShard("ERROR", "Error when initializing model rank=0"),
			tgiLauncher("ERROR", "Error when initializing model") + "\nTraceback (most recent call last):\n" + `  File "/opt/conda/bin/text-generation-server", line 8, in <module>`,
		}},
		{family: "near misses: initialisation notices", bare: true, lines: []string{
			tgiShard(" INFO", "Server started at unix:///tmp/text-generation-server-0 rank=0"),
			tgiLauncher(" INFO", "Using default cuda graphs [1, 2, 4, 8, 16, 32]"),
		}},
	}},
	{name: "router: warmup", families: []raiseFamily{
		{family: "warmup out of the memory the fraction allows", want: "cuda-out-of-memory", bare: true, lines: []string{
			"thread 'main' panicked at 'Unable to warmup model: Generation(\"Allocation on device 1 would exceed allowed memory. (out of memory)\\nCurrently allocated     : 70.12 GiB\\nRequested               : 2.00 GiB\\nDevice limit            : 79.15 GiB\\nFree (according to CUDA): 19.12 MiB\\nPyTorch limit (set by user-supplied memory fraction)\\n                        : 71.24 GiB\")', router/src/main.rs:216:18",
			"Error: Backend(Warmup(Generation(\"Allocation on device 0 would exceed allowed memory. (out of memory)\\nCurrently allocated     : 20.01 GiB\\nRequested               : 1.50 GiB\\nDevice limit            : 23.65 GiB\\nFree (according to CUDA): 3.12 MiB\\nPyTorch limit (set by user-supplied memory fraction)\\n                        : 21.29 GiB\")))",
			"Error: Warmup(Generation(\"CUDA out of memory. Tried to allocate 1.02 GiB. GPU 0 has a total capacity of 79.15 GiB of which 512.00 MiB is free.\"))",
		}},
		{family: "warmup failed otherwise", want: "tgi-shard-method-error", bare: true, lines: []string{
			"thread 'main' panicked at 'Unable to warmup model: Generation(\"Unexpected response from the shard\")', router/src/main.rs:216:18",
			"Error: Warmup(Generation(\"Unexpected response from the shard\"))",
		}},
		{family: "near misses: warmup notices", bare: true, lines: []string{
			"2023-07-07T17:55:30.805488Z  INFO text_generation_router: router/src/main.rs:208: Warming up model",
			"2023-07-07T17:55:40.805488Z  WARN text_generation_router: router/src/main.rs:218: Model does not support automatic max batch total tokens",
		}},
	}},
	{name: "shard: warmup", shapes: tgiWarmupShapes, families: []raiseFamily{
		{family: "out of the memory the fraction allows", want: "cuda-out-of-memory", lines: []string{
			"torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)",
		}},
	}},
}

// tgiInitShapes: an exception a TGI shard raises while it builds the
// model, as the shard logs it (its "Error when initializing model" line,
// then the traceback) through the launcher, and bare.
func tgiInitShapes(exc string) []string {
	relayed := tgiLauncher("ERROR", "Error when initializing model") + "\n" +
		"Traceback (most recent call last):\n" +
		`  File "/opt/conda/bin/text-generation-server", line 8, in <module>` + "\n" +
		"    sys.exit(app())\n" +
		`  File "/usr/src/server/text_generation_server/server.py", line 268, in serve_inner` + "\n" +
		"    model = get_model_with_lora_adapters(\n" +
		exc + "\n" +
		tgiLauncher("ERROR", "Shard 0 failed to start") + "\nError: ShardCannotStart"
	return []string{relayed, rawTB(exc)}
}

// lmdeployFatals lists TurboMind's failed checks in each release's words.
var lmdeployFatals = []engineComponent{
	{name: "TurboMind: checks", families: []raiseFamily{
		{family: "a check failed", want: "lmdeploy-turbomind-assertion", bare: true, lines: []string{
			"[TM][FATAL] models/llama/LlamaBatch.cc(1156): Check failed: r->session.step <= max_context_len  \nAborted (core dumped)",
			"Crash with log:\n`[TM][FATAL] kernels/attention/attention.cu(88): Check failed: params.size_per_head == 128 head size not supported.`",
			"[TM][FATAL][1207.07:09:50.123456][LlamaBatch.cc:812] Check failed: (n_tokens) <= (max_forward_token_num_) (9000 vs. 8192) ",
			"[TM][FATAL] models/llama/LlamaWeight.cc(71): 'weights_' Must be non NULL",
			"RuntimeError: [TM][ERROR]  Assertion fail: /lmdeploy/src/turbomind/kernels/gemm/gemm.cu:120",
			lmdeployLog("ERROR", "turbomind.py:412", "[TM][FATAL] models/llama/unified_decoder.cc(54): Check failed: tp_size_ == 1"),
		}},
		{family: "near misses: TurboMind notices", bare: true, lines: []string{
			"[TM][INFO][1207.07:09:50.123456][LlamaBatch.cc:300] [Init] max_forward_token_num = 8192",
			"[TM][WARNING] [LlamaTritonModel] `session_len` is not set, default to 32768. Check failed requests in the log.",
			"F1207 07:09:50.123456 812 tcp_store.cc:44] Check failed: port > 0",
		}},
	}},
}

// trtllmFatals lists TensorRT-LLM's C++ runtime refusing a request longer
// than its engine, as the runtime logs it and as Triton relays it.
var trtllmFatals = []engineComponent{
	{name: "C++ runtime: request limits", families: []raiseFamily{
		{family: "a prompt longer than the engine's input length", want: "trtllm-prompt-exceeds-max-input-len", bare: true, lines: []string{
			"[TensorRT-LLM][ERROR] Cannot process new request: [TensorRT-LLM][ERROR] Assertion failed: Prompt length (8193) exceeds maximum input length (8192). Set log level to info and check TRTGptModel logs for how maximum input length is set (/app/tensorrt_llm/cpp/include/tensorrt_llm/batch_manager/llmRequest.h:493)",
			"[TensorRT-LLM][ERROR] Cannot process new request: Prompt length + number of draft tokens (2046 + 4) exceeds maximum input length (2048).",
			tritonLog('E', "model_instance_state.cc:1117", "Cannot process new request: [TensorRT-LLM][ERROR] Assertion failed: Prompt length (30) exceeds maximum input length (0). Set log level to info and check TRTGptModel logs for how maximum input length is set"),
			"RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Input length (3000) + max new tokens (2000) must be less than max sequence length (4096).",
		}},
		{family: "near misses: limit notices", bare: true, lines: []string{
			"[TensorRT-LLM][WARNING] Prompt length + number of requested output tokens (4000 + 200) exceeds maximum sequence length (4096). Number of requested output tokens is changed to (96).",
			"[TensorRT-LLM][INFO] TRTGptModel maxInputLen: 8192 = maxSequenceLen - 1 since chunked context is enabled",
			"[TensorRT-LLM][INFO] TRTGptModel maxSequenceLen: 8192",
		}},
	}},
}

// vllmFatals lists vLLM's refusal of LoRA on a model class without it, in
// each release's words, as the engine core and its workers log it.
var vllmFatals = []engineComponent{
	{name: "worker: LoRA set-up", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "a model class without LoRA support", want: "vllm-model-lora-unsupported", lines: []string{
			"ValueError: Model QWenLMHeadModel does not support LoRA, but LoRA is enabled. Support for this model may be added in the future. If this is important to you, please open an issue on github.",
			"ValueError: Qwen2VLForConditionalGeneration does not support LoRA yet.",
			"AssertionError: V1 does not support LoRA yet.",
		}},
	}},
	{name: "worker: LoRA set-up, multiproc workers", families: []raiseFamily{
		{family: "a model class without LoRA support", want: "vllm-model-lora-unsupported", bare: true, lines: []string{
			vllmLog("(Worker_TP1 pid=1744)", "ERROR", "multiproc_executor.py:749", "ValueError: MiniMaxM2ForCausalLM does not support LoRA yet."),
		}},
		{family: "near misses: LoRA notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=17)", "WARNING", "lora_model_runner_mixin.py:40", "Regarding multimodal models, vLLM currently only supports adding LoRA to language model."),
			vllmLog("(EngineCore_DP0 pid=17)", "INFO", "punica_selector.py:19", "Using PunicaWrapperGPU."),
		}},
	}},
}

// engineFatalsAll lists every engine's third-round components.
var engineFatalsAll = []engineWordings{
	{engine: "llamacpp", components: llamacppFatals},
	{engine: "ollama", components: ollamaFatals},
	{engine: "tgi", components: tgiFatals},
	{engine: "lmdeploy", components: lmdeployFatals},
	{engine: "trtllm", components: trtllmFatals},
	{engine: "vllm", components: vllmFatals},
}

// TestEngineFatalWordings is TestEngineWordings over the third-round
// families: each is led by its record, read as its engine's log, and the
// lead advises that engine's operator.
func TestEngineFatalWordings(t *testing.T) { checkEngineFamilies(t, engineFatalsAll) }

// engineFatalsWidened are the lines of the catalog's engine-neutral records
// the third-round families widened.
var engineFatalsWidened = map[string]example{
	"cuda-unknown-error": {
		match: []string{"ggml_cuda_init: failed to initialize CUDA: unknown error"},
		miss:  []string{"ggml_cuda_init: found 1 CUDA devices:"},
	},
	"cuda-initialization-error": {
		match: []string{"ggml_cuda_init: failed to initialize CUDA: initialization error"},
	},
	"cuda-error-out-of-memory": {
		match: []string{"ggml_cuda_init: failed to initialize ROCm: out of memory"},
	},
	"cuda-out-of-memory": {
		match: []string{
			"torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\nCurrently allocated     : 16.08 GiB\nRequested               : 4.83 GiB",
		},
		miss: []string{"PyTorch limit (set by user-supplied memory fraction): 22.20 GiB"},
	},
}

func init() { addExamples(nil, engineFatalsWidened) }
