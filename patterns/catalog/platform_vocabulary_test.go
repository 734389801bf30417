package catalog_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// The platform vocabularies are the failure texts of the layers around a
// serving process rather than under it: the NVIDIA driver's and the
// NVSwitch driver's kernel reports, the Linux kernel's reports of a
// process it killed or of a stuck task, the C library's heap checks and
// dynamic loader, CPython's fatal errors, Python's process pools, the
// Ascend runtime's error codes, and what the kubelet and the container
// runtime say about a container that cannot run. Each is composed and
// checked the way vocabulary_test.go checks the libraries under an
// engine.

// TestPlatformVocabularies checks every platform vocabulary and logs its
// count of failure strings claimed.
func TestPlatformVocabularies(t *testing.T) {
	checkVocabularies(t, platformVocabularies())
}

// checkVocabularies checks each vocabulary against the compiled catalog
// and logs its count of failure strings claimed.
func checkVocabularies(t *testing.T, vs []vocabulary) {
	m := compileCatalog(t)
	for _, v := range vs {
		t.Run(v.name, func(t *testing.T) {
			n := checkVocabulary(t, m, v)
			t.Logf("%s: %d of %d failure strings claimed (%d of %d lines)", v.name, n.claimed, n.failures, n.claimedLines, n.failureLines)
		})
	}
}

func platformVocabularies() []vocabulary {
	return []vocabulary{
		nvidiaXids,
		nvswitchSXids,
		nvidiaSMIErrors,
		amdgpuKernelReports,
		kernelReports,
		glibcAborts,
		loaderErrors,
		fatalPythonErrors,
		processPoolErrors,
		threadCreationErrors,
		ncclSharedMemory,
		aclRuntimeErrors(),
		cannModuleCodes,
		hcclResults(),
		kubeletEvents,
		systemdUnitResults,
		exitStatuses,
		goExitErrors,
		launcherReports,
		asyncioLoopErrors,
		containerRuntimeErrors,
		kubectlPodStatuses,
		httpAccessStatuses,
		rayActorDeaths,
		shellLaunchErrors,
	}
}

// faulthandlerTail is what faulthandler prints after a fatal error's line.
const faulthandlerTail = "\nPython runtime state: initialized\n\nThread 0x00007f3a2c0b8740 (most recent call first):\n  File \"/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py\", line 3120 in run_scheduler_process"

// nvidiaXids are the NVIDIA driver's Xid events as the kernel log prints
// them (NVRM: Xid (PCI:<bus>): <code>, pid=..., name=..., <detail>), for
// the Xid codes of NVIDIA's Xid catalogue a data-centre GPU reports, with
// a detail line of each. Every one is a failure; 79, the GPU gone from
// the bus, has its own record.
var nvidiaXids = vocabulary{
	name: "NVIDIA Xid (NVRM kernel log)",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: "[ 1234.567890] NVRM: Xid (PCI:0000:3b:00): %[2]s, pid=4021, name=python3, %[1]s"},
		{Field: fieldText, All: true, Format: "Dec 06 09:00:01 gpu-node-3 kernel: NVRM: Xid (PCI:0000:3b:00): %[2]s, pid='<unknown>', name=<unknown>, %[1]s"},
		{Field: fieldText, All: true, Format: "[Sun Dec  6 09:00:01 2026] NVRM: Xid (PCI:0000:3b:00): %[2]s, pid=4021, name=python3, %[1]s"},
	},
	terms: []vocabTerm{
		{"Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address", "13", "", "nvidia-xid-error"},
		{"Ch 00000008, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f1b_2c000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ", "31", "", "nvidia-xid-error"},
		{"Channel ID 00000010 intr0 00040000", "32", "", "nvidia-xid-error"},
		{"Ch 00000010", "43", "", "nvidia-xid-error"},
		{"Ch 00000010", "45", "", "nvidia-xid-error"},
		{"An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 3, subpartition 1.", "48", "", "nvidia-xid-error"},
		{"(0x0:0x0:1234) Internal micro-controller breakpoint/warning", "61", "", "nvidia-xid-error"},
		{"(0x0:0x0:1234) Internal micro-controller halt", "62", "", "nvidia-xid-error"},
		{"Row Remapper: New row (0x00000000000000a3) marked for remapping, reset gpu to activate.", "63", "", "nvidia-xid-error"},
		{"Row Remapper: Failed to remap a row with an uncorrectable error, GPU reset required.", "64", "", "nvidia-xid-error"},
		{"NVLink: fatal error detected on link 3(0x10000, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)", "74", "", "nvidia-xid-error"},
		{"GPU has fallen off the bus.", "79", "", "nvidia-gpu-fallen-off-bus"},
		{"High single-bit ECC error rate detected", "92", "", "nvidia-xid-error"},
		{"Contained: SM (0x1). RST: No, D-RST: No", "94", "", "nvidia-xid-error"},
		{"Uncontained: FBHUB. RST: Yes, D-RST: No", "95", "", "nvidia-xid-error"},
		{"Ch 0000000a, errorString CTX SWITCH TIMEOUT, Info 0x3c040", "109", "", "nvidia-xid-error"},
		{"Timeout after 6s of waiting for RPC response from GPU0 GSP! Expected function 76 (GSP_RM_CONTROL) (0x20801348 0x4).", "119", "", "nvidia-xid-error"},
		{"GSP task exception: (0x0:0x0:1234)", "120", "", "nvidia-xid-error"},
		{"GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)", "154", "", "nvidia-xid-error"},
	},
}

// nvswitchSXids are the NVSwitch driver's SXid reports (nvidia-nvswitchN:
// SXid (PCI:<bus>): <code>, Fatal|Non-fatal, <detail>): a fatal one breaks
// NVLink traffic; a non-fatal one was corrected.
var nvswitchSXids = vocabulary{
	name: "NVSwitch SXid (nvidia-nvswitch kernel log)",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: "[ 1234.567890] nvidia-nvswitch3: SXid (PCI:0000:86:00.0): %[2]s, %[1]s"},
		{Field: fieldText, All: true, Format: "Dec 06 09:00:01 gpu-node-3 kernel: nvidia-nvswitch0: SXid (PCI:0000:05:00.0): %[2]s, %[1]s"},
	},
	terms: []vocabTerm{
		{"Fatal, Link 17 LTSSM Fault Up", "20034", "", "nvswitch-fatal-sxid"},
		{"Fatal, Link 32 ingress invalid ACL", "11004", "", "nvswitch-fatal-sxid"},
		{"Fatal, Link 03 NVLDL TX overflow (First)", "24007", "", "nvswitch-fatal-sxid"},
		{"Non-fatal, Link 17 egress non-posted PRIV error (First)", "12028", "", ""},
		{"Non-fatal, Link 04 MC TS crumbstore MCTO (First)", "22013", "", ""},
	},
}

// nvidiaSMIErrors are what nvidia-smi (and NVML's initialisation in any
// tool) prints when it cannot reach the GPUs, as an entrypoint that runs
// it before the server, or a health check, leaves it in a container log.
var nvidiaSMIErrors = vocabulary{
	name: "nvidia-smi and NVML initialisation",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "+ nvidia-smi\n%s"},
	},
	terms: []vocabTerm{
		{"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.", "", "", "nvidia-driver-not-loaded"},
		{"Failed to initialize NVML: Driver/library version mismatch", "", "", "nvml-driver-library-mismatch"},
		{"Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.54", "", "", "nvml-driver-library-mismatch"},
		// libnvidia-container prints NVML's reason lower-cased after its
		// stage, under the runtime's hook report.
		{"nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown", "", "", "nvml-driver-library-mismatch"},
		{"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown", "", "", "nvml-driver-library-mismatch"},
		{"Failed to initialize NVML: Unknown Error", "", "", "nvml-unknown-error"},
		{"Failed to initialize NVML: Insufficient Permissions", "", "", "nvml-query-failed"},
		{"Failed to initialize NVML: GPU access blocked by the operating system", "", "", "nvml-query-failed"},
		{"Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error", "", "", "nvidia-gpu-fallen-off-bus"},
		{"Unable to determine the device handle for GPU0000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU", "", "", "nvidia-gpu-fallen-off-bus"},
		{"No devices were found", "", "", "no-cuda-gpus-available"},
		{"NVML library version: 550.54", "", "", ""},
		{"No running processes found", "", "", ""},
	},
}

// amdgpuKernelReports are the AMD GPU kernel driver's reports of a hung
// job and a reset (older kernels through DRM's *ERROR* prefix, newer ones
// through the device's own), and the ROCm runtime's report of a process
// that cannot open the GPUs' device. A reset that succeeded, a ring reset
// that recovered and the driver's start are no failure of their own.
var amdgpuKernelReports = vocabulary{
	name: "amdgpu kernel driver and ROCm device access",
	shapes: []vocabShape{
		{Field: fieldText, Format: "[ 1234.567890] %s"},
		{Field: fieldText, Format: "Dec 06 09:00:01 mi300-2 kernel: %s"},
		{Field: fieldText, Format: "[Sun Dec  6 09:00:01 2026] %s"},
	},
	terms: []vocabTerm{
		{"[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=613206, emitted seq=613208", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu 0000:c5:00.0: amdgpu: ring comp_1.0.1 timeout, signaled seq=45, emitted seq=47", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu 0000:c5:00.0: amdgpu: GPU reset begin!", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu 0000:c5:00.0: amdgpu: GPU reset begin!. Source:  3", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu 0000:c5:00.0: amdgpu: Ring gfx_0.0.0 reset failed", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu 0000:c5:00.0: amdgpu: MES might be in unrecoverable state, issue a GPU reset", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu: The cp might be in an unrecoverable state due to an unsuccessful queues preemption", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu 0000:c5:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:8 pasid:32769)", "", "", "amdgpu-vm-page-fault"},
		{"amdgpu 0000:c5:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:8 pasid:32770, for process python pid 1796 thread python pid 1796)", "", "", "amdgpu-vm-page-fault"},
		{"amdgpu 0000:c5:00.0: amdgpu: [mmhub0] retry page fault (src_id:0 ring:0 vmid:1 pasid:32775)", "", "", "amdgpu-vm-page-fault"},
		{"amdgpu 0000:c5:00.0: amdgpu: GCVM_L2_PROTECTION_FAULT_STATUS:0x00A41030", "", "", "amdgpu-vm-page-fault"},
		{"amdgpu 0000:c5:00.0: amdgpu: ring gfx_0.0.0 uses VM inv eng 0 on hub 0", "", "", ""},
		{"amdgpu 0000:c5:00.0: amdgpu:   in page starting at address 0x00007f5279bab000 from client 0x1b (UTCL2)", "", "", ""},
		{"amdgpu 0000:c5:00.0: amdgpu: GPU reset(2) failed", "", "", "amdgpu-gpu-hang-reset"},
		{"amdgpu 0000:c5:00.0: amdgpu: GPU reset succeeded, trying to resume", "", "", ""},
		{"amdgpu 0000:c5:00.0: amdgpu: Ring comp_1.0.1 reset succeeded", "", "", ""},
		{"[drm] amdgpu kernel modesetting enabled.", "", "", ""},
	},
}

// kernelReports are the Linux kernel's log lines about a serving process
// or its host: a process killed by a fault (show_signal_msg's segfault
// line, do_trap's traps lines, with the library the fault is in), the OOM
// killer, stuck tasks and CPUs, and memory errors. Corrected memory errors
// and the machine-check notice are no failure.
var kernelReports = vocabulary{
	name: "Linux kernel log (dmesg)",
	shapes: []vocabShape{
		{Field: fieldText, Format: "[ 1234.567890] %s"},
		{Field: fieldText, Format: "Dec 06 09:00:01 gpu-node-3 kernel: %s"},
		{Field: fieldText, Format: "[Sun Dec  6 09:00:01 2026] %s"},
	},
	terms: []vocabTerm{
		{"python3[4021]: segfault at 0 ip 00007f3a2c0b8d10 sp 00007ffd1c2b3a40 error 4 in libcuda.so.535.104.05[7f3a2b000000+1c00000]", "", "", "linux-kernel-segfault-report"},
		{"pt_main_thread[4021]: segfault at 7f3a00000000 ip 00007f3a2c0b8d10 sp 00007ffd1c2b3a40 error 6 in libtorch_cuda.so[7f3a2b000000+1c00000] likely on CPU 12 (core 6, socket 0)", "", "", "linux-kernel-segfault-report"},
		{"python3[4021]: segfault at 18 ip 0000000000000018 sp 00007ffd1c2b3a40 error 14", "", "", "linux-kernel-segfault-report"},
		{"traps: python3[4021] general protection fault ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in libc.so.6[7f3a2b000000+195000]", "", "", "linux-kernel-segfault-report"},
		{"traps: python3[4021] general protection ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in common_ops.abi3.so[7f3a2b000000+195000]", "", "", "linux-kernel-segfault-report"},
		{"traps: python3[4021] trap invalid opcode ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in libggml-cpu.so[7f3a2b000000+195000]", "", "", "cpu-illegal-instruction"},
		{"traps: python3[4021] trap divide error ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in _C.abi3.so[7f3a2b000000+195000]", "", "", "process-floating-point-exception"},
		{"Out of memory: Killed process 4021 (python3) total-vm:123456789kB, anon-rss:120000000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:240000kB oom_score_adj:0", "", "", "linux-oom-killer"},
		{"Memory cgroup out of memory: Killed process 4021 (python3) total-vm:123456789kB, anon-rss:120000000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:240000kB oom_score_adj:938", "", "", "linux-oom-killer"},
		{"python3 invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0", "", "", "linux-oom-killer"},
		{"INFO: task python3:4021 blocked for more than 120 seconds.", "", "", "linux-kernel-task-stuck"},
		{"watchdog: BUG: soft lockup - CPU#12 stuck for 22s! [python3:4021]", "", "", "linux-kernel-task-stuck"},
		{"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", "", "", "linux-kernel-task-stuck"},
		{"nfs: server 10.0.0.5 not responding, still trying", "", "", "linux-kernel-task-stuck"},
		{"cgroup: fork rejected by pids controller in /kubepods.slice/kubepods-pod2b7c.slice", "", "", "host-thread-limit-reached"},
		{"blk_update_request: I/O error, dev nvme0n1, sector 123456 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0", "", "", "os-input-output-error"},
		{"I/O error, dev sdb, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2", "", "", "os-input-output-error"},
		{"Buffer I/O error on dev nvme0n1p1, logical block 15, async page read", "", "", "os-input-output-error"},
		{"BUG: unable to handle page fault for address: ffffb8e1c2a3d000", "", "", "linux-kernel-oops"},
		{"BUG: kernel NULL pointer dereference, address: 0000000000000008", "", "", "linux-kernel-oops"},
		{"BUG: unable to handle kernel NULL pointer dereference at 0000000000000008", "", "", "linux-kernel-oops"},
		{"Oops: 0000 [#1] PREEMPT SMP NOPTI", "", "", "linux-kernel-oops"},
		{"general protection fault, probably for non-canonical address 0xdead000000000122: 0000 [#1] SMP NOPTI", "", "", "linux-kernel-oops"},
		{"Kernel panic - not syncing: Fatal exception", "", "", "linux-kernel-oops"},
		{"Kernel panic - not syncing: Fatal Machine check", "", "", "host-memory-uncorrectable-error"},
		{"RIP: 0010:_nv012345rm+0x1d/0x30 [nvidia]", "", "", ""},
		{"nfs: server 10.0.0.5 OK", "", "", ""},
		{"NVRM: GPU 0000:3b:00.0: RmInitAdapter failed! (0x62:0x55:2477)", "", "", "nvidia-gpu-init-failed"},
		{"NVRM: GPU 0000:3b:00.0: rm_init_adapter failed, device minor number 0", "", "", "nvidia-gpu-init-failed"},
		{"NVRM: GPU 0000:3b:00.0: GPU does not have the necessary power cables connected.", "", "", "nvidia-gpu-init-failed"},
		{"EDAC MC0: 1 UE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x12345 offset:0x0 grain:32)", "", "", "host-memory-uncorrectable-error"},
		{"Memory failure: 0x12345: Sending SIGBUS to python3:4021 due to hardware memory corruption", "", "", "host-memory-uncorrectable-error"},
		{"EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x12345 offset:0x0 grain:32)", "", "", ""},
		{"mce: [Hardware Error]: Machine check events logged", "", "", ""},
		{"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023", "", "", ""},
		{"NVRM: GPU at PCI:0000:3b:00: GPU-4d1c2f3e-1111-2222-3333-444455556666", "", "", ""},
	},
}

