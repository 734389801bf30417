package incident

import (
	"cmp"
	"strings"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/sinks"
)

// A native event begins where its library says it began. A native library
// reports one failure of one process as a few lines of its own: what went
// wrong first, then what it did about it and what broke because of it
// (NCCL's "Cuda failure 'out of memory'" at enqueue.cc, then its
// "Cuda failure 'invalid resource handle'" at the next call; a transfer
// engine's "Failed to open device mlx5_8", then "Failed to initialize the
// transport"). When a record names the first line, the later ones join
// it (nativeEvent); when none does, a record naming a later line must not
// take the lead from it: that record reads a consequence of the first
// line, in words it happens to know. So a classified native line printed
// after an unclassified line of the same library (its native shape) and
// process (when both lines name theirs, as NCCL's host:pid:tid prefix
// does), in the same source, within a few lines
// (borrowedGap) and the burst, is listed in the first line's incident,
// which leads, when that first line's own words say what failed (not only
// that something failed: analysis.VagueFailure of its matched text, not
// of a headline a label was put in front of) and it is a warning or worse
// (NCCL reports its failures at WARN). A first line announced already, one of
// another library or process, or one printed further away keeps its own
// incident, and the classified line leads its own as before; so does a
// first line of another rank, one whose message ends where no message
// does ("Missing CO for these ISAs -", "Missing CO for": its words go on
// on lines a wrap broke off; endsOpen), one that the later line repeats
// and goes on from (goesOnIn): the same report, cut short, and one that
// ends quoting a child's output the later line is a line of (see
// quoted.go). A build's lines are read the other way round: the build
// tool names the step that failed first ("FAILED: cpu_adam.o") and the
// compiler's diagnostic after it says why, so compiler lines
// (entry.NativeCompiler) are left to the rules before. The process's death
// (faulthandler's "Fatal Python error: Segmentation fault", the shell's
// "Aborted (core dumped)") ends any library's event and names none of its
// own, so it is such a later line after a first line of any library
// (diesOf). Whether a first line only says that something failed is read
// on its message too, past the prefix that names its host and file
// (vagueNative).

// eventBegunBefore returns the incident of the unclassified native line
// that began the event the classified native occurrence o, of burst b,
// is a later line of (see above); nil when there is none.
func (g *Grouper) eventBegunBefore(o *Occurrence, b burst) *group {
	if b.source == "" || b.kind == "" || b.kind == entry.NativeCompiler {
		return nil
	}
	o.Complete()
	later := lineOfAlert(&o.Alert)
	var best *group
	consider := func(members []member) {
		for _, m := range members {
			c := m.gr
			if !beganNativeEvent(c, b, o.Process) || c.Alert.FirstRank != "" && o.Rank != "" && c.Alert.FirstRank != o.Rank ||
				!g.inBurst(c, b) || vagueNative(lineOf(c)) || endsOpen(lineOf(c)) || goesOnIn(lineOf(c), later) ||
				analysis.QuotesOutput(cmp.Or(c.Alert.Entry, lineOf(c))) {
				continue
			}
			if best == nil || c.beganBefore(best) {
				best = c
			}
		}
	}
	// A native error line is a failure (failBySource); a native warning
	// line, generic (genByScope): NCCL prints its failures as warnings.
	consider(g.sourceMembers(g.failBySource, sourceKey{b.scope, b.source}))
	consider(g.members(g.genByScope, b.scope))
	return best
}

// beganNativeEvent reports whether c can be the first line of the native
// event of the burst b, whose later line names the process process: an
// unclassified, settling line of the same library, source and process,
// printed at most borrowedGap before it, a warning or worse (see above).
// The cheap tests only; inBurst and the headline's vagueness are the
// caller's.
func beganNativeEvent(c *group, b burst, process string) bool {
	return c.Native && (c.NativeKind == b.kind || diesOf(b.kind, c.NativeKind)) && c.Source == b.source && c.Alert.Record.ID == "" && !c.Consequence && !c.Fragment &&
		c.Settling && (c.Process == "" || process == "" || c.Process == process) &&
		c.End <= b.off && b.off-c.End <= borrowedGap &&
		sinks.SeverityRank(c.Alert.Record.Severity) >= sinks.SeverityRank("warning")
}

