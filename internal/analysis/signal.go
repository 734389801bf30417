package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// signalOf says whether an entry looks like a failure on its own, without
// any record, and how severe its own evidence is:
//
//   - a Python exception (a traceback, or an exception line printed
//     alone): error;
//   - a log record at ERROR (error), CRITICAL or FATAL (critical) level;
//   - a native error line: a Fatal Python error, std::terminate, a signal
//     death reported by the shell, a ROCm memory fault or HIP error (the
//     ROCm runtime's trace lines by their own level), a CUDA device
//     assertion, a C or C++ assertion (critical); c10d and glog at E (error) or F (critical);
//     NCCL WARN (warning, its own level); a program's diagnostic in the
//     Unix convention ("slurmstepd: error: ...", entry.NativeDiagnostic:
//     error, or critical for "fatal");
//   - a line without a level whose words take a level's place (error): an
//     error word or level token first ("Error: ", git's "fatal: ", apt's
//     "E: ", "ERROR - ", "[ERROR target] "), an HTTP error status, a
//     tool's summary of a failed step (entry.FailureSummary: a report's
//     "× " mark, a failure sentence ending in its non-zero status, a
//     rejection quoting an object's repr);
//   - the kernel's report of a failed device or of the OOM killer's
//     victim, a memory checker's report of an invalid access, in lines
//     without a level (kernel.go, memcheck.go): error; a C or C++
//     assertion's line without its location (assertline.go): critical;
//     a library's line behind bracketed tags (tagchain.go), a failed
//     call's status (statusline.go): error;
//   - a routine line (INFO, DEBUG), or one with no level whose abnormal
//     word holds an 'x' (levelLessDeathReport), reporting another
//     component's abnormal death (deathReport): error;
//   - a line with no level that says a request failed with the HTTP
//     error status it got (httpStatusFailure): error;
//   - Ray's C++ line behind the driver's process prefix at its error
//     level (error) or its fatal ones (critical) (raylog.go); CANN's
//     coded error line (cannline.go): error;
//   - a line with no level and no logger's header that shows a CUDA
//     call's failed status (cudastatus.go) or a native library's named
//     function that failed (funcfailed.go): error;
//   - faulthandler's list of extension modules alone (faultframes.go), a
//     hosting platform's report that the server's container exited with a
//     non-zero code (platformexit.go): critical.
//
// Everything else, INFO and WARNING records included, is no signal.
func signalOf(e *entry.Entry) (Signal, patterns.Severity) {
	sig, sev, _ := readSignal(e)
	return sig, sev
}

// hitSignal is readSignal for an entry a record matched. Most such
// entries without a traceback are level-less or routine lines that quiet
// calls quiet, and quiet never does so for an entry readSignal gives a
// signal (TestQuietAgreesWithSignalOf, FuzzQuietAgreesWithSignalOf): its
// byte tests and few readers answer for them, where readSignal's readers
// would read the line again one after another. decide's own first test
// takes quiet entries without a hit; one with a hit comes here.
func hitSignal(e *entry.Entry) (Signal, patterns.Severity, bool) {
	if e.Traceback == nil && quiet(e) {
		return "", "", false
	}
	return readSignal(e)
}

