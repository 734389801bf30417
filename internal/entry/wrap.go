package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Bounds of a hard wrap, the break a terminal or a paste put into a long
// line: the line before it is at least minWrapWidth bytes (no terminal or
// editor wraps narrower), and the part after it at most wrapSlack bytes
// longer than that line (a terminal's later parts are never longer; a
// word-wrapping editor's may be by about a word).
const (
	minWrapWidth = 72
	wrapSlack    = 16
)

// fieldsGoOn reports whether rest, which opens with "[", goes on with the
// bracketed fields of a header that prev ends with: a word-wrapping tool
// broke the line after its header ("[E809 14:59:30.411244289
// ProcessGroupNCCL.cpp:629] " and "[Rank 38] Watchdog caught ..."), whose
// message no writer leaves empty. The field closes within the rest's
// first words and text follows it.
func fieldsGoOn(prev, rest string) bool {
	t := strings.TrimRight(prev, " ")
	if t == "" || t[len(t)-1] != ']' || len(t) == len(prev) {
		return false
	}
	i := strings.IndexByte(rest, ']')
	return i > 1 && i < maxFieldLen && strings.IndexByte(rest[1:i], '[') < 0 && len(rest) > i+2 && rest[i+1] == ' '
}

// parenGoesOn reports whether rest closes, within its first words, the
// parenthesis prev leaves open: a word-wrapping tool broke the line inside
// it, before a token that is no word ("(tasks " and "/ actors) killed due
// to memory pressure").
func parenGoesOn(prev, rest string) bool {
	i := strings.LastIndexByte(prev, '(')
	if i < 0 || strings.IndexByte(prev[i:], ')') >= 0 {
		return false
	}
	head := rest[:min(len(rest), maxFieldLen)]
	j := strings.IndexByte(head, ')')
	return j > 0 && strings.IndexByte(head[:j], '(') < 0
}

// maxFieldLen bounds a header's bracketed field that fieldsGoOn reads.
const maxFieldLen = 64

// isWrapBreak reports whether next, a non-blank line that no rule reads as
// a header, a native line or a wrapper logger's record, is the rest of
// prev, the last line an entry took, split off by a hard wrap; prevLen is
// prev's length as pushed (the wrap's width), which a rejoined prev
// exceeds. It says yes only when the break falls inside a token or
// after a space, and next opens as no line of its own would:
//
//   - prev is at least minWrapWidth long and is no frame line (a source
//     line that lost its indentation follows a frame); it ends in a letter,
//     a digit or one of "_/-=, ", not in sentence punctuation, a bracket
//     or the ":" that announces what follows;
//   - next is at most wrapSlack bytes longer than prev, not indented,
//     opens with a letter, a digit or "_" (a capital only after one of
//     "_/-=, " or a digit: after a lower-case letter it starts a sentence
//     of its own, and so does a capitalised word after ","), its first word does not end in ":" ("ninja:",
//     "error:", "note:"), and after a letter it is more than one
//     lower-case word (a short line of its own: "done");
//   - next is no traceback line (header on a line of its own, frame,
//     chain separator, caret line, group line), no exception line (as
//     printed or quoted), no Python warning and no CUDA epilogue; a rest
//     that ends in a traceback's header is the end of the record that
//     announced it ("...reading the next batch of t" and "he requests:
//     Traceback (most recent call last):").
func isWrapBreak(prev, next string, prevLen int) bool {
	return isWrapBreakAt(prev, next, prevLen, prevLen)
}

// isWrapBreakAt is isWrapBreak with the wrap's width apart from prev's
// length: a terminal wraps a line with its collector's prefix, which the
// Assembler strips from prev but that its rest never carries.
func isWrapBreakAt(prev, next string, prevLen, width int) bool {
	if width < minWrapWidth || len(prev) < prevLen || next == "" || isValidationHead(prev) {
		return false
	}
	p := prev[len(prev)-1]
	if glogClockStart(next) {
		// A glog header's level, date and clock ("E0805
		// 09:42:09.763501 ..."): a record of its own, whatever follows
		// (a source name a page's emphasis ate the underscores of,
		// "ascend direct transport.cpp:460"), never a cut's rest.
		return false
	}
	if isRuleLine(prev) && isWordByte(next[0]) {
		// A rule drawn across the line ("-----...", a help box's top
		// or bottom) ends where its writer stopped it: the text under
		// it is a line of its own, which no cut inside the rule opens.
		return false
	}
	if len(next) > width+wrapSlack && !(p == ' ' && len(next) <= width+firstWordLen(next)) {
		// A word-wrapping tool (fold -s) breaks before the word that
		// would cross its width: the rest, broken again at that width,
		// is at most as long as prev and that word.
		return false
	}
	// rest is next without the one space a break just before a word
	// leaves at its start.
	rest, lead := next, false
	if next[0] == ' ' {
		if (len(next) < 2 || !isWordByte(next[1]) && strings.IndexByte("('\"", next[1]) < 0 && !spacedPath(p, next[1:]) ||
			!isWordByte(p) && strings.IndexByte(",;)'\"", p) < 0 && !(strings.IndexByte("=<>&|+-*", p) >= 0 && strings.Count(prev, "`")%2 == 1) &&
				!(p == ':' && isLower(next[1]) && strings.ContainsAny(tok0(prev), "./"))) && !(p == ':' && indexTupleLen(next[1:]) > 0) &&
			!(p == ':' && len(next) > 1 && next[1] != ' ' && isExceptionTypeColon(tok0(prev))) &&
			!((p == ':' || p == '.') && len(next) > 1 && (isLower(next[1]) || isDigit(next[1])) && isTerminalWidth(width)) &&
			!(isWordByte(p) && strings.HasPrefix(next, " : ")) {
			// (A colon after a path or a dotted name, and one lower-case
			// word after the space: the cut fell before the space that
			// goes on with the message, "...libtriton_tensorrtllm.so:"
			// and " undefined symbol: ..."; an indented block a colon
			// announces opens with two spaces or more.)
			// (An operator ends prev inside the inline code prev
			// opens: "Assertion `-sizes[i] <=" and " index && ...".)
			// (An absolute path after a word: the cut fell before the
			// space ahead of the path the message names, "...creating
			// shared memory segment" and " /dev/shm/nccl-v2jS20 ...".)
			// (A colon before the index tuple it announces: the cut
			// fell before the space between, "..., thread:" and "
			// [63,0,0] Assertion ...", as a device assert prints them.)
			// (An exception's type and its colon: the cut fell before
			// the space ahead of its message, "...] RuntimeError:" and
			// " NCCL error: ..."; see isExceptionTypeColon.)
			// (A colon or a full stop at a terminal's default width, the
			// stream's first cut before any teaches it, and a lower-case
			// word or a number after the space: "...: cudaMalloc
			// failed:" and " out of memory", "...waiting for workers."
			// and " 1/2 workers joined.")
			// (A word, then the " : " a writer puts between a subject and
			// its detail, which opens no line: "...Got async event" and
			// " : local access violation ...", as NCCL prints it.)
			return false
		}
		rest, lead = next[1:], true
	}
	n := rest[0]
	// The first word of next, and the first of prev.
	w := rest
	if i := strings.IndexByte(w, ' '); i >= 0 {
		w = w[:i]
	}
	first := prev
	if i := strings.IndexByte(first, ' '); i >= 0 {
		first = first[:i]
	}
	// A line that opens as prev did is a new line of the same shape (a
	// progress bar redrawn, a command repeated, a list); one whose first
	// word stands in a column (a numbered listing, a table, a backtrace's
	// frame numbers) is a line of a layout.
	if first == w || strings.HasPrefix(rest[len(w):], "  ") && !((lead || isLetter(p)) && closesParen(prev, strings.TrimSuffix(w, ":"))) && !strings.HasSuffix(prev, "  ") {
		// (Unless the break fell before the space ahead of the word
		// that closes a parenthesis prev opened, or inside that word:
		// "...error: 2 (out of" and " memory)  file=csrc/utils.h ...",
		// "...(this tool call will be omitted from the respon" and
		// "se):  Failed to parse ...", or inside the padding
		// of prev's own columns, which no line ends in: a stack dump's
		// "PC: @     " and "0x7f6d68247e87  (unknown)  raise".)
		return false
	}
	tok := prev[strings.LastIndexByte(prev, ' ')+1:] // prev's last token
	// A quoted string or inline code the cut fell inside: prev opens it
	// and next closes it, a quote or a backtick left unpaired on each
	// ("guarantee(false && \"hipErrorNoBinaryFor" and "Gpu: Coudn't find
	// binary for current devices!\")"). No line of its own opens inside
	// a quote, whatever its first word.
	quoted := !lead && isWordByte(p) && isWordByte(n) && spansQuote(prev, rest)
	// An exception line cut inside its dotted type's name: the rest
	// opens like an exception line of its own, but only prev's last
	// token and it make the type ("vllm.v1.engine.exc" and
	// "eptions.EngineDeadError: EngineCore encountered an issue").
	typeCut := !lead && isDottedTypeCut(tok, rest)
	switch {
	case quoted, typeCut:
	case isJSONRest(w) && (strings.Contains(tok, "\":") || strings.Contains(tok, "\",\"")):
		// A one-line JSON object (an API's error body, a JSON log
		// record) cut anywhere inside its members: prev's last token
		// and the rest both hold a member's quotes and colon
		// ("...\"param\":null,\"" and "code\":500}").
	case lead:
		// The break fell just before a space.
	case (isWordByte(p) || p == ')' || p == ']') && strings.IndexByte(",:;)]", n) >= 0,
		isWordByte(p) && n == '=' && (len(rest) == 1 || rest[1] != '='):
		// Punctuation that follows a token and opens no line of its own
		// ("hpp" and ":317, ...", "details" and "), NCCL ...").
	case p == ':' && n == ':' && len(prev) > 1 && isWordByte(prev[len(prev)-2]) && len(rest) > 1 && isLetter(rest[1]):
		// A C++ scope's "::" cut in two ("at_npu::native:" and
		// ":AclSetCompileopt(...)"); HIP's ":3:rocdevice.cpp" opens
		// with a digit after its colon.
	case isWordByte(p) && (n == '/' || n == '.') && strings.ContainsAny(tok, "./"):
		// A path or a dotted name going on ("distributed" and "/c10d/").
	case strings.IndexByte("<>!=", p) >= 0 && n == '=':
		// A comparison's operator cut in two ("x.size(0) <" and "= n").
	case isWordByte(p) && n == '-' && len(rest) > 1 && isWordByte(rest[1]) && strings.ContainsAny(tok, "-/"):
		// A hyphenated name or a path going on ("CodeGoat24/
		// UnifiedReward-7b" and "-v1.5 does not ...").
	case (n == '\'' || n == '"') && strings.Count(tok, rest[:1])%2 == 1:
		// The quote that closes one opened in prev's last token.
	case (p == '\'' || p == '"') && (isWordByte(n) || n == '/' && strings.IndexByte(rest, p) > 0) && strings.Count(tok, prev[len(prev)-1:]) == 1:
		// Just inside a quote that prev's last token opens (a path
		// inside it when the rest closes it: "Model name '" and
		// "/workspace/m' cannot start with a slash").
	case p == ' ':
		// The break fell just after a space. A writer that ends its
		// lines in a space ends next in one too (NVSHMEM's errors),
		// and so does the middle piece of a line a word-wrapping tool
		// (fold -s) broke twice: that piece is about as long as prev's
		// (prevLen: prev may hold pieces rejoined before it), the
		// writer's next line is of its own length. The rest may
		// open with a quote, inline code or a path ("NCCL error in: "
		// and "/pytorch/torch/csrc/...").
		if !isWordByte(n) && strings.IndexByte("('\"`", n) < 0 && !(n == '/' && strings.Count(w, "/") >= 2) && !fieldsGoOn(prev, rest) && !parenGoesOn(prev, rest) {
			return false
		}
		if next[len(next)-1] == ' ' && !strings.HasSuffix(next, "  ") && !strings.HasSuffix(next, ": ") && !strings.HasSuffix(next, ", ") && (len(next) < minWrapWidth || len(next)+wrapSlack < prevLen) &&
			!(strings.Count(prev, "`")%2 == 1 && strings.Count(next, "`")%2 == 1) {
			// (Unless prev opened inline code that next closes: the
			// span goes on across the break, "... error: `Assertion
			// Error: assert x == " and "len(y)` ".)
			// (Two spaces end a Markdown paste's every line: the line's
			// last piece, not a writer's habit; and a piece that ends in
			// a colon's space announces a value, or in a comma's space
			// goes on with a list, which a token too long for what was
			// left of the line carries on the next.)
			return false
		}
	case isDigit(p):
		// Inside a number, or inside a hex string ("...cdcd8d8" and
		// "b195040..."): a number glued to a word is no token. A name
		// with digits goes on with "_" ("mlx5" and "_0:1 Got async
		// event").
		if !isDigit(n) && n != '.' && !(n == '_' && hasLetter(trailingAlnum(prev))) && !(isHex(strings.TrimPrefix(trailingAlnum(prev), "0x")) && isHex(leadingAlnum(rest))) && !hexPrefixCut(prev, rest, isTerminalWidth(width)) {
			return false
		}
	case isUpper(p) && isUpper(n):
		// Inside an acronym or a constant ("N" and "CCL version"): a
		// capitalised word after one is a sentence of its own, and a
		// mixed-case name ("..._32x256E") may end where a field of the
		// next line ("VGPU=...") begins.
		if acronymLastLetter(tok, rest) {
			// An acronym cut before its last letter ("...:246 NP" and
			// "U function error: ..."): one capital alone, no word.
			break
		}
		if len(rest) < 2 || !isUpper(rest[1]) && !isDigit(rest[1]) && strings.IndexByte("_=:,.)", rest[1]) < 0 ||
			(strings.ToUpper(trailingAlnum(prev)) != trailingAlnum(prev) && !callOfCapitals(w)) || isDigit(trailingAlnum(prev)[0]) {
			return false
		}
	case isLetter(p):
		// Inside a word, or a word wrap: the rest opens in lower case
		// and is more than one word (one word alone is as likely a short
		// line of its own, "next", "done"), or a token no word is ("ges/
		// torch/lib/x.so)", "e_generation", "st):"); or one word when
		// prev is as wide as a terminal is by default ("...ibv_modify_qp
		// fa" and "iled", "...aliyun.com/gp" and "u-mem`").
		if !isLower(n) && !isDigit(n) && n != '_' && !(isUpper(n) && camelCut(tok, w)) || w == rest && isLower(n) && !strings.ContainsAny(rest, "/._:()[]'\"") && !isTerminalWidth(width) {
			return false
		}
	case p == '.':
		// A decimal point ("2." and "21.5") or a dotted or slashed name
		// ("../torch/csrc/distributed/c10d/NCCLUtils." and "hpp:317"),
		// never the end of a sentence; or a source file's name cut
		// before its extension and line number ("...23:48:35 llama."
		// and "go:459: error starting ...").
		t := tok[:len(tok)-1]
		decimal := t != "" && isDigit(t[len(t)-1]) && isDigit(n)
		dotted := (strings.ContainsAny(t, "./") || isSourceExtRest(w)) && (isLower(n) || isDigit(n) || n == '_')
		if !decimal && !dotted {
			return false
		}
	case p == ':' && isIPv6Cut(tok, rest):
		// An IPv6 address cut after one of its colons ("Connect to
		// fe80::966d:" and "ae03:a2:8cf0%ib1<17943> failed").
	case p == ':' && isDigit(n) && strings.ContainsAny(tok, "./"):
		// A source reference's line number ("NCCLUtils.hpp:" and "317").
	case p == ',':
		// A list going on ("TP0," and "TP1"); a capitalised word after
		// a line that ends in a comma opens a sentence of its own: a
		// record's last field ends in one (sglang's batch lines), and a
		// break inside a list after ", " leaves the space at next's
		// start.
		if !isWordByte(n) || isUpper(n) && len(rest) > 1 && isLower(rest[1]) {
			return false
		}
	case p == '=' && len(tok) > 1 && isWordByte(tok[len(tok)-2]) && strings.IndexByte("[({'\"", n) >= 0:
		// A key's value that opens with a bracket or a quote
		// ("SocketImpl(fd=58, addr=" and "[localhost]:42412, ..."): no
		// line ends in a key and its "=".
	case p == '_' || p == '/' || p == '-' || p == '=' || p == '(':
		if !isWordByte(n) {
			return false
		}
	default:
		return false
	}
	// A word ending in ":" names a writer or a level ("ninja: build
	// stopped", "error: ..."), unless prev ends in the space a word wrap
	// leaves ("...common_ops.abi3.so: undefined " and "symbol: ...", "Scheduler
	// hit an " and "exception: ...", "column " and "13: ..."): a writer's own
	// line seldom does; nor when the break is inside a path or a dotted
	// name ("common_ops.abi3." and "so: undefined symbol: ...",
	// ".../sgl_kernel/common" and "_ops.abi3.so: ...").
	// Nor is a constant's name, cut inside it, a writer's
	// ("...HSA_STATUS_ER" and "ROR_MEMORY_APERTURE_VIOLATION: ...").
	// Nor is one lower-case letter before the colon a writer's name: it
	// is the last letter of a word cut just before it ("...: bloc" and
	// "k: [32,0,0], thread: ...").
	if len(w) > 1 && strings.HasSuffix(w, ":") && !lead && !quoted && !typeCut && !(p == ' ' && (isLower(w[0]) || isDigit(w[0]) || strings.HasSuffix(lastToken(prev), ":"))) &&
		!((strings.IndexByte("./_-", p) >= 0 || strings.IndexByte("./_", n) >= 0) && strings.ContainsAny(tok, "./")) && !(len(w) == 2 && isLower(w[0]) && isLower(p)) &&
		!(isConstantByte(p) && isConstantName(w[:len(w)-1])) && !pathNameCut(tok, rest, p, n) && !hexNumberCut(tok, w) && !urlGoesOn(tok, w) &&
		!strings.ContainsAny(w, "'\"") && !closesParen(prev, w[:len(w)-1]) && !(isLetter(p) && isLower(n) && isTerminalWidth(width) && (isWordRest(w[:len(w)-1]) || strings.IndexByte(tok, '.') >= 0 && strings.IndexByte(w, '.') >= 0)) {
		// (A quote in the word makes it a quoted key, "sage':", never
		// a writer's name; nor is one that closes the parenthesis prev
		// left open, "...omitted from the respon" and "se): ...".
		// Nor is a lower-case word that goes on with prev's last letter
		// when prev is as wide as a terminal is by default, the first
		// cut of a stream before any teaches its width ("...0/2 nodes
		// are a" and "vailable: ...", "...NPU function er" and "ror:
		// call ..."; isWordRest), or a dotted name going on, a host's
		// ("...lookup registry.o" and "llama.ai: i/o timeout").)
		return false
	}
	if isFrameLine(prev) || isFrameLine(next) || isTracebackLine(next) ||
		isChainSeparator(next) || IsCaretLine(next) || isGroupStartLine(next) || isWarningLine(rest) || isEpilogue(rest) {
		return false
	}
	if _, _, ok := parseExceptionAnyQuote(rest); ok && !quoted && !typeCut {
		return false
	}
	return true
}

