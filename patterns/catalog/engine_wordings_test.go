package catalog_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// The other serving engines' own failure wordings, by component: the
// raise, assert and logger.error statements that end an engine's launch or
// a request with a failure an operator must act on, composed the way the
// engine prints them with plausible values (vLLM, TGI, LMDeploy, Ollama,
// llama.cpp, TensorRT-LLM, and vLLM as an NVIDIA Dynamo worker relays it).
// Every line is read with the engine known (as a sidecar that detected it
// reads it; for a relayed stream, with what the detector decides), so a
// record scoped to another engine cannot claim it, and the record that
// does must be that engine's or engine-neutral and advise that engine's
// operator: its solutions and remedies for the engine name no sglang
// option. want "" marks the routine lines of the same components that no
// failure record may claim.

// An engineWordings is one engine's components and the shapes its
// exception lines print in.
type engineWordings struct {
	engine string
	// detect, when set, reads each text with the engine the sidecar's
	// detector decides from it ("" while undecided) instead of engine:
	// the leading record must still fit an engine operator.
	detect     bool
	components []engineComponent
}

// An engineComponent is the families of one part of an engine. shapes
// composes a family's exception line the ways that part prints it; nil
// checks the lines as they are.
type engineComponent struct {
	name     string
	shapes   func(exc string) []string
	families []raiseFamily
}

// vllmLog writes msg the way vLLM's logger formats one record of the
// process prefix names (empty: the main process).
func vllmLog(prefix, level, file, msg string) string {
	if prefix != "" {
		prefix += " "
	}
	return prefix + level + " 01-02 03:04:05 [" + file + "] " + msg
}

// vllmAPITB is a launch the API server process refuses while it builds the
// engine's config: the traceback it prints before any engine core starts,
// every line under its process prefix.
func vllmAPITB(exc string) string {
	var b strings.Builder
	for _, l := range []string{
		"Traceback (most recent call last):",
		`  File "/usr/local/bin/vllm", line 10, in <module>`,
		"    sys.exit(main())",
		`  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1436, in create_engine_config`,
		"    config = VllmConfig(",
	} {
		b.WriteString("(APIServer pid=1) " + l + "\n")
	}
	for _, l := range strings.Split(exc, "\n") {
		b.WriteString("(APIServer pid=1) " + l + "\n")
	}
	return b.String()
}

// vllmCoreShapes: an exception of the engine core or its workers, logged by
// the dying engine core (every line, the exception's own continuation lines
// too, under the record's header) and printed bare by multiprocessing on
// stderr.
func vllmCoreShapes(exc string) []string {
	var b strings.Builder
	for _, l := range append([]string{
		"EngineCore failed to start.",
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 705, in run_engine_core`,
		"    engine_core = EngineCoreProc(*args, **kwargs)",
	}, strings.Split(exc, "\n")...) {
		b.WriteString(vllmErr(l) + "\n")
	}
	return []string{b.String(), vllmTerminal(b.String()), "Process EngineCore_DP0:\n" + rawTB(exc)}
}

// vllmTerminal is text as vLLM writes it to a terminal: the level and the
// location coloured, every line ended by CRLF.
func vllmTerminal(text string) string {
	text = strings.ReplaceAll(text, ") ERROR ", ") \x1b[1;31mERROR\x1b[0m ")
	text = strings.ReplaceAll(text, " [core.py:718] ", " [\x1b[2mcore.py:718\x1b[0m] ")
	return strings.ReplaceAll(text, "\n", "\r\n")
}

// vllmAPIShapes: an exception of the API server process, in its traceback
// and bare.
func vllmAPIShapes(exc string) []string {
	return []string{vllmAPITB(exc), rawTB(exc)}
}

// tgiShard writes msg the way TGI's launcher relays a shard's log line.
func tgiShard(level, msg string) string {
	return "2024-03-01T10:00:00.000000Z " + level + " shard-manager: text_generation_launcher: " + msg
}

// tgiShardShapes: an exception that ends a TGI shard, as the launcher
// relays the shard's stderr (the traceback as plain lines, then the rank,
// then its own verdict), and bare.
func tgiShardShapes(exc string) []string {
	relayed := tgiShard("ERROR", "Shard complete standard error output:") + "\n\n" +
		"Traceback (most recent call last):\n" +
		`  File "/opt/conda/bin/text-generation-server", line 8, in <module>` + "\n" +
		"    sys.exit(app())\n" +
		`  File "/usr/src/server/text_generation_server/server.py", line 268, in serve_inner` + "\n" +
		"    model = get_model_with_lora_adapters(\n" +
		exc + "\n rank=0\n" +
		tgiLauncher("ERROR", "Shard 0 failed to start") + "\n" +
		"Error: ShardCannotStart\n"
	return []string{relayed, rawTB(exc)}
}

// lmdeployLog writes msg the way LMDeploy's logger formats a record.
func lmdeployLog(level, file, msg string) string {
	return "2025-04-28 10:11:12,345 - lmdeploy - " + level + " - " + file + " - " + msg
}

// lmdeployShapes: an exception that ends an LMDeploy server, printed as
// the last line of the serve command's traceback, and bare.
func lmdeployShapes(exc string) []string {
	tbText := "Traceback (most recent call last):\n" +
		`  File "/opt/py3/bin/lmdeploy", line 8, in <module>` + "\n" +
		"    sys.exit(run())\n" +
		`  File "/opt/py3/lib/python3.10/site-packages/lmdeploy/serve/openai/api_server.py", line 1420, in serve` + "\n" +
		"    async_engine = VariableInterface.async_engine = AsyncEngine(\n" +
		exc + "\n"
	return []string{tbText, rawTB(exc)}
}

// dynamoLog writes msg the way NVIDIA Dynamo relays an engine's Python
// log record through its Rust tracing subscriber: the engine's own header
// is gone, the logger's module and function name the target.
func dynamoLog(level, target, msg string) string {
	return "2025-12-10T13:50:14.788089Z " + level + " " + target + ": " + msg
}

// dynamoVLLMShapes: an exception of vLLM's engine core under a Dynamo
// worker, relayed with its traceback as one multi-line record, and the
// engine core's own stderr traceback beside it.
func dynamoVLLMShapes(exc string) []string {
	return []string{
		dynamoLog("ERROR", "core.run_engine_core", "EngineCore failed to start.\n"+
			"Traceback (most recent call last):\n"+
			`  File "/opt/dynamo/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 705, in run_engine_core`+"\n"+
			"    engine_core = EngineCoreProc(*args, **kwargs)\n"+exc),
		"Process EngineCore_DP0:\n" + rawTB(exc),
	}
}

