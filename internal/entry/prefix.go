package entry

import (
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Bounds of prefix learning.
const (
	// maxLearnedPrefix bounds the length of a learnable prefix; longer
	// text in front of a traceback line is content, not plumbing.
	maxLearnedPrefix = 96
	// maxLearnedShapes bounds the shapes one Assembler keeps. When it is
	// full the oldest is forgotten.
	maxLearnedShapes = 4
	// evidenceWindow is how many lines apart two pieces of evidence for
	// one shape may be.
	evidenceWindow = 16
	// maxCandidates bounds the shapes seen once and waiting for a second
	// piece of evidence.
	maxCandidates = 4
)

// Shape classes. A prefix's shape keeps its bytes, except that a run of
// digits (and a "0x..." hexadecimal number) becomes shapeDigits and a level
// word becomes shapeLevel: timestamps, pids, line numbers and levels change
// from line to line, the rest of a collector's prefix does not. Control
// bytes never occur in a learnable prefix, so they can stand for classes.
const (
	shapeDigits = 0x01
	shapeLevel  = 0x02
	// shapeLabel is a number that opens the prefix and a colon follows,
	// right-aligned by up to maxLabelPad spaces: a launcher pads its task
	// labels to one width (srun --label's " 3: " and "12: "), so the
	// labels of one stream are one shape whatever their digits.
	shapeLabel = 0x03
)

// maxLabelPad bounds the spaces before a right-aligned label (shapeLabel).
const maxLabelPad = 4

// labelAt returns the length of a right-aligned number at the start of p
// that a colon follows (shapeLabel), or a viewer's line number
// (lineGutterLen) without what closes it, or 0.
func labelAt(p string) int {
	i := 0
	for i < len(p) && i < maxGutterPad && p[i] == ' ' {
		i++
	}
	j := i
	for j < len(p) && isDigit(p[j]) {
		j++
	}
	switch {
	case j == i || j >= len(p):
		return 0
	case p[j] == ':' && i <= maxLabelPad:
		return j
	case p[j] == '\t' || p[j] == ' ' && i > 0 && j >= minSpacedGutter:
		return j
	}
	return 0
}

// prefixLearner finds a per-line prefix that a collector, CI system or
// wrapping logger put in front of every line of a stream, from the lines
// where the prefix stands in front of something only Python itself prints
// at the start of a line. Its state is bounded: a few learned shapes and a
// few candidates, each at most maxLearnedPrefix bytes.
type prefixLearner struct {
	shapes  [maxLearnedShapes][]byte // learned, oldest first
	nShapes int

	cands  [maxCandidates]candidate
	nCands int
	next   int // candidate slot to overwrite when full

	scratch [maxLearnedPrefix]byte
}

// candidate is a shape seen once.
type candidate struct {
	shape  [maxLearnedPrefix]byte
	n      int
	line   int64
	strong bool
	family bool // the evidence was a prefix family's
	plen   int  // length of the prefix on that line
}

// Evidence strength of what follows a candidate prefix.
const (
	evidenceNone = iota
	evidenceWeak
	// evidenceFamily: a prefix family (prefixfamily.go) starts the line.
	// Two consecutive lines of one shape teach it.
	evidenceFamily
	evidenceStrong
)

// learned reports whether any shape is learned.
func (pl *prefixLearner) learned() bool { return pl.nShapes > 0 }

// match returns the length of the learned prefix that s starts with, or 0.
func (pl *prefixLearner) match(s string) int {
	n, _ := pl.matchExcept(s, -1)
	return n
}

// matchExcept is match with the index of the shape that matched, the
// shape at index skip left out.
func (pl *prefixLearner) matchExcept(s string, skip int) (int, int) {
	for i := pl.nShapes - 1; i >= 0; i-- {
		if i == skip {
			continue
		}
		sh := pl.shapes[i]
		if n := matchShape(s, sh); n > 0 {
			return n, i
		}
		if k := len(sh); k > 1 && sh[k-1] == ' ' && sh[k-2] == ':' {
			// A shape learnt with the space after a tag's colon
			// ("[1,3]<stderr>: " from indented frame lines, whose
			// indentation gave it) also fits a line that has none: the
			// tag alone on a blank line, or "[1,3]<stderr>:Thread ...".
			if n := matchShape(s, sh[:k-1]); n > 0 && (n == len(s) || s[n] != ' ') {
				return n, i
			}
		}
	}
	return 0, -1
}

// lineMatch returns the length of the learned prefix a line's text s
// starts with (the padding a terminal put after a relay's line, cut off
// by a hard wrap, in front of one too; never an sglang record's own
// header), 0 for none, and where another line glued behind it is
// (gluedAt: end, next and its prefix's length, or zeros).
func (pl *prefixLearner) lineMatch(s string) (learned, end, next, plen int) {
	learned = pl.match(s)
	if learned == 0 && s[0] == ' ' {
		learned = pl.paddedPrefix(s)
	}
	if learned == 0 || isSGLangRecord(s) {
		return 0, 0, 0, 0
	}
	end, next, plen = pl.gluedAt(s[learned:], s[:learned])
	return learned, end, next, plen
}

// matchNested is match, and a learned prefix behind the first one (a
// relay's behind a launcher's) when text follows it.
func (pl *prefixLearner) matchNested(s string) int {
	n, i := pl.matchExcept(s, -1)
	if n == 0 {
		return 0
	}
	if k, _ := pl.matchExcept(s[n:], i); k > 0 && !isBlank(s[n+k:]) {
		n += k
	}
	return n
}

// observe looks for evidence of a prefix on s, the non-blank line number
// line of the stream that no learned prefix matched, and learns the
// prefix's shape when it is the second piece of evidence for it, at least
// one of the two strong. It returns whether it learned one and, if so, the
// line number and prefix length of the first piece. record says s is
// known to be an sglang record (isSGLangRecord), which findPrefix finds no
// prefix on: most lines that get here, uvicorn's access lines, are one,
// and it is told by a few bytes where findPrefix searches the line.
func (pl *prefixLearner) observe(s string, line int64, record bool) (learned bool, firstLine int64, firstLen int) {
	plen, strength := 0, evidenceNone
	if !record {
		plen, strength = findPrefix(s)
	}
	if strength == evidenceNone {
		// A strict exception line is weak evidence too, but only behind
		// a candidate's shape: it is too common to look for anywhere.
		for i := 0; i < pl.nCands; i++ {
			c := &pl.cands[i]
			if n := matchShape(s, c.shape[:c.n]); n > 0 && n <= maxLearnedPrefix && weakEvidence(s[n:], c.strong && c.line == line-1) && isLearnablePrefix(s[:n]) {
				plen, strength = n, evidenceWeak
				break
			}
		}
		if strength == evidenceNone {
			return false, 0, 0
		}
	}
	if strength == evidenceFamily {
		// A candidate's shape that the line starts with is the same
		// prefix: "1813:" in front of an indented line is grep's, not a
		// task label "1813: ".
		for i := 0; i < pl.nCands; i++ {
			c := &pl.cands[i]
			if n := matchShape(s, c.shape[:c.n]); n > 0 && n != plen && isLearnablePrefix(s[:n]) && !isBlank(s[n:]) {
				plen = n
				break
			}
		}
	} else if f := familyPrefixLen(s); f > 0 && f < plen {
		for i := 0; i < pl.nCands; i++ {
			// The line right before opened with the same family
			// label: the label is on every line, and the line before
			// (a record's first, "     1\t(Worker pid=865) ERROR ...
			// NIXL transfer failure: ...") is read again without it,
			// as two labelled lines in a row teach it.
			c := &pl.cands[i]
			if !c.family || c.line != line-1 || c.plen != f || matchShape(s, c.shape[:c.n]) != f {
				continue
			}
			var buf [maxLearnedPrefix]byte
			if k := shapeOf(buf[:0], s[:f]); k > 0 && !pl.has(buf[:k]) && isLearnablePrefix(s[:f]) {
				pl.learn(buf[:k])
				first, flen := c.line, c.plen
				pl.removeCandidate(i)
				return true, first, flen
			}
		}
		// Strong evidence behind a longer prefix that opens with a
		// family's label a candidate has the shape of: the label is
		// the prefix, what follows it the line's own layout (a
		// console's blank time column and level: "3:            ERROR
		// msg" after "3: [05:39:59] ERROR msg").
		for i := 0; i < pl.nCands; i++ {
			c := &pl.cands[i]
			if c.family || c.plen == 0 {
				continue
			}
			if n := matchShape(s, c.shape[:c.n]); n > 0 && n <= f {
				plen = n
				break
			}
		}
	}
	plen = unknownPrefixLen(s, plen)
	n := shapeOf(pl.scratch[:0], s[:plen])
	if n == 0 {
		return false, 0, 0
	}
	shape := pl.scratch[:n]
	for i := 0; i < pl.nCands; i++ {
		c := &pl.cands[i]
		if c.n != n || string(c.shape[:n]) != string(shape) {
			continue
		}
		if pl.has(shape) {
			// Learned since it was seen (a failure line behind it
			// taught it, adopt): the first line was read without it.
			pl.removeCandidate(i)
			return false, 0, 0
		}
		if line-c.line <= evidenceWindow && (c.strong || strength == evidenceStrong) ||
			c.family && strength == evidenceFamily && c.line == line-1 {
			if f := familyPrefixLen(s); f > 0 && f < plen {
				// A launcher's label in front of a relay's prefix
				// ("3: " before "... | ERROR | stderr | "): the label
				// is on every physical line, the relay's only on the
				// lines it wrote, not on the rest of a line a terminal
				// wrapped. The label alone is learned too, before the
				// whole so that the whole is tried first.
				var buf [maxLearnedPrefix]byte
				if k := shapeOf(buf[:0], s[:f]); k > 0 {
					pl.learn(buf[:k])
				}
			}
			pl.learn(shape)
			first, flen := c.line, c.plen
			pl.removeCandidate(i)
			return true, first, flen
		}
		c.line, c.strong, c.family, c.plen = line, strength == evidenceStrong, strength == evidenceFamily, plen
		return false, 0, 0
	}
	c := &pl.cands[pl.next]
	if pl.nCands < maxCandidates {
		c = &pl.cands[pl.nCands]
		pl.nCands++
	} else {
		pl.next = (pl.next + 1) % maxCandidates
	}
	copy(c.shape[:], shape)
	c.n, c.line, c.strong, c.family, c.plen = n, line, strength == evidenceStrong, strength == evidenceFamily, plen
	return false, 0, 0
}

// Bounds of glued lines (gluedAt).
const (
	// minGluedPrefix is the shortest learned prefix gluedAt looks for
	// inside a line: a short one ("3: ") is as likely a message's text.
	minGluedPrefix = 8
	// maxGluedLines bounds the lines read out of one glued line.
	maxGluedLines = 8
)

// gluedAt looks in s, a line's text after its learned prefix own, for
// another line glued behind it: a run of spaces, then a prefix of at least
// minGluedPrefix bytes, then more text. The prefix is a learned one, or
// the shape of own from one of its fields on (a launcher's label that
// stands on each physical line only, in front of a relay's prefix that
// every line the relay wrote carries). A terminal that pads every row to
// its width with spaces, copied, loses the break between a padded row and
// the next one. It returns where the first line's text ends (its padding
// off), where the next line starts and the length of its prefix, or 0, 0,
// 0.
func (pl *prefixLearner) gluedAt(s, own string) (end, next, plen int) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++ // the line's own indentation
	}
	for i < len(s) {
		j := strings.Index(s[i:], "  ")
		if j < 0 {
			return 0, 0, 0
		}
		end = i + j
		k := end + 2
		for k < len(s) && s[k] == ' ' {
			k++
		}
		if n := pl.gluedPrefix(s[k:], own); n > 0 {
			return end, k, n
		}
		i = k
	}
	return 0, 0, 0
}

