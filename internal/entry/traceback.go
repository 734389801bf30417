package entry

import (
	"strings"
	"unicode/utf8"
)

// Bounds of a parsed Traceback. The head and the tail survive a cut: the
// outermost frames say where the program was, the innermost where it failed.
const (
	MaxFrames = 64 // frames kept per link
	MaxLinks  = 32 // links kept per chain
)

// Printed markers of CPython's traceback module.
const (
	tbStart       = "Traceback (most recent call last):"
	groupStart    = "+ Exception Group Traceback (most recent call last):"
	sepCause      = "The above exception was the direct cause of the following exception:"
	sepContext    = "During handling of the above exception, another exception occurred:"
	repeatedStart = "[Previous line repeated "
)

// Separator values of Exception.Separator.
const (
	SeparatorCause   = "cause"
	SeparatorContext = "context"
)

// ParseTraceback parses the Python exception chain in lines, as CPython's
// traceback module prints it (and logging.exception, and sglang's
// "<Who> hit an exception: Traceback ..." records, whose first line may carry
// a message before "Traceback"). It understands both chain separators,
// 3.11+ caret lines, "[Previous line repeated N more times]", exception
// groups (only the top-level box makes a link: the group's own line is its
// exception; member tracebacks are not links, but the first leaf member's
// exception line is kept as the link's MemberType and MemberMessage),
// header-less SyntaxError blocks
// and tracebacks that lost their "Traceback" line. A second traceback that
// follows a finished one without a separator starts a new chain and replaces
// the first: the last exception printed is the outermost. Lines should have
// their wrappers stripped; "> File" (loguru's marker) is read as a frame.
// It returns nil when lines hold no traceback.
func ParseTraceback(lines []string) *Traceback {
	var p tbParser
	for _, l := range lines {
		p.line(l)
	}
	if p.partial != nil {
		// The last line is a frame line cut while it was written: where
		// the program was when its output stopped.
		p.addFrame(*p.partial)
	}
	if len(p.links) == 0 {
		return nil
	}
	t := &Traceback{Links: p.links, LinksCut: p.linksCut}
	return t
}

// tbParser is the state of ParseTraceback.
type tbParser struct {
	links    []Exception
	linksCut int
	cur      int    // index of the link being filled, -1 for none
	state    int    // tbNone, tbFrames, tbAfterExc, tbChain
	sep      string // separator seen since the last link
	group    int    // indentation of the top-level group box, -1 when none, groupLearn after its first line
	started  bool
	// lastFrame: the previous line was a frame line, so a column-0 line may
	// be its source line with the indentation lost.
	lastFrame bool
	// member reads the group's first leaf member: memberOff before it,
	// memberIn inside its box, memberDone after.
	member       int
	memberFrame  bool    // the previous member line was a frame line
	memberFrames []Frame // frames of the member section being read, innermost last
	// partial is the frame of a frame line cut in the middle, when it is
	// the last line read inside a section; nil otherwise.
	partial *Frame
}

// Member-box reading states of tbParser.member.
const (
	memberOff = iota
	memberIn
	memberDone
)

// groupLearn marks a group box whose margin the next line will show.
const groupLearn = -2

// Traceback states, shared by the parser and the assembler.
const (
	tbNone     = iota // no traceback seen
	tbFrames          // inside a section, before its exception line
	tbAfterExc        // after a section's exception line
	tbChain           // after a chain separator, before the next section
)

