package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// Python's faulthandler prints a dying process's frames in a shape of its
// own, innermost first, with no comma before "in" and no source line:
//
//	Fatal Python error: Segmentation fault
//
//	Current thread 0x00007f95ca716740 (most recent call first):
//	  File "/sgl/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap
//	  File "/usr/lib/python3.10/multiprocessing/process.py", line 108 in run
//
//	Extension modules: numpy.core._multiarray_umath, torch._C, ... (total: 45)
//
// The entry package reads the block from its header on (the catalog's
// fatal-error records). A dump that lost only its "Fatal Python error"
// line still names its "Current thread", which faulthandler prints only
// when a fatal error or a signal stopped the process, never in the dump
// of a process that makes no progress (hang.go): a native crash headed by
// that thread's frames. A paste or a collector that lost the header
// leaves the frame lines alone, each an entry of its own with
// nothing that says it failed, or the extension-module list alone, which
// faulthandler prints only when a fatal error ends the process. Both are
// a native crash: critical, headed by the frames, innermost first, and the
// printed line of the frame where the process's own work stood; the
// module list by its own line. Both are fragments of the crash's report:
// its "Fatal Python error" line or another crash line of the burst leads
// them (internal/incident); alone, each is the incident.

// faultRun is what a Stream keeps of a run of faulthandler's frame lines
// printed without their header: the frames so far, as "func (file:line)",
// and as printed, its own strings; done once the run was read.
type faultRun struct {
	frames, printed []string
	done            bool
}

// reset ends the run.
func (r *faultRun) reset() {
	r.frames, r.printed, r.done = r.frames[:0], r.printed[:0], false
}

// faultFrame reads t, a line trimmed, as faulthandler's frame line: `File
// "<path>", line <n> in <name>` (n is "???" when faulthandler does not
// know it), and returns the frame as "func (file:line)", the file as
// shortPath leaves it. A traceback's frame (a comma before "in") is none.
func faultFrame(t string) (string, bool) {
	r, ok := strings.CutPrefix(t, `File "`)
	if !ok {
		return "", false
	}
	q := strings.Index(r, `", line `)
	if q <= 0 || q > maxFaultPath {
		return "", false
	}
	file := r[:q]
	r = r[q+len(`", line `):]
	j := 0
	for j < len(r) && isDigitByte(r[j]) {
		j++
	}
	if j == 0 && strings.HasPrefix(r, "???") {
		j = 3
	}
	ln := r[:j]
	fn, ok := strings.CutPrefix(r[j:], " in ")
	if j == 0 || !ok || fn == "" || len(fn) > maxFaultFunc || strings.ContainsAny(fn, " \t\"") {
		return "", false
	}
	return fn + " (" + shortPath(file) + ":" + ln + ")", true
}

// maxFaultPath and maxFaultFunc bound a frame line's path and function
// name (faulthandler cuts names at 500 bytes, paths at 500 too).
const (
	maxFaultPath = 1024
	maxFaultFunc = 512
)

