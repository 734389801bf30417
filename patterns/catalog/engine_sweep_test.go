package catalog_test

import "testing"

// The fourth round of the engines' failure wordings: a record that exists
// reads every wording its writer used for the event across releases, read
// from the writer's own sources, behind the writer's prefix and bare:
//   - ggml's GGUF reader refuses a file that is not GGUF: "invalid magic
//     number <hex>" in 2023's ggml.c (67676a74 is a GGML 'ggjt' file,
//     4f44213c an HTML page), "invalid magic characters '<4 chars>'" later,
//     under gguf_init_from_file, gguf_init_from_file_impl and, since the
//     reader took a callback, gguf_init_from_reader; the gguf Python
//     package raises "GGUF magic invalid";
//   - the same reader refuses a GGUF file of another release: a tensor type
//     it does not know ("tensor '<name>' has invalid ggml type N", with the
//     type's name in older builds, "should be in [0, N)" in newer ones), a
//     newer GGUF version ("this GGUF file is version N but this software
//     only supports up to version M"), GGUF v1 ("GGUFv1 is no longer
//     supported"), the other byte order ("this GGUF file version N is
//     extremely large");
//   - TensorRT's builder and runtime out of GPU memory: "Error Code 2:
//     OutOfMemory", its default allocator's "Error Code 1: Cuda Runtime (out
//     of memory)" (TensorRT 7: "Cuda Error in allocate: 2 (out of memory)"),
//     and a plugin's workspace the builder cannot give ("Internal error:
//     plugin node <name> requires N bytes of scratch space, but only M is
//     available"), in trtexec's, polygraphy's, the Python logger's and
//     Triton's glog formats; the warning that it retries with less memory is
//     routine;
//   - TensorRT's deserializer refusing an engine of another release: "Error
//     Code 1: Serialization (Serialization assertion stdVersionRead ==
//     kSERIALIZATION_VERSION failed.Version tag does not match ...)", and
//     "... magicTag ... failed.Trying to load an engine created with
//     incompatible serialization version ..." in TensorRT 10;
//   - Triton's python backend stub: "Stub process '<instance>' is not
//     healthy." at load, "Stub process is unhealthy and it will be
//     restarted." while executing (releases up to 24.05), "Stub process is
//     not healthy." since, "The stub process has exited unexpectedly." in
//     2021's releases; its shared-memory region it cannot create or grow
//     ("Unable to initialize shared memory key '<key>' to requested size",
//     "Failed to increase the shared memory pool size [for key '<key>'] to N
//     bytes") is a family of its own;
//   - vLLM's worker memory profiling that leaves the KV cache nothing: a
//     negative size in each release's words ("the rest of the memory
//     reserved for KV Cache is -1.05GiB" in V0, "kv_cache_size=-1.54GiB" in
//     0.6, "Available KV cache memory: -0.75 GiB" in V1) and "# GPU blocks:
//     0", the lines before the ValueError a cut paste loses.
// The near misses are the same writers' routine lines with the same words.

// trtLog writes msg the way TensorRT's Python logger prints it, with the
// timestamp trtllm-build adds.
func trtLog(sev, msg string) string { return "[11/10/2023-21:47:10] [TRT] [" + sev + "] " + msg }

// trtexecLog writes msg the way trtexec prints an error of its logger.
func trtexecLog(code, msg string) string {
	return "[11/22/2024-13:40:47] [E] Error[" + code + "]: " + msg
}

// ollamaStderr writes a line of the runner's stderr as Ollama's journal
// shows it.
func ollamaStderr(line string) string { return "Dec 02 08:14:09 gpu-3 ollama[2211]: " + line }

