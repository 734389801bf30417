package sinks

import (
	"math/bits"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendAlert appends c's JSON to dst, byte for byte what encoding/json
// writes for c with HTML escaping off (AlertEncoder's former renderer, and
// the reference of TestAlertJSONEqualsEncodingJSON and FuzzAlertJSON),
// with what Encode adds to it: the schema when c has none, [] for nil
// lists of the record, {} for nil groups. It reads c's fields in their
// declared order, as the tags name them, with no reflection and no copy of
// the alert; keys is scratch for the groups' sorted names. A field added
// to Alert or to a type it holds must be added here too
// (TestAlertJSONCoversEveryField fails until it is).
func appendAlert(dst []byte, c *Alert, keys []string) ([]byte, []string, error) {
	var err error
	schema := c.Schema
	if schema == "" {
		schema = Schema
	}
	dst = appendKey(dst, '{', "schema")
	dst = appendJSONString(dst, schema)
	dst = appendKey(dst, ',', "fingerprint")
	dst = appendJSONString(dst, c.Fingerprint)
	dst = appendKey(dst, ',', "time")
	if dst, err = appendJSONTime(dst, c.Time); err != nil {
		return dst, keys, err
	}
	dst = appendKey(dst, ',', "lastTime")
	if dst, err = appendJSONTime(dst, c.LastTime); err != nil {
		return dst, keys, err
	}
	dst = appendKey(dst, ',', "count")
	dst = strconv.AppendInt(dst, int64(c.Count), 10)
	dst = appendKey(dst, ',', "kind")
	dst = appendJSONString(dst, c.Kind)
	if len(c.Ranks) > 0 {
		dst = appendKey(dst, ',', "ranks")
		dst = appendJSONStrings(dst, c.Ranks)
	}
	if c.FirstRank != "" {
		dst = appendKey(dst, ',', "firstRank")
		dst = appendJSONString(dst, c.FirstRank)
	}
	if c.Headline != "" {
		dst = appendKey(dst, ',', "headline")
		dst = appendJSONString(dst, c.Headline)
	}
	dst = appendKey(dst, ',', "record")
	dst = appendRecord(dst, &c.Record)
	if len(c.Context) > 0 {
		dst = appendKey(dst, ',', "context")
		for i := range c.Context {
			h := &c.Context[i]
			dst = appendKey(append(dst, listSep(i)), '{', "id")
			dst = appendJSONString(dst, h.ID)
			dst = appendKey(dst, ',', "slug")
			dst = appendJSONString(dst, h.Slug)
			dst = appendKey(dst, ',', "text")
			dst = appendJSONString(dst, h.Text)
			if h.Fingerprint != "" {
				dst = appendKey(dst, ',', "fingerprint")
				dst = appendJSONString(dst, h.Fingerprint)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(c.Consequences) > 0 {
		dst = appendKey(dst, ',', "consequences")
		for i := range c.Consequences {
			q := &c.Consequences[i]
			dst = appendKey(append(dst, listSep(i)), '{', "id")
			dst = appendJSONString(dst, q.ID)
			dst = appendKey(dst, ',', "slug")
			dst = appendJSONString(dst, q.Slug)
			dst = appendKey(dst, ',', "severity")
			dst = appendJSONString(dst, q.Severity)
			dst = appendKey(dst, ',', "headline")
			dst = appendJSONString(dst, q.Headline)
			dst = appendKey(dst, ',', "count")
			dst = strconv.AppendInt(dst, int64(q.Count), 10)
			if len(q.Ranks) > 0 {
				dst = appendKey(dst, ',', "ranks")
				dst = appendJSONStrings(dst, q.Ranks)
			}
			dst = appendKey(dst, ',', "time")
			if dst, err = appendJSONTime(dst, q.Time); err != nil {
				return dst, keys, err
			}
			dst = appendKey(dst, ',', "lastTime")
			if dst, err = appendJSONTime(dst, q.LastTime); err != nil {
				return dst, keys, err
			}
			dst = appendKey(dst, ',', "fingerprint")
			dst = appendJSONString(dst, q.Fingerprint)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = appendKey(dst, ',', "match")
	dst = appendKey(dst, '{', "text")
	dst = appendJSONString(dst, c.Match.Text)
	dst = appendKey(dst, ',', "groups")
	dst, keys = appendGroups(dst, c.Match.Groups, keys)
	if x := c.Match.Exception; x != nil {
		dst = appendKey(dst, ',', "exception")
		dst = appendKey(dst, '{', "type")
		dst = appendJSONString(dst, x.Type)
		dst = appendKey(dst, ',', "message")
		dst = appendJSONString(dst, x.Message)
		dst = appendKey(dst, ',', "stacktrace")
		dst = appendJSONString(dst, x.Stacktrace)
		if x.RootCause != "" {
			dst = appendKey(dst, ',', "rootCause")
			dst = appendJSONString(dst, x.RootCause)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, '}')
	s := &c.Source
	dst = appendKey(dst, ',', "source")
	dst = appendKey(dst, '{', "path")
	dst = appendJSONString(dst, s.Path)
	if s.File != "" {
		dst = appendKey(dst, ',', "file")
		dst = appendJSONString(dst, s.File)
	}
	dst = appendKey(dst, ',', "offset")
	dst = strconv.AppendInt(dst, s.Offset, 10)
	dst = appendKey(dst, ',', "stream")
	dst = appendJSONString(dst, s.Stream)
	dst = appendKey(dst, ',', "pod")
	dst = appendJSONString(dst, s.Pod)
	dst = appendKey(dst, ',', "namespace")
	dst = appendJSONString(dst, s.Namespace)
	dst = appendKey(dst, ',', "container")
	dst = appendJSONString(dst, s.Container)
	if s.Node != "" {
		dst = appendKey(dst, ',', "node")
		dst = appendJSONString(dst, s.Node)
	}
	dst = append(dst, '}')
	if c.Engine != "" {
		dst = appendKey(dst, ',', "engine")
		dst = appendJSONString(dst, c.Engine)
	}
	dst = appendKey(dst, ',', "entry")
	dst = appendJSONString(dst, c.Entry)
	if len(c.HungThread) > 0 {
		dst = appendKey(dst, ',', "hungThread")
		dst = appendJSONStrings(dst, c.HungThread)
	}
	if len(c.Secondary) > 0 {
		dst = appendKey(dst, ',', "secondary")
		for i := range c.Secondary {
			dst = appendKey(append(dst, listSep(i)), '{', "id")
			dst = appendJSONString(dst, c.Secondary[i].ID)
			dst = appendKey(dst, ',', "slug")
			dst = appendJSONString(dst, c.Secondary[i].Slug)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if l := c.Liveness; l != nil {
		dst = appendKey(dst, ',', "liveness")
		dst = appendKey(dst, '{', "reason")
		dst = appendJSONString(dst, l.Reason)
		dst = appendKey(dst, ',', "state")
		dst = appendJSONString(dst, l.State)
		dst = appendKey(dst, ',', "action")
		dst = appendJSONString(dst, l.Action)
		dst = appendKey(dst, ',', "gatedRestarts")
		dst = strconv.AppendInt(dst, int64(l.GatedRestarts), 10)
		dst = appendKey(dst, ',', "maxRestarts")
		dst = strconv.AppendInt(dst, int64(l.MaxRestarts), 10)
		dst = appendKey(dst, ',', "window")
		dst = appendJSONString(dst, l.Window)
		dst = append(dst, '}')
	}
	return append(dst, '}'), keys, nil
}

// appendRecord appends r's JSON; its nil lists are written as [].
func appendRecord(dst []byte, r *Record) []byte {
	dst = appendKey(dst, '{', "id")
	dst = appendJSONString(dst, r.ID)
	dst = appendKey(dst, ',', "slug")
	dst = appendJSONString(dst, r.Slug)
	dst = appendKey(dst, ',', "repo")
	dst = appendJSONString(dst, r.Repo)
	dst = appendKey(dst, ',', "severity")
	dst = appendJSONString(dst, r.Severity)
	dst = appendKey(dst, ',', "errorClass")
	dst = appendJSONString(dst, r.ErrorClass)
	dst = appendKey(dst, ',', "errorMessage")
	dst = appendJSONString(dst, r.ErrorMessage)
	dst = appendKey(dst, ',', "solutions")
	dst = appendJSONStrings(dst, r.Solutions)
	dst = appendKey(dst, ',', "preventionTips")
	dst = appendJSONStrings(dst, r.PreventionTips)
	dst = appendKey(dst, ',', "documentation")
	dst = appendJSONString(dst, r.Documentation)
	dst = appendKey(dst, ',', "handlingStrategy")
	dst = appendJSONString(dst, r.HandlingStrategy)
	dst = appendKey(dst, ',', "githubUrl")
	dst = appendJSONString(dst, r.GithubURL)
	dst = appendKey(dst, ',', "filePath")
	dst = appendJSONString(dst, r.FilePath)
	dst = appendKey(dst, ',', "lineNumber")
	dst = strconv.AppendInt(dst, int64(r.LineNumber), 10)
	dst = appendKey(dst, ',', "tags")
	dst = appendJSONStrings(dst, r.Tags)
	if r.Role != "" {
		dst = appendKey(dst, ',', "role")
		dst = appendJSONString(dst, r.Role)
	}
	if r.Fatal {
		dst = appendKey(dst, ',', "fatal")
		dst = append(dst, "true"...)
	}
	return append(dst, '}')
}

// appendGroups appends groups as a JSON object, its names in byte order as
// encoding/json sorts a map's keys; nil is {}.
func appendGroups(dst []byte, groups map[string]string, keys []string) ([]byte, []string) {
	keys = keys[:0]
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, k)
		dst = append(dst, ':')
		dst = appendJSONString(dst, groups[k])
	}
	clear(keys) // the names are the alert's: let them go
	return append(dst, '}'), keys
}

// appendKey appends sep (',' between fields, '{' before an object's first)
// and the quoted key with its colon. Keys are plain ASCII names.
func appendKey(dst []byte, sep byte, key string) []byte {
	dst = append(dst, sep, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

// listSep is what comes before the i-th item of a list: the list's
// bracket, or a comma.
func listSep(i int) byte {
	if i == 0 {
		return '['
	}
	return ','
}

// appendJSONStrings appends ss as a JSON array; nil is [].
func appendJSONStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// appendJSONTime appends t as encoding/json writes a time.Time (its
// MarshalJSON: RFC 3339 with nanoseconds, quoted), and fails where that
// fails (a year outside 0-9999, an offset outside a day).
func appendJSONTime(dst []byte, t time.Time) ([]byte, error) {
	out, err := t.AppendText(append(dst, '"'))
	if err != nil {
		return dst, err
	}
	return append(out, '"'), nil
}

// jsonSafe marks the ASCII bytes written as they are in a JSON string when
// HTML is not escaped: all from the space on but the quote and the
// backslash.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for b := ' '; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes a string with
// HTML escaping off: the quote and the backslash escaped, \b \f \n \r \t
// by name and other control bytes as \u00XX, each byte of invalid UTF-8
// as \ufffd, and U+2028 and U+2029 as escapes; everything else as it is.
// Runs of bytes written as they are (nearly all of an alert's log text)
// are found eight bytes at a time (safeRun) and copied whole.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; ; {
		if i = safeRun(s, i); i >= len(s) {
			break
		}
		b := s[i]
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Bytes repeated in each byte of a word, for safeRun's tests.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// safeRun returns the index of the first byte of s from i on that is not
// written as it is (jsonSafe: an ASCII byte from the space on, not the
// quote or the backslash), or len(s). It tests eight bytes at a time: a
// word's bytes below the space, equal to the quote or the backslash, or
// from 0x80 on set the high bit of their byte in special's result, and
// the lowest bit set is the first such byte (the tests' borrows reach
// only bytes above a byte they flag).
func safeRun(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // one bounds check, and one load of the word
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		if m := special(w); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if b := s[i]; b >= utf8.RuneSelf || !jsonSafe[b] {
			return i
		}
	}
	return i
}

// special returns w's bytes that are not jsonSafe ASCII, each as its high
// bit, exactly up to the lowest one set: bytes below 0x20 ((w - 0x20 each)
// & ^w), the quote and the backslash (a zero byte of w xor the byte), and
// bytes from 0x80 on (their own high bit).
func special(w uint64) uint64 {
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((w-ones*0x20)&^w | (q-ones)&^q | (bs-ones)&^bs | w) & highs
}
