package catalogcheck

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func rec(line int, id, slug, class, msg, pattern string) patterns.Record {
	return patterns.Record{
		ID: id, Slug: slug, ErrorClass: class, ErrorMessage: msg, MessagePattern: pattern,
		Origin: patterns.Origin{File: "cat.jsonl", Line: line},
	}
}

// testCatalog has one record of each finding kind.
func testCatalog() []patterns.Record {
	return []patterns.Record{
		rec(1, "oom", "cuda-oom", "OutOfMemoryError", "CUDA out of memory. Tried to allocate {size}", `CUDA out of memory\. Tried to allocate (.+?)`),
		rec(2, "generic", "scheduler-exception", "", "Scheduler hit an exception: {e}", `Scheduler hit an exception: (.+)`),
		rec(3, "alloc", "tried-to-allocate", "RuntimeError", "Tried to allocate {n} bytes", `Tried to allocate (\d+)`),
		rec(4, "wrong", "wrong-pattern", "ValueError", "Invalid rank {rank}", `Invalid rnak (\d+)`),
		rec(5, "bare", "bare-digits", "", "", `^\d+$`),
		rec(6, "short", "short-literal", "", "OOM", `OOM`),
		rec(7, "slow", "backtracker", "", "", `(x+x+)+y`),
	}
}

func TestCheck(t *testing.T) {
	m, problems := matcher.Compile(testCatalog(), matcher.Options{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	input := "Tried to allocate 20 MiB\n" + strings.Repeat("x", 40)
	r := Check(m, Options{TopN: 2, Input: input})

	type pair struct{ Rec, Other string }
	var gotPairs []pair
	var shadowed []pair
	for _, o := range r.Overlaps {
		gotPairs = append(gotPairs, pair{o.Record.ID, o.Other.ID})
		if o.Shadowed {
			shadowed = append(shadowed, pair{o.Record.ID, o.Other.ID})
		}
	}
	var misses, unanchored []string
	for _, s := range r.SelfMisses {
		misses = append(misses, s.Record.ID)
	}
	for _, u := range r.Unanchored {
		unanchored = append(unanchored, u.Record.ID+"="+u.Longest)
	}

	if diff := cmp.Diff([]pair{{"oom", "alloc"}}, gotPairs); diff != "" {
		t.Errorf("overlaps (-want +got):\n%s", diff)
	}
	// The oom message is printed as an OutOfMemoryError: its own record
	// agrees with the class, so nothing shadows it.
	if len(shadowed) != 0 {
		t.Errorf("shadowed = %v, want none", shadowed)
	}
	if diff := cmp.Diff([]string{"wrong"}, misses); diff != "" {
		t.Errorf("self-misses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"bare=", "short=OOM", "slow=xx"}, unanchored); diff != "" {
		t.Errorf("unanchored (-want +got):\n%s", diff)
	}
	if len(r.Expensive) != 2 {
		t.Fatalf("expensive = %d entries, want TopN = 2", len(r.Expensive))
	}
	if got := r.Expensive[0]; got.Record.ID != "slow" || !errors.Is(got.Err, matcher.ErrMatchTimeout) {
		t.Errorf("most expensive = %s (%v), want slow timing out", got.Record.ID, got.Err)
	}
}

func TestShadowed(t *testing.T) {
	recs := []patterns.Record{
		rec(1, "specific", "specific", "", "Tried to allocate {n} bytes", `Tried to allocate`),
		rec(2, "broad", "broad", "RuntimeError", "x", `allocate (\d+) bytes`),
	}
	m, _ := matcher.Compile(recs, matcher.Options{})
	r := Check(m, Options{TopN: -1})
	want := []Overlap{{Record: &m.Records()[0], Other: &m.Records()[1], Shadowed: false}}
	if diff := cmp.Diff(want, r.Overlaps, cmpopts.IgnoreUnexported(patterns.Record{})); diff != "" {
		t.Errorf("overlaps (-want +got):\n%s", diff)
	}

	// Give the broad record a longer literal: now it ranks first.
	recs[1].MessagePattern = `Tried to allocate (\d+) bytes`
	m, _ = matcher.Compile(recs, matcher.Options{})
	r = Check(m, Options{TopN: -1})
	if len(r.Overlaps) != 1 || !r.Overlaps[0].Shadowed || r.Overlaps[0].Other.ID != "broad" {
		t.Errorf("overlaps = %+v, want specific shadowed by broad", r.Overlaps)
	}
}

// TestRender checks the text the CLI prints against a golden file; run
// with -update after an intended change.
func TestRender(t *testing.T) {
	m, _ := matcher.Compile(testCatalog(), matcher.Options{})
	r := Check(m, Options{TopN: -1})
	var b strings.Builder
	if err := r.Render(&b); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "render.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("Render mismatch (-want +got):\n%s", diff)
	}
}

// TestGeneratedCatalog runs the whole analysis over the 5,695 generated
// records: it must finish (in seconds outside -race) and find every record
// keyed.
func TestGeneratedCatalog(t *testing.T) {
	const path = "../../../shared/catalogs/sglang-generated.jsonl"
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("%s not present", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _ := patterns.Parse(f, path)
	m, problems := matcher.Compile(recs, matcher.Options{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	r := Check(m, Options{})
	t.Log(r.Summary())
	if r.Records != len(recs) {
		t.Errorf("Records = %d, want %d", r.Records, len(recs))
	}
	if len(r.Unanchored) != 0 {
		t.Errorf("%d unanchored records, want 0", len(r.Unanchored))
	}
	if len(r.Expensive) != 10 {
		t.Errorf("%d expensive entries, want 10", len(r.Expensive))
	}
}