// glogClockStart reports whether s opens as a glog header does: a level
// letter, the month and day, and the clock with its fraction ("E0805
// 09:42:09.763501 "), whatever comes after.
func glogClockStart(s string) bool {
	return len(s) > 16 && glogLevel(s[0]) != "" && ascii.Digits(s[1:5]) && s[5] == ' ' && isClock(s[6:14]) && s[14] == '.' && isDigit(s[15])
}

// isRuleLine reports whether s is a rule: one of "-=*#_~" repeated over
// the whole line, at least minWrapWidth long (its caller's bound).
func isRuleLine(s string) bool {
	if s == "" || strings.IndexByte("-=*#_~", s[0]) < 0 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return true
}

// terminalWidths are the widths a terminal or a console window opens at
// and a paste of it keeps (a VT100's 80 and 132 columns, the 100, 120,
// 160 and 200 that terminal emulators, IDE consoles and CI viewers
// default to).
var terminalWidths = [...]int{80, 100, 120, 132, 160, 200}

// isTerminalWidth reports whether n is one of terminalWidths.
func isTerminalWidth(n int) bool {
	for _, w := range terminalWidths {
		if n == w {
			return true
		}
	}
	return false
}

// toolLevelWords are the words a compiler's, a linker's or a build
// tool's own line opens with, before a colon (its level or its name):
// such a line is no rest of the line before.
var toolLevelWords = [...]string{"error", "warning", "warn", "note", "info", "debug", "fatal", "critical", "trace", "panic", "help", "hint", "ninja", "make", "ld", "gcc", "nvcc", "clang"}

// sourceExts are the extensions of the source files a log line names
// with a line number ("llama.go:459", "scheduler.py:2345",
// "rdma_context.cpp:265").
var sourceExts = [...]string{"go", "py", "c", "cc", "cpp", "cu", "cuh", "h", "hpp", "rs", "js", "ts", "java"}

// isSourceExtRest reports whether w, a line's first word, opens with a
// source file's extension, a colon and a line number ("go:459:",
// "cpp:265]"): the rest of a file's name a terminal cut at its dot.
func isSourceExtRest(w string) bool {
	i := strings.IndexByte(w, ':')
	if i <= 0 || i+1 >= len(w) || !isDigit(w[i+1]) {
		return false
	}
	for _, ext := range sourceExts {
		if w[:i] == ext {
			return true
		}
	}
	return false
}

// isWordRest reports whether w, the word before a colon that opens a
// line, may be the rest of a word a terminal cut: lower-case letters
// only, and no level a compiler's or a tool's own line opens with
// (toolLevelWords). A writer's name holds a capital, a digit or a
// punctuation mark as often as not ("valueError", "python3", "llama.ai").
func isWordRest(w string) bool {
	if w == "" || isLevelWord(w) || isContextKey(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isLower(w[i]) {
			return false
		}
	}
	return true
}

// contextKeys are the keys asyncio's default exception handler prints,
// each on a line of its own, after its message ("Future exception was
// never retrieved" and "future: <Future finished exception=...>", "Task
// was destroyed but it is pending!" and "task: <Task pending ...>"): such
// a line is the record's next field, whatever the width of the line
// before.
var contextKeys = [...]string{"message", "exception", "future", "task", "handle", "protocol", "transport", "socket", "asyncgen"}

// isContextKey reports whether w is one of contextKeys.
func isContextKey(w string) bool {
	for _, k := range contextKeys {
		if w == k {
			return true
		}
	}
	return false
}

// isLevelWord reports whether w is one of toolLevelWords, any case.
func isLevelWord(w string) bool {
	for _, l := range toolLevelWords {
		if strings.EqualFold(w, l) {
			return true
		}
	}
	return false
}

// isExceptionTypeColon reports whether tok, a line's last token, is an
// exception's type and the colon after it ("RuntimeError:",
// "torch.OutOfMemoryError:"): a line never ends there, since CPython
// prints an empty message as the type alone and any other after ": ",
// so a line that does was cut before that space.
func isExceptionTypeColon(tok string) bool {
	if len(tok) < len("XError:") || tok[len(tok)-1] != ':' {
		return false
	}
	_, rest, ok := embeddedType(tok[:len(tok)-1])
	return ok && rest == ""
}

// indexTupleLen returns the length of a bracketed tuple of indices at the
// start of s ("[63,0,0]", "[32,0,0]", "[5]"): digits and commas, a digit
// first and last; 0 when s opens with none.
func indexTupleLen(s string) int {
	if len(s) < 3 || s[0] != '[' || !isDigit(s[1]) {
		return 0
	}
	for i := 2; i < len(s) && i < 32; i++ {
		switch c := s[i]; {
		case c == ']':
			if !isDigit(s[i-1]) {
				return 0
			}
			return i + 1
		case isDigit(c), c == ',' && isDigit(s[i-1]):
		default:
			return 0
		}
	}
	return 0
}