// glibcAborts are the messages with which the C library aborts a process
// whose heap it finds corrupt (malloc.c's malloc_printerr checks), its
// fortify and stack-protector checks, and libstdc++'s pure virtual call,
// alone on stderr, under a worker's prefix, and in glibc's older
// "*** Error in" form.
var glibcAborts = vocabulary{
	name: "glibc malloc_printerr and fortify aborts",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "(EngineCore_0 pid=4021) %s"},
		{Field: fieldText, Format: "[1,3]<stderr>:%s"},
		{Field: fieldAlt, Format: "*** Error in `/usr/bin/python3': %s: 0x00007f3a2c0b8d10 ***"},
	},
	terms: func() []vocabTerm {
		var ts []vocabTerm
		for _, s := range []string{
			"free(): invalid pointer", "free(): invalid size", "free(): invalid next size (fast)", "free(): invalid next size (normal)",
			"free(): double free detected in tcache 2", "free(): unaligned chunk detected in tcache 2", "free(): too many chunks detected in tcache",
			"free(): corrupted unsorted chunks",
			"double free or corruption (top)", "double free or corruption (out)", "double free or corruption (!prev)", "double free or corruption (fasttop)",
			"munmap_chunk(): invalid pointer", "realloc(): invalid pointer", "realloc(): invalid old size", "realloc(): invalid next size",
			"malloc(): memory corruption", "malloc(): memory corruption (fast)", "malloc(): corrupted top size", "malloc(): corrupted unsorted chunks",
			"malloc(): corrupted unsorted chunks 2", "malloc(): unaligned tcache chunk detected", "malloc(): unaligned fastbin chunk detected",
			"malloc(): unaligned fastbin chunk detected 2", "malloc(): smallbin double linked list corrupted",
			"malloc(): largebin double linked list corrupted (nextsize)", "malloc(): largebin double linked list corrupted (bk)",
			"malloc(): invalid size (unsorted)", "malloc(): invalid next size (unsorted)", "malloc(): mismatching next->prev_size (unsorted)",
			"malloc(): unsorted double linked list corrupted", "malloc(): invalid next->prev_inuse (unsorted)",
			"malloc_consolidate(): invalid chunk size", "malloc_consolidate(): unaligned fastbin chunk detected",
			"corrupted size vs. prev_size", "corrupted size vs. prev_size while consolidating", "corrupted double-linked list",
			"corrupted double-linked list (not small)", "tcache_thread_shutdown(): unaligned tcache chunk detected",
		} {
			ts = append(ts, vocabTerm{text: s, alt: s, want: "glibc-heap-corruption"})
		}
		return append(ts,
			vocabTerm{text: "*** stack smashing detected ***: terminated", want: "glibc-heap-corruption"},
			vocabTerm{text: "*** buffer overflow detected ***: terminated", want: "glibc-heap-corruption"},
			vocabTerm{text: "*** stack smashing detected ***: <unknown> terminated", want: "glibc-heap-corruption"},
			vocabTerm{text: "pure virtual method called", want: "glibc-heap-corruption"},
		)
	}(),
}

// loaderErrors are the dynamic loader's errors (dlerror's texts) for a
// library that is missing, of the wrong kind or too old, or a symbol it
// lacks, as Python's import raises them and as the loader prints them
// when a program starts.
var loaderErrors = vocabulary{
	name: "glibc dynamic loader (dlerror)",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("ImportError: %s")},
		{Field: fieldText, Format: tb("OSError: %s")},
		{Field: fieldAlt, Format: "%s"},
	},
	terms: []vocabTerm{
		{"libGL.so.1: cannot open shared object file: No such file or directory", "", "/usr/bin/python3: error while loading shared libraries: libGL.so.1: cannot open shared object file: No such file or directory", "shared-library-not-found"},
		{"libnuma.so.1: cannot open shared object file: No such file or directory", "", "", "shared-library-not-found"},
		{"libascendcl.so: cannot open shared object file: No such file or directory", "", "npu-smi: error while loading shared libraries: libdrvdsmi_host.so: cannot open shared object file: No such file or directory", "shared-library-not-found"},
		{"/usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_global_deps.so: cannot open shared object file: No such file or directory", "", "/usr/bin/python3: error while loading shared libraries: libpython3.12.so.1.0: cannot open shared object file: No such file or directory", "shared-library-not-found"},
		{"libmpi.so.40: cannot open shared object file: No such file or directory", "", "", "shared-library-not-found"},
		{"libcudart.so.12: cannot open shared object file: No such file or directory", "", "/usr/local/bin/trtllm-serve: error while loading shared libraries: libcudart.so.12: cannot open shared object file: No such file or directory", "cuda-shared-library-missing"},
		{"libcuda.so.1: cannot open shared object file: No such file or directory", "", "", "cuda-shared-library-missing"},
		{"/usr/local/lib/python3.12/dist-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", "", "python3: symbol lookup error: /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister", "torch-extension-undefined-symbol"},
		{"/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /usr/local/lib/python3.12/dist-packages/vllm/_C.abi3.so)", "", "/usr/local/bin/llama-server: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /usr/local/bin/llama-server)", "system-library-version-too-old"},
		{"/usr/local/lib/python3.12/dist-packages/sgl_kernel/common_ops.abi3.so: invalid ELF header", "", "", "shared-library-load-failed"},
		{"/usr/local/lib/python3.12/dist-packages/sgl_kernel/common_ops.abi3.so: file too short", "", "", "shared-library-load-failed"},
		{"/usr/local/lib/python3.12/dist-packages/sgl_kernel/common_ops.abi3.so: ELF load command address/offset not page-aligned", "", "", "shared-library-load-failed"},
		{"/usr/local/lib/python3.12/dist-packages/tokenizers/tokenizers.abi3.so: wrong ELF class: ELFCLASS32", "", "", "shared-library-load-failed"},
		{"/usr/local/lib/python3.12/dist-packages/flashinfer/data/libflashinfer.so: cannot enable executable stack as shared object requires: Invalid argument", "", "", "shared-library-load-failed"},
		{"/usr/lib/x86_64-linux-gnu/libgomp.so.1: cannot allocate memory in static TLS block", "", "", "shared-library-load-failed"},
		{"dlopen: cannot load any more object with static TLS", "", "", "shared-library-load-failed"},
	},
}

// fatalPythonErrors are CPython's fatal errors other than a fatal signal
// (Py_FatalError's texts, with the function that raised them), as the
// interpreter prints them with faulthandler's stacks after.
var fatalPythonErrors = vocabulary{
	name: "CPython Py_FatalError",
	shapes: []vocabShape{
		{Field: fieldText, Format: "Fatal Python error: %s" + faulthandlerTail},
		{Field: fieldText, Format: "(EngineCore_0 pid=4021) Fatal Python error: %s"},
	},
	terms: []vocabTerm{
		{"PyThreadState_Get: the function must be called with the GIL held, but the GIL is released (the current Python thread state is NULL)", "", "", "fatal-python-error-native-extension"},
		{"PyEval_RestoreThread: the function must be called with the GIL held, but the GIL is released (the current Python thread state is NULL)", "", "", "fatal-python-error-native-extension"},
		{"take_gil: PyMUTEX_LOCK(gil->mutex) failed", "", "", "fatal-python-error-native-extension"},
		{"drop_gil: drop_gil: GIL is not locked", "", "", "fatal-python-error-native-extension"},
		{"_PyMem_DebugMalloc: Python memory allocator called without holding the GIL", "", "", "fatal-python-error-native-extension"},
		{"GC object already tracked", "", "", "fatal-python-error-native-extension"},
		{"none_dealloc: deallocating None", "", "", "fatal-python-error-native-extension"},
		{"PyThreadState_Get: no current thread", "", "", "fatal-python-error-native-extension"},
		{"_Py_CheckRecursiveCall: Cannot recover from stack overflow.", "", "", "python-stack-overflow"},
		{"Cannot recover from stack overflow.", "", "", "python-stack-overflow"},
		{"init_import_site: Failed to import the site module", "", "", "python-interpreter-init-failed"},
		{"init_fs_encoding: failed to get the Python codec of the filesystem encoding", "", "", "python-interpreter-init-failed"},
		{"Py_Initialize: Unable to get the locale encoding", "", "", "python-interpreter-init-failed"},
		{"init_sys_streams: can't initialize sys standard streams", "", "", "python-interpreter-init-failed"},
		{"_Py_HashRandomization_Init: failed to get random numbers to initialize Python", "", "", "python-interpreter-init-failed"},
		{"_enter_buffered_busy: could not acquire lock for <_io.BufferedWriter name='<stderr>'> at interpreter shutdown, possibly due to daemon threads", "", "", "fatal-python-error-at-shutdown"},
		{"_enter_buffered_busy: could not acquire lock for <_io.BufferedWriter name='<stdout>'> at interpreter shutdown, possibly due to daemon threads", "", "", "fatal-python-error-at-shutdown"},
		{"Segmentation fault", "", "", "fatal-python-error-segfault"},
		{"Aborted", "", "", "fatal-python-error-aborted"},
	},
}

// processPoolErrors are the errors of Python's multiprocessing and
// concurrent.futures and of torch's multiprocessing on top of them, as a
// server's process or a worker raises them.
var processPoolErrors = vocabulary{
	name: "Python multiprocessing and concurrent.futures",
	shapes: []vocabShape{
		{Field: fieldText, Format: tb("%s")},
		{Field: fieldText, Format: rawTB("%s")},
	},
	terms: []vocabTerm{
		{"concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the future was running or pending.", "", "", "process-pool-worker-died"},
		{"concurrent.futures.process.BrokenProcessPool: A child process terminated abruptly, the process pool is not usable anymore", "", "", "process-pool-worker-died"},
		{"RuntimeError: \n        An attempt has been made to start a new process before the\n        current process has finished its bootstrapping phase.\n\n        This probably means that you are not using fork to start your\n        child processes and you have forgotten to use the proper idiom\n        in the main module:", "", "", "multiprocessing-bootstrap-phase-error"},
		{"RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method", "", "", "cuda-reinit-forked-subprocess"},
		{"RuntimeError: can't start new thread", "", "", "host-thread-limit-reached"},
		{"AttributeError: Can't pickle local object 'build_engine.<locals>.logits_processor'", "", "", "python-object-not-picklable"},
		{"_pickle.PicklingError: Can't pickle <function <lambda> at 0x7f3a2c0b8d10>: attribute lookup <lambda> on __main__ failed", "", "", "python-object-not-picklable"},
		{"TypeError: cannot pickle '_thread.lock' object", "", "", "python-object-not-picklable"},
		{"AttributeError: Can't get attribute 'MyProcessor' on <module '__mp_main__' from '/app/serve.py'>", "", "", "python-object-not-picklable"},
		{"RuntimeError: received 0 items of ancdata", "", "", "too-many-open-files"},
		{"RuntimeError: unable to open shared memory object </torch_4021_1234_0> in read-write mode: Too many open files (24)", "", "", "too-many-open-files"},
		{"RuntimeError: unable to write to file </torch_4021_1234_0>: No space left on device (28)", "", "", "no-space-left-on-device"},
	},
}

// threadCreationErrors are the words in which the layers of a serving
// process report that the kernel refused a new thread or process (EAGAIN
// from clone: a pids or process limit): glibc's strerror after
// pthread_create in OpenBLAS and libgomp, libstdc++'s std::system_error
// from std::thread, bash's fork, Python's os.fork.
var threadCreationErrors = vocabulary{
	name: "thread creation EAGAIN",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "(EngineCore_0 pid=4021) %s"},
	},
	terms: []vocabTerm{
		{"OpenBLAS blas_thread_init: pthread_create failed for thread 12 of 64: Resource temporarily unavailable", "", "", "host-thread-limit-reached"},
		{"libgomp: Thread creation failed: Resource temporarily unavailable", "", "", "host-thread-limit-reached"},
		{"terminate called after throwing an instance of 'std::system_error'\n  what():  Resource temporarily unavailable", "", "", "host-thread-limit-reached"},
		{"./run_server.sh: fork: retry: Resource temporarily unavailable", "", "", "host-thread-limit-reached"},
		{"OSError: [Errno 11] Resource temporarily unavailable: 'fork'", "", "", "host-thread-limit-reached"},
	},
}

