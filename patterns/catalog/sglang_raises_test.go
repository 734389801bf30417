package catalog_test

import (
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// sglang's raises and logged errors, second round: the families of the
// components the first round (sglang_wordings_test.go) left open or only
// touched. Read from sglang's sources (quantization methods and their GEMM
// backends, the model loader, LoRA manager and registry, the grammar
// backends, the tokenizer and detokenizer managers, the MoE dispatchers,
// and the model runner's start-up checks), grouped by cause and composed
// the way the process prints them, as sglang_wordings_test.go does.
var sglangRaiseComponents = []raiseLibrary{
	{name: "quantization: GPU and backends", families: []raiseFamily{
		{family: "a quantization scheme the GPU is too old for", want: "quantization-scheme-needs-newer-gpu", or: "kernel-requires-newer-gpu", lines: []string{
			"RuntimeError: Quantization scheme is not supported for the current GPU. Min capability: 89. Current capability: 80.",
			"ValueError: Current platform does not support NVFP4 quantization. Please use Blackwell and above.",
			"ValueError: Current platform does not support NVFP4 quantization with the selected MoE backend. Please use Blackwell and above, or use moe_runner_backend=marlin on SM80+.",
			"ValueError: ModelOpt NVFP4 native dense GEMM backends require SM100+. Use --fp4-gemm-backend marlin on SM80-SM90.",
			"RuntimeError: MXFP8 dense linear requires Blackwell GPUs (SM100/SM120) or ROCm gfx95.",
			"RuntimeError: MXFP8 MoE quantization requires SM100 or ROCm gfx95 (gfx942 converts MXFP8 to block-fp8 at load instead).",
		}},
		{family: "a GEMM backend the flags name is not available", want: "gemm-backend-unavailable", lines: []string{
			"RuntimeError: DeepGEMM backend requested via --fp8-gemm-backend=deep_gemm, but DeepGEMM is not available. This usually means the deep_gemm package is not installed or has been disabled via SGLANG_ENABLE_JIT_DEEPGEMM=0.",
			"RuntimeError: FlashInfer FP8 GEMM requested via --fp8-gemm-backend=flashinfer_trtllm, but FlashInfer is not available or not supported on this hardware. FlashInfer TRTLLM FP8 GEMM requires SM100/SM103 GPUs and FlashInfer.",
			"RuntimeError: FlashInfer FP8 GEMM requested via --fp8-gemm-backend=flashinfer_cutlass, but FlashInfer is not available or not supported on this hardware. FlashInfer CUTLASS FP8 GEMM requires Blackwell GPUs and FlashInfer.",
			"RuntimeError: AITER backend requested via --fp8-gemm-backend=aiter, but AITER is not available. AITER requires AMD GPUs with SGLANG_USE_AITER=1 environment variable set.",
			"RuntimeError: FlashInfer DeepGEMM with swapAB requested via --fp8-gemm-backend=flashinfer_deepgemm, but it's not available. This backend requires Hopper (SM90) GPUs and FlashInfer to be installed.",
		}},
		{family: "the checkpoint's quantization config lacks what the method reads", want: "quantization-config-incomplete", lines: []string{
			"ValueError: Cannot find 'quant_algo' in the model's quantization config. Expected either flat format (config.json) or nested format (hf_quant_config.json).",
			"ValueError: Cannot find any of ['quant_method', 'quant_algo'] in the model's quantization config.",
			"ValueError: NVFP4 quantization requires group_size and exclude_modules specified in the quantization config",
			"ValueError: NVFP4 quantization requires group size and kv_cache_quant_algo specified in hf_quant_config.json",
			"ValueError: Found different quantization schemes for ['q_proj', 'k_proj', 'v_proj'] in model.layers.0.self_attn.qkv_proj. SGLang requires all to use the same scheme.",
		}},
		{family: "MoE sizes the quantized block does not divide", want: "quantized-weight-tp-split-misaligned", lines: []string{
			"ValueError: For quantized MoE models, please make sure (moe_intermediate_size=1408 / moe_tp_size=8) % weight_block_size_n=128 == 0 where moe_tp_size is equal to tp_size (8) divided by ep_size (1). You can fix this by setting arguments `--tp-size` and `--ep-size` correctly.",
		}},
		{family: "a quantization package not installed", want: "python-module-not-found", lines: []string{
			"ImportError: Please install bitsandbytes>=0.46.1 via `pip install bitsandbytes>=0.46.1` to use bitsandbytes quantizer.",
			"ImportError: Please install gguf via `pip install gguf` to use gguf quantizer.",
			"ImportError: NixlEP is not installed. Please install NixlEP package from https://github.com/ai-dynamo/nixl.",
			"ImportError: Mori EP is not installed. Please install.",
		}},
	}},
	{name: "model loading: architectures and GPUs", families: []raiseFamily{
		{family: "no sglang model and no Transformers fallback", want: "model-architecture-no-implementation", lines: []string{
			"ValueError: Cannot find model module. 'FooForCausalLM' is not a registered model in the Transformers library (only relevant if the model is meant to be in Transformers) and 'AutoModel' is not present in the model config's 'auto_map' (relevant if the model is custom).",
			"ValueError: Cannot find model module. 'FooForCausalLM' is not a registered model in the Transformers library and loading the custom model from auto_map failed. The remote model code may be incompatible with the installed transformers version.",
		}},
		{family: "a GPU older than sglang runs on", want: "gpu-compute-capability-unsupported", lines: []string{
			"RuntimeError: SGLang only supports sm75 and above.",
		}},
	}},
	{name: "LoRA manager and registry", families: []raiseFamily{
		{family: "adapter modules outside the launch's target modules", want: "lora-adapter-incompatible", lines: []string{
			"ValueError: LoRA adapter 'sql-lora' contains target modules {'gate_proj', 'up_proj'} that are not included in the specified --lora-target-modules {'q_proj', 'v_proj'}. Please update --lora-target-modules to include all required modules: {'gate_proj', 'up_proj', 'q_proj', 'v_proj'}, or use 'all' to enable all supported modules.",
			"ValueError: SGLang does not recognize target_modules='all-linear-ish'. Please use a list of module name suffixes in the adapter's PEFT config, or explicitly specify --lora-target-modules during server startup.",
			"ValueError: SGLang currently only supports inferring LoRA target modules when a list of suffixes is provided in `target_modules` field of PEFT config. Please explicitly specify `--lora-target-modules` during server startup. You can specify `all` to enable all support modules types.",
		}},
		{family: "an adapter kind LoRA serving cannot run", want: "lora-adapter-format-unsupported", lines: []string{
			"ValueError: Failed to load /adapters/dora-7b because LoRA serving currently doesn't support DoRA adapters",
			"ValueError: Failed to load /adapters/extra-tokens because LoRA serving currently doesn't support adapters that add tokens to the vocabulary",
		}},
		{family: "a request names an adapter the server has not loaded", want: "lora-adapter-not-loaded", lines: []string{
			"ValueError: LoRA adapter 'sql-lora' was requested, but LoRA is not enabled. Please launch the server with --enable-lora flag and preload adapters using --lora-paths or /load_lora_adapter endpoint.",
			"ValueError: Got LoRA adapter that has never been loaded: sql-lora\nAll loaded adapters: dict_keys(['chat-lora']).",
			"ValueError: The following requested LoRA adapters are not loaded: ['sql-lora']\nLoaded adapters: dict_keys(['chat-lora']).",
		}},
		{family: "more adapters than the pool holds", want: "lora-adapter-limit-exceeded", lines: []string{
			"ValueError: No available buffer slots found. Please ensure the number of active (pinned) loras is less than max_loras_per_batch.",
			"ValueError: Failed to load LoRA adapter sql-lora as a pinned adapter. It is not allowed to pin all slots in the LoRA memory pool to avoid starvation for unpinned adapters and base models. Please increase your `--max-loras-per-batch` or load it as unpinned LoRA adapters.",
			"ValueError: Received request with 5 unique loras requested but max loaded loras is 4",
		}},
	}},
	{name: "server_args by area", families: []raiseFamily{
		{family: "speculative decoding with features it cannot run beside", want: "speculative-decoding-config-refused", or: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: Currently DFLASH speculative decoding does not support dp attention.",
			"ValueError: Currently ngram speculative decoding does not support dp attention.",
			"ValueError: Currently LoRA is only compatible with NGRAM speculative decoding.",
			"ValueError: Currently standalone speculative decoding does not support dp attention.",
		}},
		{family: "hierarchical cache with a layout it cannot offload", want: "sglang-launch-flags-rejected", lines: []string{
			"NotImplementedError: HiCache with --dcp-size > 1 is only supported for MLA models: the index translation lives in MLATokenToKVPoolHost, and the MHA host pool has none.",
			"ValueError: Hierarchical cache for MiMoV2 requires the unified radix tree. Set SGLANG_ENABLE_UNIFIED_RADIX_TREE=1 to enable --enable-hierarchical-cache for this model.",
			"ValueError: --enable-int8-mamba-checkpoint is not supported together with --enable-hierarchical-cache: the host-offload path (HiMambaRadixCache) is not int8-aware. Disable one of them.",
		}},
		{family: "multimodal feature transport", want: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: --mm-feature-transport=cuda_ipc only supports a single node.",
			"ValueError: --keep-mm-feature-on-device conflicts with --mm-feature-transport=cpu. Use only --mm-feature-transport=cuda_ipc.",
		}},
		{family: "attention backend refused for deterministic inference or the GPU", want: "attention-backend-unsupported", or: "kernel-requires-newer-gpu", lines: []string{
			"ValueError: Currently only ['flashinfer', 'fa3', 'triton'] attention backends are supported for deterministic inference, but you explicitly specified 'trtllm_mha'.",
			"ValueError: trtllm_mla backend requires MLA model (use_mla_backend=True).",
			"ValueError: CuteDSL MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.",
			"ValueError: CuteDSL MLA backend only supports kv-cache-dtype of fp8_e4m3, bf16, or auto.",
		}},
		{family: "gRPC front end flags", want: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: --grpc-port (30000) must differ from --port (30000)",
			"ValueError: --sidecar requires --grpc-port or SGLANG_GRPC_PORT.",
		}},
	}},
	{name: "start-up: devices and addresses", families: []raiseFamily{
		{family: "no accelerator visible", want: "no-cuda-gpus-available", lines: []string{
			"RuntimeError: No accelerator (CUDA, XPU, HPU, NPU, MUSA, MPS) or platform plugin is available.",
			"RuntimeError: No supported accelerator (CUDA/XPU) available",
		}},
		{family: "an address that does not resolve or bind", want: "sglang-host-address-unusable", lines: []string{
			"ValueError: Cannot resolve host sglang-prefill-0.sglang: [Errno -2] Name or service not known",
			"OSError: Could not bind port 30000 on any configured address family",
			"ValueError: Can not get local ip",
			"ValueError: Missing port in address (expected host:port): 10.0.0.7",
		}},
	}},
	{name: "scheduler runtime checks", families: []raiseFamily{
		{family: "prefill cannot get KV slots", want: "prefill-out-of-memory", bare: true, lines: []string{
			schedLog("Prefill out of memory. Try to lower your batch size.\nTry to allocate 8192 tokens.\nAvailable tokens: 1024 + evictable tokens: 0"),
		}},
		{family: "decode cannot get KV slots", want: "decode-out-of-memory", lines: []string{
			"RuntimeError: Decode out of memory. Try to lower your batch size.\nTry to allocate 64 tokens.\nAvailable tokens: 0 + evictable tokens: 0",
		}},
		{family: "a pool leaks slots", want: "memory-leak-detected", lines: []string{
			"ValueError: token_to_kv_pool_allocator memory leak detected! self.max_total_num_tokens=1234567, available_size=1234000, evictable_size=0, protected_size=0",
			"ValueError: req_to_token_pool memory leak detected!available_size=4095, session_held=0, total_size=4096",
		}},
		{family: "the last request cannot fit even alone", want: "retract-decode-aborted-last-request", bare: true, lines: []string{
			schedLog("retract_decode: aborted last request 3f2a9c due to OOM"),
		}},
		{family: "retraction under pressure (a rate to watch)", want: "kv-cache-pool-full-retract", bare: true, lines: []string{
			schedLog("KV cache pool is full. Retract requests. #retracted_reqs: 2, #new_tokens_gained: 4096, #new_token_ratio: 0.7000 -> 0.8500"),
		}},
	}},
	{name: "CUDA graph capture and torch.compile", families: []raiseFamily{
		{family: "decode graph capture failed", want: "capture-cuda-graph-failed", lines: []string{
			"Exception: Capture cuda graph failed: CUDA error: out of memory\nPossible solutions:\n1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)",
		}},
		{family: "torch.compile on NPU without torchair", want: "python-module-not-found", lines: []string{
			"ImportError: NPU detected, but torchair package is not installed. Please install torchair for torch.compile support on NPU.",
		}},
	}},
	{name: "model loading: checkpoints and weights", families: []raiseFamily{
		{family: "checkpoint keys the model does not have, or the reverse", want: "checkpoint-weights-do-not-fit-model", lines: []string{
			"ValueError: Missing keys {'lm_head.weight'} in loaded state!",
			"ValueError: No module or parameter named model.layers.0.mlp.experts.w13_weight in Qwen3MoeForCausalLM.",
			"ValueError: Attempted to load nested weight model.visual.blocks.0.attn.qkv into parameter model.visual.blocks.0.attn",
		}},
		{family: "a model's config the loader cannot read", want: "hf-config-file-missing", lines: []string{
			"ValueError: Cannot find the config file for /models/Qwen3-8B",
			"ValueError: Found multiple config files for /models/mistral: ['params.json', 'config.json']",
			"ValueError: Failed to load mistral 'params.json' config for model /models/Mistral-Small. Please check if the model is a mistral-format model and if the config file exists.",
		}},
	}},
	{name: "sgl-kernel's Python checks", families: []raiseFamily{
		{family: "the native kernel library does not load", want: "sgl-kernel-common-ops-load-failed", lines: []string{
			"ImportError: \n[sgl_kernel] CRITICAL: Could not load any common_ops library!\n\nAttempted locations:\n1. Architecture-specific pattern: /usr/local/lib/python3.12/dist-packages/sgl_kernel/sm100/common_ops.* - found files: []",
		}},
		{family: "a kernel extension missing from the build", want: "sgl-kernel-extension-missing", lines: []string{
			"ImportError: Can not import FA3 in sgl_kernel. Please check your installation.",
			"ImportError: [sgl_kernel] Could not locate the 'infllm_ops' extension (infllm_ops*.so). Ensure sgl-kernel was built with the InfLLM-V2 FlashAttention backend.",
		}},
		{family: "a kernel the GPU is too old for", want: "attention-backend-unsupported", or: "kernel-requires-newer-gpu", lines: []string{
			"NotImplementedError: flash_attn at sgl-kernel is only supported on sm90 and above",
		}},
	}},
	{name: "HiCache storage backends", families: []raiseFamily{
		{family: "the Mooncake store has no master to reach", want: "hicache-mooncake-store-config-missing", lines: []string{
			"ValueError: Either the environment variable 'MOONCAKE_MASTER' or 'MOONCAKE_CLIENT' is not set.",
			"ValueError: Either master_server_address or client_server_address is required in extra_config",
			"ValueError: Invalid global_segment_size: missing number before 'gb'",
		}},
		{family: "a storage backend that does not attach", want: "hicache-storage-backend-init-failed", bare: true, lines: []string{
			schedLog("Failed to attach storage backend 'mooncake': Failed to connect to mooncake master at 10.0.0.9:50051"),
			schedLog("Failed to create dynamic storage backend 'my_store': No module named 'my_pkg'"),
		}},
		{family: "the store refused the buffer registration", want: "hicache-storage-backend-init-failed", or: "mooncake-memory-registration-failed", lines: []string{
			"RuntimeError: Failed to register buffer to Mooncake Store, error code: -1",
			"RuntimeError: Failed to pre-register host 10.0.0.9 with NIXL",
			"RuntimeError: Failed to create NIXL backend",
		}},
		{family: "a 3FS or EIC store that does not start", want: "hicache-storage-backend-init-failed", or: "network-connection-failed", lines: []string{
			"RuntimeError: Failed to connect to metadata server: [Errno 111] Connection refused",
			"RuntimeError: EIC Client Init Failed.",
		}},
	}},
	{name: "OpenAI-compatible layer and chat templates", families: []raiseFamily{
		{family: "a chat template the launch names is not there", want: "chat-template-not-found", lines: []string{
			"RuntimeError: Chat template /templates/qwen3.jinja is not a built-in template name or a valid chat template file path.",
			"RuntimeError: Completion template deepseek-coder-fim is not a built-in template name or a valid completion template file path.",
			"ValueError: Specified template 'llama-4' not found. Available templates: ['chatml', 'llama-3', 'qwen']",
		}},
		{family: "Anthropic thinking on a model without its reasoning parser", want: "anthropic-thinking-needs-reasoning-parser", lines: []string{
			"ValueError: Anthropic thinking is not supported for models without a reasoning parser",
			"ValueError: Anthropic thinking is not supported for reasoning parser 'deepseek-r1'",
		}},
		{family: "near misses: a client's malformed conversation", lines: []string{
			"ValueError: Found more '<image>' placeholders in input prompt than actual multimodal data items.",
			"ValueError: Unknown role: tool_result",
		}},
	}},
	{name: "weight updates and the weight cache", families: []raiseFamily{
		{family: "an online weight update that failed", want: "weight-update-failed", lines: []string{
			"RuntimeError: Failed to update parameter online: NCCL error: remote process exited or there was a network error. The full weights of the ModelRunner are partially updated. Please discard the whole weights.",
		}},
		{family: "the weight cache daemon did not start", want: "weight-cache-daemon-failed", lines: []string{
			"RuntimeError: Weight cache daemon (pid=4242) exited prematurely with code 1",
			"TimeoutError: Weight cache daemon for pp_rank=0 tp_rank=3 did not become ready within 600s",
		}},
		{family: "weight cache flags that do not combine", want: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: Weight cache daemon mode does not support dp_size > 1. Please set --dp-size 1 when using --weight-cache-mode daemon.",
			"ValueError: Multi-node weight cache daemons (nnodes > 1) require --dist-init-addr so all nodes rendezvous at the same endpoint.",
			"RuntimeError: [weight_cache] update_weights_from_disk is not supported while the weight cache is active (--weight-cache-mode daemon): model weights are shared with the daemon via CUDA IPC, so mutating them in place would corrupt the daemon's master copy and every co-attached engine.",
		}},
	}},
	{name: "speculative decoding workers", families: []raiseFamily{
		{family: "a draft model whose vocabulary differs from the target's", want: "speculative-draft-vocab-mismatch", lines: []string{
			"ValueError: STANDALONE speculative decoding requires the draft model to share the same vocabulary as the target model, but got target vocab_size=152064 and draft vocab_size=151936. Use a draft model from the same family.",
			"ValueError: --speculative-use-rejection-sampling requires the draft and target to share one vocab, but the draft vocab (32000) != target vocab (128256).",
		}},
		{family: "draft graph capture failed", want: "capture-cuda-graph-failed", lines: []string{
			"Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 1.00 GiB.\nPossible solutions:\n1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)",
		}},
		{family: "a draft attention backend the model cannot use", want: "attention-backend-unsupported", lines: []string{
			"ValueError: trtllm_mla backend requires MLA model (use_mla_backend=True).",
			"ValueError: cutedsl_mla backend requires MLA model (use_mla_backend=True).",
		}},
		{family: "an unknown speculative algorithm", want: "speculative-decoding-config-refused", lines: []string{
			"ValueError: Unknown speculative algorithm name: EAGLE4",
		}},
	}},
	{name: "platform plugins", families: []raiseFamily{
		{family: "the platform plugin named or found cannot run here", want: "sglang-platform-plugin-unavailable", lines: []string{
			"RuntimeError: SGLANG_PLATFORM=my_npu not found in discovered platform plugins (available: ['cuda', 'rocm']). Install the plugin with 'pip install -e' to register its entry_points.",
			"RuntimeError: Platform plugin sglang_ascend is installed but activate() returned None (hardware not available on this machine?).",
			"RuntimeError: Multiple platform plugins activated: ['sglang_ascend', 'sglang_musa']. Set SGLANG_PLATFORM to select one.",
		}},
		{family: "MXFP8 on an Ascend build without the dtype", want: "quantization-scheme-needs-newer-gpu", lines: []string{
			"RuntimeError: float8_e8m0fnu dtype not found — MXFP8 MoE requires Ascend A5 with a torch_npu build exposing float8_e8m0fnu (torch_npu >= 2.9).",
		}},
	}},
	{name: "encoder disaggregation and multimodal processors", families: []raiseFamily{
		{family: "the encoder side timed out", want: "epd-encoder-unavailable", bare: true, lines: []string{
			mainLog("Encoder HTTP request timeout (60s) for req_id=17 (request 0), encoder=http://10.0.0.8:30001"),
			schedLog("EncoderScheduler.submit timed out after 30s for req_id=17"),
			mainLog("Request 17 to encoder /scheduler_receive_url timed out (10s) for req_id=17"),
		}},
		{family: "a processor package a model needs", want: "python-module-not-found", lines: []string{
			"ImportError: Please install torchvision via `pip install torchvision` to use Deepseek-VL2.",
			"ImportError: Please install fastsafetensors via `pip install fastsafetensors`",
		}},
	}},
	{name: "launcher and front ends", families: []raiseFamily{
		{family: "a child process of the engine died", want: "received-sigquit-from-child", or: "scheduler-or-dp-controller-terminated", bare: true, lines: []string{
			mainLog("Received sigquit from a child process. It usually means the child failed."),
			mainLog("Scheduler or DataParallelController 4242 terminated with -9"),
		}},
		{family: "the native gRPC front end is missing from the install", want: "sglang-grpc-frontend-not-installed", lines: []string{
			"RuntimeError: Native gRPC extension (sglang.srt.grpc._core) not found in this wheel, but --grpc-port was set. The extension is built from rust/sglang-grpc/ via setuptools-rust during wheel build. Either install a wheel that includes the extension or unset --grpc-port.",
			"RuntimeError: --enable-metrics requires smg-grpc-servicer ≥ 0.5.3 (the version that accepts 'on_request_manager_ready'); installed version lacks the hook so the HTTP sidecar cannot be wired.",
		}},
		{family: "the warm-up request failed", want: "initialization-failed-warmup-error", bare: true, lines: []string{
			mainLog("Initialization failed. warmup error: Traceback (most recent call last):"),
		}},
		{family: "near misses: a front end carrying on without an extra", bare: true, lines: []string{
			mainLog("Failed to set up metrics: address already in use. Continuing without metrics."),
		}},
	}},
	{name: "distributed init: parallel groups", families: []raiseFamily{
		{family: "a parallel layout the platform or world cannot host", want: "parallel-sizes-inconsistent", lines: []string{
			"RuntimeError: Decode context parallel (decode_context_parallel_size > 1) is currently only supported on the AMD HIP platform or CUDA platform, but got decode_context_parallel_size (2) on a non-HIP or non-CUDA platform.",
			"RuntimeError: decode_context_parallel_size (0) must be >= 1",
			"ValueError: sum(partitions)=60 does not match num_hidden_layers=61.",
		}},
	}},
	{name: "scheduler and memory pools at run time", families: []raiseFamily{
		{family: "request slots run out", want: "alloc-req-slots-out-of-memory", lines: []string{
			"RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`. req_to_token_pool.available_size()=0, num_reqs=1, ",
		}},
		{family: "weights never became ready", want: "weights-not-ready", bare: true, lines: []string{
			mainLog("Weights are not ready after waiting 1800 seconds. Consider increasing SGLANG_WAIT_WEIGHTS_READY_TIMEOUT environment variable. Current status: initial_weights_loaded=False"),
		}},
		{family: "the tokenizer manager loop stuck", want: "tokenizer-manager-loop-stuck", bare: true, lines: []string{
			mainLog("gRPC abort timed out after 5.0s (rid='3f2a9c', abort_all=False); tokenizer_manager loop appears stuck"),
		}},
		{family: "elastic EP past its maximum", want: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: [Elastic EP] add_elastic_workers: slot_offset=6 + slot_count=4 exceeds max_dp_size=8. Restart with a larger --max-ep-size.",
		}},
	}},
	{name: "PD disaggregation: metadata and transfer", families: []raiseFamily{
		{family: "a request's metadata larger than the transfer buffer", want: "disagg-metadata-capacity-exceeded", lines: []string{
			"RuntimeError: Sampling mask length 40000 exceeds disaggregation metadata capacity 32768. Increase SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS.",
			"RuntimeError: top_logprobs_num 30 exceeds disaggregation metadata capacity 20. Lower top_logprobs_num or increase the metadata buffer.",
		}},
		{family: "a NIXL transfer failed", want: "nixl-kv-transfer-failed", lines: []string{
			"Exception: KVSender failed to post transfer",
			"Exception: KVSender failed to create prepped transfer",
			"RuntimeError: NIXL transfer encountered ERR room=123456",
		}},
		{family: "prefill and decode disagree on slot geometry (Mooncake)", want: "disagg-kv-slot-layout-mismatch", bare: true, lines: []string{
			hdr("[10.0.0.8:8998] slice size (4096) exceeds target token slot size (2048)"),
		}},
		{family: "the Ascend transfer engine did not start", want: "ascend-transfer-engine-initialization-failed", lines: []string{
			"RuntimeError: Ascend Transfer Engine initialization failed.",
		}},
		{family: "the decode side cannot find prefill's parallel layout", want: "disagg-bootstrap-unreachable", bare: true, lines: []string{
			hdr("Could not fetch prefill parallel info from bootstrap_addr: 10.0.0.7:8998"),
			hdr("Error fetching prefill server info from bootstrap: HTTPConnectionPool(host='10.0.0.7', port=8998): Read timed out. (read timeout=5)"),
		}},
		{family: "encoder embedding pool too small", want: "epd-embedding-pool-too-small", bare: true, lines: []string{
			hdr("MooncakeEmbeddingPool: requested 512MB exceeds pool capacity 256MB. Raise SGLANG_EMBEDDING_POOL_SIZE_MB."),
			hdr("MooncakeEmbeddingPool alloc timed out after 30s waiting for 512MB."),
		}},
	}},
	{name: "router (sgl-model-gateway): discovery and PD", families: []raiseFamily{
		{family: "service discovery failed or stopped", want: "router-service-discovery-failed", or: "k8s-rbac-forbidden", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::service_discovery", "Failed to start service discovery: Forbidden: pods is forbidden: User \"system:serviceaccount:default:default\" cannot list resource \"pods\""),
			gatewayLog("ERROR", "smg::service_discovery", "K8s worker watcher stream ended; discovery no longer receives updates"),
		}},
		{family: "a PD worker failed to start the request", want: "router-pd-transport-error", or: "grpc-unavailable", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::routers::grpc::common::stages::request_execution", "Decode worker failed to start function=\"execute_sequential_pd\" error=status: Unavailable, message: \"error trying to connect\""),
		}},
		{family: "no PD pair to select", want: "router-pd-role-unavailable", or: "router-no-available-workers", bare: true, lines: []string{
			gatewayLog("ERROR", "smg::routers::http::pd_router", "Failed to select PD pair error=No prefill workers available"),
		}},
	}},
	{name: "grammar backends", families: []raiseFamily{
		{family: "a tokenizer the grammar backend cannot read", want: "xgrammar-tokenizer-unsupported", lines: []string{
			"sglang.srt.constrained.xgrammar_backend.TokenizerNotSupportedError: Tokenizer type MistralTokenizer is not supported by XGrammar",
			"sglang.srt.constrained.xgrammar_backend.TokenizerNotSupportedError: Failed to create XGrammar TokenizerInfo from tokenizer: 'NoneType' object has no attribute 'get_vocab'",
			"ValueError: --enable-strict-thinking requires a grammar backend with token filtering support, but XGrammar failed to initialize: Failed to create XGrammar TokenizerInfo from tokenizer: vocab mismatch. Cannot fall back to grammar_backend='none' with strict thinking enabled.",
		}},
		{family: "a generated token the grammar refused (logged)", want: "grammar-token-not-accepted", bare: true, lines: []string{
			hdr("Grammar accept_token failed for req 3f2a9c with token 128009: token rejected"),
		}},
	}},
	{name: "tokenizer and detokenizer managers", families: []raiseFamily{
		{family: "detokenizer lost a request's state", want: "detokenizer-decode-status-evicted", lines: []string{
			"RuntimeError: Decode status not found for request 3f2a9c. It may be due to the request being evicted from the decode status due to memory pressure. Please increase the maximum number of requests by setting the SGLANG_DETOKENIZER_MAX_STATES environment variable to a bigger value than the default value. The current value is 65536. For more details, see: https://github.com/sgl-project/sglang/issues/3631",
		}},
		{family: "the detokenizer stopped answering", want: "health-check-failed-detokenizer", bare: true, lines: []string{
			mainLog("Health check failed. Server couldn't get a response from detokenizer for last 20 seconds. tic start time: 17:01:02. last_heartbeat time: 17:00:40"),
		}},
		{family: "a child died and the main process is told", want: "sigquit-received-child-failed", or: "received-sigquit-from-child", bare: true, lines: []string{
			mainLog("SIGQUIT received. signum=3, frame=<frame at 0x7f, file '/usr/lib/python3.12/selectors.py', line 468, code select>. It usually means one child failed."),
		}},
		{family: "a request feature the launch did not enable", want: "request-feature-not-enabled", or: "sglang-launch-flags-rejected", lines: []string{
			"ValueError: The server is not configured to enable custom logit processor. Please set `--enable-custom-logit-processor` to enable this feature.",
			"ValueError: max_thinking_tokens requires the server to be launched with --enable-strict-thinking",
		}},
		{family: "near misses: per-request refusals", lines: []string{
			"ValueError: Duplicate request ID detected: 3f2a9c",
			"ValueError: Image count 12 exceeds limit 8 per request.",
			"ValueError: Requested dimensions must be greater than 0",
		}},
	}},
}

