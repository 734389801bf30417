package entry

import "strings"

// The continuation rules as a state machine: the pending entry is in one
// state, each non-blank line falls in one class, and the rule at (state,
// class) in the table rules decides whether the line continues the entry.
// Taking a line moves the entry to its next state (advance). design.md
// lists the states, the classes and every transition.

// state is where the pending entry stands.
type state uint8

const (
	// stBlank: only blank lines so far; every non-blank line starts an
	// entry.
	stBlank state = iota
	// stNative: a native block (faulthandler, c10d, NCCL, glog, CUDA
	// asserts...): it takes the continuation lines of its own shape.
	stNative
	// stCompiler: a compiler's or linker's diagnostic: its source
	// excerpt, caret lines and the diagnostics that follow.
	stCompiler
	// stPanic: a Rust panic: its message line, indented lines, "note:"
	// and backtrace (the panic sub-state follows them).
	stPanic
	// stOneLine: a record of a one-line format (Go slog, JSON, Ray
	// core): no header-less line continues it.
	stOneLine
	// stSGLang: an sglang record (srt, legacy, diffusion) with no
	// traceback: sglang writes a header on every record, so almost
	// every header-less line is its.
	stSGLang
	// stSGLangFrames: an sglang record inside its traceback's frames.
	stSGLangFrames
	// stSGLangFrame: the same, right after a frame line.
	stSGLangFrame
	// stSGLangException: an sglang record after its traceback's
	// exception line.
	stSGLangException
	// stSGLangChain: an sglang record after a chain separator: the
	// next traceback is the chain's next link.
	stSGLangChain
	// stRecord: a record of any other header, no traceback yet: it
	// takes the traceback a line ending in ":" announces
	// (logging.exception) and prose, not another writer's exception.
	stRecord
	// stRaw: a header-less line with no traceback: it takes indented
	// lines and what a line ending in ":" announces.
	stRaw
	// stFrames: a traceback (a record's or a header-less one) inside a
	// section's frames, before its exception line.
	stFrames
	// stFrame: the same, right after a frame line: its source line
	// follows, indented or not.
	stFrame
	// stException: after a section's exception line: the traceback
	// ends unless a chain separator, an indented line (notes, the rest
	// of the message) or torch's CUDA epilogue follows.
	stException
	// stChain: after a chain separator: the next section follows.
	stChain
	numStates
)

var stateNames = [numStates]string{
	"blank", "native", "compiler", "panic", "one-line",
	"sglang", "sglang-frames", "sglang-frame", "sglang-exception", "sglang-chain",
	"record", "raw", "frames", "frame", "exception", "chain",
}

func (s state) String() string { return stateNames[s] }

// phase is the traceback an entry carries: none, inside a section's
// frames (right after a frame line: frame), after a section's exception
// line, or after a chain separator.
type phase uint8

const (
	phNone phase = iota
	phFrames
	phFrame
	phException
	phChain
)

// statePhase is the traceback phase of each state.
var statePhase = [numStates]phase{
	stSGLangFrames: phFrames, stSGLangFrame: phFrame, stSGLangException: phException, stSGLangChain: phChain,
	stFrames: phFrames, stFrame: phFrame, stException: phException, stChain: phChain,
}

// sglangPhases and tracebackPhases are the states of each phase, for an
// sglang record and for any other entry that reads tracebacks.
var (
	sglangPhases    = [...]state{stSGLang, stSGLangFrames, stSGLangFrame, stSGLangException, stSGLangChain}
	tracebackPhases = [...]state{stRecord, stFrames, stFrame, stException, stChain}
)

// sglang reports whether s is one of an sglang record's states.
func (s state) sglang() bool { return s >= stSGLang && s <= stSGLangChain }

// native reports whether s is one of a native block's states.
func (s state) native() bool { return s >= stNative && s <= stPanic }

// withPhase returns the state of the same entry in traceback phase ph.
// A one-line record, a native block and a blank entry have no phases.
func (s state) withPhase(ph phase) state {
	switch {
	case s.sglang():
		return sglangPhases[ph]
	case s >= stFrames || (s == stRecord || s == stRaw) && ph != phNone:
		return tracebackPhases[ph]
	}
	return s
}

// lineClass is what a non-blank line is, for the continuation rules.
// The classes are tried in this order; the last four are the classes of
// a line's text alone (textClass), and never overlap.
type lineClass uint8

