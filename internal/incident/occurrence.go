package incident

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/textbuf"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// UnclassifiedSlug is the slug of incidents made from tracebacks that match
// no record.
const UnclassifiedSlug = "unclassified"

// MaxAlertText bounds the entry and the stack trace an alert carries (head
// and tail kept): an incident's alert is kept in the grouping state and in
// every sink's queue, so its size multiplies.
const MaxAlertText = 16 << 10

// Occurrence is one entry that became (part of) an incident: its best hit,
// or, for a traceback that matched nothing, its unclassified signature.
type Occurrence struct {
	// Key groups occurrences: the record id or "unclassified:<signature>".
	Key string
	// SourceKey is the identity of the source the entry came from (a path,
	// a pod/container, "stdin"); ranks and streams of one server share it.
	SourceKey string
	// Time is when it happened: the entry's header time, else read time.
	Time time.Time
	// Timed says Time came from the log itself, not from when it was read.
	Timed bool
	// Borrowed says Time is not the matched line's own, so the line was
	// printed at or after it, not necessarily at it: the entry had no
	// timestamp and took its stream's latest (entry.Entry.TimeInherited),
	// or the line matched is not the entry's first, whose header dated it
	// (a launcher's bare traceback read under another writer's record).
	Borrowed bool
	// Guessed says Time's year is a guess (entry.Entry.TimeGuessed): the
	// grouper puts it in the year its scope's other lines say.
	Guessed bool
	// Scope is the correlation scope, where one crash's cause and its
	// consequences are reported: the pod ("pod:<namespace>/<name>") when
	// known, else the node ("node:<name>", "node:" for this host).
	Scope string
	// Rank is the rank that reported it ("DP1 TP3", "rank5"), "" when
	// the entry names none. See RankOf.
	Rank string
	// Alert is the alert this occurrence would produce on its own (count 1).
	Alert sinks.Alert
	// Generic marks a generic error line: no record names it and no
	// wrapper frames it, and only its level or an exception line printed
	// without a traceback made it a failure ("ERROR ... request failed",
	// "Error: Server error '503 ...'"). A classified cause of the same
	// burst outranks it (see the grouper's doc on generic lines).
	Generic bool
	// Fragment marks a failure shown only in part (analysis.Diagnosis's
	// Fragment): a traceback cut before its exception line. Like a
	// wrapper alone, it is context of the cause of its burst.
	Fragment bool
	// Hang marks a hang's dump (analysis.SignalHang): a py-spy or
	// faulthandler dump, a watchdog's dump of the running batch.
	Hang bool
	// Tolerated marks an error a notice quotes that the program went on
	// after (analysis.Diagnosis.Tolerated): held for a failure of its
	// source that follows it, and dropped unannounced unless one joins
	// it.
	Tolerated bool
	// Unplaced marks a fragment whose frames name no phase and no
	// component (the program's entry, a dispatch): where the process
	// was says nothing of what failed (see clientSummary).
	Unplaced bool
	// Frameless marks a fragment that prints no frame and whose triage
	// names nothing: a traceback's first line alone ("Traceback (most
	// recent call last):"), its frames cut or logged as lines of their
	// own. It says less than a wrapper, which names the process that
	// died: a wrapper of its burst is its cause (see findCause).
	Frameless bool
	// Offset and EndOffset are where the entry's first and last lines
	// begin in its source: two failures far apart in one source, with
	// healthy lines between them, are not one burst, whatever their
	// times say (a header-less log has none).
	Offset, EndOffset int64
	// Native marks an entry of a native library's own lines (glog, UCX,
	// CANN, c10d, faulthandler, NCCL): one event of such a library
	// prints several, and they are one incident (see the grouper's doc
	// on bursts).
	Native bool
	// NativeKind is the native shape of such an entry (entry.Native:
	// "glog", "c10d", "faulthandler", ...): a library's unclassified
	// line is a detail of the classified consequence its own library
	// prints, never of another library's (see detailOf).
	NativeKind string
	// Routine marks a native library's single error line amid its own
	// INFO lines (analysis.Diagnosis.Routine): its incident is dropped,
	// not announced, unless something else joins it before it settles.
	Routine bool
	// Bare marks an exception line printed alone, without a traceback
	// of its own (entry.Traceback.Bare): a traceback that follows it
	// within a few lines may be the next link of its chain, whose
	// separator was lost (see chain.go).
	Bare bool
	// Traced marks an entry that holds a traceback with its frames.
	Traced bool
	// Writer names who wrote a generic line: its header without its
	// digits (a logger's name and level, a rank's prefix: "[-- ::,]
	// LMCache ERROR: "), "" when the line has no header with a name in
	// it or is no generic line. One writer's error lines of one burst
	// are one event (see restate.go).
	Writer string
	// Process is the process the entry names (entry.Entry.Process:
	// NCCL's "host:pid", an engine's process prefix), "" when it names
	// none: two failures of two named processes are not one process's
	// chain (see lower.go).
	Process string
	// Client marks a fragment whose cut frames end in an HTTP client
	// library (Triage.Process is analysis.ProcessClient): a client's
	// call that failed, whose classified summary printed just before it
	// is the better evidence of the same event (see clientSummary).
	Client bool

	// exception says the alert carries an exception with a type, for
	// an occurrence whose alert is not built yet (lazy).
	exception bool
	// elsewhere is pointsElsewhere of the diagnosis, which buildAlert
	// reads again: it searches the cause's line.
	elsewhere bool
	// lazy, when set, builds the rest of Alert (see Builder); seq is the
	// Builder's count when it made the occurrence. fp is the fingerprint
	// until then (Alert.Fingerprint is set with the rest): a repeat finds
	// its incident by it without making a string of it.
	lazy *Builder
	seq  uint64
	fp   [16]byte
}