// paddedPrefix returns the length of the spaces and the learned prefix of
// at least minGluedPrefix bytes behind them that s starts with, when text
// follows; or 0. A terminal that pads its rows with spaces, hard-wrapped,
// puts the padding of one line in front of the next: the row then starts
// with spaces and the prefix, as a glued line holds them (gluedAt).
func (pl *prefixLearner) paddedPrefix(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i < 2 || i == len(s) {
		return 0
	}
	if n := pl.matchNested(s[i:]); n >= minGluedPrefix && !isBlank(s[i+n:]) {
		return i + n
	}
	return 0
}

// gluedPrefix returns the length of the prefix gluedAt wants at the start
// of s, or 0.
func (pl *prefixLearner) gluedPrefix(s, own string) int {
	if n := pl.matchNested(s); n >= minGluedPrefix && !isBlank(s[n:]) {
		return n
	}
	var buf [maxLearnedPrefix]byte
	for b := 1; len(own)-b >= minGluedPrefix; b++ {
		if !endsPrefixField(own[b-1]) || own[b] == ' ' {
			continue
		}
		if k := shapeOf(buf[:0], own[b:]); k > 0 {
			if n := matchShape(s, buf[:k]); n > 0 && !isBlank(s[n:]) {
				return n
			}
		}
	}
	return 0
}

