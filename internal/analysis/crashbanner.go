package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"

	"github.com/logmatch/logmatch/internal/entry"
)

// A native program's crash handler announces the fatal signal it caught
// before it prints a backtrace, each in its own words and with no logging
// header: UCX's "[host:pid:tid:n] Caught signal 11 (Segmentation fault:
// ...)", glog's "*** SIGSEGV (@0x0) received by PID 12 (TID ...) ***" and
// "*** Aborted at 1700000000 (unix time) ...", Open MPI's "Signal:
// Segmentation fault (11)", the JVM's "# SIGSEGV (0xb) at pc=...", Go's
// runtime "SIGSEGV: segmentation violation", a handler's "Caught SIGSEGV"
// or "!!! Segfault encountered !!!", and the shell's "Segmentation fault
// (core dumped)" glued to the end of a progress bar the process was
// drawing. A runtime that dies of an exception or an abort of its own says
// so in one line before its frames: c10's abort handler "Unhandled
// exception caught in c10/util/AbortHandler.h" (then, on Windows,
// "ADDR module.dll!symbol [file @ line]" frames), the .NET runtime's
// "Unhandled exception. System.X: ...", a Windows debugger's "Unhandled
// exception at 0x... in prog.exe: 0xC0000005: Access violation ...",
// Rust's standard library's "fatal runtime error: stack overflow",
// CPython's faulthandler's "Windows fatal exception: access violation"
// before its thread dump, and
// LLVM's crash handler's "PLEASE submit a bug report to ... and include
// the crash backtrace." before its "Stack dump:" (a compiler inside
// Triton or MLIR crashing), the HIP runtime's "Memory access fault by GPU
// node-N ..." that ran into a progress bar's line, and libstdc++'s terminate handler's "what():
// ..." line of an exception nothing caught, when the line before it was
// lost. crashBanner reads them: a native crash,
// whichever program printed it.

// maxCrashWindow bounds how far into a line crashBanner looks for the
// handler's words: they open the line, after a tag at most.
const maxCrashWindow = 160

// crashSignals are the signals a process dies of by its own fault, by
// name and as strsignal describes them, lower case.
var crashSignals = [...]string{"sigsegv", "sigbus", "sigill", "sigfpe", "sigabrt", "segmentation fault", "bus error", "illegal instruction", "floating point exception"}

// crashBanner reports whether l, a line with no level of its own, is a
// crash handler's announcement of a fatal signal (see above).
func crashBanner(l string) bool {
	t := strings.TrimSpace(l)
	if len(t) < 8 {
		return false
	}
	if strings.HasSuffix(t, "(core dumped)") {
		return shellCrashEnd(strings.TrimSpace(strings.TrimSuffix(t, "(core dumped)")))
	}
	if t[0] == '[' {
		// A handler's tag: host, pid and thread, or its component.
		end := strings.IndexByte(t[:min(len(t), maxLineTag+2)], ']')
		if end < 2 || strings.ContainsAny(t[1:end], " \t") {
			return false
		}
		t = strings.TrimLeft(t[end+1:], " \t")
	}
	w := t[:min(len(t), maxCrashWindow)]
	switch {
	case strings.HasPrefix(w, "*** "):
		// glog's and folly's banner.
		r := w[4:]
		return ascii.HasPrefixFold(r, "sig") && crashSignalAt(r) != "" && strings.Contains(r, "received") ||
			ascii.HasPrefixFold(r, "aborted at ") && len(r) > 11 && isDigitByte(r[11])
	case ascii.HasPrefixFold(w, "# sig"):
		// The JVM's fatal error report: "# SIGSEGV (0xb) at pc=".
		n := crashSignalAt(w[2:])
		return n != "" && strings.HasPrefix(w[2+len(n):], " (0x")
	case ascii.HasPrefixFold(w, "signal: "):
		// Open MPI: "Signal: Segmentation fault (11)".
		n := crashSignalAt(w[8:])
		return n != "" && strings.HasPrefix(w[8+len(n):], " (")
	case strings.HasPrefix(w, "SIG"):
		// Go's runtime: "SIGSEGV: segmentation violation".
		n := crashSignalAt(w)
		return n != "" && strings.HasPrefix(w[len(n):], ": ") && len(w) > len(n)+2 && isLowerByte(w[len(n)+2])
	}
	if runtimeAbort(w) {
		return true
	}
	if r, ok := strings.CutPrefix(t, "what():  "); ok && hasLetter(r) && strings.Count(r, "(") <= strings.Count(r, ")") {
		// libstdc++'s terminate handler's second line, the exception's
		// what(), its first line ("terminate called after throwing an
		// instance of ...") lost or printed apart. One whose
		// parentheses are left open was cut by a wrap: the error is on
		// the lines after it, which a record may read.
		return true
	}
	if b := strings.TrimLeft(w, "!* "); len(b) < len(w) && (ascii.HasPrefixFold(b, "segfault encountered") || ascii.HasPrefixFold(b, "segmentation fault encountered")) {
		// A handler's exclamation banner.
		return true
	}
	if r, ok := gdbStopReport(w); ok {
		return caughtCrash(r)
	}
	if (l[0] == ' ' || l[0] == '\t') && progressFault(t) {
		// tqdm pads its percentage: a bar's line opens with a space
		// below 100%, which the byte test (crashBannerStart) lets in.
		return true
	}
	return caughtCrash(w)
}