// engineSweepGGUF lists the GGUF reader's refusals.
var engineSweepGGUF = []engineComponent{
	{name: "ggml: GGUF reader, not a GGUF file", families: []raiseFamily{
		{family: "a file without the GGUF magic", want: "gguf-invalid-magic", bare: true, lines: []string{
			"gguf_init_from_file: invalid magic number 67676a74\nerror loading model: llama_model_loader: failed to load model from models/wizardLM-7B.ggmlv3.q4_0.bin\n\nllama_load_model_from_file: failed to load model",
			"main: seed  = 1698855645\ngguf_init_from_file: invalid magic number 4f44213c\nerror loading model: llama_model_loader: failed to load model from /models/7b/llama-2-7b-chat.Q4_0.gguf",
			"gguf_init_from_file_impl: invalid magic characters: 'vers', expected 'GGUF'\nllama_model_load: error loading model: llama_model_loader: failed to load model from /models/qwen2.5-7b-q4_k_m.gguf",
			llamaLog("E", "gguf_init_from_reader: invalid magic characters: '<!DO', expected 'GGUF'"),
			composeLog("gguf_init_from_file: invalid magic characters 'PK\x03\x04'"),
			rawTB("ValueError: GGUF magic invalid"),
		}},
		{family: "near misses: the reader's notices", bare: true, lines: []string{
			"llama_model_loader: loaded meta data with 19 key-value pairs and 291 tensors from /models/llama-2-7b.Q4_0.gguf (version GGUF V2)",
			llamaLog("I", "print_info: file format = GGUF V3 (latest)"),
			"llm_load_print_meta: format           = GGUF V3 (latest)",
		}},
	}},
	{name: "llama.cpp: loader, 2023's builds", families: []raiseFamily{
		{family: "the loader's reason without its function's name", want: "llamacpp-error-loading-model", bare: true, lines: []string{
			"error loading model: llama_model_loader: failed to load model from ./models/mistral-7b.Q4_K_M.gguf\n\nllama_load_model_from_file: failed to load model",
			"error loading model: create_tensor: tensor 'output.weight' has wrong shape; expected  4096, 32002, got  4096, 32000,     1,     1",
		}},
		{family: "near misses: the loader's progress", bare: true, lines: []string{
			"llama.cpp: loading model from ./models/7B/ggml-model-q4_0.bin",
			"llama_model_loader: loaded meta data with 24 key-value pairs and 291 tensors from ./models/mistral-7b.Q4_K_M.gguf (version GGUF V3 (latest))",
		}},
	}},
	{name: "ggml: GGUF reader, another release's file", families: []raiseFamily{
		{family: "a tensor type, GGUF version or byte order this build does not read", want: "gguf-version-unsupported", bare: true, lines: []string{
			"gguf_init_from_file_impl: tensor 'blk.0.ffn_down_exps.weight' has invalid ggml type 39. should be in [0, 39)\ngguf_init_from_file_impl: failed to read tensor info\nllama_model_load: error loading model: llama_model_loader: failed to load model from /models/gpt-oss-20b-mxfp4.gguf",
			"gguf_init_from_file: tensor 'token_embd.weight' has invalid ggml type 36 (NONE)\ngguf_init_from_file: failed to read tensor info\nerror loading model: llama_model_loader: failed to load model from ./models/model-tq1_0.gguf",
			"gguf_init_from_file: GGUFv1 is no longer supported. please use a more up-to-date version\nerror loading model: llama_model_loader: failed to load model from ./models/llama-2-7b.gguf",
			llamaLog("E", "gguf_init_from_file_impl: this GGUF file is version 4 but this software only supports up to version 3"),
			"gguf_init_from_reader: failed to load model: this GGUF file version 50331648 is extremely large, is there a mismatch between the host and model endianness?",
			"gguf_init_from_file_impl: key 'general.architecture' has invalid GGUF type 13\ngguf_init_from_file_impl: failed to read key-value pairs",
			"llama.cpp: loading model from ./models/llama-2-7b-chat.Q4_0.gguf\nerror loading model: unknown (magic, version) combination: 46554747, 00000002; is this really a GGML file?\nllama_load_model_from_file: failed to load model",
			"main: build = 0 (unknown)\nllama_model_load: loading model from './models/7B/ggml-model-q4_0.bin' - please wait ...\nllama_model_load: invalid model file './models/7B/ggml-model-q4_0.bin' (bad magic)\nmain: failed to load model from './models/7B/ggml-model-q4_0.bin'",
		}},
		{family: "near misses: the loader's type census", bare: true, lines: []string{
			"llama_model_loader: - type  f32:   65 tensors\nllama_model_loader: - type q4_K:  193 tensors\nllama_model_loader: - type q6_K:   33 tensors",
			llamaLog("I", "print_info: file type   = Q4_K - Medium"),
			"llama_model_loader: loaded meta data with 35 key-value pairs and 459 tensors from /models/m.gguf (version GGUF V3 (latest))",
		}},
	}},
}