// adopt learns the shape of the prefix p found in front of a failure line
// on its own (failureBehindPrefix), unless a learned shape covers it.
func (pl *prefixLearner) adopt(p string) {
	if pl.match(p) == len(p) || !isLearnablePrefix(p) {
		return
	}
	if n := shapeOf(pl.scratch[:0], p); n > 0 {
		pl.learn(pl.scratch[:n])
	}
}

// has reports whether shape is learned.
func (pl *prefixLearner) has(shape []byte) bool {
	for i := 0; i < pl.nShapes; i++ {
		if string(pl.shapes[i]) == string(shape) {
			return true
		}
	}
	return false
}

// learn keeps a copy of shape, forgetting the oldest when full.
func (pl *prefixLearner) learn(shape []byte) {
	if pl.nShapes == maxLearnedShapes {
		copy(pl.shapes[:], pl.shapes[1:])
		pl.nShapes--
	}
	pl.shapes[pl.nShapes] = append([]byte(nil), shape...)
	pl.nShapes++
}

func (pl *prefixLearner) removeCandidate(i int) {
	pl.cands[i] = pl.cands[pl.nCands-1]
	pl.nCands--
	if pl.next >= pl.nCands {
		pl.next = 0
	}
}

// glogAt returns where a glog record's header ("E0521 16:22:21.694042
// 162 transfer_metadata.cpp:877] ", the transfer engines' native lines)
// begins after a prefix field within maxLearnedPrefix bytes of s, or 0.
func glogAt(s string) int {
	// The header's clock has a colon 8 bytes after its start: look at the
	// colons, which are few, rather than at every byte.
	const colon = len("E0521 16")
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], ':')
		if j < 0 {
			return 0
		}
		i += j
		k := i - colon
		if k > maxLearnedPrefix {
			return 0
		}
		if k >= 1 && endsPrefixField(s[k-1]) && glogLevel(s[k]) != "" && isDigit(s[k+1]) {
			if _, ok := parseGlog(s[k:], time.Time{}, time.UTC); ok {
				return k
			}
		}
		i++
	}
	return 0
}