// ncclSharedMemory are NCCL's reports of a shared-memory segment in
// /dev/shm it could not create, size or map (include/shm.h and
// misc/shmutils.cc across releases), with the errno it appends.
var ncclSharedMemory = vocabulary{
	name: "NCCL shared memory (shm.h, shmutils.cc)",
	shapes: []vocabShape{
		{Field: fieldText, Format: "gpu-3:4012:4190 [0] %s"},
		{Field: fieldText, Format: "[rank3]: gpu-3:4012:4190 [3] %s"},
	},
	terms: []vocabTerm{
		{"include/shm.h:28 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-KqQ7oV (size 9637888)", "", "", "nccl-shared-memory-segment-failed"},
		{"include/shm.h:48 NCCL WARN Error while attaching to shared memory segment /dev/shm/nccl-KqQ7oV (size 9637888)", "", "", "nccl-shared-memory-segment-failed"},
		{"misc/shmutils.cc:60 NCCL WARN Error: failed to extend /dev/shm/nccl-KqQ7oV to 9637888 bytes", "", "", "nccl-shared-memory-segment-failed"},
		{"include/shm.h:26 NCCL WARN Unable to allocate shared memory (4263936 bytes) : Interrupted system call", "", "", "nccl-shared-memory-segment-failed"},
		{"include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device", "", "", "nccl-shared-memory-segment-failed"},
		{"NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct", "", "", ""},
	},
}

// aclRuntimeCodes are the Ascend runtime's aclError codes
// (acl/error_codes/rt_error_codes.h) that torch_npu raises after a failed
// ACL call ("NPU function error: <call>, error code is <code>"), by code.
var aclRuntimeCodes = map[string][]int{
	"npu-out-of-memory":         {207001, 207018},
	"npu-set-device-failed":     {507033},
	"npu-stream-sync-timeout":   {107020, 507046, 507047, 507048},
	"npu-aicore-exception":      {507014, 507015, 507016, 507017, 507018, 507034, 507035, 507036, 507042, 507043, 507044, 507045, 507049, 507050},
	"npu-memory-hardware-error": {507053, 507054, 507055},
	"npu-link-error":            {507056, 507057, 507904},
}

// aclRuntimeErrors composes the aclError vocabulary: every code of the
// runtime's ranges (107000-107041 invalid arguments and state,
// 207000-207020 resources, 507000-507057 and 507899-507915 the device and
// the driver) leads with its own record or, when none names it, with
// npu-function-error, the record of every failed call torch_npu reports.
// A set-device call is its record's whatever the code, and so is a graph
// capture that failed on the call.
func aclRuntimeErrors() vocabulary {
	v := vocabulary{
		name: "Ascend ACL runtime aclError",
		shapes: []vocabShape{
			{Field: fieldName, Format: tb("RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is %s")},
			{Field: fieldName, Format: "RuntimeError: NPU function error: aclrtMemcpyAsync(dst, destMax, src, count, kind, stream), error code is %s"},
			{Field: fieldName, Want: "npu-set-device-failed", Format: "RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:146 NPU function error: c10_npu::SetDevice(device_id_), error code is %s"},
			{Field: fieldName, Want: "npu-function-error", Format: tb("RuntimeError: NPU function error: call aclnnMatmul failed, error code is %s")},
			{Field: fieldName, Want: "capture-cuda-graph-failed", Format: tb("Exception: Capture cuda graph failed: capture_end:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:193 NPU function error: c10_npu::acl::AclmdlRICaptureEnd(capture_stream_, &model_ri), error code is %s")},
			// torch_npu's own stream synchronisation (a copy, .item(),
			// .tolist()) words the failed call without its name
			// (InternLM/lmdeploy#3354, vllm-project/vllm-ascend#4914),
			// and vLLM's engine core repeats a worker's message inside
			// its relay (vllm-project/vllm-ascend#3037, #1972): the code
			// says which record it is, as for a named call. A set-device
			// failure is no stream's: the generic record keeps it there.
			{Field: fieldName, Override: map[string]string{"507033": "npu-function-error"}, Format: rawTB("RuntimeError: ACL stream synchronize failed, error code:%s")},
			{Field: fieldName, Override: map[string]string{"507033": "npu-function-error"}, Format: "(Worker_DP0_TP7_EP7 pid=2112) ERROR 12-11 09:09:33 [multiproc_executor.py:822] RuntimeError: ACL stream synchronize failed, error code:%s"},
			{Field: fieldName, Override: map[string]string{"507033": "npu-function-error"}, Format: "(EngineCore_DP0 pid=931761) ERROR 09-19 07:42:16 [core.py:720] RuntimeError: Worker failed with error 'ACL stream synchronize failed, error code:%s', please check the stack trace above for the root cause"},
		},
	}
	own := map[int]string{}
	for slug, codes := range aclRuntimeCodes {
		for _, c := range codes {
			own[c] = slug
		}
	}
	// torch_npu's caching allocators raise torch.OutOfMemoryError around
	// the allocation call that failed (the device allocator's physical
	// map, the pinned host allocator): the exception names the failure,
	// so npu-out-of-memory leads where the failed call's generic record
	// or a timeout's would, whatever the code; a device fault's code (a
	// link, a memory hardware error, an AI Core fault) says more and
	// keeps its record.
	other := map[string]string{}
	for c, slug := range own {
		if slug != "npu-stream-sync-timeout" {
			other[strconv.Itoa(c)] = slug
		}
	}
	v.shapes = append(v.shapes,
		vocabShape{Field: fieldName, Want: "npu-out-of-memory", Override: other, Format: "(Worker_DP2_TP0_DCP0_EP16 pid=1315) ERROR 09-09 15:58:37 [multiproc_executor.py:987] torch.OutOfMemoryError: map:../torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:457 NPU function error: aclrtMallocPhysical, error code is %s"},
		vocabShape{Field: fieldName, Want: "npu-out-of-memory", Override: other, Format: "(DiffusionWorker_SP7 pid=1119) torch.OutOfMemoryError: allocate_host_memory_slowpath:../torch_npu/csrc/core/npu/CachingHostAllocator.cpp:252 NPU function error: aclrtMallocHostWithCfg, error code is %s"},
	)
	var codes []int
	for c := 107000; c <= 107041; c++ {
		codes = append(codes, c)
	}
	for c := 207000; c <= 207020; c++ {
		codes = append(codes, c)
	}
	for c := 507000; c <= 507057; c++ {
		codes = append(codes, c)
	}
	for c := 507899; c <= 507915; c++ {
		codes = append(codes, c)
	}
	for _, c := range codes {
		want := own[c]
		if want == "" {
			want = "npu-function-error"
		}
		v.terms = append(v.terms, vocabTerm{name: strconv.Itoa(c), want: want})
	}
	return v
}

// cannModuleCodes are error codes of the CANN modules other than HCCL
// and HCCP (the runtime's EE and EL codes, the operator compiler's and the
// operator package's E3 to E9 codes, the operator library's EZ codes), as
// the CANN runtime prints them with the process's id, alone and after the
// failed call torch_npu raises: there the call's record leads. (The bare
// "<code>: <message>" of older releases is left to the line's level: no
// literal keys it, and the call it explains has its record.)
var cannModuleCodes = vocabulary{
	name: "CANN module error codes",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: "%[2]s: [PID: 1162] 2025-02-20-02:16:03.427.598 %[1]s\n        Solution: Try again with a valid argument.\n        TraceBack (most recent call last):"},
		{Field: fieldText, All: true, Format: "(EngineCore pid=471424) %[2]s: [PID: 471424] 2026-05-08-17:31:28.781.490 %[1]s"},
		{Field: fieldText, All: true, Want: "npu-function-error", Format: tb("RuntimeError: NPU function error: aclrtMemcpy(dst, dstMax, src, count, kind), error code is 507899\n[Error]: The driver reported an internal error.\n%[2]s: [PID: 1162] 2025-02-20-02:16:03.427.598 %[1]s")},
		{Field: fieldText, All: true, Want: "npu-set-device-failed", Format: tb("RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033\n[Error]: Failed to start the device.\n%[2]s: [PID: 1162] 2025-02-20-02:16:03.427.598 %[1]s")},
	},
	terms: []vocabTerm{
		{"The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.", "EE1001", "", "ascend-cann-error-code"},
		{"The argument is invalid.", "EL0003", "", "ascend-cann-error-code"},
		{"Failed to verify the OPP", "E30006", "", "ascend-cann-error-code"},
		{"Optype [MoeDistributeDispatch] of Ops kernel [AIcoreEngine] is unsupported. Reason: The type of this op is not found in op store.", "EZ3002", "", "ascend-cann-error-code"},
		{"Failed to compile Op [MatMul]. (oppath: [/usr/local/Ascend/opp], optype: [MatMul])", "E40021", "", "ascend-cann-error-code"},
	},
}

// hcclResults composes HCCL's HcclResult codes (hccl_types.h: 1 to 22)
// as torch_npu raises a failed collective call ("HCCL function error:
// <call>, error code is <code>"): the unavailable, timeout, connection,
// transfer and network codes lead with the connection record, every
// other with the failed-call record; a communicator's initialisation is
// its record's whatever the code.
func hcclResults() vocabulary {
	v := vocabulary{
		name: "HCCL HcclResult",
		shapes: []vocabShape{
			{Field: fieldName, Format: tb("RuntimeError: HCCL function error: HcclAllreduce(sendbuf, recvbuf, count, dataType, reduceOp, comm, stream), error code is %s")},
			{Field: fieldName, Format: "RuntimeError: allgather_into_tensor_coalesced:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:4233 HCCL function error: HcclAllGather(inputDataPtr, outputDataPtr, numel, hcclType, comm, stream.stream(false)), error code is %s"},
			{Field: fieldName, Want: "hccl-comm-init-failed", Format: "RuntimeError: getHcclComm:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2145 HCCL function error: HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &comm), error code is %s"},
		},
	}
	connect := map[int]bool{7: true, 9: true, 11: true, 12: true, 13: true, 14: true, 19: true}
	for c := 1; c <= 22; c++ {
		want := "hccl-call-failed"
		if connect[c] {
			want = "hccl-connect-failed"
		}
		v.terms = append(v.terms, vocabTerm{name: strconv.Itoa(c), want: want})
	}
	return v
}

