package catalog_test

import "testing"

// Families of failures an operator of LLM-serving nodes meets outside the
// engine, in every wording their writers print across releases:
//   - runc runs the OCI hooks of a new container and, when one fails,
//     prints its exit status and its stdout and stderr ("Running hook
//     #0:: error running hook: ..." in runc 1.0, "error running hook #0:
//     ..." in 1.1, "error running prestart hook #0: ..." since 1.2, which
//     names the hook's phase); the NVIDIA hook's own error follows on the
//     next line ("nvidia-container-cli: initialization error: ..."), so the
//     hook's line is only the wrapper of what the hook says;
//   - NVML's driver/library mismatch, as nvidia-smi capitalises it and as
//     nvidia-container-cli quotes it in lower case;
//   - the Kubernetes scheduler's "Insufficient <resource>" for a GPU, whole
//     (nvidia.com/gpu, amd.com/gpu, gpu.intel.com/i915, habana.ai/gaudi,
//     huawei.com/Ascend910, MIG profiles) or shared by a GPU-sharing
//     scheduler (aliyun.com/gpu-mem, nvidia.com/gpumem and
//     nvidia.com/gpucores, volcano.sh/vgpu-memory, tencent.com/vcuda-core,
//     time-slicing's nvidia.com/gpu.shared);
//   - torch's TCPStore master waiting for the ranks that never joined
//     ("clients" in releases, "workers" in its first wording);
//   - amdgpu's ring timeout and reset, from Linux (with and without
//     "amdgpu:" and "*ERROR*", by kernel release) and from FreeBSD's
//     drm-kmod ("[drm ERROR :amdgpu_job_timedout]", "drmn0:"), and the
//     MES firmware that stops answering ("failed to response msg=3" in
//     older kernels, "failed to respond to msg=RESET" in newer);
//   - NVIDIA's Compute Sanitizer (and cuda-memcheck before it) reports,
//     every line behind "=========": memcheck's invalid accesses (with
//     "bytes" since compute-sanitizer) and hardware exceptions, initcheck's uninitialised reads, racecheck's hazards, synccheck's
//     barrier errors, and the summary's error count;
//   - compiler-rt's sanitizers (clang and gcc) in a native build:
//     "==<pid>==ERROR: AddressSanitizer: <bug> on address ...", HWASan's
//     and MemorySanitizer's twins, ThreadSanitizer's "WARNING:
//     ThreadSanitizer: data race", LeakSanitizer's leaks at exit, every
//     tool's "SUMMARY:" line, and the ASan runtime missing from a Python
//     that imports an ASan-built extension;
//   - DeepGEMM's failures: the batch-invariant matmul's re-raise naming the
//     shapes, and the JIT compiler's refusal of an nvcc older than 12.3;
//   - the NVIDIA device plugin that cannot load NVML in its pod: "Failed
//     to initialize NVML: could not load NVML library." and "did you set
//     the docker default runtime to `nvidia`?" in older releases,
//     "Incompatible strategy detected auto", "did you configure the NVIDIA
//     Container Toolkit?" and "error starting plugins: ... nvml init
//     failed: <reason>" in newer ones;
//   - NVRTC, CUDA's runtime compiler, failing a JIT kernel: a libnvrtc
//     older than the GPU, its builtins library missing, or source that
//     does not compile, as torch ("CUDA NVRTC error: <code>") and CuPy
//     ("NVRTCError: <code> (<n>)") raise it;
//   - srun's task launch refused by a node's slurmd ("<job>.<step>" in
//     older releases, "StepId=<job>.<step>" in newer), and the
//     "Application launch failed" line after it.
func operatorFamilies() []writerWording {
	hook := func(wrap, stderr string) string {
		return "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: " + wrap + "exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n" + stderr
	}
	mismatch := "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown"
	unschedulable := func(resource string) string {
		return "  Warning  FailedScheduling  6s (x5 over 3m1s)  default-scheduler  0/4 nodes are available: 4 Insufficient " + resource + ". preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod."
	}
	sanitizer := func(line string) string { return "========= " + line }
	return []writerWording{
		{family: "runc: a hook's failure, then the NVIDIA hook's own error", want: "nvml-driver-library-mismatch", lines: []string{
			hook("error running prestart hook #0: ", mismatch),
			hook("error running hook #0: error running hook: ", mismatch),
			hook("Running hook #0:: error running hook: ", mismatch),
		}},
		{family: "runc: a hook's failure whose error is not printed", want: "container-runtime-hook-failed", lines: []string{
			"Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running createRuntime hook #1: exit status 1, stdout: , stderr: ",
			"docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook #0:: error running hook: exit status 2, stdout: , stderr: : unknown.",
		}},
		{family: "NVML: the kernel module and the driver libraries differ", want: "nvml-driver-library-mismatch", lines: []string{
			"Failed to initialize NVML: Driver/library version mismatch",
			"Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 570.124",
			mismatch,
			"pynvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.",
		}},
		{family: "Kubernetes: no node with the GPUs, whole or shared, a pod requests", want: "k8s-gpu-unschedulable", lines: []string{
			unschedulable("nvidia.com/gpu"),
			unschedulable("amd.com/gpu"),
			unschedulable("nvidia.com/mig-1g.10gb"),
			unschedulable("nvidia.com/gpu.shared"),
			unschedulable("gpu.intel.com/i915"),
			unschedulable("habana.ai/gaudi"),
			unschedulable("huawei.com/Ascend910"),
			unschedulable("aliyun.com/gpu-mem"),
			unschedulable("aliyun.com/gpu-count"),
			unschedulable("nvidia.com/gpumem"),
			unschedulable("nvidia.com/gpucores"),
			unschedulable("volcano.sh/vgpu-memory"),
			unschedulable("tencent.com/vcuda-core"),
			"0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 Insufficient aliyun.com/gpu-mem.",
		}},
		{family: "Kubernetes: no node for another reason", want: "k8s-pod-unschedulable", lines: []string{
			unschedulable("cpu"),
			unschedulable("memory"),
			unschedulable("ephemeral-storage"),
			"0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
		}},
		{family: "TCPStore: the master's wait for the ranks", want: "c10d-store-wait-for-clients-timeout", lines: []string{
			"torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/8 clients joined.",
			"torch.distributed.DistStoreError: Timed out after 6 seconds waiting for workers. 1/2 workers joined.",
			"ERROR 09-01 02:20:44 [engine.py:458] Timed out after 601 seconds waiting for clients. 1/8 clients joined.",
			rawTB("torch.distributed.DistStoreError: Timed out after 1201 seconds waiting for clients. 511/512 clients joined."),
		}},
		{family: "amdgpu: a ring timeout and the reset", want: "amdgpu-gpu-hang-reset", lines: []string{
			"[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=613206, emitted seq=613208",
			"amdgpu 0000:c5:00.0: amdgpu: ring comp_1.0.1 timeout, signaled seq=45, emitted seq=47",
			"amdgpu 0000:65:00.0: ring gfx_0.0.0 timeout, signaled seq=1203, emitted seq=1205",
			"[drm ERROR :amdgpu_job_timedout] ring gfx_0.0.0 timeout, signaled seq=12174921, emitted seq=12174923",
			"drmn0: GPU reset begin!",
			"amdgpu 0000:66:00.0: amdgpu: GPU reset begin!",
			"amdgpu 0000:65:00.0: Ring gfx_0.0.0 reset failed",
			"[drm:mes_v11_0_submit_pkt_and_poll_completion [amdgpu]] *ERROR* MES failed to response msg=3",
			"[drm ERROR :mes_v11_0_submit_pkt_and_poll_completion] MES failed to response msg=3",
			"amdgpu 0000:65:00.0: MES failed to respond to msg=RESET",
		}},
		{family: "amdgpu: routine lines", lines: []string{
			"amdgpu 0000:c5:00.0: amdgpu: GPU reset succeeded, trying to resume",
			"amdgpu 0000:c5:00.0: amdgpu: Ring comp_1.0.1 reset succeeded",
			"drmn0: GPU reset(1) succeeded!",
			"[drm] ring gfx_0.0.0 uses VM inv eng 0 on hub 0",
		}},
		{family: "Compute Sanitizer: a report", want: "cuda-memcheck-invalid-access", lines: []string{
			sanitizer("Invalid __global__ read of size 2 bytes"),
			sanitizer("Invalid __global__ write of size 4 bytes"),
			sanitizer("Invalid __shared__ read of size 16 bytes"),
			sanitizer("Invalid __local__ write of size 8 bytes"),
			sanitizer("Invalid __global__ atomic of size 4 bytes"),
			sanitizer("Invalid __global__ read of size 8"),
			sanitizer("Uninitialized __global__ memory read of size 4 bytes"),
			sanitizer("Malloc/Free error encountered : Double free"),
			sanitizer("Error: Race reported between Write access at 0x350 in raceKernel(int *) and Read access at 0x380 in raceKernel(int *) [248 hazards]"),
			sanitizer("Barrier error detected. Divergent thread(s) in warp"),
			sanitizer("Misaligned Shared or Local Address"),
			sanitizer("Warp Out-of-range Address"),
			sanitizer("Illegal Instruction"),
			sanitizer("ERROR SUMMARY: 12 errors"),
			sanitizer("ERROR SUMMARY: 1 error"),
			sanitizer("Invalid __global__ read of size 2 bytes\n=========     at void mul_mat_vec_q<(ggml_type)12, (int)2, (int)4>(const void *, const void *, float *, const char *, int, int, int, int, unsigned long, unsigned long, unsigned long, long)+0x540\n=========     by thread (8,0,0) in block (779,0,0)\n=========     Address 0x7f788a3f7a0c is out of bounds"),
		}},
		{family: "Compute Sanitizer: routine lines", lines: []string{
			sanitizer("COMPUTE-SANITIZER"),
			sanitizer("CUDA-MEMCHECK"),
			sanitizer("ERROR SUMMARY: 0 errors"),
			sanitizer("RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"),
			sanitizer("    Saved host backtrace up to driver entry point at kernel launch time"),
			sanitizer("Target application returned an error"),
		}},
		{family: "Compute Sanitizer: a CUDA API error it relays leads under the error's own record", want: "cuda-unspecified-launch-failure", lines: []string{
			sanitizer("Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API call to cudaDeviceSynchronize."),
		}},
		{family: "sanitizers: a native memory error", want: "sanitizer-memory-error", lines: []string{
			"==12345==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x55d0c8a1b2c3 bp 0x7ffc1a2b3c40 sp 0x7ffc1a2b3c38",
			"==12345==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60b0000000f4 at pc 0x7f3a2c0b8740 bp 0x7ffd0c1b2a30 sp 0x7ffd0c1b2a28",
			"==12345==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x7f3a2c0b8740 bp 0x7ffd0c1b2a30 sp 0x7ffd0c1b2a28 T0)",
			"==12345==ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T0:",
			"==12345==ERROR: HWAddressSanitizer: tag-mismatch on address 0x004200000010 at pc 0x7f3a2c0b8740",
			"==12345==ERROR: MemorySanitizer: use-of-uninitialized-value",
			"AddressSanitizer:DEADLYSIGNAL",
			"SUMMARY: AddressSanitizer: heap-use-after-free /src/llama.cpp/src/llama-context.cpp:812 in llama_context::decode(llama_batch&)",
			"WARNING: ThreadSanitizer: data race (pid=12345)",
			"SUMMARY: ThreadSanitizer: data race /src/server/queue.cpp:41 in Queue::push(Task)",
			"==12345==ERROR: LeakSanitizer: detected memory leaks",
			"==12345==ASan runtime does not come first in initial library list; you should either link runtime to your application or manually preload it with LD_PRELOAD.",
		}},
		{family: "sanitizers: routine lines", lines: []string{
			"-- Building with -fsanitize=address",
			"ASAN_OPTIONS=detect_leaks=0:abort_on_error=1",
			"ThreadSanitizer: reported 0 warnings",
		}},
		{family: "DeepGEMM: a GEMM call failed", want: "deepgemm-gemm-failed", lines: []string{
			"DeepGEMM failed for matrix shapes M=256, N=1076, K=1152.\nThis typically occurs when dimensions are too small for DeepGEMM's TMA descriptors.",
			"RuntimeError: DeepGEMM failed for matrix shapes M=14, N=10240, K=5120. This typically occurs when dimensions are too small for DeepGEMM's TMA descriptors. Consider increasing MIN_DEEPGEMM_DIM in matmul_persistent() or disabling DeepGEMM for small matrices. Original error: Assertion error (_deps/repo-deepgemm-src/csrc/apis/../jit_kernels/impls/../../jit/compiler.hpp:147): (major > 12 or (major == 12 and minor >= 3)) and \"NVCC version should be >= 12.3\"",
			rawTB("RuntimeError: Assertion error (csrc/jit/compiler.hpp:147): (major > 12 or (major == 12 and minor >= 3)) and \"NVCC version should be >= 12.3\""),
		}},
		{family: "NVIDIA device plugin: no NVML in the plugin's pod", want: "k8s-device-plugin-nvml-init-failed", lines: []string{
			"2021/10/20 07:41:20 Failed to initialize NVML: could not load NVML library.",
			"2021/10/20 07:41:20 If this is a GPU node, did you set the docker default runtime to `nvidia`?",
			"E1208 10:00:00.000000       1 factory.go:87] Incompatible strategy detected auto",
			"E1208 10:00:00.000000       1 factory.go:88] If this is a GPU node, did you configure the NVIDIA Container Toolkit?",
			"E1208 10:00:00.000000       1 main.go:149] error starting plugins: error creating plugin manager: unable to create plugin manager: nvml init failed: ERROR_LIBRARY_NOT_FOUND",
			"E  Failed to initialize NVML: Not Supported",
		}},
		{family: "NVIDIA device plugin: routine lines, and NVML failures of their own", lines: []string{
			"I1208 10:00:00.000000       1 main.go:317] Retrieving plugins.",
			"I1208 10:00:00.000000       1 server.go:165] Starting GRPC server for 'nvidia.com/gpu'",
			"I1208 10:00:00.000000       1 server.go:125] Registered device plugin for 'nvidia.com/gpu' with Kubelet",
		}},
		{family: "NVML: a mismatch is its own record", want: "nvml-driver-library-mismatch", lines: []string{
			"2021/10/20 07:41:20 Failed to initialize NVML: Driver/library version mismatch.",
		}},
		{family: "NVRTC: a runtime-compiled kernel failed", want: "nvrtc-compile-failed", lines: []string{
			"RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)",
			rawTB("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)"),
			"nvrtc: error: failed to open libnvrtc-builtins.so.12.1.\n  Make sure that libnvrtc-builtins.so.12.1 is installed correctly.",
			rawTB("RuntimeError: CUDA NVRTC error: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"),
			rawTB("cupy_backends.cuda.libs.nvrtc.NVRTCError: NVRTC_ERROR_COMPILATION (6)"),
			"cupy_backends.cuda.libs.nvrtc.NVRTCError: NVRTC_ERROR_INVALID_OPTION (5)",
		}},
		{family: "srun: a node's slurmd refused the step's tasks", want: "slurm-task-launch-failed", lines: []string{
			"srun: error: Task launch for 36.0 failed on node cn131: Job credential expired",
			"srun: error: Task launch for StepId=7993406.0 failed on node pool0-00509: Unable to satisfy cpu bind request",
			"srun: error: Task launch for StepId=812.0 failed on node gpu-a12: Invalid job credential",
			"srun: error: Application launch failed: Job credential expired",
		}},
		{family: "srun: routine launch lines", lines: []string{
			"srun: launching StepId=812.0 on host gpu-a12, 8 tasks: [0-7]",
			"srun: Launch success on node gpu-a12",
		}},
	}
}