// TestSglangRaises checks that every family above is led by its record on
// every composed line and that the near misses stay unclaimed, and logs
// each component's count of families claimed.
func TestSglangRaises(t *testing.T) {
	m := compileCatalog(t)
	lead := func(text string) (*patterns.Record, []string) { return raiseLead(m, text) }
	for _, comp := range sglangRaiseComponents {
		t.Run(comp.name, func(t *testing.T) {
			familyCheck{shapes: raiseShapes, lead: lead}.run(t, comp.name, comp.families)
		})
	}
}

// sglangRaisesExamples are the examples of the records the families above
// brought in; sglangRaisesWidened the lines of records they widened.
var sglangRaisesExamples = map[string]example{
	"gemm-backend-unavailable": {
		match: []string{
			tb("RuntimeError: DeepGEMM backend requested via --fp8-gemm-backend=deep_gemm, but DeepGEMM is not available. This usually means the deep_gemm package is not installed or has been disabled via SGLANG_ENABLE_JIT_DEEPGEMM=0."),
			"RuntimeError: FlashInfer FP8 GEMM requested via --fp8-gemm-backend=flashinfer_trtllm, but FlashInfer is not available or not supported on this hardware. FlashInfer TRTLLM FP8 GEMM requires SM100/SM103 GPUs and FlashInfer.",
		},
		miss: []string{
			mainLog("Using fp8 GEMM backend deep_gemm (requested via --fp8-gemm-backend=auto)"),
			"ValueError: --fp8-gemm-backend must be one of ['auto', 'deep_gemm', 'cutlass']",
		},
	},
	"quantization-config-incomplete": {
		match: []string{
			tb("ValueError: Cannot find 'quant_algo' in the model's quantization config. Expected either flat format (config.json) or nested format (hf_quant_config.json)."),
			"ValueError: Cannot find any of ['quant_method'] in the model's quantization config.",
			"ValueError: NVFP4 quantization requires group_size and exclude_modules specified in the quantization config",
			"ValueError: Found different quantization schemes for ['q_proj', 'k_proj', 'v_proj'] in model.layers.0.self_attn.qkv_proj. SGLang requires all to use the same scheme.",
		},
		miss: []string{
			hdr("Detected quantization method modelopt_fp4 from the model's quantization config"),
			"ValueError: Unknown quantization method: foo",
		},
	},
	"quantization-scheme-needs-newer-gpu": {
		match: []string{
			"RuntimeError: Quantization scheme is not supported for the current GPU. Min capability: 89. Current capability: 80.",
			"ValueError: Current platform does not support NVFP4 quantization. Please use Blackwell and above.",
			"RuntimeError: MXFP8 dense linear requires Blackwell GPUs (SM100/SM120) or ROCm gfx95.",
			"RuntimeError: float8_e8m0fnu dtype not found — MXFP8 MoE requires Ascend A5 with a torch_npu build exposing float8_e8m0fnu (torch_npu >= 2.9).",
		},
		miss: []string{
			mainLog("NVFP4 checkpoint detected; using Marlin kernels on SM90"),
		},
	},
	"disagg-metadata-capacity-exceeded": {
		match: []string{
			tb("RuntimeError: Sampling mask length 40000 exceeds disaggregation metadata capacity 32768. Increase SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS."),
			"RuntimeError: top_logprobs_num 30 exceeds disaggregation metadata capacity 20. Lower top_logprobs_num or increase the metadata buffer.",
		},
		miss: []string{hdr("Disaggregation metadata buffers allocated: capacity 20 top logprobs, 32768 mask tokens")},
	},
	"nixl-kv-transfer-failed": {
		match: []string{
			tb("Exception: KVSender failed to post transfer"),
			"Exception: KVSender failed to create prepped slice transfer",
			hdr("NIXL transfer encountered ERR room=123456"),
		},
		miss: []string{hdr("KVSender posted transfer for room=123456")},
	},
	"disagg-kv-slot-layout-mismatch": {
		match: []string{
			hdr("[10.0.0.8:8998] slice size (4096) exceeds target token slot size (2048)"),
			"[2026-05-28 00:11:09 TP3] [10.0.0.9:17001] slice size (1024) exceeds target token slot size (512)",
		},
		miss: []string{hdr("[10.0.0.8:8998] slice size (2048) fits target token slot size (2048)")},
	},
	"epd-embedding-pool-too-small": {
		match: []string{
			hdr("MooncakeEmbeddingPool: requested 512MB exceeds pool capacity 256MB. Raise SGLANG_EMBEDDING_POOL_SIZE_MB."),
			hdr("MooncakeEmbeddingPool alloc timed out after 30s waiting for 512MB."),
		},
		miss: []string{hdr("MooncakeEmbeddingPool initialized with 4096MB")},
	},
	"tokenizer-manager-loop-stuck": {
		match: []string{
			mainLog("gRPC abort timed out after 5.0s (rid='3f2a9c', abort_all=False); tokenizer_manager loop appears stuck"),
			mainLog("gRPC abort timed out after 10s (rid=None, abort_all=True); tokenizer_manager loop appears stuck"),
		},
		miss: []string{mainLog("gRPC abort for rid='3f2a9c' done in 0.01s")},
	},
	"sglang-host-address-unusable": {
		match: []string{
			tb("OSError: Could not bind port 30000 on any configured address family"),
			"ValueError: Cannot resolve host sglang-prefill-0.sglang: [Errno -2] Name or service not known",
			rawTB("ValueError: Can not get local ip"),
			"ValueError: Missing port in address (expected host:port): 10.0.0.7",
		},
		miss: []string{
			mainLog("Resolved host sglang-prefill-0.sglang to 10.0.0.7"),
			mainLog("Can not get local ip from SGLANG_HOST_IP; using the NIC address 10.0.0.7"),
		},
	},
	"checkpoint-weights-do-not-fit-model": {
		match: []string{
			tb("ValueError: Missing keys {'lm_head.weight'} in loaded state!"),
			"ValueError: No module or parameter named model.layers.0.mlp.experts.w13_weight in Qwen3MoeForCausalLM.",
			"ValueError: Attempted to load nested weight model.visual.blocks.0.attn.qkv into parameter model.visual.blocks.0.attn",
		},
		miss: []string{
			schedLog("Load weight end. type=Qwen3MoeForCausalLM, dtype=torch.bfloat16, avail mem=62.10 GB, mem usage=16.40 GB."),
			schedLog("Parameter lm_head.weight not found in params_dict; tied to embed_tokens"),
		},
	},
	"sgl-kernel-extension-missing": {
		match: []string{
			tb("ImportError: Can not import FA3 in sgl_kernel. Please check your installation."),
			"ImportError: [sgl_kernel] Could not locate the 'infllm_ops' extension (infllm_ops*.so). Ensure sgl-kernel was built with the InfLLM-V2 FlashAttention backend.",
		},
		miss: []string{
			mainLog("[sgl_kernel] Located the 'infllm_ops' extension at /usr/local/lib/python3.12/dist-packages/sgl_kernel/infllm_ops.so"),
		},
	},
	"hicache-mooncake-store-config-missing": {
		match: []string{
			tb("ValueError: Either the environment variable 'MOONCAKE_MASTER' or 'MOONCAKE_CLIENT' is not set."),
			"ValueError: Either master_server_address or client_server_address is required in extra_config",
			"ValueError: Invalid global_segment_size: missing number before 'gb'",
		},
		miss: []string{
			schedLog("Mooncake store configured from extra_config: master_server_address=10.0.0.9:50051, global_segment_size=16gb"),
		},
	},
	"anthropic-thinking-needs-reasoning-parser": {
		match: []string{
			"ValueError: Anthropic thinking is not supported for models without a reasoning parser",
			mainLog("[http_server] Error: Anthropic thinking is not supported for reasoning parser 'deepseek-r1'"),
			"ValueError: Reasoning parser 'gpt-oss' is always-on and cannot be disabled via Anthropic thinking",
		},
		miss: []string{
			mainLog("Anthropic thinking enabled for reasoning parser 'qwen3'"),
		},
	},
	"weight-cache-daemon-failed": {
		match: []string{
			rawTB("RuntimeError: Weight cache daemon (pid=4242) exited prematurely with code 1"),
			"TimeoutError: Weight cache daemon for pp_rank=0 tp_rank=3 did not become ready within 600s",
		},
		miss: []string{
			mainLog("Weight cache daemon for pp_rank=0 tp_rank=3 is ready"),
			schedLog("Error ignored in is_in_the_same_node: [Errno 2] No such file or directory: '/dev/shm/sglang_shm_check'"),
		},
	},
	"speculative-draft-vocab-mismatch": {
		match: []string{
			sglangLaunchTB("ValueError: STANDALONE speculative decoding requires the draft model to share the same vocabulary as the target model, but got target vocab_size=152064 and draft vocab_size=151936. Use a draft model from the same family."),
			"ValueError: --speculative-use-rejection-sampling requires the draft and target to share one vocab, but the draft vocab (32000) != target vocab (128256).",
		},
		miss: []string{
			mainLog("Draft and target share one vocab (151936 tokens)"),
		},
	},
	"sglang-platform-plugin-unavailable": {
		match: []string{
			rawTB("RuntimeError: SGLANG_PLATFORM=my_npu not found in discovered platform plugins (available: ['cuda', 'rocm']). Install the plugin with 'pip install -e' to register its entry_points."),
			"RuntimeError: Platform plugin sglang_ascend is installed but activate() returned None (hardware not available on this machine?).",
			"RuntimeError: Multiple platform plugins activated: ['sglang_ascend', 'sglang_musa']. Set SGLANG_PLATFORM to select one.",
		},
		miss: []string{
			mainLog("Platform plugin sglang_ascend activated: NPU"),
		},
	},
	"sglang-grpc-frontend-not-installed": {
		match: []string{
			sglangLaunchTB("RuntimeError: Native gRPC extension (sglang.srt.grpc._core) not found in this wheel, but --grpc-port was set. The extension is built from rust/sglang-grpc/ via setuptools-rust during wheel build. Either install a wheel that includes the extension or unset --grpc-port."),
			"RuntimeError: --enable-metrics requires smg-grpc-servicer ≥ 0.5.3 (the version that accepts 'on_request_manager_ready'); installed version lacks the hook so the HTTP sidecar cannot be wired.",
		},
		miss: []string{
			mainLog("Native gRPC extension (sglang.srt.grpc._core) loaded; serving gRPC on port 31001"),
		},
	},
}

