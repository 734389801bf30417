package entry

import "strings"

// Prefix families: what the tools between an engine and its reader put in
// front of every line whatever the line holds, so that no single line can
// tell the prefix from content but a stream can. A line that starts with
// one is evidence of a prefix on its own (evidenceFamily), and two
// consecutive lines with the same shape of it teach the learner that shape
// (prefixLearner.observe): a one-off "3: " in a message never becomes a
// prefix.
//
//   - a launcher's task label, "3: " (srun --label, pdsh -N style ranks,
//     torchrun's and deepspeed's numbered output);
//   - mpirun --tag-output, "[1,3]<stderr>:" or "<stdout>:"; MPICH's and
//     Intel MPI's rank label, "[3] ";
//   - grep -n, "123:" or "file.log:123:" (never a time: no digit follows);
//   - a log viewer's time column, "2025-11-06 02:10:00.702 | " (Loki and
//     Grafana exports);
//   - docker compose's service column when the container is named and
//     carries no replica number, "ollama  | " (composePrefixLen knows the
//     numbered "service-1  | " on any line, pm2's process column
//     "0|sglang  | " and a parallel shell's host label "worker-1: " too);
//   - a viewer's line numbers copied with the text: cat -n's and nl's
//     "     1\t", less -N's and an editor's gutter "      1 ", right
//     aligned;
//   - GNU parallel --tag's job argument and a tab, "gpu-node-3\t".
//
// The rank a task label or an MPI tag names becomes the entry's process
// (familyRank).

// maxFamilyPrefix bounds a family prefix; a grep file name may make it long.
const maxFamilyPrefix = 80

// familyPrefixLen returns the length of a family prefix at the start of s,
// or 0. The text after it must not be blank.
func familyPrefixLen(s string) int {
	n := familyPrefixAny(s)
	if n == 0 || n > maxFamilyPrefix || isBlank(s[n:]) {
		return 0
	}
	return n
}

// familyLabelAlone reports whether s is a family prefix with nothing
// after it: a launcher's label, an MPI tag, a grep line number or a
// viewer's time column on a blank line of the task's output.
func familyLabelAlone(s string) bool {
	n := familyPrefixAny(s)
	return n > 0 && n <= maxFamilyPrefix && isBlank(s[n:])
}

// labelAlone is familyLabelAlone, told by the last byte first: a family
// prefix ends in a space, a colon or a tab, and most lines end otherwise.
func labelAlone(s string) bool {
	c := s[len(s)-1]
	return (c == ' ' || c == ':' || c == '\t') && len(s) <= maxFamilyPrefix && familyLabelAlone(s)
}

// familyPrefixAny is familyPrefixLen with any text, or none, after the
// prefix.
func familyPrefixAny(s string) int {
	var n int
	if s != "" && s[0] == '[' {
		// Most lines that get here are bracketed records; of the
		// families only the MPI tag starts with "[" (a task label and a
		// grep line number start with a digit or a space, a grep file
		// name holds no "[", a time with a digit, a service name with a
		// letter).
		n = mpiTagLen(s)
		if n == 0 {
			n = bracketRankLen(s)
		}
	} else {
		n = rankLabelLen(s)
		if n == 0 {
			n = grepLineLen(s)
		}
		if n == 0 {
			n = viewerTimeLen(s)
		}
		if n == 0 {
			n = serviceColumnLen(s)
		}
		if n == 0 {
			n = lineGutterLen(s)
		}
		if n == 0 {
			n = tagTabLen(s)
		}
	}
	return n
}

// maxTagLen bounds the argument GNU parallel's --tag puts in front of a
// job's lines (tagTabLen): a host's or a job's name.
const maxTagLen = 64

// tagTabLen matches GNU parallel's --tag: the job's argument, a host or a
// name of letters, digits, "_", ".", "-" and "@" that starts with a letter
// or a digit, then a tab ("gpu-node-3\t"). No colon: a tab-separated
// logger's time ("2025-07-07T02:34:31.680Z\t", zap's) is no tag. A column
// of a tab-separated table looks the same on one line; two consecutive
// lines with the same value are a stream's tag.
func tagTabLen(s string) int {
	if s == "" || !isWordByte(s[0]) || s[0] == '_' {
		return 0
	}
	i := 1
	for i < len(s) && i <= maxTagLen && (isWordByte(s[i]) || s[i] == '.' || s[i] == '-' || s[i] == '@') {
		i++
	}
	if i >= len(s) || s[i] != '\t' {
		return 0
	}
	return i + 1
}

