package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Prefixes that tools write in front of a child's or a job's every line
// and that a line of their own opens with, told on any line:
//
//   - GitLab Runner's job log timestamps (FF_TIMESTAMPS): an RFC 3339 time
//     in UTC, a space, the stream's two hexadecimal digits and its type
//     ("O" stdout, "E" stderr), then " " for a new line or "+" for the
//     rest of one ("2025-11-06T02:10:00.702513Z 01E ...");
//   - devscripts' annotate-output: the time, a space, the stream ("O:",
//     "E:" or "I:" for its own notes) and a space ("02:10:00 E: ...").
//
//   - Heroku's log lines: the time (rfc3339PrefixLen), then the source
//     and the dyno, "app[web.1]: " or "heroku[router]: ";
//   - docker service logs: the task, "service.slot.taskid@node", padded,
//     and "| " ("sglang_sglang.1.qhc6ff4l5yrv@gpu-node-3    | ");
//   - moreutils' ts with its default format: "Nov 06 02:10:00 " (a
//     syslog time with no host and no tag after it: syslogPrefixLen reads
//     those first);
//   - a logging record that relays a child's line after the stream it
//     came from (relayStreamLen).

// gitlabStreamLen returns the length of GitLab Runner's stream field
// ("01E " or "00O+") at the start of s, what follows the time and its
// space, or 0.
func gitlabStreamLen(s string) int {
	if len(s) < 4 || !isHexDigit(s[0]) || !isHexDigit(s[1]) || s[2] != 'O' && s[2] != 'E' || s[3] != ' ' && s[3] != '+' {
		return 0
	}
	return 4
}

// annotateOutputLen matches annotate-output's "HH:MM:SS E: " (or "O: ",
// "I: ") at the start of s, or 0.
func annotateOutputLen(s string) int {
	const n = len("15:04:05 E: ")
	if len(s) < n || s[8] != ' ' || s[10] != ':' || s[11] != ' ' || s[9] != 'E' && s[9] != 'O' && s[9] != 'I' || !isClock(s[:8]) {
		return 0
	}
	return n
}

// maxRelayFields bounds the words before a relaying record's level: a
// logger's name and a process's.
const maxRelayFields = 2

// relayStreamLen matches a logging record that relays a child process's
// line after the stream it came from: a dated header (dateTimeLen), at
// most maxRelayFields words, a level word, at most one logger's name
// closed by a colon, then "stderr: " or "stdout: " (or "[stderr] ") as
// the message's first word. A launcher's logging.info("stderr: %s", line)
// writes it under Python's formats ("2025-11-06 02:10:00,702 - launcher -
// INFO - stderr: ...", "... [INFO] launcher: stderr: ..."). Numbers and
// separators ("-", "|", a pid in brackets, a time's ",702") are no words.
// A message that names a stream after words of its own ("ERROR failed to
// read stderr: ...") is no relay. 0 when s opens otherwise.
func relayStreamLen(s string) int {
	n := dateTimeLen(s)
	if n == 0 {
		return 0
	}
	level, words, after := false, 0, 0
	for i := n; i < len(s) && i < maxFamilyPrefix; {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		if j == i || j == len(s) {
			return 0
		}
		tok := s[i:j]
		switch {
		case tok == "stderr:" || tok == "stdout:" || tok == "[stderr]" || tok == "[stdout]":
			if !level {
				return 0
			}
			return j + 1
		case isRelaySeparator(tok):
		case !level && isLevelToken(tok):
			level = true
		case level:
			// A logger's name after the level ends in a colon.
			if after++; after > 1 || tok[len(tok)-1] != ':' {
				return 0
			}
		default:
			if words++; words > maxRelayFields {
				return 0
			}
		}
		i = j
	}
	return 0
}

// isLevelToken reports whether tok is a level word, bare or in brackets
// ("INFO", "[ERROR]", "INFO:").
func isLevelToken(tok string) bool {
	tok = strings.Trim(tok, "[]:")
	l, rest, ok := levelWord(tok)
	return ok && l != "" && rest == ""
}

// isRelaySeparator reports whether tok holds no word: punctuation and
// digits only ("-", "|", ",702", "[2741]", "+0000]").
func isRelaySeparator(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if isLetter(tok[i]) {
			return false
		}
	}
	return true
}

// herokuSourceLen matches Heroku's source and dyno after a line's time,
// "app[web.1]: " or "heroku[router]: " (the dyno's name letters, digits,
// ".", "_" and "-"), or 0.
func herokuSourceLen(s string) int {
	var i int
	switch {
	case strings.HasPrefix(s, "app["):
		i = len("app[")
	case strings.HasPrefix(s, "heroku["):
		i = len("heroku[")
	default:
		return 0
	}
	j := i
	for j < len(s) && j-i < 64 && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-') {
		j++
	}
	if j == i || j+2 >= len(s) || s[j] != ']' || s[j+1] != ':' || s[j+2] != ' ' {
		return 0
	}
	return j + 3
}

// serviceTaskLen matches the task docker service logs puts in front of
// each line: "NAME.SLOT.TASKID@NODE", padded by spaces, then "| ". The
// slot is digits and the task's id twelve lower-case letters and digits
// or more (25 untruncated); NAME and NODE are names of letters, digits,
// "_", "." and "-".
func serviceTaskLen(s string) int {
	at := -1
	i := 0
	for ; i < len(s) && i < 256; i++ {
		c := s[i]
		if c == '@' && at < 0 {
			at = i
			continue
		}
		if !isWordByte(c) && c != '.' && c != '-' {
			break
		}
	}
	if at < 0 || at+1 == i || !isTaskName(s[:at]) {
		return 0
	}
	k := i
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k == i || k >= len(s) || s[k] != '|' {
		return 0
	}
	return closeOfPrefix(s, k)
}

// isTaskName reports whether name is a swarm task's "NAME.SLOT.TASKID".
func isTaskName(name string) bool {
	d := strings.LastIndexByte(name, '.')
	if d < 0 {
		return false
	}
	id := name[d+1:]
	if len(id) < 12 || len(id) > 25 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !isLowerAlnum(id[i]) {
			return false
		}
	}
	slot := name[:d]
	e := strings.LastIndexByte(slot, '.')
	return e > 0 && e+1 < len(slot) && ascii.Digits(slot[e+1:])
}

// tsTimeLen matches the time moreutils' ts puts in front of each line by
// default, "%b %d %H:%M:%S" and a space ("Nov 06 02:10:00 "; a fraction
// with "%.S"), alone on a blank line of the stream or before its text, or
// 0.
func tsTimeLen(s string) int {
	if len(s) < 16 || s[3] != ' ' || !isMonth(s[:3]) {
		return 0
	}
	n := syslogTimeLen(s)
	if n == 0 || n < len(s) && s[n] != ' ' {
		return 0
	}
	return min(n+1, len(s))
}
