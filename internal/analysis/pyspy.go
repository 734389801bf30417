package analysis

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/textbuf"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// MaxStackFrames bounds the hung thread's frames a diagnosis carries.
const MaxStackFrames = 8

// HangTag is the tag of records that name a hang (a watchdog timeout):
// their diagnosis carries the hung thread's frames from the py-spy dump
// sglang logs just before the timeout line.
const HangTag = "hang"

// Stream is what the analysis remembers of one log stream between its
// entries: the hung thread of the latest py-spy dump not yet attached to a
// hang. The caller keeps one per stream (one source and stream, as for
// assemblers); the zero value is ready. Its state is bounded.
type Stream struct {
	stack []string
	// inDump is set while the entries are the threads of one py-spy dump
	// printed without sglang's header: only its first thread is a hang.
	inDump bool
	// said is the previous entry's message when it was a bare line that
	// reads as an error ("Unexpected transfer worker error for room
	// 17"): what logger.exception printed before a traceback that lost
	// its exception line. Reused memory, bounded by maxSaid.
	said []byte
	// infoThread is the thread id of the previous entry when it was a
	// glog INFO line: a library going about its start-up. Reused memory,
	// bounded by maxThreadID.
	infoThread []byte
	// futureType and futureMsg are the exception an asyncio future's
	// repr named in the previous entry ("future: <Task finished ...
	// exception=ValueError('...')>"), for the traceback printed after
	// it (see futureException); "" when it named none. The message is
	// bounded by maxSaid.
	futureType, futureMsg string
	// piece says the previous entry was a traceback's frame, source or
	// caret line logged at a failure's level as a record of its own, or
	// a line announcing the error after it (see piece.go): an exception
	// line alone after it ends that traceback.
	piece bool
	// imported is the last line of the stream logged at a warning's
	// level that says an import failed (a guarded import that went on;
	// see undefined.go), for the code error that later names what it
	// should have defined. Reused memory, bounded by maxImported.
	imported []byte
	// probing says a probe's 503 answer was let pass as the server's
	// start-up (probe.go), first at probeSince (zero when its line had
	// no time); ready that a line said the server is ready since.
	probing, ready bool
	probeSince     time.Time
	// box is the help box the stream is in (mpihelp.go), gdb the gdb
	// dump (gdbdump.go).
	box helpBox
	// rootCause says the previous entry ended with the heading of torch
	// elastic's root cause block (summary.go).
	rootCause bool
	gdb       gdbDump
	// fault is the run of faulthandler's frame lines printed without
	// their header the stream is in (faultframes.go).
	fault faultRun
	// goRegs is the Go runtime's register dump the stream is in
	// (goregs.go), mix the run of interleaved faulthandler frames
	// (faultmix.go).
	goRegs goRegRun
	mix    faultMix
	// wait is the run of a launcher's waiting lines the stream is in
	// (waitready.go).
	wait waitRun
}

// quietShape reads e, an entry decide found no failure in, as a line of a
// shape that spans entries, each quiet alone: an MPI help box
// (mpihelp.go), a gdb dump (gdbdump.go), faulthandler's frames without
// their header (faultframes.go). It fills d and reports true when
// e completes one that is a failure; d's strings are then st's own, never
// e's. Most entries cost the look at their first byte.
func (a *Analyzer) quietShape(d *Diagnosis, st *Stream, e *entry.Entry) bool {
	m := e.Message
	if len(m) > 0 && (m[0] == ' ' || m[0] == '\t') {
		m = strings.TrimLeft(m, " \t")
	}
	if m == "" {
		return false
	}
	if c := m[0]; c == 'W' || c == 'w' || st.wait.n > 0 {
		// A launcher's waiting line (waitready.go).
		if a.waitAt(d, st, e, m) {
			return true
		}
	}
	if c := m[0]; c == '-' || c == 'I' || st.box.open || e.Lines > 1 && strings.Contains(e.Raw, boxRule) {
		if st.helpBoxAt(d, e) {
			return true
		}
	}
	if c := m[0]; c == '/' || c == ',' || c == '"' || c == 'F' && strings.HasPrefix(m, "File ") || st.mix.lines > 0 {
		// Several processes' faulthandler frames interleaved
		// (faultmix.go).
		if a.faultMixAt(d, st, e) {
			return true
		}
	}
	if m[0] == 'F' && strings.HasPrefix(m, `File "`) {
		// A frame line of faulthandler's without its header
		// (faultframes.go); a traceback's frame is no quiet entry.
		st.gdb.reset()
		return a.faultFramesAt(d, st, e)
	}
	if len(st.fault.frames) > 0 || st.fault.done {
		st.fault.reset()
	}
	if c := m[0]; c == 'r' || c == 'c' || c == 'p' || c == 'f' || st.goRegs.prev != "" {
		if a.goDumpAt(d, st, e, m) {
			return true
		}
	}
	switch c := m[0]; {
	case c == '#' || c == 'T' || len(st.gdb.frames) > 0 || st.gdb.done:
		return a.gdbDumpAt(d, st, e, m)
	}
	return false
}

