package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
)

// The root of a chain under a wrapper that says only that it failed.
// Python prints a chain root first ("The above exception was the direct
// cause of the following exception:", "During handling of the above
// exception, another exception occurred:"), and the last link is the one
// the outermost caller raised: often a wrapper of its own words that says
// what the program was doing and that it failed, not why ("RuntimeError:
// Failed to start the server", "Exception: request failed",
// "WorkerError: worker failed"). The why is the root: "ValueError:
// unknown rope_scaling type 'yarn2'", "ConnectionRefusedError: [Errno 111]
// Connection refused". So when the last link is such a vague wrapper, the
// root leads: its exception is the headline, the key and the triage's, and
// a record that reads the root is the cause even when it is a consequence
// record and the wrapper's line is read by none. So when a consequence
// record reads the last link ("RuntimeError: Engine core initialization
// failed. See root cause above.") and no record reads the root: the root
// leads, the record is its context.

// maxVagueMessage bounds the message a vague wrapper says: a phrase, not
// an explanation.
const maxVagueMessage = 96

// vagueWords are the words by which a message says something failed.
var vagueWords = [...]string{"fail", "error", "unable to", "could not", "couldn't", "cannot", "can't", "crash", "abort", "exception"}

// vagueWrapper reports whether the exception x only says that something
// failed: a short message with a failure word and nothing that could be a
// reason (no digit, no quoted or bracketed name, no path, no colon before
// a detail), of a type that names no family of failure of its own
// (typeFamily: an ImportError or an OutOfMemoryError says why).
func vagueWrapper(x *entry.Exception) bool {
	if x == nil || x.Type == "" || typeFamily(x.Type) != "" || pointsToRootCause(x.Message) {
		// (One that sends the reader to the errors above is a
		// consequence of those: see unclassified.)
		return false
	}
	return VagueMessage(x.Message)
}

// VagueException reports whether the exception typ: msg only says that
// something failed (see vagueWrapper): "SystemExit: Failed to load the
// model", "RuntimeError: request failed".
func VagueException(typ, msg string) bool {
	return vagueWrapper(&entry.Exception{Type: typ, Message: msg})
}

