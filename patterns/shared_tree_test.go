package patterns

import (
	"strings"
	"testing"
)

// Records of one Parse that share a pattern share its parse: the pattern
// is parsed once. A record with another pattern has its own tree.
func TestParseSharesTheTreeOfARepeatedPattern(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"r1","messagePattern":"CUDA error: (.+)","severity":"error"}`,
		`{"id":"r2","messagePattern":"CUDA error: (.+)","severity":"warning"}`,
		`{"id":"r3","messagePattern":"NCCL error: (.+)","severity":"error"}`,
	}, "\n")
	recs, probs := Parse(strings.NewReader(in), "catalog.jsonl")
	if len(probs) > 0 || len(recs) != 3 {
		t.Fatalf("Parse: %d records, problems %v", len(recs), probs)
	}
	var trees [3]any
	for i := range recs {
		tree, err := recs[i].PatternTree()
		if err != nil {
			t.Fatal(err)
		}
		trees[i] = tree
	}
	if trees[0] != trees[1] {
		t.Error("two records with one pattern got two parses")
	}
	if trees[0] == trees[2] {
		t.Error("records with different patterns share a tree")
	}
}