// consequence is isConsequence(*o), read through the pointer: a call by
// value copies the whole occurrence (nearly 900 bytes) for every one
// observed.
func (o *Occurrence) consequence() bool {
	return o.Alert.Record.Role == string(patterns.RoleConsequence)
}

// Source describes where an entry was read, for the alert's source block.
type Source struct {
	Key       string // grouping identity; Path when empty
	Path      string
	Pod       string
	Namespace string
	Container string
	Node      string
	// Engine is the serving engine that wrote the entry ("" when not
	// known): the alert names it and lists its remedies.
	Engine string
}

// Identity is the identity of the source an occurrence from s carries
// (Occurrence.SourceKey): its Key, or its Path when it has none.
func (s Source) Identity() string {
	if s.Key != "" {
		return s.Key
	}
	return s.Path
}

// FromDiagnosis builds the occurrence for one diagnosed entry. readTime
// stands in for the entry's time when its header had none.
func FromDiagnosis(e *entry.Entry, d *analysis.Diagnosis, src Source, readTime time.Time) Occurrence {
	var o Occurrence
	occurrenceInto(&o, e, d, src, readTime, RankOf(e), ScopeOf(src))
	o.Alert.Fingerprint = Fingerprint(o.Key, o.SourceKey)
	o.buildAlert(e, d, src, nil)
	return o
}

