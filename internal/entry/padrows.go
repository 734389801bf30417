package entry

import "strings"

// A terminal that pads every row it shows to its width with spaces
// (screen's hardcopy, a Windows console's copy, a pager that fills its
// rows) hands over each line a row long: the lines it did not wrap end in
// their padding, the ones it wrapped fill the row with text. Read as
// they are, every line is as long as the widest, and each looks cut at
// the width. rowPad learns the row width from lines of one length that
// end in spaces, and takes the padding off such lines, so that a wrap is
// told as on a terminal that does not pad (wrapwidth.go, wrap.go).

// Bounds of row padding.
const (
	// padRowsToLearn is how many lines in a row of one length, at least
	// minWrapWidth, teach the row width; padEndsToLearn of them must end
	// in two spaces or more (a line a writer ends in one space is a
	// word wrap's piece as often).
	padRowsToLearn = 2
	padEndsToLearn = 2
)

// rowPad is a stream's padded row width, once learned. Bounded state.
type rowPad struct {
	width int // learned; 0 until then
	cand  int // the length of the lines in a row so far
	run   int8
	ends  int8
}

// trim returns s, a line as posted, without a padded row's trailing
// spaces once the row width is learned, and learns it.
func (r *rowPad) trim(s string) string {
	n := len(s)
	if r.width == 0 {
		switch {
		case n < minWrapWidth:
			r.cand, r.run, r.ends = 0, 0, 0
			return s
		case n != r.cand:
			r.cand, r.run, r.ends = n, 0, 0
		}
		if r.run < padRowsToLearn {
			r.run++
		}
		if s[n-1] == ' ' && s[n-2] == ' ' && r.ends < padEndsToLearn {
			r.ends++
		}
		if r.run < padRowsToLearn || r.ends < padEndsToLearn {
			return s
		}
		r.width = n
	}
	if n != r.width || s[n-1] != ' ' || s[n-2] != ' ' {
		// One space at a row's end is as likely the text's own, where
		// the terminal cut a longer line, as one byte of padding.
		return s
	}
	return strings.TrimRight(s, " ")
}
