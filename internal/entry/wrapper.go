package entry

import (
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// maxWrapperPasses bounds how many stacked prefixes are removed from one
// line (a CI timestamp, then a compose service, then a Ray actor, ...).
const maxWrapperPasses = 8

// stripWrappers removes what log plumbing added around a line (SGLANG-LOGS.md
// §10): ANSI colour codes anywhere (also with their ESC spelled out as
// text, escapes.go), then stacked prefixes (collector and CI
// timestamps, docker-compose services, Ray actors, torchrun ranks, kubectl
// --prefix, syslog and journald, bracketed CI times, Markdown quotes, a
// parallel shell's host label, pm2's process column, multilog's and
// s6-log's TAI64N label, a GitHub Actions runner's "##[error]", a code span opened
// before a line (and closed at its end or before an ellipsis, behind a
// list item's marker too), Docker BuildKit's step and time), then
// the Ray dedup suffix and a trailing CR (or the "^M" a pager shows for
// it). A line redrawn with carriage returns keeps only its last drawing. It
// returns the remaining text and the prefixes as written. Lines without ANSI
// codes are never copied.
func stripWrappers(s string) (text, prefix string) {
	base, start, end := wrapperSpan(s)
	return base[start:end], base[:start]
}

// wrapperSpan is stripWrappers returning the line after ANSI and CR
// handling (base) and the bounds of its text in it: base[:start] is the
// prefix. It lets the Assembler extend the prefix without copying.
func wrapperSpan(s string) (base string, start, end int) {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = stripANSI(s)
	}
	// IndexByte first: it is vectorised, LastIndexByte is a byte loop, and
	// almost no line holds a CR.
	if strings.IndexByte(s, '\r') >= 0 {
		if i := strings.LastIndexByte(strings.TrimRight(s, "\r"), '\r'); i >= 0 {
			// A progress bar redrawn with CR (tqdm): keep what the
			// terminal shows last.
			s = s[i+1:]
		}
	}
	if !isSGLangStart(s) { // most lines: wrapperPrefixesLen's own first test, without the call
		// What a page made of a paste: its character references
		// (htmlent.go) and its links of address-like tokens
		// (autolink.go). A line that opens as sglang's records do is
		// not searched: a page escapes or links a paste's other lines
		// too (its tracebacks, its native lines), and the routine line
		// pays for no search.
		if strings.IndexByte(s, '&') >= 0 {
			s = unescapeHTML(s)
		}
		if i := strings.Index(s, openCurly); i >= 0 {
			// A frame line whose quotes a word processor or a chat
			// tool curled (flushtb.go).
			s = straightFrameQuotes(s, i)
		}
		if strings.Contains(s, "](") {
			s = unlinkAutolinks(s)
		}
		if k, _ := nextSpelledCSI(s, 0); k >= 0 {
			// A colour code whose ESC a shipper or a paste spelled
			// out ("#033[2m", "\x1b[0m", "^[[36m"; escapes.go). A
			// line that opens as sglang's records do has none: sglang
			// colours none, and a shipper's codes come before what
			// it ships.
			s = stripSpelledCSI(s)
		}
		inner := s
		lead := 0
		if len(s) > 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+' || s[0] == '>') {
			// A blockquote's or a list item's markers before the markup
			// (markup.go).
			lead = markupLeadLen(s)
		}
		if len(s) > lead {
			switch s[lead] {
			case '`':
				if open, close := paddedSpan(s[lead:]); open > 0 {
					// A whole line quoted in a padded span: read what it
					// quotes, its own quotes too.
					start, inner = lead+open, s[:lead+close]
				}
			case '_', '*', '~':
				if open, close := emphasisSpan(s[lead:]); open > 0 {
					// A whole line in Markdown emphasis: read what it
					// emphasises.
					start, inner = lead+open, s[:lead+close]
				}
			case '<':
				// A page's source: the tags its code block opens with.
				if n := htmlOpenTagsLen(s[lead:]); n > 0 {
					start = lead + n
				}
			}
		}
		start += wrapperPrefixesLen(inner[start:])
		s = inner
	}
	t := s[start:]
	if n := len(t); n > 0 && endsSpecial[t[n-1]] {
		// Most lines end in none of these bytes and take this one test.
		t = trimWrapperSuffixes(s, start, t)
	}
	// Emphasis inside the prefixes a log's plumbing added, or inside a
	// code span (markup.go).
	start, end = emphasisBounds(s, start, start+len(t))
	return s, start, end
}

// paddedSpan finds a code span around a whole line that opens with a
// backtick or ends with one (two backticks and a space, then the line
// "`E0326 ...`...", then a space and two backticks): CommonMark strips
// one space inside each end of a span, so a writer quoting such a line
// pads it, inside two backticks. It returns where the quoted text starts
// and where it ends, the fence, its padding and a tail of punctuation
// after it (isSpanTail) left out; or 0, 0.
func paddedSpan(s string) (open, close int) {
	if len(s) < len("`` x ``") || s[1] != '`' || s[2] != ' ' || s[3] == ' ' {
		return 0, 0
	}
	k := strings.LastIndex(s, " ``")
	if k < 3 || !(k+3 == len(s) || isSpanTail(s[k+3:])) || s[k-1] == ' ' || s[3] != '`' && s[k-1] != '`' {
		return 0, 0
	}
	return 3, k
}