// TestOperatorFamilies checks each operator family's wordings.
func TestOperatorFamilies(t *testing.T) {
	checkWordings(t, compileCatalog(t), operatorFamilies())
}

var operatorFamiliesExamples = map[string]example{
	"container-runtime-hook-failed": {
		match: []string{
			"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'",
			"container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown",
		},
		miss: []string{"time=\"2026-12-06T09:00:01Z\" level=info msg=\"running hook #0 for container sglang\""},
	},
	"cuda-memcheck-invalid-access": {
		match: []string{
			"========= Invalid __global__ read of size 2 bytes",
			"========= Uninitialized __global__ memory read of size 4 bytes",
		},
		miss: []string{"========= ERROR SUMMARY: 0 errors", "========= COMPUTE-SANITIZER"},
	},
	"sanitizer-memory-error": {
		match: []string{
			"==12345==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x55d0c8a1b2c3 bp 0x7ffc1a2b3c40 sp 0x7ffc1a2b3c38",
			"SUMMARY: AddressSanitizer: heap-buffer-overflow /src/a.cpp:10 in main",
		},
		miss: []string{"-- Building with -fsanitize=address", "ThreadSanitizer: reported 0 warnings"},
	},
	"deepgemm-gemm-failed": {
		match: []string{
			"RuntimeError: DeepGEMM failed for matrix shapes M=256, N=1076, K=1152. This typically occurs when dimensions are too small for DeepGEMM's TMA descriptors.",
			"RuntimeError: Assertion error (csrc/jit/compiler.hpp:147): (major > 12 or (major == 12 and minor >= 3)) and \"NVCC version should be >= 12.3\"",
		},
		miss: []string{"Using DeepGEMM for matrix shapes M=256, N=1076, K=1152"},
	},
	"k8s-device-plugin-nvml-init-failed": {
		match: []string{
			"2021/10/20 07:41:20 Failed to initialize NVML: could not load NVML library.",
			"E1208 10:00:00.000000       1 main.go:149] error starting plugins: error creating plugin manager: unable to create plugin manager: nvml init failed: ERROR_LIBRARY_NOT_FOUND",
		},
		miss: []string{"Failed to initialize NVML: Unknown Error", "I1208 10:00:00.000000       1 main.go:317] Retrieving plugins."},
	},
	"nvrtc-compile-failed": {
		match: []string{
			"RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)",
			"RuntimeError: CUDA NVRTC error: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
		},
		miss: []string{"nvrtc: NVRTC version 12.8 supports the GPU architecture sm_120"},
	},
	"slurm-task-launch-failed": {
		match: []string{
			"srun: error: Task launch for StepId=7993406.0 failed on node pool0-00509: Unable to satisfy cpu bind request",
			"srun: error: Task launch for 36.0 failed on node cn131: Job credential expired",
		},
		miss: []string{"srun: launching StepId=812.0 on host gpu-a12, 8 tasks: [0-7]"},
	},
}