// engineSweepOllama lists the GGUF reader's refusals as Ollama's journal
// relays its runner's stderr.
var engineSweepOllama = []engineComponent{
	{name: "runner: GGUF reader", families: []raiseFamily{
		{family: "a model quantised for a newer llama.cpp", want: "gguf-version-unsupported", bare: true, lines: []string{
			ollamaStderr("gguf_init_from_file_impl: tensor 'blk.0.attn_q.weight' has invalid ggml type 40. should be in [0, 39)") + "\n" +
				ollamaStderr("gguf_init_from_file_impl: failed to read tensor info"),
		}},
		{family: "a file that is not GGUF", want: "gguf-invalid-magic", bare: true, lines: []string{
			ollamaStderr("gguf_init_from_file_impl: invalid magic characters: '{\"er', expected 'GGUF'"),
		}},
	}},
}

// engineSweepTensorRT lists TensorRT's out-of-memory and engine-version
// wordings in its loggers' formats.
var engineSweepTensorRT = []engineComponent{
	{name: "TensorRT: builder and runtime memory", families: []raiseFamily{
		{family: "the builder or runtime could not get GPU memory", want: "tensorrt-out-of-memory", bare: true, lines: []string{
			"`" + trtLog("E", "4: Internal error: plugin node LLaMAForCausalLM/layers/0/attention/PLUGIN_V2_GPTAttention_0 requires 56405524864 bytes of scratch space, but only 47590277120 is available."),
			"[TRT] [E] 4: [network.cpp::validate::3004] Error Code 4: Internal Error (Internal error: plugin node ScatterND_12 requires 36 bytes of scratch space, but only 0 is available.)",
			trtexecLog("1", "[defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)") + "\n" +
				"[11/22/2024-13:40:47] [W] [TRT] Requested amount of GPU memory (15485030400 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.",
			"[E] 1: [defaultAllocator.cpp::allocate::19] Error Code 1: Cuda Runtime (out of memory)\n[W] Requested amount of GPU memory (1180463648 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.",
			"[09/29/2022-16:59:38] [E] [TRT] ../rtSafe/safeRuntime.cpp (25) - Cuda Error in allocate: 2 (out of memory)",
			"[E] [TRT] C:\\source\\rtSafe\\safeRuntime.cpp (25) - Cuda Error in nvinfer1::internal::DefaultAllocator::allocate: 2 (out of memory)",
		}},
		{family: "near misses: memory notices", bare: true, lines: []string{
			trtLog("W", "Requested amount of GPU memory (1073741824 bytes) could not be allocated. There may not be enough free memory for allocation to succeed."),
			trtLog("W", "Tactic Device request: 4352MB Available: 2048MB. Device memory is insufficient to use tactic."),
			trtLog("I", "[MemUsageChange] Init builder kernel library: CPU +894, GPU +174, now: CPU 2151, GPU 1286 (MiB)"),
			trtLog("I", "Total Scratch Memory: 1048576 bytes"),
		}},
	}},
	{name: "TensorRT: engine deserialisation", families: []raiseFamily{
		{family: "an engine of another TensorRT release", want: "trtllm-engine-incompatible", bare: true, lines: []string{
			"[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization (Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match. Note: Current Version: 228, Serialized Engine Version: 236)",
			"[01/15/2026-07:20:09] [E] Error[1]: [runtime.cpp::parsePlan::455] Error Code 1: Serialization (Serialization assertion plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.Trying to load an engine created with incompatible serialization version. Check that the engine was not created using safety runtime, same OS was used and version compatibility parameters were set accordingly.)",
			"[TensorRT-LLM][ERROR] 1: [stdArchiveReader.cpp::StdArchiveReader::34] Error Code 1: Serialization (Serialization assertion safeVersionRead == kSAFE_SERIALIZATION_VERSION failed.Version tag does not match. Note: Current Version: 239, Serialized Engine Version: 0)",
			"[03/31/2025-05:56:08] [TRT] [E] 1: [runtime.cpp::parsePlan::314] Error Code 1: Serialization (Serialization assertion plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.)",
		}},
		{family: "near misses: engine loading notices", bare: true, lines: []string{
			trtLog("I", "Loaded engine size: 12852 MiB"),
			"[TensorRT-LLM][INFO] Loaded engine size: 12852 MiB",
			trtLog("W", "Using an engine plan file across different models of devices is not recommended and is likely to affect performance or even cause errors."),
		}},
	}},
}