// isDottedTypeCut reports whether tok, prev's last token, and rest make
// an exception line whose type is a dotted name (a module path and a
// class) cut inside: tok is the type's start, a dotted name with no
// colon, and tok and rest read as an exception line whose type holds a
// dot and starts with tok. The cut falls inside a word (a lower-case
// letter on both sides, or a capital, or a digit), or between two words
// of a class's camel-case name; a capitalised name after a module's
// lower-case one ("model.safetensors" and "ValueError: ...") is a line of
// its own.
//
// An undotted type is read so too when it is one of Python's built-in
// exceptions, or when the cut falls between two lower-case letters
// ("...[nixl_connector.py:815] Runtim" and "eError: Remote NIXL agent
// ..."): a capitalised word at a line's end and "Error: ..." on the next
// line are two lines as often.
func isDottedTypeCut(tok, rest string) bool {
	if tok == "" || rest == "" || strings.IndexByte(tok, ':') >= 0 || len(tok) > maxCutType {
		return false
	}
	p, n := tok[len(tok)-1], rest[0]
	dotted := strings.IndexByte(tok, '.') >= 0
	class := tok[strings.LastIndexByte(tok, '.')+1:] // the name being cut
	builtin := false
	if !dotted {
		w := strings.TrimSuffix(firstWord(rest), ":")
		if !isUpper(tok[0]) || strings.IndexByte(w, '.') >= 0 {
			// (An undotted word before a dotted name is a word of
			// prose: "... from None" and "json.decoder.JSONDecodeError:
			// ...".)
			return false
		}
		builtin = BuiltinException(tok + w)
	}
	switch {
	case isLower(p) && isLower(n):
	case (isUpper(p) && isUpper(n) || isDigit(p) && isDigit(n)) && (dotted || builtin):
	case isLower(p) && isUpper(n) && class != "" && isUpper(class[0]) && (dotted || builtin):
		// A class's camel-case name cut between two of its words
		// ("torch.distributed.Dist" and "BackendError: ...").
	default:
		return false
	}
	w := firstWord(rest)
	if !strings.HasSuffix(w, ":") {
		return false
	}
	typ, _, ok := parseBareException(tok + rest)
	return ok && strings.HasPrefix(typ, tok) && len(typ) == len(tok)+len(w)-1
}

// maxCutType bounds the start of a type's name isDottedTypeCut reads.
const maxCutType = 256

// urlGoesOn reports whether a break fell inside a URL that prev's last
// token tok opens (a scheme, "://" and no space after it) and w, the
// rest's first word, carries on to the colon the message goes on after:
// "...Cannot reach https://huggingface.co/api/models/meta-llama/Meta-
// Llama-3.1-8B" and "-Instruct/tree/main?recursive=True&expand=False:
// offline mode is enabled", `Get "https://registry-1.docker.io/v` and
// `2/": net/http: request canceled`. The colon ends the URL, not a
// writer's name.
func urlGoesOn(tok, w string) bool {
	i := strings.Index(tok, "://")
	if i <= 0 {
		return false
	}
	from := strings.LastIndexAny(tok[:i], "\"'(<[=") + 1
	if from == i {
		return false
	}
	for k := from; k < i; k++ {
		if !isLetter(tok[k]) && tok[k] != '+' {
			return false
		}
	}
	body := strings.TrimRight(strings.TrimSuffix(w, ":"), "\"')>]")
	if body == "" || strings.Contains(body, "://") || !strings.ContainsAny(body, "/?&=%#.") {
		// A URL's rest goes on with its path, query or host; a word
		// alone before a colon is a writer's name ("ninja:").
		return false
	}
	for k := 0; k < len(body); k++ {
		if c := body[k]; !isWordByte(c) && strings.IndexByte("-._~/?#@!$&*+,;=%:[]", c) < 0 {
			return false
		}
	}
	return true
}

// acronymLastLetter reports whether rest opens with one capital letter
// alone that ends tok, prev's last token, a run of capitals: an acronym
// a cut split before its last letter ("NP" and "U function error"). "A"
// and "I" alone are words.
func acronymLastLetter(tok, rest string) bool {
	if len(rest) < 2 || rest[1] != ' ' || !isUpper(rest[0]) || rest[0] == 'A' || rest[0] == 'I' || len(tok) < 2 || len(tok) > 8 {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if !isUpper(tok[i]) {
			return false
		}
	}
	return true
}

// hexNumberCut reports whether a break fell inside a hexadecimal number
// that w, the rest's first word, ends with a colon: prev's last token tok
// is "0x" and maybe some of its digits, w the rest of them ("...register
// memory 0x" and "7f7186000000: Cannot allocate memory"), an address a
// message names, not a writer.
func hexNumberCut(tok, w string) bool {
	d, ok := strings.CutPrefix(tok, "0x")
	return ok && (d == "" || isHex(d)) && len(w) > 1 && isHex(w[:len(w)-1])
}

// pathNameCut reports whether a break between p and n fell inside a name
// of a path that goes on in rest: prev's last token tok is a path whose
// last name has no extension yet ("/workspace/include/flashi") and rest's
// first word goes on with more of the path before its colon ("nfer/trtllm/
// fmha/fmhaRunner.cuh:30:") or with the end of the file's name and its
// extension ("aRunner.cuh:30:"), a source reference, not a writer's name. A
// compiler's diagnostic on a line of its own opens with a path too, but
// labels itself in the words after it ("csrc/x.cu:12:3: error: ...",
// "...: fatal error: ...").
func pathNameCut(tok, rest string, p, n byte) bool {
	if !isWordByte(p) || !isLower(n) && !isDigit(n) && n != '_' {
		return false
	}
	i := strings.LastIndexByte(tok, '/')
	if i < 0 || strings.IndexByte(tok[i+1:], '.') >= 0 {
		return false
	}
	w, after, _ := strings.Cut(rest, " ")
	j := strings.IndexByte(w, '/')
	if j < 0 {
		// Cut inside the file's own name: the rest is the name's end,
		// its extension and its line number ("fmh" and
		// "aRunner.cuh:30:").
		j = strings.IndexByte(w, ':')
		if j <= 0 || strings.IndexByte(w[:j], '.') <= 0 {
			return false
		}
	}
	if j == 0 || strings.IndexByte(w[:j], ':') >= 0 || !endsInLineNumber(w) {
		return false
	}
	for k := 0; k < 2 && after != ""; k++ {
		var label string
		label, after, _ = strings.Cut(after, " ")
		if strings.HasSuffix(label, ":") {
			return false
		}
	}
	return true
}

// endsInLineNumber reports whether w, a word ending in a colon, ends in a
// source reference's line number (and column): "fmhaRunner.cuh:30:",
// "reduce.cuh:412:7:". A file's name alone before the colon ("vocab.json:
// 100%") is a line of its own, a progress bar's label.
func endsInLineNumber(w string) bool {
	w = strings.TrimSuffix(w, ":")
	for k := 0; k < 2; k++ {
		i := strings.LastIndexByte(w, ':')
		if i < 0 || i == len(w)-1 || !ascii.Digits(w[i+1:]) {
			return k > 0
		}
		w = w[:i]
	}
	return true
}

// isValidationHead reports whether s ends as the first line of a pydantic
// ValidationError's message does ("2 validation errors for
// ChatCompletionRequest"): the lines after it are each failing field's
// location ("messages.1.content") and detail, never the rest of a line a
// wrap cut.
func isValidationHead(s string) bool {
	// The model's name ends the line, after the last " for ": the bytes
	// of a name hold no space, so it is the run of them that ends s,
	// which most lines (prose, a progress bar's "]") end without.
	j := len(s)
	for j > 0 && (isLetter(s[j-1]) || isDigit(s[j-1]) || s[j-1] == '_') {
		j--
	}
	if !isIdentifier(s[j:]) || !strings.HasSuffix(s[:j], " for ") {
		return false
	}
	head := s[:j-len(" for ")]
	return strings.HasSuffix(head, " validation error") || strings.HasSuffix(head, " validation errors")
}

// trailingAlnum returns the letters and digits that end s.
func trailingAlnum(s string) string {
	i := len(s)
	for i > 0 && (isLetter(s[i-1]) || isDigit(s[i-1])) {
		i--
	}
	return s[i:]
}

// leadingAlnum returns the letters and digits that open s.
func leadingAlnum(s string) string {
	i := 0
	for i < len(s) && (isLetter(s[i]) || isDigit(s[i])) {
		i++
	}
	return s[:i]
}

// isHex reports whether s is a non-empty run of hexadecimal digits.
func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isDigit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return isLower(c) || isUpper(c) }

