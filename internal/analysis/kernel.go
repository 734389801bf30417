package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// The kernel reports a device's failure and its own killing of a process in
// its ring buffer, which reaches a log through dmesg (a stamp of seconds
// since boot, a human time or an ISO time before each line), syslog or the
// journal ("kernel: " after the host), or pasted bare. Its lines carry no
// level word a reader can see, so no other reading takes them for a
// failure: the DRM core's error marker ("[drm:amdgpu_job_timedout [amdgpu]]
// *ERROR* ring gfx timeout", "i915 0000:00:02.0: [drm] *ERROR* ...",
// FreeBSD's "[drm ERROR :amdgpu_job_timedout] ..."), a GPU driver's words
// for a hung, faulting or reset device (amdgpu, i915, xe, their FreeBSD
// names drmn0...), NVIDIA's NVRM lines (an Xid, a GPU fallen off the bus,
// an adapter that failed to initialise), PCIe Advanced Error Reporting of
// an uncorrected error, the OOM killer's choice of a victim, and a kernel
// panic. kernelFailure reads them; a corrected error, a reset that
// completed, a driver's start-up and the OOM killer's detail lines (its
// task table, the reaper's report) are not failures of their own.

// maxKernelStamp bounds a dmesg stamp in brackets: seconds since boot
// ("[ 1843.308145]") or dmesg -T's human time ("[Tue Sep  9 02:30:28
// 2025]").
const maxKernelStamp = 32

// kernelBody returns l without what dmesg, syslog or the journal put
// before the kernel's message (a bracketed stamp, an ISO time, "kernel:
// "), and whether such a prefix was there: a line a stamp opens is the
// kernel's, a bare one only when its own words say so.
func kernelBody(l string) (body string, stamped bool) {
	body, stamped = cutKernelStamp(l)
	if !stamped && isoKernelStamp(body) {
		body, stamped = strings.TrimLeft(body[strings.IndexByte(body, ' '):], " "), true
	}
	if b, ok := strings.CutPrefix(body, "kernel: "); ok {
		body, _ = cutKernelStamp(b)
		stamped = true
	}
	return body, stamped
}

// cutKernelStamp returns l without the bracketed dmesg stamp it opens with
// (kernelStamp) and the spaces after it, and whether there was one.
func cutKernelStamp(l string) (string, bool) {
	if len(l) > 2 && l[0] == '[' {
		if end := strings.IndexByte(l[:min(len(l), maxKernelStamp)], ']'); end > 1 && kernelStamp(l[1:end]) {
			return strings.TrimLeft(l[end+1:], " "), true
		}
	}
	return l, false
}

// kernelStamp reports whether s, the inside of a bracket, is a dmesg
// stamp: seconds since boot ("  563.230818") or a human time with a
// colon and a year ("Tue Sep  9 02:30:28 2025").
func kernelStamp(s string) bool {
	t := strings.TrimLeft(s, " ")
	if dot := strings.IndexByte(t, '.'); dot > 0 {
		return ascii.Digits(t[:dot]) && len(t) > dot+1 && ascii.Digits(t[dot+1:])
	}
	return len(t) >= 20 && t[3] == ' ' && strings.Count(t, ":") == 2 && ascii.Digits(t[len(t)-4:])
}

// isoKernelStamp reports whether l opens with dmesg --time-format iso's
// stamp, "2024-04-29T14:55:41,678628+02:00 ": a comma before the
// fraction, which a logger's ISO time rarely has.
func isoKernelStamp(l string) bool {
	return len(l) > 32 && isDigitByte(l[0]) && l[4] == '-' && l[10] == 'T' && l[19] == ',' &&
		strings.IndexByte(l[20:33], ' ') > 0
}

// kernelLineStart reports, with a byte test and at most one prefix
// comparison, whether l may be a kernel line kernelFailure reads: a
// bracket (a dmesg stamp), an ISO stamp's digit, or the first word of a
// bare line that kernelFailure accepts. It is what a routine line pays.
func kernelLineStart(l string) bool {
	if l == "" {
		return false
	}
	switch l[0] {
	case '[':
		return true
	case '1', '2':
		return isoKernelStamp(l)
	case 'k':
		return strings.HasPrefix(l, "kernel: ")
	case 'N':
		return strings.HasPrefix(l, "NVRM: ")
	case 'O':
		return strings.HasPrefix(l, "Out of memory")
	case 'K':
		return strings.HasPrefix(l, "Killed process ") || strings.HasPrefix(l, "Kernel panic")
	case 'M':
		return strings.HasPrefix(l, "Memory cgroup out of memory")
	case 'T':
		return strings.HasPrefix(l, memcgTaskIn)
	case 'a':
		return strings.HasPrefix(l, "amdgpu")
	case 'i':
		return strings.HasPrefix(l, "i915 ")
	case 'x':
		return strings.HasPrefix(l, "xe ")
	case 'd':
		return strings.HasPrefix(l, "drmn")
	case 'p':
		return strings.HasPrefix(l, "pcieport ")
	}
	return false
}