// engineSweepTriton lists Triton's python backend stub and shared-memory
// wordings, and TensorRT's errors as Triton's tensorrt backend logs them.
var engineSweepTriton = []engineComponent{
	{name: "python backend: stub health", families: []raiseFamily{
		{family: "a stub that died or stopped answering", want: "triton-python-stub-unhealthy", bare: true, lines: []string{
			tritonLog('E', "python_be.cc:2458", "Stub process is unhealthy and it will be restarted."),
			"Stub process is unhealthy and it will be restarted.",
			tritonLog('E', "python.cc:437", "The stub process has exited unexpectedly."),
			"tritonclient.utils.InferenceServerException: [StatusCode.INTERNAL] Stub process is not healthy.",
			tritonLog('E', "backend_model_instance.cc:691", "Stub process is not healthy while waiting for is_ready()"),
		}},
		{family: "near misses: stub notices", bare: true, lines: []string{
			tritonLog('I', "python_be.cc:2248", "TRITONBACKEND_ModelInstanceInitialize: preprocessing_0_0 (CPU device 0)"),
			tritonLog('I', "stub_launcher.cc:253", "Starting Python backend stub:  exec /opt/tritonserver/backends/python/triton_python_backend_stub /models/preprocessing/1/model.py triton_python_backend_shm_region_1 1048576 1048576 1 /opt/tritonserver/backends/python 336 preprocessing_0_0 DEFAULT"),
			tritonLog('I', "python_be.cc:2463", "Stub process successfully restarted."),
		}},
	}},
	{name: "python backend: shared memory", families: []raiseFamily{
		{family: "a shared-memory region the stub cannot create or grow", want: "triton-python-backend-shm-exhausted", bare: true, lines: []string{
			tritonLog('E', "python_be.cc:1920", "Failed to increase the shared memory pool size to 1073741824 bytes. If you are running Triton inside docker, use '--shm-size' flag to control the shared memory region size. Error: No space left on device"),
			"tritonclient.utils.InferenceServerException: [StatusCode.INTERNAL] Failed to increase the shared memory pool size for key 'triton_python_backend_shm_region_2' to 134217728 bytes. If you are running Triton inside docker, use '--shm-size' flag to control the shared memory region size. Each Python backend model instance requires at least 64MBs of shared memory.",
			tritonLog('E', "model_lifecycle.cc:626", "failed to load 'preprocessing' version 1: Internal: Unable to initialize shared memory key 'triton_python_backend_shm_region_1' to requested size (1048576 bytes). If you are running Triton inside docker, use '--shm-size' flag to control the shared memory region size. Each Python backend model instance requires at least 1 MB of shared memory. Error: No such file or directory"),
		}},
		{family: "near misses: shared-memory settings", bare: true, lines: []string{
			tritonLog('I', "python_be.cc:2399", "Shared memory configuration is shm-default-byte-size=1048576,shm-growth-byte-size=1048576,stub-timeout-seconds=30"),
			"Shared Memory Default Byte Size: 1048576\nShared Memory Growth Byte Size: 1048576\nShared Memory Region Name: triton_python_backend_shm_region_1",
		}},
	}},
	{name: "tensorrt backend: TensorRT's errors", families: []raiseFamily{
		{family: "TensorRT out of memory", want: "tensorrt-out-of-memory", bare: true, lines: []string{
			tritonLog('E', "logging.cc:43", "1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)"),
		}},
		{family: "an engine of another TensorRT release", want: "trtllm-engine-incompatible", bare: true, lines: []string{
			tritonLog('E', "logging.cc:43", "1: [runtime.cpp::parsePlan::455] Error Code 1: Serialization (Serialization assertion plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.Trying to load an engine created with incompatible serialization version. Check that the engine was not created using safety runtime, same OS was used and version compatibility parameters were set accordingly.)"),
		}},
	}},
}