// isLower reports whether c is an ASCII lower-case letter.
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// rejoin joins the non-blank line c to the pending entry's last line when
// it is the rest of that line split off by a hard wrap (isWrapBreak), as
// one line: the matcher then reads the record's text or the exception's
// message whole ("NCCL error: unhandled syst" and "em error"). The parts
// are joined as they are, with nothing between: a terminal breaks at a
// column and drops no byte. A header, a native line or a wrapper logger's
// record is never a rest, so two log records are never joined. It
// reports whether it joined.
func (a *Assembler) rejoin(l *Line, c *classified, cut int) bool {
	p := &a.cur
	if !p.active || p.kind == kindBlank || c.header || c.prefixed || cut > 0 || p.lastCut || p.ownMsg || isC10Line(c.s) {
		return false
	}
	if (c.s[0] == ' ' || isDigit(c.s[0])) && strings.IndexByte(c.s[:min(len(c.s), maxFamilyPrefix)], '[') > 0 {
		if n := familyPrefixLen(c.s); n > 0 && isSGLangRecord(c.s[n:]) {
			// sglang's record behind a launcher's task label not
			// learned yet (" 3: [2025-09-10 12:15:24 TP4 PP1]
			// Scheduler hit an exception: ..."): a record of its
			// own, never a rest.
			return false
		}
	}
	if otherWriter(p.prefix, c.prefix) {
		// A line behind another rank's or actor's prefix is that
		// process's own line: a terminal's cut leaves its rest behind
		// the line's own prefix or none, never another writer's
		// ("[rank2]:...your parallel process is" and "[rank0]:likely
		// to abort.").
		return false
	}
	if c.s[0] == 'L' && strings.TrimRight(c.s, " ") == "Last error:" && a.ncclState() == ncclMessage {
		// NCCL's label of its last error, on a line of its own after
		// the error name's line, which ends in a space (a word wrap's
		// piece would too): the line it announces follows (ncclNext).
		return false
	}
	if p.table.width > 0 && c.s != "" && c.s[len(c.s)-1] == '|' && a.spacing.real(p.blanks) == 0 {
		// A box-drawn table's row that goes on with the last one's
		// last cell (tablerow.go).
		if text, sep, ok := p.table.continues(c.s); ok {
			return a.joinTableRow(l, c, text, sep)
		}
	}
	if shown := len(l.Text) + l.Framing; p.table.width > 0 && len(c.s) < p.table.width && c.s[len(c.s)-1] != '|' &&
		(isTerminalWidth(shown) || shown == a.width.width || a.padded && isTerminalWidth(a.pad.width) || shown >= minFoldPiece && endsInFoldSpace(c.s)) &&
		a.spacing.real(p.blanks) == 0 {
		// Its first piece, cut at a terminal's width (the rest
		// follows); on a terminal that pads its rows, a piece that
		// ended in the cell's padding lost it with the row's; or a
		// word wrap's (fold -s), ending in the space it broke at.
		if text, sep, ok := p.table.continuesPiece(c.s); ok {
			return a.joinTablePiece(l, c, text, sep)
		}
	}
	// The line's length as the terminal showed it, a padding taken off
	// before the row width was known counted: a rest the terminal padded
	// is as long as the row it was cut from (padrows.go).
	shown := len(l.Text) + a.padCut
	if a.width.maxRaw >= minWrapWidth && a.width.prevRaw == a.width.maxRaw && p.blanks == 0 && a.width.noted != a.lines {
		// (Most lines follow a shorter one and skip the call; a line
		// asked twice is noted once.)
		a.width.noted = a.lines
		a.width.notePiece(a.kept.last(), c.s, len(l.Text)+l.Framing)
	}
	if last := a.kept.last(); p.kind == kindHeader && a.kept.count() > 1 && a.spacing.real(p.blanks) == 0 && isLocationColonRest(p.record, last, c.s) {
		// A later line of a Ray core record whose repeated header a
		// terminal cut just before its location's colon: the rest
		// goes on with the line, whatever the width (joinSep leaves
		// the location out, as the record's other lines).
		return a.join(l, c)
	}
	if last := a.kept.last(); a.spacing.real(p.blanks) == 0 && isRuneCut(last, c.s) {
		// A cut inside a character's bytes (isRuneCut): the rest,
		// whatever it opens with after them, goes on with the line. The
		// break is certain, so it teaches the width as any break does.
		if p.lastRaw >= minWrapWidth {
			a.width.confirm(p.lastRaw)
		}
		return a.join(l, c)
	}
	if p.kind == kindHeader && a.spacing.real(p.blanks) == 0 && (a.kept.count() == 1 && p.record == "" && isBlank(p.msg) || p.record != "" && a.kept.count() > 1 && a.isCutHeader(a.kept.last())) {
		// A header a word wrap (fold -s) broke before its logger's
		// location ("ERROR 03-04 05:42:52 " and "[multiproc_executor.py:824]
		// ..."), the record's first line or a later one that repeats it:
		// one line when the two read as a record's header whole.
		if a.headerWhole(a.kept.last()+c.s, c.prefix) {
			return a.join(l, c)
		}
	}
	if p.kind == kindHeader && a.kept.count() == 1 && a.spacing.real(p.blanks) == 0 && isCutLocationMsg(p.msg) && closesBracket(c.s) &&
		a.headerWhole(a.kept.last()+c.s, c.prefix) {
		// A header a terminal cut inside its logger's location, before
		// the stream taught its width ("...ERROR 08-27 08:35:04
		// [multiproc_executor.py:100" and "0]     fused_moe_results =
		// ..."): one line when the two read as a record's header whole.
		return a.join(l, c)
	}
	if last := a.kept.last(); p.kind == kindRaw && a.kept.count() == 1 && a.spacing.real(p.blanks) == 0 && isCutLevelHead(last) &&
		a.headerWhole(last+c.s, c.prefix) {
		// A record's header a terminal cut inside its time ("...
		// INFO 12" and "-12 05:11:33 [torchair_model_runner.py:283]
		// ..."): one line when the two read as a record's header
		// whole (rereadHeader reads it so).
		return a.join(l, c)
	}
	if a.kept.count() == 1 && a.locationCut() && lineNumberRest(c.s) && a.headerWhole(a.kept.last()+c.s, c.prefix) {
		// A header a terminal cut inside its logger's line number
		// ("...377651] logging.cc:4" and "84: *** SIGSEGV received
		// ..."), whose rest reads as a task's label: one line when the
		// two read as a record's header whole.
		return a.join(l, c)
	}
	if p.kind == kindNative && p.native == NativeRustPanic && isRustFrameRest(a.kept.last(), c.s) {
		// A backtrace frame and its symbol: one line, whatever the width.
		return a.join(l, c)
	}
	if p.kind == kindNative && p.native == NativeRustPanic && a.kept.count() == 1 && isPanicRest(a.kept.last(), c.s) {
		// "thread 'main' panicked at " and its location: one line, as
		// the panic printed it, whatever the width.
		return a.join(l, c)
	}
	if last := a.kept.last(); p.hasTB && p.st == stException && a.spacing.real(p.blanks) == 0 && endsInFoldSpace(last) &&
		!isIndented(c.s) && textClass(c.s) == lcOther && !c.native {
		// Inside an exception's message, a line that ends in one space
		// (which CPython never prints there) is a piece a word wrap
		// (fold -s) cut: the message goes on, whatever the pieces'
		// lengths.
		if _, _, ok := parseExceptionAnyQuote(c.s); !ok {
			return a.join(l, c)
		}
	}
	if last := a.kept.last(); p.hasTB && p.st == stException && p.lastTrimmed && a.kept.count() > 1 && a.spacing.real(p.blanks) == 0 &&
		last != "" && last[len(last)-1] == ':' && !isIndented(last) && !isIndented(c.s) && textClass(c.s) == lcOther && !c.native {
		// The same in a stream whose rows a terminal padded: the
		// padding took the space the exception's message ended in
		// ("Exception: Capture cuda graph failed: " and the lines
		// its message goes on with), and a message that ends in a
		// colon announces them.
		if _, _, ok := parseExceptionAnyQuote(c.s); !ok && isExceptionLine(last, false) {
			return a.joinSep(l, c, " ")
		}
	}
	if last := a.kept.last(); a.kept.count() == 1 && strings.Count(p.prefix, "`")%2 == 1 && strings.Count(last, "`")%2 == 0 &&
		endsInFoldSpace(last) && p.lastRaw >= minWrapWidth && a.spacing.real(p.blanks) == 0 && !isIndented(c.s) {
		// Inline code the paste opened in front of the line and
		// nothing closed, the line ending in the space a word wrap
		// (fold -s) leaves: the quoted line goes on, piece by piece,
		// until one closes the span.
		return a.join(l, c)
	}
	if last := a.kept.last(); c.native && !(c.n.soft && !isIndented(c.s) && (opensBracket(last) || strings.HasSuffix(last, " "))) &&
		!(p.lastRaw >= minWrapWidth && isNativeRest(last, c)) && !isFoldMiddle(last, c.s, p.foldWidth) {
		// A native line is a writer's own, unless it is one only by a
		// shape an exception's message may quote (a soft one) and the
		// line before ends where a wrap broke it: inside a bracket, or
		// in the space a word wrap leaves; or unless it is a middle
		// piece of the line a word wrap is breaking.
		return false
	}
	if last := a.kept.last(); c.s != "" && c.s[0] != ' ' && strings.HasSuffix(c.prefix, " ") && a.spacing.real(p.blanks) == 0 &&
		isParenRestAfterSpace(last, c.s) {
		// The space a cut left before the rest went with the line's
		// prefix ("[rank0]: actors) killed due to ..."): joined with it.
		return a.joinSep(l, c, " ")
	}
	if last := a.kept.last(); a.spacedRest() && (isLocationRest(last, c.s) || isCutLocationRest(last, c.s, len(l.Text)+l.Framing)) {
		// A message wrapped by hand before the source location it
		// names ("... Assertion error" and "(/x/layout.hpp:57):"): one
		// line, broken at the space before the parenthesis.
		return a.joinSep(l, c, " ")
	}
	if last := a.kept.last(); (a.spacing.real(p.blanks) == 0 || p.blanks == 1) && a.kept.count() == 1 && p.kind == kindRaw && isStatusRest(last, c.s) {
		// A runtime's status and its text, which it prints on one line
		// ("HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a
		// hardware exception. code: 0x1016"), split by a person after
		// the status's colon and before the code; one blank line apart
		// in a paste that doubles its spacing, where the excerpt's own
		// blank lines keep the stream from being told so.
		return a.joinSep(l, c, " ")
	}
	if last := a.kept.last(); a.spacedRest() && a.kept.count() == 1 && p.bareType != "" && !p.hasTB &&
		max(p.lastRaw, len(last)) >= minWrapWidth && isHandWrapRest(last, c.s) {
		// An exception's message a person wrapped by hand when
		// quoting it, its rests indented under it: one line, as
		// Python printed it. The line is as long as its pieces
		// rejoined: a terminal may have cut the hand wrap's lines
		// again ("...for 'Qwen3_5MoeForConditionalGenerati" and "on';").
		c.s = strings.TrimLeft(c.s, " ")
		return a.joinSep(l, c, " ")
	}
	if last := a.kept.last(); isFrameRest(last, c.s) || isFaultFrameRest(last, c.s, p.lastRaw) || isLongTokenRest(last, c.s) || a.spacing.real(p.blanks) == 0 && (isMarkerRest(last, c.s) || isCaretRest(last, c.s)) ||
		p.native == NativeAssert && isAssertConditionRest(last, c.s) ||
		p.native == NativeCUDAAssert && a.kept.count() == 1 && isAssertCloseRest(last, c.s) ||
		p.hasTB && strings.HasSuffix(last, " ") && isSourceRest(last, c.s) ||
		strings.HasSuffix(last, " ") && opensBracket(last) && closesBracket(c.s) ||
		(a.spacing.real(p.blanks) == 0 || p.blanks == 1 && a.spacing.seen <= spacedAfter) && isParenSpaceRest(last, c.s) ||
		p.lastRaw >= minWrapWidth && shown <= p.lastRaw && isParenRest(last, c.s) {
		// Rejoined whatever the width: fold -s leaves "  File " or
		// "GET " alone when what follows is longer than the rest of
		// the line, and a traceback's source line, which CPython
		// prints stripped, ends in a space only where a wrap broke it.
		// A terminal's cut teaches its width as any break does. A
		// traceback's start after a blank line the log printed is no
		// rest: a wrap leaves none between a line's pieces.
		// A Python warning's first line ("x.py:54: FutureWarning: ")
		// is the warnings module's own record, not a moved path.
		if isWarningLine(c.s) {
			return false
		}
		if p.lastRaw >= minWrapWidth {
			a.width.confirm(p.lastRaw)
		}
		return a.join(l, c)
	}
	if last := a.kept.last(); a.spacing.real(p.blanks) == 0 && isFoldFitRest(last, c.s, p.lastRaw, shown, p.foldWidth) {
		// A piece a word wrap (fold -s) ended before a word that would
		// have crossed its width (isFoldFitRest): the line goes on,
		// whatever the rest opens with.
		return a.join(l, c)
	}
	width := p.lastLen
	nested := false
	if last := a.kept.last(); p.whole && len(last) > width {
		// The writer's line rejoined whole from a terminal's pieces: an
		// earlier wrap (a paste's, the writer's own) cut the line whole,
		// and its rest is measured against it; the break teaches the
		// terminal's width nothing.
		width, nested = len(last), true
	}
	if p.foldWidth > width && endsInFoldSpace(a.kept.last()) {
		// A piece fold -s cut short before a long token: the width is
		// the one the entry's earlier pieces showed.
		width = p.foldWidth
	}
	if (len(l.Text) == len(c.s) || c.prefix == "" && strings.HasPrefix(l.Text, c.s)) && p.lastRaw > width {
		// A rest with no prefix of its own (a suffix a wrapper takes
		// off aside, Ray's "[repeated 2x across cluster]"): the
		// terminal cut prev as it was pushed, prefix and all.
		width = p.lastRaw
	}
	if width < minWrapWidth {
		return false
	}
	prev := a.kept.last()
	if a.spacing.real(p.blanks) > 0 && !a.wrapInSpacedPaste(prev, c.s, shown) {
		return false
	}
	if shown <= p.lastRaw && (isTracebackHeaderRest(prev, c.s) || p.lastRaw >= minWrapWidth && isLoneWordRest(prev, c.s)) {
		a.width.confirm(p.lastRaw)
		return a.join(l, c)
	}
	// A terminal's rest is never longer than the line it was cut from.
	// The learned width first: until a stream has one (most never do),
	// the shapes of the two lines are not read for it.
	column := shown <= p.lastRaw && a.width.at(p.lastRaw) && isColumnBreak(prev, c.s)
	switch {
	case column:
	case a.width.width == 0 && isTwinBreak(prev, c.s, p.lastRaw, shown):
		a.width.teach(p.lastRaw)
	case a.width.width == 0 && isTwinSpaceBreak(prev, c.s, p.lastRaw, shown):
		a.width.teach(p.lastRaw)
	case a.width.width == 0 && a.width.seen == p.lastRaw && shown <= p.lastRaw && isSecondCut(prev, c.s):
		// The second line as long as the one a confirmed break cut,
		// cut inside a token too ("...(unknown)  r" and "aise"): the
		// terminal's width, whatever the rest's one word says.
		a.width.confirm(p.lastRaw)
	case a.width.width == 0 && a.width.longest(p.lastRaw) && len(l.Text)+l.Framing <= p.lastRaw && isColumnBreak(prev, c.s) &&
		!isWarningLine(prev):
		// A line as long as the stream's longest, at which other lines
		// were cut before (wrapWidth.longest), and a line after it that
		// is none of its own by shape: the terminal's cut, wherever it
		// fell ("...   0/2     Init:C" and "rashLoopBackOff   94
		// 27d"; inside a table's padding, "...Running   14" and "
		// 112d"). A Python warning's source line is its own.
	case isFuncNameRest(prev, c.s), isMarkerRest(prev, c.s):
		a.width.confirm(p.lastRaw)
	case a.kept.count() == 1 && p.lastRaw >= minWrapWidth && strings.Count(p.prefix, "`")%2 == 1 && shown <= p.lastRaw &&
		isSpanRest(prev, c.s, l.Text) && isColumnBreak(prev, c.s):
		// Inline code the line's lead opened (its backtick went with
		// the prefix) and the rest closes, cut inside a token:
		// "...Gloo connectFull" and "Mesh failed with ... no error`".
		a.width.confirm(p.lastRaw)
	case p.hasTB && shown <= p.lastRaw && isSourceRest(prev, c.s):
		a.width.confirm(p.lastRaw)
	case isWrapBreakAt(prev, c.s, p.lastLen, width):
		if !nested {
			a.width.confirm(p.lastRaw)
		}
	case a.spacing.real(p.blanks) == 0 && shown <= p.lastRaw && (a.kept.count() == 1 && p.bareType != "" && !p.hasTB || p.hasTB && p.st == stException) &&
		isMessageRest(prev, c):
		// An exception's message a terminal or a paste broke at a
		// space, its rest at the first column ("RuntimeError: Failed:
		// CUDA error /x/deep_ep.cpp:200" and "'peer access is not
		// supported between these two devices'"), when no cut inside
		// a token says the break fell elsewhere: one line, joined
		// with the space the wrap took.
		return a.joinSep(l, c, " ")
	default:
		return false
	}
	return a.join(l, c)
}

// join appends the line c to the pending entry's last line, as its rest.
func (a *Assembler) join(l *Line, c *classified) bool { return a.joinSep(l, c, "") }