var sglangRaisesWidened = map[string]example{
	"parallel-sizes-inconsistent": {match: []string{
		"ValueError: sum(partitions)=60 does not match num_hidden_layers=61.",
		"RuntimeError: decode_context_parallel_size (0) must be >= 1",
	}},
	"epd-encoder-unavailable": {match: []string{
		schedLog("EncoderScheduler.submit timed out after 30s for req_id=17"),
		mainLog("Request 17 to encoder /scheduler_receive_url timed out (10s) for req_id=17"),
	}},
	"chat-template-not-found": {match: []string{
		"ValueError: Specified template 'llama-4' not found. Available templates: ['chatml', 'llama-3', 'qwen']",
	}},
	"hicache-storage-backend-init-failed": {match: []string{
		schedLog("Failed to attach storage backend 'mooncake': Failed to connect to mooncake master at 10.0.0.9:50051"),
		"RuntimeError: EIC Client Init Failed.",
		"RuntimeError: Failed to pre-register host 10.0.0.9 with NIXL",
	}},
	"hf-config-file-missing": {match: []string{
		"ValueError: Cannot find the config file for /models/Qwen3-8B",
		"ValueError: Found multiple config files for /models/mistral: ['params.json', 'config.json']",
		"ValueError: Failed to load mistral 'params.json' config for model /models/Mistral-Small. Please check if the model is a mistral-format model and if the config file exists.",
	}},
	"no-cuda-gpus-available": {match: []string{
		"RuntimeError: No accelerator (CUDA, XPU, HPU, NPU, MUSA, MPS) or platform plugin is available.",
		"RuntimeError: No supported accelerator (CUDA/XPU) available",
	}},
	"attention-backend-unsupported": {match: []string{
		"ValueError: Currently only ['flashinfer', 'fa3', 'triton'] attention backends are supported for deterministic inference, but you explicitly specified 'trtllm_mha'.",
	}},
	"disagg-bootstrap-unreachable": {match: []string{
		hdr("Could not fetch prefill parallel info from bootstrap_addr: 10.0.0.7:8998"),
	}},
	"quantized-weight-tp-split-misaligned": {match: []string{
		"ValueError: For quantized MoE models, please make sure (moe_intermediate_size=1408 / moe_tp_size=8) % weight_block_size_n=128 == 0 where moe_tp_size is equal to tp_size (8) divided by ep_size (1). You can fix this by setting arguments `--tp-size` and `--ep-size` correctly.",
	}},
}