// occurrenceInto makes *o the occurrence of a diagnosed entry but its
// alert, of which it fills what the grouper reads before it needs the
// whole one (see Occurrence.Complete): the record's id, role and
// severity. The caller sets the fingerprint; scope is ScopeOf(src). In
// place, since an Occurrence is over a kilobyte.
func occurrenceInto(o *Occurrence, e *entry.Entry, d *analysis.Diagnosis, src Source, readTime time.Time, rank, scope string) {
	when, timed := e.Time, !e.Time.IsZero()
	if !timed {
		when = readTime
	}
	// Cleared, then filled: a composite literal would be made aside and
	// copied over.
	*o = Occurrence{}
	o.Key, o.SourceKey = d.Key, src.Identity()
	o.Time, o.Timed = when, timed
	o.Borrowed = timed && (e.TimeInherited || d.Cause != nil && !onFirstLine(e.Raw, d.Cause.Line))
	o.Guessed = timed && e.TimeGuessed
	o.Scope, o.Rank = scope, rank
	r := &o.Alert.Record
	if d.Cause != nil {
		r.ID, r.Role = d.Cause.Record.ID, roleOf(d.Cause.Record.Role)
		if leadingWrapper(d) {
			r.Role = string(patterns.RoleCause)
		}
		if o.elsewhere = pointsElsewhere(d); o.elsewhere {
			r.Role = string(patterns.RoleConsequence)
		}
	} else {
		r.Role = roleOf(d.Role)
	}
	if e.Reraised {
		r.Role = string(patterns.RoleConsequence)
	}
	r.Severity = string(d.Severity)
	o.exception = d.Exception != nil && d.Exception.Type != ""
	o.Generic = isGeneric(e, d)
	if o.Generic {
		o.Writer = writerOf(e)
	}
	// A hang's thread dump next to a failure (a watchdog timeout record,
	// a crash that dumped every thread) is that failure's context, as a
	// fragment is; alone it is the incident.
	o.Fragment = (d.Fragment || d.Signal == analysis.SignalHang) && d.Cause == nil && len(d.Context) == 0
	o.Hang = d.Signal == analysis.SignalHang
	o.Frameless = o.Fragment && !o.Hang && frameless(e, d)
	o.Client = o.Fragment && !o.Hang && d.Triage.Process == analysis.ProcessClient
	o.Unplaced = o.Fragment && !o.Hang && d.Triage.Phase == "" && d.Triage.Component == ""
	o.Routine = d.Routine
	o.Tolerated = d.Tolerated
	o.Bare = e.Traceback != nil && e.Traceback.Bare
	o.Traced = e.Traceback != nil && !e.Traceback.Bare
	if e.Process != "" {
		// The entry's text may be lent: the occurrence outlives it.
		o.Process = strings.Clone(e.Process)
	}
	o.Native = e.Format == entry.FormatNative
	if o.Native {
		o.NativeKind = nativeKind(e)
	}
	o.Offset, o.EndOffset = e.FirstOffset, max(e.LastOffset, e.FirstOffset)
}

// rankRooms hands out the room of alerts' Ranks, and their alertParts,
// from blocks of a few: one allocation for roomsPerBlock alerts. A block
// stays while any of its alerts does (at most roomsPerBlock-1 rooms
// beside it, 64 bytes each, or alertParts of 128).
type rankRooms struct {
	block []string
	parts []alertParts
}

const roomsPerBlock = 8

// take is an empty slice with the room of alertParts' ranks, its capacity
// capped there so that an append past it moves the slice off the block.
// A nil r gives a room of its own.
func (r *rankRooms) take() []string {
	const n = len(alertParts{}.ranks)
	if r == nil {
		return make([]string, 0, n)
	}
	if len(r.block) < n {
		r.block = make([]string, n*roomsPerBlock)
	}
	s := r.block[:0:n]
	r.block = r.block[n:]
	return s
}

// part is a zero alertParts, from r's block; a nil r gives one of its own.
func (r *rankRooms) part() *alertParts {
	if r == nil {
		return new(alertParts)
	}
	if len(r.parts) == 0 {
		r.parts = make([]alertParts, roomsPerBlock)
	}
	p := &r.parts[0]
	r.parts = r.parts[1:]
	return p
}

// alertParts is an alert's exception and the room of its Ranks (its
// first rank and a few more) in one allocation.
type alertParts struct {
	exception sinks.Exception
	ranks     [4]string
}