// joinSep is join with sep between the pieces: the space a hand wrap
// broke the line at (isLocationRest).
func (a *Assembler) joinSep(l *Line, c *classified, sep string) bool {
	p := &a.cur
	prev, prevMsg := a.kept.last(), p.msg
	if sep == "" && p.lastPadded && prev != "" && prev[len(prev)-1] != ' ' && c.s != "" && c.s[0] != ' ' {
		// The padding a row ended in was blank between the two.
		sep = " "
	}
	if len(prev)+len(sep)+len(c.s) > a.opt.MaxLineBytes {
		return false
	}
	joined := prev + sep + c.s
	// A header whose logger's location the cut fell inside (its message
	// so far an unclosed bracket), or fell just after (its message so far
	// the location alone, before its colon: "...140771] logging.cc:361"
	// and ": *** SIGABRT received ..."): read whole, it names its record.
	// So may a record's header whose location the cut fell inside
	// ("...140771] loggi" and "ng.cc:361: ..."): its record is read again.
	cutLocation := p.kind == kindHeader && a.kept.count() == 1 &&
		(p.record == "" && (strings.HasPrefix(p.msg, "[") && strings.IndexByte(p.msg, ']') < 0 || isBlank(p.msg) || isSourceLocation(p.msg) && strings.IndexByte(p.msg, ' ') < 0) || p.record != "")
	unheaded := false // the line's repeated header left out: read anew
	if p.kind == kindHeader && p.record != "" && a.kept.count() > 1 {
		// A later line of the record, cut inside the header it repeats:
		// whole, the header goes, as sameRecord leaves it out.
		if content, ok := a.repeatedHeader(joined, c.prefix); ok {
			joined, unheaded = content, true
		} else if isLocationColonRest(p.record, prev, c.s) {
			// The record's location alone, its colon and message on
			// the rest: the message, as the record's other lines.
			joined, unheaded = strings.TrimPrefix(c.s[1:], " "), true
		}
	}
	if !a.kept.extendLast(joined) {
		return false
	}
	if n := a.kept.count(); n == 1 || n-1 == p.msgLine && p.msgLine > 0 {
		// The first line, or the line that gave the message
		// (nextMessage): the message is its tail.
		p.msg = joined[len(prev)-len(p.msg):]
	}
	if (p.kind == kindRaw || cutLocation) && a.kept.count() == 1 && !p.hasTB && a.rereadHeader() {
		// The line whole is a record's header and its message, read
		// as such (open); what follows is joinSep's own bookkeeping.
		p.lines++
		p.last = l.Offset
		p.whole = len(l.Text)+l.Framing < p.lastRaw
		p.lastLen = len(c.s)
		p.lastRaw = len(l.Text) + l.Framing
		p.lastPadded = a.padCut > 0
		p.lastTrimmed = false // (a line made whole: its message read)
		return true
	}
	if p.bareType != "" {
		// The exception line was the line split: its message goes on.
		if typ, msg, ok := a.bareOf(prev); ok && typ == p.bareType && msg == p.bareMsg {
			if typ, msg, ok := a.bareOf(joined); ok && typ == p.bareType {
				p.bareMsg = msg
			}
		} else if a.kept.count() == 1 && p.kind == kindHeader {
			// A record whose message is the exception line, behind
			// the header the line opens with ("ERROR 11-07 11:03:31
			// [multiproc_executor.py:585] IndexError: list index out
			// of r" and "ange").
			if typ, msg, ok := a.bareOf(prevMsg); ok && typ == p.bareType && msg == p.bareMsg {
				if typ, msg, ok := a.bareOf(p.msg); ok && typ == p.bareType {
					p.bareMsg = msg
				}
			}
		}
	} else {
		a.noteBare(joined)
		if p.bareType == "" && p.kind == kindHeader && a.kept.count() == 1 {
			// A record whose message is the exception line the cut
			// fell inside ("...[nixl_connector.py:815] Runtim" and
			// "eError: ..."): the message whole.
			a.noteBare(p.msg)
		}
	}
	if p.kind == kindNative && p.native == NativeRustPanic && a.kept.count() == 1 {
		// A panic's first line made whole: its state is the whole
		// line's.
		p.panic = panicOpen(joined)
	}
	cur, was := joined, prev
	if p.kind == kindHeader && a.kept.count() == 1 {
		// A record's first line: what it holds after its header, a
		// frame a vLLM record's line carries ("ERROR ... [core.py:1165]
		// File \"/x/multiproc_exec" and "utor.py\", line 747, in
		// wait_for_ready").
		cur, was = p.msg, prevMsg
	}
	if unheaded || isFrameLine(cur) && !isFrameLine(was) || hasTracebackStart(cur) && !hasTracebackStart(was) {
		// The pieces were no traceback line; the line whole is: the
		// traceback opens or goes on here, as if it had come whole.
		a.advance(cur)
		if flushFrame(cur) {
			// A frame at the first column (flushtb.go).
			p.flush = true
		}
	}
	if endsInFoldSpace(prev) {
		p.foldWidth = max(p.foldWidth, p.lastLen)
	}
	switch {
	case p.piece.row.width > 0:
		// The rest of a table row whose first piece went on with the
		// row before (tablerow.go).
		a.closeTablePiece(joined, c.s)
	case joined != "" && joined[len(joined)-1] == '|':
		// A table's row made whole.
		p.table, _ = parseTableRow(joined)
	default:
		p.table = tableRow{}
	}
	p.blanks = 0 // a double-spaced paste's, counted in lines already
	p.lines++
	p.last = l.Offset
	p.colon = endsWithColon(joined)
	p.whole = len(l.Text)+l.Framing < p.lastRaw
	p.lastLen = len(c.s)
	p.lastRaw = len(l.Text) + l.Framing
	p.lastPadded = a.padCut > 0
	p.lastTrimmed = false // (a line made whole: its message read)
	return true
}

// repeatedHeader reports whether s, a line of the pending record made
// whole by a join, opens with the record's header repeated (vLLM's and
// Ray core's multi-line records), and returns its content.
func (a *Assembler) repeatedHeader(s, prefix string) (string, bool) {
	p := &a.cur
	ref, near := a.reference(p.firstTime)
	var c classified
	c.near = near
	a.classify(&c, s, s, prefix, p.stripped, ref)
	if !c.header || c.record != p.record || isBlank(c.h.msg) {
		return "", false
	}
	return c.h.msg, true
}

// headerWhole reports whether s reads as a header that names a record
// (vLLM's, Ray core's): a line whose header a wrap broke, made whole.
func (a *Assembler) headerWhole(s, prefix string) bool {
	p := &a.cur
	ref, near := a.reference(p.firstTime)
	var c classified
	c.near = near
	a.classify(&c, s, s, prefix, p.stripped, ref)
	return c.header && c.record != ""
}

// rereadHeader re-reads the pending entry's one line, made whole by a
// join, when it is a log record's header now, and reports whether it did: a terminal cut the line
// inside its header (a Ray actor's and a vLLM worker's prefixes fill 80
// columns: "...(Worker_TP3 pid=1024473) ERROR 03-04 05:4" and "2:52
// [multiproc_executor.py:824] ..."), and the entry read header-less goes
// on as the record it is, its later lines that repeat the header
// included (sameRecord). So is a header whose logger's location the cut
// fell inside ("ERROR 03-04 05:42:52 [multiproc_exec" and "utor.py:824]
// ..."): read whole, it names its record.
func (a *Assembler) rereadHeader() bool {
	p := &a.cur
	s := a.kept.first()
	ref, near := a.reference(p.firstTime)
	var c classified
	c.near = near
	a.classify(&c, s, s, p.prefix, p.stripped, ref)
	if !c.header || p.kind == kindHeader && (c.record == "" || c.record == p.record && len(c.h.msg) >= len(p.msg)) {
		// (The same record, unless read whole its header takes the
		// location the cut left at the message's start: "...140771]
		// logging.cc:361" and ": *** SIGABRT ...".)
		return false
	}
	stripped, lastLen, lastRaw, whole, fold := p.stripped, p.lastLen, p.lastRaw, p.whole, p.foldWidth
	a.reopen(p.firstN, 0, p.stripped)
	p.stripped, p.lastLen, p.lastRaw, p.whole, p.foldWidth = stripped, lastLen, lastRaw, whole, fold
	return p.kind == kindHeader
}

// isFrameRest reports whether next is the rest of a frame line, prev,
// that a wrap cut before its function's name could be read ("  File " and
// "\"/long/path.py\", line 1, in f", "...py\", line " and "114, in ",
// "  File \"/long/pa" and "th.py\", line 1, in f"): prev
// is the start of a frame line and no frame line, next is not indented,
// and the two read as (the start of) one frame line. prev alone is never
// a line of its own.
func isFrameRest(prev, next string) bool {
	t := strings.TrimLeft(prev, " \t")
	if !strings.HasPrefix(t, "File") || next == "" || isIndented(next) || strings.HasSuffix(prev, ", in ") {
		return false
	}
	if t != "File " && !(strings.HasPrefix(t, `File "`) && strings.IndexByte(t[len(`File "`):], '"') < 0) {
		// Not cut inside the file's name either: the start of a frame
		// line up to its number.
		if _, ok := parsePartialFrame(t); !ok || isFrameLine(prev) && !lineNumberGoesOn(prev, next) {
			return false
		}
	}
	if isFrameLine(next) {
		return false
	}
	joined := t + next
	if isFrameLine(joined) {
		return true
	}
	_, ok := parsePartialFrame(joined)
	return ok && len(joined) > len(t)
}

// isCutFrameStart reports whether s is the start of a frame line a wrap
// cut and no frame line whole: "  File " alone (fold -s before a long
// path), `  File "/long/pa` (cut inside the path) or `  File "/x.py",
// line ` (cut before the number). Its rest makes it a frame line
// (isFrameRest); until then it is read as that frame line would be, and
// a record's traceback among its frames takes it (sameRecord: 'File
// "/x/vllm/u', whose rest is 'tils.py", line 2232, in run_method').
func isCutFrameStart(s string) bool {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if len(s)-i < len("File ") || s[i] != 'F' || !strings.HasPrefix(s[i:], "File ") {
		return false // the routine line: one byte read
	}
	t := s[i:]
	if t == "File " {
		return true
	}
	if !strings.HasPrefix(t, `File "`) || isFrameLine(s) {
		return false
	}
	if strings.IndexByte(t[len(`File "`):], '"') < 0 {
		// Cut inside the file's name: a path runs to the line's end.
		return len(t) > len(`File "`) && strings.IndexByte(t, ' ') == len("File")
	}
	_, ok := parsePartialFrame(t)
	return ok
}

// isCaretRest reports whether next is the rest of a traceback's caret
// line, prev, that a wrap cut inside its marks ("                  ^^^^^"
// and "^^^^^^^^"): prev is indented and marks alone, ending in one, and
// next is marks alone at the first column, where CPython never prints
// them (they stand under the source line's code).
func isCaretRest(prev, next string) bool {
	if next == "" || next[0] != '^' && next[0] != '~' || prev == "" || prev[0] != ' ' {
		return false
	}
	if e := prev[len(prev)-1]; e != '^' && e != '~' {
		return false
	}
	return IsCaretLine(prev) && IsCaretLine(next) && strings.IndexByte(next, ' ') < 0
}

// locationCut reports whether the pending entry is a record whose first
// line ends in its logger's source location, no message after it
// ("...377651] logging.cc:4"), or whose last line is such a header
// repeated (isCutHeader): a terminal may have cut the line number.
func (a *Assembler) locationCut() bool {
	p := &a.cur
	if !p.active || p.kind != kindHeader || a.spacing.real(p.blanks) != 0 {
		return false
	}
	if a.kept.count() == 1 {
		return isSourceLocation(p.msg) && strings.IndexByte(p.msg, ' ') < 0
	}
	last := a.kept.last()
	return p.record != "" && isSourceLocation(last[strings.LastIndexByte(last, ' ')+1:]) && a.isCutHeader(last)
}

// lineNumberRest reports whether s opens with the rest of a source
// location's line number: digits, a colon and a space, and text after
// them.
func lineNumberRest(s string) bool {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i > 0 && i+2 < len(s) && s[i] == ':' && s[i+1] == ' '
}

// isCutLocationMsg reports whether msg, a header's message, is only the
// start of its logger's bracketed location, which a cut ended: "[" and
// no "]" nor space after it ("[multiproc_executor.py:100").
func isCutLocationMsg(msg string) bool {
	return len(msg) > 1 && len(msg) <= maxFieldLen && msg[0] == '[' && strings.IndexAny(msg, "] ") < 0
}

