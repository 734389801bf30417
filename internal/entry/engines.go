package entry

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Header families of the serving engines other than sglang
// (ENGINE-LOGS.md). vLLM's "LEVEL MM-DD HH:MM:SS [file.py:N] msg" stays
// FormatPython, read by parsePythonLevelFirst with its location kept
// apart (see header.loc).
const (
	// FormatRayCore is Ray's C++ core logger:
	// "[2024-05-01 12:00:00,123 E 4242 4242] core_worker.cc:97: msg".
	FormatRayCore Format = "raycore"
	// FormatSlog is Go's log/slog text output (Ollama):
	// `time=… level=ERROR source=server.go:1 msg="…" error="…"`.
	FormatSlog Format = "slog"
	// FormatJSON is a JSON log line with a level and a message:
	// `{"level":"ERROR","msg":"…"}`, TGI's --json-output
	// (`"fields":{"message":…}`), the old llama.cpp server's lines.
	FormatJSON Format = "json"
	// FormatTRTLLM is TensorRT-LLM's loggers: the C++ runtime's
	// "[TensorRT-LLM][ERROR] msg" and the Python
	// "[TRT-LLM] [RANK 0] [E] msg", with or without a leading
	// "[MM/DD/YYYY-HH:MM:SS] ".
	FormatTRTLLM Format = "trtllm"
	// FormatTurboMind is LMDeploy's C++ engine: "[TM][ERROR] msg".
	FormatTurboMind Format = "turbomind"
	// FormatLMDeploy is LMDeploy's older Python logger:
	// "MM/DD HH:MM:SS - lmdeploy - ERROR - file.py - func - N - msg".
	FormatLMDeploy Format = "lmdeploy"
)

// parseLocation reads the logger location vLLM writes after its time,
// "[file.py:N] " (older releases "file.py:N] ", and seen garbled as
// "[file.py:N[] "), at the start of s. It returns the bytes it takes, the
// trailing space included, or 0 when s does not start with one.
func parseLocation(s string) int {
	i := 0
	if s != "" && s[0] == '[' {
		i = 1
	}
	j := i
	for j < len(s) && j-i < 128 && s[j] != ':' && s[j] != ' ' && s[j] != ']' && s[j] != '[' {
		j++
	}
	if j == i || j >= len(s) || s[j] != ':' || !strings.Contains(s[i:j], ".") {
		return 0
	}
	k := j + 1
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k == j+1 {
		return 0
	}
	switch {
	case strings.HasPrefix(s[k:], "[]"):
		k += 2
	case k < len(s) && s[k] == ']':
		k++
	default:
		return 0
	}
	if k == len(s) {
		return k
	}
	if s[k] != ' ' {
		return 0
	}
	return k + 1
}

// maxLocatedBracket bounds the process and location fields
// locatedBracket reads.
const maxLocatedBracket = 160

// locatedBracket reads the fields a user's Python logging format may put
// between the level and the message, "31423 [ TP6 PP0 scheduler.py:2547] ":
// an optional process id, then a bracket whose last word is where the
// logger was called (file.py:N), the words before it sglang's rank tokens
// or anything else. It returns the bytes it takes, the space after the
// bracket included, and the ranks the bracket names; 0 when s does not
// start with such fields.
func locatedBracket(s string) (int, Ranks) {
	i := 0
	for i < len(s) && i < 10 && isDigit(s[i]) {
		i++
	}
	if i > 0 {
		if i >= len(s) || s[i] != ' ' {
			return 0, NoRanks
		}
		i++
	}
	if i >= len(s) || s[i] != '[' {
		return 0, NoRanks
	}
	k := strings.IndexByte(s[i:], ']')
	if k < 0 || k > maxLocatedBracket {
		return 0, NoRanks
	}
	inner := strings.TrimRight(s[i+1:i+k], " ")
	w := strings.LastIndexByte(inner, ' ')
	loc := inner[w+1:]
	c := strings.LastIndexByte(loc, ':')
	if c <= 0 || !ascii.Digits(loc[c+1:]) || !strings.HasSuffix(loc[:c], ".py") || strings.IndexByte(inner, '[') >= 0 {
		return 0, NoRanks
	}
	end := i + k + 1
	if end < len(s) {
		if s[end] != ' ' {
			return 0, NoRanks
		}
		end++
	}
	ranks := NoRanks
	if w > 0 {
		before := " " + strings.TrimLeft(inner[:w], " ")
		if r, n := parseRanks(before, false); n == len(before) {
			ranks = r
		}
	}
	return end, ranks
}