func init() { addExamples(sglangRaisesExamples, sglangRaisesWidened) }

// sglangRaisesRoutine are the notices and warnings the components above
// print while they work: a fallback taken, a feature turned off for the
// configuration, a retry that may still succeed. None may alert.
var sglangRaisesRoutine = []string{
	mainLog("FooForCausalLM has no SGLang implementation, falling back to Transformers implementation. Some features may not be supported and performance may not be optimal."),
	mainLog("Failed to load dynamic modules from auto_map for '/models/custom': No module named 'custom_ops'. Skipping remote model compatibility checks."),
	schedLog("Found mtp.safetensors but it's not referenced in model.safetensors.index.json. This is a checkpoint packaging bug. Auto-adding it for loading. Please report this to the checkpoint provider."),
	schedLog("Defaulting to KV cache scaling factors = 1.0 for all layers in TP rank 1 as an error occurred during loading."),
	schedLog("Failed to find local snapshot in default HF cache: 'NoneType' object has no attribute 'split'"),
	schedLog("Prefill staging too small for 268435456 bytes, falling back"),
	schedLog("Decode staging too small: need 268435456 bytes (4 writers x 67108864 bytes/rank), have 134217728, falling back"),
	schedLog("Failed to import mooncake allocator for nvlink: No module named 'mooncake.allocator'. Falling back to default memory pool."),
	schedLog("Prefill register attempt 1/5 failed: status 503"),
	schedLog("Starting failed-session probe loop (interval=5.0s)"),
	schedLog("SGLang server has not been recording expert ids. Did you forget to start recording by sending request to the `/start_expert_distribution_record` endpoint?"),
	schedLog("[Elastic EP] Model does not implement generate_weight_name_filter. Performing full weight reload."),
	schedLog("Disable prefill CUDA graph because the current LoRA configuration does not support it (unsupported LoRA backend, MoE LoRA, or DP attention)."),
	schedLog("Running FlashInfer autotune (cache reuse DISABLED via SGLANG_FLASHINFER_AUTOTUNE_CACHE=0); writing fresh result to: /root/.cache/flashinfer/autotune.json"),
	schedLog("--weight-loader-prefetch-checkpoints is enabled; falling back to single-threaded weight loading to avoid I/O oversubscription with the prefetch threads."),
	mainLog("Weight cache daemon for pp_rank=0 tp_rank=3 is ready"),
	mainLog("All 8 weight cache daemons on node 0 are ready"),
	gatewayLog(" INFO", "smg::service_discovery", "Starting Kubernetes service discovery in namespace default with selector app=sglang"),
	gatewayLog(" INFO", "smg::routers::http::pd_router", "Selected PD pair prefill=http://10.0.0.7:30000 decode=http://10.0.0.8:30000"),
}

// TestSglangRaisesRoutineSilent checks the routine lines of the same
// components stay silent.
func TestSglangRaisesRoutineSilent(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), sglangRaisesRoutine)
}