// buildAlert builds o's whole alert (occurrenceInto made the rest of o, and
// the alert's fingerprint).
//
// rooms, when not nil, gives the room of Ranks and the alertParts (a
// Builder's: a few alerts' in one allocation).
func (o *Occurrence) buildAlert(e *entry.Entry, d *analysis.Diagnosis, src Source, rooms *rankRooms) {
	when := o.Time
	// Built in place: made aside, an alert (over 600 bytes) was cleared
	// and copied twice more.
	fp := o.Alert.Fingerprint
	a := &o.Alert
	*a = sinks.Alert{
		Schema:   sinks.Schema,
		Time:     when,
		LastTime: when,
		Count:    1,
		Kind:     KindNew,
		Headline: d.Headline,
		Source: sinks.Source{
			Path:      src.Path,
			Offset:    e.FirstOffset,
			Stream:    e.Stream,
			Pod:       src.Pod,
			Namespace: src.Namespace,
			Container: src.Container,
			Node:      src.Node,
		},
		Entry:  sinks.TruncateMiddle(e.Raw, MaxAlertText),
		Engine: src.Engine,
	}
	// The exception and the ranks' room, when the alert has both, are
	// one allocation (two of 64 bytes each otherwise).
	var parts *alertParts
	if o.Rank != "" && d.Exception != nil {
		parts = rooms.part()
	}
	if o.Rank != "" {
		// Room for a few more: an incident's repeats come from its
		// other ranks.
		if parts != nil {
			a.Ranks = append(parts.ranks[:0], o.Rank)
		} else {
			a.Ranks = append(rooms.take(), o.Rank)
		}
		a.FirstRank = o.Rank
	}
	if d.Exception != nil {
		var x *sinks.Exception
		if parts != nil {
			x = &parts.exception
		} else {
			x = new(sinks.Exception)
		}
		*x = sinks.Exception{
			Type:       d.Exception.Type,
			Message:    d.Exception.Message,
			Stacktrace: sinks.TruncateMiddle(stacktrace(e), MaxAlertText),
			RootCause:  analysis.ExceptionLine(d.RootCause),
		}
		a.Match.Exception = x
	}
	tr := d.Triage // read, never written: the diagnosis is the caller's
	// sglang's steps fit a source detected as sglang's, or one whose
	// engine is not known when the entry itself says it is sglang's;
	// never another engine's.
	tr.SGLang = src.Engine == sglangEngine || src.Engine == "" && sglangLog(e, d)
	if d.Cause != nil {
		a.Record = recordOf(d.Cause.Record)
		if leadingWrapper(d) {
			a.Record.Role = string(patterns.RoleCause)
		}
		if o.elsewhere { // pointsElsewhere(d), as occurrenceInto found it
			a.Record.Role = string(patterns.RoleConsequence)
		}
		a.Record.Solutions = d.Cause.Record.SolutionsFor(src.Engine)
		a.Match.Text = d.Cause.Line
		a.Match.Groups = d.Cause.Groups()
		if d.Role.Is(patterns.RoleWrapper) {
			// A wrapper alone says which process died; what its frames
			// say of where comes first.
			a.Record.Solutions = withTriage(tr, a.Record.Solutions)
			if cutUnder(e, d) {
				// Over a traceback cut before its exception line, the
				// last frame it printed is where the process died, as
				// for a cut traceback no wrapper names.
				line := strings.Replace(fragmentLine(e, d), ": Traceback (most recent call last): (last frame: ", " (last frame: ", 1)
				a.Headline = triageHeadline(tr, o.Rank, line, true)
			} else {
				a.Headline = triageHeadline(tr, o.Rank, d.Headline, false)
			}
		}
	} else {
		a.Record = sinks.Record{
			Slug:     UnclassifiedSlug,
			Severity: string(d.Severity),
			Role:     roleOf(d.Role),
		}
		if d.Exception != nil {
			a.Record.ErrorClass = d.Exception.Type
		}
		if len(d.Context) > 0 {
			// No record names the cause, but the wrapper around it says
			// what died and what to look at: its advice is the best fix
			// there is, and every alert carries one.
			w := d.Context[0].Record
			a.Record.Documentation = w.Documentation
			a.Record.Solutions = w.SolutionsFor(src.Engine)
			a.Record.PreventionTips = w.PreventionTips
			a.Record.HandlingStrategy = w.HandlingStrategy
			a.Record.GithubURL = w.GithubURL
		}
		if len(a.Record.Solutions) == 0 {
			unclassifiedAdvice(&a.Record, e, d.Exception)
		}
		a.Record.Solutions = withTriage(tr, a.Record.Solutions)
		a.Match.Text = d.Headline
		if d.Fragment {
			// A traceback cut before its exception line: where it was
			// cut, the call its program was making, is what it says of
			// the failure.
			switch c := analysis.CutCall(e.Text); {
			case c == "" || strings.Contains(d.Headline, c):
			case labelLine(d.Headline):
				a.Match.Text = c
			default:
				a.Match.Text = d.Headline + " … " + c
			}
		}
		switch {
		case d.Signal == analysis.SignalHang:
			a.Headline = hangHeadline(tr, o.Rank, d.Headline)
		case d.Fragment:
			a.Headline = triageHeadline(tr, o.Rank, fragmentLine(e, d), true)
		default:
			a.Headline = triageHeadline(tr, o.Rank, d.Headline, false)
		}
	}
	// The diagnosis's severity: a wrapper around the cause, or the entry's
	// own level for an uninformed record, can raise the record's.
	a.Record.Severity = string(d.Severity)
	if len(d.Context) > 0 {
		a.Context = make([]sinks.ContextHit, 0, len(d.Context))
	}
	for _, h := range d.Context {
		a.Context = append(a.Context, sinks.ContextHit{ID: h.Record.ID, Slug: h.Record.Slug, Text: analysis.FirstLine(h.Line)})
	}
	// The hits after the cause, in d.Hits's order, into one slice sized
	// once (an occurrence is built for every failure entry).
	if n := len(d.Alternatives) + len(d.Context) + len(d.Others); n > 0 {
		a.Secondary = make([]sinks.SecondaryHit, 0, n)
		for _, hs := range [...][]matcher.Hit{d.Alternatives, d.Context, d.Others} {
			for i := range hs {
				a.Secondary = append(a.Secondary, sinks.SecondaryHit{ID: hs[i].Record.ID, Slug: hs[i].Record.Slug})
			}
		}
	}
	a.HungThread = d.Stack
	if e.Reraised {
		// The parent printing the traceback its child logged a moment
		// ago (vLLM's EngineCore, a Ray worker): the same failure seen
		// again, which folds into the child's incident.
		a.Record.Role = string(patterns.RoleConsequence)
	}
	a.Fingerprint = fp
}