// endsSpecial marks the last bytes trimWrapperSuffixes may remove
// something at: a CR, a pager's "^M", a code span's closing quote or the
// punctuation after it (isSpanTail; 0xa6 ends "…"), a Ray dedup
// suffix's "]", a page's end tag's ">" (markup.go).
var endsSpecial = [256]bool{'\r': true, 'M': true, '`': true, ']': true, '.': true, ',': true, ':': true, ';': true, ' ': true, 0xa6: true, '>': true}

// trimWrapperSuffixes removes from t, the text of s after its prefixes
// (s[start:]), what wrapperSpan strips at a line's end: a trailing CR,
// the "^M" a pager shows for one, a code span's closing quote, the Ray
// dedup suffix.
func trimWrapperSuffixes(s string, start int, t string) string {
	t = strings.TrimSuffix(t, "\r")
	if n := len(t); n >= 2 && t[n-1] == 'M' && t[n-2] == '^' {
		// The CR as a pager or an editor shows it ("cat -v", vim), pasted
		// as the two characters "^M".
		t = t[:n-2]
	}
	if t != "" && t[len(t)-1] == '>' {
		// A page's source ends the line with a break or the closing
		// tag of its code block (markup.go).
		t = trimHTMLEndTags(t)
	}
	if start > 0 && t != "" && t[len(t)-1] != '`' && strings.IndexByte(s[:start], '`') >= 0 {
		// A code span a paste opened among the line's prefixes closes
		// before a tail of punctuation ("`E0326 ...`..."): the tail is
		// the paste's prose, not the log's.
		if k := strings.LastIndexByte(t, '`'); k >= 0 && isSpanTail(t[k+1:]) {
			t = t[:k+1]
		}
	}
	if f := strings.Index(s[:start], "``"); f >= 0 && strings.HasSuffix(t, "``") && (f+2 == start || s[f+2] != '`') {
		// A span the paste opened with two backticks among the line's
		// prefixes (the text holds one) closes with two at its end,
		// after the space that padded it when it opened with one.
		t = t[:len(t)-2]
		if f+2 < start && s[f+2] == ' ' {
			t = strings.TrimSuffix(t, " ")
		}
	} else if t != "" && t[len(t)-1] == '`' && (start > 0 && s[start-1] == '`' || strings.IndexByte(t, '`') == len(t)-1) {
		// The code span a paste opened closes at the line's end: on
		// the line it opened on, or alone on a later line (inline code
		// in a message closes what it opened on the same line). A span
		// opened with two backticks closes with two.
		t = t[:len(t)-1]
		if t != "" && t[len(t)-1] == '`' && start > 1 && s[start-1] == '`' && s[start-2] == '`' {
			t = t[:len(t)-1]
		}
	}
	if t != "" && t[len(t)-1] == ']' { // trimRaySuffix's own first test, without the call
		t = trimRaySuffix(t)
	}
	return t
}

// maxSpanTail bounds the tail isSpanTail accepts.
const maxSpanTail = 8

// isSpanTail reports whether s, what follows a code span's closing
// backtick at the end of a line, is the punctuation a paste puts there:
// an ellipsis ("...", "…"), a full stop, a comma, a colon or a
// semicolon, with spaces, and no letter or digit. A span followed by
// words is inline code inside prose ("`x` failed"), not a quoted line.
func isSpanTail(s string) bool {
	if s == "" || len(s) > maxSpanTail {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', ',', ':', ';', ' ':
		case 0xe2:
			if !strings.HasPrefix(s[i:], "…") {
				return false
			}
			i += len("…") - 1
		default:
			return false
		}
	}
	return true
}

// wrapperPrefixesLen returns the length of the stacked wrapper prefixes at
// the start of s.
func wrapperPrefixesLen(s string) int {
	if isSGLangStart(s) {
		return 0
	}
	start := 0
	for pass := 0; pass < maxWrapperPasses; pass++ {
		n := wrapperPrefixLen(s[start:])
		if n == 0 {
			break
		}
		start += n
	}
	return start
}

// isSGLangStart reports whether s starts the way an sglang header does and
// so holds no wrapper prefix: of the prefixes in brackets, only a CI time
// starts with a digit, and it has a "T" where an sglang header has a space.
func isSGLangStart(s string) bool {
	return len(s) > 11 && s[0] == '[' && isDigit(s[1]) && s[11] != 'T'
}

// stripANSI removes CSI escape sequences (SGR colours, erase-line). A lone
// ESC that starts no sequence is kept.
func stripANSI(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= 0x30 && s[j] <= 0x3f || s[j] >= 0x20 && s[j] <= 0x2f) {
				j++
			}
			if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
				i = j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// isIndentedPaste reports whether s, what follows a code span's opening
