package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// Lines that only point at an error. A logger that puts its header on
// every line (vLLM's "ERROR 10-21 11:25:49 [serving_chat.py:1051] ", a
// worker's "(EngineCore pid=96) ", a collector that cut one record into
// one record a line) turns a traceback into records of one line each, all
// at the level of the failure: its frames, the source lines under them,
// CPython's caret lines, and its exception line last. And a process
// announces an error before printing it: Ray's "Possible unhandled error
// from worker: ray::Actor.run() (pid=219)", concurrent.futures' "exception
// calling callback for <Future ...>", asyncio's "Exception in callback
// ...", a handler's "Caught exception:". Neither says what failed: the
// exception line after them does. Such a line no record names is read as
// a fragment of the failure it belongs to, with the role of a consequence:
// within its burst the failure it points at leads and it is listed there;
// alone, it is still alerted (see internal/incident).

// maxPieceLines bounds the lines of a message pointsOnly reads.
const maxPieceLines = 32

// pointsOnly reports whether the message msg of an entry that has no
// traceback of its own only points at an error printed beside it: every
// line of it is a line of a traceback (tracebackPiece), or it is one line
// announcing the error that follows (announcesError).
func pointsOnly(msg string) bool {
	if msg == "" {
		return false
	}
	if strings.IndexByte(strings.TrimRight(msg, "\r\n"), '\n') < 0 && (announcesError(msg) || modulePath(msg)) {
		return true
	}
	n, pieces := 0, 0
	for line := range strings.Lines(msg) {
		if n++; n > maxPieceLines {
			return false
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !tracebackPiece(line) && (n > 1 || !tracebackPiece(afterName(line))) {
			return false
		}
		pieces++
	}
	return pieces > 0
}

// maxModulePath bounds the line modulePath reads.
const maxModulePath = 200

// modulePath reports whether line is only a dotted module path of three
// parts or more, each a lower-case name ("vllm.v1.engine.exc"), no
// version number: the first piece of an
// exception's class that a terminal's wrap cut off from the rest of its
// line, which says nothing of its own.
func modulePath(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) > maxModulePath || strings.Count(t, ".") < 2 || t[0] == '.' || t[len(t)-1] == '.' {
		return false
	}
	for part := range strings.SplitSeq(t, ".") {
		if !oneName(part) {
			return false
		}
	}
	return true
}

// afterName is line without its first word when a space follows it: a
// logger's name that a format prints between the level and the message
// ("ERROR worker     return self.step()"), whose message keeps its
// indentation. "" when line has no such word.
func afterName(line string) string {
	i := strings.IndexByte(line, ' ')
	if i <= 0 || strings.IndexByte(line[:i], '\t') >= 0 {
		return ""
	}
	return line[i+1:]
}

// tracebackPiece reports whether line, one line of a message with its
// indentation kept, is a line only a Python traceback prints: a frame
// (`File "x.py", line 12, in fn`), the source line under one, indented by
// four or more and in the shape of a statement (sourceStatement), or the
// carets CPython 3.11 and later print under it ("~~~~^^^^").
func tracebackPiece(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if t == "" {
		return false
	}
	if entry.IsTracebackFrame(strings.TrimRight(t, " ")) || caretLine(t) {
		return true
	}
	return len(line)-len(t) >= 4 && sourceStatement(t)
}

// caretLine reports whether t (trimmed on the left) is CPython's marker of
// the failing expression (entry.IsCaretLine: carets, with tildes around
// them, and nothing else) that says so alone: one with a caret, or a piece
// of one that a terminal's wrap cut, three marks or more.
func caretLine(t string) bool {
	return entry.IsCaretLine(t) && (strings.IndexByte(t, '^') >= 0 || strings.Count(t, "~") >= 3)
}

// statementKeywords open a Python statement or expression that a source
// line of a traceback shows; what follows them must read as code
// (codeAfterKeyword), since they open sentences too.
var statementKeywords = [...]string{
	"raise", "return", "await", "yield", "assert", "del", "import", "from",
	"with", "async", "if", "elif", "for", "while", "lambda", "not",
}