// maxThreadID bounds the glog thread id a Stream keeps.
const maxThreadID = 24

// maxSaid bounds the message a Stream keeps of the previous entry.
const maxSaid = 300

// note remembers what a fragment after e may need of e: its message, when
// e is a bare line (no header, no level, one line) that reads as an error.
// It copies into reused memory: e may be lent.
func (st *Stream) note(e *entry.Entry) {
	st.noteReady(e)
	st.rootCause = rootCauseAhead(e)
	st.infoThread = st.infoThread[:0]
	if e.Native == entry.NativeGlog && e.Level == "INFO" {
		if id := glogThread(e.Text); len(id) <= maxThreadID {
			st.infoThread = append(st.infoThread, id...)
		}
	}
	// The level first, and INFO (most entries) and no level without a
	// call: levelSeverity reads neither as an error.
	l := e.Level
	st.piece = l != "INFO" && l != "" && e.Traceback == nil && e.Native == "" &&
		levelSeverity(l).Rank() >= patterns.SeverityError.Rank() && pointsOnly(e.Message)
	st.futureType, st.futureMsg = "", ""
	if m := e.Message; m != "" && (m[0] == 'f' || m[0] == 'T' || m[0] == 'F') && // the first bytes of the lines below: most messages start otherwise
		(strings.HasPrefix(m, futureMarker) || strings.HasSuffix(FirstLine(m), neverRetrieved)) {
		if typ, msg, ok := futureException(e.Text); ok && len(typ) <= maxSaid {
			st.futureType, st.futureMsg = strings.Clone(typ), strings.Clone(cutRunes(msg, maxSaid))
		}
	}
	if importWarning(e) {
		st.imported = append(st.imported[:0], e.Message...)
	}
	st.said = st.said[:0]
	if e.Format != entry.FormatNone || e.Level != "" || e.Traceback != nil ||
		len(e.Message) > maxSaid || e.Message == "" || e.Message[0] == ' ' ||
		strings.IndexByte(strings.TrimSpace(e.Text), '\n') >= 0 || !errorWords(e.Message) {
		// One line (a blank line after it, as a double-spaced paste
		// prints, is still one line).
		return
	}
	st.said = append(st.said, e.Message...)
}

// errorWords reports whether a line of at most maxSaid bytes reads as an
// error report. It lowers the line into a buffer on the stack: it runs for
// every bare line of a stream.
func errorWords(s string) bool {
	var buf [maxSaid]byte
	n := copy(buf[:], s)
	for i := range n {
		if c := buf[i]; 'A' <= c && c <= 'Z' {
			buf[i] = c + 'a' - 'A'
		}
	}
	l := buf[:n]
	for _, w := range [...]string{"error", "fail", "exception", "unexpected", "cannot", "could not", "invalid"} {
		if bytes.Contains(l, []byte(w)) {
			return true
		}
	}
	return false
}

// futureMarker opens the line of asyncio's report of an exception no one
// retrieved that holds the future's repr; neverRetrieved ends the report's
// first line ("Task exception was never retrieved", "Future exception
// ...").
const (
	futureMarker   = "future: <"
	neverRetrieved = "exception was never retrieved"
)

// pyspyMarker opens sglang's py-spy dump records: "Pyspy dump for PID 123
// (py-spy dump --pid 123):" and the older "Pyspy dump for PID 123:".
const pyspyMarker = "Pyspy dump for PID "

