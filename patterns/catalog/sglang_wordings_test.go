package catalog_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// sglang's own failure wordings, by component: the raise, assert and
// logger.error statements that end a server's launch or a request with a
// failure an operator must act on, read from sglang's sources (server_args.py
// and its argument groups, the model runner and its memory pool sizing, the
// model loader, distributed init, the scheduler, DP controller and tokenizer
// manager, disaggregation and its transfer backends, speculative decoding,
// LoRA, the grammar backends, the OpenAI-compatible layer, and the Rust
// router). Each family is one cause in many wordings, composed the way
// sglang prints them with plausible values: a raise as the last line of a
// traceback (in a dying scheduler's record and bare on stderr), a logged
// error with the srt header of the process that writes it. want "" marks
// the routine lines of the same components that no failure record may
// claim.

// sglangLaunchTB is a launch that sglang's argument checks refuse: the
// traceback the main process prints before any subprocess starts.
func sglangLaunchTB(exc string) string {
	return "Traceback (most recent call last):\n" +
		`  File "<frozen runpy>", line 198, in _run_module_as_main` + "\n" +
		`  File "/usr/local/lib/python3.12/dist-packages/sglang/launch_server.py", line 32, in <module>` + "\n" +
		"    server_args = prepare_server_args(sys.argv[1:])\n" +
		`  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/server_args.py", line 6120, in prepare_server_args` + "\n" +
		"    return ServerArgs.from_cli_args(raw_args)\n" +
		`  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/server_args.py", line 1042, in __post_init__` + "\n" +
		"    self._handle_other_validations()\n" +
		exc + "\n"
}

// gatewayLog writes msg the way sglang's Rust router (sgl-model-gateway)
// logs it through tracing.
func gatewayLog(level, target, msg string) string {
	return "2026-05-28T00:11:09.123456Z " + level + " " + target + ": " + msg
}