const (
	// lcHeader: a log record's header (any family but sglang's, whose
	// headers always start an entry before the table is read).
	lcHeader lineClass = iota
	// lcWarning: the first line a Python warning prints
	// ("x.py:54: FutureWarning: ..."): another writer's record.
	lcWarning
	// lcNative: a native line (faulthandler, c10d, NCCL, glog, ...).
	lcNative
	// lcSoftNative: a native line an exception message may quote (CUDA
	// and HIP codes, ACL and CANN codes, compiler diagnostics).
	lcSoftNative
	// lcLogger: a record of a wrapping logger, whose header is the
	// line's learned prefix (a logger relaying a child's output).
	lcLogger
	// lcTraceback: "Traceback (most recent call last):" or an
	// exception group's first line, alone on the line.
	lcTraceback
	// lcChain: a chain separator ("During handling of the above
	// exception, another exception occurred:").
	lcChain
	// lcFrame: a traceback frame line (`File "x.py", line 1, in f`).
	lcFrame
	// lcOther: any other line: prose, exception lines, source lines,
	// caret lines, indented lines.
	lcOther
	numClasses
)

var classNames = [numClasses]string{
	"header", "warning", "native", "soft-native", "logger", "traceback", "chain", "frame", "other",
}

func (c lineClass) String() string { return classNames[c] }

// classOf returns the class of the non-blank line c.
func classOf(c *classified) lineClass {
	switch {
	case c.header:
		return lcHeader
	case isWarningLine(c.s):
		return lcWarning
	case c.native && c.n.soft:
		return lcSoftNative
	case c.native:
		return lcNative
	case c.prefixed:
		return lcLogger
	}
	return textClass(c.s)
}

// textClass returns the class of a line's text alone: traceback, chain,
// frame or other.
func textClass(s string) lineClass {
	switch {
	case isFrameLine(s):
		return lcFrame
	case isTracebackLine(s) || isGroupStartLine(s):
		return lcTraceback
	case isChainSeparator(s):
		return lcChain
	}
	return lcOther
}

// rule decides whether a line continues the pending entry.
type rule uint8

const (
	// ruleEnd: the line starts an entry of its own.
	ruleEnd rule = iota
	// ruleTake: the line continues the entry.
	ruleTake
	// ruleTakeUnlessBlank: it continues unless a blank line came
	// between.
	ruleTakeUnlessBlank
	// ruleTakeIfColon: it continues when the last line taken announced
	// it (ends in ":").
	ruleTakeIfColon
	// ruleTakeIfAnnounced: both: no blank line between, and the last
	// line taken ends in ":".
	ruleTakeIfAnnounced
	// ruleNative: the native block's own continuation lines
	// (nativeContinues).
	ruleNative
	// ruleCompiler: a compiler diagnostic's own lines
	// (compilerContinues).
	ruleCompiler
	// rulePanic: a Rust panic's own lines (panicNext); never a native
	// line.
	rulePanic
	// ruleLoggerTraceback: a wrapping logger's record continues only
	// as the traceback the record announces: its text is a traceback
	// line, and no blank line came between.
	ruleLoggerTraceback
	// ruleLoggerAnnounced: the same, and the last line taken ends in
	// ":" (a bare logger.exception message).
	ruleLoggerAnnounced
	// ruleAsText: a wrapping logger's record inside an open traceback
	// continues it as its text would (the rule at the text's class).
	ruleAsText
	// ruleRecordLine: a record's next line before any traceback: not
	// after a blank line; anything a line ending in ":" announced, else
	// anything but an exception line (another writer's).
	ruleRecordLine
	// ruleRawLine: a header-less line's next line: not after a blank
	// line; torch's CUDA epilogue after a bare exception line, the
	// exception line a line ending in ":" announced, or an indented
	// line that is no exception line quoted as a list item.
	ruleRawLine
	// ruleFrames: inside a section: an exception group's box line, an
	// indented (source) line, a caret line, "[Previous line repeated
	// ...]" or the section's exception line.
	ruleFrames
	// ruleAfterException: after the exception line: an exception
	// group's box line, or, not after a blank line, an indented line
	// or torch's CUDA epilogue.
	ruleAfterException
	// ruleBox: an exception group's box line only.
	ruleBox
	numRules
)

var ruleNames = [numRules]string{
	"end", "take", "take-unless-blank", "take-if-colon", "take-if-announced",
	"native", "compiler", "panic", "logger-traceback", "logger-announced", "as-text",
	"record-line", "raw-line", "frames", "after-exception", "box",
}