// maxLinePrefix bounds the prefix failureBehindPrefix looks behind: past
// it, what stands before a failure line is as likely an exception's own
// message ("RuntimeError('call aclnnX failed, detail:E89999: ...')", "the
// worker of job 7 raised KeyError") as a stack of collectors' fields.
const maxLinePrefix = 48

// failureBehindPrefix returns the length of a prefix no rule knows in
// front of a failure line, or 0: a strict exception line or a native error
// line that begins after a prefix field, within maxLinePrefix bytes, behind
// a prefix that holds a number (a time, a line number, a rank, a pid: what
// collectors put there) and no level word below ERROR; a Rust panic's first
// line also behind a tag without a number ("[SGLang LOG] "). It reads one
// line on its own, for the lines a prefix cannot be learned from: a bare exception
// line or a single native error is often all a paste or a grep holds.
func failureBehindPrefix(s string, ref time.Time, loc *time.Location) int {
	if s == "" || s[0] == '\t' || s[0] == ' ' && !paddedLabel(s) && lineGutterLen(s) == 0 {
		return 0 // an indented line continues something
	}
	if _, _, ok := parseExceptionAnyQuote(s); ok {
		return 0 // an exception line whose message holds numbers
	}
	if n := familyPrefixLen(s); n > 0 {
		// A family's label, then wrappers stacked behind it (a CI
		// runner's stamp, a build step's number) longer than the bytes
		// a prefix is looked for in: the failure line after them.
		if m := n + wrapperPrefixesLen(s[n:]); m > maxLinePrefix && m <= maxLearnedPrefix && m < len(s) && failureLine(s[m:], ref, loc) {
			if quietLevelIn(s[:m]) {
				return 0
			}
			return m
		}
	}
	end := min(len(s)-1, maxLinePrefix)
	// A Rust panic's first line is printed by the panic hook alone at the
	// start of a line, never inside a message: behind any field, a
	// bracketed tag without a number too ("[SGLang LOG] ", "[router] "),
	// it is the start of the panic.
	panicAt := -1
	if head := s[:min(len(s), maxLinePrefix+len("thread '"))]; strings.Contains(head[1:], "thread '") {
		// One search on most lines, which hold no "thread '" (the two
		// panicHeadAt looks for stand after the line's first byte).
		panicAt = panicHeadAt(head)
	}
	digit := false
	for k := 1; k <= end; k++ {
		c := s[k-1]
		if isDigit(c) {
			digit = true
		}
		if !endsPrefixField(c) || !isWordByte(s[k]) && s[k] != '[' && s[k] != '/' && !strings.HasPrefix(s[k:], "./") {
			// (A relative path opens a failure line too: a shell's
			// report of a script's killed command, "./entrypoint.sh:
			// line 28:     7 Killed ...".)
			continue
		}
		if !digit {
			// Without a number, only in front of a panic, and not after
			// a word of prose ("the thread 'main' panicked at ...").
			if k != panicAt || !isLearnablePrefix(s[:k]) || c == ' ' && k >= 2 && isLower(s[k-2]) {
				continue
			}
			if _, ok := panicState(s[k:]); !ok {
				continue
			}
		}
		if failureLine(s[k:], ref, loc) {
			// The first failure found: a quiet level in front of it would
			// be in front of any later one too.
			if quietLevelIn(s[:k]) {
				return 0
			}
			return k
		}
	}
	return 0
}

