package catalog_test

import (
	"strings"
	"testing"
)

// The second round of the other engines' failure wordings: the native
// backends of llama.cpp (ggml's CUDA, Vulkan and Metal errors, the
// server's decode and batch refusals, chat templates), Ollama's server
// and CLI around its runner, TensorRT's builder and plugin registry and
// the MPI launcher TensorRT-LLM runs under, TurboMind's fatal C++ errors,
// and vLLM's LoRA loading, multimodal budgets and compile path. Lines are
// composed the way each process prints them; every family names the
// record that must lead when the sidecar reads that engine's log, and the
// near misses are the same components' routine lines.

// ggmlCUDAError writes a ggml CUDA error the way ggml_cuda_error prints
// it: the CUDA message, the device and function, the failing call, then
// the abort line of the file that checked it.
func ggmlCUDAError(msg, function, call string) string {
	return "CUDA error: " + msg + "\n" +
		"  current device: 0, in function " + function + " at /app/ggml/src/ggml-cuda/ggml-cuda.cu:412\n" +
		"  " + call + "\n" +
		"/app/ggml/src/ggml-cuda/ggml-cuda.cu:84: CUDA error"
}

// llamacppRaises lists the second round of llama.cpp's families.
var llamacppRaises = []engineComponent{
	{name: "ggml backends: device errors", families: []raiseFamily{
		{family: "the CUDA pool ran out of memory", want: "cuda-error-out-of-memory", bare: true, lines: []string{
			ggmlCUDAError("out of memory", "ggml_cuda_pool_malloc_leg", "cudaMalloc((void **) &ptr, look_ahead_size)"),
			"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory",
		}},
		{family: "a build without kernels for this GPU", want: "cuda-no-kernel-image", bare: true, lines: []string{
			ggmlCUDAError("no kernel image is available for execution on the device", "ggml_cuda_compute_forward", "err"),
		}},
		{family: "Vulkan device memory exhausted", want: "ggml-vulkan-out-of-device-memory", bare: true, lines: []string{
			"ggml_vulkan: Device memory allocation of size 4294967296 failed.\nggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory",
			"ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory",
			"terminate called after throwing an instance of 'vk::OutOfDeviceMemoryError'\n  what():  vk::Device::allocateMemory: ErrorOutOfDeviceMemory",
		}},
		{family: "the Vulkan build found no device", want: "ggml-vulkan-no-devices", bare: true, lines: []string{
			"ggml_vulkan: No devices found.\nload_tensors: offloaded 0/37 layers to GPU",
		}},
		{family: "Metal out of memory", want: "ggml-metal-out-of-memory", bare: true, lines: []string{
			"ggml_metal_graph_compute: command buffer 0 failed with status 5\nerror: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)",
			"ggml_backend_metal_buffer_type_alloc_buffer: error: failed to allocate buffer, size = 16384.00 MiB",
		}},
		{family: "no CUDA device visible", want: "no-cuda-gpus-available", bare: true, lines: []string{
			"ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected",
		}},
		{family: "a driver older than the build's toolkit", want: "cuda-ptx-unsupported-toolchain", bare: true, lines: []string{
			ggmlCUDAError("the provided PTX was compiled with an unsupported toolchain.", "ggml_cuda_compute_forward", "err"),
		}},
		{family: "the weights' buffer does not fit the device", want: "llamacpp-failed-to-allocate-buffer", bare: true, lines: []string{
			"llama_model_load: error loading model: unable to allocate CUDA0 buffer",
			"llama_model_load: error loading model: unable to allocate backend buffer",
		}},
		{family: "near misses: device notices", bare: true, lines: []string{
			"ggml_cuda_init: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes",
			"ggml_vulkan: Found 1 Vulkan devices:\nggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) (radv) | uma: 0 | fp16: 1 | warp size: 64",
			"ggml_metal_init: recommendedMaxWorkingSetSize  = 22906.50 MB",
			"load_tensors:        CUDA0 model buffer size =  4403.49 MiB",
		}},
	}},
	{name: "llama-server: decode and batches", families: []raiseFamily{
		{family: "the KV cache has no slot for the batch", want: "llamacpp-kv-cache-full", bare: true, lines: []string{
			"decode: failed to find a memory slot for batch of size 512\nsrv  update_slots: failed to decode the batch: KV cache is full - try increasing it via the context size, i = 0, n_batch = 512, ret = 1",
			"srv  update_slots: failed to decode the batch: KV cache is full - try increasing it via the context size, i = 0, n_batch = 2048, ret = 1",
			"E decode: failed to find a memory slot for batch of size 1",
		}},
		{family: "an input longer than the physical batch", want: "llamacpp-input-exceeds-physical-batch", bare: true, lines: []string{
			"srv    send_error: task id = 3, error: input is too large to process. increase the physical batch size",
			`{"error":{"code":500,"message":"input is too large to process. increase the physical batch size","type":"server_error"}}`,
		}},
		{family: "near misses: slot notices", bare: true, lines: []string{
			"slot update_slots: id  0 | task 0 | kv cache rm [0, end)",
			"slot      release: id  0 | task 0 | stop processing: n_past = 1210, truncated = 0",
			"srv  update_slots: all slots are idle",
		}},
	}},
	{name: "llama-server: chat templates and files", families: []raiseFamily{
		{family: "a chat template the server cannot use", want: "llamacpp-chat-template-unsupported", bare: true, lines: []string{
			"error: the supplied chat template is not supported: mytemplate\nnote: llama.cpp was started without --jinja, we only support commonly used templates",
			"terminate called after throwing an instance of 'std::runtime_error'\n  what():  error: the supplied chat template is not supported: chatml2",
		}},
		{family: "a GGUF path that cannot be opened", want: "llamacpp-gguf-file-open-failed", bare: true, lines: []string{
			"gguf_init_from_file: failed to open GGUF file '/models/qwen3-8b.gguf' (No such file or directory)",
			"gguf_init_from_file: failed to open '/models/qwen3-8b.gguf': 'No such file or directory'",
		}},
		{family: "the model did not load, in the older server's JSON lines", want: "llamacpp-server-model-load-failed", bare: true, lines: []string{
			`{"tid":"140234","timestamp":1718000000,"level":"ERROR","function":"load_model","line":674,"msg":"unable to load model","model":"/models/qwen2-7b.gguf"}`,
			"main: error: unable to load model",
		}},
		{family: "a flag this build does not take", want: "llamacpp-invalid-argument", bare: true, lines: []string{
			"error while handling argument \"--flash-attn\": expected value for argument\n\nusage:\n-fa,   --flash-attn [on|off|auto]       set Flash Attention use ('on', 'off', or 'auto', default: 'auto')",
			"error while handling argument \"-ngl\": stoi",
			"error: invalid argument: --no-kv-offloadx",
		}},
		{family: "near misses: template notices", bare: true, lines: []string{
			"main: chat template, chat_template: {%- for message in messages -%}, example_format: '<|im_start|>system'",
			"srv          init: chat template, thinking = 0",
			"llama_model_loader: loaded meta data with 34 key-value pairs and 399 tensors from /models/qwen3-8b.gguf (version GGUF V3 (latest))",
		}},
	}},
}

