package entry

import (
	"fmt"
	"strings"
	"testing"
)

// TestAssemblerCutRepeatedHeader: the lines of a record that repeat its
// header behind a long prefix, cut by a terminal inside that header, are
// read as the record as posted: one entry, the headers left out, the
// exception line whole, for three writers (vLLM's worker and engine core
// behind Ray's and multiprocessing's prefixes, Ray core's C++ dump behind
// an actor's) cut at a terminal's width or folded at a space (fold -s)
// before the logger's location. The widths left out say what is not
// read yet.
func TestAssemblerCutRepeatedHeader(t *testing.T) {
	record := func(prefix string, body ...string) string {
		var b strings.Builder
		for i, l := range body {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(prefix + l)
		}
		return b.String()
	}
	tb := []string{
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.10/dist-packages/vllm/model_executor/layers/fused_moe/layer.py", line 962, in _load_model_weight_or_group_weight_scale`,
		"    self._load_w13(",
		`  File "/usr/local/lib/python3.10/dist-packages/vllm/model_executor/layers/fused_moe/layer.py", line 1006, in _load_w13`,
		"    loaded_weight = loaded_weight.narrow(",
	}
	writers := []struct {
		name, text, whole string
		widths, folds     []int
	}{
		{"vLLM's worker behind Ray's prefixes", record("(vLLMHttpServerForPartial pid=1007413) (Worker_TP3 pid=1024473) ERROR 03-04 05:42:52 [multiproc_executor.py:824] ",
			append(tb, "IndexError: start out of range (expected to be in range of [-768, 768], but got 3072)")...),
			"IndexError: start out of range (expected to be in range of [-768, 768], but got 3072)", []int{80, 100, 120}, []int{100}},
		{"vLLM's engine core behind its process prefix", record("(EngineCore_DP0 pid=3061428) ERROR 12-06 18:42:43 [core.py:708] ",
			append(tb, "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (67008).")...),
			"ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (67008).", []int{80, 100, 120, 132}, []int{100, 120}},
		{"Ray core's dump behind an actor's prefix", record("(SGLangHttpServerForPartial pid=1007413, ip=10.10.10.10) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: ",
			"*** SIGABRT received at time=1747633685 on cpu 17 ***",
			"PC: @     0x7f6d68247e87  (unknown)  raise",
			"    @     0x7f6d68247e87  (unknown)  raise",
			"    @     0x7f6d6824e7f1  (unknown)  abort"),
			// At 100 and 120 columns the cut leaves one letter of the
			// source location ("...140771] l" and "ogging.cc:361: ..."),
			// which is not rejoined; folded at 80 or 120, a word wrap
			// inside a message of a record read as one line (Ray core's,
			// after its header was read whole) is not rejoined either.
			"*** SIGABRT received at time=1747633685 on cpu 17 ***", []int{80, 132}, []int{100}},
	}
	for _, w := range writers {
		posted := assemble(t, Options{}, w.text)
		for _, width := range w.widths {
			t.Run(fmt.Sprintf("%s at %d", w.name, width), func(t *testing.T) {
				got := assemble(t, Options{}, hardWrapText(w.text, width))
				checkCutHeader(t, got, posted, w.whole)
			})
		}
		for _, width := range w.folds {
			t.Run(fmt.Sprintf("%s folded at %d", w.name, width), func(t *testing.T) {
				got := assemble(t, Options{}, foldText(w.text, width))
				checkCutHeader(t, got, posted, w.whole)
			})
		}
	}
}

// foldText breaks every line of text longer than width after the last
// space before it, as fold -s, an editor or a mail tool does.
func foldText(text string, width int) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for len(l) > width {
			cut := strings.LastIndexByte(l[:width], ' ')
			if cut <= 0 || strings.TrimSpace(l[:cut]) == "" {
				break
			}
			out = append(out, l[:cut+1])
			l = l[cut+1:]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// checkCutHeader checks the entries of a wrapped record against those of
// the record as posted: as many, the one that holds whole its text.
func checkCutHeader(t *testing.T, got, posted []Entry, whole string) {
	t.Helper()
	{
		{
			{
				if len(got) != len(posted) {
					t.Errorf("%d entries, %d as posted", len(got), len(posted))
				}
				for _, e := range got {
					if strings.Contains(e.Text, whole) {
						if posted[0].Text != e.Text {
							t.Errorf("text %q, as posted %q", e.Text, posted[0].Text)
						}
						return
					}
				}
				var all []string
				for _, e := range got {
					all = append(all, e.Text)
				}
				t.Errorf("no entry holds %q whole:\n%s", whole, strings.Join(all, "\n---\n"))
			}
		}
	}
}

// TestAssemblerCutHeaderNearMisses: a line that begins another record's
// header, or is shorter than a level and a date, is no cut header of
// the pending record.
func TestAssemblerCutHeaderNearMisses(t *testing.T) {
	const rec = "ERROR 03-04 05:42:52 [multiproc_executor.py:824] "
	for _, tc := range []struct{ name, line string }{
		{"another record's header", "WARNING 03-04 05:42:53 [x.py:1] next record"},
		{"another second", "ERROR 03-04 05:42:53 [multiproc_executor.py:824] next record"},
		{"a level alone", "ERR"},
	} {
		a := NewAssembler(Options{})
		a.Push(Line{Text: rec + "RuntimeError: first", Offset: 1})
		if a.isCutHeader(tc.line) {
			t.Errorf("%s: %q read as the record's cut header", tc.name, tc.line)
		}
	}
	a := NewAssembler(Options{})
	a.Push(Line{Text: rec + "RuntimeError: first", Offset: 1})
	if !a.isCutHeader("ERROR 03-04 05:4") || !a.isCutHeader("ERROR 03-04 05:42:52 [multiproc_exec") {
		t.Error("the record's header cut short is not read as one")
	}
}