// vllmComponents lists the families of every vLLM component.
var vllmComponents = []engineComponent{
	{name: "config: engine args", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "options that cannot be combined", want: "vllm-engine-args-rejected", lines: []string{
			"ValueError: Chunked prefill must be enabled to set max_num_partial_prefills > 1.",
			"ValueError: --enable-return-routed-experts is incompatible with pipeline parallelism (PP > 1).",
			"ValueError: --mamba-block-size can only be set with --enable-prefix-caching",
			"ValueError: attention_backend and attention_config.backend are mutually exclusive",
			"ValueError: Async scheduling is not compatible with disable_padded_drafter_batch=True.",
			"ValueError: nnodes > 1 can only be set when distributed executor backend is mp, uni or external_launcher.",
			"ValueError: data_parallel_external_lb can only be set when data_parallel_size > 1",
			"ValueError: enable_expert_parallel must be True to use EPLB.",
			"ValueError: max_num_batched_tokens (256) must be greater than or equal to max_num_seqs (512).",
			"ValueError: Unrecognized distributed executor backend rayy. Supported values are 'ray', 'mp' 'uni', 'external_launcher',  custom Executor subclass or its import path.",
			"ValueError: nvfp4 KV cache is not supported with MLA (Multi-head Latent Attention) backends. Please use a different --kv-cache-dtype (e.g., 'fp8' or 'auto') for MLA models such as DeepSeek.",
		}},
		{family: "max_model_len beyond the model's", want: "vllm-max-model-len-exceeds-derived", lines: []string{
			"ValueError: User-specified max_model_len (65536) is greater than the derived max_model_len (max_position_embeddings=32768 or model_max_length=None in model's config.json). To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution. If the model uses relative position encoding (RoPE), positions exceeding derived_max_model_len lead to nan. If the model uses absolute position encoding, positions exceeding derived_max_model_len will cause a CUDA array out-of-bounds error.",
		}},
		{family: "batched tokens below the context", want: "vllm-max-num-batched-tokens-too-small", lines: []string{
			"ValueError: max_num_batched_tokens (2048) is smaller than max_model_len (32768). This effectively limits the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences. Please increase max_num_batched_tokens or decrease max_model_len.",
		}},
		{family: "gpu_memory_utilization out of range", want: "vllm-gpu-memory-utilization-invalid", lines: []string{
			"ValueError: GPU memory utilization must be less than 1.0. Got 1.5.",
		}},
		{family: "a quantization method unknown or the checkpoint's other", want: "vllm-unknown-quantization-method", lines: []string{
			"ValueError: Unknown quantization method: fp6. Must be one of ['awq', 'fp8', 'gptq', 'gptq_marlin', 'awq_marlin', 'bitsandbytes', 'gguf', 'compressed-tensors', 'modelopt', 'mxfp4'].",
		}},
		{family: "quantization method differs from the checkpoint's", want: "vllm-quantization-method-mismatch", lines: []string{
			"ValueError: Quantization method specified in the model config (awq) does not match the quantization method specified in the `quantization` argument (gptq).",
		}},
		{family: "quantization the GPU cannot run", want: "vllm-quantization-unsupported-gpu", lines: []string{
			"ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 89. Current capability: 80.",
		}},
		{family: "a dtype the quantization or model cannot run in", want: "vllm-dtype-unsupported", lines: []string{
			"ValueError: torch.float32 is not supported for quantization method awq. Supported dtypes: [torch.float16]",
			"ValueError: torch.bfloat16 is not supported for quantization method gptq. Supported dtypes: [torch.float16]",
			"ValueError: The model type gemma3 does not support float16. Reason: Numerical instability. Please use bfloat16 or float32 instead.",
		}},
		{family: "heads the TP size does not divide", want: "vllm-heads-not-divisible-by-tp", lines: []string{
			"ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8).",
		}},
		{family: "a model without pipeline parallelism", want: "vllm-pipeline-parallel-unsupported-model", lines: []string{
			"NotImplementedError: Pipeline parallelism is not supported for this model. Supported models implement the `SupportsPP` interface.",
		}},
		{family: "more GPUs than the node has", want: "vllm-parallel-size-exceeds-local-gpus", lines: []string{
			"ValueError: World size (8) is larger than the number of available GPUs (4) in this node. If this is intentional and you are using:\n- ray, set '--distributed-executor-backend ray'.\n- multiprocessing, set '--nnodes' appropriately.",
		}},
		{family: "an architecture vLLM does not implement", want: "vllm-model-architecture-not-supported", lines: []string{
			"ValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM', 'Qwen3ForCausalLM'])",
			"ValueError: Model architecture MPTForCausalLM was supported in vLLM until v0.10.2, and is not supported anymore. Please use an older version of vLLM if you want to use this model architecture.",
		}},
		{family: "a model path that is not there", want: "vllm-invalid-model-path", lines: []string{
			"ValueError: Invalid repository ID or local directory specified: '/models/Qwen3-8B'.\nPlease verify the following requirements:\n1. Provide a valid Hugging Face repository ID.\n2. Specify a local directory that contains a recognized configuration file.",
		}},
		{family: "the device is not found", want: "vllm-device-type-not-inferred", lines: []string{
			"RuntimeError: Failed to infer device type, please set the environment variable `VLLM_LOGGING_LEVEL=DEBUG` to turn on verbose logging to help debug the issue.",
		}},
		{family: "near misses: the launch's own notices", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "INFO", "utils.py:253", "non-default args: {'model': '/models/Qwen3-8B', 'max_model_len': 32768, 'tensor_parallel_size': 2}"),
			vllmLog("(APIServer pid=1)", "INFO", "model.py:547", "Resolved architecture: Qwen3ForCausalLM"),
			vllmLog("(APIServer pid=1)", "INFO", "model.py:1510", "Using max model len 32768"),
			vllmLog("(APIServer pid=1)", "INFO", "scheduler.py:205", "Chunked prefill is enabled with max_num_batched_tokens=8192."),
			vllmLog("(APIServer pid=1)", "WARNING", "model.py:1682", "Casting torch.bfloat16 to torch.float16."),
			vllmLog("(APIServer pid=1)", "WARNING", "arg_utils.py:1776", "The model has a long context length (131072). This may cause OOM during the initial memory profiling phase, or result in low performance due to small KV cache size. Consider setting --max-model-len to a smaller value."),
			vllmLog("", "INFO", "__init__.py:216", "Automatically detected platform cuda."),
			vllmLog("(APIServer pid=1)", "INFO", "api_server.py:1839", "vLLM API server version 0.11.0"),
		}},
	}},
	{name: "memory: KV cache sizing", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "no memory left for the cache", want: "vllm-no-memory-for-cache-blocks", lines: []string{
			"ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
			"ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. Try increasing `gpu_memory_utilization`.",
		}},
		{family: "the cache cannot hold one request", want: "vllm-kv-cache-smaller-than-max-model-len", lines: []string{
			"ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (8.50 GiB). Based on the available memory, the estimated maximum model length is 69632. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
		}},
		{family: "less free memory than the share asked", want: "vllm-free-memory-less-than-utilization", lines: []string{
			"ValueError: Free memory on device cuda:0 (20.5/79.19 GiB) on startup is less than desired GPU memory utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
			"AssertionError: Error in memory profiling. Initial free memory 70.1 GiB, current free memory 75.3 GiB. This happens when other processes sharing the same container release GPU memory while vLLM is profiling during initialization. To fix this, ensure consistent GPU memory allocation or isolate vLLM in its own container.",
		}},
		{family: "out of memory warming up", want: "vllm-sampler-warmup-oom", lines: []string{
			"RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.",
			"RuntimeError: CUDA out of memory occurred when warming up pooler (task=embed) with 1024 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.",
		}},
		{family: "more sequences than the Mamba cache holds", want: "vllm-mamba-cache-too-small", lines: []string{
			"ValueError: max_num_seqs (1024) exceeds available Mamba cache blocks (512). Each decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. Please lower max_num_seqs to at most 512 or increase gpu_memory_utilization.",
		}},
		{family: "near misses: the sizing's own notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "gpu_worker.py:298", "Available KV cache memory: 62.01 GiB"),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "kv_cache_utils.py:1087", "GPU KV cache size: 2,031,632 tokens"),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "kv_cache_utils.py:1091", "Maximum concurrency for 32,768 tokens per request: 62.00x"),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "gpu_model_runner.py:3118", "Graph capturing finished in 12 secs, took 0.52 GiB"),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "core.py:210", "init engine (profile, create kv cache, warmup model) took 60.21 seconds"),
		}},
	}},
	{name: "model loading", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "no weights in the model path", want: "model-weights-not-found", lines: []string{
			"RuntimeError: Cannot find any model weights with `/models/Qwen3-8B`",
		}},
		{family: "weights the checkpoint does not have", want: "load-weights-key-error", lines: []string{
			"ValueError: Following weights were not initialized from checkpoint: {'model.layers.0.mlp.gate.e_score_correction_bias', 'lm_head.weight'}",
		}},
		{family: "the quantization config the checkpoint lacks", want: "vllm-quantization-method-mismatch", lines: []string{
			"ValueError: Cannot find the config file for awq",
			"ValueError: Model quantization method is not specified in the config.",
		}},
		{family: "near misses: loading notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "gpu_model_runner.py:2602", "Starting to load model /models/Qwen3-8B..."),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "default_loader.py:267", "Loading weights took 4.12 seconds"),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "gpu_model_runner.py:2653", "Model loading took 15.2683 GiB and 5.012 seconds"),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "weight_utils.py:392", "Using model weights format ['*.safetensors']"),
		}},
	}},
	{name: "distributed and executor init", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "Ray has too few GPUs", want: "vllm-ray-placement-group-insufficient-gpus", lines: []string{
			"ValueError: The number of required GPUs exceeds the total number of available GPUs in the placement group. Required number of devices: 8. Total number of devices: 4.",
			"ValueError: Cannot provide a placement group of placement_group_specs=[{'GPU': 1.0, 'node:10.0.0.7': 0.001}, {'GPU': 1.0}] within 1800 seconds. See `ray status` and `ray list nodes` to make sure the cluster has enough resources.",
			"ValueError: Current node has no GPU available. current_node_resource={'CPU': 64.0, 'memory': 512.0}. vLLM engine cannot start without GPU. Make sure you have at least 1 GPU available in a node current_node_id='a1b2c3' current_ip='10.0.0.7'.",
			"ValueError: Not enough resources to allocate 4 placement groups, only created 2 placement groups. Available resources: {'GPU': 8.0}",
		}},
		{family: "the driver node holds no GPU of the group", want: "vllm-ray-no-gpu-on-driver", lines: []string{
			"ValueError: Ray does not allocate any GPUs on the driver node. Consider adjusting the Ray placement group or running the driver on a GPU node.",
			"RuntimeError: driver node id 5c1f is not included in a placement group 0a2b. Node id -> bundles {'9d0e': [0, 1]}. You don't have enough GPUs available in a current node. Check `ray status` and `ray list nodes` to see if you have available GPUs in a node 5c1f before starting an vLLM engine.",
		}},
		{family: "Ray is not installed", want: "vllm-ray-not-installed", lines: []string{
			"ValueError: Failed to import Ray: No module named 'ray'.Please install Ray with `pip install ray`.",
		}},
		{family: "the engine core did not come up in time", want: "vllm-engine-startup-timeout", lines: []string{
			"TimeoutError: Timed out waiting for engine core processes to start. This is often caused by slow weight loading for large models. Waited 600s (configured by VLLM_ENGINE_READY_TIMEOUT_S). To increase the timeout, set the environment variable VLLM_ENGINE_READY_TIMEOUT_S.",
		}},
		{family: "more local ranks than visible devices", want: "vllm-parallel-size-exceeds-local-gpus", lines: []string{
			"AssertionError: local_world_size (8) must be less than or equal to the number of visible devices (4).",
		}},
		{family: "near misses: init notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "parallel_state.py:1208", "rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0"),
			vllmLog("", "INFO", "ray_utils.py:345", "No current placement group found. Creating a new placement group."),
			vllmLog("(EngineCore_DP0 pid=120)", "WARNING", "custom_all_reduce.py:85", "Custom allreduce is disabled because this process group spans across nodes."),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "multiproc_executor.py:720", "Parent process exited, terminating worker"),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "pynccl.py:103", "vLLM is using nccl==2.27.3"),
		}},
	}},
	{name: "V1 engine core lifecycle", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "the engine core failed to start", want: "vllm-engine-core-initialization-failed", lines: []string{
			"RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': 1}",
		}},
		{family: "the engine core died serving", want: "vllm-engine-dead", lines: []string{
			"vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
		}},
		{family: "a process died", want: "vllm-engine-core-died-unexpectedly", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "ERROR", "core_client.py:564", "Engine core proc EngineCore_DP0 died unexpectedly, shutting down client."),
		}},
		{family: "a worker process died", want: "vllm-engine-core-died-unexpectedly", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "ERROR", "ray_executor_v2.py:464", "RayWorkerProc rank=3 died unexpectedly, shutting down executor."),
			vllmLog("(EngineCore_DP0 pid=120)", "ERROR", "multiproc_executor.py:284", "Worker proc VllmWorker-1 died unexpectedly, shutting down executor."),
		}},
		{family: "the executor failed after a worker died", want: "vllm-engine-core-died-unexpectedly", lines: []string{
			"RuntimeError: Executor failed.",
		}},
		{family: "a worker failed", want: "vllm-worker-exception", bare: true, lines: []string{
			vllmLog("(VllmWorker rank=1 pid=231)", "ERROR", "multiproc_executor.py:874", "WorkerProc failed."),
		}},
		{family: "the DP coordinator did not start", want: "vllm-engine-core-initialization-failed", lines: []string{
			"RuntimeError: DP Coordinator process failed during startup.",
			"RuntimeError: DP Coordinator process failed to report ZMQ addresses during startup.",
		}},
		{family: "an iteration hung", want: "vllm-engine-iteration-timeout", bare: true, lines: []string{
			vllmLog("", "ERROR", "async_llm_engine.py:63", "Engine iteration timed out. This should never happen!"),
		}},
		{family: "near misses: lifecycle notices", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "INFO", "launcher.py:44", "Shutting down FastAPI HTTP server."),
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "core.py:77", "Initializing a V1 LLM engine (v0.11.0) with config: model='/models/Qwen3-8B', speculative_config=None, tokenizer='/models/Qwen3-8B'"),
			vllmLog("(APIServer pid=1)", "INFO", "loggers.py:123", "Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%"),
			vllmLog("(APIServer pid=1)", "INFO", "async_llm.py:389", "Aborted request chatcmpl-3f2a9c."),
			vllmLog("(VllmWorker rank=1 pid=231)", "INFO", "multiproc_executor.py:702", "WorkerProc shutting down."),
			vllmLog("(APIServer pid=1)", "INFO", "coordinator.py:90", "DP Coordinator process started."),
		}},
	}},
	{name: "OpenAI server and requests", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "a prompt longer than the context", want: "vllm-prompt-longer-than-max-model-len", lines: []string{
			"ValueError: The decoder prompt (length 9000) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens.",
			"ValueError: The decoder prompt (length 8192) plus the number of requested output tokens (at least 1) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens (prompt + requested output tokens).",
			"ValueError: This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
		}},
		{family: "tool choice the launch did not enable", want: "vllm-auto-tool-choice-not-enabled", lines: []string{
			`ValueError: "auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`,
		}},
		{family: "a LoRA request to a server without LoRA", want: "vllm-lora-not-enabled", lines: []string{
			"ValueError: Got lora_request LoRARequest(lora_name='sql', lora_int_id=1, lora_path='/adapters/sql') but LoRA is not enabled!",
		}},
		{family: "more media than the launch allows", want: "vllm-multimodal-item-limit", lines: []string{
			"ValueError: At most 1 image(s) may be provided in one prompt.",
		}},
		{family: "the stream generator failed", want: "vllm-chat-stream-generator-error", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "ERROR", "serving_chat.py:1137", "Error in chat completion stream generator."),
		}},
		{family: "near misses: server notices", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "INFO", "launcher.py:29", "Available routes are:"),
			vllmLog("(APIServer pid=1)", "INFO", "launcher.py:37", "Route: /v1/chat/completions, Methods: POST"),
			vllmLog("(APIServer pid=1)", "WARNING", "api_server.py:1580", "Default sampling parameters have been overridden by the model's Hugging Face generation config. Please pass `--generation-config vllm` to use vLLM's defaults."),
			vllmLog("(APIServer pid=1)", "INFO", "serving_chat.py:139", `"auto" tool choice has been enabled please note that while the parallel_tool_calls client option is preset for compatibility reasons, it will be ignored.`),
			`(APIServer pid=1) INFO:     10.0.0.9:51234 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request`,
		}},
	}},
	{name: "tokenizer and chat template", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "no chat template", want: "vllm-chat-template-missing", lines: []string{
			"ValueError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.",
			"ValueError: No chat template available. Provide `chat_template` explicitly.",
		}},
		{family: "near misses: tokenizer notices", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "INFO", "serving_chat.py:93", "Using supplied chat template: {% for message in messages %}"),
			vllmLog("(APIServer pid=1)", "WARNING", "hf.py:80", "Using a slow tokenizer. This might cause a significant slowdown. Consider using a fast tokenizer instead."),
		}},
	}},
	{name: "LoRA", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "an adapter rank above the launch's", want: "vllm-lora-rank-exceeds-max", lines: []string{
			"ValueError: LoRA rank 64 is greater than max_lora_rank 16.",
		}},
		{family: "an adapter the base model cannot take", want: "vllm-lora-adapter-incompatible", lines: []string{
			"ValueError: While loading /adapters/sql, expected target modules in ['q_proj', 'k_proj', 'v_proj', 'o_proj'] but received ['lm_head']. Please verify that the loaded LoRA module is correct",
			"RuntimeError: The embedding LoRA size(32000) must be consistent with the base model's vocabulary size(151936).",
			"ValueError: /adapters/sql doesn't contain tensors",
		}},
		{family: "more adapters than GPU slots", want: "vllm-lora-slots-exceeded", lines: []string{
			"RuntimeError: Number of requested LoRAs (5) is greater than the number of GPU LoRA slots (4).",
		}},
		{family: "near misses: LoRA notices", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "INFO", "serving_models.py:174", "Loaded new LoRA adapter: name 'sql', path '/adapters/sql'"),
			vllmLog("(EngineCore_DP0 pid=120)", "WARNING", "lora.py:92", "`lora_extra_vocab_size` is deprecated and will be removed in v0.12.0."),
		}},
	}},
	{name: "speculative decoding", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "a draft model and options vLLM refuses", want: "vllm-speculative-config-rejected", lines: []string{
			"ValueError: Target and draft model should have the same vocabulary size. Target model vocab_size=151936. Draft model vocab_size=32000. Using models with different tokenizers can cause out-of-bounds errors during speculative decoding.",
			"ValueError: num_speculative_tokens was provided but without speculative model.",
			"NotImplementedError: Unsupported speculative method: 'medusa2'",
			"ValueError: speculative_max_model_len=65536 cannot be larger than target_max_model_len=32768",
			"ValueError: Expected num_speculative_tokens to be greater than zero (0).",
		}},
		{family: "near misses: speculative notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "metrics.py:96", "SpecDecoding metrics: Mean acceptance length: 2.41, Accepted throughput: 61.20 tokens/s, Drafted throughput: 120.40 tokens/s"),
		}},
	}},
	{name: "structured output backends", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "a schema or regex the backend cannot compile", want: "vllm-structured-output-grammar-rejected", lines: []string{
			"ValueError: The provided JSON schema contains features not supported by xgrammar.",
			"ValueError: Failed to transform json schema into a grammar: Unsupported JSON Schema keyword: patternProperties",
			"ValueError: Regex uses unsupported feature for structured outputs: look-around. Only basic matching constructs are supported—lookarounds, backreferences, and unicode boundaries are not.",
			"ValueError: Outlines structured outputs backend does not support grammar specifications",
		}},
		{family: "near misses: grammar notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "backend_xgrammar.py:80", "Compiled grammar in 0.12 seconds"),
		}},
	}},
	{name: "launch options: parsers, templates, backends, connectors", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "a parser, backend or connector name vLLM does not know", want: "vllm-engine-args-rejected", lines: []string{
			"KeyError: 'invalid tool call parser: hermes2 (chose from { hermes,llama3_json,mistral })'",
			"KeyError: 'invalid reasoning parser: qwen (chose from { deepseek_r1,qwen3 })'",
			"ValueError: Unknown attention backend: 'FLASH_ATTN_V3'. Valid options are: FLASH_ATTN, FLASHINFER, TRITON_ATTN",
			"ValueError: Connector LMCacheConnectorV1 does not support HMA but HMA is enabled. Please set `--disable-hybrid-kv-cache-manager`.",
		}},
		{family: "a KV connector name vLLM does not register", want: "kv-connector-unsupported", lines: []string{
			"ValueError: Connector 'NixlConnecter' is not registered.",
			"ValueError: Unsupported connector type: LMCacheConnectorV1",
			"ValueError: Connector MyOffloadConnector uses deprecated 2-argument constructor signature. External v1 KV connectors must accept kv_cache_config as the third constructor argument and pass it to super().__init__().",
		}},
		{family: "a chat template path that is not there", want: "vllm-chat-template-missing", lines: []string{
			"ValueError: The supplied chat template string (/templates/qwen.jinja) appears path-like, but doesn't exist! Tried: /templates/qwen.jinja and /usr/local/lib/python3.12/dist-packages/vllm/transformers_utils/chat_templates/qwen.jinja",
		}},
		{family: "near misses: option notices", bare: true, lines: []string{
			vllmLog("(APIServer pid=1)", "INFO", "serving_chat.py:136", `"auto" tool choice has been enabled.`),
			vllmLog("(APIServer pid=1)", "INFO", "factory.py:60", "Creating v1 connector with name: NixlConnector and engine_id: 3f2a9c"),
		}},
	}},
	{name: "attention backend selection", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "a backend the GPU, model or cache cannot run", want: "vllm-attention-backend-unsupported", lines: []string{
			"ValueError: Selected backend FLASHINFER is not valid for this configuration. Reason: ['head_size not supported', 'kv_cache_dtype not supported']",
			"ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(head_size=80, dtype=torch.float16, kv_cache_dtype=fp8). Reasons: {FLASH_ATTN: [compute capability not supported], FLASHINFER: [kv_cache_dtype not supported]}.",
			"NotImplementedError: FlashInfer backend currently does not support attention sinks, please use trtllm on blackwell or flash attention on earlier GPUs.",
		}},
		{family: "near misses: selection notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "cuda.py:366", "Using FLASH_ATTN attention backend out of potential backends: ['FLASH_ATTN', 'FLASHINFER']"),
			vllmLog("(EngineCore_DP0 pid=120)", "DEBUG", "cuda.py:330", "Some attention backends are not valid for cuda with AttentionSelectorConfig(head_size=80). Reasons: {FLASHINFER: [head_size not supported]}."),
		}},
	}},
	{name: "OpenAI server: inputs the launch did not enable", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "embeddings or processors not enabled", want: "vllm-request-feature-not-enabled", lines: []string{
			"ValueError: You must set `--enable-mm-embeds` to input `image_embeds`",
			"ValueError: You must set `--enable-prompt-embeds` to input `prompt_embeds`",
			"ValueError: The `logits_processors` argument is not supported by this server. See --logits-processor-pattern engine argument for more information.",
		}},
	}},
	{name: "quantization layers", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "quantized weights the TP size splits unevenly", want: "quantized-weight-tp-split-misaligned", lines: []string{
			"ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size.",
			"ValueError: The output size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size.",
			"ValueError: Weight input_size_per_partition = 1408 is not divisible by  min_thread_k = 128. Consider reducing tensor_parallel_size or running with --quantization gptq.",
			"ValueError: Weight output_size_per_partition = 176 is not divisible by  min_thread_n = 64. Consider reducing tensor_parallel_size or running with --quantization gptq.",
			"ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization block_n = 128.",
			"ValueError: The input_size of down's weight = 192 is not divisible by weight quantization block_k = 128.",
		}},
		{family: "a quantization package missing", want: "python-module-not-found", lines: []string{
			"ImportError: Please install bitsandbytes>=0.46.1 via `pip install bitsandbytes>=0.46.1` to use bitsandbytes quantizer.",
			"ImportError: Please install torchao>=0.10.0 via `pip install torchao>=0.10.0` to use torchao quantization.",
		}},
		{family: "near misses: quantization notices", bare: true, lines: []string{
			vllmLog("(EngineCore_DP0 pid=120)", "INFO", "gptq_marlin.py:266", "Using MarlinLinearKernel for GPTQMarlinLinearMethod"),
			vllmLog("(APIServer pid=1)", "INFO", "awq_marlin.py:120", "The model is convertible to awq_marlin during runtime. Using awq_marlin kernel."),
			vllmLog("(EngineCore_DP0 pid=120)", "WARNING", "fp8.py:164", "Detected fp8 checkpoint. Please note that the format is experimental and subject to change."),
		}},
	}},
	{name: "shared layers under vLLM", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "CUDA out of memory", want: "cuda-out-of-memory", lines: []string{
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 78.15 GiB memory in use.",
		}},
		{family: "illegal memory access", want: "cuda-illegal-memory-access", lines: []string{
			"RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
		}},
		{family: "no such module", want: "python-module-not-found", lines: []string{
			"ModuleNotFoundError: No module named 'flash_attn'",
		}},
		{family: "a model repository that is not there", want: "hf-repository-not-found", lines: []string{
			"huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-abc)\n\nRepository Not Found for url: https://huggingface.co/api/models/Qwen/Qwen9-8B/revision/main.",
		}},
		{family: "a gated model without a token", want: "hf-gated-repo", lines: []string{
			"huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-abc)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-8B-Instruct is restricted. You must have access to it and be authenticated to access it. Please log in.",
		}},
		{family: "remote code not trusted", want: "trust-remote-code-required", lines: []string{
			"ValueError: The repository /models/internlm2-chat-7b contains custom code which must be executed to correctly load the model. You can inspect the repository content at /models/internlm2-chat-7b .\n You can inspect the repository content at https://hf.co//models/internlm2-chat-7b.\nPlease pass the argument `trust_remote_code=True` to allow custom code to be run.",
		}},
		{family: "NCCL fails", want: "nccl-unhandled-system-error", lines: []string{
			"torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.3\nncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
		}},
	}},
	{name: "OpenAI server start-up under vLLM", shapes: vllmAPIShapes, families: []raiseFamily{
		{family: "the port is taken", want: "address-already-in-use", lines: []string{
			"OSError: [Errno 98] Address already in use",
		}},
		{family: "uvicorn: the port is taken", want: "address-already-in-use", bare: true, lines: []string{
			"(APIServer pid=1) ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use",
		}},
	}},
}