// ollamaRaises lists the second round of Ollama's families: the CLI, the
// server's handlers, and GPU discovery.
var ollamaRaises = []engineComponent{
	{name: "CLI and server reachability", families: []raiseFamily{
		{family: "the CLI finds no server", want: "ollama-server-not-running", bare: true, lines: []string{
			"Error: could not connect to ollama app, is it running?",
			"Error: could not connect to ollama server, run 'ollama serve' to start it",
		}},
		{family: "the runner dropped a request it was serving", want: "ollama-runner-connection-lost", bare: true, lines: []string{
			`Error: POST predict: Post "http://127.0.0.1:41413/completion": EOF`,
			`Error: 500 Internal Server Error: do load request: Post "http://127.0.0.1:38873/load": EOF`,
			ollamaLog("INFO", "sched.go:446", "Load failed", `do load request: Post \"http://127.0.0.1:62439/load\": read tcp 127.0.0.1:62444->127.0.0.1:62439: wsarecv: An existing connection was forcibly closed by the remote host.`),
			ollamaLog("ERROR", "server.go:725", "post predict", `Post \"http://127.0.0.1:39181/completion\": read tcp 127.0.0.1:52114->127.0.0.1:39181: read: connection reset by peer`),
		}},
		{family: "a model newer than the server, refused at pull", want: "ollama-model-incompatible-version", bare: true, lines: []string{
			"Error: pull model manifest: 412: The model you are attempting to pull requires a newer version of Ollama.",
			"Error: pull model manifest: 412:\nThe model you are attempting to pull requires a newer version of Ollama that may be in pre-release.",
		}},
		{family: "the registry cannot be reached", want: "ollama-registry-unreachable", bare: true, lines: []string{
			`Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/llama3/manifests/latest": dial tcp: lookup registry.ollama.ai on 127.0.0.53:53: server misbehaving`,
		}},
		{family: "the models directory is not writable", want: "ollama-models-dir-permission-denied", bare: true, lines: []string{
			"Error: open /usr/share/ollama/.ollama/models/blobs/sha256-3f2a9c0e-partial: permission denied",
			ollamaLog("ERROR", "images.go:1032", "pull failed", "mkdir /data/ollama/models/manifests: permission denied"),
			"Error: mkdir /mnt/models/blobs: permission denied",
		}},
		{family: "the runner could not place the weights", want: "llamacpp-failed-to-allocate-buffer", or: "ollama-runner-terminated", bare: true, lines: []string{
			"Error: llama runner process has terminated: error loading model: unable to allocate CUDA0 buffer",
		}},
		{family: "near misses: CLI notices", bare: true, lines: []string{
			ollamaLog("INFO", "server.go:1289", "llama runner started in 3.52 seconds", ""),
			`[GIN] 2026/05/28 - 00:11:09 | 200 |  2.310742134s |       127.0.0.1 | POST     "/api/chat"`,
		}},
	}},
	{name: "models: capabilities", families: []raiseFamily{
		{family: "a capability the model does not have", want: "ollama-model-capability-unsupported", bare: true, lines: []string{
			`{"error":"registry.ollama.ai/library/gemma3:4b does not support tools"}`,
			`Error: "deepseek-r1:7b" does not support insert`,
			`Error: registry.ollama.ai/library/llama3.2:latest does not support thinking`,
			`[GIN] 2026/05/28 - 00:11:09 | 400 |    2.1534ms |       127.0.0.1 | POST     "/api/chat"` + "\n" + `{"error":"registry.ollama.ai/library/phi3:mini does not support tools"}`,
		}},
		{family: "near misses: capability notices", bare: true, lines: []string{
			"    capabilities\n      completion\n      tools",
		}},
	}},
	{name: "GPU discovery", families: []raiseFamily{
		{family: "the CUDA driver did not initialise", want: "ollama-cuda-driver-init-failed", bare: true, lines: []string{
			ollamaLog("WARN", "gpu.go:669", "unable to load cuda driver library", "cuda driver library init failure: 999") + " library=/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15",
			ollamaLog("INFO", "gpu.go:627", "Unable to load cudart library /usr/lib/ollama/libcudart.so.12.4.127: cudart init failure: 35", ""),
		}},
		{family: "discovery of a library failed", want: "ollama-gpu-discovery-failed", bare: true, lines: []string{
			ollamaLog("INFO", "runner.go:464", "failure during GPU discovery", "failed to finish discovery before timeout") + " OLLAMA_LIBRARY_PATH=[/usr/lib/ollama /usr/lib/ollama/rocm]",
		}},
		{family: "near misses: discovery notices", bare: true, lines: []string{
			ollamaLog("INFO", "gpu.go:221", "looking for compatible GPUs", ""),
			ollamaLog("INFO", "gpu.go:386", "no compatible GPUs were discovered", ""),
		}},
	}},
}

