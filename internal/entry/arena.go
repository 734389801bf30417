package entry

import (
	"strings"
	"unsafe"

	"github.com/logmatch/logmatch/internal/textbuf"
)

// arenas hold the text of the lines an Assembler with Options.Reuse keeps,
// copied from the caller's line so that the caller may reuse its buffer.
//
// Lines are copied into the current arena, at the start of Push and
// nowhere else. Each new entry rotates to the next of three arenas and
// empties it, so entry k holds its first line in one arena and the rest in
// the next. When entry k+1 begins, entry k is the one being returned and
// must stay intact until the next call; the arena emptied then last held
// entry k-2's later lines and entry k-1's first line, and entry k-1 was
// returned by an earlier call, whose strings are no longer valid. (Two
// arenas would do only because nothing is copied after the rotation within
// a call; the third does not depend on that.)
//
// An arena is a textbuf.Buffer, which never moves what it holds. Its
// arrays are at most limit bytes; a line of an entry longer than that (its
// middle is cut anyway) that does not fit is copied to the heap, one
// allocation each, as without Reuse.
type arenas struct {
	buf   [3]textbuf.Buffer
	cur   int
	limit int
}

// keep returns a copy of s that stays valid until the arena it is in is
// emptied.
func (a *arenas) keep(s string) string {
	if c, ok := a.buf[a.cur].Keep(s, 4<<10, a.limit); ok {
		return c
	}
	return strings.Clone(s)
}

// arenaKeep is the most capacity an emptied arena keeps: one grown by a
// long traceback lets its buffer go, so that a stream between such
// entries holds at most three of this size.
const arenaKeep = 16 << 10

// rotate is called as a line just kept starts a new entry: the lines that
// follow go to the next arena, emptied.
func (a *arenas) rotate() {
	a.cur = (a.cur + 1) % len(a.buf)
	a.buf[a.cur].Reset(arenaKeep)
}

// Own gives e strings of its own, so that it outlives the next call to the
// Assembler that returned it when Options.Reuse is set. The strings are
// copied; the fields that lay inside Raw (Text, Message, the level, the
// exception's type and message, ...) share Raw's copy. The Traceback is
// copied too. An entry from an Assembler without Reuse
// owns its strings already; Own copies them all the same.
func (e *Entry) Own() {
	raw := e.Raw
	e.Raw = strings.Clone(raw)
	// What lies inside the line (its level, prefix, the exception's type
	// and message, the frames) shares the copy too: one allocation for
	// the text instead of one per field.
	e.Text = rebase(e.Text, raw, e.Raw)
	e.Message = rebase(e.Message, raw, e.Raw)
	e.Source = strings.Clone(e.Source)
	e.Stream = strings.Clone(e.Stream)
	e.Level = rebase(e.Level, raw, e.Raw)
	e.Prefix = rebase(e.Prefix, raw, e.Raw)
	e.Native = rebase(e.Native, raw, e.Raw)
	e.Process = rebase(e.Process, raw, e.Raw)
	e.Traceback = e.Traceback.clone(raw, e.Raw)
}

// rebase returns s inside dst when it lies inside src (dst being a copy of
// src), else a copy of s.
func rebase(s, src, dst string) string {
	if s == "" {
		return ""
	}
	if len(src) > 0 {
		p, base := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(src)))
		if p >= base && p+uintptr(len(s)) <= base+uintptr(len(src)) {
			off := int(p - base)
			return dst[off : off+len(s)]
		}
	}
	return strings.Clone(s)
}

// cloneFrames is a deep copy of fs, its strings rebased from src to dst
// where they lie in src; nil stays nil.
func cloneFrames(fs []Frame, src, dst string) []Frame {
	if fs == nil {
		return nil
	}
	c := make([]Frame, len(fs))
	for j, f := range fs {
		c[j] = Frame{File: rebase(f.File, src, dst), Line: f.Line, Func: rebase(f.Func, src, dst)}
	}
	return c
}

// clone is a deep copy of t, its strings rebased from src to dst (a copy
// of src) where they lie in src and copied otherwise; nil stays nil.
func (t *Traceback) clone(src, dst string) *Traceback {
	if t == nil {
		return nil
	}
	c := *t
	if t.Links == nil {
		return &c
	}
	c.Links = make([]Exception, len(t.Links))
	for i, l := range t.Links {
		l.Type = rebase(l.Type, src, dst)
		l.Message = rebase(l.Message, src, dst)
		l.Separator = rebase(l.Separator, src, dst)
		l.MemberType = rebase(l.MemberType, src, dst)
		l.MemberMessage = rebase(l.MemberMessage, src, dst)
		l.Frames = cloneFrames(l.Frames, src, dst)
		l.MemberFrames = cloneFrames(l.MemberFrames, src, dst)
		c.Links[i] = l
	}
	return &c
}