// spacedPath reports whether rest, what follows the space a cut left at
// the start of next, is an absolute path of two directories or more and
// p, prev's last byte, ends a word.
func spacedPath(p byte, rest string) bool {
	return isWordByte(p) && rest[0] == '/' && strings.Count(firstWord(rest), "/") >= 2
}

// hasLetter reports whether s holds a letter.
func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			return true
		}
	}
	return false
}

// hexPrefixCut reports whether a hexadecimal number was cut between its
// "0" and its "x" ("...: addr 0" and "x7fd3e6368000 length 294912"): prev
// ends in a lone "0" and rest opens with "x" and at least four hexadecimal
// digits, which no word does; or, when prev is as wide as a terminal is
// by default (atTerminal, the stream's first cut), with fewer digits
// that end the token ("...(synd 0" and "x15 vend 0x81 hw_synd 0/0)", a
// status or a syndrome code).
func hexPrefixCut(prev, rest string, atTerminal bool) bool {
	if trailingAlnum(prev) != "0" || len(rest) < 2 || rest[0] != 'x' {
		return false
	}
	h := leadingAlnum(rest)[1:]
	if !isHex(h) {
		return false
	}
	if len(h) >= 4 {
		return true
	}
	end := 1 + len(h)
	return atTerminal && (end == len(rest) || !isWordByte(rest[end]) && rest[end] != '.')
}

// isIPv6Cut reports whether tok, prev's last token, is the start of an
// IPv6 address cut after a colon and rest goes on with its groups: tok is
// hexadecimal groups (a bracket may open it) and at least two colons, with
// a "::" or a group of three digits or more, and rest opens with a group
// and a colon.
func isIPv6Cut(tok, rest string) bool {
	tok = strings.TrimPrefix(tok, "[")
	colons, group, wide := 0, 0, false
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c == ':':
			colons, group = colons+1, 0
		case !isHexDigit(c):
			return false
		default:
			group++
			wide = wide || group >= 3
		}
	}
	if colons < 2 || !wide && !strings.Contains(tok, "::") {
		// (A clock's "10:11:" has groups of two digits.)
		return false
	}
	i := 0
	for i < len(rest) && i < 5 && isHexDigit(rest[i]) {
		i++
	}
	return i > 0 && i < len(rest) && rest[i] == ':'
}

// lineNumberGoesOn reports whether next goes on with the line number prev,
// a frame line without its function (as a SyntaxError's frame prints it),
// ends with: digits, then ", in " ("...py\", line 1" and "16, in
// decorate_context"). A SyntaxError's frame is followed by its source
// line, indented, never by the rest of a frame.
func lineNumberGoesOn(prev, next string) bool {
	if !isDigit(prev[len(prev)-1]) {
		return false
	}
	i := 0
	for i < len(next) && isDigit(next[i]) {
		i++
	}
	// (The cut may fall right after the number: the rest then opens
	// with the comma, ", in __init__".)
	return strings.HasPrefix(next[i:], ", in ") && len(next) > i+len(", in ")
}

// opensBracket reports whether s ends inside a bracket it opened: more
// "[" than "]" after its last space-free run began ("reason=[task "). The
// rest of such a line may read as a native line by its tail (CANN's
// "timeout][FUNC:...][FILE:...][LINE:53]"), yet it closes the bracket.
func opensBracket(s string) bool {
	i := strings.LastIndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i:], ']') < 0
}

// closesBracket reports whether s closes a bracket before it opens one.
func closesBracket(s string) bool {
	c := strings.IndexByte(s, ']')
	return c >= 0 && !isIndented(s) && strings.IndexByte(s[:c], '[') < 0
}

// isMarkerRest reports whether next completes a line of CPython's
// traceback print that prev ends with the start of ("...Scheduler hit an
// exception: Traceback (most recent call la" and "st):"): its header or a
// chain separator, cut inside it, or the header whole after a word wrap
// left the line that announces it ending in ": ". The rest is fixed text.
func isMarkerRest(prev, next string) bool {
	if len(next) >= len(sepCause) {
		return false
	}
	if next == tbStart && strings.HasSuffix(prev, ": ") && !isBlank(prev) {
		// A word wrap just before it, after the header that announces
		// it ("Scheduler hit an exception: " and the marker whole).
		return true
	}
	for _, m := range [...]string{tbStart, sepCause, sepContext} {
		if k := len(m) - len(next); k >= 10 && strings.HasSuffix(m, next) && strings.HasSuffix(prev, m[:k]) {
			return true
		}
	}
	return false
}

// minLongToken is the length from which a path, a URL or a quoted name
// that opens a line after one that ends in a space is read as what a word
// wrap moved down (isLongTokenRest).
const minLongToken = 24

// isLongTokenRest reports whether next is the rest of prev, a line a
// word-wrapping tool (fold -s) broke before a token too long for what was
// left of the width ("GET " and "http://10.6.131.5:8998/metadata?...",
// "ImportError: " and "/home/u/.../common_ops.abi3.so: undefined symbol:
// ..."): prev ends in the space the break leaves, next opens with a path
// (relative ones too), a URL, a quoted or bracketed name or the rest of a
// JSON object's members of at least minLongToken bytes, and
// the two are longer than any width a wrap keeps (minWrapWidth). A
// writer's own line seldom ends in a space.
func isLongTokenRest(prev, next string) bool {
	if len(prev) < 2 || prev[len(prev)-1] != ' ' || prev[len(prev)-2] == ' ' || next == "" || isIndented(next) {
		return false
	}
	w := firstWord(next)
	if len(w) < minLongToken || len(prev)+len(w) <= minWrapWidth || strings.IndexByte("/'\"(`", w[0]) < 0 && !strings.Contains(w, "://") && !isRelativePath(w) && !isJSONRest(w) {
		return false
	}
	if isTracebackLine(next) || isFrameLine(next) || isFrameLine(prev) {
		return false
	}
	_, _, ok := parseExceptionAnyQuote(next)
	return !ok
}

// isJSONRest reports whether w, a token with no space, goes on with a
// JSON object's members: it closes a string and opens the next member
// (`range","type":"InternalServerError","param":null,"code":500}`),
// the rest of an error body a word wrap broke inside its message. A token
// that opens an object or an array is a value of its own.
func isJSONRest(w string) bool {
	if w == "" || w[0] == '{' || w[0] == '[' {
		return false // an object or an array of its own
	}
	return strings.Contains(w, "\",\"") || strings.Contains(w, "\":")
}

// isRelativePath reports whether w opens as a relative or a Windows path
// does ("../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333,",
// "./build/x.so", "C:\\Users\\..."): a token no line of its own opens
// with after a line that ends in a space.
func isRelativePath(w string) bool {
	return strings.HasPrefix(w, "../") || strings.HasPrefix(w, "./") ||
		len(w) > 3 && isLetter(w[0]) && w[1] == ':' && (w[2] == '\\' || w[2] == '/')
}

// isSourceRest reports whether next is the rest of prev, a traceback's
// source line (indented under its frame) that a hard wrap cut: in a
// traceback the line after a source line is indented (the next frame, a
// caret line) or is the exception line, never an unindented line of
// anything else. The caller checks prev was at least the wrap's width.
func isSourceRest(prev, next string) bool {
	if !strings.HasPrefix(prev, "    ") || next == "" || isIndented(next) || isFrameLine(prev) ||
		isTracebackLine(next) || isChainSeparator(next) || isFrameLine(next) || IsCaretLine(next) {
		return false
	}
	if strings.HasPrefix(next, "[Previous line repeated") {
		return false
	}
	_, _, ok := parseExceptionAnyQuote(next)
	return !ok
}

// isFuncNameRest reports whether next is the rest of a frame line, prev,
// that a hard wrap cut inside its function's name ("...line 1748, in
// run_scheduler_pro" and "cess") or a word wrap just before it ("...line
// 1748, in " and "run_scheduler_process"): a lone name, not indented,
// that is no statement of its own. A source line under a frame that lost its
// indentation is a statement: a call, an assignment, a keyword, seldom a
// bare name.
func isFuncNameRest(prev, next string) bool {
	if len(prev) < minWrapWidth || next == "" || len(next) > 64 {
		return false
	}
	if !strings.HasSuffix(prev, ", in ") && (!isWordByte(prev[len(prev)-1]) || !isFrameLine(prev)) {
		return false
	}
	if strings.HasSuffix(prev, ", in ") && !isFrameLine(prev+next) {
		return false
	}
	name := strings.TrimPrefix(strings.TrimSuffix(next, ">"), "<") // "<mod" and "ule>", "<module>"
	if !isIdentifier(name) && !(name != "" && isDigit(name[0]) && isIdentifier("_"+name)) {
		return false
	}
	switch name {
	case "pass", "break", "continue", "return", "raise", "yield", "else", "try", "finally", "None", "True", "False":
		return false
	}
	return true
}

// wrapInSpacedPaste reports whether one blank line between prev, the
// first line of a native entry, and next may be a paste's doubled spacing around
// a hard wrap, before the stream's spacing is known (spacedAfter lines):
// a double-spaced paste of a wrapped line puts a blank line inside the
// wrap. Only a line wrapped again at the same width counts (a terminal's
// pieces of one line are as wide as each other), broken inside a word,
// lower-case on both sides ("...thread terminat" and "ed with exception:
// ..."), after a word's apostrophe ("...ProcessGroupNCCL'" and "s watchdog
// got stuck ..."), or inside a number: a blank line after a native line,
// and a line after it of another width, are the log's own.
func (a *Assembler) wrapInSpacedPaste(prev, next string, nextRaw int) bool {
	p := &a.cur
	if p.kind != kindNative || p.blanks != 1 || a.kept.count() != 1 || a.spacing.single >= spacedAfter || prev == "" ||
		nextRaw != p.lastRaw || next == "" {
		return false
	}
	l, n := prev[len(prev)-1], next[0]
	if l == '\'' && len(prev) >= 2 && isWordByte(prev[len(prev)-2]) {
		l = 'a' // the apostrophe is inside the word it ends
	}
	return isLower(l) && isLower(n) || isDigit(l) && isDigit(n)
}

// firstWordLen returns the length of s's first word: up to its first space.
func firstWordLen(s string) int {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return i
	}
	return len(s)
}

// lastToken returns the last token of s, the trailing spaces left out:
// ":" in "aborting with error : ", "error:" in "... failed with error: ".
func lastToken(s string) string {
	s = strings.TrimRight(s, " ")
	return s[strings.LastIndexByte(s, ' ')+1:]
}

// endsInFoldSpace reports whether s ends in the one space a word wrap
// (fold -s) leaves after the last word it kept: a space after a byte that
// is none.
func endsInFoldSpace(s string) bool {
	n := len(s)
	return n >= 2 && s[n-1] == ' ' && s[n-2] != ' ' && s[n-2] != '\t'
}

// isFoldMiddle reports whether next is a middle piece of a line a word
// wrap (fold -s) broke, whose earlier pieces the entry rejoined, at least
// foldWidth long: prev and next each end in the one space the wrap
// leaves, which no writer ends a line of its own in, and next is about
// as long as the wrap's width (a word shorter at most). Such a piece is
// the line's middle whatever it opens with, a native writer's words too
// (a glued "terminate called after throwing ...").
func isFoldMiddle(prev, next string, foldWidth int) bool {
	return foldWidth >= minWrapWidth && endsInFoldSpace(prev) && endsInFoldSpace(next) && !isIndented(next) &&
		len(next) <= foldWidth && len(next)+wrapSlack >= foldWidth
}

// isNativeRest reports whether c, a line read as native only by what it
// carries inside it (a CUDA or HIP error, a kernel's assertion, a CANN
// report), is the rest of prev that a terminal cut inside a token
// ("...compiler_depend.t" and "s:36 NPU function error: ...", "...: bloc"
// and "k: [32,0,0], thread: [63,0,0] Assertion ... failed."): it opens in
// lower case or a digit, not indented, and prev ends in a letter, a digit
// or one of "_." (inside a word, a number or a path). A native line of its
// own opens with its writer's tag, its level or its file's path; a
// compiler's and a located line open with their file's name, in lower
// case too, so theirs are never rests.
func isNativeRest(prev string, c *classified) bool {
	switch c.n.kind {
	case NativeCompiler, NativeLocated, NativeShell, NativeDiagnostic:
		return false
	}
	s := c.s
	if prev == "" || s == "" || !(isLower(s[0]) || isDigit(s[0])) || !c.n.soft && c.n.kind != NativeCUDAAssert {
		return false
	}
	p := prev[len(prev)-1]
	if !(isWordByte(p) || p == '.') || isFrameLine(prev) {
		return false
	}
	// The rest's first token goes on prev's: no path of its own.
	w := firstWord(s)
	return !strings.ContainsRune(w, '/')
}