// sglangComponents lists the families of every component.
var sglangComponents = []raiseLibrary{
	{name: "server_args: launch flags", families: []raiseFamily{
		{family: "flags that cannot be combined", want: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: --prefill-only-disable-kv-cache requires --disable-radix-cache because the radix cache indexes KV pool slots that no longer hold real data.",
			"ValueError: Cannot enable both --enable-tokenizer-batch-encode and --enable-dynamic-batch-tokenizer. Please choose one tokenizer batching approach.",
			"ValueError: --retraction-policy priority requires --enable-priority-scheduling",
			"AssertionError: --enable-unified-memory is not yet compatible with PD disaggregation.",
			"ValueError: Cannot set --encoder-only and --language-only together",
			"AssertionError: Elastic EP scale-up requires --moe-a2a-backend nixl (got moe_a2a_backend=deepep).",
			"ValueError: Native gRPC does not yet support --tokenizer-worker-num > 1. Unset --grpc-port or set --tokenizer-worker-num 1.",
			"AssertionError: CP is only supported for prefill when PD disaggregation, please remove --enable-prefill-cp.",
			"ValueError: --enable-strict-thinking requires a grammar backend that supports token filtering, but grammar_backend='none' was specified. Use --grammar-backend xgrammar or llguidance.",
			"AssertionError: Multi-item scoring requires flashinfer attention backend for custom attention mask support. Please set --attention-backend flashinfer when using --enable-mis. Current backends: prefill=fa3, decode=fa3",
		}},
		{family: "a flag names a file that is not there", want: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: SSL certificate file not found: '/certs/server.crt'. Please check the --ssl-certfile path.",
			"ValueError: --ssl-certfile requires --ssl-keyfile to be specified as well.",
		}},
		{family: "a flag value out of range", want: "sglang-launch-flags-rejected", lines: []string{
			"AssertionError: --max-lora-chunk-size must be a power of 2 between 16 and 128.",
			"ValueError: --swa-full-tokens-ratio should be in range (0, 1.0].",
			"ValueError: Decode context parallel size (--dcp-size / --decode-context-parallel-size) must be >= 1, but got dcp_size=0.",
		}},
		{family: "features that cannot be combined, named without their flags", want: "sglang-launch-flags-rejected", lines: []string{
			"AssertionError: PD-Multiplexing is not compatible with chunked prefill.",
			"AssertionError: Pipeline parallelism is not compatible with overlap schedule, speculative decoding",
			"AssertionError: PP is not supported with context parallelism",
			"AssertionError: multi-node data parallel is not supported unless dp attention!",
			"AssertionError: interleave DSA CP does not support DP attention.",
			"AssertionError: Elastic EP runtime scale-up requires decode and prefill CUDA graphs to be disabled.",
		}},
		{family: "the RDMA devices named for the transfer", want: "mooncake-no-rdma-device", lines: []string{
			"ValueError: Invalid IB devices specified for all GPUs: ['mlx5_9']. Available devices: ['mlx5_0', 'mlx5_1', 'mlx5_2', 'mlx5_3']",
			"RuntimeError: InfiniBand sysfs path not found: /sys/class/infiniband. Please ensure InfiniBand drivers are installed.",
			"RuntimeError: No IB devices found in /sys/class/infiniband",
		}},
		{family: "a kernel the GPU is too old for", want: "kernel-requires-newer-gpu", lines: []string{
			"ValueError: --quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 GPUs.",
			"ValueError: --bf16-gemm-backend cutedsl requires SM100/SM103 (Blackwell)",
			"RuntimeError: CuTe DSL GDN prefill requires SM100+ (Blackwell); got SM90.",
			"RuntimeError: MXFP4 Marlin requires SM90 or SM120.",
			"AssertionError: cutlass_fp8 MoE requires SM90, SM100, or SM120 GPUs",
			"ValueError: FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
			"ValueError: --enable-deepseek-v4-fp4-indexer requires SM100 GPUs with DeepGEMM FP4 indexer support.",
		}},
		{family: "speculative decoding flags", want: "speculative-decoding-config-refused", lines: []string{
			"ValueError: --speculative-use-rejection-sampling requires --speculative-eagle-topk=1.",
			"AssertionError: Speculative decoding is currently not supported with Flex Attention backend",
			"AssertionError: --enable-unified-memory is not yet compatible with speculative decoding.",
			"ValueError: Decode context parallel (--dcp-size / --decode-context-parallel-size > 1) on CUDA platform does not support any speculative algorithm, but got dcp_size=2 on a CUDA platform with speculative decoding enabled.",
			"ValueError: speculative_eagle_topk(4) > 1 with page_size(64) > 1 is unstable and produces incorrect results for paged attention backends. This combination is only supported for the 'flashinfer' backend.",
		}},
		{family: "a draft model or kernel speculative decoding cannot use", want: "speculative-decoding-config-refused", lines: []string{
			"AssertionError: PP is not compatible with MTP models.",
			"AssertionError: MTP Topk > 1 not supported for DeepSeek V4",
			"AssertionError: Only 1 nextn layer is supported",
			"ValueError: EAGLE3 currently only supports 1 layer",
			"AssertionError: FlashAttention backend doesn't support topk > 1 speculative decoding with page size > 1 sliding window attention",
			"ValueError: KDA FlashInfer speculative decoding only supports topk=1 (EAGLE tree verify / retrieve_parent_token is unsupported).",
			"AssertionError: enable_mixed_chunk is required for speculative decoding",
			"AssertionError: CPUGraphRunner does not support speculative inference yet.",
		}},
		{family: "attention backend the GPU or model cannot run", want: "attention-backend-unsupported", lines: []string{
			"ValueError: TRTLLM MHA backend for decode is only supported on Hopper (SM90), Blackwell (SM100) and (SM120) GPUs. Please use a different decode backend.",
			"ValueError: TRTLLM MHA backend for prefill is only supported on Blackwell GPUs (SM100). Please use a different prefill backend.",
			"AssertionError: GptOssForCausalLM requires one of ['triton', 'trtllm_mha', 'fa3', 'fa4'] attention backend, but got the following backends\n- Prefill: flashinfer\n- Decode: flashinfer\n",
			"AssertionError: fa3, aiter, triton, ascend, trtllm_mha or intel_xpu is required for Llama4 model but got flashinfer",
			"AssertionError: Gemma4 only supports trtllm_mha, triton, or intel_xpu attention backend, got prefill=flashinfer, decode=flashinfer",
			"ValueError: TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, bf16, or auto.",
			"ValueError: Dual chunk attention is enabled, but attention backend is set to flashinfer. Please set it to 'dual_chunk_flash_attn'.",
		}},
		{family: "parallel sizes that do not fit together", want: "parallel-sizes-inconsistent", lines: []string{
			"AssertionError: ep_size * moe_dp_size must be equal to tp_size",
			"AssertionError: The expert parallel size must be 1 or the same as the tensor parallel size",
			"ValueError: tp_size 8 must be divisible by ep_size 3",
			"RuntimeError: world_size (16) is not equal to tensor_model_parallel_size (8) x pipeline_model_parallel_size (1)",
			"RuntimeError: tensor_model_parallel_size (8) must be divisible by decode_context_parallel_size (3)",
			"ValueError: len(partitions)=3 does not match pp_size=4.",
		}},
		{family: "model dimensions the TP size does not divide", want: "tp-size-not-divisible", lines: []string{
			"ValueError: moe_intermediate_size 1408 must be divisible by moe_tp_size (3) which is tp_size (3) divided by moe_ep_size (1).",
		}},
		{family: "near misses: the launch's own notices", bare: true, lines: []string{
			mainLog("Attention backend not explicitly specified. Use flashinfer backend by default."),
			mainLog("--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto instead."),
			mainLog("Overlap scheduler is disabled because of using eagle speculative decoding."),
			mainLog("CUDA graph is disabled because --enable-mis is set."),
			mainLog("skip_tokenizer_init=True ignores --enable-tokenizer-batch-encode; disabling it."),
			"usage: launch_server.py [-h] --model-path MODEL_PATH [--tokenizer-path TOKENIZER_PATH]",
			mainLog("Duplicate IB devices specified for all GPUs: mlx5_0,mlx5_0. Deduplicating to: mlx5_0"),
			mainLog("Compute capability below sm80. Use float16 due to lack of bfloat16 support."),
			mainLog("Disable chunked prefix cache when page size > 1 with speculative decoding is not supported yet."),
		}},
	}},
	{name: "model runner: memory pool sizing", families: []raiseFamily{
		{family: "KV pool has no room", want: "not-enough-memory-mem-fraction-static", lines: []string{
			"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: mem_fraction_static=0.88",
			"RuntimeError: SWA pool cap (131072 tokens, 12.50 GiB) leaves no room for the full KV pool within the available 10.20 GiB. Reduce --max-running-requests, lower SGLANG_SWA_EVICTION_INTERVAL, or increase --mem-fraction-static.",
			"ValueError: SWA pool (2048 tokens) cannot hold even one request: the prefill admission floor is sliding_window_size (4096) + page_size (64). Increase --swa-full-tokens-ratio or the total KV budget.",
		}},
		{family: "hybrid state cache too small", want: "hybrid-state-cache-too-small", lines: []string{
			"RuntimeError: Not enough GPU memory for hybrid (mamba/linear-attention) state cache. Please increase --mem-fraction-static or reduce --max-mamba-cache-size.",
		}},
		{family: "prefill graph capture failed", want: "capture-cuda-graph-failed", lines: []string{
			"RuntimeError: Capture prefill CUDA graph failed: CUDA out of memory. Tried to allocate 2.00 GiB.\nPossible solutions:\n1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)",
			"Exception: Capture cuda graph failed: CUDA error: operation not permitted when stream is capturing",
		}},
		{family: "optional package a feature needs", want: "python-module-not-found", lines: []string{
			"ImportError: Breakable CUDA graph on NVIDIA requires the 'cuda-python' package. Install it with: pip install cuda-python",
			"ImportError: ModelExpress support requires the 'modelexpress' package. Install it in the SGLang image.",
			"ImportError: accelerate is required for ModelOpt quantization. Please install it with: pip install accelerate",
			"ImportError: ModelOpt is not available. Please install modelopt.",
		}},
		{family: "host memory for the hierarchical cache", want: "hicache-not-enough-host-memory", lines: []string{
			"ValueError: Not enough host memory available. Requesting 400.00 GB but only have 120.50 GB free. Please reduce the size of the hierarchical cache.",
			"ValueError: Not enough host memory for V4 paged pool swa_kv. Requesting 96.00 GB but only have 40.25 GB free.",
		}},
		{family: "hierarchical cache storage backend", want: "hicache-storage-backend-init-failed", lines: []string{
			"ValueError: Failed to create storage backend: Failed to connect to mooncake master at 10.0.0.9:50051",
			"ValueError: Unknown storage backend 'hf3fs_v2'. Registered backends: ['file', 'mooncake', 'hf3fs', 'nixl', 'aibrix', 'dynamic']. ",
			"ImportError: Failed to import backend 'mystore' from 'my_pkg.hicache': No module named 'my_pkg'",
		}},
		{family: "near misses: pool sizing notices", bare: true, lines: []string{
			hdr("KV Cache is allocated. #tokens: 1234567, K size: 35.21 GB, V size: 35.21 GB"),
			hdr("Memory pool end. avail mem=10.20 GB"),
			hdr("max_total_num_tokens=1234567, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=163840, available_gpu_mem=10.20 GB"),
		}},
	}},
	{name: "kernel and model layers: packages", families: []raiseFamily{
		{family: "a package a backend or model needs is not installed", want: "python-module-not-found", lines: []string{
			"ImportError: DeepEP is not installed. Please install DeepEP package from https://github.com/deepseek-ai/deepep.",
			"ImportError: Mooncake EP is not installed. Please install Mooncake package at https://github.com/kvcache-ai/Mooncake/blob/main/doc/en/build.md with EP support to run SGLang with Mooncake EP.",
			"RuntimeError: LMCache is not installed. Please install it by running `pip install lmcache`",
			"ImportError: The package `amd-quark` is required to use MX-FP4 models. Please install it with `pip install amd-quark`.",
			"ImportError: mistral_common is required for Voxtral. Install it with: pip install mistral_common",
			"RuntimeError: flashinfer_cutlass MoE runner backend requires flashinfer to be installed.",
			"ImportError: gRPC mode requires the smg-grpc-servicer package. If not installed, run: pip install smg-grpc-servicer[sglang]. If already installed, there may be a broken import in sglang's gRPC server modules.",
			"ImportError: checkpoint-engine is not installed. Please install it with: pip install sglang[checkpoint-engine]",
			"Exception: flashinfer with minimum required version 0.6.3 is not installed. Please `pip install flashinfer-python==0.6.3`",
		}},
		{family: "a package installed at a version the layer cannot use", want: "python-import-name-mismatch", lines: []string{
			"ImportError: Can't import trtllm_fp8_block_scale_moe from flashinfer. Please check flashinfer version.",
			"Exception: sgl-kernel is installed with version 0.3.9, which is less than the minimum required version 0.3.14. Please reinstall the latest version with `pip install sgl-kernel --force-reinstall`",
			"ImportError: bitsandbytes version is wrong. Please install bitsandbytes>=0.46.1.",
		}},
		{family: "near misses: a layer's own notices", bare: true, lines: []string{
			hdr("DeepEP is installed but not enabled; using the default MoE dispatcher."),
			mainLog("flashinfer is installed with version 0.6.3"),
		}},
	}},
	{name: "model loading", families: []raiseFamily{
		{family: "no weight files", want: "model-weights-not-found", lines: []string{
			"RuntimeError: Cannot find any model weights with `/models/Qwen3-8B`",
			"RuntimeError: No model weights found in: `/models/Qwen3-8B`",
		}},
		{family: "another rank did not finish loading", want: "model-load-ranks-out-of-step", lines: []string{
			"ValueError: TP rank 0 could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.",
		}},
		{family: "unknown architecture", want: "model-architecture-not-supported", lines: []string{
			"ValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM'])",
		}},
		{family: "near misses: loading progress", bare: true, lines: []string{
			hdr("Load weight begin. avail mem=78.50 GB"),
			hdr("Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=62.10 GB, mem usage=16.40 GB."),
			"Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:03<00:03,  1.52s/it]",
		}},
	}},
	{name: "distributed init", families: []raiseFamily{
		{family: "a port another instance holds", want: "address-already-in-use", lines: []string{
			"RuntimeError: engine_info_bootstrap_port 8998 is already in use. When running multiple instances on the same node, each instance must use a different --engine-info-bootstrap-port.",
		}},
		{family: "NCCL library not loadable", want: "nccl-library-load-failed", bare: true, lines: []string{
			hdr("Failed to load NCCL library from libnccl.so.2 . It is expected if you are not running on NVIDIA/AMD/MTHREADS GPUs. Otherwise, the nccl library might not exist, be corrupted or it does not support the current platform Linux-5.15.0-x86_64-with-glibc2.35. If you already have the library, please set the environment variable SGLANG_NCCL_SO_PATH to point to the correct nccl library path."),
		}},
		{family: "NCCL error", want: "nccl-unhandled-system-error", lines: []string{
			"RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
		}},
		{family: "near misses: init progress", bare: true, lines: []string{
			hdr("Init torch distributed begin."),
			hdr("Init torch distributed ends. mem usage=0.85 GB"),
		}},
	}},
	{name: "scheduler, DP controller, tokenizer manager", families: []raiseFamily{
		{family: "multi-node DP: node 0 never sent its ports", want: "dp-controller-worker-ports-timeout", lines: []string{
			"RuntimeError: Failed to receive worker ports from node 0 within timeout",
		}},
		{family: "multi-node DP: node 0 never sent its ports (logged)", want: "dp-controller-worker-ports-timeout", bare: true, lines: []string{
			mainLog("Timeout waiting for worker ports from node 0"),
		}},
		{family: "no DP worker left to route to", want: "dp-workers-unavailable", lines: []string{
			"RuntimeError: Cannot route request: all 4 active DP workers are unavailable.",
			"RuntimeError: No active DP workers are available for routing.",
		}},
		{family: "subprocess died", want: "subprocess-crashed-with-exit-code", bare: true, lines: []string{
			mainLog("Subprocess scheduler_0 (pid=4242) crashed with exit code -9. Triggering SIGQUIT for cleanup..."),
		}},
		{family: "watchdog", want: "watchdog-timeout", bare: true, lines: []string{
			hdr("Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)"),
		}},
		{family: "a request feature the launch did not enable", want: "request-feature-not-enabled", lines: []string{
			"ValueError: The server is not configured to return the hidden states. Please set `--enable-return-hidden-states` to enable this feature.",
			"ValueError: Streaming sessions are disabled. Please relaunch with --enable-streaming-session.",
			"ValueError: input_embeds is provided while disable_radix_cache is False. Please add `--disable-radix-cache` when you launch the server if you want to use input_embeds as inputs.",
			"ValueError: The engine initialized with skip_tokenizer_init=True cannot accept text prompts. Please provide input_ids or re-initialize the engine with skip_tokenizer_init=False.",
		}},
		{family: "near misses: serving progress", bare: true, lines: []string{
			hdr("Prefill batch, #new-seq: 1, #new-token: 128, #cached-token: 0, token usage: 0.01, #running-req: 0, #queue-req: 0"),
			hdr("Decode batch, #running-req: 4, #token: 2048, token usage: 0.02, cuda graph: True, gen throughput (token/s): 512.30, #queue-req: 0"),
			mainLog("The server is fired up and ready to roll!"),
		}},
	}},
	{name: "disaggregation", families: []raiseFamily{
		{family: "prefill instance gone", want: "disagg-prefill-instance-lost", bare: true, lines: []string{
			hdr("Lost connection with prefill instance (bootstrap_addr: 10.0.0.7:8998), 12 requests affected"),
		}},
		{family: "prefill instance gone (raised)", want: "disagg-prefill-instance-lost", lines: []string{
			"RuntimeError: Transfer thread failed because of Connection reset by peer. Prefill instance with bootstrap_port=8998 is dead.",
		}},
		{family: "prefill and decode launched differently", want: "disagg-prefill-decode-config-mismatch", lines: []string{
			"RuntimeError: KV cache dtype mismatch: prefill server has kv_cache_dtype=fp8_e4m3, but decode server has kv_cache_dtype=auto. Both servers must use the same --kv-cache-dtype value.",
			"RuntimeError: Page size mismatch: prefill server has page_size=64, but decode server has page_size=1. Both servers must use the same --page-size value.",
			"RuntimeError: PD Disaggregation does NOT support PD different TP sizes for non-MLA MAMBA hybrid models yet.",
			"RuntimeError: PD state transfer does not support TP-mismatched non-MLA SWA models (prefill_tp_size=8, decode_tp_size=4)",
		}},
		{family: "bootstrap server not reachable", want: "disagg-bootstrap-unreachable", bare: true, lines: []string{
			hdr("Prefill instance failed to register to bootstrap server after 5 retries"),
			hdr("Failed to register prefill dp_rank: HTTPConnectionPool(host='10.0.0.7', port=8998): Max retries exceeded with url: /register_dp_rank"),
			hdr("Failed to get prefill server info: 503, Service Unavailable"),
			hdr("Error querying dp_ranks from bootstrap: HTTPConnectionPool(host='10.0.0.7', port=8998): Max retries exceeded with url: /query_dp_ranks (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))"),
		}},
		{family: "staging buffer too small", want: "disagg-staging-buffer-too-small", lines: []string{
			"RuntimeError: [Staging] Chunk staging allocation permanently failed: chunk exceeds ring buffer total size (room=123456). Increase SGLANG_DISAGG_STAGING_POOL_SIZE_MB.",
		}},
		{family: "staging buffer too small (logged)", want: "disagg-staging-buffer-too-small", bare: true, lines: []string{
			hdr("[STAGING_REQ] alloc failed room=123456 chunk=3 (need 268435456 bytes, buffer total=134217728 bytes). Increase SGLANG_DISAGG_STAGING_POOL_SIZE_MB."),
		}},
		{family: "NIXL memory registration", want: "nixl-memory-registration-failed", lines: []string{
			"Exception: NIXL memory registration failed for kv tensors",
			"Exception: NIXL memory registration failed for aux tensors",
		}},
		{family: "NIXL backend plugin missing", want: "nixl-plugin-load-failed", lines: []string{
			"ValueError: NIXL backend 'UCX' not found. Available: ['GDS', 'POSIX']. Please install the required NIXL plugin or choose from: ['GDS', 'POSIX']",
		}},
		{family: "Mooncake too old", want: "mooncake-transfer-engine-too-old", lines: []string{
			"RuntimeError: Mooncake's batch register requires a newer version of mooncake-transfer-engine. Please upgrade Mooncake.",
			"RuntimeError: Mooncake's batch transfer requires mooncake-transfer-engine >= 0.3.4.post2. Please upgrade Mooncake by 'pip install mooncake-transfer-engine --upgrade'",
		}},
		{family: "transfer failed", want: "disagg-decode-transfer-failed", bare: true, lines: []string{
			hdr("Decode transfer failed for request rank=0 req.rid='abc123' req.bootstrap_room=123456 with exception KVTransferError(bootstrap_room=123456): Request 123456 timed out after 30.0s in KVPoll.WaitingForInput"),
		}},
		{family: "encoder disaggregation: the encoder went away", want: "epd-encoder-unavailable", bare: true, lines: []string{
			mainLog("Encoder http://10.0.0.8:30001 timeout (60s) for rid=3f2a9c (request 0)"),
			mainLog("Encoder HTTP request failed for req_id=17 (request 0): Cannot connect to host 10.0.0.8:30001 ssl:default [Connect call failed ('10.0.0.8', 30001)]"),
			hdr("Timed out waiting for image embeddings for request 3f2a9c"),
			mainLog("Encoder health check timed out after 20s"),
		}},
		{family: "encoder disaggregation: every encoder worker dead", want: "epd-encoder-unavailable", lines: []string{
			"sglang.srt.disaggregation.encode_server.MMError: All encoder DP workers are dead.",
		}},
		{family: "near misses: disaggregation notices", bare: true, lines: []string{
			hdr("Performance is NOT guaranteed when using different TP sizes for non-MLA models. "),
			mainLog("NIXL KVManager initialized with backend: UCX"),
		}},
	}},
	{name: "LoRA and grammar", families: []raiseFamily{
		{family: "near misses: a client loading an adapter twice", lines: []string{
			"ValueError: Failed to load LoRA adapter sql-lora because it is already loaded",
			"ValueError: LoRA with name sql-lora already exists. Loaded LoRAs: {'sql-lora': LoRARef(lora_id='1', lora_name='sql-lora')}",
		}},
		{family: "adapter does not fit the pool", want: "lora-adapter-incompatible", lines: []string{
			"ValueError: LoRA adapter sql-lora with rank 64 is incompatible with the current LoRA memory pool configuration. Please ensure that the LoRA adapter's rank is within the configured `--max-lora-rank` and that the target modules are included in `--lora-target-modules`.",
		}},
		{family: "LoRA not enabled", want: "lora-adapter-not-loaded", lines: []string{
			"ValueError: LoRA is not enabled. Please set `--enable-lora` to enable LoRA.",
		}},
		{family: "grammar backend parse", want: "xgrammar-grammar-parse-error", lines: []string{
			"RuntimeError: EBNF parser error at line 1, column 12: Expect element",
		}},
	}},
	{name: "OpenAI-compatible API", families: []raiseFamily{
		{family: "chat template missing", want: "chat-template-not-set", lines: []string{
			"ValueError: Cannot use chat template functions because tokenizer.chat_template is not set and no template argument was passed! For information about writing templates and setting the tokenizer.chat_template attribute, please see the documentation at https://huggingface.co/docs/transformers/main/en/chat_templating",
			"ValueError: This model has no HF chat template and no custom chat encoder; cannot encode chat messages with '/models/base-model'.",
		}},
		{family: "reranker served without its template", want: "request-feature-not-enabled", lines: []string{
			"ValueError: Invalid rerank request adaptation. If you are serving a decoder-only reranker (e.g., Qwen3-Reranker), please provide the corresponding --chat-template and launch the server with --is-embedding.",
		}},
		{family: "a misconfiguration answered to the client, as the HTTP layer logs it", want: "request-feature-not-enabled", bare: true, lines: []string{
			mainLog("[http_server] Error: This model does not appear to be an embedding model by default. Please add `--is-embedding` when launching the server or try another model."),
			mainLog("[http_server] Error: The server is not configured to return the hidden states. Please set `--enable-return-hidden-states` to enable this feature."),
		}},
		{family: "request over the context", want: "input-longer-than-context-length", lines: []string{
			"ValueError: The input (40000 tokens) is longer than the model's context length (32768 tokens).",
		}},
		{family: "near misses: a client's own mistakes", lines: []string{
			"ValueError: max_tokens must be positive",
			"ValueError: Exactly one of 'prompt' or 'messages' must be provided.",
		}},
	}},
	{name: "router (sgl-model-gateway)", families: []raiseFamily{
		{family: "worker unreachable", want: "router-worker-connect-failed", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::core::worker_manager", "Failed to connect gRPC client for worker grpc://10.0.0.7:31001: transport error"),
		}},
		{family: "no worker to route to", want: "router-no-available-workers", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::routers::http::router", "No available workers (all circuits open or unhealthy)"),
		}},
		{family: "workers never became healthy", want: "router-workers-startup-timeout", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::server", "Timeout 1800s waiting for workers [\"http://10.0.0.7:30000\"] to become healthy"),
		}},
		{family: "tokenizer not loadable", want: "router-tokenizer-load-failed", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::tokenizer", "Failed to load tokenizer '/models/Qwen3-8B': No such file or directory (os error 2)"),
		}},
		{family: "a PD pair's prefill side failed", want: "router-pd-transport-error", or: "grpc-unavailable", bare: true, lines: []string{
			gatewayLog(" WARN", "smg::routers::http::pd_router", "Prefill failed, aborting paired decode request decode_url=http://10.0.0.8:30000 prefill_url=http://10.0.0.7:30000"),
			gatewayLog("ERROR", "smg::routers::grpc::common::stages::request_execution", "Prefill worker failed to start function=\"execute_dual_dispatch\" error=status: Unavailable, message: \"error trying to connect\""),
		}},
		{family: "no PD pair for the model", want: "router-pd-role-unavailable", bare: true, lines: []string{
			gatewayLog(" WARN", "smg::routers::grpc::common::stages::worker_selection", "No available PD worker pairs for model mode=\"PrefillDecode\" model_id=Qwen3-8B"),
		}},
		{family: "router could not be built", want: "router-start-failed", bare: true, lines: []string{
			gatewayLog(" WARN", "smg::routers::router_manager", "Failed to create HTTP PD router: No prefill workers configured"),
			gatewayLog(" WARN", "smg::routers::router_manager", "Failed to create gRPC Regular router: tokenizer required for gRPC mode"),
		}},
		{family: "a worker given in the wrong connection mode", want: "router-worker-connect-failed", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::core::worker", "Worker http://10.0.0.7:30000 is not a gRPC worker but connection mode is gRPC"),
		}},
		{family: "near misses: the router's progress", bare: true, lines: []string{
			gatewayLog(" INFO", "smg::server", "Starting router on 0.0.0.0:30000 | mode: Regular | policy: CacheAware"),
			gatewayLog(" INFO", "smg::core::worker_manager", "Worker http://10.0.0.7:30000 is healthy"),
			gatewayLog(" WARN", "smg::core::steps::worker::shared::update_policies", "Model Qwen3-8B has conflicting tp_size: prefill=Some(\"8\"), decode=Some(\"4\")"),
		}},
	}},
}

