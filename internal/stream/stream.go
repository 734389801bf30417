package stream

import (
	"cmp"
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
	opts       entry.Options
	remembered analysis.Stream
	// engine tells which serving engine writes the stream, from its
	// lines until it is decided, or as configured (SetEngine).
	engine engine.Detector

	// parts are the stream's assemblers: parts[0] reads the lines of no
	// rank and those of the first rank a launcher's prefix names
	// ("[rank0]:"); each other rank gets one of its own (at most
	// maxRankParts in all; further ranks share parts[0]), so the ranks'
	// tracebacks, interleaved line by line, are each read whole.
	parts []part
	last  int // index of the part that read the latest line
	// outer is the rank of the outer prefix of the latest line that
	// carried two ("[rank3]: [rank10]: "): a line behind it alone is a
	// line of no rank.
	outer     string
	flushBuf  []entry.Entry
	endedBuf  []entry.Entry
	endedLine int64 // line number of the first line of the entries endRankless ended

	lines      int64     // lines pushed
	lastOffset int64     // Offset of the latest line; -1 before the first
	doneLine   int64     // line number of the first line of the entries last completed
	now        time.Time // the time PushAt was given for the line being pushed
}

// part is one assembler of a stream and the bookkeeping of its pending
// entry.
type part struct {
	rank         string // the rank prefix's digits; "" for parts[0] until a rank is seen
	asm          *entry.Assembler
	rankless     bool      // a line of no rank opened the pending entry
	pendingFirst int64     // Offset of the pending entry's first line; -1 when none
	pendingLine  int64     // line number (1-based) of the pending entry's first line
	pendingSince time.Time // when the pending entry's first line was pushed (PushAt)
}

// maxRankParts bounds the assemblers of one stream: a launcher that
// interleaves more ranks than that shares one among the rest.
const maxRankParts = 8

// New returns an empty stream named name, assembling with opts.
func New(name string, opts entry.Options) *Stream {
	return &Stream{name: name, opts: opts, parts: []part{{asm: entry.NewAssembler(opts), pendingFirst: -1}}, lastOffset: -1}
}

// maxRankPrefixAt bounds where a rank prefix may stand in a line: behind
// a collector's time or a container's column at most.
const maxRankPrefixAt = 96

// rankOf returns the digits of the torchrun rank prefix ("[rank3]:") a
// line carries near its start (after other wrappers: a collector's time, a
// launcher's tag, a grep's line number, a colour code), "" for none. When
// rank prefixes follow one another ("[rank3]: [rank10]: x", a launcher's
// rank around the output of a child that prints its own), rank is the
// innermost, the process that wrote the line, and outer the first.
func rankOf(text string) (rank, outer string) {
	head := text
	if len(head) > maxRankPrefixAt+16 {
		head = head[:maxRankPrefixAt+16]
	}
	i := strings.Index(head, "[rank")
	if i < 0 || i > maxRankPrefixAt || i > 0 && !rankPrefixAfter(head[:i]) {
		return "", ""
	}
	for {
		r := head[i+len("[rank"):]
		j := 0
		for j < len(r) && j < 6 && r[j] >= '0' && r[j] <= '9' {
			j++
		}
		if j == 0 || !strings.HasPrefix(r[j:], "]:") {
			return rank, outer
		}
		if rank != "" && outer == "" {
			outer = rank
		}
		rank = r[:j]
		// Another prefix right behind this one, after its space.
		next := strings.TrimLeft(r[j+len("]:"):], " ")
		if !strings.HasPrefix(next, "[rank") {
			return rank, outer
		}
		i = len(head) - len(next)
	}
}

// rankPrefixAfter reports whether a rank prefix may start right after
// before, the bytes in front of it: at a word's start (behind a space, a
// collector's "|" or "]", a launcher's "<stderr>:" or ">", a grep's
// "12:", a carriage return), or behind a colour code ("\x1b[33m").
func rankPrefixAfter(before string) bool {
	c := before[len(before)-1]
	if c == 'm' {
		k := strings.LastIndexByte(before, '\x1b')
		if k < 0 || !strings.HasPrefix(before[k:], "\x1b[") {
			return false
		}
		for _, d := range []byte(before[k+2 : len(before)-1]) {
			if (d < '0' || d > '9') && d != ';' {
				return false
			}
		}
		return true
	}
	return !isWordByte(c)
}

