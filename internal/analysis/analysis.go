package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// Signal names what made an entry a failure.
type Signal string

// The signals, from the strongest evidence to the weakest.
const (
	// SignalRecord: a catalog record matched the cause.
	SignalRecord Signal = "record"
	// SignalException: a Python exception (a traceback, or an exception
	// line printed on its own) that no record names.
	SignalException Signal = "exception"
	// SignalLevel: a log record at ERROR, CRITICAL or FATAL level of a
	// logging format that prints levels, that no record names.
	SignalLevel Signal = "level"
	// SignalNative: a native error line (c10d, glog, NCCL, a signal death,
	// a fatal CUDA or ROCm message) that no record names.
	SignalNative Signal = "native"
	// SignalHang: a thread dump with no error line (py-spy, faulthandler,
	// the watchdog's batch dump): the process stopped making progress.
	SignalHang Signal = "hang"
)

// Diagnosis is what one entry means. Its slices point into the Analyzer's
// scratch space and its hits into the compiled catalog: it is valid until
// the Analyzer's next Analyze call. Copy what must outlive that.
type Diagnosis struct {
	// Cause is the hit of the record that names the failure; nil when no
	// record does and the diagnosis is unclassified.
	Cause *matcher.Hit
	// Role is the role of Cause's record. RoleWrapper only when nothing
	// in the entry but a wrapper says something failed. RoleCause for an
	// unclassified diagnosis.
	Role patterns.Role
	// Signal is what made the entry a failure: SignalRecord when Cause is
	// set, else the entry's own failure signal.
	Signal Signal
	// Exception is the exception the cause is, when the failure is a
	// Python exception: the outermost link of the chain that no wrapper
	// record covers (for an exception group no record names, its first
	// leaf member). Nil otherwise.
	Exception *entry.Exception
	// RootCause is the first link of the chain when it is not Exception.
	RootCause *entry.Exception
	// Context holds the wrapper hits of the entry, best first (never
	// Cause itself).
	Context []matcher.Hit
	// Alternatives are the other records that matched the cause's own
	// lines, best first: less informed or less specific readings of the
	// same text.
	Alternatives []matcher.Hit
	// Others are the remaining hits of the entry (other lines), best first.
	Others []matcher.Hit
	// Severity is the diagnosis's severity: the cause record's, raised to
	// a wrapper's (a wrapper says what died) and, for an uninformed or
	// absent record, to what the entry's own signal says.
	Severity patterns.Severity
	// Headline is the real line that names the failure, with its values:
	// the matched line, the exception line, or the error line. One line.
	Headline string
	// Key groups diagnoses into incidents: the cause record's id, or
	// "unclassified:<signature>" of the cause.
	Key string
	// Stack is the hung thread's top frames from the py-spy dump logged
	// before a hang (see AnalyzeStream); nil otherwise.
	Stack []string
	// Fragment marks a failure the entry shows only in part: a traceback
	// cut before its exception line, or an exception header ("Exception
	// in thread ...:", "During handling of the above exception ...")
	// whose exception is in another entry. It says where the failure
	// happened, not what it was: within its burst it is context of the
	// cause (see internal/incident).
	Fragment bool
	// Triage is what the failure says about itself when no record names
	// it, or only a wrapper does: the process, the phase, the family of
	// failure and the component (see TriageOf). Zero otherwise.
	Triage Triage
	// Routine marks a native library's single error line, no record
	// naming it, printed by a thread right after an INFO line of its own
	// (a store client that finds no storage directory and starts
	// anyway): alone in its burst it is no crash, and the incident
	// grouper drops it unless another failure joins it (see
	// internal/incident). Set by AnalyzeStream.
	Routine bool
	// Tolerated marks a failure read on a line that says the program
	// goes on after it: an info record reads the notice (sglang's
	// "Ignore import error when loading ...: name 'Tensor' is not
	// defined"; see tolerated in select.go), or the line's own words
	// carry on ("... Proceeding without generation config.", "...;
	// falling back to ..."; see notice.go). Alone it is no crash; it
	// leads a failure of its source that follows it.
	Tolerated bool
	// Split marks an exception line no record names printed alone right
	// after its traceback's own lines, which its logger wrote as records
	// of their own (a frame, a source or caret line), or after the line
	// announcing it (see piece.go): the end of a traceback, a failure in
	// its own right, not a lone line that only says something failed.
	// Set by AnalyzeStream.
	Split bool
	// PatternErrors are the patterns that failed while matching this
	// entry (timeouts, the stack limit): pattern-health events.
	PatternErrors []matcher.PatternError

	// clear says every field but PatternErrors is zero since the
	// Analyzer last wrote d: the next entry that is no failure need not
	// clear the whole Diagnosis again (most entries, and a Diagnosis is
	// large).
	clear bool
}

// Hits returns every hit in the order an alert lists them after the cause:
// alternatives, context, then the others.
func (d *Diagnosis) Hits() []matcher.Hit {
	out := make([]matcher.Hit, 0, len(d.Alternatives)+len(d.Context)+len(d.Others))
	out = append(out, d.Alternatives...)
	out = append(out, d.Context...)
	return append(out, d.Others...)
}

// Analyzer diagnoses entries with one compiled catalog. It keeps scratch
// space between calls, so it is not safe for concurrent use: give each
// goroutine its own (they are cheap; the Matcher is shared).
type Analyzer struct {
	m *matcher.Searcher // over the shared Matcher

	types []string
	hits  []matcher.Hit
	perrs []matcher.PatternError
	// found is the search's hits of a lent entry, kept while it is
	// analysed, so that the entry once owned is not searched again
	// (AnalyzeLentInto).
	found []matcher.Hit
	sel   selection
	// engine is the engine that wrote the entries analysed now; "" when
	// not known (see SetEngine).
	engine string
	// configured says engine was configured, not detected
	// (ConfigureEngine).
	configured bool
	// ev is the engine the own shapes of the entry analysed now name,
	// once evRead (see evidence).
	ev     string
	evRead bool
	// version is the sglang release that wrote the entries; "" when not
	// known (see SetVersion).
	version string
	// phaseRecs are the wrapper records of phaseTags by tag, looked up
	// at the first cut traceback that needs one (see phaseWrapper).
	phaseRecs map[string]*patterns.Record
	// classRecs are the records named by an exception class alone (see
	// classRecord), built at the first exception no record matched.
	classRecs map[string]*patterns.Record
	// inPhaseRecs are the records of inPhase by tag, looked up at the
	// first record inPhase names (see inPhaseRecord); a nil entry for a
	// tag no record carries.
	inPhaseRecs map[string]*patterns.Record
	// prev is the Stream of the entry analysed now, nil for an entry
	// analysed alone: what the entry before it said (Stream.futureType).
	prev *Stream
	// summaryRec is the record of torch elastic's failure report, once
	// summaryRead (see summaryRecord).
	summaryRec  *patterns.Record
	summaryRead bool
}

