package analysis

import "testing"

// TestKernelReport reads the kernel's reports of a failed device and of
// the OOM killer's victim as dmesg (seconds since boot, -T's human time,
// --time-format iso), syslog's "kernel: " and bare pastes show them, from
// several drivers (amdgpu, i915, xe, FreeBSD's drm-kmod, NVIDIA's NVRM,
// the PCIe port driver's AER) and kernels of several ages; it tells the
// line that states the failure from the driver's recovery after it; and
// it leaves alone a driver's start-up, a corrected error, a reset that
// succeeded, the OOM killer's detail lines, and an application's lines
// that mention the same words.
func TestKernelReport(t *testing.T) {
	type want struct{ report, lead bool }
	lead, follow, none := want{true, true}, want{true, false}, want{false, false}
	for msg, w := range map[string]want{
		// The OOM killer, as kernels from 3.10 to 6.x word it.
		"[  518.050606] Out of memory: Killed process 15784 (python3) total-vm:11964kB, anon-rss:4288kB":    lead,
		"[Sun Mar 24 23:54:53 2024] Out of memory: Killed process 6154 (python) total-vm:18109076kB":        lead,
		"kernel: Memory cgroup out of memory: Killed process 4242 (vllm) total-vm:1kB, anon-rss:1kB":        lead,
		"[ 9001.1] Memory cgroup out of memory: Kill process 812 (java) score 950 or sacrifice child":       lead,
		"Killed process 7748 (python) total-vm:12907828kB, anon-rss:11500204kB, file-rss:0kB":               lead,
		"2024-04-29T14:55:41,678628+02:00 pool invoked oom-killer: gfp_mask=0x6200ca(GFP_HIGHUSER_MOVABLE)": lead,
		"[36507.207709] python3 invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0":   lead,
		"[ 1.5] Kernel panic - not syncing: Fatal exception in interrupt":                                   lead,
		// The memory cgroup's report on cgroup v1 kernels opens with the
		// path killed and the limit's (istio/istio#42734,
		// bluek8s/kubedirector#356, thewca/worldcubeassociation.org#1690,
		// kvcache-ai/ktransformers#637 under dmesg -T's Chinese
		// weekday): a report whose victim line leads.
		"kernel: Task in /kubepods.slice/kubepods-burstable.slice/docker-b2720.scope killed as a result of limit of /kubepods.slice/kubepods-burstable.slice/docker-b2720.scope":                follow,
		"[5193605.506728] Task in /kubepods/pod951f6bc5-c5a5-11ea-8707-80e455f266a2/024952d653ef killed as a result of limit of /kubepods/pod951f6bc5-c5a5-11ea-8707-80e455f266a2/024952d653ef": follow,
		"[ 9159.696900] Task in /docker/9f9cdbfd1ad3 killed as a result of limit of /docker/9f9cdbfd1ad3":                                                                                       follow,
		"[\u56db 3\u6708 20 21:01:25 2025] Task in /docker/6b4502403e15 killed as a result of limit of host":                                                                                    follow,
		"[ 9159.696906] memory: usage 4194304kB, limit 4194304kB, failcnt 3534177":                                                                                                              none,
		"Task in progress killed as a result of limit of retries":                                                                                                                               none,
		"Task in /queue was killed as a result of limit of 3 retries":                                                                                                                           none,
		"[  518.053407] oom_reaper: reaped process 15784 (python3), now anon-rss:0kB, file-rss:0kB":                                                                                             none,
		"[295692.212094] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0":                                                                                           none,
		"[Wed Dec  6 23:54:11 2017]  [<ffffffff8116cdde>] oom_kill_process+0x24e/0x3b0":                                                                                                         none,
		"Killed process group 3 of the job":                                                 none,
		"The scheduler invoked oom-killer: policy documented in the runbook, nothing to do": none,
		"Out of memory errors are retried up to 3 times":                                    none,

		// NVIDIA's kernel module.
		"NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.":                                                                                                             lead,
		"[ 4.2] NVRM: Xid (PCI:0000:3b:00): 31, pid=1234, name=python3, Ch 00000008, intr 00000000. MMU Fault":                                                                    lead,
		"[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n NVRM: (PCI ID: 10de:26b5) installed in this system has\n NVRM: fallen off the bus and is not responding to commands.": lead,
		"NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x26:0x56:1463)":                                                                                                          lead,
		"NVRM: API mismatch: the client has the version 535.54.03, but this kernel module has the version 470.199.02.":                                                            lead,
		"[ 1843.439662] NVRM: The NVIDIA probe routine failed for 1 device(s).":                                                                                                   follow,
		"[ 8812.412399] NVRM: Xid (PCI:0000:3b:00): 43, pid=4242, name=python3, Ch 00000008":                                                                                      follow,
		"[Mon Jun 10 12:01:02 2024] NVRM: Xid (PCI:0000:b1:00): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row marked for remapping, reset gpu to activate.":          follow,
		"NVRM: Xid (PCI:0000:9a:00): 45, pid=2045, name=python3, Ch 00000010":                                                                                                     follow,
		"NVRM: Xid (PCI:0000:9a:00): 13, Graphics SM Cga Exception on (GPC 1, TPC 3, SM 1): CTA Not Present":                                                                      lead,
		"NVRM: Xid (PCI:0000:b1:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6.":    lead,
		"NVRM: Xid (PCI:0000:b1:00): 430, pid=1, name=x, Ch 1":                                                                                                                    lead,
		"NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.":                                                                                                                     follow,
		"NVRM: GPU at PCI:0000:01:00: GPU has fallen off the bus.":                                                                                                                lead,
		"[ 1843.439669] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.158.01  Release Build":                                                                       none,
		"NVRM: GPU at PCI:0000:06:00: GPU-0b6b7808-c002-f593-ac86-cd8e57757b94":                                                                                                   none,

		// AMD's amdgpu, on Linux and on FreeBSD's drm-kmod.
		"[  629.844077] amdgpu 0000:0b:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:8 pasid:32770)": lead,
		"[Tue Sep  9 02:30:28 2025] amdgpu 0000:a6:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00341051":      lead,
		"[ 8000.1] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx timeout, signaled seq=3, emitted seq=5":  lead,
		"amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 timeout, signaled seq=12, emitted seq=14":                  lead,
		"[drm ERROR :amdgpu_job_timedout] ring gfx_0.0.0 timeout, signaled seq=12174921, emitted seq=12174923":  lead,
		"[drm ERROR :amdgpu_mes_unmap_legacy_queue] failed to unmap legacy queue":                               follow,
		"drmn0: GPU reset begin!":                                                                follow,
		"[ 8000.2] amdgpu 0000:03:00.0: amdgpu: GPU reset begin!":                                follow,
		"[  563.230818] amdgpu 0000:44:00.0: amdgpu: ring comp_1.2.1 uses VM inv eng 9 on hub 0": none,
		"[  563.233770] amdgpu 0000:44:00.0: [drm] Cannot find any crtc or sizes":                none,
		"[ 8000.3] amdgpu 0000:03:00.0: amdgpu: GPU reset(2) succeeded!":                         none,
		"amdgpu: ring buffer size set to 4096":                                                   none,

		// Intel's i915 and xe.
		"[ 12.5] i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in python3 [4242]":        lead,
		"[ 12.6] i915 0000:00:02.0: [drm] Resetting chip for stopped heartbeat on rcs0":            follow,
		"i915 0000:00:02.0: [drm] *ERROR* GuC initialization failed -110":                          follow,
		"[ 77.1] xe 0000:03:00.0: [drm] Timedout job: seqno=4294967169, lrc_seqno=1, guc_id=2":     lead,
		"[ 12.7] i915 0000:00:02.0: [drm] Finished loading DMC firmware i915/adlp_dmc.bin (v2.20)": none,

		// PCIe Advanced Error Reporting.
		"[ 99.1] pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:01:00.0":                                  lead,
		"[ 99.2] nvidia 0000:01:00.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Requester ID)": lead,
		"pcieport 0000:00:03.1: AER: Multiple Uncorrected (Non-Fatal) error message received from 0000:03:00.0":                 lead,
		"[ 99.3] pcieport 0000:00:01.0: AER: Corrected error received: 0000:01:00.0":                                            none,
		"[ 99.4] nvidia 0000:01:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)":                   none,

		// An application's lines and prose with the same words.
		"[2026-06-16 11:23:49] Decode batch. #running-req: 1, ring buffer timeout 30s": none,
		"[INFO] ring allreduce timeout set to 600":                                     none,
		"The GPU has fallen off the bus, said the forum":                               none,
		"[worker] GPU reset begin! is what the driver prints":                          none,
		"2026-12-07T00:00:00.123Z ring gfx timeout":                                    none,
		"[12/07/2026-10:10:10] [E] ring timeout":                                       none,
		"":                                                                             none,
		"[":                                                                            none,
		"[ ]":                                                                          none,
	} {
		report, isLead := kernelReport(msg)
		if report != w.report || report && isLead != w.lead {
			t.Errorf("kernelReport(%q) = %v, %v; want %v, %v", msg, report, isLead, w.report, w.lead)
		}
	}
}

// FuzzKernelReport: kernelReport never panics, reads a line only where
// kernelLineStart let it, and a lead is always a report.
func FuzzKernelReport(f *testing.F) {
	for _, s := range []string{
		"[  518.050606] Out of memory: Killed process 15784 (python3)",
		"2024-04-29T14:55:41,678628+02:00 pool invoked oom-killer: gfp_mask=0x6200ca",
		"NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.",
		"[drm ERROR :amdgpu_job_timedout] ring gfx_0.0.0 timeout, signaled seq=1",
		"kernel: [ 1.0] pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received",
		"[Tue Sep  9 02:30:28 2025]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		report, lead := kernelReport(msg)
		if lead && !report {
			t.Fatalf("kernelReport(%q): a lead that is no report", msg)
		}
		if report && !kernelLineStart(FirstLine(msg)) {
			t.Fatalf("kernelReport(%q): a report kernelLineStart refuses", msg)
		}
	})
}