// VagueMessage reports whether msg only says that something failed: at
// most maxVagueMessage bytes on one line, with a failure word and nothing
// that could be a reason (no digit, no quoted or bracketed name, no
// path, no colon before a detail): "Failed to load the model", "request
// failed", "An error occurred while processing the request".
func VagueMessage(msg string) bool {
	m := strings.TrimSpace(msg)
	for range 2 {
		// A level's or a logger's label left in front of the message
		// ("ERROR:bench.runner:Generation failed" behind a prefix the
		// header was not read under) is no reason.
		i := strings.IndexByte(m, ':')
		if i <= 0 || strings.ContainsAny(m[:i], " \t") {
			break
		}
		m = strings.TrimSpace(m[i+1:])
	}
	m = strings.TrimRight(m, ".!")
	if m == "" || len(m) > maxVagueMessage || strings.ContainsAny(m, "0123456789'\"`:/\\=()[]{}<>\n") {
		return false
	}
	m = strings.ToLower(m)
	for _, w := range vagueWords {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// SendsElsewhere reports whether msg sends its reader to another message
// for its reason, in so many words: the inner exception ("See inner
// exception for details.") or something printed above it ("See root cause
// above.", "Please see the error messages above.", "check the stack trace
// above"). Narrower than what an exception's message is read for
// (pointsToRootCause): a line a record reads may name the root causes it
// guesses at, or the logs to look in, and still be the line to lead.
//
// It is read for every classified occurrence, so each wording is found by
// its rarest letter (strings.IndexByte): the 'x' of "inner exception" and
// the 'v' of " above". A search for the phrases themselves stopped at each
// 'e' or space, several times a line.
func SendsElsewhere(msg string) bool {
	if len(msg) > 4096 {
		msg = msg[:4096]
	}
	// No lower-casing: the wordings are matched as they are printed.
	if seesInnerException(msg) {
		return true
	}
	const above = " above"
	from := 0 // where the text after the last " above" begins
	for i := 0; ; {
		k := strings.IndexByte(msg[i:], 'v')
		if k < 0 {
			return false
		}
		v := i + k
		i = v + 1
		if v < 4 || v+2 > len(msg) || msg[v-4:v+2] != above {
			continue
		}
		sentence := msg[from : v-4]
		if k := strings.LastIndexAny(sentence, ".!?\n"); k >= 0 {
			sentence = sentence[k+1:]
		}
		if hasWordFold(sentence, "see ") || hasWordFold(sentence, "check ") {
			return true
		}
		from = v + 2
	}
}

// seesInnerException reports whether msg holds "ee inner exception" or
// "ee the inner exception" ("See inner exception for details."), looking
// only where an 'x' stands.
func seesInnerException(msg string) bool {
	const inner = "inner exception"
	for i := 0; ; {
		k := ascii.IndexByRare(msg[i:], inner, len("inner e")) // its 'x'
		if k < 0 {
			return false
		}
		at := i + k
		if strings.HasSuffix(msg[:at], "ee ") || strings.HasSuffix(msg[:at], "ee the ") {
			return true
		}
		i = at + 1
	}
}

// torch reports a failed NCCL call as "NCCL error in: <file>:<line>,
// <NCCL's result string>, NCCL version <v>", then NCCL's error name, "Last
// error:" and the warning NCCL printed where the call failed (NCCL keeps
// it for ncclGetLastError). For the failures NCCL explains in that warning
// its result string says so ("unhandled cuda error (run with
// NCCL_DEBUG=INFO for details)", "invalid usage (run with NCCL_DEBUG=WARN
// for details)"): the warning is the cause, the result string its
// consequence.
const (
	torchNCCLMarker  = "NCCL error in: "
	ncclDetailMarker = "(run with NCCL_DEBUG="
)

// AwaitsNCCLDetail reports whether line, the line a record reads in the
// entry text, is torch's report of an NCCL result NCCL explains in a
// warning of its own, and text does not carry that warning after it: no
// "Last error:" followed by words. A logger that puts its header on every
// line (a worker's prefix) makes the warning a record of its own, after
// this one. Other writers of NCCL's result string (a pynccl wrapper's
// "NCCL error: ...", ggml's "CUDA error: ...") append no last error: the
// line they print is all they say.
func AwaitsNCCLDetail(line, text string) bool {
	if !strings.Contains(line, torchNCCLMarker) || !strings.Contains(line, ncclDetailMarker) {
		return false
	}
	at := strings.Index(text, line)
	if at < 0 {
		return true
	}
	after := text[at+len(line):]
	j := strings.Index(after, lastErrorMarker)
	if j < 0 {
		return true
	}
	rest := strings.TrimLeft(after[j+len(lastErrorMarker):], " \t")
	rest = strings.TrimPrefix(rest, "\n")
	detail, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(detail) == ""
}

// maxNCCLDetail bounds the warning NCCLLastError returns.
const maxNCCLDetail = 240

// NCCLLastError is the warning NCCL explained torch's report of its result
// with, when line, the line a record reads in the entry text, is that
// report and text carries the warning after it: the words after "Last
// error:", on its line or the next ("Error while creating shared memory
// segment /dev/shm/nccl-vzIpS6 (size 9637888)", "socketStartConnect:
// Connect to 10.0.0.4<52822> failed : No route to host"), at most
// maxNCCLDetail bytes; "" when there is none (AwaitsNCCLDetail).
func NCCLLastError(line, text string) string {
	if !strings.Contains(line, torchNCCLMarker) || !strings.Contains(line, ncclDetailMarker) {
		return ""
	}
	at := strings.Index(text, line)
	if at < 0 {
		return ""
	}
	after := text[at+len(line):]
	j := strings.Index(after[:min(len(after), 4096)], lastErrorMarker)
	if j < 0 {
		return ""
	}
	rest := strings.TrimLeft(after[j+len(lastErrorMarker):], " \t")
	rest = strings.TrimPrefix(rest, "\n")
	detail, _, _ := strings.Cut(rest, "\n")
	detail = strings.TrimSpace(detail)
	if len(detail) > maxNCCLDetail {
		detail = detail[:maxNCCLDetail]
	}
	return detail
}

// A wrapper record reads the words by which a writer announces a failure
// of its own component ("Failed to initialize executor on rank 6:",
// "watchdog thread terminated with exception:", "CUDA Error: ... at
// function"); what follows them on the line, when the writer quotes the
// failure there, is the failure: "CUDA error: an illegal memory access
// was encountered". A wrapper whose line goes on to a traceback
// ("Scheduler hit an exception: Traceback (most recent call last):"),
// ends at its colon, or only says that something failed, in words with
// no name, number or detail (VagueFailure: "Exception in ASGI
// application", "Failed to initialize executor on rank 6: initialization
// failed"), quotes nothing.

// minQuotedFailure is the fewest bytes a quoted failure has.
const minQuotedFailure = 12

// QuotesFailure reports whether the first line of line, a wrapper
// record's line, quotes the failure it wraps after its first ": " (see
// above).
func QuotesFailure(line string) bool {
	line = FirstLine(line)
	i := strings.Index(line, ": ")
	if i < 0 {
		return false
	}
	detail := strings.TrimSpace(line[i+2:])
	return len(detail) >= minQuotedFailure && !strings.HasPrefix(detail, tracebackHeader) && !VagueFailure(detail)
}

// hasWordFold reports whether s holds w at the start of a word, w's first
// letter in either case: "See " or "see ", not "three ".
func hasWordFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if (i == 0 || !ascii.Letter(s[i-1])) && (s[i] == w[0] || s[i] == w[0]-'a'+'A') && s[i+1:i+len(w)] == w[1:] {
			return true
		}
	}
	return false
}

