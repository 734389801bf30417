package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// NativeRustPanic is the Native shape of a Rust panic, as the sglang router
// and model gateway (and any Rust extension) print it on stderr: "thread
// 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:"
// with the message on the lines after it (Rust 1.73 on; 1.90 puts the
// thread id after the name), or the older one-line "thread 'main' panicked
// at 'message', src/main.rs:10:5"; then "note: run with `RUST_BACKTRACE=1`
// ..." or a "stack backtrace:" and its frames. Its level is FATAL: a panic
// unwinds the thread, and the router's main thread or a worker it needs is
// gone. ParsePanic reads the message back from the entry's text.
const NativeRustPanic = "rust-panic"

// Panic is what ParsePanic reads from a Rust panic's lines.
type Panic struct {
	Thread   string // the thread's name as printed ("main", "<unnamed>")
	Location string // "src/main.rs:10:5"
	Message  string // the panic message, its lines joined by "\n"
}

// The states of a Rust panic entry (pending.panic): what its next line may be.
const (
	panicNone     int8 = iota
	panicMessage       // after "panicked at <location>:": the message's first line
	panicMore          // after the message's first line: indented message lines, the note, the backtrace
	panicQuote         // inside the older form's quoted message, left open by a newline in it
	panicAfter         // after the message: only the note and the backtrace
	panicLocation      // after "panicked at " that a word wrap (fold -s) cut before its location: the location's rest
)

// maxPanicName bounds a thread name and a location.
const maxPanicName = 256

// panicHead reads a panic's first line: the thread, and what follows
// "panicked at ". ok is false for every other line.
func panicHead(s string) (thread, rest string, ok bool) {
	r, ok := strings.CutPrefix(s, "thread '")
	if !ok {
		return "", "", false
	}
	q := strings.IndexByte(r, '\'')
	if q < 0 || q > maxPanicName {
		return "", "", false
	}
	thread, r = r[:q], r[q+1:]
	if strings.HasPrefix(r, " (") {
		// Rust 1.90 on: the thread's id, "thread 'main' (12345) panicked".
		k := 2
		for k < len(r) && isDigit(r[k]) {
			k++
		}
		if k == 2 || k >= len(r) || r[k] != ')' {
			return "", "", false
		}
		r = r[k+1:]
	}
	rest, ok = strings.CutPrefix(r, " panicked at ")
	return thread, rest, ok
}

// isRustLocation matches "path:line:col", the path without spaces.
func isRustLocation(s string) bool {
	if s == "" || len(s) > maxPanicName || strings.IndexByte(s, ' ') >= 0 {
		return false
	}
	c2 := strings.LastIndexByte(s, ':')
	if c2 <= 0 || !ascii.Digits(s[c2+1:]) {
		return false
	}
	c1 := strings.LastIndexByte(s[:c2], ':')
	return c1 > 0 && ascii.Digits(s[c1+1:c2])
}

// panicState returns the state after a panic's first line s, and whether s
// is one: panicMessage for "... panicked at <location>:", panicAfter for
// the older form closed on its line, panicQuote for the older form whose
// quoted message goes on.
func panicState(s string) (int8, bool) {
	_, r, ok := panicHead(s)
	if !ok {
		return panicNone, false
	}
	if r == "" {
		// "thread 'main' panicked at " and the location, longer than
		// what was left of the line, on the next.
		return panicLocation, true
	}
	if loc, ok := strings.CutSuffix(r, ":"); ok && isRustLocation(loc) {
		return panicMessage, true
	}
	if !strings.HasPrefix(r, "'") {
		if len(r) <= maxPanicName && strings.IndexByte(r, ' ') < 0 && strings.IndexByte(r, '/') >= 0 && !strings.HasSuffix(r, ":") {
			// The location's path, cut by a terminal before its line
			// and column ("...panicked at /home/x/.cargo/registry/src/
			// index.crates.io-" and "1949cf8c6b5b557f/tokio-1.45.1/src/
			// runtime/blocking/shutdown.rs:51:21:"): its rest follows.
			return panicLocation, true
		}
		return panicNone, false
	}
	if closesPanicQuote(r[1:]) {
		return panicAfter, true
	}
	return panicQuote, true
}

// closesPanicQuote reports whether s ends the older form's quoted message:
// "', <location>" at its end.
func closesPanicQuote(s string) bool {
	i := strings.LastIndex(s, "', ")
	return i >= 0 && isRustLocation(s[i+3:])
}

