package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/snappy"
	"google.golang.org/protobuf/encoding/protowire"
)

// Bounds of a push request besides its size.
const (
	// maxPushStreams bounds the streams of one push request.
	maxPushStreams = 1000
	// maxLabels bounds the labels of one stream.
	maxLabels = 64
	// MaxPushLines bounds the entries, and the lines they split into, of
	// one push request: a body of empty entries would otherwise cost far
	// more memory as lines than it took on the wire.
	MaxPushLines = 100_000
)

// tooManyLines is the refusal of a push over MaxPushLines.
func tooManyLines() *Error {
	return errorf(http.StatusRequestEntityTooLarge, ReasonTooLarge, "more than %d lines in one push; send smaller batches", MaxPushLines)
}

// Label is one name and value of a stream's labels.
type Label struct{ Name, Value string }

// PushStream is one stream of a push request: its labels, sorted by name,
// and its entries in the order sent.
type PushStream struct {
	Labels  []Label
	Entries []PushEntry
}

// PushEntry is one log entry of a pushed stream. Line may hold several
// physical lines (a shipper that joined a traceback).
type PushEntry struct {
	Time time.Time
	Line string
}

// LabelString renders labels as Loki writes them, {a="1", b="2"}: the
// stream's name in logmatch.
func LabelString(ls []Label) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Name)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(l.Value))
	}
	b.WriteByte('}')
	return b.String()
}

// labelValue returns the value of the first of names the labels have.
func labelValue(ls []Label, names ...string) string {
	for _, n := range names {
		for _, l := range ls {
			if l.Name == n {
				return l.Value
			}
		}
	}
	return ""
}

// DecodeLoki decodes a Loki push request whose body (after its
// Content-Encoding) is body: JSON when Content-Type is application/json,
// else protobuf (logproto.PushRequest) compressed with snappy's block
// format, as Promtail, Alloy, Fluent Bit and Vector send it. The
// decompressed protobuf is bounded by max. Errors are *Error, 4xx.
func DecodeLoki(h http.Header, body []byte, max int64) ([]PushStream, error) {
	ct := h.Get("Content-Type")
	mt := ""
	if ct != "" {
		var err error
		if mt, _, err = mime.ParseMediaType(ct); err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonContentType, "Content-Type %q: %v", truncate(ct, 64), err)
		}
	}
	switch mt {
	case "application/json":
		return decodeLokiJSON(body)
	case "", "application/x-protobuf", "application/protobuf":
		n, err := snappy.DecodedLen(body)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonEncoding, "protobuf body: not snappy compressed (block format): %v", err)
		}
		if int64(n) > max {
			return nil, errorf(http.StatusRequestEntityTooLarge, ReasonTooLarge, "decompressed body of %d bytes over %d", n, max)
		}
		raw, err := snappy.Decode(nil, body)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonEncoding, "protobuf body: snappy: %v", err)
		}
		ss, err := decodePushRequest(raw)
		if errors.Is(err, errTooManyLines) {
			return nil, tooManyLines()
		}
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "protobuf body: %v", err)
		}
		return ss, nil
	}
	return nil, errorf(http.StatusUnsupportedMediaType, ReasonContentType, "Content-Type %q: want application/x-protobuf (snappy) or application/json", truncate(mt, 64))
}

// The field numbers of logproto's PushRequest, StreamAdapter,
// EntryAdapter and google.protobuf.Timestamp.
const (
	pushStreams     = 1
	streamLabels    = 1
	streamEntries   = 2
	entryTimestamp  = 1
	entryLine       = 2
	timestampSecond = 1
	timestampNanos  = 2
)

