package entry

import (
	"strings"
	"testing"
)

// assembleTexts pushes lines to a new assembler and returns its entries'
// texts.
func assembleTexts(lines []string) []string {
	a := NewAssembler(Options{})
	var es []Entry
	for i, l := range lines {
		es = append(es, a.Push(Line{Text: l, Offset: int64(i)})...)
	}
	return texts(append(es, a.Flush()...))
}

// A table's header and its row as long as each other, each ending in a
// word the other's first cell could go on ("...AGE" and "deepseek-..."),
// are two lines: the row's cells start where the header's columns do, as
// no terminal's rest would (kubectl get pods as posted, aibrix and
// langflow issues).
func TestTableRowsOfOneLengthStayRows(t *testing.T) {
	for _, rows := range [][]string{
		{"NAME                                            READY   STATUS             RESTARTS        AGE",
			"deepseek-r1-distill-llama-8b-5cc594fd46-hg5rw   0/1     CrashLoopBackOff   5 (2m30s ago)   13m"},
		{"NAME                                 READY   STATUS    RESTARTS       AGE",
			"langflow-0                           1/1     Running   0              33s"},
	} {
		if len(rows[0]) != len(rows[1]) {
			t.Fatalf("test rows of %d and %d columns", len(rows[0]), len(rows[1]))
		}
		got := assembleTexts(append([]string{"$ kubectl get pods"}, rows...))
		if len(got) != 3 || got[1] != rows[0] || got[2] != rows[1] {
			t.Errorf("rows of one length: entries %q", got)
		}
	}
}

// A row a terminal cut at its width still goes on with its rest, whose
// cells do not line up with the row's ("...   0/2     Init:C" and
// "rashLoopBackOff   94   27d"), and so does a line cut inside a word at
// a terminal's default widths.
func TestCutRowStillRejoined(t *testing.T) {
	if !sameColumns("NAME                                            READY   STATUS             RESTARTS        AGE",
		"deepseek-r1-distill-llama-8b-5cc594fd46-hg5rw   0/1     CrashLoopBackOff   5 (2m30s ago)   13m") {
		t.Error("a header and its row: not the same columns")
	}
	for _, tt := range []struct{ prev, next string }{
		{"sglang-worker-7b9d8c6f5d-x2x9z                          0/2     Init:C", "rashLoopBackOff   94    27d"},
		{"vllm-0   1/1     Running   0   3m   10.0.0.1   node-a   <none>   <n", "one>   extra-col   x"},
		{"NAME   READY   STATUS", "   x"},
	} {
		if sameColumns(tt.prev, tt.next) {
			t.Errorf("sameColumns(%q, %q) = true, want false", tt.prev, tt.next)
		}
	}
	for _, tt := range []struct{ prev, next, want string }{
		{"  Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are a", "vailable: 3 node(s) didn't match node selector, 6 Insufficient nvidia.com/gpu.",
			"Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are available: 3 node(s) didn't match node selector, 6 Insufficient nvidia.com/gpu."},
		{"RuntimeError: arange_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:36 NPU function er", "ror: call aclnnArange failed, error code is 561103",
			"RuntimeError: arange_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:36 NPU function error: call aclnnArange failed, error code is 561103"},
		{"[2025-01-16 10:11:13 TP0] ValueError: The model's max seq len (32768) is larger than the maximum number of KV cached tok", "ens: 21456 in the cache. Try increasing the memory fraction.",
			"ValueError: The model's max seq len (32768) is larger than the maximum number of KV cached tokens: 21456 in the cache. Try increasing the memory fraction."},
	} {
		if got := assembleTexts([]string{tt.prev, tt.next}); len(got) != 1 || got[0] != tt.want {
			t.Errorf("cut inside a word at %d: entries %q", len(tt.prev), got)
		}
	}
}

// A line behind one rank's prefix is never the rest of another rank's
// line, whatever its length: launchers interleave every rank's copy of a
// help box's prose (Open MPI's, behind torchrun's "[rankN]:") and of a
// traceback, line by line.
func TestOtherRanksLineIsNoRest(t *testing.T) {
	box := []string{
		"It looks like orte_init failed for some reason; your parallel process is",
		"likely to abort.  There are many reasons that a parallel process can",
		"fail during orte_init; some of which are due to configuration or",
	}
	tb := []string{
		"Traceback (most recent call last):",
		"  File \"/workspace/cache-dit/examples/generate.py\", line 69, in <module>",
		"    example.run()",
		"RuntimeError: CUDA error: an illegal memory access was encountered, compile with TORCH_USE_CUDA_DSA",
		"to enable device-side assertions.",
	}
	for _, src := range [][]string{box, tb} {
		var lines []string
		for _, l := range src {
			for k := range 3 {
				lines = append(lines, "[rank"+string(rune('0'+k))+"]:"+l)
			}
		}
		for _, e := range assembleTexts(lines) {
			for _, l := range strings.Split(e, "\n") {
				if strings.Contains(l, "islikely") || strings.Contains(l, "isIt") || strings.Contains(l, "DSAto") || strings.Count(l, "orte_init failed") > 1 {
					t.Errorf("a rank's line joined to another's: %q", l)
				}
			}
		}
	}
	if !otherWriter("[rank2]:", "[rank0]:") || otherWriter("[rank0]:", "[rank0]: ") || otherWriter("", "[rank0]:") {
		t.Error("otherWriter on torchrun's prefixes")
	}
}

// FuzzSameColumns checks that any two lines are read without a panic and
// that the relation is symmetric in what it needs: a line with fewer than
// two padded columns is no table row.
func FuzzSameColumns(f *testing.F) {
	f.Add("NAME                 READY   STATUS    AGE", "vllm-0               1/1     Running   3m")
	f.Add("a  b", "  ")
	f.Fuzz(func(t *testing.T, prev, next string) {
		var a [maxColumns]int
		if sameColumns(prev, next) && (columnStarts(&a, prev) < 2 || columnStarts(&a, next) < 2) {
			t.Errorf("sameColumns(%q, %q) with fewer than two columns", prev, next)
		}
	})
}