func (p *tbParser) line(s string) {
	if !p.started {
		p.started = true
		p.cur = -1
		p.group = -1
	}
	wasFrame := p.lastFrame
	p.lastFrame = false
	p.partial = nil
	if p.group == groupLearn {
		// The box margin is the indentation of the first "|" line: a group
		// that starts mid-line ("hit an exception:   + Exception Group ...")
		// does not show it on its first line.
		p.group = -1
		if n := leadingSpaces(s); strings.HasPrefix(s[n:], "|") {
			p.group = n
		}
	}
	if p.group >= 0 {
		n := leadingSpaces(s)
		r := s[n:]
		switch {
		case n == p.group && strings.HasPrefix(r, "|"):
			s = strings.TrimPrefix(r[1:], " ")
		case n == p.group && strings.HasPrefix(r, "+-"), n > p.group && (strings.HasPrefix(r, "|") || strings.HasPrefix(r, "+")):
			// Member boxes: sub-exceptions, not links of the chain; the
			// first leaf member's exception is kept on the group's link.
			p.memberLine(n, r)
			return
		default:
			p.group = -1
		}
	}
	t := strings.TrimLeft(s, " \t")
	switch {
	case hasGroupStart(s):
		p.newLink(true)
		p.group = groupLearn
		return
	case hasTracebackStart(s):
		p.newLink(false)
		return
	case t == sepCause || t == sepContext:
		if p.state == tbAfterExc {
			p.sep = SeparatorContext
			if t == sepCause {
				p.sep = SeparatorCause
			}
			p.state = tbChain
		}
		return
	}
	if f, ok := parseFrame(t); ok {
		if p.cur < 0 || p.state == tbAfterExc || p.state == tbChain {
			p.newLink(false) // a traceback that lost its "Traceback" line
		}
		p.addFrame(f)
		p.lastFrame = true
		return
	}
	if p.state == tbFrames && t != s {
		if f, ok := parsePartialFrame(t); ok {
			p.partial = &f
			return
		}
	}
	if p.state == tbFrames && t == s && isExceptionLine(s, wasFrame) {
		l := &p.links[p.cur]
		l.Type, l.Message, _ = parseExceptionLine(s)
		p.state = tbAfterExc
	}
}

// newLink opens a section. Without a separator after a finished section it
// opens a new chain.
func (p *tbParser) newLink(group bool) {
	sep := p.sep
	if p.state != tbChain && p.cur >= 0 {
		clear(p.links)
		p.links = p.links[:0]
		p.linksCut = 0
		sep = ""
	}
	if len(p.links) == MaxLinks {
		// Keep the root cause and the most recent links.
		half := MaxLinks / 2
		copy(p.links[half:], p.links[half+1:])
		p.links = p.links[:MaxLinks-1]
		p.linksCut++
	}
	p.links = append(p.links, Exception{Separator: sep, Group: group})
	p.cur = len(p.links) - 1
	p.sep = ""
	p.state = tbFrames
	p.member = memberOff
	p.memberFrames = p.memberFrames[:0]
	if !group {
		p.group = -1
	}
}

// memberLine reads one line of a group's member boxes, r being the line from
// its first non-blank byte at column n. The first member opens at the group's
// margin ("+-+---- 1 ----"); its box ends at the first "+" line deeper in
// ("+---- 2 ----", "+--------", or the end of a nested group's first member),
// once an exception line has been read. Every leaf exception line in it (not
// itself a group's) replaces the last, so the member's outermost exception is
// kept: a nested group's first member is the leaf.
func (p *tbParser) memberLine(n int, r string) {
	if p.cur < 0 || !p.links[p.cur].Group {
		return
	}
	l := &p.links[p.cur]
	switch {
	case p.member == memberDone:
		return
	case n == p.group && strings.HasPrefix(r, "+-"):
		if p.member == memberOff {
			p.member = memberIn
		}
		return
	case p.member != memberIn:
		return
	case strings.HasPrefix(r, "+"):
		if l.MemberType != "" {
			p.member = memberDone
		}
		return
	}
	// A "|" line, maybe a nested box's: the text after its last margin.
	t := r
	for strings.HasPrefix(t, "|") {
		t = strings.TrimPrefix(t[1:], " ")
		if k := leadingSpaces(t); strings.HasPrefix(t[k:], "|") || strings.HasPrefix(t[k:], "+") {
			t = t[k:]
		}
	}
	wasFrame := p.memberFrame
	p.memberFrame = false
	if f, ok := parseFrame(strings.TrimLeft(t, " \t")); ok {
		p.memberFrame = true
		if len(p.memberFrames) == MaxFrames {
			copy(p.memberFrames, p.memberFrames[1:]) // keep the innermost
			p.memberFrames = p.memberFrames[:MaxFrames-1]
		}
		p.memberFrames = append(p.memberFrames, f)
		return
	}
	if strings.HasSuffix(t, tbStart) {
		p.memberFrames = p.memberFrames[:0] // a section of the member's own chain
		return
	}
	if strings.HasPrefix(t, "+") || t != strings.TrimLeft(t, " \t") || !isExceptionLine(t, wasFrame) {
		return
	}
	typ, msg, _ := parseExceptionLine(t)
	if strings.HasSuffix(typ, "Group") {
		return
	}
	l.MemberType, l.MemberMessage = typ, msg
	l.MemberFrames = append(l.MemberFrames[:0], p.memberFrames...)
	p.memberFrames = p.memberFrames[:0]
}

