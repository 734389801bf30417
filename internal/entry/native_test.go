package entry

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/ascii"
)

func TestParseNative(t *testing.T) {
	ref := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want *native // nil: not native
	}{
		{"faulthandler", "Fatal Python error: Segmentation fault", &native{kind: NativeFaulthandler, level: LevelFatal}},
		{"faulthandler aborted", "Fatal Python error: Aborted", &native{kind: NativeFaulthandler, level: LevelFatal}},
		{"thread dump", "Thread 0x00007f5c2effd640 (most recent call first):", &native{kind: NativeFaulthandler}},
		{"current thread", "Current thread 0x00007f5e1a2b4740 (most recent call first):", &native{kind: NativeFaulthandler}},
		{"terminate", "terminate called after throwing an instance of 'c10::DistBackendError'", &native{kind: NativeTerminate, level: LevelFatal}},
		{"terminate gloo", "terminate called after throwing an instance of 'gloo::EnforceNotMet'", &native{kind: NativeTerminate, level: LevelFatal}},
		{"terminate no exception", "terminate called without an active exception", &native{kind: NativeTerminate, level: LevelFatal}},
		{"c10d error", "[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] [PG ID 0 PG GUID 0 Rank 1] Watchdog caught collective operation timeout",
			&native{kind: NativeC10d, level: "ERROR", time: time.Date(2025, 8, 25, 10, 26, 44, 56376840, time.UTC), partial: timeNoYear, msg: len("[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] ")}},
		{"c10d warning mmdd", "[W1231 23:59:59.000000001 ProcessGroupNCCL.cpp:1000] x",
			&native{kind: NativeC10d, level: "WARNING", time: time.Date(2025, 12, 31, 23, 59, 59, 1, time.UTC), partial: timeNoYear, msg: len("[W1231 23:59:59.000000001 ProcessGroupNCCL.cpp:1000] ")}},
		{"c10d old", "[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout", &native{kind: NativeC10d, level: "ERROR", msg: len("[E ProcessGroupNCCL.cpp:475] ")}},
		{"c10d header alone", "[E ProcessGroupNCCL.cpp:475]", &native{kind: NativeC10d, level: "ERROR"}},
		{"nccl info", "node-7:1234:5678 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.7<0>", &native{kind: NativeNCCL, level: "INFO"}},
		{"nccl warn with file", "gpu-a:1234:5679 [3] transport/net_ib.cc:123 NCCL WARN NET/IB : Got completion with error 12", &native{kind: NativeNCCL, level: "WARN"}},
		{"cuda assert", "../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [4,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
			&native{kind: NativeCUDAAssert, level: LevelError}},
		{"glog info", "I0820 02:41:20.446154   710 transfer_engine.cpp:422] Transfer engine started",
			&native{kind: NativeGlog, level: "INFO", time: time.Date(2025, 8, 20, 2, 41, 20, 446154000, time.UTC), partial: timeNoYear, msg: 53}},
		{"glog error", "E0414 03:56:41.856248 77969 transfer_metadata_plugin.cpp:173] Failed",
			&native{kind: NativeGlog, level: "ERROR", time: time.Date(2026, 4, 14, 3, 56, 41, 856248000, time.UTC), partial: timeNoYear, msg: 62}},
		{"killed", "Killed", &native{kind: NativeShell, level: LevelFatal}},
		{"aborted core", "Aborted (core dumped)", &native{kind: NativeShell, level: LevelFatal}},
		{"segfault core", "Segmentation fault (core dumped)", &native{kind: NativeShell, level: LevelFatal}},
		{"bash job", "bash: line 1: 12345 Killed                  python3 -m sglang.launch_server", &native{kind: NativeShell, level: LevelFatal}},
		{"bash job without line", "bash: 22128 Segmentation fault      python3 -c 'x'", &native{kind: NativeShell, level: LevelFatal}},
		{"rocm", "Memory access fault by GPU node-2 (Agent handle: 0x55d5c3d0a1e0) on address 0x7f0e2c000000. Reason: Page not present or supervisor privilege.", &native{kind: NativeROCm, level: LevelFatal}},
		{"ascend", "[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100 PTA call acl api failed.",
			&native{kind: NativeAscend, level: "ERROR", time: time.Date(2025, 9, 19, 14, 34, 8, 0, time.UTC)}},
		{"torch_npu allocator", "[383554] [2026-07-01 09:31:38:047] torch_npu.memory: [ERROR] [383554] NPU out of memory. Tried to allocate 2.00 GiB",
			&native{kind: NativeAscend, level: "ERROR", time: time.Date(2026, 7, 1, 9, 31, 38, 47e6, time.UTC)}},

		{"cuda assert with a straight quote", "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:93: operator(): block: [0,0,0], thread: [127,0,0] Assertion '-sizes[i] <= index' failed.", &native{kind: NativeCUDAAssert, level: LevelError}},
		{"nccl without its process", "[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>", &native{kind: NativeNCCL, level: "WARN"}},
		{"nccl info without its process", "[0] NCCL INFO misc/socket.cc:80 -> 6", &native{kind: NativeNCCL, level: "INFO"}},
		{"not nccl: a list index before the word", "[0] the NCCL WARN line said", nil},
		{"ascend plog", "[ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [exception_handler.cc:23] [904211]HcclBatchGet: HcclException, what: x",
			&native{kind: NativeAscend, level: "ERROR", time: time.Date(2026, 8, 11, 7, 3, 46, 26e6, time.UTC)}},
		{"ascend plog with a process name", "[ERROR] HCCL(36035,mindie_llm_backend_connector):2025-05-13-02:25:58.068.817 [op_base.cc:974][36818][Init]x",
			&native{kind: NativeAscend, level: "ERROR", time: time.Date(2025, 5, 13, 2, 25, 58, 68e6, time.UTC)}},
		{"ascend plog without its fraction", "[WARNING] GE(1,):2026-08-11-07:03:46 x",
			&native{kind: NativeAscend, level: "WARNING", time: time.Date(2026, 8, 11, 7, 3, 46, 0, time.UTC)}},
		{"not plog: lower-case module", "[ERROR] hccl(893240,):2026-08-11-07:03:46.026.970 x", nil},
		{"not plog: no process id", "[ERROR] HCCL(,x):2026-08-11-07:03:46.026.970 x", nil},
		{"not plog: no time", "[ERROR] HCCL(893240,): failed", nil},
		{"shell quit", "Quit (core dumped)", &native{kind: NativeShell, level: LevelFatal}},
		{"shell terminated", "Terminated", &native{kind: NativeShell, level: LevelWarning}},

		// CUDA runtime lines outside a traceback (NVIDIA/nccl#1410,
		// vllm-project/vllm#5613, NVIDIA-AI-IOT/cuPCL#58, CompVis/stable-diffusion#374).
		{"cuda failure nccl last error", "Cuda failure 1 'invalid argument'", &native{kind: NativeCUDA, level: LevelError, soft: true}},
		{"cuda custom all-reduce", "Failed: /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310 'invalid argument'", &native{kind: NativeCUDA, level: LevelError, soft: true}},
		{"cuda custom all-reduce old", "Failed: Cuda error /sgl-workspace/sglang/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:307 'invalid argument'", &native{kind: NativeCUDA, level: LevelError, soft: true}},
		{"cuda failure colon", "Cuda failure: invalid argument at line 187 in file cudaCluster.cpp error status: 1", &native{kind: NativeCUDA, level: LevelError, soft: true}},
		{"cuda error lower case", "cuda error: invalid argument ", &native{kind: NativeCUDA, level: LevelError, soft: true}},
		{"cuda error name", "cudaErrorIllegalAddress: an illegal memory access was encountered", &native{kind: NativeCUDA, level: LevelError, soft: true}},

		// HIP and ROCclr (ROCm/legacy-rocm-build#1666, #1623,
		// iacopPBK/llama.cpp-gfx906#17, ROCm/legacy-rocm-build#2153).
		{"hip error", "HIP error: hipErrorNoDevice amdih/pytorch:rocm4.2_ubuntu18.04_py3.6_pytorch_1.9.0", &native{kind: NativeROCm, level: LevelError, soft: true}},
		{"hip error name", "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", &native{kind: NativeROCm, level: LevelError, soft: true}},
		{"rocclr aborting", ":0:rocdevice.cpp            :2992: 4026031038 us:  Callback: Queue 0x7d8018200000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29",
			&native{kind: NativeROCm, level: LevelFatal, soft: true}},
		{"rocclr aborting older", ":0:rocdevice.cpp :2672: 0696142325 us: 5999 : [tid:0x7f676e4c7640] Device::callbackQueue aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29",
			&native{kind: NativeROCm, level: LevelFatal, soft: true}},
		// AITER's HIP call check (ROCm/aiter#1332).
		{"aiter hip call", "[AITER] /home/aiter/aiter/jit/build/module_fmha_v3_fwd/blob/asm_fmha_fwd_v3_gfx942.cpp:141 fail to call hipModuleLaunchKernel(kernel_func, gdx, gdy, gdz, bdx, 1, 1, 0, s.stream_id_, NULL, reinterpret_cast<void**>(&config)) ---> [HIP error](invalid resource handle)",
			&native{kind: NativeROCm, level: LevelError, soft: true}},
		{"rocclr info", ":3:hip_context.cpp          :66  : 383398390709 us: [pid:718 tid: 0x7d97760d9f80] HIP Version: 7.2.53150.ed0a4c5276, Direct Dispatch: 1",
			&native{kind: NativeROCm, level: LevelInfo, soft: true}},

		// Ascend runtime lines outside CANN's block (Ascend/samples#21,
		// hw-native-sys/PTOAS#948, vllm-project/vllm-ascend#4284).
		{"acl call failed", "aclrtSetDevice: open device 0 failed, runtime result = 507033", &native{kind: NativeAscend, level: LevelError, soft: true}},
		{"acl call failed bracketed", "[ERROR] aclrtSetDevice(deviceId) failed: 507033 (/tmp/ptoas-board-monitor-a5/runs/20260720_224207_manual_pr948/npu_validation/Qwen3DecodeA5/post_rmsnorm/main.cpp:102)",
			&native{kind: NativeAscend, level: LevelError, soft: true}},
		{"cann code", "EZ9999: Inner Error!", &native{kind: NativeAscend, level: LevelError, soft: true}},
		{"cann code with time", "E30006: 2025-11-19-11:14:58.516.606 Failed to verify the OPP", &native{kind: NativeAscend, level: LevelError, soft: true}},
		// CANN's error reporter, indented under its code (sgl-project/sglang#9226).
		{"cann report", "        [Init][Compiler]Init compiler failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]", &native{kind: NativeAscend, level: LevelError, soft: true}},
		{"cann report unindented", "[Exec][Op]Execute op failed. op type = MatMul, ge result = 4294967295[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]", &native{kind: NativeAscend, level: LevelError, soft: true}},

		// Native assertions before an abort (sgl-project/sglang#6017 DeepEP
		// over NVSHMEM, glibc's assert, the C runtime's).
		{"deepep assert", "Assertion failed: /sgl-workspace/DeepEP/csrc/kernels/internode.cu:483, condition: ibgda_get_state()->num_rc_per_pe >= num_channels", &native{kind: NativeAssert, level: LevelFatal, soft: true}},
		{"nvshmem assert relative", "Assertion failed: src/host/transport/transport.cpp:157, condition: status == 0", &native{kind: NativeAssert, level: LevelFatal, soft: true}},
		{"ggml assert", "GGML_ASSERT: ggml/src/ggml-cuda/argsort.cu:48: (ncols & (ncols - 1)) == 0", &native{kind: NativeAssert, level: LevelFatal, soft: true}},
		{"ggml assert newer", "/app/ggml/src/ggml.c:5123: GGML_ASSERT(ggml_nelements(a) == ne0) failed", &native{kind: NativeAssert, level: LevelFatal, soft: true}},
		{"glibc assert", "python3: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion `mutex->__data.__owner == 0' failed.", &native{kind: NativeAssert, level: LevelFatal, soft: true}},
		{"glibc assert c++ function", "python: /project/cpp/grammar_compiler.cc:209: void xgrammar::Compile(): Assertion `rule_id < num_rules' failed.", &native{kind: NativeAssert, level: LevelFatal, soft: true}},
		{"crt assert", "Assertion failed: idx < size, file pool.c, line 42", &native{kind: NativeAssert, level: LevelFatal, soft: true}},

		// Compiler, linker and build tools (dthain/basekernel#148,
		// pytorch/pytorch#103417, laugh12321/TensorRT-YOLO#1,
		// flashinfer-ai/flashinfer#4763, SCons/scons#4103,
		// SystemPanic/flashinfer-windows#6, SGLANG-LOGS.md §9).
		{"gcc fatal error", "kshell.c:3:10: fatal error: kernel/error.h: No such file or directory", &native{kind: NativeCompiler, level: LevelFatal, soft: true}},
		{"ld cannot find", "/usr/bin/ld: cannot find -lcuda: No such file or directory", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"collect2", "collect2: error: ld returned 1 exit status", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"nvcc error", "kernel.cu(5): error: incomplete type is not allowed", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"nvcc warning", "kernel.cu(5): warning: attribute \"__global__\" does not apply here", &native{kind: NativeCompiler, level: LevelWarning, soft: true}},
		{"nvcc error long path", "/home/.../flashinfer/data/include/flashinfer/sampling.cuh(623): error: class \"cub::_V_300302_SM_890::BlockAdjacentDifference<__nv_bool, ...>\" has no member ...",
			&native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"nvcc error limit", "Error limit reached. 100 errors detected in the compilation of \"sampling.cu\".", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"nvcc summary", "7 errors detected in the compilation of \"/root/.cache/flashinfer/0.6.4/90a/generated/gdn_prefill_sm90/gdn_prefill_kernel_bf16_g0b1a0i1.cu\".",
			&native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"nvcc fatal", "nvcc fatal: A single input file is required for a non-link phase when an outputfile is specified", &native{kind: NativeCompiler, level: LevelFatal, soft: true}},
		{"cross gcc error", "arm-none-eabi-gcc: error: /showIncludes: No such file or directory", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"cross gcc fatal", "arm-none-eabi-gcc: fatal error: no input files", &native{kind: NativeCompiler, level: LevelFatal, soft: true}},
		{"ninja failed", "FAILED: build/applications/main.o", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"ninja stopped", "ninja: build stopped: subcommand failed.", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"setuptools", "error: command 'gcc' failed with exit code 1", &native{kind: NativeCompiler, level: LevelError, soft: true}},
		{"ld warning", "/usr/bin/ld: warning: libcudart.so.11.0, needed by x.so, not found", &native{kind: NativeCompiler, level: LevelWarning, soft: true}},

		{"not: ggml assert macro in prose", "see GGML_ASSERT(x) in ggml.c for why", nil},
		{"not: ggml assert without place", "GGML_ASSERT: something went wrong", nil},
		{"not: killed in a sentence", "The process was Killed by the OOM killer", nil},
		{"not: exception line with cuda error", "RuntimeError: CUDA error: an illegal memory access was encountered", nil},
		{"not: pytest exception line", "E   torch.AcceleratorError: CUDA error: an illegal memory access was encountered", nil},
		{"not: python warning", "/usr/lib/python3.12/site-packages/transformers/utils.py:54: FutureWarning: something is deprecated", nil},
		{"not: pip error", "ERROR: Could not find a version that satisfies the requirement sglang", nil},
		{"shell's own diagnostic", "bash: error: something", &native{kind: NativeDiagnostic, level: LevelError, soft: true}},
		{"not: url", "http://host:8000: error: x", nil},
		{"not: ninja progress", "ninja: Entering directory `build'", nil},
		{"not: word starting acl", "aclose: done", nil},
		{"not: upper word with colon", "EXPORT: x", nil},
		{"not: python traceback", "Traceback (most recent call last):", nil},
		{"not: CANN traceback", "        TraceBack (most recent call last):", nil},
		{"not: srt header", "[2026-07-01 09:31:38 TP0] x", nil},
		{"not: program message", "bash: cannot set terminal process group", nil},
		{"not: thread without dump", "Thread 0x1 started", nil},
		{"not: nccl text", "RuntimeError: NCCL error: unhandled system error", nil},
		{"not: bracket level without pid", "[ERROR] something", nil},
		{"not: aiter import", "[aiter] import [module_fmha_v3_fwd] under /home/aiter/aiter/jit/module_fmha_v3_fwd.so", nil},
		{"not: assertion prose", "Assertion failed: expected the cache to be empty", nil},
		{"not: python assertion", "AssertionError: Assertion `x' failed.", nil},
		{"not: assertion without place", "worker: Assertion `x > 0' failed.", nil},
		{"not: bracketed tags without place", "[Init][Compiler]Init compiler failed", nil},
		{"not: func file without line", "[FUNC:Report][FILE:log.cpp]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseNative(tt.in, ref, time.UTC)
			if tt.want == nil {
				if ok {
					t.Fatalf("parseNative(%q) = %+v, want not native", tt.in, got)
				}
				return
			}
			if !ok {
				t.Fatalf("parseNative(%q): not native, want %+v", tt.in, *tt.want)
			}
			if diff := cmp.Diff(*tt.want, got, cmp.AllowUnexported(native{})); diff != "" {
				t.Errorf("parseNative(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestNativeContinues(t *testing.T) {
	tests := []struct {
		name       string
		kind, line string
		afterBlank bool
		want       bool
	}{
		{"faulthandler thread after blank", NativeFaulthandler, "Thread 0x00007f5c2effd640 (most recent call first):", true, true},
		{"faulthandler frame", NativeFaulthandler, `  File "/x.py", line 359 in wait`, false, true},
		{"faulthandler extension modules", NativeFaulthandler, "Extension modules: numpy (total: 1)", true, true},
		{"faulthandler ends at text", NativeFaulthandler, "Killed", false, false},
		{"terminate what", NativeTerminate, "  what():  [PG 3 Rank 5] Process group watchdog thread terminated", false, true},
		{"terminate exception raised from", NativeTerminate, "Exception raised from checkTimeout at ../ProcessGroupNCCL.cpp:609 (most recent call first):", false, true},
		{"terminate frame after blank", NativeTerminate, "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96", true, true},
		{"terminate indented after blank", NativeTerminate, "  what():  x", true, false},
		{"c10d frames", NativeC10d, "frame #3: <unknown function> + 0x1", false, true},
		{"cuda assert repeats", NativeCUDAAssert, "a.cu:92: operator(): block: [0,0,0], thread: [5,0,0] Assertion `x` failed.", false, true},
		{"cuda assert ends at python", NativeCUDAAssert, "RuntimeError: CUDA error: device-side assert triggered", false, false},
		{"glog check failure", NativeGlog, "*** Check failure stack trace: ***", false, true},
		{"glog next line", NativeGlog, "I0820 02:41:20.446154   710 a.cpp:1] x", false, false},
		{"ascend code", NativeAscend, "EZ9999: Inner Error!", false, true},
		{"ascend CANN traceback", NativeAscend, "        TraceBack (most recent call last):", false, true},
		{"nccl single line", NativeNCCL, "  indented", false, false},
		{"shell single line", NativeShell, "Killed", false, false},
		{"cuda epilogue", NativeCUDA, "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.", false, true},
		{"c10d epilogue", NativeC10d, "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.", false, true},
		{"compiler source line needs its diagnostic", NativeCompiler, "    #include \"kernel/error.h\"", false, false},
		{"compiler caret", NativeCompiler, "          ^~~~~~~~~~~~~~~~", false, true},
		{"compiler gutter", NativeCompiler, "    3 | #include \"kernel/error.h\"", false, true},
		{"compiler frame is not its own", NativeCompiler, "  File \"/usr/lib/python3.10/contextlib.py\", line 79, in inner", false, false},
		{"compiler terminated", NativeCompiler, "compilation terminated.", false, true},
		{"compiler next error", NativeCompiler, "kernel.cu(5): error: identifier \"x\" is undefined", false, false},
		{"compiler after blank", NativeCompiler, "    x", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nativeContinues(tt.kind, tt.line, tt.afterBlank); got != tt.want {
				t.Errorf("nativeContinues(%s, %q, %v) = %v, want %v", tt.kind, tt.line, tt.afterBlank, got, tt.want)
			}
		})
	}
}

func TestAssemblerNativeLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []view
	}{
		{
			// dthain/basekernel#148, Markdown-quoted as posted.
			name: "gcc fatal error with its excerpt",
			in: `> gcc -m32 -Wall -c -ffreestanding -fno-pie -g -I ../include kshell.c -o kshell.o
> kshell.c:3:10: fatal error: kernel/error.h: No such file or directory
>  #include "kernel/error.h"
>           ^~~~~~~~~~~~~~~~
> compilation terminated.
> Makefile:21: recipe for target 'kshell.o' failed`,
			want: []view{
				{"1-1", FormatNone, "", "gcc -m32 -Wall -c -ffreestanding -fno-pie -g -I ../include kshell.c -o kshell.o", ""},
				{"2-5", FormatNative, NativeCompiler, "kshell.c:3:10: fatal error: kernel/error.h: No such file or directory", ""},
				{"6-6", FormatNone, "", "Makefile:21: recipe for target 'kshell.o' failed", ""},
			},
		},
		{
			// pytorch/pytorch#103417: the linker's lines land inside a
			// traceback; its frames are not the linker's.
			name: "linker lines interleaved with a traceback",
			in: `  File "/home/alex/.local/lib/python3.10/site-packages/torch/_inductor/debug.py", line 239, in inner
/usr/bin/ld: cannot find -lcuda: No such file or directory
collect2: error: ld returned 1 exit status
    return fn(*args, **kwargs)
  File "/usr/lib/python3.10/contextlib.py", line 79, in inner
    return func(*args, **kwds)`,
			want: []view{
				{"1-1", FormatNone, "", `  File "/home/alex/.local/lib/python3.10/site-packages/torch/_inductor/debug.py", line 239, in inner`, ""},
				{"2-2", FormatNative, NativeCompiler, "/usr/bin/ld: cannot find -lcuda: No such file or directory", ""},
				{"3-3", FormatNative, NativeCompiler, "collect2: error: ld returned 1 exit status", ""},
				{"4-4", FormatNone, "", "    return fn(*args, **kwargs)", ""},
				{"5-6", FormatNone, "", `  File "/usr/lib/python3.10/contextlib.py", line 79, in inner`, ""},
			},
		},
		{
			// NVIDIA/nccl#1410: after the exception line, NCCL's error name,
			// "Last error:" and the failure it names belong to the message.
			name: "NCCL last error after a rank's traceback",
			in: `[rank5]: Traceback (most recent call last):
[rank5]:   File "/tmp/test.py", line 8, in <module>
[rank5]:     dist.all_reduce(data, op=dist.ReduceOp.SUM)
[rank5]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank5]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank5]: Last error:
[rank5]: Cuda failure 1 'invalid argument'`,
			want: []view{
				{"1-7", FormatNone, "", "Traceback (most recent call last):", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5"},
			},
		},
		{
			// sgl-project/sgl-project.github.io#5: the bare exception line,
			// NCCL's error name, "Last error:" and the shared-memory
			// failure are one message; the next line is not part of it.
			name: "NCCL last error after a bare DistBackendError",
			in: "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n" +
				"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n" +
				"Last error:\n" +
				"Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)\n" +
				"Killed",
			want: []view{
				{"1-4", FormatNone, "", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"},
				{"5-5", FormatNative, NativeShell, "Killed", ""},
			},
		},
		{
			// A remote error's "Last error:" names the network failure.
			name: "NCCL remote error with its last error, then a new record",
			in: "RuntimeError: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5\n" +
				"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n" +
				"Last error:\n" +
				"NET/IB : Got completion from peer 10.0.0.8<54321> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.7 remoteGids::ffff:10.0.0.8\n" +
				"[2026-07-01 09:31:38] Received sigquit from a child process. It usually means the child failed.",
			want: []view{
				{"1-4", FormatNone, "", "RuntimeError: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5", "RuntimeError: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5"},
				{"5-5", FormatSRT, "", "Received sigquit from a child process. It usually means the child failed.", ""},
			},
		},
		{
			// The same message pasted double-spaced: one blank line between
			// its parts keeps them together; two end it.
			name: "NCCL last error, double-spaced",
			in: "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n\n" +
				"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n\n" +
				"Last error:\n\n" +
				"Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)\n\n\n" +
				"Last error:",
			want: []view{
				{"1-9", FormatNone, "", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"},
				{"10-10", FormatNone, "", "Last error:", ""},
			},
		},
		{
			// A rank's tail (NCCL's error name, an empty "Last error:"),
			// a blank line, then another process's traceback: NCCL's
			// message announces its last error, never a traceback.
			name: "NCCL tail with an empty last error, then a traceback",
			in: "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n" +
				"Last error:\n" +
				"\n" +
				"Traceback (most recent call last):\n" +
				"  File \"/w/train.py\", line 9, in run\n" +
				"RuntimeError: NCCL communicator was aborted on rank 3.",
			want: []view{
				{"1-3", FormatNone, "", "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.", ""},
				{"4-6", FormatNone, "", "Traceback (most recent call last):", "RuntimeError: NCCL communicator was aborted on rank 3."},
			},
		},
		{
			// The same tail from a writer that ends its lines in a
			// space, as a word wrap's piece does: "Last error:" is
			// NCCL's own line all the same.
			name: "NCCL tail rejoined, then a traceback",
			in: "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely. \n" +
				"Last error:\n" +
				"\n" +
				"Traceback (most recent call last):\n" +
				"  File \"/w/serve.py\", line 3, in <module>\n" +
				"torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, remote process exited or there was a network error, NCCL version 2.21.5",
			want: []view{
				{"1-3", FormatNone, "", "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely. ", ""},
				{"4-6", FormatNone, "", "Traceback (most recent call last):", "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, remote process exited or there was a network error, NCCL version 2.21.5"},
			},
		},
		{
			// "Last error:" that no NCCL message announced is text of its own.
			name: "last error without an NCCL message",
			in:   "RuntimeError: something else failed\nLast error:\nsocket closed",
			want: []view{
				{"1-1", FormatNone, "", "RuntimeError: something else failed", "RuntimeError: something else failed"},
				{"2-2", FormatNone, "", "Last error:", ""},
				{"3-3", FormatNone, "", "socket closed", ""},
			},
		},
		{
			// An sglang record's exception message quotes a build log:
			// it stays in the record; after the record's blank line the
			// compiler's own line is a new entry.
			name: "build output inside an sglang record's traceback",
			in: "[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
				"  File \"/sgl/jit.py\", line 12, in build\n" +
				"RuntimeError: Error building extension 'fused_moe':\n" +
				"/root/.cache/fused_moe.cu(12): error: identifier \"x\" is undefined\n" +
				"1 error detected in the compilation of \"/root/.cache/fused_moe.cu\".\n" +
				"ninja: build stopped: subcommand failed.\n" +
				"\n" +
				"/usr/bin/ld: cannot find -lcuda",
			want: []view{
				{"1-7", FormatSRT, "", "Scheduler hit an exception: Traceback (most recent call last):", "RuntimeError: Error building extension 'fused_moe':"},
				{"8-8", FormatNative, NativeCompiler, "/usr/bin/ld: cannot find -lcuda", ""},
			},
		},
		{
			name: "an sglang record without a traceback ends at a native line",
			in:   "[2026-07-01 09:31:38 TP0] Load weight begin. avail mem=78.21 GB\nCUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
			want: []view{
				{"1-1", FormatSRT, "", "Load weight begin. avail mem=78.21 GB", ""},
				{"2-3", FormatNative, NativeCUDA, "CUDA error: an illegal memory access was encountered", ""},
			},
		},
		{
			// iacopPBK/llama.cpp-gfx906#17, followed by the shell's message.
			name: "ROCclr abort then the shell",
			in:   ":0:rocdevice.cpp            :2992: 4026031038 us:  Callback: Queue 0x7d8018200000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29\nAborted (core dumped)",
			want: []view{
				{"1-1", FormatNative, NativeROCm, ":0:rocdevice.cpp            :2992: 4026031038 us:  Callback: Queue 0x7d8018200000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29", ""},
				{"2-2", FormatNative, NativeShell, "Aborted (core dumped)", ""},
			},
		},
		{
			// vllm-project/vllm#5537, its compose and Ray prefixes removed
			// and the wrapped line joined: c10's CUDA error keeps torch's
			// epilogue and its C++ frames.
			name: "c10d CUDA error with epilogue and frames",
			in: "[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 2 Rank 1] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n" +
				"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n" +
				"For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n" +
				"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n" +
				"\n" +
				"Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):\n" +
				"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7fec74098897 in /usr/local/lib/python3.11/dist-packages/torch/lib/libc10.so)",
			want: []view{
				{"1-7", FormatNative, NativeC10d, "[PG 2 Rank 1] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered", ""},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := views(assemble(t, Options{}, tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExceptionLeadSkipsOnlyRejecting pins parseNative's gate: on a line
// exceptionLead accepts, every parser the gate skips would have said no,
// so the gate changes no verdict.
func TestExceptionLeadSkipsOnlyRejecting(t *testing.T) {
	types := []string{"RuntimeError", "Error", "EError", "E1234Error", "FailedError", "CUDAError",
		"GPUassertError", "HIPError", "Torch.cuda.OutOfMemoryError", "Ld.Exception", "Exception", "NCCLError"}
	msgs := []string{"", "x", "12345 Killed", "line 1: 99 Killed python3 x.py", "Terminated",
		"/src/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [0,0,0] Assertion `idx` failed.",
		"Failed: x.cu:12 'bad'", "error: x", "fatal error: x.h: No such file", "a.cpp:12:3: error: x",
		"UCX  ERROR x", "host:1:2 [3] NCCL WARN x", "E0101 09:31:38.123 1 x.cc:12] x",
		"aclrtSetDevice failed", "x [FUNC:f][FILE:a.cc][LINE:12]", "0: 0x1 - std::x", "cudaErrorIllegalAddress"}
	ref := time.Date(2026, 7, 1, 9, 31, 0, 0, time.UTC)
	for _, typ := range types {
		for _, m := range msgs {
			s := typ + ": " + m
			if !exceptionLead(s) {
				t.Fatalf("exceptionLead(%q) = false", s)
			}
			_, glog := parseGlog(s, ref, time.UTC)
			_, nccl := parseNCCL(s)
			_, ucx := parseUCXLine(s)
			_, hip := parseHIPLine(s)
			_, comp := parseCompilerLine(s)
			_, _, located := parseLocatedLine(s)
			if glog || isRustBacktraceFrame(s) || nccl || ucx || parseCUDALine(s) || hip || parseACLLine(s) || comp || located {
				t.Errorf("%q: a parser the gate skips accepts it", s)
			}
		}
	}
	for _, s := range []string{"RuntimeError:x", "Error limit reached.", "CUDA error: x", "runtimeError: x", "Foo: x", "FAILED: x", "torch.cuda.OutOfMemoryError: x", "cudaErrorFooError: x"} {
		if exceptionLead(s) {
			t.Errorf("exceptionLead(%q) = true", s)
		}
	}
}

// TestIsCANNReportEnd checks the reading of "[LINE:N]" back from a line's
// end against the search it replaced.
func TestIsCANNReportEnd(t *testing.T) {
	searched := func(s string) bool {
		s = strings.TrimLeft(s, " \t")
		if !strings.HasSuffix(s, "]") {
			return false
		}
		i := strings.LastIndex(s, "[LINE:")
		if i < 0 || !ascii.Digits(s[i+len("[LINE:"):len(s)-1]) {
			return false
		}
		f := strings.LastIndex(s[:i], "[FILE:")
		return f >= 0 && strings.HasSuffix(s[:i], "]") && strings.Contains(s[:f], "[FUNC:")
	}
	for _, s := range []string{
		"[Init][Compiler]Init compiler failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]",
		"  \t[Init]x[FUNC:F][FILE:f.cpp][LINE:1]",
		"[FUNC:F][FILE:f.cpp][LINE:]", "[FUNC:F][FILE:f.cpp][LINE:1x]", "[FUNC:F][FILE:f.cpp][LINE:12",
		"[FILE:f.cpp][LINE:3]", "[FUNC:F][FILE:f.cpp]x[LINE:3]", "[LINE:3]", "3]", "]", "", "   ",
		"[FUNC:F][FILE:f.cpp][LINE:1][LINE:2]", "[FUNC:F][FILE:f.cpp][LINE:[LINE:2]",
		"Capturing batches (bs=8 avail_mem=20.00 GB):  45%|####5     | 9/20 [00:01<00:01,  6.21it/s]",
	} {
		if got, want := isCANNReport(s), searched(s); got != want {
			t.Errorf("isCANNReport(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestNCCLLineNamesItsProcess: an NCCL line's "host:pid:tid [dev]" prefix
// names its process once, in Entry.Process, whatever a launcher or a
// collector put before it; a clock is no process, and no other line gets
// one from a word of that shape.
func TestNCCLLineNamesItsProcess(t *testing.T) {
	for _, tt := range []struct {
		line, want string
	}{
		{"gpu5:35917:35994 [0] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 12", "gpu5:35917"},
		{"node-2.cluster:812:901 [3] NCCL WARN Call to ibv_poll_cq failed", "node-2.cluster:812"},
		{"3: gpu5:35917:35994 [0] NCCL WARN Cuda failure 'unspecified launch failure'", "gpu5:35917"},
		{"[1,0]<stdout>:node-2:812:901 [3] NCCL WARN Call to ibv_poll_cq failed", "node-2:812"},
		{"sglang-1  | ng3:3063025:3066048 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer", "ng3:3063025"},
		{"10:11:12 [0] NCCL WARN not a process", ""},
		{"E0805 09:42:09.763501 80495 rdma_context.cpp:257] Failed to register memory", ""},
		{"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: host:1:2 [0] NCCL WARN x", ""},
	} {
		in := tt.line
		if label, _, ok := strings.Cut(tt.line, "gpu5:"); ok && label != "" {
			// A launcher's label is learned from the lines before.
			in = label + "gpu5:35917:35917 [0] NCCL INFO Bootstrap : Using eth0\n" + in
		}
		es := assemble(t, Options{}, in)
		if len(es) == 0 {
			t.Errorf("%q: no entry", tt.line)
			continue
		}
		if got := es[len(es)-1].Process; got != tt.want {
			t.Errorf("%q: Process %q, want %q", tt.line, got, tt.want)
		}
	}
}

// FuzzNCCLProcess: ncclProcess never panics, and what it returns is a
// part of the line's first word, "host:pid" with a pid of digits.
func FuzzNCCLProcess(f *testing.F) {
	for _, s := range []string{
		"gpu5:35917:35994 [0] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 12",
		"[1,0]<stdout>:node-2:812:901 [3] NCCL WARN Call to ibv_poll_cq failed",
		"10:11:12 [0] NCCL WARN x", ":1:2 [0] NCCL INFO x", "a::1:2 [0] NCCL WARN x", "",
		"[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>", "[12] NCCL INFO x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := ncclProcess(s)
		if lvl, ok := parseNCCL(s); ok && ncclDeviceFirst(s) && (p != "" || !strings.Contains(s, " NCCL "+lvl)) {
			t.Fatalf("ncclProcess(%q) = %q, parseNCCL = %q: a line without its host names no process, and states its level", s, p, lvl)
		}
		if p == "" {
			return
		}
		first, _, _ := strings.Cut(s, " ")
		if !strings.Contains(first, p) {
			t.Fatalf("ncclProcess(%q) = %q, not part of the first word", s, p)
		}
		i := strings.LastIndexByte(p, ':')
		if i <= 0 || !ascii.Digits(p[i+1:]) {
			t.Fatalf("ncclProcess(%q) = %q, not host:pid", s, p)
		}
	})
}

// FuzzPlogModuleLen checks the module and process fields of a plog line:
// what it takes is a prefix of the line, an upper-case name, a process id
// in parentheses and a colon.
func FuzzPlogModuleLen(f *testing.F) {
	for _, s := range []string{"HCCL(893240,):2026-08-11-07:03:46.026.970 x", "HCCL(36035,mindie_llm_backend_connector):2025", "GE(1,):", "HCCL(,x):", "A(1,", "(1,):"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := plogModuleLen(s)
		if n == 0 {
			return
		}
		if n > len(s) || s[n-1] != ':' || s[n-2] != ')' || !isUpper(s[0]) {
			t.Fatalf("plogModuleLen(%q) = %d: not a module and process field", s, n)
		}
		p := strings.IndexByte(s, '(')
		if c := strings.IndexByte(s[p:], ','); p <= 0 || c < 2 || !ascii.Digits(s[p+1:p+c]) {
			t.Fatalf("plogModuleLen(%q) = %d: no process id", s, n)
		}
	})
}