// TestSglangWordings checks that every family of sglang's own failure
// wordings is led by its record on every composed line and that the routine
// lines stay unclaimed, and logs each component's count of families
// claimed. LOGMATCH_RAISES_DISCOVER logs what leads instead of failing.
func TestSglangWordings(t *testing.T) {
	m := compileCatalog(t)
	lead := func(text string) (*patterns.Record, []string) { return raiseLead(m, text) }
	for _, comp := range sglangComponents {
		shapes := raiseShapes
		if strings.HasPrefix(comp.name, "server_args") {
			shapes = func(f raiseFamily, line string) []string {
				texts := raiseShapes(f, line)
				if !f.bare {
					texts = append(texts, sglangLaunchTB(line))
				}
				return texts
			}
		}
		t.Run(comp.name, func(t *testing.T) {
			familyCheck{shapes: shapes, lead: lead}.run(t, comp.name, comp.families)
		})
	}
}

// sglangWordingsExamples are the examples of the records the families above
// brought in; sglangWordingsWidened the lines of records they widened.
var sglangWordingsExamples = map[string]example{
	"sglang-launch-flags-rejected": {
		match: []string{
			sglangLaunchTB("ValueError: --retraction-policy priority requires --enable-priority-scheduling"),
			tb("AssertionError: --enable-unified-memory is not yet compatible with PD disaggregation."),
			"argparse.ArgumentTypeError: --cuda-graph-config must be JSON: Expecting value: line 1 column 1 (char 0)",
		},
		miss: []string{
			"ValueError: max_tokens must be positive",
			mainLog("--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto instead."),
			"Consider the ValueError: seen with --enable-lora in the docs",
		},
	},
	"parallel-sizes-inconsistent": {
		match: []string{
			tb("AssertionError: ep_size * moe_dp_size must be equal to tp_size"),
			sglangLaunchTB("RuntimeError: world_size (16) is not equal to tensor_model_parallel_size (8) x pipeline_model_parallel_size (1)"),
			"ValueError: len(partitions)=3 does not match pp_size=4.",
		},
		miss: []string{
			"ValueError: moe_intermediate_size 1408 must be divisible by moe_tp_size (3) which is tp_size (3) divided by moe_ep_size (1).",
			hdr("Init torch distributed begin. tp_size=8, ep_size=8"),
		},
	},
	"model-load-ranks-out-of-step": {
		match: []string{
			tb("ValueError: TP rank 0 could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node."),
			"ValueError: TP rank 3 could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.",
		},
		miss: []string{hdr("Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=62.10 GB, mem usage=16.40 GB.")},
	},
	"dp-controller-worker-ports-timeout": {
		match: []string{
			rawTB("RuntimeError: Failed to receive worker ports from node 0 within timeout"),
			mainLog("Timeout waiting for worker ports from node 0"),
		},
		miss: []string{mainLog("Received worker ports from node 0")},
	},
	"dp-workers-unavailable": {
		match: []string{
			"RuntimeError: Cannot route request: all 4 active DP workers are unavailable.",
			rawTB("RuntimeError: No active DP workers are available for routing."),
		},
		miss: []string{mainLog("Launched 4 DP workers; all active")},
	},
	"disagg-prefill-instance-lost": {
		match: []string{
			hdr("Lost connection with prefill instance (bootstrap_addr: 10.0.0.7:8998), 12 requests affected"),
			tb("RuntimeError: Transfer thread failed because of Connection reset by peer. Prefill instance with bootstrap_port=8998 is dead."),
		},
		miss: []string{hdr("Connected to prefill instance (bootstrap_addr: 10.0.0.7:8998)")},
	},
	"disagg-prefill-decode-config-mismatch": {
		match: []string{
			tb("RuntimeError: KV cache dtype mismatch: prefill server has kv_cache_dtype=fp8_e4m3, but decode server has kv_cache_dtype=auto. Both servers must use the same --kv-cache-dtype value."),
			"RuntimeError: Page size mismatch: prefill server has page_size=64, but decode server has page_size=1. Both servers must use the same --page-size value.",
			"RuntimeError: PD Disaggregation does NOT support PD different TP sizes for non-MLA MAMBA hybrid models yet.",
		},
		miss: []string{hdr("Performance is NOT guaranteed when using different TP sizes for non-MLA models. ")},
	},
	"nccl-library-load-failed": {
		match: []string{
			hdr("Failed to load NCCL library from libnccl.so.2 . It is expected if you are not running on NVIDIA/AMD/MTHREADS GPUs. Otherwise, the nccl library might not exist, be corrupted or it does not support the current platform Linux-5.15.0-x86_64-with-glibc2.35."),
			"Failed to load NCCL library from /opt/nccl/lib/libnccl.so.2 . It is expected if you are not running on NVIDIA/AMD/MTHREADS GPUs.",
		},
		miss: []string{hdr("Found nccl from library libnccl.so.2")},
	},
	"kernel-requires-newer-gpu": {
		match: []string{
			tb("RuntimeError: CuTe DSL GDN prefill requires SM100+ (Blackwell); got SM90."),
			sglangLaunchTB("ValueError: --quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 GPUs."),
			"AssertionError: MXFP8 requires SM100",
		},
		miss: []string{
			mainLog("Compute capability below sm80. Use float16 due to lack of bfloat16 support."),
			"ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 89. Current capability: 80.",
		},
	},
	"hicache-storage-backend-init-failed": {
		match: []string{
			tb("ValueError: Failed to create storage backend: Failed to connect to mooncake master at 10.0.0.9:50051"),
			"ValueError: Unknown storage backend 'hf3fs_v2'. Registered backends: ['file', 'mooncake']. ",
		},
		miss: []string{hdr("Creating storage backend: mooncake")},
	},
	"epd-encoder-unavailable": {
		match: []string{
			mainLog("Encoder http://10.0.0.8:30001 timeout (60s) for rid=3f2a9c (request 0)"),
			hdr("Timed out waiting for image embeddings for request 3f2a9c"),
		},
		miss: []string{mainLog("Encoder http://10.0.0.8:30001 returned 2 embeddings for rid=3f2a9c")},
	},
	"disagg-staging-buffer-too-small": {
		match: []string{
			tb("RuntimeError: [Staging] Chunk staging allocation permanently failed: chunk exceeds ring buffer total size (room=123456). Increase SGLANG_DISAGG_STAGING_POOL_SIZE_MB."),
			hdr("[STAGING_REQ] alloc failed room=123456 chunk=3 (need 268435456 bytes, buffer total=134217728 bytes). Increase SGLANG_DISAGG_STAGING_POOL_SIZE_MB."),
		},
		miss: []string{hdr("[Staging] staging buffer allocated: 512 MB")},
	},
}