// trtllmRaises lists the second round of TensorRT-LLM's families: the
// C++ runtime's CUDA errors, TensorRT's builder and plugin registry, and
// the MPI launcher.
var trtllmRaises = []engineComponent{
	{name: "C++ runtime: CUDA", families: []raiseFamily{
		{family: "the runtime ran out of device memory", want: "cuda-error-out-of-memory", bare: true, lines: []string{
			"[TensorRT-LLM][ERROR] CUDA runtime error in cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)",
		}},
		{family: "a step that failed on a kernel fault", want: "cuda-illegal-memory-access", bare: true, lines: []string{
			"[TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] CUDA runtime error in cudaMemcpyAsync(dst, src.data(), src.getSizeInBytes(), cudaMemcpyDefault, mStream->get()): an illegal memory access was encountered (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/bufferManager.cpp:120)",
		}},
		{family: "a step that failed otherwise", want: "trtllm-forward-async-error", bare: true, lines: []string{
			"[TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: std::bad_alloc",
			`{"error":"Error during inference of request chat-50f33d67 -- Encountered an error in forwardAsync function: vector::_M_range_check: __n (which is 4) >= this->size() (which is 4)"}`,
		}},
		{family: "the runtime library is missing", want: "shared-library-not-found", lines: []string{
			"ImportError: libtensorrt_llm.so: cannot open shared object file: No such file or directory",
		}},
		{family: "near misses: runtime notices", bare: true, lines: []string{
			"[TensorRT-LLM][INFO] Memory usage when calculating max tokens in paged kv cache: total: 79.11 GiB, available: 11.33 GiB",
			"[TensorRT-LLM][INFO] Number of blocks in KV cache primary pool: 5120",
		}},
	}},
	{name: "TensorRT builder and plugins", families: []raiseFamily{
		{family: "the builder ran out of memory", want: "tensorrt-out-of-memory", bare: true, lines: []string{
			"[11/07/2025-17:42:32] [TRT] [E] [virtualMemoryBuffer.cpp::resizePhysical::154] Error Code 2: OutOfMemory (Requested size was 2833252352 bytes.)",
			"[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)",
			"[TRT] [E] [executionContext.cpp::initializeExecutionContext::625] Error Code 2: OutOfMemory (Requested size was 20132809216 bytes.)",
		}},
		{family: "a plugin the registry does not hold", want: "tensorrt-plugin-not-found", bare: true, lines: []string{
			"[TRT] [E] 1: [pluginV2Runner.cpp::load::300] Error Code 1: Serialization (Serialization assertion creator failed.Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry)",
			"[TRT] [E] getPluginCreator could not find plugin: GPTAttention version: 1",
		}},
		{family: "an engine from another TensorRT", want: "trtllm-engine-incompatible", bare: true, lines: []string{
			"[TRT] [E] IRuntime::deserializeCudaEngine: Error Code 6: API Usage Error (The engine plan file is not compatible with this version of TensorRT, expecting library version 10.3.0.26 got 10.1.0.27, please rebuild.)",
		}},
		{family: "near misses: builder notices", bare: true, lines: []string{
			"[TRT] [W] Requested amount of GPU memory (1073741824 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.",
			"[TRT] [I] Total Activation Memory: 2147483648 bytes",
			"[TRT] [I] [MemUsageChange] TensorRT-managed allocation in building engine: CPU +0, GPU +4096, now: CPU 0, GPU 4096 (MiB)",
		}},
	}},
	{name: "MPI launcher", families: []raiseFamily{
		{family: "ranks that do not match the engine's parallelism", want: "trtllm-world-size-mismatch", bare: true, lines: []string{
			"[TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:99)",
			"RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: MPI size 1 != TP size 2 * PP size 1 (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:102)",
		}},
		{family: "mpirun refuses root", want: "mpi-run-as-root-refused", bare: true, lines: []string{
			"--------------------------------------------------------------------------\nmpirun has detected an attempt to run as root.\n\nRunning as root is *strongly* discouraged as any mistake (e.g., in\ndefining TMPDIR) or bug can result in catastrophic damage to the OS\nfile system, leaving your system in an unusable state.",
		}},
		{family: "more ranks than slots", want: "mpi-not-enough-slots", bare: true, lines: []string{
			"--------------------------------------------------------------------------\nThere are not enough slots available in the system to satisfy the 4\nslots that were requested by the application:\n\n  python3\n\nEither request fewer slots for your application, or make more slots\navailable for use.",
		}},
		{family: "a rank aborted the job", want: "mpi-abort", bare: true, lines: []string{
			"--------------------------------------------------------------------------\nMPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD\nwith errorcode 1.\n\nNOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.",
		}},
		{family: "near misses: launcher notices", bare: true, lines: []string{
			"[TensorRT-LLM][INFO] Initializing MPI with thread mode 3",
			"[TensorRT-LLM][INFO] MPI size: 2, MPI local size: 2, rank: 0",
		}},
	}},
}