// VagueFailure reports whether msg only says that something failed, as
// VagueMessage does, once the names of the instances it failed for are
// dropped: a word that runs letters into digits ("task0", "rank3",
// "worker12") names which one failed, not why. So "Transfer failed for
// task0" is vague, and "Transfer failed: timeout after 3 retries" is not.
// A bracketed label in front ("[Rank 3]", "[PG 1 Rank 0]") says who
// speaks, and is dropped too.
func VagueFailure(msg string) bool {
	m := strings.TrimSpace(msg)
	for strings.HasPrefix(m, "[") {
		i := strings.IndexByte(m, ']')
		if i < 0 {
			break
		}
		m = strings.TrimSpace(m[i+1:])
	}
	if !strings.ContainsAny(m, "0123456789") {
		return VagueMessage(m)
	}
	var b strings.Builder
	for w := range strings.FieldsSeq(m) {
		if instanceName(strings.TrimRight(w, ".,;!")) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return VagueMessage(b.String())
}

// instanceName reports whether w is a word of letters followed by digits
// and nothing else ("task0", "gpu12"): the name of one of many alike.
func instanceName(w string) bool {
	i := 0
	for i < len(w) && (w[i] >= 'a' && w[i] <= 'z' || w[i] >= 'A' && w[i] <= 'Z' || w[i] == '_') {
		i++
	}
	if i == 0 || i == len(w) {
		return false
	}
	for j := i; j < len(w); j++ {
		if w[j] < '0' || w[j] > '9' {
			return false
		}
	}
	return true
}

// QuotesOutput reports whether the last line of text ends in another
// program's output that its writer quotes: a stream's label ("stderr: ",
// "stdout: ") and what follows it to the end of the line. A runtime that
// ran a hook or a child reports the exit status and then the child's
// output ("error running prestart hook #0: exit status 1, stdout: ,
// stderr: Auto-detected mode as 'legacy'"), and the output goes on on the
// lines after it: there the child's own error line says why the runtime's
// step failed.
func QuotesOutput(text string) bool {
	line := strings.TrimRight(text, " \t\r\n")
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	i := max(strings.LastIndex(line, "stderr:"), strings.LastIndex(line, "stdout:"))
	if i <= 0 {
		return false
	}
	// A field of the report: after the status and its comma, or a
	// bracket ("exit status 1, stdout: , stderr: ", "(exit code: 1),
	// stderr:"), not a word of a sentence.
	before := strings.TrimRight(line[:i], " ")
	if before == "" || !strings.ContainsRune(",()", rune(before[len(before)-1])) {
		return false
	}
	rest := line[i+len("stderr:"):]
	// The quote is open: nothing after it closes a bracket or a quote it
	// did not open itself.
	return !strings.ContainsAny(rest, ")]}") || strings.Count(rest, "(") >= strings.Count(rest, ")")
}

// rootUnderWrapper returns the root link of tb when its last link, exc,
// is a vague wrapper (vagueWrapper) and the root says more: a link of its
// own with a type, which is no vague wrapper itself. Nil otherwise.
func rootUnderWrapper(tb *entry.Traceback, exc *entry.Exception) *entry.Exception {
	if tb == nil || len(tb.Links) < 2 || exc != tb.Outermost() || !vagueWrapper(exc) {
		return nil
	}
	root := tb.RootCause()
	if root == nil || root == exc || !saysWhy(root) {
		return nil
	}
	return root
}

// saysWhy reports whether the root link x of a chain can say why it
// failed: it has a type, is no vague wrapper itself, and is no exception
// by which Python stops a task or a loop (a cancelled task, an interrupt,
// an exit, an iterator's end): those say that something ended, and the
// link after them why.
func saysWhy(x *entry.Exception) bool {
	if x == nil || x.Type == "" || vagueWrapper(x) {
		return false
	}
	switch lastDotted(x.Type) {
	case "CancelledError", "KeyboardInterrupt", "SystemExit", "GeneratorExit", "StopIteration", "StopAsyncIteration":
		return false
	}
	return true
}

// stopException reports whether typ is an exception by which a process
// stops its work, not a failure of it: asyncio's (or concurrent.futures')
// CancelledError, raised in every task a shutting-down event loop cancels
// (uvicorn's lifespan task ends its traceback in one when the server's
// start-up failed), and the KeyboardInterrupt of a SIGINT. The failure
// that made the process stop is printed before it or after it in the same
// burst ("Failed to start model server: Engine core initialization
// failed", "Application startup failed. Exiting."), so around a failure
// the stop is its consequence and never leads it; alone it is still
// alerted. (A bare KeyboardInterrupt at the end of frames is read as a
// stop by hand instead, where the work stood: interrupted.go.)
func stopException(typ string) bool {
	switch lastDotted(typ) {
	case "CancelledError", "KeyboardInterrupt":
		return true
	}
	return false
}

// readsEarlierLink reports whether one of spans covers the exception line
// of a link of e's chain before its last: a record read the root, or a
// middle link, of the chain.
func readsEarlierLink(e *entry.Entry, spans []span) bool {
	tb := e.Traceback
	if tb == nil || len(tb.Links) < 2 {
		return false
	}
	for i := 0; i < len(tb.Links)-1; i++ {
		if linkRead(e, &tb.Links[i], spans) {
			return true
		}
	}
	return false
}

// linkRead reports whether one of spans covers the exception line of the
// link l of e's chain.
func linkRead(e *entry.Entry, l *entry.Exception, spans []span) bool {
	line := FirstLine(ExceptionLine(l))
	if line == "" {
		return false
	}
	at := strings.Index(e.Text, line)
	for _, sp := range spans {
		if at >= 0 && at >= sp.from && at < sp.to {
			return true
		}
	}
	return false
}

// readLink returns the link of e's chain, before its last, whose
// exception line the span sp covers: the link a record's hit read. Nil
// when there is none.
func readLink(e *entry.Entry, sp span) *entry.Exception {
	tb := e.Traceback
	if tb == nil || len(tb.Links) < 2 {
		return nil
	}
	for i := 0; i < len(tb.Links)-1; i++ {
		line := FirstLine(ExceptionLine(&tb.Links[i]))
		if line == "" {
			continue
		}
		at := strings.Index(e.Text, line)
		if at >= 0 && at >= sp.from && at < sp.to {
			return &tb.Links[i]
		}
	}
	return nil
}

// rootUnderConsequence returns the root link of e's chain when the span
// at, a consequence record's hit, covers its last link's exception line
// and no span of spans covers the root's: the chain's own failure, which
// the consequence it ended in ("Engine core initialization failed. See
// root cause above.") points to. Nil otherwise.
func rootUnderConsequence(e *entry.Entry, spans []span, at span) *entry.Exception {
	tb := e.Traceback
	if tb == nil || len(tb.Links) < 2 {
		return nil
	}
	last := FirstLine(ExceptionLine(tb.Outermost()))
	i := strings.LastIndex(e.Text, last)
	if last == "" || i < at.from || i >= at.to {
		return nil
	}
	root := tb.RootCause()
	if !saysWhy(root) || linkRead(e, root, spans) {
		return nil
	}
	return root
}