// faultFramesAt reads entry e, a quiet one of stream st whose message m
// (trimmed) opens with `File "`, as a line of faulthandler's frames without
// their header (see above). It fills d and reports true when the run holds
// hangHeadlineFrames frames, one of them the process's own (not only the
// standard library's waits, as a helper thread's tail is); d's strings are
// then st's own.
func (a *Analyzer) faultFramesAt(d *Diagnosis, st *Stream, e *entry.Entry) bool {
	r := &st.fault
	n := 0
	for line := range strings.Lines(e.Text) {
		if n++; n > MaxStackFrames {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		for k := 0; t != "" && k < MaxStackFrames; k++ {
			// Frame lines a reader rejoined as one wrapped line
			// (behind a tag glued to each, their indentation reads
			// as a wrap's): a frame's function has no space, so
			// ` File "` opens the next one.
			one, rest, _ := strings.Cut(t, ` File "`)
			if rest != "" {
				rest = `File "` + rest
			}
			f, ok := faultFrame(one)
			if !ok {
				r.reset()
				return false
			}
			t = rest
			if r.done || len(r.frames) >= hangHeadlineFrames {
				continue
			}
			r.frames = append(r.frames, strings.Clone(f))
			r.printed = append(r.printed, strings.Clone(cutRunes(one, maxPrintedFrame)))
		}
	}
	if r.done || len(r.frames) < hangHeadlineFrames {
		return false
	}
	r.done = true
	if !runsOwnCode(r.frames) {
		return false
	}
	*d = Diagnosis{PatternErrors: d.PatternErrors}
	a.faultCrash(d, e, r.frames, r.printed, faultFramesLabel)
	return true
}

// The headlines' openings of faultCrash: faulthandler's frames without
// any header, and its dump whose current thread says a fatal error
// stopped it, without the error's line.
const (
	faultFramesLabel  = "native crash, faulthandler's frames without their header: "
	faultCurrentLabel = "native crash, faulthandler's current thread without its 'Fatal Python error' line: "
)

// currentThreadDump reports whether text, a faulthandler dump without
// its "Fatal Python error" line, names the thread that was running:
// faulthandler does so ("Current thread 0x... (most recent call first):")
// when a fatal error or a signal stops the process, never in the dump
// dump_traceback_later prints when a process makes no progress ("Timeout
// (0:05:00)!", then "Thread 0x..." blocks only), which is a hang.
func currentThreadDump(text string) bool {
	i := strings.Index(text, "Current thread 0x")
	if i < 0 {
		return false
	}
	return i == 0 || text[i-1] == '\n' || text[i-1] == ' ' || text[i-1] == '\t'
}

// faultCrash fills d for faulthandler's frames printed without their
// header, or its dump whose current thread a fatal error stopped: a
// native crash, critical, headed by label, the frames and the printed
// line of the frame where the process's own work stood.
func (a *Analyzer) faultCrash(d *Diagnosis, e *entry.Entry, stack, printed []string, label string) {
	d.Role = patterns.RoleCause
	d.Signal = SignalNative
	d.Severity = patterns.SeverityCritical
	// What is left of a fatal error's report: the rest of it (its
	// "Fatal Python error" line, a crash handler's banner) leads when in
	// sight.
	d.Fragment = true
	var sig strings.Builder
	for _, f := range stack {
		// Function and file, not the line, as a hang's key.
		sf := stackFrames([]string{f})
		sig.WriteString(sf[0].Func + "|" + sf[0].File + ";")
	}
	d.Headline = label + strings.Join(stack, " < ")
	if k := workFrame(stack); k < len(printed) {
		d.Headline += ": " + printed[k]
	}
	d.Key = "unclassified:" + LineSignature(string(SignalNative), "faulthandler;"+sig.String())
	d.Triage = TriageOf(e, nil)
	triageStack(&d.Triage, stack)
	d.Triage.Family = FamilyNative
}

// extensionModulesMarker opens faulthandler's list of the extension
// modules a process had loaded, which it prints only after a fatal
// error's frames (Python 3.10 on).
const extensionModulesMarker = "Extension modules: "

// maxModuleItems bounds the items extensionModules reads.
const maxModuleItems = 64

// extensionModules reports whether l is faulthandler's list of extension
// modules: the marker, then at least two module names (dotted
// identifiers) separated by ", ", each one whole but the last, which a
// cut may end mid-name, and then, when not cut, " (total: N)". A line
// that names one thing after the marker, or words, is prose.
func extensionModules(l string) bool {
	r, ok := strings.CutPrefix(strings.TrimSpace(l), extensionModulesMarker)
	if !ok {
		return false
	}
	items := 0
	for items < maxModuleItems {
		j := 0
		for j < len(r) && (isAlnum(r[j]) || r[j] == '_' || r[j] == '.') {
			j++
		}
		if j == 0 || !ascii.Letter(r[0]) && r[0] != '_' {
			return false
		}
		items++
		r = r[j:]
		switch {
		case r == "":
			// Cut after a name, or mid-name.
			return items >= 2
		case strings.HasPrefix(r, ", "):
			r = r[2:]
		case strings.HasPrefix(r, " (total: "):
			t := strings.TrimSuffix(r[len(" (total: "):], ")")
			return items >= 2 && ascii.Digits(t)
		default:
			return false
		}
	}
	return true
}