// lmdeployRaises lists TurboMind's fatal C++ errors, as the process
// prints them when a worker thread throws.
var lmdeployRaises = []engineComponent{
	{name: "TurboMind: fatal CUDA errors", families: []raiseFamily{
		{family: "out of device memory", want: "cuda-error-out-of-memory", bare: true, lines: []string{
			"terminate called after throwing an instance of 'std::runtime_error'\n  what():  [TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/utils/allocator.h:246",
		}},
		{family: "a kernel fault", want: "lmdeploy-turbomind-cuda-error", or: "cuda-illegal-memory-access", bare: true, lines: []string{
			"terminate called after throwing an instance of 'std::runtime_error'\n  what():  [TM][ERROR] CUDA runtime error: an illegal memory access was encountered /lmdeploy/src/turbomind/models/llama/LlamaBatch.cc:1455",
		}},
		{family: "near misses: TurboMind notices", bare: true, lines: []string{
			"[TM][WARNING] [ProcessInferRequests] [2] total sequence length (12817 + 183791) exceeds session_len (42880), max_new_tokens is truncated to 30063",
			"[TM][WARNING] [LlamaTritonModel] `max_context_token_num` is not set, default to 32768.",
			"[TM][INFO] [BlockManager] block_size = 1 MB",
		}},
	}},
}