// sourceStatement reports whether t, a line trimmed on the left, reads as
// a Python statement rather than prose: a keyword that opens one followed
// by a space, a parenthesis or a colon; or a name, dotted and subscripted
// as code writes it, followed by a call, a subscript, an assignment or
// the comma of a tuple's targets ("out = run_once()", "self.a, self.b =
// (", "model.load_weights(", "param = params_dict[name]"). A sentence's
// words are followed by a space and another word.
func sourceStatement(t string) bool {
	if t = strings.TrimRight(t, " \t\r"); t == "raise" {
		// A bare re-raise.
		return true
	}
	for _, k := range statementKeywords {
		if rest, ok := strings.CutPrefix(t, k); ok && rest != "" && (rest[0] == ' ' || rest[0] == '(' || rest[0] == ':') {
			switch k {
			case "raise", "return", "await", "yield", "del":
				if oneName(strings.TrimLeft(rest, " ")) {
					// "raise e", "return out": a name alone.
					return true
				}
			}
			return codeAfterKeyword(rest)
		}
	}
	i := 0
	for {
		j := i
		for j < len(t) && (isAlnum(t[j]) || t[j] == '_') {
			j++
		}
		if j == i || isDigitByte(t[i]) {
			return false
		}
		i = j
		if i < len(t) && t[i] == '.' {
			i++
			continue
		}
		break
	}
	if i == len(t) {
		return false
	}
	rest := t[i:]
	switch rest[0] {
	case '(', '[':
		return true
	case ',':
		return len(rest) > 1 && rest[1] == ' ' && strings.Contains(rest, " = ")
	case ' ':
		r := strings.TrimRight(strings.TrimLeft(rest, " "), "\r")
		if r == "=" {
			return true
		}
		for _, op := range [...]string{"= ", "+= ", "-= ", "*= ", "|= "} {
			if strings.HasPrefix(r, op) {
				return true
			}
		}
	}
	return false
}