// isWordByte reports whether c is an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// mayHaveRank reports, cheaply, whether text may carry a rank prefix: an
// sglang record's line (most lines) starts with its bracketed time, and a
// launcher's prefix stands in front of that, never behind it. Another
// bracket that opens with a digit may stand right in front of the rank
// prefix: a collector's bracketed time ("[2026-05-28T00:11:09.000Z]
// [rank3]: "), an MPI launcher's tag ("[1,3]<stderr>:[rank3]:").
func mayHaveRank(text string) bool {
	head := text[:min(len(text), maxRankPrefixAt+16)]
	if len(head) > 1 && head[0] == '[' && head[1] >= '0' && head[1] <= '9' {
		if len(head) > 11 && head[11] == ' ' {
			// sglang's "[2026-05-28 00:11:09": most lines.
			return false
		}
		j := strings.IndexByte(head, ']')
		if j < 0 {
			return false
		}
		return strings.Contains(head[j+1:min(len(head), j+1+maxTagAfter)], "[rank")
	}
	return strings.Contains(head, "[rank")
}

// maxTagAfter bounds the bytes between a bracket that opens a line with a
// digit and a rank prefix behind it ("<stderr>:").
const maxTagAfter = 24

// partOf returns the index in s.parts of the part that reads a line of
// rank (see parts).
func (s *Stream) partOf(rank string) int {
	if rank == "" {
		return 0
	}
	for i := range s.parts {
		if s.parts[i].rank == rank {
			return i
		}
	}
	if s.parts[0].rank == "" {
		s.parts[0].rank = rank
		return 0
	}
	if len(s.parts) == maxRankParts {
		return 0
	}
	s.parts = append(s.parts, part{rank: rank, asm: entry.NewAssembler(s.opts), pendingFirst: -1})
	return len(s.parts) - 1
}

// Name is the stream's name ("stdout", "stderr", or "" for a plain file).
func (s *Stream) Name() string { return s.name }

// Push assembles one line and returns the entries it completed; with
// entry.Options.Reuse they are lent until the next Push or Flush.
func (s *Stream) Push(l *entry.Line) []entry.Entry {
	s.lines++
	s.lastOffset = l.Offset
	if len(s.parts) == 1 && !mayHaveRank(l.Text) {
		// Most lines: one assembler and no rank, which nothing but the
		// line's own entries can end.
		if !s.engine.Done() {
			s.engine.Line(l.Text)
		}
		es, _ := s.pushTo(&s.parts[0], l, true)
		return es
	}
	i, rankless := s.last, true
	rank, outer := rankOf(l.Text)
	switch {
	case outer != "":
		s.outer = outer
	case rank == s.outer:
		// The outer prefix alone: the rest of the line before (a
		// wrapped line, a tail without its writer's own prefix) or a
		// line of the launcher, as a line of no rank is.
		rank = ""
	}
	if rank != "" {
		i, rankless = s.partOf(rank), false
	}
	if !s.engine.Done() && (rankless || i == 0) {
		// The engine is told by one rank's lines and the lines of no
		// rank: every rank prints the same program's lines, and N
		// copies of a weak sign are no stronger than one.
		s.engine.Line(l.Text)
	}
	p := &s.parts[i]
	// (A line of no rank goes on with the line before it: the rest of a
	// wrapped line, a message's next line.)
	var ended []entry.Entry
	if !rankless {
		// A rank's line ends the entries a line of no rank opened in
		// the other parts (the launcher's or the server's own record):
		// no rank's line goes on with them.
		ended = s.endRankless(p)
	}
	if len(s.parts) > 1 {
		if i != s.last {
			p.asm.ShareTime(s.parts[s.last].asm)
			s.last = i
		}
	}
	es, opened := s.pushTo(p, l, rankless)
	if len(ended) > 0 {
		s.doneLine = s.endedLine
		s.flushBuf = append(append(s.flushBuf[:0], ended...), es...)
		return s.flushBuf
	}
	if rankless && opened && len(s.parts) > 1 {
		// A line of no rank that opens a record of its own (the
		// launcher's, a restarted server's) ends every rank's pending
		// entry, as it ends the one pending entry of a stream that
		// interleaves nothing.
		return s.endOthers(p, es)
	}
	return es
}

// pushTo pushes l to the part p's assembler and keeps the part's
// bookkeeping; it reports whether l opened the entry now pending.
func (s *Stream) pushTo(p *part, l *entry.Line, rankless bool) (es []entry.Entry, opened bool) {
	wasPending := p.asm.Pending()
	es = p.asm.PushLine(l)
	if len(es) > 0 {
		s.doneLine = p.pendingLine
	}
	switch {
	case !p.asm.Pending():
		p.pendingFirst = -1
	case len(es) > 0 || !wasPending:
		// This line completed the previous entry (or there was none) and
		// began the one now pending.
		p.pendingFirst, p.pendingLine, p.pendingSince = l.Offset, s.lines, s.now
		p.rankless = rankless
		opened = true
	}
	return es, opened
}