// isAssertConditionRest reports whether next completes the word
// "condition:" that prev, an assertion line ("Assertion failed: x.cu:131,
// condition: ..."), ends with the start of: the shape's fixed text, cut
// inside it ("..., conditi" and "on: (values[j] & ...) == 0"). A
// lower-case word before a colon opens a writer's line of its own
// elsewhere ("ld: ..."), not this one.
func isAssertConditionRest(prev, next string) bool {
	const word = "condition:"
	i := strings.LastIndex(prev, ", ")
	if i < 0 {
		return false
	}
	head := prev[i+2:]
	if len(head) >= len(word) || !strings.HasPrefix(word, head) {
		return false
	}
	return strings.HasPrefix(next, word[len(head):]+" ")
}

// maxAssertRest bounds the rest isAssertCloseRest reads.
const maxAssertRest = 256

// isAssertCloseRest reports whether next is the end of prev, a device-side
// assertion's line cut inside its condition: prev opened the condition
// ("Assertion `") and does not close it, next closes it and ends the
// line ("\"index out of bounds\"` failed.", its quote a straight one in a
// paste that lost the backtick) and is no assertion line of its own.
func isAssertCloseRest(prev, next string) bool {
	if len(next) > maxAssertRest || strings.HasSuffix(prev, "failed.") || strings.Contains(next, "], thread: [") {
		return false
	}
	i := strings.LastIndex(prev, "Assertion ")
	if i < 0 || len(prev) < i+len("Assertion x") || prev[i+len("Assertion ")] != '`' && prev[i+len("Assertion ")] != '\'' {
		return false
	}
	return strings.HasSuffix(next, "` failed.") || strings.HasSuffix(next, "' failed.")
}

// isCutTracebackHeader reports whether s is the start of a traceback's
// header that a terminal cut ("Traceback (most "), at least its first
// word: on a line as long as a terminal's width, it is that header, whose
// rest the next line holds.
func isCutTracebackHeader(s string) bool {
	return len(s) >= len("Traceback ") && len(s) < len(pyTracebackHeader) && strings.HasPrefix(pyTracebackHeader, s)
}

// isTracebackHeaderRest reports whether next is the end of a record that
// announced a traceback on its own line ("Scheduler hit an exception: "
// and its "Traceback (most recent call last):"), cut by a terminal: next
// is the header behind the one space the break left ("...an exception:"
// and " Traceback (most recent call last):"), or the announcing word's
// tail and the header ("...an ex" and "ception: Traceback (most recent
// call last):"). A traceback's header of its own stands at its line's
// start.
func isTracebackHeaderRest(prev, next string) bool {
	if len(prev) < 2 {
		return false
	}
	if next == " "+pyTracebackHeader {
		return prev[len(prev)-1] == ':'
	}
	head, ok := strings.CutSuffix(next, ": "+pyTracebackHeader)
	if !ok || head == "" || !isLower(head[0]) {
		return false
	}
	// The word's tail, or the words after the space the cut left
	// ("...Scheduler " and "hit an exception: Traceback ...").
	p := prev[len(prev)-1]
	return isLetter(p) && isIdentifier(head) || p == ' ' && isLetter(prev[len(prev)-2])
}

// pyTracebackHeader is the line CPython opens a traceback with.
const pyTracebackHeader = "Traceback (most recent call last):"

// maxLoneWord bounds the lone word isLoneWordRest takes as a word's tail.
const maxLoneWord = 16

// isLoneWordRest reports whether next, one lower-case word alone, is the
// tail of the word an exception's message or an error's text ends prev
// in, cut by a terminal ("...an illegal memory access was e" and
// "ncountered", "...on the devi" and "ce"): prev ends in a word of
// lower-case letters and names an error (an exception line, or a line that says
// "error" or "failed"), and next is at most maxLoneWord letters and may
// close with sentence punctuation. A lone word of its own after an error's
// line ("done") would close the error's sentence first.
func isLoneWordRest(prev, next string) bool {
	if len(next) > maxLoneWord+1 || prev == "" || !isLower(prev[len(prev)-1]) {
		return false
	}
	for _, c := range []byte(lastToken(prev)) {
		if !isLower(c) {
			// A name or a word in capitals ends where it ends
			// ("HeaderTooLarge"): the line is whole.
			return false
		}
	}
	w := strings.TrimRight(next, ".!)")
	if w == "" || len(w) > maxLoneWord {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isLower(w[i]) {
			return false
		}
	}
	if _, _, ok := parseExceptionAnyQuote(prev); ok {
		return true
	}
	return strings.Contains(prev, "error") || strings.Contains(prev, "Error") || strings.Contains(prev, "failed")
}

// callOfCapitals reports whether w, a rest's first word, is a call whose
// name's capitals a cut split ("WorkNC" and "CL(SeqNum=4,"): capitals up to
// an opening parenthesis. A field of a line of its own ("VGPU=...") is
// assigned, not called.
func callOfCapitals(w string) bool {
	i := 0
	for i < len(w) && (isUpper(w[i]) || isDigit(w[i])) {
		i++
	}
	return i > 0 && i < len(w) && w[i] == '('
}

// camelCut reports whether a cut fell inside a camel-case name, tok (prev's
// last token) its start and w (the rest's first word) its end
// ("hcclComm" and "InitRootInfoConfig(numRanks,"): tok is a name of
// letters and digits that opens in lower case and has a capital inside,
// and w goes on as a name does, a capital and lower-case letters with
// another capital or a call's parenthesis after them, no colon (a
// writer's name) and no sentence's end. A capitalised word alone
// ("Loading") opens a sentence of its own after a name that ends a line.
func camelCut(tok, w string) bool {
	if len(tok) < 4 || !isLower(tok[0]) || len(w) < 2 || !isUpper(w[0]) || !isLower(w[1]) || strings.ContainsAny(w, ":.") {
		return false
	}
	k := 1
	for k < len(w) && isLower(w[k]) {
		k++
	}
	if k == len(w) || !isUpper(w[k]) && w[k] != '(' {
		return false
	}
	upper := false
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !isLetter(c) && !isDigit(c) {
			return false
		}
		upper = upper || isUpper(c)
	}
	return upper
}

// isConstantByte reports whether c may be inside a constant's name.
func isConstantByte(c byte) bool { return isUpper(c) || isDigit(c) || c == '_' }

// isConstantName reports whether s is (the rest of) a constant's name, in
// capitals, digits and "_", with a "_" in it: a level word or a writer's
// name ("ERROR", "NOTE") has none.
func isConstantName(s string) bool {
	if s == "" || !strings.Contains(s, "_") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isConstantByte(s[i]) {
			return false
		}
	}
	return true
}

// closesParen reports whether w, the first word of a rest, closes the
// parenthesis prev left open ("(out of" and "memory)").
// isParenRest reports whether next is the rest of prev, a line as long
// as a terminal's width that ends inside a parenthesis it opened (right
// after it, or inside its first token: "... on [::]:38429 (" or "(er"),
// and next closes it: one line of the writer's, its note in parentheses
// cut ("errno: 98 - Address already in use)."). Next is no line of its
// own by shape.
func isParenRest(prev, next string) bool {
	i := strings.LastIndexByte(prev, '(')
	if i < 0 || strings.IndexByte(prev[i:], ')') >= 0 || !argsSpaced(prev[i:]) || next == "" || next[0] == ' ' {
		return false
	}
	c := strings.IndexByte(next, ')')
	return c > 0 && strings.IndexByte(next[:c], '(') < 0 && isColumnBreak(prev, next)
}

// argsSpaced reports whether s, a parenthesis opened and not closed, holds
// a space only after a comma: its first token, or a C++ signature's
// argument types ("(ibv_context*, ibv_async_e", gdb's frame of a native
// function cut inside its signature).
func argsSpaced(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] == ' ' && s[i-1] != ',' {
			return false
		}
	}
	return true
}

// isParenSpaceRest reports whether next is the rest of prev that a cut
// just before a space moved to a line of its own, inside a parenthesis
// prev opened: next opens with that one space and a word, and
// its first words close the parenthesis ("...2 Workers (tasks /" and "
// actors) killed due to memory pressure (OOM), ..."; "...0 Workers crashed
// (see" and " below) ..."). No line of its own opens with one space and
// closes what it never opened, whatever the two lines' lengths (a
// collector's prefix, or a placeholder a paste put into prev after the
// cut, makes them disagree with the width). prev is no frame line and
// next no traceback or exception line. The shape is told across one blank
// line at a stream's start, before a double-spaced paste is (spacing).
func isParenSpaceRest(prev, next string) bool {
	return len(next) >= 3 && next[0] == ' ' && isParenRestAfterSpace(prev, next[1:])
}

// isParenRestAfterSpace is isParenSpaceRest of rest, next without its
// leading space: a prefix that takes the one space after it ("[rank0]: ")
// took the space the cut left.
func isParenRestAfterSpace(prev, rest string) bool {
	if len(prev) < minParenPrev || len(rest) < 2 || !isLetter(rest[0]) && !isDigit(rest[0]) || !parenGoesOn(prev, rest) {
		return false
	}
	if isFrameLine(prev) || isFrameLine(rest) || isTracebackLine(rest) || isWarningLine(rest) {
		return false
	}
	_, _, ok := parseExceptionAnyQuote(rest)
	return !ok
}

// minParenPrev bounds the line isParenSpaceRest rejoins a rest to: a
// line a cut broke holds a record's header and words before the
// parenthesis.
const minParenPrev = 40

// maxLocationRest bounds the line isLocationRest reads.
const maxLocationRest = 512

// isLocationRest reports whether next is the rest of prev that a hand wrap
// moved to a line of its own: a source file's path and line alone in
// parentheses, with the colon the message goes on after
// ("(/deepgemm/csrc/utils/layout.hpp:57):"), which no writer prints as a
// line of its own, after a line that ends in a word (a check's "Assertion
// error", a "failed") rather than in punctuation that ends a line.
func isLocationRest(prev, next string) bool {
	if len(next) < 6 || len(next) > maxLocationRest || next[0] != '(' || prev == "" || !isWordByte(prev[len(prev)-1]) {
		return false
	}
	t := strings.TrimSuffix(next, ":")
	if t[len(t)-1] != ')' {
		return false
	}
	loc := t[1 : len(t)-1]
	return strings.IndexAny(loc, " \t()") < 0 && isSourceLocation(loc)
}

// isCutLocationRest is isLocationRest for a location's line a terminal
// cut again (a hand wrap's rest, then a terminal's cut): next, shown
// bytes long as a terminal's default width, opens with "(" and a path of
// two directories or more and holds no space and no ")" yet
// ("(/deepgemm/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:5"
// and, on the next line, "7):"), after a line that ends in a word.
func isCutLocationRest(prev, next string, shown int) bool {
	if len(next) < 6 || len(next) > maxLocationRest || next[0] != '(' || prev == "" || !isWordByte(prev[len(prev)-1]) || !isTerminalWidth(shown) {
		return false
	}
	t := next[1:]
	return strings.IndexAny(t, " \t()") < 0 && strings.Count(t, "/") >= 2 && (t[0] == '/' || t[0] == '.' || isWordByte(t[0]))
}

func closesParen(prev, w string) bool {
	i := strings.LastIndexByte(prev, '(')
	return i >= 0 && strings.IndexByte(prev[i:], ')') < 0 && strings.HasSuffix(w, ")") && strings.IndexByte(w, '(') < 0
}

// isFaultFrameRest reports whether next is the rest of prev, a frame line
// of faulthandler's dump (`  File "x.py", line 12 in fn`, no comma before
// "in") that a terminal cut: prev is indented as the dump indents its
// frames, next is not (or by the one space a cut before " in" leaves),
// and the two read as one frame where prev alone is none ("...line 218"
// and "3 in watchdog_thread", "...fp8_kernel.p" and "y\", line 499 in
// f"). When prev alone reads as a frame, the cut fell inside its
// function's name: prev is as long as a terminal's width and next is one
// token of a name ("...line 829 in __ca" and "ll__").
func isFaultFrameRest(prev, next string, prevRaw int) bool {
	t := strings.TrimLeft(prev, " \t")
	if len(t) == len(prev) || !strings.HasPrefix(t, `File "`) || next == "" || next[0] == '\t' ||
		next[0] == ' ' && (len(next) < 2 || next[1] == ' ') {
		return false
	}
	if !isFaultFrame(t + next) {
		return false
	}
	if !isFaultFrame(t) {
		return true
	}
	if prevRaw < minWrapWidth {
		return false
	}
	for i := 0; i < len(next); i++ {
		if c := next[i]; !isWordByte(c) && c != '.' && c != '<' && c != '>' {
			return false
		}
	}
	return true
}

