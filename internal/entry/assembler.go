package entry

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Assembler joins the lines of ONE stream (one source and stream) into
// entries. The caller keeps one Assembler per stream, pushes lines in order
// and calls Flush at the end of the stream or when it has been idle long
// enough; the Assembler never looks at the clock. It is not safe for
// concurrent use.
//
// The rules below are a state machine (machine.go): the pending entry's
// state, the class of each line and one transition table decide whether
// a line continues the entry; design.md lists every transition.
//
// The rules, in order:
//
//   - Wrappers (SGLANG-LOGS.md §10) are stripped from every line first.
//   - Then a learned per-stream prefix: when two lines at most 16
//     non-blank lines apart carry text of the same shape (bytes kept,
//     except digit runs, hex numbers and level words, which match any of
//     their kind) in front of what Python prints only at the start of a
//     line, that shape is learned and comes off every later line of the
//     stream that starts with it, and off the first of the two lines when
//     its entry is still open. At least one of the two must be strong evidence: a frame line,
//     a chain separator or an sglang header after the prefix; the other may
//     be a "Traceback (most recent call last):" line, a strict exception
//     line or, right after a prefixed frame, its indented source line. The
//     prefix is at most 96 bytes, holds a letter or digit and ends with a
//     space, tab, ":", "|", "]" or ">"; an sglang record never carries one;
//     at most 4 shapes are kept, the oldest forgotten. What comes off
//     joins Entry.Prefix. When the prefix is itself a log record's header
//     (a Python logger or Rust tracing relaying a child's output line by
//     line) and the rest is neither a header nor a native line, the line
//     is a record of that logger: it takes its format, time and level
//     (the rest stays its message), and starts an
//     entry unless it continues an open traceback or is the traceback a
//     logger.exception record announces.
//   - A header line (srt, legacy, diffusion, uvicorn, Rust tracing, router,
//     generic Python logging, and the other engines' families) always
//     starts a new entry, so interleaved ranks never merge, with three
//     exceptions. vLLM writes a multi-line record as lines that each
//     repeat its header ("ERROR 05-01 12:00:00 [core.py:7] "): a line
//     with the same header text (level, time and location) and the same
//     process prefix continues the record when its content would continue
//     it without a header (its traceback, the rest of its exception's
//     message, an indented line, what a line ending in ":" announced), and
//     a header with nothing after it is a blank line of the record, which
//     makes no entry; the repeated header is left out of the entry's text.
//     Ray core repeats its level, pid, thread and location the same way,
//     and those lines always continue. TGI's launcher relays a shard's
//     stderr as plain lines ending in " rank=N": its "Shard N failed to
//     start", the shutdown lines after it and "Error: ShardCannotStart"
//     continue that block.
//   - A Go slog, JSON or Ray core record is one line: no header-less
//     line continues it.
//   - A native line (faulthandler, terminate called, c10d, NCCL, CUDA device
//     assert, glog, shell kill messages, ROCm, Ascend, UCX) starts an entry of its
//     own; it takes only the continuation lines of its own shape (thread
//     dumps and frames, "what():", "Exception raised from", "frame #N:",
//     torch's CUDA epilogue, a compiler's source excerpt and caret lines,
//     a Rust panic's message line, its indented further lines, its
//     "note:" and its backtrace).
//     The soft native lines (CUDA, HIP/ROCclr, ACL and CANN codes,
//     compiler and linker diagnostics) are also what an exception message
//     quotes: inside the open traceback of an sglang record, not after a
//     blank line, they continue it like any other line.
//   - A Python warning ("file.py:54: FutureWarning: ...") is another
//     writer's record: it ends the entry before it and starts its own.
//   - After an sglang header (srt, legacy, diffusion) every other line is a
//     continuation: sglang writes a header on every record and prints
//     multi-line messages, tracebacks and py-spy dumps without one. Three
//     exceptions start a new entry: a second bare "Traceback" line after the
//     record's own traceback, a bare traceback after a blank line, and a
//     "File ..." line with no traceback open. A bare traceback directly after
//     a record without one joins it: logging.exception writes exactly that,
//     and an uncaught exception printed right after an unrelated record
//     cannot be told apart from it.
//   - After any other header, continuation lines join until the traceback
//     the record carries ends: Python logging appends the traceback last.
//     Before a traceback, a strict exception line joins only after a line
//     ending in ":", as after a header-less line (below).
//   - A traceback ends at its exception line, unless what follows is a chain
//     separator, an exception-group box line, an indented line (notes, CANN
//     text) or torch's fixed CUDA epilogue. Inside a section, frames, source
//     lines (even when their indentation was lost), caret lines and
//     "[Previous line repeated ...]" continue it.
//   - A header-less line is an entry of its own. It takes indented
//     continuation lines (warnings.warn source lines, Java "at" frames), and
//     a traceback that follows it directly when it ends with ":" (a bare
//     logger.exception message) or is CPython's "Exception ignored in: ...".
//     A strict exception line (see Traceback.Bare) joins it the same way,
//     only after a line ending in ":" ("Failed to load the model:" then
//     "ValueError: ..."); otherwise it starts an entry of its own. A bare
//     exception line takes torch's CUDA epilogue.
//   - A "Traceback (most recent call last):" or "File ..." line that no rule
//     above took starts a header-less traceback entry.
//   - Before all of these, a line that is the rest of the entry's last line,
//     split off by a terminal's or a paste's hard wrap, is joined to it as
//     one line, with nothing between ("NCCL error: unhandled syst" and "em
//     error"): the matcher then reads the record's text or the exception's
//     message whole. A header, a native line or a wrapper logger's record
//     is never such a rest, so two log records are never joined; see
//     isWrapBreak for the rest of the rule, which says no where a line of
//     its own is as likely.
//
// An entry without a traceback whose message, or one of whose continuation
// lines at column 0, is a strict exception line (a qualified class name
// whose last part ends in Error, Exception, Exit, Interrupt, Fault, Failure
// or Timeout, or is a known builtin such as StopIteration, then ": msg" or
// the end of the line; never "...Warning:"), as printed or quoted in
// backticks or as a list item ("`ValueError: x`", "- ImportError: x"),
// gets a one-link Bare
// Traceback from the first such line. So does a header-less entry whose
// line holds one glued behind its frame's source line, as a paste that
// lost its newlines prints them ("raise RuntimeError( RuntimeError: ...";
// see parseGluedException).
//
// Double spacing: a paste or a terminal that put a blank line after every
// line (SGLANG-LOGS.md §10). A stream is double-spaced once three
// non-blank lines in a row each followed exactly one blank line (at its
// start, once its second and third lines each did), until two non-blank
// lines meet. While it is, the blank lines
// before a line count half when deciding whether the line continues the
// entry (one is none, two or three are one); an entry's text keeps them
// all.
//
// Re-raise: a header-less traceback whose exception line is that of the
// last traceback a log record carried is marked Entry.Reraised (a child
// process logged its exception, then multiprocessing printed it again).
//
// Blank lines: they never start an entry while one is open. They are held
// until the next non-blank line decides: if that line continues the entry,
// the blanks become part of its text (chained tracebacks, py-spy dumps);
// otherwise they end it, counted in its Lines and LastOffset but not in its
// Text or Raw. After an sglang header a blank line ends the entry only when a
// header, a native line, a warning or a new bare traceback follows; after
// other headers and header-less lines a blank line always ends the entry,
// except inside a traceback where a chain separator, a frame, a source line
// or the exception line follows (loguru's diagnose output, doubled blank
// lines in pastes). A line that is blank once its wrappers and learned
// prefix are off counts as blank. Blank lines with no entry open (start of
// stream, after Flush) form a blank entry (empty Text) so that every line is
// accounted for.
//
// Time: an entry whose lines carry no timestamp (a shell's "Killed", a
// header-less line, most native lines) inherits the stream's last known
// time, the time of the last entry that had one, and says so
// (Entry.TimeInherited); before the stream's first timestamp it has none.
// A timestamp without a year (glog, c10d, diffusion, vLLM) or without a
// date (legacy sglang) takes them from that last known time, choosing the
// year or day that puts it nearest (so December 31 then January 1 turns
// the year, and a line in January after a December one was printed late);
// before the first, from Line.Time, else Options.Reference, and then never
// later than a day after it. A year taken from them (a scanned log whose
// first timestamps lack it) is a guess, and the entries dated from it say
// so (Entry.TimeGuessed) until a full timestamp comes.
//
// Invalid UTF-8 is kept byte for byte; cuts happen on rune boundaries and add
// none. Push allocates only to build a completed entry's multi-line Text and
// Raw or its Traceback, to join a wrapped line, and when it learns a prefix: with or without a
// learned prefix, a line allocates nothing on its own.
type Assembler struct {
	opt     Options
	out     []Entry
	cur     pending
	scratch []string // reused to hand the kept lines to ParseTraceback
	bares   bareSlab // the bare tracebacks of entries
	learner prefixLearner
	lines   int64        // non-blank lines pushed, for the learner's evidence window
	spacing spacing      // whether a paste put a blank line after every line
	lead    indentLead   // whether a paste indented every line
	pane    paneBorder   // the borders a terminal pane (k9s) drew around every line
	width   wrapWidth    // the width a terminal hard-wrapped the stream at
	pad     rowPad       // the width a terminal padded the stream's rows to
	padCut  int          // the padding rowPad took off the line read before it knew the width
	padded  bool         // rowPad took a padding off the line, before or after it knew the width
	columns columnFiller // a copied console's column lines
	rich    richLayout   // a column console's layout (richlayout.go)
	seconds secondCache  // the second the last header began with
	arena   arenas       // the kept lines' text, with Options.Reuse
	cls     classified   // the line Push is reading
	// kept holds the pending entry's lines: outside pending, so that
	// starting an entry does not copy it.
	kept lineBuf
	// known is the stream's last known log time: an entry without a time
	// of its own inherits it, and a timestamp without a year or a date
	// takes them from it.
	known time.Time
	// knownGuessed says known's year is a guess (Entry.TimeGuessed).
	knownGuessed bool
	// logged is the exception line (type and message) of the last
	// traceback a log record carried, kept to tell its re-raise
	// (Entry.Reraised); "" when there is none.
	logged string
	// loggedAt is the number of non-blank lines pushed when logged was
	// read: a re-raise follows within reraiseWindow lines of it.
	loggedAt int64
	// procs remembers the process the last entry's prefix named: a
	// stream's entries mostly carry the same prefix.
	procs procCache
}