// rocmFaultMarker opens the HIP runtime's report of a GPU memory fault,
// which aborts the process ("Memory access fault by GPU node-1 (Agent
// handle: 0x...) on address 0x.... Reason: Page not present or
// supervisor privilege.").
const rocmFaultMarker = "Memory access fault by GPU node-"

// progressFault reports whether l is a progress bar's line that the HIP
// runtime's memory fault report ran into: the runtime writes it to
// stderr, where tqdm draws its bar without a line end, so the report
// follows the bar's percentage and blocks (" 41%|████▏     | 12/29
// [00:05<00:07,  2.25it/s]Memory access fault by GPU node-1 ..."), or
// lands inside the bar when the bar is redrawn after it. The entry
// package reads the report only where it opens a line.
func progressFault(l string) bool {
	p := strings.IndexByte(l, '%')
	if p < 0 || p+1 >= len(l) || l[p+1] != '|' {
		return false
	}
	i := strings.Index(l[p:], rocmFaultMarker)
	return i > 0
}

// gdbStopReport returns, from "received", gdb's report that the program
// it runs stopped on a signal: "Program received signal SIGSEGV,
// Segmentation fault.", `Thread 12 "pt_main_thread" received signal
// SIGABRT, Aborted.`. The backtrace printed after it is that crash's
// (gdbdump.go reads it as a dump, which the crash leads).
func gdbStopReport(w string) (string, bool) {
	if r, ok := strings.CutPrefix(w, "Program "); ok && strings.HasPrefix(r, "received signal ") {
		return r, true
	}
	r, ok := strings.CutPrefix(w, "Thread ")
	if !ok {
		return "", false
	}
	i := 0
	for i < len(r) && isDigitByte(r[i]) {
		i++
	}
	if i == 0 {
		return "", false
	}
	r = r[i:]
	if strings.HasPrefix(r, ` "`) {
		q := strings.IndexByte(r[2:], '"')
		if q < 0 {
			return "", false
		}
		r = r[2+q+1:]
	}
	r, ok = strings.CutPrefix(r, " ")
	return r, ok && strings.HasPrefix(r, "received signal ")
}