// tgiComponents lists the families of every TGI component: the Rust
// launcher and router, and the Python shards.
var tgiComponents = []engineComponent{
	{name: "launcher: arguments", shapes: func(exc string) []string { return []string{exc} }, families: []raiseFamily{
		{family: "arguments the launcher refuses", want: "tgi-argument-validation", lines: []string{
			"Error: ArgumentValidation(\"`max_input_tokens`(4096) must be < `max_total_tokens`(4096)\")",
			"Error: ArgumentValidation(\"`sharded` is true but `num_shard` <= 1\")",
			"Error: ArgumentValidation(\"`max_total_tokens` must be <= `max_batch_total_tokens`. Given: 8192 and 4096\")",
		}},
		{family: "fewer GPUs than the shards", want: "tgi-not-enough-cuda-devices", lines: []string{
			"Error: NotEnoughCUDADevices(\"`sharded` is true but only found 1 CUDA devices\")",
		}},
		{family: "near misses: the launcher's notices", bare: true, lines: []string{
			tgiLauncher(" INFO", "Args { model_id: \"meta-llama/Llama-3.1-8B-Instruct\", revision: None, validation_workers: 2, sharded: None, num_shard: Some(2) }"),
			tgiLauncher(" INFO", "Sharding model on 2 processes"),
			tgiLauncher(" INFO", "Default `max_batch_prefill_tokens` to 4096"),
			tgiLauncher(" INFO", "Using prefix caching = true"),
			tgiLauncher(" INFO", "Parsing num_shard from CUDA_VISIBLE_DEVICES/NVIDIA_VISIBLE_DEVICES/ZE_AFFINITY_MASK"),
		}},
	}},
	{name: "shard: model init", shapes: tgiShardShapes, families: []raiseFamily{
		{family: "sharding a model without flash attention", want: "tgi-sharded-requires-flash-attention", lines: []string{
			"NotImplementedError: Sharded Llama requires Flash Attention enabled models.",
		}},
		// More shards than visible GPUs: each shard asserts one GPU of
		// its own (text-generation-inference#425, #2432).
		{family: "more shards than the GPUs a shard sees", want: "tgi-not-enough-cuda-devices", lines: []string{
			"AssertionError: Each process is one gpu",
		}},
		{family: "a model type TGI does not implement, natively or through Transformers", want: "tgi-unsupported-model-type", lines: []string{
			"ValueError: Unsupported model type qwen3_next",
			"RuntimeError: Could not determine model type for /data/my-model revision None",
			"NotImplementedError: sharded is not supported for AutoModel",
			"NotImplementedError: gptq quantization is not supported for AutoModel, you can try to quantize it with `text-generation-server quantize ORIGINAL_MODEL_ID NEW_MODEL_ID`",
		}},
		{family: "launch options the shard refuses", want: "tgi-argument-validation", lines: []string{
			"RuntimeError: Only 1 can be set between `dtype` and `quantize`, as they both decide how goes the final model.",
			"RuntimeError: Speculate is set to `3` but this medusa models only has `2` heads, please make them match",
			"RuntimeError: Sharding is currently not supported with `exl2` quantization",
		}},
		{family: "a quantization the checkpoint does not have", want: "tgi-quantize-mismatch", lines: []string{
			"ValueError: Quantize is set to `awq` but received a `GPTQConfig` config.",
		}},
		{family: "a weight the checkpoint does not have", want: "tgi-weight-missing", lines: []string{
			"RuntimeError: weight model.layers.0.self_attn.q_proj.weight does not exist",
		}},
		{family: "no weights where the launcher looked", want: "tgi-weights-not-found", lines: []string{
			"FileNotFoundError: No local weights found in /data/my-model with extension .safetensors",
			"huggingface_hub.errors.EntryNotFoundError: No .safetensors weights found for model bigscience/bloom-560m and revision None.",
		}},
		{family: "warmup has no room", want: "tgi-not-enough-memory-warmup", lines: []string{
			"RuntimeError: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`",
		}},
		{family: "CUDA out of memory", want: "cuda-out-of-memory", lines: []string{
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 22.05 GiB of which 512.00 MiB is free.",
		}},
	}},
	{name: "launcher: shard and webserver lifecycle", families: []raiseFamily{
		{family: "a shard did not start", want: "tgi-shard-failed-to-start", bare: true, lines: []string{
			tgiLauncher("ERROR", "Shard 0 failed to start"),
		}},
		{family: "a shard was killed", want: "tgi-shard-signaled", bare: true, lines: []string{
			tgiShard("ERROR", "Shard process was signaled to shutdown with signal 9 rank=0"),
		}},
		{family: "a shard crashed serving", want: "tgi-shard-crashed", bare: true, lines: []string{
			tgiLauncher("ERROR", "Shard 1 crashed"),
			"Error: ShardFailed",
		}},
		{family: "the webserver failed", want: "tgi-webserver-failed", bare: true, lines: []string{
			tgiLauncher("ERROR", "Webserver Crashed"),
		}},
		{family: "the download failed", want: "tgi-download-error", bare: true, lines: []string{
			"Error: DownloadError",
		}},
		{family: "near misses: lifecycle notices", bare: true, lines: []string{
			tgiShard(" INFO", "Starting shard rank=0"),
			tgiShard(" INFO", "Waiting for shard to be ready... rank=0"),
			tgiShard(" INFO", "Shard ready in 12.3s rank=0"),
			tgiLauncher(" INFO", "Starting Webserver"),
			tgiLauncher(" INFO", "Terminating shard rank=0"),
			tgiLauncher(" INFO", "Shard terminated rank=0"),
			tgiLauncher(" INFO", "Successfully downloaded weights for meta-llama/Llama-3.1-8B-Instruct"),
		}},
	}},
	{name: "router: warmup and requests", families: []raiseFamily{
		{family: "warmup has no room", want: "tgi-not-enough-memory-warmup", bare: true, lines: []string{
			"Error: Backend(Warmup(Generation(\"Not enough memory to handle 8192 prefill tokens. You need to decrease `--max-batch-prefill-tokens`\")))",
		}},
		{family: "a request longer than the launch allows", want: "tgi-input-validation-too-long", bare: true, lines: []string{
			"2024-06-28T10:00:00.000000Z ERROR chat_completions:generate_stream: text_generation_router::infer: router/src/infer/mod.rs:105: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 200 `max_new_tokens`",
		}},
		{family: "near misses: router notices", bare: true, lines: []string{
			"2024-03-01T10:00:00.000000Z  INFO text_generation_router::server: router/src/server.rs:2196: Serving revision 0e9e39f249a16976918f6564b8830bc894c89659 of model meta-llama/Llama-3.1-8B-Instruct",
			"2024-03-01T10:00:00.000000Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model",
			"2024-03-01T10:00:00.000000Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:137: Setting max batch total tokens to 406560",
			"2024-03-01T10:00:00.000000Z  INFO text_generation_router::server: router/src/server.rs:2351: Connected",
		}},
	}},
}