// backtick, is an indented line of a paste: a frame of a backtrace that
// opens the paste ("  25:     0x7fb7396a2659 - sglang_router_rs::...",
// `  File "/sgl/x.py", line 3, in f`), which the span's first line carries
// as printed, or a native line a paste indented (indentedNativeLen).
func isIndentedPaste(s string) bool {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) < 2 {
		return false
	}
	return isRustFrameNumber(t) || strings.HasPrefix(t, `File "`) || indentedNativeLen(s) > 0
}

// isRustFrameNumber reports whether s opens with a backtrace's frame
// number ("25: ").
func isRustFrameNumber(s string) bool {
	i := 0
	for i < len(s) && i < 4 && isDigit(s[i]) {
		i++
	}
	return i > 0 && strings.HasPrefix(s[i:], ": ")
}

// wrapperPrefixLen returns the length of one wrapper prefix at the start of
// s, or 0 when s starts with none.
func wrapperPrefixLen(s string) int {
	if s == "" {
		return 0
	}
	switch c := s[0]; {
	case c == '`':
		n, _ := codeSpanLen(s)
		return n
	case c == ' ':
		return indentedNativeLen(s)
	case c == '-' || c == '*' || c == '+':
		// A list item whose text is a code span around the paste ("-
		// `E0326 ...`"): the marker goes with the span's quote, so the
		// line inside is read as the log wrote it. Any other list item
		// is a paste lead's (indentLead) or the log's own.
		if len(s) > 3 && s[1] == ' ' && s[2] == '`' {
			if n, whole := codeSpanLen(s[2:]); n > 0 && whole {
				return 2
			}
		}
		return 0
	case c == '>':
		return quoteMarkerLen(s)
	case c == '(':
		return rayPrefixLen(s)
	case c == '<':
		return syslogPRILen(s)
	case c == '#':
		if n := actionsCommandLen(s); n > 0 {
			return n
		}
		return buildKitStepLen(s)
	case c == '@':
		return tai64nLen(s)
	case c == '{':
		if len(s) > 1 && (isLetter(s[1]) || s[1] == '_') {
			return labelSetLen(s)
		}
		return 0
	case c == '[':
		if len(s) > 1 && isDigit(s[1]) {
			// An sglang header (most lines) or a CI time: the torchrun
			// and kubectl prefixes start with a letter.
			return bracketedTimeLen(s)
		}
		if n := rankPrefixLen(s); n > 0 {
			return n
		}
		if n := bracketedTimeLen(s); n > 0 {
			return n
		}
		if n := podPrefixLen(s); n > 0 {
			return n
		}
		if len(s) > 1 && isLetter(s[1]) {
			return sourceLabelLen(s)
		}
		return 0
	case isDigit(c):
		if n := collectorTimeLen(s); n > 0 {
			return n
		}
		if n := annotateOutputLen(s); n > 0 {
			return n
		}
		if n := supervisorTimeLen(s); n > 0 {
			return n
		}
		if n := relayStreamLen(s); n > 0 {
			return n
		}
		if n := syslogPrefixLen(s); n > 0 {
			return n
		}
		if n := rfc3339PrefixLen(s); n > 0 {
			return n
		}
		if n := pm2PrefixLen(s); n > 0 {
			return n
		}
		return composePrefixLen(s)
	case isWordByte(c):
		if isUpper(c) {
			if n := syslogPrefixLen(s); n > 0 {
				return n
			}
			if n := ctimeTagLen(s); n > 0 {
				return n
			}
			if n := tsTimeLen(s); n > 0 {
				return n
			}
		}
		if n := composePrefixLen(s); n > 0 {
			return n
		}
		if n := serviceTaskLen(s); n > 0 {
			return n
		}
		if n := hostLabelLen(s); n > 0 {
			return n
		}
		if isLowerAlnum(c) {
			return sternPodLen(s)
		}
		return 0
	}
	return 0
}

// codeSpanLen returns the length of a code span's opening quote at the
// start of s (one backtick or two), or 0, and whether the span quotes the
// whole line: it closes at the line's end or before a tail of punctuation.
func codeSpanLen(s string) (n int, whole bool) {
	// A code span opened in front of a line and not closed before
	// its end, the paste inside it ("`[2025-04-11 15:03:19 TP0]
	// ...", "`Traceback (most recent call last):"), or closed at its
	// end: the quote is the paste's, not the log's. Markdown also
	// opens a span with two backticks ("``(pid=1) ..."), which a text
	// holding a backtick needs; three or more open a fenced block, no
	// span. Inline code in prose ("`x` failed") closes inside the line.
	n = 1
	if len(s) > 1 && s[1] == '`' {
		n = 2
	}
	if len(s) <= n || s[n] == '`' {
		return 0, false
	}
	fence := s[:n]
	k := strings.Index(s[n:], fence)
	// A span closed at the line's end, or before a tail of
	// punctuation, quotes the whole line, its indentation too
	// ("`    scheduler.event_loop()`").
	whole = k >= 0 && (k == len(s)-2*n || isSpanTail(s[2*n+k:]))
	if k >= 0 && !whole || s[n] == ' ' && !whole && !isIndentedPaste(s[n:]) || k < 0 && isSpanTail(s[n:]) {
		// (The last: a span's closing quote and its tail, "`...",
		// behind a prefix that stood alone inside the span.)
		return 0, false
	}
	return n, whole
}