// tgiWarmupShapes: an exception in a TGI shard's warmup, as the shard
// logs it through the launcher (the interceptor's line, then the
// traceback), followed by the router's and the launcher's verdicts.
func tgiWarmupShapes(exc string) []string {
	last := exc[strings.LastIndex(exc, "\n")+1:]
	msg := last[strings.Index(last, ": ")+2:]
	relayed := "2024-12-11T10:04:03.877415Z ERROR text_generation_launcher: Method Warmup encountered an error.\n" +
		"Traceback (most recent call last):\n" +
		`  File "/opt/conda/bin/text-generation-server", line 8, in <module>` + "\n" +
		"    sys.exit(app())\n" +
		`  File "/usr/src/server/text_generation_server/models/flash_causal_lm.py", line 1421, in warmup` + "\n" +
		"    _, _batch, _ = self.generate_token(batch)\n" +
		exc + "\n" +
		"2024-12-11T10:04:03.880000Z ERROR warmup{max_input_length=Some(4095) max_prefill_tokens=4096 max_total_tokens=Some(4096) max_batch_size=None}:warmup: text_generation_router_v3::client: backends/v3/src/client/mod.rs:45: Server error: " + msg + "\n" +
		"Error: Backend(Warmup(Generation(\"" + msg + "\")))"
	return []string{relayed, rawTB(exc)}
}

// tgiRaises lists TGI's warmup failures, relayed through the launcher,
// and the launcher's command-line parser.
var tgiRaises = []engineComponent{
	{name: "launcher: command line", families: []raiseFamily{
		{family: "a flag or value the launcher's parser refuses", want: "tgi-launcher-argument-rejected", bare: true, lines: []string{
			"error: unexpected argument '--max-input-length' found\n\n  tip: a similar argument exists: '--max-input-tokens'\n\nUsage: text-generation-launcher <--model-id <MODEL_ID>|--revision <REVISION>>\n\nFor more information, try '--help'.",
			"error: invalid value 'fp9' for '--quantize <QUANTIZE>'\n  [possible values: awq, compressed-tensors, eetq, exl2, gptq, marlin, bitsandbytes, bitsandbytes-nf4, bitsandbytes-fp4, fp8]",
			"error: Found argument '--max-input-length' which wasn't expected, or isn't valid in this context",
		}},
		{family: "near misses: launcher notices", bare: true, lines: []string{
			"2024-03-01T10:00:00.000000Z  INFO text_generation_launcher: Args {\n    model_id: \"bigscience/bloom-560m\",\n    quantize: None,\n}",
			"2024-03-01T10:00:00.000000Z  INFO text_generation_launcher: Default `max_input_tokens` to 4095",
		}},
	}},
	{name: "shard: warmup", shapes: tgiWarmupShapes, families: []raiseFamily{
		{family: "out of memory warming up", want: "cuda-out-of-memory", lines: []string{
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.02 GiB. GPU 0 has a total capacity of 79.15 GiB of which 512.00 MiB is free.",
		}},
		{family: "a kernel fault warming up", want: "cuda-illegal-memory-access", lines: []string{
			"RuntimeError: CUDA error: an illegal memory access was encountered",
		}},
		{family: "a graph capture that failed", want: "cuda-operation-not-permitted-when-capturing", lines: []string{
			"RuntimeError: CUDA error: operation not permitted when stream is capturing",
		}},
		{family: "tensors on two devices", want: "tensors-on-different-devices", lines: []string{
			"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
		}},
		{family: "a traceback cut before its exception", want: "tgi-shard-method-error", bare: true, lines: []string{
			"2024-12-11T10:04:03.877415Z ERROR text_generation_launcher: Method Warmup encountered an error.\n" +
				"Traceback (most recent call last):\n" +
				`  File "/opt/conda/bin/text-generation-server", line 8, in <module>` + "\n" +
				"    sys.exit(app())",
			"2024-03-01T10:00:00.000000Z ERROR text_generation_launcher: Method Prefill encountered an error.",
		}},
		{family: "near misses: warmup notices", bare: true, lines: []string{
			"2024-12-11T10:04:00.802105Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model",
			"2024-12-11T10:04:03.592966Z  INFO text_generation_launcher: KV-cache blocks: 2484579, size: 1",
			"2024-12-11T10:04:03.614039Z  INFO text_generation_launcher: Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]",
			"2024-03-01T10:00:00.000000Z  INFO text_generation_launcher: Using exllama kernels",
		}},
	}},
}

