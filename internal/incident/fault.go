package incident

import (
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// One device fault, several reports. A GPU or NPU that faults is reported
// first by whoever sees the fault (the ROCm runtime's HSA exception or
// memory access fault, the driver's Xid, a kernel library's check of a
// CUDA call) and then by every call the process makes on the dead
// context: the framework's "CUDA error: unspecified launch failure", "HIP
// error: an illegal memory access was encountered", torch's
// AcceleratorError, an ECC error's sticky status. The later errors say
// only that the context is gone; they are the same fault. So a classified
// device crash printed after another device failure of a different
// record (any cause a record tags for the device: a crash, the runtime's
// queue abort, a kernel the device could not run), in the same source,
// within its burst and within a few lines of it (borrowedGap), is listed
// in the earlier one's incident, which leads and takes its exception. So
// is one printed after a native line no record names that says what
// failed on the device (firstReportOf): a kernel's failed assertion, a
// library's located status, a dispatch kernel's timeout. Two faults far apart in a source, or of two
// sources, stay apart; so do an out of memory (the device is alive), a
// kernel's assertion (the data was wrong, not the device) and a network
// failure, which the other rules order.

// deviceTags are the tags of a device's own failure; faultTags those of a
// crash of it.
var (
	deviceTags = [...]string{"gpu", "npu"}
	faultTags  = [...]string{"crash", "hardware"}
)

// deviceCrash reports whether r is the record of a device's crash (see
// above): a cause tagged for a device and a crash or a hardware fault, not
// for an allocation failure, an assertion or the network.
func deviceCrash(r *sinks.Record) bool {
	device, fault := deviceTagged(r)
	return device && fault
}

// deviceFailure reports whether r is the record of a failure of a device
// that a crash after it may report again: a cause tagged for a device, not
// for an allocation failure, an assertion or the network.
func deviceFailure(r *sinks.Record) bool {
	device, _ := deviceTagged(r)
	return device
}

// deviceTagged reports whether r, an informed cause not tagged for an
// allocation failure, an assertion or the network, is tagged for a device,
// and whether for a crash or a hardware fault of it.
func deviceTagged(r *sinks.Record) (device, fault bool) {
	if r.ID == "" || r.Role != string(patterns.RoleCause) || len(r.Solutions) == 0 {
		return false, false
	}
	for _, t := range r.Tags {
		switch t {
		case "oom", "assert", "network":
			return false, false
		}
		for _, d := range deviceTags {
			device = device || t == d
		}
		for _, f := range faultTags {
			fault = fault || t == f
		}
	}
	return device, fault
}

// faultBefore returns the incident of the device failure that the
// classified device crash o, of the burst b, reports again, or nil (see
// above): the earliest of its source and burst, of another record, that
// ended at most borrowedGap bytes before o began.
func (g *Grouper) faultBefore(o *Occurrence, b burst) *group {
	if b.source == "" || !deviceCrash(&o.Alert.Record) {
		return nil
	}
	var best *group
	for _, m := range g.sourceCauses(sourceKey{b.scope, b.source}) {
		c := m.gr
		if c.Alert.Record.ID == o.Alert.Record.ID || !deviceFailure(&c.Alert.Record) || c.End > b.off ||
			b.off-c.End > borrowedGap || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	for _, m := range g.sourceMembers(g.failBySource, sourceKey{b.scope, b.source}) {
		c := m.gr
		if !firstReportOf(c, o, b) || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	for _, m := range g.members(g.genByScope, b.scope) {
		c := m.gr
		if !c.Generic || c.Source != b.source || !firstReportOf(c, o, b) || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// firstReportOf reports whether c, an open incident of o's source, is the
// first report of the device fault the classified crash o, of burst b,
// reports again, in a wording no record has: a native library's line (a
// kernel's failed assertion, a communication library's located status, a
// trap's timeout) or a plain line of no writer that says more than that
// something failed (plainReport: DeepEP's kernels print their timeouts
// with the device's printf), that says what failed, unannounced yet, an error or
// worse, printed at most borrowedGap bytes before o by the same process
// and rank. A device that trapped in a kernel answers every later call
// with "unspecified launch failure" or "an illegal memory access": the
// line before says why. A line of the process's death ("terminate called
// after throwing an instance of ...", faulthandler's, the shell's) says
// how it ended, never what failed first. inBurst is the caller's.
func firstReportOf(c *group, o *Occurrence, b burst) bool {
	return (c.Native && !c.Generic || plainReport(c)) && c.Settling && c.Alert.Record.ID == "" && !c.Consequence && !c.Fragment && canBeRoot(c) &&
		c.NativeKind != entry.NativeCompiler && !deathShape(c.NativeKind) && c.End <= b.off && b.off-c.End <= borrowedGap && sameProcess(c.Process, o.Process) &&
		(c.Alert.FirstRank == "" || o.Rank == "" || c.Alert.FirstRank == o.Rank) && !vagueNative(lineOf(c))
}

// deathShape reports whether the native shape kind is a process's death:
// C++'s terminate, Python's faulthandler, the shell's report of a signal.
func deathShape(kind string) bool {
	switch kind {
	case entry.NativeTerminate, entry.NativeFaulthandler, entry.NativeShell:
		return true
	}
	return false
}

// plainReport reports whether c is a generic line of no writer (no level,
// no logger's header: a kernel's printf, DeepEP's "dispatch NVL receiver
// timeout, channel: 6, ...") that says more than that something failed. A
// writer's ERROR line (a router's 500 for the request the crash failed) is
// what another component saw.
func plainReport(c *group) bool {
	return c.Generic && c.Writer == "" && !vagueLine(c)
}