// lmdeployComponents lists the families of every LMDeploy component.
var lmdeployComponents = []engineComponent{
	{name: "environment checks", families: []raiseFamily{
		{family: "a check of the environment failed", want: "lmdeploy-env-check-failed", bare: true, lines: []string{
			lmdeployLog("ERROR", "base.py:55", "<Dist> check failed!\ndp>1 requires distributed_executor_backend=\"ray\". Please launch your script with `distributed_executor_backend=\"ray\"`"),
			lmdeployLog("ERROR", "base.py:55", "<CUDA> check failed!\ncuda is not available."),
			lmdeployLog("ERROR", "base.py:55", "<transformers> check failed!\nLoad model config with transformers==4.40.0 failed. Please make sure model can be loaded with transformers API."),
			lmdeployLog("ERROR", "base.py:55", "<CUDA> check failed!\n\x1b[31mmodel_format=fp8 requires sm>=9.0.\x1b[0m"),
			// Before 0.6.3 the check said "test failed!" (lmdeploy#2443,
			// #2714).
			"2024-09-11 03:19:40,221 - lmdeploy - ERROR - <autoawq> test failed!\nPlease ensure it has been installed correctly.",
			"2024-11-06 22:40:35,607 - lmdeploy - ERROR - __init__.py:18 - <autoawq> test failed!\nPlease ensure it has been installed correctly.",
		}},
		{family: "near misses: check notices", bare: true, lines: []string{
			lmdeployLog("WARNING", "model.py:42", "model `/models/internlm2` requires transformers version 4.44.0 but transformers 4.40.0 is installed."),
			lmdeployLog("WARNING", "model.py:62", "Device does not support bfloat16."),
		}},
	}},
	{name: "engine config", shapes: lmdeployShapes, families: []raiseFamily{
		{family: "a model neither engine supports", want: "lmdeploy-model-not-supported", lines: []string{
			"AssertionError: turbomind does not support /models/foo-7b. Plz try pytorch engine instead.",
			"RuntimeError: Could not find model architecture from config: {'model_type': 'foo'}",
		}},
		{family: "engine options out of range", want: "lmdeploy-engine-config-invalid", lines: []string{
			"AssertionError: invalid cache_max_entry_count",
			"ValueError: invalid quant_policy: 3",
			"AssertionError: chat template 'llama9' is not registered. The builtin chat templates are: dict_keys(['base', 'llama3', 'internlm2'])",
		}},
	}},
	{name: "PyTorch engine memory", shapes: lmdeployShapes, families: []raiseFamily{
		{family: "no memory for the KV cache", want: "lmdeploy-no-memory-for-kv-cache", lines: []string{
			"RuntimeError: No enough gpu memory for kv cache.",
			"RuntimeError: No enough gpu memory for runtime.",
			"AssertionError: No enough gpu memory for state cache. Please reduce max_batch_size.",
		}},
		{family: "near misses: memory notices", bare: true, lines: []string{
			lmdeployLog("WARNING", "base.py:402", "No enough memory. Update max_prefill_token_num=4096"),
			lmdeployLog("INFO", "cache_engine.py:300", "Allocating cache blocks: num_gpu_blocks=4096, num_cpu_blocks=0"),
		}},
	}},
	{name: "engine loop and sessions", families: []raiseFamily{
		{family: "the engine loop failed", want: "lmdeploy-engine-loop-failed", bare: true, lines: []string{
			lmdeployLog("ERROR", "engine.py:781", "Engine loop failed with error: CUDA out of memory."),
		}},
		{family: "a session ended in error", want: "lmdeploy-session-finished-error", bare: true, lines: []string{
			lmdeployLog("ERROR", "async_engine.py:794", "session 7 finished, ResponseType.INTERNAL_ENGINE_ERROR, reason \"error\""),
		}},
		{family: "near misses: engine notices", bare: true, lines: []string{
			lmdeployLog("INFO", "async_engine.py:794", "session 7 finished, ResponseType.FINISH, reason \"stop\""),
			lmdeployLog("INFO", "api_server.py:1420", "Uvicorn running on http://0.0.0.0:23333 (Press CTRL+C to quit)"),
		}},
	}},
}