// isFaultFrame reports whether t (trimmed) is a frame line of
// faulthandler's dump: `File "<path>", line <n> in <name>`.
func isFaultFrame(t string) bool {
	r, ok := strings.CutPrefix(t, `File "`)
	if !ok {
		return false
	}
	q := strings.Index(r, `", line `)
	if q <= 0 {
		return false
	}
	r = r[q+len(`", line `):]
	j := 0
	for j < len(r) && isDigit(r[j]) {
		j++
	}
	if j == 0 {
		return false
	}
	name, ok := strings.CutPrefix(r[j:], " in ")
	return ok && name != "" && strings.IndexByte(name, ' ') < 0
}

// spansQuote reports whether a quote or a backtick left unpaired in prev
// is closed by one left unpaired in next: a quoted string or inline code
// that a cut split.
// isSpanRest reports whether next closes inline code that was opened
// before prev (prev holds no backtick, or pairs of them, and next as
// pushed, raw, an odd number: the closing one may have gone with the
// wrappers) and the cut between them falls inside a token.
func isSpanRest(prev, next, raw string) bool {
	if prev == "" || next == "" || !isWordByte(prev[len(prev)-1]) || !isWordByte(next[0]) {
		return false
	}
	return strings.Count(prev, "`")%2 == 0 && strings.Count(raw, "`")%2 == 1
}

func spansQuote(prev, next string) bool {
	for _, q := range [...]string{`"`, "`"} {
		if strings.Count(prev, q)%2 == 1 && strings.Count(next, q)%2 == 1 {
			return true
		}
	}
	return false
}

// maxHandIndent bounds the indentation of a hand wrap's rest
// (isHandWrapRest).
const maxHandIndent = 4

// isHandWrapRest reports whether next is the rest of prev, an exception
// line, that a person wrapped by hand when quoting it: prev stops inside
// its sentence (no full stop, colon, question or exclamation mark at its
// end: Python prints a message that announces lines after it with a
// colon), and next, indented by one to maxHandIndent spaces, goes on with
// a lower-case word, a quoted or bracketed item or a flag ("supported
// architectures are [...]", "'Qwen3MoeForCausalLM']. Other ...",
// "--moe-a2a-backend deepep."); never a traceback's line, a frame or a
// source line of one (a quoted line of code opens with a name and a
// bracket or a dot).
func isHandWrapRest(prev, next string) bool {
	if prev == "" || isWarningLine(prev) {
		return false
	}
	switch prev[len(prev)-1] {
	case '.', ':', '!', '?', ' ', '\t':
		return false
	}
	i := 0
	for i < len(next) && next[i] == ' ' {
		i++
	}
	if i == 0 || i > maxHandIndent || i == len(next) {
		return false
	}
	t := next[i:]
	switch c := t[0]; {
	case isLower(c):
		w := t[:firstWordLen(t)]
		if strings.ContainsAny(strings.TrimRight(w, ".,;:"), "(.=[_") || strings.HasPrefix(t[len(w):], " = ") || strings.HasPrefix(t[len(w):], " += ") {
			return false // source code: a call, an attribute, an assignment
		}
	case c == '\'' || c == '"' || c == '[' || c == '(' || c == '-' && strings.HasPrefix(t, "--"):
	default:
		return false
	}
	return !isTracebackLine(t) && !isFrameLine(next)
}

// maxStatusName bounds a runtime's status name (isStatusName).
const maxStatusName = 64

// isStatusName reports whether s is the name a GPU or accelerator
// runtime gives a status: upper-case words joined by underscores, three
// or more, one of them saying it failed ("HSA_STATUS_ERROR_EXCEPTION",
// "CUDA_ERROR_ILLEGAL_ADDRESS", "CUBLAS_STATUS_EXECUTION_FAILED",
// "ACL_ERROR_RT_AICORE_EXCEPTION", "VK_ERROR_DEVICE_LOST").
func isStatusName(s string) bool {
	if len(s) < len("A_B_ERROR") || len(s) > maxStatusName || !isUpper(s[0]) {
		return false
	}
	words, failed := 0, false
	for w := range strings.SplitSeq(s, "_") {
		if w == "" {
			return false
		}
		for i := 0; i < len(w); i++ {
			if !isUpper(w[i]) && !isDigit(w[i]) {
				return false
			}
		}
		words++
		switch w {
		case "ERROR", "STATUS", "FAILED", "FAILURE", "EXCEPTION", "FAIL":
			failed = true
		}
	}
	return words >= 3 && failed
}

// isStatusRest reports whether next is the rest of prev, a runtime's
// status line a person split: prev is the status name and its colon
// alone and next its text (a sentence, not another status, exception or
// indented line), or prev is the status with its text and next the code
// the runtime prints after it ("code: 0x1016").
func isStatusRest(prev, next string) bool {
	if next == "" || isIndented(next) {
		return false
	}
	name, text, ok := strings.Cut(prev, ":")
	if !ok || !isStatusName(name) {
		return false
	}
	if strings.TrimSpace(text) == "" {
		n, _, _ := strings.Cut(next, ":")
		_, _, exc := parseExceptionAnyQuote(next)
		return !isStatusName(n) && !exc && (isUpper(next[0]) || isLower(next[0]))
	}
	code, ok := strings.CutPrefix(next, "code: ")
	if !ok || code == "" {
		return false
	}
	code = strings.TrimPrefix(code, "0x")
	for i := 0; i < len(code); i++ {
		if !isHexDigit(code[i]) {
			return false
		}
	}
	return code != ""
}

// tok0 returns the last token of s, its spaces on the right included in
// none: what a cut before a space leaves at the end of a line.
func tok0(s string) string {
	return s[strings.LastIndexByte(s, ' ')+1:]
}

// minFoldPiece is the shortest piece isFoldFitRest reads as a word
// wrap's: a shorter one was cut before a token longer than half the
// width, a path or a URL, which isLongTokenRest reads.
const minFoldPiece = 40

// isFoldFitRest reports whether next, shown bytes long, is the rest of
// prev, a piece prevRaw bytes long that a word wrap (fold -s, an editor)
// ended in the one space it leaves before the word that would have
// crossed its width: a width W, a terminal's default (terminalWidths) or
// the one the entry's earlier pieces showed (foldWidth), that prev is
// shorter than and that prev and next's first word reach, with next no
// longer than W (every piece of a wrapped line fits it) and W no
// narrower than the longest piece before ("...Internal error: plugin node " and
// "LLaMAForCausalLM/layers/0/attention/PLUGIN_V2_GPTAttention_0 requires
// ...", "...ret=1 " and "[BatchGet] AICPU launch failed, code: 1"). The
// rest opens with a word that holds a letter or a digit (a table's
// border, a rule of "=" is a layout's line) and no JSON object or array,
// and is no line of its own by shape (isColumnBreak); prev is no caret
// line.
func isFoldFitRest(prev, next string, prevRaw, shown, foldWidth int) bool {
	if prevRaw < minFoldPiece || !endsInFoldSpace(prev) || next == "" || isIndented(next) || IsCaretLine(prev) {
		return false
	}
	w := firstWord(next)
	if !hasAlnum(w) || w[0] == '{' || len(w) > 1 && w[0] == '[' && strings.IndexByte("\"{[", w[1]) >= 0 {
		// (A JSON object or array opens a value of its own, as in
		// isJSONRest.)
		return false
	}
	reach := prevRaw + len(w)
	fits := func(width int) bool {
		return width >= minWrapWidth && prevRaw < width && width <= reach && shown <= width && foldWidth <= width
	}
	ok := fits(foldWidth)
	for _, width := range terminalWidths {
		ok = ok || fits(width)
	}
	return ok && isColumnBreak(prev, next)
}

// isLocationColonRest reports whether next goes on with last, a line of a
// record whose header repeats on every line (Ray core's) that holds only
// the location the record's text ends with (record, see engineFields),
// cut by a terminal just before its colon: next opens with that colon
// and the message's space ("...140771] logging.cc:361" and ":     @
// 0x7f6d660dd070  (unknown)  (unknown)").
func isLocationColonRest(record, last, next string) bool {
	return len(next) > 1 && next[0] == ':' && next[1] == ' ' && last != "" && strings.IndexByte(last, ' ') < 0 &&
		strings.HasSuffix(record, "] "+last) && isSourceLocation(last)
}

// isC10Line reports whether s opens one of the lines c10 prints under an
// error's message, each its own ("Exception raised from ... (most recent
// call first):", "frame #0: c10::Error::Error(...) + 0x96 (...)"): never
// the rest of the line before it, which a paste may leave without the
// "Exception raised from" line between ("...was encountered" and "frame
// #0: ...").
func isC10Line(s string) bool {
	if s == "" || s[0] != 'f' && s[0] != 'E' {
		return false
	}
	if t, ok := strings.CutPrefix(s, "frame #"); ok {
		n := 0
		for n < len(t) && isDigit(t[n]) {
			n++
		}
		return n > 0 && n < len(t) && t[n] == ':'
	}
	return strings.HasPrefix(s, "Exception raised from ")
}

// isMessageRest reports whether c, a line at the first column, is the rest
// of prev, an exception line whose message a terminal or a paste broke at
// a space: prev is an exception line (as printed or quoted) that stops
// inside its sentence (no full stop, colon, question or exclamation mark,
// and no validation error's head, whose field lines follow unindented),
// and the line goes on with words, not a line of its own: two words or
// more, opening with a lower-case word that is no code (a call, an
// attribute, an assignment), no program's label ("srun: ...") and no
// field name, or with a quote or a parenthesis ("'peer access is not
// supported between these two devices'"); never a log line, a traceback's
// line, a warning's or an exception line.
func isMessageRest(prev string, c *classified) bool {
	s := c.s
	if prev == "" || s == "" || c.native || isIndented(s) || strings.IndexByte(s, ' ') < 0 || isC10Line(s) {
		return false
	}
	switch prev[len(prev)-1] {
	case '.', ':', '!', '?', ' ', '\t', ',', ';':
		return false
	}
	switch c := s[0]; {
	case isLower(c):
		// A lower-case word opens another writer's prose as well
		// ("worker 0 exited"): only where prev cannot end, inside a
		// quote or bracket it opened, or after a word no sentence ends
		// in.
		w := s[:firstWordLen(s)]
		if strings.ContainsAny(w, "(.=[_:/<>") || strings.HasPrefix(s[len(w):], " = ") || strings.HasPrefix(s[len(w):], " += ") {
			return false
		}
		if !opensUnclosed(prev) && !endsInFunctionWord(prev) {
			return false
		}
	case c == '\'' || c == '"' || c == '(':
	default:
		return false
	}
	if textClass(s) != lcOther || isWarningLine(s) || isTracebackLine(s) || isValidationHead(prev) {
		return false
	}
	if _, _, ok := parseExceptionAnyQuote(s); ok {
		return false
	}
	_, _, ok := parseExceptionAnyQuote(strings.TrimLeft(prev, " \t"))
	return ok
}

// functionWords are words no sentence ends in: a message that stops at
// one was cut.
var functionWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "on": true, "at": true, "for": true,
	"with": true, "from": true, "by": true, "and": true, "or": true, "is": true, "are": true, "was": true,
	"were": true, "be": true, "not": true, "than": true, "that": true, "which": true, "when": true,
	"while": true, "as": true, "into": true, "between": true, "because": true, "but": true,
}

// endsInFunctionWord reports whether s ends in one of functionWords.
func endsInFunctionWord(s string) bool {
	i := strings.LastIndexByte(s, ' ')
	return i >= 0 && functionWords[s[i+1:]]
}

// opensUnclosed reports whether s leaves a quote or a parenthesis open at
// its end: an odd number of single or double quotes (an apostrophe inside
// a word aside), or more "(" than ")".
func opensUnclosed(s string) bool {
	q, d, paren := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			if i == 0 || i+1 == len(s) || !(isLetter(s[i-1]) && isLetter(s[i+1])) {
				q++
			}
		case '"':
			d++
		case '(':
			paren++
		case ')':
			paren--
		}
	}
	return q%2 == 1 || d%2 == 1 || paren > 0
}

// spacedRest reports whether a rest may follow the pending entry's last
// line across the blank lines read since: none that count (a
// double-spaced paste's), or one before the stream has shown enough
// lines to tell a double-spaced paste (spacedAfter), for the rests whose
// shape no writer opens a line of its own with.
func (a *Assembler) spacedRest() bool {
	p := &a.cur
	return a.spacing.real(p.blanks) == 0 || p.blanks == 1 && a.spacing.seen <= spacedAfter
}