// kernelDriverPrefix reports whether body opens with the name a GPU
// driver's or the PCIe port driver's messages carry: "amdgpu
// 0000:44:00.0: ", "amdgpu: ", "i915 0000:00:02.0: ", "xe 0000:03:00.0: ",
// FreeBSD's "drmn0: ", "pcieport 0000:00:01.0: ".
func kernelDriverPrefix(body string) bool {
	name, _, ok := strings.Cut(body[:min(len(body), 40)], ":")
	if !ok {
		return false
	}
	name, _, _ = strings.Cut(name, " ")
	switch name {
	case "amdgpu", "i915", "xe", "nouveau", "radeon", "pcieport":
		return true
	}
	return len(name) > 4 && strings.HasPrefix(name, "drmn") && ascii.Digits(name[4:])
}

// kernelFailure reports whether msg, a line (or the lines of one entry)
// with no level of its own, is the kernel's report of a failure (see
// above).
func kernelFailure(msg string) bool {
	report, _ := kernelReport(msg)
	return report
}

// kernelReport says whether msg is the kernel's report of a failure, and
// whether it is one that states the failure itself (lead): the OOM
// killer's victim, a panic, an Xid or a GPU fallen off the bus, a ring or
// job timeout, a hang, a page fault, an uncorrected PCIe error. The lines
// a driver prints after one (a reset begun, a probe that failed, the DRM
// core's further errors while it recovers) are reports too, but of the
// same failure: alone they still alert, around it they are its detail.
func kernelReport(msg string) (report, lead bool) {
	first := FirstLine(msg)
	if !kernelLineStart(first) {
		return false, false
	}
	body, stamped := kernelBody(first)
	if memcgLimitKill(body) {
		// The memory cgroup's first line of its OOM report: the victim
		// line after it ("Memory cgroup out of memory: Kill process
		// ...") states the kill; alone (a paste that kept the report's
		// head) it still says one.
		return true, false
	}
	if oomKill(body) || strings.HasPrefix(body, "Kernel panic - not syncing") {
		return true, true
	}
	if r, ok := strings.CutPrefix(body, "NVRM: "); ok {
		return nvrmFailure(r, msg)
	}
	if stamped || kernelDriverPrefix(body) || drmErrorMarker(body) {
		if deviceFailureWords(body) {
			return true, true
		}
		return drmErrorMarker(body) || deviceFollowUp(body), false
	}
	return false, false
}

// oomKill reports whether body is the OOM killer's line naming the
// process it kills or the one that invoked it: "Out of memory: Killed
// process 6154 (python)", "Memory cgroup out of memory: Killed process
// ...", older kernels' "Out of memory: Kill process 812 (java) score 950
// or sacrifice child" and bare "Killed process 7748 (python) total-vm:...",
// "python3 invoked oom-killer: gfp_mask=...". The reaper's "oom_reaper:
// reaped process" and the constraint and task-table lines are detail.
// The memory cgroup's "Task in ... killed as a result of limit of ..."
// (memcgLimitKill) says a kill too.
func oomKill(body string) bool {
	if body != "" && body[0] == 'T' {
		return memcgLimitKill(body)
	}
	if r, ok := strings.CutPrefix(body, "Memory cgroup out of memory: "); ok {
		body = r
	} else if r, ok := strings.CutPrefix(body, "Out of memory: "); ok {
		body = r
	}
	if r, ok := strings.CutPrefix(body, "Killed process "); ok {
		return len(r) > 0 && isDigitByte(r[0])
	}
	if r, ok := strings.CutPrefix(body, "Kill process "); ok {
		return len(r) > 0 && isDigitByte(r[0])
	}
	sp := strings.IndexByte(body[:min(len(body), 40)], ' ')
	return sp > 0 && strings.HasPrefix(body[sp:], " invoked oom-killer: ")
}

// memcgTaskIn opens the first line of the memory cgroup's OOM report on
// kernels before 5.0 (cgroup v1).
const memcgTaskIn = "Task in "

// memcgLimitKill reports whether body is the memory cgroup's first line
// of its OOM report, "Task in /docker/<id> killed as a result of limit of
// /docker/<id>": a cgroup path, one word or path after the limit. Its
// detail lines (the usage, the stats, the task table) are not reports.
func memcgLimitKill(body string) bool {
	r, ok := strings.CutPrefix(body, memcgTaskIn)
	if !ok || r == "" || r[0] != '/' {
		return false
	}
	path, limit, ok := strings.Cut(r, " killed as a result of limit of ")
	limit = strings.TrimRight(limit, " \r")
	return ok && !strings.ContainsAny(path, " \t") && limit != "" && !strings.ContainsAny(limit, " \t")
}

