package entry

import (
	"strings"
	"testing"
)

// TestPaneBorders: a log viewer's pane borders around every line (k9s's
// log view, sglang#4017; a CLI's Rich panel pasted in a document, indented)
// come off, so the lines read as the log wrote them; a box with inner bars
// (a traceback panel's gutter, nested boxes) and a lone line closed by a
// bar after little padding keep theirs.
func TestPaneBorders(t *testing.T) {
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(w-len(s), 1)) }
	k9s := pad("[2025-02-28 09:28:25 TP7] Scheduler hit an exception: Traceback (most recent call last):", 248) + " │\n" +
		"│ " + pad(`  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 1825, in run_scheduler_process`, 248) + " │\n" +
		"│ " + pad("    scheduler.event_loop_overlap()", 248) + " │\n" +
		"│ " + pad(`  File "/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py", line 116, in decorate_context`, 248) + " │\n" +
		"│ " + pad("    return func(*args, **kwargs)", 248) + " │\n" +
		"│ " + pad("RuntimeError: CUDA error: an illegal memory access was encountered", 248) + " │"
	es := assemble(t, Options{}, k9s)
	if len(es) != 1 || es[0].Traceback == nil || strings.Contains(es[0].Text, "│") {
		t.Fatalf("k9s pane: %d entries, want one traceback without bars: %+v", len(es), es)
	}
	if got := es[0].Traceback.Outermost().Message; got != "CUDA error: an illegal memory access was encountered" {
		t.Errorf("k9s pane: message %q", got)
	}
	panel := "    " + "│ " + pad("Workflow failed.", 113) + " │\n" +
		"    │ " + pad("", 113) + " │\n" +
		"    │ " + pad("Traceback (most recent call last):", 113) + " │\n" +
		"    │ " + pad(`  File "/home/luca/repos/pipewine/pipewine/sinks/underfolder.py", line 129, in __call__`, 113) + " │\n" +
		"    │ " + pad("    raise FileExistsError(", 113) + " │\n" +
		"    │ " + pad("FileExistsError: Folder /tmp/output already exists and policy OverwritePolicy.FORBID is used.", 113) + " │"
	var tb *Traceback
	for _, e := range assemble(t, Options{}, panel) {
		if strings.Contains(e.Text, "│") {
			t.Errorf("panel: bars kept: %q", e.Text)
		}
		if e.Traceback != nil {
			tb = e.Traceback
		}
	}
	if tb == nil || tb.Outermost().Type != "FileExistsError" {
		t.Errorf("panel: traceback %+v", tb)
	}
	for _, in := range []string{
		"│   313 │   with TraceAnnotation(name, **decorator_kwargs):                                        │\n" +
			"│ ❱ 314 │     return func(*args, **kwargs)                                                         │",
		"│  │     return func(*args, **kwargs)                     │  │\n│  │     time.sleep(delay)                                │  │",
		"the table ends here │",
	} {
		var kept int
		for _, e := range assemble(t, Options{}, in) {
			kept += strings.Count(e.Text, "│")
		}
		if kept == 0 {
			t.Errorf("bars taken off %q", in)
		}
	}
}

// FuzzPaneBorder: strip keeps its bounds inside the line, and what it takes
// off holds the closing bar.
func FuzzPaneBorder(f *testing.F) {
	f.Add("│   File \"x.py\", line 1, in f           │", 0)
	f.Add("    │ Workflow failed.          │", 29)
	f.Add("│ a │ b │", 3)
	f.Fuzz(func(t *testing.T, s string, width int) {
		p := paneBorder{width: width}
		start, end := p.strip(s, 0, len(s))
		if start < 0 || end > len(s) || start > end {
			t.Fatalf("strip(%q) = %d, %d", s, start, end)
		}
		if (start != 0 || end != len(s)) && !strings.HasSuffix(s, " │") {
			t.Fatalf("strip(%q) = %d, %d: no closing bar", s, start, end)
		}
	})
}

// TestPaneLeftBorders: a copy of a viewer's panes that kept their left
// borders and not their right ones, the selection ending with the text
// (k9s's nested panes around sglang's tokenizer traceback, sglang#6523;
// k9s's pane around a scheduler's traceback, sglang#4017, copied so), has
// them taken off, so the traceback's frames are read; a line closed by a
// bar (a panel's row, a table's) and a line of bars alone keep theirs.
func TestPaneLeftBorders(t *testing.T) {
	for name, in := range map[string]string{
		"nested": "Traceback (most recent call last):\n" +
			"│ │   File \"/sgl-workspace/sglang/python/sglang/srt/hf_transformers_utils.py\", line 270, in get_tokenizer\n" +
			"│ │     tokenizer = AutoTokenizer.from_pretrained(\n" +
			"│ │                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
			"│ │   File \"/usr/local/lib/python3.12/dist-packages/transformers/models/auto/tokenization_auto.py\", line 1135, in from_pretrained",
		"one pane": "[2025-02-28 09:28:25 TP7] Scheduler hit an exception: Traceback (most recent call last):\n" +
			"│   File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py\", line 1825, in run_scheduler_process\n" +
			"│     scheduler.event_loop_overlap()\n" +
			"│   File \"/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py\", line 116, in decorate_context",
	} {
		es := assemble(t, Options{}, in)
		if len(es) != 1 || es[0].Traceback == nil || len(es[0].Traceback.Links[0].Frames) != 2 || strings.Contains(es[0].Text, "│") {
			t.Errorf("%s: %d entries, want one traceback of two frames without bars: %+v", name, len(es), es)
		}
	}
	for s, want := range map[string]int{
		"│ │   File \"x.py\", line 1, in f": len("│ │ "),
		"│ a row │ of a table":              0,
		"│ │ ":                              0,
		"│":                                 0,
		"plain":                             0,
	} {
		if got := paneLeadLen(s); got != want {
			t.Errorf("paneLeadLen(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzPaneLeadLen checks the rule's promise: what it takes off is bars
// and their spaces, and text with no bar is left after it.
func FuzzPaneLeadLen(f *testing.F) {
	f.Add("│ │   File \"x.py\", line 1, in f")
	f.Fuzz(func(t *testing.T, s string) {
		n := paneLeadLen(s)
		if n == 0 {
			return
		}
		if strings.Trim(s[:n], "│ ") != "" || strings.Contains(s[n:], "│") || isBlank(s[n:]) {
			t.Fatalf("paneLeadLen(%q) = %d", s, n)
		}
	})
}