// readSignal is signalOf, which also says whether the signal is a level-less
// line's report of another component's death (levelLessDeathReport), read
// once here for the diagnosis's role (unclassified).
func readSignal(e *entry.Entry) (Signal, patterns.Severity, bool) {
	if e.Traceback != nil && len(e.Traceback.Links) > 0 && (e.Traceback.Outermost().Type != "" || strings.Contains(e.Text, tracebackHeader) || raisedAtCut(e) || framesAlone(e)) {
		// Frames with no exception line and no "Traceback" header are
		// stray lines of a dump, not an exception, unless the last
		// one was raising when the text was cut, or they are a
		// traceback's own frames with their source lines.
		sev := patterns.SeverityError
		if lv := levelSeverity(e.Level); lv.Rank() > sev.Rank() {
			sev = lv
		}
		return SignalException, sev, false
	}
	if e.Traceback == nil && entry.ThreadExceptionHeader(e.Message) {
		// A thread's exception header cut from its traceback.
		return SignalException, patterns.SeverityError, false
	}
	if e.Native == entry.NativeRustPanic && e.Format != entry.FormatNative {
		// A panic a logger relayed, its header on each line: the
		// panic, not the header's level, says how bad it is.
		return SignalNative, patterns.SeverityCritical, false
	}
	if e.Format == entry.FormatNative {
		if sev, ok := nativeSeverity(e); ok {
			return SignalNative, sev, false
		}
		return "", "", false
	}
	if sev := levelSeverity(e.Level); sev.Rank() >= patterns.SeverityError.Rank() {
		return SignalLevel, sev, false
	}
	// The first line of the message, which most readers below read: cut
	// once here.
	l := FirstLine(e.Message)
	if e.Level == "" && !loggerHeader(e.Format) && l != "" && l[0] == 'd' && sseError(l) {
		// A streamed answer's event that carries the server's error
		// (sseerror.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && l != "" && isDigitByte(l[0]) {
		if sev := timedLevelSeverity(l); sev != "" {
			// A header the entry package does not read, its level
			// among the fields after the time (timedlevel.go).
			return SignalLevel, sev, false
		}
	}
	if e.Level == "" && !loggerHeader(e.Format) && (crashBanner(l) || e.Lines > 1 && crashBanner(lastLine(e.Text))) {
		// A crash handler's announcement of the fatal signal it
		// caught (crashbanner.go).
		return SignalNative, patterns.SeverityCritical, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && platformExitCode(l) != "" {
		// A hosting platform's report that the server's container
		// exited with a non-zero code (platformexit.go).
		return SignalLevel, patterns.SeverityCritical, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && extensionModules(l) {
		// faulthandler's list of extension modules, which only a
		// fatal error prints, its header and frames lost
		// (faultframes.go).
		return SignalNative, patterns.SeverityCritical, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && kernelFailure(e.Message) {
		// The kernel's report of a failed device or of the process
		// its OOM killer chose (kernel.go).
		return SignalNative, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && memoryCheckReport(l) {
		// A memory checker's report of an invalid access
		// (memcheck.go).
		return SignalNative, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && assertionLine(l) {
		// A C or C++ assertion's line without the location the
		// entry package reads (assertline.go).
		return SignalNative, patterns.SeverityCritical, false
	}
	if watchdogOrGoExit(l) {
		// A watchdog that fired: a hang whatever the level
		// (watchdog.go). Or a child's death by a fatal signal as Go's
		// os/exec reports it, quoted after words that it failed or
		// ended, whatever the level (goexit.go).
		return SignalLevel, patterns.SeverityCritical, false
	}
	if e.Level == "" && ncclWarnFailure(l) {
		// An NCCL WARN line that reports a failure behind a prefix
		// the entry package does not read (ncclwarn.go): its own
		// level, as a parsed one.
		return SignalNative, patterns.SeverityWarning, false
	}
	if e.Level == "" && !loggerHeader(e.Format) {
		if sev := rayRelayedCoreSeverity(l); sev != "" {
			// Ray's C++ line at its error or fatal level behind
			// the driver's process prefix (raylog.go).
			return SignalLevel, sev, false
		}
		if cannCodedError(l) {
			// CANN's coded error line (cannline.go).
			return SignalLevel, patterns.SeverityError, false
		}
	}
	if e.Level == "" && (startsWithErrorWord(e.Message) || httpErrorStatus(e.Message) || entry.FailureSummary(l) ||
		!loggerHeader(e.Format) && (libraryErrorLine(l) || taggedFailureLine(l))) {
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && llamaLogStart(l) && llamaLogError(l) {
		// llama.cpp's own log line at its error level (llamalog.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if (e.Level == "" && !loggerHeader(e.Format) || e.Level == "WARNING") && ibvStatusCandidate(l) && ibvStatusFailure(l) {
		// A failed RDMA work completion's status (ibvstatus.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && ucxFatal(l) {
		// UCX's error handler's report of what ends the process
		// (ucxfatal.go).
		return SignalNative, patterns.SeverityCritical, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && slurmCancelled(l) {
		// Slurm's banner of a job or step cancelled for a failure
		// (slurmbanner.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && l != "" && (l[0] == '\'' || l[0] == 'n' || l[0] == 'N') && bareExceptionMessage(l) {
		// A NameError's or a ModuleNotFoundError's message alone
		// (bareexception.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && l != "" && (l[0] == '4' || l[0] == '5') && requestsErrorLine(l) {
		// requests' HTTPError message alone (httpclient.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && httpStatusFailure(l) {
		// A request's failure with the HTTP error status it got
		// (httpclient.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && levelLessDeathReport(l) {
		// A component's abnormal death on a line with no level
		// (deathreport.go).
		return SignalLevel, patterns.SeverityError, true
	}
	if e.Level == "" && killReport(l) {
		// A supervisor's report of a kill for memory or of a failed
		// child (killreport.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && exceptionQuoteCandidate(l) && exceptionQuoted(l) {
		// A failure told with the exception that caused it, by a
		// logger that prints no level, sglang's own among them
		// (quotedexception.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && (quotedFailure(l) || spanError(l)) {
		// A program's diagnostic or a library's error line quoted
		// after words of the reporter's own (quotedfailure.go), or
		// inside a code span in a sentence (spanerror.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && (statusFailure(l, e.Text) || statusNameLead(l)) {
		// A failed call shown by the status it returned
		// (statusline.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && (cudaStatusCandidate(l) && cudaStatusFailure(l) || funcFailedCandidate(l) && funcFailed(l) || quotedFailureCandidate(l) && locatedError(l) || innerRecordCandidate(l) && innerRecordError(l) || taggedLocationFailed(l)) {
		// A CUDA call's failed status in the runtime's numbers and
		// names (cudastatus.go), a native library's named function
		// or a located line that failed (funcfailed.go), vLLM's
		// exception line behind a collector's prefix (innerrecord.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && kubeFailureIn(e) != "" {
		// kubectl's report of a failed workload (kubestate.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" {
		if _, ok := summaryAcrossWrap(e); ok {
			return SignalLevel, patterns.SeverityError, false
		}
		if elasticExit(e.Text) != "" {
			// torch elastic's failure summary: a worker's non-zero
			// exit code (summary.go).
			return SignalLevel, patterns.SeverityError, false
		}
	}
	if (e.Level == "" || e.Level == "INFO" || e.Level == "DEBUG") && e.Lines > 1 && continuedCrash(e) != "" {
		// A native crash joined to a routine record, or to one with no
		// level (crashbanner.go).
		return SignalNative, patterns.SeverityCritical, false
	}
	if e.Level == "INFO" && httpxServerError(e.Message) {
		// An HTTP client's record of a server error response
		// (httpclient.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if (e.Level == "INFO" || e.Level == "DEBUG") && e.Format != entry.FormatUvicorn && deathReport(l) {
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Level == "" && !loggerHeader(e.Format) && retryEnd(l) {
		// A failure whose writer says it stopped retrying
		// (retryend.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Format != entry.FormatUvicorn && goNetFailure(l) {
		// A failure with a Go network error, logged below an error
		// level (gonet.go).
		return SignalLevel, patterns.SeverityError, false
	}
	if e.Format != entry.FormatUvicorn && rustNetCandidate(l) && rustNetFailure(l) {
		// A failure with a Rust client's error, logged below an
		// error level (rustnet.go).
		return SignalLevel, patterns.SeverityError, false
	}
	return "", "", false
}

// httpErrorStatus reports whether msg is the status line of an HTTP
// response with a client or server error status, as a client's verbose
// transcript prints it: curl -v's "< HTTP/1.1 400 Bad Request", curl -i's
// or httpie's "HTTP/2 503". A request that failed is often shown only
// this way in a report; a success (1xx-3xx) or a request line is none.
func httpErrorStatus(msg string) bool {
	if msg == "" || msg[0] != '<' && msg[0] != 'H' {
		return false
	}
	r, ok := strings.CutPrefix(strings.TrimPrefix(msg, "< "), "HTTP/")
	if !ok {
		return false
	}
	sp := strings.IndexByte(r, ' ')
	if sp < 1 || sp > 3 || strings.Trim(r[:sp], "0123456789.") != "" || !isDigitByte(r[0]) {
		return false
	}
	r = r[sp+1:]
	if len(r) < 3 || r[0] != '4' && r[0] != '5' || !isDigitByte(r[1]) || !isDigitByte(r[2]) {
		return false
	}
	return len(r) == 3 || r[3] == ' ' || r[3] == '\r'
}

// AccessLine reports whether line is an HTTP server's access line: the
// request line in quotes and the status the server answered with, as
// uvicorn, gunicorn, nginx, aiohttp and the common log format print it
// ("POST /generate HTTP/1.1" 500). It is the server's own record of a
// response it sent: an exception the server prints beside it is the
// handler's failure that the status reports, not a caller's.
func AccessLine(line string) bool {
	for rest := line; ; {
		i := strings.Index(rest, " HTTP/")
		if i < 0 {
			return false
		}
		if requestBefore(rest[:i]) && statusAfter(rest[i+len(" HTTP/"):]) {
			return true
		}
		rest = rest[i+len(" HTTP/"):]
	}
}

// requestBefore reports whether s ends in the opening of a quoted request
// line: a quote, an upper-case method, a space and a target.
func requestBefore(s string) bool {
	q := strings.LastIndexByte(s, '"')
	if q < 0 {
		return false
	}
	method, target, ok := strings.Cut(s[q+1:], " ")
	if !ok || len(method) < 3 || len(method) > 7 || target == "" || strings.ContainsAny(target, " \t") {
		return false
	}
	for i := 0; i < len(method); i++ {
		if method[i] < 'A' || method[i] > 'Z' {
			return false
		}
	}
	return target[0] == '/' || strings.HasPrefix(target, "http")
}

// statusAfter reports whether s, what follows "HTTP/" in an access line,
// is a version, the request line's closing quote and a three-digit status.
func statusAfter(s string) bool {
	v := 0
	for v < len(s) && v < 3 && (isDigitByte(s[v]) || s[v] == '.') {
		v++
	}
	if v == 0 || !strings.HasPrefix(s[v:], "\" ") {
		return false
	}
	r := s[v+2:]
	return len(r) >= 3 && isDigitByte(r[0]) && isDigitByte(r[1]) && isDigitByte(r[2]) && (len(r) == 3 || !isDigitByte(r[3]))
}

// isDigitByte reports whether c is an ASCII digit.
func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// quiet reports, for an entry without a traceback, that signalOf gives it
// no signal: it is not native (nor a native shape a logger relayed), and
// it has no level and none of the level-less failure shapes
// (levelLessFailure), or its level is INFO or DEBUG and its message
// reports none of what a routine line may (routineReport). It may say
// false of a quiet entry (signalOf decides then), never true of one with a
// signal.
func quiet(e *entry.Entry) bool {
	if e.Format == entry.FormatNative || e.Native != "" {
		return false
	}
	if e.Lines > 1 && (e.Level == "" || e.Level == "INFO" || e.Level == "DEBUG") && continuedCrash(e) != "" {
		// A native crash joined to a routine record (crashbanner.go).
		return false
	}
	switch e.Level {
	case "":
		m := e.Message
		if m == "" {
			return true
		}
		return !failureFirstByte[m[0]] && !levelLessFailure(e, m)
	case "INFO", "DEBUG":
		// uvicorn's access and start-up lines never report one.
		return e.Format == entry.FormatUvicorn || !routineReport(e.Message)
	}
	return false
}

// failureFirstByte marks the bytes a message with no level may open with
// when it is a failure that quiet leaves to signalOf: the first bytes of
// startsWithErrorWord's, httpErrorStatus's and entry.FailureSummary's
// words, of "×" (0xC3), and Go's lower-case failed actions ('u', 'c':
// liberror.go).
var failureFirstByte = func() (b [256]bool) {
	for _, c := range []byte("E[FC<HefIUuc \xC3") {
		b[c] = true
	}
	return b
}()

// levelLessFailure reports whether m, the message of entry e with no
// level, may be a failure in one of the shapes read on a line without a
// level, each behind its byte test, in the order of their cost. Behind any
// header: a failure's status at the line's end (entry.StatusEnd), an NCCL
// WARN line (ncclwarn.go), llama.cpp's error line (llamalog.go), an
// exception quoted or an abnormal death (one 'x' for both:
// levelLessDeathReport), a kill or an exit (killreport.go), a request's
// HTTP error status (httpclient.go). Only without sglang's own logger's
// header, whose lines are the engine's Python logging: the rest (Ray's C++
// line behind the driver's prefix: raylog.go; CANN's coded error behind a
// process's prefix: cannline.go; networkOrJobFailure,
// quotedfailure.go, nativeReport, callFailure, a library's own error line,
// kubectl's report, a hosting platform's exit status: platformexit.go).
func levelLessFailure(e *entry.Entry, m string) bool {
	l := FirstLine(m)
	header := loggerHeader(e.Format)
	switch {
	case entry.StatusEnd(l), ncclWarnCandidate(l, header), llamaLogStart(l) && llamaLogError(l),
		exceptionQuoteCandidate(l) && (exceptionQuoted(l) || deathReport(l)), killReportOrExit(l), httpStatusFailure(l),
		l != "" && (l[0] == '4' || l[0] == '5') && requestsErrorLine(l),
		l != "" && (l[0] == '\'' || l[0] == 'n' || l[0] == 'N') && bareExceptionMessage(l):
		return true
	case header:
		return false
	}
	return rayRelayedCoreSeverity(l) != "" || l[0] == '(' && cannCodedError(l) || isDigitByte(l[0]) && timedLevelSeverity(l) != "" || l[0] == 'd' && sseError(l) || networkOrJobFailure(l) || quotedFailureCandidate(l) || nativeReport(e, l, m) ||
		callFailure(l, e.Text) || libraryError(l) || kubeFailureIn(e) != "" || l[0] == 'E' && platformExitCode(l) != ""
}

// networkOrJobFailure reports whether l may be a network failure (Go's
// and Rust's errors: gonet.go, rustnet.go; a retry that ended:
// retryend.go; UCX's fatal report: ucxfatal.go; a failed RDMA work
// completion: ibvstatus.go) or Slurm's banner of a cancelled job.
func networkOrJobFailure(l string) bool {
	return goNetCandidate(l) || rustNetCandidate(l) && rustNetFailure(l) || retryEnd(l) || ucxFatal(l) || slurmCancelled(l) ||
		ibvStatusCandidate(l) && ibvStatusFailure(l)
}

// nativeReport reports whether entry e, whose message m opens with line
// l, is the kernel's report (kernel.go), a memory checker's
// (memcheck.go), an assertion's (assertline.go), faulthandler's list of
// extension modules (faultframes.go), or opens or ends with a crash
// handler's banner (crashbanner.go).
func nativeReport(e *entry.Entry, l, m string) bool {
	return kernelLineStart(l) && kernelFailure(m) || memCheckStart(l) && memoryCheckReport(l) || assertionLine(l) ||
		crashBannerStart(l) && crashBanner(l) || l[0] == 'E' && extensionModules(l) || e.Lines >= 2 && crashBanner(lastLine(e.Text))
}

// callFailure reports whether l (of an entry whose text is text) shows a
// failed call: its status (statusline.go), a CUDA call's (cudastatus.go),
// a named function's failure (funcfailed.go), or vLLM's record behind a
// prefix (innerrecord.go).
func callFailure(l, text string) bool {
	return statusFailure(l, text) || statusNameLead(l) || cudaStatusCandidate(l) && cudaStatusFailure(l) ||
		funcFailedCandidate(l) && funcFailed(l) || innerRecordCandidate(l) && innerRecordError(l)
}

// routineReport reports whether m, the message of a routine (INFO or
// DEBUG) line, may report what a routine line of another library may:
// a component's death (deathReport), a server error an HTTP client got
// (httpclient.go), a network failure (gonet.go, rustnet.go), a watchdog
// that fired or a child's death (watchdog.go, goexit.go).
func routineReport(m string) bool {
	return deathState(m) || httpxServerError(m) || goNetCandidate(m) || rustNetCandidate(m) && rustNetFailure(FirstLine(m)) ||
		watchdogOrGoExit(FirstLine(m))
}

const tracebackHeader = "Traceback (most recent call last):"

// fatalPythonError opens the line faulthandler prints when it catches a
// fatal signal.
const fatalPythonError = "Fatal Python error: "

// fatalLine returns the "Fatal Python error: ..." line of a faulthandler
// dump whose first line is a thread header (the error line was spliced into
// the dump by interleaved output): from the error to its line's end. ""
// when the dump opens with it or holds none.
func fatalLine(e *entry.Entry) string {
	if e.Native != entry.NativeFaulthandler || strings.HasPrefix(e.Message, "Fatal Python error") {
		return ""
	}
	i := strings.Index(e.Text, fatalPythonError)
	if i < 0 {
		return ""
	}
	return FirstLine(e.Text[i:])
}

// cannReason returns the line of a CANN error block that states the
// cause of the failure, trimmed; "" for any other entry or a block without
// one. A documented error code's line says it in its own words ("EJ0001:
// <time> Failed to initialize the HCCP process. Reason: ...", followed by
// its "Solution:"): that line. An internal error code (the x9999 codes)
// says only that something failed inside: its line is the call that saw
// the failure ("wait for compute device to finish failed"), or only
// "Inner Error!", and the runtime's reason is the cause
// ("rtDeviceSynchronize execute failed, reason=[task timeout]...").
func cannReason(e *entry.Entry) string {
	if e.Native != entry.NativeAscend {
		return ""
	}
	if l := cannDocumentedLine(e.Text); l != "" {
		return l
	}
	i := strings.Index(e.Text, ", reason=[")
	if i < 0 {
		return cannInnerDetail(e.Text)
	}
	start := strings.LastIndexByte(e.Text[:i], '\n') + 1
	return strings.TrimSpace(FirstLine(e.Text[start:]))
}

// cannInnerDetail returns the first line of text, trimmed, in which an
// internal x9999 code says what failed inside ("EH9999  [Init][Env]init
// env failed![FUNC:...]", the code's continuation line, or "EZ9999:
// <time> wait for compute device to finish failed"): a line that opens
// with such a code and says more than "Inner Error!". "" when none does.
func cannInnerDetail(text string) string {
	for n := 0; text != "" && n < maxCANNLines; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		l := strings.TrimSpace(line)
		if !cannInnerCode(l) {
			continue
		}
		msg := strings.TrimLeft(l[6:], ": \t")
		if msg != "" && !cannInnerOnly(msg) {
			return l
		}
	}
	return ""
}

// cannInnerCode reports whether the trimmed line l opens with an internal
// x9999 CANN code followed by a colon or a space ("EZ9999:", "EH9999  ").
func cannInnerCode(l string) bool {
	return len(l) >= 8 && l[0] == 'E' && isAlnum(l[1]) && l[2:6] == "9999" && (l[6] == ':' || l[6] == ' ' || l[6] == '\t')
}

// cannInnerOnly reports whether msg, what follows an x9999 code, says
// only that an inner error happened: "Inner Error!", after a time or not.
func cannInnerOnly(msg string) bool {
	if i := strings.Index(msg, "Inner Error"); i >= 0 {
		return strings.TrimSpace(strings.Trim(strings.TrimSpace(msg[i+len("Inner Error"):]), "!.,")) == "" &&
			!strings.ContainsAny(strings.TrimSpace(msg[:i]), "abcdefghijklmnopqrstuvwxyz")
	}
	return false
}

// cannInnerHeadline reports whether the headline h is an x9999 code's
// line that says only "Inner Error!": a wrapper, whose detail names the
// cause.
func cannInnerHeadline(h string) bool {
	l := strings.TrimSpace(h)
	return cannInnerCode(l) && cannInnerOnly(strings.TrimLeft(l[6:], ": \t"))
}

// startsWithErrorWord reports whether a message with no level of its own
// opens the way error prints do: "Error: ...", "ERROR: ...", "[ERROR] ...",
// "FATAL: ...", and the Unix convention's level words with no program in
// front (entry.UnixErrorLine: git's "fatal: ...", cargo's "error: ...",
// apt's "E: ...").
func startsWithErrorWord(msg string) bool {
	if msg == "" {
		return false
	}
	switch msg[0] { // the first bytes of the words below: most messages start otherwise
	case 'E', '[', 'F', 'C', 'e', 'f':
	default:
		return false
	}
	for _, p := range [...]string{"Error: ", "ERROR: ", "[ERROR] ", "FATAL: ", "Fatal error: ", "CRITICAL: "} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return entry.UnixErrorLine(msg) || levelTokenLead(msg)
}

// normLevel maps the level words logging formats print onto one name.
func normLevel(l string) string {
	switch strings.ToUpper(l) {
	case "WARN", "WARNING", "W":
		return "WARNING"
	case "ERR", "ERROR", "E":
		return "ERROR"
	case "CRIT", "CRITICAL":
		return "CRITICAL"
	case "FATAL", "F", "PANIC", "EMERG", "ALERT":
		return "FATAL"
	case "":
		return ""
	}
	return strings.ToUpper(l)
}

// levelSeverity is the severity a level itself states; "" below ERROR.
func levelSeverity(l string) patterns.Severity {
	switch l {
	case "", "INFO", "DEBUG":
		// The assembler's levels are normalised already and most entries
		// are INFO: no case mapping for them.
		return ""
	}
	switch normLevel(l) {
	case "ERROR":
		return patterns.SeverityError
	case "CRITICAL", "FATAL":
		return patterns.SeverityCritical
	case "WARNING":
		return patterns.SeverityWarning
	}
	return ""
}

// nativeSeverity is the severity of a native entry that no record named,
// and whether it is a failure at all.
func nativeSeverity(e *entry.Entry) (patterns.Severity, bool) {
	switch e.Native {
	case entry.NativeFaulthandler:
		// A thread dump alone is what faulthandler.dump_traceback_later
		// (a soft watchdog) prints; only "Fatal Python error" is a crash,
		// also when another process's dump, written to the same terminal
		// at the same moment, splices it into a frame line.
		if strings.HasPrefix(e.Message, "Fatal Python error") || strings.Contains(e.Text, fatalPythonError) {
			return patterns.SeverityCritical, true
		}
		return "", false
	case entry.NativeROCm:
		// The ROCm runtime's trace lines carry their own level
		// (AMD_LOG_LEVEL: 2 warning, 3 info, 4 debug): with verbose
		// logging on, the runtime's start-up (agents enumerated, the
		// code object manager loaded, host memory allocated) prints
		// hundreds of them, none a failure unless a record reads it.
		// Its errors, a memory fault and a HIP error are critical.
		switch normLevel(e.Level) {
		case "WARNING", "INFO", "DEBUG":
			return "", false
		}
		return patterns.SeverityCritical, true
	case entry.NativeTerminate, entry.NativeCUDAAssert, entry.NativeAssert:
		return patterns.SeverityCritical, true
	case entry.NativeShell:
		// "Terminated" is how an orchestrator stops a server, in any
		// language.
		if sig, _ := entry.ShellSignal(e.Message); sig == "Terminated" {
			return "", false
		}
		return patterns.SeverityCritical, true
	case entry.NativeC10d, entry.NativeGlog:
		if normLevel(e.Level) == "WARNING" && nativeWarnFailure(FirstLine(e.Message)) {
			// A warning that reports a failed call (nativewarn.go).
			return patterns.SeverityWarning, true
		}
	case entry.NativeNCCL:
		if normLevel(e.Level) == "WARNING" {
			if msg, ok := ncclWarnMessage(FirstLine(e.Message)); ok && ncclRoutineMessage(msg) {
				// A plugin NCCL does without, a deprecated
				// setting (ncclwarn.go): NCCL carries on.
				return "", false
			}
			return patterns.SeverityWarning, true
		}
	}
	if sev := levelSeverity(e.Level); sev.Rank() >= patterns.SeverityError.Rank() {
		return sev, true
	}
	return "", false
}

// raisedAtCut reports whether e's traceback was cut right after a raise
// statement of a named class (cutAtRaise).
func raisedAtCut(e *entry.Entry) bool {
	class, _ := cutAtRaise(e)
	return class != ""
}

// shellFamily is the family of a shell's report that its child died by a
// signal: killed (SIGKILL, the OOM killer's or the launcher's) is a
// kill; a crash signal the process raised itself (SIGSEGV, SIGABRT,
// SIGBUS, SIGILL, SIGFPE) is a native crash, whose frames say where.
func shellFamily(e *entry.Entry) string {
	switch sig, _ := entry.ShellSignal(e.Message); sig {
	case "Killed", "Terminated", "":
		return FamilyKilled
	}
	return FamilyNative
}

// maxAloneLines bounds the lines framesAlone reads.
const maxAloneLines = 256

// framesAlone reports whether e is the middle of a Python traceback, cut
// at both ends: the paste or the collector began after its "Traceback"
// header, and the process was killed, or the paste stops, before its
// exception line. The entry opens with a frame, or with the source line
// (and carets) of a frame cut off above it (opensFrames), and its frames are in the
// shape only a traceback prints them, `File "x.py", line 12, in fn`, at
// least one with its source line indented under it (the entry package
// re-indents a traceback a paste stripped flush left): faulthandler's dumps print
// `File "x.py", line 12 in fn` (no comma) and no source, py-spy's
// "fn (x.py:12)", and a logged stack (stack_info) opens with "Stack (most
// recent call last):".
func framesAlone(e *entry.Entry) bool {
	if e.Native != "" || !opensFrames(e.Message, e.Text) {
		return false
	}
	if x := e.Traceback.Outermost(); x == nil || x.Type != "" || strings.Contains(e.Text, "(most recent call ") {
		return false
	}
	sourced, frame, n := false, false, 0
	for line := range strings.Lines(e.Text) {
		if n++; n > maxAloneLines {
			break
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			// A doubled line break between a frame and its source.
		case strings.HasPrefix(t, `File "`):
			if !tracebackFrameShape(t) {
				return false
			}
			frame = true
		case frame:
			// The line under a frame: its source, indented deeper.
			sourced = sourced || line[0] == ' ' || line[0] == '\t'
			frame = false
		}
	}
	return sourced
}

// tracebackFrameShape reports whether the frame line t (trimmed, from
// `File "`) reads `File "<path>", line <n>, in <name>`.
func tracebackFrameShape(t string) bool { return entry.IsTracebackFrame(t) }

// CANNDocumented reports whether line opens with a documented CANN error
// code ("EJ0001: <time> Failed to initialize the HCCP process..."): one
// that says in its own words what failed, not an internal x9999 one.
func CANNDocumented(line string) bool { return cannDocumentedLine(FirstLine(line)) != "" }

// CANNDetail reports whether line is a CANN block's line that names a
// cause under an internal x9999 code: the runtime's reason ("rtKernelLaunch
// execute failed, reason=[...]") or the code's own detail ("EH9999
// [Init][Env]init env failed!").
func CANNDetail(line string) bool {
	l := strings.TrimSpace(FirstLine(line))
	return strings.Contains(l, ", reason=[") || cannInnerCode(l) && !cannInnerOnly(strings.TrimLeft(l[6:], ": \t"))
}

// maxCANNLines bounds the lines of a block cannDocumentedLine reads.
const maxCANNLines = 64

// cannDocumentedLine returns the first line of text, trimmed, that opens
// with a documented CANN error code ("EJ0001: ...", not an x9999 internal
// one) and says something after it besides "Inner Error!"; "" when none
// does.
func cannDocumentedLine(text string) string {
	for n := 0; text != "" && n < maxCANNLines; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		l := strings.TrimSpace(line)
		if len(l) < 8 || l[0] != 'E' || l[6] != ':' || !isAlnum(l[1]) || !ascii.Digits(l[2:6]) || l[2:6] == "9999" {
			continue
		}
		if msg := strings.TrimSpace(l[7:]); msg != "" && !strings.HasPrefix(msg, "Inner Error") {
			return l
		}
	}
	return ""
}

// maxProgramName bounds the program DiagnosticProgram returns.
const maxProgramName = 64

// DiagnosticProgram returns the program a diagnostic line of the Unix
// convention names in front of its level word ("slurmstepd" of
// "slurmstepd: error: ..."), its directory left out; "" when the line
// does not open with a field of a program name's bytes.
func DiagnosticProgram(line string) string {
	i := strings.Index(line[:min(len(line), maxProgramName+2)], ": ")
	if i <= 0 {
		return ""
	}
	p := line[:i]
	p = p[strings.LastIndexByte(p, '/')+1:]
	for j := 0; j < len(p); j++ {
		switch c := p[j]; {
		case isAlnum(c), c == '.', c == '_', c == '-', c == '+', c == '[', c == ']':
		default:
			return ""
		}
	}
	return p
}

// maxWrapJoin bounds the line summaryAcrossWrap joins.
const maxWrapJoin = 1024

// summaryAcrossWrap returns the first line of e's text joined with the
// second when the first ends with a colon and the two read together as
// a rejection (entry.RejectedType): a wrap at a word ("Invalid object: "
// at the end of a row, "UpdateWeightReqInput(model_path=..." on the next)
// cut the message after its colon. "", false otherwise.
func summaryAcrossWrap(e *entry.Entry) (string, bool) {
	first := strings.TrimRight(FirstLine(e.Message), " ")
	if first == "" || first[len(first)-1] != ':' || e.Lines < 2 {
		return "", false
	}
	_, rest, ok := strings.Cut(e.Text, "\n")
	if !ok {
		return "", false
	}
	next := FirstLine(rest)
	if next == "" || next[0] == ' ' || next[0] == '\t' {
		return "", false
	}
	l := first + " " + next
	if len(l) > maxWrapJoin {
		l = l[:maxWrapJoin]
	}
	if entry.RejectedType(l) == "" {
		return "", false
	}
	return l, true
}