// oneName reports whether s is one lower-case Python name ("e", "out",
// "loaded_weight"), as a statement's operand is and a sentence's next word
// after a keyword rarely is alone.
func oneName(s string) bool {
	if s == "" || !('a' <= s[0] && s[0] <= 'z' || s[0] == '_') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// codeAfterKeyword reports whether rest, what follows a keyword that may
// also open a sentence ("return code 1", "if you see this", "for more
// details"), reads as code: it holds a call or a subscript, a name with an
// underscore, an attribute (a dot between two names), a class's
// CamelCase name ("raise ValueError"), an import, or it ends with a
// colon, as a compound statement's header does.
func codeAfterKeyword(rest string) bool {
	rest = strings.TrimRight(rest, " \t\r")
	if rest == "" {
		return false
	}
	if strings.HasSuffix(rest, ":") || strings.ContainsAny(rest, "([_") || strings.Contains(rest, " import ") {
		return true
	}
	for i := 1; i+1 < len(rest); i++ {
		if rest[i] == '.' && isAlnum(rest[i-1]) && isAlnum(rest[i+1]) && !isDigitByte(rest[i+1]) {
			return true
		}
	}
	for _, w := range strings.Fields(rest) {
		if camelCase(w) {
			return true
		}
	}
	return false
}

// camelCase reports whether w is a class's name in CamelCase: a capital,
// lower-case letters, and another capital after them ("ValueError",
// "EngineDeadError").
func camelCase(w string) bool {
	if len(w) < 3 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	lower := false
	for i := 1; i < len(w); i++ {
		switch c := w[i]; {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			if lower {
				return true
			}
		}
	}
	return false
}

// announcements are what a writer prints, lowered, in the line before an
// error it is about to print: the error itself is not in that line.
// Sources: CPython's concurrent.futures ("exception calling callback for
// <Future ...>"), asyncio ("Exception in callback ..."), the unraisable
// hook ("Exception ignored in: ..."), socketserver ("Exception occurred
// during processing of request from ..."), logging ("--- Logging error
// ---"); Ray's reports of a task's error no one fetched ("Possible
// unhandled error from worker: ...", "Unhandled error (suppress with
// ...): ..."); tornado's "Uncaught exception GET /"; aiohttp's "Error
// handling request"; Flask's "Exception on /path [POST]"; and the
// generic "the following error occurred" and "traceback follows".
var announcements = [...]string{
	"possible unhandled error from ",
	"unhandled error (suppress with ",
	"exception calling callback for ",
	"exception in callback ",
	"exception ignored in:",
	"exception occurred during processing of request",
	"--- logging error ---",
	"uncaught exception ",
	"the following error occurred",
	"the following exception occurred",
	"the following exception was raised",
	"raised the following exception",
	"traceback follows",
}

// maxAnnouncement bounds the line announcesError reads.
const maxAnnouncement = 400

// announcesError reports whether line (one line) announces an error
// printed after it without stating it (see announcements): one of the
// writers' phrases, a traceback's header alone, aiohttp's "Error handling
// request" or Flask's "Exception on <path> [<method>]" alone.
func announcesError(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(t) > maxAnnouncement {
		return false
	}
	if t == tracebackHeader || t == "Error handling request" {
		return true
	}
	if rest, ok := strings.CutPrefix(t, "Exception on /"); ok && strings.HasSuffix(rest, "]") && strings.Count(rest, " ") == 1 {
		return true
	}
	if labelHeader(t) || endsAnnouncing(t) {
		return true
	}
	var buf [maxAnnouncement]byte
	l := buf[:len(t)]
	for i := range len(t) {
		c := t[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	s := string(l)
	for _, p := range announcements {
		if i := strings.Index(s, p); i >= 0 {
			if p == "the following error occurred" || p == "the following exception occurred" || p == "traceback follows" ||
				p == "the following exception was raised" || p == "raised the following exception" {
				// Only when nothing but the error's place follows.
				rest := strings.TrimLeft(s[i+len(p):], " ")
				return rest == "" || rest == ":" || rest == "." || strings.HasPrefix(rest, "while ") && strings.HasSuffix(rest, ":")
			}
			// What the phrase is about, not an error's own text after
			// it ("Uncaught exception in main: ValueError: ...").
			rest := s[i+len(p):]
			return !strings.Contains(rest, "error: ") && !strings.Contains(rest, "exception: ")
		}
	}
	return false
}

// SourceLinePiece reports whether line, one line with its indentation
// kept, is the source line of a traceback's frame logged as a record of
// its own (see tracebackPiece): the statement a traceback cut after it
// was running.
func SourceLinePiece(line string) bool {
	if strings.IndexByte(line, '\n') >= 0 {
		return false
	}
	t := strings.TrimLeft(line, " \t")
	return len(line)-len(t) >= 4 && sourceStatement(t)
}

// maxLabelWords bounds the words of a label header (labelHeader).
const maxLabelWords = 6

// labelHeader reports whether t (trimmed) is a short label ending with a
// colon that names an error to come without saying it: "Caught
// exception:", "Error:", "Unexpected error occurred:", "Stack trace:". A
// longer line, or one whose colon is followed by text, says something of
// its own.
func labelHeader(t string) bool {
	body, ok := strings.CutSuffix(t, ":")
	if !ok || body == "" || strings.ContainsAny(body, ":'\"=()[]{}/") {
		return false
	}
	words := strings.Fields(body)
	if len(words) > maxLabelWords {
		return false
	}
	for _, w := range words {
		switch strings.ToLower(w) {
		case "error", "errors", "exception", "exceptions", "traceback", "stack", "stacktrace", "failure":
			return true
		}
	}
	return false
}

// announcingEnds are how a line that announces the traceback logged after
// it ends, lowered: vLLM's engine core ("EngineCore encountered a fatal
// error."), TGI's shard server ("Method Prefill encountered an error."),
// a worker's "<name> hit an exception", a caller's "<call> raised an
// exception".
var announcingEnds = [...]string{
	"encountered a fatal error",
	"encountered an error",
	"encountered an exception",
	"hit an exception",
	"raised an exception",
	"failed with the following error",
}

// endsAnnouncing reports whether t (trimmed, one line) ends as a line that
// announces the error printed after it (announcingEnds), with nothing but
// a full stop or a colon after.
func endsAnnouncing(t string) bool {
	t = strings.TrimRight(t, ".:")
	if len(t) > maxAnnouncement {
		return false
	}
	l := strings.ToLower(t)
	for _, e := range announcingEnds {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}