// New returns an Analyzer that matches with m.
func New(m *matcher.Matcher) *Analyzer { return &Analyzer{m: m.NewSearcher()} }

// Matcher returns the compiled catalog the Analyzer matches with.
func (a *Analyzer) Matcher() *matcher.Matcher { return a.m.Matcher() }

// Analyze diagnoses one entry. It returns false when the entry is not a
// failure: no record matched it and it carries no failure signal (INFO
// and WARNING noise stays silent unless a record names it). The
// Diagnosis's PatternErrors are set in both cases.
func (a *Analyzer) Analyze(e *entry.Entry) (Diagnosis, bool) {
	var d Diagnosis
	ok := a.AnalyzeInto(&d, e)
	return d, ok
}

// AnalyzeInto is Analyze writing the Diagnosis to d, which it overwrites
// whole: a caller that analyses entry after entry keeps one Diagnosis
// rather than copying one out of every call (most entries are no failure,
// and a Diagnosis is large). A Diagnosis the Analyzer found no failure in
// must not be changed before it is passed again: its fields are then
// known to be zero and are not cleared once more.
func (a *Analyzer) AnalyzeInto(d *Diagnosis, e *entry.Entry) bool {
	a.prev = nil
	a.searchEntry(e)
	if !a.decide(d, e) {
		return false
	}
	a.markNotice(d, e)
	return true
}

// searchEntry matches e's text: the hits and pattern errors of
// AnalyzeInto's search.
func (a *Analyzer) searchEntry(e *entry.Entry) {
	a.evRead = false
	if e.Traceback != nil {
		if t := marginTraceback(e); t != nil {
			// A traceback indented by a paste's margin, whose exception
			// line was not read as one (interrupted.go).
			e.Traceback = t
		}
	}
	a.exceptionTypes(e)
	a.perrs = a.perrs[:0]
	a.hits = a.search(a.hits[:0], e.Text, e)
}

// exceptionTypes sets the types of e's traceback the matcher ranks by.
func (a *Analyzer) exceptionTypes(e *entry.Entry) {
	a.types = a.types[:0]
	if e.Traceback != nil {
		a.types = e.Traceback.AppendTypes(a.types)
	}
}

