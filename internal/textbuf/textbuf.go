// Package textbuf keeps copies of strings in reused bytes, so that a
// stream of lines can be held without one allocation a line. It is the
// memory behind lent text: the entry assemblers' arenas and the
// pipeline's line batches.
package textbuf

import "unsafe"

// Buffer holds copies of strings. It never moves what it holds: when a
// copy does not fit, a new array takes the place of the old one, and the
// strings copied before keep pointing into the old, which the collector
// frees once they are gone. So a copy stays valid until Reset; after it,
// its bytes are written over. The zero Buffer is empty and ready.
type Buffer struct {
	b []byte
}

// Keep copies s into the buffer and returns the copy. A new array holds at
// least grow bytes and twice the last one's. limit, when positive, bounds
// each array: a copy that would take the current one past it is refused
// (false), so what one Reset to the next holds stays under twice limit.
func (t *Buffer) Keep(s string, grow, limit int) (string, bool) {
	if s == "" {
		return "", true
	}
	if len(t.b)+len(s) > cap(t.b) {
		if limit > 0 && len(t.b)+len(s) > limit {
			return "", false
		}
		n := max(2*cap(t.b), len(s), grow)
		if limit > 0 {
			n = min(n, limit)
		}
		t.b = make([]byte, 0, n)
	}
	start := len(t.b)
	t.b = append(t.b, s...)
	return unsafe.String(&t.b[start], len(s)), true
}

// KeepJoined is Keep(strings.Join(parts, string(sep)), grow, limit)
// without the joined string made first.
func (t *Buffer) KeepJoined(parts []string, sep byte, grow, limit int) (string, bool) {
	n := len(parts) - 1
	for _, p := range parts {
		n += len(p)
	}
	if n <= 0 {
		return "", true
	}
	if len(t.b)+n > cap(t.b) {
		if limit > 0 && len(t.b)+n > limit {
			return "", false
		}
		c := max(2*cap(t.b), n, grow)
		if limit > 0 {
			c = min(c, limit)
		}
		t.b = make([]byte, 0, c)
	}
	start := len(t.b)
	for i, p := range parts {
		if i > 0 {
			t.b = append(t.b, sep)
		}
		t.b = append(t.b, p...)
	}
	return unsafe.String(&t.b[start], n), true
}

// Reset empties the buffer: the copies it handed out are invalid from
// now on. An array larger than keep is let go rather than kept for reuse.
func (t *Buffer) Reset(keep int) {
	if cap(t.b) > keep {
		t.b = nil
		return
	}
	t.b = t.b[:0]
}

// Cap is the size of the buffer's current array.
func (t *Buffer) Cap() int { return cap(t.b) }

// Len is the bytes held in the current array.
func (t *Buffer) Len() int { return len(t.b) }

// OffsetIn is the offset of s inside the memory of in, when s lies there:
// s is a piece of in itself, not merely the same bytes elsewhere (a string
// read from lent text, to be moved onto a copy of that text). The empty s
// lies anywhere, at 0; nothing else lies in the empty in.
func OffsetIn(s, in string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if in == "" {
		return 0, false
	}
	p, base := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(in)))
	if p < base || p+uintptr(len(s)) > base+uintptr(len(in)) {
		return 0, false
	}
	return int(p - base), true
}
