package catalog_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
)

// The routine wordings are the converse of the failure vocabularies: what a
// healthy sglang deployment prints while it starts, serves, turns away a
// client's mistake and shuts down gracefully, in sglang's own processes and
// in the libraries whose chatter reaches the same log. Each component lists
// its lines composed with the prefixes its writer really uses (sglang's
// "[time TPn]" header, the router's tracing layout, NCCL's "host:pid:tid
// [dev]", glog's "I0528 ...", uvicorn's "INFO:     ", a CRI log prefix),
// with plausible values in the placeholders. No line may alert: a record
// that claims one over-claims and must be narrowed, or the line is error
// level noise that an info record tagged routine annotates. The lists only
// grow.

// schedLog writes msg the way a scheduler process of a TP2 launch prefixes
// it; mainLog (catalog_test.go) writes the main process's header.
func schedLog(msg string) string { return "[2026-05-28 00:11:09 TP1] " + msg }

// smgLog writes msg the way the router (sgl-model-gateway) logs through
// tracing with its target, file and line.
func smgLog(level, target, file string, line int, msg string) string {
	return gatewayLog(level, "sgl_model_gateway::"+target, "src/"+file+":"+itoa(line)+": "+msg)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// cri prefixes a container's line the way the kubelet's CRI log files
// store it.
func cri(stream, line string) string {
	return "2026-05-28T00:11:09.418211234Z " + stream + " F " + line
}

// routineComponents lists, per component or library, the routine lines a
// healthy deployment prints.
var routineComponents = []struct {
	name  string
	lines []string
}{
	{"sglang launch: server_args decisions", []string{
		mainLog("Attention backend not explicitly specified. Use flashinfer backend by default."),
		mainLog("Automatically turn off --chunked-prefill-size as it is not supported for Qwen/Qwen2-VL-7B-Instruct"),
		mainLog("--grpc-mode is deprecated and will be removed in a future version. Use --smg-grpc-mode for the legacy SMG gRPC server, or --grpc-port for the native gRPC server."),
		mainLog("CUDA graph is disabled because --enable-mis is set."),
		mainLog("Symmetric memory is enabled, setting symmetric memory prealloc size to 4GB as default.Use environment variable SGLANG_SYMM_MEM_PREALLOC_GB_SIZE to change the prealloc size."),
		mainLog("Radix cache is disabled for Whisper"),
		mainLog("Overlap scheduler is disabled because of using eagle speculative decoding."),
		mainLog("Mixed chunked prefill is disabled because of using diffusion LLM inference."),
		mainLog("Pipeline parallelism is disabled because of using diffusion LLM inference"),
		mainLog("Kernel io backend does not support page first direct layout, switching to direct io backend"),
		mainLog("--keep-mm-feature-on-device is deprecated; using --mm-feature-transport=cuda_ipc instead."),
		mainLog("Fallback load_format to 'auto' due to incomplete remote instance weight loader settings."),
		mainLog("skip_tokenizer_init=True ignores --enable-tokenizer-batch-encode; disabling it."),
		mainLog("Currently radix cache is not compatible with flashinfer attention backend for deterministic inference. It will be supported in the future."),
		mainLog("--enable-lora is set to True because --lora-paths is provided."),
		mainLog("Piecewise CUDA graph is enabled, use MLA for prefill."),
		mainLog("Optimistic prefill does not support hierarchical cache"),
		mainLog("DeepSeek MTP does not require setting speculative_draft_model_path."),
		mainLog("DP attention is enabled. The chunked prefill size is adjusted to 4096 to avoid MoE kernel issues."),
		mainLog("The expert parallel size is adjusted to be the same as the tensor parallel size[8]."),
		mainLog("Mooncake MoE is enabled. The expert parallel size is adjusted to be the same as the tensor parallel size[8]."),
		mainLog("--default-priority-value is not set while --enable-priority-scheduling is enabled. Requests without explicit priority will have priority=None, resulting in priority='None' string labels in Prometheus metrics."),
		mainLog("Disabling overlap schedule since mamba no_buffer is not compatible with overlap schedule, try to use --disable-radix-cache if overlap schedule is necessary"),
		mainLog("Use trtllm_mla as attention backend on sm100 for DeepseekV3ForCausalLM"),
		mainLog("Setting page size to 64 for trtllm_mla attention backend."),
		mainLog("server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tokenizer_path='Qwen/Qwen3-8B', host='0.0.0.0', port=30000, tp_size=2, log_level='info', watchdog_timeout=300, enable_metrics=True)"),
		mainLog("Using default HuggingFace chat template with detected content format: string"),
		mainLog("Detected the chat template content format to be 'openai'. You can set it via --chat-template-content-format."),
		mainLog("Tool call parser not specified; tool calls will be returned as plain text."),
		mainLog("Downcasting torch.float32 to torch.bfloat16."),
		mainLog("Casting torch.bfloat16 to torch.float16."),
		mainLog("Using a slow tokenizer. This might cause a significant slowdown. Consider using a fast tokenizer instead."),
		mainLog("Endpoint '/get_server_info' is deprecated and will be removed in a future version. Please use '/server_info' instead."),
		"Overlap scheduler is disabled because of using eagle speculative decoding.",
	}},
	{"sglang start-up: scheduler and model runner", []string{
		schedLog("Init torch distributed begin."),
		schedLog("Init torch distributed ends. mem usage=0.51 GB"),
		schedLog("sglang is using nccl==2.27.3"),
		schedLog("Custom allreduce is disabled because this process group spans across nodes."),
		schedLog("Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs."),
		schedLog("Failed to initialize QuickAllReduce: only supported on ROCm MI300 series"),
		schedLog("Performing in-place all-gather with a group size of 1. This may be unnecessary; consider bypassing it for better efficiency."),
		schedLog("Load weight begin. avail mem=78.21 GB"),
		schedLog("Using model weights format ['*.safetensors']"),
		schedLog("No model.safetensors.index.json found in remote."),
		schedLog("Load weight end. elapsed=12.41 s, type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=62.95 GB, mem usage=15.26 GB."),
		schedLog("Compute capability below sm80. Use float16 due to lack of bfloat16 support."),
		schedLog("Using hybrid attention backend for decode and prefill: decode_backend=flashinfer, prefill_backend=fa3."),
		schedLog("Using KV cache dtype: torch.float8_e4m3fn"),
		schedLog("Loaded KV cache scaling factors from /models/Qwen3-8B-FP8/kv_cache_scales.json"),
		schedLog("KV Cache is allocated. #tokens: 2123376, K size: 28.35 GB, V size: 28.35 GB"),
		schedLog("Mamba Cache is allocated. max_mamba_cache_size: 512, conv_state size: 0.38GB, ssm_state size: 11.81GB"),
		schedLog("Memory pool end. avail mem=13.89 GB"),
		schedLog("Capture cuda graph begin. This can take up to several minutes. avail mem=13.42 GB"),
		schedLog("Capture cuda graph bs [1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64]"),
		schedLog("Capture cuda graph end. Time elapsed: 9.61 s. mem usage=0.81 GB. avail mem=12.60 GB."),
		schedLog("Disable prefill CUDA graph because the capture size is not set"),
		schedLog("Capture piecewise CUDA graph begin. avail mem=12.60 GB"),
		schedLog("max_total_num_tokens=2123376, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=40960, available_gpu_mem=12.60 GB"),
		schedLog("Hierarchical cache is not enabled."),
		schedLog("Allocating 96.00 GB host memory for hierarchical KV cache."),
		schedLog("HiCache host KV pool (1048576 tokens) is smaller than the device pool (2123376 tokens);L2 cache effectiveness is reduced.Consider increasing --hicache-ratio (or --hicache-size) for higher L2 cache hit rate."),
		schedLog("Creating storage backend 'mooncake' (sglang.srt.mem_cache.storage.mooncake_store.mooncake_store.MooncakeStore)"),
		schedLog("Mooncake Configuration loaded from env successfully."),
		schedLog("Connect to Mooncake store successfully."),
		schedLog("Storage backend file does not support clear operation."),
		schedLog("Ignore import error when loading sglang.srt.models.glm4v_moe: No module named 'transformers.models.glm4v_moe'"),
		schedLog("Chunked prefill is disabled for multimodal models with the Transformers backend to avoid partial multimodal chunk mismatches."),
		schedLog("Parameter lm_head.weight not found in params_dict"),
		schedLog("Parameter model.layers.61.eh_proj.weight not found in params_dict"),
		schedLog("model.layers.61.shared_head.norm.weight not found in params_dict."),
		schedLog("Audio param audio_tower.conv1.weight not found in params_dict, skipping"),
		schedLog("Using sgl-kernel fused MoE kernels with triton fallback"),
		schedLog("Using default MoE kernel config. Performance might be sub-optimal! Config file not found at /sgl-workspace/sglang/python/sglang/srt/layers/moe/fused_moe_triton/configs/triton_3_4_0/E=128,N=768,device_name=NVIDIA_H100_80GB_HBM3.json, you can create them with https://github.com/sgl-project/sglang/tree/main/benchmark/kernels/fused_moe_triton"),
		schedLog("Config file not found at /sgl-workspace/sglang/python/sglang/srt/layers/quantization/configs/N=4096,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128, 128].json. Fallback to triton version 3.3.1 and use MoE kernel config from /sgl-workspace/sglang/python/sglang/srt/layers/moe/fused_moe_triton/configs/triton_3_3_1/E=256,N=256,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128, 128].json. Performance might be sub-optimal!"),
		schedLog("Using configuration from /sgl-workspace/sglang/python/sglang/srt/layers/quantization/configs/N=1536,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128, 128].json for W8A8 Block FP8 kernel."),
		schedLog("DeepGEMM is enabled. Warming up kernels, this may take a while."),
		schedLog("Entering DeepGEMM JIT Pre-Compile session. It may take a long time (typically 10-20 mins) if you have not run `sglang.compile_deep_gemm`."),
		schedLog("Detected fp8 checkpoint. Please note that the format is experimental and subject to change."),
		schedLog("The following modules are not quantized: lm_head"),
		schedLog("Your GPU does not have native support for FP4 computation but FP4 quantization is being used. Weight-only FP4 compression will be used leveraging the Marlin kernel."),
		schedLog("Fitted linear coefficient b=-0.0012 is negative. Setting b=0."),
		schedLog("init custom process group: tp_rank=1, gpu_id=1, master_address=10.0.0.12, master_port=29510, group_rank=1, world_size=3, group_name=weight_update_group, backend=nccl"),
		schedLog("Update engine weights online from disk begin. avail mem=12.60 GB"),
		schedLog("Update weights end."),
		schedLog("Registering 64 cuda graph addresses"),
		schedLog("Enable offload kv cache for decode side"),
	}},
	{"sglang serving: batches, requests, client mistakes", []string{
		schedLog("Prefill batch, #new-seq: 12, #new-token: 8192, #cached-token: 1024, token usage: 0.02, #running-req: 4, #queue-req: 7"),
		schedLog("Prefill batch [3], #new-seq: 1, #new-token: 7, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0, input throughput (token/s): 0.00"),
		schedLog("Decode batch, #running-req: 16, #token: 12844, token usage: 0.01, cuda graph: True, gen throughput (token/s): 1203.55, #queue-req: 0"),
		schedLog("Decode batch, #running-req: 256, #token: 300211, token usage: 0.98, accept len: 2.71, cuda graph: True, gen throughput (token/s): 5120.44, #queue-req: 183"),
		schedLog("Cache flushed successfully!"),
		schedLog("Cache not flushed because there are pending requests. #queue-req: 3, #running-req: 12"),
		schedLog("Capping max_new_tokens of request 9f2c1a7e3b to SGLANG_MAX_NEW_TOKENS_LIMIT=32768 (requested: 100000)."),
		schedLog("Request 9f2c1a7e3b: max_new_tokens clamped to 4096 to fit the context length."),
		schedLog("Start profiling..."),
		schedLog("Stop profiling..."),
		schedLog("Profiling done. Traces are saved to: /tmp/sglang_profile"),
		schedLog("Profile merge completed: /tmp/sglang_profile/merged-1716855069.trace.json.gz"),
		schedLog("LoRA adapter sql-lora loaded."),
		schedLog("Load lora adapter from /adapters/sql-lora begin."),
		mainLog("The input (40961 tokens) is longer than the model's context length (40960 tokens). Truncating the input."),
		mainLog("Sending a single large batch with parallel sampling (n > 1) has not been well optimized. The performance might be better if you just duplicate the requests n times or use many threads to send them one by one with parallel sampling (n > 1)."),
		mainLog("Abort request for rid=9f2c1a7e3b not found in rid_to_state; likely already finished/removed."),
		mainLog("Abort request 9f2c1a7e3b"),
		mainLog("Receive: obj=GenerateReqInput(rid='9f2c1a7e3b', text='Hello', sampling_params={'max_new_tokens': 64, 'temperature': 0.0}, stream=False)"),
		mainLog("Finish: obj=GenerateReqInput(rid='9f2c1a7e3b', text='Hello'), out={'text': ' world', 'meta_info': {'id': '9f2c1a7e3b', 'finish_reason': {'type': 'length', 'length': 64}, 'prompt_tokens': 1, 'completion_tokens': 64}}"),
		mainLog(`{"timestamp": "2026-05-28T00:11:09.418211", "event": "request.finished", "rid": "9f2c1a7e3b", "out": {"meta_info": {"finish_reason": {"type": "stop", "matched": 151645}, "prompt_tokens": 41, "completion_tokens": 120}}}`),
		mainLog("[http_server] Client disconnected: request 9f2c1a7e3b cancelled"),
		mainLog("Weights are ready after 42.17 seconds"),
		mainLog("The server is fired up and ready to roll!"),
		mainLog("Endpoint '/get_model_info' is deprecated and will be removed in a future version. Please use '/model_info' instead."),
		mainLog("Invalid tool_choice 'required' for a request without tools; ignoring."),
		mainLog("Streaming is not supported with n > 1; falling back to non-streaming."),
		mainLog("No chat template found, defaulting to 'chatml'."),
		mainLog("Unrecognized reasoning effort 'extreme'; using 'medium'."),
		mainLog("Gracefully exiting... Remaining number of requests 4. Remaining requests remaining_rids=['9f2c1a7e3b', '4a1b2c3d4e']."),
	}},
	{"sglang graceful shutdown", []string{
		mainLog("SIGTERM received. signum=15 frame=<frame at 0x7f3a2c0b8040>. Draining requests and shutting down..."),
		mainLog("Health check request received during shutdown. Returning 503."),
		mainLog("Gracefully exiting... Remaining number of requests 0. Remaining requests remaining_rids=[]."),
		mainLog("Dumping requests before crash. crash_dump_folder=None"),
		mainLog("SIGTERM/SIGQUIT/Exception triggered, but crash dump already performed, skipping."),
		schedLog("Scheduler is shutting down."),
		"INFO:     Shutting down",
		mainLog("INFO:     Waiting for application shutdown."),
		mainLog("INFO:     Application shutdown complete."),
		mainLog("INFO:     Finished server process [4123]"),
	}},
	{"sglang prefill-decode disaggregation", []string{
		schedLog("Using Mamba state slice transfer for different TP sizes between prefill and decode. Prefill attn_tp_size=4, Decode attn_tp_size=8. Performance may be affected."),
		schedLog("[Staging][tp1] Falling back to per-token slice path (room=1804289383)"),
		schedLog("Session 10.0.0.13:17300 recovered via probe; un-blacklisted"),
		schedLog("Prefill bootstrap server started on 10.0.0.12:8998"),
		schedLog("Register to bootstrap server successfully."),
		schedLog("Fetched bootstrap info from 10.0.0.12:8998 for prefill dp rank 0"),
		mainLog("Disaggregation warmup requests completed for all 8 DP ranks"),
		mainLog("Start disaggregation warmup ..."),
		mainLog("End of prefill disaggregation mode warmup with status 200, resp: [{'text': '%', 'meta_info': {'finish_reason': {'type': 'length', 'length': 0}}}]"),
	}},
	{"sglang router (sgl-model-gateway)", []string{
		smgLog(" INFO", "server", "server.rs:910", 0, "Starting router on 0.0.0.0:30000 | mode: Regular | policy: CacheAware | max_payload: 512MB"),
		gatewayLog(" INFO", "sgl_model_gateway::server", "Router ready | workers: [\"http://10.0.0.12:30001\", \"http://10.0.0.13:30001\"]"),
		gatewayLog(" INFO", "sgl_model_gateway::core::worker_manager", "Worker http://10.0.0.12:30001 is healthy"),
		gatewayLog(" INFO", "sgl_model_gateway::core::worker_manager", "Removed worker http://10.0.0.12:30001"),
		gatewayLog(" INFO", "sgl_model_gateway::routers::router_manager", "Initializing RouterManager in multi-router mode (IGW)"),
		gatewayLog(" INFO", "sgl_model_gateway::routers::router_manager", "Created HTTP Regular router"),
		gatewayLog(" INFO", "sgl_model_gateway::routers::router_manager", "RouterManager initialized with 4 routers for multi-router mode"),
		gatewayLog(" INFO", "sgl_model_gateway::service_discovery", "Starting K8s service discovery | PD mode | prefill: 'app=sglang-prefill' | decode: 'app=sglang-decode'"),
		gatewayLog(" INFO", "sgl_model_gateway::service_discovery", "Adding pod: sglang-prefill-0 | type: Prefill | url: http://10.0.0.12:30000"),
		gatewayLog(" INFO", "sgl_model_gateway::service_discovery", "Removing pod: sglang-decode-1 | type: Decode | url: http://10.0.0.14:30000"),
		gatewayLog(" INFO", "sgl_model_gateway::server", "Received Ctrl+C, starting graceful shutdown"),
		gatewayLog(" INFO", "sgl_model_gateway::server", "Received terminate signal, starting graceful shutdown"),
		gatewayLog(" INFO", "sgl_model_gateway::tokenizer", "Startup tokenizer job submitted (will complete in background)"),
		gatewayLog(" INFO", "sgl_model_gateway::tokenizer", "Loading tokenizer 'Qwen/Qwen3-8B' (id: 0c1d2e3f) from source: Qwen/Qwen3-8B"),
		gatewayLog(" INFO", "sgl_model_gateway::mcp", "Found 2 MCP server(s) in config"),
		gatewayLog(" INFO", "sgl_model_gateway::middleware", "Set global rate limit: 256 req/s"),
		gatewayLog(" INFO", "sgl_model_gateway::core::worker_manager", "Starting load monitoring with interval: 5s"),
		gatewayLog(" INFO", "sgl_model_gateway::core::circuit_breaker", "Circuit breaker state transition: open -> half_open"),
		gatewayLog(" INFO", "sgl_model_gateway::core::circuit_breaker", "Circuit breaker state transition: half_open -> closed"),
		gatewayLog(" INFO", "sgl_model_gateway::policies::manual", "ManualPolicy TTL eviction: evicted 12 entries, remaining 340 (max_idle: 600s)"),
		gatewayLog(" INFO", "sgl_model_gateway::routers::conversations", "Deleted conversation conversation_id=conv_9f2c1a"),
		gatewayLog(" WARN", "sgl_model_gateway::observability::logging", "Invalid log level string: 'verbose'. Defaulting to INFO."),
		gatewayLog(" WARN", "sgl_model_gateway::routers::parsers", "Configured reasoning parser 'deepseek-r2' not found, falling back to model-based selection"),
		gatewayLog(" WARN", "sgl_model_gateway::routers::parsers", "Configured tool parser 'hermes2' not found, falling back to model-based selection"),
		gatewayLog(" WARN", "sgl_model_gateway::routers::persistence_utils", "Conversation not found, skipping item linking conversation_id=conv_9f2c1a"),
		gatewayLog(" WARN", "sgl_model_gateway::routers::http::pd_router", "PD mode does not support /v1/classify; returning bad request"),
		gatewayLog(" WARN", "sgl_model_gateway::routers::openai", "Client disconnected before next tool-call iteration to http://10.0.0.12:30000, cancelling"),
		gatewayLog(" WARN", "sgl_model_gateway::routers::openai", "Skipping incomplete tool call: name is empty, args_len=0"),
		gatewayLog(" WARN", "sgl_model_gateway::routers::openai", "Reached user-specified max_tool_calls limit: 8"),
		gatewayLog(" WARN", "sgl_model_gateway::policies::bucket", "No bucket found for model Qwen/Qwen3-8B, randomly selecting healthy worker"),
		gatewayLog(" WARN", "sgl_model_gateway::core::worker_registry", "Attempted to remove worker for model Qwen/Qwen3-8B with no registered workers"),
		gatewayLog(" WARN", "sgl_model_gateway::core::worker", "Attempted to decrement load counter that is already at 0 worker_url=http://10.0.0.12:30001"),
		gatewayLog(" WARN", "sgl_model_gateway::core::worker_manager", "No loads fetched from workers"),
		gatewayLog(" WARN", "sgl_model_gateway::wasm", "Path traversal attempt detected in WASM module path: ../../etc/passwd"),
		gatewayLog(" WARN", "sgl_model_gateway::core::steps::worker::shared::update_policies", "Model Qwen/Qwen3-8B has conflicting tp_size: prefill=Some(\"8\"), decode=Some(\"4\")"),
		gatewayLog("DEBUG", "sgl_model_gateway::routers::tokenize::handlers", "Tokenize request for model: Qwen/Qwen3-8B"),
		gatewayLog("DEBUG", "sgl_model_gateway::core::steps::worker::external::create_workers", "Created external worker for model gpt-4o at https://api.openai.com"),
		`2026-05-28 00:11:09  INFO sglang_router_rs::server: src/server.rs:512: Router ready | workers: ["http://10.0.0.12:30001"]`,
		`2026-05-28 00:11:09  INFO sglang_router_rs::routers::http::router: src/routers/http/router.rs:112: All 2 workers are healthy`,
		`2026-05-28 00:11:09  INFO sglang_router_rs::middleware: src/middleware.rs:201: finished processing request request_id="req-9f2c1a" method=POST uri=/v1/chat/completions status_code=200 latency=1.2s`,
		`2026-05-28 00:11:09  INFO sglang_router_rs::middleware: src/middleware.rs:201: finished processing request request_id="req-9f2c1b" method=POST uri=/v1/chat/completions status_code=400 latency=12ms`,
	}},
	{"sglang fallbacks that quote a handled error", []string{
		mainLog("Ignore import error when loading sglang.srt.models.mllama4: cannot import name 'Llama4Config' from 'transformers' (/usr/local/lib/python3.12/dist-packages/transformers/__init__.py)"),
		mainLog("Ignore import error when loading sglang.srt.models.phi4mm: No module named 'peft'"),
		mainLog("Ignore import error when loading sglang.srt.multimodal.processors.janus_pro: No module named 'timm'"),
		mainLog("Ignore import error when loading sglang.srt.models.deepseek_ocr: cannot import name 'LlamaFlashAttention2' from 'transformers.models.llama.modeling_llama'"),
		schedLog("Setup Custom allreduce failed with CUDA error: peer access is not supported between these two devices. To silence this warning, specify --disable-custom-all-reduce explicitly."),
		schedLog("Setup Custom allreduce failed with Custom allreduce requires NVLink or P2P access between all GPUs. To silence this warning, specify --disable-custom-all-reduce explicitly."),
		schedLog("Failed to initialize QuickAllReduce: QuickAllReduce is only supported on ROCm MI300 series."),
		mainLog("Grammar backend disabled because tokenizer is not supported by XGrammar: Unsupported tokenizer type: TiktokenTokenizer. Falling back to grammar_backend='none'. Structured outputs (JSON schema, regex, EBNF) will not be available."),
		schedLog("FlashInfer GDN kernels not available: No module named 'flashinfer.gdn_decode'"),
		schedLog("FlashInfer workspace preflight: cuMemCreate probe failed on at least one rank. Skipping allreduce fusion to avoid cross-rank desync inside the flashinfer collective."),
		schedLog("Failed to initialize FlashInfer workspace (backend=trtllm): IPC handles are not supported on this platform. Disabling flashinfer allreduce fusion permanently."),
		mainLog("Failed to load tokenizer for auto-detection: Can't load tokenizer for '/models/custom-ckpt'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name."),
		mainLog("Failed to load model config for architecture-based auto-detection: Unrecognized model in /models/custom-ckpt. Should have a `model_type` key in its config.json"),
		mainLog("Using specified chat template: 'chatml'"),
		schedLog("Failed to hack Qwen2VLImageProcessorFast with AMX optimization: No module named 'intel_extension_for_pytorch'"),
		mainLog("Failed to decode JPEG on GPU, falling back to CPU. Error: Unsupported JPEG format: progressive"),
		mainLog("torchcodec AudioDecoder failed (Could not load libtorchcodec. Likely causes: FFmpeg is not properly installed); falling back to soundfile + torchaudio."),
		schedLog("Failed to import mooncake allocator for cuda:0: No module named 'mooncake.allocator'. Falling back to default memory pool."),
		"Failed to allocate shared memory for multimodal feature transport ([Errno 28] No space left on device); falling back to inline transport. Consider increasing /dev/shm size.",
		mainLog("[http_server] Client disconnected: request 9f2c1a7e3b cancelled by client"),
		mainLog("retry() failed once (0th try, maximum 5 retries). Will delay 0.10s and retry. Error: [Errno 111] Connection refused"),
		mainLog("NVML error querying memory affinity for GPU 0: Not Supported, skipping NUMA node configuration for GPU"),
		mainLog("port 30000 is in use. Waiting for 2 seconds for 30000 to be available."),
		mainLog("Fail to set RLIMIT_NOFILE: current limit exceeds maximum limit"),
		mainLog("Failed to parse tool calls: Expecting value: line 1 column 1 (char 0)"),
		mainLog("Due to a tokenizer without offsets, falling back to decode+retokenize, which may change prompt length (token drift)."),
		mainLog("OpenAI Responses API (/v1/responses) disabled: OpenAIServingResponses init failed (ImportError: No module named 'openai_harmony')"),
		mainLog("Failed to get yes/no token IDs dynamically: 'yes' is not a single token; using defaults"),
		mainLog("Intel AMX is detected, using CPU with Intel AMX support."),
		mainLog("The current platform does not support Intel AMX, will fallback to torch_native backend."),
	}},
	{"library chatter at error level that is routine", []string{
		"E0000 00:00:1748390469.418211    4021 fork_posix.cc:75] Other threads are currently calling into gRPC, skipping fork() handlers",
		"I0000 00:00:1748390469.418211    4021 fork_posix.cc:75] Other threads are currently calling into gRPC, skipping fork() handlers",
		"WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
		"E0000 00:00:1748390469.418211    4021 cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
		"E0000 00:00:1748390469.418211    4021 cuda_blas.cc:1418] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
		"W0000 00:00:1748390469.418211    4021 computation_placer.cc:177] computation placer already registered. Please check linkage and avoid linking the same target more than once.",
		"2026-05-28 00:11:09.418211: I tensorflow/core/util/port.cc:153] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.",
		"2026-05-28 00:11:09.418211: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered",
		"Error in cpuinfo: prctl(PR_SVE_GET_VL) failed",
		"OpenBLAS WARNING - could not determine the L2 cache size on this system, assuming 256k",
		"/usr/local/lib/python3.12/dist-packages/pydantic/_internal/_fields.py:198: UserWarning: Field name \"model_config\" in \"ModelCard\" shadows an attribute in parent \"BaseModel\"",
		"/usr/local/lib/python3.12/dist-packages/pydantic/_internal/_fields.py:132: UserWarning: Field \"model_path\" has conflict with protected namespace \"model_\".",
		"You may be able to resolve this warning by setting `model_config['protected_namespaces'] = ()`.",
		"/usr/local/lib/python3.12/dist-packages/google/protobuf/runtime_version.py:98: UserWarning: Protobuf gencode version 5.28.1 is exactly one major version older than the runtime version 6.31.1 at sglang/srt/grpc/sglang_scheduler.proto. Please update the gencode to avoid compatibility violations in the next runtime release.",
		"<frozen importlib._bootstrap_external>:1184: FutureWarning: The cuda.cudart module is deprecated and will be removed in a future release, please switch to use the cuda.bindings.runtime module instead.",
		"/usr/local/lib/python3.12/dist-packages/sglang/srt/layers/quantization/awq.py:55: UserWarning: Only CUDA, HIP and XPU support AWQ currently.",
		"INFO 05-28 00:11:09 [__init__.py:244] Automatically detected platform cuda.",
		"2026-05-28 00:11:09,418 - INFO - xgrammar: Compiling grammar for 151936 tokens",
		"Task was destroyed but it is pending!",
		"sys:1: DeprecationWarning: builtin type swigvarlink has no __module__ attribute",
		"[W528 00:11:09.418211234 AllocatorConfig.cpp:28] Warning: PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead (function operator())",
		"nvidia-persistenced failed to initialize. Check syslog for more details.",
	}},
	{"uvicorn lifecycle and access", []string{
		mainLog("INFO:     Started server process [4123]"),
		mainLog("INFO:     Waiting for application startup."),
		mainLog("INFO:     Application startup complete."),
		mainLog("INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)"),
		mainLog("INFO:     Uvicorn running on socket /tmp/sglang.sock (Press CTRL+C to quit)"),
		mainLog(`INFO:     127.0.0.1:40192 - "GET /get_model_info HTTP/1.1" 200 OK`),
		mainLog(`INFO:     10.1.4.17:51822 - "POST /v1/chat/completions HTTP/1.1" 200 OK`),
		mainLog(`INFO:     10.1.4.18:40012 - "GET /health HTTP/1.1" 200 OK`),
		mainLog(`INFO:     10.1.4.18:40014 - "GET /metrics HTTP/1.1" 200 OK`),
		mainLog(`INFO:     10.1.4.17:51830 - "GET /v1/models HTTP/1.1" 200 OK`),
		mainLog(`INFO:     10.1.4.17:51831 - "GET /favicon.ico HTTP/1.1" 404 Not Found`),
		mainLog(`INFO:     10.1.4.17:51832 - "GET / HTTP/1.1" 404 Not Found`),
		mainLog(`INFO:     10.1.4.17:51833 - "GET /v1/chat/completions HTTP/1.1" 405 Method Not Allowed`),
		mainLog(`INFO:     10.1.4.17:51834 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request`),
		mainLog(`INFO:     10.1.4.17:51835 - "POST /v1/completions HTTP/1.1" 422 Unprocessable Entity`),
		mainLog(`INFO:     10.1.4.17:51836 - "POST /v1/chat/completions HTTP/1.1" 401 Unauthorized`),
		mainLog(`INFO:     10.1.4.17:51837 - "POST /generate HTTP/1.1" 307 Temporary Redirect`),
		mainLog(`INFO:     10.1.4.17:51838 - "OPTIONS /v1/chat/completions HTTP/1.1" 200 OK`),
		mainLog("WARNING:  Invalid HTTP request received."),
		mainLog("WARNING:  Unsupported upgrade request."),
		mainLog("WARNING:  No supported WebSocket library detected. Please use \"pip install 'uvicorn[standard]'\", or install 'websockets' or 'wsproto' manually."),
		mainLog("INFO:     Shutting down"),
		mainLog("INFO:     Waiting for connections to close. (CTRL+C to force quit)"),
		mainLog("INFO:     Waiting for background tasks to complete. (CTRL+C to force quit)"),
		`INFO:     127.0.0.1:40192 - "POST /generate HTTP/1.1" 200 OK`,
		"INFO:     Started server process [4123]",
		"[2026-05-28 00:11:09] [INFO] Starting granian (main PID: 4123)",
		"[2026-05-28 00:11:09] [INFO] Listening at: http://0.0.0.0:30000",
		"[2026-05-28 00:11:09] [INFO] Shutting down granian",
	}},
	{"NCCL INFO chatter", []string{
		"gpu-node-3:2210:2210 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.12<0>",
		"gpu-node-3:2210:2210 [0] NCCL INFO NCCL version 2.27.3+cuda12.9",
		"gpu-node-3:2210:2210 [0] NCCL INFO cudaDriverVersion 12090",
		"gpu-node-3:2210:2210 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
		"gpu-node-3:2210:2210 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so",
		"gpu-node-3:2210:2210 [0] NCCL INFO NET/Plugin: No plugin found, using internal implementation",
		"gpu-node-3:2210:2210 [0] NCCL INFO NET/Plugin: Failed to find ncclCollNetPlugin_v8 symbol.",
		"gpu-node-3:2210:2210 [0] NCCL INFO Failed to open libibverbs.so[.1]",
		"gpu-node-3:2210:2210 [0] NCCL INFO NET/IB : No device found.",
		"gpu-node-3:2210:2210 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.12<0>",
		"gpu-node-3:2210:2210 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.12<0>",
		"gpu-node-3:2210:2210 [0] NCCL INFO Using network Socket",
		"gpu-node-3:2210:2210 [0] NCCL INFO Using network IB",
		"gpu-node-3:2210:2210 [0] NCCL INFO ncclCommInitRank comm 0x5581c0a0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9e1c7d3f2a1b4c5d - Init START",
		"gpu-node-3:2210:2210 [0] NCCL INFO Setting affinity for GPU 0 to ffff,ffffffff",
		"gpu-node-3:2210:2210 [0] NCCL INFO NVLS multicast support is not available on dev 0",
		"gpu-node-3:2210:2210 [0] NCCL INFO comm 0x5581c0a0 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0",
		"gpu-node-3:2210:2210 [0] NCCL INFO Channel 00/24 :    0   1",
		"gpu-node-3:2210:2210 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1",
		"gpu-node-3:2210:2210 [0] NCCL INFO P2P Chunksize set to 524288",
		"gpu-node-3:2210:2271 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
		"gpu-node-3:2210:2271 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via P2P/IPC",
		"gpu-node-3:2210:2271 [0] NCCL INFO Connected all rings",
		"gpu-node-3:2210:2271 [0] NCCL INFO Connected all trees",
		"gpu-node-3:2210:2271 [0] NCCL INFO threadThresholds 8/8/64 | 16/8/64 | 512 | 512",
		"gpu-node-3:2210:2271 [0] NCCL INFO 24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer",
		"gpu-node-3:2210:2271 [0] NCCL INFO CC Off, workFifoBytes 1048576",
		"gpu-node-3:2210:2271 [0] NCCL INFO TUNER/Plugin: Could not find: libnccl-tuner.so. Using internal tuner plugin.",
		"gpu-node-3:2210:2271 [0] NCCL INFO ncclCommInitRank comm 0x5581c0a0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9e1c7d3f2a1b4c5d - Init COMPLETE",
		"gpu-node-3:2210:2271 [0] NCCL INFO Init timings - ncclCommInitRank: rank 0 nranks 2 total 0.52 (kernels 0.11, alloc 0.02, bootstrap 0.01, allgathers 0.00, topo 0.13, graphs 0.01, connections 0.21, rest 0.03)",
		"gpu-node-3:2210:2290 [0] NCCL INFO [Service thread] Connection closed by localRank 1",
		"gpu-node-3:2210:2210 [0] NCCL INFO comm 0x5581c0a0 rank 0 nranks 2 cudaDev 0 busId 18000 - Destroy COMPLETE",
		"gpu-node-3:2210:2210 [0] NCCL INFO Using non-device net plugin version 0",
		"gpu-node-3:2210:2210 [0] NCCL INFO Call to connect returned Connection refused, retrying",
		"gpu-node-3:2210:2210 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0",
		"gpu-node-3:2210:2210 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
		"gpu-node-3:2210:2210 [0] NCCL INFO ENV/Plugin: Could not find: libnccl-env.so. ",
		"gpu-node-3:2210:2210 [0] NCCL INFO MNNVL busId 0x18000 fabric UUID 0.0 cliqueId 0x0 state 3 healthMask 0x0",
		"gpu-node-3:2210:2210 [0] NCCL INFO RAS client listening socket at ::1<28028>",
		"gpu-node-3:2210:2210 [0] NCCL INFO cuMem Support: 1",
		"gpu-node-3:2210:2210 [0] NCCL INFO Comm config Blocking set to 1",
		"gpu-node-3:2210:2210 [0] NCCL INFO DMA-BUF is available on GPU device 0",
		"gpu-node-3:2210:2210 [0] NCCL INFO GPU Direct RDMA Disabled for HCA 0 'mlx5_0'",
		"gpu-node-3:2210:2210 [0] NCCL INFO Could not enable P2P between dev 0(=18000) and dev 1(=2a000)",
		"gpu-node-3:2210:2210 [0] NCCL INFO Check P2P Type isAllDirectP2p 0 directMode 0",
	}},
	{"torch distributed and c10d notices", []string{
		"[W528 00:11:09.418211234 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure that any pending NCCL operations have finished in this process. In rare cases this process can exit before this point and block the progress of another member of the process group. This constraint has always been present,  but this warning has only been added since PyTorch 2.4 (function operator())",
		"[rank0]:[W528 00:11:09.418211234 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())",
		"[rank1]:[W528 00:11:09.418211234 ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank 1]  using GPU 1 to perform barrier as devices used by this process are currently unknown. This can potentially cause a hang if this rank to GPU mapping is incorrect. Specify device_ids in barrier() to force use of a particular device, or call init_process_group() with a device_id.",
		"[W528 00:11:09.418211234 CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this platform (function operator())",
		"[W528 00:11:09.418211234 Utils.hpp:137] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function operator())",
		"[W528 00:11:09.418211234 socket.cpp:752] [c10d] The client socket has failed to connect to [node-0]:29500 (errno: 111 - Connection refused).",
		"[W528 00:11:09.418211234 socket.cpp:204] [c10d] The hostname of the client socket cannot be retrieved. err=-3",
		"[I528 00:11:09.418211234 TCPStore.cpp:275] [c10d - debug logging] The server has started on port = 29500.",
		"[I528 00:11:09.418211234 TCPStoreLibUvBackend.cpp:1127] [c10d - debug logging] Uv main loop running",
		"[Gloo] Rank 0 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1",
		"[Gloo] Rank 1 is connected to 7 peer ranks. Expected number of connected peer ranks is : 7",
		"W0528 00:11:09.418000 4021 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed.",
		"W0528 00:11:09.418000 4021 torch/distributed/run.py:793] *****************************************",
		"I0528 00:11:09.418000 4021 torch/distributed/elastic/agent/server/api.py:869] [default] Worker group SUCCEEDED. 0/3 attempts left; will exit with code 0",
		"/usr/local/lib/python3.12/dist-packages/torch/distributed/distributed_c10d.py:4631: UserWarning: No device id is provided via `init_process_group` or `barrier `. Using the current device set by the user. ",
		"/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:63: FutureWarning: The pynvml package is deprecated. Please install nvidia-ml-py instead. If you did not install pynvml directly, please report this to the maintainers of the package that installed pynvml for you.",
		"  import pynvml  # type: ignore[import]",
		"/usr/local/lib/python3.12/dist-packages/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class. This should only matter to you if you are using storages directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()",
		"/usr/local/lib/python3.12/dist-packages/torch/utils/cpp_extension.py:2356: UserWarning: TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included for compilation. ",
		"If this is not desired, please set os.environ['TORCH_CUDA_ARCH_LIST'].",
		"W0528 00:11:09.418000 4021 torch/_inductor/utils.py:1250] [0/0] Not enough SMs to use max_autotune_gemm mode",
		"/usr/local/lib/python3.12/dist-packages/torch/backends/cuda/__init__.py:131: UserWarning: This API is going to be deprecated, please see https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices",
		"/usr/local/lib/python3.12/dist-packages/torch/_inductor/compile_fx.py:236: UserWarning: TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled. Consider setting `torch.set_float32_matmul_precision('high')` for better performance.",
		"/usr/lib/python3.12/multiprocessing/resource_tracker.py:279: UserWarning: resource_tracker: There appear to be 1 leaked shared_memory objects to clean up at shutdown",
		"  warnings.warn('resource_tracker: There appear to be %d '",
		"/usr/lib/python3.12/multiprocessing/resource_tracker.py:279: UserWarning: resource_tracker: There appear to be 2 leaked semaphore objects to clean up at shutdown",
	}},
	{"transformers, tokenizers and huggingface_hub warnings", []string{
		"Special tokens have been added in the vocabulary, make sure the associated word embeddings are fine-tuned or trained.",
		"Using a slow image processor as `use_fast` is unset and a slow processor was saved with this model. `use_fast=True` will be the default behavior in v4.52, even if the model was saved with a slow processor. This will result in minor differences in outputs. You'll still be able to use a slow processor with `use_fast=False`.",
		"`torch_dtype` is deprecated! Use `dtype` instead!",
		"The attention mask and the pad token id were not set. As a consequence, you may observe unexpected behavior. Please pass your input's `attention_mask` to obtain reliable results.",
		"Setting `pad_token_id` to `eos_token_id`:151643 for open-end generation.",
		"huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...",
		"To disable this warning, you can either:",
		"\t- Avoid using `tokenizers` before the fork if possible",
		"\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)",
		"Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download. For better performance, install the package with: `pip install huggingface_hub[hf_xet]` or `pip install hf_xet`",
		"Fetching 17 files: 100%|██████████| 17/17 [00:42<00:00,  2.51s/it]",
		"Loading checkpoint shards: 100%|██████████| 4/4 [00:03<00:00,  1.14it/s]",
		"Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:01<00:01,  1.62it/s]",
		"Multi-thread loading shards: 100% Completed | 163/163 [00:52<00:00,  3.11it/s]",
		"A new version of the following files was downloaded from https://huggingface.co/deepseek-ai/DeepSeek-V3:",
		"- configuration_deepseek.py",
		". Make sure to double-check they do not contain any added malicious code. To avoid downloading new versions of the code file, you can pin a revision.",
		"You are using a model of type qwen2_5_vl to instantiate a model of type qwen2_vl. This is not supported for all configurations of models and can yield errors.",
		"`rope_scaling`'s original_max_position_embeddings field must be less than max_position_embeddings, got 32768 and max_position_embeddings=32768",
		"Unrecognized keys in `rope_scaling` for 'rope_type'='yarn': {'original_max_position_embeddings'}",
		"/usr/local/lib/python3.12/dist-packages/huggingface_hub/file_download.py:945: FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0. Downloads always resume when possible. If you want to force a new download, use `force_download=True`.",
		"/usr/local/lib/python3.12/dist-packages/transformers/utils/hub.py:111: FutureWarning: Using `TRANSFORMERS_CACHE` is deprecated and will be removed in v5 of Transformers. Use `HF_HOME` instead.",
		"/usr/local/lib/python3.12/dist-packages/transformers/models/auto/image_processing_auto.py:602: FutureWarning: The image_processor_class argument is deprecated and will be removed in v4.42. Please use `slow_image_processor_class`, or `fast_image_processor_class` instead",
		"The tokenizer class you load from this checkpoint is not the same type as the class this function is called from. It may result in unexpected tokenization.",
		"The tokenizer class you load from this checkpoint is 'LlamaTokenizer'.",
		"The class this function is called from is 'LlamaTokenizerFast'.",
		"You set `add_prefix_space`. The tokenizer needs to be converted from the slow tokenizers",
		"Token indices sequence length is longer than the specified maximum sequence length for this model (140210 > 131072). Running this sequence through the model will result in indexing errors",
		"None of PyTorch, TensorFlow >= 2.0, or Flax have been found. Models won't be available and only tokenizers, configuration and file/data utilities can be used.",
		"Some kwargs in processor config are unused and will not have any effect: num_query_tokens. ",
		"Generation config file not found, using a generation config created from the model config.",
		"Sliding Window Attention is enabled but not implemented for `sdpa`; unexpected results may be encountered.",
		"`generation_config` default values have been modified to match model-specific defaults: {'top_k': 20, 'top_p': 0.8}. If this is not desired, please set these values explicitly.",
	}},
	{"flashinfer, triton and DeepGEMM JIT notices", []string{
		"2026-05-28 00:11:09,418 - INFO - flashinfer.jit: Prebuilt kernels not found, using JIT backend",
		"2026-05-28 00:11:09,418 - INFO - flashinfer.jit: Loading JIT ops: batch_prefill_with_kv_cache_dtype_q_bf16_dtype_kv_bf16_dtype_o_bf16_dtype_idx_i32_head_dim_qk_128_head_dim_vo_128_posenc_0_use_swa_False_use_logits_cap_False_f16qk_False",
		"2026-05-28 00:11:09,418 - INFO - flashinfer.jit: Finished loading JIT ops: batch_prefill_with_kv_cache_dtype_q_bf16_dtype_kv_bf16_dtype_o_bf16_dtype_idx_i32_head_dim_qk_128_head_dim_vo_128_posenc_0_use_swa_False_use_logits_cap_False_f16qk_False",
		"2026-05-28 00:11:09,418 - INFO - flashinfer.jit: Loading JIT ops: sampling",
		"2026-05-28 00:11:09,418 - INFO - flashinfer.jit: Finished loading JIT ops: sampling",
		"[2026-05-28 00:11:09] INFO flashinfer.jit: Prebuilt kernels not found, using JIT backend",
		"2026-05-28 00:11:09,418 - INFO - flashinfer.autotuner: [Autotuner]: Autotuning process starts ...",
		"2026-05-28 00:11:09,418 - INFO - flashinfer.autotuner: [Autotuner]: Autotuning process ends",
		"[FlashInfer] Autotuning is disabled; using default tactics.",
		"2026-05-28 00:11:09,418 - WARNING - flashinfer.jit: TORCH_CUDA_ARCH_LIST is not set, using the architecture of the current device (9.0)",
		"ninja: no work to do.",
		"[1/3] c++ -MMD -MF sampling.o.d -DTORCH_EXTENSION_NAME=sampling -O3 -c /root/.cache/flashinfer/generated/sampling.cu -o sampling.o",
		"[3/3] c++ sampling.o sampling_kernel.cuda.o -shared -L/usr/local/cuda/lib64 -lcudart -o sampling.so",
		"Compiling JIT kernel: fp8_gemm_nt (M=4096, N=7168, K=2048)",
		"DeepGEMM JIT compiling fp8_gemm with 132 SMs ...",
		schedLog("Entering DeepGEMM JIT Pre-Compile session. It may take a long time (typically 10-20 mins) if you have not run `sglang.compile_deep_gemm`."),
		"DeepGEMM warmup:  37%|███▋      | 1520/4096 [00:12<00:21, 120.51it/s]",
		"Autotuning fused_moe (bs=64):  50%|█████     | 4/8 [00:03<00:03,  1.21it/s]",
		"/usr/local/lib/python3.12/dist-packages/triton/backends/nvidia/compiler.py:105: UserWarning: ptxas version is older than the CUDA driver; using bundled ptxas.",
		"Triton cache dir: /root/.triton/cache",
		"INFO:flashinfer.jit:Loading JIT ops: norm",
		"WARNING:root:Some sgl-kernel kernels are not available on this platform: cutlass_mla_decode",
	}},
	{"Ray start-up", []string{
		"2026-05-28 00:11:09,418\tINFO worker.py:1841 -- Started a local Ray instance. View the dashboard at 127.0.0.1:8265 ",
		"2026-05-28 00:11:09,418\tINFO worker.py:1654 -- Connecting to existing Ray cluster at address: 10.0.0.12:6379...",
		"2026-05-28 00:11:09,418\tINFO worker.py:1832 -- Connected to Ray cluster. View the dashboard at 10.0.0.12:8265 ",
		"2026-05-28 00:11:09,418\tINFO usage_lib.py:441 -- Usage stats collection is enabled by default without user confirmation because this terminal is detected to be non-interactive. To disable this, add `--disable-usage-stats` to the command that starts the cluster, or run the following command: `ray disable-usage-stats` before starting the cluster. See https://docs.ray.io/en/master/cluster/usage-stats.html for more details.",
		"2026-05-28 00:11:09,418\tINFO scripts.py:865 -- Local node IP: 10.0.0.12",
		"2026-05-28 00:11:09,418\tSUCC scripts.py:902 -- Ray runtime started.",
		"2026-05-28 00:11:09,418\tINFO packaging.py:575 -- Creating a file package for local module '/app'.",
		"2026-05-28 00:11:09,418\tINFO packaging.py:367 -- Pushing file package 'gcs://_ray_pkg_a1b2c3d4e5f6.zip' (0.12MiB) to Ray cluster...",
		"2026-05-28 00:11:09,418\tINFO packaging.py:380 -- Successfully pushed file package 'gcs://_ray_pkg_a1b2c3d4e5f6.zip'.",
		"2026-05-28 00:11:09,418\tINFO node.py:1118 -- Ray is not yet ready to accept connections; retrying.",
		"(raylet) [2026-05-28 00:11:09,418 I 4021 4021] (raylet) main.cc:231: Setting cluster ID to: 3f2a1b0c",
		"(pid=gcs_server) [2026-05-28 00:11:09,418 I 4021 4021] (gcs_server) gcs_server.cc:221: GCS server started.",
		"[2026-05-28 00:11:09,418 I 4021 4021] core_worker.cc:478: Constructing CoreWorker. pid: 4021",
		"(SGLangEngine pid=4021) [2026-05-28 00:11:09 TP0] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=62.95 GB, mem usage=15.26 GB.",
		"(SGLangEngine pid=4021, ip=10.0.0.13) [2026-05-28 00:11:09 TP0] Decode batch, #running-req: 16, #token: 12844, token usage: 0.01, cuda graph: True, gen throughput (token/s): 1203.55, #queue-req: 0",
		"(autoscaler +12s) Tip: use `ray status` to view detailed cluster status. To disable these messages, set RAY_SCHEDULER_EVENTS=0.",
		"INFO 2026-05-28 00:11:09,418 controller 4021 -- Deploying new version of Deployment(name='SGLangServer', app='default') (initial target replicas: 1).",
		"INFO 2026-05-28 00:11:09,418 controller 4021 -- Adding 1 replica to Deployment(name='SGLangServer', app='default').",
		"INFO 2026-05-28 00:11:09,418 proxy 10.0.0.12 -- Proxy starting on node 3f2a1b0c (HTTP port: 8000).",
		"INFO 2026-05-28 00:11:09,418 default_SGLangServer a1b2c3 -- POST /v1/chat/completions 200 1520.3ms",
		"(raylet) [2026-05-28 00:11:09,418 I 4021 4021] (raylet) worker_pool.cc:522: Started worker process with pid 4377, the token is 3",
		"2026-05-28 00:11:09,418\tINFO -- Ray dashboard disabled; skipping metrics export agent",
		"2026-05-28 00:11:09,418\tWARNING services.py:2009 -- WARNING: The object store is using /tmp instead of /dev/shm because /dev/shm has only 67108864 bytes available. This will harm performance! You may be able to free up space by deleting files in /dev/shm. If you are inside a Docker container, you can increase /dev/shm size by passing '--shm-size=10.24gb' to 'docker run' (or add it to the run_options list in a Ray cluster config). Make sure to set this to more than 30% of available RAM.",
	}},
	{"Mooncake and NIXL glog chatter", []string{
		"I0528 00:11:09.418211  4021 transfer_engine.cpp:486] Metrics reporting is disabled (set MC_TE_METRIC=1 to enable)",
		"I0528 00:11:09.418211  4021 transfer_engine.cpp:91] Transfer Engine parseHostNameWithPort. server_name: 10.0.0.12 port: 12001",
		"I0528 00:11:09.418211  4021 transfer_engine.cpp:146] Transfer Engine RPC using new RPC mapping, listening on 10.0.0.12:15428",
		"I0528 00:11:09.418211  4021 transfer_metadata_plugin.cpp:1131] Found active interface eth0 with IP 10.0.0.12",
		"I0528 00:11:09.418211  4021 transfer_engine.cpp:188] Auto-discovering topology...",
		"I0528 00:11:09.418211  4021 transfer_engine.cpp:203] Topology discovery complete. Found 8 HCAs.",
		"I0528 00:11:09.418211  4021 rdma_context.cpp:126] RDMA device: mlx5_0, LID: 0, GID: (GID_Index 3) 00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:00:0c",
		"I0528 00:11:09.418211  4021 rdma_transport.cpp:81] Using RDMA transport with 8 NICs",
		"I0528 00:11:09.418211  4021 tcp_transport.cpp:298] TcpTransport: listen on port 15430",
		"I0528 00:11:09.418211  4021 client_service.cpp:212] Connected to master 10.0.0.12:50051",
		"I0528 00:11:09.418211  4021 master_service.cpp:1210] Mounted segment 10.0.0.13:15428 with size 32212254720",
		"I0528 00:11:09.418211  4021 master_client.cpp:389] Ping master 10.0.0.12:50051 ok, view_version=3",
		"W0528 00:11:09.418211  4021 transfer_engine.cpp:252] Metadata server is set to P2PHANDSHAKE; skipping etcd connection",
		"W0528 00:11:09.418211  4021 rdma_context.cpp:88] ibv_open_device failed: No such device",
		"W0528 00:11:09.418211  4021 topology.cpp:64] No NVIDIA GPU found on PCIe bus; using CPU memory topology only",
		"E0528 00:11:09.418211  4021 client_service.cpp:1046] Failed to get fsdir from master",
		"E0528 00:11:09.418211  4021 client_service.cpp:4857] Failed to ping master",
		"I0528 00:11:09.418211  4021 nixl_agent.cpp:231] Initialized NIXL agent: 6d5c4b3a",
		"I0528 00:11:09.418211  4021 nixl_plugin_manager.cpp:160] Discovered and loaded backend plugin: UCX",
		"2026-05-28 00:11:09 NIXL INFO    _api.py:361 Backend UCX was instantiated",
		"2026-05-28 00:11:09 NIXL INFO    _api.py:251 Initialized NIXL agent: 6d5c4b3a",
		"2026-05-28 00:11:09 NIXL WARNING _api.py:213 Plugin GDS not found in plugin directory; skipping",
		"[1752044541.372091] [gpu-3:4012 :1]        ucp_worker.c:1200 UCX  DEBUG endpoint timeout set to 30s",
		"[1752044541.372091] [gpu-3:4012 :0]          parser.c:2359 UCX  WARN  unused environment variable: UCX_IB_GID_INDEX (maybe: UCX_IB_GID_INDEX?)",
		"[1752044541.372091] [gpu-3:4012 :0]          parser.c:2359 UCX  WARN  (set UCX_WARN_UNUSED_ENV_VARS=n to suppress this warning)",
	}},
	{"Kubernetes and container runtime prefixes", []string{
		cri("stderr", "[2026-05-28 00:11:09 TP0] Load weight begin. avail mem=78.21 GB"),
		cri("stdout", `[2026-05-28 00:11:09] INFO:     10.1.4.18:40012 - "GET /health HTTP/1.1" 200 OK`),
		cri("stderr", "[2026-05-28 00:11:09] The server is fired up and ready to roll!"),
		cri("stdout", "gpu-node-3:2210:2210 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.12<0>"),
		cri("stderr", "Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:02<00:00,  1.71it/s]"),
		"sglang-0 sglang [2026-05-28 00:11:09 TP0] Capture cuda graph end. Time elapsed: 9.61 s. mem usage=0.81 GB. avail mem=12.60 GB.",
		"sglang-0 sglang [2026-05-28 00:11:09] INFO:     Application startup complete.",
		"sglang-1  | [2026-05-28 00:11:09 TP0] Prefill batch, #new-seq: 1, #new-token: 7, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0",
		"  Normal  Scheduled  2m    default-scheduler  Successfully assigned llm/sglang-0 to gpu-node-3",
		"  Normal  Pulling    2m    kubelet            Pulling image \"lmsysorg/sglang:v0.5.2-cu129\"",
		"  Normal  Pulled     90s   kubelet            Successfully pulled image \"lmsysorg/sglang:v0.5.2-cu129\" in 31.2s (31.2s including waiting). Image size: 18934562816 bytes.",
		"  Normal  Created    90s   kubelet            Created container: sglang",
		"  Normal  Started    90s   kubelet            Started container sglang",
		"  Normal  Killing    5s    kubelet            Stopping container sglang",
		"==========",
		"== CUDA ==",
		"CUDA Version 12.9.1",
		"Container image Copyright (c) 2016-2025, NVIDIA CORPORATION & AFFILIATES. All rights reserved.",
		"This container image and its contents are governed by the NVIDIA Deep Learning Container License.",
		"A copy of this license is made available in this container at /NGC-DL-CONTAINER-LICENSE for your convenience.",
		"NOTE: CUDA Forward Compatibility mode ENABLED.",
		"  Using CUDA 12.9 driver version 575.51.03 with kernel driver version 550.90.07.",
		"  See https://docs.nvidia.com/deploy/cuda-compatibility/ for details.",
	}},
}

// routineHeard lists lines a healthy server may print that still alert on
// purpose, each with the record that must lead: what they say needs an
// operator even though the server keeps serving.
var routineHeard = []struct{ line, want string }{
	// Retraction: running requests go back to the queue because the KV
	// pool is too small for the load; throughput drops until the pool or
	// --max-running-requests is changed.
	{schedLog("KV cache pool is full. Retract requests. #retracted_reqs: 2, #new_token_ratio: 0.4190 -> 0.6270"), "kv-cache-pool-full-retract"},
	{schedLog("Decode out of memory happened. #retracted_reqs: 4, #new_token_ratio: 0.7000 -> 0.8500"), "decode-out-of-memory-happened-legacy"},
	// torch.compile gave up on a function: it runs eager from then on.
	{"W0528 00:11:09.418000 4021 torch/_dynamo/convert_frame.py:1016] [0/8] torch._dynamo hit config.recompile_limit (8)", "torch-dynamo-recompile-limit"},
	// vLLM's compiled ops are missing: a vLLM server fails on its first
	// custom op.
	{"WARNING 05-28 00:11:09 [_custom_ops.py:20] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")", "vllm-c-extension-import-failed"},
	// A client's over-long prompt is refused with 400 (the truncating
	// variant, with --allow-auto-truncate, is routine above).
	{mainLog("The input (40961 tokens) is longer than the model's context length (40960 tokens)."), "input-longer-than-context-length"},
	// The fallbacks' failures themselves, outside the fallback wording.
	{"ModuleNotFoundError: No module named 'flashinfer'", "no-module-flashinfer"},
	{"OSError: Can't load tokenizer for '/models/custom-ckpt'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name.", "cannot-load-tokenizer"},
	{"OSError: [Errno 28] No space left on device", "no-space-left-on-device"},
}

// TestRoutineWordingsDoNotAlert feeds every component's routine lines
// alone through the entry assembler and the analysis with the whole
// catalog: none alerts.
func TestRoutineWordingsDoNotAlert(t *testing.T) {
	m := compileCatalog(t)
	n := 0
	for _, c := range routineComponents {
		t.Run(c.name, func(t *testing.T) {
			checkRoutineSilent(t, m, c.lines)
		})
		n += len(c.lines)
	}
	t.Logf("%d routine lines in %d components", n, len(routineComponents))
}

// TestRoutineHeardLinesAlert checks that the lines heard on purpose alert
// under their record.
func TestRoutineHeardLinesAlert(t *testing.T) {
	m := compileCatalog(t)
	for _, tt := range routineHeard {
		a := entry.NewAssembler(entry.Options{})
		ents := append(a.Push(entry.Line{Text: tt.line, Source: "routine", Stream: "stderr"}), a.Flush()...)
		an := analysis.New(m)
		got := "silent"
		for i := range ents {
			if d, ok := an.Analyze(&ents[i]); ok {
				got = "unclassified"
				if d.Cause != nil {
					got = d.Cause.Record.Slug
				}
			}
		}
		if got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.line, got, tt.want)
		}
	}
}