// maxNativeIndent bounds the indentation indentedNativeLen takes off: a
// code block's four spaces and a list item's continuation.
const maxNativeIndent = 8

// indentedNativeLen returns the length of the spaces, one to eight, a
// paste put before a native line that opens with its own time or process
// (glog's, c10d's, CANN's, UCX's, NCCL's): "  E0326 14:23:05.675921 ...",
// "  [ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 ...". Those lines
// start at the first column as a program writes them, so the spaces are
// the paste's; 0 for any other line (a frame, a source line, an
// exception message's indented text).
func indentedNativeLen(s string) int {
	n := 0
	for n < len(s) && n <= maxNativeIndent && s[n] == ' ' {
		n++
	}
	if n > maxNativeIndent || n >= len(s) {
		return 0
	}
	// The first bytes of the shapes taken, so that a traceback's frames
	// and source lines pay for no parse: c10d's, CANN's and UCX's
	// bracket, glog's level letter and date, NCCL's host before " NCCL ".
	switch c := s[n]; {
	case c == '[':
	case c == 'I' || c == 'W' || c == 'E' || c == 'F':
		if n+1 >= len(s) || !isDigit(s[n+1]) {
			return 0
		}
	case c >= 'a' && c <= 'z':
		if !strings.Contains(s[n:], " NCCL ") {
			return 0
		}
	default:
		return 0
	}
	nat, ok := parseNative(s[n:], time.Time{}, time.UTC)
	if !ok || nat.soft {
		return 0
	}
	switch nat.kind {
	case NativeGlog, NativeC10d, NativeNCCL:
	case NativeAscend, NativeUCX:
		if nat.time.IsZero() {
			return 0
		}
	default:
		return 0
	}
	return n
}

// buildKitStepLen matches the step number and elapsed seconds Docker
// BuildKit's plain progress output puts in front of each line a build step
// printed ("#42 3621.8 ", "#7 0.512 "): "#", the step's digits, a space,
// seconds with a decimal point, a space. BuildKit's own lines about a step
// ("#42 [builder 5/9] RUN ...", "#42 DONE 3.2s", "#42 ERROR: ...") carry no
// time there and stay whole, and so does a debugger's frame ("#0
// 0x00007f3a in raise ()").
func buildKitStepLen(s string) int {
	i := 1
	for i < len(s) && i <= 6 && isDigit(s[i]) {
		i++
	}
	if i == 1 || i >= len(s) || s[i] != ' ' {
		return 0
	}
	j := i + 1
	k := j
	for k < len(s) && k-j <= 8 && isDigit(s[k]) {
		k++
	}
	if k == j || k+1 >= len(s) || s[k] != '.' || !isDigit(s[k+1]) {
		return 0
	}
	k++
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k >= len(s) || s[k] != ' ' {
		return 0
	}
	return k + 1
}

// actionsCommands are the commands a GitHub Actions runner writes into a
// job's log in front of a line ("##[error]", "##[group]"), from the
// workflow commands a step printed ("::error::msg") or its own.
var actionsCommands = [...]string{"error", "warning", "notice", "debug", "group", "endgroup", "section", "command"}

// actionsCommandLen matches a GitHub Actions runner's command in front of
// a line, "##[error]" and the others of actionsCommands: the annotation
// is the CI system's, the line after it the step's own, read as the step
// printed it.
func actionsCommandLen(s string) int {
	if len(s) < len("##[x]") || s[1] != '#' || s[2] != '[' {
		return 0
	}
	name, _, ok := strings.Cut(s[3:], "]")
	if !ok {
		return 0
	}
	for _, c := range actionsCommands {
		if name == c {
			return len("##[") + len(name) + len("]")
		}
	}
	return 0
}

// tai64nLen matches the TAI64N label daemontools' multilog and s6-log put
// in front of each line they keep ("@4000000069...2c605e45 "): "@", 24
// lower-case hexadecimal digits, a space.
func tai64nLen(s string) int {
	const n = len("@") + 24
	if len(s) <= n || s[n] != ' ' {
		return 0
	}
	for i := 1; i < n; i++ {
		if c := s[i]; !isDigit(c) && (c < 'a' || c > 'f') {
			return 0
		}
	}
	return n + 1
}

// pm2PrefixLen matches the process column pm2 puts in front of each
// line of "pm2 logs": the process id, "|", the name padded by spaces, "| "
// ("0|sglang  | ", "3|qwen  | ").
func pm2PrefixLen(s string) int {
	i := 0
	for i < len(s) && i < 6 && isDigit(s[i]) {
		i++
	}
	if i == 0 || i+1 >= len(s) || s[i] != '|' || s[i+1] == ' ' {
		return 0
	}
	j := i + 1
	for j < len(s) && j-i <= 64 && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-') {
		j++
	}
	k := j
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if j == i+1 || k+1 >= len(s) || s[k] != '|' || s[k+1] != ' ' {
		return 0
	}
	return k + 2
}