// tritonLog writes msg the way Triton's server logs it with glog.
func tritonLog(level byte, file, msg string) string {
	return string(level) + "0625 12:00:00.123456 1 " + file + "] " + msg
}

// tritonServerRaises lists Triton Inference Server's model loading failures with
// the TensorRT-LLM and Python backends.
var tritonServerRaises = []engineComponent{
	{name: "model repository and loading", families: []raiseFamily{
		{family: "a model whose backend raised: the backend's error leads", want: "trtllm-world-size-mismatch", bare: true, lines: []string{
			tritonLog('E', "model_lifecycle.cc:626", "failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/tmp/tritonbuild/tensorrtllm/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:99)"),
		}},
		// The module error Triton quotes after its status leads: the
		// wrapper gives way to the cause it carries.
		{family: "a python-backend model missing a package", want: "python-module-not-found", bare: true, lines: []string{
			tritonLog('E', "model_lifecycle.cc:626", "failed to load 'preprocessing' version 1: Internal: ModuleNotFoundError: No module named 'transformers'"),
		}},
		{family: "a model that failed otherwise", want: "triton-model-load-failed", bare: true, lines: []string{
			tritonLog('E', "model_lifecycle.cc:626", "failed to load 'tensorrt_llm' version 1: Invalid argument: unable to parse 'max_tokens_in_paged_kv_cache': ${max_tokens_in_paged_kv_cache}"),
		}},
		{family: "a model directory Triton cannot read", want: "triton-model-repository-invalid", bare: true, lines: []string{
			tritonLog('E', "model_repository_manager.cc:1186", "Poll failed for model directory 'ensemble': failed to open text file for read /models/ensemble/config.pbtxt: No such file or directory"),
			// A model loaded by name that no repository holds
			// (triton-inference-server/core#244, model_analyzer#786).
			"E0817 19:18:51.786824 2997733 model_repository_manager.cc:1265] failed to poll model 'dne': model not found in any model repository.",
			"E1107 07:34:03.823179 7 model_repository_manager.cc:1265] failed to poll model 'pipe': model not found in any model repository.",
		}},
		{family: "near misses: repository notices", bare: true, lines: []string{
			tritonLog('I', "model_lifecycle.cc:818", "successfully loaded 'tensorrt_llm' version 1"),
			tritonLog('I', "grpc_server.cc:2463", "Started GRPCInferenceService at 0.0.0.0:8001"),
			tritonLog('I', "http_server.cc:4692", "Started HTTPService at 0.0.0.0:8000"),
		}},
	}},
}

// lmdeployChecks lists the failures LMDeploy's start-up checks and
// request sessions log through its Python logger.
var lmdeployChecks = []engineComponent{
	{name: "start-up checks: the model's config", families: []raiseFamily{
		{family: "a model type this transformers does not know", want: "transformers-unknown-model-type", bare: true, lines: []string{
			lmdeployLog("ERROR", "base.py:55", "ValueError: The checkpoint you are trying to load has model type `qwen3_5_moe` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.") + "\n" +
				lmdeployLog("ERROR", "base.py:56", "<Model> check failed!"),
		}},
		// The check's own line after the import it tried: the missing
		// module leads, as a model type transformers does not know does
		// (lmdeploy#2443, #2714).
		{family: "a package the model's quantization needs is not installed", want: "python-module-not-found", bare: true, lines: []string{
			"2024-09-11 03:19:40,221 - lmdeploy - ERROR - ModuleNotFoundError: No module named 'awq'\n2024-09-11 03:19:40,221 - lmdeploy - ERROR - <autoawq> test failed!\nPlease ensure it has been installed correctly.",
			"2024-11-06 22:40:35,607 - lmdeploy - ERROR - __init__.py:17 - ModuleNotFoundError: No module named 'awq'\n2024-11-06 22:40:35,607 - lmdeploy - ERROR - __init__.py:18 - <autoawq> test failed!\nPlease ensure it has been installed correctly.",
		}},
		{family: "a kernel package the model needs", want: "lmdeploy-env-check-failed", bare: true, lines: []string{
			lmdeployLog("ERROR", "base.py:55", "AssertionError: DeepSeek-V3.2 requires flash_mla to be available.") + "\n" +
				lmdeployLog("ERROR", "base.py:56", "<Model> check failed!\nChecking failed with error DeepSeek-V3.2 requires flash_mla to be available."),
		}},
	}},
	{name: "request sessions", families: []raiseFamily{
		{family: "a prompt longer than the session", want: "lmdeploy-input-length-error", bare: true, lines: []string{
			lmdeployLog("ERROR", "async_engine.py:519", "session 88 finished, ResponseType.INPUT_LENGTH_ERROR, reason \"error\""),
		}},
		{family: "near misses: session notices", bare: true, lines: []string{
			lmdeployLog("INFO", "async_engine.py:519", "session 88 finished, ResponseType.FINISH, reason \"length\""),
			lmdeployLog("WARNING", "transformers.py:22", "LMDeploy requires transformers version: [4.33.0 ~ 4.57.3], but found version: 4.57.6"),
		}},
	}},
}