// glogLetterLevel maps a one-letter level (glog, Ray core, TensorRT-LLM's
// Python logger) to its word; "" for any other byte.
func glogLetterLevel(c byte) string {
	switch c {
	case 'D':
		return "DEBUG"
	case 'V':
		return "TRACE"
	}
	return glogLevel(c)
}

// parseRayCore matches Ray's C++ logger after its "[":
// "2024-05-01 12:00:00,123 E 4242 4242] core_worker.cc:97: msg". The
// location ("core_worker.cc:97: ") is not part of the message.
func parseRayCore(s string, loc *time.Location) (header, bool) {
	c, n, ok := scanDateTime(s, ',')
	if !ok || len(s) < n+4 || s[n] != ' ' || s[n+2] != ' ' {
		return header{}, false
	}
	lvl := glogLetterLevel(s[n+1])
	if lvl == "" {
		return header{}, false
	}
	r := s[n+3:]
	i := 0
	for i < len(r) && isDigit(r[i]) {
		i++
	}
	if i == 0 || i >= len(r) || r[i] != ' ' {
		return header{}, false
	}
	j := i + 1
	for j < len(r) && isDigit(r[j]) {
		j++
	}
	if j == i+1 || !strings.HasPrefix(r[j:], "]") {
		return header{}, false
	}
	msg := strings.TrimPrefix(r[j+1:], " ")
	// "core_worker.cc:97: " before the message.
	if k := strings.Index(msg, ": "); k > 0 && k < 128 && strings.IndexByte(msg[:k], ' ') < 0 {
		if c := strings.LastIndexByte(msg[:k], ':'); c > 0 && ascii.Digits(msg[c+1:k]) {
			msg = msg[k+2:]
		}
	}
	return header{format: FormatRayCore, time: c.in(loc), ranks: NoRanks, level: lvl, msg: msg}, true
}

// engineFields reads what a header of vLLM, Ray core or TensorRT-LLM says
// beyond header, as the line writes it (no copy): the text that names its
// record, and the process or rank it names. line is the line the header
// h was read from; the message is its tail.
//
// A record's text is vLLM's header through its logger location ("ERROR
// 05-01 12:00:00 [core.py:123]"), or Ray core's level, pid, thread and
// location ("E 4242 4243] core_worker.cc:97"): both write a multi-line
// message as lines that each repeat it (Ray a few milliseconds apart),
// so a line with the same text continues the record. "" when the header
// has no location. The process is Ray core's pid ("4242") or
// TensorRT-LLM's rank ("RANK 0").
func engineFields(h *header, line string) (record, proc string) {
	if len(h.msg) > len(line) {
		return "", ""
	}
	head := line[:len(line)-len(h.msg)]
	switch h.format {
	case FormatPython:
		if h.partial != timeNoYear {
			// A format with the year names a record when it ends in
			// the logger's location, as vLLM's does: a handler that
			// writes every line of a record with its header repeats
			// it.
			b := strings.LastIndexByte(head, '[')
			if n, _ := locatedBracket(head[max(b, 0):]); b < 0 || n == 0 || b+n != len(head) {
				return "", ""
			}
		}
		if head = strings.TrimRight(head, " "); strings.HasSuffix(head, "]") {
			return head, ""
		}
	case FormatRayCore:
		// "[2024-05-01 12:00:00,123 E 4242 4243] core_worker.cc:97: "
		if len(head) < 21 {
			return "", ""
		}
		k := strings.IndexByte(head[20:], ' ')
		if k < 0 {
			return "", ""
		}
		head = head[20+k+1:] // "E 4242 4243] core_worker.cc:97: "
		if len(head) > 2 {
			if e := strings.IndexByte(head[2:], ' '); e > 0 {
				proc = head[2 : 2+e]
			}
		}
		if !strings.HasSuffix(head, "] ") {
			record = strings.TrimSuffix(head, ": ")
		} else if isSourceLocation(h.msg) && strings.IndexByte(h.msg, ' ') < 0 {
			// The location alone, its colon and the message cut off
			// by a terminal ("...140771] logging.cc:361" and ": PC: @
			// ..."): the record's text all the same.
			record = head + h.msg
		}
		return record, proc
	case FormatTRTLLM:
		if i := strings.Index(head, "[RANK "); i >= 0 {
			if k := strings.IndexByte(head[i:], ']'); k > 0 {
				return "", head[i+1 : i+k]
			}
		}
	}
	return "", ""
}

