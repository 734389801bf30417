package catalog_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// handlingStrategies is the closed set of handlingStrategy values the
// curated catalog uses:
//   - retry: transient; the same launch may succeed once a peer, the network
//     or a remote service is back.
//   - reconfigure: a flag, environment variable or installation must change
//     before a restart can succeed.
//   - escalate: hardware, driver or infrastructure trouble for an operator.
//   - fail-fast: the process is (or should be) stopping; find the cause
//     the record points at and restart.
//   - monitor: not fatal by itself; alert on a rate, not on one line.
var handlingStrategies = []string{"retry", "reconfigure", "escalate", "fail-fast", "monitor"}

const seedID = "a4a00f79b8728e30"

// header is the prefix an sglang scheduler of a DP/TP/EP deployment writes.
const header = "[2026-05-28 00:11:09 DP0 TP0 EP0] "

// hdr writes msg the way configure_logger formats a scheduler record.
func hdr(msg string) string { return header + msg }

// mainLog writes msg the way the main process (empty prefix) formats it.
func mainLog(msg string) string { return "[2026-05-28 00:11:09] " + msg }

// tb wraps an exception line in the one-record traceback sglang logs when
// a scheduler dies.
func tb(exc string) string {
	return hdr("Scheduler hit an exception: Traceback (most recent call last):\n") +
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3120, in run_scheduler_process` + "\n" +
		"    scheduler.event_loop_overlap()\n" +
		`  File "/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py", line 120, in decorate_context` + "\n" +
		"    return func(*args, **kwargs)\n" +
		"           ^^^^^^^^^^^^^^^^^^^^^\n" +
		exc + "\n"
}

// rawTB is a header-less traceback as Python prints it on stderr.
func rawTB(exc string) string {
	return "Traceback (most recent call last):\n" +
		`  File "/usr/local/lib/python3.12/dist-packages/sglang/launch_server.py", line 29, in <module>` + "\n" +
		"    server.run(args)\n" +
		exc + "\n"
}

// example lists lines one record must match and near-misses it must not.
type example struct {
	match []string
	miss  []string
}

// examples has an entry for every curated record, keyed by slug.
var examples = map[string]example{
	// memory
	"cuda-out-of-memory": {
		match: []string{
			tb("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free."),
			"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total capacity; 22.61 GiB already allocated)",
		},
		miss: []string{hdr("CUDA out of memory is not expected with --mem-fraction-static 0.7")},
	},
	"cuda-error-out-of-memory": {
		match: []string{tb("RuntimeError: CUDA error: out of memory"), "RuntimeError: CUDA error: out of memory"},
		miss:  []string{"RuntimeError: CUDA error: an illegal memory access was encountered"},
	},
	"not-enough-memory-mem-fraction-static": {
		match: []string{
			tb("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: self.server_args.mem_fraction_static=0.5"),
			rawTB("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."),
		},
		miss: []string{mainLog("server_args=ServerArgs(mem_fraction_static=0.88, chunked_prefill_size=8192)")},
	},
	"prefill-out-of-memory": {
		match: []string{
			hdr("Prefill out of memory. Try to lower your batch size.\nTry to allocate 8192 tokens.\nAvailable tokens: 120, evictable: 0"),
			tb("RuntimeError: Prefill out of memory. Try to lower your batch size.\nTry to allocate 8192 tokens."),
		},
		miss: []string{hdr("Prefill batch, #new-seq: 1, #new-token: 8192, #cached-token: 0, token usage: 0.98, #running-req: 30, #queue-req: 2")},
	},
	"decode-out-of-memory": {
		match: []string{
			hdr("Decode out of memory. Try to lower your batch size.\nTry to allocate 64 tokens."),
			tb("RuntimeError: Decode out of memory. Try to lower your batch size."),
		},
		miss: []string{hdr("Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.4 -> 0.6")},
	},
	"kv-cache-pool-full-retract": {
		match: []string{
			hdr("KV cache pool is full. Retract requests. #retracted_reqs: 3, #new_tokens_gained: 1536, #new_token_ratio: 0.3621 -> 0.5000"),
			"026-05-28 00:11:09.816 DP0 TP0 EP0] KV cache pool is full. Retract requests. #retracted_reqs: 12, #new_tokens_gained: 4096, #new_token_ratio: 0.1 -> 0.2",
		},
		miss: []string{hdr("KV Cache is allocated. dtype: torch.bfloat16, #tokens: 455680, K size: 26.07 GB, V size: 26.07 GB")},
	},
	"decode-out-of-memory-happened-legacy": {
		match: []string{
			"[2025-03-02 10:01:22 TP0] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.4000 -> 0.6000",
			"(SGLangEngine pid=4412) [2025-03-02 10:01:22 TP3] Decode out of memory happened. #retracted_reqs: 17, #new_token_ratio: 0.1 -> 0.3",
		},
		miss: []string{hdr("Decode out of memory. Try to lower your batch size.")},
	},
	"alloc-req-slots-out-of-memory": {
		match: []string{
			tb("RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`. self.req_to_token_pool.available_size()=0, num_reqs=4"),
			hdr("alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`."),
		},
		miss: []string{hdr("max_total_num_tokens=455680, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=2048")},
	},
	"scheduler-killed-by-oom-killer": {
		match: []string{
			rawTB("RuntimeError: Rank 0 scheduler died during initialization (exit code: -9). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer. Run `dmesg -T | grep -i oom` to check."),
			"RuntimeError: Rank 12 scheduler died during initialization (exit code: -9).",
		},
		miss: []string{"RuntimeError: Rank 0 scheduler died during initialization (exit code: -11)."},
	},
	"scheduler-died-during-initialization": {
		match: []string{
			rawTB("RuntimeError: Rank 3 scheduler died during initialization (exit code: -11)."),
			"RuntimeError: Rank 0 scheduler died during initialization (exit code: 1).",
		},
		miss: []string{mainLog("Rank 0 scheduler is dead. Please check if there are relevant logs.")},
	},
	"npu-out-of-memory": {
		match: []string{
			"[383554] [2026-07-01 09:31:38:047] torch_npu.memory: [ERROR] [383554] NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 57.10 GiB already allocated)",
			tb("RuntimeError: NPU out of memory. Tried to allocate 512.00 MiB (NPU 3; 29.50 GiB total capacity)"),
		},
		miss: []string{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."},
	},
	// GPU faults
	"cuda-illegal-memory-access": {
		match: []string{
			tb("RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1"),
			"torch.AcceleratorError: CUDA error: an illegal memory access was encountered",
			"gpu-7:1234:1300 [7] include/alloc.h:142 NCCL WARN Cuda failure 'an illegal memory access was encountered'",
		},
		miss: []string{"RuntimeError: CUDA error: an illegal instruction was encountered"},
	},
	"cuda-device-side-assert": {
		match: []string{
			tb("RuntimeError: CUDA error: device-side assert triggered"),
			"RuntimeError: CUDA error: device-side assert triggered",
			"CUDA Error: device-side assert triggered (710) /tmp/flashinfer/include/flashinfer/attention/decode.cuh: line 749 at function cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_size)",
		},
		miss: []string{"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."},
	},
	"cuda-probability-tensor-inf-nan": {
		match: []string{
			tb("RuntimeError: probability tensor contains either `inf`, `nan` or element < 0"),
			"RuntimeError: probability tensor contains either `inf`, `nan` or element < 0",
		},
		miss: []string{"RuntimeError: CUDA error: device-side assert triggered"},
	},
	"cuda-kernel-assertion-failed": {
		match: []string{
			"../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [4,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
			"/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectLargeIndex: block: [311,0,0], thread: [64,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
		},
		miss: []string{"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."},
	},
	"cuda-driver-version-insufficient": {
		match: []string{
			rawTB("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). CUDA driver version is insufficient for CUDA runtime version"),
			tb("RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"),
		},
		miss: []string{"UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040)."},
	},
	"no-cuda-gpus-available": {
		match: []string{rawTB("RuntimeError: No CUDA GPUs are available"), tb("RuntimeError: No CUDA GPUs are available")},
		miss:  []string{mainLog("CUDA GPUs are available: 8")},
	},
	"cuda-no-kernel-image": {
		match: []string{
			tb("RuntimeError: CUDA error: no kernel image is available for execution on the device"),
			"torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device",
		},
		miss: []string{"RuntimeError: CUDA error: invalid device function"},
	},
	"cublas-status-error": {
		match: []string{
			tb("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`"),
			"RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
		},
		miss: []string{mainLog("Using CUBLAS_STATUS_SUCCESS as default")},
	},
	"rocm-memory-access-fault": {
		match: []string{
			"Memory access fault by GPU node-2 (Agent handle: 0x55d1c2f0a6b0) on address 0x7f3b2c000000. Reason: Page not present or supervisor privilege.",
			"sglang-1  | Memory access fault by GPU node-9 (Agent handle: 0xa1b2) on address (nil). Reason: Unknown.",
		},
		miss: []string{"Memory access fault detected in test harness"},
	},
	"fatal-python-error-segfault": {
		match: []string{
			"Fatal Python error: Segmentation fault\n\nThread 0x00007f1c2effd640 (most recent call first):\n  File \"/usr/lib/python3.12/threading.py\", line 355 in wait",
			"[rank3]: Fatal Python error: Segmentation fault",
		},
		miss: []string{"Segmentation fault (core dumped)"},
	},
	"fatal-python-error-aborted": {
		match: []string{
			"Fatal Python error: Aborted\n\nCurrent thread 0x00007f8a4bfff640 (most recent call first):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1021 in event_loop_overlap",
			"Fatal Python error: Aborted",
		},
		miss: []string{"Aborted (core dumped)"},
	},
	"npu-function-error": {
		match: []string{
			tb("RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467 NPU function error: call aclnnMatmul failed, error code is 561103"),
			"RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 NPU function error: call aclnnIndexPutImpl failed, error code is 507035",
		},
		miss: []string{"[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100 PTA call acl api failed."},
	},
	// distributed
	"nccl-unhandled-system-error": {
		match: []string{
			tb("RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"),
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
		},
		miss: []string{"RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)"},
	},
	"nccl-unhandled-cuda-error": {
		match: []string{
			tb("RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)"),
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
		},
		miss: []string{"RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"},
	},
	"nccl-remote-process-exited": {
		match: []string{
			tb("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5"),
			"RuntimeError: NCCL error: remote process exited or there was a network error",
		},
		miss: []string{mainLog("remote process started")},
	},
	"nccl-watchdog-collective-timeout": {
		match: []string{
			"[rank1]:[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600008 milliseconds before timing out.",
			"  what():  [PG ID 0 PG GUID 0(default_pg) Rank 5] Process group watchdog thread terminated with exception: [Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=210, OpType=_ALLGATHER_BASE, NumelIn=1024, NumelOut=8192, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.",
		},
		miss: []string{"[rank1]:[W825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] [PG ID 0 PG GUID 0 Rank 1] Watchdog thread started"},
	},
	"c10d-watchdog-thread-terminated": {
		match: []string{
			"  what():  [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: NCCL error: unhandled cuda error",
			"[rank3]:[E825 10:26:44.100000000 ProcessGroupNCCL.cpp:1595] [PG 3 Rank 5] Process group watchdog thread terminated with exception: [Rank 5] Watchdog caught collective operation timeout",
		},
		miss: []string{"Process group watchdog thread started"},
	},
	"c10d-client-socket-timeout": {
		match: []string{
			rawTB("torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (10.0.0.1, 5000)."),
			tb("torch.distributed.DistNetworkError: The client socket has timed out after 900s while trying to connect to (sglang-0.sglang, 20000)."),
		},
		miss: []string{"The client socket has connected to (10.0.0.1, 5000)."},
	},
	"c10d-server-socket-address-in-use": {
		match: []string{
			tb("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use"),
			"[W1101 10:00:00.000000000 socket.cpp:697] [c10d] The server socket has failed to listen on any local network address. port: 5000, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use",
		},
		miss: []string{"The server socket has failed to listen on any local network address. port: 5000, useIpv6: 0, code: -13, name: EACCES, message: permission denied"},
	},
	"address-already-in-use": {
		match: []string{
			"[2026-05-28 00:11:09] ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use",
			rawTB("OSError: [Errno 98] Address already in use"),
		},
		miss: []string{"OSError: [Errno 99] Cannot assign requested address"},
	},
	"c10d-heartbeat-monitor-timeout": {
		match: []string{
			"[rank0]:[E1101 10:00:00.000000000 ProcessGroupNCCL.cpp:1423] [PG ID 0 PG GUID 0(default_pg) Rank 0] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=2",
			"[PG ID 0 PG GUID 0 Rank 7] Heartbeat monitor timed out! Process will be terminated after dumping debug info.",
			"[rank144]:[F ProcessGroupNCCL.cpp:1169] [PG 0 Rank 144] [PG 0 Rank 144] ProcessGroupNCCL's watchdog got stuck for 600 seconds without making progress in monitoring enqueued collectives.",
		},
		miss: []string{"[PG ID 0 PG GUID 0 Rank 7] Heartbeat monitor started"},
	},
	"c10d-tcpstore-should-dump-failed": {
		match: []string{
			"[rank1]:[W1101 10:00:00.000000000 ProcessGroupNCCL.cpp:1250] [PG ID 0 PG GUID 0 Rank 1] Failed to check the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Connection reset by peer",
			"[PG ID 0 PG GUID 0(default_pg) Rank 9] Failed to check the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Broken pipe",
		},
		miss: []string{"Failed to check the health of TCPStore"},
	},
	"gloo-enforce-not-met": {
		match: []string{
			"terminate called after throwing an instance of 'gloo::EnforceNotMet'\n  what():  [enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. 4 vs 3",
			"(RolloutWorker pid=991) terminate called after throwing an instance of 'gloo::EnforceNotMet'",
		},
		miss: []string{"terminate called after throwing an instance of 'c10::DistBackendError'"},
	},
	"c10d-store-wait-for-clients-timeout": {
		match: []string{
			rawTB("torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/2 clients joined."),
			tb("torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 15/16 clients joined."),
		},
		miss: []string{"Waiting for clients: 1/2 clients joined."},
	},
	// serving lifecycle
	"scheduler-hit-an-exception": {
		match: []string{
			tb("ValueError: boom"),
			"026-05-28 00:11:09.816 DP0 TP0 EP0] Scheduler hit an exception: Traceback (most recent call last):",
		},
		miss: []string{hdr("Scheduler started. Watching for exceptions.")},
	},
	"detokenizer-manager-hit-an-exception": {
		match: []string{
			mainLog("DetokenizerManager hit an exception: Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/detokenizer_manager.py\", line 290, in run_detokenizer_process\nKeyError: 'rid-1'"),
			"[2025-07-02 07:41:59] DetokenizerManager hit an exception: Traceback (most recent call last):",
		},
		miss: []string{mainLog("TokenizerManager hit an exception: Traceback (most recent call last):")},
	},
	"tokenizer-manager-hit-an-exception": {
		match: []string{
			mainLog("TokenizerManager hit an exception: Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/tokenizer_manager.py\", line 2990, in print_exception_wrapper\nzmq.error.ZMQError: Socket operation on non-socket"),
			"TokenizerManager hit an exception: Traceback (most recent call last):",
		},
		miss: []string{mainLog("DetokenizerManager hit an exception: Traceback (most recent call last):")},
	},
	"data-parallel-controller-hit-an-exception": {
		match: []string{
			mainLog("DataParallelController hit an exception: Traceback (most recent call last):\nRuntimeError: Initialization failed. Please see the error messages above."),
			"[2025-07-02 07:41:59] DataParallelController hit an exception: Traceback (most recent call last):",
		},
		miss: []string{mainLog("Scheduler or DataParallelController 4211 terminated with -9")},
	},
	"multi-tokenizer-router-hit-an-exception": {
		match: []string{
			mainLog("MultiTokenizerRouter hit an exception: Traceback (most recent call last):"),
			mainLog("MultiDetokenizerRouter hit an exception: Traceback (most recent call last):"),
		},
		miss: []string{mainLog("MultiTokenizerRouter started with 4 workers")},
	},
	"legacy-subprocess-exception": {
		match: []string{
			"[2024-08-01 12:00:00 TP0] Exception in ModelTpServer:\nTraceback (most recent call last):",
			"[2025-02-01 12:00:00 TP1] TpModelWorkerClient hit an exception: Traceback (most recent call last):",
			"Exception in ModelRpcClient:",
		},
		miss: []string{"[2024-08-01 12:00:00 TP0] ModelTpServer started"},
	},
	"scheduler-or-dp-controller-terminated": {
		match: []string{mainLog("Scheduler or DataParallelController 4211 terminated with -9"), "Scheduler or DataParallelController 77 terminated with 1"},
		miss:  []string{mainLog("Scheduler or DataParallelController 4211 started")},
	},
	"received-sigquit-from-child": {
		match: []string{
			mainLog("Received sigquit from a child process. It usually means the child failed."),
			"[2025-02-11 03:04:05] Received sigquit from a child proces. It usually means the child failed.",
		},
		miss: []string{mainLog("SIGQUIT received. signum=None, frame=None. It usually means one child failed.")},
	},
	"sigquit-received-child-failed": {
		match: []string{
			mainLog("SIGQUIT received. signum=None, frame=None. It usually means one child failed."),
			"SIGQUIT received. signum=3, frame=<frame at 0x7f, file 'x.py', line 1, code f>. It usually means one child failed.",
		},
		miss: []string{mainLog("Received sigquit from a child process. It usually means the child failed.")},
	},
	"subprocess-crashed-with-exit-code": {
		match: []string{
			mainLog("Subprocess scheduler_0 (pid=4187) crashed with exit code -9. Triggering SIGQUIT for cleanup..."),
			"Subprocess detokenizer (pid=77) crashed with exit code 1. Triggering SIGQUIT for cleanup...",
		},
		miss: []string{mainLog("Subprocess scheduler_0 (pid=4187) started")},
	},
	"watchdog-timeout": {
		match: []string{
			hdr("Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)"),
			hdr("Scheduler watchdog timeout (self.watchdog_timeout=600.0, self.soft=True)"),
		},
		miss: []string{"[2025-03-02 10:01:22 TP0] Watchdog timeout (self.watchdog_timeout=300)"},
	},
	"watchdog-timeout-legacy": {
		match: []string{
			"[2025-03-02 10:01:22 TP0] Watchdog timeout (self.watchdog_timeout=300)",
			"[2024-11-02 10:01:22 DP1 TP3] Watchdog timeout (self.watchdog_timeout=600.0)",
		},
		miss: []string{hdr("Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)")},
	},
	"health-check-failed-detokenizer": {
		match: []string{
			mainLog("Health check failed. Server couldn't get a response from detokenizer for last 20 seconds. tic start time: 00:10:49. last_heartbeat time: 00:10:31"),
			"Health check failed. Server couldn't get a response from detokenizer for last 60 seconds.",
		},
		miss: []string{`[2026-05-28 00:11:09] INFO:     127.0.0.1:51234 - "GET /health HTTP/1.1" 503 Service Unavailable`},
	},
	"initialization-failed-warmup-error": {
		match: []string{
			mainLog("Initialization failed. warmup error: Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/entrypoints/http_server.py\", line 2000, in _execute_server_warmup\nAssertionError: {'error': 'chat template'}"),
			"Initialization failed. warmup error: ",
		},
		miss: []string{rawTB("RuntimeError: Initialization failed. Please see the error messages above.")},
	},
	"initialization-failed-see-above": {
		match: []string{
			rawTB("RuntimeError: Initialization failed. Please see the error messages above."),
			mainLog("DataParallelController hit an exception: Traceback (most recent call last):\nRuntimeError: Initialization failed. Please see the error messages above."),
		},
		miss: []string{mainLog("Initialization failed. warmup error: timeout")},
	},
	"rank-scheduler-is-dead": {
		match: []string{
			"[12-16 14:27:08] Rank 0 scheduler is dead. Please check if there are relevant logs.",
			mainLog("Rank 3 scheduler is dead. Please check if there are relevant logs."),
		},
		miss: []string{rawTB("RuntimeError: Rank 0 scheduler died during initialization (exit code: -9).")},
	},
	"exception-in-asgi-application": {
		match: []string{
			"[2025-06-11 06:19:30] ERROR:    Exception in ASGI application\nTraceback (most recent call last):",
			"ERROR:    Exception in ASGI application",
		},
		miss: []string{`[2025-06-11 06:19:30] INFO:     127.0.0.1:40192 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error`},
	},
	"http-server-error": {
		match: []string{
			mainLog("[http_server] Error: The input (40000 tokens) is longer than the model's context length (32768 tokens)."),
			"[http_server] Error: Invalid sampling parameters",
		},
		miss: []string{mainLog("http_server Error counter reset")},
	},
	"error-in-request": {
		match: []string{
			mainLog("Error in request: 'NoneType' object has no attribute 'apply_chat_template'\nTraceback (most recent call last):"),
			"[2025-08-02 19:24:20] Error in request: list index out of range",
		},
		miss: []string{mainLog("Receive: obj=GenerateReqInput(rid='error-in-request-1')")},
	},
	"weights-not-ready": {
		match: []string{mainLog("Weights are not ready after waiting 600 seconds"), "Weights are not ready after waiting 30 seconds"},
		miss:  []string{mainLog("Weights are ready.")},
	},
	// model and build
	"model-architecture-not-supported": {
		match: []string{
			rawTB("ValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM'])"),
			tb("ValueError: Model architectures ['Qwen9ForCausalLM', 'Qwen9Model'] are not supported for now."),
		},
		miss: []string{mainLog("Model architectures ['LlamaForCausalLM'] are supported.")},
	},
	"weight-not-found-in-params-dict": {
		match: []string{
			hdr("Parameter model.layers.61.eh_proj.weight not found in params_dict"),
			"[2025-08-28 15:53:28 TP10] model.layers.3.mlp.experts.w13_weight_scale not found in params_dict",
		},
		miss: []string{hdr("Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=40.12 GB, mem usage=36.54 GB.")},
	},
	"cannot-load-tokenizer": {
		match: []string{
			rawTB("OSError: Can't load tokenizer for 'meta-llama/Llama-3.1-8B-Instruct'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name."),
			"OSError: Can't load tokenizer for '/models/qwen'.",
		},
		miss: []string{"OSError: Can't load config for '/models/qwen'."},
	},
	"chat-template-not-set": {
		match: []string{
			mainLog("Error in request: Cannot use chat template functions because tokenizer.chat_template is not set and no template argument was passed! For information about writing templates"),
			"ValueError: Cannot use apply_chat_template() because tokenizer.chat_template is not set and no template argument was passed!",
		},
		miss: []string{mainLog("Use chat template for the OpenAI-compatible API server: chatml")},
	},
	"hf-gated-repo": {
		match: []string{
			rawTB("huggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-6a)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-8B-Instruct is restricted and you are not in the authorized list."),
			"Cannot access gated repo for url https://huggingface.co/google/gemma-3-27b-it/resolve/main/config.json.",
			rawTB("OSError: You are trying to access a gated repo.\nMake sure to have access to it at https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct."),
		},
		miss: []string{"Cannot access repository for url https://huggingface.co/x"},
	},
	"hf-unauthorized-401": {
		match: []string{
			"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/api/models/org/private-model/revision/main",
			rawTB("huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-6a)"),
		},
		miss: []string{"401 Client Error: Unauthorized for url: https://api.example.com/v1"},
	},
	"hf-repository-not-found": {
		match: []string{
			"Repository Not Found for url: https://huggingface.co/api/models/Qwen/Qwen9-7B/revision/main.",
			rawTB("huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-6a)\n\nRepository Not Found for url: https://huggingface.co/api/models/x/y/revision/main."),
		},
		miss: []string{"Repository Not Found for url: https://gitlab.example.com/x"},
	},
	"no-module-sgl-kernel": {
		match: []string{rawTB("ModuleNotFoundError: No module named 'sgl_kernel'"), "ModuleNotFoundError: No module named 'sgl_kernel.flash_attn'"},
		miss:  []string{"ModuleNotFoundError: No module named 'sglang'"},
	},
	"no-module-flashinfer": {
		match: []string{tb("ModuleNotFoundError: No module named 'flashinfer'"), "ModuleNotFoundError: No module named 'flashinfer.jit'"},
		miss:  []string{"ModuleNotFoundError: No module named 'flash_attn'"},
	},
	"flashinfer-ninja-build-failed": {
		match: []string{
			tb("subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/jit']' returned non-zero exit status 1.\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\nRuntimeError: Ninja build failed."),
			"RuntimeError: Ninja build failed. Ninja output:",
			"(SGLangEngine pid=952) subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/0.2.5/80/cached_ops', '-f', 'build.ninja']' returned non-zero exit status 1.",
		},
		miss: []string{"ninja: no work to do."},
	},
	"ninja-build-stopped": {
		match: []string{"ninja: build stopped: subcommand failed.", "[rank0]: ninja: build stopped: subcommand failed."},
		miss:  []string{"ninja: build stopped: interrupted by user."},
	},
	"nvcc-compilation-errors": {
		match: []string{
			`100 errors detected in the compilation of "/root/.cache/flashinfer/jit/batch_prefill.cu".`,
			`1 error detected in the compilation of "csrc/norm.cu".`,
		},
		miss: []string{"0 warnings detected in the build."},
	},
	"triton-out-of-resources": {
		match: []string{
			tb("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456, Hardware limit: 101376. Reducing block sizes or `num_stages` may help."),
			"triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536.",
		},
		miss: []string{"out of resource: registers"},
	},
	"capture-cuda-graph-failed": {
		match: []string{
			tb("Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 1.00 GiB.\nPossible solutions:\n1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)"),
			"Exception: Capture cuda graph failed: CUDA error: operation not permitted when stream is capturing",
		},
		miss: []string{hdr("Capture cuda graph end. Time elapsed: 12.31 s. mem usage=2.10 GB. avail mem=10.22 GB.")},
	},
	"torch-dynamo-backend-compiler-failed": {
		match: []string{
			tb("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nCompilationError: at 12:4:"),
			"torch._dynamo.exc.BackendCompilerFailed: backend='compile_fn' raised:",
		},
		miss: []string{hdr("Compiling with backend='inductor'")},
	},
	"torch-dynamo-internal-error": {
		match: []string{
			tb("torch._dynamo.exc.InternalTorchDynamoError: AttributeError: 'NoneType' object has no attribute 'shape'"),
			"torch._dynamo.exc.InternalTorchDynamoError: KeyError: 'x'",
		},
		miss: []string{"torch._dynamo.exc.Unsupported: generator"},
	},
	// disaggregation
	"disagg-decode-transfer-failed": {
		match: []string{
			hdr("Decode transfer failed for request rank=0 req.rid='a1b2' req.bootstrap_room=8812 with exception KVTransferError(bootstrap_room=8812): Request 8812 timed out"),
			hdr("Decode transfer failed for request rank=7 req.rid='x' req.bootstrap_room=1 with exception timeout"),
		},
		miss: []string{hdr("Decode transfer done for request rid=a1b2")},
	},
	"mooncake-transfer-engine-init-failed": {
		match: []string{
			hdr("Mooncake Transfer Engine initialization failed."),
			tb("RuntimeError: Mooncake Transfer Engine initialization failed."),
		},
		miss: []string{hdr("Mooncake Transfer Engine initialized at 10.0.0.1:15432")},
	},
	// host
	"no-space-left-on-device": {
		match: []string{rawTB("OSError: [Errno 28] No space left on device: '/root/.cache/huggingface/hub/models--x'"), "RuntimeError: unable to write to file </torch_1234_0>: No space left on device (28)"},
		miss:  []string{mainLog("Disk space left on device: 120 GB")},
	},
	"too-many-open-files": {
		match: []string{tb("OSError: [Errno 24] Too many open files"), "[2026-05-28 00:11:09] ERROR:    [Errno 24] Too many open files"},
		miss:  []string{"Too many open requests"},
	},
	// additions
	"memory-leak-detected": {
		match: []string{
			tb("ValueError: token_to_kv_pool_allocator memory leak detected! available_size=1000, evictable_size=20, self.max_total_num_tokens=1100"),
			hdr("req_to_token_pool memory leak detected!available_size=10, total_size=12"),
		},
		miss: []string{hdr("No memory leak detected after 100 iterations")},
	},
	"ignore-import-error-when-loading": {
		match: []string{
			mainLog("Ignore import error when loading sglang.srt.models.mllama4: No module named 'timm'"),
			"[2024-12-10 21:23:39] Ignore import error when loading sglang.srt.models.qwen2_vl. cannot import name 'Qwen2VLConfig'",
		},
		miss: []string{mainLog("Import error when loading config")},
	},
	"pyspy-failed": {
		match: []string{
			hdr("Pyspy failed (py-spy dump --pid 4187). Error: Permission denied (os error 13)"),
			hdr("Pyspy failed to dump PID 4187. Error: [Errno 2] No such file or directory: 'py-spy'"),
		},
		miss: []string{hdr("Pyspy dump for PID 4187 (py-spy dump --pid 4187):")},
	},
	"cuda-unspecified-launch-failure": {
		match: []string{tb("RuntimeError: CUDA error: unspecified launch failure"), "torch.AcceleratorError: CUDA error: unspecified launch failure"},
		miss:  []string{"RuntimeError: CUDA error: launch timeout"},
	},
	"cuda-misaligned-address": {
		match: []string{tb("RuntimeError: CUDA error: misaligned address"), "RuntimeError: CUDA error: misaligned address\nCUDA kernel errors might be asynchronously reported"},
		miss:  []string{"RuntimeError: CUDA error: an illegal memory access was encountered"},
	},
	"cuda-uncorrectable-ecc-error": {
		match: []string{tb("RuntimeError: CUDA error: uncorrectable ECC error encountered"), "torch.AcceleratorError: CUDA error: uncorrectable ECC error encountered"},
		miss:  []string{mainLog("ECC errors: 0 corrected, 0 uncorrected")},
	},
	"nccl-invalid-usage": {
		match: []string{
			tb("RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)"),
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5",
		},
		miss: []string{"RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"},
	},
	"hf-offline-cache-miss": {
		match: []string{
			rawTB("OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files."),
			"OSError: We couldn't connect to 'https://huggingface.co' to load this file, and couldn't find it in the cached files and it looks like Qwen/Qwen2.5-7B is not the path to a directory containing a file named config.json.",
		},
		miss: []string{"We couldn't connect to the metrics endpoint"},
	},
	"trust-remote-code-required": {
		match: []string{
			rawTB("ValueError: The repository for internlm/internlm2-chat-7b contains custom code which must be executed to correctly load the model. You can inspect the repository content at https://hf.co/internlm/internlm2-chat-7b.\nPlease pass the argument `trust_remote_code=True` to allow custom code to be run."),
			"ValueError: The repository for /models/custom contains custom code which must be executed to correctly load the model.",
		},
		miss: []string{mainLog("server_args=ServerArgs(trust_remote_code=True)")},
	},
	"input-longer-than-context-length": {
		match: []string{
			mainLog("[http_server] Error: The input (40000 tokens) is longer than the model's context length (32768 tokens)."),
			"ValueError: The input (131073 tokens) is longer than the model's context length (131072 tokens).",
		},
		miss: []string{mainLog("The input (100 tokens) is shorter than the model's context length (32768 tokens).")},
	},
}