// kubeletEvents are the kubelet's and the scheduler's events about a
// serving pod (reason and message), as kubectl describe, kubectl get
// events (with and without the namespace column) and event exporters
// print them, and the message alone as a pod's status carries it. A pull in progress and a container started are no failure (a
// readiness probe failing while a model loads is checked among the
// routine lines: alone, its message is the probe's connection error). The
// kubelet's back-off restarting a container is a consequence: it leads
// only when the container's own failure is not in the same log.
var kubeletEvents = vocabulary{
	name: "Kubernetes events (kubelet, scheduler)",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: "  Warning  %[2]s  2m (x3 over 5m)  kubelet  %[1]s"},
		{Field: fieldText, All: true, Format: "2m          Warning   %[2]s   pod/sglang-0   %[1]s"},
		{Field: fieldText, All: true, Format: "llm         2m          Warning   %[2]s   pod/sglang-7d9f8b6c5-x2v9k   %[1]s"},
		{Field: fieldText, Format: "%s"},
	},
	terms: []vocabTerm{
		{"The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 8Gi. Container sglang was using 52Gi, request is 0, has larger consumption of ephemeral-storage.", "Evicted", "", "k8s-pod-evicted"},
		{"The node was low on resource: memory. Threshold quantity: 100Mi, available: 92Mi. Container sglang was using 120Gi, request is 64Gi, has larger consumption of memory.", "Evicted", "", "k8s-pod-evicted"},
		{"Pod ephemeral local storage usage exceeds the total limit of containers 20Gi.", "Evicted", "", "k8s-pod-evicted"},
		{"Container sglang exceeded its local ephemeral storage limit \"20Gi\".", "Evicted", "", "k8s-pod-evicted"},
		{"Usage of EmptyDir volume \"dshm\" exceeds the limit \"1Gi\".", "Evicted", "", "k8s-pod-evicted"},
		{"Back-off restarting failed container sglang in pod sglang-0_default(2b7c4f1e-0d2a-4c55-9a61-7f0c1d2e3f40)", "BackOff", "", "k8s-container-crashloop"},
		{"Back-off restarting failed container", "BackOff", "", "k8s-container-crashloop"},
		{"Readiness probe failed: HTTP probe failed with statuscode: 404", "Unhealthy", "", "health-probe-endpoint-not-found"},
		{"Liveness probe failed: HTTP probe failed with statuscode: 404", "Unhealthy", "", "health-probe-endpoint-not-found"},
		{"Liveness probe failed: HTTP probe failed with statuscode: 503", "Unhealthy", "", "k8s-probe-failed"},
		{"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"3f2a9c\": plugin type=\"calico\" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized", "FailedCreatePodSandBox", "", "k8s-pod-sandbox-failed"},
		{"Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded", "FailedCreatePodSandBox", "", "k8s-pod-sandbox-failed"},
		{"network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized", "NetworkNotReady", "", "k8s-pod-sandbox-failed"},
		{"Failed to pull image \"lmsysorg/sglang:latest\": toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit", "Failed", "", "container-image-pull-failed"},
		{"Created container: sglang", "Created", "", ""},
		{"Container image \"lmsysorg/sglang:v0.5.2-cu129\" already present on machine", "Pulled", "", ""},
		{"Liveness probe failed: Get \"http://10.1.2.3:30000/health\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", "Unhealthy", "", "k8s-probe-failed"},
		{"Startup probe failed: Get \"http://10.1.2.3:30000/health\": dial tcp 10.1.2.3:30000: connect: connection refused", "Unhealthy", "", "k8s-probe-failed"},
		{"Container sglang failed liveness probe, will be restarted", "Killing", "", "k8s-probe-restarted-container"},
		{"Failed to pull image \"lmsysorg/sglang:v0.5.0\": rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/lmsysorg/sglang:v0.5.0\": failed to resolve reference \"docker.io/lmsysorg/sglang:v0.5.0\": docker.io/lmsysorg/sglang:v0.5.0: not found", "Failed", "", "container-image-pull-failed"},
		{"Failed to pull image \"nvcr.io/nvidia/tritonserver:24.05-trtllm-python-py3\": failed to pull and unpack image: failed to copy: httpReadSeeker: failed open: unexpected status code 401 Unauthorized", "Failed", "", "container-image-pull-failed"},
		{"Error: ErrImagePull", "Failed", "", "container-image-pull-failed"},
		{"Error: ImagePullBackOff", "Failed", "", "container-image-pull-failed"},
		{"Back-off pulling image \"lmsysorg/sglang:v0.5.0\"", "BackOff", "", "container-image-pull-failed"},
		{"0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.", "FailedScheduling", "", "k8s-gpu-unschedulable"},
		{"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured", "FailedCreatePodSandBox", "", "docker-gpu-device-driver-missing"},
		{"Memory cgroup out of memory: Killed process 4021 (python3) total-vm:123456789kB, anon-rss:120000000kB, file-rss:0kB, shmem-rss:0kB", "OOMKilling", "", "linux-oom-killer"},
		{"System OOM encountered, victim process: python3, pid: 4021", "SystemOOM", "", "linux-oom-killer"},
		{"Liveness probe errored: rpc error: code = Unknown desc = failed to exec in container: container is in CONTAINER_EXITED state", "Unhealthy", "", "k8s-probe-failed"},
		{"0/4 nodes are available: 4 Insufficient memory. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.", "FailedScheduling", "", "k8s-pod-unschedulable"},
		{"0/4 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 3 node(s) didn't match Pod's node affinity/selector.", "FailedScheduling", "", "k8s-pod-unschedulable"},
		{"0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", "FailedScheduling", "", "k8s-pod-unschedulable"},
		{"MountVolume.SetUp failed for volume \"model-cache\" : mount failed: exit status 32", "FailedMount", "", "k8s-volume-mount-failed"},
		{"Unable to attach or mount volumes: unmounted volumes=[model-cache], unattached volumes=[dshm model-cache kube-api-access-x2v9k]: timed out waiting for the condition", "FailedMount", "", "k8s-volume-mount-failed"},
		{"Multi-Attach error for volume \"pvc-5d1c\" Volume is already exclusively attached to one node and can't be attached to another", "FailedAttachVolume", "", "k8s-volume-mount-failed"},
		{"Error: secret \"hf-token\" not found", "Failed", "", "k8s-container-config-error"},
		{"Error: configmap \"sglang-config\" not found", "Failed", "", "k8s-container-config-error"},
		{"Error: couldn't find key HF_TOKEN in Secret default/hf-token", "Failed", "", "k8s-container-config-error"},
		{"Error: container has runAsNonRoot and image will run as root (pod: \"sglang-0_default(2b7c)\", container: sglang)", "Failed", "", "k8s-container-config-error"},
		{"Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 8, Available: 7, which is unexpected", "UnexpectedAdmissionError", "", "k8s-gpu-allocation-failed"},
		{"Error creating: pods \"sglang-0\" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=8, used: requests.nvidia.com/gpu=0, limited: requests.nvidia.com/gpu=4", "FailedCreate", "", "k8s-resource-quota-exceeded"},
		{"Pulling image \"lmsysorg/sglang:v0.5.0\"", "Pulling", "", ""},
		{"Successfully pulled image \"lmsysorg/sglang:v0.5.0\" in 2m1.5s (2m1.5s including waiting)", "Pulled", "", ""},
		{"Started container sglang", "Started", "", ""},
		{"Stopping container sglang", "Killing", "", ""},
		{"Successfully assigned default/sglang-0 to gpu-node-3", "Scheduled", "", ""},
	},
}

// systemdUnitResults are systemd's reports on the unit that runs a
// server (the main process's exit with its signal, the unit's result),
// as the journal prints them. A stop (SIGTERM), a clean exit and a
// scheduled restart are no failure.
var systemdUnitResults = vocabulary{
	name: "systemd unit results",
	shapes: []vocabShape{
		{Field: fieldText, Format: "Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: %s"},
		{Field: fieldText, Format: "Dec 06 09:00:01 gpu-node-3 systemd[1]: vllm@0.service: %s"},
	},
	terms: []vocabTerm{
		{"Main process exited, code=killed, status=9/KILL", "", "", "process-killed-sigkill"},
		{"Main process exited, code=dumped, status=11/SEGV", "", "", "process-segfault-core-dumped"},
		{"Main process exited, code=dumped, status=6/ABRT", "", "", "process-aborted-core-dumped"},
		{"Main process exited, code=dumped, status=7/BUS", "", "", "shared-memory-bus-error"},
		{"Main process exited, code=dumped, status=4/ILL", "", "", "cpu-illegal-instruction"},
		{"Main process exited, code=dumped, status=8/FPE", "", "", "process-floating-point-exception"},
		{"Failed with result 'oom-kill'.", "", "", "linux-oom-killer"},
		{"A process of this unit has been killed by the OOM killer.", "", "", "linux-oom-killer"},
		{"Main process exited, code=exited, status=1/FAILURE", "", "", "systemd-unit-failed"},
		{"Failed with result 'exit-code'.", "", "", "systemd-unit-failed"},
		{"Failed with result 'core-dump'.", "", "", "systemd-unit-failed"},
		{"Failed with result 'timeout'.", "", "", "systemd-unit-failed"},
		{"Start request repeated too quickly.", "", "", "systemd-unit-failed"},
		{"Main process exited, code=killed, status=15/TERM", "", "", ""},
		{"Main process exited, code=exited, status=0/SUCCESS", "", "", ""},
		{"Scheduled restart job, restart counter is at 5.", "", "", ""},
		{"Deactivated successfully.", "", "", ""},
	},
}

// exitStatuses are a container's exit status as Docker Compose, kubectl
// and a pod's last state report it: 128 plus the signal that killed the
// process. A stop (143, SIGTERM) and a clean exit are no failure.
var exitStatuses = vocabulary{
	name: "exit statuses 128+signal (Compose, kubectl, pod state)",
	shapes: []vocabShape{
		{Field: fieldName, Format: "sglang-1 exited with code %s"},
		{Field: fieldName, Format: "sglang_sglang_1 exited with code %s"},
		{Field: fieldName, Format: "command terminated with exit code %s"},
		{Field: fieldName, Format: "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    %s"},
	},
	terms: []vocabTerm{
		{"SIGKILL", "137", "", "process-killed-sigkill"},
		{"SIGSEGV", "139", "", "process-segfault-core-dumped"},
		{"SIGABRT", "134", "", "process-aborted-core-dumped"},
		{"SIGBUS", "135", "", "shared-memory-bus-error"},
		{"SIGTERM", "143", "", ""},
		{"", "0", "", ""},
	},
}

// goExitErrors are a child's end as Go's os/exec reports it (os.
// ProcessState's text, syscall.Signal's names), quoted by the program that
// ran the child. An illegal instruction names the same death as the
// shell's and systemd's words for it, whatever program ran the child: the
// CPU lacks an instruction the child was built for. Another fatal signal
// is read by the analysis itself and leads under the record of the
// program that reports it (Ollama's runner records), whose advice knows
// that program. A stop the user or a supervisor asked for is no failure.
var goExitErrors = vocabulary{
	name: "Go os/exec exit errors",
	shapes: []vocabShape{
		{Field: fieldText, Format: "Error: worker process has terminated: signal: %s"},
		{Field: fieldText, Format: "hook exited with: signal: %s"},
	},
	terms: []vocabTerm{
		{"illegal instruction (core dumped)", "", "", "cpu-illegal-instruction"},
		{"illegal instruction", "", "", "cpu-illegal-instruction"},
		{"terminated", "", "", ""},
		{"interrupt", "", "", ""},
	},
}

// launcherReports are what Slurm's srun and slurmstepd and Open MPI's
// mpirun print when a task of the job that runs a server dies or the job
// ends: the signal or the OOM kill, the job cancelled by a limit, a node
// failure or preemption, an allocation refused. A retry and a cancellation
// without a reason (someone stopped the job) are no failure.
var launcherReports = vocabulary{
	name: "Slurm and MPI launchers",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "[2026-05-28T00:11:09] %s"},
	},
	terms: []vocabTerm{
		{"srun: error: gpu-node-3: task 0: Killed", "", "", "process-killed-sigkill"},
		{"srun: error: gpu-node-3: tasks 0-7: Killed", "", "", "process-killed-sigkill"},
		{"srun: error: gpu-node-3: task 1: Out Of Memory", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: Detected 1 oom_kill event in StepId=1234.0. Some of the step tasks have been OOM Killed.", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: Detected 2 oom-kill events in step 1234.0 cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler.", "", "", "slurm-step-oom-killed"},
		{"srun: error: gpu-node-3: task 0: Segmentation fault (core dumped)", "", "", "process-segfault-core-dumped"},
		{"slurmstepd: error: *** JOB 1234 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 DUE TO TIME LIMIT ***", "", "", "slurm-job-cancelled"},
		{"slurmstepd: error: *** STEP 1234.0 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 DUE TO NODE FAILURE ***", "", "", "slurm-job-cancelled"},
		{"slurmstepd: error: *** JOB 1234 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 DUE TO PREEMPTION ***", "", "", "slurm-job-cancelled"},
		{"srun: error: Unable to allocate resources: Requested node configuration is not available", "", "", "slurm-allocation-failed"},
		{"sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)", "", "", "slurm-allocation-failed"},
		{"mpirun noticed that process rank 0 with PID 4021 on node gpu-node-3 exited on signal 9 (Killed).", "", "", "process-killed-sigkill"},
		{"mpirun noticed that process rank 3 with PID 4021 on node gpu-node-3 exited on signal 11 (Segmentation fault).", "", "", "process-segfault-core-dumped"},
		{"mpirun noticed that process rank 3 with PID 4021 on node gpu-node-3 exited on signal 6 (Aborted).", "", "", "process-aborted-core-dumped"},
		{"srun: error: gpu-node-3: task 0: Exited with exit code 1", "", "", "slurm-task-exited"},
		{"srun: error: gpu-node-3: tasks 0-7: Exited with exit code 1", "", "", "slurm-task-exited"},
		{"srun: Job step aborted: Waiting up to 32 seconds for job step to finish.", "", "", "slurm-task-exited"},
		{"srun: error: Unable to create step for job 1234: Requested node configuration is not available", "", "", "slurm-allocation-failed"},
		{"srun: error: Invalid generic resource (gres) specification", "", "", "slurm-allocation-failed"},
		{"srun: error: Node failure on gpu-node-3", "", "", "slurm-job-cancelled"},
		{"srun: Job 1234 step creation temporarily disabled, retrying (Requested nodes are busy)", "", "", ""},
		{"srun: error: gpu-node-3: task 0: Exited with exit code 0", "", "", ""},
		{"slurmstepd: error: *** STEP 1234.0 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 ***", "", "", ""},
	},
}

// asyncioLoopErrors are the messages of asyncio's default exception
// handler, logged at error level through the asyncio logger: a task's
// exception nobody retrieved is a background task that died (its
// traceback, when printed after, names the cause); a pending
// task destroyed and a connection's transport error are routine for a
// server (at exit, and per client).
var asyncioLoopErrors = vocabulary{
	name: "asyncio default exception handler",
	shapes: []vocabShape{
		{Field: fieldText, Format: "ERROR:asyncio:%s"},
		{Field: fieldText, Format: "2026-05-28 00:11:09,418 - asyncio - ERROR - %s"},
	},
	terms: []vocabTerm{
		{"Task exception was never retrieved\nfuture: <Task finished name='Task-12' coro=<TokenizerManager.handle_loop() done, defined at /sgl-workspace/sglang/python/sglang/srt/managers/tokenizer_manager.py:1200> exception=KeyError('rid')>", "", "", "asyncio-task-exception-unretrieved"},
		{"Future exception was never retrieved\nfuture: <Future finished exception=BrokenPipeError(32, 'Broken pipe')>", "", "", "asyncio-task-exception-unretrieved"},
		{"Task was destroyed but it is pending!\ntask: <Task pending name='Task-7' coro=<RequestHandler.watch() running at /app/server.py:88> wait_for=<Future pending cb=[Task.task_wakeup()]>>", "", "", ""},
		{"Fatal error on SSL transport\nprotocol: <asyncio.sslproto.SSLProtocol object at 0x7f3a2c0b8d10>\ntransport: <_SelectorSocketTransport closing fd=12 read=idle write=<idle, bufsize=0>>", "", "", ""},
		{"Fatal read error on socket transport\nprotocol: <uvloop.loop.SSLProtocol object at 0x7f3a2c0b8d10>\ntransport: <TCPTransport closed=False reading=True 0x5631>", "", "", ""},
		{"Fatal write error on pipe transport\nprotocol: <asyncio.subprocess.SubprocessStreamProtocol object at 0x7f3a2c0b8d10>", "", "", ""},
	},
}

