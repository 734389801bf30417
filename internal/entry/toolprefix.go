package entry

import "strings"

// Prefixes that operators' tools put in front of every line they relay,
// each read from the tool's own output code: Open MPI's
// --timestamp-output (ctimeTagLen), stern's pod and container
// (sternPodLen) and the label set logcli prints after a Loki entry's time
// (labelSetLen). wrapperPrefixLen tries each after a byte test on the
// line's first bytes, so a routine line pays for no parse.

// ctimeLen is the length of ctime(3)'s time without its newline:
// "Thu Nov  6 02:10:00 2025".
const ctimeLen = len("Thu Nov  6 02:10:00 2025")

// ctimeTagLen matches what Open MPI's mpirun --timestamp-output puts in
// front of each line a rank wrote: the time as ctime(3) prints it, its
// newline dropped, glued to the --tag-output tag ("Thu Nov  6 02:10:00
// 2025[1,3]<stderr>:") or, without --tag-output, to the stream alone
// ("Thu Nov  6 02:10:00 2025<stderr>:"). No space follows the tag; one
// there is the line's own and left to it, as mpiTagLen does.
func ctimeTagLen(s string) int {
	if len(s) < ctimeLen+len("<stdout>:") || s[3] != ' ' || s[7] != ' ' || s[10] != ' ' || s[19] != ' ' {
		return 0
	}
	if !isWeekday(s[:3]) || !isMonth(s[4:7]) || !isCtimeDay(s[8:10]) ||
		!isClock(s[11:19]) || !isDigit(s[20]) || !isDigit(s[21]) || !isDigit(s[22]) || !isDigit(s[23]) {
		return 0
	}
	rest := s[ctimeLen:]
	if rest[0] == '[' {
		if n := mpiTagLen(rest); n > 0 {
			if rest[n-1] == ' ' {
				n-- // the line's own space
			}
			return ctimeLen + n
		}
		return 0
	}
	for _, tag := range [...]string{"<stderr>:", "<stdout>:", "<stddiag>:"} {
		if strings.HasPrefix(rest, tag) {
			return ctimeLen + len(tag)
		}
	}
	return 0
}

// isCtimeDay matches a day of the month as ctime(3) prints it, padded
// with a space: " 6", "16".
func isCtimeDay(s string) bool {
	if !isDigit(s[1]) || s[0] != ' ' && !isDigit(s[0]) {
		return false
	}
	d := int(s[1] - '0')
	if s[0] != ' ' {
		d += 10 * int(s[0]-'0')
	}
	return d >= 1 && d <= 31
}

// isWeekday matches an English weekday's three-letter abbreviation.
func isWeekday(s string) bool {
	switch s {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun":
		return true
	}
	return false
}

// maxPodName bounds a Kubernetes object's name (a DNS subdomain).
const maxPodName = 253

// sternPodLen matches the pod and the container stern's default template
// puts in front of each line it tails ("{{.PodName}} {{.ContainerName}}
// {{.Message}}", each name in its colour on a terminal, which
// wrapperSpan removes first): a Deployment's pod name, then one space,
// the container's name (a DNS label) and one space. Only a pod name a
// controller generated is taken: it ends in the ReplicaSet's template
// hash and the pod's own suffix ("sglang-0-5d8f7b9c4-x2x7q"), both
// written in Kubernetes' safe alphabet, which has no vowels and no 0, 1
// or 3, so that the word a line opens with is not taken for a pod. A
// StatefulSet's pod ("sglang-0") looks like any word with a number and
// is left to the prefix a stream teaches (prefix.go).
func sternPodLen(s string) int {
	i := 0
	for i < len(s) && i < maxPodName && (isLowerAlnum(s[i]) || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i >= len(s) || s[i] != ' ' || !isGeneratedPodName(s[:i]) {
		return 0
	}
	j := i + 1
	for j < len(s) && j-i <= 63 && (isLowerAlnum(s[j]) || s[j] == '-') {
		j++
	}
	if j == i+1 || j >= len(s) || s[j] != ' ' || s[i+1] == '-' || s[j-1] == '-' {
		return 0
	}
	return j + 1
}

// isGeneratedPodName reports whether name ends as a pod a ReplicaSet
// created is named: "-", the template hash (6 to 10 characters of the
// safe alphabet), "-", the pod's suffix (5 of them), after a name of at
// least one character.
func isGeneratedPodName(name string) bool {
	const suffix = 5
	n := len(name)
	if n < 1+1+6+1+suffix || name[n-suffix-1] != '-' || !safeAlphabet(name[n-suffix:]) {
		return false
	}
	h := name[:n-suffix-1]
	d := strings.LastIndexByte(h, '-')
	if d < 1 || len(h)-d-1 < 6 || len(h)-d-1 > 10 {
		return false
	}
	return safeAlphabet(h[d+1:])
}

// safeAlphabet reports whether s is written in the alphabet Kubernetes
// generates names' random parts in: lower-case consonants and the digits
// 2 and 4 to 9, so that no word and no look-alike of another character
// is spelled.
func safeAlphabet(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '4' && c <= '9', c == '2':
		case c >= 'b' && c <= 'z' && c != 'e' && c != 'i' && c != 'o' && c != 'u' && c != 'y':
		default:
			return false
		}
	}
	return s != ""
}

// isLowerAlnum reports whether c is a lower-case letter or a digit.
func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// quoteMarkerLen returns the length of the quote marker at the start of
// s, which opens with ">": a Markdown or e-mail quote, one level (">",
// "> ") or two glued as mail clients nest a reply to a reply (">>",
// ">> "); "> > " is two passes of one. Three glued (">>>") are a Python
// prompt, no quote.
func quoteMarkerLen(s string) int {
	n := 1
	if len(s) > 1 && s[1] == '>' {
		n = 2
	}
	switch {
	case len(s) == n:
		return n
	case s[n] == ' ':
		return n + 1
	}
	return 0
}

// maxLabelSet bounds the label set labelSetLen reads.
const maxLabelSet = 1024

// labelSetLen matches the label set of a Loki stream as logcli's default
// output prints it between an entry's time and its line, in Prometheus'
// text form: "{container=\"sglang\", pod=\"sglang-0\"} ". Each label's
// name is a letter or "_" then word bytes, its value quoted with escapes;
// the set ends with "}" and the space before the line. (logcli pads a set
// shorter than the query's widest with spaces, which stay with the line
// as its indentation: a traceback's frames keep theirs.) A JSON object
// opens with a quote after its brace and is no label set.
func labelSetLen(s string) int {
	if len(s) < 2 || s[0] != '{' {
		return 0
	}
	i := 1
	for {
		j := i
		for j < len(s) && j < maxLabelSet && isWordByte(s[j]) {
			j++
		}
		if j == i || isDigit(s[i]) || j+1 >= len(s) || s[j] != '=' || s[j+1] != '"' {
			return 0
		}
		j += 2
		for j < len(s) && j < maxLabelSet && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j+1 >= len(s) || s[j] != '"' {
			return 0
		}
		j++
		switch {
		case s[j] == '}':
			return closeOfPrefix(s, j)
		case strings.HasPrefix(s[j:], ", "):
			i = j + 2
		case s[j] == ',':
			i = j + 1
		default:
			return 0
		}
	}
}