// seedExamples are lines the shipped seed record must keep matching.
var seedExamples = []string{
	"RuntimeError: Ascend Transfer Engine initialization failed.",
	hdr("Ascend Transfer Engine initialization failed."),
}

// embedded loads the catalog compiled into the binary through the patterns
// API, failing on any load problem, and returns the records of one file.
func embedded(t *testing.T, file string) []patterns.Record {
	t.Helper()
	recs, probs := patterns.Default()
	for _, p := range probs {
		t.Errorf("embedded catalog: %v", p)
	}
	var out []patterns.Record
	for _, r := range recs {
		if r.Origin.File == patterns.EmbeddedPrefix+file {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		t.Fatalf("embedded catalog has no records from %s", file)
	}
	return out
}

func curated(t *testing.T) []patterns.Record { return embedded(t, "sglang.jsonl") }

func seed(t *testing.T) []patterns.Record { return embedded(t, "ascend-transfer-engine.jsonl") }

func compile(t *testing.T, r patterns.Record) *regexp2.Regexp {
	t.Helper()
	re, err := patterns.Compile(r.MessagePattern)
	if err != nil {
		t.Fatalf("%s (%s): compile %q: %v", r.Slug, r.Origin, r.MessagePattern, err)
	}
	return re
}

func matches(t *testing.T, re *regexp2.Regexp, text string) bool {
	t.Helper()
	ok, err := re.MatchString(text)
	if err != nil {
		t.Fatalf("match %q: %v", re.String(), err)
	}
	return ok
}

// subjects turns example text into what the pipeline would give the
// matcher: lines through the real entry assembler, each entry's text and
// exception chain as a Subject.
func subjects(text string) []matcher.Subject {
	a := entry.NewAssembler(entry.Options{})
	var ents []entry.Entry
	for i, line := range strings.Split(text, "\n") {
		ents = append(ents, a.Push(entry.Line{Text: line, Source: "example", Stream: "stderr", Offset: int64(i)})...)
	}
	ents = append(ents, a.Flush()...)
	subs := make([]matcher.Subject, 0, len(ents))
	for _, e := range ents {
		s := matcher.Subject{Text: e.Text}
		if e.Traceback != nil {
			for _, l := range e.Traceback.Links {
				s.ExceptionTypes = append(s.ExceptionTypes, l.Type)
			}
		}
		subs = append(subs, s)
	}
	return subs
}

// hitsOf matches every subject of text and returns the hits of all, each
// entry's hits ranked best first.
func hitsOf(t *testing.T, m *matcher.Matcher, text string) [][]matcher.Hit {
	t.Helper()
	var all [][]matcher.Hit
	for _, s := range subjects(text) {
		hits, errs := m.Match(s)
		for _, e := range errs {
			t.Errorf("pattern error on %q: %v", s.Text, e.Err)
		}
		all = append(all, hits)
	}
	return all
}

func hasRecord(hits [][]matcher.Hit, id string) bool {
	for _, hs := range hits {
		for _, h := range hs {
			if h.Record.ID == id {
				return true
			}
		}
	}
	return false
}

// compileCatalog compiles the whole embedded catalog with the real matcher
// (prefilter included).
func compileCatalog(t *testing.T) *matcher.Matcher {
	t.Helper()
	recs, probs := patterns.Default()
	m, cprobs := matcher.Compile(recs, matcher.Options{})
	for _, p := range append(probs, cprobs...) {
		t.Errorf("%v", p)
	}
	return m
}

// TestExamples feeds each record's example lines through the entry
// assembler and the compiled catalog: the record must be among the hits of
// every matching example and of none of its near-misses.
func TestExamples(t *testing.T) {
	m := compileCatalog(t)
	seen := map[string]bool{}
	for _, r := range curated(t) {
		t.Run(r.Slug, func(t *testing.T) {
			ex, ok := examples[r.Slug]
			if !ok {
				t.Fatalf("no examples for curated record %s", r.Slug)
			}
			seen[r.Slug] = true
			if len(ex.match) < 2 || len(ex.miss) < 1 {
				t.Errorf("want at least 2 matching lines and 1 near-miss, got %d and %d", len(ex.match), len(ex.miss))
			}
			re := compile(t, r)
			for _, text := range ex.match {
				if !matches(t, re, text) {
					t.Errorf("pattern %q does not match the example text\n%s", r.MessagePattern, text)
				}
				if !hasRecord(hitsOf(t, m, text), r.ID) {
					t.Errorf("matcher does not report %s for the entries of\n%s", r.Slug, text)
				}
			}
			for _, text := range ex.miss {
				if matches(t, re, text) || hasRecord(hitsOf(t, m, text), r.ID) {
					t.Errorf("pattern %q matches the near-miss\n%s", r.MessagePattern, text)
				}
			}
		})
	}
	for slug := range examples {
		if !seen[slug] {
			t.Errorf("examples for %s, which is not in the catalog", slug)
		}
	}
}

// TestRanking checks that when the generic "Scheduler hit an exception"
// record and a specific record both match one traceback entry, the
// specific one ranks first: its errorClass agrees with the exception type
// or its literal text is longer.
func TestRanking(t *testing.T) {
	m := compileCatalog(t)
	tests := []struct {
		name string
		text string
		want string // slug of the best hit
	}{
		{"torch OOM", tb("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB"), "cuda-out-of-memory"},
		{"prefill OOM", tb("RuntimeError: Prefill out of memory. Try to lower your batch size.\nTry to allocate 8192 tokens."), "prefill-out-of-memory"},
		{"NCCL system error", tb("RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"), "nccl-unhandled-system-error"},
		{"illegal memory access", tb("RuntimeError: CUDA error: an illegal memory access was encountered"), "cuda-illegal-memory-access"},
		{"triton", tb("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456, Hardware limit: 101376."), "triton-out-of-resources"},
		{"transfer", tb("RuntimeError: Mooncake Transfer Engine initialization failed."), "mooncake-transfer-engine-init-failed"},
		{"seed record", tb("RuntimeError: Ascend Transfer Engine initialization failed."), "ascend-transfer-engine-initialization-failed"},
		{"oom killer beats generic init death", rawTB("RuntimeError: Rank 0 scheduler died during initialization (exit code: -9). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer."), "scheduler-killed-by-oom-killer"},
		{"generic wrapper alone", tb("ValueError: something nobody catalogued"), "scheduler-hit-an-exception"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			subs := subjects(tt.text)
			if len(subs) != 1 {
				t.Fatalf("want the traceback as one entry, got %d", len(subs))
			}
			if tt.want != "scheduler-hit-an-exception" && len(subs[0].ExceptionTypes) == 0 {
				t.Errorf("entry has no exception types: %+v", subs[0])
			}
			hits, errs := m.Match(subs[0])
			if len(errs) > 0 {
				t.Fatalf("pattern errors: %v", errs)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.Record.Slug)
			}
			if len(got) == 0 || got[0] != tt.want {
				t.Fatalf("hits ranked %v, want %s first", got, tt.want)
			}
			if strings.HasPrefix(tt.text, header+"Scheduler hit") && tt.want != "scheduler-hit-an-exception" &&
				!slices.Contains(got, "scheduler-hit-an-exception") {
				t.Errorf("generic record missing from the secondary hits %v", got)
			}
		})
	}
}