func (r rule) String() string { return ruleNames[r] }

// rules is the transition table: rules[state][class] decides whether a
// line of that class continues an entry in that state. design.md says
// why each one is what it is.
var rules = [numStates][numClasses]rule{
	//                header   warning  native   soft-native          logger               traceback            chain           frame                other
	stBlank:           {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd},
	stNative:          {ruleEnd, ruleNative, ruleNative, ruleNative, ruleNative, ruleNative, ruleNative, ruleNative, ruleNative},
	stCompiler:        {ruleEnd, ruleCompiler, ruleCompiler, ruleCompiler, ruleCompiler, ruleCompiler, ruleCompiler, ruleCompiler, ruleCompiler},
	stPanic:           {ruleEnd, rulePanic, rulePanic, rulePanic, rulePanic, rulePanic, rulePanic, rulePanic, rulePanic},
	stOneLine:         {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleEnd},
	stSGLang:          {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleLoggerTraceback, ruleTakeUnlessBlank, ruleTake, ruleTakeIfColon, ruleTake},
	stSGLangFrames:    {ruleEnd, ruleEnd, ruleEnd, ruleTakeUnlessBlank, ruleAsText, ruleEnd, ruleTake, ruleTake, ruleTake},
	stSGLangFrame:     {ruleEnd, ruleEnd, ruleEnd, ruleTakeUnlessBlank, ruleAsText, ruleEnd, ruleTake, ruleTake, ruleTake},
	stSGLangException: {ruleEnd, ruleEnd, ruleEnd, ruleTakeUnlessBlank, ruleAsText, ruleEnd, ruleTake, ruleTake, ruleTake},
	stSGLangChain:     {ruleEnd, ruleEnd, ruleEnd, ruleTakeUnlessBlank, ruleAsText, ruleTake, ruleTake, ruleTake, ruleTake},
	stRecord:          {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleLoggerTraceback, ruleTakeUnlessBlank, ruleRecordLine, ruleTakeIfAnnounced, ruleRecordLine},
	stRaw:             {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleLoggerAnnounced, ruleTakeIfAnnounced, ruleRawLine, ruleTakeIfAnnounced, ruleRawLine},
	stFrames:          {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleAsText, ruleEnd, ruleEnd, ruleTake, ruleFrames},
	stFrame:           {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleAsText, ruleEnd, ruleEnd, ruleTake, ruleTake},
	stException:       {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleAsText, ruleEnd, ruleTake, ruleEnd, ruleAfterException},
	stChain:           {ruleEnd, ruleEnd, ruleEnd, ruleEnd, ruleAsText, ruleTake, ruleEnd, ruleTake, ruleBox},
}

// headerDecides[s] holds the rule of every class but lcHeader in state s
// when they are all one (a blank entry, a native block, a one-line
// record): the line's class is then not read further.
var headerDecides [numStates]struct {
	r  rule
	ok bool
}

func init() {
	for s := range rules {
		row := &rules[s]
		same := true
		for c := lcWarning + 1; c < numClasses; c++ {
			same = same && row[c] == row[lcWarning]
		}
		headerDecides[s].r, headerDecides[s].ok = row[lcWarning], same
	}
}

// ruleFor returns the rule for the line c in state s.
func ruleFor(s state, c *classified) rule {
	if c.header {
		return rules[s][lcHeader]
	}
	if len(c.s) > len(threadHeaderPrefix) && c.s[0] == 'E' && ThreadExceptionHeader(c.s) {
		// Python's threading prints a thread's uncaught exception to
		// stderr itself, never through a logger: another writer's
		// line, whatever is open.
		return ruleEnd
	}
	if len(c.s) > len(tbStart) && c.s[len(c.s)-1] == ':' && hasTracebackStart(c.s) && !isTracebackLine(c.s) && !isBoxLine(c.s) {
		// "router init state: Traceback (most recent call last):": a
		// print of a traceback with words of its own in front opens
		// that traceback, whatever record is open (an exception
		// group's member, "  | Traceback ...", stays in its box).
		return ruleEnd
	}
	if hd := &headerDecides[s]; hd.ok {
		return hd.r
	}
	return rules[s][classOf(c)]
}

