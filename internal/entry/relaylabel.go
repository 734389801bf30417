package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Labels and times that hosting consoles and process supervisors put in
// front of every line they relay, each read from the tool's own output
// code. They are wrapper prefixes (wrapperPrefixLen): taken off so the
// line reads as its writer printed it, its own time and header included.

// maxSourceLabel bounds the name in a bracketed source label: a
// Kubernetes object's name, a compose service, a console's service.
const maxSourceLabel = 253

// sourceLabelLen matches a bracketed source label a relay puts before each
// line it relays, in the three ways operators' tools write it:
//
//   - "[name]: ", a hosting console's deployment log (Akash Console
//     writes the service's name so; the logs it saves to a file repeat
//     the name after it, "[vllm]: vllm: ", which goes with the label);
//   - "[name] | ", padded before the bar, podman-compose's service
//     column;
//   - "[pod] ", a pod name a controller generated (Akash's lease-logs,
//     one label per pod), also behind the lease's own label
//     ("[akash1.../4815131/1/1/akash1...][web-7d44bb6d6f-n9cbk] ").
//
// The name opens with a letter and holds no space; a level word in
// brackets ("[ERROR]: ", "[E]: ") is a record's own level, never a
// label. s starts with "[" and a letter (wrapperPrefixLen's test).
func sourceLabelLen(s string) int {
	// The "]" first, and the bytes after it: most bracketed lines are a
	// writer's tag and its text ("[TensorRT-LLM][INFO] ", "[Gloo] Rank
	// 0 ..."), told by those bytes before the name is read.
	k := strings.IndexByte(s[:min(len(s), maxSourceLabel+2)], ']')
	if k < 2 {
		return 0
	}
	name, rest := s[1:k], s[k+1:]
	switch {
	case rest == "" || rest[0] == ':':
		if rest != "" && rest != ":" && rest[1] != ' ' || !isLabelName(name) || isLevelName(name) {
			return 0
		}
		if len(rest) <= 1 {
			// The label alone: a blank line relayed, its space
			// trimmed by a paste or an editor.
			return k + 1 + len(rest)
		}
		n := k + 3
		// A saved deployment log repeats the name: "[vllm]: vllm: ".
		if r := s[n:]; len(r) > len(name) && r[:len(name)] == name && r[len(name)] == ':' {
			switch {
			case len(r) == len(name)+1:
				n += len(name) + 1
			case r[len(name)+1] == ' ':
				n += len(name) + 2
			}
		}
		return n
	case rest[0] == ' ':
		i := 1
		for i < len(rest) && rest[i] == ' ' {
			i++
		}
		if i < len(rest) && rest[i] == '|' {
			// podman-compose's column: "[sglang]  | ".
			if !isLabelName(name) || isLevelName(name) {
				return 0
			}
			return closeOfPrefix(s, k+1+i)
		}
		if isGeneratedPodName(name) && isLabelName(name) {
			// (Spaces after the first are the line's own indentation.)
			return k + 2
		}
	case rest[0] == '[':
		// A lease's label glued before its pod's, whose name is
		// lower-case (a writer's second tag is mostly its level,
		// "[TensorRT-LLM][INFO]").
		if len(rest) < 2 || !isLowerAlnum(rest[1]) || strings.IndexByte(name, '/') < 0 || !isLabelName(name) {
			return 0
		}
		j := strings.IndexByte(rest[:min(len(rest), maxSourceLabel+2)], ']')
		if j > 1 && j+1 < len(rest) && rest[j+1] == ' ' && isGeneratedPodName(rest[1:j]) {
			return k + 1 + j + 2
		}
	}
	return 0
}

// isLabelName reports whether name, a bracketed label's, is written in
// the bytes of a service's, a pod's or a lease's name: letters, digits
// and ".-_/", opening with a letter.
func isLabelName(name string) bool {
	if name == "" || !isLetter(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !isLetter(c) && !isDigit(c) && c != '-' && c != '_' && c != '.' && c != '/' {
			return false
		}
	}
	return true
}

// labelLevels are the level names, as loggers print them in brackets in
// any case, that a bracketed source label cannot be.
var labelLevels = [...]string{"critical", "warning", "success", "verbose", "notice", "severe", "error", "fatal", "debug", "trace", "alert", "emerg", "panic", "info", "warn", "crit", "err", "dbg", "inf", "wrn", "log", "e", "w", "i", "d", "f", "c", "v", "n", "t"}

// isLevelName reports whether name is a level name in any case.
func isLevelName(name string) bool {
	if len(name) > len("critical") {
		return false
	}
	for _, l := range labelLevels {
		if strings.EqualFold(name, l) {
			return true
		}
	}
	return false
}

// supervisorTimeLen matches the time a process supervisor's logger puts
// before each line it keeps, after the TAI64N label (tai64nLen) the same
// tools also write:
//
//   - runit's and busybox's svlogd with "tt" or "ttt": the UTC time with
//     nine fraction digits, an underscore or a "T" between date and time,
//     no zone, then a space ("2026-12-07_07:11:28.123456000 ");
//   - s6-log with "T": the local time as ISO 8601 with a space between
//     date and time and nine fraction digits, then two spaces
//     ("2026-12-07 07:11:28.123456789  ").
//
// A record's own time is never written so (nine digits and no zone, or
// two spaces after it), so the line's own header stays with it.
func supervisorTimeLen(s string) int {
	const n = len("2006-01-02_15:04:05.") + 9
	if len(s) <= n || s[4] != '-' || s[19] != '.' {
		return 0
	}
	sep := s[10]
	if sep != '_' && sep != 'T' && sep != ' ' || !isDate(s[:10]) || !isClock(s[11:19]) || !ascii.Digits(s[20:n]) {
		return 0
	}
	if sep == ' ' {
		if len(s) > n+1 && s[n] == ' ' && s[n+1] == ' ' {
			return n + 2
		}
		return 0
	}
	if s[n] != ' ' {
		return 0
	}
	return n + 1
}