// procCache remembers prefixProcess of one prefix, by its bytes (with
// Options.Reuse the prefix's own memory is reused), or the rank a prefix
// family in it names.
type procCache struct {
	prefix   [maxCachedPrefix]byte
	n        int    // bytes of prefix held; 0 when empty
	from, to int    // the process within it
	rank     string // the rank a prefix family names, when from == to
}

// maxCachedPrefix bounds the prefixes procCache holds.
const maxCachedPrefix = 128

// process returns prefixProcess(prefix), or else the program a syslog
// prefix names (syslogWriter), or else the rank a prefix family at its
// start names (familyRank), from the cache when prefix is the one it
// holds.
func (pc *procCache) process(prefix string) string {
	if strings.IndexByte(prefix, '(') < 0 && strings.IndexByte(prefix, ':') < 0 && (prefix == "" || prefix[0] != '[') {
		return "" // most prefixes: timestamps, services
	}
	if pc.n == len(prefix) && string(pc.prefix[:pc.n]) == prefix {
		if pc.from == pc.to {
			return pc.rank
		}
		return prefix[pc.from:pc.to]
	}
	proc := prefixProcess(prefix)
	if proc == "" {
		// The program a syslog prefix names.
		proc = syslogWriter(prefix)
	}
	rank := ""
	if proc == "" {
		rank = familyRank(prefix)
	}
	if len(prefix) <= maxCachedPrefix {
		pc.n = copy(pc.prefix[:], prefix)
		pc.from, pc.to, pc.rank = 0, 0, rank
		if proc != "" {
			// proc is a part of prefix.
			pc.from = strings.Index(prefix, proc)
			pc.to = pc.from + len(proc)
		}
	}
	if proc == "" {
		return rank
	}
	return proc
}

// entryKind is what opened the pending entry.
type entryKind int

const (
	kindBlank  entryKind = iota // only blank lines so far
	kindHeader                  // a header line
	kindRaw                     // a header-less line or traceback
	kindNative                  // a native block
)

// pending is the entry being assembled.
type pending struct {
	active      bool
	kind        entryKind
	source      string
	stream      string
	first, last int64
	lines       int
	blanks      int // blank lines held after the last kept line

	format Format
	time   time.Time
	// inherited: time is the stream's last known time, not the entry's own.
	inherited bool
	// guessed: time's year is not the stream's (Entry.TimeGuessed).
	guessed bool
	ranks   Ranks
	level   string
	msg     string
	prefix  string
	native  string
	// msgNext: the header held no message, which a line after it gives
	// (nextMessage); msgLine is the index among the kept lines of the
	// line that gave it, 0 while the message is the first line's.
	msgNext bool
	msgLine int

	// st is where the entry stands in the continuation rules
	// (machine.go): what opened it and the phase of its traceback.
	st    state
	colon bool // the last kept line ends in ":", announcing what follows
	// flush: the entry's traceback lost its indentation, which its
	// lines are kept with (flushtb.go); flushSrc: the last kept line is
	// the source line under one of its frames.
	flush, flushSrc bool

	hasTB bool // the entry holds a traceback (its phase is not none)
	group bool // the traceback is an exception group's: box lines continue it

	// lineMsg follows an exception line with an empty message
	// ("ImportError: ") taking the message lines that follow it
	// (msgNone...).
	lineMsg int8
	// bareType and bareMsg hold the entry's first exception line when it
	// has no traceback of its own (see Traceback.Bare).
	bareType, bareMsg string
	// nccl follows the lines of an NCCL error message (ncclNone...).
	// Read it through ncclState: with ncclLazy, the search of the first
	// kept line waits until a line that is not an sglang header asks for
	// it, which after most entries none does.
	nccl     int8
	ncclLazy bool
	// panic follows the lines of a Rust panic (panicNone...).
	panic int8
	// lastLen is the length of the last non-blank line taken, as pushed
	// (a rejoined line is longer), and lastCut says the line bound cut
	// it: a hard wrap's width, see rejoin.
	lastLen int
	lastCut bool
	// foldWidth is the longest piece a word wrap's (fold -s) rejoined
	// break showed in the entry: the wrap's width is at least that, where
	// a later piece cut short by a long token says less.
	foldWidth int
	// lastRaw is the length of the last non-blank line taken as the
	// source delivered it, every prefix included, and the runtime's
	// framing the source took off (Line.Framing): two pieces of one
	// terminal wrap are as long as each other (see wrapInSpacedPaste).
	lastRaw int
	// lastPadded: the last kept line ended in a padding taken off before
	// the row width was known (padrows.go); a rest joined to it goes on
	// after a space, as the padding did.
	lastPadded bool
	// lastTrimmed: the last kept line ended in a padded row's padding,
	// taken off whenever (a.padded): a space of its own went with it.
	lastTrimmed bool
	// foldIndent: the one blank line held is a record's repeated header
	// with only this many spaces after it, a line's indentation a word
	// wrap broke after; 0 for none.
	foldIndent int
	// whole: the last kept line was rejoined from a terminal's pieces,
	// the last of them shorter than the one before: the writer's line is
	// whole there, and a rest after it was cut by an earlier wrap of the
	// line whole (see rejoin).
	whole bool

	// firstN, firstTime and firstCut let a learned prefix reopen the entry
	// from its first line: its number among non-blank lines, its Line.Time
	// and the bytes the line bound cut from it.
	firstN    int64
	firstTime time.Time
	firstCut  int

	cutBytes int
	// stripped: a learned prefix came off the first line, so there is
	// nothing for reopen to take off again.
	stripped bool

	// record is the vLLM header text of the entry's record (see
	// header.record): a line with the same one is another line of it.
	record string
	// recBlanks counts the held blank lines that were that record's
	// own (its header with nothing after it): they do not end it.
	recBlanks int
	// proc is the process or rank the header named (Entry.Process).
	proc string
	// ownMsg: the message is not the tail of the first kept line (a
	// key=value or JSON line's, unquoted), so Text is built from it.
	ownMsg bool
	// wholeText: Text starts with the whole first line, header
	// included, though the message leaves the header out (glog: its
	// source file tells the component).
	wholeText bool
	// relay follows a shard's stderr that TGI's launcher relays
	// (relayNone...).
	relay int8
	// table is the last kept line's box-drawn table row, whose last
	// cell the rows after it may go on with (tablerow.go); piece a
	// continuation row a terminal cut, its first piece joined.
	table tableRow
	piece tablePiece
}

// classified is one non-blank line, parsed.
type classified struct {
	s      string // the text, wrappers and any learned prefix removed
	prefix string // what was removed from its front
	h      header
	header bool
	sglang bool // header, and of one of sglang's own families
	n      native
	native bool
	// prefixed: a learned prefix that is itself a log record's header
	// (h holds it, with s as its message) came off a line that has no
	// header of its own. Such a line is a record of the wrapping logger:
	// it starts an entry unless it continues an open traceback.
	prefixed bool
	// near is the stream's time at this line (Assembler.near), or zero
	// when no line of the stream had one yet.
	near time.Time
	// record and proc are what engineFields reads of h: the text that
	// names a vLLM or Ray core record, and the process or rank.
	record, proc string
}

// NewAssembler returns an Assembler with o's bounds (zero fields take their
// defaults).
func NewAssembler(o Options) *Assembler {
	a := &Assembler{opt: o.withDefaults()}
	a.kept = newLineBuf(a.opt)
	a.arena.limit = a.opt.MaxBytes
	return a
}

// Push adds one line and returns the entries it completed, usually none or
// one. The returned slice is reused by the next call to Push or Flush: copy
// the entries out (ranging over it and passing each Entry on is enough)
// before calling again. With Options.Reuse, the entries' strings are
// reused too (see Entry.Own), and Push keeps none of l.Text's memory.
func (a *Assembler) Push(l Line) []Entry { return a.PushLine(&l) }