// nvrmFailure reports whether r, an NVRM line after "NVRM: " (msg its
// whole entry, whose continuation lines a multi-line report spreads over),
// reports a failed GPU, and whether it states the failure: an Xid, the
// GPU fallen off the bus, an adapter that failed to initialise, a client
// and kernel module of different versions; a probe that failed follows
// one. The module's start-up and its description of a device are not
// reports.
func nvrmFailure(r, msg string) (report, lead bool) {
	if strings.HasPrefix(r, "Xid ") {
		return true, !xidFollowUp(r)
	}
	w := msg[:min(len(msg), 600)]
	if nvrmBusFallen(r) {
		// Newer drivers print the Xid 79 line first, then this one.
		return true, false
	}
	for _, k := range [...]string{"fallen off the bus", "RmInitAdapter failed", "API mismatch", "failed to initialize"} {
		if strings.Contains(w, k) {
			return true, true
		}
	}
	return strings.Contains(w, "probe routine failed"), false
}

// xidFollowUpCodes are the Xid codes NVIDIA's Xid catalog gives for what
// the driver does after another error of the GPU: 43 (the GPU stopped
// processing, after a fault in the channel: 13, 31), 45 (preemptive
// cleanup, due to previous errors), 63 and 64 (a row remapping or page
// retirement recorded or failed, after an ECC error: 48, 94, 95), 154
// (the recovery action the GPU needs). Printed after the Xid that
// states the failure, they are its detail; alone they are still
// reports.
var xidFollowUpCodes = [...]string{"43", "45", "63", "64", "154"}

// xidFollowUp reports whether r, an NVRM line after "NVRM: " that opens
// with "Xid ", carries one of xidFollowUpCodes: "Xid (PCI:0000:3b:00):
// 43, pid=4242, name=python3, Ch 00000008".
func xidFollowUp(r string) bool {
	_, after, ok := strings.Cut(r[:min(len(r), 64)], "): ")
	if !ok {
		return false
	}
	code, _, ok := strings.Cut(after, ",")
	if !ok {
		return false
	}
	for _, c := range xidFollowUpCodes {
		if code == c {
			return true
		}
	}
	return false
}

// nvrmBusFallen reports whether r, an NVRM line after "NVRM: ", is newer
// drivers' second line of a GPU fallen off the bus, "GPU 0000:01:00.0:
// GPU has fallen off the bus.", which follows the Xid 79 line. Older
// drivers' only line, "GPU at PCI:0000:01:00: GPU has fallen off the
// bus.", states the failure itself.
func nvrmBusFallen(r string) bool {
	bus, rest, ok := strings.Cut(strings.TrimPrefix(r, "GPU "), ": ")
	return ok && len(r) > 4 && r[:4] == "GPU " && len(bus) <= 16 && strings.Count(bus, ":") == 2 && !strings.Contains(bus, " ") &&
		strings.HasPrefix(rest, "GPU has fallen off the bus")
}

// drmErrorMarker reports whether body carries the DRM core's error
// marker: Linux's "*ERROR*" after the "[drm:function [module]]" or "[drm]"
// tag, FreeBSD's "[drm ERROR :function]" tag.
func drmErrorMarker(body string) bool {
	if strings.HasPrefix(body, "[drm ERROR :") {
		return true
	}
	i := strings.Index(body[:min(len(body), 160)], "] *ERROR* ")
	return i > 0 && strings.Contains(body[:i], "[drm")
}

// deviceFailureWords reports whether body, a kernel line (stamped, or a
// GPU or PCIe driver's), says a device hung, faulted or failed: a ring or
// job timeout, a hang, a GPU page or protection fault, an uncorrected
// PCIe error. A corrected error and a reset that succeeded are not.
func deviceFailureWords(body string) bool {
	w := body[:min(len(body), 240)]
	switch {
	case strings.Contains(w, "ring ") && strings.Contains(w, " timeout"):
		return true
	case strings.Contains(w, "GPU HANG"), strings.Contains(w, "GPU hang"),
		strings.Contains(w, "Timedout job"), strings.Contains(w, "GPU fault detected"),
		strings.Contains(w, "] page fault (src_id"), strings.Contains(w, "] retry page fault (src_id"),
		strings.Contains(w, "PROTECTION_FAULT_STATUS:0x"), strings.Contains(w, "Fatal error during GPU init"):
		return true
	case strings.Contains(w, "AER: ") || strings.Contains(w, "PCIe Bus Error: "):
		return strings.Contains(w, "Uncorrected") || strings.Contains(w, "Uncorrectable")
	}
	return false
}

// deviceFollowUp reports whether body, a kernel line, is a GPU driver's
// recovery from a failure it reported before: a reset begun ("GPU reset
// begin!", i915's "Resetting chip for ..."), or a reset that failed.
func deviceFollowUp(body string) bool {
	w := body[:min(len(body), 240)]
	return strings.Contains(w, "GPU reset begin") || strings.Contains(w, "Resetting chip") ||
		strings.Contains(w, "GPU reset") && strings.Contains(w, "failed")
}