func (p *tbParser) addFrame(f Frame) {
	l := &p.links[p.cur]
	if len(l.Frames) == MaxFrames {
		half := MaxFrames / 2
		copy(l.Frames[half:], l.Frames[half+1:])
		l.Frames = l.Frames[:MaxFrames-1]
		l.FramesCut++
	}
	l.Frames = append(l.Frames, f)
}

// hasTracebackStart reports whether s ends with "Traceback (most recent call
// last):" at its start or after a space (sglang's "... hit an exception:
// Traceback ...", logging prefixes). "Exception Group Traceback" is not one.
func hasTracebackStart(s string) bool {
	// The last byte first: comparing the rest is a call.
	if s == "" || s[len(s)-1] != tbStart[len(tbStart)-1] || !strings.HasSuffix(s, tbStart) {
		return false
	}
	i := len(s) - len(tbStart)
	if i == 0 {
		return true
	}
	if s[i-1] != ' ' && s[i-1] != '\t' {
		return false
	}
	return !strings.HasSuffix(s[:i], "Group ")
}

// hasGroupStart reports whether s ends with an exception group's first line,
// at its start or after a space (sglang's "hit an exception:   + Exception
// Group Traceback ...").
func hasGroupStart(s string) bool {
	if s == "" || s[len(s)-1] != groupStart[len(groupStart)-1] || !strings.HasSuffix(s, groupStart) {
		return false
	}
	i := len(s) - len(groupStart)
	return i == 0 || s[i-1] == ' ' || s[i-1] == '\t'
}

// isTracebackLine reports whether s is a bare "Traceback" line (a new print
// of a traceback, not one announced by a message on the same line).
func isTracebackLine(s string) bool {
	return strings.TrimLeft(s, " \t") == tbStart
}

// isGroupStartLine matches "  + Exception Group Traceback (most recent call last):".
func isGroupStartLine(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " \t"), groupStart)
}

func isChainSeparator(s string) bool {
	// Most lines are told apart without strings.TrimSpace: when the bytes
	// left after ASCII white space at both ends are ASCII, TrimSpace would
	// stop at them too, and a line of another length is rejected without
	// comparing its bytes. A non-ASCII byte at either end may be white
	// space: such a line is trimmed whole.
	if n := len(s); n == 0 || s[n-1] != ':' && s[n-1] < utf8.RuneSelf && !isASCIISpace(s[n-1]) {
		// Both separators end in ":", and TrimSpace stops at any other
		// ASCII byte that is not white space: most lines end so.
		return false
	}
	i, j := 0, len(s)
	for i < j && isASCIISpace(s[i]) {
		i++
	}
	for j > i && isASCIISpace(s[j-1]) {
		j--
	}
	if i < j && s[i] < utf8.RuneSelf && s[j-1] < utf8.RuneSelf {
		t := s[i:j]
		return t == sepCause || t == sepContext
	}
	t := strings.TrimSpace(s)
	return t == sepCause || t == sepContext
}

// isASCIISpace reports whether b is a byte strings.TrimSpace trims: ASCII
// white space.
func isASCIISpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r'
}