var operatorFamiliesWidened = map[string]example{
	"nvml-driver-library-mismatch": {
		match: []string{"nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown"},
	},
	"nvidia-container-cli-failed": {
		miss: []string{"nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown"},
	},
	"container-runtime-create-failed": {
		miss: []string{"OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'"},
	},
	"k8s-gpu-unschedulable": {
		match: []string{"0/2 nodes are available: 2 Insufficient aliyun.com/gpu-mem."},
		miss:  []string{"0/2 nodes are available: 2 Insufficient cpu."},
	},
	"k8s-pod-unschedulable": {
		miss: []string{"0/2 nodes are available: 2 Insufficient volcano.sh/vgpu-memory."},
	},
	"c10d-store-wait-for-clients-timeout": {
		match: []string{"torch.distributed.DistStoreError: Timed out after 6 seconds waiting for workers. 1/2 workers joined."},
		miss:  []string{"Exception: Timeout 300 seconds waiting for workers to be ready"},
	},
	"amdgpu-gpu-hang-reset": {
		match: []string{
			"[drm ERROR :amdgpu_job_timedout] ring gfx_0.0.0 timeout, signaled seq=12174921, emitted seq=12174923",
			"drmn0: GPU reset begin!",
		},
		miss: []string{"drmn0: GPU reset(1) succeeded!"},
	},
}

func init() { addExamples(operatorFamiliesExamples, operatorFamiliesWidened) }