// PushLine is Push with the line passed by pointer, which it does not
// keep: a caller that holds its Line in a larger struct (a source's lent
// Line) passes it without copying its 88 bytes twice on every line.
func (a *Assembler) PushLine(l *Line) []Entry {
	a.out = a.out[:0]
	a.padCut, a.padded = 0, false
	learning := a.pad.width == 0
	t := a.pad.trim(l.Text)
	if learning && a.pad.width > 0 {
		// This row taught the row width: the row before, as long, kept
		// a padding too short to take off before (padrows.go).
		a.unpadLast(a.pad.width)
	}
	if len(t) != len(l.Text) {
		a.padded = true
		// A padded row's padding is no part of the line (padrows.go).
		trimmed := *l
		trimmed.Text = t
		if a.pad.width == 0 {
			// Taken off before the row width is known: the row
			// counts as long as it is shown, for a wrap's rules.
			a.padCut = len(l.Text) - len(t)
			trimmed.Framing += a.padCut
		}
		l = &trimmed
	}
	text, cut := l.Text, 0
	if len(text) > a.opt.MaxLineBytes && a.opt.Redact != nil {
		// A fresh string when it changed; it may fit the bound now.
		text = a.opt.Redact(text)
	}
	keep := false
	if len(text) > a.opt.MaxLineBytes {
		text, cut = cutLine(text, a.opt.MaxLineBytes) // a fresh string
	} else {
		keep = a.opt.Reuse
	}
	if !isSGLangStart(text) && cut == 0 {
		// (sglang's records are one line each; the routine line
		// takes this one test.)
		if i := escapedNewline(text); i >= 0 {
			return a.pushEscapedLines(l, text, i)
		}
	}
	base, start, end := wrapperSpan(text)
	if end > start && base[end-1] == paneBorderLast {
		// (Most lines end in another byte and take this one test.)
		start, end = a.pane.strip(base, start, end)
	} else {
		a.pane.width = 0
	}
	if n := a.lead.strip(base[start:end]); n > 0 {
		start += n
		start += wrapperPrefixesLen(base[start:end])
		start, end = emphasisBounds(base, start, end)
	}
	if keep {
		// Read first, then copied (what is read of the line lies in
		// base): a scan of the copy right after the copy was written
		// loads in other widths than its stores, which the processor
		// cannot forward, and stalls on every line.
		base = a.arena.keep(base)
	}
	full := base[start:end]
	rich := 0
	if a.rich.msgCol > 0 {
		// A column console's indentation (richlayout.go).
		if rich = a.rich.indent(full); rich > 0 {
			start += rich
			full = base[start:end]
		}
	}
	p := &a.cur
	if isBlank(full) || labelAlone(full) {
		// A launcher's label alone is a blank line of its task's
		// output, before the label is learned as a prefix too.
		a.pushBlank(l, base[:start], cut)
		return a.out
	}
	learned := 0
	if a.learner.learned() {
		var g, r, n int
		if learned, g, r, n = a.learner.lineMatch(full); g > 0 {
			// The first line with its wrappers and lead, which
			// Push then reads again as it reads any line.
			return a.pushGlued(l, full[:learned], base[:start+learned+g], full[learned+r:], n)
		}
	}
	if last := full[len(full)-1]; a.columns.open() || (isDigit(last) || last == 'Z') && len(full) <= maxFamilyPrefix+maxTimeColumn {
		// A time alone ends in a digit or a "Z", a short line: most
		// lines are no column line and skip the rest.
		if a.pushColumn(l, base, start, end, learned, cut) {
			return a.out
		}
	}
	a.lines++
	a.spacing.line()
	a.width.observe(len(l.Text) + l.Framing)
	ref, near := a.reference(l.Time)
	// Push's own, reused: clearing a classified for every line cost more
	// than the fields classify sets.
	c := &a.cls
	c.near = near
	tried := false // rejoin asked of the line as classified, and refused
	// inMsg: the line is in a column console's message column while the
	// record's message is open: a word wrap's rest or the record's next
	// line, never a terminal's cut.
	inMsg := rich > 0 && rich == a.rich.msgCol && a.rich.wrapped
	if learned == 0 {
		a.classify(c, full, full, base[:start], false, ref)
		if inMsg && a.richJoin(l, c) {
			return a.out
		}
		// An sglang record carries no prefix, so only other lines can
		// be evidence of one.
		if !c.sglang && !(isDigit(full[0]) && a.locationCut() && lineNumberRest(full)) {
			// (The rest of a logger's location a terminal cut inside
			// its line number, "84: *** SIGSEGV ...", is no task's
			// label.)
			record := c.header && c.h.format == FormatUvicorn && a.seconds.startsRecord(full)
			if ok, firstN, firstLen := a.learner.observe(full, a.lines, record); ok {
				a.reopen(firstN, firstLen, false)
				learned = a.learner.match(full)
				// The first line, read again, may have told the
				// stream's time.
				ref, c.near = a.reference(l.Time)
			}
		}
		if learned == 0 && !c.header && !c.native {
			// A failure line behind a prefix no rule knows: read it
			// without the prefix, and learn the prefix for the lines
			// that continue it; unless the line is the rest of the
			// last, which a terminal cut inside a token that looks like
			// such a prefix ("...compiler_depend.t" and "s:36 NPU
			// function error: ...").
			if a.cur.active && !inMsg {
				if a.rejoin(l, c, cut) {
					a.lines-- // the rest of a line, not a line
					return a.out
				}
				tried = true
			}
			if learned = failureBehindPrefix(full, ref, a.opt.Location); learned > 0 {
				a.learner.adopt(full[:learned])
			}
		}
	}
	if learned > 0 {
		start += learned
		start += wrapperPrefixesLen(base[start:end])
		start, end = emphasisBounds(base, start, end)
		if isBlank(base[start:end]) {
			a.pushBlank(l, base[:start], cut)
			return a.out
		}
		if a.rich.msgCol > 0 && rich == 0 {
			// A column console's indentation behind the prefix.
			if rich = a.rich.indent(base[start:end]); rich > 0 {
				start += rich
				inMsg = rich == a.rich.msgCol && a.rich.wrapped
			}
		}
		// A relay's prefix behind the learned one ("3: " before
		// "2024-06-02 00:26:10 | ERROR | stderr | "): learned on its
		// own, from the text behind the outer prefix, and taken off
		// after it.
		_, outer := a.learner.matchExcept(full, -1)
		inner, _ := a.learner.matchExcept(base[start:end], outer)
		if inner > 0 && !isBlank(base[start+inner:end]) && !isSGLangRecord(base[start:end]) {
			start += inner
			start += wrapperPrefixesLen(base[start:end])
		} else {
			inner = 0
		}
		a.classify(c, base[start:end], full, base[:start], true, ref)
		if inMsg && a.richJoin(l, c) {
			return a.out
		}
		if inner == 0 && !c.sglang {
			rest := base[start:end]
			record := c.header && c.h.format == FormatUvicorn && a.seconds.startsRecord(rest)
			if ok, firstN, firstLen := a.learner.observe(rest, a.lines, record); ok {
				a.reopen(firstN, firstLen, true)
				ref, c.near = a.reference(l.Time)
				_, outer = a.learner.matchExcept(full, -1)
				if inner, _ = a.learner.matchExcept(rest, outer); inner > 0 && !isBlank(rest[inner:]) {
					start += inner
					start += wrapperPrefixesLen(base[start:end])
					a.classify(c, base[start:end], full, base[:start], true, ref)
				}
			}
		}
		if !c.header && !c.native && !c.prefixed {
			// Behind a learned prefix, a failure line behind a prefix
			// of its own, as on a line without one.
			if k := failureBehindPrefix(base[start:end], ref, a.opt.Location); k > 0 {
				start += k
				a.classify(c, base[start:end], full, base[:start], true, ref)
			}
		}
	}
	if c.header && !c.sglang && a.isCutHeader(c.s) && !otherRayActor(p.prefix, c.prefix) && !otherRank(p.prefix, c.prefix) {
		a.take(l, c.s, cut)
		return a.out
	}
	if (c.header || c.prefixed) && c.record != "" && a.sameRecord(l, c, base[:start], cut) {
		return a.out
	}
	if c.header && !c.sglang && p.active && p.kind == kindHeader && a.labelJoins(c) {
		a.take(l, c.h.msg, cut)
		return a.out
	}
	if c.header && p.native == NativeRustPanic && p.kind == kindHeader {
		if msg, ok := a.panicRecordContinues(c); ok {
			a.take(l, msg, cut)
			return a.out
		}
	}
	if c.header && p.relay != relayNone && p.active && a.relayed(c) {
		a.take(l, c.h.msg, cut)
		return a.out
	}
	// An sglang header always starts an entry (continues says no to it
	// whatever is open): most lines are one, and take this test alone.
	if !c.header && (learned == 0 || p.stripped) && !(tried && learned == 0) && !inMsg && a.rejoin(l, c, cut) {
		// The rest of a line is no line of the writer's: the learner's
		// evidence of two lines in a row holds across it.
		a.lines--
		return a.out
	}
	if p.active && !c.header && len(l.Text)+l.Framing >= minWrapWidth && isCutLevelHead(c.s) && !a.isCutHeader(c.s) {
		// A record's header a terminal cut right after its level or
		// inside its time ("...(RayWorkerWrapper pid=6592, ip=...)
		// ERROR 1" and "2-12 05:11:33 [worker_base.py:275] ..."):
		// another record's first line, which its rest makes whole
		// (rereadHeader), never a line of the pending one.
		a.emit()
		a.arena.rotate()
		a.open(l, c, cut)
		p.stripped = learned > 0
		return a.out
	}
	if p.active && !c.sglang && a.continues(c) {
		if p.foldIndent > 0 && p.blanks == 1 && p.recBlanks == 1 && !c.header && c.s[0] != ' ' && c.s[0] != '\t' {
			// The rest of a record's line that a word wrap (fold -s)
			// broke right after its indentation: the line, indented,
			// and no blank line of the record.
			p.blanks, p.recBlanks = 0, 0
			a.take(l, strings.Repeat(" ", p.foldIndent)+c.s, cut)
			return a.out
		}
		a.take(l, c.s, cut)
		return a.out
	}
	if p.active {
		a.emit()
	}
	a.arena.rotate()
	a.open(l, c, cut)
	p.stripped = learned > 0
	if p.kind != kindNative {
		p.ncclLazy = true // c.s is the first kept line
	}
	return a.out
}

// pushGlued reads a line that holds two or more of a relay's lines glued
// together (gluedAt): the first, first, is pushed as the line, and each
// later one (rest, from its prefix on, the first's n bytes long) is taken
// into the entry the first went in as a line of its own, with its prefix
// off. One physical line stays in one entry; what the glue hid, a frame or
// a source line, is read where it belongs in the traceback. own is the
// first line's learned prefix.
func (a *Assembler) pushGlued(l *Line, own, first, rest string, n int) []Entry {
	f := *l
	f.Text = first
	a.PushLine(&f)
	p := &a.cur
	for i := 0; i < maxGluedLines && p.active && p.kind != kindBlank; i++ {
		next, nn := "", 0
		if g, r, k := a.learner.gluedAt(rest[n:], own); g > 0 {
			rest, next, nn = rest[:n+g], rest[n+r:], k
		}
		s := rest[n:]
		s = s[wrapperPrefixesLen(s):]
		if !isBlank(s) {
			a.keepPiece(s)
		}
		if next == "" {
			break
		}
		rest, n = next, nn
	}
	return a.out
}

// keepPiece takes s, a later piece of one physical line (a glued or an
// escaped line's part), into the open entry as a line of its own, after
// the blank pieces held before it.
func (a *Assembler) keepPiece(s string) {
	p := &a.cur
	for ; p.blanks > 0; p.blanks-- {
		a.kept.add("")
	}
	a.kept.add(s)
	p.colon = endsWithColon(s)
	p.nccl = ncclNext(a.ncclState(), s)
	a.advance(s)
	a.noteBare(s)
	p.lastLen = len(s)
}

// pushEscapedLines reads a line that holds a whole multi-line record
// whose newlines a shipper escaped (escapedNewline; rsyslog's "#012"):
// the part before the first escape is pushed as the line, and every
// later part is taken into the entry it went in as a line of its own, a
// record's traceback, frame by frame, as the writer printed it. One
// physical line stays in one entry, as with a relay's glued lines
// (pushGlued). Escapes right after the line's wrappers (a message that
// opens with a newline) are dropped first.
func (a *Assembler) pushEscapedLines(l *Line, text string, i int) []Entry {
	for k := 0; k < maxEscapedLines && i >= 0; k++ {
		base, start, end := wrapperSpan(text[:i])
		if !isBlank(base[start:end]) {
			break
		}
		text = text[:i] + text[i+len(escapedLF):]
		i = escapedNewline(text)
	}
	if i < 0 {
		f := *l
		f.Text = text
		return a.PushLine(&f)
	}
	f := *l
	f.Text = unescapeControls(text[:i])
	a.PushLine(&f)
	p := &a.cur
	rest := text[i+len(escapedLF):]
	for k := 0; k < maxEscapedLines && p.active && p.kind != kindBlank; k++ {
		piece, more := rest, ""
		if j := strings.Index(rest, escapedLF); j >= 0 {
			piece, more = rest[:j], rest[j+len(escapedLF):]
		}
		base, start, end := wrapperSpan(unescapeControls(piece))
		if s := base[start:end]; isBlank(s) {
			p.blanks++
		} else {
			if a.opt.Reuse {
				s = a.arena.keep(s) // the caller may overwrite the line
			}
			a.keepPiece(s)
		}
		if more == "" {
			break
		}
		rest = more
	}
	p.blanks = 0 // the record's own trailing newline
	return a.out
}