// isPanicLocationRest reports whether s is what follows "panicked at " on
// a panic's first line: a location and its ":" (Rust 1.73 on), or the
// older form's quoted message.
func isPanicLocationRest(s string) bool {
	if loc, ok := strings.CutSuffix(s, ":"); ok && isRustLocation(loc) {
		return true
	}
	return strings.HasPrefix(s, "'") && len(s) > 1
}

// isPanicRest reports whether next is the rest of a panic's first line,
// prev, that a word wrap (fold -s) cut just after "panicked at ", or a
// terminal inside the location's path.
func isPanicRest(prev, next string) bool {
	st, ok := panicState(prev)
	return ok && st == panicLocation && isPanicLocationRest(next)
}

// isPanicNote matches the lines Rust prints after a panic's message: the
// backtrace hint ("note: run with `RUST_BACKTRACE=1` ...", "note: Some
// details are omitted, ...") and the backtrace's title.
func isPanicNote(s string) bool {
	return strings.HasPrefix(s, "note: ") || s == "stack backtrace:"
}

// panicNext returns whether the non-blank line s continues a panic in
// state st, and the state after it.
func panicNext(st int8, s string, afterBlank bool) (int8, bool) {
	if afterBlank {
		return st, false
	}
	switch {
	case st == panicLocation:
		// The location a wrap put on a line of its own (the Assembler
		// rejoins it; read apart, it still belongs to the panic).
		if isPanicLocationRest(s) {
			return panicOpen("thread '' panicked at " + s), true
		}
		return st, false
	case st == panicQuote:
		if closesPanicQuote(s) {
			return panicAfter, true
		}
		return panicQuote, true
	case isPanicNote(s):
		return panicAfter, true
	case st == panicMessage:
		if isTracebackLine(s) || isFrameLine(s) {
			return st, false
		}
		return panicMore, true
	case st == panicMore || st == panicAfter:
		// Indented: a message's further lines ("  left: 1"), or a
		// backtrace's frames ("   0: rust_begin_unwind", "at
		// /rustc/...").
		return st, isIndented(s)
	}
	return st, false
}

// ParsePanic reads a Rust panic from an entry's text (Entry.Text of a
// NativeRustPanic entry): its thread, location and message. The message is
// the quoted one of the older form, or the lines between the first line and
// the note or backtrace, joined by "\n" (blank lines, which an entry keeps
// only from a double-spaced paste, left out). ok is false when text does not
// open with a panic's first line.
func ParsePanic(text string) (Panic, bool) {
	first, rest, _ := strings.Cut(text, "\n")
	thread, r, ok := panicHead(first)
	if !ok {
		return Panic{}, false
	}
	p := Panic{Thread: thread}
	if loc, ok := strings.CutSuffix(r, ":"); ok && isRustLocation(loc) {
		p.Location = loc
		var msg []string
		for rest != "" {
			var l string
			l, rest, _ = strings.Cut(rest, "\n")
			if isBlank(l) {
				// The entry holds a blank line only where a paste
				// doubled the spacing: the message goes on after it.
				continue
			}
			if isPanicNote(l) {
				break
			}
			msg = append(msg, l)
		}
		p.Message = strings.Join(msg, "\n")
		return p, true
	}
	m, ok := strings.CutPrefix(r, "'")
	if !ok {
		return Panic{}, false
	}
	// The older form: the message runs to "', <location>", maybe over
	// several lines.
	if rest != "" {
		m += "\n" + rest
	}
	end := -1
	for i := 0; i < len(m); {
		j := strings.Index(m[i:], "', ")
		if j < 0 {
			break
		}
		k := i + j
		loc := m[k+3:]
		if n := strings.IndexByte(loc, '\n'); n >= 0 {
			loc = loc[:n]
		}
		if isRustLocation(loc) {
			end, p.Location = k, loc
			break
		}
		i = k + 3
	}
	if end < 0 {
		// Cut before its location: the message as far as it goes.
		if i := strings.Index(m, "\nnote: "); i >= 0 {
			m = m[:i]
		}
		p.Message = m
		return p, true
	}
	p.Message = m[:end]
	return p, true
}