// minCutTail is how many bytes a line's end must have for goesOnIn to
// look for them in a later line, and cutTail how many it looks for.
const (
	minCutTail = 8
	cutTail    = 20
)

// goesOnIn reports whether the later line repeats the end of the line
// first: first is the same report cut short (a terminal or a paste that
// broke the line at its width, the rest not joined back), and the record
// that reads the later, whole report names both.
func goesOnIn(first, later string) bool {
	first = strings.TrimSpace(firstLine(first))
	if len(first) < minCutTail {
		return false
	}
	return strings.Contains(later, first[len(first)-min(len(first), cutTail):])
}

// endsOpen reports whether the first line of line ends where its message
// cannot: on a separator that announces more (a colon, a dash, a comma),
// or on a word a sentence never ends with (a preposition, an article, a
// conjunction: "Missing CO for"). Its words go on on the next lines, which
// a wrap broke off.
func endsOpen(line string) bool {
	line = strings.TrimSpace(firstLine(line))
	if line == "" {
		return false
	}
	switch line[len(line)-1] {
	case ':', '-', ',':
		return true
	}
	last := line[strings.LastIndexAny(line, " \t")+1:]
	for _, w := range openWords {
		if strings.EqualFold(last, w) {
			return true
		}
	}
	return false
}

// openWords are the words no message ends with: what follows them was cut.
var openWords = [...]string{"for", "to", "of", "in", "on", "at", "with", "by", "from", "the", "a", "an", "and", "or"}

// diesOf reports whether a classified line of native shape later, printed
// after an unclassified native line of shape first, is the process's death
// that ends first's event: Python's faulthandler ("Fatal Python error:
// Segmentation fault") or the shell ("Aborted (core dumped)") says how the
// process died, after any library's line that says why (a UCX error, a
// kernel's failed assertion), and names no library of its own. A compiler's
// diagnostic is a build's, never a running process's.
func diesOf(later, first string) bool {
	switch later {
	case entry.NativeFaulthandler, entry.NativeShell:
		return first != "" && first != entry.NativeCompiler
	}
	return false
}

// vagueNative reports whether the native line only says that something
// failed (analysis.VagueFailure), read on the whole line and on its
// message after the library's level word: "NCCL WARN Operation failed"
// and "UCX  ERROR send failed" say no more than their message does,
// whatever their prefix names (a host, a pid, a source file). A message
// that names the call that failed (an identifier: "Call to ibv_create_cq
// failed") or goes on past a few words ("... with error Cannot allocate
// memory") or names its reason in words (givesReason) says what failed.
func vagueNative(line string) bool {
	msg := nativeMessage(line)
	if givesReason(msg) {
		return false
	}
	if analysis.VagueFailure(line) {
		return true
	}
	return !strings.ContainsRune(msg, '_') && len(strings.Fields(msg)) <= maxVagueNativeWords && analysis.VagueFailure(msg)
}

// givesReason reports whether msg names its reason in words: "Failed to
// mount segment due to rpc error".
func givesReason(msg string) bool {
	return strings.Contains(msg, " due to ") || strings.Contains(msg, " because ")
}

// maxVagueNativeWords is the most words a native message that only says
// something failed has ("Operation failed", "UCX send failed for peer").
const maxVagueNativeWords = 5

// nativeMessage is the message of a native library's line: what follows
// its level word (NCCL's "WARN", UCX's "ERROR", padded or not) or, in a
// glog line, its location's closing bracket; the whole line when it has
// neither.
func nativeMessage(line string) string {
	line = firstLine(line)
	for _, level := range [...]string{" WARN ", " ERROR ", " FATAL "} {
		if i := strings.Index(line, level); i >= 0 {
			return strings.TrimSpace(line[i+len(level):])
		}
	}
	if glogHeader(line) {
		if i := strings.Index(line, "] "); i >= 0 {
			return strings.TrimSpace(line[i+2:])
		}
	}
	return line
}

// glogHeader reports whether line opens with glog's level letter and
// date ("E0115 05:20:19.945159").
func glogHeader(line string) bool {
	if len(line) < 6 || !strings.ContainsRune("IWEF", rune(line[0])) {
		return false
	}
	for _, c := range []byte(line[1:5]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return line[5] == ' '
}