// hasEngineFields reports whether engineFields may find something in a
// header of format f: most headers (sglang's) are not asked.
func hasEngineFields(h *header) bool {
	return h.format == FormatPython || h.format == FormatRayCore || h.format == FormatTRTLLM
}

// trtllmTags are the tags TensorRT-LLM's and TurboMind's C++ loggers put
// before their bracketed level word.
var trtllmTags = [...]struct {
	tag    string
	format Format
}{{"[TensorRT-LLM]", FormatTRTLLM}, {"[TM]", FormatTurboMind}}

// parseTagged matches "[TensorRT-LLM][ERROR] msg", "[TM][WARNING] msg",
// "[TRT-LLM] [RANK 0] [E] msg" and "[TRT-LLM] [E] msg", on a line that
// starts with "[".
func parseTagged(s string) (header, bool) {
	for _, t := range trtllmTags {
		if !strings.HasPrefix(s, t.tag) {
			continue
		}
		r := s[len(t.tag):]
		if r == "" || r[0] != '[' {
			return header{}, false
		}
		k := strings.IndexByte(r, ']')
		if k < 2 {
			return header{}, false
		}
		lvl, rest, ok := levelWord(r[1:k])
		if !ok || rest != "" {
			return header{}, false
		}
		return header{format: t.format, ranks: NoRanks, level: lvl, msg: strings.TrimPrefix(r[k+1:], " ")}, true
	}
	r, ok := strings.CutPrefix(s, "[TRT-LLM] ")
	if !ok {
		return header{}, false
	}
	h := header{format: FormatTRTLLM, ranks: NoRanks}
	if rest, ok := strings.CutPrefix(r, "[RANK "); ok {
		i := 0
		for i < len(rest) && isDigit(rest[i]) {
			i++
		}
		if i == 0 || !strings.HasPrefix(rest[i:], "] ") {
			return header{}, false
		}
		r = rest[i+2:]
	}
	if len(r) < 3 || r[0] != '[' || r[2] != ']' {
		return header{}, false
	}
	if h.level = glogLetterLevel(r[1]); h.level == "" {
		return header{}, false
	}
	h.msg = strings.TrimPrefix(r[3:], " ")
	return h, true
}

// parseTRTLLMTime matches TensorRT-LLM's Python logger with its time,
// "[04/30/2025-14:03:32] [TRT-LLM] [E] msg", on a line that starts with
// "[".
func parseTRTLLMTime(s string, loc *time.Location) (header, bool) {
	// "[MM/DD/YYYY-HH:MM:SS] "
	if len(s) < 23 || !ascii.Digits(s[1:3]) || s[3] != '/' || !ascii.Digits(s[4:6]) || s[6] != '/' || !ascii.Digits(s[7:11]) ||
		s[11] != '-' || !isClock(s[12:20]) || s[20] != ']' || s[21] != ' ' {
		return header{}, false
	}
	h, ok := parseTagged(s[22:])
	if !ok {
		return header{}, false
	}
	c := clock{year: atoi(s[7:11]), month: atoi(s[1:3]), day: atoi(s[4:6]), hour: atoi(s[12:14]), min: atoi(s[15:17]), sec: atoi(s[18:20])}
	h.time = c.in(loc)
	return h, true
}