// isBlank reports whether s is only white space, as strings.TrimSpace(s)
// == "" does, stopping at the first byte that is not (at once on most
// lines).
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.TrimSpace(s[i:]) == ""
		}
		if !isASCIISpace(s[i]) {
			return false
		}
	}
	return true
}

// parseFrame reads `File "path", line N, in func` (leading space already
// trimmed), the SyntaxError form without ", in func", and loguru's "> File".
func parseFrame(t string) (Frame, bool) {
	t = strings.TrimPrefix(t, "> ")
	if !strings.HasPrefix(t, `File "`) {
		return Frame{}, false
	}
	r := t[len(`File "`):]
	q := strings.Index(r, `", line `)
	if q < 0 {
		return Frame{}, false
	}
	f := Frame{File: r[:q]}
	r = r[q+len(`", line `):]
	j := 0
	for j < len(r) && isDigit(r[j]) {
		j++
	}
	if j == 0 {
		return Frame{}, false
	}
	f.Line = atoi(r[:j])
	r = r[j:]
	switch {
	case r == "":
	case strings.HasPrefix(r, ", in "):
		f.Func = r[len(", in "):]
	default:
		return Frame{}, false
	}
	return f, true
}

// parsePartialFrame reads a frame line cut while it was written (the
// process killed, the output or the paste cut), `File "path", li`: the
// path must be whole, and what follows it a start of `, line N, in
// func`. The line number is kept only when the comma after it shows it
// whole; the function never is.
func parsePartialFrame(t string) (Frame, bool) {
	r, ok := strings.CutPrefix(t, `File "`)
	if !ok {
		return Frame{}, false
	}
	q := strings.IndexByte(r, '"')
	if q <= 0 {
		return Frame{}, false
	}
	f := Frame{File: r[:q]}
	r = r[q+1:]
	const mid = ", line "
	if len(r) <= len(mid) {
		return f, strings.HasPrefix(mid, r)
	}
	if !strings.HasPrefix(r, mid) {
		return Frame{}, false
	}
	r = r[len(mid):]
	j := 0
	for j < len(r) && isDigit(r[j]) {
		j++
	}
	if j == len(r) {
		return f, true // the number may be cut too
	}
	if j == 0 || !strings.HasPrefix(", in ", r[j:]) && !strings.HasPrefix(r[j:], ", in ") {
		return Frame{}, false
	}
	f.Line = atoi(r[:j])
	return f, true
}

// isFrameLine reports whether s is a Python traceback frame line.
func isFrameLine(s string) bool {
	// A loop rather than strings.TrimLeft, which builds its set of
	// characters at every call: this runs for most lines.
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == len(s) || s[i] != 'F' && s[i] != '>' {
		return false // parseFrame wants `File "` or loguru's "> File"
	}
	_, ok := parseFrame(s[i:])
	return ok
}

// parseExceptionLine reads CPython's exception line "Type: message" or a bare
// "Type" (SGLANG-LOGS.md §8, widened to lower-case qualified names such as
// socket.gaierror). A bare name must start with an upper-case letter in its
// last part; so must an unqualified name before ": ". An error type may name
// the type it wraps in parentheses, as Ray's RayTaskError(OutOfMemoryError)
// does: the type is read with it.
func parseExceptionLine(s string) (typ, msg string, ok bool) {
	i, last, dotted := 0, 0, false
	for {
		if i >= len(s) || !(s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || isUpper(s[i])) {
			return "", "", false
		}
		last = i
		for i < len(s) && isWordByte(s[i]) {
			i++
		}
		if i < len(s) && s[i] == '.' {
			dotted = true
			i++
			continue
		}
		break
	}
	if i < len(s) && s[i] == '(' && isUpper(s[last]) && (strings.HasSuffix(s[last:i], "Error") || strings.HasSuffix(s[last:i], "Exception")) {
		// A wrapper naming the type it wraps, as Ray prints a remote
		// task's failure: "ray.exceptions.RayTaskError(OutOfMemoryError)".
		j := i + 1
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == ')' && isUpper(s[i+1]) {
			i = j + 1
		}
	}
	typ = s[:i]
	upper := isUpper(s[last])
	if i == len(s) {
		return typ, "", upper
	}
	if s[i] != ':' || !(upper || dotted) {
		return "", "", false
	}
	rest := s[i+1:]
	if rest == "" {
		return typ, "", true
	}
	if rest[0] != ' ' {
		return "", "", false
	}
	return typ, rest[1:], true
}

