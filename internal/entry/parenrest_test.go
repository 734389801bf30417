package entry

import (
	"strings"
	"testing"
)

// TestAssemblerRejoinsParenSpaceRest: a cut just before the space ahead
// of a word, inside a parenthesis the line opened, rejoined for three
// writers' lines, whatever the pieces' lengths and behind a collector's
// prefix; what a line of its own opens with stays apart.
func TestAssemblerRejoinsParenSpaceRest(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		entries int
		text    string // the first entry's text holds it; after "!", holds it not
	}{
		{"Ray's memory monitor", "[2026-12-06 18:42:43,046 E 90952 90952] (raylet) node_manager.cc:3007: 2 Workers (tasks /\n actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons", 1,
			"2 Workers (tasks / actors) killed due to memory pressure (OOM)"},
		{"PyTorch's allocator", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 79.15 GiB total capacity; 78.90 GiB already allocated; 5.62 MiB free; 79.01 GiB reserved in total by\n PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb", 1,
			"reserved in total by PyTorch) If reserved"},
		{"NCCL's completion error", "gpu7:1234:5678 [3] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<39222> with error 12, opcode 32753, len 0, vendor err 129 (Send\n Recv) localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2", 1,
			"vendor err 129 (Send Recv) localGid"},
		{"behind a collector's prefix", "sglang-1  | [2026-12-06 18:42:43,046 E 1 1] (raylet) node_manager.cc:3007: 2 Workers (tasks /\nsglang-1  |  actors) killed due to memory pressure (OOM)", 1,
			"(tasks / actors) killed"},
		{"behind torchrun's rank prefix, which takes the space", "[rank0]:[2026-12-06 18:42:43,046 E 1 1] (raylet) node_manager.cc:3007: 2 Workers (tasks /\n[rank0]: actors) killed due to memory pressure (OOM)", 1,
			"(tasks / actors) killed"},
		{"one blank line of a double-spaced paste", "[2026-12-06 18:42:43,046 E 1 1] (raylet) node_manager.cc:3007: 2 Workers (tasks /\n\n actors) killed due to memory pressure (OOM)\n\n(raylet)\n", 0,
			"(tasks / actors) killed"},
		// Near misses.
		{"indented two spaces", "[2026-12-06 18:42:43 TP0] Loading weights for the model (see the table\n  below) with more text\n", 0, "!(see the table  below)"},
		{"no parenthesis open", "[2026-12-06 18:42:43 TP0] Loading weights as configured here\n done) with more text\n", 0, "!here done)"},
		{"a short line", "Workers (tasks /\n actors) killed\n", 0, "!(tasks / actors)"},
		{"the rest opens a parenthesis first", "[2026-12-06 18:42:43 TP0] Loading weights for the model (see the table\n list (a) below\n", 0, "!table list"},
		{"a frame line before", "  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 3, in f (x\n y)\n", 0, "!(x y)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			es := assemble(t, Options{}, strings.TrimSuffix(tc.in, "\n"))
			if tc.entries > 0 && len(es) != tc.entries {
				t.Errorf("%d entries, want %d: %+v", len(es), tc.entries, views(es))
			}
			if len(es) == 0 {
				t.Fatal("no entry")
			}
			var all strings.Builder
			for _, e := range es {
				all.WriteString(e.Text)
				all.WriteByte('\n')
			}
			if want, ok := strings.CutPrefix(tc.text, "!"); ok {
				if strings.Contains(all.String(), want) {
					t.Errorf("text %q holds %q", all.String(), want)
				}
			} else if !strings.Contains(es[0].Text, tc.text) {
				t.Errorf("first entry %q, want it to hold %q", es[0].Text, tc.text)
			}
		})
	}
}

// FuzzParenSpaceRest checks the rule's promises on any pair of lines: a
// rest opens with one space and a word, closes a parenthesis prev left
// open, and is no traceback or exception line.
func FuzzParenSpaceRest(f *testing.F) {
	f.Add("[2026-12-06 18:42:43,046 E 90952 90952] (raylet) node_manager.cc:3007: 2 Workers (tasks /", " actors) killed due to memory pressure (OOM)")
	f.Add("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 79.15 GiB total capacity by", " PyTorch) If reserved")
	f.Add("a line long enough to be a terminal's piece (x", " ValueError: y)")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isParenSpaceRest(prev, next) {
			return
		}
		if len(prev) < minParenPrev || next[0] != ' ' || !isWordByte(next[1]) || !strings.Contains(next, ")") || strings.LastIndexByte(prev, '(') < 0 {
			t.Fatalf("isParenSpaceRest(%q, %q): shape", prev, next)
		}
		if isFrameLine(prev) || isTracebackLine(next) {
			t.Fatalf("isParenSpaceRest(%q, %q): a traceback line", prev, next)
		}
		if _, _, ok := parseExceptionAnyQuote(next[1:]); ok {
			t.Fatalf("isParenSpaceRest(%q, %q): an exception line", prev, next)
		}
	})
}