// maxPaddedLabel bounds the width of a task label padded by spaces that a
// failure line is read behind (failureBehindPrefix): srun --label pads the
// task numbers of up to 999 tasks to three columns (" 3: ", " 42: ").
const maxPaddedLabel = 3

// paddedLabel reports whether s, a line that opens with a space, opens with
// a task label padded to at most maxPaddedLabel columns.
func paddedLabel(s string) bool {
	n := rankLabelLen(s)
	return n > 0 && n-len(": ") <= maxPaddedLabel
}

// panicHeadAt returns where "thread '" starts in s after its first byte,
// or -1: the one place failureBehindPrefix reads a panic's first line
// behind a prefix without a number.
func panicHeadAt(s string) int {
	if i := strings.Index(s, " thread '"); i >= 0 {
		return i + 1
	}
	if i := strings.Index(s, "]thread '"); i >= 0 {
		return i + 1
	}
	return -1
}

// failureLine reports whether s is a strict exception line, a native
// error line (a program's diagnostic among them) or a record without a
// level whose message says a step failed (summaryRecord).
func failureLine(s string, ref time.Time, loc *time.Location) bool {
	if _, _, ok := parseBareException(s); ok {
		return true
	}
	if n, ok := parseNative(s, ref, loc); ok {
		return normLevel(n.level) == LevelError || normLevel(n.level) == LevelFatal
	}
	return summaryRecord(s, ref, loc)
}

// quietLevelIn reports whether the prefix p holds a level word below
// ERROR: what follows it is that record's message, not a failure.
func quietLevelIn(p string) bool {
	for i := 0; i < len(p); i++ {
		if i > 0 && isWordByte(p[i-1]) || !isUpper(p[i]) {
			continue
		}
		if w, _, ok := levelWord(p[i:]); ok {
			switch normLevel(w) {
			case LevelError, LevelFatal:
			default:
				return true
			}
		}
	}
	return false
}