// engineSweepVLLM lists the worker's memory profiling lines that leave the
// KV cache nothing, as V0's and V1's workers log them.
var engineSweepVLLM = []engineComponent{
	{name: "worker: memory profiling", families: []raiseFamily{
		{family: "no memory left for the KV cache", want: "vllm-no-memory-for-cache-blocks", bare: true, lines: []string{
			"INFO 02-26 10:00:00 worker.py:267] Memory profiling takes 3.12 seconds\nINFO 02-26 10:00:00 worker.py:267] the current vLLM instance can use total_gpu_memory (7.63GiB) x gpu_memory_utilization (0.70) = 5.34GiB\nINFO 02-26 10:00:00 worker.py:267] model weights take 5.20GiB; non_torch_memory takes 0.05GiB; PyTorch activation peak memory takes 1.14GiB; the rest of the memory reserved for KV Cache is -1.05GiB.\nINFO 02-26 10:00:00 executor_base.py:110] # CUDA blocks: 0, # CPU blocks: 4681",
			"(RayWorkerWrapper pid=3918397) INFO 03-29 01:24:36 worker.py:272] model weights take 15.63GiB; non_torch_memory takes 0.81GiB; PyTorch activation peak memory takes 3.52GiB; the rest of the memory reserved for KV Cache is -2.57GiB.",
			"INFO 11-20 08:00:00 worker.py:241] Memory profiling results: total_gpu_memory=23.65GiB initial_memory_usage=16.91GiB peak_torch_memory=17.50GiB memory_usage_post_profile=17.02GiB non_torch_memory=0.12GiB kv_cache_size=-1.54GiB gpu_memory_utilization=0.70",
			vllmLog("(EngineCore_DP0 pid=17)", "INFO", "gpu_worker.py:298", "Available KV cache memory: -0.75 GiB"),
			"INFO 12-22 10:55:35 gpu_executor.py:76] # GPU blocks: 0, # CPU blocks: 2048",
		}},
		{family: "near misses: the profile of a cache that fits", bare: true, lines: []string{
			"INFO 12-22 10:55:34 worker.py:241] model weights take 8.51GiB; non_torch_memory takes 0.26GiB; PyTorch activation peak memory takes 0.94GiB; the rest of the memory reserved for KV Cache is 2.18GiB.\nINFO 12-22 10:55:35 gpu_executor.py:76] # GPU blocks: 715, # CPU blocks: 1310",
			"INFO 08-12 22:32:11 [executor_base.py:113] # cuda blocks: 190100, # CPU blocks: 0",
			vllmLog("(EngineCore_DP0 pid=17)", "INFO", "gpu_worker.py:298", "Available KV cache memory: 54.62 GiB"),
			vllmLog("(EngineCore_DP0 pid=17)", "INFO", "kv_cache_utils.py:1087", "GPU KV cache size: 447,088 tokens"),
		}},
	}},
}

// engineSweepAll lists every engine's fourth-round components.
var engineSweepAll = []engineWordings{
	{engine: "llamacpp", components: engineSweepGGUF},
	{engine: "ollama", components: engineSweepOllama},
	{engine: "trtllm", components: engineSweepTensorRT},
	{engine: "triton", components: engineSweepTriton},
	{engine: "vllm", components: engineSweepVLLM},
}

// TestEngineSweepWordings is TestEngineWordings over the fourth-round
// families: each is led by its record, read as its engine's log, and the
// lead advises that engine's operator.
func TestEngineSweepWordings(t *testing.T) { checkEngineFamilies(t, engineSweepAll) }