// hostLabelLen matches the label a parallel shell or a multi-node
// launcher (pdsh, clush, DeepSpeed's runner) puts in front of each line a
// host or worker wrote: a lower-case host name whose last part, after a
// "-", is a number, then ": " ("worker-1: ", "host-01: ",
// "gpu-node-3: "). An error code ("EH9999: ") is upper case; a program's
// own name in front of its message ("python3: ...") has no "-"; a
// versioned compiler driver's diagnostic ("gcc-12: error: ...") is the
// compiler's line, not a label.
func hostLabelLen(s string) int {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return 0
	}
	j, dash := 1, -1
	for j < len(s) && j <= 64 && (s[j] >= 'a' && s[j] <= 'z' || isDigit(s[j]) || s[j] == '-' || s[j] == '.') {
		if s[j] == '-' {
			dash = j
		}
		j++
	}
	if j+1 >= len(s) || s[j] != ':' || s[j+1] != ' ' || dash < 0 || !ascii.Digits(s[dash+1:j]) {
		return 0
	}
	for _, w := range [...]string{"error", "fatal error", "warning", "note"} {
		if strings.HasPrefix(s[j+2:], w+":") {
			return 0
		}
	}
	return j + 2
}

// syslogPrefixLen matches the syslog and journald prefix "TIME HOST
// TAG[PID]: " (journalctl's short, short-precise, short-iso,
// short-iso-precise and short-full outputs, rsyslog's files): TIME is "Nov  6 02:10:00",
// with a fraction or not, or an ISO time with a numeric zone ("+0000" or
// "+00:00"); the PID is optional.
func syslogPrefixLen(s string) int {
	i := syslogTimeLen(s)
	if i == 0 || i >= len(s) || s[i] != ' ' {
		return 0
	}
	i++
	// The host: a name or an address.
	h := i
	for i < len(s) && i-h < 256 && (isWordByte(s[i]) || s[i] == '.' || s[i] == '-') {
		i++
	}
	if i == h || i >= len(s) || s[i] != ' ' || !hasAlnum(s[h:i]) {
		// (A host has a letter or a digit: "- " after a time alone
		// (moreutils' ts) is a list item's marker, "- ImportError:
		// ...".)
		return 0
	}
	i++
	// The tag: the program, up to "[" or ":".
	t := i
	for i < len(s) && i-t < 128 && s[i] != ' ' && s[i] != '[' && s[i] != ':' {
		i++
	}
	if i == t || i >= len(s) {
		return 0
	}
	if s[i] == '[' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i+1 || j >= len(s) || s[j] != ']' {
			return 0
		}
		i = j + 1
	} else if isMessageWord(s[t:i]) || isExceptionTypeColon(s[t:i+1]) || gluedGGUFAt(s[t:i]) > 0 {
		// "Assertion failed: ...", "rocBLAS error: ..." after a time
		// alone (moreutils' ts): a message's words, no host and tag;
		// nor is an exception's type a program ("host ImportError:
		// ...", a quoted line's words), nor the GGUF reader's name
		// another writer's text ran into ("Loading
		// modelgguf_init_from_file: ...", gluedGGUFAt).
		return 0
	}
	if i >= len(s) || s[i] != ':' {
		return 0
	}
	return closeOfPrefix(s, i)
}

// hasAlnum reports whether s holds an ASCII letter or digit.
func hasAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) || isDigit(s[i]) {
			return true
		}
	}
	return false
}

// isMessageWord reports whether tag, a syslog tag without a process id,
// is a word a message says before a colon rather than a program's name.
func isMessageWord(tag string) bool {
	switch strings.ToLower(tag) {
	case "error", "failed", "failure", "warning", "warn", "fatal", "info", "debug", "note", "exception", "assertion":
		return true
	}
	return false
}

// syslogPRILen matches a syslog message as a relay or a network sink
// writes it, its priority first: "<13>Nov  6 02:10:00 host tag[pid]: "
// (RFC 3164, behind which syslogPrefixLen reads), or RFC 5424's "<11>1
// 2025-11-06T02:10:00.702Z host app procid msgid - " (rsyslog's
// RSYSLOG_SyslogProtocol23Format, syslog-ng, Docker's syslog log driver),
// where any header field may be "-" and the structured data is "-" or
// bracketed elements. 0 when s starts with neither.
func syslogPRILen(s string) int {
	i := 1
	for i < len(s) && i < 4 && isDigit(s[i]) {
		i++
	}
	if i == 1 || i >= len(s) || s[i] != '>' {
		return 0
	}
	i++
	if n := syslogPrefixLen(s[i:]); n > 0 {
		return i + n
	}
	if n := rfc5424HeaderLen(s[i:]); n > 0 {
		return i + n
	}
	return 0
}