// Bounds of a viewer's line number (lineGutterLen).
const (
	// maxGutterPad bounds the spaces that right-align it: cat -n and nl
	// print six columns, less -N seven.
	maxGutterPad = 8
	// minSpacedGutter is the narrowest column a number closed by a space
	// is read in: an editor's gutter is three wide or more ("  1 "), and
	// a number in a message's first column is no gutter.
	minSpacedGutter = 3
)

// lineGutterLen matches the line number a viewer puts in front of each
// line it shows, which a copy keeps: right-aligned by spaces and closed
// by a tab (cat -n, nl: "     1\t"), or right-aligned in a column of
// minSpacedGutter or more and closed by one space (less -N, an editor's
// gutter: "      1 ").
func lineGutterLen(s string) int {
	i := 0
	for i < len(s) && i < maxGutterPad && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && j-i < 9 && isDigit(s[j]) {
		j++
	}
	if j == i || j >= len(s) {
		return 0
	}
	switch {
	case s[j] == '\t':
		return j + 1
	case s[j] == ' ' && i > 0 && j >= minSpacedGutter:
		return j + 1
	}
	return 0
}

// rankLabelLen matches "3: " and " 3: ": at most 5 digits (padded by
// spaces to a common width), a colon and one space.
func rankLabelLen(s string) int {
	i := 0
	for i < len(s) && i < 4 && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i || j-i > 5 || j+1 >= len(s) || s[j] != ':' || s[j+1] != ' ' {
		return 0
	}
	if i > 0 && isRustSymbol(strings.TrimRight(s[j+2:], " ")) {
		// "   2: tokio::runtime::...": a Rust backtrace's frame, right
		// aligned, without its address or hash.
		return 0
	}
	return j + 2
}

// bracketRankLen matches the rank label MPICH's and Intel MPI's launchers
// put before a rank's lines ("mpiexec -prepend-rank", "mpirun -l"):
// "[3] ", at most 5 digits in brackets and one space.
func bracketRankLen(s string) int {
	i := 1
	for i < len(s) && i <= 5 && isDigit(s[i]) {
		i++
	}
	if i == 1 || i+1 >= len(s) || s[i] != ']' || s[i+1] != ' ' {
		return 0
	}
	return i + 2
}

// mpiTagLen matches Open MPI's "[1,3]<stderr>:" and "[1,3]<stdout>:",
// with one optional space after it.
func mpiTagLen(s string) int {
	if len(s) < len("[0,0]<stdout>:") || s[0] != '[' {
		return 0
	}
	i := 1
	for i < len(s) && i < 12 && isDigit(s[i]) {
		i++
	}
	if i == 1 || i >= len(s) || s[i] != ',' {
		return 0
	}
	j := i + 1
	for j < len(s) && j-i < 8 && isDigit(s[j]) {
		j++
	}
	if j == i+1 || j >= len(s) || s[j] != ']' {
		return 0
	}
	rest := s[j+1:]
	var tag string
	switch {
	case strings.HasPrefix(rest, "<stderr>:"):
		tag = "<stderr>:"
	case strings.HasPrefix(rest, "<stdout>:"):
		tag = "<stdout>:"
	default:
		return 0
	}
	n := j + 1 + len(tag)
	if n < len(s) && s[n] == ' ' {
		n++
	}
	return n
}

// grepLineLen matches grep -n's "123:" and grep -Hn's "path:123:". No
// digit follows (a time's "12:34:56" is not a line number), nor a space
// (the task label's shape).
func grepLineLen(s string) int {
	i := 0
	if len(s) > 0 && !isDigit(s[0]) {
		// A file name: no space, ends with ":digits:".
		k := strings.IndexByte(s, ':')
		// The digit after the colon first: "RuntimeError: ..." has
		// none, and is not read a byte at a time for a path.
		if k <= 0 || k > maxFamilyPrefix-8 || k+1 >= len(s) || !isDigit(s[k+1]) || !isPathName(s[:k]) {
			return 0
		}
		i = k + 1
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i || j-i > 9 || j >= len(s) || s[j] != ':' {
		return 0
	}
	if j+1 < len(s) && s[j+1] == ' ' {
		return 0
	}
	if j+1 < len(s) && isDigit(s[j+1]) {
		// A clock's minutes or seconds follow a colon as two digits
		// ("12:34:56"); a line that opens with a longer number, a
		// year, is behind a line number ("1813:2025-05-03 ...").
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k-j-1 <= 2 || i == 0 && j-i <= 2 {
			return 0
		}
	}
	return j + 1
}

// isPathName reports whether p looks like a file name grep prints: only
// printable bytes, none of the ones that bracket or quote log fields, and
// a dot or a slash.
func isPathName(p string) bool {
	dot := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c <= ' ' || c >= 0x7f:
			return false
		case c == '[', c == ']', c == '(', c == ')', c == '<', c == '>', c == '|', c == '"', c == '\'':
			return false
		}
		dot = dot || c == '.' || c == '/'
	}
	return dot
}