// decide is AnalyzeInto once the entry's text was searched (searchEntry).
func (a *Analyzer) decide(d *Diagnosis, e *entry.Entry) bool {
	if len(a.hits) == 0 && e.Traceback == nil && quiet(e) && !maybeHang(e) &&
		(strings.IndexByte(e.Text, '\\') < 0 || !hasEscapedQuote(e.Text)) {
		// Most entries: no record, no exception, no level or an INFO or
		// DEBUG one, no backslash. signalOf would say no signal; this
		// says it without the calls. Only a Diagnosis with something
		// else set is cleared.
		if !d.clear {
			*d = Diagnosis{clear: true}
		}
		d.PatternErrors = a.perrs
		return false
	}
	if len(a.hits) == 0 && hasEscapedQuote(e.Text) {
		a.matchUnescaped(e)
	}
	if len(a.hits) == 0 && hasInlineMarkup(e.Text) {
		a.matchUnmarked(e)
	}
	if e.Traceback != nil && onlyWrappers(a.hits) {
		a.matchJoined(e)
	}
	*d = Diagnosis{PatternErrors: a.perrs}
	if len(a.hits) == 0 {
		sig, sigSev, death := readSignal(e)
		if sig == "" {
			if stack, printed, ok := hangStack(e); ok {
				if e.Native == entry.NativeFaulthandler && currentThreadDump(e.Text) {
					// The thread a fatal error stopped, its
					// "Fatal Python error" line lost
					// (faultframes.go).
					a.faultCrash(d, e, stack, printed, faultCurrentLabel)
					return true
				}
				a.hang(d, e, stack, printed)
				return true
			}
			return false
		}
		a.unclassified(d, e, sig, sigSev, death, nil)
		if sig == SignalNative && e.Traceback == nil && e.Message != "" && e.Message[0] == 'E' && extensionModules(FirstLine(e.Message)) {
			// faulthandler's list of extension modules alone: what is
			// left of a fatal error's report, which the rest of it
			// leads when in sight (faultframes.go).
			d.Fragment = true
		}
		a.underProcessHeader(d, e)
		a.leadWithClassRecord(d, e)
		a.leadWithRaisedClass(d, e)
		a.leadWithSummaryRecord(d, e)
		return true
	}
	s := &a.sel
	s.choose(e.Text, a.hits)
	d.Context, d.Alternatives, d.Others = s.context, s.alternatives, s.others
	cause := s.cause
	if cause.Record.Role.Is(patterns.RoleWrapper) && e.Native == entry.NativeAscend &&
		cannInnerHeadline(matchedHeadline(e, cause)) && cannReason(e) != "" {
		// Only wrappers matched a CANN block whose internal code says
		// just "Inner Error!": the detail line after it, which no record
		// reads, names the cause ("EH9999  [Init][Env]init env failed!",
		// "rtKernelLaunch execute failed, reason=[...]"), and the
		// wrapper is its context.
		d.Context = s.wrappers()
		d.Alternatives, d.Others = nil, s.nonWrappers()
		sig, sigSev, death := hitSignal(e)
		if sig == "" {
			sig, sigSev = SignalNative, patterns.SeverityError
		}
		a.unclassified(d, e, sig, sigSev, death, nil)
		return true
	}
	// A wrapper that names its component's remedy leads over the code
	// error it quotes (remedy.go): lead is that wrapper's hit, leadExc
	// the exception.
	lead, leadExc := -1, (*entry.Exception)(nil)
	if cause.Record.Role.Is(patterns.RoleWrapper) {
		// Only wrappers matched: the entry's own exception, when a wrapper
		// does not merely restate it, is the cause, unless it is a code
		// error a wrapper that names its remedy quotes.
		if exc := uncoveredLink(e, s.wrapperLines); exc != nil {
			if lead = s.remedyOver(e, exc, nil); lead >= 0 {
				leadExc = exc
			} else {
				d.Context = s.wrappers()
				d.Alternatives, d.Others = nil, s.nonWrappers()
				a.unclassified(d, e, SignalException, patterns.SeverityError, false, exc)
				return true
			}
		}
	}
	if cause.Record.Role.Is(patterns.RoleConsequence) {
		// Only consequences (and wrappers) matched, on lines of their
		// own: a server's "Error in chat completion stream
		// generator." logged with the request's traceback says where
		// the exception surfaced, and the exception it carries, which
		// no record covers, names what failed: it is the headline,
		// the exception and the key, and the header is its context.
		// The header's record still says what the entry is, a
		// consequence: of the engine's death its request ran into,
		// when that is in sight, which then leads; alone it is
		// alerted as the exception it carries.
		exc := carriedLink(e, s.spans)
		if exc != nil && a.readsLine(cause.Record.ID, FirstLine(ExceptionLine(exc))) {
			// The record read its header line first, and it reads the
			// exception carried too ("AsyncLLM output_handler failed."
			// over EngineDeadError): the exception is the record's own
			// failure, not one no record covers, and the record leads.
			exc = nil
		} else if vagueWrapper(exc) {
			// The exception carried only says it failed: its chain's
			// root, when no record reads it, says why; else the line
			// the record read says more.
			if r := rootUnderWrapper(e.Traceback, exc); r != nil && !linkRead(e, r, s.spans) {
				exc = r
			} else {
				exc = nil
			}
		}
		if exc != nil {
			d.Context = s.framing()
			d.Alternatives, d.Others = nil, s.unframed()
			a.unclassified(d, e, SignalException, patterns.SeverityError, false, exc)
			d.Role = patterns.RoleConsequence
			return true
		}
		if root := rootUnderConsequence(e, s.spans, s.spans[s.causeAt]); root != nil {
			// The consequence record read the last link of a chain
			// ("RuntimeError: Engine core initialization failed. See
			// root cause above."), and no record reads its root: the
			// root is the failure, the record its context.
			d.Context = s.framing()
			d.Alternatives, d.Others = nil, s.unframed()
			a.unclassified(d, e, SignalException, patterns.SeverityError, false, root)
			return true
		}
		if e.Level == "" {
			if l := kubeStateReasonFor(e, matchedHeadline(e, cause)); l != "" {
				// The record read kubectl describe's container state
				// only where it says the container died or restarts
				// ("Exit Code: 137", "Reason: CrashLoopBackOff"); the
				// kubelet's reason in that state says why
				// (kubestate.go): it leads at the record's severity,
				// the record its context.
				d.Context = s.framing()
				d.Alternatives, d.Others = nil, s.unframed()
				a.unclassified(d, e, SignalLevel, cause.Record.Severity, false, nil)
				d.Headline = l
				return true
			}
			if l := kubeWarningFor(e, matchedHeadline(e, cause)); l != "" {
				// The record read an event table's Normal row, what
				// the kubelet did about a failure ("Killing ...
				// failed liveness probe, will be restarted"); the
				// Warning row no record reads says what failed
				// (kubestate.go): it leads at the record's severity,
				// the record its context.
				d.Context = s.framing()
				d.Alternatives, d.Others = nil, s.unframed()
				a.unclassified(d, e, SignalLevel, cause.Record.Severity, false, nil)
				d.Headline = l
				return true
			}
		}
	}
	// A record's hit asks for the entry's own signal only here and for
	// the severity below, where the record that leads is an info one or
	// names no remedy: most records name one, and for their lines
	// readSignal's readers, each reading the line again, are not run
	// (readSignal reads e alone, which nothing in decide changes:
	// TestSignalUnchangedByDecide). hitSignal answers for most others
	// with quiet's byte tests.
	var sig Signal
	var sigSev patterns.Severity
	sigRead := len(cause.Record.Solutions) == 0 || cause.Record.Severity == patterns.SeverityInfo
	if sigRead {
		sig, sigSev, _ = hitSignal(e)
	}
	if cause.Record.Severity == patterns.SeverityInfo && sig != SignalException {
		// An info record annotates a routine line, even one a library
		// prints at an error level: it never alerts by itself. Only an
		// exception in the same entry still makes it a failure.
		return false
	}
	if lead < 0 && cause.Record.Role.Is(patterns.RoleCause) {
		if x, _ := exceptionFor(e.Traceback, cause.Record.ErrorClass); x != nil {
			if lead = s.remedyOver(e, x, cause); lead >= 0 {
				leadExc = x
			}
		}
	}
	if lead >= 0 {
		read := cause
		cause = &s.hits[lead]
		s.cause, s.causeAt = cause, lead
		ctx := d.Context[:0]
		for i := range d.Context {
			if d.Context[i].Record != cause.Record || d.Context[i].Start != cause.Start {
				ctx = append(ctx, d.Context[i])
			}
		}
		d.Context = ctx
		if !read.Record.Role.Is(patterns.RoleWrapper) {
			d.Alternatives = append(d.Alternatives, *read)
		}
	}
	d.Cause = cause
	// A notice is its line: an entry that goes on into a traceback shows
	// a failure of its own.
	d.Tolerated = e.Traceback == nil && s.tolerated()
	d.Role = cause.Record.Role
	if d.Role == "" || lead >= 0 {
		// A wrapper that leads over the code error it quotes is the
		// cause.
		d.Role = patterns.RoleCause
	}
	d.Signal = SignalRecord
	d.Key = cause.Record.ID
	d.Headline = matchedHeadline(e, cause)
	if w := NCCLLastError(FirstLine(cause.Line), e.Text); w != "" && !strings.Contains(d.Headline, w) {
		// torch's report of NCCL's result, led by its record because
		// none reads the warning NCCL explained it with: the headline
		// says that warning, which names what failed.
		d.Headline += "; Last error: " + w
	}
	d.Exception, d.RootCause = exceptionFor(e.Traceback, cause.Record.ErrorClass)
	if leadExc != nil {
		d.Exception, d.RootCause = leadExc, nil
		if r := e.Traceback.RootCause(); r != leadExc {
			d.RootCause = r
		}
	}
	if x := readLink(e, s.spans[s.causeAt]); leadExc == nil && x != nil && x != d.Exception &&
		(cause.Record.ErrorClass == "" || lastDotted(d.Exception.Type) != lastDotted(cause.Record.ErrorClass)) && vagueWrapper(d.Exception) {
		// The record read an earlier link of a chain whose last link
		// only says it failed: the link it read is the exception.
		d.Exception = x
		if r := e.Traceback.RootCause(); r != x {
			d.RootCause = r
		} else {
			d.RootCause = nil
		}
	}
	d.Severity = cause.Record.Severity
	a.leadInPhase(d, e)
	if len(cause.Record.Solutions) == 0 || cause.Record.Severity == patterns.SeverityInfo {
		if !sigRead {
			// The record that leads now is not the one read first.
			sig, sigSev, _ = hitSignal(e)
		}
		if sig != "" {
			d.Severity = maxSeverity(d.Severity, sigSev)
		}
	}
	for i := range d.Context {
		d.Severity = maxSeverity(d.Severity, d.Context[i].Record.Severity)
	}
	if d.Role.Is(patterns.RoleWrapper) {
		// A wrapper alone says which process died; its frames may
		// still say where.
		d.Triage = TriageOf(e, d.Exception)
		if d.Triage.Process == "" {
			d.Triage.Process = processOfWrapper(cause.Record)
		}
		a.leadWithPhaseWrapper(d, e)
	}
	return true
}

