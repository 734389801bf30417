package entry

import "strings"

// A terminal that pads every row it shows to its width with spaces
// (screen's hardcopy, a Windows console's copy, a pager that fills its
// rows) hands over each line a row long: the lines it did not wrap end in
// their padding, the ones it wrapped fill the row with text. Read as
// they are, every line is as long as the widest, and each looks cut at
// the width. rowPad learns the row width from two lines of one length,
// at least minWrapWidth, with only lines of that length between them, that
// end in padding (two spaces or more:
// one space at a line's end is a word wrap's piece as often), and takes
// the padding off such lines, so that a wrap is told as on a terminal
// that does not pad (wrapwidth.go, wrap.go). The rows before the width is
// learned (the first padded one at least) lose a long padding too
// (minFirstPad): a row that ends in it is a whole line, which a padding
// terminal did not cut, and read with it, its last word is no line's end
// (a faulthandler dump's header) and its length says a cut.

// minFirstPad is the shortest padding taken off a row before the row
// width is learned: a word wrap's break after a run of spaces (a table's
// column gap, a glog dump's indentation) leaves fewer.
const minFirstPad = 8

// rowPad is a stream's padded row width, once learned. Bounded state.
type rowPad struct {
	width  int  // learned; 0 until then
	last   int  // the length of the line before
	padded bool // whether the line before ended in padding
}

// trim returns s, a line as posted, without a padded row's trailing
// spaces once the row width is learned (before, without a padding of
// minFirstPad spaces or more), and learns it. Most lines end in
// no space and take its first test alone.
func (r *rowPad) trim(s string) string {
	n := len(s)
	if n < minWrapWidth || s[n-1] != ' ' || s[n-2] != ' ' {
		// One space at a row's end is as likely the text's own, where
		// the terminal cut a longer line, as one byte of padding.
		if n != r.last {
			// (A row the terminal filled with text, between two
			// padded ones, is as long as they are.)
			r.last, r.padded = n, false
		}
		return s
	}
	return r.pad(s)
}

// pad is trim for a line that ends in two spaces or more.
func (r *rowPad) pad(s string) string {
	n := len(s)
	if r.width == 0 {
		learn := r.padded && r.last == n
		r.last, r.padded = n, true
		if !learn {
			if t := strings.TrimRight(s, " "); n-len(t) >= minFirstPad {
				return t // a whole line, its length no cut's
			}
			return s
		}
		r.width = n
	}
	if n != r.width {
		return s
	}
	return strings.TrimRight(s, " ")
}

// unpadLast takes the padding off the pending entry's last line, a row of
// width bytes read before the row that taught that width: a padding of
// fewer than minFirstPad spaces stayed on it then (a word wrap's break
// after a table's column leaves as many), and the row taught now says it
// was the terminal's. Read without it, the row's text goes on with the
// line after it as any later row's does (a line a writer or a paste
// wrapped narrower than the padding terminal's rows).
func (a *Assembler) unpadLast(width int) {
	p := &a.cur
	if !p.active || p.kind == kindBlank || p.blanks > 0 || p.lastRaw != width {
		return
	}
	last := a.kept.last()
	t := strings.TrimRight(last, " ")
	n := len(last) - len(t)
	if n < 2 || !a.kept.extendLast(t) {
		return
	}
	if a.kept.count() == 1 {
		p.msg = strings.TrimRight(p.msg, " ")
	}
	p.lastLen -= n
	p.lastRaw -= n
	if a.width.last == width {
		a.width.last = p.lastRaw
	}
	if a.width.maxRaw == width {
		a.width.maxRaw = p.lastRaw
	}
}