// TestLint runs the catalog linter over the whole embedded catalog:
// duplicate ids and catastrophic backtracking are errors, ambiguous
// repetition a warning; the shipped catalog has neither.
func TestLint(t *testing.T) {
	recs, _ := patterns.Default()
	for _, p := range patterns.Lint(recs, patterns.LintOptions{}) {
		t.Errorf("%v", p)
	}
}

func TestSeedStillMatches(t *testing.T) {
	recs := seed(t)
	if len(recs) != 1 || recs[0].ID != seedID {
		t.Fatalf("seed catalog: want one record %s, got %d records", seedID, len(recs))
	}
	re := compile(t, recs[0])
	for _, line := range seedExamples {
		if !matches(t, re, line) {
			t.Errorf("seed pattern %q does not match %q", recs[0].MessagePattern, line)
		}
	}
}

var (
	idRE   = regexp.MustCompile(`^[0-9a-f]{16}$`)
	slugRE = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	repoRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
)

// requiredKeys are the keys every curated line carries, as in the seed.
var requiredKeys = []string{
	"id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType", "errorClass",
	"httpStatus", "severity", "filePath", "lineNumber", "sourceCode", "sourceCodeStart", "sourceCodeEnd",
	"githubUrl", "documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix",
	"handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips", "tags",
	"backgroundTag", "analyzedSha", "analyzedAt", "schemaVersion",
}

