package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Format is the framing of a log file.
type Format string

// Formats accepted by --format.
const (
	FormatAuto   Format = "auto"   // decided per file from its first non-empty line
	FormatRaw    Format = "raw"    // one log line per physical line
	FormatCRI    Format = "cri"    // containerd/CRI-O: "<RFC3339Nano> <stdout|stderr> <P|F> <msg>"
	FormatDocker Format = "docker" // docker json-file: {"log":"...\n","stream":"stderr","time":"..."}
)

// ParseFormat checks a --format value; "" means auto.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case "":
		return FormatAuto, nil
	case FormatAuto, FormatRaw, FormatCRI, FormatDocker:
		return f, nil
	}
	return "", fmt.Errorf("format %q: want auto, raw, cri or docker", s)
}

// frame is one logical line produced by the framer.
type frame struct {
	text      []byte // valid until the next push
	stream    string
	time      time.Time // runtime time; zero for raw lines
	offset    int64     // raw offset of the first physical line
	end       int64     // raw offset just past the last physical line
	truncated bool
	// framing is the bytes of the runtime's framing in front of text on
	// its physical line (a CRI line's time, stream and tag); 0 for a raw
	// line and a line joined from partials.
	framing int
}

// partial is a CRI "P" or docker unterminated line waiting for its end.
type partial struct {
	active bool
	start  int64
	end    int64 // just past the last physical line appended
	buf    []byte
	cut    bool
	time   time.Time
}

// framer decodes container-runtime framing. Partial lines are joined per
// stream, so stdout and stderr of one container interleave freely; the join
// is bounded by max. A line that does not parse in the file's format is
// passed through raw and counted, never dropped.
type framer struct {
	format Format // FormatAuto until the first non-empty line decides
	max    int
	pend   [2]partial // by stream: 0 stdout, 1 stderr
	bad    int64      // framing errors since the caller last read it
	// last is the stream of the latest line that parsed in the format: a
	// line that does not (the rest of a line a terminal or a paste
	// folded, a line the runtime did not write) is passed through raw
	// on that stream, with the lines it goes on from.
	last string
}

func newFramer(f Format, max int) *framer { return &framer{format: f, max: max} }

// resume is the offset from which a re-read would lose nothing: the start of
// the oldest open partial line, or end.
func (f *framer) resume(end int64) int64 {
	for i := range f.pend {
		if f.pend[i].active && f.pend[i].start < end {
			end = f.pend[i].start
		}
	}
	return end
}

// reset drops open partial lines (their bytes will be read again).
func (f *framer) reset() {
	for i := range f.pend {
		f.pend[i] = partial{buf: f.pend[i].buf[:0]}
	}
}

// push decodes one physical line that spans raw offsets [start, end); cut
// says the splitter cut it. out receives zero or more logical lines.
func (f *framer) push(b []byte, start, end int64, cut bool, out func(frame) error) error {
	if f.format == FormatAuto {
		if len(bytes.TrimSpace(b)) == 0 {
			return f.raw(b, start, end, cut, out)
		}
		f.format = detectFormat(b)
	}
	switch f.format {
	case FormatCRI:
		c, ok := parseCRI(b)
		if !ok {
			break
		}
		f.last = c.stream
		return f.join(streamIndex(c.stream), c.stream, c.time, c.msg, len(b)-len(c.msg), c.partial, start, end, cut, out)
	case FormatDocker:
		d, ok := parseDocker(b)
		if !ok {
			break
		}
		msg, complete := bytes.CutSuffix(d.log, []byte("\n"))
		f.last = d.stream
		return f.join(streamIndex(d.stream), d.stream, d.time, msg, 0, !complete, start, end, cut, out)
	default:
		return f.raw(b, start, end, cut, out)
	}
	f.bad++
	if len(b) > f.max {
		b, cut = b[:f.max], true
	}
	return out(frame{text: b, stream: f.last, offset: start, end: end, truncated: cut})
}

// raw passes a physical line through undecoded, cut at the line bound
// (the physical bound leaves room for framing).
func (f *framer) raw(b []byte, start, end int64, cut bool, out func(frame) error) error {
	if len(b) > f.max {
		b, cut = b[:f.max], true
	}
	return out(frame{text: b, offset: start, end: end, truncated: cut})
}

// framingSlack is how much longer than the line bound a physical line of a
// framed format may be before the splitter cuts it: room for the CRI prefix
// and for docker's JSON escaping of a 16 KiB chunk.
const framingSlack = 96 << 10

// physicalBound is the splitter bound for lines of format f.
func physicalBound(f Format, max int) int {
	if f == FormatRaw {
		return max
	}
	return max + framingSlack
}

// join delivers msg, the message of one physical line of stream i behind
// framing bytes of the runtime's, or keeps it until its line's last part.
func (f *framer) join(i int, stream string, t time.Time, msg []byte, framing int, isPartial bool, start, end int64, cut bool, out func(frame) error) error {
	if !isPartial {
		msg = bytes.TrimSuffix(msg, []byte{'\r'})
	}
	p := &f.pend[i]
	if !p.active {
		if !isPartial {
			if len(msg) > f.max {
				msg, cut = msg[:f.max], true
			}
			return out(frame{text: msg, stream: stream, time: t, offset: start, end: end, truncated: cut, framing: framing})
		}
		p.active, p.start, p.buf, p.cut, p.time = true, start, p.buf[:0], false, t
	}
	if room := f.max - len(p.buf); len(msg) > room {
		msg = msg[:room]
		p.cut = true
	}
	p.buf = append(p.buf, msg...)
	p.cut = p.cut || cut
	p.end = end
	if isPartial {
		return nil
	}
	p.active = false
	return out(frame{text: p.buf, stream: stream, time: p.time, offset: p.start, end: p.end, truncated: p.cut})
}