// matchedHeadline is the first line a record matched, without the header
// a glog or native line keeps in front of its message in Text (time, pid,
// file:line): when the match lies in the message of the entry's first
// line, that message is the headline.
func matchedHeadline(e *entry.Entry, h *matcher.Hit) string {
	line := FirstLine(h.Line)
	msg := FirstLine(e.Message)
	if msg == "" || len(msg) >= len(line) || line != FirstLine(e.Text) || !strings.HasSuffix(line, msg) {
		return line
	}
	if h.Start < len(line)-len(msg) {
		return line // the record matched the header itself
	}
	return msg
}

// unclassified fills d for a failure no record names. exc is the exception
// link that is the cause; nil takes the signal's own. death says the
// signal is a level-less line's report of another component's death
// (readSignal).
func (a *Analyzer) unclassified(d *Diagnosis, e *entry.Entry, sig Signal, sev patterns.Severity, death bool, exc *entry.Exception) {
	d.Role = patterns.RoleCause
	d.Signal = sig
	d.Severity = sev
	interrupted := false
	if exc == nil && sig == SignalException {
		exc = e.Traceback.Outermost()
		if r := rootUnderWrapper(e.Traceback, exc); r != nil {
			// The last link only says it failed: the root says why.
			exc = r
		}
	}
	if exc != nil && exc.Type == "" && e.Traceback != nil {
		// A traceback cut before its exception line, under a record
		// whose message is the exception's repr ("ValueError('Sampling
		// parameters are missing')", a logger given the exception
		// itself): that repr is the exception line it lost.
		if typ, msg, ok := reprException(FirstLine(e.Message)); ok {
			x := *exc
			x.Type, x.Message = typ, msg
			exc = &x
		}
	}
	if exc != nil && e.Traceback != nil {
		// asyncio's report of an exception no one retrieved names it
		// in the future's repr ("future: <Task finished ...
		// exception=ValueError('...')>"); the traceback under it is
		// that exception's, so one that ends otherwise (in the
		// CancelledError it was raised while handling, or cut before
		// its exception line) lost its last link: the repr is it.
		typ, msg, ok := futureException(e.Text)
		if !ok && a.prev != nil && a.prev.futureType != "" {
			// The repr on the line before the traceback (a level or a
			// blank line put the two in entries of their own).
			typ, msg, ok = a.prev.futureType, a.prev.futureMsg, true
		}
		if ok && lastDotted(typ) != lastDotted(exc.Type) {
			x := *exc
			x.Type, x.Message = typ, msg
			exc = &x
		}
	}
	if exc != nil {
		d.Signal = SignalException
		d.Exception = exc
		if root := e.Traceback.RootCause(); root != nil && root != exc {
			d.RootCause = root
		}
		d.Headline = FirstLine(ExceptionLine(exc))
		if h := interruptedHeadline(exc); h != "" {
			// Stopped with Ctrl+C: where its work stood
			// (interrupted.go).
			d.Headline, interrupted = h, true
		}
		if v := validationDetail(e.Text, exc.Message); v != "" {
			d.Headline += " … " + v
		} else if v := statusDetail(e.Text, exc.Message); v != "" {
			// An HTTP status whose explanation follows it
			// (statusdetail.go).
			d.Headline += " … " + v
		}
		if d.Headline == "" {
			// A traceback cut before its exception line: its header,
			// or for frames without one the call they were making
			// (cutcall.go).
			d.Headline = cutHeadline(e)
		}
		if st := assertStatement(e.Text, exc); st != "" {
			// A bare AssertionError: the failed statement says what
			// was checked.
			d.Headline += " (" + st + ")"
		}
		d.Key = "unclassified:" + Signature(e.Traceback, exc)
		d.Fragment = exc.Type == ""
		if d.Fragment && strings.Contains(e.Text, ".as_instanceof_cause()") {
			// A traceback cut after the frame that re-raised a failure
			// received from another process (an actor's, a remote
			// task's): it carries that failure, which it lost.
			d.Role = patterns.RoleConsequence
		}
		if d.Fragment && framesAlone(e) {
			// The middle of a traceback whose header and exception line
			// are elsewhere: another failure's lines near it (its
			// header, its exception, another rank's record) say more, so
			// there it is their context; alone it is still alerted,
			// named by its frames.
			d.Role = patterns.RoleConsequence
		}
		if pointsToRootCause(exc.Message) || remoteWrapper(exc.Type) || onlyWhere(exc.Message) || workerKilled(exc.Message) ||
			stopException(exc.Type) && !interrupted {
			// "EngineCore encountered an issue. See stack trace
			// (above) for the root cause.": the exception says it is
			// another failure's consequence. So does the exception a
			// caller re-raises for a failure in a worker or a remote
			// task, whose own traceback follows or precedes it, and
			// one that says only where a native library reported its
			// error, which the library's own lines beside it explain,
			// and one that reports a worker killed by a signal, whose
			// own lines before it say what it met (workerKilled),
			// and the cancellation or interrupt by which a process
			// stops its tasks while it shuts down (stopException;
			// a stop by hand at the end of frames says where the work
			// stood, and leads: interrupted.go).
			// Around that failure it folds into it; alone it is still
			// alerted.
			d.Role = patterns.RoleConsequence
		}
		if m := member(exc); m != nil {
			// "ExceptionGroup: unhandled errors in a TaskGroup" only
			// carries the failure its first member names.
			d.Exception = m
			d.Headline = FirstLine(ExceptionLine(m))
		}
	} else {
		d.Headline = FirstLine(e.Message)
		if m, _, _ := strings.Cut(e.Message, "\n"); foldedAtBlank(strings.TrimRight(m, "\r")) && strings.HasPrefix(e.Text, m) {
			// The message's line was cut at a blank by a word-wrapping
			// tool: its rest is the next line of the text.
			d.Headline = firstTextLine(e.Text)
		}
		if sig == SignalLevel && e.Level == "" {
			if l, ok := summaryAcrossWrap(e); ok {
				d.Headline = l
			}
		}
		if l := fatalLine(e); l != "" {
			d.Headline = l
		}
		if sig == SignalNative {
			if l := crashLine(e); l != "" {
				d.Headline = l
			} else if h := strings.TrimSpace(d.Headline); !crashBanner(h) && !assertionLine(h) {
				if l := continuedCrash(e); l != "" {
					// The crash a routine record's continuation
					// holds (crashbanner.go).
					d.Headline = l
				}
			}
		}
		if sig == SignalLevel && e.Level == "" && !startsWithErrorWord(e.Message) {
			if l := kubeFailureIn(e); l != "" {
				// kubectl's view of a failed workload is how the
				// failure looked from outside: the container's own
				// lines, or a record's reading of the same report,
				// say more. Alone it is still alerted. The kubelet's
				// reason why a container died or cannot start
				// ("Reason: OOMKilled", kubestate.go) is the cause the
				// crash loop and the exit code before it follow.
				d.Headline = l
				if x := kubeExitOfState(e, l); x != "" {
					// "Reason: Error" says only that it exited;
					// the state's exit code says how.
					d.Headline += " … " + x
				}
				if !kubeStateCause(l) {
					d.Role = patterns.RoleConsequence
				}
				if podUnscheduled(l) {
					// A pod the scheduler placed nowhere waits: the
					// scheduler's own message (its event, a record
					// of it) says why, at a warning's severity.
					d.Severity = patterns.SeverityWarning
				}
			}
		}
		if sig == SignalLevel && e.Level == "" {
			if h := rpcStatusHeadline(FirstLine(e.Message), e.Text); h != "" {
				// A gRPC error's status block: its status and
				// details say what failed (statusline.go).
				d.Headline = h
			}
		}
		if sig == SignalNative && e.Native == "" && e.Level == "" && nativeFollowUp(e.Message) {
			// A kernel driver's recovery after a device failure, a
			// memory checker's summary or the API errors after an
			// invalid access (kernel.go, memcheck.go): the same
			// failure again. Around it it is its detail; alone it is
			// still alerted.
			d.Role = patterns.RoleConsequence
		}
		if l := cannReason(e); l != "" {
			d.Headline = l
		}
		if isRustPanic(e) {
			if h := panicHeadline(e.Text); h != "" {
				d.Headline = h
			}
		}
		if e.Native == entry.NativeTerminate {
			if w := terminateWhat(e.Text); w != "" && !strings.Contains(d.Headline, w) {
				// The exception's type says little; its what() says
				// what failed.
				d.Headline += " … " + w
			}
		}
		if d.Headline == "" {
			d.Headline = FirstLine(e.Text)
		}
		if strings.TrimSpace(d.Headline) == "" {
			// A record whose header line carries no message (LM
			// Studio's "2025-08-28 01:22:58 [ERROR]", a format with a
			// line break after the level): its message is its next
			// line that holds one.
			d.Headline = firstTextLine(cmp.Or(strings.TrimSpace(e.Message), e.Text))
		}
		d.Key = "unclassified:" + LineSignature(string(sig)+":"+e.Native+":"+normLevel(e.Level), d.Headline)
		if sig == SignalException && entry.ThreadExceptionHeader(e.Message) {
			// The header of a thread's exception whose traceback is
			// cut or in another entry: where, not what.
			d.Fragment = true
		}
		if sig == SignalLevel && e.Traceback == nil && len(d.Context) == 0 && pointsOnly(e.Message) {
			// A traceback's frame, source or caret line logged as a
			// record of its own, or a line announcing the error
			// printed after it (piece.go): it points at the failure,
			// which its neighbours state. Around it, it is their
			// context; alone it is still alerted.
			d.Fragment = true
			d.Role = patterns.RoleConsequence
		}
		if sig == SignalLevel && (e.Level == "INFO" || e.Level == "DEBUG" || death) {
			// A routine line's report of another component's death
			// (deathReport): the dead component's own lines say why.
			d.Role = patterns.RoleConsequence
		}
		if sig == SignalLevel && e.Level == "" && !startsWithErrorWord(e.Message) && entry.FailureStatusEnd(d.Headline) {
			// "Worker exits with an exit code 1.", "Failed to set up
			// the store, error code: -1": the status a step failed
			// with, whose cause the lines around it state. Around a
			// cause it is that cause's consequence; alone it is still
			// alerted.
			d.Role = patterns.RoleConsequence
		}
		if sig == SignalNative && e.Native == entry.NativeShell {
			// "Killed", "Segmentation fault (core dumped)": the shell
			// reports that a process died, not why; sglang's launcher
			// kills itself this way after a child failed. Around a
			// cause it is that cause's consequence; alone it is still
			// alerted.
			d.Role = patterns.RoleConsequence
		}
	}
	for i := range d.Context {
		d.Severity = maxSeverity(d.Severity, d.Context[i].Record.Severity)
	}
	d.Triage = TriageOf(e, d.Exception)
	if d.Triage.Process == "" && len(d.Context) > 0 {
		d.Triage.Process = processOfWrapper(d.Context[0].Record)
	}
	if interrupted {
		d.Triage.Family = FamilyHang
	}
}