// containerRuntimeErrors are the errors of runc, crun (Podman),
// containerd, Docker and the NVIDIA container toolkit when a serving
// container cannot be created or its command cannot be run.
var containerRuntimeErrors = vocabulary{
	name: "container runtime (runc, containerd, Docker, nvidia-container-cli)",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "  Warning  Failed  2m  kubelet  Error: %s"},
	},
	terms: []vocabTerm{
		{"exec /usr/bin/python3: exec format error", "", "", "container-command-not-executable"},
		{"OSError: [Errno 8] Exec format error: '/usr/local/bin/llama-server'", "", "", "container-command-not-executable"},
		{"standard_init_linux.go:228: exec user process caused: exec format error", "", "", "container-command-not-executable"},
		{"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"python3\": executable file not found in $PATH: unknown", "", "", "container-command-not-executable"},
		{"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: nvml error: driver not loaded: unknown", "", "", "nvidia-container-cli-failed"},
		{"failed to start container \"sglang\": Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown", "", "", "nvidia-container-cli-failed"},
		{"docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].", "", "", "docker-gpu-device-driver-missing"},
		{"docker: Error response from daemon: unknown or invalid runtime name: nvidia.", "", "", "docker-gpu-device-driver-missing"},
		{"Error response from daemon: pull access denied for lmsysorg/sglang-private, repository does not exist or may require 'docker login': denied: requested access to the resource is denied", "", "", "container-image-pull-failed"},
		{"docker: Error response from daemon: manifest for lmsysorg/sglang:v9.9.9 not found: manifest unknown: manifest unknown.", "", "", "container-image-pull-failed"},
		{"docker: no matching manifest for linux/arm64/v8 in the manifest list entries.", "", "", "container-image-pull-failed"},
		{"Unable to open /dev/kfd read-write: Permission denied", "", "", "rocm-kfd-not-accessible"},
		{"rocm_agent_enumerator: error: failed to open /dev/kfd", "", "", "rocm-kfd-not-accessible"},
		{"docker: Error response from daemon: driver failed programming external connectivity on endpoint sglang (3f2a9c): Bind for 0.0.0.0:30000 failed: port is already allocated.", "", "", "address-already-in-use"},
		{"docker: Error response from daemon: could not select device driver with capabilities: [[gpu]].", "", "", "docker-gpu-device-driver-missing"},
		{"Error response from daemon: could not select device driver \"nvidia\" with capabilities: [[gpu]]", "", "", "docker-gpu-device-driver-missing"},
		{"docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=all: unknown.", "", "", "docker-gpu-device-driver-missing"},
		{"docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting \"/data/models\" to rootfs at \"/models\": mount /data/models:/models (via /proc/self/fd/6), flags: 0x5000: no such file or directory: unknown.", "", "", "container-runtime-create-failed"},
		{"Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error setting cgroup config for procHooks process: unable to freeze: unknown", "", "", "container-runtime-create-failed"},
		{"docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container process caused: exec: \"/app/start.sh\": permission denied: unknown.", "", "", "shell-permission-denied"},
		{"exec /app/entrypoint.sh: permission denied", "", "", "shell-permission-denied"},
		{"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"nvidia-smi\": executable file not found in $PATH: unknown", "", "", "nvidia-smi-missing-in-container"},
		{"Error: crun: executable file `python3` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found", "", "", "container-command-not-executable"},
		{"Error: crun: executable file `nvidia-smi` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found", "", "", "nvidia-smi-missing-in-container"},
		{"docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?.", "", "", "docker-daemon-unreachable"},
		{"docker: permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post \"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/create\": dial unix /var/run/docker.sock: connect: permission denied.", "", "", "docker-daemon-unreachable"},
		{"docker: Error response from daemon: Conflict. The container name \"/sglang\" is already in use by container \"3f2a9c1d2e\". You have to remove (or rename) that container to be able to reuse that name.", "", "", "docker-container-name-conflict"},
		{"docker: Error response from daemon: invalid mount config for type \"bind\": bind source path does not exist: /data/models/Qwen3-8B.", "", "", "docker-bind-mount-source-missing"},
		{"docker: Error response from daemon: Unknown runtime specified nvidia.", "", "", "docker-gpu-device-driver-missing"},
		{"docker: Error response from daemon: Get \"https://registry-1.docker.io/v2/\": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers).", "", "", "container-image-pull-failed"},
		{"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/3f2a/merged/usr/bin/nvidia-smi: file exists: unknown", "", "", "nvidia-container-cli-failed"},
		{"docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.", "", "", "nvidia-container-cli-failed"},
		{"Unable to find image 'lmsysorg/sglang:latest' locally", "", "", ""},
		{"Status: Downloaded newer image for lmsysorg/sglang:latest", "", "", ""},
	},
}

// kubectlPodStatuses are the STATUS column of kubectl get pods for a
// serving pod (with and without the namespace column kubectl get pods -A
// adds), pasted or logged by a deploy script: a container in a restart
// loop, killed for memory, exited on an error or never created leads with
// its record; a pod starting, running or stopping is no failure.
var kubectlPodStatuses = vocabulary{
	name: "kubectl get pods STATUS",
	shapes: []vocabShape{
		{Field: fieldText, Format: "sglang-0                         0/1     %s   3 (40s ago)   2m"},
		{Field: fieldText, Format: "llm         sglang-7d9f8b6c5-x2v9k   0/1   %s   12 (3m ago)   40m"},
		{Field: fieldText, Format: "sglang-decode-0   0/1     %s   0          45s"},
	},
	terms: []vocabTerm{
		{"CrashLoopBackOff", "", "", "k8s-container-crashloop"},
		{"Init:CrashLoopBackOff", "", "", "k8s-container-crashloop"},
		{"OOMKilled", "", "", "k8s-container-oom-killed"},
		{"Error", "", "", "k8s-container-exited-error"},
		{"Init:Error", "", "", "k8s-container-exited-error"},
		{"StartError", "", "", "k8s-container-exited-error"},
		{"RunContainerError", "", "", "k8s-container-exited-error"},
		{"CreateContainerError", "", "", "k8s-container-exited-error"},
		{"ContainerStatusUnknown", "", "", "k8s-container-exited-error"},
		{"CreateContainerConfigError", "", "", "k8s-container-config-error"},
		{"ImagePullBackOff", "", "", "container-image-pull-failed"},
		{"ErrImagePull", "", "", "container-image-pull-failed"},
		{"Evicted", "", "", "k8s-pod-evicted"},
		{"Running", "", "", ""},
		{"Pending", "", "", ""},
		{"ContainerCreating", "", "", ""},
		{"PodInitializing", "", "", ""},
		{"Init:0/1", "", "", ""},
		{"Terminating", "", "", ""},
		{"Completed", "", "", ""},
	},
}

// httpAccessStatuses are a server's HTTP access lines (uvicorn's, which
// sglang, vLLM and most Python servers log through, with and without
// sglang's header) for the answers that show a failing probe or endpoint:
// a health path the server does not serve (404), an API path it does not
// serve, and server errors (5xx). A 503 on a health path is the server
// saying it is not ready yet; the client errors a server answers every
// day (400, 401, 404 for a stray path, 405, 422) and successes are no
// failure. The records read the status with its reason phrase, as uvicorn
// writes it, so that they are keyed on it and not on the ' HTTP/' of
// every routine access line; a proxy's combined log (the status followed
// by a byte count) is left out.
var httpAccessStatuses = vocabulary{
	name: "HTTP access lines (uvicorn)",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: `INFO:     10.1.4.18:40012 - "%[1]s HTTP/1.1" %[2]s`},
		{Field: fieldText, All: true, Format: `[2026-05-28 00:11:09] INFO:     10.1.4.18:40012 - "%[1]s HTTP/1.1" %[2]s`},
		{Field: fieldText, All: true, Format: `2026-05-28T00:11:09.418211234Z stdout F INFO:     10.1.4.18:40012 - "%[1]s HTTP/1.0" %[2]s`},
	},
	terms: []vocabTerm{
		{"GET /health_generate", "404 Not Found", "404", "health-probe-endpoint-not-found"},
		{"GET /health", "404 Not Found", "404", "health-probe-endpoint-not-found"},
		{"GET /healthz", "404 Not Found", "404", "health-probe-endpoint-not-found"},
		{"GET /readyz", "404 Not Found", "404", "health-probe-endpoint-not-found"},
		{"GET /livez", "404 Not Found", "404", "health-probe-endpoint-not-found"},
		{"HEAD /health", "404 Not Found", "404", "health-probe-endpoint-not-found"},
		{"GET /v1/health/ready", "404 Not Found", "404", "health-probe-endpoint-not-found"},
		{"POST /v1/v1/chat/completions", "404 Not Found", "404", "http-endpoint-not-found"},
		{"POST /v1/responses", "404 Not Found", "404", "http-endpoint-not-found"},
		{"POST /v1/chat/completions", "500 Internal Server Error", "500", "http-server-error-response"},
		{"POST /generate", "500 Internal Server Error", "500", "http-server-error-response"},
		{"POST /v1/completions", "502 Bad Gateway", "502", "http-server-error-response"},
		{"POST /v1/chat/completions", "503 Service Unavailable", "503", "http-server-error-response"},
		{"POST /v1/chat/completions", "504 Gateway Timeout", "504", "http-server-error-response"},
		{"GET /health_generate", "500 Internal Server Error", "500", "http-server-error-response"},
		{"GET /health", "503 Service Unavailable", "503", ""},
		{"GET /health_generate", "503 Service Unavailable", "503", ""},
		{"GET /health", "200 OK", "200", ""},
		{"GET /health_generate", "200 OK", "200", ""},
		{"GET /favicon.ico", "404 Not Found", "404", ""},
		{"GET /", "404 Not Found", "404", ""},
		{"POST /v1/chat/completions", "400 Bad Request", "400", ""},
		{"POST /v1/chat/completions", "401 Unauthorized", "401", ""},
		{"GET /v1/chat/completions", "405 Method Not Allowed", "405", ""},
		{"POST /v1/completions", "422 Unprocessable Entity", "422", ""},
		{"GET /metrics", "200 OK", "200", ""},
	},
}

// rayActorDeaths are Ray's reports that an actor (an engine hosted by an
// RL framework or Ray Serve) died, in the forms a driver, a framework's
// wrapper or a paste prints them: with and without the ActorDiedError
// header, the worker's exit type and detail, the Kubernetes pod memory
// hint, killed by the memory monitor, the raylet gone, the GCS out of
// reach past its timeout, a worker that never registered. An actor its
// owner stopped on purpose (exit_actor), a raylet stopped gracefully and
// the GCS client's retry warning are no failure.
var rayActorDeaths = vocabulary{
	name: "Ray actor and worker deaths",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "(TaskRunner pid=3483799) %s"},
		{Field: fieldText, Format: "error: %s"},
	},
	terms: []vocabTerm{
		{"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n\tclass_name: WorkerDict\n\tactor_id: 2d4d212e431c850dcf83f60801000000\n\tpid: 711321\nThe actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker exits unexpectedly. Worker exits with an exit code None. The worker may have exceeded K8s pod memory limits.", "", "", "ray-actor-died"},
		{"The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage.", "", "", "ray-actor-died"},
		{"The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR\nWorker exit detail: Worker exits unexpectedly. Worker exits with an exit code 1.\nThe worker may have exceeded K8s pod memory limits. The process receives a SIGTERM.", "", "", "ray-actor-died"},
		{"The actor is dead because its node has died. Node Id: 351e406b196f66bb45eaad02a3b8b4725babfa8cc12949432f7a", "", "", "ray-actor-died"},
		{"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\nThe actor died because its node has died. Node Id: 351e406b196f66bb45eaad02a3b8b4725babfa8cc12949432f7a\n\tthe actor's node was terminated unexpectedly: health check failed due to missing too many heartbeats", "", "", "ray-actor-died"},
		{"The actor died because its node has died. Node Id: 351e406b196f66bb45eaad02a3b8b4725babfa8cc12949432f7a", "", "", "ray-actor-died"},
		{"The actor is dead because its owner has died. Owner Id: 02000000ffffffffffffffffffffffffffffffffffffffffffffffff Owner Ip address: 10.0.0.12 Owner worker exit type: SYSTEM_ERROR", "", "", "ray-actor-died"},
		{"ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.", "", "", "ray-memory-monitor-killed-worker"},
		{"(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 351e406b, IP: 10.0.0.12) over the last time period.", "", "", "ray-memory-monitor-killed-worker"},
		{"Raylet is terminated. Termination is unexpected. Possible reasons include: (1) SIGKILL by the user or system OOM killer, (2) Invalid memory access from Raylet causing SIGSEGV or SIGBUS, (3) Other termination signals. Last 20 lines of the Raylet logs:", "", "", "ray-raylet-died"},
		{"The actor is dead because its worker process has died. Worker exit type: INTENDED_USER_EXIT Worker exit detail: Worker exits by an user request. exit_actor() is called.", "", "", ""},
		{"[2026-05-28 00:11:09,851 E 3044 30260] rpc_client.h:203: Failed to connect to GCS within 60 seconds. GCS may have been killed. It's either GCS is terminated by `ray stop` or is killed unexpectedly. If it is killed unexpectedly, see the log file gcs_server.out. The program will terminate.", "", "", "ray-gcs-unreachable"},
		{"(raylet) [2026-05-28 00:11:09,117 E 135782 135782] (raylet) worker_pool.cc:589: Some workers of the worker process(1794) have not registered within the timeout. The process is still alive, probably it's hanging during start.", "", "", "ray-worker-start-timeout"},
		{"[2026-05-28 00:11:09,851 W 6578 6578] rpc_client.h:153: Failed to connect to GCS at address 10.166.166.106:6379 within 5 seconds.", "", "", ""},
		{"Raylet is terminated. Termination is graceful.", "", "", ""},
	},
}

