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
}