// parseLMDeploy matches LMDeploy's older logger,
// "MM/DD HH:MM:SS - lmdeploy - ERROR - file.py - func - N - msg": the
// message is what follows the file, function and line fields.
func parseLMDeploy(s string, loc *time.Location, ref time.Time) (header, bool) {
	if len(s) < 20 || !ascii.Digits(s[0:2]) || s[2] != '/' || !ascii.Digits(s[3:5]) || s[5] != ' ' || !isClock(s[6:14]) || !strings.HasPrefix(s[14:], " - ") {
		return header{}, false
	}
	r := s[17:]
	sp := strings.Index(r, " - ")
	if sp <= 0 || sp > 64 {
		return header{}, false
	}
	lvl, rest, ok := levelWord(r[sp+3:])
	if !ok || !strings.HasPrefix(rest, " - ") {
		return header{}, false
	}
	msg := rest[3:]
	// "file.py - func - N - ": three fields, the last a line number.
	if f := strings.SplitN(msg, " - ", 4); len(f) == 4 && strings.HasSuffix(f[0], ".py") && ascii.Digits(f[2]) && f[2] != "" {
		msg = f[3]
	}
	c := clock{month: atoi(s[0:2]), day: atoi(s[3:5]), hour: atoi(s[6:8]), min: atoi(s[9:11]), sec: atoi(s[12:14])}
	return header{format: FormatLMDeploy, time: c.inYear(ref, loc), ranks: NoRanks, level: lvl, msg: msg, partial: timeNoYear}, true
}

// trimPythonLocation drops a "file.py:N - " location that LMDeploy's
// newer logger writes after the level ("ERROR - engine.py:123 - msg").
func trimPythonLocation(msg string) string {
	k := strings.Index(msg, " - ")
	if k <= 0 || k > 128 {
		return msg
	}
	f := msg[:k]
	c := strings.LastIndexByte(f, ':')
	if c <= 0 || !ascii.Digits(f[c+1:]) || c+1 == len(f) || !strings.HasSuffix(f[:c], ".py") || strings.IndexByte(f, ' ') >= 0 {
		return msg
	}
	return msg[k+3:]
}

// maxKeyValueLine bounds the lines the key=value and JSON readers parse:
// a longer line was cut (see Options.MaxLineBytes) and is read as text.
const maxKeyValueLine = 8 << 10

// parseSlog matches Go's log/slog (and logfmt) text output,
// `time=2024-05-01T12:00:00.000Z level=ERROR source=server.go:1 msg="…"
// error="…"`: the message is msg's value unquoted, followed by ": " and
// the value of error or err when there is one, the way Go code wraps an
// error. Other keys are left out of the message (they stay in Raw).
func parseSlog(s string) (header, bool) {
	if len(s) > maxKeyValueLine {
		return header{}, false
	}
	h := header{format: FormatSlog, ranks: NoRanks}
	var msg, errv string
	var hasLevel, hasMsg bool
	for r := s; r != ""; {
		eq := strings.IndexByte(r, '=')
		if eq <= 0 {
			return header{}, false
		}
		key := r[:eq]
		if strings.IndexByte(key, ' ') >= 0 || strings.IndexByte(key, '"') >= 0 {
			return header{}, false
		}
		val, rest, ok := logfmtValue(r[eq+1:])
		if !ok {
			return header{}, false
		}
		switch key {
		case "time", "ts":
			if t, err := time.Parse(time.RFC3339Nano, val); err == nil {
				h.time = t
			}
		case "level", "lvl":
			lvl, tail, ok := levelWord(strings.ToUpper(val))
			if !ok || tail != "" {
				return header{}, false
			}
			h.level, hasLevel = lvl, true
		case "msg", "message":
			msg, hasMsg = val, true
		case "error", "err":
			errv = val
		}
		r = strings.TrimLeft(rest, " ")
	}
	if !hasLevel || !hasMsg {
		return header{}, false
	}
	h.msg = joinError(msg, errv)
	return h, true
}

// joinError writes a message and the error it carries as Go code wraps
// one: "msg: err".
func joinError(msg, err string) string {
	switch {
	case err == "":
		return msg
	case msg == "":
		return err
	}
	return msg + ": " + err
}

