package incident_test

import (
	"strings"
	"testing"
)

// One device fault is one incident: what the driver, the runtime or the
// first failing call reports, then the sticky errors of every call on the
// dead context, led by the first report. Composed after the NVIDIA
// driver's Xid line in dmesg, ROCm's memory access fault, torch's
// RuntimeError and AcceleratorError under a scheduler's traceback and an
// exception ignored in a destructor.
func TestOneDeviceFaultIsOneIncident(t *testing.T) {
	m := crashMatcher(t)
	sticky := func(typ, msg string) []string {
		return []string{"Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2310, in run_scheduler_process`,
			"    torch.cuda.synchronize()",
			typ + ": " + msg}
	}
	cases := []struct {
		name         string
		first, again []string
	}{
		{"the driver's Xid, then the launch failure",
			[]string{"[ 8812.412345] NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, name=python3, GPU has fallen off the bus."},
			[]string{"RuntimeError: CUDA error: unspecified launch failure"}},
		{"an ECC error, then an AcceleratorError",
			sticky("RuntimeError", "CUDA error: uncorrectable ECC error encountered"),
			sticky("torch.AcceleratorError", "CUDA error: an illegal memory access was encountered")},
		{"a misaligned address, then a destructor's launch failure",
			[]string{"RuntimeError: CUDA error: misaligned address",
				"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
				"For debugging consider passing CUDA_LAUNCH_BLOCKING=1"},
			[]string{"Exception ignored in: <function Scheduler.__del__ at 0x7f0a3c2d1e40>", "RuntimeError: CUDA error: unspecified launch failure"}},
		{"one rank's misaligned address, then the other ranks' sticky errors",
			[]string{"[2025-06-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/flashinfer_backend.py", line 300, in forward_extend`,
				"    o = self.prefill_wrapper_paged.forward(q, k, v)",
				"RuntimeError: CUDA error: misaligned address"},
			[]string{"[2025-06-01 12:00:01 TP1] Scheduler hit an exception: Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2300, in run_scheduler_process`,
				"    scheduler.event_loop_overlap()",
				"torch.AcceleratorError: CUDA error: unspecified launch failure",
				"[2025-06-01 12:00:01 TP2] Scheduler hit an exception: Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2300, in run_scheduler_process`,
				"    scheduler.event_loop_overlap()",
				"RuntimeError: CUDA error: an illegal memory access was encountered"}},
		{"the ROCm runtime's queue abort, then the launch failure",
			[]string{":0:rocdevice.cpp            :2992: 4026031038 us:  Callback: Queue 0x7f2c48600000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016"},
			[]string{"c10::AcceleratorError: CUDA error: unspecified launch failure"}},
		{"ROCm's memory access fault, then HIP's illegal memory access",
			[]string{"Memory access fault by GPU node-2 (Agent handle: 0x5561e0c8f0a0) on address 0x7f1e2c000000. Reason: Page not present or supervisor privilege."},
			[]string{"RuntimeError: HIP error: an illegal memory access was encountered"}},
	}
	for _, c := range cases {
		alone := scanLines(t, m, c.first)
		if len(alone) != 1 {
			t.Fatalf("%s: the first report alone gives %d incidents:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		for _, l := range layouts {
			var lines []string
			for _, s := range append(append([]string{}, c.first...), c.again...) {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
			}
		}
	}
}

// Two device faults with a server's healthy work between them are two
// incidents, and so is an out of memory beside a fault.
func TestDeviceFaultsApartStayApart(t *testing.T) {
	m := crashMatcher(t)
	far := []string{"RuntimeError: CUDA error: misaligned address"}
	for i := 0; i < 60; i++ {
		far = append(far, healthy[i%len(healthy)])
	}
	far = append(far, "RuntimeError: CUDA error: unspecified launch failure")
	if got := scanLines(t, m, far); len(got) != 2 {
		t.Errorf("two faults far apart: want 2 incidents, got %d:%s", len(got), describe(got))
	}
	oom := []string{
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.",
		"RuntimeError: CUDA error: misaligned address",
	}
	alone := scanLines(t, m, oom[:1])
	got := scanLines(t, m, oom)
	if len(alone) != 1 || len(got) == 1 && leadOf(got[0]) != leadOf(alone[0]) {
		t.Errorf("an out of memory then a fault: got %d:%s", len(got), describe(got))
	}
}