// processOfWrapper names the process a wrapper record speaks for: by its
// slug, sglang's own processes; by its tag "http", the HTTP server (the
// web framework's "Exception in ASGI application", a handler's "Error in
// request"), which failed one request.
func processOfWrapper(r *patterns.Record) string {
	slug := r.Slug
	switch {
	case strings.HasPrefix(slug, "scheduler-"):
		return "scheduler"
	case strings.HasPrefix(slug, "detokenizer-"):
		return "detokenizer"
	case strings.HasPrefix(slug, "tokenizer-manager-"), strings.HasPrefix(slug, "multi-tokenizer-"):
		return "tokenizer manager"
	case strings.HasPrefix(slug, "data-parallel-controller-"):
		return "data parallel controller"
	case strings.HasPrefix(slug, "capture-cuda-graph"), slug == "legacy-subprocess-exception",
		slug == "tp-model-worker-client-hit-an-exception":
		// ModelRpcClient and TpModelWorkerClient run in the scheduler.
		return "scheduler"
	case slices.Contains(r.Tags, "http"):
		return "HTTP server"
	}
	return ""
}

// exceptionFor picks the link of tb a record describes: the outermost one
// whose type agrees with the record's errorClass, else the outermost. It
// also returns the root cause when the chain has more than one link.
func exceptionFor(tb *entry.Traceback, errorClass string) (exc, root *entry.Exception) {
	if tb == nil || len(tb.Links) == 0 {
		return nil, nil
	}
	exc = tb.Outermost()
	if errorClass != "" {
		base := lastDotted(errorClass)
		for i := len(tb.Links) - 1; i >= 0; i-- {
			if lastDotted(tb.Links[i].Type) == base {
				exc = &tb.Links[i]
				break
			}
		}
	}
	if r := tb.RootCause(); r != exc {
		root = r
	}
	return exc, root
}