// AnalyzeStream is Analyze for an entry of a stream st: a py-spy dump is
// remembered, and the next hang diagnosis of the stream carries its hung
// thread's frames in Stack. A nil st is Analyze.
func (a *Analyzer) AnalyzeStream(st *Stream, e *entry.Entry) (Diagnosis, bool) {
	var d Diagnosis
	ok := a.analyzeStream(&d, st, e)
	return d, ok
}

// analyzeStream is AnalyzeStream writing the Diagnosis to d.
func (a *Analyzer) analyzeStream(d *Diagnosis, st *Stream, e *entry.Entry) bool {
	a.prev = st
	a.searchEntry(e)
	ok := a.decide(d, e)
	if !ok && st != nil && a.quietShape(d, st, e) {
		st.inDump = false
		st.note(e)
		return true
	}
	return a.streamDecided(d, st, e, ok)
}

// streamDecided is analyzeStream once AnalyzeInto said ok of e.
func (a *Analyzer) streamDecided(d *Diagnosis, st *Stream, e *entry.Entry, ok bool) bool {
	if ok {
		a.markNotice(d, e)
	}
	if st == nil {
		return ok
	}
	if ok && d.Cause == nil && d.Signal == SignalLevel && st.probeStarting(e) {
		// A probe's 503 answer while the server starts (probe.go).
		*d = Diagnosis{PatternErrors: d.PatternErrors}
		st.inDump = false
		st.note(e)
		return false
	}
	if ok && d.Signal == SignalHang && pySpyThread(e) {
		// py-spy prints one block per thread: the dump is one hang,
		// headed by its first thread that runs code of its own (the
		// process's main thread, when the paste holds its header).
		if st.inDump {
			*d = Diagnosis{PatternErrors: d.PatternErrors}
			return false
		}
		if !runsOwnCode(d.Stack) {
			// A helper thread that only idles (a pool's worker, a
			// pipe's reader) is not where the process stopped: a
			// later thread of the dump that runs code of its own
			// heads it. A dump of such threads only is no hang.
			*d = Diagnosis{PatternErrors: d.PatternErrors}
			st.note(e)
			return false
		}
		st.inDump = true
	} else {
		st.inDump = false
	}
	if ok && len(st.infoThread) > 0 && routineCandidate(d, e) && glogThread(e.Text) == string(st.infoThread) {
		d.Routine = true
	}
	if ok && st.piece && d.Cause == nil && d.Signal == SignalException && e.Traceback != nil && e.Traceback.Bare {
		// The exception line after its traceback's lines, each logged
		// as a record of its own (piece.go).
		d.Split = true
	}
	if ok && d.Fragment && d.Cause == nil && len(d.Context) == 0 && len(st.said) > 0 &&
		(e.Traceback != nil || d.Role != patterns.RoleConsequence) {
		// logger.exception's message, then its traceback cut before
		// the exception line: the message says what failed.
		d.Headline = string(st.said)
	}
	if ok && d.Cause == nil && len(st.said) > 0 && e.Message != "" && e.Message[0] == 'E' && platformExitCode(FirstLine(e.Message)) != "" {
		// A hosting platform's exit status after its line that says
		// what failed ("[Server message]Endpoint failed to start"):
		// that line heads it (platformexit.go).
		d.Headline = string(st.said) + " … " + d.Headline
	}
	if ok && len(st.imported) > 0 {
		namedImport(d, string(st.imported))
	}
	st.note(e)
	if remembers(e) {
		if frames := PySpyStack(e.Text); frames != nil {
			st.stack = append(st.stack[:0], frames...)
		}
	}
	if ok && d.Cause != nil && len(st.stack) > 0 && slices.Contains(d.Cause.Record.Tags, HangTag) {
		d.Stack = slices.Clone(st.stack)
		st.stack = st.stack[:0]
	}
	return ok
}

// AnalyzeLent is AnalyzeStream for an entry lent by an entry.Assembler
// with Reuse, whose strings are valid only until the assembler's next
// call. Most entries are no failure and are dropped after a first look.
// One that is, or that st remembers (a py-spy dump), is Owned (e changes)
// and analysed again, so that nothing the Diagnosis or st keeps points
// into the assembler's memory.
func (a *Analyzer) AnalyzeLent(st *Stream, e *entry.Entry) (Diagnosis, bool) {
	var d Diagnosis
	ok := a.AnalyzeLentInto(&d, st, e)
	return d, ok
}

