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
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/logmatch/logmatch/internal/analysis"
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
// addExamples adds the examples of records new to examples, and appends
// widened's lines to the examples of records already there (a record whose
// pattern a later round widened). A record given twice is a mistake.
// Files' init functions run in the order of their names, so widened
// lines of a record whose examples are not in yet wait in pendingWidened.
func addExamples(added, widened map[string]example) {
	for slug, ex := range added {
		if _, dup := examples[slug]; dup {
			panic("catalog tests: examples of " + slug + " given twice")
		}
		if more, ok := pendingWidened[slug]; ok {
			ex.match = append(ex.match, more.match...)
			ex.miss = append(ex.miss, more.miss...)
			delete(pendingWidened, slug)
		}
		examples[slug] = ex
	}
	for slug, more := range widened {
		ex, ok := examples[slug]
		if !ok {
			ex = pendingWidened[slug]
		}
		ex.match = append(ex.match, more.match...)
		ex.miss = append(ex.miss, more.miss...)
		if ok {
			examples[slug] = ex
		} else {
			pendingWidened[slug] = ex
		}
	}
}

// pendingWidened holds widened examples of records whose own examples a
// later file adds.
var pendingWidened = map[string]example{}

var examples = map[string]example{
	// memory
	"cuda-out-of-memory": {
		match: []string{
			tb("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free."),
			"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total capacity; 22.61 GiB already allocated)",
			// ROCm's and Intel's builds of torch name their device.
			tb("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.95 GiB. GPU 3 has a total capacity of 191.98 GiB of which 1.20 GiB is free."),
			"torch.OutOfMemoryError: XPU out of memory. Tried to allocate 512.00 MiB (GPU 0; 64.00 GiB total capacity)",
		},
		miss: []string{
			hdr("CUDA out of memory is not expected with --mem-fraction-static 0.7"),
			hdr("HIP out of memory handling: retrying the allocation with a smaller chunk"),
		},
	},
	"cuda-error-out-of-memory": {
		match: []string{
			tb("RuntimeError: CUDA error: out of memory"), "RuntimeError: CUDA error: out of memory",
			// torch's CUDA check raising OutOfMemoryError around the
			// failed call's out-of-memory code, as torch_npu's allocators
			// do around theirs (npu-out-of-memory).
			tb("torch.OutOfMemoryError: CUDA error: out of memory"),
			"[rank0]: torch.cuda.OutOfMemoryError: CUDA error: out of memory",
			"ng30903:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'",
			// The engines' own C++ runtimes: TensorRT-LLM's driver check,
			// TurboMind's runtime check inside a C++ exception, ggml's
			// allocator.
			"RuntimeError: [TensorRT-LLM][ERROR] CUDA driver error: out of memory (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/bufferManager.cpp:42)",
			"terminate called after throwing an instance of 'std::runtime_error'\n  what():  [TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/utils/allocator.h:231",
			"[TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/utils/allocator.h:231",
			"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory",
		},
		miss: []string{
			"RuntimeError: CUDA error: an illegal memory access was encountered",
			"[TM][ERROR] CUDA runtime error: invalid argument /lmdeploy/src/turbomind/kernels/gemm/gemm.cu:97",
			"[TensorRT-LLM][ERROR] CUDA driver error in cuModuleLoadData: CUDA_ERROR_INVALID_IMAGE: device kernel image is invalid",
			"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: invalid argument",
			"node1:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'an illegal memory access was encountered'",
		},
	},
	"not-enough-memory-mem-fraction-static": {
		match: []string{
			tb("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: self.server_args.mem_fraction_static=0.5"),
			rawTB("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."),
			// sglang 0.1 spelt it "enought".
			"RuntimeError: Not enought memory. Please try to increase --mem-fraction-static.",
			// Newer releases name the minimum fraction the weights need.
			tb("ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.7. Raise --mem-fraction-static above 0.812 (minimum viable = 1 - available/pre = 0.8113). If using speculative decoding, draft weights are now counted."),
			// The scheduler's own assertions on a pool too small to serve.
			tb("AssertionError: max_running_request is zero"),
			tb("AssertionError: Memory pool size is too small"),
			rawTB("ValueError: max_running_requests (4) is less than dp_size (8). Please increase memory allocation or reduce dp_size."),
		},
		miss: []string{
			mainLog("server_args=ServerArgs(mem_fraction_static=0.88, chunked_prefill_size=8192)"),
			hdr("Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=12.25 GB, mem usage=125.65 GB."),
			hdr("Memory pool end. avail mem=8.02 GB"),
			hdr("max_total_num_tokens=455680, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=2048, context_len=163840"),
			hdr("max_running_requests was reduced from the requested 512 to 256 (per dp worker) due to the available KV cache capacity."),
		},
	},
	"prefill-out-of-memory": {
		match: []string{
			hdr("Prefill out of memory. Try to lower your batch size.\nTry to allocate 8192 tokens.\nAvailable tokens: 120, evictable: 0"),
			tb("RuntimeError: Prefill out of memory. Try to lower your batch size.\nTry to allocate 8192 tokens."),
			// Newer releases' shared allocation helper names no phase.
			hdr("Out of memory. Try to lower your batch size.\nTry to allocate 16384 tokens.\nAvailable tokens: 2048, evictable: 0"),
			tb("RuntimeError: Out of memory. Try to lower your batch size.\nTry to allocate 16384 tokens.\nfull_available_size=120, full_evictable_size=0"),
		},
		miss: []string{
			hdr("Prefill batch, #new-seq: 1, #new-token: 8192, #cached-token: 0, token usage: 0.98, #running-req: 30, #queue-req: 2"),
			// The paged decode path's own wording is decode-out-of-memory.
			hdr("Decode out of memory. Try to lower your batch size.\nTry to allocate 64 tokens."),
		},
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
			// Releases up to 0.4.
			tb("RuntimeError: Out of memory. Please set a smaller number for `--max-running-requests`."),
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
	"triton-gcc-build-failed": {
		match: []string{
			hdr("Ignore import error when loading sglang.srt.models.deepseek_v2. Command '['/usr/bin/gcc', '/tmp/tmp6x1f85tg/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmp6x1f85tg/cuda_utils.cpython-311-x86_64-linux-gnu.so', '-lcuda', '-L/usr/lib/x86_64-linux-gnu']' returned non-zero exit status 1."),
			tb("subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpa1/main.c', '-O3', '-shared', '-fPIC', '-Wno-psabi', '-o', '/tmp/tmpa1/cuda_utils.cpython-310-x86_64-linux-gnu.so', '-lcuda', '-L/usr/local/lib/python3.10/dist-packages/triton/backends/nvidia/lib', '-I/usr/include/python3.10']' returned non-zero exit status 1."),
			// Newer Triton's file names, and its Windows compilers.
			"subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpq1/cuda_utils.c', '-O3', '-shared', '-fPIC', '-Wno-psabi', '-o', '/tmp/tmpq1/cuda_utils.cpython-312-x86_64-linux-gnu.so', '-lcuda']' returned non-zero exit status 1.",
			`subprocess.CalledProcessError: Command '['C:\\venv\\Lib\\site-packages\\triton\\runtime\\tcc\\tcc.exe', 'C:\\Users\\me\\AppData\\Local\\Temp\\tmpgc\\cuda_utils.c', '-O3', '-shared']' returned non-zero exit status 1.`,
		},
		miss: []string{
			"subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
			"subprocess.CalledProcessError: Command '['/usr/bin/gcc', '-c', '/tmp/build/csrc/ops.c', '-o', '/tmp/build/ops.o']' returned non-zero exit status 1.",
		},
	},
	"cuda-kernel-assertion-failed": {
		match: []string{
			"../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [4,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
			"/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectLargeIndex: block: [311,0,0], thread: [64,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
			// A kernel library's own device assertion (DeepGEMM's
			// DG_DEVICE_ASSERT and its kind): file, line and condition.
			"Assertion failed: deep_gemm/include/deep_gemm/impls/sm90_fp8_gemm_1d2d.cuh:88, condition: num_former_iters >= 0",
			"(SGLangEngine pid=31) Assertion failed: /usr/local/include/flashinfer/attention/prefill.cuh:412, condition: kv_len > 0",
			"[rank3]: Assertion failed: csrc/moe/topk.cu:57, condition: k <= 8",
		},
		miss: []string{
			"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
			// Host checks and other tools' assertions are other failures.
			"Assertion failed: d == a + length (/src/tensorrt_llm/plugins/common/plugin.h:95)",
			"RuntimeError: Assertion failed: deep_gemm/jit_kernels/impls/sm90_fp8_gemm_1d2d.hpp:40, condition: n % 64 == 0",
			"Assertion failed: kernel.cuh:12 (condition not printed)",
		},
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
		miss: []string{"RuntimeError: CUDA error: invalid argument"},
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
			// A paste with the handle elided or redacted.
			"Memory access fault by GPU node-1 (Agent handle: ...) on address 0x7a41d2c11000. Reason: Unknown.",
			"Memory access fault by GPU node-4 (Agent handle: <redacted>) on address 0x7f00deadb000. Reason: Page not present or supervisor privilege.",
		},
		miss: []string{
			"Memory access fault detected in test harness",
			"[  812.449301] amdgpu 0000:11:00.0: amdgpu: VM_L2_PROTECTION_FAULT_CNTL programmed",
			"[Mon Mar  3 11:02:41 2025] amdgpu 0000:c1:00.0: amdgpu: SMU is initialized successfully!",
		},
	},
	"deepep-device-check-failed": {
		match: []string{
			"Assertion failed: /mnt/fs/DeepEP/csrc/kernels/internode_ll.cu:259, condition: num_recv_tokens != 0",
			"[rank5]: Assertion failed: /sgl-workspace/DeepEP/csrc/kernels/intranode.cu:312, condition: num_recv_tokens >= 0",
			"Assertion failed: /usr/local/lib/python3.12/dist-packages/deep_ep/csrc/kernels/internode.cu:1207, condition: src_rdma_rank_prefix_sum >= 0",
		},
		miss: []string{
			// Another kernel library's device check, and DeepEP's host check.
			"Assertion failed: deep_gemm/include/deep_gemm/impls/sm90_fp8_gemm_1d2d.cuh:88, condition: num_former_iters >= 0",
			"RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1066 'num_tokens <= num_max_dispatch_tokens_per_rank'",
		},
	},
	"rocm-hsa-queue-aborted": {
		match: []string{
			":0:rocdevice.cpp            :3675: 2139490044663 us:  Callback: Queue 0x7ee7b4200000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29",
			`{"event": "line", "data": ":0:rocdevice.cpp            :3586: 92087492418 us:  Callback: Queue 0x772c40900000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016\n", "pipe": "stderr"}`,
			// Newer ROCclr names the device's callback instead of the queue.
			":0:rocdevice.cpp            :2652: 4238358292712 us: 48946: [tid:0x7fffd023f700] Device::callbackQueue aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. code: 0x1008",
			":0:rocdevice.cpp            :3020: 1052291738 us: [pid:77 tid:0x7f0e2b7fe640] Device::callbackQueue aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29",
		},
		miss: []string{
			"VGPU(0x3b363240) Queue(0x773528db4000) is idle",
			"hsa_queue_create failed with HSA_STATUS_ERROR_OUT_OF_RESOURCES",
			":3:rocdevice.cpp            :2780: 1052291738 us: Device::callbackQueue registered for queue 0x7f0e2b7fe640",
		},
	},
	"cuda-nvlink-peer-memory-error": {
		match: []string{
			"torch.AcceleratorError: CUDA error: Invalid access of peer GPU memory over nvlink or a hardware error",
			"[rank5]: RuntimeError: CUDA error: Invalid access of peer GPU memory over nvlink or a hardware error",
		},
		miss: []string{
			"[2025-11-01 16:50:36 TP0] Setup Custom allreduce failed with CUDART error: peer access is not supported between these two devices. To silence this warning, specify --disable-custom-all-reduce explicitly.",
			"RuntimeError: CUDA error: an illegal memory access was encountered",
		},
	},
	"npu-aicore-exception": {
		match: []string{
			"EZ9999: [PID: 696742] 2025-10-31-21:35:03.992.057 The error from device(chipId:7, dieId:0), serial number is 2, there is an exception of aivec error, core id is 9, error code = 0",
			"EZ9999: [PID: 10355] 2026-01-21-18:33:07.914.556 The error from device(chipId:1, dieId:0), serial number is 179, there is an aivec error exception, core id is 12",
			"[ERROR] RUNTIME(1234,python3):2025-03-01-10:00:00.000.000 [device_error_proc.cc:1288]The error from device(chipId:0, dieId:0), serial number is 5, there is an aicore error, core id is 3",
			"[Error]: The vector core execution is abnormal.",
			"[Error]: The aicpu execution is abnormal.",
			"RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015",
		},
		miss: []string{
			"EZ9999: Inner Error!", "[INFO] there is an aicore kernel cache hit",
			"RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507048",
			"The vector core execution took 12 ms",
		},
	},
	"hccl-comm-init-failed": {
		match: []string{
			"[rank3]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7",
			"RuntimeError: create:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:89 HCCL function error: HcclCommInitRootInfo(numRanks, &rootInfo, rank, &(comm->hcclComm_)), error code is 4",
			"[ERROR] HCCL(8812,python3):2026-01-09-08:12:40.112.903 [op_base.cc:1010][8901][Init][CommRootInfo]errNo[0x0000000005000004]HcclCommInitRootInfo failed.",
			"E20260109 08:12:40.112903 8812 comm.cpp:88] Check failed: ret == HCCL_SUCCESS (7 vs. 0) HCCL get root info failed.",
			"RuntimeError: getHcclComm:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:60 HCCL function error: HcclGetRootInfo(&hcclID), error code is 7",
		},
		miss: []string{
			"[INFO] HCCL(8812,python3):2026-01-09-08:12:39.004.211 [op_base.cc:1010][8901][Init][CommRootInfo]HcclCommInitRootInfo success, take time [212]us",
			"[rank0]: RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 HCCL function error: HcclAllReduce(input, output, count, dtype, op, comm, stream), error code is 4",
		},
	},

	"nccl-cuda-failure": {
		match: []string{
			"gpu-node-3:2210:2391 [4] enqueue.cc:1529 NCCL WARN Cuda failure 'invalid argument'",
			"host-a:90:412 [0] init.cc:1861 NCCL WARN Cuda failure 1 'invalid device pointer'",
			"[rank5]: worker-1:77:301 [5] transport/p2p.cc:274 NCCL WARN Cuda failure 'named symbol not found'",
			"mi300-2:3311:3390 [3] NCCL WARN HIP failure 'shared object initialization failed' at /rccl/src/init.cc:1702",
		},
		miss: []string{
			"gpu-node-3:2210:2391 [4] enqueue.cc:1529 NCCL WARN Cuda failure 'out of memory'",
			// A CUDA error with a record of its own is read by that record.
			"host-a:90:412 [0] init.cc:1861 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'",
			"gpu-node-3:2210:2391 [4] enqueue.cc:1529 NCCL WARN Cuda failure 'invalid device function'",
			"gpu-node-3:2210:2210 [4] NCCL INFO cudaDriverVersion 12040",
			"gpu-node-3:2210:2391 [4] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<57140> with error 12",
		},
	},
	"kv-committed-cache-already-freed": {
		match: []string{
			"AssertionError: Committed KV cache already freed (self.kv_committed_len=2048)",
			hdr("Scheduler hit an exception: Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/schedule_batch.py\", line 931, in pop_committed_kv_cache\n    assert (\nAssertionError: Committed KV cache already freed (self.kv_committed_len=17)"),
			"AssertionError: Overallocated KV cache already freed, self.kv_committed_len=10, self.kv_allocated_len=14",
		},
		miss: []string{
			"Committed KV cache length: 1024",
			hdr("KV cache freed for 3 finished requests"),
		},
	},
	"cuda-memcpy-batch-async-failed": {
		match: []string{
			"RuntimeError: cudaMemcpyBatchAsync failed. failIdx=3 error=invalid argument",
			"RuntimeError: cudaMemcpyBatchAsync failed. error=operation not supported",
			"[rank2]: RuntimeError: cudaMemcpyBatchAsync failed: invalid argument",
		},
		miss: []string{
			"cudaMemcpyBatchAsync unavailable (err=801); using per-run memcpy fallback",
			hdr("HiCache backup done with cudaMemcpyBatchAsync: 512 pages"),
		},
	},
	"torch-distributed-backend-not-built": {
		match: []string{
			"RuntimeError: Distributed package doesn't have NCCL built in",
			"[rank0]: RuntimeError: Distributed package doesn't have MPI built in",
			"[2026-04-10 13:17:25] Failed to initialize custom process group: Distributed package doesn't have NCCL built in.",
		},
		miss: []string{
			"torch.distributed.is_nccl_available(): False",
			"NCCL version 2.21.5+cuda12.4",
		},
	},
	"diffusion-generation-no-output": {
		match: []string{
			"RuntimeError: Model generation returned no output. Error from scheduler: Error executing request 0b1f: cat() received an invalid combination of arguments",
			"[07-07 07:22:06] Failed to generate output for prompt: Model generation returned no output. Error from scheduler: Unknown error",
			"RuntimeError: Model generation returned no output.",
		},
		miss: []string{
			"[07-07 07:22:06] Model generation returned 1 output in 12.5 s",
			"RuntimeError: Model generation failed",
		},
	},
	"aiter-hip-call-failed": {
		match: []string{
			"[AITER] /opt/aiter/module_fmha_v3_fwd/blob/asm_fmha_fwd_v3_gfx942.cpp:141 fail to call hipModuleLaunchKernel(kernel_func, gdx, gdy, gdz, bdx, 1, 1, 0, s.stream_id_, NULL, reinterpret_cast<void**>(&config)) ---> [HIP error](invalid resource handle)",
			"[TOPK] /sgl-workspace/aiter/csrc/kernels/topk.cu:77 fail to call hipMemcpyAsync(dst, src, n, hipMemcpyDeviceToDevice, stream) ---> [HIP error](invalid argument)",
		},
		miss: []string{
			"[AITER] /opt/aiter/csrc/include/aiter_hip_common.h:85 fail to call hipModuleLoad(&module, hsa_path.c_str()) ---> [HIP error](file not found)",
			"[aiter] import [module_fmha_v3_fwd] under /home/aiter/aiter/jit/module_fmha_v3_fwd.so",
			"RuntimeError: HIP error: invalid argument",
		},
	},
	"weights-update-group-init-failed": {
		match: []string{
			"[2026-03-02 10:00:01] Failed to initialize custom process group: [Errno 98] Address already in use.",
			hdr("Failed to initialize custom process group: receiver_init_payload requires receiver."),
		},
		miss: []string{
			"[2026-03-02 10:00:01] Succeeded to initialize custom process group.",
			"Initialized custom process group: <torch.distributed.distributed_c10d.ProcessGroup object at 0x7f>",
		},
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
			// torch_npu's shorter form, the CANN error code after "detail:".
			tb("RuntimeError: call aclnnMoeDistributeCombineV2 failed, detail:EZ9999: Inner Error!"),
			"RuntimeError: call aclnnGroupedMatmulV4 failed, detail:E89999: Inner Error!",
			"[rank2]: RuntimeError: call aclnnAddRmsNorm failed, detail: EZ1001: The input shapes do not match.",
			// An ACL runtime call rather than an operator, by name or through
			// torch_npu's c10_npu::acl wrappers.
			"RuntimeError: process_non_blocking_copy:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:246 NPU function error: aclrtPointerGetAttributes, error code is 107000",
			"RuntimeError: MemcpyAsync:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:112 NPU function error: c10_npu::acl::AclrtMemcpyAsyncWithCondition(dst, dst_size, src, src_size, kind, stream), error code is 507899",
			// A compile option torch_npu sets through ACL at start-up.
			"RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:156 NPU function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001",
		},
		miss: []string{
			"[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100 PTA call acl api failed.",
			// Device set-up is its own record's; the HCCL wrapper's wording too.
			"RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033",
			"RuntimeError: init:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:292 NPU function error: aclrtGetDeviceCount(&device_count), error code is 207004",
			"RuntimeError: create:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:89 HCCL function error: HcclCommInitRootInfo(numRanks, &rootInfo, rank, &(comm->hcclComm_)), error code is 7",
			// A synchronize call reports the failure of the work it waited for
			// (the detail lines after it name that), and a capture call the
			// graph capture's.
			"RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:25 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507035",
			"RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507048",
			"Exception: Capture cuda graph failed: capture_end:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:193 NPU function error: c10_npu::acl::AclmdlRICaptureEnd(capture_stream_, &model_ri), error code is 107033",
			"call aclnnMatmul failed, retrying with the fallback kernel",
			"call aclnnMatmul failed, detail: see the plog",
		},
	},
	// distributed
	"nccl-unhandled-system-error": {
		match: []string{
			tb("RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"),
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
			// The error code spelled out, as NCCL bindings other than
			// torch's print it.
			"RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)",
		},
		miss: []string{
			"RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
			"RuntimeError: NCCL Error 3: internal error - please report this issue to the NCCL developers",
		},
	},
	"nccl-shared-memory-segment-failed": {
		match: []string{
			// sgl-project/sgl-project.github.io#5: torch's DistBackendError with NCCL's "Last error:".
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n" +
				"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\nLast error:\n" +
				"Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)",
			// NCCL's own WARN lines with NCCL_DEBUG=INFO (NVIDIA/nccl#342).
			"node-7:1234:5678 [2] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-250a7cc850ba9298-0-1-3 (size 9637888)",
			"gpu-0:88:157 [0] misc/shmutils.cc:87 NCCL WARN Error: failed to extend /dev/shm/nccl-Lbbx8u to 9637892 bytes",
			"ERROR 2025-04-05T00:01:19.209110975Z Error while attaching to shared memory segment /dev/shm/nccl-lNPZ0f (size 7340384)",
		},
		miss: []string{
			"node-7:1234:5678 [2] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct",
			"RuntimeError: unable to write to file </torch_1234_0>: No space left on device (28)",
			hdr("Created shared memory segment for the KV cache"),
		},
	},
	"nccl-unhandled-cuda-error": {
		match: []string{
			tb("RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)"),
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
			"RuntimeError: NCCL Error 1: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
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
			// Older torch (2.0, 2.1) words the same failure with errno.
			"RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:12355 (errno: 98 - Address already in use). The server socket has failed to bind to ?UNKNOWN? (errno: 98 - Address already in use).",
		},
		miss: []string{
			"The server socket has failed to listen on any local network address. port: 5000, useIpv6: 0, code: -13, name: EACCES, message: permission denied",
			"RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to 0.0.0.0:12355 (errno: 13 - Permission denied).",
		},
	},
	"address-already-in-use": {
		match: []string{
			"[2026-05-28 00:11:09] ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use",
			rawTB("OSError: [Errno 98] Address already in use"),
			// pyzmq's bind of an sglang inter-process port, without the errno.
			tb("zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:30001')"),
			"ERROR:    [Errno 48] error while attempting to bind on address ('127.0.0.1', 30000): address already in use",
			// A bind refused for permission: asyncio's wording under
			// uvicorn (Linux's message, or Windows' in the system's
			// language), and Go's net package under Ollama.
			"ERROR:    [Errno 13] error while attempting to bind on address ('0.0.0.0', 80): permission denied",
			"[Errno 13] error while attempting to bind on address ('127.0.0.1', 5000): an attempt was made to access a socket in a way forbidden by its access permissions",
			"Error: listen tcp 127.0.0.1:11434: bind: An attempt was made to access a socket in a way forbidden by its access permissions.",
			"Error: listen tcp 0.0.0.0:443: bind: permission denied",
		},
		miss: []string{
			"OSError: [Errno 99] Cannot assign requested address",
			// A socket file the user may not create is the filesystem's.
			"Error: listen unix /var/run/ollama.sock: bind: permission denied",
			"PermissionError: [Errno 13] Permission denied: '/models/x'",
			"zmq.error.ZMQError: Operation cannot be accomplished in current state",
		},
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
			// gloo's what() line alone, when the terminate line is cut or overwritten.
			"[enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 128 vs 8",
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
	"tp-model-worker-client-hit-an-exception": {
		match: []string{
			"[2025-02-01 12:00:00 TP1] TpModelWorkerClient hit an exception: Traceback (most recent call last):",
			"`[2025-04-11 15:03:19 DP0 TP0] TpModelWorkerClient hit an exception: Traceback (most recent call last):",
		},
		miss: []string{
			"[2025-02-01 12:00:00 TP1] Init TpModelWorkerClient with overlap schedule",
			// The other wrappers keep their own records.
			hdr("Scheduler hit an exception: Traceback (most recent call last):"),
		},
	},
	"legacy-subprocess-exception": {
		match: []string{
			"[2024-08-01 12:00:00 TP0] Exception in ModelTpServer:\nTraceback (most recent call last):",
			"Exception in ModelRpcClient:",
			// sglang 0.3's tensor-parallel rank process, with its time-only header.
			"[23:17:08 TP4] Exception in run_tp_server:\nTraceback (most recent call last):",
			// The launcher's start-up report of a subprocess's traceback (0.1 and 0.2).
			"Initialization failed. controller_init_state: Traceback (most recent call last):",
			"Initialization failed. router_init_state: Traceback (most recent call last):",
			"router init state: Traceback (most recent call last):",
		},
		miss: []string{
			"[2024-08-01 12:00:00 TP0] ModelTpServer started",
			"[2025-02-01 12:00:00 TP1] TpModelWorkerClient hit an exception: Traceback (most recent call last):",
			// The healthy half of the launcher's pair.
			"Initialization failed. detoken_init_state: init ok",
			"detoken init state: init ok",
		},
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
			// The multimodal generation server's wording.
			"[06-17 13:46:56] Server warmup failed; aborting startup: HTTP server did not become ready at http://127.0.0.1:30010/health",
		},
		miss: []string{
			rawTB("RuntimeError: Initialization failed. Please see the error messages above."),
			"[06-17 13:46:57] FastAPI app is shutting down...",
		},
	},
	"initialization-failed-see-above": {
		match: []string{
			rawTB("RuntimeError: Initialization failed. Please see the error messages above."),
			mainLog("DataParallelController hit an exception: Traceback (most recent call last):\nRuntimeError: Initialization failed. Please see the error messages above."),
		},
		miss: []string{mainLog("Initialization failed. warmup error: timeout")},
	},
	"python-unexpected-keyword-argument": {
		// A framework and the engine it calls at versions that do not go
		// together (hiyouga/LlamaFactory#6654, vllm-project/vllm#3249,
		// xorbitsai/inference#2420, modelscope/ms-swift#5923).
		match: []string{
			"TypeError: __init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
			"TypeError: EngineArgs.__init__() got an unexpected keyword argument 'ray_workers_use_nsight'",
			"TypeError: [address=0.0.0.0:37737, pid=1025864] AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
			rawTB("TypeError: LmdeployEngine.__init__() got an unexpected keyword argument 'reranker_use_activation'"),
		},
		miss: []string{
			"TypeError: Scheduler.flush_cache() missing 1 required positional argument: 'empty_cache'",
			"TypeError: f() got an unexpected keyword",
		},
	},
	"kserve-model-server-start-failed": {
		// KServe's Hugging Face runtime (kserve/kserve#3769, #5056).
		match: []string{
			"2024-07-01 07:28:04.488 1 kserve ERROR [__main__.py:<module>():254] Failed to start model server: integer division or modulo by zero",
			"2026-02-11 02:15:04.629 1 kserve ERROR [__main__.py:<module>():337] Failed to start model server: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
		},
		miss: []string{
			"2024-07-01 07:27:40.112 1 kserve INFO [model_server.py:start():310] Starting model server",
			"Failed to start model server: connection refused",
		},
	},
	"rank-scheduler-is-dead": {
		match: []string{
			"[12-16 14:27:08] Rank 0 scheduler is dead. Please check if there are relevant logs.",
			mainLog("Rank 3 scheduler is dead. Please check if there are relevant logs."),
			// The exit code on the same line: an orchestrator's relay
			// (ai-dynamo/dynamo#5048) and sglang 0.5.9's launcher.
			"Error: Rank 0 scheduler is dead. Exit code: -6 (SIGABRT)",
			"[2026-02-27 22:52:09] Rank 0 scheduler is dead. Exit code: -9",
		},
		miss: []string{
			rawTB("RuntimeError: Rank 0 scheduler died during initialization (exit code: -9)."),
			"Rank 0 scheduler is dead. Exit code: unknown",
		},
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
			"[2025-08-02 19:24:20] Error in request: list index out of range\nTraceback (most recent call last):",
			"[2026-01-12 03:04:05] Error in request: 'Qwen2TokenizerFast' object has no attribute 'x'\nTraceback (most recent call last):",
		},
		// The server's line is a logger.exception: a traceback always
		// follows. A client's own report of a failed request has none.
		miss: []string{
			mainLog("Receive: obj=GenerateReqInput(rid='error-in-request-1')"),
			"Error in request: timeout",
			"ERROR:root:Error in request: timeout",
			"2026-05-28 00:11:09,123 bench_client Error in request: timeout\nretrying in 5 s",
			"[2025-08-02 19:24:20] Error in request: timeout",
		},
	},
	"weights-not-ready": {
		match: []string{mainLog("Weights are not ready after waiting 600 seconds"), "Weights are not ready after waiting 30 seconds"},
		miss:  []string{mainLog("Weights are ready.")},
	},
	// model and build
	// start-up refusals of sglang's own configuration checks
	"attention-backend-unsupported": {
		match: []string{
			// Backends tied to one GPU generation.
			rawTB("ValueError: TRTLLM MHA backend is only supported on Blackwell GPUs (SM100). Please use a different backend."),
			rawTB("ValueError: The 'fa3' backend is not supported on Blackwell GPUs"),
			tb("AssertionError: FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend flashinfer`."),
			tb("AssertionError: Window attention is not supported in the triton attention backend. Please use `--attention-backend flashinfer`."),
			rawTB("AssertionError: Cross attention is not supported in the triton attention backend. Please use `--attention-backend flashinfer`."),
			tb("ValueError: trtllm_mla backend can only be used with MLA models."),
			tb("AssertionError: hybrid_linear_attn backend can only be used with hybrid GDN models."),
			tb("AssertionError: FlashAttention v4 Support is at an early stage, only MLA model supported now"),
			tb("ValueError: Invalid attention backend: flash_attn"),
		},
		miss: []string{
			mainLog("TRTLLM MHA backend is selected on Blackwell GPUs by default."),
			hdr("Using hybrid linear attention backend for hybrid GDN models."),
			mainLog("Attention backend not explicitly specified. Use fa3 backend by default."),
		},
	},
	"tokenizer-load-failed": {
		match: []string{
			rawTB("RuntimeError: Failed to load the tokenizer. If you are using a LLaMA V1 model consider using 'hf-internal-testing/llama-tokenizer' instead of the original tokenizer."),
			tb("RuntimeError: Failed to load the tokenizer. If the tokenizer is a custom tokenizer not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI."),
			// The oldest wording.
			"RuntimeError: Failed to load the tokenizer. If you are using a LLaMA-based model, use 'hf-internal-testing/llama-tokenizer' instead of the original tokenizer.",
		},
		miss: []string{
			mainLog("For some LLaMA-based models, initializing the fast tokenizer may take a long time. To eliminate the initialization time, consider using 'hf-internal-testing/llama-tokenizer' instead of the original tokenizer."),
		},
	},
	"checkpoint-file-corrupt": {
		match: []string{
			tb("RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory"),
			rawTB("RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory"),
			// A Git LFS pointer read as a pickle.
			"_pickle.UnpicklingError: invalid load key, 'v'.",
		},
		miss: []string{
			hdr("Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:03<00:03,  1.52s/it]"),
			"_pickle.UnpicklingError: Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will likely succeed",
			// A safetensors file's broken header is safetensors-corrupt-file.
			tb("safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"),
		},
	},
	"model-config-unrecognized": {
		match: []string{
			rawTB("ValueError: Unrecognized model in /models/Qwen3-8B_eagle3. Should have a `model_type` key in its config.json, or contain one of the following strings in its name: albert, align, altclip"),
			"ValueError: Unrecognized model in /root/.cache/modelscope/hub/models/YZY/Qwen3-8B_eagle3. Should have a `model_type` key in its config.json.",
		},
		miss: []string{
			"ValueError: The checkpoint you are trying to load has model type `qwen3_next` but Transformers does not recognize this architecture.",
		},
	},
	"disagg-handshake-failed": {
		match: []string{
			hdr("Prefill bootstrap failed for request rank=0 req.rid='f15164aa0a47471fa392d314eaf6603f' req.bootstrap_room=7951872978533487225 with exception KVTransferError(bootstrap_room=7951872978533487225): Failed due to an unknown reason from another rank"),
			hdr("Decode handshake failed for request rank=3 decode_req.req.rid='9a1c' decode_req.req.bootstrap_room=12 with exception KVTransferError(bootstrap_room=12): Failed to get kvcache from prefill instance, it might be dead"),
			"fastapi.exceptions.HTTPException: 500: Prefill bootstrap failed for request rank=0 req.rid='f1' req.bootstrap_room=7 with exception KVTransferError(bootstrap_room=7): Request 7 timed out after 300.0s in KVPoll.Bootstrapping",
			hdr("MultimodalEmbedding bootstrap failed for request rank=0 req.rid='e1' req.bootstrap_room=5 with exception ConnectionError()"),
		},
		miss: []string{
			hdr("Decode transfer failed for request rank=6 decode_req.req.rid='cd00' decode_req.req.bootstrap_room=83 with exception KVTransferError(bootstrap_room=83): Request 83 timed out after 600.0s"),
			hdr("Prefill batch, #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.01, #running-req: 0, #queue-req: 0, #prealloc-req: 0, #inflight-req: 0, input throughput (token/s): 0.00"),
		},
	},
	"request-feature-not-enabled": {
		match: []string{
			mainLog("Error in request: This model does not appear to be an embedding model by default. Please add `--is-embedding` when launching the server or try another model."),
			`{"object":"error","message":"This model does not appear to be an embedding model by default. Please add ` + "`--is-embedding`" + ` when launching the server or try another model.","type":"BadRequestError","param":null,"code":400}`,
			rawTB("ValueError: The server is not configured to return hidden states. Please set `--enable-return-hidden-states` to enable this feature."),
			rawTB("ValueError: The server is not configured to enable custom logit processor. Please set `--enable-custom-logit-processor` to enable this feature."),
		},
		miss: []string{
			mainLog("server_args=ServerArgs(is_embedding=True, enable_custom_logit_processor=False)"),
		},
	},
	"chat-template-not-found": {
		match: []string{
			rawTB("RuntimeError: Chat template /templates/qwen.jinja is not a built-in template name or a valid chat template file path."),
			"RuntimeError: Completion template deepseek_coder_fim is not a built-in template name or a valid completion template file path.",
			rawTB("ValueError: Unknown separator style: TWO_SPACES"),
		},
		miss: []string{
			mainLog("Use chat template for the OpenAI-compatible API server: /templates/qwen.jinja"),
			mainLog("Loading chat template from argument: chatml"),
		},
	},
	"quantized-weight-tp-split-misaligned": {
		match: []string{
			tb("ValueError: Weight input_size_per_partition = 192 is not divisible by weight quantization block_k = 128."),
			tb("ValueError: Weight output_partition_size = 32 is not divisible by weight quantization block_n = 128."),
			rawTB("ValueError: The output_size of gate's and up's weight = 320 is not divisible by weight quantization block_n = 128."),
			"ValueError: Weight input_size_per_partition = 10944 is not divisible by min_thread_k = 128. Consider reducing tensor_parallel_size or running with --quantization gptq.",
			tb("ValueError: Weight input_size_per_partition = 1728 is not divisible by group_size = 128."),
			rawTB("ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size."),
		},
		miss: []string{
			// Unquantized splits are tp-size-not-divisible.
			tb("AssertionError: 28 is not divisible by 8"),
			hdr("Using default MoE kernel config. Performance might be sub-optimal! Config file not found at /sgl/configs/E=256,N=256,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128, 128].json"),
		},
	},
	"gpu-compute-capability-unsupported": {
		match: []string{
			tb("RuntimeError: SGLang only supports sm75 and above."),
			rawTB("RuntimeError: SGLang only supports sm75 and above."),
		},
		miss: []string{
			// Turing only switches dtype.
			hdr("Compute capability below sm80. Use float16 due to lack of bfloat16 support."),
			mainLog("FlashInfer is the default attention kernel backend. It only supports sm75 and above."),
		},
	},
	"weight-update-failed": {
		match: []string{
			hdr("Failed to update parameter online: 'model.visual.blocks.0.mlp.gate_up_proj.weight'. The full weights of the ModelRunner are partially updated. Please discard the whole weights."),
			mainLog("Failed to update weights: Attempted to load weight (torch.Size([4096])) into parameter (torch.Size([2048])).\nRolling back to original weights."),
			hdr("Failed to get weights iterator: [Errno 2] No such file or directory: '/ckpt/step_200/model.safetensors.index.json'."),
		},
		miss: []string{
			hdr("Succeeded to update parameter online."),
			mainLog("Update weights end."),
		},
	},
	"sampling-nan-detected": {
		match: []string{
			hdr("Detected errors during sampling! NaN in the probability."),
			tb("ValueError: Detected errors during sampling! NaN in the logits."),
		},
		miss: []string{
			mainLog("server_args=ServerArgs(enable_nan_detection=True, sampling_backend='flashinfer')"),
		},
	},
	"gpu-memory-capacity-unbalanced": {
		match: []string{
			tb("RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes. min_per_gpu_memory=16.28, local_gpu_memory=46.81, local_gpu_memory * 0.9=42.13"),
			// Releases before the check could be turned off raised ValueError.
			rawTB("ValueError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes."),
		},
		miss: []string{
			// With the check off the same words are a warning and the server goes on.
			hdr("The memory capacity is unbalanced. Some GPUs may be occupied by other processes. pre_model_load_memory=70.12, local_gpu_memory=79.30, local_gpu_memory * 0.9=71.37"),
			hdr("Init torch distributed ends. elapsed=1.02 s, mem usage=0.62 GB"),
		},
	},
	"context-length-exceeds-derived": {
		match: []string{
			rawTB("ValueError: User-specified context_length (262144) is greater than the derived context_length (131072). This may lead to incorrect model outputs or CUDA errors. Note that the derived context_length may differ from max_position_embeddings in the model's config. To allow overriding this maximum, set the env var SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"),
			tb("ValueError: Warning: Target model's context_length (163840) is greater than the derived context_length (4096). This may lead to incorrect model outputs or CUDA errors. Note that the derived context_length may differ from max_position_embeddings in the model's config. To allow overriding this maximum, set the env var SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"),
			// Older releases raised without the hint.
			"ValueError: User-specified context_length (65536) is greater than the derived context_length (32768). This may lead to incorrect model outputs or CUDA errors.",
		},
		miss: []string{
			// Allowed by the variable: a warning, and the server starts.
			mainLog("Warning: User-specified context_length (262144) is greater than the derived context_length (131072). This may lead to incorrect model outputs or CUDA errors. Note that the derived context_length may differ from max_position_embeddings in the model's config."),
			mainLog("Overriding the draft model's max_position_embeddings to 163840."),
		},
	},
	"quantization-method-mismatch": {
		match: []string{
			rawTB("ValueError: Quantization method specified in the model config (compressed-tensors) does not match the quantization method specified in the `quantization` argument (fp8)."),
			tb("ValueError: Quantization method specified in the model config (awq) does not match the quantization method specified in the `quantization` argument (gptq)."),
		},
		miss: []string{
			mainLog("Using CLI-specified quantization (modelopt_fp4) which is compatible with HF config quant_method (modelopt)."),
		},
	},
	"quantization-method-unknown": {
		match: []string{
			tb("ValueError: Unknown quantization method: nvfp4. Must be one of ['aqlm', 'awq', 'fp8', 'gptq', 'marlin']."),
			rawTB("ValueError: Unknown quantization method: fp6. Must be one of ['awq', 'fp8', 'gptq']."),
		},
		miss: []string{hdr("awq quantization is not fully optimized yet. The speed can be slower than non-quantized models.")},
	},
	// AutoAWQ's compiled extension did not import (built for another
	// torch): its GEMM's NameError (QwenLM/Qwen3#221, LLaMA-Factory#3465)
	// and its own assertion (AutoAWQ#374, h2ogpt#1383).
	"awq-kernels-not-loaded": {
		match: []string{
			"File \"/usr/local/lib/python3.10/dist-packages/awq/modules/linear/gemm.py\", line 66, in backward\n    if awq_ext is None:\nNameError: name 'awq_ext' is not defined",
			rawTB("NameError: name 'awq_ext' is not defined"),
			rawTB("AssertionError: AWQ kernels could not be loaded. Please install them from https://github.com/casper-hansen/AutoAWQ_kernels"),
		},
		miss: []string{
			rawTB("NameError: name 'awq' is not defined"),
			hdr("AWQ kernels loaded: awq_ext 0.0.9"),
		},
	},
	"quantization-method-not-available": {
		match: []string{
			rawTB("ValueError: bitsandbytes quantization is currently not supported in ROCm."),
			// sglang 0.1 knew only AWQ and GPTQ.
			"ValueError: Unsupported quantization method: squeezellm",
		},
		miss: []string{
			hdr("awq quantization is not fully optimized yet. The speed can be slower than non-quantized models."),
			mainLog("fp8 quantization is supported in ROCm."),
		},
	},
	"quantization-unsupported-gpu": {
		match: []string{
			rawTB("ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 80. Current capability: 75."),
			tb("ValueError: The quantization method awq_marlin is not supported for the current GPU. Minimum capability: 80. Current capability: 70."),
		},
		miss: []string{
			hdr("Load weight begin. avail mem=14.51 GB"),
			mainLog("The quantization method fp8 is supported on this GPU (capability 90)."),
		},
	},
	"quantization-dtype-unsupported": {
		match: []string{
			tb("ValueError: torch.bfloat16 is not supported for quantization method awq. Supported dtypes: [torch.float16]"),
			rawTB("ValueError: torch.float32 is not supported for quantization method gptq. Supported dtypes: [torch.float16, torch.bfloat16]"),
		},
		miss: []string{mainLog("server_args=ServerArgs(dtype='bfloat16', quantization='awq')")},
	},
	"hybrid-state-cache-too-small": {
		match: []string{
			tb("RuntimeError: Not enough GPU memory for hybrid (mamba/linear-attention) state cache. Computed max_mamba_cache_size=0 (total_rest_memory=0.41 GB, mamba_cache_per_req=48.00 MB). Try: (1) reduce --max-running-requests, (2) increase --mem-fraction-static, (3) reduce --speculative-num-draft-tokens, or (4) use GPUs with more memory."),
			tb("RuntimeError: Hybrid (mamba/linear-attention) state cache is too small to serve any requests. max_mamba_cache_size=2, mamba_ratio=3, resulting max_num_reqs=0."),
		},
		miss: []string{
			hdr("Mamba Cache is allocated. max_mamba_cache_size: 656, conv_state size: 0.62GB, ssm_state size: 29.95GB"),
		},
	},
	"model-weights-not-found": {
		match: []string{
			tb("RuntimeError: Cannot find any model weights with `/models/Qwen2.5-7B-Instruct`"),
			rawTB("RuntimeError: Cannot find any model weights with `meta-llama/Llama-3.1-8B-Instruct`"),
		},
		miss: []string{
			hdr("Using model weights format ['*.safetensors']"),
			hdr("Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=62.20 GB, mem usage=15.06 GB."),
		},
	},
	"model-architecture-not-supported": {
		match: []string{
			rawTB("ValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM'])"),
			tb("ValueError: Model architectures ['Qwen9ForCausalLM', 'Qwen9Model'] are not supported for now."),
		},
		miss: []string{mainLog("Model architectures ['LlamaForCausalLM'] are supported.")},
	},
	"model-architecture-no-implementation": {
		match: []string{
			// The Transformers fallback exists but cannot run the model.
			tb("ValueError: BertForTokenClassification has no SGlang implementation and the Transformers implementation is not compatible with SGLang."),
			rawTB("ValueError: Cannot find model module. 'AcmeForCausalLM' is not a registered model in the Transformers library (only relevant if the model is meant to be in Transformers) and 'AutoModel' is not present in the model config's 'auto_map' (relevant if the model is custom)."),
			// sglang 0.1 and 0.2.
			rawTB("ValueError: Unsupported architectures: MambaForCausalLM. Supported list: ['LlamaForCausalLM', 'MistralForCausalLM']"),
		},
		miss: []string{
			// The fallback that works is a notice.
			hdr("XLMRobertaModel has no SGLang implementation, falling back to Transformers implementation. Some features may not be supported and performance may not be optimal."),
			tb("ValueError: Model architectures ['Qwen9ForCausalLM'] are not supported for now."),
		},
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
			"huggingface_hub.utils._errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-661471eb-38c6ceb05c22031f04f730f7;54f54e0f-18d7-4cbf-a882-a291b1abd4b4)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-2-7b/resolve/main/config.json.\nRepo model meta-llama/Llama-2-7b is gated. You must be authenticated to access it.",
			"GatedRepoError: 401 Client Error. (Request ID: Root=1-66389f5d-0f09a9387397c642253a3cab;07f44087-7a0e-4f26-a444-29193404cbc8)",
			"Your request to access model meta-llama/Llama-2-7b-hf is awaiting a review from the repo authors.",
			"GatedRepoError: 403 Client Error... Your request to access model meta-llama/Meta-Llama-3-8B-Instruct is awaiting a review from the repo authors.",
			"Repo model meta-llama/Llama-2-7b-hf is gated. You must be authenticated to access it.",
		},
		miss: []string{"Cannot access repository for url https://huggingface.co/x"},
	},
	"hf-unauthorized-401": {
		match: []string{
			"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/api/models/org/private-model/revision/main",
			rawTB("huggingface_hub.errors.HfHubHTTPError: 401 Client Error. (Request ID: Root=1-6a)\n\nInvalid credentials in Authorization header"),
		},
		miss: []string{
			"401 Client Error: Unauthorized for url: https://api.example.com/v1",
			// A gated or missing repository answers 401 without a token
			// too; the hub's class and next lines name which.
			"GatedRepoError: 401 Client Error. (Request ID: Root=1-66389f5d-0f09a9387397c642253a3cab;07f44087-7a0e-4f26-a444-29193404cbc8)",
			"huggingface_hub.utils._errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-67ff8411-0b02c71d2dabd17f4c82e40d;760e6e3c-72d4-4e1b-a52c-57badd559390)",
			"OSError: You are trying to access a gated repo.\nMake sure to have access to it at https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.2.\n401 Client Error. (Request ID: Root=1-66867938-63a777574abdc5a517fda5e0;15ff67d1-750c-4a78-854c-a4ab08dbe598)",
			"[rank0]: OSError: You are trying to access a gated repo.\n[rank0]: Make sure to have access to it at https://huggingface.co/google/gemma-2-2b.\n[rank0]: 401 Client Error. (Request ID: Root=1-67aa5bab-239995ed29ecb63445d20f7d;d24cb15b-71c4-4317-9f21-0ce801e833cd)",
		},
	},
	"hf-repository-not-found": {
		match: []string{
			"Repository Not Found for url: https://huggingface.co/api/models/Qwen/Qwen9-7B/revision/main.",
			rawTB("huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-6a)\n\nRepository Not Found for url: https://huggingface.co/api/models/x/y/revision/main."),
			rawTB("huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-6a)"),
			"huggingface_hub.utils._errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-67ff8411-0b02c71d2dabd17f4c82e40d;760e6e3c-72d4-4e1b-a52c-57badd559390)\n\nRepository Not Found for url: https://huggingface.co/vicuna-13b-v1.3/resolve/main/tokenizer.model.",
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
			"Error limit reached.\n100 errors detected in the compilation of \"/root/.cache/flashinfer/120/generated/batch_prefill.cu\".",
		},
		miss: []string{"0 warnings detected in the build.", "Retry limit reached."},
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
			// The piecewise runner logs before it re-raises.
			mainLog("Piecewise CUDA Graph failed with error: 'typing.Union' object has no attribute '__module__'\nTo work around this error, add --disable-piecewise-cuda-graph to your launch command."),
			hdr("Piecewise CUDA Graph failed with error: CUDA out of memory. Tried to allocate 512.00 MiB."),
			// The CPU graph runner names its device.
			tb("Exception: Capture CPU graph failed: Cannot capture graph with dynamic shapes\nPossible solutions:"),
		},
		miss: []string{
			hdr("Capture cuda graph end. Time elapsed: 12.31 s. mem usage=2.10 GB. avail mem=10.22 GB."),
			hdr("Capture piecewise CUDA graph end. Time elapsed: 31.02 s. mem usage=1.12 GB. avail mem=9.80 GB."),
		},
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
	"disagg-kv-wait-timeout": {
		match: []string{
			"[2026-05-28 00:11:09 DP2 TP2 EP2] Some requests fail to receive KV Cache transfer done signal after bootstrapping. If a greater mean TTFT is acceptable, you can 'export SGLANG_DISAGGREGATION_WAITING_TIMEOUT=600' (10 minutes) to relax the timeout condition. ",
			hdr("Some requests timed out when bootstrapping, which means prefill instances fail to receive the KV indices from the decode instance of this request. If a greater mean TTFT is acceptable, you can 'export SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT=600' (10 minutes) to relax the timeout condition. "),
		},
		miss: []string{
			hdr("Some requests were aborted because the client disconnected"),
			hdr("Decode batch, #running-req: 12, #token: 40960, token usage: 0.31, pre-allocated usage: 0.02, #prealloc-req: 3, #transfer-req: 5, #retracted-req: 0, cuda graph: True, gen throughput (token/s): 812.11, #queue-req: 0"),
		},
	},
	"disagg-transfer-worker-error": {
		match: []string{
			hdr("Unexpected transfer worker error for room 5839938415251080346"),
			"Unexpected transfer worker error for room 1788380104266545413",
			hdr("NIXL transport error for room 42: NIXL_ERR_REMOTE_DISCONNECT"),
		},
		miss: []string{
			hdr("Transfer worker started for room range 0-1024"),
			hdr("Prefill transfer failed for request rank=0 req.rid='a1' req.bootstrap_room=7 with exception KVTransferError(bootstrap_room=7): timeout"),
		},
	},
	"hicache-radix-cache-disabled": {
		match: []string{
			rawTB("ValueError: The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive and cannot be used at the same time. Please use only one of them."),
			"ValueError: The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive",
		},
		miss: []string{
			hdr("Allocating 40.00 GB host memory for hierarchical KV cache."),
			"ValueError: The arguments enable-dp-attention and enable-dp-lm-head are mutually exclusive",
		},
	},
	"modelopt-checkpoint-not-fp8": {
		match: []string{
			rawTB("ValueError: ModelOptFp8Config only supports static FP8 quantization in SGLang. For FP4 quantization, use ModelOptFp4Config. Check the quantization config for your model's configuration."),
			"ValueError: ModelOpt only supports static FP8 quantization in SGLang. Check the `hf_quant_config.json` file for your model's configuration.",
			"ValueError: ModelOptFp8Config only supports static FP8 quantization in SGLang diffusion.",
		},
		miss: []string{
			hdr("Detected ModelOpt FP8 checkpoint, using static FP8 quantization"),
			"ValueError: Cannot find 'quant_algo' in the model's quantization config. ",
		},
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
			// sglang 0.1's wording, bare after its UserWarning line.
			"KV cache pool leak detected!",
			hdr("token pool leak detected! available_size=7, max_total_num_tokens=9"),
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
			// Older transformers releases word it without the ", and".
			"OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like openai/clip-vit-large-patch14 is not the path to a directory containing a file named config.json.",
			// huggingface_hub's own wordings of the same miss, offline
			// (HF_HUB_OFFLINE, local_files_only) or without a connection.
			rawTB("huggingface_hub.utils._errors.LocalEntryNotFoundError: Cannot find an appropriate cached snapshot folder for the specified revision on the local disk and outgoing traffic has been disabled. To enable repo look-ups and downloads online, set 'HF_HUB_OFFLINE=0' as environment variable."),
			"huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and outgoing traffic has been disabled. To enable hf.co look-ups and downloads online, set 'local_files_only' to False.",
			"LocalEntryNotFoundError: An error happened while trying to locate the files on the Hub and we cannot find the appropriate snapshot folder for the specified revision on the local disk. Please check your internet connection and try again.",
		},
		miss: []string{
			"We couldn't connect to the metrics endpoint",
			"We couldn't connect to 'https://huggingface.co' to load this file, retrying in 5s",
			"Cannot find the requested model in the registry",
			hdr("Found the cached snapshot folder for the specified revision on the local disk"),
		},
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
			"Bad Request: Requested token count exceeds the model's maximum context length of 32768 tokens. You requested a total of 40000 tokens: 8000 tokens from the input messages and 32000 tokens for the completion.",
			mainLog("Error: Requested token count exceeds the model's maximum context length of 131072 tokens. You requested a total of 131100 tokens: 100 tokens from the input messages and 131000 tokens for the completion."),
			// The KV cache pool can bound the input below the context length.
			hdr("Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens). Use a shorter input or enable --allow-auto-truncate."),
			`{"object":"error","message":"Input length (40960 tokens) exceeds the maximum allowed length (32763 tokens). Use a shorter input or enable --allow-auto-truncate.","type":"BadRequestError","param":null,"code":400}`,
			// The OpenAI API's wording, as a client logs the 400 body.
			"01/15 16:19:27 - OpenCompass - ERROR - openai_api.py - _generate - 650 - Error code: 400 - {'object': 'error', 'message': \"This model's maximum context length is 2048 tokens. However, you requested 6751 tokens (6719 in the messages, 32 in the completion). Please reduce the length of the messages or completion.\", 'code': 400}",
		},
		miss: []string{
			mainLog("The input (100 tokens) is shorter than the model's context length (32768 tokens)."),
			mainLog("Requested token count is within the model's maximum context length of 32768 tokens."),
			mainLog("This model's maximum context length is 2048 tokens."),
			hdr("Request length is longer than the KV cache pool size or the max context length. Truncated. len(req.origin_input_ids)=70000, max_req_input_len=59862."),
		},
	},
	// compiled kernels: import and ABI
	"sgl-kernel-undefined-symbol": {
		match: []string{
			"ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
			rawTB("ImportError: /opt/conda/lib/python3.10/site-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate"),
			"- ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/sm100/common_ops.abi3.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_",
		},
		miss: []string{
			"ImportError: /usr/local/lib/python3.10/dist-packages/flashinfer/flashinfer_kernels.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
			"sgl_kernel: 0.3.9.post2",
		},
	},
	"torch-extension-undefined-symbol": {
		match: []string{
			rawTB("ImportError: /usr/local/lib/python3.10/dist-packages/flashinfer/flashinfer_kernels.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb"),
			"ImportError: /home/pc/data/vllm/vllm/vllm/_C.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
			"[rank0]: ImportError: /usr/local/lib/python3.10/dist-packages/transformer_engine_extensions.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEENS2_8optionalINS2_10ScalarTypeEEENS6_INS2_6LayoutEEENS6_INS2_6DeviceEEENS6_IbEE",
		},
		miss: []string{"ImportError: cannot import name 'flash_attn_func' from 'flash_attn' (/usr/local/lib/python3.10/dist-packages/flash_attn/__init__.py)"},
	},
	"sgl-kernel-common-ops-load-failed": {
		match: []string{
			"ImportError: \n[sgl_kernel] CRITICAL: Could not load any common_ops library!\nAttempted locations:",
			rawTB("ImportError: [sgl_kernel] CRITICAL: Could not load any common_ops library!"),
		},
		miss: []string{"- ModuleNotFoundError: No module named 'common_ops'"},
	},
	"sgl-kernel-cuda-lib-not-found": {
		match: []string{
			"from sgl_kernel import gelu_and_mul, silu_and_mul\n" +
				`  File "/tmp/pex/venvs/1/dc55218965a020edeb15eb54f013bb950c7766d2/779eb2cc0ca9e2fdd204774cbc41848e4e7c5055/lib/python3.12/site-packages/sgl_kernel/__init__.py", line 217, in <module>` + "\n" +
				`    raise RuntimeError("Could not find CUDA lib directory.")` + "\n" +
				"RuntimeError: Could not find CUDA lib directory.",
			tb("RuntimeError: Could not find CUDA lib directory."),
		},
		miss: []string{mainLog("CUDA_HOME: /usr/local/cuda, found CUDA lib directory /usr/local/cuda/lib64")},
	},
	"cuda-shared-library-missing": {
		match: []string{
			"ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory",
			rawTB("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory"),
			"OSError: libcuda.so.1: cannot open shared object file: No such file or directory",
			tb("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory"),
		},
		miss: []string{"ImportError: libGL.so.1: cannot open shared object file: No such file or directory"},
	},
	"ninja-not-installed": {
		match: []string{
			"    raise child_exception_type(errno_num, err_msg, err_filename)\n\nFileNotFoundError: [Errno 2] No such file or directory: 'ninja'",
			"FileNotFoundError: [Errno 2] No such file or directory: 'ninja': 'ninja'",
			tb("RuntimeError: Ninja is required to load C++ extensions"),
			"/bin/sh: 1: ninja: not found",
		},
		miss: []string{
			"ninja: build stopped: subcommand failed.",
			"FileNotFoundError: [Errno 2] No such file or directory: 'nvcc'",
		},
	},
	// CUDA
	"cuda-operation-not-permitted-when-capturing": {
		match: []string{
			"    return self._op(*args, **kwargs)\nRuntimeError: CUDA error: operation not permitted when stream is capturing\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
			"[05/25/2023-20:44:13] [E] Error[1]: [executionContext.cpp::handleTrainStationRunnerPhase1::146] Error Code 1: Cuda Runtime (operation not permitted when stream is capturing)",
			tb("Exception: Capture cuda graph failed: CUDA error: operation not permitted when stream is capturing"),
			"Exception: Capture cuda graph failed: CUDA error: capturing stream has unjoined work",
			// The rest of the runtimes' stream-capture family, HIP's wording included.
			"HIP error: operation not permitted on an event last recorded in a capturing stream",
			"RuntimeError: CUDA error: operation would make the legacy stream depend on a capturing blocking stream",
		},
		miss: []string{hdr("Capture cuda graph begin. This can take up to several minutes. avail mem=10.51 GB")},
	},
	"torch-memory-saver-resume-oom": {
		match: []string{
			"[torch_memory_saver.cpp] cudaError error: 2 (out of memory)  file=csrc/core.cpp func=resume line=172",
			"[torch_memory_saver.cpp] CUresult error  result=2 file=csrc/torch_memory_saver.cpp func=cu_mem_create line=103 (5)",
			// The form with the error's name, behind a Ray actor's prefix.
			"(SGLangHttpServer pid=250977) [torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=194",
			"[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/core.cpp func=resume line=210 [repeated 7x across cluster]",
		},
		miss: []string{
			"[torch_memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. torch allocator will free cache and retry)",
			"[torch_memory_saver.cpp] CUresult error  result=1 file=csrc/torch_memory_saver.cpp func=resume line=214",
			"[torch_memory_saver.cpp] CUresult error: 1 (invalid argument)  file=csrc/utils.h func=cu_mem_create line=194",
			"[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_unmap line=201",
		},
	},
	"native-cuda-error-at-function": {
		match: []string{
			"`CUDA Error: device-side assert triggered (710) /tmp/build-via-sdist-d34cpfe8/flashinfer-0.1.6+cu121torch2.4/include/flashinfer/attention/decode.cuh: line 749 at function cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_size)",
			"vllm-rs-med1  | CUDA Error: invalid argument (invalid argument) /root/.cudaforge/git/checkouts/flashinfer-a49b45336e56e461/include/flashinfer/attention/hopper/prefill_sm90.cuh: line 414 at function cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_size)",
			hdr("CUDA Error: no kernel image is available for execution on the device (209) /tmp/build-via-sdist-nl8se4dx/flashinfer-0.0.4+cu118torch2.2/include/flashinfer/attention/decode.cuh: line 871 at function cu"),
		},
		miss: []string{
			"CUDA Error: invalid device function /PATH/flash-attention/csrc/layer_norm/ln_fwd_kernels.cuh 271",
			"RuntimeError: CUDA error: device-side assert triggered",
		},
	},
	"out-of-bound-tensor-access-assert": {
		match: []string{
			"Out Of Bound Tensor access detected at dim[1]: assert(64 < 63)",
			hdr("Prefill batch. #new-seq: 1, #new-token: 7, #cached-token: 0, cache hit rate: 0.00%, token usage: 0.00, #running-req: 0, #queue-req: 0") + "\nOut Of Bound Tensor access detected at dim[1]: assert(63 < 63)",
		},
		miss: []string{"C:/cb/pytorch_1000000000000/work/aten/src/THC/THCTensorIndex.cu:218: block: [0,0,0], thread: [3,0,0] Assertion `srcIndex < srcSelectDimSize` failed."},
	},
	// distributed
	"gloo-transport-timeout": {
		match: []string{
			"Exception: Capture cuda graph failed: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:133] Timed out waiting 1800000ms for send operation to complete",
			tb("RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete"),
			"(pid=3769) 2020-05-07 21:07:16,707    WARNING torch_trainer.py:413 -- [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:72] Timed out waiting 10000ms for recv operation to complete",
			"Hi I meet a bug：RuntimeError: Application timeout caused pair closure。",
		},
		miss: []string{"RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.0.2]:45678"},
	},
	"gloo-connection-closed-by-peer": {
		match: []string{
			"RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [33.145.122.250]:41677",
			tb("Exception: Capture cuda graph failed: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.0.2]:45678"),
		},
		miss: []string{
			"ConnectionResetError: [Errno 104] Connection reset by peer",
			"aiohttp.client_exceptions.ServerDisconnectedError: Connection closed by peer",
		},
	},
	"gloo-connect-full-mesh-failed": {
		match: []string{
			"[rank4]:[E421 02:05:38.764490322 ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
			tb("RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error"),
		},
		miss: []string{"[Gloo] Rank 0 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1"},
	},
	"c10d-collective-timeout-dump-signal": {
		match: []string{
			"[rank6]:[E909 08:45:31.970959174 ProcessGroupNCCL.cpp:1870] [PG ID 0 PG GUID 0 Rank 6] Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: -1, last completed NCCL work: -1.This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across ranks, the order of collectives is not same for all ranks or the scheduled collective, for some reason, didn't run. Additionally, this can be caused by GIL deadlock or other reasons such as network errors or bugs in the communications library (e.g. NCCL), etc. ",
			"[1803] [rank1]:[E602 11:17:52.557891708 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 1] Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: 6, last completed NCCL work: 6.",
			"   Rank 0] Received a timeout signal from this local rank and will start",
			"[rank7]:[E430 05:09:48.083703086 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 7] Received a dump signal due to a collective timeout from this local \nrank and we will try our best to dump the debug info. Last enqueued NCCL work: 9387, last completed NCCL work: 9386.",
		},
		miss: []string{
			"[rank5]:[E723 01:58:45.667329643 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 5] Received a dump signal due to a collective timeout from  rank 2 and we will try our best to dump the debug info.",
			"[rank2]:[E909 08:45:31.916910323 ProcessGroupNCCL.cpp:1589] [PG ID 0 PG GUID 0 Rank 2] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1",
		},
	},
	"c10d-dump-signal-from-other-rank": {
		match: []string{
			"[rank5]:[E723 01:58:45.667329643 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 5] Received a dump signal due to a collective timeout from  rank 2 and we will try our best to dump the debug info. Last enqueued NCCL work: 136, last completed NCCL work: 136.",
			"[rank2]:[E901 05:20:03.118859045 ProcessGroupNCCL.cpp:1746] [PG ID 0 PG GUID 0(default_pg) Rank 2] Received a dump signal due to a collective timeout from  rank 6 and we will try our best to dump the debug info. Last enqueued NCCL work: 460631, last completed NCCL work: 460630.",
		},
		miss: []string{"[rank7]:[E430 05:09:48.083703086 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 7] Received a dump signal due to a collective timeout from this local "},
	},
	"c10d-failure-detected-by-watchdog": {
		match: []string{
			"[rank7]:[E901 05:20:03.124073319 ProcessGroupNCCL.cpp:2271] [PG ID 0 PG GUID 0(default_pg) Rank 7]  failure detected by watchdog at work sequence id: 460631 PG status: last enqueued work: 460631, last completed work: 460630",
			"[rank0]:[E1112 23:34:28.617797496 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 0] Exception (either an error or timeout) detected by watchdog at work: 40402014, last enqueued NCCL work: 40402014, last completed NCCL work: 40402013.",
		},
		miss: []string{"[rank7]:[E901 05:20:03.124080696 ProcessGroupNCCL.cpp:670] Stack trace of the failed collective not found, potentially because FlightRecorder is disabled."},
	},
	"c10d-dump-debug-info": {
		match: []string{
			"[rank2]:[E909 08:45:31.916910323 ProcessGroupNCCL.cpp:1589] [PG ID 0 PG GUID 0 Rank 2] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1",
			"[rank1]:[E1026 04:01:30.105691758 ProcessGroupNCCL.cpp:1575] [PG ID 0 PG GUID 0(default_pg) Rank 1] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1",
		},
		miss: []string{"[rank3[]:[E508 07:35:59.440171617 ProcessGroupNCCL.cpp:733] Stack trace of the failed collective: "},
	},
	"ucx-caught-signal-segfault": {
		match: []string{
			"[ubuntu-GPU-L40S-4802111:12796:1:13303] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7fbd60001400)\n==== backtrace (tid:  13303) ====",
			"[beaker:594314:0:594797] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7a80e6008000)",
			"17:53:48 [hpc-test-node2:6294 :2] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))",
		},
		miss: []string{"==== backtrace (tid:  13303) ====", "Fatal Python error: Segmentation fault"},
	},
	// disaggregation transfer engines
	"mooncake-connect-to-segment-failed": {
		match: []string{
			"E1210 03:24:54.778028 2548307 ascend_direct_transport.cpp:820] Failed to connect to target: 172.16.100.99:25389, status: 103900",
			"E1210 03:24:54.778062 2548307 ascend_direct_transport.cpp:581] Failed to connect to segment: 172.16.100.99:16381",
			"E0904 21:29:13.608029 31963 transfer_task.cpp:469] Failed to open segment 192.168.10.12:12516",
		},
		miss: []string{
			"I1126 03:38:24.317862 149715 transfer_engine.cpp:146] Transfer Engine RPC using new RPC mapping, listening on 172.17.0.3:16140",
			hdr("Failed to connect to metadata server: [Errno 111] Connection refused"),
		},
	},
	"mooncake-transfer-slice-failed": {
		match: []string{
			"E1213 02:57:10.528410  5811 worker_pool.cpp:274] Worker: Process failed for slice (opcode: 0, source_addr: 0x7efdf3ffd010, length: 404, dest_addr: 140532604981264, local_nic: mlx5_1, peer_nic: 127.0.0.1:8149@mlx5_0, dest_rkey: 2105088, retry_cnt: 0): transport retry counter exceeded",
			"E0603 20:16:59.104586 27322 worker_pool.cpp:271] Worker: Process failed for slice (opcode: 1, source_addr: 0x7f20fe0f1680, length: 65536, dest_addr: 0x7f3d820f3a80, local_nic: mlx5_7, peer_nic: 10.93.81.13:15729@mlx5_0, dest_rkey: 2116517, retry_cnt: 0): transport retry counter exceeded",
		},
		miss: []string{"I0617 08:42:42.471800   413 rdma_context.cpp:125] RDMA device: mlx5_6, LID: 8, GID: (GID_Index 0) fe:80:00:00:00:00:00:00:a0:88:c2:03:00:12:55:cc"},
	},
	"mooncake-metadata-server-unreachable": {
		match: []string{
			"E0904 21:29:13.607991 31963 transfer_metadata_plugin.cpp:224] Error from http client, GET http://192.168.10.12:8080/metadata?key=mooncake%2Fram%2F192.168.10.12%3A12516 error: Failed initialization",
			"E0414 03:56:41.856248 77969 transfer_metadata_plugin.cpp:173] Unexpected code in http response, GET http://10.6.131.5:8998/metadata?key=mooncake%2Fram%2F10.6.131.6_58f33e4e-7c3e-443f-97b8-ec267c066c4f response code: 404 response body: metadata not found",
		},
		miss: []string{`[2025-04-14 03:56:41] 10.6.131.5 [14/Apr/2025:03:56:41 +0000] "GET /metadata?key=mooncake%2Fram%2F10.6.131.6_58f33e4e-7c3e-443f-97b8-ec267c066c4f HTTP/1.1" 404 185 "-" "-"`},
	},
	"mooncake-memory-registration-failed": {
		match: []string{
			"    raise RuntimeError(\"Mooncake memory registration failed.\")\nRuntimeError: Mooncake memory registration failed.",
			"E0605 10:48:27.885119 10136 rdma_context.cpp:203] Failed to register memory 0x7b375b400000: Invalid argument [22]\n[2025-06-05 10:48:27 TP7] Mooncake memory registration failed.",
			"E0429 07:15:48.497743  1710 rdma_context.cpp:201] Failed to register memory 0x7f4680000000: Bad address [14]",
			// The transports' own warning-level wording, one line a buffer.
			"W1212 12:06:27.218729   205 rdma_transport.cpp:166] RdmaTransport: Failed to register memory: addr 0x7fd3e6368000 length 294912",
			"W0301 08:00:01.000100    77 efa_transport.cpp:780] EfaTransport: Failed to register memory: addr 0x7f0000000000 length 1073741824",
		},
		miss: []string{
			"I0605 10:48:27.542429 10134 rdma_context.cpp:125] RDMA device: mlx5_0, LID: 1698, GID: (GID_Index 0) fe:80:00:00:00:00:00:00:00:15:5d:ff:fd:34:02:2b",
			"I1212 12:06:27.218729   205 rdma_transport.cpp:150] RdmaTransport: register memory: addr 0x7fd3e6368000 length 294912",
		},
	},
	"nixl-prep-xfer-dlist-failed": {
		match: []string{
			"E0713 23:29:03.494601 nixl_agent.cpp:631] prepXferDlist: failed to prepare\nthe descriptors for any of the specified or potential backends for agent ''",
			tb("nixl._bindings.nixlNotFoundError: NIXL_ERR_NOT_FOUND"),
		},
		miss: []string{"2025-04-21T19:40:33.497Z ERROR serve_dynamo.worker: [MainWorker:1] Error in Dynamo component setup: prepXferDlist(): incompatible function arguments. The following argument types are supported:"},
	},
	"nixl-ucx-backend-create-failed": {
		match: []string{
			"E0717 07:30:06.719633  994396 ucx_utils.cpp:537] UCX endpoint create failed: failed to create ep",
			"[1784273406.684686] [iv-ydzf15rfggbw80bfv8sr:994396:0]      ib_mlx5_dv.c:452  UCX  ERROR   mlx5dv_devx_obj_create(CQ) failed on mlx5_1, syndrome 0x2aac7c: Remote I/O error",
			"E0421 11:56:59.775353  709103 nixl_agent.cpp:322] createBackend: unsupported backend 'UCX'",
			rawTB("nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND"),
			"[1784273406.684686] [prefill-0:994396:0]      ib_mlx5_dv.c:433  UCX  ERROR   mlx5dv_devx_obj_modify(opcode=0x503) failed, syndrome 0x5d668c: Remote I/O error",
			"2026-02-11T09:14:03.520Z ERROR worker.init_nixl: NIXL_ERR_BACKEND",
			"[2026-02-11 09:14:03] ERROR kv_connector: failed to register KV caches: NIXL_ERR_BACKEND",
		},
		miss: []string{
			"INFO nixl agent created; backend errors map to NIXL_ERR_BACKEND and NIXL_ERR_REMOTE_DISCONNECT",
			"W0717 07:30:06.719567  994396 ucx_enums.cpp:58] Unexpected UCX error: Out of memory",
			"[1744331142.028115] [ccw-gpu-51:2802608:3]      ucp_worker.c:1903 UCX  INFO    ucp_context_2 inter-node cfg#3 rma(rc_mlx5/mlx5_ib2:1)  amo(rc_mlx5/mlx5_ib2:1)",
		},
	},
	// multi-GPU and multi-node set-up
	"cuda-reinit-forked-subprocess": {
		match: []string{
			rawTB("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"),
			tb("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"),
		},
		miss: []string{mainLog("Using the spawn start method so CUDA is not initialized in a forked subprocess")},
	},
	"cuda-peer-access-unsupported": {
		match: []string{
			"Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'",
			tb("RuntimeError: CUDA error: peer access is not supported between these two devices"),
			"z-pc:909608:910337 [0] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices",
		},
		miss: []string{
			hdr("Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly."),
			"sglang-1  | [2025-11-01 16:50:36 TP1] Setup Custom allreduce failed with CUDART error: peer access is not supported between these two devices. To silence this warning, specify --disable-custom-all-reduce explicitly.",
		},
	},
	"nvshmem-connect-failed": {
		match: []string{
			"/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:418: non-zero status: 110 ibv_modify_qp failed",
			"/sgl-workspace/nvshmem/src/host/init/init.cu:1007: non-zero status: 7 nvshmem setup connections failed",
			"transport create connect failed ",
		},
		miss: []string{hdr("NVSHMEM initialization has completed, DeepEP buffer allocated: 2115.11 MB")},
	},
	"argparse-usage-error": {
		match: []string{
			"launch_server.py: error: unrecognized arguments: --enable-reasoning",
			"sglang serve: error: argument --tp-size: invalid int value: 'auto'",
			"launch_router.py: error: the following arguments are required: --worker-urls",
			"按照说明运行，会显示launch_server.py: error: unrecognized arguments: --foo 1",
			// A positional argument is named by its metavar or dest, or
			// by its choices when it has neither: a mistyped subcommand.
			"lmdeploy: error: argument command: invalid choice: 'serv' (choose from 'lite', 'serve', 'list', 'check_env', 'chat')",
			"vllm: error: argument subparser: invalid choice: 'server' (choose from bench, collect-env, chat, complete, serve, run-batch)",
			"trtllm-bench: error: argument {throughput,latency,build}: invalid choice: 'thruput' (choose from 'throughput', 'latency', 'build')",
			"convert_checkpoint.py: error: argument model_dir: invalid Path value: ''",
		},
		miss: []string{
			"usage: launch_server.py [-h] --model-path MODEL_PATH [--tokenizer-path TOKENIZER_PATH]",
			hdr("Parsed arguments: error: none, unrecognized arguments: none"),
			"usage: lmdeploy [-h] [-v] {lite,serve,list,check_env,chat} ...",
		},
	},
	"nvidia-xid-error": {
		match: []string{
			"[ 5521.002137] NVRM: Xid (PCI:0000:3b:00): 31, pid=4172, name=python3, Ch 00000010, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f12_3456d000. Fault is of type FAULT_PDE ACCESS_TYPE_READ",
			"Jun 02 13:13:04 gpu-7 kernel: NVRM: Xid (PCI:0000:b3:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.",
		},
		miss: []string{
			"[ 1843.439669] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.158.01  Release Build",
			// Xid 79 is the GPU falling off the bus, its own record.
			"[ 8132.115302] NVRM: Xid (PCI:0000:3b:00): 79, pid=4172, name=python3, GPU has fallen off the bus.",
		},
	},
	"deepep-timeout": {
		match: []string{
			"DeepEP dispatch forwarder timeout (RDMA meta), channel: 3, RDMA: 1, nvl: 2, src RDMA lane: 0, dst NVL: 4, meta: 0, 0, 0, 0",
			"DeepEP timeout for dispatch receivers, rank 5, responsible_channel = 11, tokens remained: 17",
			"[rank3]: DeepEP combine NVL receiver timeout, channel: 1, RDMA: 0, nvl: 3, src nvl: 2",
			"DeepEP timeout check failed: rank = 2, thread = 7, value = 1)",
			"RuntimeError: DeepEP error: timeout (dispatch CPU)",
			"RuntimeError: DeepEP error: CPU recv timeout",
		},
		miss: []string{
			hdr("DeepEP buffer created: num_nvl_bytes=1073741824, num_rdma_bytes=0, timeout handling enabled"),
			hdr("Using DeepEP dispatch with low_latency mode"),
			"deepep_config=None, moe_a2a_backend='deepep', dist_timeout=None",
		},
	},
	"torch-elastic-child-failed": {
		match: []string{
			"E0801 13:23:20.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 3 (pid: 33054) of binary: /usr/bin/python3",
			"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 1622) of binary: /opt/conda/bin/python",
			"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n============================================================\nserve.py FAILED",
		},
		miss: []string{
			"W0801 13:23:17.366000 32974 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 33051 closing signal SIGTERM",
			"I0801 13:23:20.000000 32974 torch/distributed/elastic/agent/server/api.py:874] worker group successfully finished (exitcode: 0) local_rank: 0",
		},
	},
	"nvidia-gpu-fallen-off-bus": {
		match: []string{
			"[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n               NVRM: (PCI ID: 10de:26b5) installed in this system has\n               NVRM: fallen off the bus and is not responding to commands.",
			"Jun 02 13:13:04 gpu-7 kernel: NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus and is not responding to commands.",
			"Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error",
			"Unable to determine the device handle for GPU 0000:65:00.0: GPU is lost.  Reboot the system to recover this GPU",
			// The Xid the driver prints for the same event, and the
			// shorter wording of newer (GSP) drivers.
			"[ 8132.115302] NVRM: Xid (PCI:0000:3b:00): 79, pid=4172, name=python3, GPU has fallen off the bus.",
			"NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.",
			"NVRM: GPU 0000:06:00.0: GPU has fallen off the bus.",
		},
		miss: []string{
			"[ 1843.439669] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.158.01  Release Build",
			"[ 8132.115302] NVRM: Xid (PCI:0000:3b:00): 13, pid=4172, name=python3, Graphics SM Warp Exception on (GPC 0, TPC 0, SM 0): Out Of Range Address",
			"NVRM: GPU 0000:06:00.0: GPU serial number is 0.",
			"NVRM: The NVIDIA probe routine failed for 1 device(s).",
		},
	},
	"triton-fp8-unsupported-arch": {
		match: []string{
			"f8e4m3nv is only supported on compute capability >= 90",
			tb("AssertionError: fp8e4nv data type is not supported on CUDA arch < 89"),
			"  File \"/usr/lib/python3/dist-packages/triton/language/semantic.py\", line 88\nValueError: type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')",
			hdr("fp8e4b8 is only supported on compute capability >= 94"),
		},
		miss: []string{
			hdr("Using fp8e4m3 KV cache; compute capability 9.0 supports it natively"),
			"fp8 is only supported on some devices; falling back to bf16",
			mainLog("Detected fp8 checkpoint. Please note that the format is experimental and subject to change."),
		},
	},
	"hip-no-binary-for-gpu": {
		match: []string{
			":3:hip_platform.cpp         :715 : 8802962852 us: [pid:19349 tid:0x14dec9d33080] init: Returned hipErrorNoBinaryForGpu : continue parsing remaining modules",
			"\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\"",
			":1:hip_fatbin.cpp :276 : 12 us: [pid:7 tid:0x7f] Cannot find CO in the bundle /opt/rocm/lib/librocblas.so for ISA: amdgcn-amd-amdhsa--gfx1101",
			"[rank3]: :1:hip_fatbin.cpp           :117 : 44 us: [pid:9 tid:0x1] Missing CO for these ISAs - ",
			"[AITER] /sgl-workspace/aiter/csrc/include/aiter_hip_common.h:85 fail to call hipModuleLoad(&module, hsa_path.c_str()) ---> [HIP error](file not found)",
			"[AITER] /opt/aiter/csrc/include/aiter_hip_common.h:90 fail to call hipModuleLoadData(&module, co.data()) ---> [HIP error](device kernel image is invalid)",
		},
		miss: []string{
			"[AITER] /opt/aiter/module_fmha_v3_fwd/blob/asm_fmha_fwd_v3_gfx942.cpp:141 fail to call hipModuleLaunchKernel(kernel_func, gdx, gdy, gdz, bdx, 1, 1, 0, s.stream_id_, NULL, reinterpret_cast<void**>(&config)) ---> [HIP error](invalid resource handle)",
			":3:hip_fatbin.cpp :229 : 12 us: [pid:7 tid:0x7f] Found CO for ISA: amdgcn-amd-amdhsa--gfx942",
			":3:hip_platform.cpp :715 : 8 us: [pid:7 tid:0x7f] init: Returned hipSuccess : ",
			"hipErrorNoDevice handling is tested in test_init.py",
		},
	},
	"mooncake-tcp-connect-refused": {
		match: []string{
			"E0423 16:34:48.929325 217299 tcp_transport.cpp:393] TcpTransport: ASIO exception: connect: Connection refused",
			"E20250911 02:01:33.100200  4411 tcp_transport.cpp:402] TcpTransport: ASIO exception: connect: No route to host",
			"[2025-09-11 02:01:33 TP0] E0911 02:01:33.1 4411 tcp_transport.cpp:380] TcpTransport: connect: Connection timed out",
		},
		miss: []string{
			"I0423 16:34:40.000001 217200 tcp_transport.cpp:120] TcpTransport: listen on port 15123",
			"E0423 16:34:48.911491 217200 client.cpp:347] Transfer failed for task1",
			"TcpTransport: connection to 10.0.0.2:15123 established",
		},
	},
	"ascend-sdma-copy-failed": {
		match: []string{
			"[rank0]: EI9999: [PID: 1162] 2025-02-20-02:16:03.427.598 Memory async copy failed, device_id=0, stream_id=2, task_id=17983, flip_num=0, copy_type=2, memcpy_type=0, copy_data_type=0, length=466747392[FUNC:GetError][FILE:stream.cc][LINE:1084]",
			"        The error from device(chipId:3, dieId:0), serial number is 12. there is a sdma error, sdma channel is 0, irqStatus=0x20000 [FUNC:ProcessStarsSdmaErrorInfo][FILE:device_error_proc.cc][LINE:1521]",
			"EZ9999: Inner Error! SDMA copy failed, device_id=1",
		},
		miss: []string{
			"[rank0]:[W220 02:16:08.680800943 NPUStream.cpp:487] Warning: NPU warning, error code is 507001[Error]: ",
			"Memory async copy succeeded after retry",
			mainLog("Using SDMA for host to device copies"),
		},
	},
	"triton-no-active-driver": {
		match: []string{
			"(TaskRunner pid=2911) RuntimeError: 0 active drivers ([]). There should only be one.",
			tb("RuntimeError: 2 active drivers ([<triton.backends.nvidia.driver.CudaDriver object at 0x7f>, <triton.backends.amd.driver.HIPDriver object at 0x7e>]). There should only be one."),
		},
		miss: []string{
			mainLog("Found 1 active drivers for triton: cuda"),
			"There should only be one server per port",
		},
	},
	"cuda-allocator-capture-assert": {
		match: []string{
			"`RuntimeError: captures_underway.empty() INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":2967; please report a bug to PyTorch. `",
			tb("RuntimeError: !captures_underway.empty() INTERNAL ASSERT FAILED at \"/pytorch/c10/cuda/CUDACachingAllocator.cpp\":3102, please report a bug to PyTorch."),
			rawTB("RuntimeError: block->stream_uses.empty() INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":1710, please report a bug to PyTorch."),
		},
		miss: []string{
			tb("RuntimeError: t.is_cuda() INTERNAL ASSERT FAILED at \"../aten/src/ATen/native/cuda/Loss.cu\":240, please report a bug to PyTorch."),
			mainLog("Capture cuda graph begin. This can take up to several minutes. avail mem=20.1 GB"),
		},
	},
	"mooncake-no-rdma-device": {
		match: []string{
			"W20250516 09:00:52.240088 45697 topology.cpp:55] No RDMA devices found, check your device installation",
			"W0903 11:02:17.118452  8812 topology.cpp:61] No RDMA device found, check your device installation",
			"(SGLangEngine pid=311) W20251104 02:11:09.552017   311 topology.cpp:55] **No RDMA devices found, check your device installation**",
		},
		miss: []string{
			"I20250516 09:00:52.240196 45697 transfer_engine.cpp:127] Topology discovery complete. Found 2 HCAs.",
			mainLog("No RDMA device given, using --disaggregation-ib-device mlx5_0"),
			"No RDMA devices were needed for this test",
		},
	},
	"disagg-warmup-failed": {
		match: []string{
			mainLog("Prefill disaggregation mode warm Up Failed, status code: 400"),
			hdr("Prefill disaggregation mode warm Up Failed, status code: 500"),
			"[2026-05-27 18:22:25] Decode disaggregation mode warm Up Failed, status code: 503",
		},
		miss: []string{
			mainLog("End of prefill disaggregation mode warmup with status 200, resp: [{'text': ''}]"),
			mainLog("The server is fired up and ready to roll!"),
			mainLog("warm up failed once, retrying"),
		},
	},
	"disagg-bootstrap-unreachable": {
		match: []string{
			"Error querying dp_ranks from bootstrap: HTTPConnectionPool(host='10.0.4.40', port=38711): Max retries exceeded with url: /query_dp_ranks (Caused by NewConnectionError(\"HTTPConnection(host='10.0.4.40', port=38711): Failed to establish a new connection: [Errno 99] Cannot assign requested address\"))",
			mainLog("Error fetching prefill parallel info from bootstrap: HTTPConnectionPool(host='127.0.0.1', port=8998): Max retries exceeded with url: /route?engine_rank=-1&target_dp_group=-1 (Caused by NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))"),
			hdr("Error fetching prefill info from bootstrap: HTTPConnectionPool(host='10.1.1.2', port=8998): Read timed out. (read timeout=5)"),
		},
		miss: []string{
			hdr("Failed to get 'kv_layout' from bootstrap: key not found"),
			mainLog("Querying dp_ranks from bootstrap at 10.0.4.40:38711"),
		},
	},
	"mlx5-qp-error": {
		match: []string{
			"[Wed Jul 29 14:40:27 2026] mlx5_bond_0/1: QP 51291 error: local length error (0x8e 0x0 0x0)",
			"[ 4411.100234] mlx5_0/1: QP 4711 error: remote access error (0x88 0x0 0x0)",
			"mlx5: node-3: got completion with error:",
		},
		miss: []string{
			"Feb 14 05:03:41 gpu-1 kernel: mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link ACTIVE",
			"node17-2:36754:36754 [6] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE",
		},
	},
	"native-segfault-handler": {
		match: []string{
			"!!!!!!! Segfault encountered !!!!!!!",
			"*** SIGSEGV (@0x0) received by PID 4242 (TID 0x7f1c2bfff640) from PID 0; stack trace: ***",
			"*** Aborted at 1716871869 (unix time) try \"date -d @1716871869\" if you are using GNU date ***",
		},
		miss: []string{hdr("Segfault handler installed; native crashes will print a stack trace")},
	},
	"c10d-tcpstore-recv-failed": {
		match: []string{
			"[rank1]:[W1119 17:59:26.271588084 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=61, addr=[localhost]:33850, remote=[localhost]:30005): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?",
			"[W402 10:11:12.000000001 TCPStore.cpp:106] [c10d] sendBytes failed on SocketImpl(fd=12, addr=[node-1]:51234, remote=[node-0]:29500): Broken pipe",
		},
		miss: []string{"[I1119 17:59:26.271588084 TCPStore.cpp:300] [c10d] TCP client connected to host localhost:30005"},
	},
	"mooncake-handshake-modify-qp-failed": {
		match: []string{
			"[Handshake] Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num: Connection timed out",
			"E0305 10:02:11.123456  4711 rdma_endpoint.cpp:311] [Handshake] Failed to modify QP to INIT, check local context port num: Invalid argument [22]",
			"E0305 10:02:11.123456  4711 rdma_endpoint.cpp:330] [Handshake] Failed to modify QP to RTS: Connection timed out [110]",
			// The reply a peer logs carries the message without the prefix.
			"Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num: Connection timed out",
		},
		miss: []string{
			"I0305 10:02:11.123456  4711 rdma_endpoint.cpp:280] [Handshake] QP moved to RTR",
			// Another RDMA program's own wording: the generic record.
			"Failed to modify QP to RTR: Connection timed out",
		},
	},
	"rdma-modify-qp-failed": {
		match: []string{
			// UCCL's expert-parallel transport, with the errno on a line of its own.
			"Failed to modify QP to RTR: Connection timed out",
			"Failed to modify QP to RTS",
			"Server: Failed to modify QP to INIT: Invalid argument",
		},
		miss: []string{
			// Mooncake's handshake wordings read Mooncake's record.
			"E0331 12:03:04.222625 56060 rdma_endpoint.cpp:385] [Handshake] Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num: Connection timed out [110]",
			"E0305 10:02:11.123456  4711 rdma_endpoint.cpp:311] [Handshake] Failed to modify QP to RTS: Connection timed out [110]",
			"Server: Client 3 QP transitioned to RTS with local PSN 0x1a2b3c",
		},
	},
	"mooncake-rnic-marked-inactive": {
		match: []string{
			"W0724 03:14:20.702893 104002 worker_pool.cpp:303] Too many errors found in local RNIC 10.0.2.69:15858@mlx5_bond_2, mark it inactive",
			"Too many errors found in local RNIC node-1:16001@mlx5_3, mark it inactive",
		},
		miss: []string{"I0724 03:14:20.702893 104002 worker_pool.cpp:120] Local RNIC 10.0.2.69:15858@mlx5_bond_2 is active"},
	},
	"c10d-store-socket-wait-timeout": {
		match: []string{
			"[rank1]:[W623 15:37:01.824135523 socket.cpp:485] [c10d] waitForInput: socket SocketImpl(fd=100, addr=[node-0]:43590, remote=[node-0]:20000) timed out after 1800000ms",
			"[W623 15:37:01.823833318 socket.cpp:460] [c10d] waitForInput: poll for socket SocketImpl(fd=100, addr=[10.0.0.2]:43590, remote=[10.0.0.1]:20000) returned 0, likely a timeout",
		},
		miss: []string{"[I623 15:07:01.823833318 socket.cpp:460] [c10d] waitForInput: socket SocketImpl(fd=100, addr=[node-0]:43590, remote=[node-0]:20000) is ready"},
	},
	"mooncake-transfer-batch-timeout": {
		match: []string{
			"E1120 11:10:27.133715 203020 transfer_task.cpp:305] Failed to complete transfers after 60 seconds for batch 2586731328",
			"(SGLangEngine pid=3111) E0612 02:00:00.000001 411 transfer_task.cpp:305] Failed to complete transfers after 120 seconds for batch 77",
			// Retyped from a screenshot: the spaces around the batch word lost.
			"E1012 09:10:11.485378 1401 transfer_task.cpp:236] Failed to complete transfers after 60 seconds for batch1401785",
		},
		miss: []string{
			"I1120 11:09:23.594488 203018 transfer_task.cpp:290] Completed transfers for batch 2586731328 in 3 ms",
			"I1120 11:09:23.594488 203018 transfer_task.cpp:290] Failed to complete transfers after retry for batch 12",
		},
	},
	"extension-incompatible-function-arguments": {
		match: []string{
			"TypeError: m_grouped_fp8_fp4_gemm_nt_contiguous(): incompatible function arguments.",
			tb("TypeError: prepXferDlist(): incompatible function arguments. The following argument types are supported:"),
		},
		miss: []string{"TypeError: forward() got an unexpected keyword argument 'positions'"},
	},
	"tensors-on-different-devices": {
		match: []string{
			"RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA__native_layer_norm)",
			tb("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
		},
		miss: []string{hdr("Moving all tensors to the same device before capture")},
	},
	"openai-request-validation-error": {
		match: []string{
			"pydantic_core._pydantic_core.ValidationError: 5 validation errors for ChatCompletionRequest\nmessages.1.ChatCompletionMessageGenericParam.content.str\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]",
			"pydantic_core._pydantic_core.ValidationError: 1 validation error for CompletionRequest",
		},
		miss: []string{"pydantic_core._pydantic_core.ValidationError: 1 validation error for ServerArgs"},
	},
	"chat-template-render-error": {
		match: []string{
			"TypeError: Object of type Undefined is not JSON serializable",
			rawTB("jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/..."),
			// A template's own errors, returned in a response body without the class.
			`{"object":"error","message":"Internal server error: Message has tool role, but there was no previous assistant message with a tool call!","type":"InternalServerError","param":null,"code":500}`,
			mainLog("Error in request: After the optional system message, conversation roles must alternate user/assistant/user/assistant/..."),
			`{"object":"error","message":"System role not supported","type":"BadRequestError","param":null,"code":400}`,
			rawTB("jinja2.exceptions.TemplateError: No user query found in messages."),
			`{"object":"error","message":"Tool call IDs should be alphanumeric strings with length 9!","type":"BadRequestError","param":null,"code":400}`,
			mainLog("Error in request: This model only supports single tool-calls at once!"),
			"Only user and assistant roles are supported!",
		},
		miss: []string{
			"TypeError: Object of type datetime is not JSON serializable",
			mainLog("Use chat template for the OpenAI-compatible API server: /templates/tool_chat_template_mistral.jinja"),
		},
	},
	// router
	"router-worker-connect-failed": {
		match: []string{
			"2025-10-07 23:31:33 ERROR sglang_router_rs::core::worker: src/core/worker.rs:517: Failed to connect gRPC client for worker grpc://localhost:20000: transport error",
			"ERROR sglang_router_rs::core::worker: src/core/worker.rs:517: Failed to connect gRPC client for worker grpc://10.0.3.7:31001: transport error",
		},
		miss: []string{"2025-10-07 23:31:33 DEBUG sglang_router_rs::grpc_client::sglang_scheduler: src/grpc_client/sglang_scheduler.rs:28: Connecting to SGLang scheduler at grpc://localhost:20001"},
	},
	"router-worker-health-check-failed": {
		match: []string{
			`WARN sglang_router_rs::core::worker: src/core/worker.rs:615: HTTP health check failed for grpc://192.168.1.200:31001: reqwest::Error { kind: Builder, url: "grpc://192.168.1.200:31001/health", source: BadScheme }`,
			"`WARN sglang_router_rs::core::worker: src/core/worker.rs:569: gRPC health RPC error for grpc://xx.x.xxx.x:abc: Status { code: Unknown, message: \"h2 protocol error: http2 error\" }`",
			"2025-10-07 23:31:33 DEBUG sglang_router_rs::core::worker_manager: src/core/worker_manager.rs:1031: Worker grpc://localhost:20000 health check failed: Connection failed for worker grpc://localhost:20000: Failed to connect to gRPC server: transport error",
		},
		miss: []string{"[Router (Rust)] 2025-03-08 02:33:09 - INFO - Worker http://0.0.0.0:31000 health check is pending with error: error sending request for url (http://0.0.0.0:31000/health)"},
	},
	"router-removed-failed-worker": {
		match: []string{
			// sgl-project/sglang#4562: the router's older log format.
			"[Router (Rust)] 2025-03-18 14:17:58 - WARN - Removing failed worker: http://localhost:8001",
			"2025-05-21T03:52:00.406894Z  WARN sglang_router_rs::router: src/router.rs:412: Removing failed worker: http://10.0.0.7:30000",
		},
		miss: []string{
			"[Router (Rust)] 2025-03-18 14:17:58 - INFO - Removed worker: http://localhost:8001",
			"[Router (Rust)] 2025-03-18 14:17:58 - WARN - Generate request to http://localhost:8001 failed (attempt 1/3)",
			"2025-05-21T03:52:00Z  INFO sglang_router_rs::server: Removing worker http://10.0.0.7:30000 on request",
		},
	},
	"router-workers-startup-timeout": {
		match: []string{
			"[Bug] Failed to create router: Timeout 300s waiting for workers to become healthy",
			`[Router (Rust)] 2025-01-09 00:33:10 - ERROR - Timeout 300s waiting for workers ["http://0.0.0.0:31000", "http://0.0.0.0:31778"] to become healthy. Please set --router-worker-startup-timeout-secs (sglang_router.launch_server) or --worker-startup-timeout-secs (sglang_worker.router) to a larger value`,
		},
		miss: []string{"[Router (Rust)] 2025-03-08 02:33:09 - INFO - Worker http://0.0.0.0:31778 health check is pending with error: error sending request for url (http://0.0.0.0:31778/health)"},
	},
	"router-no-available-workers": {
		match: []string{
			"(RolloutManager pid=519445) For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/503, retrying... (attempt 60/60, url=http://10.78.210.151:4674/generate, response=No available workers (all circuits open or unhealthy))",
			`2025-11-08T10:07:09.123456Z  WARN sglang_router_rs::routers::http::router: src/routers/http/router.rs:312: No available workers (all circuits open or unhealthy)`,
		},
		miss: []string{"2025-11-08T10:07:09.123456Z  INFO sglang_router_rs::core::worker_registry: Worker http://10.0.0.5:30000 is available again (circuit closed)"},
	},
	"router-request-server-error": {
		match: []string{
			"(RolloutManager pid=519445) 2025-11-08 10:07:09 ERROR sglang_router_rs::response: src/middleware.rs:256: request failed with server error",
			"2025-11-08T10:07:09.123456Z ERROR sglang_router_rs::middleware: src/middleware.rs:256: request failed with server error status=500",
			"httpx.HTTPStatusError: Server error '500 Internal Server Error' for url 'http://10.0.0.12:30000/generate'",
			"2026-02-19 13:32:18 ERROR http_request{method=POST uri=/v1/completions version=HTTP/1.1}: sglang_router_rs::routers::pd_router: src/routers/pd_router.rs:565: Decode server returned error status decode_url=http://10.0.0.22:50000 status=500 Internal Server Error",
		},
		miss: []string{
			"2025-11-08 10:07:09 DEBUG sglang_router_rs::response: src/middleware.rs:250: request finished status=200",
			// A client error from the decode leg is not a server error.
			"2026-02-19 13:32:18 ERROR http_request{method=POST uri=/v1/chat/completions version=HTTP/1.1}: smg::routers::http::pd_router: src/routers/http/pd_router.rs:590: Decode server returned error status decode_url=http://10.0.0.33:30001 status=404 Not Found",
			"Error: Client error '404 Not Found' for url 'http://10.78.210.151:4674/v1/models'",
			// A 503 is the router's own record.
			"(RolloutManager pid=519445) Error: Server error '503 Service Unavailable' for url 'http://10.78.210.151:4674/generate'",
		},
	},
	"router-service-unavailable": {
		match: []string{
			"(RolloutManager pid=519445) Error: Server error '503 Service Unavailable' for url 'http://10.78.210.151:4674/generate'",
			"httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://10.0.0.34:3938/generate'",
			`(RolloutManager pid=1191) For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/503, retrying... (attempt 19/60, url=http://10.0.0.9:3592/generate, response={"error":{"type":"Service Unavailable","code":"no_available_workers","message":"No available workers"}})`,
		},
		miss: []string{
			"httpx.HTTPStatusError: Server error '502 Bad Gateway' for url 'http://10.0.0.34:3938/generate'",
			`[2026-05-28 00:11:09] INFO:     10.0.0.7:51234 - "POST /generate HTTP/1.1" 503 Service Unavailable`,
		},
	},
	// LoRA serving
	"lora-adapter-incompatible": {
		match: []string{
			tb("ValueError: LoRA adapter sql-lora with rank 64 is incompatible with the current LoRA memory pool configuration. Please ensure that the LoRA adapter's rank is within the configured `--max-lora-rank` and that the target modules are included in `--lora-target-modules`."),
			tb("ValueError: LoRA adapter 'tool-lora' contains target modules {'down_proj', 'gate_proj'} that are not included in the specified --lora-target-modules {'q_proj', 'v_proj'}. Please update --lora-target-modules to include all required modules: {'q_proj', 'v_proj'}, or use 'all' to enable all supported modules."),
			tb("ValueError: SGLang does not recognize target_modules='all-linear'. Please use a list of module name suffixes in the adapter's PEFT config, or explicitly specify --lora-target-modules during server startup."),
			// Releases whose LoRA layers did not cover the model or module.
			tb("NotImplementedError: get_hidden_dim not implemented for gate_up_proj"),
		},
		miss: []string{
			mainLog("Using triton as backend of LoRA kernels. max_lora_rank=64, lora_target_modules={'q_proj', 'v_proj'}"),
			tb("ValueError: LoRA rank 64 is greater than max_lora_rank 16."),
		},
	},
	"lora-adapter-format-unsupported": {
		match: []string{
			tb("ValueError: Failed to load dora-adapter because LoRA serving currently doesn't support DoRA adapters"),
			tb("ValueError: Failed to load chat-lora because LoRA serving currently doesn't support adapters that add tokens to the vocabulary"),
		},
		miss: []string{hdr("LoRA adapter chat-lora loaded: 224 weights, rank 16")},
	},
	"lora-adapter-limit-exceeded": {
		match: []string{
			"ValueError: Received request with 12 unique loras requested but max loaded loras is 8",
			tb("ValueError: No available buffer slots found. Please ensure the number of active (pinned) loras is less than max_loras_per_batch."),
			"ValueError: Failed to load LoRA adapter tenant-7 as a pinned adapter. It is not allowed to pin all slots in the LoRA memory pool to avoid starvation for unpinned adapters and base models. Please increase your `--max-loras-per-batch` or load it as unpinned LoRA adapters.",
		},
		miss: []string{mainLog("max_loras_per_batch=8, max_loaded_loras=16, lora_eviction_policy=lru")},
	},
	"lora-adapter-not-loaded": {
		match: []string{
			"ValueError: LoRA adapter 'sql-lora' was requested, but LoRA is not enabled. Please launch the server with --enable-lora flag and preload adapters using --lora-paths or /load_lora_adapter endpoint.",
			"ValueError: Got LoRA adapter that has never been loaded: sql-lora\nAll loaded adapters: {}.",
			"ValueError: LoRA is not enabled. Please set `--enable-lora` to enable LoRA.",
			"ValueError: LoRA with name sql-lora does not exist. Loaded LoRAs: ['tool-lora']",
		},
		miss: []string{
			mainLog("--enable-lora is set to True because --lora-paths is provided."),
			mainLog("LoRA adapter sql-lora is loaded. Loaded LoRAs: ['sql-lora', 'tool-lora']"),
		},
	},
	"lora-adapter-load-failed": {
		match: []string{
			tb("RuntimeError: Failed to load LoRA adapter sql-lora: [Errno 2] No such file or directory: '/adapters/sql-lora/adapter_config.json'"),
			"ValueError: Failed to implicitly load LoRA adapter /adapters/tenant-3: Can't find 'adapter_config.json' at '/adapters/tenant-3'",
		},
		miss: []string{
			// A duplicate load is the client's mistake, not a failure.
			"ValueError: Failed to load LoRA adapter sql-lora because it is already loaded",
			mainLog("Loading LoRA adapter sql-lora from /adapters/sql-lora"),
		},
	},
	// Speculative decoding
	"speculative-decoding-config-refused": {
		match: []string{
			rawTB("ValueError: Currently standalone speculative decoding does not support dp attention."),
			// Older releases assert the same.
			rawTB("AssertionError: Currently standalone speculative decoding does not support dp attention."),
			rawTB("ValueError: trtllm_mha backend only supports topk = 1 for speculative decoding."),
			rawTB("ValueError: speculative_eagle_topk > 1 with page_size > 1 is unstable and produces incorrect results for paged attention backends. This combination is only supported for the 'flashinfer' backend."),
			rawTB("ValueError: Currently FlashMLA only supports topk=1 for speculative decoding"),
			rawTB("ValueError: Gemma4AssistantForCausalLM draft requires --speculative-algorithm NEXTN or EAGLE; EAGLE3 is not supported for this draft architecture."),
			rawTB("ValueError: Currently LoRA is only compatible with NGRAM speculative decoding."),
			rawTB("ValueError: DFLASH speculative decoding requires setting --speculative-draft-model-path."),
			rawTB("ValueError: Currently DSpark speculative decoding only supports pp_size == 1."),
			rawTB("ValueError: Ngram speculative decoding only supports CUDA device."),
		},
		miss: []string{
			mainLog("Max running requests is reset to 48 for speculative decoding. You can override this by explicitly setting --max-running-requests."),
			mainLog("Overlap spec v2 is enabled by default for eagle/eagle3/standalone speculative decoding."),
			mainLog("speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 when speculative_eagle_topk == 1"),
		},
	},
	// Grammar backends
	"xgrammar-tokenizer-unsupported": {
		match: []string{
			tb("sglang.srt.constrained.xgrammar_backend.TokenizerNotSupportedError: Tokenizer type ChatGLM4Tokenizer is not supported by XGrammar"),
			tb("TokenizerNotSupportedError: Failed to create XGrammar TokenizerInfo from tokenizer: vocab_size must be positive"),
		},
		miss: []string{
			// Newer releases fall back and keep serving; a warning.
			mainLog("Grammar backend disabled because tokenizer is not supported by XGrammar: unsupported type. Falling back to grammar_backend='none'."),
		},
	},
	"grammar-token-not-accepted": {
		match: []string{
			hdr("Grammar accept_token failed for req 8e1c2a with token 151643: Tokens not accepted: [151643]"),
			tb("ValueError: Token not accepted during retokenization: [151644, 872] at position 1"),
		},
		miss: []string{hdr("Grammar backend: xgrammar, accepted 128 tokens for req 8e1c2a")},
	},
	"outlines-version-mismatch": {
		match: []string{
			rawTB("ImportError: cannot import name 'build_regex_from_object' from 'outlines.fsm.json_schema' (/opt/conda/lib/python3.10/site-packages/outlines/fsm/json_schema.py)"),
			"ImportError: [address=0.0.0.0:40067, pid=32176] cannot import name 'build_regex_from_schema' from 'outlines.fsm.json_schema' (/root/envs/xinf/lib/python3.10/site-packages/outlines/fsm/json_schema.py)",
			// Retyped with curly quotes in an issue's prose.
			"ImportError: cannot import name ‘build_regex_from_object’ from ‘outlines.fsm.json_schema’",
			rawTB("ModuleNotFoundError: No module named 'outlines.fsm'"),
		},
		miss: []string{
			rawTB("ImportError: cannot import name 'Tokenizer' from 'tokenizers'"),
			mainLog("Outlines grammar backend: compiled json_schema in 0.2 s"),
		},
	},
	"npu-stream-sync-timeout": {
		match: []string{
			"EE1002: 2024-09-03-16:50:00.041.231 Stream synchronize timeout. rtDeviceSynchronize execute failed, reason=[stream sync timeout]",
			"worker-1: EH9999: 2024-07-03-11:28:40.450.757  wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
			"        rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
			"        rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
			"EI9999: 2024-10-21-10:42:00.358.410  The error from device(chipId:3, dieId:0), serial number is 9, hccl fftsplus task timeout occurred during task execution, stream_id:5, sq_id:5, task_id:38827, stuck notify num:1, timeout:30min(default).",
		},
		miss: []string{
			// Another runtime failure of the same call is not a timeout.
			"EH9999: 2024-07-03-11:28:40.450.757  wait for compute device to finish failed, runtime result = 507015.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
			"[W NPUStream.cpp:365] Warning: NPU warning, error code is 107020[Error]: .",
		},
	},
	"grammar-matcher-terminated": {
		match: []string{
			"RuntimeError: [23:42:39] /project/cpp/grammar_matcher.cc:556: Check failed: (!IsStopTokenAccepted()) is false: GrammarMatcher has terminated after accepting the stop token, but is trying to find the next token mask",
			tb("RuntimeError: [09:59:19] /project/cpp/grammar_matcher.cc:653: Check failed: !terminated_"),
		},
		miss: []string{
			"RuntimeError: [09:59:19] /project/cpp/grammar_matcher.cc:210: Check failed: (token_id < vocab_size) is false: token id out of range",
			hdr("Grammar matcher terminated for req 8e1c2a; finishing the request"),
		},
	},
	"mooncake-tcp-gpu-buffer-failed": {
		match: []string{
			"E0612 14:05:26.176716 1192408 tcp_transport.cpp:136] Session::writeBody failed. Error: Bad address (value: 14), total_transferred_bytes_: 0, current transferred_bytes: 0",
			"E0612 14:05:26.176716 1192408 tcp_transport_session_impl.h:726] ClientSession::writeBody failed to copy from CUDA memory: invalid argument",
			"E0612 14:05:26.176716 1192408 tcp_transport_session_impl.h:747] ClientSession::writeBody failed. Attempt to write data 0x7f12 using buffer 0x5561. Error: Bad address",
		},
		miss: []string{
			"E0612 14:05:26.176716 1192408 tcp_transport.cpp:136] Session::writeBody failed. Error: Connection reset by peer (value: 104), total_transferred_bytes_: 0, current transferred_bytes: 0",
		},
	},
	"mooncake-buffer-not-registered": {
		match: []string{
			"E1125 01:42:29.248446 13170 rdma_transport.cpp:336] Memory region not registered by any active device(s): 0x12c180000000",
			"E1125 01:42:29.248446 13170 efa_transport.cpp:1116] Memory region not registered by any active EFA device: 0x12c180000000",
		},
		miss: []string{"I1125 01:42:29.248446 13170 rdma_transport.cpp:201] Memory region registered on 4 active device(s): 0x12c180000000"},
	},
	"warmup-request-rejected": {
		match: []string{
			mainLog("Initialization failed. warmup error: Traceback (most recent call last):\n  File \"/sgl/python/sglang/srt/entrypoints/http_server.py\", line 1407, in _execute_server_warmup\n    assert res.status_code == 200, f\"{res=}, {res.text=}\"\nAssertionError: res=<Response [502]>, res.text=''"),
			"AssertionError: res=<Response [403]>, res.text='<html>\\n<head><title>403 Forbidden</title></head>'",
		},
		miss: []string{
			"AssertionError: res=<Response [200]>, res.text='{\"text\": \"\"}'",
			`[2026-05-28 00:11:09] INFO:     127.0.0.1:51234 - "POST /generate HTTP/1.1" 502 Bad Gateway`,
		},
	},
	"router-start-failed": {
		match: []string{
			"[Router (Python)] 2025-01-09 00:28:10 - ERROR - Error starting router: argument 'worker_urls': 'NoneType' object cannot be converted to 'Sequence'",
			"[Bug] Failed to create router: Timeout 300s waiting for workers to become healthy",
		},
		miss: []string{"[Router (Python)] 2025-01-09 00:28:10 - INFO - Starting router on 0.0.0.0:30000"},
	},
	// weight loading
	"load-weights-key-error": {
		match: []string{
			`File "/opt/miniconda/envs/sglang/lib/python3.12/site-packages/sglang/srt/models/qwen3.py", line 493, in load_weights` + "\n" +
				"    param = params_dict[name]\n            ~~~~~~~~~~~^^^^^^\nKeyError: 'midlayer.self_attn.qkv_proj.weight'",
			">     param = params_dict[name]\n> KeyError: 'lm_head.weight'",
			tb("KeyError: 'model.layers.13.mlp.experts.w2_weight_scale'"),
			"KeyError: 'model.layers.19.mlp.shared_experts.gate_up_proj.input_scale'",
			// Other loaders' wordings of a tensor the checkpoint files lack.
			"KeyError: 'Key output.weight not found in Safetensor files'",
			tb("safetensors_rust.SafetensorError: File does not contain tensor model.layers.0.self_attn.q_proj.weight"),
			"RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n\tMissing key(s) in state_dict: \"model.norm.weight\", \"lm_head.weight\".",
			// The loader's final check of parameters no tensor filled.
			tb("ValueError: Following weights were not initialized from checkpoint: {'model.layers.19.self_attn.indexer.k_norm.weight'}"),
		},
		miss: []string{
			"KeyError: 'model_type'", tb("KeyError: 'dc49ad867dc144249f59f4e85c7229cd'"),
			"KeyError: 'rid not found in the request table'",
			// transformers' notice about a freshly initialised head is not a failure.
			"Some weights of BertForSequenceClassification were not initialized from the model checkpoint at bert-base-uncased and are newly initialized: ['classifier.bias', 'classifier.weight']",
			hdr("Load weight begin. avail mem=78.51 GB"),
		},
	},
	"load-weights-shape-mismatch": {
		match: []string{
			"AssertionError: Attempted to load weight (torch.Size([3600])) into parameter (torch.Size([3584]))",
			"[rank5]: AssertionError: Attempted to load weight (torch.Size([4096, 2560])) into parameter (torch.Size([6144, 2560]))",
			"(EngineCore pid=3510698) ERROR 05-16 04:02:07 [core.py:1159] AssertionError: Tried to load weights of size torch.Size([3096576, 1])to a parameter of size torch.Size([5376, 1152])",
			// torch's load_state_dict.
			"RuntimeError: Error(s) in loading state_dict for Eagle3Model:\n\tsize mismatch for fc.weight: copying a param with shape torch.Size([4096, 12288]) from checkpoint, the shape in current model is torch.Size([4096, 8192]).",
		},
		miss: []string{hdr("Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=63.51 GB, mem usage=15.28 GB.")},
	},
	// grammar backends
	"xgrammar-grammar-parse-error": {
		match: []string{
			"RuntimeError: [07:57:35] /workspace/cpp/grammar_parser.cc:72: EBNF parse error at line 2, column 13: Invalid escape sequence",
			"[09:11:40] /project/cpp/grammar_parser.cc:560: EBNF parser error at line 16, column 1: Expect element, but got ",
			hdr("Hit invalid ebnf: key_string='root ::= [\\\\]', e=RuntimeError('EBNF parse error at line 1, column 12: Unterminated character class')"),
		},
		miss: []string{mainLog("server_args=ServerArgs(grammar_backend='xgrammar', constrained_json_whitespace_pattern=None)")},
	},
	"grammar-invalid-json-schema": {
		match: []string{
			// llguidance's and the grammar manager's wordings.
			hdr("Hit invalid grammar: serialized_grammar={\"grammars\": [{\"lark_grammar\": \"start: ( \"}]}, e=lark parse error at 1:10"),
			hdr("Grammar compilation raised an exception: EBNF parser error at line 1, column 5, grammar_key=('ebnf', 'root ::= (')"),
			`skip invalid json schema: json_schema={"type":"object","properties":{"id":{"type":"string","format":"uuid"},"email":{"type":"string","format":"email"}},"required":["id","email"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}, e=NotImplementedError('Format email is not supported by Outlines')`,
			"(EngineCore_DP0 pid=55) RuntimeError: [06:33:23] /project/cpp/json_schema_converter.cc:2181: items must be a boolean or an object",
			hdr(`Hit invalid json_schema: key_string='{"type": "object", "properties": {"a": {"type": "string", "pattern": "(?<=x)a"}}}', e=RuntimeError('regex lookbehind is not supported')`),
			// The other constraint kinds every backend logs the same way.
			hdr(`Hit invalid regex: key_string='(?<=a)b', e=RuntimeError('lookbehind is not supported')`),
			hdr(`Hit invalid structural_tag: key_string='{"structures": [], "triggers": []}', e=JSONDecodeError('Expecting value: line 1 column 1 (char 0)')`),
			hdr("Hit invalid structural_tag: key_string=<redacted>, e=<redacted>"),
		},
		miss: []string{
			mainLog(`Receive: obj=GenerateReqInput(sampling_params={'json_schema': '{"type": "object"}'})`),
			hdr(`Hit invalid ebnf: key_string='root ::= ', e=RuntimeError('EBNF parse error at line 1, column 10')`),
		},
	},
	// scheduler
	"retract-decode-no-space-for-one-request": {
		match: []string{
			"AssertionError: No space left for only one request, self.token_to_kv_pool_allocator.available_size()=0\n" +
				`  File "/sgl-workspace/sglang/python/sglang/srt/managers/schedule_batch.py", line 1627, in retract_decode`,
			tb("AssertionError: No space left for only one request"),
		},
		miss: []string{hdr("KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 512, #new_token_ratio: 0.4 -> 0.6")},
	},
	"retract-decode-aborted-last-request": {
		match: []string{
			hdr("retract_decode: aborted last request 3f9c2a41b7d84e0c9a6f1e2d5b8c7a90 due to OOM"),
			"[2026-05-16 12:44:55 DP2 TP2] retract_decode: aborted last request chatcmpl-7f3a due to OOM",
		},
		miss: []string{hdr("Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.4000 -> 0.6000")},
	},
	"detokenizer-decode-status-evicted": {
		match: []string{
			"[2025-01-25 21:59:49] DetokenizerManager hit an exception: Traceback (most recent call last):\n" +
				`  File "XXX/python/sglang/srt/managers/detokenizer_manager.py", line 224, in run_detokenizer_process` + "\n" +
				"    manager.event_loop()\n" +
				`  File "XXX/python/sglang/srt/managers/detokenizer_manager.py", line 158, in event_loop` + "\n" +
				"    s = self.decode_status[recv_obj.rids[i]]\n" +
				"KeyError: 'dc49ad867dc144249f59f4e85c7229cd'",
			mainLog("DetokenizerManager hit an exception: Traceback (most recent call last):\n" +
				`  File "/sgl-workspace/sglang/python/sglang/srt/managers/detokenizer_manager.py", line 339, in _decode_batch_token_id_output` + "\n" +
				"RuntimeError: Decode status not found for request 9b1e0c. It may be due to the request being evicted from the decode status due to memory pressure."),
		},
		miss: []string{tb("KeyError: 'lm_head.weight'"), "    s = self.decode_status[recv_obj.rids[i]]"},
	},
	"scheduler-exit-code-sigkill": {
		match: []string{
			"[12-16 14:27:08] Rank 0 scheduler is dead. Please check if there are relevant logs.\n[12-16 14:27:10] Exit code: -9",
			"[12-11 17:52:54] Exit code: -9",
			"[2025-04-26 20:55:32] Exit code: -9\r",
			"Exit code: -9",
		},
		// The line is the launcher's logger.error and nothing else: a shell
		// echoing the words, or more text after the code, is not it.
		miss: []string{
			"[12-16 14:27:10] Exit code: -15", "[12-16 14:27:10] Exit code: -95",
			`echo "Exit code: -9"`, `+ echo 'Exit code: -9'`, "Exit code: -9 (expected: the test kills it)",
		},
	},
	"scheduler-exit-code-native-crash": {
		match: []string{
			mainLog("Rank 0 scheduler is dead. Please check if there are relevant logs.") + "\n" + mainLog("Exit code: -11"),
			mainLog("Child process unexpectedly failed with an exit code 11. pid=293198"),
			"[12-16 14:27:10] Exit code: -6",
		},
		miss: []string{
			"[12-16 14:27:10] Exit code: -9",
			"[12-16 14:27:10] Exit code: -110",
			mainLog("Child process unexpectedly failed with an exit code 1. pid=293198"),
			`echo "Exit code: -11"`,
		},
	},
	"hicache-jit-kernel-unsupported": {
		match: []string{
			"[2026-07-18 03:04:05 ATTN_CP6 TP6] Unsupported element_size = 656 for JIT HiCache kernel",
			"Another hi cache bug [2026-07-18 03:04:05 ATTN_CP1 TP1] Unsupported element_size = 1152 for JIT HiCache kernel",
		},
		miss: []string{hdr("Allocating 120.00 GB host memory for hierarchical KV cache."), hdr("Unsupported element_size for the triton kernel, using torch")},
	},
	"deepep-dispatch-tokens-exceed-max": {
		match: []string{
			"RuntimeError: Failed: Assertion error /build/DeepEP/csrc/deep_ep.cpp:1233 'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'",
			tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1025 'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'"),
		},
		miss: []string{hdr("SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=1024, num_max_dispatch_tokens_per_rank set")},
	},
	"hicache-not-enough-host-memory": {
		match: []string{
			"ValueError: Not enough host memory available. Requesting 40.00 GB but only have 44.87 GB free. Please reduce the size of the hierarchical cache.",
			tb("ValueError: Not enough host memory available. Requesting 150.00 GB but only have 120.5 GB free. Please reduce the size of the hierarchical cache."),
		},
		miss: []string{hdr("Allocating 120.00 GB host memory for hierarchical KV cache.")},
	},
	"tp-size-not-divisible": {
		match: []string{
			rawTB(`  File "/usr/local/python3.11.14/lib/python3.11/site-packages/sglang/srt/distributed/utils.py", line 23, in ensure_divisibility` + "\n" +
				`    assert numerator % denominator == 0, "{} is not divisible by {}".format(` + "\n" + "AssertionError: 16 is not divisible by 6"),
			"AssertionError: 64 is not divisible by 3",
		},
		miss: []string{
			`    assert numerator % denominator == 0, "{} is not divisible by {}".format(`,
			hdr("WARNING: image height 1000 is not divisible by 28, resizing"),
		},
	},
	"c10d-client-socket-connect-failed": {
		match: []string{
			"trainer-2: torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (192.168.121.122, 1040). The client socket has failed to connect to 192.168.121.122:1040 (errno: 113 - No route to host).",
			"torch.distributed.DistNetworkError: The client socket has failed to connect to [node-1]:29500 (errno: 111 - Connection refused).",
		},
		miss: []string{
			"torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (172.17.0.9, 46229).",
			// One attempt's warning: the client retries.
			"[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-1]:29500 (errno: 111 - Connection refused).",
		},
	},
	"ray-actor-died": {
		match: []string{
			"ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.",
			"(TaskRunner pid=3707097) ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
		},
		miss: []string{"ray.exceptions.ActorUnavailableError: The actor is temporarily unavailable"},
	},
	"transformers-unknown-model-type": {
		match: []string{
			"ValueError: The checkpoint you are trying to load has model type `gemma3` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.",
			tb("ValueError: The checkpoint you are trying to load has model type `qwen3_next` but Transformers does not recognize this architecture."),
		},
		miss: []string{"ValueError: Unrecognized model in /models/x. Should have a `model_type` key in its config.json"},
	},
	"deepep-ibgda-rc-per-pe-too-small": {
		match: []string{
			"Assertion failed: /sgl-workspace/DeepEP/csrc/kernels/internode.cu:483, condition: ibgda_get_state()->num_rc_per_pe >= num_channels",
			hdr("Assertion failed: /build/DeepEP/csrc/kernels/internode.cu:490, condition: ibgda_get_state()->num_rc_per_pe >= num_channels"),
		},
		miss: []string{"export NVSHMEM_IBGDA_NUM_RC_PER_PE=24 # num_rc_per_pe"},
	},
	"mooncake-store-allocation-failed": {
		match: []string{
			"E0618 03:16:45.162376 65586 store_py.cpp:449] Failed to allocate slices for put_batch operation",
			"E0618 03:16:46.000001 65586 client.cpp:512] Failed to allocate slices for put operation",
		},
		miss: []string{"I0618 03:16:44.792693 65611 transfer_engine.cpp:391] [Metrics] Transfer Engine Throughput: 3.63 MB/s (over last 5s)"},
	},
	"mooncake-store-client-buffer-exhausted": {
		match: []string{
			"E0804 05:20:44.874174 1321649 store_py.cpp:495] Failed to allocate buffer for put_parts operation, key: vllm@meta-llama/Llama-3.1-8B-Instruct@1@0@7193353375021096452, total size: 33554460",
			"E0804 05:20:44.874174 1321649 real_client.cpp:612] Failed to allocate buffer for put operation, key: sglang_kv_0_17, total size: 2097152",
			"E0804 05:20:44.874174 1321649 real_client.cpp:845] Failed to allocate buffer for batch_put operation",
		},
		miss: []string{
			// The store's own segments, not the client's buffer.
			"E0618 03:16:45.162376 65586 store_py.cpp:449] Failed to allocate slices for put_batch operation",
			"I0804 05:20:44.874174 1321649 real_client.cpp:233] Registering local memory: 1073741824 bytes",
		},
	},
	"mooncake-segment-descriptor-not-found": {
		match: []string{
			"E0521 16:22:21.694042   162 transfer_metadata.cpp:877] Local segment descriptor not found",
			hdr("E0521 16:22:21.694042 162 transfer_metadata.cpp:877] Local segment descriptor not found"),
		},
		miss: []string{"I0521 16:41:10.810740  4097 transfer_metadata_dump.cpp:51] Failed to get segment descriptor for segment 10.112.116.43:16917"},
	},
	"ascend-op-compiler-init-failed": {
		match: []string{
			"\t[Init][Compiler]Init compiler failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]",
			"EZ9999: Inner Error! [Init][Compiler]Init compiler failed",
		},
		miss: []string{"\t[Set][Options]OpCompileProcessor init failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]"},
	},
	"launch-eoferror-dead-child": {
		match: []string{
			rawTB(`  File "/usr/lib/python3.10/multiprocessing/connection.py", line 383, in _recv` + "\n" +
				"    raise EOFError\nEOFError"),
			"EOFError",
		},
		miss: []string{"EOFError: Ran out of input", "    raise EOFError"},
	},
	"process-segfault-core-dumped": {
		match: []string{
			" 12%|████████████████████████▌                                                                                                                                                                            | 59/473 [00:19<00:10, 39.09it/s]Segmentation fault (core dumped)",
			"Warmup...\nSegmentation fault (core dumped)",
			"bash: line 1: 48213 Segmentation fault      (core dumped) python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B",
			// Without the space, as pastes retype it: in prose
			// (InternLM/lmdeploy's T4 report) and after a tool's output.
			"在最新版本的 lmdeploy 中使用T4显卡(SM75)x2，TurboMind 推理引擎，部署 API Server 在停滞几秒后会触发 Segmentation fault(core dumped) ，且没有任何其他报错",
			"Error: PDF file is damaged - attempting to reconstruct xref table...\nSegmentation fault(core dumped)",
		},
		miss: []string{"Fatal Python error: Segmentation fault", mainLog("enable faulthandler for segmentation faults: True")},
	},
	"cpu-illegal-instruction": {
		match: []string{
			// kvcache-ai/ktransformers#507: the shell's zh_CN wording.
			"Injecting model.layers.0.self_attn as ktransformers.operators.attention . KDeepseekV2Attention\n非法指令 (核心已转储)",
			"Illegal instruction (core dumped)",
			"非法指令（核心已转储）",
			"Ungültiger Maschinenbefehl (Speicherabzug geschrieben)",
			"bash: line 1: 48213 Illegal instruction     (core dumped) python3 -m sglang.launch_server --device cpu",
			"bash: 第 1 行：48213 非法指令 (核心已转储) python3 -m sglang.launch_server --device cpu",
			"zsh: illegal hardware instruction  python3 -m sglang.launch_server",
		},
		miss: []string{
			"RuntimeError: CUDA error: an illegal instruction was encountered",
			"[1745499308.854013] [host:760:0] Caught signal 4 (Illegal instruction: illegal operand)",
			"Illegal instruction set requested: avx512",
			"Segmentation fault (core dumped)",
		},
	},
	"host-cannot-allocate-memory": {
		match: []string{
			"Process Process-6:\nTraceback (most recent call last):\n" +
				`  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 1984, in run_scheduler_process` + "\n" +
				"    faulthandler.enable()\nOSError: [Errno 12] Cannot allocate memory",
			"OSError: [Errno 12] Cannot allocate memory",
		},
		miss: []string{"RuntimeError: CUDA error: out of memory", "OSError: [Errno 28] No space left on device"},
	},
	"disagg-prefill-transfer-failed": {
		match: []string{
			"[2026-05-21 16:41:11 ATTN_CP7 TP7 EP7] Prefill transfer failed for request rank=7 req.rid='20260521164110.335_yewi' req.bootstrap_room=666643570191291695 with exception KVTransferError(bootstrap_room=666643570191291695): Decode instance could be dead, remote mooncake session 10.112.116.43:16917 is not alive",
			"Prefill transfer failed for request rank=0 req.rid='a1b2' req.bootstrap_room=8812 with exception KVTransferError(bootstrap_room=8812): Failed to send kv chunk of 8812 to 10.0.0.2:16017",
		},
		miss: []string{hdr("Decode transfer failed for request rank=0 req.rid='a1b2' req.bootstrap_room=8812 with exception timeout")},
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
	// The tests ask what a pattern matches, not how fast: the product's
	// timeout would fail them on a loaded machine (the race detector, a
	// shared CI runner). Backtracking is bounded by the lint's own tests.
	re.MatchTimeout = time.Minute
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
// (prefilter included). These tests ask which record claims a line, not how
// fast: a pattern's time bound is the production one's thousandfold, so a
// loaded machine running -race cannot turn a slow match into a miss (the
// patterns' cost has its own lint and probe tests).
func compileCatalog(t *testing.T) *matcher.Matcher {
	t.Helper()
	recs, probs := patterns.Default()
	m, cprobs := matcher.Compile(recs, matcher.Options{MatchTimeout: time.Minute, EntryBudget: time.Hour})
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
// checkRoutineSilent feeds each line alone through the entry assembler
// and the analysis with m: a line that alerts fails t. Routine lines a
// library prints at warning or error level have info records, or sit
// outside every failure record's wording.
func checkRoutineSilent(t *testing.T, m *matcher.Matcher, lines []string) {
	t.Helper()
	for _, line := range lines {
		a := entry.NewAssembler(entry.Options{})
		ents := append(a.Push(entry.Line{Text: line, Source: "routine", Stream: "stderr"}), a.Flush()...)
		an := analysis.New(m)
		for i := range ents {
			if d, ok := an.Analyze(&ents[i]); ok {
				slug := "unclassified"
				if d.Cause != nil {
					slug = d.Cause.Record.Slug
				}
				t.Errorf("routine line alerts (%s, %s): %s", slug, d.Severity, strings.TrimSpace(line))
			}
		}
	}
}

// rankCase is a text and the record that must lead on its last entry the
// catalog reads.
type rankCase struct{ text, want string }

// checkRanking checks, where a narrow record and a broader one both read
// a text, that the narrow one leads.
func checkRanking(t *testing.T, m *matcher.Matcher, cases []rankCase) {
	t.Helper()
	for _, tt := range cases {
		var got []string
		for _, s := range subjects(tt.text) {
			hits, errs := m.Match(s)
			if len(errs) > 0 {
				t.Fatalf("pattern errors: %v", errs)
			}
			if len(hits) > 0 {
				got = append(got, hits[0].Record.Slug)
			}
		}
		if len(got) == 0 || got[len(got)-1] != tt.want {
			t.Errorf("%q: best hits %v, want %s", tt.text, got, tt.want)
		}
	}
}

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
	for slug := range pendingWidened {
		t.Errorf("widened examples of %s, which has no examples of its own", slug)
	}
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

// checkSource checks filePath, lineNumber, githubUrl and analyzedSha
// agree: a link is pinned to the commit its line number was read at
// ("patterns check --write" keeps them so for sglang's records; a record
// for older versions only is pinned to a commit that still printed it).
// A record of a library (NCCL, Mooncake, NVSHMEM...) may link the line of
// the library's own repository that prints its message, pinned the same
// way; "patterns check" looks only for the records of the tree it reads.
func checkSource(t *testing.T, r patterns.Record) {
	t.Helper()
	if r.FilePath == "" {
		if r.GithubURL != "" || r.LineNumber != 0 || r.AnalyzedSha != "" {
			t.Errorf("githubUrl %q, lineNumber %d or analyzedSha %q without filePath", r.GithubURL, r.LineNumber, r.AnalyzedSha)
		}
		return
	}
	if r.Repo == "sgl-project/sglang" && !strings.HasPrefix(r.FilePath, "python/") && !strings.HasPrefix(r.FilePath, "sgl-model-gateway/") {
		t.Errorf("filePath %q: only sglang's python/ and sgl-model-gateway/ sources are linked", r.FilePath)
	}
	if strings.HasPrefix(r.FilePath, "/") || strings.Contains(r.FilePath, "..") {
		t.Errorf("filePath %q is not relative to the top of %s", r.FilePath, r.Repo)
	}
	if !shaRE.MatchString(r.AnalyzedSha) {
		t.Errorf("analyzedSha %q is not a commit", r.AnalyzedSha)
	}
	want := "https://github.com/" + r.Repo + "/blob/" + r.AnalyzedSha + "/" + r.FilePath + "#L" + strconv.Itoa(r.LineNumber)
	if r.LineNumber <= 0 || r.GithubURL != want {
		t.Errorf("githubUrl %q, want %q", r.GithubURL, want)
	}
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

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

// sglangOnly names what only an sglang server understands: the project,
// its kernel package, its variables and the options only its server takes.
var sglangOnly = regexp.MustCompile(`(?i:\bsglang\b|\bsgl[-_]kernel\b)|\bSGLANG_[A-Z0-9_]+|--(?:mem-fraction-static|cuda-graph-max-bs|cuda-graph-backend|chunked-prefill-size|disable-cuda-graph|max-running-requests|tp-size|dist-init-addr|nccl-port|attention-backend|sampling-backend|model-path|model-impl|enable-memory-saver|enable-torch-compile|moe-a2a-backend|hicache-[a-z-]+|disaggregation-[a-z-]+)\b`)

// A record split into cause and remedies keeps its engine-neutral parts
// free of sglang's options: they are shown on every engine's log. Only a
// record that belongs to sglang alone may name them outside
// remedies.sglang.
func TestRemediesSplitKeepsSolutionsNeutral(t *testing.T) {
	split := 0
	for _, r := range curated(t) {
		if slices.Equal(r.Engines, []string{"sglang"}) {
			continue
		}
		if len(r.Remedies) == 0 {
			continue
		}
		split++
		for _, s := range append(append([]string{r.Documentation, r.CommonSituations}, r.Solutions...), r.PreventionTips...) {
			if w := sglangOnly.FindString(s); w != "" {
				t.Errorf("%s: engine-neutral text names %q: %s", r.Slug, w, s)
			}
		}
		for eng, rem := range r.Remedies {
			if eng == "sglang" {
				continue
			}
			for _, s := range rem {
				if w := sglangOnly.FindString(s); w != "" {
					t.Errorf("%s: remedies.%s names %q: %s", r.Slug, eng, w, s)
				}
			}
		}
	}
	if split < 8 {
		t.Errorf("%d shared records give remedies per engine, want at least 8", split)
	}
}

// TestSharedRecordsSplitSglangAdvice fails for a record that may match any
// engine's log (no engines) and gives no remedies, yet whose solutions or
// prevention tips name what only an sglang server understands: an alert
// on another engine's log would show them.
func TestSharedRecordsSplitSglangAdvice(t *testing.T) {
	for _, r := range curated(t) {
		if len(r.Engines) > 0 || len(r.Remedies) > 0 {
			continue
		}
		for _, s := range append(append([]string(nil), r.Solutions...), r.PreventionTips...) {
			if w := sglangOnly.FindString(s); w != "" {
				t.Errorf("%s: its advice names %q but the record may match any engine's log: move sglang's steps to remedies.sglang, or set engines", r.Slug, w)
				break
			}
		}
	}
}