// escapedLF is a newline as rsyslog escapes it inside a message
// ($EscapeControlCharactersOnReceive, its default): "#" and the octal
// code. A Python logger sending a record with its traceback to syslog
// (SysLogHandler, or journald forwarding to rsyslog) arrives as one line,
// "...exception:#012Traceback (most recent call last):#012  File ...".
const escapedLF = "#012"

// unescapeControls gives back the tabs and drops the carriage return that
// rsyslog escaped in a part of a record it forwarded ("#011", "#015"):
// a Ray error's field lines open with a tab ("#011class_name: ..."), a
// Windows writer's lines end in a CR. A part with neither is returned as
// it is.
func unescapeControls(s string) string {
	s = strings.TrimSuffix(s, escapedCR)
	if strings.Contains(s, escapedTab) {
		s = strings.ReplaceAll(s, escapedTab, "\t")
	}
	return s
}

// A tab and a carriage return as rsyslog escapes them.
const (
	escapedTab = "#011"
	escapedCR  = "#015"
)

// maxEscapedLines bounds the parts read out of one line; the kept lines'
// own bounds cut what a part adds beyond them.
const maxEscapedLines = 4096

// escapedNewline returns the index of the first escaped newline in s that
// parts two lines of a record, or -1: rsyslog's "#012", not inside a
// longer number ("#01234"), and a record's: the line holds another one,
// or the part after it is a traceback's line (its header, a frame) or an
// exception line. A number written "#012" once ("item #012 of 100") is
// text.
func escapedNewline(s string) int {
	first := -1
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], escapedLF)
		if i < 0 {
			break
		}
		i += from
		from = i + len(escapedLF)
		if j := from; j+1 < len(s) && isDigit(s[j]) && isDigit(s[j+1]) {
			continue // "#01234": a number
		}
		if first >= 0 {
			return first // a second: a record's lines
		}
		first = i
	}
	if first < 0 {
		return -1
	}
	next := s[first+len(escapedLF):]
	if isTracebackLine(next) || isFrameLine(next) {
		return first
	}
	if _, _, ok := parseExceptionAnyQuote(next); ok {
		return first
	}
	return -1
}

// take adds the non-blank line s to the pending entry, after the blank
// lines held before it.
func (a *Assembler) take(l *Line, s string, cut int) {
	p := &a.cur
	for ; p.blanks > 0; p.blanks-- {
		a.kept.add("")
	}
	p.recBlanks = 0
	shown := len(s)
	if p.hasTB && (p.flush || s != "" && s[0] == 'F') {
		// A traceback pasted without its indentation (flushtb.go).
		s = a.flushIndent(s)
	}
	a.kept.add(s)
	p.lines++
	p.last = l.Offset
	p.lastLen, p.lastCut = shown, cut > 0
	p.lastRaw = len(l.Text) + l.Framing
	p.lastPadded = a.padCut > 0
	p.lastTrimmed = a.padded
	p.whole = false
	p.cutBytes += cut
	p.colon = endsWithColon(s)
	p.nccl = ncclNext(a.ncclState(), s)
	p.table = tableRow{}
	if s != "" && s[len(s)-1] == '|' {
		p.table, _ = parseTableRow(s)
	}
	a.rich.wrapped = false
	if p.msgNext {
		s = a.nextMessage(s)
	}
	a.advance(s)
	a.noteBare(s)
	if p.relay != relayNone {
		p.relay = relayNext(p.relay, s)
	} else if p.kind != kindNative && isRankTrailer(s) {
		p.relay = relayStderr
	}
}

// maxCutClock bounds the date and clock isCutLevelHead reads after the
// level: "12-12 05:11:33.123".
const maxCutClock = 24

// isCutLevelHead reports whether s is a log record's level word alone or
// followed by the start of its date and clock ("ERROR", "ERROR 1",
// "INFO 12-12 05:1"): a header a terminal cut before its logger's
// location. No record's message is only that.
func isCutLevelHead(s string) bool {
	if s == "" || s[0] < 'C' || s[0] > 'W' {
		return false // the routine line: one byte read
	}
	i := 0
	for i < len(s) && isUpper(s[i]) {
		i++
	}
	switch s[:i] {
	case "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "FATAL":
	default:
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != ' ' || len(s)-i > maxCutClock {
		return false
	}
	if i+1 == len(s) {
		return true // the level and its space
	}
	if !isDigit(s[i+1]) {
		return false
	}
	for j := i + 1; j < len(s); j++ {
		if c := s[j]; !isDigit(c) && c != '-' && c != ':' && c != '.' && c != ' ' && c != '/' {
			return false
		}
	}
	return true
}

// maxFoldIndent bounds the indentation foldIndent keeps: a caret line's
// under a long source line, at most a terminal's width.
const maxFoldIndent = 80

// sameRecord handles a line with a vLLM header (or one learned as a
// prefix): vLLM writes a multi-line record as lines that each repeat
// its header. A header with nothing after it is a blank line of the
// message, and makes no entry; a line of the pending entry's record
// continues it when its content does (recordContinues), with the
// repeated header left out. It reports whether it took the line.
func (a *Assembler) sameRecord(l *Line, c *classified, prefix string, cut int) bool {
	p := &a.cur
	content := c.s
	if c.header {
		content = c.h.msg
	}
	same := p.active && p.kind == kindHeader && p.record == c.record && !otherRayActor(p.prefix, c.prefix)
	if isBlank(content) {
		if !p.active {
			a.arena.rotate()
			a.begin(l, "", prefix, kindBlank)
			p.cutBytes += cut
			return true
		}
		p.blanks++
		p.foldIndent = 0
		if same {
			p.recBlanks++
			if p.blanks == 1 && len(content) > 1 && len(content) <= maxFoldIndent {
				// Its indentation alone, which a word wrap (fold -s)
				// broke after: the line's rest follows (foldedRest).
				p.foldIndent = len(content)
			}
		}
		p.lines++
		p.last = l.Offset
		p.cutBytes += cut
		return true
	}
	if !same || !a.recordContinues(content) && !(len(l.Text)+l.Framing >= minWrapWidth &&
		(isCutTracebackHeader(content) || inFrames(p.st) && (isCutTypeStart(content) || isCutFrameStart(content)))) {
		return false
	}
	a.take(l, content, cut)
	return true
}

// inFrames reports whether st is a traceback's frames section, before its
// exception line.
func inFrames(st state) bool {
	ph := statePhase[st]
	return ph == phFrames || ph == phFrame
}

// isCutTypeStart reports whether s, a line of a record's traceback after
// its frames, a terminal cut as long as its width, can be the start of
// the exception line its rest goes on with: a dotted name alone
// ("vllm.v1.engine.excepti", whose rest is "ons.EngineDeadError: ...",
// isDottedTypeCut), or the start of a built-in exception's name
// ("Runtim"). The traceback takes it, and its rest joins it.
func isCutTypeStart(s string) bool {
	if len(s) < 3 || len(s) > maxCutType || !isLetter(s[0]) || s[len(s)-1] == '.' {
		return false
	}
	dotted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if s[i-1] == '.' {
				return false
			}
			dotted = true
		case !isWordByte(c):
			return false
		}
	}
	if dotted {
		return true
	}
	for name := range builtinExceptions {
		if len(s) < len(name) && strings.HasPrefix(name, s) {
			return true
		}
	}
	return false
}

// panicRecordContinues decides whether the header line c continues the
// pending entry, a Rust panic whose lines a logger relayed as records of
// its own ("2025-05-05 12:43:53 ERROR thread 'main' panicked at
// src/main.rs:10:5:", then "2025-05-05 12:43:53 ERROR called
// `Result::unwrap()` ..."): a header of the same format and level whose
// message is the panic's next line, which it returns. The header is left
// out of the entry.
func (a *Assembler) panicRecordContinues(c *classified) (string, bool) {
	p := &a.cur
	if c.h.format != p.format || normLevel(c.h.level) != p.level || a.spacing.real(p.blanks) > 0 {
		return "", false
	}
	msg := c.h.msg
	if i := strings.Index(c.s, "note: "); i >= 0 && i+len("note: ") == len(c.s)-len(msg) {
		// Rust's tracing format reads "note:" as the record's target.
		msg = c.s[i:]
	}
	st, ok := panicNext(p.panic, msg, false)
	if ok {
		p.panic = st
	}
	return msg, ok
}

// recordContinues decides whether s, the content of a line that repeats
// the pending entry's vLLM header, continues it: the traceback the record
// carries and its lines, the rest of its exception's message, indented
// lines, and what a line ending in ":" announced. Any other line is a
// new record logged at the same place in the same second.
func (a *Assembler) recordContinues(s string) bool {
	p := &a.cur
	afterBlank := a.spacing.real(p.blanks-p.recBlanks) > 0
	if p.format == FormatRayCore {
		// Ray core's key holds its pid and thread: the lines are one
		// message, whatever they say.
		return true
	}
	cls := textClass(s)
	if p.hasTB {
		// The traceback's rules (the entry is in one of its phases).
		if a.apply(rules[p.st][cls], s, false, afterBlank) {
			return true
		}
		// The exception's message, printed over several lines.
		return p.st == stException && !afterBlank && cls == lcOther
	}
	if afterBlank && cls == lcTraceback && a.kept.count() == 1 && p.blanks-p.recBlanks == 1 {
		// The traceback logger.exception appends, behind the record's
		// header repeated, one blank line after the record's message:
		// a paste that doubles its spacing, before the stream shows
		// it does.
		return true
	}
	if afterBlank {
		return false
	}
	// NCCL's error name and "Last error:" with the line it announces,
	// each behind the record's repeated header (vLLM's workers log
	// torch's NCCL error so), are the message's.
	return cls == lcTraceback || p.colon || isIndented(s) || a.ncclState() != ncclNone && ncclContinues(p.nccl, s)
}