// viewerTimeLen matches a log viewer's time column and pipe:
// "2025-11-06 02:10:00.702 | " or with an RFC 3339 time, "... | ".
func viewerTimeLen(s string) int {
	n := dateTimeLen(s)
	if n == 0 {
		return 0
	}
	if strings.HasPrefix(s[n:], " | ") {
		return n + 3 + bridgeFieldsLen(s[n+3:])
	}
	return 0
}

// bridgeFieldsLen matches the fields a logging bridge writes after its
// time column, "ERROR | stderr | " (FastChat's "%(asctime)s |
// %(levelname)s | %(name)s | " around each line a child printed): a level
// word, padded, a pipe, a logger's name of at most 64 bytes of letters,
// digits, "_", ".", "-" and ":", padded, and a pipe. 0 when they are not
// there.
func bridgeFieldsLen(s string) int {
	lvl, rest, ok := levelWord(s)
	if !ok {
		return 0
	}
	i := len(lvl)
	for i < len(s) && s[i] == ' ' && len(rest) > 0 {
		i++
		rest = rest[1:]
	}
	if !strings.HasPrefix(s[i:], "| ") {
		return 0
	}
	i += 2
	j := i
	for j < len(s) && j-i < 64 && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-' || s[j] == ':') {
		j++
	}
	if j == i {
		return 0
	}
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j == i || !strings.HasPrefix(s[j:], "| ") || s[j-1] != ' ' {
		return 0
	}
	return j + 2
}

// serviceColumnLen matches a service name, at most 64 bytes of letters,
// digits, "_", "." and "-" that starts with a letter, padded by spaces and
// followed by "| ".
func serviceColumnLen(s string) int {
	if s == "" || !isUpper(s[0]) && (s[0] < 'a' || s[0] > 'z') {
		return 0
	}
	j := 1
	for j < len(s) && j <= 64 && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-') {
		j++
	}
	k := j
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k == j || k+1 >= len(s) || s[k] != '|' || s[k+1] != ' ' {
		return 0
	}
	return k + 2
}

// dateTimeLen returns the length of "YYYY-MM-DD HH:MM:SS[.frac]" or an
// RFC 3339 time at the start of s, or 0.
func dateTimeLen(s string) int {
	if n, ok := rfc3339Len(s); ok {
		return n
	}
	const layout = "2006-01-02 15:04:05"
	if len(s) < len(layout) {
		return 0
	}
	for i := 0; i < len(layout); i++ {
		c := s[i]
		if isDigit(layout[i]) {
			if !isDigit(c) {
				return 0
			}
		} else if c != layout[i] {
			return 0
		}
	}
	return fracEnd(s, len(layout))
}

// familyRank returns the rank a family prefix at the start of prefix
// names, as "rank N" (a task label's number, an MPI tag's second number),
// or "" when it names none.
func familyRank(prefix string) string {
	if n := rankDigits(prefix); n != "" {
		return "rank " + n
	}
	return ""
}

// rankDigits returns the digits of the rank a task label or an MPI tag at
// the start of prefix names, "" when there is none.
func rankDigits(prefix string) string {
	if n := rankLabelLen(prefix); n > 0 {
		return strings.TrimLeft(prefix[:n-2], " ")
	}
	if n := mpiTagLen(prefix); n > 0 {
		c := strings.IndexByte(prefix, ',')
		e := strings.IndexByte(prefix, ']')
		return prefix[c+1 : e]
	}
	if n := bracketRankLen(prefix); n > 0 {
		return prefix[1 : n-2]
	}
	return ""
}

// otherRank reports whether two lines' prefixes name different ranks:
// launchers interleave every rank's lines in one stream, and a line of
// another rank is another process's record.
func otherRank(a, b string) bool {
	if a == b {
		return false // most lines: the pending entry's prefix
	}
	x, y := rankDigits(a), rankDigits(b)
	return x != "" && y != "" && x != y
}
