package stream

import (
	"slices"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
)

// Stream is one sequence of entries and what is kept of it between lines.
type Stream struct {
	name       string
	asm        *entry.Assembler
	remembered analysis.Stream
	// engine tells which serving engine writes the stream, from its
	// lines until it is decided, or as configured (SetEngine).
	engine engine.Detector

	lines        int64     // lines pushed
	lastOffset   int64     // Offset of the latest line; -1 before the first
	pendingFirst int64     // Offset of the pending entry's first line; -1 when none
	pendingLine  int64     // line number (1-based) of the pending entry's first line
	pendingSince time.Time // when the pending entry's first line was pushed (PushAt)
	doneLine     int64     // line number of the first line of the entries last completed
}

// New returns an empty stream named name, assembling with opts.
func New(name string, opts entry.Options) *Stream {
	return &Stream{name: name, asm: entry.NewAssembler(opts), lastOffset: -1, pendingFirst: -1}
}

// Name is the stream's name ("stdout", "stderr", or "" for a plain file).
func (s *Stream) Name() string { return s.name }

// Push assembles one line and returns the entries it completed; with
// entry.Options.Reuse they are lent until the next Push or Flush.
func (s *Stream) Push(l *entry.Line) []entry.Entry {
	s.lines++
	s.lastOffset = l.Offset
	if !s.engine.Done() {
		s.engine.Line(l.Text)
	}
	wasPending := s.asm.Pending()
	es := s.asm.PushLine(l)
	if len(es) > 0 {
		s.doneLine = s.pendingLine
	}
	switch {
	case !s.asm.Pending():
		s.pendingFirst = -1
	case len(es) > 0 || !wasPending:
		// This line completed the previous entry (or there was none) and
		// began the one now pending.
		s.pendingFirst, s.pendingLine = l.Offset, s.lines
	}
	return es
}

// Engine is the serving engine that writes the stream (engine.VLLM,
// ...), "" while not known.
func (s *Stream) Engine() string { return s.engine.Engine() }

// SetEngine fixes the stream's engine (a configured override), so its
// lines are no longer read for it; "" leaves the stream to detection.
func (s *Stream) SetEngine(name string) {
	if name != "" {
		s.engine.Set(name)
	}
}

// PushAt is Push for a caller that reads lines as they are written (run,
// the Collector): now is when the line was processed, kept while the
// entry it begins is pending (PendingSince).
func (s *Stream) PushAt(l *entry.Line, now time.Time) []entry.Entry {
	first := s.pendingFirst
	es := s.Push(l)
	if s.pendingFirst >= 0 && (len(es) > 0 || s.pendingFirst != first) {
		s.pendingSince = now
	}
	return es
}

// PendingSince is when the pending entry's first line was pushed with
// PushAt; zero when no entry is pending or its first line came by Push. A
// caller holds the incidents of the source while it assembles an entry
// that began by their deadline (incident.Grouper.TickHolding).
func (s *Stream) PendingSince() time.Time {
	if s.pendingFirst < 0 {
		return time.Time{}
	}
	return s.pendingSince
}

// Flush completes the pending entry, if any.
func (s *Stream) Flush() []entry.Entry {
	es := s.asm.Flush()
	if len(es) > 0 {
		s.doneLine = s.pendingLine
	}
	s.pendingFirst = -1
	return es
}

// Restart forgets where the stream stood: the source's content was
// replaced (a truncation), so old offsets mean nothing. Flush first.
func (s *Stream) Restart() { s.pendingFirst, s.lastOffset = -1, -1 }

// Pending reports whether an entry is being assembled.
func (s *Stream) Pending() bool { return s.asm.Pending() }

// PendingFirst is the Offset of the pending entry's first line, -1 when
// none: where a restart must resume reading for nothing to be lost.
func (s *Stream) PendingFirst() int64 { return s.pendingFirst }

// LastOffset is the Offset of the latest line pushed, -1 before any.
func (s *Stream) LastOffset() int64 { return s.lastOffset }

// Line is the line number (1-based, in the stream) of the first line of
// the entries the last Push or Flush completed.
func (s *Stream) Line() int64 { return s.doneLine }

// Set is the streams of one source, kept in name order.
type Set struct {
	opts    entry.Options
	engine  string // configured engine of every stream; "" to detect
	streams []*Stream
	last    *Stream // the stream of the latest Get: lines come in runs
}

// NewSet returns an empty set whose streams assemble with opts.
func NewSet(opts entry.Options) *Set { return &Set{opts: opts} }

// PendingSince is the earliest PendingSince of the set's streams: when
// the oldest entry still being assembled began; zero when none.
func (set *Set) PendingSince() time.Time {
	var since time.Time
	for _, s := range set.streams {
		if t := s.PendingSince(); !t.IsZero() && (since.IsZero() || t.Before(since)) {
			since = t
		}
	}
	return since
}