// oneLine reports whether records of format f are one line each: Go's
// slog, JSON lines and Ray core print no continuation lines (Ray repeats
// its header instead), so a line without a header after one is another
// writer's.
func oneLine(f Format) bool {
	return f == FormatSlog || f == FormatJSON || f == FormatRayCore
}

// The states of a shard's stderr relayed by TGI's launcher: the block
// ends with the span's " rank=N" line, then the launcher logs
// "Shard N failed to start", shuts the other shards down and exits with
// "Error: ShardCannotStart". Those lines say only that the relayed
// failure stopped the launcher.
const (
	relayNone   int8 = iota
	relayStderr      // the relayed block ended: "Shard N failed to start" may follow
	relayFailed      // the launcher said so: its shutdown and exit lines may follow
)

// relayNext is the relay state after the entry took line s.
func relayNext(state int8, s string) int8 {
	if state == relayStderr && isShardFailed(s) {
		return relayFailed
	}
	if strings.HasPrefix(s, "Error: ShardCannotStart") {
		return relayNone
	}
	return state
}

// isRankTrailer matches the " rank=N" line that ends a relayed block.
func isRankTrailer(s string) bool {
	r, ok := strings.CutPrefix(s, " rank=")
	return ok && r != "" && ascii.Digits(strings.TrimRight(r, " \r"))
}

// isShardFailed matches the launcher's "Shard N failed to start".
func isShardFailed(s string) bool {
	r, ok := strings.CutPrefix(s, "Shard ")
	if !ok {
		return false
	}
	i := 0
	for i < len(r) && isDigit(r[i]) {
		i++
	}
	return i > 0 && strings.HasPrefix(r[i:], " failed to start")
}

// relayed reports whether the header line c is one of the launcher's
// lines that follow a relayed shard failure (see relayNone).
func (a *Assembler) relayed(c *classified) bool {
	p := &a.cur
	if c.h.format != FormatDynamo {
		return false
	}
	m := c.h.msg
	if i := strings.LastIndex(m, "text_generation_launcher: "); i >= 0 {
		m = m[i+len("text_generation_launcher: "):] // a shard manager's span
	}
	switch p.relay {
	case relayStderr:
		return isShardFailed(m)
	case relayFailed:
		return m == "Shutting down shards" || strings.HasPrefix(m, "Shard terminated")
	}
	return false
}

// ncclState returns the pending entry's NCCL state (pending.nccl), first
// searching the entry's first line when that is still to do.
func (a *Assembler) ncclState() int8 {
	p := &a.cur
	if p.ncclLazy {
		p.nccl = ncclNext(ncclNone, a.kept.first())
		p.ncclLazy = false
	}
	return p.nccl
}

// The states of an NCCL error message, which torch and NCCL print over
// several lines: "... NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled
// system error (run with NCCL_DEBUG=INFO for details), NCCL version
// 2.21.5", then NCCL's error name and description ("ncclSystemError:
// System call (e.g. socket, malloc) or external library call failed or
// device error."), then "Last error:" and the line that names what failed
// ("Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size
// 9637888)"): the last line is the cause, so it belongs to the entry.
const (
	ncclNone      int8 = iota
	ncclMessage        // in the message: its name line or "Last error:" may follow
	ncclLastError      // after "Last error:": the next line is the failure
)

// ncclNext is the NCCL state after the entry took line s.
func ncclNext(state int8, s string) int8 {
	if state == ncclNone {
		// Every line comes here: only the search it needs. A rank's
		// tail may open with NCCL's error-name line.
		if hasNCCLError(s) || strings.HasPrefix(s, "nccl") && isNCCLErrorName(s) {
			if isNCCLNameLastError(s) {
				return ncclLastError
			}
			return ncclMessage
		}
		return ncclNone
	}
	t := strings.TrimSpace(s)
	switch {
	case t == "Last error:":
		return ncclLastError
	case state == ncclMessage && isNCCLNameLastError(t):
		return ncclLastError
	case state == ncclLastError:
		return ncclNone
	case hasNCCLError(s):
		return ncclMessage
	case state == ncclMessage && isNCCLErrorName(t):
		return ncclMessage
	}
	return ncclNone
}

// hasNCCLError reports whether s holds "NCCL error". Most lines hold no
// capital N: one vectorised search for it decides them, where
// strings.Contains compares the whole word at every byte of a line
// shorter than 64 bytes.
func hasNCCLError(s string) bool {
	for {
		i := strings.IndexByte(s, 'N')
		if i < 0 {
			return false
		}
		if strings.HasPrefix(s[i:], "NCCL error") {
			return true
		}
		s = s[i+1:]
	}
}

// ncclContinues reports whether the non-blank line s continues an NCCL
// error message in the given state.
func ncclContinues(state int8, s string) bool {
	if state == ncclLastError {
		// The failure's line, unless NCCL left it empty and the next
		// process's traceback opens (ranks' outputs one after another).
		return !isTracebackLine(s) && !isGroupStartLine(s)
	}
	t := strings.TrimSpace(s)
	return t == "Last error:" || isNCCLErrorName(t)
}

// isNCCLNameLastError matches NCCL's error-name line with "Last error:"
// after it on the same line, as a paste that lost the newline after the
// name's trailing space shows it ("ncclSystemError: ... device error.
// Last error:"): the line it announces is next.
func isNCCLNameLastError(s string) bool {
	return strings.HasSuffix(s, " Last error:") && isNCCLErrorName(s)
}

// isNCCLErrorName matches NCCL's error-name line: "ncclSystemError: ...",
// "ncclUnhandledCudaError: ...", "ncclRemoteError: ...".
func isNCCLErrorName(s string) bool {
	r, ok := strings.CutPrefix(s, "nccl")
	if !ok || r == "" || !isUpper(r[0]) {
		return false
	}
	i := 1
	for i < len(r) && isWordByte(r[i]) {
		i++
	}
	return strings.HasPrefix(r[i:], ": ")
}

// isNCCLMessage reports whether s, an entry's first line, is NCCL's error
// message or its error-name line ("ncclSystemError: ... Last error:"): it
// announces NCCL's last error, never a traceback, so a traceback one blank
// line after it is another process's (a rank's tail, then another rank's
// output).
func isNCCLMessage(s string) bool {
	return hasNCCLError(s) || isNCCLErrorName(strings.TrimSpace(s))
}

// isSGLangFormat reports whether f is one of sglang's own header families.
func isSGLangFormat(f Format) bool {
	return f == FormatSRT || f == FormatLegacy || f == FormatDiffusion
}

// pushBlank handles a line with nothing but wrappers and white space.
func (a *Assembler) pushBlank(l *Line, prefix string, cut int) {
	a.spacing.blank()
	a.width.gap()
	if a.cur.active {
		a.cur.blanks++
	}
	a.pushFiller(l, prefix, cut)
}

// pushColumn pushes the line base[start:end] (learned bytes of it a
// learned prefix) as a copied console's column line, when it is one
// (columnFiller), and reports whether it was.
func (a *Assembler) pushColumn(l *Line, base string, start, end, learned, cut int) bool {
	full := base[start:end]
	col := learned
	if learned == 0 && len(full) <= maxFamilyPrefix+maxTimeColumn {
		// A short line behind a family prefix not learned yet: the
		// first rows of a console copied behind a launcher's label.
		col = familyPrefixLen(full)
	}
	if !a.columns.filler(full[col:]) {
		return false
	}
	a.pushFiller(l, base[:start+col], cut)
	return true
}

// pushFiller counts a console's column line (columnFiller) in the pending
// entry, or opens a blank entry with it: it is no text, and neither a
// line nor a blank line of the writer's, so it moves neither the
// learner's evidence nor the stream's spacing.
func (a *Assembler) pushFiller(l *Line, prefix string, cut int) {
	p := &a.cur
	if !p.active {
		a.arena.rotate()
		a.begin(l, "", prefix, kindBlank)
	} else {
		p.lines++
		p.last = l.Offset
	}
	p.cutBytes += cut
}

// classify parses the text s of a non-blank line into c. full is the line
// before a learned prefix came off (s itself when none did).
func (a *Assembler) classify(c *classified, s, full, prefix string, learned bool, ref time.Time) {
	// Field by field: the struct is large and this runs for every line.
	c.s, c.prefix, c.prefixed = s, prefix, false
	c.header = parseHeaderInto(&c.h, s, ref, a.opt.Location, &a.seconds)
	c.sglang = c.header && isSGLangFormat(c.h.format)
	if c.header {
		c.native = false
	} else {
		c.n, c.native = parseNative(s, ref, a.opt.Location)
	}
	if a.rich.header || c.header && c.h.format == FormatPython && s[0] == '[' || !c.header && a.rich.msgCol == 0 && isUpper(s[0]) && endsInSourceColumn(s) {
		a.rich.classify(c)
	}
	c.record, c.proc = "", ""
	if c.header && hasEngineFields(&c.h) {
		c.record, c.proc = engineFields(&c.h, s)
	}
	if learned && !c.header && !c.native {
		var line string
		c.h, line, c.prefixed = prefixHeader(full, s, ref, a.opt.Location)
		if c.prefixed && hasEngineFields(&c.h) {
			c.record, c.proc = engineFields(&c.h, line)
		}
	}
}

// maxPrefixHeaderTries bounds the word starts of a learned prefix tried as
// the start of a header.
const maxPrefixHeaderTries = 8

// prefixHeader finds a log record's header in the learned prefix of full
// (the line before the prefix came off; s is what remains): at the start or
// at a later word ("(VllmWorker rank=0 pid=1) ERROR 07-01 08:38:50
// [executor.py:492] "), and ending where s starts. It also returns the
// line from the header on.
func prefixHeader(full, s string, ref time.Time, loc *time.Location) (header, string, bool) {
	n := len(full) - len(s)
	tries := 0
	for i := 0; i < n && tries < maxPrefixHeaderTries; i++ {
		if i > 0 && full[i-1] != ' ' || full[i] == ' ' {
			continue
		}
		tries++
		if h, ok := parseHeader(full[i:], ref, loc); ok && strings.HasSuffix(h.msg, s) {
			h.msg = s
			return h, full[i:], true
		}
	}
	return header{}, "", false
}