func TestCompleteness(t *testing.T) {
	recs := curated(t)
	if len(recs) < 60 {
		t.Errorf("curated catalog has %d records, want at least 60", len(recs))
	}
	data, err := os.ReadFile("sglang.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(recs) {
		t.Fatalf("%d lines but %d records", len(lines), len(recs))
	}
	ids := map[string]string{seedID: "the seed record"}
	slugs := map[string]string{"ascend-transfer-engine-initialization-failed": "the seed record"}
	for i, r := range recs {
		t.Run(r.Slug, func(t *testing.T) {
			var raw map[string]json.RawMessage
			if err := json.Unmarshal([]byte(lines[i]), &raw); err != nil {
				t.Fatal(err)
			}
			for _, k := range requiredKeys {
				if _, ok := raw[k]; !ok {
					t.Errorf("key %q missing", k)
				}
			}
			if !idRE.MatchString(r.ID) {
				t.Errorf("id %q is not 16 hex chars", r.ID)
			}
			if other, dup := ids[r.ID]; dup {
				t.Errorf("id %s also used by %s", r.ID, other)
			}
			ids[r.ID] = r.Slug
			if !slugRE.MatchString(r.Slug) {
				t.Errorf("slug %q is not kebab-case", r.Slug)
			}
			if other, dup := slugs[r.Slug]; dup {
				t.Errorf("slug also used by %s", other)
			}
			slugs[r.Slug] = r.Slug
			if !repoRE.MatchString(r.Repo) {
				t.Errorf("repo %q is not OWNER/NAME", r.Repo)
			}
			if _, err := patterns.ParseSeverity(string(r.Severity)); err != nil || r.Severity.Rank() == 0 {
				t.Errorf("severity %q: not one of info, warning, error, critical", r.Severity)
			}
			if !slices.Contains(handlingStrategies, r.HandlingStrategy) {
				t.Errorf("handlingStrategy %q not in %v", r.HandlingStrategy, handlingStrategies)
			}
			if r.ErrorType != "exception" && r.ErrorType != "log" {
				t.Errorf("errorType %q, want exception or log", r.ErrorType)
			}
			if r.ErrorType == "exception" && r.ErrorClass == "" {
				t.Errorf("exception record without errorClass")
			}
			for field, v := range map[string]string{
				"errorMessage": r.ErrorMessage, "messagePattern": r.MessagePattern, "documentation": r.Documentation,
				"triggerScenarios": r.TriggerScenarios, "commonSituations": r.CommonSituations,
			} {
				if strings.TrimSpace(v) == "" {
					t.Errorf("%s is empty", field)
				}
			}
			// A template filled with "42" the way the benchmark data and the
			// lint analysis fill it must match the record's own pattern.
			if filled := benchdata.Fill(r.ErrorMessage, "42"); !matches(t, compile(t, r), filled) {
				t.Errorf("messagePattern %q does not match its own errorMessage filled: %q", r.MessagePattern, filled)
			}
			if len(r.Solutions) < 2 {
				t.Errorf("%d solutions, want at least 2", len(r.Solutions))
			}
			if len(r.PreventionTips) == 0 || len(r.Tags) == 0 {
				t.Errorf("preventionTips (%d) and tags (%d) must not be empty", len(r.PreventionTips), len(r.Tags))
			}
			if r.SchemaVersion != 2 {
				t.Errorf("schemaVersion %d, want 2", r.SchemaVersion)
			}
			if strings.HasPrefix(r.MessagePattern, "^") || strings.Contains(r.MessagePattern, `\d{4}-\d{2}-\d{2}`) {
				t.Errorf("pattern %q is anchored on column 0 or the header", r.MessagePattern)
			}
			checkSource(t, r)
		})
	}
}

