package entry

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// split breaks line at byte i, as a terminal of that width does.
func split(line string, i int) string { return line[:i] + "\n" + line[i:] }

// indexTupleLen reads a bracketed tuple of indices and nothing else.
func TestIndexTupleLen(t *testing.T) {
	for s, want := range map[string]int{"[63,0,0] Assertion": 8, "[5]": 3, "[1,2": 0, "[,1]": 0, "[1,]": 0, "[2025-06-13": 0, "[rank0]": 0, "[]": 0} {
		if got := indexTupleLen(s); got != want {
			t.Errorf("indexTupleLen(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestIsWrapBreak(t *testing.T) {
	long := "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details) on rank 3"
	tests := []struct {
		name       string
		prev, next string
		want       bool
	}{
		{"inside a word", long[:80], long[80:], true},
		// A one-line JSON object cut inside its members: an OpenAI-style
		// error body, vLLM's, a JSON log record's fields.
		// A cut before the space after a library's path and its colon:
		// Triton's backend loader, the dynamic linker.
		{"after a library's colon, Triton", "UNAVAILABLE: Not found: unable to load shared library: /opt/tritonserver/backends/tensorrtllm/libtriton_tensorrtllm.so:", " undefined symbol: _ZNK12tensorrt_llm8executor8Response11getErrorMsgB5cxx11Ev", true},
		{"after a library's colon, ld.so", "python3: error while loading shared libraries: /usr/local/lib/python3.10/dist-packages/torch/lib/libcudart.so.12:", " cannot open shared object file: No such file or directory", true},
		// A cut before the space after an exception's type and its
		// colon, behind several writers' headers: a line never ends
		// there (CPython prints an empty message as the type alone).
		{"after an exception's colon, vLLM", "(VllmWorkerProcess pid=92) ERROR 07-29 13:23:24 multiproc_worker_utils.py:226] RuntimeError:", " NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)", true},
		{"after an exception's colon, dotted", "[2025-01-16 10:11:13 TP0] Scheduler hit an exception: vllm.v1.engine.exceptions.EngineDeadError:", " EngineCore encountered an issue. See stack trace (above) for the root cause.", true},
		{"after an exception's colon, a quoted key", "[rank3]: 2025-03-06 05:11:35,638 - sglang - ERROR - the detokenizer failed on request 42: KeyError:", " 'dc49ad867dc144249f'", true},
		{"after an exception's colon, torch", "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB. torch.OutOfMemoryError:", " CUDA out of memory.", true},
		{"a bare Error: is no type", "2025-06-06T19:02:40.751Z ERROR dynamo_run::subprocess: the worker printed the following message and Error:", " see the log above", false},
		{"an exception's colon before an indented block", "[2025-01-16 10:11:13 TP0] the model runner failed to load the checkpoint shards; pydantic ValidationError:", "  field required (type=value_error.missing)", false},
		// A stream's first cut at a terminal's default width, inside a
		// word whose rest ends in a colon (the scheduler's event, CANN's
		// and Triton's errors, a Python message); at another width,
		// before a tool's level or a name with a capital, a line of
		// its own.
		{"inside a word at 80, k8s event", "  Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are a", "vailable: 3 node(s) didn't match node selector, 6 Insufficient nvidia.com/gpu.", true},
		{"inside a word at 100, CANN", "RuntimeError: arange_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:36 NPU function er", "ror: call aclnnArange failed, error code is 561103", true},
		{"inside a word at 120, Python", "[2025-01-16 10:11:13 TP0] ValueError: The model's max seq len (32768) is larger than the maximum number of KV cached tok", "ens: 21456 in the cache. Try increasing the memory fraction.", true},
		{"inside a word at another width", "RuntimeError: arange_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:36 NPU function e", "rror: call aclnnArange failed", false},
		{"a tool's level at 100", "[2025-01-16 10:11:13] building the extension sgl_kernel for the current device and its compute capab", "error: unsupported GPU architecture 'compute_120a'", false},
		{"a tool's name at 80", "[2025-01-16 10:11:13] Compiling the CUDA extension in the build directory of the", "ninja: build stopped: subcommand failed.", false},
		{"asyncio's context key at 80", "2026-05-28 00:11:09,418 - asyncio - ERROR - Future exception was never retrieved", "future: <Future finished exception=BrokenPipeError(32, 'Broken pipe')>", false},
		{"asyncio's task key at 80", "2026-05-28 00:11:09,418 - asyncio - ERROR - Task was destroyed but it is pending", "task: <Task pending name='Task-7' coro=<RequestHandler.watch() running at /app/server.py:88>>", false},
		// Cuts a stream's first line at a terminal's default width
		// leaves: before the space after a colon (ggml's allocation
		// failure, a Go client's error), at a source file's dot (Go's
		// log, glog), inside a dotted host name, just inside a quote
		// before the path it holds.
		{"before the space after a colon at 100, ggml", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: cudaMalloc failed:", " out of memory", true},
		{"before the space after a colon at 80, Go", "Error: pull model manifest: Get \"https://registry.ollama.ai/v2/qwen/\": dial tcp:", " lookup registry.ollama.ai: no such host", true},
		{"before the space after a colon at another width", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: cudaMalloc faile:", " out of memory", false},
		{"at a source file's dot, Go's log", "Dec 24 23:48:35 dolphin-virtual-machine ollama[3974]: 2023/12/24 23:48:35 llama.", "go:459: error starting llama runner: llama runner process has terminated", true},
		{"at a source file's dot, vLLM", "vllm-openai-server-11  | (EngineCore_DP0 pid=312456) ERROR 05-28 00:11:09 [core.", "py:396] EngineCore failed to start.", true},
		{"a sentence's end before a word", "[2025-01-16 10:11:13] The scheduler finished the warmup and is ready to serve requests now.", "go: the next step", false},
		{"inside a dotted host name at 120", "Error: pull model manifest: Get \"https://registry.ollama.ai/v2/library/qwen/manifests/0.5b\": dial tcp: lookup registry.o", "llama.ai: i/o timeout", true},
		{"just inside a quote before a path", "2025-04-28T06:54:25.745Z ERROR dynamo_runtime::worker: Application shutdown with error: Model name '", "/workspace/qwenmodel' cannot start with a slash", true},
		{"a quote then a path of its own", "2025-04-28T06:54:25.745Z ERROR dynamo_runtime::worker: Application shutdown with error: Model name '", "/usr/bin/ld: cannot find -lcuda", false},
		// A full stop at a terminal's width before a number; a C++
		// scope's "::" cut in two (torch_npu's error), not HIP's level
		// column; NCCL's " : " before the event it names.
		{"a full stop at 80 before a number", "torch.distributed.DistStoreError: Timed out after 6 seconds waiting for workers.", " 1/2 workers joined.", true},
		{"a full stop at another width before a number", "torch.distributed.DistStoreError: Timed out after 6 seconds waiting fororkers.", " 1/2 workers joined.", false},
		{"inside a C++ scope", "RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: at_npu::native:", ":AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001", true},
		{"HIP's level column is no scope", ":0:rocdevice.cpp            :2992: 1 us:  Callback: Queue 0x7d aborting with error : HSA_STATUS_ERROR_EXCEPTION:", ":1:rocdevice.cpp            :2993: 2 us:  Callback: Queue 0x7e aborting", false},
		{"before NCCL's ' : '", "> node201:127799:127863 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_0:1 Got async event", " : local access violation work queue error", true},
		// One lower-case word after a letter: a cut at a terminal's
		// default width (NVSHMEM's status line, the scheduler's event);
		// at another width, as likely a short line of its own.
		{"one word at 100, NVSHMEM", "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:418: non-zero status: 22 ibv_modify_qp fa", "iled", true},
		{"one word at 120, k8s event", "  Warning  FailedScheduling  6s (x5 over 3m1s)  default-scheduler  0/2 nodes are available: 2 Insufficient aliyun.com/gp", "u-mem`", true},
		{"one word at another width", "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:418: non-zero status: 22 ibv_modify_q fa", "iled", false},
		{"an indented block a colon announces", "RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM at /models/qwen2/model.safetensors.index.json:", "  Missing key(s) in state_dict: \"lm_head.weight\"", false},
		// A dict's key cut inside it: its quote and colon are no
		// writer's name.
		{"inside a quoted key", "2025-03-06 05:11:35,638 - evalscope - ERROR - Request: {'model': 'sg-r1', 'stream': True, 'stream_options': {'include_u", "sage': True}} failed, state_code: None, data: ", true},
		{"JSON body, inside a key", `{"object":"error","message":"Internal server error: list index out of range","type":"InternalServerError","param":null,"`, `code":500}`, true},
		{"JSON body, inside a value", `{"error":{"message":"The model qwen3-coder does not exist.","type":"NotFoundError","param":"mo`, `del","code":404}}`, true},
		{"JSON log record, after a comma", `{"timestamp":"2026-05-01T10:00:00Z","level":"ERROR","logger":"sglang.srt.managers.scheduler","msg":"x",`, `"pid":7,"rank":3}`, true},
		{"JSON line after prose is no rest", `the client sent {"model":"dummy","messages":[],"stream":false} and the server answered with this response`, `{"object":"error","code":500}`, false},
		// An address cut after its "0x", in glog's line, in a CUDA
		// error's and in a Python message: the rest ends its digits with
		// a colon, no writer's name.
		{"inside an address, glog", "E0115 11:22:06.866998 3663955 rdma_context.cpp:257] Failed to register memory 0x", "7f7186000000: Cannot allocate memory [12]", true},
		{"inside an address, CUDA", "[TP3] CUDA error: an illegal memory access was encountered at address 0x7f", "3a00000000: in kernel fused_moe_kernel, block [12,0,0]", true},
		// An address cut between its "0" and its "x" (glog's, a Python
		// message's); a lone "0" before a word is no address.
		{"between an address's 0 and x, glog", "W1212 12:06:27.218729   205 rdma_transport.cpp:166] RdmaTransport: Failed to register memory: addr 0", "x7fd3e6368000 length 294912", true},
		{"between an address's 0 and x, a message", "RuntimeError: the allocator returned a block that is not aligned, the block starts at 0", "x7f91c4000000 in pool 3", true},
		{"a count of 0 before a word", "[2025-01-16 10:11:13 TP0] Prefill batch. #new-seq: 1, #new-token: 0, #cached-token: 0, token usage: 0", "x2 speedup over the last run reported", false},
		// An IPv6 address cut after a colon (NCCL's socket line, a
		// connection error); a time's colon is no address's.
		{"inside an IPv6 address, NCCL", "n122-246-085:12251:12400 [5] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to fe80::966d:", "ae03:a2:8cf0%ib1<17943> failed : Software caused connection abort", true},
		{"inside an IPv6 address, a message", "ConnectionError: the prefill server refused the bootstrap connection from [2001:db8:85a3::", "8a2e:370:7334]:8998 after 3 retries", true},
		{"a clock is no IPv6 address", "[2025-01-16 10:11:13 TP0] the scheduler woke up again after a long pause, at 10:11:", "ab: the next batch", false},
		// A key's value that opens with a bracket or a quote: no line ends
		// in a key and its "=".
		{"a key's bracketed value", "[rank0]:[W710 16:58:50.906560343 socket.cpp:489] [c10d] waitForInput: socket SocketImpl(fd=58, addr=", "[localhost]:42412, remote=[localhost]:51216) timed out after 300000ms", true},
		{"a key's quoted value", "ValueError: Unsupported value for the launch flag that picks the attention backend, backend=", "'flashmla' is not available on this device", true},
		{"a separator's = is no key's", "=======================================================================================", "[2025-01-16 10:11:13 TP0] Load weight end.", false},
		// A path cut after a hyphen, its rest ending in the colon a
		// loader puts after the library.
		{"a library's name cut after a hyphen", "[rank0]: ImportError: /usr/local/lib/python3.10/dist-packages/transformer_engine_extensions.cpython-", "310-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops5zeros4callE", true},
		// A cut before the space ahead of an absolute path the message
		// names; a line a space indents that names a word is no rest.
		{"before a spaced path, NCCL", "a46f6c76528f:2777:5429 [0] misc/shmutils.cc:113 NCCL WARN Error while creating shared memory segment", " /dev/shm/nccl-v2jS20 (size 9637888)", true},
		{"before a spaced path, a message", "OSError: [Errno 28] No space left on device while the loader was writing the shard cache under", " /root/.cache/huggingface/hub/models--Qwen", true},
		{"before a spaced path after a colon's block", "RuntimeError: the launcher could not find any of the model files it was asked for, looked in:", " /models", false},
		// A device's name with digits going on with "_" (mlx5_0).
		{"inside a device name, NCCL", "node201:127799:127863 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5", "_0:1 Got async event : local access violation work queue error", true},
		{"a number before a line of its own", "[2025-01-16 10:11:13 TP0] Decode batch. #running-req: 12, #token: 41023, token usage: 0.12, gen throughput (token/s): 1305", "_metrics: flushed", false},
		// A path cut inside its file's name, the rest ending in the
		// name's extension and line number; a compiler's diagnostic
		// labels itself after the location.
		{"inside a file's name", "RuntimeError: Error in function 'TllmGenFmhaRunner' at /workspace/include/flashinfer/trtllm/fmha/fmh", "aRunner.cuh:30: Unsupported architecture", true},
		{"a compiler's diagnostic after a path", "[2/14] /usr/local/cuda/bin/nvcc -c /workspace/csrc/kernels/flashinfer/attention/decode_kernels_for_hopper", "decode.cu:12:3: error: identifier \"x\" is undefined", false},
		// A word cut inside it that closes the parenthesis prev left
		// open, then a colon and a column's padding.
		{"inside the word that closes a parenthesis", " [openai_gpt-oss-20b] Failed to generate a tool call (this tool call will be omitted from the respon", "se):  Failed to parse tool call: Unexpected end of content.", true},
		{"a column after a line with a parenthesis open", "[2025-01-16 10:11:13 TP0] the following ranks are still loading weights (rank, device, progress", "rank0:  cuda:0  48%", false},
		{"inside an address, a message", "RuntimeError: the KV cache pool handed out a page whose device pointer is 0x", "deadbeef00: is not aligned to 256 bytes for the requested tensor view", true},
		// A device assert cut before the space ahead of the thread's
		// index tuple (PyTorch's indexing, scatter-gather and index
		// kernels print one shape); a bracketed time or a word after a
		// colon's space is a line of its own.
		{"before a device assert's thread tuple, Indexing.cu", "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1500: indexSelectSmallIndex: block: [32,0,0], thread:", " [63,0,0] Assertion `srcIndex < srcSelectDimSize` failed.", true},
		{"before a device assert's thread tuple, ScatterGather", "/opt/pytorch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu:144: operator(): block: [10,0,0], thread:", " [5,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.", true},
		{"a bracketed time after a colon", "[2025-06-13 09:59:00 TP0] Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage:", " [2025-06-13 09:59:01 TP0] Decode batch. #running-req: 1", false},
		// An acronym cut before its last letter.
		{"inside an acronym", "(EngineCore pid=471424) RuntimeError: process_non_blocking_copy:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:246 NP", "U function error: aclrtPointerGetAttributes, error code is 107000", true},
		{"a capital alone is a word", "ERROR 11-06 02:10:00 [core.py:7] the scheduler could not allocate blocks for the request ABC", "I think the pool is too small for the batch", false},
		{"a writer's name after an address", "Failed to register memory 0x7f7186000000 on the second device because of", "ninja: build stopped: subcommand failed.", false},
		{"after a space inside inline code, the rest closing it", "the GSM8K benchmark with the following assertion error: `AssertionError: assert logits.shape[0] == ", "len(seq_lens_expanded)` ", true},
		{"after a space, a short line ending in a space, no code span", "the GSM8K benchmark with the following assertion error, which the server printed when it == ", "len(seq_lens_expanded) ", false},
		{"inside a record's words, the rest ending in a traceback's start", "[2025-01-16 10:11:13 DP0 TP0 EP0] Scheduler hit an exception while reading the next batch of t", "he requests: Traceback (most recent call last):", true},
		{"a traceback's start on its own", long[:80], "Traceback (most recent call last):", false},
		{"after a batch line's last comma, a bare record", "[2025-08-17 19:34:27 TP0] Prefill batch. #new-seq: 1, #new-token: 2048, #cached-token: 0, token usage: 0.02, #running-req: 0, #queue-req: 0,", "Exception in thread Thread-13 (backup_thread_func):", false},
		{"after a batch line's last comma, a launcher's line", "[2025-06-01 12:00:00 TP0] Decode batch. #running-req: 3, #token: 5120, token usage: 0.04, gen throughput (token/s): 811.20, #queue-req: 0,", "Received sigquit from a child process. It usually means the child failed.", false},
		{"after a batch line's last comma, a native library's line", "[2025-06-01 12:00:00 TP0] Decode batch. #running-req: 3, #token: 5120, token usage: 0.04, gen throughput (token/s): 811.20, #queue-req: 0,", "DeepEP timeout for dispatch receivers, rank 3, responsible_channel = 2, tokens remained: 17", false},
		{"a list without spaces going on in capitals", "torch.distributed.DistBackendError: NCCL communicator for ranks TP0,TP1,TP2,TP3,TP4,TP5,TP6,", "TP7 was aborted after a timeout", true},
		{"a list without spaces going on in lower case", "ValueError: unknown attention backends in --attention-backend list: flashinfer,triton,fa3,", "torch_native,flex_attention", true},
		{"inside a stack dump's column padding", "(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: PC: @     ", "0x7f6d68247e87  (unknown)  raise", true},
		{"inside a frame's column padding", "[2025-05-19 13:48:05,851 E 124799 140771] logging.cc:361:     @     0x7f6d660dd070  ", "(unknown)  (unknown)", true},
		{"a padded line, then a row of a listing of its own", "  PID   USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND", "12345  root      20   0   10.2g   1.1g  20480 S 100.0   1.8   1:02.33 python3", false},
		{"after a c10d header, its bracketed fields", "(WorkerDict pid=835, ip=10.0.0.8) [rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] ", "[Rank 38] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10, OpType=ALLREDUCE)", true},
		{"after a c10d header, its process group's field", "(WorkerDict pid=835, ip=10.0.0.8) [rank38]:[E809 14:59:30.411332207 ProcessGroupNCCL.cpp:2168] ", "[PG ID 0 PG GUID 0(default_pg) Rank 38]  failure detected by watchdog at work sequence id: 10", true},
		{"after a bracketed field, a whole bracket line", "(WorkerDict pid=835, ip=10.0.0.8) [rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] ", "[2025-05-19 13:48:05]", false},
		{"after a sentence, a bracketed field", "the scheduler printed the following lines just before the whole process went down for good. ", "[Rank 38] To avoid data inconsistency, we are taking the entire process down.", false},
		{"inside a parenthesis, before a slash", "(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers (tasks ", "/ actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons", true},
		{"inside a parenthesis, before an operator", "ValueError: the sizes of the two operands do not agree after broadcasting the two shapes (left operand ", "* right operand) in the attention backend's matmul", true},
		{"after a closed parenthesis, a bullet", "Loading the model weights (this may take a while) from the local cache and checking every shard for ", "* a missing file (shard 3)", false},
		{"a middle piece that ends inside a list, shorter by a long token", "[2025-03-10 14:17:52 TP6] Ignore import error when loading sglang.srt.models.deepseek_v2. Command ", "'['/usr/bin/gcc', '/tmp/tmp6x1f85tg/main.c', '-O3', '-shared', '-fPIC', '-o', ", true},
		{"a middle piece of a comma list, shorter by a long path", "ValueError: none of the configured model paths exists on this node; looked in the following places: ", "/models/a, /models/b, /mnt/shared/checkpoints/b, ", true},
		{"the example", "torch.distributed.DistBackendError: NCCL error in: ../NCCLUtils.hpp:317, unhandled syst", "em error (run with NCCL_DEBUG=INFO for details)", true},
		{"after an underscore, a capital", "Config file not found at /x/fused_moe_triton/configs/E=384,N=14336,device_name=NVIDIA_", "RTX_PRO_6000_Blackwell_Max-Q_Workstation_Edition.json, you can create them", true},
		{"after a space", "Extension modules: numpy.core._multiarray_umath, torch._C, markupsafe._speedups, PIL._imaging, ", "PIL._imagingft, msgspec._core (total: 50)", true},
		{"inside a hex string", "--model-path /home/u/.cache/huggingface/hub/models--google--gemma/snapshots/5e092ebca197cdcd8d8", "b195040accf22693501bc/", true},
		{"decimal point", "[2026-07-01 09:31:38 TP0] KV Cache is allocated. #tokens: 1048576, K size: 12.", "5 GB, V size: 12.5 GB and more", true},
		{"source reference", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:", "317, unhandled system error", true},
		{"path going on", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed", "/c10d/NCCLUtils.hpp:317, unhandled system error", true},
		{"punctuation after a token", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp", ":317, unhandled system error", true},
		{"just before a space", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error", " (run with NCCL_DEBUG=INFO for details)", true},
		{"inside a constant", "torch.distributed.DistBackendError: NCCL error in: ../NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBU", "G=INFO for details)", true},
		{"a sentence after a period", "[2026-07-01 09:31:38 TP0] KV Cache is allocated. #tokens: 1048576, K size: 12.5 GB.", "next sentence goes here", false},
		{"digits on both sides", "[2026-07-01 09:31:38 TP0] Load weight end. type=Qwen3ForCausalLM, avail mem=61.23 GB, mem usage=15", "27 GB.", true},

		// Lines of their own.
		{"short previous line", "RuntimeError: NCCL error: unhandled syst", "em error", false},
		{"one lower-case word", "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", "next", false},
		{"capital after a letter", long[:80], "Loading safetensors checkpoint shards: 100%", false},
		{"number glued to a word", "available_size=2864304, evictable_size=138, self.max_total_num_tokens=3185200", "self.token_to_kv_pool_allocator.available_size()=2864304", false},
		{"hex-looking number then a word", "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory. code: 0x29", "Kernel Name: _ZN5aiter50fmoe", false},
		{"a writer's name", "[1/3] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -c kernel.cu -o kernel.cuda.o", "ninja: build stopped: subcommand failed.", false},
		{"the same opening", "python3 -m unittest test_bench_one_batch.TestBenchOneBatch.test_bs1_small xx", "python3 -m unittest test_bench_one_batch.TestBenchOneBatch.test_bs1_large", false},
		{"a progress bar redrawn", "Capturing batches (bs=16 avail_mem=10.19 GB):  33%|███▎      | 2/6 [00:23<00:43, 10.95s/it] ", "Capturing batches (bs=8 avail_mem=10.19 GB):  50%", false},
		{"lines that end in a space", "/sgl-workspace/nvshmem/src/host/transport/transport.cpp:400: non-zero status: 7 ", "connect EPS failed ", false},
		{"a frame line cut inside its function's name", `  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1748, in run_scheduler_pro`,
			"cess", false}, // isWrapBreak says no after a frame line; isFuncNameRest reads it
		{"inside a hexadecimal address", "frame #3: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::string) + 0x96 (0x7f298896",
			"c1b6 in /home/u/miniconda3/envs/openr1/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)", true},
		{"inside a path, the rest one token", "frame #4: + 0x1d7d0 (0x7f2936c1d7d0 in /home/u/miniconda3/envs/openr1/lib/python3.11/site-packa",
			"ges/torch/lib/libtorch_cuda.so)", true},
		{"inside a dotted name, the rest a word ending in a colon", "ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.",
			"so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb", true},
		{"inside a directory's name, the rest the path and a line number", "RuntimeError: Error in function 'TllmGenFmhaRunner' at /workspace/include/flashi",
			"nfer/trtllm/fmha/fmhaRunner.cuh:30: Unsupported architecture", true},
		{"inside a directory's name, the rest naming a line and a column", "what():  CUDA error: an illegal memory access at /sgl-workspace/sgl-kernel/csrc/allred",
			"uce/custom_all_reduce.cuh:412:7: in launch", true},
		{"inside a directory's name, a progress bar's file name", "Downloading into /root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots",
			"tokenizer/vocab.json: 100%|██████████| 2.78M/2.78M [00:00<00:00, 9.1MB/s]", false},
		{"after an object file, a compiler's diagnostic", "[2/7] /usr/local/cuda/bin/nvcc -c /workspace/csrc/gemm/fp8.cu -o /workspace/build/gemm/fp8.o",
			"csrc/gemm/fp8.cu:112:3: error: identifier \"__nv_fp8_e4m3\" is undefined", false},
		{"after an include directory, a compiler's diagnostic", "[2/7] c++ -MMD -MF kernel.o.d -DTORCH_EXTENSION_NAME=kernel -isystem /opt/torch/csrc/api/include",
			"csrc/kernel.cpp:12:10: fatal error: Python.h: No such file or directory", false},
		{"fold -s before a path", "[2025-01-16 10:11:13 TP0] Failed to initialize custom process group: NCCL error in: ",
			"/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled cuda error", true},
		{"fold -s before a word ending in a colon", "ImportError: /opt/conda/lib/python3.10/site-packages/sgl_kernel/common_ops.abi3.so: undefined ",
			"symbol: cuGreenCtxStreamCreate", true},
		{"fold -s's middle piece, ending in a space as prev does", "[E226 11:16:37.170295281 ProcessGroupNCCL.cpp:616] [Rank 7] Watchdog caught collective ",
			"operation timeout: WorkNCCL(SeqNum=5653, OpType=ALLREDUCE, NumelIn=58720256, ", true},
		// fold -s breaks before the word that would cross its width:
		// the rest, broken again at that width, may be longer than prev
		// by that word; after a colon's space the value may be a
		// constant in capitals; the last piece of a Markdown paste's line
		// ends in its two spaces.
		{"fold -s, the rest longer than prev by its first word", "`[rank4]:[E604 10:11:32.577737304 ProcessGroupNCCL.cpp:608] [Rank 0] Collective ",
			"WorkNCCL(SeqNum=39982, OpType=SEND, NumelIn=4742400, NumelOut=4742400, Timeout(ms)=600000) raised", true},
		{"fold -s after a colon's space, a constant", ":0:rocdevice.cpp:3586: Callback: Queue 0x7f78cb400000 aborting with error : ",
			"HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016", true},
		{"fold -s, the last piece of a Markdown line", "E1120 11:10:27.133715 203020 transfer_task.cpp:305] Failed to complete transfers after 60 seconds ",
			"for batch 2586731328  ", true},
		{"fold -s, a rest longer than prev and its first word", "[E604 10:11:32.577737304 ProcessGroupNCCL.cpp:608] [Rank 0] Collective ",
			"WorkNCCL(SeqNum=39982, " + strings.Repeat("OpType=SEND, ", 8), false},
		{"a level word after a space that no colon announced", "[E604 10:11:32.577737304 ProcessGroupNCCL.cpp:608] [Rank 0] Collective ",
			"ERROR: the store went away", false},
		{"a short piece ending in one space, as a writer's own", "nvshmem detect topo failed on /dvs/p4/build/sw/rel/gpgpu/toolkit/r12.0/main_nvshmem/src/host/init: ",
			"init.cu:1007 status 7 ", false},
		{"a short piece ending in a colon's space: its value, too long for the line, on the next", "ImportError: /opt/conda/lib/python3.10/site-packages/sgl_kernel/common_ops.abi3.so: ",
			"undefined symbol: ", true},
		{"sentence end", long + ".", "and the next sentence begins here", false},
		{"announcing colon", strings.Repeat("x", 80) + ":", "value goes here", false},
		{"indented", long[:80], "  " + long[80:], false},
		{"frame before", `  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 4128, in run_scheduler_process`, "scheduler.event_loop_overlap()", false},
		{"a word ending in a colon", long[:80], "valueError: x", false},
		{"exception line after, strict", long[:80] + "_", "ValueError: x", false},
		{"warning after", long[:80] + "/", "sglang/srt/x.py:54: FutureWarning: deprecated", false},
		{"traceback after", long[:80] + "/", "Traceback (most recent call last):", false},
		{"much longer rest", long[:80], strings.Repeat("abc ", 30), false},
		// pydantic prints each failing field's location after its head.
		{"a validation error's field location", "pydantic_core._pydantic_core.ValidationError: 5 validation errors for ChatCompletionRequest",
			"messages.1.ChatCompletionMessageGenericParam.content.str", false},
		{"a validation error's field location, one error", "pydantic_core._pydantic_core.ValidationError: 1 validation error for ServerArgs_Model2",
			"tool_calls.0.function", false},
	}
	for _, tt := range tests {
		if got := isWrapBreak(tt.prev, tt.next, len(tt.prev)); got != tt.want {
			t.Errorf("%s: isWrapBreak(%q, %q) = %v, want %v", tt.name, tt.prev, tt.next, got, tt.want)
		}
	}
}

func TestAssemblerRejoinsHardWraps(t *testing.T) {
	const (
		srt  = "[2025-03-10 16:19:28 TP0] "
		nccl = "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"
	)
	tb := "Traceback (most recent call last):\n  File \"/sgl/pynccl_wrapper.py\", line 378, in NCCL_CHECK\n    raise RuntimeError(f\"NCCL error: {error_str}\")\n"
	tests := []struct {
		name string
		in   string
		want []view
	}{
		{"exception line of a raw traceback", tb + split(nccl, 77),
			[]view{{Lines: "1-5", Msg: "Traceback (most recent call last):", Exc: nccl}}},
		{"exception line of a record's traceback", srt + "Scheduler hit an exception: " + tb + split(nccl, 75) + "\n\n" + srt + "next record",
			[]view{{Lines: "1-6", Format: FormatSRT, Msg: "Scheduler hit an exception: Traceback (most recent call last):", Exc: nccl}, {Lines: "7-7", Format: FormatSRT, Msg: "next record"}}},
		{"bare exception line wrapped twice", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled syst\nem error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5, remote process exited or there was a network er\nror on rank 3",
			[]view{{Lines: "1-3", Msg: "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5, remote process exited or there was a network error on rank 3",
				Exc: "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5, remote process exited or there was a network error on rank 3"}}},
		{"glog line", "E0713 23:29:03.494601 1234 nixl_agent.cpp:631] prepXferDlist: failed to prepare the descrip\ntors for any of the specified backends for agent 'x'",
			[]view{{Lines: "1-2", Format: FormatNative, Native: NativeGlog, Msg: "prepXferDlist: failed to prepare the descriptors for any of the specified backends for agent 'x'"}}},
		{"record's message", srt + "Using default MoE kernel config. Performance might be sub-optimal! Config file not found at /x/E=384,device_name=NVIDIA_\nRTX_PRO_6000.json",
			[]view{{Lines: "1-2", Format: FormatSRT, Msg: "Using default MoE kernel config. Performance might be sub-optimal! Config file not found at /x/E=384,device_name=NVIDIA_RTX_PRO_6000.json"}}},

		{"c10d line behind a learned prefix on every line", "3: [E424 01:17:25.031978332 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminat\n" +
			"3: ed with exception: [Rank 2] Watchdog caught collective operation timeout\n3: Exception raised from x\n3: [I424 01:17:26.000000000 ProcessGroupNCCL.cpp:1] x",
			[]view{{Lines: "1-3", Format: FormatNative, Native: NativeC10d, Msg: "[PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminated with exception: [Rank 2] Watchdog caught collective operation timeout"},
				{Lines: "4-4", Format: FormatNative, Native: NativeC10d, Msg: "x"}}},
		{"c10d line wrapped inside a word, then a paste's doubled spacing", "[E424 01:17:25.031978332 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminat\n\n" +
			"ed with exception: [Rank 2] Watchdog caught collective operation timeout WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelO\n\nut=112)",
			// (The third piece, after the stream's third line, is
			// rejoined too: two lines from the start that each came
			// after one blank tell the spacing.)
			[]view{{Lines: "1-5", Format: FormatNative, Native: NativeC10d, Msg: "[PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminated with exception: [Rank 2] Watchdog caught collective operation timeout WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelOut=112)"}}},
		{"a failure-signal dump folded at a word inside its column padding, behind Ray's prefix",
			"(Worker pid=7) [2025-05-19 13:48:05,850 E 7 14] logging.cc:361: *** SIGABRT \nreceived at time=1747633685 on cpu 74 ***\n" +
				"(Worker pid=7) [2025-05-19 13:48:05,850 E 7 14] logging.cc:361: PC: @     \n0x7f6d68247e87  (unknown)  raise\n" +
				"(Worker pid=7) [2025-05-19 13:48:05,850 E 7 14] logging.cc:361:     @     \n0x7f6d660dd35a  (unknown)  __cxxabiv1::__terminate()\n" +
				"(Worker pid=7) Fatal Python error: Aborted",
			[]view{{Lines: "1-6", Format: FormatRayCore, Msg: "*** SIGABRT received at time=1747633685 on cpu 74 ***"}, {Lines: "7-7", Format: FormatNative, Native: NativeFaulthandler, Msg: "Fatal Python error: Aborted"}}},
		{"a glued line word-wrapped, a middle piece opening as a native writer's line",
			"[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous \n" +
				"nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. [E \n" +
				"ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down. \n" +
				"terminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: remote \n" +
				"process exited or there was a network error, NCCL version 2.14.3\n" +
				"terminate called after throwing an instance of 'c10::DistBackendError'",
			[]view{{Lines: "1-5", Format: FormatNative, Native: NativeC10d, Msg: "Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. [E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down. terminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: remote process exited or there was a network error, NCCL version 2.14.3"},
				{Lines: "6-6", Format: FormatNative, Native: NativeTerminate, Msg: "terminate called after throwing an instance of 'c10::DistBackendError'"}}},
		{"a native line after a word-wrapped line's last piece",
			"[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous \n" +
				"nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n" +
				"terminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: remote ",
			[]view{{Lines: "1-2", Format: FormatNative, Native: NativeC10d, Msg: "Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."},
				{Lines: "3-3", Format: FormatNative, Native: NativeTerminate, Msg: "terminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: remote "}}},
		// A blank line after a native line that ends a word is the log's own.
		{"blank line after a whole word", "E0713 23:29:03.494601 1234 nixl_agent.cpp:631] prepXferDlist: failed to prepare the descriptors for agent\n\nretrying in five seconds with the next backend of the list",
			[]view{{Lines: "1-2", Format: FormatNative, Native: NativeGlog, Msg: "prepXferDlist: failed to prepare the descriptors for agent"}, {Lines: "3-3", Msg: "retrying in five seconds with the next backend of the list"}}},
		// Never two records, never a native line or a wrapper's record.
		{"two records", split(srt+"Decode batch, #running-req: 31, #token: 8001, token usage: 0.51, cuda graph: True, gen throughput (token/s): 1000.5", 88) + "\n" + srt + "Decode batch",
			[]view{{Lines: "1-2", Format: FormatSRT, Msg: "Decode batch, #running-req: 31, #token: 8001, token usage: 0.51, cuda graph: True, gen throughput (token/s): 1000.5"}, {Lines: "3-3", Format: FormatSRT, Msg: "Decode batch"}}},
		{"a native line after", nccl + " and more text here\nterminate called after throwing an instance of 'c10::DistBackendError'",
			[]view{{Lines: "1-1", Msg: nccl + " and more text here", Exc: nccl + " and more text here"}, {Lines: "2-2", Format: FormatNative, Native: NativeTerminate, Msg: "terminate called after throwing an instance of 'c10::DistBackendError'"}}},
		{"a short line of its own", "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\nnext",
			[]view{{Lines: "1-1", Msg: "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", Exc: "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"}, {Lines: "2-2", Msg: "next"}}},
	}
	for _, tt := range tests {
		got := views(assemble(t, Options{}, tt.in))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
	}
}

// TestRejoinedEntriesMatchUnwrapped: a log whose long lines a terminal
// wrapped at any width from 72 to 200 columns gives the entries of the
// log as written, with the same text and exception, except where a break
// falls in one of the places the rule knowingly leaves alone (see
// leftAlone).
func TestRejoinedEntriesMatchUnwrapped(t *testing.T) {
	log := []string{
		"[2025-03-10 16:19:28 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
		"",
		"[2025-03-10 16:19:29] Received sigquit from a child process. It usually means the child failed.",
		"E0713 23:29:03.494601 1234 nixl_agent.cpp:631] prepXferDlist: failed to prepare the descriptors for any of the specified or potential backends for agent 'x'",
	}
	want := assemble(t, Options{}, strings.Join(log, "\n"))
	rejoined := 0
	for width := 72; width <= 200; width++ {
		var wrapped []string
		skip := false
		for _, l := range log {
			// A terminal wraps the exception line and the glog line;
			// the other lines are shorter than most widths, and a
			// header line's rest is read by the greedy record anyway.
			if !strings.HasPrefix(l, "[") && !strings.HasPrefix(l, " ") {
				for len(l) > width {
					skip = skip || leftAlone(l[:width], l[width:])
					wrapped = append(wrapped, l[:width])
					l = l[width:]
				}
			}
			wrapped = append(wrapped, l)
		}
		if skip {
			continue
		}
		got := assemble(t, Options{}, strings.Join(wrapped, "\n"))
		if len(got) != len(want) {
			t.Errorf("width %d: %d entries, want %d", width, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i].Text != want[i].Text || got[i].Native != want[i].Native || !cmp.Equal(got[i].Traceback, want[i].Traceback) {
				t.Errorf("width %d: entry %d:\n%q\nwant\n%q", width, i, got[i].Text, want[i].Text)
			}
		}
		rejoined++
	}
	if rejoined < 100 {
		t.Errorf("%d widths of 129 rejoined", rejoined)
	}
}

// leftAlone reports whether a break between prev and rest falls where
// isWrapBreak knowingly says no: inside a word of capitals followed by a
// capitalised word or a one-letter word ("NCCL" and "Utils", "INF" and
// "O for"), which a capitalised sentence after an acronym looks like; and
// before one lower-case word that ends the line, which a short line of its
// own looks like.
func leftAlone(prev, rest string) bool {
	p := prev[len(prev)-1]
	if isUpper(p) && isUpper(rest[0]) && len(rest) > 1 && (isLower(rest[1]) || rest[1] == ' ') {
		return true
	}
	return isLetter(p) && isLower(rest[0]) && !strings.Contains(rest, " ")
}

// FuzzIsWrapBreak checks the rule's promises on any pair of lines: a
// traceback line, an indented line (more than the one space a break
// just before a word leaves) or a strict exception line is never the
// rest of a wrapped line, and the bounds hold.
func FuzzIsWrapBreak(f *testing.F) {
	f.Add("torch.distributed.DistBackendError: NCCL error in: ../NCCLUtils.hpp:317, unhandled syst", "em error")
	f.Add("--model-path /home/u/.cache/huggingface/hub/models--google--gemma/snapshots/5e092ebca197cdcd8d8", "b195040accf22693501bc/")
	f.Add("Extension modules: numpy.core._multiarray_umath, torch._C, markupsafe._speedups, PIL._imaging, ", "PIL._imagingft")
	f.Add(":0:rocdevice.cpp:3586: Callback: Queue 0x7f78cb400000 aborting with error : ", "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception.")
	f.Add("(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: PC: @     ", "0x7f6d68247e87  (unknown)  raise")
	f.Add("(WorkerDict pid=835, ip=10.0.0.8) [rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] ", "[Rank 38] Watchdog caught collective operation timeout")
	f.Add("(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers (tasks ", "/ actors) killed due to memory pressure (OOM)")
	f.Add("[2025-03-10 14:17:52 TP6] Ignore import error when loading sglang.srt.models.deepseek_v2. Command ", "'['/usr/bin/gcc', '-O3', ")
	f.Add("/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1500: indexSelectSmallIndex: block: [32,0,0], thread:", " [63,0,0] Assertion `srcIndex < srcSelectDimSize` failed.")
	f.Add("(VllmWorkerProcess pid=92) ERROR 07-29 13:23:24 multiproc_worker_utils.py:226] RuntimeError:", " NCCL error: unhandled system error")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if n := indexTupleLen(next); n < 0 || n > len(next) || n > 0 && (next[0] != '[' || next[n-1] != ']' || strings.Trim(next[1:n-1], "0123456789,") != "") {
			t.Fatalf("indexTupleLen(%q) = %d", next, n)
		}
		if !isWrapBreak(prev, next, len(prev)) {
			return
		}
		bound := len(prev) + wrapSlack
		if strings.HasSuffix(prev, " ") {
			bound = max(bound, len(prev)+firstWordLen(next))
		}
		if len(prev) < minWrapWidth || len(next) > bound || strings.HasPrefix(next, "  ") || next[0] == '\t' || isFrameLine(next) || isTracebackLine(next) {
			t.Fatalf("isWrapBreak(%q, %q): bounds or traceback line", prev, next)
		}
		if _, _, ok := parseExceptionAnyQuote(strings.TrimPrefix(next, " ")); ok && !isDottedTypeCut(prev[strings.LastIndexByte(prev, ' ')+1:], next) {
			// (Unless prev's last token begins the dotted type the
			// rest ends: the exception line whole is prev's.)
			t.Fatalf("isWrapBreak(%q, %q): an exception line", prev, next)
		}
	})
}

func TestIsFuncNameRest(t *testing.T) {
	prev := `  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1748, in run_scheduler_pro`
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{prev, "cess", true},
		{`  File "/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker_overlap_thread.py", line 63, in <mod`, "ule>", true},
		{`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2009, in `, "run_scheduler_process", true},
		{`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2009, in`, "run_scheduler_process", false},
		{`  File "/gf3/home/lei/zhenghao/Autoplanner/test/manual_pp/pipeline2x4_ptip.py", line 178, in `, "<module>", true},
		{prev, "pass", false},
		{prev, "scheduler.event_loop()", false},
		{prev, "    cess", false},
		{"  File \"x.py\", line 1, in f", "cess", false},
		{strings.Repeat("x", 100), "cess", false},
	} {
		if got := isFuncNameRest(tt.prev, tt.next); got != tt.want {
			t.Errorf("isFuncNameRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}

// TestFoldMiddlePieceAfterARejoinedLine: the middle piece of a line fold
// -s broke three times is as long as the piece before it, not as the
// line rejoined so far.
func TestFoldMiddlePieceAfterARejoinedLine(t *testing.T) {
	in := "[1745499308.854013] [9fd0c21b0f7c:760  :0]       ib_device.c:1332 UCX  ERROR   \n" +
		"ibv_create_ah(dlid=49152 sl=0 port=1 src_path_bits=0 dgid=fe80::5aa2:e1ff:fefe:c130 \n" +
		"flow_label=0xffffffff sgid_index=0 traffic_class=0) for UD mlx5 connect on mlx5_0 failed: No such \n" +
		"device"
	es := assemble(t, Options{}, in)
	if len(es) != 1 || !strings.HasSuffix(es[0].Text, "failed: No such device") || strings.Contains(es[0].Text, "\n") {
		t.Errorf("entries %+v, want the UCX line whole", views(es))
	}
}

// TestFoldInsideAnExceptionMessage: inside an exception's message, the
// pieces fold -s cut (each ending in one space, which CPython never
// prints there) are one line again, whatever their lengths; a line
// without that space stays a line of the message.
func TestFoldInsideAnExceptionMessage(t *testing.T) {
	in := "Traceback (most recent call last):\n" +
		"  File \"/w/transformers/dynamic_module_utils.py\", line 731, in resolve_trust_remote_code\n" +
		"    raise ValueError(\n" +
		"ValueError: The repository `/data/InternVL3-1B` contains custom code which must be \n" +
		"executed to correctly load the model. You can inspect the repository content at \n" +
		"https://hf.co//data/InternVL3-1B.\n" +
		"Please pass the argument `trust_remote_code=True` to allow custom code to be run."
	es := assemble(t, Options{}, in)
	want := "ValueError: The repository `/data/InternVL3-1B` contains custom code which must be executed to correctly load the model. " +
		"You can inspect the repository content at https://hf.co//data/InternVL3-1B."
	if !strings.Contains(es[0].Text, want) {
		t.Errorf("text %q, want the message's pieces rejoined: %q", es[0].Text, want)
	}
}

// TestFoldPieceCutShortByALongToken: fold -s leaves a short piece before
// a token longer than its width ("undefined symbol: " and a mangled
// name): the piece is rejoined, and so is the token, measured against the
// width the entry's earlier pieces showed.
func TestFoldPieceCutShortByALongToken(t *testing.T) {
	sym := "_ZN3c108ListType3getERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEENS_4Type24SingletonOrSharedTypePtrIS9_EE"
	in := "ImportError: /home/miniconda3/envs/webdancer/lib/python3.12/site-packages/sgl_kernel/common_ops.abi3.so: \n" +
		"undefined symbol: \n" + sym
	es := assemble(t, Options{}, in)
	if len(es) != 1 || es[0].Traceback == nil {
		t.Fatalf("entries %+v, want one bare exception", views(es))
	}
	if x := es[0].Traceback.Outermost(); !strings.HasSuffix(x.Message, "common_ops.abi3.so: undefined symbol: "+sym) {
		t.Errorf("message %q, want the line whole", x.Message)
	}
}

// TestRejoinedEmbeddedException: an exception embedded in a sentence
// (parseEmbeddedException) whose line a word wrap broke is read whole
// once the rest is rejoined, as an exception line of its own is.
func TestRejoinedEmbeddedException(t *testing.T) {
	in := "The baidu/ERNIE-4.5-21B-A3B-PT model service failed to start（RuntimeError: The bias should be \n1D）"
	es := assemble(t, Options{}, in)
	if len(es) != 1 || es[0].Traceback == nil {
		t.Fatalf("entries %+v, want one with the exception", es)
	}
	if x := es[0].Traceback.Outermost(); x.Type != "RuntimeError" || x.Message != "The bias should be 1D" {
		t.Errorf("exception %q: %q, want RuntimeError: The bias should be 1D", x.Type, x.Message)
	}
}

// TestIsValidationHeadEnd checks the reading of the model's name back
// from the line's end against the search it replaced.
func TestIsValidationHeadEnd(t *testing.T) {
	searched := func(s string) bool {
		i := strings.LastIndex(s, " for ")
		if i < 0 || !isIdentifier(s[i+5:]) {
			return false
		}
		head := s[:i]
		return strings.HasSuffix(head, " validation error") || strings.HasSuffix(head, " validation errors")
	}
	for _, s := range []string{
		"2 validation errors for ChatCompletionRequest", "1 validation error for Model_2",
		"1 validation error for 2Model", "1 validation error for ", "1 validation error for Model x",
		"validation error for Model", " for Model", "x validation errors for Model for Other",
		"1 validation error for Model.sub", "", "for", "1 validation errors for  Model",
		"Capturing batches (bs=8 avail_mem=20.00 GB):  45%|####5     | 9/20 [00:01<00:01,  6.21it/s]",
	} {
		if got, want := isValidationHead(s), searched(s); got != want {
			t.Errorf("isValidationHead(%q) = %v, want %v", s, got, want)
		}
	}
}

// A double-spaced paste of a line a terminal cut right after a word's
// apostrophe ("...ProcessGroupNCCL'" and "s watchdog got stuck ...") is
// rejoined, whatever the width; an apostrophe that opens a quote is no
// word's, and the blank line there is the paste's own.
func TestSpacedPasteWrapAfterApostrophe(t *testing.T) {
	pad := func(s string, w int) string { return s + strings.Repeat(" ", w-len(s)) }
	tests := []struct {
		name string
		in   []string
		want string // the first entry's first line
	}{
		{"c10d's heartbeat message at 116 columns",
			[]string{
				"[rank6]:[E429 13:55:49.384372190 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 6] ProcessGroupNCCL'", "",
				pad("s watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives.", 116), "",
			},
			"[E429 13:55:49.384372190 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 6] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives."},
		{"a glog line at 77 columns",
			[]string{
				"E0925 00:24:39.141773  4418 transfer_engine.cpp:353] Failed to open the peer'", "",
				pad("s segment descriptor: connection refused", 77), "",
			},
			"E0925 00:24:39.141773  4418 transfer_engine.cpp:353] Failed to open the peer's segment descriptor: connection refused"},
		{"an apostrophe opening a quote stays apart",
			[]string{
				"E0925 00:24:39.141773  4418 transfer_engine.cpp:353] Failed to open segment '", "",
				pad("segment-name': connection refused", 77), "",
			},
			"E0925 00:24:39.141773  4418 transfer_engine.cpp:353] Failed to open segment '"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAssembler(Options{Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)})
			var got []string
			for i, l := range tt.in {
				for _, e := range a.Push(Line{Text: l, Offset: int64(i + 1)}) {
					got = append(got, firstLine(e.Text))
				}
			}
			for _, e := range a.Flush() {
				got = append(got, firstLine(e.Text))
			}
			if len(got) == 0 || strings.TrimRight(got[0], " ") != tt.want {
				t.Errorf("entries %q, want the first %q", got, tt.want)
			}
		})
	}
}

// A container runtime's lines that a terminal wrapped at its width, the
// runtime's framing and all: the source took the framing off each line's
// first piece only (Line.Framing says how much), so the pieces are as
// long as the width with it, and the rests are rejoined.
func TestRejoinsPiecesOfFramedLines(t *testing.T) {
	const width, framing = 80, 46
	lines := []string{
		"[2025-07-25 07:53:08 TP2] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2769, in run_scheduler_process`,
		"    scheduler.event_loop_normal()",
		"RuntimeError: CUDA error: an illegal memory access was encountered",
	}
	a := NewAssembler(Options{})
	var out []Entry
	off := int64(0)
	for _, l := range lines {
		first := true
		for l != "" {
			n := min(len(l), width)
			if first {
				n = min(len(l), width-framing)
			}
			ln := Line{Text: l[:n], Offset: off}
			if first {
				ln.Framing = framing
			}
			out = append(out, a.Push(ln)...)
			l, first = l[n:], false
			off++
		}
	}
	out = append(out, a.Flush()...)
	if len(out) != 1 || out[0].Traceback == nil || !strings.Contains(out[0].Text, "run_scheduler_process") {
		var texts []string
		for _, e := range out {
			texts = append(texts, e.Text)
		}
		t.Fatalf("entries %q, want the record whole with its traceback", texts)
	}
}

func TestIsLocationRest(t *testing.T) {
	tests := []struct {
		name, prev, next string
		want             bool
	}{
		{"assertion then its location", "Capture cuda graph failed: Assertion error", "(/deepgemm/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:57):", true},
		{"without the colon", "RuntimeError: check failed", "(csrc/deep_ep.cpp:483)", true},
		{"after a colon: a line of its own", "Assertion error:", "(/x/layout.hpp:57):", false},
		{"a note in parentheses", "Loading the model", "(this may take a while)", false},
		{"no line number", "Assertion error", "(/x/layout.hpp):", false},
		{"no file extension", "Assertion error", "(worker:57):", false},
		{"text after it", "Assertion error", "(/x/layout.hpp:57): ab == 10", false},
		{"a Ray actor prefix", "x failed", "(pid=1234):", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isLocationRest(tt.prev, tt.next); got != tt.want {
				t.Errorf("isLocationRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
			}
		})
	}
	// Assembled: the three lines as posted are one entry's two lines,
	// the first whole with its location.
	a := NewAssembler(Options{})
	var es []Entry
	for i, l := range []string{"Capture cuda graph failed: Assertion error", "(/deepgemm/csrc/utils/layout.hpp:57):", "ab.scalar_type() == kPackedFP4 and arch_major == 10"} {
		es = append(es, a.Push(Line{Text: l, Offset: int64(i)})...)
	}
	es = append(es, a.Flush()...)
	if len(es) == 0 || firstLine(es[0].Text) != "Capture cuda graph failed: Assertion error (/deepgemm/csrc/utils/layout.hpp:57):" {
		t.Errorf("hand-wrapped assertion: entries %q", texts(es))
	}
}

// texts returns the entries' texts.
func texts(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Text)
	}
	return out
}

// FuzzIsLocationRest checks the rest a hand wrap moved: a source location
// alone in parentheses, bounded, after a line that ends in a word.
func FuzzIsLocationRest(f *testing.F) {
	f.Add("Capture cuda graph failed: Assertion error", "(/deepgemm/csrc/utils/layout.hpp:57):")
	f.Add("x failed", "(pid=1234):")
	f.Add("Assertion error", "(/x/layout.hpp:57): ab == 10")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isLocationRest(prev, next) {
			return
		}
		if len(next) > maxLocationRest || next[0] != '(' || strings.ContainsAny(next, " \t") || !isWordByte(prev[len(prev)-1]) {
			t.Fatalf("isLocationRest(%q, %q): not a location alone after a word", prev, next)
		}
		if c := strings.LastIndexByte(next, ':'); c < 0 {
			t.Fatalf("isLocationRest(%q, %q): no line number", prev, next)
		}
	})
}

func TestIsAssertCloseRest(t *testing.T) {
	const head = "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:93: operator(): block: [0,0,0], thread: [127,0,0] Assertion "
	tests := []struct {
		name, prev, next string
		want             bool
	}{
		{"backtick", head + "`-sizes[i] <= index && index < sizes[i] &&", "\"index out of bounds\"` failed.", true},
		{"straight quote", head + "'-sizes[i] < index && index < sizes [1] se", "\"index out of bounds\"' failed.", true},
		{"closed already", head + "`x` failed.", "\"y\"` failed.", false},
		{"another assertion", head + "`x &&", head + "`y` failed.", false},
		{"no close", head + "`x &&", "y", false},
		{"no condition opened", "block: [0,0,0], thread: [1,0,0] Assertion", "x` failed.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isAssertCloseRest(tt.prev, tt.next); got != tt.want {
				t.Errorf("isAssertCloseRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
			}
		})
	}
}

// FuzzIsAssertCloseRest checks the close of a cut assertion: bounded, it
// ends the line, and prev opened a condition it did not close.
func FuzzIsAssertCloseRest(f *testing.F) {
	f.Add("IndexKernel.cu:93: operator(): block: [0,0,0], thread: [1,0,0] Assertion `x &&", "\"index out of bounds\"` failed.")
	f.Add("Assertion '", "' failed.")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isAssertCloseRest(prev, next) {
			return
		}
		if len(next) > maxAssertRest || !strings.HasSuffix(next, " failed.") || strings.HasSuffix(prev, "failed.") || !strings.Contains(prev, "Assertion ") {
			t.Fatalf("isAssertCloseRest(%q, %q): no close of an open condition", prev, next)
		}
	})
}

// A line a paste quoted as inline code and a word wrap (fold -s) then
// broke: the span the paste opened stays open on every piece but the
// last, each piece ending in the space the wrap left, so the pieces are
// one line, whatever the quoted line says (an exception line, a native
// error, prose) and however long its pieces are.
func TestFoldInsideCodeSpan(t *testing.T) {
	fold := func(s string, width int) []string {
		var out []string
		for len(s) > width {
			cut := strings.LastIndexByte(s[:width], ' ')
			out = append(out, s[:cut+1])
			s = s[cut+1:]
		}
		return append(out, s)
	}
	for _, line := range []string{
		"OSError: /models/Mistral-Small-3.2-24B-Instruct-2506/ does not appear to have a file named preprocessor_config.json. Checkout 'https://huggingface.co//models/Mistral-Small-3.2-24B-Instruct-2506//tree/main' for available files.",
		"RuntimeError: CUDA error: an illegal memory access was encountered. CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
		"E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory 0x7f2c00000000: Cannot allocate memory [12] while initializing the transfer engine for the KV cache",
	} {
		for _, width := range []int{80, 100} {
			pieces := fold("`"+line+"`", width)
			got := assemble(t, Options{}, strings.Join(pieces, "\n")+"\n[2026-01-01 10:00:00] next")
			if len(got) != 2 || got[0].Lines != len(pieces) || !strings.HasPrefix(got[0].Text, strings.TrimSuffix(line, ".")) {
				t.Errorf("width %d: %d entries, first %d lines %q", width, len(got), got[0].Lines, got[0].Text)
			}
		}
	}
	// A span closed on its line, and one nothing wrapped, are lines of
	// their own.
	got := assemble(t, Options{}, "`ValueError: x` is raised when \n`KeyError: y` ")
	if len(got) != 2 {
		t.Errorf("closed spans joined: %+v", got)
	}
}

// A record that repeats its header on every line (vLLM's, behind its
// process prefix), its traceback's header cut by a terminal: the line that
// holds "Traceback (most " is the record's traceback, as whole, and the
// rest joins it.
func TestRepeatedHeaderCutTracebackHeader(t *testing.T) {
	head := "(EngineCore_DP0 pid=1511501) ERROR 12-15 18:57:10 [core.py:918] "
	lines := []string{
		head + "Invocation of add_lora method failed",
		head + "Traceback (most recent call last):",
		head + `  File "/envs/vllm/lib/python3.12/site-packages/vllm/lora/worker_manager.py", line 102, in _load_adapter`,
		head + "ValueError: base_model.model.lm_head.weight is unsupported LoRA weight",
	}
	for _, width := range []int{80, 90} {
		var cut []string
		for _, l := range lines {
			for len(l) > width {
				cut = append(cut, l[:width])
				l = l[width:]
			}
			cut = append(cut, l)
		}
		got := assemble(t, Options{}, strings.Join(cut, "\n"))
		if len(got) != 1 || got[0].Message != "Invocation of add_lora method failed" || got[0].Traceback.Outermost() == nil || got[0].Traceback.Outermost().Type != "ValueError" {
			t.Errorf("width %d: %+v", width, views(got))
		}
	}
	if isCutTracebackHeader("Traceback") || !isCutTracebackHeader("Traceback (most ") || isCutTracebackHeader(pyTracebackHeader) || isCutTracebackHeader("Traceback (least ") {
		t.Error("isCutTracebackHeader")
	}
}