// apply reports whether rule r takes the non-blank line s (its text; native:
// the line is a native line) in the pending entry's state. Only rulePanic
// changes the entry (its panic sub-state).
func (a *Assembler) apply(r rule, s string, native, afterBlank bool) bool {
	p := &a.cur
	switch r {
	case ruleEnd:
		return false
	case ruleTake:
		return true
	case ruleTakeUnlessBlank:
		return !afterBlank
	case ruleTakeIfColon:
		return p.colon
	case ruleTakeIfAnnounced:
		return !afterBlank && p.colon
	case ruleNative:
		return nativeContinues(p.native, s, afterBlank)
	case ruleCompiler:
		return compilerContinues(p.msg, s, afterBlank, p.lines)
	case rulePanic:
		if native && !isRustBacktraceFrame(s) {
			// A backtrace's frame opens a panic entry of its own only
			// without one before it (isRustBacktraceFrame).
			return false
		}
		st, ok := panicNext(p.panic, s, afterBlank)
		if ok {
			p.panic = st // the line is taken
		}
		return ok
	case ruleLoggerTraceback:
		return !afterBlank && textClass(s) == lcTraceback
	case ruleLoggerAnnounced:
		return !afterBlank && p.colon && textClass(s) == lcTraceback
	case ruleAsText:
		return a.apply(rules[p.st][textClass(s)], s, false, afterBlank)
	case ruleRecordLine:
		if afterBlank {
			return false
		}
		if p.colon {
			return true
		}
		_, _, exc := parseExceptionAnyQuote(s)
		return !exc
	case ruleRawLine:
		if afterBlank {
			return false
		}
		if p.bareType != "" && isEpilogue(s) {
			return true // torch's CUDA epilogue after a bare exception line
		}
		if p.colon {
			// "Failed to load the model:" announcing the exception line.
			if _, _, ok := parseExceptionAnyQuote(s); ok {
				return true
			}
		}
		if isIndented(s) {
			if first := a.kept.first(); isIndented(first) && indentWidth(s) <= indentWidth(first) {
				// The entry's own first line is indented (a block
				// behind a prefix, a paste's indentation no lead
				// told): a line no deeper than it is its sibling, a
				// row of the same level (kubectl describe's "State:"
				// and "Last State:"), not its continuation.
				return false
			}
			// An indented list item holding an exception line is one as
			// much as the line unquoted is.
			_, _, quoted := unquoteException(s)
			return !quoted
		}
		return false
	case ruleFrames:
		if p.group && isBoxLine(s) || isIndented(s) || IsCaretLine(s) || isRepeatedLine(s) {
			return true
		}
		_, _, ok := parseExceptionLine(s)
		return ok
	case ruleAfterException:
		return p.group && isBoxLine(s) || !afterBlank && (isIndented(s) || isEpilogue(s))
	case ruleBox:
		return p.group && isBoxLine(s)
	}
	return false
}

// indentWidth returns the number of spaces and tabs s opens with.
func indentWidth(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// isBoxLine matches a line of an exception group's box: "|" or "+-" after
// its indentation.
func isBoxLine(s string) bool {
	t := strings.TrimLeft(s, " ")
	return strings.HasPrefix(t, "|") || strings.HasPrefix(t, "+-")
}

// advance moves the entry to its next state after it took line s: a
// traceback's start, a frame, a section's exception line or a chain
// separator change its phase. A native block and a blank entry have no
// phases; a one-line record keeps its state but notes a traceback.
func (a *Assembler) advance(s string) {
	p := &a.cur
	if p.kind == kindNative || p.kind == kindBlank {
		return
	}
	ph := statePhase[p.st]
	next := ph
	if next == phFrame {
		next = phFrames // the frame's source line, or what ends the section
	}
	if p.group {
		if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, "|") {
			// A line of an exception-group box: its content follows the bar.
			s = strings.TrimPrefix(t[1:], " ")
		}
	}
	// unindented: s has no leading space (TrimLeft would leave it whole).
	unindented := s == "" || s[0] != ' '
	switch {
	case hasGroupStart(s):
		next, p.hasTB, p.group = phFrames, true, true
	case hasTracebackStart(s):
		next, p.hasTB = phFrames, true
	case isChainSeparator(s):
		if ph == phException {
			next = phChain
		}
	case isFrameLine(s):
		next, p.hasTB = phFrame, true
	case (ph == phFrames || ph == phFrame) && unindented:
		if isExceptionLine(s, ph == phFrame) {
			next = phException
		}
	}
	p.st = p.st.withPhase(next)
}
