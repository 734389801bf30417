package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/textbuf"
)

// arenas hold the text of the lines an Assembler with Options.Reuse keeps,
// copied from the caller's line so that the caller may reuse its buffer.
//
// Lines are copied into the current arena at the start of Push, and an
// entry of several lines has its Raw, the lines joined, copied there as
// it is emitted, before the rotation (joinKept): nowhere else. Each new
// entry rotates to the next of three arenas and empties it, so entry k
// holds its first line in one arena and the rest, and its Raw, in the
// next. When entry k+1 begins, entry k is the one being returned and must
// stay intact until the next call; the arena emptied then last held entry
// k-2's later lines and Raw and entry k-1's first line, and entry k-1 was
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

// keepJoined is keep of lines joined by newlines; false when the arena
// refuses it (past its limit), which the caller then copies to the heap.
func (a *arenas) keepJoined(lines []string) (string, bool) {
	return a.buf[a.cur].KeepJoined(lines, '\n', 4<<10, a.limit)
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
// Assembler that returned it when Options.Reuse is set. Raw is copied, and
// what lay inside it (Text, Message, the prefix, the exception's type and
// message, the frames, ...) shares the copy: one allocation for the entry.
// A string that lay elsewhere is copied on its own. Source and Stream are
// the Line's, which the Assembler keeps across calls as they are (only a
// Line's Text is lent), and Level and Native hold constants: Own leaves
// them. The Traceback is the entry's own (an Assembler builds one for each
// entry): its strings are moved to the copy in place. An entry from an
// Assembler without Reuse owns its strings already; Own copies Raw all the
// same.
func (e *Entry) Own() {
	raw := e.Raw
	e.Raw = strings.Clone(raw)
	e.Text = rebase(e.Text, raw, e.Raw)
	e.Message = rebase(e.Message, raw, e.Raw)
	e.Level = ownConstant(e.Level, raw, e.Raw, normLevel(e.Level))
	e.Prefix = rebase(e.Prefix, raw, e.Raw)
	e.Native = ownConstant(e.Native, raw, e.Raw, nativeKind(e.Native))
	e.Process = rebase(e.Process, raw, e.Raw)
	e.Traceback.rebase(raw, e.Raw)
}

// ownConstant is rebase for a field that holds one of a few constants: c,
// when s is it, needs no copy.
func ownConstant(s, src, dst, c string) string {
	if s == c {
		return c
	}
	return rebase(s, src, dst)
}

// rebase returns s inside dst when it lies inside src (dst being a copy of
// src), else a copy of s.
func rebase(s, src, dst string) string {
	if s == "" {
		return ""
	}
	if off, ok := textbuf.OffsetIn(s, src); ok {
		return dst[off : off+len(s)]
	}
	return strings.Clone(s)
}

// rebaseFrames moves the strings of fs that lie in src to dst (a copy
// of src), in place.
func rebaseFrames(fs []Frame, src, dst string) {
	for j := range fs {
		f := &fs[j]
		f.File = rebase(f.File, src, dst)
		f.Func = rebase(f.Func, src, dst)
	}
}

// rebase moves t's strings that lie in src to dst (a copy of src), in
// place, and copies the others; nil does nothing.
func (t *Traceback) rebase(src, dst string) {
	if t == nil {
		return
	}
	for i := range t.Links {
		l := &t.Links[i]
		l.Type = rebase(l.Type, src, dst)
		l.Message = rebase(l.Message, src, dst)
		l.Separator = rebase(l.Separator, src, dst)
		l.MemberType = rebase(l.MemberType, src, dst)
		l.MemberMessage = rebase(l.MemberMessage, src, dst)
		rebaseFrames(l.Frames, src, dst)
		rebaseFrames(l.MemberFrames, src, dst)
	}
}

// nativeKind is the Native constant equal to s, "" when none is: what
// Own needs no copy of. A kind missing here is copied, as any string.
func nativeKind(s string) string {
	switch s {
	case NativeFaulthandler:
		return NativeFaulthandler
	case NativeTerminate:
		return NativeTerminate
	case NativeC10d:
		return NativeC10d
	case NativeNCCL:
		return NativeNCCL
	case NativeCUDAAssert:
		return NativeCUDAAssert
	case NativeAssert:
		return NativeAssert
	case NativeGlog:
		return NativeGlog
	case NativeShell:
		return NativeShell
	case NativeROCm:
		return NativeROCm
	case NativeAscend:
		return NativeAscend
	case NativeCUDA:
		return NativeCUDA
	case NativeUCX:
		return NativeUCX
	case NativeCompiler:
		return NativeCompiler
	case NativeDiagnostic:
		return NativeDiagnostic
	case NativeRustPanic:
		return NativeRustPanic
	}
	return ""
}

// inLines returns s inside raw, the lines joined by "\n", when it lies in
// one of the lines, else s.
func inLines(s string, lines []string, raw string) string {
	if s == "" {
		return s
	}
	at := 0
	for _, l := range lines {
		if off, ok := textbuf.OffsetIn(s, l); ok {
			return raw[at+off : at+off+len(s)]
		}
		at += len(l) + 1
	}
	return s
}

// bareSlab hands out the one-link chains of exception lines printed
// without a traceback (Traceback.Bare) from arrays of bareSlabSize, so
// that an error line of that kind, the most common, allocates once in
// bareSlabSize. Each chain is its entry's own, never handed out again: an
// array lives while one of its chains is kept.
type bareSlab struct {
	free []bareChain
}

// bareChain is a bare Traceback and the storage of its one link.
type bareChain struct {
	t    Traceback
	link [1]Exception
}

const bareSlabSize = 16

// traceback is bareTraceback(typ, msg) from the slab.
func (s *bareSlab) traceback(typ, msg string) *Traceback {
	if len(s.free) == 0 {
		s.free = make([]bareChain, bareSlabSize)
	}
	c := &s.free[0]
	s.free = s.free[1:]
	c.link[0] = Exception{Type: typ, Message: msg}
	c.t = Traceback{Links: c.link[:], Bare: true}
	return &c.t
}