// logfmtValue reads one value of a key=value line: a quoted string
// (unquoted, as strconv writes it) or a run of bytes up to a space. It
// returns the value, the rest of the line and whether the value is well
// formed.
func logfmtValue(s string) (val, rest string, ok bool) {
	if s == "" || s[0] != '"' {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return s, "", true
		}
		return s[:i], s[i:], true
	}
	// The closing quote: the first unescaped one.
	i := 1
	escaped := false
	for ; i < len(s); i++ {
		switch {
		case escaped:
			escaped = false
		case s[i] == '\\':
			escaped = true
		case s[i] == '"':
			q := s[:i+1]
			if strings.IndexByte(q, '\\') < 0 {
				return q[1 : len(q)-1], s[i+1:], true
			}
			u, err := strconv.Unquote(q)
			if err != nil {
				return "", "", false
			}
			return u, s[i+1:], true
		}
	}
	return "", "", false
}

// jsonLine is what a JSON log line may say; encoding/json matches the
// keys without regard to case.
type jsonLine struct {
	Level    string          `json:"level"`
	Severity string          `json:"severity"`
	Msg      *string         `json:"msg"`
	Message  *string         `json:"message"`
	Error    string          `json:"error"`
	Err      string          `json:"err"`
	Fields   *jsonFields     `json:"fields"`
	Time     json.RawMessage `json:"time"`
	Stamp    json.RawMessage `json:"timestamp"`
	// journalctl -o json's fields: the syslog priority, and the time in
	// microseconds since the epoch (MESSAGE is read as message).
	Priority string `json:"PRIORITY"`
	Realtime string `json:"__REALTIME_TIMESTAMP"`
}

// jsonFields holds a tracing subscriber's event fields (TGI's
// --json-output).
type jsonFields struct {
	Message *string `json:"message"`
}

// parseJSONLine matches a JSON object on one line that has a level and a
// message: the level of "level" or "severity", the message of "msg",
// "message" or "fields.message", joined with "error" or "err" like
// parseSlog's. The time is read from "timestamp" or "time", RFC 3339 or
// Unix seconds.
func parseJSONLine(s string) (header, bool) {
	t := strings.TrimRight(s, " \t")
	if len(t) < 2 || len(t) > maxKeyValueLine || t[len(t)-1] != '}' || !strings.Contains(t, `"level"`) && !strings.Contains(t, `"severity"`) && !strings.Contains(t, `"PRIORITY"`) {
		return header{}, false
	}
	var j jsonLine
	if err := json.Unmarshal([]byte(t), &j); err != nil {
		return header{}, false
	}
	lv := j.Level
	if lv == "" {
		lv = j.Severity
	}
	lvl, tail, ok := levelWord(strings.ToUpper(lv))
	if lv == "" && j.Priority != "" {
		// A journal entry (journalctl -o json): its syslog priority.
		lvl, tail = journalLevel(j.Priority), ""
		ok = lvl != ""
	}
	if !ok || tail != "" {
		return header{}, false
	}
	var msg *string
	switch {
	case j.Msg != nil:
		msg = j.Msg
	case j.Message != nil:
		msg = j.Message
	case j.Fields != nil && j.Fields.Message != nil:
		msg = j.Fields.Message
	default:
		return header{}, false
	}
	errv := j.Error
	if errv == "" {
		errv = j.Err
	}
	h := header{format: FormatJSON, ranks: NoRanks, level: lvl, msg: joinError(strings.TrimRight(*msg, "\n"), errv)}
	for _, raw := range [...]json.RawMessage{j.Stamp, j.Time} {
		if h.time = jsonTime(raw); !h.time.IsZero() {
			break
		}
	}
	if h.time.IsZero() && j.Realtime != "" {
		h.time = journalTime(j.Realtime)
	}
	return h, true
}

// jsonTime reads an RFC 3339 string or a number of Unix seconds; zero
// when raw is neither.
func jsonTime(raw json.RawMessage) time.Time {
	if len(raw) == 0 {
		return time.Time{}
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}
		}
		return t
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f <= 0 || f > 1e11 {
		return time.Time{}
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC()
}