// unknownPrefixLen returns the length of the part of the prefix s[:plen]
// in front of the known wrappers that end it, which stripWrappers removes
// on its own: "3: (Buffer pid=7) " learns "3: ", so a line of another Ray
// actor behind the same outer prefix has it removed too, and its actor is
// still told apart.
func unknownPrefixLen(s string, plen int) int {
	for k := 1; k < plen; k++ {
		if endsPrefixField(s[k-1]) && wrapperPrefixesLen(s[k:plen]) == plen-k {
			return k
		}
	}
	return plen
}

// findPrefix looks for text in front of a line that Python prints at the
// start of a line, and returns the text's length and how strongly it
// suggests a prefix. Strong: a traceback frame line, a chain separator, a
// glog header or an sglang header (srt, legacy, diffusion) after the
// prefix; nothing of
// theirs is ever printed after other text on the same line. Weak: a
// "Traceback (most recent call last):" line or a strict exception line, which
// a log record's own message may also end with. The prefix must be at most
// maxLearnedPrefix bytes, hold a letter or digit, no control byte, and end in
// a space or one of ":|]>" so it ends where a field ends; a line that is an
// sglang record itself carries no prefix (its message is content).
func findPrefix(s string) (int, int) {
	best, strength := 0, evidenceNone
	if i := ascii.IndexByRare(s, `File "`, 0); i > 0 {
		j := i
		if j >= 2 && s[j-1] == ' ' && s[j-2] == ' ' {
			j -= 2 // CPython indents frames by two spaces
		}
		if j > 0 && j <= maxLearnedPrefix && isFrameLine(s[j:]) {
			// (A frame further in is no prefix's: a relay's next line
			// glued behind the padding of this one.)
			best, strength = j, evidenceStrong
		}
	}
	if strength == evidenceNone {
		// Both chain separators hold "above exception".
		if i := ascii.IndexByRare(s, "above exception", len("above e")); i > 0 {
			for _, sep := range [...]string{sepCause, sepContext} {
				if j := strings.Index(s, sep); j > 0 && isChainSeparator(s[j:]) {
					best, strength = j, evidenceStrong
				}
			}
		}
	}
	if strength == evidenceNone {
		if i := sglangHeaderAt(s); i > 0 {
			best, strength = i, evidenceStrong
		}
	}
	if strength == evidenceNone {
		if i := glogAt(s); i > 0 {
			best, strength = i, evidenceStrong
		}
	}
	if strength == evidenceNone {
		if i := familyPrefixLen(s); i > 0 {
			best, strength = i, evidenceFamily
		}
	}
	if strength == evidenceNone {
		if i := listMarkerLen(s); i > 0 {
			best, strength = i, evidenceFamily
		}
	}
	if (strength == evidenceNone || strength == evidenceFamily && best < len(s)-len(tbStart) && len(s)-len(tbStart) <= maxLearnedPrefix) &&
		strings.HasSuffix(s, tbStart) && len(s) > len(tbStart) {
		// Behind a family prefix, a traceback's first line that a
		// logger relays ("2024-06-02 00:26:10 | ERROR | stderr |
		// Traceback ...") is evidence of the whole relay prefix, the
		// shape its frames carry. One too long to learn leaves the
		// family's label the evidence (a viewer's time column before a
		// vLLM worker's record, "... | (Worker_TP0_EP0 pid=865) ERROR
		// 05-01 15:00:23 [nixl_connector.py:1263] Traceback ...").
		if k := len(s) - len(tbStart); strength == evidenceNone || isLearnablePrefix(s[:k]) {
			best, strength = k, evidenceWeak
		}
	}
	if strength == evidenceNone || best > maxLearnedPrefix {
		return 0, evidenceNone
	}
	if !isLearnablePrefix(s[:best]) && (strength == evidenceWeak || !isPasteLead(s[:best])) {
		return 0, evidenceNone
	}
	if isSGLangRecord(s) {
		return 0, evidenceNone
	}
	return best, strength
}