// checkSource checks filePath, lineNumber and githubUrl agree.
func checkSource(t *testing.T, r patterns.Record) {
	t.Helper()
	if r.FilePath == "" {
		if r.GithubURL != "" || r.LineNumber != 0 {
			t.Errorf("githubUrl %q or lineNumber %d without filePath", r.GithubURL, r.LineNumber)
		}
		return
	}
	if r.Repo != "sgl-project/sglang" || !strings.HasPrefix(r.FilePath, "python/sglang/") {
		t.Errorf("filePath %q given for repo %s: only sglang sources are linked", r.FilePath, r.Repo)
	}
	want := "https://github.com/sgl-project/sglang/blob/main/" + r.FilePath + "#L" + strconv.Itoa(r.LineNumber)
	if r.LineNumber <= 0 || r.GithubURL != want {
		t.Errorf("githubUrl %q, want %q", r.GithubURL, want)
	}
}

func TestCleanLogHasNoHits(t *testing.T) {
	recs := append(curated(t), seed(t)...)
	data, err := os.ReadFile(filepath.Join("testdata", "clean-serving.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) < 40 {
		t.Fatalf("clean log has %d lines, want a realistic one", len(lines))
	}
	for _, r := range recs {
		re := compile(t, r)
		for n, line := range lines {
			if matches(t, re, line) {
				t.Errorf("%s matches clean line %d: %s", r.Slug, n+1, line)
			}
		}
	}
	// The same log as entries through the real matcher.
	for _, hs := range hitsOf(t, compileCatalog(t), string(data)) {
		for _, h := range hs {
			t.Errorf("matcher reports %s on clean entry %q", h.Record.Slug, h.Line)
		}
	}
}

// BenchmarkCleanLog matches the entries of the clean serving log against
// the compiled embedded catalog: the cost of the catalog on healthy output.
func BenchmarkCleanLog(b *testing.B) {
	recs, _ := patterns.Default()
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		b.Fatal(probs)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "clean-serving.log"))
	if err != nil {
		b.Fatal(err)
	}
	subs := subjects(string(data))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		for _, s := range subs {
			if hits, _ := m.Match(s); len(hits) > 0 {
				b.Fatalf("hit on clean entry %q", s.Text)
			}
		}
	}
	b.ReportMetric(float64(len(subs)*b.N)/b.Elapsed().Seconds(), "entries/s")
}