var sglangWordingsWidened = map[string]example{
	"speculative-decoding-config-refused": {match: []string{
		"AssertionError: PP is not compatible with MTP models.",
		"ValueError: EAGLE3 currently only supports 1 layer",
		"ValueError: --speculative-use-rejection-sampling requires --speculative-eagle-topk=1.",
		"AssertionError: Speculative decoding is currently not supported with Flex Attention backend",
		"AssertionError: --enable-unified-memory is not yet compatible with speculative decoding.",
	}},
	"attention-backend-unsupported": {match: []string{
		"ValueError: TRTLLM MHA backend for decode is only supported on Hopper (SM90), Blackwell (SM100) and (SM120) GPUs. Please use a different decode backend.",
		"AssertionError: fa3, aiter, triton, ascend, trtllm_mha or intel_xpu is required for Llama4 model but got flashinfer",
		"ValueError: TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, bf16, or auto.",
	}},
	"tp-size-not-divisible": {match: []string{
		"ValueError: moe_intermediate_size 1408 must be divisible by moe_tp_size (3) which is tp_size (3) divided by moe_ep_size (1).",
	}},
	"not-enough-memory-mem-fraction-static": {match: []string{
		"RuntimeError: SWA pool cap (131072 tokens, 12.50 GiB) leaves no room for the full KV pool within the available 10.20 GiB. Reduce --max-running-requests, lower SGLANG_SWA_EVICTION_INTERVAL, or increase --mem-fraction-static.",
		"ValueError: SWA pool (2048 tokens) cannot hold even one request: the prefill admission floor is sliding_window_size (4096) + page_size (64). Increase --swa-full-tokens-ratio or the total KV budget.",
	}},
	"capture-cuda-graph-failed": {match: []string{
		"RuntimeError: Capture prefill CUDA graph failed: CUDA out of memory. Tried to allocate 2.00 GiB.",
	}},
	"python-module-not-found": {match: []string{
		"ImportError: DeepEP is not installed. Please install DeepEP package from https://github.com/deepseek-ai/deepep.",
		"RuntimeError: flashinfer_cutlass MoE runner backend requires flashinfer to be installed.",
		"ImportError: Breakable CUDA graph on NVIDIA requires the 'cuda-python' package. Install it with: pip install cuda-python",
		"ImportError: accelerate is required for ModelOpt quantization. Please install it with: pip install accelerate",
		"ImportError: ModelOpt is not available. Please install modelopt.",
	}},
	"model-weights-not-found": {match: []string{"RuntimeError: No model weights found in: `/models/Qwen3-8B`"}},
	"address-already-in-use": {match: []string{
		"RuntimeError: engine_info_bootstrap_port 8998 is already in use. When running multiple instances on the same node, each instance must use a different --engine-info-bootstrap-port.",
	}},
	"request-feature-not-enabled": {match: []string{
		"ValueError: The server is not configured to return the hidden states. Please set `--enable-return-hidden-states` to enable this feature.",
		"ValueError: Streaming sessions are disabled. Please relaunch with --enable-streaming-session.",
		"ValueError: input_embeds is provided while disable_radix_cache is False. Please add `--disable-radix-cache` when you launch the server if you want to use input_embeds as inputs.",
	}},
	"disagg-bootstrap-unreachable": {match: []string{
		hdr("Prefill instance failed to register to bootstrap server after 5 retries"),
		hdr("Failed to get prefill server info: 503, Service Unavailable"),
	}},
	"nixl-memory-registration-failed": {match: []string{"Exception: NIXL memory registration failed for kv tensors"}},
	"nixl-plugin-load-failed": {match: []string{
		"ValueError: NIXL backend 'UCX' not found. Available: ['GDS', 'POSIX']. Please install the required NIXL plugin or choose from: ['GDS', 'POSIX']",
	}},
	"mooncake-transfer-engine-too-old": {match: []string{
		"RuntimeError: Mooncake's batch register requires a newer version of mooncake-transfer-engine. Please upgrade Mooncake.",
	}},
	"mooncake-no-rdma-device": {match: []string{
		"ValueError: Invalid IB devices specified for all GPUs: ['mlx5_9']. Available devices: ['mlx5_0', 'mlx5_1']",
		"RuntimeError: No IB devices found in /sys/class/infiniband",
	}},
	"hicache-not-enough-host-memory": {match: []string{
		"ValueError: Not enough host memory for V4 paged pool swa_kv. Requesting 96.00 GB but only have 40.25 GB free.",
	}},
	"router-pd-transport-error": {match: []string{
		gatewayLog(" WARN", "smg::routers::http::pd_router", "Prefill failed, aborting paired decode request decode_url=http://10.0.0.8:30000 prefill_url=http://10.0.0.7:30000"),
	}},
	"router-start-failed": {match: []string{
		gatewayLog(" WARN", "smg::routers::router_manager", "Failed to create HTTP PD router: No prefill workers configured"),
	}},
	"router-pd-role-unavailable": {match: []string{
		gatewayLog(" WARN", "smg::routers::grpc::common::stages::worker_selection", "No available PD worker pairs for model mode=\"PrefillDecode\" model_id=Qwen3-8B"),
	}},
	"router-worker-connect-failed": {match: []string{
		gatewayLog("ERROR", "smg::core::worker", "Worker http://10.0.0.7:30000 is not a gRPC worker but connection mode is gRPC"),
	}},
	"python-import-name-mismatch": {match: []string{
		"ImportError: Can't import trtllm_fp8_block_scale_moe from flashinfer. Please check flashinfer version.",
		"Exception: sgl-kernel is installed with version 0.3.9, which is less than the minimum required version 0.3.14. Please reinstall the latest version with `pip install sgl-kernel --force-reinstall`",
	}},
	"chat-template-not-set": {match: []string{
		"ValueError: This model has no HF chat template and no custom chat encoder; cannot encode chat messages with '/models/base-model'.",
	}},
}

func init() { addExamples(sglangWordingsExamples, sglangWordingsWidened) }