// AnalyzeLentInto is AnalyzeLent writing the Diagnosis to d, which it
// overwrites whole (see AnalyzeInto).
func (a *Analyzer) AnalyzeLentInto(d *Diagnosis, st *Stream, e *entry.Entry) bool {
	a.prev = st
	a.searchEntry(e)
	// The search's hits are kept (most entries have none) for the entry
	// once owned: the decision may change a.hits.
	a.found = append(a.found[:0], a.hits...)
	perrs := len(a.perrs)
	if !a.decide(d, e) && !remembers(e) {
		if st != nil {
			st.inDump = false
			st.note(e)
			if a.quietShape(d, st, e) {
				a.OwnLater(d, e)
				return true
			}
		}
		return false
	}
	lent := e.Text
	e.Own()
	// The owned text has the same bytes: the same search would find the
	// same hits, so they are moved to it instead. A hit found in another
	// string (an echo zone masked) has the entry searched again.
	for i := range a.found {
		if !a.found[i].Rebase(lent, e.Text) {
			return a.analyzeStream(d, st, e)
		}
	}
	a.exceptionTypes(e)
	a.perrs = a.perrs[:perrs]
	a.hits = append(a.hits[:0], a.found...)
	return a.streamDecided(d, st, e, a.decide(d, e))
}

// remembers reports whether AnalyzeStream keeps something of e in its
// Stream: a py-spy dump's frames. sglang logs the dump as its own record,
// so the marker opens the message: checking that keeps the search off
// every other entry.
func remembers(e *entry.Entry) bool { return strings.HasPrefix(e.Message, pyspyMarker) }

// PySpyStack returns the top frames of the hung thread of a py-spy dump in
// text ("func (file.py:line)", innermost first, at most MaxStackFrames):
// the main thread, else the first active thread, else the first thread,
// among the threads that run code of their own when any does.
// Nil when text holds no py-spy dump.
func PySpyStack(text string) []string {
	i := strings.Index(text, pyspyMarker)
	if i < 0 {
		return nil
	}
	type thread struct {
		main, active bool
		frames       []string
	}
	var threads []thread
	for _, line := range strings.Split(text[i:], "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "Thread ") && strings.Contains(t, "(") && len(threads) < 64:
			threads = append(threads, thread{
				main:   strings.Contains(t, `"MainThread"`),
				active: strings.Contains(t, "(active"),
			})
		case len(threads) > 0 && isPySpyFrame(line):
			th := &threads[len(threads)-1]
			if len(th.frames) < MaxStackFrames {
				th.frames = append(th.frames, t)
			}
		}
	}
	// The main thread, else the first active thread, else the first one;
	// a thread that runs code of its own before one that only waits in
	// the standard library (a tqdm monitor, a pool's idle worker).
	pick := -1
	better := func(k int) bool {
		if pick < 0 {
			return true
		}
		ok, pk := runsOwnCode(threads[k].frames), runsOwnCode(threads[pick].frames)
		if ok != pk {
			return ok
		}
		if threads[k].main != threads[pick].main {
			return threads[k].main
		}
		return threads[k].active && !threads[pick].active
	}
	for k := range threads {
		if len(threads[k].frames) > 0 && better(k) {
			pick = k
		}
	}
	if pick < 0 {
		return nil
	}
	return threads[pick].frames
}