// cutUnder reports whether the wrapper d leads is over a traceback of e
// cut before its exception line: frames, and no link that names an
// exception.
func cutUnder(e *entry.Entry, d *analysis.Diagnosis) bool {
	if e.Traceback == nil || d.Exception == nil || d.Exception.Type != "" || len(framesOf(e, d.Exception)) == 0 {
		return false
	}
	for i := range e.Traceback.Links {
		if e.Traceback.Links[i].Type != "" {
			return false
		}
	}
	return true
}

// fragmentLine is the headline of a traceback that lost its exception
// line: its first line and the last frame it printed, where the process
// was when it failed.
func fragmentLine(e *entry.Entry, d *analysis.Diagnosis) string {
	fs := framesOf(e, d.Exception)
	if len(fs) == 0 {
		return d.Headline
	}
	f := fs[len(fs)-1]
	src := analysis.LastFrameSource(e.Text)
	after := ""
	n, fn, s, call := analysis.CutFrame(e.Text)
	if n > 0 && n < len(fs) && fs[len(fs)-1-n].Func == fn {
		// The innermost frames are a library's dispatch (ray.get's
		// machinery, a decorator forwarding its arguments): the last
		// frame of the program's own code says where it failed.
		f, src = fs[len(fs)-1-n], s
		after = "; then " + strconv.Itoa(n) + " library frame"
		if n > 1 {
			after += "s"
		}
	}
	where := f.Func + " in " + f.File + ":" + strconv.Itoa(f.Line)
	if src != "" {
		// The statement the frame was running is what failed.
		where += ", running " + src
	}
	line := d.Headline
	if labelLine(line) && call != "" {
		// A label over the traceback ("error msg:", "#### Error") says
		// nothing the call it was cut in does not.
		line = call
	}
	if after == "" && strings.Contains(line, `File "`+f.File+`", line `+strconv.Itoa(f.Line)+",") {
		// Frames without a header are headed by the call they made
		// and their deepest File line already (cutHeadline): that
		// frame again says nothing more.
		return line
	}
	return line + " (last frame: " + where + after + ")"
}