// Get returns the stream named name, creating it.
func (set *Set) Get(name string) *Stream {
	if set.last != nil && set.last.name == name {
		return set.last
	}
	for _, s := range set.streams {
		if s.name == name {
			set.last = s
			return s
		}
	}
	s := New(name, set.opts)
	s.SetEngine(set.engine)
	set.streams = append(set.streams, s)
	slices.SortFunc(set.streams, func(a, b *Stream) int { return strings.Compare(a.name, b.name) })
	set.last = s
	return s
}

// SetEngine fixes the engine of the set's streams, those made so far
// and those to come (a configured override for the source); "" leaves
// them to detection.
func (set *Set) SetEngine(name string) {
	set.engine = name
	for _, s := range set.streams {
		s.SetEngine(name)
	}
}

// All returns the streams in name order.
func (set *Set) All() []*Stream { return set.streams }

// Entry is one diagnosed entry, lent to the caller's function.
type Entry struct {
	Stream    *Stream
	Entry     *entry.Entry
	Diagnosis *analysis.Diagnosis // valid when Failure, or when it holds PatternErrors
	Failure   bool                // the analysis says the entry is a failure
	// Ahead is set when the entry's log time was ahead of the clock and
	// was set back to the clock's second.
	Ahead bool
	// Engine is the serving engine that wrote the stream, as far as it
	// is known when the entry completed ("" when not known): alerts name
	// it and give its remedies.
	Engine string

	// lent says the failure entry and its Diagnosis still read the
	// assembler's memory (Shell.OwnLater): Own copies them.
	lent bool
	an   *analysis.Analyzer
}

// Own gives a failure entry that its Shell left lent (Shell.OwnLater), and
// its Diagnosis, memory of their own, so that what is kept of them
// outlives the call; it does nothing for an entry already owned.
func (de *Entry) Own() {
	if de.lent {
		de.lent = false
		de.an.OwnLater(de.Diagnosis, de.Entry)
	}
}

// Shell diagnoses the entries of its streams with one Analyzer.
type Shell struct {
	an  *analysis.Analyzer
	d   analysis.Diagnosis
	now func() time.Time
	// seen is the clock's latest reading: an entry dated no later needs
	// no new one.
	seen time.Time
	e    Entry
	// later leaves failure entries lent until Entry.Own (OwnLater).
	later bool
}

// OwnLater makes Diagnose leave a failure entry and its Diagnosis lent, as
// every other entry is: the caller calls Entry.Own before it keeps
// anything of them. A caller that keeps nothing of most failures (a
// repeat of an open incident) then copies none of them.
func (sh *Shell) OwnLater() { sh.later = true }

// NewShell returns a Shell matching with m. now is the clock log times
// are bounded by; time.Now when nil.
func NewShell(m *matcher.Matcher, now func() time.Time) *Shell {
	if now == nil {
		now = time.Now
	}
	return &Shell{an: analysis.New(m), now: now}
}

// SetServerVersion says which sglang release the streams' server runs
// (the configuration's server_version); "" matches every record.
func (sh *Shell) SetServerVersion(v string) { sh.an.SetVersion(v) }

// Matcher is the compiled catalog the Shell diagnoses with.
func (sh *Shell) Matcher() *matcher.Matcher { return sh.an.Matcher() }

// SetMatcher switches to another compiled catalog (a reload); the
// streams keep their pending entries.
func (sh *Shell) SetMatcher(m *matcher.Matcher) {
	if sh.an.Matcher() != m {
		v := sh.an.Version()
		sh.an = analysis.New(m)
		sh.an.SetVersion(v)
	}
}

// Diagnose diagnoses es, entries of s, and calls fn with each in order.
// Entries and diagnoses are lent for the call. The entry's time is bounded
// by the clock first, so what fn sees is never ahead of it.
func (sh *Shell) Diagnose(s *Stream, es []entry.Entry, fn func(*Entry)) {
	if len(es) == 0 {
		return
	}
	eng := s.Engine()
	sh.an.SetEngine(eng)
	for i := range es {
		e := &es[i]
		ahead := false
		// The clock is read only for an entry dated after its last
		// reading: a log read later than it was written (every scan,
		// most of run) never needs it again, and the clock only moves on.
		if e.Time.After(sh.seen) {
			sh.seen = sh.now()
			if e.Time.After(sh.seen) {
				// Most headers stamp whole seconds: the server's next
				// line, of the same second, must not look older.
				e.Time, ahead = sh.seen.Truncate(time.Second), true
			}
		}
		var failure bool
		if sh.later {
			failure = sh.an.AnalyzeLentLater(&sh.d, &s.remembered, e)
		} else {
			failure = sh.an.AnalyzeLentInto(&sh.d, &s.remembered, e)
		}
		// Field by field: most entries are quiet, and a whole struct
		// copy per entry showed in the scan's profile.
		de := &sh.e
		de.Stream, de.Entry, de.Diagnosis, de.Failure, de.Ahead, de.Engine = s, e, &sh.d, failure, ahead, eng
		de.lent, de.an = failure && sh.later, sh.an
		fn(de)
	}
}