// dynamoVLLMComponents are vLLM's failures as a Dynamo vLLM worker relays
// them: a stream whose engine the detector may not decide.
var dynamoVLLMComponents = []engineComponent{
	{name: "vLLM under Dynamo: start-up", shapes: dynamoVLLMShapes, families: []raiseFamily{
		{family: "no memory for the cache", want: "vllm-no-memory-for-cache-blocks", lines: []string{
			"ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
		}},
		{family: "the cache cannot hold one request", want: "vllm-kv-cache-smaller-than-max-model-len", lines: []string{
			"ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (8.50 GiB). Based on the available memory, the estimated maximum model length is 69632. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
		}},
		{family: "options that cannot be combined", want: "vllm-engine-args-rejected", lines: []string{
			"ValueError: --mamba-block-size can only be set with --enable-prefix-caching",
		}},
		{family: "CUDA out of memory", want: "cuda-out-of-memory", lines: []string{
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.",
		}},
	}},
	{name: "vLLM under Dynamo: the engine died", families: []raiseFamily{
		{family: "the engine core died", want: "vllm-engine-dead", bare: true, lines: []string{
			dynamoLog("ERROR", "engine_monitor._check_engine_health", "vLLM AsyncLLM health check failed: EngineCore encountered an issue. See stack trace (above) for the root cause."),
		}},
		{family: "near misses: worker notices", bare: true, lines: []string{
			dynamoLog(" INFO", "engine_monitor.__init__", "VllmEngineMonitor initialized and health check task started."),
			dynamoLog(" INFO", "core._initialize_kv_caches", "GPU KV cache size: 2,031,632 tokens"),
		}},
	}},
}

