package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/patterns"
)

// Some Python services log a header whose level follows other fields
// after the time: KServe's model servers print "%(asctime)s.%(msecs)03d
// %(process)s %(name)s %(levelname)s [%(filename)s:%(funcName)s():
// %(lineno)s] %(message)s" ("2024-07-01 07:28:04.488 1 kserve ERROR
// [__main__.py:<module>():254] Failed to start model server: ..."), and
// Xinference "%(asctime)s %(name)s %(process)d %(levelname)-8s
// %(message)s" ("2024-12-21 20:28:44,695 xinference.core.worker 30898
// ERROR    [request ...] Leave launch_builtin_model, error: ..."). The
// entry package reads no header there, so the line has no level: the
// level word among the header's fields is read here. A line whose first
// field after the time is no level, and whose level word comes within
// a few short fields, is such a header; INFO, WARNING and the other
// routine levels found there say the line is no failure.

// maxTimedFields bounds the fields between a header's time and its level
// word; maxTimedField bounds one field's length.
const (
	maxTimedFields = 3
	maxTimedField  = 64
)

// timedLevelStart reports, with byte tests, whether l may open with a
// header's ISO date and time ("2024-07-01 07:28:04", a 'T' between
// them): what a routine line that opens with a digit pays.
func timedLevelStart(l string) bool {
	return len(l) > 20 && isDigitByte(l[0]) && l[4] == '-' && l[7] == '-' && (l[10] == ' ' || l[10] == 'T') &&
		l[13] == ':' && l[16] == ':'
}

// timedLevelSeverity returns the severity of the error level word a line
// with no level of its own carries among its header's fields after the
// time (see above): error for ERROR, critical for CRITICAL and FATAL; ""
// when the line is no such header or its level is a routine one.
func timedLevelSeverity(l string) patterns.Severity {
	if !timedLevelStart(l) || !ascii.Digits(l[:4]) || !ascii.Digits(l[5:7]) || !ascii.Digits(l[8:10]) ||
		!ascii.Digits(l[11:13]) || !ascii.Digits(l[14:16]) || !ascii.Digits(l[17:19]) {
		return ""
	}
	r := l[19:]
	if r != "" && (r[0] == '.' || r[0] == ',') {
		// The fraction of the second.
		j := 1
		for j < len(r) && j <= 9 && isDigitByte(r[j]) {
			j++
		}
		if j == 1 {
			return ""
		}
		r = r[j:]
	}
	if r == "" || r[0] != ' ' {
		return ""
	}
	for n := 0; n <= maxTimedFields; n++ {
		r = strings.TrimLeft(r, " ")
		f, rest, ok := strings.Cut(r, " ")
		if !ok || f == "" || len(f) > maxTimedField {
			return ""
		}
		switch f {
		case "ERROR":
			if n > 0 && timedMessage(rest) {
				return patterns.SeverityError
			}
			return ""
		case "CRITICAL", "FATAL":
			if n > 0 && timedMessage(rest) {
				return patterns.SeverityCritical
			}
			return ""
		case "INFO", "DEBUG", "WARNING", "WARN", "TRACE", "NOTICE":
			// The header's own level: a routine line.
			return ""
		}
		if n == 0 && f[0] != '[' && strings.ToUpper(f) == f && !isDigitByte(f[0]) {
			// A level (or another upper-case word) first: the entry
			// package's own headers, or a line of words.
			return ""
		}
		r = rest
	}
	return ""
}

// timedMessage reports whether r, what follows a header's level word and
// its space, holds a message: padding, then a letter, a bracket or a
// digit.
func timedMessage(r string) bool {
	r = strings.TrimLeft(r, " ")
	return r != "" && (isAlnum(r[0]) || r[0] == '[' || r[0] == '<')
}