// shellLaunchErrors are what the shells that run a server's launch script
// or entrypoint (bash, dash as /bin/sh, zsh) and Slurm's step daemon print
// when a command the script calls is missing or cannot be executed, and
// dash's refusals of bash-only syntax in a script written for bash. The
// tools with their own records keep them: a missing nvidia-smi (in a
// container, the GPUs were not given to it), nvcc, ninja. A shell's trace
// and echo lines are no failure.
var shellLaunchErrors = vocabulary{
	name: "shells and launchers (bash, dash, zsh, slurmstepd)",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "0: %s"},
		{Field: fieldText, Format: "[2026-05-28T00:11:09] %s"},
	},
	terms: []vocabTerm{
		{"run.sh: 18: source: not found", "", "", "shell-source-not-found"},
		{"/bin/sh: 1: source: not found", "", "", "shell-source-not-found"},
		{"./launch.sh: 7: [[: not found", "", "", "shell-source-not-found"},
		{"./launch.sh: 12: pushd: not found", "", "", "shell-source-not-found"},
		{"./launch.sh: 3: Syntax error: \"(\" unexpected", "", "", "shell-source-not-found"},
		{"./launch.sh: 9: Bad substitution", "", "", "shell-source-not-found"},
		{"/bin/sh: 1: python: not found", "", "", "shell-command-not-found"},
		{"sh: 1: huggingface-cli: not found", "", "", "shell-command-not-found"},
		{"./run_server.sh: line 4: python: command not found", "", "", "shell-command-not-found"},
		{"bash: sglang: command not found", "", "", "shell-command-not-found"},
		{"/entrypoint.sh: line 12: conda: command not found", "", "", "shell-command-not-found"},
		{"zsh: command not found: python", "", "", "shell-command-not-found"},
		{"slurmstepd: error: execve(): python: No such file or directory", "", "", "shell-command-not-found"},
		{"/entrypoint.sh: 5: exec: python: not found", "", "", "shell-command-not-found"},
		{"/opt/entrypoint.sh: line 7: exec: sglang: not found", "", "", "shell-command-not-found"},
		{"/usr/bin/env: 'python': No such file or directory", "", "", "shell-command-not-found"},
		{"/usr/bin/env: ‘python’: No such file or directory", "", "", "shell-command-not-found"},
		{"/bin/sh: 1: nvcc: not found", "", "", "cuda-toolkit-not-found"},
		{"/bin/sh: 1: ninja: not found", "", "", "ninja-not-installed"},
		{"./build.sh: line 3: nvcc: command not found", "", "", "cuda-toolkit-not-found"},
		{"/bin/sh: 1: nvidia-smi: not found", "", "", "nvidia-smi-missing-in-container"},
		{"bash: nvidia-smi: command not found", "", "", "nvidia-smi-missing-in-container"},
		{"subprocess.CalledProcessError: Command 'nvidia-smi' returned non-zero exit status 127.", "", "", "nvidia-smi-missing-in-container"},
		{"subprocess.CalledProcessError: Command '['nvidia-smi', '--query-gpu=name', '--format=csv']' returned non-zero exit status 127.", "", "", "nvidia-smi-missing-in-container"},
		{"FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'", "", "", "nvidia-smi-missing-in-container"},
		{"bash: ./start_server.sh: Permission denied", "", "", "shell-permission-denied"},
		{"/bin/sh: 1: /app/entrypoint.sh: Permission denied", "", "", "shell-permission-denied"},
		{"./launch.sh: line 5: /opt/venv/bin/python: Permission denied", "", "", "shell-permission-denied"},
		{"+ source /opt/venv/bin/activate", "", "", ""},
		{"+ python3 -m sglang.launch_server --model-path /models/Qwen3-8B --port 30000", "", "", ""},
		{"which: no nvidia-smi in (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin)", "", "", ""},
	},
}