// ollamaLog writes a record the way Ollama's server logs it with log/slog.
func ollamaLog(level, source, msg, err string) string {
	s := "time=2026-05-28T00:11:09.123Z level=" + level + " source=" + source + " msg=\"" + msg + "\""
	if err != "" {
		s += " error=\"" + err + "\""
	}
	return s
}

// ollamaComponents lists the families of every Ollama component: the
// server's scheduler and its llama-server runner, model pulls, and the
// errors the CLI prints.
var ollamaComponents = []engineComponent{
	{name: "scheduler and runner", families: []raiseFamily{
		{family: "the runner stopped", want: "ollama-runner-terminated", bare: true, lines: []string{
			ollamaLog("ERROR", "sched.go:489", "error loading llama server", "llama runner process has terminated: exit status 2"),
			"Error: model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details",
		}},
		{family: "the runner stopped on a CUDA fault", want: "cuda-illegal-memory-access", bare: true, lines: []string{
			ollamaLog("ERROR", "server.go:1644", "llama server error", "model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details: CUDA error: an illegal memory access was encountered"),
		}},
		{family: "the runner did not start in time", want: "ollama-timed-out-waiting-for-runner", bare: true, lines: []string{
			"Error: timed out waiting for llama-server to start - progress 0.42 - ",
			ollamaLog("ERROR", "sched.go:489", "error loading llama server", "timed out waiting for llama-server to start: context deadline exceeded"),
		}},
		{family: "out of memory loading the model", want: "cuda-error-out-of-memory", bare: true, lines: []string{
			ollamaLog("ERROR", "sched.go:489", "error loading llama server", "llama-server reported out-of-memory during startup: cudaMalloc failed: out of memory"),
			"Error: llama-server reported out-of-memory during startup: ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory",
		}},
		{family: "near misses: scheduler notices", bare: true, lines: []string{
			ollamaLog("INFO", "server.go:1289", "waiting for llama runner to start responding", ""),
			ollamaLog("INFO", "server.go:1328", "llama runner started in 2.01 seconds", ""),
			ollamaLog("INFO", "types.go:131", "inference compute", "") + " id=GPU-3f2a library=CUDA compute=8.9 name=CUDA0 total=\"23.6 GiB\" available=\"22.9 GiB\"",
			ollamaLog("INFO", "routes.go:1546", "Listening on 127.0.0.1:11434 (version 0.12.0)", ""),
			ollamaLog("INFO", "sched.go:517", "updated VRAM based on existing loaded models", "") + " gpu=GPU-3f2a library=CUDA total=\"23.6 GiB\" available=\"12.1 GiB\"",
		}},
	}},
	{name: "models and pulls", families: []raiseFamily{
		{family: "a model the library does not have", want: "ollama-pull-manifest-not-found", bare: true, lines: []string{
			"Error: pull model manifest: file does not exist",
		}},
		{family: "a model this server has not pulled", want: "ollama-model-not-found", bare: true, lines: []string{
			`{"error":"model \"llama9\" not found, try pulling it first"}`,
		}},
		{family: "a model newer than the server", want: "ollama-model-incompatible-version", bare: true, lines: []string{
			"Error: 500 Internal Server Error: unable to load model: /root/.ollama/models/blobs/sha256-3f2a: this model may be incompatible with your version of Ollama. If you previously pulled this model, try updating it by running `ollama pull qwen3`",
		}},
		{family: "a download that fails", want: "ollama-digest-mismatch", bare: true, lines: []string{
			"Error: digest mismatch, file must be downloaded again: want sha256:3f2a, got sha256:9d0e",
		}},
		{family: "near misses: pull notices", bare: true, lines: []string{
			ollamaLog("INFO", "download.go:177", "downloading 3f2a9c0e in 16 292 MB part(s)", ""),
			"pulling manifest",
			"verifying sha256 digest",
		}},
	}},
	{name: "requests", families: []raiseFamily{
		{family: "a prompt the context cannot hold", want: "ollama-input-exceeds-context", bare: true, lines: []string{
			`{"error":"input exceeds maximum context length and cannot be truncated further"}`,
			ollamaLog("ERROR", "routes.go:968", "embedding generation failed", "input after truncation exceeds maximum context length"),
		}},
		{family: "near misses: request notices", bare: true, lines: []string{
			ollamaLog("WARN", "runner.go:156", "truncating input prompt", "") + " limit=4096 prompt=5210 keep=4 new=4096",
		}},
	}},
}