// uncoveredLink returns the outermost link of e's exception chain whose
// exception line no wrapper hit covers: "Exception: Capture cuda graph
// failed: ..." is the wrapper's own line, and the link inside it is the
// cause. Nil when the entry holds no exception or every link is covered.
func uncoveredLink(e *entry.Entry, wrapperLines []span) *entry.Exception {
	tb := e.Traceback
	if tb == nil {
		return nil
	}
	for i := len(tb.Links) - 1; i >= 0; i-- {
		l := &tb.Links[i]
		line := FirstLine(ExceptionLine(l))
		if line == "" {
			continue
		}
		at := strings.LastIndex(e.Text, line)
		covered := false
		for _, w := range wrapperLines {
			if at >= 0 && at >= w.from && at < w.to {
				covered = true
				break
			}
		}
		if !covered {
			return l
		}
	}
	return nil
}

// carriedLink returns the exception an entry carries under a header that
// only a consequence record names: the outermost link with a type whose
// exception line no hit covers (spans), printed after every hit. Nil
// when the entry holds no such link: its exception is the record's own
// line, or it has none.
func carriedLink(e *entry.Entry, spans []span) *entry.Exception {
	tb := e.Traceback
	if tb == nil {
		return nil
	}
	exc := uncoveredLink(e, spans)
	if exc == nil || exc.Type == "" {
		return nil
	}
	at := strings.LastIndex(e.Text, FirstLine(ExceptionLine(exc)))
	for _, sp := range spans {
		if sp.to > at {
			return nil
		}
	}
	return exc
}

// readsLine reports whether the record with id matches line by itself. A
// record is matched once in an entry, at its first line; this asks of a
// later line of the same entry. It runs only on entries that only
// consequence records matched.
func (a *Analyzer) readsLine(id, line string) bool {
	if line == "" {
		return false
	}
	hits, perrs := a.m.AppendMatch(nil, nil, &matcher.Subject{Text: line, ExceptionTypes: a.types})
	a.perrs = append(a.perrs, perrs...)
	for i := range hits {
		if hits[i].Record.ID == id {
			return true
		}
	}
	return false
}

// ExceptionLine is an exception as its traceback prints it: "Type: message",
// or the type alone when the message is empty.
func ExceptionLine(x *entry.Exception) string {
	if x == nil {
		return ""
	}
	if x.Message == "" {
		return x.Type
	}
	return x.Type + ": " + x.Message
}

// member is the exception of a group's first leaf member, with its own
// frames; nil when x is not a group or no member was read.
func member(x *entry.Exception) *entry.Exception {
	if x == nil || !x.Group || x.MemberType == "" {
		return nil
	}
	return &entry.Exception{Type: x.MemberType, Message: x.MemberMessage, Frames: x.MemberFrames}
}

// memberLine is the first line of a group's first leaf member's exception,
// "" when there is none.
func memberLine(x *entry.Exception) string {
	return FirstLine(ExceptionLine(member(x)))
}