// isExceptionLine decides whether a column-0 line inside a section is its
// exception line. Right after a frame line it may instead be that frame's
// source line pasted without indentation; Python statements rarely look like
// "Name: text", a dotted name, or a bare name ending in Error, Exception,
// Interrupt, Exit or Group, so only those count there.
func isExceptionLine(s string, afterFrame bool) bool {
	typ, msg, ok := parseExceptionLine(s)
	if !ok {
		return false
	}
	if afterFrame && looksLikeStatement(typ, msg) {
		return false
	}
	if !afterFrame || len(typ) < len(s) || strings.IndexByte(typ, '.') >= 0 {
		return true
	}
	for _, suffix := range [...]string{"Error", "Exception", "Interrupt", "Exit", "Group", "Iteration"} {
		if strings.HasSuffix(typ, suffix) {
			return true
		}
	}
	return false
}

// looksLikeStatement reports whether "typ: msg" right after a frame line is
// that frame's source line pasted without indentation rather than an
// exception: an attribute of self or cls ("self.comm: ncclComm_t = ..."),
// or, for a lower-case name, an annotated assignment or a call or literal
// left open for the next line.
func looksLikeStatement(typ, msg string) bool {
	first, _, _ := strings.Cut(typ, ".")
	if first == "self" || first == "cls" {
		return true
	}
	if last := typ[strings.LastIndexByte(typ, '.')+1:]; last == "" || isUpper(last[0]) {
		// A class name: "AssertionError: x = 3" is an exception.
		return false
	}
	if strings.Contains(msg, " = ") {
		return true
	}
	m := strings.TrimRight(msg, " ")
	return m != "" && strings.ContainsRune("([{,\\", rune(m[len(m)-1]))
}

// IsCaretLine matches 3.11+ error-location lines: "^^^^", "~~~~^^^^".
func IsCaretLine(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c != '^' && c != '~' && c != ' ' {
			return false
		}
	}
	return true
}

func isRepeatedLine(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " \t"), repeatedStart)
}

// epilogues are fixed lines torch appends to CUDA error messages, after the
// exception line (SGLANG-LOGS.md §7): they continue the message.
var epilogues = [...]string{
	"CUDA kernel errors might be asynchronously reported",
	"For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
	"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions",
	"Search for `cuda",
	// huggingface_hub's messages, which transformers chains into an
	// OSError and Python prints over several unindented lines.
	"Make sure to have access to it at https://huggingface.co/",
	"Cannot access gated repo for url ",
	"Access to model ",
	"Repository Not Found for url: ",
	"Revision Not Found for url: ",
	"Entry Not Found for url: ",
	"Please make sure you specified the correct `repo_id`",
	"If you are trying to access a private or gated repo",
	"Invalid username or password.",
}

func isEpilogue(s string) bool {
	for _, e := range epilogues {
		if strings.HasPrefix(s, e) {
			return true
		}
	}
	return isHubStatusLine(s)
}

// isHubStatusLine matches the status line of huggingface_hub's HTTP
// errors inside an exception's message: "401 Client Error. (Request ID:
// Root=...)", "500 Server Error: Internal Server Error for url: ...".
func isHubStatusLine(s string) bool {
	if len(s) < len("401 Client Error") || !isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[2]) || s[3] != ' ' {
		return false
	}
	r := s[4:]
	return (strings.HasPrefix(r, "Client Error") || strings.HasPrefix(r, "Server Error")) && strings.Contains(r, "(Request ID: ")
}

func leadingSpaces(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}