// runtimeAbort reports whether w opens with a runtime's own line that
// the process dies of an exception nothing caught or of an abort (see
// above): c10's abort handler, the .NET runtime's and a Windows
// debugger's unhandled exception, Rust's fatal runtime error, LLVM's
// request for a bug report with the crash backtrace. Not "Unhandled
// exception in handler, returning 500" (a server that carried on) nor
// prose about unhandled exceptions.
func runtimeAbort(w string) bool {
	if w == "" {
		return false
	}
	switch w[0] {
	case 'U', 'u':
		r, ok := cutPrefixFold(w, "unhandled exception")
		if !ok {
			return false
		}
		switch {
		case strings.HasPrefix(r, " caught in ") && len(r) > len(" caught in "):
			// c10's handler names itself: "caught in c10/util/AbortHandler.h".
			return true
		case strings.HasPrefix(r, " at 0x"):
			// A debugger's "at 0x00007FF6... in prog.exe: 0xC0000005: ...".
			return strings.Contains(r, " in ") && strings.Contains(r, ": 0x")
		case strings.HasPrefix(r, ". ") || strings.HasPrefix(r, ": "):
			// .NET: "Unhandled exception. System.IO.IOException: ...".
			return dottedTypeLead(r[2:])
		}
	case 'F', 'f':
		r, ok := cutPrefixFold(w, "fatal runtime error: ")
		return ok && hasLetter(r)
	case 'P':
		r, ok := strings.CutPrefix(w, "PLEASE submit a bug report to ")
		return ok && strings.Contains(r, "crash backtrace")
	case 'W':
		// CPython's faulthandler on Windows, for a structured
		// exception: "Windows fatal exception: access violation",
		// "... stack overflow", "... code 0xc0000374".
		r, ok := strings.CutPrefix(w, "Windows fatal exception: ")
		return ok && hasLetter(r)
	}
	return false
}