// reference returns the time a line read at lt is read against: the
// stream's last known time (near, also returned) when a line of the
// stream had one, else lt, else Options.Reference. A timestamp that lacks
// its year or date takes them from it.
//
// The last known time is not advanced by the read time elapsed since: a
// log's own times have its resolution (whole seconds, mostly), and an
// undated line dated a few milliseconds after the record before it would
// be later than the next record of the same second.
func (a *Assembler) reference(lt time.Time) (ref, near time.Time) {
	if !a.known.IsZero() {
		return a.known, a.known
	}
	if lt.IsZero() {
		return a.opt.Reference, time.Time{}
	}
	return lt, time.Time{}
}

// open starts a new pending entry with the classified line c.
func (a *Assembler) open(l *Line, c *classified, cut int) {
	p := &a.cur
	partial := int8(0)
	switch {
	case c.header || c.prefixed:
		a.begin(l, c.s, c.prefix, kindHeader)
		// One field a statement: a tuple assignment goes through
		// temporaries, and copying them back stalls (see header.set).
		p.format = c.h.format
		p.time = c.h.time
		p.ranks = c.h.ranks
		p.level = normLevel(c.h.level)
		p.msg = c.h.msg
		switch {
		case c.sglang:
			p.st = stSGLang
		case oneLine(p.format):
			p.st = stOneLine
		default:
			p.st = stRecord
		}
		if p.st != stOneLine && p.msg != "" && p.msg[0] == 't' {
			if st, ok := panicState(p.msg); ok {
				// A Rust panic relayed through a logger, its header on
				// each of its lines (panicRecordContinues).
				p.native, p.panic = NativeRustPanic, st
			}
		}
		partial = c.h.partial
		p.record, p.proc = c.record, c.proc
		// A record whose message is a traceback's frame at the first
		// column (a logger that writes every line of a traceback as a
		// record, its indentation lost): the lines under it are kept
		// indented as CPython printed them (flushtb.go).
		p.flush = flushFrame(p.msg)
		p.ownMsg = !strings.HasSuffix(c.s, p.msg)
		if p.st == stRecord && p.record == "" && emptyMessage(p.msg) {
			// A time and a level alone: the message is on the lines
			// after (twoline.go).
			p.msgNext = true
		}
		if p.format == FormatDynamo && strings.HasSuffix(p.msg, "standard error output:") {
			p.relay = relayStderr // TGI's launcher relaying a shard's stderr
		}
	case c.native && c.n.glued:
		// Another writer's output glued in front: a wrapper's part.
		a.begin(l, c.s[c.n.msg:], c.prefix+c.s[:c.n.msg], kindNative)
		p.format = FormatNative
		p.level = normLevel(c.n.level)
		p.native = c.n.kind
		p.st = stNative
	case c.native:
		a.begin(l, c.s, c.prefix, kindNative)
		p.format = FormatNative
		p.time = c.n.time
		p.level = normLevel(c.n.level)
		p.native = c.n.kind
		p.msg = c.s[c.n.msg:]
		p.wholeText = c.n.msg > 0
		if p.native == NativeNCCL {
			// NCCL's "host:pid:tid [dev]" prefix names the process
			// (Entry.Process), read once here for every reader.
			p.proc = ncclProcess(c.s)
		}
		switch p.native {
		case NativeRustPanic:
			p.st = stPanic
			p.panic = panicOpen(c.s)
		case NativeCompiler:
			p.st = stCompiler
		default:
			p.st = stNative
		}
		partial = c.n.partial
	default:
		s := c.s
		if flushFrame(s) {
			// A traceback's frame at the first column, its
			// "Traceback" line lost or cut off (flushtb.go).
			s = frameIndent + s
		}
		a.begin(l, s, c.prefix, kindRaw)
		p.flush = len(s) != len(c.s)
		p.st = stRaw
	}
	switch {
	case !p.time.IsZero():
		switch {
		case partial != 0 && !c.near.IsZero():
			// A glog line's year, a legacy record's date: its
			// neighbours', not the reader's.
			p.time = nearest(p.time, partial, c.near, a.opt.Location)
			p.guessed = a.knownGuessed
		case partial == timeNoYear:
			// No neighbour before it: the year is the read time's or
			// Options.Reference's, which a scan of an old log gets
			// wrong. The lines after it may still tell.
			p.guessed = true
		}
		a.known = p.time // alone: a tuple assignment copies it through a temporary
		a.knownGuessed = p.guessed
	case !c.near.IsZero():
		p.time, p.inherited, p.guessed = c.near, true, a.knownGuessed
	}
	a.rich.wrapped = a.rich.msgCol > 0 && c.header
	p.firstTime = l.Time // alone: a tuple assignment copies it through a temporary
	p.firstN, p.firstCut = a.lines, cut
	p.lastLen, p.lastCut = len(c.s), cut > 0
	p.lastRaw = len(l.Text) + l.Framing
	p.lastPadded = a.padCut > 0
	p.lastTrimmed = a.padded
	p.colon = endsWithColon(c.s)
	p.cutBytes += cut
	if !inert(p.msg) || p.kind == kindRaw && mayEmbedException(p.msg) {
		a.advance(p.msg)
		a.noteBare(p.msg)
	}
}

// maxInertWord bounds the bytes inert reads looking for the end of a
// message's first word.
const maxInertWord = 64

// inert reports whether advance and noteBare leave an entry just opened
// (no traceback, no bare exception, not inside a group) as it is for its
// message s, decided on a few bytes: most messages ("Decode batch, ...")
// end in a byte no traceback marker ends in, start with no frame, and have
// a capitalised first word that is no exception type. False means "look
// closer", not that they would change it.
func inert(s string) bool {
	n := len(s)
	if n == 0 {
		return false
	}
	// Traceback and group starts, chain separators: they end in ":"
	// (isChainSeparator also reads a line ending in white space or
	// non-ASCII bytes).
	if last := s[n-1]; last == ':' || last >= utf8.RuneSelf || isASCIISpace(last) {
		return false
	}
	// Frame lines: isFrameLine skips spaces and tabs, then wants "File \""
	// or loguru's ">".
	c := s[0]
	if c == ' ' || c == '\t' || c == '>' || c == 'F' && strings.HasPrefix(s, `File "`) {
		return false
	}
	// Bare exception lines start with a name, and their first space
	// follows the type's colon (parseBareException). A line that opens
	// in lower case may be a frame's source line with the exception line
	// glued behind it (parseGluedException).
	if !isUpper(c) {
		// An exception line quoted in backticks or as a list item
		// (unquoteException) opens with its quote or bullet.
		return !(c >= 'a' && c <= 'z' || c == '_' || c == '`' || c == '-' || c == '*' || c == '+' || c == '|' || c == 0xE2)
	}
	i := firstSpace(s)
	return i > 0 && s[i-1] != ':'
}

// firstSpace returns the index of the first space among s's bytes 1 to
// maxInertWord-1, or -1 when there is none.
func firstSpace(s string) int {
	i := 1
	if len(s) >= 9 {
		if j := indexByte8(le64(s[1:9]), ' '); j < 8 { // eight bytes at once
			return 1 + j
		}
		i = 9
	}
	for ; i < len(s) && i < maxInertWord; i++ {
		if s[i] == ' ' {
			return i
		}
	}
	return -1
}

// reopen re-reads the pending entry's first line with a prefix of n bytes
// just learned from it and the line after it, when the entry still holds
// that line alone: the first piece of evidence gets the prefix stripped
// like every later line. inner says the prefix was learned from the text
// behind a learned prefix, which came off the first line already.
func (a *Assembler) reopen(firstN int64, n int, inner bool) {
	p := &a.cur
	if !p.active || p.kind == kindBlank || p.firstN != firstN || a.kept.count() != 1 || p.stripped != inner {
		return
	}
	full := a.kept.first()
	if n > len(full) {
		return
	}
	rest := full[n:]
	rest = rest[wrapperPrefixesLen(rest):]
	if isBlank(rest) {
		return
	}
	prefix := p.prefix + full[:len(full)-len(rest)]
	l := Line{Source: p.source, Stream: p.stream, Offset: p.first, Time: p.firstTime}
	ref, near := a.reference(l.Time)
	cut, lines := p.firstCut, a.lines
	var c classified
	c.near = near
	a.classify(&c, rest, full, prefix, true, ref)
	// The blank lines held after the first, and the column lines
	// counted (columnFiller), stay the entry's.
	held, last, blanks, cutBytes := p.lines, p.last, p.blanks, p.cutBytes
	a.lines = firstN // open records the entry's first line number
	a.open(&l, &c, cut)
	a.lines = lines
	p.lines, p.last, p.blanks, p.cutBytes = held, last, blanks, cutBytes
	p.stripped = true
}

// ShareTime makes b's last known log time a's: two assemblers that read
// the lines of one stream between them (a caller that gives each of a
// launcher's ranks its own) date an undated line, and a timestamp without
// a year, from the latest time either read. A zero time leaves a's.
func (a *Assembler) ShareTime(b *Assembler) {
	if !b.known.IsZero() {
		a.known, a.knownGuessed = b.known, b.knownGuessed
	}
}

// Flush ends the pending entry, if any, and returns it. The returned slice
// follows the same reuse rule as Push's.
func (a *Assembler) Flush() []Entry {
	a.out = a.out[:0]
	if a.cur.active {
		a.emit()
	}
	return a.out
}

// Pending reports whether lines are held that Flush would emit.
func (a *Assembler) Pending() bool { return a.cur.active }

// begin opens a new pending entry with s as its first kept line.
func (a *Assembler) begin(l *Line, s, prefix string, k entryKind) {
	a.kept.reset()
	// Cleared and set in place: a composite literal is built on the
	// stack from a template and then copied, twice the struct's bytes for
	// every entry.
	p := &a.cur
	*p = pending{}
	p.active, p.kind = true, k
	p.source, p.stream = l.Source, l.Stream
	p.first, p.last, p.lines = l.Offset, l.Offset, 1
	p.ranks = NoRanks // alone: a tuple assignment copies it through a temporary
	p.msg, p.prefix = s, prefix
	if k != kindBlank {
		a.kept.add(s)
		if s != "" && s[len(s)-1] == '|' {
			p.table, _ = parseTableRow(s)
		}
	}
}

// The states of the message lines of an exception line whose message is
// empty ("ImportError: "): Python printed an exception whose message
// begins with a newline, and the message is what follows, up to a blank
// line. They are read before the table (continues).
const (
	msgNone   int8 = iota
	msgLines       // taking the message lines
	msgSpaced      // taking them one blank line apart: the first came so
)