// maxTextLines bounds the lines firstTextLine looks through.
const maxTextLines = 8

// minFoldWidth is the shortest line firstTextLine takes as cut by a
// word-wrapping tool: none wraps narrower.
const minFoldWidth = 72

// firstTextLine is the first of s's first maxTextLines lines that holds
// more than blanks, without its leading and trailing blanks; "" when
// none does. A line at least minFoldWidth long that ends in a blank after
// a word was cut there by a word-wrapping tool (fold -s, a terminal): its
// rest, the next line, is joined to it.
func firstTextLine(s string) string {
	var b strings.Builder
	for range maxTextLines {
		var l string
		l, s, _ = strings.Cut(s, "\n")
		l = strings.TrimRight(l, "\r")
		t := strings.TrimSpace(l)
		if t == "" {
			if b.Len() > 0 || s == "" {
				break
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		if s == "" || !foldedAtBlank(l) {
			break
		}
	}
	return b.String()
}

// foldedAtBlank reports whether the line l ends as a word-wrapping tool
// leaves a line it cut: at least minFoldWidth long, ending in one blank
// after a letter, a digit or a comma (no sentence's end).
func foldedAtBlank(l string) bool {
	n := len(l)
	if n < minFoldWidth || l[n-1] != ' ' || l[n-2] == ' ' {
		return false
	}
	c := l[n-2]
	return ascii.Letter(c) || c >= '0' && c <= '9' || c == ','
}

// FirstLine returns s up to its first newline, trailing blanks removed.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	// strings.TrimRight(s, " \t\r"), without building its set of
	// bytes on every call: this runs for most entries.
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

func lastDotted(s string) string {
	return s[strings.LastIndexByte(s, '.')+1:]
}

func maxSeverity(a, b patterns.Severity) patterns.Severity {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}

// hasEscapedQuote reports whether s holds a backslash-escaped quote.
func hasEscapedQuote(s string) bool {
	// One pass for the backslash, which most entries do not hold, rather
	// than a search for each quote: this runs for every entry no record
	// matched.
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 || i+1 >= len(s) {
			return false
		}
		if s[i+1] == '\'' || s[i+1] == '"' {
			return true
		}
		s = s[i+1:]
	}
}

// matchUnescaped matches text again with its escaped quotes unescaped: an
// error body pasted from a JSON or Python string ("the model\'s context
// length") says what a record names with plain quotes. The hits are moved
// back onto text, so they name its own bytes and lines.
func (a *Analyzer) matchUnescaped(e *entry.Entry) { a.matchRewritten(e, unescapeQuotes) }

// matchRewritten matches rewrite(text) in place of text, and moves the
// hits back onto text: rewrite drops bytes of text and gives, for each
// byte it keeps, its position in text (and len(text) after the last).
func (a *Analyzer) matchRewritten(e *entry.Entry, rewrite func(string) (string, []int)) {
	text := e.Text
	u, at := rewrite(text)
	a.hits = a.search(a.hits[:0], u, e)
	for i := range a.hits {
		h := &a.hits[i]
		h.Start, h.End = at[h.Start], at[h.End]
		h.Line = matcher.SurroundingLines(text, h.Start, h.End)
	}
}

// hasInlineMarkup reports whether s holds Markdown's inline markup a
// paste keeps: a bold's "**" or a code span's backtick.
func hasInlineMarkup(s string) bool {
	return strings.IndexByte(s, '`') >= 0 || strings.Contains(s, "**")
}

// matchUnmarked matches text again without its inline Markdown markup
// ("**Watchdog caught collective operation timeout:** WorkNCCL(...)", a
// line pasted in a code span): an issue's author bolds the phrase that
// matters, and a record's pattern reads on across it. The hits are moved
// back onto text.
func (a *Analyzer) matchUnmarked(e *entry.Entry) { a.matchRewritten(e, unmark) }

// unmark drops every backtick and every "**" of s. at[i] is the position
// in s of the i-th byte of the result (at[len] is len(s)).
func unmark(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	at := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '`':
			continue
		case s[i] == '*' && i+1 < len(s) && s[i+1] == '*':
			i++
			continue
		}
		b.WriteByte(s[i])
		at = append(at, i)
	}
	at = append(at, len(s))
	return b.String(), at
}

// onlyWrappers reports whether no hit names a cause: none matched, or only
// wrappers did.
func onlyWrappers(hits []matcher.Hit) bool {
	for i := range hits {
		if !hits[i].Record.Role.Is(patterns.RoleWrapper) {
			return false
		}
	}
	return true
}

// matchJoined matches e's text again with the line after an exception line
// joined to it, when that line is not indented: a page or a terminal that
// hard-wrapped a long line cut the exception's message in two ("NCCL error:
// unhandled syst" / "em error ..."), and the record naming it needs the
// whole message. The new hits are kept only when the join named a record
// the text alone did not; they are moved back onto e's text, and their Line
// is the joined line.
func (a *Analyzer) matchJoined(e *entry.Entry) {
	text := e.Text
	for i := len(e.Traceback.Links) - 1; i >= 0; i-- {
		line := FirstLine(ExceptionLine(&e.Traceback.Links[i]))
		if line == "" {
			continue
		}
		at := strings.LastIndex(text, line)
		if at < 0 || (at > 0 && text[at-1] != '\n') {
			continue
		}
		cut := at + len(line) // the newline the wrap put in
		if cut+1 >= len(text) || text[cut] != '\n' {
			continue
		}
		if c := text[cut+1]; c == '\n' || c == ' ' || c == '\t' {
			continue
		}
		u := text[:cut] + text[cut+1:]
		hits := a.search(nil, u, e)
		if onlyWrappers(hits) && len(hits) <= len(a.hits) {
			return // the join named nothing new
		}
		back := func(k int) int {
			if k >= cut {
				return k + 1
			}
			return k
		}
		for j := range hits {
			h := &hits[j]
			h.Line = matcher.SurroundingLines(u, h.Start, h.End)
			h.Start, h.End = back(h.Start), back(h.End)
		}
		a.hits = append(a.hits[:0], hits...)
		return
	}
}