// dottedTypeLead reports whether s opens with a dotted type name ending
// in Exception or Error and a colon or its line's end: .NET's
// "System.InvalidOperationException: ...".
func dottedTypeLead(s string) bool {
	end := strings.IndexAny(s, ": ")
	if end < 0 {
		end = len(s)
	}
	name := s[:end]
	if !strings.Contains(name, ".") || !(strings.HasSuffix(name, "Exception") || strings.HasSuffix(name, "Error")) {
		return false
	}
	return end == len(s) || s[end] == ':'
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if !ascii.HasPrefixFold(s, prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// caughtCrash reports whether w, in any case, opens with a handler's
// report that it caught or received a crash signal: "caught signal 11
// (...)", "received signal 6", "caught sigsegv", "crash: caught 11
// (segmentation fault)", "got signal sigbus"; not "got 11 requests".
func caughtCrash(w string) bool {
	if ascii.HasPrefixFold(w, "crash: ") {
		w = w[len("crash: "):]
	}
	r := ""
	for _, v := range [...]string{"caught ", "received ", "got "} {
		if ascii.HasPrefixFold(w, v) {
			r = w[len(v):]
			break
		}
	}
	if r == "" {
		return false
	}
	named := ascii.HasPrefixFold(r, "signal ")
	if named {
		r = r[len("signal "):]
	}
	if crashSignalAt(r) != "" {
		return true
	}
	i := 0
	for i < len(r) && isDigitByte(r[i]) {
		i++
	}
	if i == 0 || i < len(r) && r[i] != ' ' && r[i] != ',' && r[i] != ':' && r[i] != ')' {
		return false
	}
	switch r[:i] {
	case "4", "6", "7", "8", "11":
		// A number alone is a signal's when the word says so or its
		// description follows: "caught 11 (segmentation fault)".
		return named || strings.HasPrefix(r[i:], " (") && crashSignalAt(r[i+2:]) != ""
	}
	return false
}

// crashSignalAt returns what s opens with of a crash signal's name, in
// any case, "" when it opens with none.
func crashSignalAt(s string) string {
	for _, n := range crashSignals {
		if ascii.HasPrefixFold(s, n) && (len(s) == len(n) || !ascii.Letter(s[len(n)])) {
			return s[:len(n)]
		}
	}
	return ""
}

// shellCrashEnd reports whether s, a line's text before its closing
// "(core dumped)", ends with the shell's description of a crash signal,
// after whatever a progress bar left on the line.
func shellCrashEnd(s string) bool {
	for _, n := range [...]string{"segmentation fault", "aborted", "bus error", "illegal instruction", "floating point exception"} {
		if len(s) >= len(n) && strings.EqualFold(s[len(s)-len(n):], n) {
			before := s[:len(s)-len(n)]
			c := byte(']')
			if before != "" {
				c = before[len(before)-1]
			}
			return !ascii.Letter(c) && c != ' '
		}
	}
	return false
}

// crashBannerStart reports, cheaply, whether l may be a crash banner:
// it opens with a byte one of them opens with, or it ends in the shell's
// "(core dumped)". It may say true of other lines (crashBanner decides),
// never false of a banner.
func crashBannerStart(l string) bool {
	if l == "" {
		return false
	}
	switch l[0] {
	case '*', '#', '!', '[', 'S', 's', 'C', 'c', 'R', 'r', 'G', 'g', 'U', 'u', 'F', 'f', 'P', 'T', 'W', 'w', ' ', '\t', 0xE2: // 0xE2: a progress bar's block's first byte
		return true
	}
	n := len(l)
	for n > 0 && (l[n-1] == ' ' || l[n-1] == '\t' || l[n-1] == '\r') {
		n--
	}
	return n > 0 && l[n-1] == ')' && strings.HasSuffix(l[:n], "dumped)")
}

// lastLine is the last line of s, without its line end; "" when s is one
// line. A crash ends the output: its banner is the last line of lines no
// header split (a progress bar's, a script's prints).
func lastLine(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if strings.IndexByte(s, '\n') < 0 {
		// One line, most entries: IndexByte is vectorised, LastIndexByte
		// a byte loop over the whole text.
		return ""
	}
	i := strings.LastIndexByte(s, '\n')
	return strings.TrimRight(s[i+1:], "\r")
}

// crashLine returns the crash banner of an entry with no level whose last
// line is one and whose first is not (a progress bar's lines, a script's
// prints before the crash): that line, from the shell's description of the
// signal on when it was glued to the end of a progress bar. "" otherwise.
func crashLine(e *entry.Entry) string {
	if e.Level != "" || e.Lines < 2 || crashBanner(FirstLine(e.Message)) {
		return ""
	}
	l := strings.TrimSpace(lastLine(e.Text))
	if !crashBanner(l) {
		return ""
	}
	if body, ok := strings.CutSuffix(l, "(core dumped)"); ok {
		if i := strings.LastIndexAny(strings.TrimSpace(body), "]|"); i >= 0 {
			return strings.TrimSpace(l[i+1:])
		}
	}
	return l
}

// maxContinued bounds the continuation lines continuedCrash reads.
const maxContinued = 32

// continuedCrash returns, trimmed, the first continuation line of entry e
// of several lines (its lines after the first, at most maxContinued, and a
// routine record's message written on its own line) that is a crash
// handler's banner (crashBanner) or a C or C++ assertion's line
// (assertionLine); "" when none is. A native crash printed to the same
// stream as a record with no level or a routine one is joined to that
// record when no header starts it (UCX's "[host:pid:tid:n] Caught signal
// 11 (Segmentation fault: ...)" under an access line, ggml's
// "GGML_ASSERT(...) failed" under a DEBUG record whose message is on its
// next line): it is still the process's death, whatever the record's
// level.
func continuedCrash(e *entry.Entry) string {
	if e.Lines < 2 || e.Traceback != nil {
		return ""
	}
	if e.Level == "INFO" || e.Level == "DEBUG" {
		// A routine record's message, printed on the line after its
		// header (LM Studio's "2026-04-15 03:14:05 [DEBUG]"), is such
		// a line too.
		if t := strings.TrimSpace(FirstLine(e.Message)); t != "" && (crashBannerStart(t) && crashBanner(t) || assertionLine(t)) {
			return t
		}
	}
	_, text, _ := strings.Cut(e.Text, "\n")
	for n := 0; text != "" && n < maxContinued; n++ {
		var l string
		l, text, _ = strings.Cut(text, "\n")
		t := strings.TrimSpace(l)
		if t != "" && (crashBannerStart(t) && crashBanner(t) || assertionLine(t)) {
			return t
		}
	}
	return ""
}
