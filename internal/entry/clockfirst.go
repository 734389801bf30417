package entry

import (
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// maxClockFraction bounds the digits of a fraction of a second after a
// time of day alone.
const maxClockFraction = 9

// parseClockFirst matches a record whose header starts with the time of
// day alone, no date, and carries a level within its next two fields:
// logback's default pattern "15:51:02.123 [main] ERROR c.e.Server - msg",
// Python logging with datefmt "%H:%M:%S" ("14:26:31 ERROR msg",
// "14:26:31 - ERROR - msg", "14:26:31,042 ERROR msg"), and the same in
// brackets, s then starting after the "[": "[14:26:31] ERROR: msg",
// "[14:26:31.123] [ERROR] msg", "[14:26:31 ERROR] msg". The date is the
// stream's (timeNoDate, as legacy sglang's "[14:26:31] msg", which has no
// level and stays that family's). A line with no level is no header here:
// a time alone before prose is too common a shape to open records on.
func parseClockFirst(s string, ref time.Time, loc *time.Location, bracketed bool) (header, bool) {
	if len(s) < 10 || !isClock(s[:8]) {
		return header{}, false
	}
	c := clock{hour: atoi(s[0:2]), min: atoi(s[3:5]), sec: atoi(s[6:8])}
	if c.hour > 23 || c.min > 59 || c.sec > 59 {
		return header{}, false
	}
	n := 8
	if s[n] == '.' || s[n] == ',' {
		j := n + 1
		for j < len(s) && j-n <= maxClockFraction && isDigit(s[j]) {
			j++
		}
		if j == n+1 || j < len(s) && isDigit(s[j]) {
			return header{}, false
		}
		c.nsec = fraction(s[n+1 : j])
		n = j
	}
	rest := s[n:]
	if rest == "" {
		return header{}, false
	}
	if bracketed {
		switch {
		case rest[0] == ']':
			rest = rest[1:]
		case rest[0] == ' ':
			// "[14:26:31 ERROR] msg": the level inside the brackets.
			lvl, after, ok := levelWord(rest[1:])
			if !ok || !strings.HasPrefix(after, "]") {
				return header{}, false
			}
			return header{format: FormatPython, time: c.onDay(ref, loc), ranks: NoRanks, level: lvl,
				msg: trimAfterLevel(after), partial: timeNoDate}, true
		default:
			return header{}, false
		}
	}
	if rest == "" || !isSeparator(rest[0]) {
		return header{}, false
	}
	lvl, after, ok := levelInFields(rest)
	if !ok {
		return header{}, false
	}
	return header{format: FormatPython, time: c.onDay(ref, loc), ranks: NoRanks, level: lvl,
		msg: trimPythonLocation(trimAfterLevel(after)), partial: timeNoDate}, true
}

// endsInSourceColumn reports whether s ends in a console's right-aligned
// source column, "   gui.py:838" (richlayout.go).
func endsInSourceColumn(s string) bool {
	i := len(s)
	for i > 0 && isDigit(s[i-1]) {
		i--
	}
	if i == len(s) || i == 0 || s[i-1] != ':' {
		return false
	}
	j := i - 1
	for j > 0 && s[j-1] != ' ' {
		j--
	}
	return j >= 2 && j < i-1 && s[j-2] == ' ' && strings.IndexByte(s[j:i], '.') > 0
}

// levelInFields finds a level word in the first two fields of rest, the
// text after a record's time ("[main] ERROR ...", "- ERROR - ...",
// "ERROR ..."): the level and what follows it.
func levelInFields(rest string) (level, after string, ok bool) {
	for field := 0; field < 2; field++ {
		rest = trimSeparators(rest)
		if lvl, after, ok := levelWord(rest); ok {
			if after != "" && !isSeparator(after[0]) {
				return "", "", false
			}
			return lvl, after, true
		}
		sp := strings.IndexAny(rest, " \t")
		if sp <= 0 || sp > 64 {
			return "", "", false
		}
		rest = rest[sp:]
	}
	return "", "", false
}

// parseSlashDateFirst matches "MM/DD/YY HH:MM:SS] LEVEL msg", s starting
// after the "[": the date and time the C library's "%x %X" print in the
// default locale, a column console's default stamp (richlayout.go),
// then what parseClockFirst reads after a bracketed time.
func parseSlashDateFirst(s string, ref time.Time, loc *time.Location) (header, bool) {
	if len(s) < 19 || !ascii.Digits(s[0:2]) || s[2] != '/' || !ascii.Digits(s[3:5]) || s[5] != '/' || !ascii.Digits(s[6:8]) || s[8] != ' ' {
		return header{}, false
	}
	h, ok := parseClockFirst(s[9:], ref, loc, true)
	month, day := atoi(s[0:2]), atoi(s[3:5])
	if !ok || month < 1 || month > 12 || day < 1 || day > 31 {
		return header{}, false
	}
	c := clock{year: 2000 + atoi(s[6:8]), month: month, day: day, hour: atoi(s[9:11]), min: atoi(s[12:14]), sec: atoi(s[15:17]), nsec: h.time.Nanosecond()}
	h.time, h.partial = c.in(loc), 0
	if h.time.Day() != day {
		return header{}, false // no such day in that month
	}
	return h, true
}