// unescapeQuotes drops the backslash before every quote in s. at[i] is the
// offset in s of byte i of the result, at[len(result)] is len(s).
func unescapeQuotes(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	at := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"') {
			i++
		}
		b.WriteByte(s[i])
		at = append(at, i)
	}
	at = append(at, len(s))
	return b.String(), at
}

// pointsToRootCause reports whether an exception's message says the root
// cause is elsewhere: "See stack trace (above) for the root cause", "the
// root cause is logged above", "Please see the error messages above".
func pointsToRootCause(msg string) bool {
	if len(msg) > 4096 {
		msg = msg[:4096]
	}
	m := strings.ToLower(msg)
	if strings.Contains(m, "see inner exception") || strings.Contains(m, "see the inner exception") {
		// torch elastic's "The connection to the C10d store has
		// failed. See inner exception for details.", .NET's wording.
		return true
	}
	i := strings.Index(m, "root cause")
	if i < 0 {
		// "Initialization failed. Please see the error messages
		// above.": the errors it stands for were printed before it.
		j := strings.Index(m, " above")
		return j > 0 && (strings.Contains(m[:j], "see ") || strings.Contains(m[:j], "check ")) &&
			(strings.Contains(m[:j], "error") || strings.Contains(m[:j], "log") || strings.Contains(m[:j], "message"))
	}
	return strings.Contains(m, "above") || strings.Contains(m[:i], "see ") || strings.Contains(m, "logs")
}

// workerKilled reports whether an exception's message reports a worker
// process killed by a signal, as the parent that waited on it words it
// (torch's DataLoader: "DataLoader worker (pid 325) is killed by signal:
// Bus error."): the worker's death, which its own error lines before it
// explain ("ERROR: Unexpected bus error encountered in worker. This might
// be caused by insufficient shared memory (shm).").
func workerKilled(msg string) bool {
	i := strings.Index(msg, " is killed by signal: ")
	return i > 0 && strings.Contains(msg[:i], "worker")
}

// remoteWrapper reports whether an exception type is one a caller raises
// to carry a failure that happened in another process, whose traceback is
// printed beside it: a process pool's RemoteTraceback
// (multiprocessing.pool.RemoteTraceback,
// concurrent.futures.process._RemoteTraceback, pebble's), or a class named
// after the exception it wraps ("ray.exceptions.RayTaskError(ValueError)":
// a Python class name holds no parenthesis, so such a name was made for
// the exception inside it). It says where the failure surfaced, never
// what it was.
func remoteWrapper(typ string) bool {
	if w := wrappedType(typ); w != typ && w != "" {
		return true
	}
	return strings.TrimLeft(lastDotted(typ), "_") == "RemoteTraceback"
}

// onlyWhere reports whether an exception's message says only where a
// native library reported an error, not what it was: "[ERROR] HCCL error
// in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64", a library's
// name, "error in:" and a source file and line, nothing after. The
// library prints the error itself, in its own lines beside the traceback.
// A message that goes on after the place ("NCCL error in: x.cpp:1207,
// unhandled cuda error") says what.
func onlyWhere(msg string) bool {
	m := strings.TrimSpace(msg)
	if strings.HasPrefix(m, "[") {
		// A level in brackets: "[ERROR] ".
		if i := strings.IndexByte(m, ']'); i > 0 && i <= 10 {
			m = strings.TrimSpace(m[i+1:])
		}
	}
	lib, where, ok := strings.Cut(m, " error in: ")
	if !ok || lib == "" || strings.ContainsAny(lib, " \t") || strings.ContainsAny(where, " \t\n,") {
		return false
	}
	i := strings.LastIndexByte(where, ':')
	return i > 0 && ascii.Digits(where[i+1:])
}

// maxFutureScan bounds the bytes of an entry futureException looks
// through for the future's line.
const maxFutureScan = 8192

// futureException reads the exception an asyncio future's repr names, on
// a line of its own in text: "future: <Task finished name='Task-7'
// coro=<...> exception=ValueError('bad request')>" is ValueError, "bad
// request". ok is false when no such line holds a repr reprException
// reads.
func futureException(text string) (typ, msg string, ok bool) {
	if len(text) > maxFutureScan {
		text = text[:maxFutureScan]
	}
	i := strings.Index(text, "future: <")
	if i < 0 || i > 0 && text[i-1] != '\n' && text[i-1] != ' ' {
		return "", "", false
	}
	line := FirstLine(text[i:])
	j := strings.Index(line, " exception=")
	if j < 0 {
		return "", "", false
	}
	repr := strings.TrimSpace(line[j+len(" exception="):])
	repr = strings.TrimSpace(strings.TrimSuffix(repr, ">"))
	return reprException(repr)
}

// maxRepr bounds the line reprException reads.
const maxRepr = 4096

// reprException reads line as an exception's repr, the whole line:
// "ValueError('bad value')", "torch.OutOfMemoryError(\"CUDA out of
// memory\")", "KeyError(0)": its type (a dotted name whose last part ends
// in Error or Exception) and its message, one level of quotes taken off.
func reprException(line string) (typ, msg string, ok bool) {
	line = strings.TrimSpace(line)
	if len(line) > maxRepr || !strings.HasSuffix(line, ")") {
		return "", "", false
	}
	open := strings.IndexByte(line, '(')
	if open <= 0 {
		return "", "", false
	}
	typ = line[:open]
	for i := 0; i < len(typ); i++ {
		if c := typ[i]; !isAlnum(c) && c != '_' && c != '.' {
			return "", "", false
		}
	}
	if b := lastDotted(typ); !strings.HasSuffix(b, "Error") && !strings.HasSuffix(b, "Exception") {
		return "", "", false
	}
	msg = line[open+1 : len(line)-1]
	if len(msg) >= 2 && (msg[0] == '\'' || msg[0] == '"') && msg[len(msg)-1] == msg[0] {
		msg = msg[1 : len(msg)-1]
	}
	return typ, msg, true
}