// isGeneric reports whether the diagnosis is a generic error line (see
// Occurrence.Generic). A traceback with frames, a native error (a fatal
// signal, an assertion) and a hung thread's stack are failures in their
// own right, never generic; a native warning no record names is.
func isGeneric(e *entry.Entry, d *analysis.Diagnosis) bool {
	if d.Cause != nil || len(d.Context) > 0 || len(d.Stack) > 0 {
		return false
	}
	switch d.Signal {
	case analysis.SignalLevel:
		return e.Traceback == nil || e.Traceback.Bare
	case analysis.SignalException:
		// An exception line alone after its traceback's lines, logged
		// one record a line (d.Split), ends a traceback.
		return e.Traceback != nil && e.Traceback.Bare && !d.Split
	case analysis.SignalNative:
		// A native line no record names that its library logs as a
		// warning (NCCL WARN, UCX WARN): around a named cause it is the
		// noise of the same failure, often another rank's view of it. A
		// native error (a crash, a CUDA assert, glog's E) is never generic,
		// but a Rust panic that only unwrapped an error is (unwrapPanic).
		return d.Severity == patterns.SeverityWarning || unwrapPanic(e)
	}
	return false
}

// A Rust program that calls unwrap on a failed Result panics with the
// error's debug form ("called `Result::unwrap()` on an `Err` value:
// BackendError(InvalidArgument)", "... on an `Err` value: ()") or, on an
// empty Option, with nothing at all ("called `Option::unwrap()` on a
// `None` value"). The panic is how the program gave up, not what failed:
// the failure is the error the call returned, which a library logs as its
// own error line just before (a backend's "prompt too long", a worker's
// "failed to connect"). So such a panic no record names is a generic
// line: a classified cause of its burst leads it, and alone it still
// alerts.

// unwrapPrefixes are the messages the Rust standard library panics with
// when unwrap or expect meets an error or an empty value, without the
// value.
var unwrapPrefixes = [...]string{
	"called `Result::unwrap()` on an `Err` value",
	"called `Option::unwrap()` on a `None` value",
}

// unwrapPanic reports whether e is a Rust panic whose message is only an
// unwrap of an error or of nothing (see unwrapPrefixes), in the current
// form (message after "panicked at <location>:") or the older one
// ("panicked at '<message>', <location>").
func unwrapPanic(e *entry.Entry) bool {
	if e.Native != entry.NativeRustPanic {
		return false
	}
	i := strings.Index(e.Raw, "thread '")
	if i < 0 {
		return false
	}
	p, ok := entry.ParsePanic(e.Raw[i:])
	if !ok {
		return false
	}
	msg := strings.TrimSpace(p.Message)
	for _, u := range unwrapPrefixes {
		if strings.HasPrefix(msg, u) {
			return true
		}
	}
	return false
}

// maxWriterHeader bounds the header writerOf reads.
const maxWriterHeader = 256

// writerOf is the writer of the entry e (Occurrence.Writer): its first
// line's header, the text before its message, without digits and with
// runs of blanks as one; "" when the first line does not end with its
// message or its header names no one (namesWriter).
func writerOf(e *entry.Entry) string {
	first, _, _ := strings.Cut(e.Raw, "\n")
	first = strings.TrimRight(first, " \t\r")
	msg := strings.TrimRight(analysis.FirstLine(e.Message), " \t\r")
	if msg == "" || len(first) < len(msg) || !strings.HasSuffix(first, msg) {
		return ""
	}
	header := first[:len(first)-len(msg)]
	if len(header) > maxWriterHeader {
		return ""
	}
	if !namesWriter(header) {
		// A component's tag in brackets at the head of the message
		// ("[11/10/2023-06:30:40] [TRT] [E] 2: [globWriter.cpp::...]
		// Error Code 2: ...", TensorRT's logger, whose line no header
		// was read from) names the writer the header does not.
		tags := leadingTags(msg)
		switch {
		case tags != "" && tags != msg && namesWriter(tags):
			header += tags
		default:
			// A native library's own error line names its writer
			// at its head, in its logger's form or in words
			// ("MIOpen(HIP): Error [SetIsaName] ...", "MIOpen
			// Error: ..."): the library.
			lib := analysis.LibraryOf(msg)
			if lib == "" {
				return ""
			}
			header += lib
		}
	}
	var b strings.Builder
	blank := false
	for i := 0; i < len(header); i++ {
		c := header[i]
		switch {
		case c >= '0' && c <= '9':
			continue
		case c == ' ' || c == '\t':
			if blank {
				continue
			}
			blank = true
			b.WriteByte(' ')
			continue
		}
		blank = false
		b.WriteByte(c)
	}
	return b.String()
}