// platformExamples are the examples of the records the platform
// vocabularies added.
var platformExamples = map[string]example{
	"glibc-heap-corruption": {
		match: []string{
			"free(): invalid pointer",
			"double free or corruption (!prev)\n./run_server.sh: line 3:  4021 Aborted                 (core dumped) python3 -m sglang.launch_server",
			"*** stack smashing detected ***: terminated",
			"(EngineCore_0 pid=4021) malloc(): corrupted top size",
		},
		miss: []string{
			"free(): invalid pointer checks are enabled with MALLOC_CHECK_=3",
			"Freed 12 KV cache blocks; double free check passed",
		},
	},
	"linux-kernel-segfault-report": {
		match: []string{
			"[ 1234.567890] python3[4021]: segfault at 0 ip 00007f3a2c0b8d10 sp 00007ffd1c2b3a40 error 4 in libcuda.so.535.104.05[7f3a2b000000+1c00000]",
			"Dec 06 09:00:01 gpu-node-3 kernel: traps: python3[4021] general protection fault ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in libc.so.6[7f3a2b000000+195000]",
		},
		miss: []string{
			"Segmentation fault (core dumped)",
			"[ 1234.567890] traps: python3[4021] trap invalid opcode ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in libggml.so[7f3a2b000000+195000]",
		},
	},
	"fatal-python-error-native-extension": {
		match: []string{
			"Fatal Python error: PyThreadState_Get: the function must be called with the GIL held, but the GIL is released (the current Python thread state is NULL)" + faulthandlerTail,
			"Fatal Python error: none_dealloc: deallocating None",
		},
		miss: []string{"Fatal Python error: Segmentation fault", "the function must be called with the GIL held"},
	},
	"python-stack-overflow": {
		match: []string{
			"Fatal Python error: _Py_CheckRecursiveCall: Cannot recover from stack overflow." + faulthandlerTail,
			"Fatal Python error: Cannot recover from stack overflow.",
		},
		miss: []string{"RecursionError: maximum recursion depth exceeded while calling a Python object", "Fatal Python error: Aborted"},
	},
	"python-interpreter-init-failed": {
		match: []string{
			"Fatal Python error: init_import_site: Failed to import the site module\nPython runtime state: initialized",
			"Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding",
		},
		miss: []string{"Fatal Python error: Segmentation fault", "ModuleNotFoundError: No module named 'site_customize'"},
	},
	"fatal-python-error-at-shutdown": {
		match: []string{
			"Fatal Python error: _enter_buffered_busy: could not acquire lock for <_io.BufferedWriter name='<stderr>'> at interpreter shutdown, possibly due to daemon threads" + faulthandlerTail,
			"Fatal Python error: _enter_buffered_busy: could not acquire lock for <_io.BufferedWriter name='<stdout>'> at interpreter shutdown, possibly due to daemon threads",
		},
		miss: []string{"Fatal Python error: Aborted", "Waiting for daemon threads at interpreter shutdown"},
	},
	"shared-library-not-found": {
		match: []string{
			rawTB("ImportError: libGL.so.1: cannot open shared object file: No such file or directory"),
			"/usr/bin/python3: error while loading shared libraries: libpython3.12.so.1.0: cannot open shared object file: No such file or directory",
		},
		miss: []string{
			"ImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
			"FileNotFoundError: [Errno 2] No such file or directory: '/models/x/config.json'",
		},
	},
	"shared-library-load-failed": {
		match: []string{
			rawTB("ImportError: /usr/local/lib/python3.12/dist-packages/sgl_kernel/common_ops.abi3.so: invalid ELF header"),
			"OSError: dlopen: cannot load any more object with static TLS",
		},
		miss: []string{
			"ImportError: libGL.so.1: cannot open shared object file: No such file or directory",
			"OSError: /models/x/model.safetensors: file too short to hold a header",
		},
	},
	"process-pool-worker-died": {
		match: []string{
			rawTB("concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the future was running or pending."),
			"concurrent.futures.process.BrokenProcessPool: A child process terminated abruptly, the process pool is not usable anymore",
		},
		miss: []string{"concurrent.futures._base.TimeoutError", "process pool started with 8 workers"},
	},
	"multiprocessing-bootstrap-phase-error": {
		match: []string{
			rawTB("RuntimeError: \n        An attempt has been made to start a new process before the\n        current process has finished its bootstrapping phase."),
			"RuntimeError: An attempt has been made to start a new process before the current process has finished its bootstrapping phase.",
		},
		miss: []string{"RuntimeError: Cannot re-initialize CUDA in forked subprocess.", "bootstrapping phase finished in 2.1s"},
	},
	"host-thread-limit-reached": {
		match: []string{
			tb("RuntimeError: can't start new thread"),
			"OpenBLAS blas_thread_init: pthread_create failed for thread 12 of 64: Resource temporarily unavailable",
			"./run_server.sh: fork: retry: Resource temporarily unavailable",
		},
		miss: []string{
			"RuntimeError: can't create new thread at interpreter shutdown",
			"zmq.error.Again: Resource temporarily unavailable",
		},
	},
	"k8s-pod-evicted": {
		match: []string{
			"  Warning  Evicted  2m  kubelet  The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 8Gi.",
			"Usage of EmptyDir volume \"dshm\" exceeds the limit \"1Gi\".",
		},
		miss: []string{"  Normal  Scheduled  2m  default-scheduler  Successfully assigned default/sglang-0 to gpu-node-3", "eviction policy: allkeys-lru"},
	},

	"container-command-not-executable": {
		match: []string{
			"exec /usr/bin/python3: exec format error",
			"Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"python3\": executable file not found in $PATH: unknown",
		},
		miss: []string{"exec python3 -m sglang.launch_server --model-path /models/x", "ValueError: unsupported format error_code"},
	},
	"container-image-pull-failed": {
		match: []string{
			"  Warning  Failed  2m  kubelet  Failed to pull image \"lmsysorg/sglang:v0.5.0\": rpc error: code = NotFound desc = not found",
			"  Warning  Failed  2m  kubelet  Error: ImagePullBackOff",
			"docker: no matching manifest for linux/arm64/v8 in the manifest list entries.",
		},
		miss: []string{"  Normal  Pulled  2m  kubelet  Successfully pulled image \"lmsysorg/sglang:v0.5.0\" in 2m1.5s", "Pulling image \"lmsysorg/sglang:v0.5.0\""},
	},
	"nvswitch-fatal-sxid": {
		match: []string{
			"[ 1234.567890] nvidia-nvswitch3: SXid (PCI:0000:86:00.0): 20034, Fatal, Link 17 LTSSM Fault Up",
			"Dec 06 09:00:01 gpu-node-3 kernel: nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 11004, Fatal, Link 32 ingress invalid ACL",
		},
		miss: []string{"[ 1234.567890] nvidia-nvswitch3: SXid (PCI:0000:86:00.0): 12028, Non-fatal, Link 17 egress non-posted PRIV error (First)"},
	},
	"linux-kernel-task-stuck": {
		match: []string{
			"[ 1234.567890] INFO: task python3:4021 blocked for more than 120 seconds.",
			"[ 1234.567890] watchdog: BUG: soft lockup - CPU#12 stuck for 22s! [python3:4021]",
		},
		miss: []string{"[ 1234.567890] \"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message."},
	},
	"host-memory-uncorrectable-error": {
		match: []string{
			"[ 1234.567890] EDAC MC0: 1 UE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0",
			"[ 1234.567890] Memory failure: 0x12345: Sending SIGBUS to python3:4021 due to hardware memory corruption",
		},
		miss: []string{"[ 1234.567890] EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0", "[ 1234.567890] mce: [Hardware Error]: Machine check events logged"},
	},
	"asyncio-task-destroyed-pending": {
		match: []string{
			"Task was destroyed but it is pending!\ntask: <Task pending name='Task-12' coro=<TokenizerManager.handle_loop() running at /sgl/tokenizer_manager.py:1200>>",
			"ERROR:asyncio:Task was destroyed but it is pending!",
		},
		miss: []string{"Task exception was never retrieved"},
	},
	"k8s-pod-unschedulable": {
		match: []string{
			"  Warning  FailedScheduling  1m  default-scheduler  0/4 nodes are available: 4 Insufficient memory.",
			"0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.",
		},
		miss: []string{"  Warning  FailedScheduling  1m  default-scheduler  0/8 nodes are available: 8 Insufficient nvidia.com/gpu.", "4 nodes are available for scheduling"},
	},
	"k8s-volume-mount-failed": {
		match: []string{
			"  Warning  FailedMount  1m  kubelet  MountVolume.SetUp failed for volume \"model-cache\" : mount failed: exit status 32",
			"  Warning  FailedAttachVolume  1m  attachdetach-controller  Multi-Attach error for volume \"pvc-5d1c\" Volume is already exclusively attached to one node and can't be attached to another",
		},
		miss: []string{"  Normal  SuccessfulAttachVolume  1m  attachdetach-controller  AttachVolume.Attach succeeded for volume \"pvc-5d1c\""},
	},
	"k8s-container-config-error": {
		match: []string{
			"  Warning  Failed  1m  kubelet  Error: secret \"hf-token\" not found",
			"sglang-0   0/1     CreateContainerConfigError   0          2m",
		},
		miss: []string{"huggingface_hub.errors.LocalTokenNotFoundError: Token is required (`token=True`), but no token found."},
	},
	"k8s-gpu-allocation-failed": {
		match: []string{
			"  Warning  UnexpectedAdmissionError  1m  kubelet  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 8, Available: 7, which is unexpected",
			"Allocate failed due to requested number of devices unavailable for amd.com/gpu. Requested: 1, Available: 0, which is unexpected",
		},
		miss: []string{"0/8 nodes are available: 8 Insufficient nvidia.com/gpu."},
	},
	"k8s-resource-quota-exceeded": {
		match: []string{
			"  Warning  FailedCreate  1m  replicaset-controller  Error creating: pods \"sglang-0\" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=8, used: requests.nvidia.com/gpu=0, limited: requests.nvidia.com/gpu=4",
			"Error from server (Forbidden): pods \"sglang-0\" is forbidden: exceeded quota: compute-resources, requested: limits.memory=256Gi",
		},
		miss: []string{"resource quota gpu-quota: 4 nvidia.com/gpu"},
	},
	"amdgpu-gpu-hang-reset": {
		match: []string{
			"[ 1234.567890] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=613206, emitted seq=613208",
			"[ 1234.567890] amdgpu 0000:c5:00.0: amdgpu: GPU reset begin!",
		},
		miss: []string{"[ 1234.567890] amdgpu 0000:c5:00.0: amdgpu: GPU reset succeeded, trying to resume", "[ 1234.567890] amdgpu 0000:c5:00.0: amdgpu: Ring comp_1.0.1 reset succeeded"},
	},
	"rocm-kfd-not-accessible": {
		match: []string{
			"Unable to open /dev/kfd read-write: Permission denied",
			"rocm_agent_enumerator: error: failed to open /dev/kfd",
		},
		miss: []string{"Failed to get user name to check for video group membership"},
	},
	"systemd-unit-failed": {
		match: []string{
			"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Failed with result 'exit-code'.",
			"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Main process exited, code=exited, status=1/FAILURE",
		},
		miss: []string{"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Main process exited, code=exited, status=0/SUCCESS", "Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Deactivated successfully."},
	},
	"asyncio-task-exception-unretrieved": {
		match: []string{
			"ERROR:asyncio:Task exception was never retrieved\nfuture: <Task finished name='Task-12' coro=<TokenizerManager.handle_loop() done, defined at /sgl/tokenizer_manager.py:1200> exception=KeyError('rid')>",
			"Future exception was never retrieved",
		},
		miss: []string{"Task was destroyed but it is pending!"},
	},
	"asyncio-transport-fatal-error": {
		match: []string{
			"ERROR:asyncio:Fatal error on SSL transport\nprotocol: <asyncio.sslproto.SSLProtocol object at 0x7f3a2c0b8d10>",
			"Fatal read error on socket transport",
		},
		miss: []string{"Fatal Python error: Segmentation fault"},
	},
	"slurm-job-cancelled": {
		match: []string{
			"slurmstepd: error: *** JOB 1234 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 DUE TO TIME LIMIT ***",
			"slurmstepd: error: *** STEP 1234.0 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 DUE TO NODE FAILURE ***",
		},
		miss: []string{"slurmstepd: error: *** STEP 1234.0 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 ***"},
	},
	"slurm-allocation-failed": {
		match: []string{
			"srun: error: Unable to allocate resources: Requested node configuration is not available",
			"sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified",
		},
		miss: []string{"srun: job 1234 queued and waiting for resources"},
	},
	"python-object-not-picklable": {
		match: []string{
			rawTB("AttributeError: Can't pickle local object 'build_engine.<locals>.logits_processor'"),
			"TypeError: cannot pickle '_thread.lock' object",
		},
		miss: []string{"_pickle.UnpicklingError: invalid load key, 'v'.", "pickle protocol 5 enabled"},
	},
	"ascend-cann-error-code": {
		match: []string{
			"EL0003: [PID: 528886] 2025-06-24-11:20:41.662.506 The argument is invalid.",
			"EZ3002: [PID: 1162] 2025-02-20-02:16:03.427.598 Optype [MoeDistributeDispatch] of Ops kernel [AIcoreEngine] is unsupported. Reason: The type of this op is not found in op store.",
		},
		miss: []string{
			"E0528 00:11:09.418211 4021 rdma_context.cpp:412] Work completion error",
			"E11000 duplicate key error collection: db.requests",
			"EI0006: Getting socket times out. Reason: 1. The remote does not initiate a connect request.",
		},
	},

	"k8s-container-crashloop": {
		match: []string{
			"  Warning  BackOff  3m (x120 over 30m)  kubelet  Back-off restarting failed container sglang in pod sglang-0_default(2b7c)",
			"  Warning  BackOff                1s               kubelet, node1     Back-off restarting failed container",
			"sglang-0   0/1     CrashLoopBackOff   12 (3m ago)   40m",
		},
		miss: []string{"  Normal  BackOff  2m  kubelet  Back-off pulling image \"lmsysorg/sglang:v0.5.0\"", "restartPolicy: Always", "  Normal  Started  90s  kubelet  Started container sglang"},
	},
	"k8s-container-exited-error": {
		match: []string{
			"sglang-0   0/1     Error   3 (40s ago)   2m",
			"llm         sglang-7d9f8b6c5-x2v9k   0/1   RunContainerError   1 (3s ago)   40s",
		},
		miss: []string{"sglang-0   1/1     Running   0          2m", "ValueError: Error 3 of 4"},
	},
	"k8s-pod-sandbox-failed": {
		match: []string{
			"  Warning  FailedCreatePodSandBox  2m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"3f2a9c\": plugin type=\"calico\" failed (add): connection is unauthorized",
			"  Warning  NetworkNotReady  2m  kubelet  network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized",
		},
		miss: []string{
			"  Warning  FailedCreatePodSandBox  1m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured",
			"  Normal  SandboxChanged  2m  kubelet  Pod sandbox changed, it will be killed and re-created.",
		},
	},
	"health-probe-endpoint-not-found": {
		match: []string{
			`INFO:     240.243.170.78:33438 - "GET /health_generate HTTP/1.1" 404 Not Found`,
			`[2026-05-28 00:11:09] INFO:     10.1.4.18:40012 - "GET /healthz HTTP/1.1" 404 Not Found`,
			"  Warning  Unhealthy  1m (x20 over 5m)  kubelet  Readiness probe failed: HTTP probe failed with statuscode: 404",
		},
		miss: []string{`INFO:     240.243.170.78:33428 - "GET /health HTTP/1.1" 200 OK`, `INFO:     10.1.4.17:51831 - "GET /favicon.ico HTTP/1.1" 404 Not Found`},
	},
	"http-endpoint-not-found": {
		match: []string{
			`INFO:     10.1.4.17:51830 - "POST /v1/v1/chat/completions HTTP/1.1" 404 Not Found`,
			`[2026-05-28 00:11:09] INFO:     10.1.4.17:51830 - "POST /v1/responses HTTP/1.1" 404 Not Found`,
		},
		miss: []string{`INFO:     10.1.4.17:51830 - "POST /v1/chat/completions HTTP/1.1" 200 OK`, `INFO:     10.1.4.17:51832 - "GET / HTTP/1.1" 404 Not Found`},
	},
	"http-server-error-response": {
		match: []string{
			`[2026-01-25 19:05:28] INFO:     10.0.11.6:36290 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error`,
			`INFO:     10.244.233.96:49446 - "POST /v1/images/generations HTTP/1.1" 502 Bad Gateway`,
			`2024-05-26 16:08:33 | INFO | stdout | INFO:     172.21.0.1:39384 - "POST /worker_generate HTTP/1.1" 500 Internal Server Error`,
		},
		miss: []string{
			`INFO:     10.1.4.18:40012 - "GET /health HTTP/1.1" 503 Service Unavailable`,
			`INFO:     10.1.4.17:51834 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request`,
		},
	},
	"container-runtime-create-failed": {
		match: []string{
			"docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting \"/data/models\" to rootfs at \"/models\": no such file or directory: unknown.",
			"  Warning  Failed  2m  kubelet  Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error setting cgroup config for procHooks process: unable to freeze: unknown",
		},
		miss: []string{"OCI runtime: runc 1.1.12", "Started container sglang"},
	},
	"docker-daemon-unreachable": {
		match: []string{
			"docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?.",
			"permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get \"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json\": dial unix /var/run/docker.sock: connect: permission denied",
		},
		miss: []string{"Docker daemon started, listening on /var/run/docker.sock"},
	},
	"docker-container-name-conflict": {
		match: []string{
			"docker: Error response from daemon: Conflict. The container name \"/sglang\" is already in use by container \"3f2a9c1d2e\". You have to remove (or rename) that container to be able to reuse that name.",
			"Error response from daemon: Conflict. The container name \"/sglang-decode-0\" is already in use by container \"9b1c\"",
		},
		miss: []string{"Conflict. The request could not be completed"},
	},
	"docker-bind-mount-source-missing": {
		match: []string{
			"docker: Error response from daemon: invalid mount config for type \"bind\": bind source path does not exist: /data/models/Qwen3-8B.",
			"Error response from daemon: invalid mount config for type \"bind\": bind source path does not exist: /root/.cache/huggingface",
		},
		miss: []string{"mounting bind source /data/models to /models"},
	},
	"linux-kernel-oops": {
		match: []string{
			"[ 5123.456789] BUG: unable to handle page fault for address: ffffb8e1c2a3d000",
			"[Sun Dec  6 09:00:01 2026] Oops: 0000 [#1] PREEMPT SMP NOPTI",
			"Dec 06 09:00:01 gpu-node-3 kernel: Kernel panic - not syncing: Fatal exception in interrupt",
		},
		miss: []string{
			"[ 5123.456789] Kernel panic - not syncing: Fatal Machine check",
			"[ 1234.567890] traps: python3[4021] general protection fault ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in libc.so.6[7f3a2b000000+195000]",
		},
	},
	"ray-gcs-unreachable": {
		match: []string{
			"[2026-05-28 00:11:09,851 E 3044 30260] rpc_client.h:203: Failed to connect to GCS within 60 seconds. GCS may have been killed. It's either GCS is terminated by `ray stop` or is killed unexpectedly.",
			"(WorkerDict pid=299104) [2026-05-28 00:11:09,924 E 299104 300227] gcs_rpc_client.h:542: Failed to connect to GCS within 1200 seconds. GCS may have been killed.",
		},
		miss: []string{"[2026-05-28 00:11:09,851 W 6578 6578] rpc_client.h:153: Failed to connect to GCS at address 10.166.166.106:6379 within 5 seconds."},
	},
	"ray-worker-start-timeout": {
		match: []string{
			"(raylet) [2026-05-28 00:11:09,117 E 135782 135782] (raylet) worker_pool.cc:589: Some workers of the worker process(1794) have not registered within the timeout. The process is still alive, probably it's hanging during start.",
			"worker_pool.cc:600: Some workers of the worker process(42) have not registered within the timeout. The process is dead, probably it crashed during start.",
		},
		miss: []string{"(raylet) worker_pool.cc:490: Started worker process with pid 1794"},
	},
	"ray-raylet-died": {
		match: []string{
			"Raylet is terminated. Termination is unexpected. Possible reasons include: (1) SIGKILL by the user or system OOM killer, (2) Invalid memory access from Raylet causing SIGSEGV or SIGBUS, (3) Other termination signals. Last 20 lines of the Raylet logs:",
			"(raylet) Raylet is terminated. Termination is unexpected.",
		},
		miss: []string{"Raylet is terminated. Termination is graceful."},
	},
	"amdgpu-vm-page-fault": {
		match: []string{
			"[  629.844077] amdgpu 0000:0b:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:8 pasid:32770, for process python pid 1796 thread python pid 1796)",
			"[Mon Mar  3 11:02:41 2025] amdgpu 0000:c1:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:3 pasid:32781)",
			"[  812.449301] amdgpu 0000:11:00.0: amdgpu: GCVM_L2_PROTECTION_FAULT_STATUS:0x00A41030",
			"kernel: amdgpu 0000:05:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00301031",
			"[Tue Sep  9 02:30:28 2025] amdgpu 0000:a6:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00341051",
		},
		miss: []string{
			"[  812.449301] amdgpu 0000:11:00.0: amdgpu: VM_L2_PROTECTION_FAULT_CNTL programmed",
			"[Tue Sep  9 02:30:28 2025] amdgpu 0000:a6:00.0: amdgpu:          WALKER_ERROR: 0x0",
			"[  563.230818] amdgpu 0000:44:00.0: amdgpu: ring comp_1.2.1 uses VM inv eng 9 on hub 0",
		},
	},
	"shell-command-not-found": {
		match: []string{
			"/bin/sh: 1: python: not found",
			"./run_server.sh: line 4: python: command not found",
			"slurmstepd: error: execve(): python: No such file or directory",
		},
		miss: []string{
			"[2025-08-02 06:06:21 TP2] Pyspy failed to dump PID 171. Error: /bin/dash: 1: py-spy: not found",
			"E0521 16:22:21.694042   162 transfer_metadata.cpp:877] Local segment descriptor not found",
		},
	},
	"shell-source-not-found": {
		match: []string{
			"run.sh: 18: source: not found",
			"./launch.sh: 3: Syntax error: \"(\" unexpected",
		},
		miss: []string{"+ source /opt/venv/bin/activate", "ModuleNotFoundError: No module named 'source'"},
	},
	"nvidia-smi-missing-in-container": {
		match: []string{
			"/bin/sh: 1: nvidia-smi: not found",
			"subprocess.CalledProcessError: Command 'nvidia-smi' returned non-zero exit status 127.",
		},
		miss: []string{"subprocess.CalledProcessError: Command 'nvidia-smi' returned non-zero exit status 9.", "NVIDIA-SMI 550.54.15   Driver Version: 550.54.15   CUDA Version: 12.4"},
	},
	"shell-permission-denied": {
		match: []string{
			"bash: ./start_server.sh: Permission denied",
			"exec /app/entrypoint.sh: permission denied",
		},
		miss: []string{"PermissionError: [Errno 13] Permission denied: '/models/x'", "chmod +x ./start_server.sh"},
	},
	"slurm-task-exited": {
		match: []string{
			"srun: error: gpu-node-3: task 0: Exited with exit code 1",
			"srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
		},
		miss: []string{"srun: error: gpu-node-3: task 0: Killed"},
	},
	"nccl-net-plugin-fallback-warning": {
		match: []string{
			"full-debug2-test-0:4300:4325 [0] net_fastsocket.cc:785 NCCL WARN Maximum retry reached for accept 3.",
			"full-debug2-test-1:4024:4048 [0] net_fastsocket.cc:765 NCCL WARN Cannot get incoming CPU.",
		},
		miss: []string{"full-debug2-test-1:4024:4048 [0] net_fastsocket.cc:730 NCCL WARN Cannot find empty socket for 3."},
	},
}