// decodePushRequest reads a PushRequest. Unknown fields are skipped, as
// protobuf's rules say; a known field of the wrong wire type is an error.
func decodePushRequest(b []byte) ([]PushStream, error) {
	var out []PushStream
	entries := 0
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if num != pushStreams {
			return nil
		}
		if typ != protowire.BytesType {
			return fmt.Errorf("streams: wire type %d, want bytes", typ)
		}
		if len(out) == maxPushStreams {
			return fmt.Errorf("more than %d streams", maxPushStreams)
		}
		s, err := decodeStream(v)
		if err != nil {
			return fmt.Errorf("stream %d: %w", len(out)+1, err)
		}
		if entries += len(s.Entries); entries > MaxPushLines {
			return errTooManyLines
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

func decodeStream(b []byte) (PushStream, error) {
	var s PushStream
	var labels string
	seen := false
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		switch num {
		case streamLabels:
			if typ != protowire.BytesType {
				return fmt.Errorf("labels: wire type %d, want bytes", typ)
			}
			labels, seen = string(v), true
		case streamEntries:
			if typ != protowire.BytesType {
				return fmt.Errorf("entries: wire type %d, want bytes", typ)
			}
			if len(s.Entries) == MaxPushLines {
				return errTooManyLines
			}
			e, err := decodeEntry(v)
			if err != nil {
				return fmt.Errorf("entry %d: %w", len(s.Entries)+1, err)
			}
			s.Entries = append(s.Entries, e)
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	if !seen {
		return s, errors.New("no labels")
	}
	if s.Labels, err = ParseLabels(labels); err != nil {
		return s, fmt.Errorf("labels: %w", err)
	}
	return s, nil
}

func decodeEntry(b []byte) (PushEntry, error) {
	var e PushEntry
	var sec, nsec int64
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch num {
		case entryTimestamp:
			if typ != protowire.BytesType {
				return fmt.Errorf("timestamp: wire type %d, want bytes", typ)
			}
			return fields(v, func(num protowire.Number, typ protowire.Type, _ []byte, x uint64) error {
				if num != timestampSecond && num != timestampNanos {
					return nil
				}
				if typ != protowire.VarintType {
					return fmt.Errorf("timestamp: wire type %d, want varint", typ)
				}
				if num == timestampSecond {
					sec = int64(x)
				} else {
					nsec = int64(int32(x))
				}
				return nil
			})
		case entryLine:
			if typ != protowire.BytesType {
				return fmt.Errorf("line: wire type %d, want bytes", typ)
			}
			e.Line = string(v)
		}
		return nil
	})
	if err != nil {
		return e, err
	}
	if nsec < 0 || nsec > 999_999_999 {
		return e, fmt.Errorf("timestamp: nanos %d out of range", nsec)
	}
	e.Time = time.Unix(sec, nsec).UTC()
	return e, nil
}

// fields calls fn for each field of the message b: its number, wire type,
// and its bytes (length-delimited) or value (varint).
func fields(b []byte, fn func(protowire.Number, protowire.Type, []byte, uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("field tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}

// errTooManyLines stops a decoder at MaxPushLines.
var errTooManyLines = errors.New("too many lines")

// lokiJSON is the JSON form of a push request.
type lokiJSON struct {
	Streams []struct {
		Stream map[string]string   `json:"stream"`
		Values [][]json.RawMessage `json:"values"`
	} `json:"streams"`
}

func decodeLokiJSON(body []byte) ([]PushStream, error) {
	var req lokiJSON
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, errorf(http.StatusBadRequest, ReasonMalformed, "JSON body: %v", err)
	}
	if len(req.Streams) > maxPushStreams {
		return nil, errorf(http.StatusBadRequest, ReasonMalformed, "JSON body: more than %d streams", maxPushStreams)
	}
	out := make([]PushStream, 0, len(req.Streams))
	entries := 0
	for i, s := range req.Streams {
		if entries += len(s.Values); entries > MaxPushLines {
			return nil, tooManyLines()
		}
		if len(s.Stream) == 0 {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "streams[%d].stream: no labels", i)
		}
		if len(s.Stream) > maxLabels {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "streams[%d].stream: more than %d labels", i, maxLabels)
		}
		ps := PushStream{}
		for k, v := range s.Stream {
			if !labelName(k) {
				return nil, errorf(http.StatusBadRequest, ReasonMalformed, "streams[%d].stream: bad label name %q", i, truncate(k, 64))
			}
			ps.Labels = append(ps.Labels, Label{k, v})
		}
		sort.Slice(ps.Labels, func(a, b int) bool { return ps.Labels[a].Name < ps.Labels[b].Name })
		for j, v := range s.Values {
			if len(v) != 2 && len(v) != 3 {
				return nil, errorf(http.StatusBadRequest, ReasonMalformed, "streams[%d].values[%d]: want [time, line] or [time, line, metadata], got %d items", i, j, len(v))
			}
			var ts, line string
			if json.Unmarshal(v[0], &ts) != nil {
				return nil, errorf(http.StatusBadRequest, ReasonMalformed, "streams[%d].values[%d][0]: want the time as a string of Unix nanoseconds", i, j)
			}
			ns, err := strconv.ParseInt(ts, 10, 64)
			if err != nil {
				return nil, errorf(http.StatusBadRequest, ReasonMalformed, "streams[%d].values[%d][0]: time %q: want Unix nanoseconds", i, j, truncate(ts, 32))
			}
			if json.Unmarshal(v[1], &line) != nil {
				return nil, errorf(http.StatusBadRequest, ReasonMalformed, "streams[%d].values[%d][1]: want the line as a string", i, j)
			}
			ps.Entries = append(ps.Entries, PushEntry{Time: time.Unix(0, ns).UTC(), Line: line})
		}
		out = append(out, ps)
	}
	return out, nil
}

// ParseLabels reads a label set as Loki's protobuf carries it:
// {name="value", ...}, values quoted with Go's (and PromQL's) escapes. The
// result is sorted by name; a name given twice is an error.
func ParseLabels(s string) ([]Label, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("%q: want {name=\"value\", ...}", truncate(s, 64))
	}
	rest := strings.TrimSpace(s[1 : len(s)-1])
	var ls []Label
	for rest != "" {
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return nil, fmt.Errorf("%q: a label without =", truncate(rest, 64))
		}
		name := strings.TrimSpace(rest[:eq])
		if !labelName(name) {
			return nil, fmt.Errorf("bad label name %q", truncate(name, 64))
		}
		rest = strings.TrimSpace(rest[eq+1:])
		q, err := strconv.QuotedPrefix(rest)
		if err != nil || q[0] != '"' {
			return nil, fmt.Errorf("label %s: want a double-quoted value", name)
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			return nil, fmt.Errorf("label %s: %w", name, err)
		}
		if len(ls) == maxLabels {
			return nil, fmt.Errorf("more than %d labels", maxLabels)
		}
		ls = append(ls, Label{name, v})
		rest = strings.TrimSpace(rest[len(q):])
		if rest == "" {
			break
		}
		if rest[0] != ',' {
			return nil, fmt.Errorf("label %s: want , or } after the value", name)
		}
		rest = strings.TrimSpace(rest[1:])
	}
	if len(ls) == 0 {
		return nil, errors.New("no labels")
	}
	sort.Slice(ls, func(a, b int) bool { return ls[a].Name < ls[b].Name })
	for i := 1; i < len(ls); i++ {
		if ls[i].Name == ls[i-1].Name {
			return nil, fmt.Errorf("label %s given twice", ls[i].Name)
		}
	}
	return ls, nil
}

// labelName reports whether s is a Prometheus label name.
func labelName(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for i, c := range s {
		ok := c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || (i > 0 && '0' <= c && c <= '9')
		if !ok {
			return false
		}
	}
	return true
}
