package catalog_test

import (
	"testing"
)

// thirdPartyExamples holds the records of the libraries under and around a
// serving engine that serving fleets meet outside the engine's own code:
// torch (elastic launcher, dynamo and inductor, operator checks, CUDA
// runtime classes, c10d), Triton's launcher build, the NVIDIA driver and
// container runtime, the Linux OOM killer, shared memory, safetensors,
// transformers, peft, and the HTTP, gRPC, multiprocessing and ZeroMQ layers
// of an OpenAI-compatible server. Each match is composed from the library's
// own wording with its variable parts filled; each miss is a routine line
// or a sibling record's wording.
var thirdPartyExamples = map[string]example{
	// Frameworks and platforms that run sglang: their imports of sglang's
	// helpers, their ServerArgs, GPUStack's architecture lookup.
	"sglang-internal-import-mismatch": {
		match: []string{
			rawTB("ImportError: cannot import name 'launch_server_cmd' from 'sglang.utils' (/usr/local/lib/python3.10/dist-packages/sglang/utils.py)"),
			"ImportError: cannot import name 'is_multimodal_model' from 'sglang.srt.utils' (/opt/venv/lib/python3.11/site-packages/sglang/srt/utils.py)",
			"ImportError: cannot import name 'Engine' from 'sglang.srt.entrypoints.engine'",
		},
		miss: []string{
			"ImportError: cannot import name 'ServerArgs' from 'sglang' (unknown location)",
			"ImportError: cannot import name 'build_regex_from_object' from 'outlines.fsm.json_schema'",
			"from sglang.utils import launch_server_cmd, terminate_process, wait_for_server",
		},
	},
	"sglang-server-args-version-mismatch": {
		match: []string{
			"AttributeError: 'ServerArgs' object has no attribute 'encoder_only'",
			rawTB("TypeError: ServerArgs.__init__() got an unexpected keyword argument 'enable_memory_saver'"),
			"TypeError: sglang.srt.server_args.ServerArgs() got multiple values for keyword argument 'log_level'",
		},
		miss: []string{
			"[2026-05-28 00:11:09] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', log_level='info')",
			"TypeError: LoraConfig.__init__() got an unexpected keyword argument 'use_dora'",
			"AttributeError: 'Namespace' object has no attribute 'post_self_attn_layernorm'",
		},
	},
	"gpustack-model-architecture-not-derived": {
		match: []string{
			"2025-12-11 14:43:48.754323+08:00 - gpustack.worker.backends.base - ERROR - Failed to derive model architecture: 'Qwen3Config' object is not subscriptable",
			"2026-03-02 09:10:11.000000+08:00 - gpustack.worker.backends.base - WARNING - Failed to derive model architecture: Unrecognized model in /models/x, continuing with empty list",
		},
		miss: []string{
			"2025-12-11 14:43:48.754036+08:00 - gpustack.utils.hub - DEBUG - Derived max model length: 40960",
			"2025-12-11 14:43:48.754763+08:00 - gpustack.worker.backends.sglang - INFO - Creating SGLang container workload: qwen3-0.6b-yE06A",
		},
	},
	"torch-elastic-signal-exception": {
		match: []string{
			"torch.distributed.elastic.multiprocessing.api.SignalException: Process 41872 got signal: 15",
			rawTB("torch.distributed.elastic.multiprocessing.api.SignalException: Process 17 got signal: 1"),
		},
		miss: []string{
			"W1206 12:00:00.123000 1234 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 1235 closing signal SIGTERM",
			"Received signal 15, shutting down gracefully",
		},
	},
	"torch-elastic-rendezvous-failed": {
		match: []string{
			"torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
			rawTB("torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details."),
			"torch.distributed.elastic.rendezvous.api.RendezvousClosedError",
		},
		miss: []string{"INFO:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'host_1_0' has joined round 0 of the rendezvous 'none' as rank 0 in a world of size 2."},
	},
	"torch-dynamo-recompile-limit": {
		match: []string{
			"W1206 12:00:00.123000 1234 torch/_dynamo/convert_frame.py:964] [0/8] torch._dynamo hit config.cache_size_limit (8)",
			"W1206 12:00:00.123000 1234 torch/_dynamo/convert_frame.py:1016] [2/8] torch._dynamo hit config.recompile_limit (8)",
			"torch._dynamo.exc.FailOnRecompileLimitHit: recompile_limit reached with one_graph=True",
			"torch._dynamo hit config.accumulated_recompile_limit (256)",
		},
		miss: []string{
			"W1206 12:00:00.123000 1234 torch/_dynamo/convert_frame.py:964] [0/8]    function: 'forward' (/model.py:120)",
			"torch._dynamo.config.recompile_limit = 64",
		},
	},
	"torch-dynamo-unsupported": {
		match: []string{
			tb("torch._dynamo.exc.Unsupported: call_function BuiltinVariable(setattr) [GetAttrVariable] {}"),
			"torch._dynamo.exc.Unsupported: Attempted to call function marked as skipped",
		},
		miss: []string{"torch._dynamo.exc.UserError: Dynamic control flow is not supported at the moment."},
	},
	"torch-inductor-lowering-failed": {
		match: []string{
			tb("torch._inductor.exc.InductorError: LoweringException: AssertionError: \n  target: aten.view.dtype"),
			"torch._inductor.exc.LoweringException: NotImplementedError: fp8 input not supported",
		},
		miss: []string{"torch._inductor.exc.InductorError: CppCompileError: C++ compile error"},
	},
	"torch-dtype-mismatch": {
		match: []string{
			tb("RuntimeError: expected scalar type Half but found BFloat16"),
			"RuntimeError: expected mat1 and mat2 to have the same dtype, but got: float != c10::BFloat16",
			"RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same",
			"RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::Half != float",
		},
		miss: []string{"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"},
	},
	"torch-tensor-shape-mismatch": {
		match: []string{
			tb("RuntimeError: mat1 and mat2 shapes cannot be multiplied (16x4096 and 2048x4096)"),
			"RuntimeError: The size of tensor a (128) must match the size of tensor b (64) at non-singleton dimension 3",
			"RuntimeError: shape '[-1, 32, 128]' is invalid for input of size 2048",
			"RuntimeError: Sizes of tensors must match except in dimension 0. Expected size 4096 but got size 2048 for tensor number 1 in the list.",
		},
		miss: []string{"ValueError: The size of tensor a does not match"},
	},
	"cuda-initialization-error": {
		match: []string{
			tb("RuntimeError: CUDA error: initialization error\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect."),
			"Exception raised from c10_cuda_check_implementation: cudaErrorInitializationError",
			"node-1:312:401 [0] NCCL WARN Cuda failure 'initialization error'",
		},
		miss: []string{"RuntimeError: CUDA error: invalid argument"},
	},
	"cuda-invalid-resource-handle": {
		match: []string{
			tb("RuntimeError: CUDA error: invalid resource handle\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."),
			"cuEventRecord failed: CUDA_ERROR_INVALID_HANDLE",
		},
		miss: []string{"RuntimeError: CUDA error: invalid device ordinal"},
	},
	"cuda-invalid-configuration": {
		match: []string{
			tb("RuntimeError: CUDA error: invalid configuration argument"),
			"kernel launch failed: cudaErrorInvalidConfiguration",
		},
		miss: []string{"RuntimeError: CUDA error: too many resources requested for launch"},
	},
	"cuda-get-device-count-failed": {
		match: []string{
			"/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:128: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 999: unknown error (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)",
			"UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 3: initialization error",
		},
		miss: []string{
			"UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW",
			"UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized",
		},
	},
	"c10d-nccl-no-gpus": {
		match: []string{
			tb("RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!"),
			"ValueError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!",
		},
		miss: []string{"RuntimeError: No CUDA GPUs are available"},
	},
	"c10d-default-group-not-initialized": {
		match: []string{
			tb("ValueError: Default process group has not been initialized, please make sure to call init_process_group."),
			"RuntimeError: Default process group has not been initialized, please make sure to call init_process_group.",
		},
		miss: []string{"Default process group initialized with backend nccl"},
	},
	"c10d-process-group-not-destroyed": {
		match: []string{
			"[rank0]:[W1206 12:00:00.000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure that any pending NCCL operations have finished in this process. (function operator())",
			"[W1206 12:00:00.000000 ProcessGroupGloo.cpp:400] Warning: process group has NOT been destroyed before we destruct ProcessGroupGloo",
		},
		miss: []string{"process group has been destroyed"},
	},
	"cudnn-no-engine-found": {
		match: []string{
			tb("RuntimeError: GET was unable to find an engine to execute this computation"),
			"RuntimeError: FIND was unable to find an engine to execute this computation",
			"RuntimeError: Unable to find a valid cuDNN algorithm to run convolution",
		},
		miss: []string{"RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED"},
	},
	"torch-expandable-segments-unsupported": {
		match: []string{
			"/usr/local/lib/python3.12/dist-packages/torch/cuda/memory.py:391: UserWarning: expandable_segments not supported on this platform (Triggered internally at /pytorch/c10/hip/HIPAllocatorConfig.h:29.)",
			"[W1206 12:00:00.000000 CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this platform (function operator())",
		},
		miss: []string{"RuntimeError: TorchMemorySaver is disabled for the current process because expandable_segments is not supported yet."},
	},
	"triton-c-compiler-not-found": {
		match: []string{
			tb("RuntimeError: Failed to find C compiler. Please specify via CC environment variable."),
			"RuntimeError: Failed to find C compiler. Please specify via CC environment variable or set triton.knobs.build.impl.",
		},
		miss: []string{"subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpabc/main.c', '-O3']' returned non-zero exit status 1."},
	},
	"triton-libcuda-not-found": {
		match: []string{
			tb("RuntimeError: libcuda.so cannot found!"),
			"AssertionError: libcuda.so cannot found!",
		},
		miss: []string{"ImportError: libcuda.so.1: cannot open shared object file: No such file or directory"},
	},
	"nvml-unknown-error": {
		match: []string{
			"Failed to initialize NVML: Unknown Error",
			"pynvml.NVMLError_Unknown: Unknown Error\nFailed to initialize NVML: Unknown Error",
		},
		miss: []string{"Failed to initialize NVML: Driver/library version mismatch"},
	},
	"nvidia-container-cli-failed": {
		match: []string{
			"nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.",
			"docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.",
			"nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown.",
		},
		miss: []string{"nvidia-container-cli: info: version 1.17.0"},
	},
	"docker-gpu-device-driver-missing": {
		match: []string{
			`docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].`,
			`Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]`,
		},
		miss: []string{`could not select device driver "" with capabilities: [[compute]]`},
	},
	"linux-oom-killer": {
		match: []string{
			"[12345.678901] Out of memory: Killed process 4321 (python3) total-vm:123456789kB, anon-rss:98765432kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:123456kB oom_score_adj:0",
			"[Sat Dec  5 10:11:12 2026] Memory cgroup out of memory: Killed process 4321 (python3) total-vm:123456789kB, anon-rss:98765432kB",
			"[12345.678800] python3 invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0",
			"[12345.678850] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=abc,mems_allowed=0-1,oom_memcg=/kubepods/pod1,task_memcg=/kubepods/pod1/c1,task=python3,pid=4321,uid=0",
			// cgroup v1's memcg report names the cgroup whose limit was
			// hit (aws/amazon-ecs-agent#4508, thewca/worldcubeassociation.org#1690,
			// kvcache-ai/ktransformers#637).
			"[Wed Feb 19 06:41:03 2025] Task in /ecs/f209da7f990b45b585488946f0eec404/15e20c7f5997947ffa3adb2b2bff199eea61004e29501677c53751b2c549bb15 killed as a result of limit of /ecs/f209da7f990b45b585488946f0eec404/15e20c7f5997947ffa3adb2b2bff199eea61004e29501677c53751b2c549bb15",
			"[ 8490.770784] Task in /docker/74bea4773fde644e8d41e00dbe72e90b9caa1ad429cbd0248faf3f868997dd77 killed as a result of limit of /docker/74bea4773fde644e8d41e00dbe72e90b9caa1ad429cbd0248faf3f868997dd77",
			"[四 3月 20 21:01:25 2025] Task in /docker/6b4502403e158b560d76f212e9d1ebf6d498a7725fd9198d50b26038c1957f9c killed as a result of limit of host",
		},
		miss: []string{
			"[12345.678900] oom_reaper: reaped process 4321 (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB",
			"[Wed Feb 19 06:41:03 2025] memory: usage 1048576kB, limit 1048576kB, failcnt 34667727",
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
		},
	},
	"shared-memory-bus-error": {
		match: []string{
			"ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
			tb("RuntimeError: DataLoader worker (pid 1234) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit."),
			"Bus error (core dumped)",
			"/start.sh: line 12:   812 Bus error               (core dumped) python3 -m server --model /models/m",
		},
		miss: []string{
			"Segmentation fault (core dumped)",
			"[1752044541.372091] [gpu-3:4012 :0] debug.c:1297 UCX  ERROR Caught signal 7 (Bus error: nonexistent physical address)",
		},
	},
	"safetensors-header-invalid": {
		match: []string{
			tb("safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"),
			"safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
			"safetensors_rust.SafetensorError: Error while deserializing header: incomplete metadata, file not fully covered",
			"SafetensorError: Error while deserializing header: header too large",
		},
		miss: []string{"safetensors_rust.SafetensorError: File does not contain tensor model.layers.0.mlp.gate_proj.weight"},
	},
	"hf-config-file-missing": {
		match: []string{
			tb("OSError: /models/foo does not appear to have a file named config.json. Checkout 'https://huggingface.co//models/foo/tree/None' for available files."),
			"OSError: Qwen/Qwen2.5-7B-Instruct-GGUF does not appear to have a file named config.json. Checkout 'https://huggingface.co/Qwen/Qwen2.5-7B-Instruct-GGUF/tree/main' for available files.",
			"OSError: /data/llama does not appear to have a file named tokenizer.model",
		},
		miss: []string{"OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files."},
	},
	"transformers-routine-notice": {
		match: []string{
			"Special tokens have been added in the vocabulary, make sure the associated word embeddings are fine-tuned or trained.",
			"You are using a model of type qwen2 to instantiate a model of type llama. This is not supported for all configurations of models and can yield errors.",
			"huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...",
			"None of PyTorch, TensorFlow >= 2.0, or Flax have been found. Models won't be available and only tokenizers, configuration and file/data utilities can be used.",
		},
		miss: []string{"ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not recognize this architecture."},
	},
	"peft-adapter-config-incompatible": {
		match: []string{
			tb("TypeError: LoraConfig.__init__() got an unexpected keyword argument 'layer_replication'"),
			"TypeError: LoraConfig.__init__() got an unexpected keyword argument 'use_dora'",
			"ValueError: Target modules {'q_proj', 'v_proj'} not found in the base model. Please check the target modules and try again.",
		},
		miss: []string{"TypeError: Scheduler.flush_cache() got an unexpected keyword argument 'timeout'"},
	},
	"h11-local-protocol-error": {
		match: []string{
			tb("h11._util.LocalProtocolError: Too much data for declared Content-Length"),
			"h11._util.LocalProtocolError: Can't send data when our state is ERROR",
			"h11._util.LocalProtocolError: Too little data for declared Content-Length",
		},
		miss: []string{"h11._util.RemoteProtocolError: illegal request line"},
	},
	"uvicorn-invalid-http-request": {
		match: []string{
			"WARNING:  Invalid HTTP request received.",
			"[2026-05-28 00:11:09] WARNING:  Invalid HTTP request received.",
		},
		miss: []string{"INFO:     127.0.0.1:53210 - \"GET /health HTTP/1.1\" 200 OK"},
	},
	"http-upstream-disconnected": {
		match: []string{
			"aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed: <TransferEncodingError: 400, message='Not enough data for satisfy transfer length header.'>",
			"aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected",
			"httpx.RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked read)",
			"httpcore.RemoteProtocolError: Server disconnected without sending a response.",
		},
		miss: []string{"aiohttp.client_exceptions.ClientResponseError: 400, message='Bad Request'"},
	},
	"http-upstream-connect-failed": {
		match: []string{
			"aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:30000 ssl:default [Connect call failed ('127.0.0.1', 30000)]",
			"httpx.ConnectError: [Errno 111] Connection refused",
			"httpcore.ConnectError: [Errno -2] Name or service not known",
		},
		miss: []string{"httpx.HTTPStatusError: Client error '404 Not Found' for url 'http://127.0.0.1:30000/v1/models'"},
	},
	"http-client-read-timeout": {
		match: []string{
			rawTB("httpx.ReadTimeout"),
			"httpcore.ReadTimeout: timed out",
			"aiohttp.client_exceptions.SocketTimeoutError: Timeout on reading data from socket",
		},
		miss: []string{"ReadTimeout set to 600 seconds"},
	},
	"grpc-unavailable": {
		match: []string{
			"grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = \"failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:30001: Failed to connect to remote host: Connection refused\"",
			"\tstatus = StatusCode.UNAVAILABLE",
			`Error: status: Unavailable, message: "error trying to connect: tcp connect error: Connection refused (os error 111)"`,
		},
		miss: []string{"\tstatus = StatusCode.CANCELLED"},
	},
	"grpc-deadline-exceeded": {
		match: []string{
			"grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = \"Deadline Exceeded\"",
			`Error: status: DeadlineExceeded, message: "Timeout expired"`,
		},
		miss: []string{"\tstatus = StatusCode.UNAVAILABLE"},
	},
	"multiprocessing-leaked-resources-at-shutdown": {
		match: []string{
			"/usr/lib/python3.10/multiprocessing/resource_tracker.py:224: UserWarning: resource_tracker: There appear to be 1 leaked shared_memory objects to clean up at shutdown",
			"/usr/lib/python3.12/multiprocessing/resource_tracker.py:254: UserWarning: resource_tracker: There appear to be 3 leaked semaphore objects to clean up at shutdown",
		},
		miss: []string{"/usr/lib/python3.10/multiprocessing/resource_tracker.py:237: UserWarning: resource_tracker: '/psm_abc': [Errno 2] No such file or directory: '/psm_abc'"},
	},
	"ipc-peer-process-gone": {
		match: []string{
			tb("BrokenPipeError: [Errno 32] Broken pipe"),
			"ConnectionResetError: [Errno 104] Connection reset by peer",
		},
		miss: []string{"ConnectionRefusedError: [Errno 111] Connection refused"},
	},
	"zmq-resource-temporarily-unavailable": {
		match: []string{
			tb("zmq.error.Again: Resource temporarily unavailable"),
			"zmq.error.Again: Resource temporarily unavailable",
		},
		miss: []string{"zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:5757')"},
	},
	"nvidia-driver-not-loaded": {
		match: []string{
			"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
			"[188497.595099] NVRM: No NVIDIA graphics adapter probed!",
			"[188549.976351] NVRM: The NVIDIA probe routine was not called for 3 device(s).",
		},
		miss: []string{"NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4"},
	},
	"nvidia-gpu-init-failed": {
		match: []string{
			"[   12.345678] NVRM: GPU 0000:3b:00.0: RmInitAdapter failed! (0x62:0x40:2414)",
			"NVRM: RmInitAdapter failed! (0x26:0x65:1457)",
		},
		miss: []string{"[   12.345678] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.90.07"},
	},
	"k8s-gpu-unschedulable": {
		match: []string{
			"  Warning  FailedScheduling  12s   default-scheduler  0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.",
			"0/6 nodes are available: 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 4 Insufficient nvidia.com/gpu.",
		},
		miss: []string{"0/4 nodes are available: 4 Insufficient memory."},
	},
	"transformers-too-old-for-model": {
		match: []string{
			tb("ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'factor': 8.0, 'low_freq_factor': 1.0, 'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192, 'rope_type': 'llama3'}"),
			// transformers 4.40-4.42 print "with" twice.
			"ValueError: `rope_scaling` must be a dictionary with with two fields, `type` and `factor`, got {'factor': 8.0, 'high_freq_factor': 4.0, 'low_freq_factor': 1.0, 'original_max_position_embeddings': 8192, 'rope_type': 'llama3'}",
			"ValueError: Tokenizer class Qwen2Tokenizer does not exist or is not currently imported.",
		},
		miss: []string{
			"ImportError: cannot import name 'launch_server_cmd' from 'sglang.utils'",
			// sglang's model registry skips a model its transformers lacks and carries on.
			"[2025-04-15 12:43:15 TP0] Ignore import error when loading sglang.srt.models.mllama4. cannot import name 'Llama4Config' from 'transformers'",
		},
	},
	"tokenizer-backend-missing": {
		match: []string{
			tb("ImportError: LlamaTokenizer requires the SentencePiece library but it was not found in your environment. Checkout the instructions on the installation page of its repo."),
			"ImportError: LlamaConverter requires the protobuf library but it was not found in your environment.",
		},
		miss: []string{"ModuleNotFoundError: No module named 'sentencepiece'"},
	},
	"hf-invalid-repo-id": {
		match: []string{
			tb("huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/models/Qwen/Qwen2.5-7B-Instruct'. Use `repo_type` argument if needed."),
			"huggingface_hub.utils._validators.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.', '--' and '..' are forbidden, '-' and '.' cannot start or end the name, max length is 96: '/data/models/llama '.",
			"OSError: Incorrect path_or_model_id: '/mnt/models/llama'. Please provide either the path to a local folder or the repo_id of a model on the Hub.",
		},
		miss: []string{"huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error."},
	},
	"torch-weights-only-load-failed": {
		match: []string{
			tb("_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint."),
			"pickle.UnpicklingError: Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will likely succeed",
		},
		miss: []string{"_pickle.UnpicklingError: invalid load key, '<'."},
	},
	"network-address-not-available": {
		match: []string{
			tb("OSError: [Errno 99] Cannot assign requested address"),
			"[W socket.cpp:464] [c10d] The server socket has failed to bind to 10.0.0.5:29500 (errno: 99 - Cannot assign requested address).",
			"Error: Cannot assign requested address (os error 99)",
		},
		miss: []string{
			"OSError: [Errno 98] Address already in use",
			// On connect it is the client's ports running out, read by the client's record.
			`urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 99] Cannot assign requested address`,
		},
	},
	"dns-resolution-failed": {
		match: []string{
			"socket.gaierror: [Errno -2] Name or service not known",
			tb("socket.gaierror: [Errno -3] Temporary failure in name resolution"),
			"Error: failed to lookup address information: Name or service not known",
		},
		miss: []string{"socket.timeout: timed out"},
	},
	"cuda-operation-not-permitted": {
		match: []string{
			tb("RuntimeError: CUDA error: operation not permitted\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."),
			"cudaIpcOpenMemHandle failed: cudaErrorNotPermitted",
		},
		miss: []string{
			"RuntimeError: CUDA error: operation not permitted when stream is capturing",
			"RuntimeError: CUDA error: operation not permitted on an event last recorded in a capturing stream",
		},
	},
	"k8s-rbac-forbidden": {
		match: []string{
			`Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"`,
			`create rbg failed.: create rbg error: rolebasedgroups.workloads.x-k8s.io is forbidden: User "system:serviceaccount:rbgs-system:rbgs-rbgs-controller-sa" cannot create resource "rolebasedgroups" in API group "workloads.x-k8s.io" in the namespace "default"`,
			// client-go's error inside a JSON log line, quotes escaped.
			`{"level":"error","msg":"failed to list worker pods","error":"pods is forbidden: User \"system:serviceaccount:sglang:router\" cannot list resource \"pods\" in API group \"\" at the cluster scope"}`,
			// Releases before 1.14 name the resource without the word.
			`Error from server (Forbidden): pods is forbidden: User "jane" cannot list pods in the namespace "default"`,
		},
		miss: []string{
			`Error from server (Forbidden): namespaces "default" is forbidden: unable to create new content in namespace default because it is being terminated`,
			`Error from server (Forbidden): pods "sglang-0" is forbidden: exceeded quota: gpu-quota, requested: nvidia.com/gpu=8, used: nvidia.com/gpu=8, limited: nvidia.com/gpu=8`,
			`Error from server (NotFound): pods "sglang-0" not found`,
		},
	},
	"k8s-probe-failed": {
		match: []string{
			`  Warning  Unhealthy  3m (x9 over 7m)  kubelet  Liveness probe failed: Get "http://10.1.2.3:30000/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
			`  Warning  Unhealthy  12s  kubelet  Startup probe failed: Get "http://10.1.2.3:30000/health": dial tcp 10.1.2.3:30000: connect: connection refused`,
		},
		miss: []string{`  Warning  Unhealthy  12s  kubelet  Readiness probe failed: HTTP probe failed with statuscode: 503`},
	},
	"torch-op-not-built-for-backend": {
		match: []string{
			tb("NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend. This could be because the operator doesn't exist for this backend, or was omitted during the selective/custom build process (if using custom build)."),
			"RuntimeError: operator torchvision::nms does not exist",
			"NotImplementedError: Could not run 'sgl_kernel::rmsnorm' with arguments from the 'CPU' backend.",
		},
		miss: []string{"NotImplementedError: get_hidden_dim not implemented for Qwen2ForCausalLM"},
	},
	"torch-allocator-nvml-assert": {
		match: []string{
			tb(`RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":1154, please report a bug to PyTorch.`),
			`RuntimeError: NVML_SUCCESS == DriverAPI::get()->nvmlDeviceGetHandleByPciBusId_v2_( pci_id, &nvml_device) INTERNAL ASSERT FAILED at "/pytorch/c10/cuda/CUDACachingAllocator.cpp":1016, please report a bug to PyTorch.`,
		},
		miss: []string{`RuntimeError: captures_underway.empty() INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":2939, please report a bug to PyTorch.`},
	},
	"c10d-collective-mismatch": {
		match: []string{
			tb("RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=23, OpType=ALLREDUCE, TensorShape=[1024], TensorDtypes=Float), but Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=23, OpType=BROADCAST)."),
			"torch.distributed.DistBackendError: Detected mismatch between collectives on ranks. Rank 3 is running collective: CollectiveFingerPrint(SequenceNumber=7, OpType=BARRIER)",
		},
		miss: []string{"node-2:811:902 [5] NCCL WARN NET/IB : req 1/1 tag 7 peer 10.0.0.2<4301> collective mismatch error, local size 4096 remote size 8192"},
	},
	"c10d-nccl-tensor-not-cuda": {
		match: []string{
			tb("ValueError: Tensors must be CUDA and dense"),
			"RuntimeError: Tensors must be CUDA and dense",
		},
		miss: []string{"RuntimeError: Tensors must be contiguous"},
	},
}