// isPySpyFrame matches py-spy's indented frame line "    func (file.py:12)".
func isPySpyFrame(line string) bool {
	if !strings.HasPrefix(line, "  ") {
		return false
	}
	t := strings.TrimSpace(line)
	open := strings.LastIndexByte(t, '(')
	if open <= 0 || !strings.HasSuffix(t, ")") {
		return false
	}
	loc := t[open+1 : len(t)-1]
	c := strings.LastIndexByte(loc, ':')
	if c <= 0 || c == len(loc)-1 {
		return false
	}
	for _, r := range loc[c+1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// AnalyzeLentLater is AnalyzeLentInto without owning a failure entry: the
// entry and its Diagnosis read the assembler's memory until OwnLater moves
// them onto a copy of their own. A caller that keeps something of a
// failure calls OwnLater first, before the assembler's next call; one that
// keeps nothing of it (a repeat of an open incident) never copies it. An
// entry st remembers (a py-spy dump) is owned at once, as by
// AnalyzeLentInto, and OwnLater then copies it again, to no effect.
func (a *Analyzer) AnalyzeLentLater(d *Diagnosis, st *Stream, e *entry.Entry) bool {
	if remembers(e) {
		return a.AnalyzeLentInto(d, st, e)
	}
	a.prev = st
	a.searchEntry(e)
	if !a.decide(d, e) {
		// AnalyzeLentInto's path for most entries.
		if st != nil {
			st.inDump = false
			st.note(e)
			return a.quietShape(d, st, e)
		}
		return false
	}
	return a.streamDecided(d, st, e, true)
}

// OwnLater owns e, an entry AnalyzeLentLater left lent, and moves what d
// read of it onto e's copy: the hits' lines and groups, the headline, the
// exception, the hung thread's frames and the triage. d and e then
// outlive the assembler's next call, as after AnalyzeLentInto.
func (a *Analyzer) OwnLater(d *Diagnosis, e *entry.Entry) {
	m := mover{raw: e.Raw, text: e.Text}
	e.Own()
	m.ownRaw, m.ownText = e.Raw, e.Text
	if d.Cause != nil {
		m.hit(d.Cause)
	}
	for _, hs := range [...][]matcher.Hit{d.Context, d.Alternatives, d.Others} {
		for i := range hs {
			m.hit(&hs[i])
		}
	}
	d.Headline = m.move(d.Headline)
	d.Key = m.move(d.Key)
	m.exception(d.Exception)
	m.exception(d.RootCause)
	for i := range d.Stack {
		d.Stack[i] = m.move(d.Stack[i])
	}
	tr := &d.Triage
	tr.Process, tr.Phase, tr.Family = m.move(tr.Process), m.move(tr.Phase), m.move(tr.Family)
	tr.Component, tr.Subject, tr.Importer = m.move(tr.Component), m.move(tr.Subject), m.move(tr.Importer)
}

// mover moves strings from a lent entry's Raw and Text to its own copies.
type mover struct {
	raw, text, ownRaw, ownText string
}

// move returns s in the owned copy when it lies in the lent Raw or Text,
// else s (a string of its own, or the catalog's).
func (m *mover) move(s string) string {
	if s == "" {
		return s
	}
	for _, r := range [...][2]string{{m.raw, m.ownRaw}, {m.text, m.ownText}} {
		if off, ok := textbuf.OffsetIn(s, r[0]); ok {
			return r[1][off : off+len(s)]
		}
	}
	return s
}

// hit moves h: its line and groups with it when it read the entry's text,
// else its line alone (a hit of a rewritten text reads its groups there).
func (m *mover) hit(h *matcher.Hit) {
	if !h.Rebase(m.text, m.ownText) {
		h.Line = m.move(h.Line)
	}
}

// exception moves x's strings; a link of the entry's own chain was moved
// by Own already, a group's member read from it was not.
func (m *mover) exception(x *entry.Exception) {
	if x == nil {
		return
	}
	x.Type, x.Message, x.Separator = m.move(x.Type), m.move(x.Message), m.move(x.Separator)
	x.MemberType, x.MemberMessage = m.move(x.MemberType), m.move(x.MemberMessage)
	for _, fs := range [...][]entry.Frame{x.Frames, x.MemberFrames} {
		for i := range fs {
			fs[i].File, fs[i].Func = m.move(fs[i].File), m.move(fs[i].Func)
		}
	}
}

// routineCandidate reports whether d, the diagnosis of e, is a native
// library's single glog ERROR line that no record names: when the line
// before it is an INFO line of the same thread, it may be a routine
// complaint of a start-up that goes on (Diagnosis.Routine).
func routineCandidate(d *Diagnosis, e *entry.Entry) bool {
	return d.Cause == nil && d.Signal == SignalNative && e.Native == entry.NativeGlog && e.Level == "ERROR" &&
		strings.IndexByte(strings.TrimRight(e.Text, "\n "), '\n') < 0
}

// glogThread is the thread id of a glog line's header ("4418" of
// "E0925 00:24:39.141773  4418 client.cpp:353] ..."), "" when text does
// not open with one.
func glogThread(text string) string {
	line := FirstLine(text)
	if len(line) > 64 {
		line = line[:64]
	}
	f := strings.Fields(line)
	if len(f) < 4 || !ascii.Digits(f[2]) || len(f[0]) < 5 || !strings.Contains(f[1], ":") {
		return ""
	}
	return f[2]
}