// rfc5424HeaderLen matches RFC 5424's header after the priority:
// "1 TIMESTAMP HOST APP PROCID MSGID SD ", the timestamp an RFC 3339 time
// or "-", the four names printable words or "-", the structured data "-"
// or bracketed elements (a quoted value may hold a "]" escaped).
func rfc5424HeaderLen(s string) int {
	if len(s) < 2 || s[0] != '1' || s[1] != ' ' {
		return 0
	}
	i := 2
	if strings.HasPrefix(s[i:], "- ") {
		i += 2
	} else if n, ok := rfc3339Len(s[i:]); ok && i+n < len(s) && s[i+n] == ' ' {
		i += n + 1
	} else {
		return 0
	}
	for field := 0; field < 4; field++ {
		j := i
		for j < len(s) && j-i < 255 && s[j] > ' ' && s[j] < 0x7f {
			j++
		}
		if j == i || j >= len(s) || s[j] != ' ' {
			return 0
		}
		i = j + 1
	}
	if strings.HasPrefix(s[i:], "-") {
		i++
	} else {
		for i < len(s) && s[i] == '[' {
			j := i + 1
			for j < len(s) && j-i < 2048 && s[j] != ']' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return 0
			}
			i = j + 1
		}
	}
	return closeOfSpace(s, i)
}

// closeOfSpace returns i+1 when s[i] is the space that ends a prefix, i
// when the prefix ends the line, and 0 otherwise.
func closeOfSpace(s string, i int) int {
	switch {
	case i == len(s):
		return i
	case i < len(s) && s[i] == ' ':
		return i + 1
	}
	return 0
}

// syslogWriter returns the program a syslog prefix at the start of
// prefix names, as it writes it: RFC 3164's tag ("python3[2741]",
// "kernel"), RFC 5424's app name and process id ("sglang 2741", the id
// left out when it is "-"); "" when prefix opens with no syslog prefix.
func syslogWriter(prefix string) string {
	s := prefix
	if s != "" && s[0] == '<' {
		i := strings.IndexByte(s, '>')
		if i < 2 || i > 4 {
			return ""
		}
		s = s[i+1:]
		if n := rfc5424HeaderLen(s); n > 0 {
			// "1 TIME HOST APP PROCID ...": the third and fourth
			// fields.
			f := strings.SplitN(s, " ", 6)
			if len(f) < 6 || f[3] == "-" {
				return ""
			}
			at := len(f[0]) + len(f[1]) + len(f[2]) + 3
			if f[4] == "-" {
				return s[at : at+len(f[3])]
			}
			return s[at : at+len(f[3])+1+len(f[4])]
		}
	}
	n := syslogPrefixLen(s)
	if n == 0 {
		return ""
	}
	i := syslogTimeLen(s) + 1
	i += strings.IndexByte(s[i:], ' ') + 1 // the host
	k := strings.IndexByte(s[i:n], ':')
	if k <= 0 {
		return ""
	}
	return s[i : i+k]
}

// syslogTimeLen returns the length of a syslog time at the start of s:
// "Mmm dd HH:MM:SS[.frac]" (the day space-padded or not),
// "YYYY-MM-DDTHH:MM:SS[.frac]" with a numeric zone, "+hhmm" or "+hh:mm",
// or journalctl's short-full time (fullTimeLen).
// An ISO time in UTC ("Z") is what kubectl and CI runners put in front of
// a line (rfc3339PrefixLen), never journald, which prints the zone's
// offset: "Z host tag: " there is that timestamp in front of a message.
func syslogTimeLen(s string) int {
	if len(s) >= 15 && isMonth(s[:3]) && s[3] == ' ' && (isDigit(s[4]) || s[4] == ' ') && isDigit(s[5]) &&
		s[6] == ' ' && isClock(s[7:15]) {
		return fracEnd(s, 15)
	}
	if n, ok := rfc3339Len(s); ok {
		if s[n-1] == 'Z' {
			return 0
		}
		return n
	}
	if n := fullTimeLen(s); n > 0 {
		return n
	}
	// "+hhmm": journalctl's short-iso before systemd 250.
	if len(s) < 24 || !isDate(s[:10]) || s[10] != 'T' || !isClock(s[11:19]) {
		return 0
	}
	i := fracEnd(s, 19)
	if i+5 <= len(s) && (s[i] == '+' || s[i] == '-') && ascii.Digits(s[i+1:i+5]) {
		return i + 5
	}
	return 0
}

