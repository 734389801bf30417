package incident

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// Where a signal struck. A runtime's fatal signal handler (abseil's,
// which Ray and other C++ runtimes install) reports a crash first and
// says where: "*** SIGSEGV received at time=... on cpu 48 ***", then
// "PC: @ 0x7f7e7ba49b8a (unknown) addProxyOpIfNeeded()", the function
// the process was in. Python's faulthandler then reports the same death
// in its own words ("Fatal Python error: Segmentation fault") and, when
// its dump was not cut, the Python frames that led there. The two lines
// are one death. The later one leads (a classified cause, the handler's
// record a consequence) when it shows its frames, or when the handler's
// PC names no function ("(unknown)") or only the signal's own machinery
// ("raise", "abort"). When the handler named the function and the death
// came without a frame of its own, the death says no more than how the
// process ended: the handler's report leads, and the death is listed in
// its incident (siteBefore). Another signal, another process or rank, a
// report announced already or one printed further away keep their own.

// signalReport reports whether r is the record of a report of a fatal
// signal, which says what follows a failure: a consequence tagged signal
// ("*** SIGSEGV received at time=...", the shell's "Aborted (core
// dumped)"). Only a handler's report has a PC frame (crashSite).
func signalReport(r *sinks.Record) bool {
	return r.ID != "" && r.Role == string(patterns.RoleConsequence) && slices.Contains(r.Tags, "signal")
}

// siteBefore returns the settling incident of the signal handler's report
// that the occurrence o, a record of the process's death by a signal
// (deathRecord) with no frame of its own, says again (see above), in o's
// burst b; nil when there is none.
func (g *Grouper) siteBefore(o *Occurrence, b burst) *group {
	if b.source == "" || !deathRecord(&o.Alert.Record) {
		return nil
	}
	o.Complete()
	if strings.Contains(o.Alert.Entry, `File "`) {
		return nil
	}
	var best *group
	for _, m := range g.scopeConsequences(b.scope) {
		c := m.gr
		if !c.Signal || c.Site == "" || !c.Settling || c.Sent != 0 || c.Source != b.source || c.End > b.off || b.off-c.End > borrowedGap ||
			c.Alert.FirstRank != "" && o.Rank != "" && c.Alert.FirstRank != o.Rank ||
			c.Process != "" && o.Process != "" && c.Process != o.Process || !sameSignal(c.Alert.Match.Text, o.Alert.Match.Text) {
			continue
		}
		if best == nil || c.End > best.End {
			best = c
		}
	}
	return best
}

// signalWords pairs a signal's name with the words faulthandler and the
// shell report a death by it in.
var signalWords = [...][2]string{
	{"SIGSEGV", "segmentation fault"},
	{"SIGABRT", "abort"},
	{"SIGBUS", "bus error"},
	{"SIGFPE", "floating point exception"},
	{"SIGILL", "illegal instruction"},
}

// sameSignal reports whether the handler's report report ("*** SIGSEGV
// received ...") and the death death ("Fatal Python error: Segmentation
// fault") name the same signal.
func sameSignal(report, death string) bool {
	death = strings.ToLower(death)
	for _, s := range signalWords {
		if strings.Contains(report, s[0]) {
			return strings.Contains(death, s[1])
		}
	}
	return false
}

// crashSite returns the function the PC frame of a signal handler's
// report in entry names ("PC: @ 0x7f7e7ba49b8a (unknown)
// addProxyOpIfNeeded()" names addProxyOpIfNeeded()), or "" when it has
// none, names none ("(unknown)"), or names only the signal's own
// machinery (signalMachinery).
func crashSite(entry string) string {
	i := strings.Index(entry, "PC: @")
	if i < 0 {
		return ""
	}
	line := entry[i+len("PC: @"):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	f := strings.Fields(line)
	// The address, then the frame's size or "(unknown)", then the
	// function.
	if len(f) < 3 || !strings.HasPrefix(f[0], "0x") {
		return ""
	}
	fn := strings.Join(f[2:], " ")
	if fn == "(unknown)" || signalMachinery(fn) {
		return ""
	}
	return fn
}

// signalMachinery reports whether fn is a function that raises or
// delivers a signal rather than one that failed: a PC in abort() or
// raise() says the process aborted itself, which its death says too.
func signalMachinery(fn string) bool {
	name := strings.TrimSuffix(fn, "()")
	if k := strings.LastIndex(name, "::"); k >= 0 {
		name = name[k+2:]
	}
	name = strings.TrimLeft(name, "_")
	for _, m := range [...]string{"raise", "GI_raise", "abort", "GI_abort", "gsignal", "pthread_kill", "pthread_kill_implementation", "pthread_kill_internal", "terminate", "restore_rt", "kill"} {
		if name == m {
			return true
		}
	}
	return false
}