// weakEvidence reports whether rest, the line after a candidate's prefix,
// is weak evidence: a traceback start, a strict exception line, or, right
// after a frame line behind the same prefix (afterFrame), an indented
// source line.
func weakEvidence(rest string, afterFrame bool) bool {
	if rest == tbStart || afterFrame && strings.HasPrefix(rest, "    ") {
		return true
	}
	_, _, ok := parseBareException(rest)
	return ok
}

// sglangHeaderAt returns the position of an sglang header ("[2025-... TP0] ",
// "[16:53:16] ", "[12-16 14:27:08] ") that starts after position 0 within
// maxLearnedPrefix bytes, or 0.
func sglangHeaderAt(s string) int {
	limit := len(s)
	if limit > maxLearnedPrefix+1 {
		limit = maxLearnedPrefix + 1
	}
	for i := 1; i < limit; i++ {
		k := strings.IndexByte(s[i:limit], '[')
		if k < 0 {
			return 0
		}
		i += k
		if i+1 < len(s) && isDigit(s[i+1]) && isSGLangRecord(s[i:]) {
			return i
		}
	}
	return 0
}

// isSGLangRecord reports whether s starts with an srt, legacy or diffusion
// header. No reference time is needed to tell.
func isSGLangRecord(s string) bool {
	if len(s) < 2 || s[0] != '[' || !isDigit(s[1]) {
		return false
	}
	var zero time.Time
	if _, ok := parseSRT(s[1:], time.UTC, zero); ok {
		return true
	}
	if _, ok := parseLegacy(s[1:], time.UTC, zero); ok {
		return true
	}
	_, ok := parseDiffusion(s[1:], time.UTC, zero)
	return ok
}

// isLearnablePrefix applies the shape rules of findPrefix to p.
func isLearnablePrefix(p string) bool {
	if p == "" {
		return false
	}
	switch p[len(p)-1] {
	case ' ', '\t', ':', '|', ']', '>':
	default:
		return false
	}
	alnum := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
		if isWordByte(c) && c != '_' {
			alnum = true
		}
	}
	return alnum
}

// shapeOf appends the shape of p to dst and returns its length, 0 when the
// shape would not fit.
func shapeOf(dst []byte, p string) int {
	i := 0
	if n := labelAt(p); n > 0 {
		dst = append(dst, shapeLabel)
		i = n
	}
	for i < len(p) {
		c := p[i]
		switch {
		case isDigit(c):
			j := i + 1
			if c == '0' && j < len(p) && p[j] == 'x' {
				j++
				for j < len(p) && isHexDigit(p[j]) {
					j++
				}
			}
			for j < len(p) && isDigit(p[j]) {
				j++
			}
			dst = append(dst, shapeDigits)
			i = j
		case isUpper(c):
			if w, _, ok := levelWord(p[i:]); ok && (i == 0 || !isWordByte(p[i-1])) {
				dst = append(dst, shapeLevel)
				i += len(w)
				continue
			}
			dst = append(dst, c)
			i++
		default:
			dst = append(dst, c)
			i++
		}
		if len(dst) > maxLearnedPrefix {
			return 0
		}
	}
	return len(dst)
}

// matchShape returns the length of the prefix of s that has the given shape,
// or 0.
func matchShape(s string, shape []byte) int {
	i := 0
	for k := 0; k < len(shape); k++ {
		switch c := shape[k]; c {
		case shapeLabel:
			n := labelAt(s[i:])
			if n == 0 {
				return 0
			}
			i += n
		case shapeDigits:
			if i >= len(s) || !isDigit(s[i]) {
				return 0
			}
			j := i + 1
			if s[i] == '0' && j < len(s) && s[j] == 'x' {
				j++
				for j < len(s) && isHexDigit(s[j]) {
					j++
				}
			}
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		case shapeLevel:
			w, _, ok := levelWord(s[i:])
			if !ok {
				return 0
			}
			i += len(w)
		default:
			if i >= len(s) || s[i] != c {
				return 0
			}
			i++
		}
	}
	return i
}

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