// minCutHeader bounds the piece of a repeated header continues takes as
// the record's: a level and a date at least.
const minCutHeader = 8

// isCutHeader reports whether s, a line's text, is the pending record's
// header repeated on its next line and cut short by a terminal ("ERROR
// 03-04 05:4", "ERROR 03-04 05:42:52 [multiproc_exec"): the line goes on
// with the rest of the header, which its rest brings, and joinSep leaves
// the header out once it is whole (repeatedHeader). A piece that reads
// as a header of its own (a time, a level and a cut location) is one
// too.
func (a *Assembler) isCutHeader(s string) bool {
	p := &a.cur
	if !p.active || p.kind != kindHeader || p.record == "" || len(s) < minCutHeader {
		return false
	}
	// The header as the record's first line wrote it, its time
	// included (Ray core's record leaves the time out).
	first := a.kept.first()
	if !strings.HasSuffix(first, p.msg) {
		return false
	}
	header := strings.TrimRight(first[:len(first)-len(p.msg)], " ")
	if len(s) >= len(header) {
		return false
	}
	if strings.HasPrefix(header, s) {
		return true
	}
	if p.format == FormatRayCore && s[0] == '[' {
		// Ray core's record is its header without the time (a later
		// line of it carries its own): the same after the time.
		ht, st := timeFieldEnd(header), timeFieldEnd(s)
		return ht > 0 && ht == st && sameShape(header[:ht], s[:st]) && strings.HasPrefix(header[ht:], s[st:])
	}
	return false
}

// timeFieldEnd returns the end of a bracketed header's time, its date and
// its clock ("[2025-04-27 02:52:27,217"): the index of the second space,
// or 0.
func timeFieldEnd(s string) int {
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		return 0
	}
	j := strings.IndexByte(s[i+1:], ' ')
	if j < 0 {
		return 0
	}
	return i + 1 + j
}

// sameShape reports whether a and b, as long as each other, hold digits
// at the same places and the same bytes at the others: two times.
func sameShape(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && !(isDigit(a[i]) && isDigit(b[i])) {
			return false
		}
	}
	return true
}

// continues decides whether the non-blank line c belongs to the pending
// entry (see the rules on Assembler). A few rules hold in every state and
// come first: another Ray actor's line never continues, and the lines of
// an NCCL message, of an empty exception message and of TGI's relayed
// shard failure follow their own small machines. Then the transition
// table decides (machine.go).
func (a *Assembler) continues(c *classified) bool {
	p := &a.cur
	s := c.s
	blanks := a.spacing.real(p.blanks) // as many as were in the log
	afterBlank := blanks > 0
	if otherRayActor(p.prefix, c.prefix) || otherRank(p.prefix, c.prefix) {
		// Ray relays every actor's output into one stream, and a
		// launcher every rank's: a line of another actor or rank is
		// another process's record.
		return false
	}
	if !c.native && a.isCutHeader(s) {
		return true
	}
	if p.kind == kindRaw && p.lines == 1 && p.colon && !p.hasTB && !c.header && isProseLabel(p.msg) && (isFrameLine(s) || isCutFrameStart(s)) {
		// A prose label a paste put in place of a traceback's header
		// ("error msg:", "Log:") and a frame under it: the frames are a
		// traceback's middle, which opens an entry of its own, read as
		// a traceback whose header is lost.
		return false
	}
	// A first line that announces what follows ("Exception in
	// ModelRpcClient:", "ImportError: ") and one blank line: the start of
	// a paste whose doubled spacing is not recognised yet, not the end
	// of the record; or one blank line of the log in a paste that
	// doubled it (three, TGI's relayed shard stderr pasted
	// double-spaced).
	announced := (p.blanks == 1 || blanks == 1) && a.kept.count() == 1 && p.kind != kindNative && !p.hasTB &&
		(p.colon || messageFollows(p.msg))
	if announced && !p.st.sglang() && isTracebackLine(s) && !isNCCLMessage(p.msg) {
		return true
	}
	if p.lineMsg == msgSpaced && p.blanks == 1 {
		// The message lines of an announcing line that came one blank
		// line after it come one blank line apart.
		afterBlank = false
	}
	if blanks <= 1 && p.kind != kindNative && !c.header && a.ncclState() != ncclNone && ncclContinues(p.nccl, s) {
		// One blank line between the parts of an NCCL message is a
		// double-spaced paste: NCCL prints them together.
		return true
	}
	// A report's next section, one blank line after the message lines
	// of its exception ("ImportError:", its summary line, a blank line,
	// "Attempted locations:", the list): the message goes on, as Python
	// printed it in one piece. In a paste that doubled its spacing
	// (msgSpaced) that blank line is three.
	section := (blanks == 1 && p.lineMsg == msgLines || p.blanks == 3 && p.lineMsg == msgSpaced) && !c.header && !c.native && endsWithColon(s)
	if (!afterBlank || announced || section) && p.kind != kindNative && !p.hasTB && (p.lines == 1 || announced || p.lineMsg != msgNone) &&
		!c.header && messageFollows(p.msg) && !isTracebackLine(s) && !isWarningLine(s) {
		// "ImportError: " alone: the message lines follow; a line
		// under another writer's header (vLLM's, TGI's, a Python
		// logger's) or a warning's first line is that writer's record,
		// not the message.
		if announced {
			p.lineMsg = msgSpaced
		} else if p.lineMsg == msgNone {
			p.lineMsg = msgLines
		}
		return true
	}
	if p.relay == relayFailed && strings.HasPrefix(s, "Error: ShardCannotStart") {
		return true
	}
	if p.msgNext && !afterBlank && (!c.header && !isTracebackLine(s) && !isFrameLine(s) || p.format == FormatJUL && isJULLevelLine(s)) {
		// The message of a header that held none (twoline.go), or a
		// journal entry's next field. java.util.logging's "INFO: msg"
		// reads as a header of its own, uvicorn's.
		return true
	}
	if p.format == FormatJUL && !c.header && !afterBlank {
		// java.util.logging prints the throwable after the message:
		// its exception line, "at" frames and causes, up to the next
		// record's first line.
		return true
	}
	var r rule
	switch {
	case c.header:
		r = rules[p.st][lcHeader] // most lines that come here: no other class to read
	case !c.native && isCutFrameStart(s):
		// A frame line a wrap cut (its rest follows, isFrameRest): it
		// ends or continues the entry as the frame line whole would.
		r = rules[p.st][lcFrame]
	default:
		r = ruleFor(p.st, c)
	}
	switch r {
	case ruleEnd:
		return false
	case ruleTake:
		return true
	}
	return a.apply(r, s, c.native, afterBlank)
}

// noteBare records s as the entry's bare exception line when the entry has
// none yet and no traceback is open: the message itself, or a continuation
// line at column 0 (CPython prints exception lines unindented); in a
// header-less entry also an exception line glued behind a frame's source
// line, or one that prose or a quoting mark runs into
// (parseEmbeddedException).
func (a *Assembler) noteBare(s string) {
	p := &a.cur
	if p.bareType != "" || p.hasTB || p.kind == kindNative || p.kind == kindBlank {
		return
	}
	if typ, msg, ok := a.bareOf(s); ok {
		p.bareType, p.bareMsg = typ, msg
	}
}

// bareOf reads the exception line s holds for the pending entry: the line
// itself (as printed or quoted), or, on a header-less line only (a
// record's message is prose), one glued behind its raise frame or
// embedded in a sentence.
func (a *Assembler) bareOf(s string) (typ, msg string, ok bool) {
	if typ, msg, ok := parseExceptionAnyQuote(s); ok {
		return typ, msg, true
	}
	if a.cur.kind != kindRaw {
		return "", "", false
	}
	if a.kept.count() == 1 && isIndented(s) {
		// The line that opens a header-less entry, indented as a
		// Markdown code block or a list item's next paragraph quotes
		// it under prose: the exception line as printed.
		if typ, msg, ok := parseIndentedException(s); ok {
			return typ, msg, true
		}
	}
	if typ, msg, ok := parseGluedException(s); ok {
		return typ, msg, true
	}
	if mayEmbedException(s) {
		return parseEmbeddedException(s)
	}
	return "", "", false
}

// maxLabelWords bounds the words of a prose label (isProseLabel).
const maxLabelWords = 4

// isProseLabel reports whether s, a header-less line that ends in ":", is
// a short label a person wrote above what they pasted ("error msg:",
// "Error log:", "Traceback:"): at most maxLabelWords words of letters, no
// exception line (an exception type's name has no space and is read as
// the exception announcing its message) and no path or location.
func isProseLabel(s string) bool {
	s = strings.TrimRight(s, " \t")
	s, ok := strings.CutSuffix(s, ":")
	if !ok || s == "" || !isLetter(s[0]) {
		return false
	}
	words := 1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if words++; words > maxLabelWords {
				return false
			}
		case !isLetter(c) && c != '-' && c != '_':
			return false
		}
	}
	_, _, exc := parseExceptionLine(s + ":")
	return !exc
}

// endsWithColon reports whether s announces what follows: it ends in ":"
// (logging.exception's message, "Exception in thread ...:") or is CPython's
// unraisable-exception header "Exception ignored in: <object>".
func endsWithColon(s string) bool {
	i := len(s)
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return i > 0 && s[i-1] == ':' || s != "" && s[0] == 'E' && strings.HasPrefix(s, "Exception ignored in: ")
}

// isWarningLine matches the first line the warnings module prints,
// "/path/file.py:54: FutureWarning: message": another writer's record, so it
// starts an entry of its own.
func isWarningLine(s string) bool {
	i := strings.Index(s, ".py:")
	if i <= 0 || i > 512 || strings.IndexByte(s[:i], ' ') >= 0 {
		return false
	}
	r := s[i+len(".py:"):]
	j := 0
	for j < len(r) && isDigit(r[j]) {
		j++
	}
	if j == 0 || !strings.HasPrefix(r[j:], ": ") {
		return false
	}
	r = r[j+2:]
	k := strings.IndexByte(r, ':')
	return k > 0 && strings.HasSuffix(r[:k], "Warning") && strings.IndexByte(r[:k], ' ') < 0
}