// fullTimeLen returns the length of journalctl's short-full time at the
// start of s, "Thu 2025-11-06 02:10:00 UTC" (the weekday, the date, the
// time with a fraction or not, the zone's abbreviation or its offset,
// "+0530" or "+03"), or 0.
func fullTimeLen(s string) int {
	if len(s) < 27 || s[3] != ' ' || s[14] != ' ' || !isWeekday(s[:3]) || !isDate(s[4:14]) || !isClock(s[15:23]) {
		return 0
	}
	i := fracEnd(s, 23)
	if i+3 > len(s) || s[i] != ' ' {
		return 0
	}
	i++
	j := i
	if s[j] == '+' || s[j] == '-' {
		j++
		for j < len(s) && j-i <= 4 && isDigit(s[j]) {
			j++
		}
		if j-i != 3 && j-i != 5 {
			return 0
		}
		return j
	}
	for j < len(s) && j-i < 6 && isUpper(s[j]) {
		j++
	}
	if j-i < 2 {
		return 0
	}
	return j
}

// fracEnd returns where a ".digits" fraction that may start at s[i] ends,
// i when there is none.
func fracEnd(s string, i int) int {
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j > i+1 {
			return j
		}
	}
	return i
}

// isMonth matches an English month's three-letter abbreviation.
func isMonth(s string) bool {
	switch s {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}

// collectorTimeLen matches "MM-DD HH:MM:SS.mmm " (collector agents).
func collectorTimeLen(s string) int {
	const n = len("01-02 15:04:05.000 ")
	if len(s) < n+1 {
		return 0
	}
	if !ascii.Digits(s[0:2]) || s[2] != '-' || !ascii.Digits(s[3:5]) || s[5] != ' ' ||
		!isClock(s[6:14]) || s[14] != '.' || !ascii.Digits(s[15:18]) || s[18] != ' ' {
		return 0
	}
	return n
}

// rfc3339PrefixLen matches an RFC 3339 timestamp and one space, as kubectl
// --timestamps and CI runners write them, or one tab, as a Loki or Grafana
// export writes them. A timestamp followed by a level word is a record's
// header (dynamo's, a Go logger's tab-separated one), not a wrapper,
// unless a time follows the level word: that is a level-first logger's
// header (vLLM's "ERROR 05-28 00:11:09 [core.py:12] "), which the
// timestamp wraps.
func rfc3339PrefixLen(s string) int {
	n, ok := rfc3339Len(s)
	if !ok || n >= len(s) {
		return 0
	}
	if s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	if s[n] == ' ' {
		if k := gitlabStreamLen(s[n+1:]); k > 0 && s[n-1] == 'Z' {
			return n + 1 + k
		}
		if k := herokuSourceLen(s[n+1:]); k > 0 {
			return n + 1 + k
		}
	}
	if _, after, ok := levelWord(strings.TrimLeft(s[n:], " \t")); ok && !levelFirstTime(after) && tracingGap(s[n:]) <= maxTracingGap && tracingGap(after) <= 1 {
		return 0
	}
	return n + 1
}

// levelFirstTime reports whether after, what follows a level word, is a
// level-first logger's time: " MM-DD HH:MM:SS" (vLLM's) or
// " YYYY-MM-DD HH:MM:SS", then a space or a fraction.
func levelFirstTime(after string) bool {
	if len(after) < 16 || after[0] != ' ' {
		return false
	}
	r := after[1:]
	if len(r) >= 20 && isDate(r[:10]) && r[10] == ' ' {
		r = r[5:] // from the month on, as vLLM's
	}
	return ascii.Digits(r[0:2]) && r[2] == '-' && ascii.Digits(r[3:5]) && r[5] == ' ' && isClock(r[6:14]) &&
		(len(r) == 14 || r[14] == ' ' || r[14] == '.' || r[14] == ',')
}

// rfc3339Len returns the length of "YYYY-MM-DDTHH:MM:SS[.frac](Z|±hh:mm)".
func rfc3339Len(s string) (int, bool) {
	// The "T" first: an sglang header's date has a space there, and this
	// runs for every line that starts with "[".
	if len(s) < 20 || s[10] != 'T' || !isDate(s[:10]) || !isClock(s[11:19]) {
		return 0, false
	}
	i := 19
	if s[i] == '.' {
		i++
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return 0, false
		}
		i = j
	}
	if i < len(s) && s[i] == 'Z' {
		return i + 1, true
	}
	if i+6 <= len(s) && (s[i] == '+' || s[i] == '-') && ascii.Digits(s[i+1:i+3]) && s[i+3] == ':' && ascii.Digits(s[i+4:i+6]) {
		return i + 6, true
	}
	return 0, false
}

// bracketedTimeLen matches an RFC 3339 time in brackets and one space,
// "[2025-11-06T02:10:00.702Z] ", as CI systems (Jenkins' timestamper,
// Buildkite) put in front of every line of a job's log. sglang's own
// bracketed times have a space, not a "T", between date and time.
func bracketedTimeLen(s string) int {
	n, ok := rfc3339Len(s[1:])
	if !ok || 1+n >= len(s) || s[1+n] != ']' {
		return 0
	}
	return closeOfPrefix(s, 1+n)
}

// composePrefixLen matches docker compose's "service-1  | " (v2) or
// "service_1  | " (v1).
func composePrefixLen(s string) int {
	j := 0
	for j < len(s) && j < 128 && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-') {
		j++
	}
	d := j
	for d > 0 && isDigit(s[d-1]) {
		d--
	}
	if d == j || d < 2 || (s[d-1] != '-' && s[d-1] != '_') {
		return 0
	}
	k := j
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k == j || k >= len(s) || s[k] != '|' {
		return 0
	}
	return closeOfPrefix(s, k)
}