// widenedThirdParty adds the wordings existing records now read: requests'
// connection failure once its retries are spent, the
// kernel's side of the driver/library version mismatch, Triton's other
// per-block resources, c10d's bare
// listen failure and older store-based barrier, CUDA's missing symbol,
// invalid device pointer and driver-API invalid argument, a disk quota.
var widenedThirdParty = map[string]example{
	"http-upstream-connect-failed": {
		match: []string{
			"requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=30000): Max retries exceeded with url: /health_generate (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f2b>: Failed to establish a new connection: [Errno 111] Connection refused'))",
		},
		miss: []string{
			"urllib3.exceptions.MaxRetryError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /Qwen/Qwen3-8B/resolve/main/config.json (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f2b>: Failed to establish a new connection: [Errno 101] Network is unreachable'))",
			// A transient retry the client logs before it connects.
			"WARNING:urllib3.connectionpool:Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f2b>: Failed to establish a new connection: [Errno 111] Connection refused')': /health",
		},
	},
	"nvml-driver-library-mismatch": {
		match: []string{"[  812.118231] NVRM: API mismatch: the client has the version 550.127.05, but\n[  812.118232] NVRM: this kernel module has the version 550.90.07.  Please"},
	},
	"c10d-server-socket-address-in-use": {
		match: []string{"[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address."},
		// Each address's own failure is the same failure, whatever the
		// level it is printed at; another errno is not.
		miss: []string{"[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 97 - Address family not supported by protocol)."},
	},
	"c10d-store-wait-for-clients-timeout": {
		match: []string{"RuntimeError: Timed out initializing process group in store based barrier on rank: 7, for key: store_based_barrier_key:32 (world_size=8, worker_count=4, timeout=0:00:30)"},
		miss:  []string{"INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for rank: 0, key: store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)"},
	},
	"cuda-no-kernel-image": {
		match: []string{tb("RuntimeError: CUDA error: named symbol not found")},
	},
	"no-space-left-on-device": {
		match: []string{"OSError: [Errno 122] Disk quota exceeded: '/root/.cache/huggingface/hub/models--x--y/blobs/abc.incomplete'"},
	},
	"cuda-invalid-device-ordinal": {
		match: []string{`torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "../aten/src/ATen/cuda/CUDAContext.cpp":50, please report a bug to PyTorch. device=1, num_gpus=1`},
	},
	"host-cannot-allocate-memory": {
		match: []string{
			"numpy.core._exceptions._ArrayMemoryError: Unable to allocate 12.0 GiB for an array with shape (3221225472,) and data type float32",
			rawTB("MemoryError"),
		},
		miss: []string{"    raise MemoryError", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."},
	},
	"cuda-allocator-capture-assert": {
		miss: []string{`RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":1154, please report a bug to PyTorch.`},
	},
	"h11-local-protocol-error": {
		match: []string{"RuntimeError: Response content longer than Content-Length"},
	},
	"c10d-tcpstore-recv-failed": {
		match: []string{"torch.distributed.DistNetworkError: Connection reset by peer"},
	},
	"triton-out-of-resources": {
		match: []string{"triton.runtime.errors.OutOfResources: out of resource: threads, Required: 2048, Hardware limit: 1024. Reducing block sizes or `num_stages` may help."},
	},
}

func init() { addExamples(thirdPartyExamples, widenedThirdParty) }

// TestThirdPartyRoutineLinesDoNotAlert feeds routine lines of the libraries
// around a server through the entry assembler and the analysis with the
// whole catalog: none pages, whatever level it is printed at.
func TestThirdPartyRoutineLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), []string{
		"[rank3]:[W1206 12:00:00.000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure that any pending NCCL operations have finished in this process. In rare cases this process can exit before this point and block the progress of another member of the process group. This constraint has always been present,  but this warning has only recently been added. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())",
		"/usr/lib/python3.10/multiprocessing/resource_tracker.py:224: UserWarning: resource_tracker: There appear to be 1 leaked shared_memory objects to clean up at shutdown",
		"huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...",
		"Special tokens have been added in the vocabulary, make sure the associated word embeddings are fine-tuned or trained.",
		"WARNING:  Invalid HTTP request received.",
		"[W1206 12:00:00.000000 CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this platform (function operator())",
	})
}

// TestThirdPartyRanking checks that where one of these records and an
// older one both read a line, the narrower one leads.
func TestThirdPartyRanking(t *testing.T) {
	checkRanking(t, compileCatalog(t), []rankCase{
		{tb("safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"), "safetensors-header-invalid"},
		{tb("RuntimeError: CUDA error: initialization error"), "cuda-initialization-error"},
		{tb("RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!"), "c10d-nccl-no-gpus"},
		{"UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW", "cuda-driver-mismatch"},
		{"zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:5757')", "address-already-in-use"},
	})
}
