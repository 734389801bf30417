package entry

import (
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Records whose header line does not hold the message: the writer prints
// the time (and the level, or where it logged from) on one line and the
// message on the next, so the entry's message and level come from both.
//
//   - A header with a time and a level and nothing after them, the message
//     on the next line, indented or not (LM Studio's server log:
//     "2025-08-28 01:22:58 [ERROR]" then " [model] Failed to ...").
//   - java.util.logging's SimpleFormatter (Tomcat's catalina.out, Java
//     tools started beside a server): "Dec 06, 2026 3:51:02 PM class
//     method", then "SEVERE: message"; the level is on the second line.
//   - journalctl -o verbose: "Sat 2026-12-05 10:00:00.123456 UTC
//     [s=...;i=...]", then one indented KEY=VALUE field a line, the level
//     in PRIORITY= (syslog's 0 to 7) and the message in MESSAGE=; and
//     journalctl -o export: the fields alone, from "__CURSOR=" to a blank
//     line, the time in __REALTIME_TIMESTAMP= (-o json's one line per
//     entry is a JSON line, parseJSONLine).
//
// The header opens the entry with an empty message (pending.msgNext);
// the lines after it are taken until one gives the message (nextMessage),
// which becomes the entry's Message and where its Text begins.

const (
	// FormatJUL is java.util.logging's default two-line record:
	// "Mmm dd, yyyy h:mm:ss AM|PM source method" then "LEVEL: message".
	FormatJUL Format = "jul"
	// FormatJournal is a journal entry as journalctl -o verbose prints
	// it: a line with the time and the entry's cursor, then its fields.
	FormatJournal Format = "journal"
)

// maxFieldLines bounds the field lines of a journal entry read for its
// MESSAGE= before the entry is left without one.
const maxFieldLines = 64

// emptyMessage reports whether a header's message holds nothing but field
// separators: the header line carried only its time and level.
func emptyMessage(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSeparator(s[i]) {
			return false
		}
	}
	return true
}

// parseJULHeader matches java.util.logging's first line, "Dec 06, 2026
// 3:51:02 PM org.example.Server start": an English month, a two-digit day,
// the year, a 12-hour clock and AM or PM, then the source (class and
// method, or the logger's name). The level and message are on the next
// line.
func parseJULHeader(s string, loc *time.Location) (header, bool) {
	if len(s) < len("Dec 06, 2026 3:51:02 PM x") || !isMonth(s[0:3]) || s[3] != ' ' ||
		!ascii.Digits(s[4:6]) || s[6] != ',' || s[7] != ' ' || !ascii.Digits(s[8:12]) || s[12] != ' ' {
		return header{}, false
	}
	r := s[13:]
	h := 1
	if r[1] == ':' {
		h = 0
	}
	if !ascii.Digits(r[:h+1]) || len(r) < h+10 || r[h+1] != ':' || !ascii.Digits(r[h+2:h+4]) || r[h+4] != ':' ||
		!ascii.Digits(r[h+5:h+7]) || r[h+7] != ' ' {
		return header{}, false
	}
	hour := atoi(r[:h+1])
	switch r[h+8 : h+10] {
	case "AM":
		if hour == 12 {
			hour = 0
		}
	case "PM":
		if hour != 12 {
			hour += 12
		}
	default:
		return header{}, false
	}
	src := r[h+10:]
	if len(src) < 2 || src[0] != ' ' || src[1] == ' ' || hour > 23 || !isJULSource(src[1:]) {
		return header{}, false
	}
	c := clock{year: atoi(s[8:12]), month: monthNumber(s[0:3]), day: atoi(s[4:6]), hour: hour,
		min: atoi(r[h+2 : h+4]), sec: atoi(r[h+5 : h+7])}
	return header{format: FormatJUL, time: c.in(loc), ranks: NoRanks}, true
}

// isJULSource matches what the first line of java.util.logging's default
// format ends in: the class and the method that logged, or the logger's
// name, one or two words and no ": " (a format that prints the message on
// the same line puts it after one).
func isJULSource(s string) bool {
	cls, method, two := strings.Cut(s, " ")
	return cls != "" && !strings.Contains(s, ": ") && (!two || method != "" && strings.IndexByte(method, ' ') < 0)
}

// monthNumber is the number of an English month's abbreviation (isMonth).
func monthNumber(s string) int {
	return strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", s)/3 + 1
}

// julLevel reads java.util.logging's second line, "SEVERE: message", into
// the level it means and the message.
func julLevel(s string) (level, msg string, ok bool) {
	w, msg, ok := strings.Cut(s, ": ")
	if !ok {
		return "", "", false
	}
	switch w {
	case "SEVERE":
		return LevelError, msg, true
	case "WARNING":
		return LevelWarning, msg, true
	case "INFO", "CONFIG":
		return LevelInfo, msg, true
	case "FINE", "FINER":
		return LevelDebug, msg, true
	case "FINEST":
		return LevelTrace, msg, true
	}
	return "", "", false
}

