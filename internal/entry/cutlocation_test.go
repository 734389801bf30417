package entry

import (
	"strings"
	"testing"
)

// TestCutLocationRest: a hand wrap's location line that a terminal cut
// again at its width is rejoined, piece by piece, to the message it
// belongs to; a parenthesised path of another width, one after a colon,
// and a note with words stay lines of their own.
func TestCutLocationRest(t *testing.T) {
	deepgemm := "(/deepgemm/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:57):"
	for _, tt := range []struct {
		name, prev, next string
		want             bool
	}{
		{"DeepGEMM's check at 80", "Capture cuda graph failed: Assertion error", deepgemm[:80], true},
		{"DeepEP's check at 80", "RuntimeError: Failed: Assertion error", "(/usr/local/lib/python3.12/dist-packages/deep_ep/csrc/kernels/internode_ll.cu:1233):"[:80], true},
		{"another width", "Capture cuda graph failed: Assertion error", deepgemm[:78], false},
		{"after a colon", "Capture cuda graph failed:", deepgemm[:80], false},
		{"a note with words", "Loading the model", "(see /usr/share/doc/sglang/README for the flags the launcher takes and their use)", false},
		{"one directory", "Capture cuda graph failed: Assertion error", "(layout.hpp_from_the_build_of_the_kernels_in_the_container_image_of_the_ser/x:5", false},
	} {
		if got := isCutLocationRest(tt.prev, tt.next, len(tt.next)); got != tt.want {
			t.Errorf("%s: isCutLocationRest(%q, %q) = %v, want %v", tt.name, tt.prev, tt.next, got, tt.want)
		}
	}
	in := "Capture cuda graph failed: Assertion error\n" + deepgemm[:80] + "\n" + deepgemm[80:] + "\nab.scalar_type() == kPackedFP4 and arch_major == 10"
	es := assemble(t, Options{}, in)
	if len(es) == 0 || firstLine(es[0].Text) != "Capture cuda graph failed: Assertion error "+deepgemm {
		t.Errorf("cut location: entries %q", texts(es))
	}
	if len(es) > 0 && strings.Contains(firstLine(es[0].Text), "ab.scalar_type") {
		t.Errorf("the check's condition joined: %q", es[0].Text)
	}
}

// FuzzCutLocationRest checks the rule's promise: next opens with "(" and
// a path with no space after a line that ends in a word, at a
// terminal's width.
func FuzzCutLocationRest(f *testing.F) {
	f.Add("Capture cuda graph failed: Assertion error", "(/deepgemm/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:5", 80)
	f.Fuzz(func(t *testing.T, prev, next string, shown int) {
		if !isCutLocationRest(prev, next, shown) {
			return
		}
		if next[0] != '(' || strings.ContainsAny(next, " \t)") || strings.Count(next, "/") < 2 || !isWordByte(prev[len(prev)-1]) || !isTerminalWidth(shown) {
			t.Fatalf("isCutLocationRest(%q, %q, %d): no location's first piece", prev, next, shown)
		}
	})
}