// emit appends the pending entry to a.out and closes it.
func (a *Assembler) emit() {
	p := &a.cur
	// Built in place, every field set: an Entry is large, this runs for
	// most lines, and a composite literal would be built on the stack from
	// a template and then copied. The slot reused from an earlier call
	// holds that entry's fields, so none may be left out.
	if len(a.out) < cap(a.out) {
		a.out = a.out[:len(a.out)+1]
	} else {
		a.out = append(a.out, Entry{})
	}
	e := &a.out[len(a.out)-1]
	e.Source, e.Stream = p.source, p.stream
	e.FirstOffset, e.LastOffset, e.Lines = p.first, p.last, p.lines
	// One field a statement: a tuple assignment goes through
	// temporaries, and copying them back stalls (see header.set).
	e.Format = p.format
	e.Time = p.time
	e.Ranks = p.ranks
	e.Level = p.level
	e.TimeInherited = p.inherited
	e.TimeGuessed = p.guessed
	e.Process = p.proc
	if e.Process == "" && p.prefix != "" {
		e.Process = a.procs.process(p.prefix)
	}
	e.Reraised = false
	e.Prefix, e.Native = p.prefix, p.native
	e.Cut = Cut{Lines: a.kept.cutLines, Bytes: a.kept.cutBytes + p.cutBytes}
	e.Traceback = nil
	if p.kind == kindBlank {
		e.Message, e.Text, e.Raw = "", "", ""
	} else {
		e.Message = p.msg
		bareType, bareMsg := p.bareType, p.bareMsg
		first := a.kept.first()
		if a.kept.count() == 1 {
			e.Raw = first
			e.Text = p.msg
			if p.wholeText {
				e.Text = first
			}
		} else {
			a.scratch = a.kept.lines(a.scratch[:0])
			e.Raw = a.joinKept()
			switch {
			case p.wholeText:
				e.Text = e.Raw
			case p.msgLine > 0 && p.msgLine < len(a.kept.head):
				// The message a later line gave (nextMessage): the
				// text begins with it.
				at := 0
				for _, l := range a.scratch[:p.msgLine] {
					at += len(l) + 1
				}
				e.Text = e.Raw[at+len(a.scratch[p.msgLine])-len(p.msg):]
			case p.ownMsg:
				e.Text = p.msg + e.Raw[len(first):]
			default:
				e.Text = e.Raw[len(first)-len(p.msg):]
			}
			// What is read of the kept lines is read from Raw, where
			// they are too: Own then copies the entry in one piece.
			e.Message = inLines(e.Message, a.scratch, e.Raw)
			e.Process = inLines(e.Process, a.scratch, e.Raw)
			bareType, bareMsg = inLines(bareType, a.scratch, e.Raw), inLines(bareMsg, a.scratch, e.Raw)
			at := 0
			for i, l := range a.scratch {
				a.scratch[i] = e.Raw[at : at+len(l)]
				at += len(l) + 1
			}
			if p.hasTB {
				if p.kind == kindHeader && len(e.Message) < len(a.scratch[0]) && isFrameLine(e.Message) {
					// A record whose message is a traceback's frame,
					// its header kept on the line (a vLLM record's
					// line cut by a terminal, read whole): the
					// traceback opens at the message.
					a.scratch[0] = e.Message
				}
				e.Traceback = ParseTraceback(a.scratch)
			}
			clear(a.scratch)
		}
		if e.Traceback == nil && p.hasTB {
			e.Traceback = ParseTraceback([]string{first})
		}
		if e.Traceback == nil && bareType != "" {
			msg := bareMsg
			if msg == "" && messageFollows(p.msg) {
				// The message printed on the lines after "Type: ".
				// Tested first: the search of the text is for these
				// few entries only.
				if _, rest, ok := strings.Cut(e.Text, "\n"); ok {
					msg = strings.TrimSpace(rest)
				}
			}
			e.Traceback = a.bares.traceback(bareType, msg)
		}
		a.noteLogged(e, p.kind)
	}
	a.kept.reset()
	p.active = false
}

// joinKept returns the kept lines (a.scratch) joined by newlines. With
// Options.Reuse the join is kept in the current arena, as the lines are:
// the entry being emitted is valid until the next call, and the arena is
// emptied only two entries later (see arenas). Without it, or when the
// arena refuses it, it is a string of its own.
func (a *Assembler) joinKept() string {
	if a.opt.Reuse {
		if s, ok := a.arena.keepJoined(a.scratch); ok {
			return s
		}
	}
	n := len(a.scratch) - 1
	for _, l := range a.scratch {
		n += len(l)
	}
	var sb strings.Builder
	sb.Grow(n)
	for i, l := range a.scratch {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(l)
	}
	return sb.String()
}

// noteLogged remembers the exception line of a traceback a log record
// carried, and marks a header-less traceback that repeats it
// (Entry.Reraised).
func (a *Assembler) noteLogged(e *Entry, k entryKind) {
	tb := e.Traceback
	if tb == nil || tb.Bare {
		return
	}
	o := tb.Outermost()
	if o == nil || o.Type == "" {
		return
	}
	switch k {
	case kindHeader:
		a.logged = strings.Clone(o.Type + ": " + o.Message)
		a.loggedAt = a.lines
	case kindRaw:
		if a.logged != "" && a.lines-a.loggedAt <= reraiseWindow && len(a.logged) == len(o.Type)+2+len(o.Message) &&
			strings.HasPrefix(a.logged, o.Type) && strings.HasSuffix(a.logged, o.Message) {
			e.Reraised = true
			a.logged = "" // printed once more, not again
		}
	}
}

// reraiseWindow bounds the non-blank lines between a logged traceback and
// its re-raise: multiprocessing prints it as the process dies, right
// after; the same exception printed much later is another failure.
const reraiseWindow = 256

// messageFollows reports whether a line is an exception line whose message
// is empty but for the colon: "ImportError:" or "ImportError: ".
func messageFollows(line string) bool {
	t := strings.TrimRight(line, " ")
	if !strings.HasSuffix(t, ":") {
		return false
	}
	typ, msg, ok := parseBareException(t)
	return ok && msg == "" && len(typ) == len(t)-1
}

// otherWriter reports whether two lines' prefixes name different
// processes: other Ray actors, other ranks of a launcher's label, MPI
// tag or torchrun's "[rankN]:".
func otherWriter(a, b string) bool {
	if a == b {
		return false
	}
	if otherRayActor(a, b) || otherRank(a, b) {
		return true
	}
	x, y := rankPrefixLen(a), rankPrefixLen(b)
	return x > 0 && y > 0 && strings.TrimSpace(a[:x]) != strings.TrimSpace(b[:y])
}

// otherRayActor reports whether two lines' prefixes name different Ray
// actors: both hold a Ray actor prefix, stacked anywhere among their
// wrappers (a collector's timestamp or a compose service may stand in
// front of it, and Ray inside Ray repeats it), and the actors differ.
func otherRayActor(a, b string) bool {
	if a == "" || b == "" || a == b {
		// Most lines of a stream that has prefixes repeat the pending
		// entry's: the same actors.
		return false
	}
	for {
		x, restA := nextRayActor(a)
		y, restB := nextRayActor(b)
		switch {
		case x == "" && y == "":
			return false
		case x == "" || y == "":
			// One line has fewer actors than the other: compare what
			// both have, which was equal so far.
			return false
		case x != y:
			return true
		}
		a, b = restA, restB
	}
}

// prefixProcess returns the process a line's wrapper prefixes name: the
// inside of the first Ray-style prefix, vLLM's "(EngineCore_DP0 pid=1) "
// or Ray's "(Actor pid=2, ip=10.0.0.1) " without the address; "" when
// there is none.
func prefixProcess(prefix string) string {
	for i := 0; i < len(prefix); i++ {
		j := strings.IndexByte(prefix[i:], '(')
		if j < 0 {
			return ""
		}
		i += j
		if i > 0 && !endsPrefixField(prefix[i-1]) {
			continue
		}
		n := rayPrefixLen(prefix[i:])
		if n == 0 {
			continue
		}
		in := prefix[i+1 : i+n]
		for in != "" && (in[len(in)-1] == ' ' || in[len(in)-1] == ')') {
			in = in[:len(in)-1]
		}
		if k := strings.Index(in, ", ip="); k >= 0 {
			in = in[:k]
		}
		return in
	}
	return ""
}

// nextRayActor returns the "(Actor pid=N" part of the first Ray actor
// prefix in a line's wrapper prefixes and what follows it, or "" when there
// is none. A prefix begins at the start of the text or where another
// ends.
func nextRayActor(prefix string) (actor, rest string) {
	for i := 0; i < len(prefix); i++ {
		if prefix[i] != '(' || i > 0 && !endsPrefixField(prefix[i-1]) {
			continue
		}
		n := rayPrefixLen(prefix[i:])
		if n == 0 {
			continue
		}
		actor = prefix[i : i+n]
		if j := strings.Index(actor, ", ip="); j >= 0 {
			actor = actor[:j]
		}
		return strings.TrimRight(actor, ") "), prefix[i+n:]
	}
	return "", ""
}

// spacedAfter is how many non-blank lines in a row, each after exactly one
// blank line, make a stream double-spaced.
const spacedAfter = 3

// spacing tells a double-spaced stream (see Assembler) from its blank
// lines: bounded state, two counters.
type spacing struct {
	gap    int // blank lines since the last non-blank line
	single int // non-blank lines in a row that came after exactly one blank
	seen   int // non-blank lines so far, up to spacedAfter+1
}

// blank notes a blank line.
func (s *spacing) blank() {
	if s.gap < 1<<20 {
		s.gap++
	}
}

// line notes a non-blank line, before its blank lines are counted by real.
func (s *spacing) line() {
	switch s.gap {
	case 0:
		s.single = 0
	case 1:
		s.single = min(s.single+1, spacedAfter)
	}
	// Two or more blank lines: a blank line of the original, doubled,
	// which neither proves nor disproves the spacing.
	s.gap = 0
	if s.seen <= spacedAfter {
		s.seen++ // up to one past spacedAfter: the third line is told
	}
}

// real returns how many of n blank lines held before the current
// non-blank line were in the log before a paste doubled its spacing.
// At the start of a stream, two lines that each came after exactly one
// blank, and nothing else before them but the first line, already tell
// it: a paste's first record has no third line to wait for.
func (s *spacing) real(n int) int {
	if s.single >= spacedAfter || s.seen == spacedAfter && s.single == spacedAfter-1 && n == 1 {
		return n / 2
	}
	return n
}

// endsPrefixField reports whether c may end a field of a line prefix: a
// space, or one of ":|]>".
func endsPrefixField(c byte) bool {
	switch c {
	case ' ', '\t', ':', '|', ']', '>':
		return true
	}
	return false
}
