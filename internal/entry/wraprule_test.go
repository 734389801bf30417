package entry

import (
	"strings"
	"testing"
)

// TestRuleLineIsNoCutPiece: a rule drawn across the line (a help box's
// top, as Open MPI draws it) ends where its writer stopped it, so the
// prose under it is a line of its own, never a terminal's rest of the
// rule, whatever the rule's length.
func TestRuleLineIsNoCutPiece(t *testing.T) {
	rule := strings.Repeat("-", 74)
	for _, tt := range []struct{ name, next string }{
		// triton-inference-server/tensorrtllm_backend#712.
		{"orte_init box", "It looks like orte_init failed for some reason; your parallel process is"},
		// SPECFEM/specfem2d#1210.
		{"primary job box", "Primary job  terminated normally, but 1 process returned"},
	} {
		es := assemble(t, Options{}, rule+"\n"+tt.next)
		if len(es) != 2 || es[0].Raw != rule || es[1].Raw != tt.next {
			t.Errorf("%s: %d entries %+v, want the rule and the line under it apart", tt.name, len(es), views(es))
		}
	}
	// A long line a terminal cut after a rule's start is still rejoined:
	// the rule must be the whole line.
	cut := "==== NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL v"
	if es := assemble(t, Options{}, cut+"\nersion 2.21.5"); len(es) != 1 {
		t.Errorf("a line opening with '=' cut by a terminal: %d entries, want 1: %+v", len(es), views(es))
	}
}