// closeOfPrefix returns the length of a prefix whose closing byte is at k:
// the prefix ends the line, or is followed by one space that belongs to it;
// anything else is not that prefix (0).
func closeOfPrefix(s string, k int) int {
	if k+1 == len(s) {
		return k + 1
	}
	if s[k+1] != ' ' {
		return 0
	}
	return k + 2
}

// rayPrefixLen matches Ray's "(Actor pid=123, ip=10.0.0.1) " and "(pid=123) ",
// and the same shape vLLM's processes print, "(EngineCore_DP0 pid=123) "
// and "(VllmWorker rank=0 pid=123) ", and SkyPilot's job log with its
// fields separated by commas, "(head, rank=0, pid=123) ".
func rayPrefixLen(s string) int {
	k := strings.IndexByte(s, ')')
	if k < 0 || k > 256 {
		return 0
	}
	inner := s[1:k]
	if sp := strings.IndexByte(inner, ' '); sp >= 0 && !strings.HasPrefix(inner, "pid=") {
		// SkyPilot's job log separates the fields with commas: "(head,
		// rank=0, pid=123) ", "(worker1, rank=1, pid=123, ip=10.0.0.2) ",
		// "(task, pid=123) ".
		comma := sp > 1 && inner[sp-1] == ','
		name := inner[:sp]
		if comma {
			name = name[:len(name)-1]
		}
		for i := 0; i < len(name); i++ {
			if c := name[i]; !isWordByte(c) && c != '.' && c != ':' && c != '-' {
				return 0
			}
		}
		inner = inner[sp+1:]
		// vLLM's workers: "(VllmWorker rank=0 pid=123) ".
		if r, ok := strings.CutPrefix(inner, "rank="); ok {
			d := 0
			for d < len(r) && isDigit(r[d]) {
				d++
			}
			switch {
			case d == 0 || d >= len(r):
			case !comma && r[d] == ' ':
				inner = r[d+1:]
			case comma && strings.HasPrefix(r[d:], ", "):
				inner = r[d+2:]
			}
		}
	}
	if !strings.HasPrefix(inner, "pid=") {
		return 0
	}
	i := len("pid=")
	j := i
	for j < len(inner) && isDigit(inner[j]) {
		j++
	}
	if j == i {
		return 0
	}
	if rest := inner[j:]; rest != "" && !strings.HasPrefix(rest, ", ip=") {
		return 0
	}
	return closeOfPrefix(s, k)
}

// rankPrefixLen matches torchrun's per-line "[rank0]:" or "[default0]:".
func rankPrefixLen(s string) int {
	var rest string
	switch {
	case strings.HasPrefix(s, "[rank"):
		rest = s[len("[rank"):]
	case strings.HasPrefix(s, "[default"):
		rest = s[len("[default"):]
	default:
		return 0
	}
	j := 0
	for j < len(rest) && isDigit(rest[j]) {
		j++
	}
	if j == 0 || !strings.HasPrefix(rest[j:], "]:") {
		return 0
	}
	n := len(s) - len(rest) + j + 2
	if n < len(s) && s[n] == ' ' {
		n++
	}
	return n
}

// podPrefixLen matches kubectl logs --prefix: "[pod/name/container] ".
func podPrefixLen(s string) int {
	if !strings.HasPrefix(s, "[pod/") {
		return 0
	}
	k := strings.IndexByte(s, ']')
	if k < 0 || k > 320 || k+1 >= len(s) || s[k+1] != ' ' || strings.IndexByte(s[:k], ' ') >= 0 {
		return 0
	}
	return k + 2
}

// trimRaySuffix removes Ray's " [repeated 3x across cluster]" dedup suffix.
func trimRaySuffix(s string) string {
	const tail = "x across cluster]"
	if s == "" || s[len(s)-1] != ']' || !strings.HasSuffix(s, tail) {
		return s
	}
	body := s[:len(s)-len(tail)]
	j := len(body)
	for j > 0 && isDigit(body[j-1]) {
		j--
	}
	const head = " [repeated "
	if j == len(body) || !strings.HasSuffix(body[:j], head) {
		return s
	}
	return body[:j-len(head)]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// isClock matches "HH:MM:SS".
func isClock(s string) bool {
	return len(s) == 8 && ascii.Digits(s[0:2]) && s[2] == ':' && ascii.Digits(s[3:5]) && s[5] == ':' && ascii.Digits(s[6:8])
}

// isDate matches "YYYY-MM-DD".
func isDate(s string) bool {
	return len(s) == 10 && ascii.Digits(s[0:4]) && s[4] == '-' && ascii.Digits(s[5:7]) && s[7] == '-' && ascii.Digits(s[8:10])
}

// atoi parses a short run of ASCII digits already checked by isDigits.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