// engineSweepBuilder lists TensorRT's builder and execution context
// refusals a failing build or request prints, and Triton's python stub
// quoting the import error of a model's code.
var engineSweepBuilder = []engineComponent{
	{name: "TensorRT: builder tactics and profiles", families: []raiseFamily{
		{family: "no kernel for a layer", want: "tensorrt-no-implementation-for-node", bare: true, lines: []string{
			"[06/07/2022-19:05:53] [W] [TRT] Skipping tactic 0 due to insuficient memory on requested size of 29147520 detected for tactic 0.\n" +
				trtexecLog("10", "[optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (Could not find any implementation for node {ForeignNode[onnx::Gather_72...ScatterND_170]}.)") + "\n" +
				trtexecLog("2", "[builder.cpp::buildSerializedNetwork::609] Error Code 2: Internal Error (Assertion enginePtr != nullptr failed. )"),
			trtLog("E", "10: Could not find any implementation for node {ForeignNode[(Unnamed Layer* 1247) [Shuffle].../layers.7/Transpose_2 + /layers.7/Reshape_4]}."),
			"[TRT] [E] IBuilder::buildSerializedNetwork: Error Code 10: Internal Error (Could not find any implementation for node {ForeignNode[/blocks/blocks.10/attn/Gather_2_output_0[Constant].../blocks/blocks.11/Reshape_1]}.)",
			"[TensorRT] ERROR: Internal error: could not find any implementation for node (Unnamed Layer* 31) [Convolution], try increasing the workspace size with IBuilder::setMaxWorkspaceSize()",
		}},
		{family: "dynamic inputs without a profile", want: "tensorrt-no-optimization-profile", bare: true, lines: []string{
			"[TRT] [E] 4: [network.cpp::validate::2997] Error Code 4: Internal Error (Network has dynamic or shape inputs, but no optimization profile has been defined.)",
			trtexecLog("4", "Network has dynamic or shape inputs, but no optimization profile has been defined.") + "\n[11/22/2024-13:40:47] [E] Engine could not be created from network",
		}},
		{family: "a request outside the profile", want: "tensorrt-input-shape-outside-profile", bare: true, lines: []string{
			"[TRT] [E] 3: [executionContext.cpp::setBindingDimensions::944] Error Code 3: API Usage Error (Parameter check failed at: runtime/api/executionContext.cpp::setBindingDimensions::944, condition: profileMaxDims.d[i] >= dimensions.d[i]. Supplied binding dimension [1,4096] for bindings[0] exceed min ~ max range at index 1, maximum dimension in profile is 2048, minimum dimension in profile is 1, but supplied dimension is 4096.)",
			tritonLog('E', "logging.cc:43", "3: [executionContext.cpp::setBindingDimensions::969] Error Code 3: API Usage Error (Parameter check failed at: runtime/api/executionContext.cpp::setBindingDimensions::969, condition: profileMinDims.d[i] <= dimensions.d[i]. Supplied binding dimension [0,3] for bindings[0] exceed min ~ max range at index 0, maximum dimension in profile is 8, minimum dimension in profile is 1, but supplied dimension is 0.)"),
			"[TRT] [E] IExecutionContext::setInputShape: Error Code 3: API Usage Error (Parameter check failed, condition: satisfyProfile. Set dimension [64,3,640,640] for tensor images does not satisfy any optimization profiles. Valid range for profile 0: [1,3,640,640]..[32,3,640,640].)",
		}},
		{family: "near misses: builder notices", bare: true, lines: []string{
			trtLog("W", "Skipping tactic 0 due to insufficient memory on requested size of 1700241408 detected for tactic 0x0000000000000000."),
			trtLog("I", "Some tactics do not have sufficient workspace memory to run. Increasing workspace size will enable more tactics, please check verbose output for requested sizes."),
			"[TRT] [V] Constructing optimization profile number 0 [1/1].",
			trtLog("I", "Local timing cache in use. Profiling results in this builder pass will not be stored."),
		}},
	}},
}

// engineSweepStub is Triton's python stub quoting a model's import error.
var engineSweepStub = []engineComponent{
	{name: "python backend: model initialisation", families: []raiseFamily{
		{family: "model.py imports a package the image lacks", want: "python-module-not-found", bare: true, lines: []string{
			tritonLog('E', "pb_stub.cc:402", "Failed to initialize Python stub: ModuleNotFoundError: No module named 'transformers'"),
			"Failed to initialize Python stub for auto-complete: ModuleNotFoundError: No module named 'torch'",
		}},
	}},
}

func init() {
	engineSweepAll = append(engineSweepAll,
		engineWordings{engine: "trtllm", components: engineSweepBuilder},
		engineWordings{engine: "triton", components: engineSweepBuilder},
		engineWordings{engine: "triton", components: engineSweepStub})
	addExamples(nil, map[string]example{
		"python-module-not-found": {
			match: []string{"Failed to initialize Python stub: ModuleNotFoundError: No module named 'transformers'"},
			miss:  []string{"Failed to initialize Python stub: AttributeError: module 'numpy' has no attribute 'object'"},
		},
	})
}