// llamacppComponents lists the families of llama.cpp's server, in the
// plain form it writes to stderr and with the level prefix --log-prefix
// (and newer builds by default) put in front.
var llamacppComponents = []engineComponent{
	{name: "llama-server: start-up", families: []raiseFamily{
		{family: "the port is taken", want: "llamacpp-server-bind-failed", bare: true, lines: []string{
			"main: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 8080",
			"E start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 18091",
		}},
		{family: "the model did not load", want: "llamacpp-server-model-load-failed", bare: true, lines: []string{
			"srv    load_model: failed to load model, '/models/qwen3-8b-q4_k_m.gguf'",
			"E srv llama_server: exiting due to model loading error",
		}},
		{family: "the weights do not fit the device", want: "llamacpp-failed-to-allocate-buffer", bare: true, lines: []string{
			"alloc_tensor_range: failed to allocate CUDA0 buffer of size 12306496768",
			"llama_kv_cache: failed to allocate buffer for kv cache",
		}},
		{family: "the context could not be created", want: "llamacpp-context-creation-failed", bare: true, lines: []string{
			"common_init_from_params: failed to create context with model '/models/qwen3-8b-q4_k_m.gguf'",
			"E common_init_: failed to create context with model 'gemma-4-E4B-it-QAT-Q4_K_XL.gguf'",
		}},
		{family: "an architecture this build does not know", want: "llamacpp-unknown-model-architecture", bare: true, lines: []string{
			"llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'qwen4'",
		}},
		{family: "near misses: start-up notices", bare: true, lines: []string{
			"main: server is listening on http://0.0.0.0:8080 - starting the main loop",
			"srv  log_server_r: request: GET /health 127.0.0.1 200",
			"llama_context: n_ctx_per_seq (4096) < n_ctx_train (40960) -- the full capacity of the model will not be utilized",
			"load_tensors: offloaded 37/37 layers to GPU",
			"llama_kv_cache:      CUDA0 KV buffer size =   576.00 MiB",
		}},
	}},
	// llama-cpp-python raises the failed load as a ValueError with the
	// path only (abetlen/llama-cpp-python#2187's example; an agent
	// application's handler, agentscope-ai/QwenPaw#425).
	{name: "llama-cpp-python: loading", families: []raiseFamily{
		{family: "the model did not load", want: "llamacpp-server-model-load-failed", bare: true, lines: []string{
			"ValueError: Failed to load model from file: /root/.cache/.../Qwen3.5-35B-A3B-Uncensored-HauhauCS-Aggressive-BF16.gguf",
			`Unknown agent error: ValueError: Failed to load model from file: C:\Users\blxyy.copaw\models\Qwen--Qwen3-VL-2B-Thinking-GGUF\Qwen3VL-2B-Thinking-Q4_K_M.gguf (Details: C:\Users\blxyy\AppData\Local\Temp\copaw_query_error_5hl8525t.json)`,
			`Error in query handler: Failed to load model from file: C:\Users\blxyy.copaw\models\Qwen--Qwen3-VL-2B-Thinking-GGUF\Qwen3VL-2B-Thinking-Q4_K_M.gguf`,
		}},
		{family: "near misses: loading notices", bare: true, lines: []string{
			"llama_model_loader: loaded meta data with 30 key-value pairs and 291 tensors from /models/qwen3-8b-q4_k_m.gguf (version GGUF V3 (latest))",
			`raise ValueError(f"Failed to load model from file: {path_model}")`,
		}},
	}},
	{name: "llama-server: requests", families: []raiseFamily{
		{family: "a prompt the context cannot hold", want: "llamacpp-request-exceeds-context", bare: true, lines: []string{
			`srv    send_error: task id = 12, error: the request exceeds the available context size, try increasing it`,
			`{"error":{"code":400,"message":"request (5210 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5210,"n_ctx":4096}}`,
		}},
		{family: "near misses: request notices", bare: true, lines: []string{
			"slot launch_slot_: id  0 | task 12 | processing task",
			"slot update_slots: id  0 | task 12 | new prompt, n_ctx_slot = 4096, n_keep = 0, n_prompt_tokens = 1210",
		}},
	}},
}

