package patterns

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// An id repeated within one load is an error at the later record that
// names both places, and the first record stays: nothing is replaced.
func TestDuplicateIDsAreRefusedInEveryLoad(t *testing.T) {
	one := `{"id":"a","messagePattern":"first"}` + "\n" + `{"id":"b","messagePattern":"b"}` + "\n"
	two := "\n" + `{"id":"a","messagePattern":"second"}` + "\n" + `{"id":"c","messagePattern":"c"}` + "\n"
	dir := writeFiles(t, map[string]string{"one.jsonl": one, "two.jsonl": two})
	check := func(t *testing.T, recs []Record, probs []Problem, first, again string) {
		t.Helper()
		var ids, pats []string
		for _, r := range recs {
			ids = append(ids, r.ID)
			pats = append(pats, r.MessagePattern)
		}
		if diff := cmp.Diff([]string{"a", "b", "c"}, ids); diff != "" {
			t.Errorf("ids (-want +got):\n%s", diff)
		}
		if pats[0] != "first" {
			t.Errorf("record a has pattern %q: the later duplicate replaced it", pats[0])
		}
		want := []string{"error " + again + `: id: duplicate id "a": defined at ` + first + " and again here; this record is not loaded"}
		var got []string
		for _, p := range probs {
			got = append(got, p.Level.String()+" "+p.Error())
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
	}
	t.Run("Load across files", func(t *testing.T) {
		recs, probs := Load(dir)
		check(t, recs, probs, filepath.Join(dir, "one.jsonl")+":1", filepath.Join(dir, "two.jsonl")+":2")
	})
	t.Run("Load of two named files", func(t *testing.T) {
		recs, probs := Load(filepath.Join(dir, "one.jsonl"), filepath.Join(dir, "two.jsonl"))
		check(t, recs, probs, filepath.Join(dir, "one.jsonl")+":1", filepath.Join(dir, "two.jsonl")+":2")
	})
	t.Run("LoadFS", func(t *testing.T) {
		fsys := fstest.MapFS{"one.jsonl": {Data: []byte(one)}, "sub/two.jsonl": {Data: []byte(two)}}
		recs, probs := LoadFS(fsys, EmbeddedPrefix)
		check(t, recs, probs, "embedded:one.jsonl:1", "embedded:sub/two.jsonl:2")
	})
	t.Run("Parse of one file", func(t *testing.T) {
		in := strings.TrimSuffix(one, "\n") + two
		recs, probs := Parse(strings.NewReader(in), "c.jsonl")
		check(t, recs, probs, "c.jsonl:1", "c.jsonl:3")
	})
	t.Run("LoadFile", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"c.jsonl": strings.TrimSuffix(one, "\n") + two})
		p := filepath.Join(dir, "c.jsonl")
		recs, probs := LoadFile(p)
		check(t, recs, probs, p+":1", p+":3")
	})
	t.Run("LoadForLint reports it once", func(t *testing.T) {
		recs, probs := LoadForLint([]string{dir}, LintOptions{NoProbe: true})
		check(t, recs, probs, filepath.Join(dir, "one.jsonl")+":1", filepath.Join(dir, "two.jsonl")+":2")
	})
}

// A load without duplicates returns the parsed slice itself: the check
// copies nothing on the usual path.
func TestUniqueIDsAreNotCopied(t *testing.T) {
	recs, probs := Parse(strings.NewReader(`{"id":"a","messagePattern":"x"}`+"\n"+`{"id":"b","messagePattern":"y"}`), "c.jsonl")
	if len(probs) != 0 || len(recs) != 2 {
		t.Fatalf("Parse: %d records, %v", len(recs), probs)
	}
	again, probs := refuseDuplicates(recs, nil)
	if len(probs) != 0 || &again[0] != &recs[0] {
		t.Errorf("refuseDuplicates copied a catalog without duplicates (problems %v)", probs)
	}
}