// A Rust backtrace without its panic line. A paste, a cut log or a
// collector that dropped the panic's first lines leaves only the numbered
// frames of the backtrace: "  25:     0x7fb7396a2659 -
// sglang_router_rs::router::Router::wait_for_healthy_workers::hee2d9a52d3a5ed31"
// with "at src/router.rs:319:27" after each. Rust prints such frames only
// when a thread panics (or an error with its backtrace is reported), so
// the first frame opens a Rust panic entry whose message is unknown; the
// frames after it are its lines, as after a panic's note.

// rustFrameStarters are the symbols a Rust backtrace's first frames name
// when the frame carries neither an address nor a symbol hash.
var rustFrameStarters = []string{"rust_begin_unwind", "rust_panic", "core::panicking::", "std::panicking::", "std::rt::", "__rust"}

// isRustBacktraceFrame matches a numbered frame of a Rust backtrace:
// "N: 0x<address> - <symbol>", "N: <symbol>::h<16 hex digits>", or a
// frame of the panic machinery ("N: rust_begin_unwind"), indented or not.
func isRustBacktraceFrame(s string) bool {
	t := strings.TrimLeft(s, " \t")
	k := 0
	for k < len(t) && k < 5 && isDigit(t[k]) {
		k++
	}
	if k == 0 || k >= len(t) || t[k] != ':' {
		return false
	}
	t = t[k+1:]
	sym := strings.TrimLeft(t, " \t")
	if len(sym) == len(t) {
		return false // "N:" then a space at least
	}
	if strings.HasPrefix(sym, "0x") {
		h := 2
		for h < len(sym) && h < 18 && isHexDigit(sym[h]) {
			h++
		}
		if h > 2 && (sym[h:] == " - " || sym[h:] == " -") {
			// Cut by a word wrap (fold -s) before its symbol, which
			// the next line carries (isRustFrameRest).
			return true
		}
		rest, ok := strings.CutPrefix(sym[h:], " - ")
		return h > 2 && ok && rest != "" && (strings.Contains(rest, "::") || strings.HasPrefix(rest, "<") || strings.HasPrefix(rest, "_"))
	}
	if strings.IndexByte(sym, ' ') >= 0 && !strings.HasPrefix(sym, "<") {
		return false
	}
	for _, p := range rustFrameStarters {
		if strings.HasPrefix(sym, p) {
			return true
		}
	}
	i := strings.LastIndex(sym, "::h")
	return i > 0 && len(sym)-i-3 == 16 && isHex(sym[i+3:])
}

// isRustFrameRest reports whether next is the symbol of a Rust backtrace
// frame, prev, that a word wrap cut after its address ("  25:
// 0x7fb7396a2659 - " and "sglang_router_rs::router::Router::new::h9d5b1ebdc8a85ca6").
func isRustFrameRest(prev, next string) bool {
	if !strings.HasSuffix(prev, " - ") && !strings.HasSuffix(prev, " -") || !isRustBacktraceFrame(prev) || next == "" || isIndented(next) {
		return false
	}
	joined := strings.TrimRight(prev, " ") + " " + next
	return isRustBacktraceFrame(joined) && !isRustBacktraceFrame(next)
}

// maxRustSymbol bounds the symbol isRustSymbol reads.
const maxRustSymbol = 1024

// isRustSymbol reports whether s is a Rust symbol path alone, as a
// backtrace's frame without an address or a hash prints it after its
// number: "tokio::runtime::task::core::Core<T,S>::poll",
// "<F as core::future::future::Future>::poll",
// "sglang_router_rs::routers::http::router::Router::route::{{closure}}". A
// "::" is in it, and a space only inside angle brackets.
func isRustSymbol(s string) bool {
	if s == "" || len(s) > maxRustSymbol || !strings.Contains(s, "::") {
		return false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			depth++
		case c == '>':
			if depth == 0 {
				return false
			}
			depth--
		case c == ' ':
			if depth == 0 {
				return false
			}
		case isDigit(c) || isLetter(c) || strings.IndexByte("_:{}[],&*;'()-.!", c) >= 0:
		default:
			return false
		}
	}
	return depth == 0
}

// panicOpen returns the state after the first line s of a Rust panic
// entry: panicState's for a panic line, panicAfter for a backtrace frame
// that opens one without its panic line.
func panicOpen(s string) int8 {
	if st, ok := panicState(s); ok {
		return st
	}
	return panicAfter
}