// flush delivers open partial lines as they are, oldest first, when their
// source ends for good.
func (f *framer) flush(out func(frame) error) error {
	for {
		oldest := -1
		for i := range f.pend {
			if f.pend[i].active && (oldest < 0 || f.pend[i].start < f.pend[oldest].start) {
				oldest = i
			}
		}
		if oldest < 0 {
			return nil
		}
		p := &f.pend[oldest]
		p.active = false
		if err := out(frame{text: p.buf, stream: streamName(oldest), time: p.time, offset: p.start, end: p.end, truncated: p.cut}); err != nil {
			return err
		}
	}
}

func streamIndex(s string) int {
	if s == "stderr" {
		return 1
	}
	return 0
}

func streamName(i int) string {
	if i == 1 {
		return "stderr"
	}
	return "stdout"
}

func detectFormat(b []byte) Format {
	if _, ok := parseDocker(b); ok {
		return FormatDocker
	}
	if _, ok := parseCRI(b); ok {
		return FormatCRI
	}
	return FormatRaw
}

type criLine struct {
	time    time.Time
	stream  string
	partial bool
	msg     []byte
}

// parseCRI parses "<RFC3339Nano> <stdout|stderr> <tags> <msg>", where tags
// is "P" or "F", possibly followed by ":"-separated extra tags. The message
// may be empty, with or without the separating space.
func parseCRI(b []byte) (criLine, bool) {
	ts, rest, ok := bytes.Cut(b, []byte{' '})
	if !ok || len(ts) == 0 || ts[0] < '0' || ts[0] > '9' {
		return criLine{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(ts))
	if err != nil {
		return criLine{}, false
	}
	stream, rest, ok := bytes.Cut(rest, []byte{' '})
	if !ok {
		return criLine{}, false
	}
	var c criLine
	switch string(stream) {
	case "stdout":
		c.stream = "stdout"
	case "stderr":
		c.stream = "stderr"
	default:
		return criLine{}, false
	}
	tags, msg, _ := bytes.Cut(rest, []byte{' '})
	first, _, _ := bytes.Cut(tags, []byte{':'})
	switch string(first) {
	case "P":
		c.partial = true
	case "F":
	default:
		return criLine{}, false
	}
	c.time, c.msg = t, msg
	return c, true
}

type dockerLine struct {
	log    []byte
	stream string
	time   time.Time
}

// dockerJSON is one json-file record; other keys (attrs) are ignored. The
// same framing reaches a reader through collectors that keep a container's
// line whole in one JSON object a line: Fluent Bit's docker parser keeps
// "log" (a multiline parser's merged record holds its lines joined by
// newlines), Vector names it "message" beside its "source_type", and
// journalctl -o json names a unit's captured output "MESSAGE" with the
// transport "stdout" (its stdout and stderr both) and the time in
// microseconds.
type dockerJSON struct {
	Log    *string `json:"log"`
	Stream string  `json:"stream"`
	Time   string  `json:"time"`
	// Vector's event.
	Message    *string `json:"message"`
	SourceType string  `json:"source_type"`
	Timestamp  string  `json:"timestamp"`
	// A journal entry.
	JournalMessage *string `json:"MESSAGE"`
	Transport      string  `json:"_TRANSPORT"`
	Realtime       string  `json:"__REALTIME_TIMESTAMP"`
}

// parseDocker parses one docker json-file record, or a collector's
// record of one container line (dockerJSON). A docker record needs "log"
// and a "stream" of stdout or stderr; a missing or bad time is kept zero.
// A Vector event needs "message" and "source_type", a journal entry
// "MESSAGE" and the transport "stdout"; their stream is stderr when they
// name none, where a server's logs go.
func parseDocker(b []byte) (dockerLine, bool) {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' {
		return dockerLine{}, false
	}
	var j dockerJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return dockerLine{}, false
	}
	var d dockerLine
	stamp := j.Time
	switch {
	case j.Log != nil:
		if j.Stream != "stdout" && j.Stream != "stderr" {
			return dockerLine{}, false
		}
		d.log = []byte(*j.Log)
	case j.Message != nil && j.SourceType != "":
		// A collector's message has no newline of its own at its end:
		// the line is whole.
		d.log, stamp = append([]byte(*j.Message), '\n'), j.Timestamp
	case j.JournalMessage != nil && j.Transport == "stdout":
		d.log, stamp = append([]byte(*j.JournalMessage), '\n'), ""
		if us, err := strconv.ParseInt(j.Realtime, 10, 64); err == nil && us > 0 {
			d.time = time.UnixMicro(us).UTC()
		}
	default:
		return dockerLine{}, false
	}
	d.stream = j.Stream
	if d.stream != "stdout" {
		d.stream = "stderr"
	}
	if t, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
		d.time = t
	}
	return d, true
}
