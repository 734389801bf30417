package entry

import (
	"fmt"
	"testing"
)

// TestAssemblerCutExceptionBehindHeader: a record whose message is an
// exception line, cut by a terminal inside that message, carries the
// exception's message whole once the rest is rejoined, for three
// writers' headers (vLLM's, TGI's launcher's, sglang's).
func TestAssemblerCutExceptionBehindHeader(t *testing.T) {
	for _, tc := range []struct {
		name, line, exc string
		width           int
	}{
		{"vLLM's worker", "ERROR 11-07 11:03:31 [multiproc_executor.py:585] IndexError: list index out of range", "IndexError: list index out of range", 80},
		{"TGI's launcher", "2024-03-14T13:19:25.553183Z ERROR text_generation_launcher: RuntimeError: CUDA error: an illegal memory access was encountered", "RuntimeError: CUDA error: an illegal memory access was encountered", 100},
		{"sglang's record", "[2026-12-06 18:42:43 TP0] ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache", "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache", 120},
	} {
		t.Run(fmt.Sprintf("%s at %d", tc.name, tc.width), func(t *testing.T) {
			posted := assemble(t, Options{}, tc.line)
			px := posted[0].Traceback.Outermost()
			if px == nil || px.Type+": "+px.Message != tc.exc {
				t.Skipf("as posted the record carries %+v, not the exception", px)
			}
			es := assemble(t, Options{}, hardWrapText(tc.line, tc.width))
			if len(es) != 1 {
				t.Fatalf("%d entries, want 1", len(es))
			}
			x := es[0].Traceback.Outermost()
			if x == nil || x.Type+": "+x.Message != tc.exc {
				t.Errorf("exception %+v, want %q", x, tc.exc)
			}
		})
	}
}