// maxTag bounds one bracketed tag leadingTags reads.
const maxTag = 32

// leadingTags is the run of bracketed tags that msg opens with ("[TRT]
// [E] "), each at most maxTag bytes with no blank or bracket inside and
// followed by one blank; "" when msg opens with none.
func leadingTags(msg string) string {
	n := 0
	for n < len(msg) && msg[n] == '[' {
		end := strings.IndexByte(msg[n:], ']')
		if end < 2 || end > maxTag || strings.ContainsAny(msg[n+1:n+end], " \t[") || n+end+1 >= len(msg) || msg[n+end+1] != ' ' {
			break
		}
		n += end + 2
	}
	return msg[:n]
}

// namesWriter reports whether a line's header names who wrote it: a word
// of two letters or more that is no level word (a logger's name, a
// library's, a rank's "TP"). A level alone ("ERROR: ") names no one.
func namesWriter(header string) bool {
	for i := 0; i < len(header); {
		if !ascii.Letter(header[i]) {
			i++
			continue
		}
		j := i
		for j < len(header) && ascii.Letter(header[j]) {
			j++
		}
		if j-i >= 2 && !levelWord[strings.ToUpper(header[i:j])] {
			return true
		}
		i = j
	}
	return false
}

// levelWord holds the level words a header may print, upper case.
var levelWord = map[string]bool{
	"ERROR": true, "ERR": true, "WARN": true, "WARNING": true, "CRITICAL": true, "CRIT": true, "FATAL": true,
	"INFO": true, "DEBUG": true, "TRACE": true, "NOTICE": true, "ALERT": true, "EMERG": true,
}

// ScopeOf is the correlation scope of a source: its pod when known, else
// its node (one logmatch without a Kubernetes identity watches one host).
func ScopeOf(src Source) string {
	if src.Pod != "" {
		return "pod:" + src.Namespace + "/" + src.Pod
	}
	return "node:" + src.Node
}

// Fingerprint is the stable identity of an incident: a hash of its key and
// its source identity, so the same failure from the same server always maps
// to the same fingerprint, across restarts too.
func Fingerprint(key, sourceKey string) string {
	var out [16]byte
	fingerprintInto(&out, key, sourceKey)
	return string(out[:])
}

// fingerprintInto writes Fingerprint(key, sourceKey) to out. One buffer on
// the stack for the hash's input: nothing is allocated for common keys.
func fingerprintInto(out *[16]byte, key, sourceKey string) {
	var in [256]byte
	b := append(append(append(in[:0], key...), 0), sourceKey...)
	sum := sha256.Sum256(b)
	hex.Encode(out[:], sum[:8])
}

func recordOf(r *patterns.Record) sinks.Record {
	return sinks.Record{
		ID:               r.ID,
		Slug:             r.Slug,
		Repo:             r.Repo,
		Severity:         string(r.Severity),
		ErrorClass:       r.ErrorClass,
		ErrorMessage:     r.ErrorMessage,
		Solutions:        r.Solutions,
		PreventionTips:   r.PreventionTips,
		Documentation:    r.Documentation,
		HandlingStrategy: r.HandlingStrategy,
		GithubURL:        r.GithubURL,
		FilePath:         r.FilePath,
		LineNumber:       r.LineNumber,
		Tags:             r.Tags,
		Role:             roleOf(r.Role),
		Fatal:            r.Fatal,
	}
}

// leadingWrapper reports whether d is led by a wrapper record that names
// the remedy of the code error it quotes (analysis.RemedyWrapper): the
// wrapper is the cause there.
func leadingWrapper(d *analysis.Diagnosis) bool {
	return d.Cause != nil && d.Cause.Record.Role.Is(patterns.RoleWrapper) && d.Role.Is(patterns.RoleCause)
}