// TestRealPythonTracebacks raises every exception record's errorClass
// with its errorMessage (placeholders filled) in real Python, logs it the
// way an sglang scheduler does, and checks that the entry the assembler
// builds from that output ranks the record first.
func TestRealPythonTracebacks(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("python3 not found and LOGMATCH_TEST_REQUIRE_TOOLS=1: %v", err)
		}
		t.Skipf("python3 not on PATH: %v", err)
	}
	type item struct {
		Slug    string `json:"slug"`
		Class   string `json:"class"`
		Message string `json:"message"`
	}
	var items []item
	for _, r := range append(curated(t), seed(t)...) {
		if r.ErrorType == "exception" {
			items = append(items, item{r.Slug, r.ErrorClass, benchdata.Fill(r.ErrorMessage, "42")})
		}
	}
	in, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-B", filepath.Join("testdata", "raise.py"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("raise.py: %v\n%s", err, stderr.String())
	}
	m := compileCatalog(t)
	dec := json.NewDecoder(bytes.NewReader(out))
	n := 0
	for dec.More() {
		var got struct{ Slug, Log string }
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(got.Slug, func(t *testing.T) {
			subs := subjects(strings.TrimRight(got.Log, "\n"))
			if len(subs) != 1 || len(subs[0].ExceptionTypes) == 0 {
				t.Fatalf("want one traceback entry, got %d subjects from\n%s", len(subs), got.Log)
			}
			hits, errs := m.Match(subs[0])
			if len(errs) > 0 || len(hits) == 0 || hits[0].Record.Slug != got.Slug {
				var slugs []string
				for _, h := range hits {
					slugs = append(slugs, h.Record.Slug)
				}
				t.Errorf("hits %v (errors %v), want %s first, for\n%s", slugs, errs, got.Slug, got.Log)
			}
		})
	}
	if n != len(items) {
		t.Errorf("raise.py printed %d logs for %d records", n, len(items))
	}
}