// trtllmLog writes msg the way TensorRT-LLM's Python logger writes it.
func trtllmLog(level, msg string) string {
	return "[06/21/2025-01:30:42] [TRT-LLM] [RANK 0] [" + level + "] " + msg
}

// trtllmComponents lists the families of TensorRT-LLM's serving path
// (trtllm-serve on the PyTorch backend, the executor and its C++ runtime).
var trtllmComponents = []engineComponent{
	{name: "executor start-up", families: []raiseFamily{
		{family: "the executor failed on a rank", want: "trtllm-executor-init-failed", bare: true, lines: []string{
			trtllmLog("E", "Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] CUDA runtime error in cudaMalloc: out of memory"),
		}},
		{family: "the worker returned an error", want: "trtllm-executor-worker-error", lines: []string{
			"RuntimeError: Executor worker returned error",
		}},
		{family: "a prebuilt engine this runtime cannot load", want: "trtllm-engine-deserialize-failed", bare: true, lines: []string{
			"[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:72)",
		}},
		{family: "near misses: start-up notices", bare: true, lines: []string{
			trtllmLog("I", "Using LLM with PyTorch backend"),
			"[TensorRT-LLM][INFO] Max KV cache pages per sequence: 32",
			trtllmLog("I", "[MemUsageChange] Allocated 61.20 GiB for max tokens in paged KV cache (2031632)."),
			"INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
		}},
	}},
	{name: "requests", families: []raiseFamily{
		{family: "a prompt longer than the launch allows", want: "trtllm-prompt-exceeds-max-num-tokens", lines: []string{
			"tensorrt_llm.executor.utils.RequestError: The sum of prompt length (72417.0), query length (0) should not exceed max_num_tokens (69632)",
		}},
		{family: "the same, as the client sees it", want: "trtllm-prompt-exceeds-max-num-tokens", bare: true, lines: []string{
			`{"object":"error","message":"The sum of prompt length (38049.0), query length (0) should not exceed max_num_tokens (32768)","type":"BadRequestError","param":null,"code":400}`,
		}},
	}},
}

// engineWordingsAll lists every engine's components.
var engineWordingsAll = []engineWordings{
	{engine: "vllm", components: vllmComponents},
	{engine: "tgi", components: tgiComponents},
	{engine: "lmdeploy", components: lmdeployComponents},
	{engine: "vllm", detect: true, components: dynamoVLLMComponents},
	{engine: "ollama", components: ollamaComponents},
	{engine: "llamacpp", components: llamacppComponents},
	{engine: "trtllm", components: trtllmComponents},
}

// engineLead is raiseLead with the engine known: the record that claims
// the exception in text as the sidecar reads that engine's log.
func engineLead(m *matcher.Matcher, eng, text string) (*patterns.Record, []string) {
	a := entry.NewAssembler(entry.Options{})
	var ents []entry.Entry
	for i, line := range strings.Split(text, "\n") {
		ents = append(ents, a.Push(entry.Line{Text: line, Source: "engine-wordings", Stream: "stderr", Offset: int64(i)})...)
	}
	ents = append(ents, a.Flush()...)
	an := analysis.New(m)
	an.SetEngine(eng)
	var wrapper *patterns.Record
	var wrapperContext []string
	for i := range ents {
		d, ok := an.Analyze(&ents[i])
		if !ok || d.Cause == nil || d.Cause.Record.Severity == patterns.SeverityInfo {
			continue
		}
		r := d.Cause.Record
		var context []string
		for _, h := range d.Context {
			context = append(context, h.Record.Slug)
		}
		if r.Role.Is(patterns.RoleWrapper) {
			// A wrapper that leads speaks with the wrappers inside it
			// (an engine's "failed to start" around an NCCL error).
			if wrapper == nil {
				wrapper, wrapperContext = r, context
			}
			continue
		}
		return r, context
	}
	return wrapper, wrapperContext
}

// sglangAdvice is the first sglang-only word of the advice r gives an
// operator of eng, or "".
func sglangAdvice(r *patterns.Record, eng string) string {
	for _, s := range append(append([]string(nil), r.SolutionsFor(eng)...), r.PreventionTips...) {
		for _, w := range sglangOnlyAdvice {
			if strings.Contains(strings.ToLower(s), strings.ToLower(w)) {
				return w
			}
		}
	}
	return ""
}

// TestEngineWordings checks that every family of every engine component is
// led by its record on every composed line, read as that engine's log, and
// that the leading record advises that engine's operator; it logs each
// component's count of families claimed. With LOGMATCH_RAISES_DISCOVER set
// it logs the lines led otherwise instead of failing.
func TestEngineWordings(t *testing.T) { checkEngineFamilies(t, engineWordingsAll) }

// checkEngineFamilies runs familyCheck over every component of every
// engine in all: each line read as its engine's log (or as the engine the
// detector names, for a component marked detect) must be led by its
// record, and the lead must be that engine's or a neutral record with no
// sglang-only advice.
func checkEngineFamilies(t *testing.T, all []engineWordings) {
	m := compileCatalog(t)
	for _, ew := range all {
		name := ew.engine
		if ew.detect {
			name += " (detected)"
		}
		check := familyCheck{
			lead: func(text string) (*patterns.Record, []string) {
				read := ew.engine
				if ew.detect {
					var d engine.Detector
					for _, l := range strings.Split(text, "\n") {
						d.Line(l)
					}
					read = d.Engine()
				}
				return engineLead(m, read, text)
			},
			veto: func(lead *patterns.Record) string {
				switch {
				case lead == nil || lead.Role.Is(patterns.RoleWrapper):
					return ""
				case !lead.ForEngine(ew.engine):
					return "a record of engines " + strings.Join(lead.Engines, ",")
				}
				if w := sglangAdvice(lead, ew.engine); w != "" {
					return "advice naming " + w
				}
				return ""
			},
		}
		for _, comp := range ew.components {
			check.shapes = func(f raiseFamily, line string) []string {
				if f.bare || comp.shapes == nil {
					return []string{line}
				}
				return comp.shapes(line)
			}
			t.Run(name+"/"+comp.name, func(t *testing.T) { check.run(t, name+" "+comp.name, comp.families) })
		}
	}
}

// engineWordingsWidened are the lines of the catalog's engine-neutral
// records the engine families above widened.
var engineWordingsWidened = map[string]example{
	"quantized-weight-tp-split-misaligned": {
		match: []string{"ValueError: Weight input_size_per_partition = 1408 is not divisible by  min_thread_k = 128. Consider reducing tensor_parallel_size or running with --quantization gptq."},
		miss:  []string{"Weight input_size_per_partition = 1408 is divisible by min_thread_k = 128"},
	},
}

func init() { addExamples(nil, engineWordingsWidened) }
