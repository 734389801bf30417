package entry

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// lineBuf keeps the lines of one entry within the bounds: the first half
// (by lines and by bytes) in head, the most recent lines in a ring, and what
// fell out between them counted. Strings are kept as given, never copied.
type lineBuf struct {
	head      []string
	headBytes int
	headFull  bool

	tail      []string // ring of capacity maxTail
	tailStart int
	tailLen   int
	tailBytes int

	maxHead, maxTail           int
	maxHeadBytes, maxTailBytes int

	cutLines, cutBytes int
}

// markerReserve is room left in the tail for the cut marker line.
const markerReserve = 64

func newLineBuf(o Options) lineBuf {
	return lineBuf{
		maxHead:      (o.MaxLines + 1) / 2,
		maxTail:      o.MaxLines / 2,
		maxHeadBytes: o.MaxBytes / 2,
		maxTailBytes: o.MaxBytes/2 - markerReserve,
	}
}

// add appends one line (at most MaxLineBytes long, which is at most a quarter
// of MaxBytes, so it always fits once older tail lines are dropped).
func (b *lineBuf) add(s string) {
	size := len(s) + 1
	if !b.headFull {
		if len(b.head) < b.maxHead && b.headBytes+size <= b.maxHeadBytes {
			b.head = append(b.head, s)
			b.headBytes += size
			return
		}
		b.headFull = true
	}
	if b.tail == nil {
		b.tail = make([]string, b.maxTail)
	}
	for b.tailLen > 0 && (b.tailLen == b.maxTail || b.tailBytes+size > b.maxTailBytes) {
		old := b.tail[b.tailStart]
		b.tail[b.tailStart] = ""
		b.tailStart = (b.tailStart + 1) % b.maxTail
		b.tailLen--
		b.tailBytes -= len(old) + 1
		b.cutLines++
		b.cutBytes += len(old) + 1
	}
	b.tail[(b.tailStart+b.tailLen)%b.maxTail] = s
	b.tailLen++
	b.tailBytes += size
}

// count returns the number of kept lines.
func (b *lineBuf) count() int { return len(b.head) + b.tailLen }

// first returns the first kept line.
func (b *lineBuf) first() string { return b.head[0] }

// last returns the last kept line, "" when none is kept.
func (b *lineBuf) last() string {
	if b.tailLen > 0 {
		return b.tail[(b.tailStart+b.tailLen-1)%b.maxTail]
	}
	if len(b.head) > 0 {
		return b.head[len(b.head)-1]
	}
	return ""
}

// extendLast replaces the last kept line with s, a longer line that
// begins with it, when the half it is in has room for the bytes s adds;
// false, with nothing changed, when it has not or no line is kept.
func (b *lineBuf) extendLast(s string) bool {
	add := len(s) - len(b.last())
	switch {
	case b.tailLen > 0:
		if b.tailBytes+add > b.maxTailBytes {
			return false
		}
		b.tail[(b.tailStart+b.tailLen-1)%b.maxTail] = s
		b.tailBytes += add
	case len(b.head) > 0:
		if b.headBytes+add > b.maxHeadBytes {
			return false
		}
		b.head[len(b.head)-1] = s
		b.headBytes += add
	default:
		return false
	}
	return true
}

// lines appends the kept lines to dst, with one marker line where lines were
// cut.
func (b *lineBuf) lines(dst []string) []string {
	dst = append(dst, b.head...)
	if b.cutLines > 0 {
		dst = append(dst, cutMarker(b.cutLines, "lines"))
	}
	for i := 0; i < b.tailLen; i++ {
		dst = append(dst, b.tail[(b.tailStart+i)%b.maxTail])
	}
	return dst
}

// reset empties the buffer and drops its references to old lines.
func (b *lineBuf) reset() {
	if len(b.head) == 1 {
		b.head[0] = "" // most entries are one line: no call to clear
	} else {
		clear(b.head)
	}
	b.head = b.head[:0]
	b.headBytes = 0
	b.headFull = false
	if b.tailLen > 0 {
		clear(b.tail)
	}
	b.tailStart, b.tailLen, b.tailBytes = 0, 0, 0
	b.cutLines, b.cutBytes = 0, 0
}

// cutMarker is the text that stands where the bounds removed something.
func cutMarker(n int, unit string) string {
	b := make([]byte, 0, 40)
	b = append(b, "[logmatch: "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ' ')
	b = append(b, unit...)
	b = append(b, " cut]"...)
	return string(b)
}

// cutLine shortens a line longer than max to its first three quarters and its
// last quarter around a marker, cutting on rune boundaries so it adds no
// invalid UTF-8. The result is a fresh string: the caller's huge line is not
// retained. It returns the bytes removed.
func cutLine(s string, max int) (string, int) {
	keepTail := max / 4
	keepHead := max - keepTail - markerReserve
	if keepHead < 0 {
		keepHead = 0
	}
	h := keepHead
	for h > 0 && h < len(s) && !utf8.RuneStart(s[h]) {
		h--
	}
	t := len(s) - keepTail
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	removed := t - h
	var b strings.Builder
	b.Grow(h + (len(s) - t) + markerReserve)
	b.WriteString(s[:h])
	b.WriteString(" ")
	b.WriteString(cutMarker(removed, "bytes"))
	b.WriteString(" ")
	b.WriteString(s[t:])
	return b.String(), removed
}
