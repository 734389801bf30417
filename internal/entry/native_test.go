package entry

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
			&native{kind: NativeC10d, level: "ERROR", time: time.Date(2025, 8, 25, 10, 26, 44, 56376840, time.UTC)}},
		{"c10d warning mmdd", "[W1231 23:59:59.000000001 ProcessGroupNCCL.cpp:1000] x",
			&native{kind: NativeC10d, level: "WARNING", time: time.Date(2025, 12, 31, 23, 59, 59, 1, time.UTC)}},
		{"c10d old", "[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout", &native{kind: NativeC10d, level: "ERROR"}},
		{"nccl info", "node-7:1234:5678 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.7<0>", &native{kind: NativeNCCL, level: "INFO"}},
		{"nccl warn with file", "gpu-a:1234:5679 [3] transport/net_ib.cc:123 NCCL WARN NET/IB : Got completion with error 12", &native{kind: NativeNCCL, level: "WARN"}},
		{"cuda assert", "../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [4,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
			&native{kind: NativeCUDAAssert, level: LevelError}},
		{"glog info", "I0820 02:41:20.446154   710 transfer_engine.cpp:422] Transfer engine started",
			&native{kind: NativeGlog, level: "INFO", time: time.Date(2025, 8, 20, 2, 41, 20, 446154000, time.UTC)}},
		{"glog error", "E0414 03:56:41.856248 77969 transfer_metadata_plugin.cpp:173] Failed",
			&native{kind: NativeGlog, level: "ERROR", time: time.Date(2026, 4, 14, 3, 56, 41, 856248000, time.UTC)}},
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

		{"not: killed in a sentence", "The process was Killed by the OOM killer", nil},
		{"not: python traceback", "Traceback (most recent call last):", nil},
		{"not: CANN traceback", "        TraceBack (most recent call last):", nil},
		{"not: srt header", "[2026-07-01 09:31:38 TP0] x", nil},
		{"not: program message", "bash: cannot set terminal process group", nil},
		{"not: thread without dump", "Thread 0x1 started", nil},
		{"not: nccl text", "RuntimeError: NCCL error: unhandled system error", nil},
		{"not: bracket level without pid", "[ERROR] something", nil},
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nativeContinues(tt.kind, tt.line, tt.afterBlank); got != tt.want {
				t.Errorf("nativeContinues(%s, %q, %v) = %v, want %v", tt.kind, tt.line, tt.afterBlank, got, tt.want)
			}
		})
	}
}