// vllmRaises lists vLLM's families beyond the first round: LoRA adapters
// loaded at run time, multimodal budgets, and the compile path.
var vllmRaises = []engineComponent{
	// vLLM's MooncakeConnector runs the same transfer engine as sglang's
	// PD path: its native lines must get Mooncake's own device settings,
	// not sglang's --disaggregation-ib-device.
	{name: "Mooncake KV transfer", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "a slice the RDMA path could not move", want: "mooncake-transfer-slice-failed", bare: true, lines: []string{
			"(EngineCore_DP0 pid=2207) E1213 02:57:10.528410  5811 worker_pool.cpp:274] Worker: Process failed for slice (opcode: 0, source_addr: 0x7efdf3ffd010, length: 404, dest_addr: 140532604981264, local_nic: mlx5_1, peer_nic: 10.0.0.2:8149@mlx5_0, dest_rkey: 2105088, retry_cnt: 0): transport retry counter exceeded",
			"E0603 20:16:59.104586 27322 worker_pool.cpp:271] Worker: Process failed for slice (opcode: 1, source_addr: 0x7f20fe0f1680, length: 65536, dest_addr: 0x7f3d820f3a80, local_nic: mlx5_7, peer_nic: 10.93.81.13:15729@mlx5_0, dest_rkey: 2116517, retry_cnt: 0): transport retry counter exceeded",
		}},
		{family: "a NIC marked inactive", want: "mooncake-rnic-marked-inactive", bare: true, lines: []string{
			"W0724 03:14:20.702893 104002 worker_pool.cpp:303] Too many errors found in local RNIC 10.0.2.69:15858@mlx5_bond_2, mark it inactive",
		}},
		{family: "a NIC that does not open", want: "mooncake-rdma-device-open-failed", bare: true, lines: []string{
			"(EngineCore_DP0 pid=2207) E0115 05:20:19.945159   309 rdma_context.cpp:81] Failed to open device mlx5_8 on port  with GID 0",
		}},
		{family: "the handshake's queue pair", want: "mooncake-handshake-modify-qp-failed", bare: true, lines: []string{
			"E0305 10:02:11.123456  4711 rdma_endpoint.cpp:330] [Handshake] Failed to modify QP to RTS: Connection timed out [110]",
		}},
	}},
	{name: "host memory", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "the OS refused an allocation", want: "host-cannot-allocate-memory", lines: []string{
			"OSError: [Errno 12] Cannot allocate memory",
		}},
	}},
	{name: "GPU kernels", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "a kernel that crashed on the GPU", want: "cuda-unspecified-launch-failure", lines: []string{
			"RuntimeError: CUDA error: unspecified launch failure",
		}},
	}},
	{name: "model resolution", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "the model's implementation did not import", want: "vllm-model-inspection-failed", lines: []string{
			"ValueError: Model architectures ['Qwen2ForCausalLM'] failed to be inspected. Please check the logs for more details.",
			"pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n  Value error, Model architectures ['Gemma4ForConditionalGeneration'] failed to be inspected. Please check the logs for more details. [type=value_error, input_value=ArgsKwargs((), {'model': 'google/gemma-4'}), input_type=ArgsKwargs]",
		}},
		{family: "the import's own error leads", want: "python-module-not-found", lines: []string{
			"ModuleNotFoundError: No module named 'flash_attn'\nValueError: Model architectures ['Qwen2ForCausalLM'] failed to be inspected. Please check the logs for more details.",
		}},
		{family: "no config where the model was looked for", want: "vllm-model-config-not-found", lines: []string{
			"ValueError: No supported config format found in meta-llama/Llama-3.3-70B-Instruct",
		}},
	}},
	{name: "LoRA loading", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "an adapter path with no adapter", want: "vllm-lora-adapter-not-found", lines: []string{
			"vllm.exceptions.LoRAAdapterNotFoundError: Loading lora sql-lora failed: No adapter found for /loras/sql-lora",
			"ValueError: Loading lora sql-lora failed: No adapter found for /loras/sql-lora",
		}},
	}},
	{name: "multimodal budgets", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "a multimodal item larger than a batch", want: "vllm-max-num-batched-tokens-too-small", lines: []string{
			"ValueError: Chunked MM input disabled but max_tokens_per_mm_item (16384) is larger than max_num_batched_tokens (8192). Please increase max_num_batched_tokens.",
		}},
	}},
	{name: "multimodal processors", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "placeholders that do not match the media", want: "vllm-multimodal-placeholder-mismatch", lines: []string{
			"ValueError: Attempted to assign 702 = 702 multimodal tokens to 703 placeholders",
			"ValueError: Attempted to assign 7 x 256 = 1792 multimodal tokens to 506 placeholders",
			"AssertionError: Failed to apply prompt replacement for mm_items['audio'][0]",
		}},
		{family: "near misses: processor notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=1)", "INFO", "gpu_model_runner.py:2602", "Encoder cache will be initialized with a budget of 16384 tokens, and profiled with 1 image items of the maximum feature size."),
		}},
	}},
	{name: "OpenAI server: multimodal prompts", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "text plus media longer than the context", want: "vllm-prompt-longer-than-max-model-len", lines: []string{
			"ValueError: The prompt (total length 9216) is too long to fit into the model (context length 8192). Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens. For image inputs, the number of image tokens depends on the number of images, and possibly their aspect ratios as well.",
		}},
	}},
	{name: "executor RPC", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "a worker did not answer a step", want: "vllm-worker-rpc-timeout", lines: []string{
			"TimeoutError: RPC call to execute_model timed out.",
			"TimeoutError: RPC call to sample_tokens timed out.",
		}},
	}},
	{name: "compile and CUDA graphs", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "capture hit a forbidden operation", want: "cuda-operation-not-permitted-when-capturing", lines: []string{
			"RuntimeError: CUDA error: operation not permitted when stream is capturing",
		}},
		{family: "the compiler backend failed", want: "torch-dynamo-backend-compiler-failed", lines: []string{
			"torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f3c2a1b4d10>' raised:\nException: Please convert all Tensors to FakeTensors first or instantiate FakeTensorMode with 'allow_non_fake_inputs'.",
		}},
	}},
	{name: "KV connectors", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "NIXL is not installed", want: "nixl-not-available", lines: []string{
			"RuntimeError: NIXL is not available",
		}},
		{family: "a connector name vLLM does not know", want: "kv-connector-unsupported", lines: []string{
			"ValueError: Unsupported connector type: NixlConnectorX",
		}},
	}},
}

// engineRaisesAll lists every engine's second-round components.
var engineRaisesAll = []engineWordings{
	{engine: "llamacpp", components: llamacppRaises},
	{engine: "ollama", components: ollamaRaises},
	{engine: "trtllm", components: trtllmRaises},
	{engine: "triton", components: tritonServerRaises},
	{engine: "lmdeploy", components: lmdeployRaises},
	{engine: "lmdeploy", components: lmdeployChecks},
	{engine: "tgi", components: tgiRaises},
	{engine: "vllm", components: vllmRaises},
}

// TestEngineRaises is TestEngineWordings over the second-round families:
// each is led by its record, read as its engine's log, and the lead
// advises that engine's operator.
func TestEngineRaises(t *testing.T) { checkEngineFamilies(t, engineRaisesAll) }

// engineRaisesWidened are the lines of the catalog's engine-neutral
// records the second-round families widened.
var engineRaisesWidened = map[string]example{
	"torch-dynamo-backend-compiler-failed": {
		match: []string{"torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f3c2a1b4d10>' raised:"},
		miss:  []string{"Compiling a graph for backend='<vllm.compilation.backends.VllmBackend object at 0x7f3c2a1b4d10>'"},
	},
}

func init() { addExamples(nil, engineRaisesWidened) }