// platformWidenedExamples are the lines the platform vocabularies added to
// records that were already there.
var platformWidenedExamples = map[string]example{
	"cpu-illegal-instruction": {
		match: []string{"[ 1234.567890] traps: python3[4021] trap invalid opcode ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in libggml-cpu.so[7f3a2b000000+195000]"},
	},
	"process-floating-point-exception": {
		match: []string{"[ 1234.567890] traps: python3[4021] trap divide error ip:7f3a2c0b8d10 sp:7ffd1c2b3a40 error:0 in _C.abi3.so[7f3a2b000000+195000]"},
	},
	"docker-gpu-device-driver-missing": {
		match: []string{"  Warning  FailedCreatePodSandBox  1m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured"},
		miss:  []string{"no runtime for \"kata\" is configured"},
	},
	"too-many-open-files": {
		match: []string{tb("RuntimeError: received 0 items of ancdata")},
	},
	"nccl-shared-memory-segment-failed": {
		match: []string{"gpu-3:4012:4190 [0] include/shm.h:26 NCCL WARN Unable to allocate shared memory (4263936 bytes) : Interrupted system call"},
		miss:  []string{"gpu-3:4012:4190 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct"},
	},
	"k8s-probe-failed": {
		match: []string{"  Warning  Unhealthy  1m  kubelet  Liveness probe errored: rpc error: code = Unknown desc = failed to exec in container"},
	},
	"nccl-socket-connect-failed": {
		match: []string{"[2025-05-16 10:49:23] vae-bc5a469e-2296-0:10209:10243 [1] misc/socket.cc:544 NCCL WARN socketPollConnect: connect returned Connection refused, exceeded error retry count (35)"},
		miss:  []string{"vae-bc5a469e-2296-0:10209:10243 [1] NCCL INFO socketPollConnect: connect returned Connection refused, retrying (33/34) after sleep for 3300 msec"},
	},
	"no-cuda-gpus-available": {
		match: []string{"+ nvidia-smi\nNo devices were found"},
		miss:  []string{"No devices were found matching the filter; using all GPUs"},
	},
	"nvml-query-failed": {
		match: []string{"Failed to initialize NVML: GPU access blocked by the operating system"},
	},
	"process-killed-sigkill": {
		match: []string{"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Main process exited, code=killed, status=9/KILL"},
		miss:  []string{"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Main process exited, code=killed, status=15/TERM"},
	},
	"process-segfault-core-dumped": {
		match: []string{"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Main process exited, code=dumped, status=11/SEGV", "sglang-1 exited with code 139"},
		miss:  []string{"sglang-1 exited with code 1"},
	},
	"process-aborted-core-dumped": {
		match: []string{"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Main process exited, code=dumped, status=6/ABRT"},
	},
	"linux-oom-killer": {
		match: []string{"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Failed with result 'oom-kill'."},
	},
	"address-already-in-use": {
		match: []string{"docker: Error response from daemon: driver failed programming external connectivity on endpoint sglang (3f2a9c): Bind for 0.0.0.0:30000 failed: port is already allocated."},
	},
	"os-input-output-error": {
		match: []string{"[ 1234.567890] blk_update_request: I/O error, dev nvme0n1, sector 123456 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0"},
	},
	"host-thread-limit-reached": {
		match: []string{"[ 1234.567890] cgroup: fork rejected by pids controller in /kubepods.slice/kubepods-pod2b7c.slice"},
	},
	"nvidia-gpu-init-failed": {
		match: []string{"[ 1234.567890] NVRM: GPU 0000:3b:00.0: rm_init_adapter failed, device minor number 0"},
	},
	"npu-function-error": {
		match: []string{
			"RuntimeError: NPU function error: aclrtMemcpy(dst, dstMax, src, count, kind), error code is 507899",
			tb("RuntimeError: NPU function error: aclrtSynchronizeStream(stream), error code is 507010"),
		},
		miss: []string{
			"RuntimeError: NPU function error: aclrtMallocAlign32(&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST), error code is 207001",
			"torch.OutOfMemoryError: map:../torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:457 NPU function error: aclrtMallocPhysical, error code is 507899",
			"Exception: Capture cuda graph failed: capture_end:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:193 NPU function error: c10_npu::acl::AclmdlRICaptureEnd(capture_stream_, &model_ri), error code is 107033",
		},
	},
	"npu-out-of-memory": {
		match: []string{
			"RuntimeError: NPU function error: aclrtMallocAlign32(&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST), error code is 207001",
			// The caching allocators' OutOfMemoryError around the failed
			// call (vllm-project/vllm-ascend#16649; a vllm-omni
			// deployment's pinned host memory).
			"torch.OutOfMemoryError: map:../torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:457 NPU function error: aclrtMallocPhysical, error code is 507899",
			"torch.OutOfMemoryError: allocate_host_memory_slowpath:../torch_npu/csrc/core/npu/CachingHostAllocator.cpp:252 NPU function error: aclrtMallocHostWithCfg, error code is 207001",
		},
	},
	"npu-set-device-failed": {
		match: []string{"[ERROR]  acl set device 0 failed, errorCode = 507033", "aclrtSetDevice: open device 0 failed, runtime result = 507033"},
	},
	"npu-stream-sync-timeout": {
		match: []string{"RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507048"},
	},
	"npu-aicore-exception": {
		match: []string{"RuntimeError: NPU function error: aclrtSynchronizeStream(stream), error code is 507014"},
	},
	"npu-memory-hardware-error": {
		match: []string{"RuntimeError: NPU function error: aclrtSynchronizeStream(stream), error code is 507053"},
	},
	"npu-link-error": {
		match: []string{"RuntimeError: NPU function error: aclrtSynchronizeStream(stream), error code is 507056"},
	},
}

func init() { addExamples(platformExamples, platformWidenedExamples) }

// TestPlatformRoutineLinesDoNotAlert feeds routine lines of the platform
// layers (the driver loading, a corrected error, a probe failing while a
// model loads, asyncio at exit, a pull in progress) through the analysis
// with the whole catalog: none alerts.
func TestPlatformRoutineLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), []string{
		"[ 1234.567890] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023",
		"[ 1234.567890] nvidia-nvswitch3: SXid (PCI:0000:86:00.0): 12028, Non-fatal, Link 17 egress non-posted PRIV error (First)",
		"[ 1234.567890] EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0",
		"[ 1234.567890] mce: [Hardware Error]: Machine check events logged",
		"  Warning  Unhealthy  1m (x3 over 2m)  kubelet  Readiness probe failed: Get \"http://10.1.2.3:30000/health\": dial tcp 10.1.2.3:30000: connect: connection refused",
		"  Normal  Pulling  2m  kubelet  Pulling image \"lmsysorg/sglang:v0.5.0\"",
		"ERROR:asyncio:Task was destroyed but it is pending!",
		"ERROR:asyncio:Fatal error on SSL transport\nprotocol: <asyncio.sslproto.SSLProtocol object at 0x7f3a2c0b8d10>",
		"Dec 06 09:00:01 gpu-node-3 systemd[1]: sglang.service: Scheduled restart job, restart counter is at 5.",
		"Task was destroyed but it is pending!",
		"NVML library version: 535.104",
		"Jan 05 14:45:28 gpu-node-3 nv-fabricmanager[1120]: Successfully configured all the available NVSwitches to route GPU NVLink traffic. NVLink Peer-to-Peer support will be enabled once the GPUs are successfully registered with the NVLink fabric.",
	})
}

// TestPlatformIncidents scans short logs of the platform around a server
// as `logmatch scan` does, incidents and folding included: the record
// that must lead the first incident, how many incidents the log gives,
// and, for a consequence that follows its cause (the kubelet's back-off
// after the server's own error, an access line's 500 after the handler's
// traceback), that it is folded into the cause's incident.
func TestPlatformIncidents(t *testing.T) {
	tests := []incidentCase{
		{
			name: "a probe asking a health path the server lacks, repeated",
			lines: []string{
				`INFO:     240.243.170.78:33428 - "GET /health HTTP/1.1" 200 OK`,
				`INFO:     240.243.170.78:33438 - "GET /health_generate HTTP/1.1" 404 Not Found`,
				`INFO:     240.243.170.78:42582 - "GET /health_generate HTTP/1.1" 404 Not Found`,
				`INFO:     240.243.170.78:42596 - "GET /health_generate HTTP/1.1" 404 Not Found`,
				`INFO:     240.243.170.78:42608 - "GET /health HTTP/1.1" 200 OK`,
			},
			lead: "health-probe-endpoint-not-found", incidents: 1,
		},
		{
			name: "server errors answered after a handler's traceback",
			lines: []string{
				"[2026-05-28 00:11:09] ERROR:    Exception in ASGI application",
				"Traceback (most recent call last):",
				`  File "/usr/local/lib/python3.12/dist-packages/uvicorn/protocols/http/httptools_impl.py", line 409, in run_asgi`,
				"    result = await app(  # type: ignore[func-returns-value]",
				"RuntimeError: CUDA error: an illegal memory access was encountered",
				`[2026-05-28 00:11:09] INFO:     10.0.11.6:36290 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error`,
				`[2026-05-28 00:11:10] INFO:     10.0.11.6:36292 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error`,
			},
			lead: "cuda-illegal-memory-access", incidents: 1, folded: "http-server-error-response",
		},
		{
			name: "server errors alone",
			lines: []string{
				`[2026-05-28 00:11:09] INFO:     10.0.11.6:36290 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error`,
				`[2026-05-28 00:11:10] INFO:     10.0.11.6:36292 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error`,
			},
			lead: "http-server-error-response", incidents: 1,
		},
		{
			name: "a describe's events: readiness refused and the back-off",
			lines: []string{
				"  Normal   Scheduled  2m               default-scheduler  Successfully assigned default/sglang-0 to node1",
				"  Normal   Pulled     2m               kubelet, node1     Container image \"lmsysorg/sglang:v0.5.2\" already present on machine",
				"  Normal   Created    2m               kubelet, node1     Created container: sglang",
				"  Normal   Started    2m               kubelet, node1     Started container sglang",
				"  Warning  Unhealthy  1s (x2 over 2s)  kubelet, node1     Readiness probe failed: Get http://10.233.64.92:8022/health: dial tcp 10.233.64.92:8022: getsockopt: connection refused",
				"  Warning  BackOff    1s               kubelet, node1     Back-off restarting failed container",
			},
			lead: "k8s-container-crashloop", incidents: 1,
		},
		{
			name: "the container's own failure, then the back-off",
			lines: []string{
				"[2026-05-28 00:11:09] Traceback (most recent call last):",
				`  File "/usr/local/lib/python3.12/dist-packages/sglang/launch_server.py", line 29, in <module>`,
				"    server.run(args)",
				"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.",
				"2026-05-28T00:11:12Z   Warning  BackOff  1s  kubelet  Back-off restarting failed container sglang in pod sglang-0_default(2b7c)",
			},
			lead: "cuda-out-of-memory", incidents: 1, folded: "k8s-container-crashloop",
		},
		{
			name: "a pod listing with one pod in a restart loop",
			lines: []string{
				"NAME                     READY   STATUS             RESTARTS       AGE",
				"sglang-router-6c9d8-x2   1/1     Running            0              3h",
				"sglang-0                 0/1     CrashLoopBackOff   12 (3m ago)    40m",
				"sglang-1                 1/1     Running            0              40m",
			},
			lead: "k8s-container-crashloop", incidents: 1,
		},
		{
			name: "a launch script run by dash",
			lines: []string{
				"[INFO] Activating environment on node ",
				"run.sh: 18: source: not found",
				"[ERROR] Failed to activate environment",
			},
			lead: "shell-source-not-found", incidents: 1,
		},
		{
			name: "a set-up check that runs nvidia-smi in a container without GPUs",
			lines: []string{
				"INFO:     Started server process [7]",
				"/bin/sh: 1: nvidia-smi: not found",
				"Traceback (most recent call last):",
				`  File "/src/predictor.py", line 29, in setup`,
				`    check_call("nvidia-smi", shell=True)`,
				"subprocess.CalledProcessError: Command 'nvidia-smi' returned non-zero exit status 127.",
			},
			lead: "nvidia-smi-missing-in-container", incidents: 1,
		},
		{
			name: "Ray's actor death without its header",
			lines: []string{
				"error: The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR",
				"Worker exit detail: Worker exits unexpectedly. Worker exits with an exit code 1.",
				"The worker may have exceeded K8s pod memory limits. The process receives a SIGTERM.",
			},
			lead: "ray-actor-died", incidents: 1,
		},
		{
			name: "srun's task exit after the task's own error",
			lines: []string{
				"0: Traceback (most recent call last):",
				`0:   File "/usr/local/lib/python3.12/dist-packages/sglang/launch_server.py", line 29, in <module>`,
				"0:     server.run(args)",
				"0: RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
				"srun: error: gpu-node-3: task 0: Exited with exit code 1",
				"srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
			},
			lead: "nccl-unhandled-system-error", incidents: 1, folded: "slurm-task-exited",
		},
		{
			name: "Fast Socket's placement warnings before its connection",
			lines: []string{
				"full-debug2-test-1:4024:4048 [0] net_fastsocket.cc:765 NCCL WARN Cannot get incoming CPU.",
				"",
				"full-debug2-test-0:4300:4325 [0] net_fastsocket.cc:785 NCCL WARN Maximum retry reached for accept 3.",
				"",
				"full-debug2-test-1:4024:4055 [0] net_fastsocket.cc:674 NCCL WARN Maximum retry reached for connect 3.",
				"full-debug2-test-0:4300:4325 [0] NCCL INFO NET/FastSocket : Connected after 1000 retries.",
			},
			incidents: 0,
		},
	}
	checkIncidents(t, "platform.log", tests)
}

// An incidentCase is a short log scanned whole: the record that must lead
// its first incident, how many incidents it gives, and a consequence that
// must be folded into the lead's incident.
type incidentCase struct {
	name      string
	lines     []string
	lead      string
	incidents int
	folded    string // a consequence folded into the lead's incident
}

// checkIncidents scans each case as `logmatch scan` does with the
// embedded catalog, incidents and folding included.
func checkIncidents(t *testing.T, file string, tests []incidentCase) {
	t.Helper()
	recs, _ := patterns.Default()
	m, _ := matcher.Compile(recs, matcher.Options{MatchTimeout: time.Minute, EntryBudget: time.Hour})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scan.New(m, scan.Options{Now: func() time.Time { return time.Date(2026, 5, 28, 0, 20, 0, 0, time.UTC) }})
			res, err := s.Scan(context.Background(), []scan.Input{{Name: file, R: strings.NewReader(strings.Join(tt.lines, "\n") + "\n")}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range res.Alerts {
				got = append(got, a.Record.Slug)
			}
			if len(res.Alerts) != tt.incidents {
				t.Fatalf("%d incidents %v, want %d", len(res.Alerts), got, tt.incidents)
			}
			if tt.incidents == 0 {
				return
			}
			if got[0] != tt.lead {
				t.Errorf("lead %s, want %s (incidents %v)", got[0], tt.lead, got)
			}
			// Folded: a consequence of the incident, or a secondary hit
			// when the line was read in the lead's entry.
			a := res.Alerts[0]
			if tt.folded != "" && !slices.ContainsFunc(a.Consequences, func(c sinks.Consequence) bool { return c.Slug == tt.folded }) &&
				!slices.ContainsFunc(a.Secondary, func(h sinks.SecondaryHit) bool { return h.Slug == tt.folded }) {
				t.Errorf("%s not folded into the lead's incident: consequences %+v, secondary %+v", tt.folded, a.Consequences, a.Secondary)
			}
		})
	}
}
