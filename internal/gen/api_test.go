package gen_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/internal/gen"
	"github.com/logmatch/logmatch/patterns"
)

const driftSrc = `import logging
logger = logging.getLogger(__name__)

def f(rank):
    raise RuntimeError(f"Rank {rank} scheduler died during initialization")

def g(n):
    logger.warning("KV cache pool is full. Retract requests. #retracted_reqs: %d", n)
`

// TestIDsSurviveLineDrift moves the code down and renames nothing: ids stay,
// line numbers and links follow the code.
func TestIDsSurviveLineDrift(t *testing.T) {
	gen1 := func(src string) []patterns.Record {
		recs, skips, err := gen.Generate(fstest.MapFS{"pkg/m.py": {Data: []byte(src)}}, gen.Options{Repo: "o/r", SHA: "abc", Warnings: true})
		if err != nil || len(skips) != 0 || len(recs) != 2 {
			t.Fatalf("Generate: %d records, skips %v, err %v", len(recs), skips, err)
		}
		return recs
	}
	before := gen1(driftSrc)
	after := gen1("# a new header comment\n\n\n" + driftSrc)
	for i := range before {
		if before[i].ID != after[i].ID {
			t.Errorf("id changed with line drift: %s -> %s", before[i].ID, after[i].ID)
		}
		if after[i].LineNumber != before[i].LineNumber+3 {
			t.Errorf("line %d -> %d, want +3", before[i].LineNumber, after[i].LineNumber)
		}
	}
	if want := "https://github.com/o/r/blob/abc/pkg/m.py#L8"; after[0].GithubURL != want {
		t.Errorf("githubUrl %q, want %q", after[0].GithubURL, want)
	}
	other, _, _ := gen.Generate(fstest.MapFS{"pkg/other.py": {Data: []byte(driftSrc)}}, gen.Options{Repo: "o/r", Warnings: true})
	if other[0].ID == before[0].ID {
		t.Errorf("the same message in another file must get another id")
	}
}

// TestWriteFormat checks the dataset's line format: every key on every
// line, nulls for absent values, sorted by file and line.
func TestWriteFormat(t *testing.T) {
	recs := []patterns.Record{
		{ID: "b", FilePath: "z.py", LineNumber: 1, MessagePattern: "y", SchemaVersion: 2},
		{ID: "a", FilePath: "a.py", LineNumber: 9, MessagePattern: "x", SchemaVersion: 2},
	}
	var buf bytes.Buffer
	if err := gen.Write(&buf, recs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var ids []string
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if len(m) != 31 {
			t.Errorf("%d keys, want the dataset's 31: %s", len(m), l)
		}
		if m["repo"] != nil || m["githubUrl"] != nil || m["solutions"] == nil {
			t.Errorf("absent values must be null and lists empty: %s", l)
		}
		ids = append(ids, m["id"].(string))
	}
	if diff := cmp.Diff([]string{"a", "b"}, ids); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if recs[0].ID != "b" {
		t.Errorf("Write reordered its argument")
	}
}

func TestGenerateDirErrors(t *testing.T) {
	for _, dir := range []string{filepath.Join("testdata", "missing"), filepath.Join("testdata", "driver.py")} {
		if _, _, err := gen.GenerateDir(dir, gen.Options{}); err == nil || !strings.Contains(err.Error(), "--src") {
			t.Errorf("GenerateDir(%s): err %v, want one naming --src", dir, err)
		}
	}
}
