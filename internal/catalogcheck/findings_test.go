package catalogcheck

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

func testLint(t *testing.T) Lint {
	t.Helper()
	m, _ := matcher.Compile(testCatalog(), matcher.Options{})
	probs := []patterns.Problem{{File: "bad.jsonl", Line: 3, Field: "messagePattern", Message: "missing or empty"}}
	return Lint{Summary: patterns.Summarize(m.Records(), probs), Problems: probs, Report: Check(m, Options{TopN: -1}), Analysed: true}
}

// Overlaps, the bulk of a large catalog's findings, are counted but not
// listed by default; --show lists what it names; the summary is printed
// once, last, and says what was not listed.
func TestFilterAndSummary(t *testing.T) {
	l := testLint(t)
	all := l.Findings()
	kinds := map[string]int{}
	for _, f := range all {
		kinds[f.Kind]++
	}
	if kinds[KindProblem] != 1 || kinds[KindShadowed]+kinds[KindOverlap] == 0 {
		t.Fatalf("findings by kind = %v, want a problem and overlaps", kinds)
	}

	kept, hidden := Filter{}.Apply(all)
	for _, f := range kept {
		if f.Kind == KindOverlap {
			t.Errorf("a plain overlap is listed by default: %v", f)
		}
	}
	if hidden[KindOverlap] != kinds[KindOverlap] {
		t.Errorf("hidden = %v, want every plain overlap", hidden)
	}
	var b bytes.Buffer
	if err := WriteText(&b, l, kept, hidden, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, l.Summary.String()+"; ") || strings.Count(b.String(), l.Summary.String()) != 1 {
		t.Errorf("want one summary, last:\n%s", b.String())
	}
	if kinds[KindOverlap] > 0 && !strings.Contains(last, "not listed: ") {
		t.Errorf("the summary does not say what was not listed: %s", last)
	}
	if lines[0] != "bad.jsonl:3: messagePattern: missing or empty" {
		t.Errorf("first line = %q, want the problem as file:line: field: message", lines[0])
	}

	b.Reset()
	if err := WriteText(&b, l, kept, hidden, true); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "\n") != 1 {
		t.Errorf("--summary prints more than the summary:\n%s", b.String())
	}

	only, err := ParseKinds("problem")
	if err != nil {
		t.Fatal(err)
	}
	kept, _ = Filter{Kinds: only}.Apply(all)
	if len(kept) != 1 || kept[0].Kind != KindProblem {
		t.Errorf("--show problem kept %v", kept)
	}
	allKinds, _ := ParseKinds("all")
	kept, hidden = Filter{Kinds: allKinds}.Apply(all)
	if len(kept) != len(all) || len(hidden) != 0 {
		t.Errorf("--show all kept %d of %d", len(kept), len(all))
	}
	kept, _ = Filter{Kinds: allKinds, Records: []string{"broad"}}.Apply(all)
	for _, f := range kept {
		if f.Kind != KindProblem && f.ID != "broad" && f.Slug != "broad" {
			t.Errorf("--record broad kept %v", f)
		}
	}
	if _, err := ParseKinds("problem,everything"); err == nil || !strings.Contains(err.Error(), `unknown kind "everything"`) {
		t.Errorf("ParseKinds accepted an unknown kind: %v", err)
	}
}

func TestWriteJSON(t *testing.T) {
	l := testLint(t)
	all := l.Findings()
	kept, hidden := Filter{}.Apply(all)
	var b bytes.Buffer
	if err := WriteJSON(&b, l, all, kept, hidden, false); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Records, Errors int
		Counts          map[string]int
		Findings        []Finding
		Summary         string
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if doc.Records != l.Summary.Records || doc.Errors != 1 || len(doc.Findings) != len(kept) || doc.Summary != l.SummaryLine(hidden) {
		t.Errorf("json = %+v", doc)
	}
	if diff := cmp.Diff(kept[0], doc.Findings[0]); diff != "" {
		t.Errorf("first finding (-want +got):\n%s", diff)
	}
	total := 0
	for _, n := range doc.Counts {
		total += n
	}
	if total != len(all) {
		t.Errorf("counts add up to %d, want %d", total, len(all))
	}
	b.Reset()
	if err := WriteJSON(&b, l, all, kept, hidden, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"findings": []`) {
		t.Errorf("summary-only JSON lists findings:\n%s", b.String())
	}
}