// endRankless completes the pending entries of the parts but p that a
// line of no rank opened, and returns them in the order they began.
func (s *Stream) endRankless(p *part) []entry.Entry {
	var out []entry.Entry
	for i := range s.parts {
		q := &s.parts[i]
		if q == p || !q.rankless || !q.asm.Pending() {
			continue
		}
		if out == nil {
			out = s.endedBuf[:0]
			s.endedLine = q.pendingLine
		}
		s.endedLine = min(s.endedLine, q.pendingLine)
		out = append(out, q.asm.Flush()...)
		q.pendingFirst, q.rankless = -1, false
	}
	if len(out) > 1 {
		slices.SortStableFunc(out, func(a, b entry.Entry) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	}
	s.endedBuf = out
	return out
}

// endOthers completes the pending entries of every part but p and returns
// them with es, which p completed, in the order their first lines came.
func (s *Stream) endOthers(p *part, es []entry.Entry) []entry.Entry {
	s.flushBuf = append(s.flushBuf[:0], es...)
	n := len(s.flushBuf)
	for i := range s.parts {
		q := &s.parts[i]
		if q == p || !q.asm.Pending() {
			continue
		}
		if len(s.flushBuf) == n && len(es) == 0 {
			s.doneLine = q.pendingLine
		}
		s.flushBuf = append(s.flushBuf, q.asm.Flush()...)
		q.pendingFirst = -1
	}
	if len(s.flushBuf) == n {
		return es
	}
	slices.SortStableFunc(s.flushBuf, func(a, b entry.Entry) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	return s.flushBuf
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
	s.now = now
	es := s.Push(l)
	s.now = time.Time{}
	return es
}

// PendingSince is when the earliest pending entry's first line was pushed
// with PushAt; zero when no entry is pending or its first line came by
// Push. A caller holds the incidents of the source while it assembles an
// entry that began by their deadline (incident.Grouper.TickHolding).
func (s *Stream) PendingSince() time.Time {
	k := s.earliestPending()
	if k < 0 {
		return time.Time{}
	}
	return s.parts[k].pendingSince
}

// earliestPending is the index of the part whose pending entry's first
// line came first, -1 when no part has one.
func (s *Stream) earliestPending() int {
	k := -1
	for i := range s.parts {
		if f := s.parts[i].pendingFirst; f >= 0 && (k < 0 || f < s.parts[k].pendingFirst) {
			k = i
		}
	}
	return k
}

// Flush completes the pending entries, if any: of every rank, in the
// order their first lines came.
func (s *Stream) Flush() []entry.Entry {
	if len(s.parts) == 1 {
		p := &s.parts[0]
		es := p.asm.Flush()
		if len(es) > 0 {
			s.doneLine = p.pendingLine
		}
		p.pendingFirst = -1
		return es
	}
	order := make([]int, 0, len(s.parts))
	for i := range s.parts {
		if s.parts[i].asm.Pending() {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(s.parts[a].pendingLine, s.parts[b].pendingLine) })
	s.flushBuf = s.flushBuf[:0]
	for k, i := range order {
		p := &s.parts[i]
		if k == 0 {
			s.doneLine = p.pendingLine
		}
		s.flushBuf = append(s.flushBuf, p.asm.Flush()...)
		p.pendingFirst = -1
	}
	return s.flushBuf
}

// Restart forgets where the stream stood: the source's content was
// replaced (a truncation), so old offsets mean nothing. Flush first.
func (s *Stream) Restart() {
	for i := range s.parts {
		s.parts[i].pendingFirst = -1
	}
	s.lastOffset = -1
}

// Pending reports whether an entry is being assembled.
func (s *Stream) Pending() bool {
	for i := range s.parts {
		if s.parts[i].asm.Pending() {
			return true
		}
	}
	return false
}

// PendingFirst is the Offset of the first line of the earliest pending
// entry, -1 when none: where a restart must resume reading for nothing to
// be lost.
func (s *Stream) PendingFirst() int64 {
	k := s.earliestPending()
	if k < 0 {
		return -1
	}
	return s.parts[k].pendingFirst
}

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
	sh.an.ConfigureEngine(s.engine.Configured())
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
		if failure {
			// The entry's own engine, when its lines name another
			// than the stream's (a relayed or interleaved engine).
			de.Engine = sh.an.EngineOf(&sh.d, e)
		}
		de.lent, de.an = failure && sh.later, sh.an
		fn(de)
	}
}
