package entry

import (
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// header is what a recognised header line yields.
type header struct {
	format Format
	time   time.Time
	ranks  Ranks
	level  string
	msg    string // the line after the header
	// partial says what the header's timestamp lacks (timeNoYear,
	// timeNoDate); 0 when it is whole or absent.
	partial int8
}

// What a timestamp lacks, which its reader took from a reference time: the
// assembler then takes it from the stream's neighbouring times instead
// (see Assembler, time).
const (
	timeNoYear int8 = 1 + iota // glog, c10d, diffusion, vLLM: month and day, no year
	timeNoDate                 // legacy sglang: the time of day alone
)

// set writes every field of h, one by one: a composite literal written
// through a pointer is built in a temporary and then copied, and the copy
// reads back in 16-byte words what was just stored in 8-byte ones, which
// the processor cannot forward from its stores (a stall on every line).
func (h *header) set(f Format, t time.Time, r *Ranks, level, msg string) {
	h.format = f
	h.time = t
	h.ranks = *r
	h.level = level
	h.msg = msg
	h.partial = 0
}

// clock is a parsed wall-clock reading before a date is attached.
type clock struct {
	year, month, day, hour, min, sec, nsec int
}

// parseHeader recognises the header families of SGLANG-LOGS.md §3, §4 and
// §10 on a line whose wrappers are already stripped. uvicorn is tried before
// srt because a current uvicorn line is also a valid srt line with an empty
// prefix. ref supplies the date legacy and diffusion headers lack.
func parseHeader(s string, ref time.Time, loc *time.Location) (header, bool) {
	return parseHeaderCached(s, ref, loc, nil)
}

// parseHeaderCached is parseHeader with the second of the last bracketed
// header kept in sc (nil keeps nothing): consecutive lines of a log mostly
// share it, and then only the fraction after it is read.
func parseHeaderCached(s string, ref time.Time, loc *time.Location, sc *secondCache) (header, bool) {
	var h header
	ok := parseHeaderInto(&h, s, ref, loc, sc)
	return h, ok
}

// parseHeaderInto is parseHeaderCached writing the header to h, which it
// overwrites whole: the assembler keeps one for every line, where a
// header returned by value was copied into it.
func parseHeaderInto(h *header, s string, ref time.Time, loc *time.Location, sc *secondCache) bool {
	if s == "" {
		*h = header{}
		return false
	}
	if s[0] == '[' && sc != nil && sc.loc == loc && loc != nil && len(s) > 20 &&
		// The cached second's text, compared here (as a call, the
		// comparison is too large to be inlined).
		le64(s[1:9]) == sc.text[0] && le64(s[9:17]) == sc.text[1] && uint64(s[17])|uint64(s[18])<<8|uint64(s[19])<<16 == sc.text[2] {
		// Most lines: an srt or uvicorn header in the cached second,
		// "[ts DP0 TP0] msg" or "[ts] LEVEL:     msg" with a fraction of
		// three digits or none. They are read here in one pass, each
		// header written to h (it is large, and copying it out of a call
		// costs as much as reading it). Any other line
		// goes on to the general path below, which may still find a
		// header (a longer fraction, " encode_server", a level uvicorn
		// does not print).
		n, nsec, ok := 20, 0, true // n: where the time ends
		if s[20] == '.' {
			ok = len(s) >= 26 && isDigit(s[21]) && isDigit(s[22]) && isDigit(s[23]) && !isDigit(s[24])
			if ok {
				nsec = (int(s[21]-'0')*100 + int(s[22]-'0')*10 + int(s[23]-'0')) * 1e6
				n = 24
			}
		}
		if ok && s[n] == ']' {
			// uvicornAfterTime, then srtAfterTime without ranks.
			if n+1 < len(s) && s[n+1] == ' ' {
				if lvl, after, ok := uvicornLevelWord(s[n+2:]); ok {
					h.set(FormatUvicorn, sc.at(nsec), &NoRanks, lvl, strings.TrimLeft(after[1:], " "))
					return true
				}
				h.set(FormatSRT, sc.at(nsec), &NoRanks, "", s[n+2:])
				return true
			}
			if n+1 == len(s) {
				h.set(FormatSRT, sc.at(nsec), &NoRanks, "", "")
				return true
			}
		} else if ok && s[n] == ' ' {
			// The ranks from the table, copied from their slot into
			// the header.
			if sl := sc.fields.lookup(s[n:]); sl != nil {
				n += sl.n
				if n+1 < len(s) && s[n] == ']' && s[n+1] == ' ' {
					h.set(FormatSRT, sc.at(nsec), &sl.ranks, "", s[n+2:])
					return true
				}
			}
		}
	}
	var ok bool
	*h, ok = parseHeaderGeneral(s, ref, loc, sc)
	return ok
}

// startsRecord reports whether s starts as the lines parseHeaderInto's one
// pass reads without ranks do: "[" and the cached second, an optional
// fraction of three digits, "] ". Such a line is an srt record
// (isSGLangRecord) whatever follows: the cached second was read by
// scanDateTime, which parseSRT reads it with too.
func (sc *secondCache) startsRecord(s string) bool {
	if len(s) < 22 || s[0] != '[' || sc.loc == nil ||
		le64(s[1:9]) != sc.text[0] || le64(s[9:17]) != sc.text[1] || uint64(s[17])|uint64(s[18])<<8|uint64(s[19])<<16 != sc.text[2] {
		return false
	}
	if s[20] == ']' {
		return s[21] == ' '
	}
	return len(s) >= 26 && s[20] == '.' && isDigit(s[21]) && isDigit(s[22]) && isDigit(s[23]) && s[24] == ']' && s[25] == ' '
}

// parseHeaderGeneral is parseHeaderCached for the lines its one pass does
// not read.
func parseHeaderGeneral(s string, ref time.Time, loc *time.Location, sc *secondCache) (header, bool) {
	if s[0] == '[' {
		// Most lines are srt records: the date and time after the "[" are
		// read once for both uvicorn's and srt's bracketed forms.
		if c, n, ok := sc.scanDateTime(s[1:], loc); ok {
			// An srt record with ranks (most lines) makes no call.
			if closesAfterTime(s, n) {
				if h, ok := uvicornAfterTime(s, c, n, loc, sc); ok {
					return h, true
				}
			}
			if h, ok := srtAfterTime(s[1:], c, n, loc, sc); ok {
				return h, true
			}
		} else if h, ok := parseSRT(s[1:], loc, ref); ok {
			return h, true
		}
		if len(s) > 19 && s[3] == '/' && s[6] == '/' && s[9] == ' ' {
			// "[12/06/26 15:51:02] ERROR    msg": a column console's
			// default stamp (richlayout.go).
			if h, ok := parseSlashDateFirst(s[1:], ref, loc); ok {
				return h, true
			}
		}
		if len(s) > 9 && isClock(s[1:9]) {
			// A time of day alone: a level after it makes it a
			// logger's record, none legacy sglang's.
			if h, ok := parseClockFirst(s[1:], ref, loc, true); ok {
				return h, true
			}
			if h, ok := parseLegacy(s[1:], loc, ref); ok {
				return h, true
			}
		}
		if h, ok := parseDiffusion(s[1:], loc, ref); ok {
			return h, true
		}
		if h, ok := parseRouter(s, loc); ok {
			return h, true
		}
		if len(s) > 1 && s[1] == 'T' {
			return parseTagged(s)
		}
		if h, ok := parseTRTLLMTime(s, loc); ok {
			return h, true
		}
		if h, ok := parseRayCore(s[1:], loc); ok {
			return h, true
		}
		if len(s) > 1 && isDigit(s[1]) {
			// "[2024-04-11 10:31:54,306] [INFO] [file.py:161:f] msg":
			// a Python logging format with the time in brackets.
			return parsePythonTimeFirst(s[1:], loc)
		}
		if len(s) > 1 && isUpper(s[1]) {
			return parseBracketedLevelFirst(s, loc)
		}
		return header{}, false
	}
	if h, ok := parseUvicorn(s, loc); ok {
		return h, true
	}
	if isDigit(s[0]) {
		// A paste that lost the leading "[" (or "[2") of an srt header.
		if h, ok := parseSRT(s, loc, ref); ok {
			return h, true
		}
		if h, ok := parseDynamo(s); ok {
			return h, true
		}
		if len(s) > 2 && s[2] == '/' {
			return parseLMDeploy(s, loc, ref)
		}
		if len(s) > 2 && s[2] == ':' {
			return parseClockFirst(s, ref, loc, false)
		}
		return parsePythonTimeFirst(s, loc)
	}
	if isUpper(s[0]) {
		if h, ok := parsePythonLevelFirst(s, loc, ref); ok {
			return h, true
		}
		if len(s) > 6 && s[6] == ',' {
			return parseJULHeader(s, loc)
		}
		return parseJournalHeader(s, loc)
	}
	switch s[0] {
	case '{':
		if h, ok := parseJSONLine(s); ok {
			return h, true
		}
		return parseErrorBody(s)
	case 't', 'l':
		if strings.HasPrefix(s, "time=") || strings.HasPrefix(s, "level=") {
			return parseSlog(s)
		}
	case '_':
		return parseJournalExport(s)
	case 'd':
		// A streamed response's server-sent event: "data: {...}".
		if b, ok := strings.CutPrefix(s, "data: {"); ok {
			return parseErrorBody(s[len(s)-len(b)-1:])
		}
	}
	return header{}, false
}

// parseUvicorn matches "[ts] LEVEL:     msg" and the older "LEVEL:     msg".
func parseUvicorn(s string, loc *time.Location) (header, bool) {
	if s[0] == '[' {
		c, n, ok := scanDateTime(s[1:], '.')
		if !ok || !closesAfterTime(s, n) {
			return header{}, false
		}
		return uvicornAfterTime(s, c, n, loc, nil)
	}
	return uvicornLevel(s, time.Time{})
}

// closesAfterTime reports whether "] " follows the time that takes n bytes
// after s's "[", as in uvicorn's "[ts] LEVEL:     msg".
func closesAfterTime(s string, n int) bool { return n+2 < len(s) && s[1+n] == ']' && s[2+n] == ' ' }

// uvicornAfterTime is parseUvicorn on "[ts] LEVEL:     msg" once the time
// c, n bytes after the "[", has been read and closesAfterTime holds.
func uvicornAfterTime(s string, c clock, n int, loc *time.Location, sc *secondCache) (header, bool) {
	lvl, after, ok := uvicornLevelWord(s[n+3:])
	if !ok {
		return header{}, false // before the time is converted
	}
	return header{format: FormatUvicorn, ranks: NoRanks, time: sc.in(c, loc), level: lvl, msg: strings.TrimLeft(after[1:], " ")}, true
}

// uvicornLevel matches "LEVEL:     msg", the part after any time t.
func uvicornLevel(rest string, t time.Time) (header, bool) {
	lvl, after, ok := uvicornLevelWord(rest)
	if !ok {
		return header{}, false
	}
	return header{format: FormatUvicorn, ranks: NoRanks, time: t, level: lvl, msg: strings.TrimLeft(after[1:], " ")}, true
}

// uvicornLevelWord reads the level of "LEVEL:     msg" and what follows
// it, from the ":".
func uvicornLevelWord(rest string) (level, after string, ok bool) {
	lvl, after, ok := levelWord(rest)
	if !ok || lvl == "NOTICE" || lvl == "WARN" || lvl == "FATAL" || lvl == "SUCCESS" {
		return "", "", false
	}
	if len(after) < 2 || after[0] != ':' || after[1] != ' ' {
		return "", "", false
	}
	return lvl, after, true
}

// parseSRT matches the current sglang header after its "[":
// "YYYY-MM-DD HH:MM:SS[.mmm]<ranks>[ encode_server|encode_dp_worker[N]]] msg".
// It also accepts a line that lost the "[" or "[2" (three-digit year).
func parseSRT(s string, loc *time.Location, ref time.Time) (header, bool) {
	c, n, ok := scanDateTime(s, '.')
	if !ok {
		// "026-05-28 00:11:09.816 DP0 TP0 EP0] msg": the paste lost "[2".
		if len(s) < 4 || !isDigit(s[0]) || s[3] != '-' {
			return header{}, false
		}
		c, n, ok = scanDateTime("0"+s, '.')
		if !ok {
			return header{}, false
		}
		n--
		c.year = millennium(ref) + c.year
	}
	return srtAfterTime(s, c, n, loc, nil)
}

// srtAfterTime is parseSRT once the time c, the first n bytes of s, has
// been read.
func srtAfterTime(s string, c clock, n int, loc *time.Location, sc *secondCache) (header, bool) {
	var ranks Ranks
	var m int
	if sc != nil {
		ranks, m = sc.fields.ranks(s[n:])
	} else {
		ranks, m = parseRanks(s[n:], false)
	}
	n += m
	rest := s[n:]
	switch {
	case rest == "" || rest[0] != ' ':
		// Most records: the ranks end at the "]" (the comparisons below
		// are calls).
	case strings.HasPrefix(rest, " encode_server"):
		rest = rest[len(" encode_server"):]
	case strings.HasPrefix(rest, " encode_dp_worker["):
		t := rest[len(" encode_dp_worker["):]
		j := 0
		for j < len(t) && isDigit(t[j]) {
			j++
		}
		if j == 0 || j >= len(t) || t[j] != ']' {
			return header{}, false
		}
		rest = t[j+1:]
	}
	msg, ok := closeBracket(rest)
	if !ok {
		return header{}, false
	}
	return header{format: FormatSRT, time: sc.in(c, loc), ranks: ranks, msg: msg}, true
}

// parseLegacy matches "HH:MM:SS<ranks>] msg" (sglang before October 2024).
func parseLegacy(s string, loc *time.Location, ref time.Time) (header, bool) {
	if len(s) < 9 || !isClock(s[:8]) {
		return header{}, false
	}
	ranks, m := parseRanks(s[8:], false)
	msg, ok := closeBracket(s[8+m:])
	if !ok {
		return header{}, false
	}
	c := clock{hour: atoi(s[0:2]), min: atoi(s[3:5]), sec: atoi(s[6:8])}
	return header{format: FormatLegacy, time: c.onDay(ref, loc), ranks: ranks, msg: msg, partial: timeNoDate}, true
}

// parseDiffusion matches "MM-DD HH:MM:SS<prefix>] msg" (multimodal_gen).
func parseDiffusion(s string, loc *time.Location, ref time.Time) (header, bool) {
	if len(s) < 15 || !ascii.Digits(s[0:2]) || s[2] != '-' || !ascii.Digits(s[3:5]) || s[5] != ' ' || !isClock(s[6:14]) {
		return header{}, false
	}
	k := strings.IndexByte(s[14:], ']')
	if k < 0 || k > 128 {
		return header{}, false
	}
	ranks, _ := parseRanks(s[14:14+k], true)
	msg, ok := closeBracket(s[14+k:])
	if !ok {
		return header{}, false
	}
	c := clock{month: atoi(s[0:2]), day: atoi(s[3:5]), hour: atoi(s[6:8]), min: atoi(s[9:11]), sec: atoi(s[12:14])}
	return header{format: FormatDiffusion, time: c.inYear(ref, loc), ranks: ranks, msg: msg, partial: timeNoYear}, true
}

// routerLoggers are the prefixes of the sglang router's loggers: its Python
// launcher's logging.Formatter("[Router (Python)] %(asctime)s -
// %(levelname)s - %(message)s[ - %(filename)s:%(lineno)d]") and the early
// Rust router's log in the same shape.
var routerLoggers = [...]string{"[Router (Python)] ", "[Router (Rust)] "}

// parseRouter matches "[Router (Python)] 2024-11-25 21:28:33 - INFO - msg".
func parseRouter(s string, loc *time.Location) (header, bool) {
	for _, p := range routerLoggers {
		if strings.HasPrefix(s, p) {
			h, ok := parsePythonTimeFirst(s[len(p):], loc)
			h.format = FormatRouter
			return h, ok
		}
	}
	return header{}, false
}

// parseDynamo matches "2025-11-05T01:56:54.243403Z  INFO target: msg", the
// Rust tracing format of ai-dynamo (which re-emits sglang records in it) and
// of the sglang router and model gateway. Spans may stand before the target
// ("ERROR chat_completions: dynamo_llm::http::service::openai: msg").
func parseDynamo(s string) (header, bool) {
	n, ok := rfc3339Len(s)
	if !ok || n >= len(s) || s[n] != ' ' {
		return header{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s[:n])
	if err != nil {
		return header{}, false
	}
	lvl, rest, ok := levelWord(strings.TrimLeft(s[n:], " "))
	if !ok || rest != "" && rest[0] != ' ' || tracingGap(s[n:]) > maxTracingGap || tracingGap(rest) > 1 {
		return header{}, false
	}
	return header{format: FormatDynamo, time: t, ranks: NoRanks, level: lvl, msg: trimTracingTarget(strings.TrimLeft(rest, " "))}, true
}

// maxTracingGap is the most spaces tracing puts between its time and its
// level, which it pads to five columns on the right (" INFO", "ERROR");
// after the level it puts one. A longer run is another layout's column,
// a console's blank time column or padded level behind a collector's
// stamp ("TIME            ERROR    msg", "TIME WARNING  msg").
const maxTracingGap = 2

// tracingGap counts the blanks (spaces and tabs) s starts with.
func tracingGap(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// trimTracingTarget drops the tracing target ("scheduler.__init__: ") so
// the message reads as the program wrote it, and the span names and Rust
// module path before it ("request{id=7}: sgl_model_gateway::routers::http: ").
func trimTracingTarget(msg string) string {
	for i := 0; i < 4; i++ {
		sp := strings.IndexByte(msg, ' ')
		if sp <= 1 || msg[sp-1] != ':' || i > 0 && !isTracingField(msg[:sp]) {
			break
		}
		msg = msg[sp+1:]
	}
	return msg
}

// spanWordEnd returns the index of the first space of s outside braces (a
// span's fields, "prefill{id=0 size=1}", hold spaces), or -1.
func spanWordEnd(s string) int {
	depth := 0
	for i := 0; i < len(s) && i < 1024; i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ' ':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// isTracingField reports whether a word ending in ":" is a tracing span
// ("batch{size=1}:prefill:"), a Rust module path, a Rust source location,
// or a crate's target after a span ("shard-manager: text_generation_launcher:",
// as TGI's launcher writes a shard's events).
func isTracingField(w string) bool {
	return strings.Contains(w, "::") || strings.Contains(w, "}") || strings.Contains(w, ".rs:") || isCrateTarget(w)
}

// isCrateTarget matches a Rust crate name used as a tracing target, with
// its colon: lower-case words joined by "_" ("text_generation_launcher:").
func isCrateTarget(w string) bool {
	if len(w) < 4 || w[len(w)-1] != ':' || strings.IndexByte(w, '_') < 0 {
		return false
	}
	for i := 0; i < len(w)-1; i++ {
		if c := w[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// parseTracingNoTime matches Rust tracing output written without its
// time, "ERROR batch{size=1}:prefill: text_generation_client: msg" (rest
// is what follows the level): its first word must be a span or a module
// path, so that prose after a level word is not taken for a record.
func parseTracingNoTime(lvl, rest string) (header, bool) {
	r := strings.TrimLeft(rest, " ")
	sp := spanWordEnd(r)
	if len(rest) == len(r) || sp <= 1 || r[sp-1] != ':' || !strings.Contains(r[:sp], "::") && !strings.Contains(r[:sp], "}") {
		return header{}, false
	}
	if strings.Contains(r[:sp], "}") {
		r = r[sp+1:] // the spans, then the target
	}
	return header{format: FormatDynamo, ranks: NoRanks, level: lvl, msg: trimTracingTarget(r)}, true
}

// parsePythonTimeFirst matches Python logging formats that start with the
// time and carry a level within the next two fields:
// "2023-07-09 00:00:00,000 ERROR    name msg",
// "2024-01-01 12:00:00.123 | ERROR    | mod:fn:1 - msg",
// "2024-01-01 12:00:00,123 - name - ERROR - msg".
func parsePythonTimeFirst(s string, loc *time.Location) (header, bool) {
	c, n, ok := scanDateTime(s, ',')
	if !ok {
		return header{}, false
	}
	if n == 19 && n < len(s) && s[n] == '.' {
		c, n, _ = scanDateTime(s, '.')
	}
	t := c.in(loc)
	rest := s[n:]
	// Optional zone: "Z", "+0000", "+00:00".
	if rest != "" && rest[0] == 'Z' {
		rest = rest[1:]
	} else if len(rest) >= 5 && (rest[0] == '+' || rest[0] == '-') && ascii.Digits(rest[1:3]) {
		if ascii.Digits(rest[3:5]) {
			rest = rest[5:]
		} else if len(rest) >= 6 && rest[3] == ':' && ascii.Digits(rest[4:6]) {
			rest = rest[6:]
		}
	}
	lvl, after, ok := levelInFields(rest)
	if !ok {
		return header{}, false
	}
	h := header{format: FormatPython, time: t, ranks: NoRanks, level: lvl, msg: trimPythonLocation(trimAfterLevel(after))}
	if n, r := locatedBracket(h.msg); n > 0 {
		// A user's format that prints the process and where
		// the logger was called: not what it said.
		h.msg, h.ranks = h.msg[n:], r
	}
	return h, true
}

// parsePythonLevelFirst matches "LEVEL MM-DD HH:MM:SS[.mmm] msg" (vLLM and
// other servers), "LEVEL YYYY-MM-DD HH:MM:SS[,mmm] msg" and
// logging.basicConfig's "LEVEL:name:msg".
func parsePythonLevelFirst(s string, loc *time.Location, ref time.Time) (header, bool) {
	lvl, after, ok := levelWord(s)
	if !ok || after == "" {
		return header{}, false
	}
	if after[0] == ':' {
		// basicConfig: "ERROR:root:msg"; the logger name has no spaces.
		rest := after[1:]
		k := strings.IndexByte(rest, ':')
		if k <= 0 || strings.IndexAny(rest[:k], " \t") >= 0 {
			return header{}, false
		}
		return header{format: FormatPython, ranks: NoRanks, level: lvl, msg: rest[k+1:]}, true
	}
	r := after[1:]
	if after[0] == ' ' {
		// "ERROR 2025-03-08 02:04:48,693 name: msg"
		if c, n, ok := scanDateTime(r, ','); ok {
			if n == 19 && n < len(r) && r[n] == '.' {
				c, n, _ = scanDateTime(r, '.')
			}
			if n == len(r) || r[n] == ' ' {
				return header{format: FormatPython, time: c.in(loc), ranks: NoRanks, level: lvl, msg: strings.TrimLeft(r[n:], " ")}, true
			}
		}
	}
	if after[0] != ' ' || len(r) < 15 || !ascii.Digits(r[0:2]) || r[2] != '-' || !ascii.Digits(r[3:5]) || r[5] != ' ' || !isClock(r[6:14]) {
		return parseTracingNoTime(lvl, after)
	}
	c := clock{month: atoi(r[0:2]), day: atoi(r[3:5]), hour: atoi(r[6:8]), min: atoi(r[9:11]), sec: atoi(r[12:14])}
	i := 14
	if i < len(r) && r[i] == '.' {
		j := i + 1
		for j < len(r) && isDigit(r[j]) {
			j++
		}
		c.nsec = fraction(r[i+1 : j])
		i = j
	}
	if i < len(r) && r[i] != ' ' {
		return header{}, false
	}
	h := header{format: FormatPython, time: c.inYear(ref, loc), ranks: NoRanks, level: lvl, msg: strings.TrimLeft(r[i:], " "), partial: timeNoYear}
	if n := parseLocation(h.msg); n > 0 {
		// vLLM's "[file.py:N] ": where the logger was called, not what
		// it said (engineFields reads the record it names).
		h.msg = h.msg[n:]
	}
	return h, true
}

// parseBracketedLevelFirst matches a Python logging format that puts the
// level in brackets before the date and time: "[ERROR] 2025-05-03
// 23:03:33,244 msg" ("[%(levelname)s] %(asctime)s %(message)s").
func parseBracketedLevelFirst(s string, loc *time.Location) (header, bool) {
	lvl, after, ok := levelWord(s[1:])
	if !ok || !strings.HasPrefix(after, "] ") {
		return header{}, false
	}
	r := after[2:]
	c, n, ok := scanDateTime(r, ',')
	if !ok {
		return header{}, false
	}
	if n == 19 && n < len(r) && r[n] == '.' {
		c, n, _ = scanDateTime(r, '.')
	}
	if n < len(r) && r[n] != ' ' {
		return header{}, false
	}
	return header{format: FormatPython, time: c.in(loc), ranks: NoRanks, level: lvl, msg: strings.TrimLeft(r[n:], " ")}, true
}

// levelWords are the level names the header families print.
var levelWords = [...]string{"CRITICAL", "WARNING", "SUCCESS", "NOTICE", "DEBUG", "ERROR", "FATAL", "TRACE", "INFO", "WARN"}

// levelWord reports whether s starts with a level name not followed by a
// word character.
func levelWord(s string) (level, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	// The first byte picks the words to try, in levelWords' order: only
	// "WARNING" and "WARN" share one.
	switch s[0] {
	case 'I':
		return levelWordIs(s, "INFO")
	case 'E':
		return levelWordIs(s, "ERROR")
	case 'W':
		if l, r, ok := levelWordIs(s, "WARNING"); ok {
			return l, r, ok
		}
		return levelWordIs(s, "WARN")
	case 'D':
		return levelWordIs(s, "DEBUG")
	case 'C':
		return levelWordIs(s, "CRITICAL")
	case 'S':
		return levelWordIs(s, "SUCCESS")
	case 'N':
		return levelWordIs(s, "NOTICE")
	case 'F':
		return levelWordIs(s, "FATAL")
	case 'T':
		return levelWordIs(s, "TRACE")
	}
	return "", "", false
}

// levelWordIs is levelWord for the one word w.
func levelWordIs(s, w string) (level, rest string, ok bool) {
	if strings.HasPrefix(s, w) && (len(s) == len(w) || !isWordByte(s[len(w)])) {
		return w, s[len(w):], true
	}
	return "", "", false
}

func isSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '|' || c == '-' || c == ':' || c == '[' || c == ']'
}

func trimSeparators(s string) string {
	for s != "" && isSeparator(s[0]) {
		s = s[1:]
	}
	return s
}

// trimAfterLevel removes the padding and one field separator after a level.
func trimAfterLevel(s string) string {
	s = strings.TrimPrefix(s, "]")
	s = strings.TrimPrefix(s, ":")
	s = strings.TrimLeft(s, " \t")
	if strings.HasPrefix(s, "| ") || strings.HasPrefix(s, "- ") {
		s = s[2:]
	}
	return s
}

// closeBracket expects "] msg" or a bare "]" and returns msg.
func closeBracket(s string) (string, bool) {
	if s == "]" {
		return "", true
	}
	if len(s) < 2 || s[0] != ']' || s[1] != ' ' {
		return "", false
	}
	return s[2:], true
}

// parseRanks reads " DP0 TP1 ..." tokens in any order: the scheduler prefix
// tokens of SGLANG-LOGS.md §2 (DP, PP, ATTN_CP, MOE_DP, TP, EP). It stops at the first
// byte that is not a token; lenient skips unknown space-separated words
// instead (the diffusion prefix is not pinned down).
func parseRanks(s string, lenient bool) (Ranks, int) {
	r := NoRanks
	i := 0
	for i < len(s) && s[i] == ' ' {
		t := s[i+1:]
		// The names start with different letters, so the first one picks
		// the only token that can match; each is compared as a constant
		// (no call).
		n := 0 // the name's length when t starts with it
		var field *int
		if t != "" {
			switch t[0] {
			case 'A':
				if strings.HasPrefix(t, "ATTN_CP") {
					n, field = len("ATTN_CP"), &r.AttnCP
				}
			case 'M':
				if strings.HasPrefix(t, "MOE_DP") {
					n, field = len("MOE_DP"), &r.MoeDP
				}
			case 'D':
				if len(t) > 1 && t[1] == 'P' {
					n, field = 2, &r.DP
				}
			case 'P':
				if len(t) > 1 && t[1] == 'P' {
					n, field = 2, &r.PP
				}
			case 'T':
				if len(t) > 1 && t[1] == 'P' {
					n, field = 2, &r.TP
				}
			case 'E':
				if len(t) > 1 && t[1] == 'P' {
					n, field = 2, &r.EP
				}
			}
		}
		if n > 0 {
			j := n
			for j < len(t) && isDigit(t[j]) {
				j++
			}
			if j > n && j-n <= 6 {
				*field = atoi(t[n:j])
				i += 1 + j
				continue
			}
		}
		if !lenient {
			break
		}
		j := strings.IndexByte(t, ' ')
		if j < 0 {
			j = len(t)
		}
		i += 1 + j
	}
	return r, i
}

// scanDateTime reads "YYYY-MM-DD HH:MM:SS" and an optional fraction after
// sep. It returns the reading and the bytes consumed.
func scanDateTime(s string, sep byte) (clock, int, bool) {
	if len(s) < 19 || !isDate(s[:10]) || (s[10] != ' ' && s[10] != 'T') || !isClock(s[11:19]) {
		return clock{}, 0, false
	}
	c := clock{
		year: atoi(s[0:4]), month: atoi(s[5:7]), day: atoi(s[8:10]),
		hour: atoi(s[11:13]), min: atoi(s[14:16]), sec: atoi(s[17:19]),
	}
	return c, readFraction(s, 19, sep, &c), true
}

// readFraction reads the fraction of a second that may follow the time
// ending at s[n], after sep, into c.nsec, and returns where the time ends.
func readFraction(s string, n int, sep byte, c *clock) int {
	if n < len(s) && s[n] == sep {
		j := n + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j > n+1 {
			c.nsec = fraction(s[n+1 : j])
			n = j
		}
	}
	return n
}

// readMillis is readFraction(s, n, sep, c) deciding the common case, three
// digits (milliseconds) or no fraction, without loops.
func readMillis(s string, n int, sep byte, c *clock) int {
	if n >= len(s) || s[n] != sep {
		return n
	}
	if n+4 < len(s) && isDigit(s[n+1]) && isDigit(s[n+2]) && isDigit(s[n+3]) && !isDigit(s[n+4]) {
		c.nsec = (int(s[n+1]-'0')*100 + int(s[n+2]-'0')*10 + int(s[n+3]-'0')) * 1e6
		return n + 4
	}
	return readFraction(s, n, sep, c)
}

// secondCache remembers the last "YYYY-MM-DD HH:MM:SS" a bracketed header
// began with and the time it denotes in loc; it is empty while loc is nil
// (a header's location never is). The cached time is that
// second's own, with the zone offset of that second, so adding a fraction to
// it gives exactly what time.Date gives with the fraction: zone transitions
// fall on whole seconds.
type secondCache struct {
	text  dateTimeText // the date and time, as the header has them
	clock clock        // text parsed, nsec 0
	loc   *time.Location
	unix  int64 // clock in loc, as Unix seconds

	// fields remembers the rank fields that follow the time (they do not
	// depend on it).
	fields rankCache
}

// scanDateTime is scanDateTime(s, '.') through the cache: a line that
// starts with the cached second has only its fraction read. A nil cache
// reads every line whole.
func (sc *secondCache) scanDateTime(s string, loc *time.Location) (clock, int, bool) {
	if sc == nil || sc.loc != loc || len(s) < 19 || readDateTimeText(s) != sc.text {
		c, n, ok := scanDateTime(s, '.')
		if ok && sc != nil {
			sc.text = readDateTimeText(s)
			sc.clock = c
			sc.clock.nsec = 0
			sc.loc = loc
			sc.unix = sc.clock.in(loc).Unix()
		}
		return c, n, ok
	}
	c := sc.clock
	return c, readMillis(s, 19, '.', &c), true
}

// dateTimeText is the 19 bytes of "YYYY-MM-DD HH:MM:SS" as three words,
// so that two are compared without a call.
type dateTimeText [3]uint64

// readDateTimeText reads the first 19 bytes of s (it has at least 19).
func readDateTimeText(s string) dateTimeText {
	t := s[:19]
	return dateTimeText{
		uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56,
		uint64(t[8]) | uint64(t[9])<<8 | uint64(t[10])<<16 | uint64(t[11])<<24 |
			uint64(t[12])<<32 | uint64(t[13])<<40 | uint64(t[14])<<48 | uint64(t[15])<<56,
		uint64(t[16]) | uint64(t[17])<<8 | uint64(t[18])<<16,
	}
}

// in is c.in(loc), from the cache when c falls in the cached second.
func (sc *secondCache) in(c clock, loc *time.Location) time.Time {
	if sc == nil || sc.loc != loc {
		return c.in(loc)
	}
	// Field by field, the second first (it changes most): a comparison
	// of the structs calls memequal, and this runs for every header.
	k := &sc.clock
	if c.sec != k.sec || c.min != k.min || c.hour != k.hour || c.day != k.day || c.month != k.month || c.year != k.year {
		return c.in(loc)
	}
	return sc.at(c.nsec)
}

// at is the cached second with nsec nanoseconds (0 <= nsec < 1e9) in it:
// what time.Date returns for the reading, which is the Unix second its
// fields denote in loc with the nanoseconds set, in loc. Building it so
// skips time.Time.Add's carry and monotonic handling.
func (sc *secondCache) at(nsec int) time.Time {
	return time.Unix(sc.unix, int64(nsec)).In(sc.loc)
}

// fraction converts the digits after a decimal point to nanoseconds.
func fraction(d string) int {
	ns := 0
	for i := 0; i < 9; i++ {
		ns *= 10
		if i < len(d) {
			ns += int(d[i] - '0')
		}
	}
	return ns
}

// in places a full reading in loc.
func (c clock) in(loc *time.Location) time.Time {
	return time.Date(c.year, time.Month(c.month), c.day, c.hour, c.min, c.sec, c.nsec, loc)
}

// onDay attaches ref's date to a time of day. A result more than an hour
// after ref was written the day before (read after midnight).
func (c clock) onDay(ref time.Time, loc *time.Location) time.Time {
	if ref.IsZero() {
		return time.Time{}
	}
	r := ref.In(loc)
	t := time.Date(r.Year(), r.Month(), r.Day(), c.hour, c.min, c.sec, c.nsec, loc)
	if t.Sub(r) > time.Hour {
		t = t.AddDate(0, 0, -1)
	}
	return t
}

// nearest returns the reading of t that lacks what partial says (its year,
// or its date) with that part taken so that it lies nearest to near, a
// neighbouring line's time: one year or one day before, at or after near's.
// A December line next to a January one stays in December, and a line
// just after midnight next to one just before it is on the next day.
func nearest(t time.Time, partial int8, near time.Time, loc *time.Location) time.Time {
	if t.IsZero() || near.IsZero() || partial == 0 {
		return t
	}
	t, n := t.In(loc), near.In(loc)
	best, bestD := t, time.Duration(-1)
	for k := -1; k <= 1; k++ {
		var c time.Time
		if partial == timeNoYear {
			if t.Month() == time.February && t.Day() == 29 && !isLeap(n.Year()+k) {
				continue
			}
			c = time.Date(n.Year()+k, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
		} else {
			c = time.Date(n.Year(), n.Month(), n.Day()+k, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
		}
		d := c.Sub(n)
		if d < 0 {
			d = -d
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// inYear attaches ref's year to a month-day reading. A result more than a
// day after ref belongs to the year before (December logs read in January).
func (c clock) inYear(ref time.Time, loc *time.Location) time.Time {
	if ref.IsZero() {
		return time.Time{}
	}
	r := ref.In(loc)
	t := time.Date(r.Year(), time.Month(c.month), c.day, c.hour, c.min, c.sec, c.nsec, loc)
	if t.Sub(r) > 24*time.Hour {
		t = time.Date(r.Year()-1, time.Month(c.month), c.day, c.hour, c.min, c.sec, c.nsec, loc)
	}
	return t
}

// millennium returns the thousands of ref's year, or 2000 without ref: a
// three-digit year "026" lost its leading "2".
func millennium(ref time.Time) int {
	if ref.IsZero() {
		return 2000
	}
	return ref.Year() / 1000 * 1000
}

// String renders the ranks as sglang prints them, in the current order
// ("DP0 PP0 ATTN_CP0 MOE_DP0 TP1 EP1"); "" when none is set.
func (r Ranks) String() string {
	// Built on the stack: the string is the one allocation.
	var buf [64]byte
	b := buf[:0]
	add := func(name string, v int) {
		if v < 0 {
			return
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, name...)
		b = strconv.AppendInt(b, int64(v), 10)
	}
	add("DP", r.DP)
	add("PP", r.PP)
	add("ATTN_CP", r.AttnCP)
	add("MOE_DP", r.MoeDP)
	add("TP", r.TP)
	add("EP", r.EP)
	return string(b)
}