// engineSweepRouter is sglang's Rust router waiting for its workers: the
// timeout for the initial workers, for a worker it adds and for the PD
// router's hosts; the pending lines of each poll are routine.
var engineSweepRouter = []engineComponent{
	{name: "router: worker start-up wait", families: []raiseFamily{
		{family: "workers that never became healthy", want: "router-workers-startup-timeout", bare: true, lines: []string{
			gatewayLog("ERROR", "sglang_router_rs::router", "Timeout 600s waiting for workers [\"http://127.0.0.1:31000\"] to become healthy. Please set --router-worker-startup-timeout-secs (sglang_router.launch_server) or --worker-startup-timeout-secs (sglang_worker.router) to a larger value"),
			gatewayLog("ERROR", "sglang_router_rs::router", "Timeout 300s waiting for worker http://10.0.0.7:30000 to become healthy. Please set --router-worker-startup-timeout-secs (sglang_router.launch_server) or --worker-startup-timeout-secs (sglang_worker.router) to a larger value"),
			"Error: Timeout 1800s waiting for hosts [\"10.0.0.7:30000\", \"10.0.0.8:30000\"] to become healthy.",
		}},
		{family: "near misses: the wait's polls", bare: true, lines: []string{
			gatewayLog(" INFO", "sglang_router_rs::router", "Worker http://127.0.0.1:31000 health check is pending with error: error sending request for url (http://127.0.0.1:31000/health)"),
			gatewayLog(" INFO", "sglang_router_rs::router", "Worker http://127.0.0.1:31000 health check is pending with status: 503 Service Unavailable."),
			gatewayLog(" INFO", "sglang_router_rs::router", "All workers are healthy"),
		}},
	}},
}

func init() {
	engineSweepAll = append(engineSweepAll, engineWordings{engine: "sglang", components: engineSweepRouter})
	addExamples(nil, map[string]example{
		"router-workers-startup-timeout": {
			match: []string{"Timeout 300s waiting for worker http://10.0.0.7:30000 to become healthy."},
			miss:  []string{"Worker http://127.0.0.1:31000 health check is pending with error: error sending request for url (http://127.0.0.1:31000/health)"},
		},
	})
}

// engineSweepVLLMCore lists vLLM's engine start-up and worker wordings the
// first sweeps did not read: the attention backend named as its enum
// prints, the API servers' start-up timeout with several servers, and V0's
// multiprocessing worker that died.
var engineSweepVLLMCore = []engineComponent{
	{name: "engine core: start-up", shapes: vllmCoreShapes, families: []raiseFamily{
		{family: "an attention backend this configuration rules out", want: "vllm-attention-backend-unsupported", lines: []string{
			"ValueError: Selected backend AttentionBackendEnum.TRITON_ATTN is not valid for this configuration. Reason: ['kv_cache_dtype not supported']",
			"ValueError: Selected backend AttentionBackendEnum.CUTLASS_MLA is not valid for this configuration. Reason: ['kv_cache_dtype not supported', 'sparse not supported']",
		}},
	}},
	{name: "API server: start-up", families: []raiseFamily{
		{family: "engines that never reported ready", want: "vllm-engine-startup-timeout", bare: true, lines: []string{
			"(ApiServer_0 pid=10466)     raise TimeoutError(\n(ApiServer_0 pid=10466) TimeoutError: Timed out waiting for engines to send initial message on input socket.",
			"TimeoutError: Timed out waiting for engines to send initial message on input socket.",
		}},
	}},
	{name: "V0 multiprocessing workers", families: []raiseFamily{
		{family: "a worker that died after the engine's error", want: "vllm-engine-core-died-unexpectedly", bare: true, lines: []string{
			"ERROR 04-22 07:10:30 [multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 76116 died, exit code: -15\nINFO 04-22 07:10:30 [multiproc_worker_utils.py:124] Killing local vLLM worker processes",
			"ERROR 11-01 04:59:16 multiproc_worker_utils.py:117] Worker VllmWorkerProcess pid 24169 died, exit code: 1",
		}},
		{family: "near misses: worker notices", bare: true, lines: []string{
			"INFO 04-22 07:10:30 [multiproc_worker_utils.py:124] Killing local vLLM worker processes",
			"(VllmWorkerProcess pid=76118) INFO 04-22 07:09:58 [multiproc_worker_utils.py:226] Worker ready; awaiting tasks",
		}},
	}},
}

