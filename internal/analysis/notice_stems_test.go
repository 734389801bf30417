package analysis

import (
	"strings"
	"testing"
)

// Every carry-on opener and passive holds a stem of carryOnStems, so
// mayCarryOn never turns away a line carryOnAt would read.
func TestCarryOnStemsCoverTheWords(t *testing.T) {
	words := []string{"retry 3"}
	for _, o := range carryOnOpeners {
		words = append(words, strings.TrimSpace(o.word))
	}
	for _, p := range carryOnPassives {
		words = append(words, strings.TrimRight(p, ".;,")[1:])
	}
	for _, w := range words {
		if !mayCarryOn(w) {
			t.Errorf("%q holds no carry-on stem: add one to carryOnStems", w)
		}
	}
	if mayCarryOn("runtimeerror: cuda error: an illegal memory access was encountered") {
		t.Error("a plain failure line holds a carry-on stem")
	}
	for _, p := range carryOnPassives {
		if !passiveStemSet.in(p) {
			t.Errorf("passive %q holds no passive stem: add one to passiveStems", p)
		}
	}
	for _, w := range append(append([]string{}, carryOnStems...), passiveStems...) {
		if len(w) < 2 || !isLowerLetter(w[0]) || !isLowerLetter(w[1]) {
			t.Errorf("stem %q does not open with two lower-case letters", w)
		}
	}
	for _, set := range [][]string{carryOnStems, passiveStems} {
		for _, w := range set {
			for _, v := range set {
				if v != w && strings.HasPrefix(v, w) {
					t.Errorf("stem %q opens stem %q: a stemSet finds one word a place", w, v)
				}
			}
		}
	}
}

// A stem set finds its words in either case and anywhere in a line, and
// only whole words of it.
func TestStemSet(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"Falling back to the default kernel", true},
		{"WILL RETRY IN 5S", true},
		{"x Proceeding", true},
		{"cuda error: an illegal memory access", false},
		{"fal", false},
		{"fa", false},
		{"f", false},
		{"", false},
		{"F@LL", false},
		{"sKIp", true},
	} {
		if got := mayCarryOn(c.line); got != c.want {
			t.Errorf("mayCarryOn(%q) = %v, want %v", c.line, got, c.want)
		}
		if got := mayCarryOn(c.line); got != carryOnStemsIn(strings.ToLower(c.line)) {
			t.Errorf("mayCarryOn(%q) = %v, unlike a search a stem", c.line, got)
		}
	}
}

// carryOnStemsIn is mayCarryOn as a search a stem.
func carryOnStemsIn(t string) bool {
	for _, w := range carryOnStems {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

func isLowerLetter(c byte) bool { return 'a' <= c && c <= 'z' }

// earliestBreak is nextBreak by its definition: the earliest place of t,
// from from, where any of clauseBreaks begins.
func earliestBreak(t string, from int) (int, string) {
	best, brk := len(t), ""
	for _, b := range clauseBreaks {
		if i := strings.Index(t[from:], b); i >= 0 && from+i < best {
			best, brk = from+i, b
		}
	}
	return best, brk
}

func TestNextBreak(t *testing.T) {
	for _, line := range []string{
		"failed to load x. falling back; retry in 1s, then: go - on -- now — end... done! ok",
		"a -- b - c", "a —b — c", "a.. b... c", "x :y: z", "", ".", "a. ", " - ", " -", " --x -- ",
	} {
		for from := 0; from <= len(line); from++ {
			gotAt, gotBrk := nextBreak(line, from)
			wantAt, wantBrk := earliestBreak(line, from)
			if gotAt != wantAt || gotBrk != wantBrk {
				t.Errorf("nextBreak(%q, %d) = %d, %q; want %d, %q", line, from, gotAt, gotBrk, wantAt, wantBrk)
			}
		}
	}
}

// FuzzNextBreak checks nextBreak, which reads a line once, against its
// definition over clauseBreaks, and mayCarryOn against a search a stem.
func FuzzNextBreak(f *testing.F) {
	f.Add("failed to load x. falling back; retry in 1s, then: go - on -- now — end... done! ok", 3)
	f.Add("Skipping x -- Will retry", 0)
	f.Fuzz(func(t *testing.T, line string, from int) {
		if from < 0 || from > len(line) {
			return
		}
		gotAt, gotBrk := nextBreak(line, from)
		wantAt, wantBrk := earliestBreak(line, from)
		if gotAt != wantAt || gotBrk != wantBrk {
			t.Errorf("nextBreak(%q, %d) = %d, %q; want %d, %q", line, from, gotAt, gotBrk, wantAt, wantBrk)
		}
		if mayCarryOn(line) != carryOnStemsIn(lowerASCII(line)) {
			t.Errorf("mayCarryOn(%q) differs from a search a stem", line)
		}
	})
}