// pointsElsewhere reports whether the cause record of d reads a line that
// says its reason is elsewhere ("The connection to the C10d store has
// failed. See inner exception for details.", "see the errors above";
// analysis.SendsElsewhere): what it reports is a consequence of that
// reason, whatever role its record has, as the catalog gives such
// wordings of their own (an engine core's "See root cause above") the
// role consequence. Around the failure it points at, it folds into it;
// alone it is still alerted.
func pointsElsewhere(d *analysis.Diagnosis) bool {
	return d.Cause != nil && roleOf(d.Cause.Record.Role) == string(patterns.RoleCause) && analysis.SendsElsewhere(d.Cause.Line)
}

func roleOf(r patterns.Role) string {
	if r == "" {
		return string(patterns.RoleCause)
	}
	return string(r)
}

// stacktrace is the traceback part of the entry's text: from the first
// "Traceback (most recent call last):" on, or the whole text when the
// header is not found (header-less blocks).
func stacktrace(e *entry.Entry) string {
	const marker = "Traceback (most recent call last):"
	if i := strings.Index(e.Text, marker); i >= 0 {
		return e.Text[i:]
	}
	return e.Text
}

// sglangLog reports whether e is sglang's own output as far as its
// diagnosis can tell: its frames or text name sglang (Triage.SGLang), its
// header is one of sglang's, or a record of sglang's own matched it (the
// wrapper "Scheduler hit an exception" says whose log this is).
func sglangLog(e *entry.Entry, d *analysis.Diagnosis) bool {
	if d.Triage.SGLang {
		return true
	}
	switch e.Format {
	case entry.FormatSRT, entry.FormatLegacy, entry.FormatDiffusion, entry.FormatRouter:
		return true
	}
	if d.Cause != nil && d.Cause.Record.Repo == sglangRepo {
		return true
	}
	for i := range d.Context {
		if d.Context[i].Record.Repo == sglangRepo {
			return true
		}
	}
	return false
}

// sglangRepo is the repository of sglang's own records.
const sglangRepo = "sgl-project/sglang"

// onFirstLine reports whether line, a line of the entry raw, is its first.
// A line that is a piece of raw's first line itself (a hit on the raw
// text, most of them) is not searched for.
func onFirstLine(raw, line string) bool {
	first, _, _ := strings.Cut(raw, "\n")
	if _, ok := textbuf.OffsetIn(line, first); ok {
		return true
	}
	return strings.Contains(first, line)
}

// nativeKind is the native shape of e as Occurrence.NativeKind keeps it:
// entry.Native, and for a glog line that a Python program wrote in glog's
// format (torch.distributed.elastic's "E0601 ... api.py:874] failed
// (exitcode: 1)") a kind of its own, since it is no C++ library's line.
func nativeKind(e *entry.Entry) string {
	if e.Native != entry.NativeGlog {
		return e.Native
	}
	line := e.Text
	if i := strings.IndexByte(line, ']'); i > 0 && i < 256 {
		line = line[:i]
	}
	if strings.Contains(line, ".py:") {
		return entry.NativeGlog + "-python"
	}
	return entry.NativeGlog
}

// frameless reports whether the fragment e, diagnosed d, prints no frame
// and says nothing of where it failed (Occurrence.Frameless).
func frameless(e *entry.Entry, d *analysis.Diagnosis) bool {
	t := d.Triage
	if t.Process != "" || t.Phase != "" || t.Component != "" || len(d.Stack) > 0 || e.Traceback == nil {
		return false
	}
	for i := range e.Traceback.Links {
		if len(e.Traceback.Links[i].Frames) > 0 {
			return false
		}
	}
	return !strings.Contains(e.Text, `File "`)
}

// maxLabelWords bounds the words of a label line.
const maxLabelWords = 3

// labelLine reports whether a headline is only a label a person put over
// a pasted traceback: a Markdown heading ("#### Error") or a few words
// ending in a colon ("error msg:"), not a traceback's own first line.
func labelLine(s string) bool {
	s = strings.TrimSpace(s)
	if h := strings.TrimLeft(s, "#"); h != s && len(s)-len(h) <= 6 && strings.HasPrefix(h, " ") {
		return len(strings.Fields(h)) <= maxLabelWords
	}
	body, ok := strings.CutSuffix(s, ":")
	return ok && !strings.HasPrefix(s, "Traceback ") && len(strings.Fields(body)) > 0 && len(strings.Fields(body)) <= maxLabelWords
}