func init() {
	engineSweepAll = append(engineSweepAll, engineWordings{engine: "vllm", components: engineSweepVLLMCore})
}

// engineSweepTRTLLMCache is TensorRT-LLM's batch manager refusing a KV
// cache too small for one sequence of the engine's length, as the
// executor and Triton's tensorrtllm backend log it.
var engineSweepTRTLLMCache = []engineComponent{
	{name: "batch manager: KV cache sizing", families: []raiseFamily{
		{family: "a cache smaller than one sequence", want: "trtllm-kv-cache-too-small-for-one-sequence", bare: true, lines: []string{
			"[TensorRT-LLM][INFO] Using 693 tokens in paged KV cache.\n" +
				tritonLog('E', "backend_model.cc:634", "ERROR: Failed to create instance: unexpected error when creating modelInstanceState: maxTokensInPagedKvCache must be large enough to process at least 1 sequence to completion (i.e. must be larger than beam_width * tokensPerBlock * maxBlocksPerSeq)") + "\n" +
				tritonLog('E', "model_lifecycle.cc:621", "failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: maxTokensInPagedKvCache must be large enough to process at least 1 sequence to completion (i.e. must be larger than beam_width * tokensPerBlock * maxBlocksPerSeq)"),
			"[TensorRT-LLM][ERROR] maxTokensInPagedKvCache (29184) must be large enough to process at least 1 sequence to completion (i.e. must be larger than beam_width (1) * tokensPerBlock (128) * maxBlocksPerSeq (272))",
		}},
		{family: "near misses: cache sizing notices", bare: true, lines: []string{
			"[TensorRT-LLM][INFO] Allocate 956301312 bytes for k/v cache. ",
			"[TensorRT-LLM][INFO] Using 29184 total tokens in paged KV cache, and 272 blocks per sequence",
			"[TensorRT-LLM][INFO] [MemUsageChange] Allocated 78.30 GiB for max tokens in paged KV cache (3731744).",
		}},
	}},
}

func init() {
	engineSweepAll = append(engineSweepAll,
		engineWordings{engine: "trtllm", components: engineSweepTRTLLMCache},
		engineWordings{engine: "triton", components: engineSweepTRTLLMCache})
}

// engineSweepTRTLLMEngineFile is TensorRT-LLM's runtime failing to open a
// rank's engine file, as the C++ runtime and Triton's tensorrtllm backend
// log it.
var engineSweepTRTLLMEngineFile = []engineComponent{
	{name: "runtime: engine files", families: []raiseFamily{
		{family: "a rank's engine file that cannot be opened", want: "trtllm-engine-file-not-found", bare: true, lines: []string{
			"[TensorRT-LLM][ERROR] [TensorRT-LLM][ERROR] Assertion failed: Error opening engine file: ../../examples/gpt/gpt_175b/gpt_175b_float16_tp8_rank6.engine (/code/tensorrt_llm/cpp/tensorrt_llm/runtime/utils/sessionUtils.cpp:42)\n1       0x55af5ac89de2 tensorrt_llm::common::throwRuntimeError(char const*, int, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) + 100",
			tritonLog('E', "backend_model.cc:691", "ERROR: Failed to create instance: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: Error opening engine file: /engines/llama-8b/rank0.engine (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/utils/sessionUtils.cpp:42)"),
		}},
		{family: "near misses: engine loading notices", bare: true, lines: []string{
			"[TensorRT-LLM][INFO] Engine version 0.10.0.dev2024043000 found in the config file, assuming engine(s) built by new builder API.",
			"[TensorRT-LLM][INFO] Loaded engine size: 3404 MiB",
		}},
	}},
}

func init() {
	engineSweepAll = append(engineSweepAll,
		engineWordings{engine: "trtllm", components: engineSweepTRTLLMEngineFile},
		engineWordings{engine: "triton", components: engineSweepTRTLLMEngineFile})
}