// isJULLevelLine reports whether s is java.util.logging's second line.
func isJULLevelLine(s string) bool {
	_, _, ok := julLevel(s)
	return ok
}

// parseJournalHeader matches the first line of an entry journalctl -o
// verbose prints, "Sat 2026-12-05 10:00:00.123456 UTC [s=...;i=...]": a
// weekday, the date, the time with its microseconds, the zone's
// abbreviation (read in loc, but for UTC) and the entry's cursor.
func parseJournalHeader(s string, loc *time.Location) (header, bool) {
	if len(s) < len("Sat 2026-12-05 10:00:00 UTC [s=") || s[3] != ' ' || !isDate(s[4:14]) || s[14] != ' ' || !isClock(s[15:23]) {
		return header{}, false
	}
	c := clock{year: atoi(s[4:8]), month: atoi(s[9:11]), day: atoi(s[12:14]), hour: atoi(s[15:17]),
		min: atoi(s[18:20]), sec: atoi(s[21:23])}
	i := fracEnd(s, 23)
	if i > 24 {
		c.nsec = fraction(s[24:i])
	}
	if i >= len(s) || s[i] != ' ' {
		return header{}, false
	}
	zone, rest, ok := strings.Cut(s[i+1:], " ")
	if !ok || !strings.HasPrefix(rest, "[s=") || !strings.HasSuffix(rest, "]") {
		return header{}, false
	}
	if zone == "UTC" {
		loc = time.UTC
	}
	return header{format: FormatJournal, time: c.in(loc), ranks: NoRanks}, true
}

// journalTime reads a journal entry's __REALTIME_TIMESTAMP, microseconds
// since the epoch; zero when it is not one.
func journalTime(v string) time.Time {
	us, err := strconv.ParseInt(v, 10, 64)
	if err != nil || us <= 0 || us > 1e17 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

// parseJournalExport matches the first field of an entry journalctl -o
// export prints, "__CURSOR=s=...": its fields follow one a line, KEY=VALUE,
// up to a blank line, the time in __REALTIME_TIMESTAMP=, the level in
// PRIORITY= and the message in MESSAGE= (nextMessage reads them).
func parseJournalExport(s string) (header, bool) {
	if !strings.HasPrefix(s, "__CURSOR=") || len(s) == len("__CURSOR=") {
		return header{}, false
	}
	return header{format: FormatJournal, ranks: NoRanks}, true
}

// journalLevel is the level of a syslog priority, PRIORITY='s value.
func journalLevel(p string) string {
	if len(p) != 1 || !isDigit(p[0]) {
		return ""
	}
	switch p[0] {
	case '0', '1':
		return LevelFatal
	case '2':
		return LevelCritical
	case '3':
		return LevelError
	case '4':
		return LevelWarning
	case '5', '6':
		return LevelInfo
	case '7':
		return LevelDebug
	}
	return ""
}

// nextMessage reads the line s, taken into an entry whose header held no
// message, for that message (and, in a java.util.logging record or a
// journal entry, its level), and returns the text the continuation rules
// read of it: the message when s gave it, else s. A journal entry's
// fields are all read (PRIORITY= may come after MESSAGE=), up to
// maxFieldLines.
func (a *Assembler) nextMessage(s string) string {
	p := &a.cur
	t := strings.TrimLeft(s, " \t")
	switch p.format {
	case FormatJUL:
		p.msgNext = false
		lvl, msg, ok := julLevel(t)
		if !ok {
			return s
		}
		p.level, t = lvl, msg
	case FormatJournal:
		key, val, ok := strings.Cut(t, "=")
		if !ok || p.lines > maxFieldLines {
			p.msgNext = false
			return s
		}
		switch key {
		case "__REALTIME_TIMESTAMP":
			if t := journalTime(val); !t.IsZero() && (p.inherited || p.time.IsZero()) {
				// The export's time, after the cursor that opened
				// the entry.
				p.time, p.inherited, p.guessed = t, false, false
				a.known = t
			}
			return s
		case "PRIORITY":
			if lvl := journalLevel(val); lvl != "" {
				p.level = lvl
			}
			return s
		case "MESSAGE":
			if p.msgLine > 0 {
				return s
			}
			t = val
		default:
			return s
		}
	default:
		p.msgNext = false
		if isTracebackLine(s) || isFrameLine(s) {
			// logging.exception(""): the traceback is no message.
			return s
		}
	}
	p.msg, p.msgLine = t, a.kept.count()-1
	return t
}
