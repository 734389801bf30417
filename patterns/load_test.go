package patterns

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func rec(id string) string { return `{"id":"` + id + `","messagePattern":"x"}` + "\n" }

func TestLoad(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"b.jsonl":             rec("b1") + rec("b2"),
		"a.json":              "[" + strings.TrimSpace(rec("a1")) + "]",
		"sub/c.jsonl":         rec("c1"),
		"sub/deeper/d.jsonl":  rec("d1"),
		"notes.txt":           "not a catalog",
		".hidden.jsonl":       rec("hidden"),
		".git/objects.jsonl":  rec("git"),
		"explicit.catalog":    rec("e1"),
		"broken/bad.jsonl":    "{\n" + rec("after-bad"),
		"sub/deeper/e.JSONL2": rec("wrong-ext"),
	})
	rel := func(recs []Record, probs []Problem) got {
		g := summarize(recs, probs)
		for i, s := range g.Records {
			g.Records[i] = strings.ReplaceAll(s, dir+string(filepath.Separator), "")
		}
		for i, s := range g.Problems {
			g.Problems[i] = strings.ReplaceAll(s, dir+string(filepath.Separator), "")
		}
		return g
	}
	tests := []struct {
		name  string
		paths []string
		want  got
	}{
		{
			name:  "directory, recursive and sorted",
			paths: []string{dir},
			want: got{
				Records: []string{"a1@a.json:1", "b1@b.jsonl:1", "b2@b.jsonl:2", "after-bad@broken/bad.jsonl:2", "c1@sub/c.jsonl:1", "d1@sub/deeper/d.jsonl:1"},
				Problems: []string{
					"error broken/bad.jsonl:1: invalid JSON at byte 1: unexpected end of JSON input",
				},
			},
		},
		{
			name:  "explicit file of any extension, in argument order",
			paths: []string{filepath.Join(dir, "explicit.catalog"), filepath.Join(dir, "sub")},
			want:  got{Records: []string{"e1@explicit.catalog:1", "c1@sub/c.jsonl:1", "d1@sub/deeper/d.jsonl:1"}},
		},
		{
			name:  "missing path",
			paths: []string{filepath.Join(dir, "nope.jsonl"), filepath.Join(dir, "b.jsonl")},
			want: got{
				Records:  []string{"b1@b.jsonl:1", "b2@b.jsonl:2"},
				Problems: []string{"error nope.jsonl: cannot open: no such file or directory"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rel(Load(tt.paths...))); diff != "" {
				t.Errorf("Load (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadFileMissing(t *testing.T) {
	recs, probs := LoadFile("does/not/exist.jsonl")
	if len(recs) != 0 || len(probs) != 1 {
		t.Fatalf("got %d records, problems %v", len(recs), probs)
	}
	if got, want := probs[0].Error(), "does/not/exist.jsonl: cannot open: no such file or directory"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(probs[0], fs.ErrNotExist) {
		t.Errorf("errors.Is(problem, fs.ErrNotExist) = false")
	}
}

func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"z.jsonl":       {Data: []byte(rec("z"))},
		"a/one.jsonl":   {Data: []byte(rec("one") + `{"id":"bad"}`)},
		"readme.md":     {Data: []byte("# not a catalog")},
		".swap.jsonl":   {Data: []byte(rec("swap"))},
		"a/two.json":    {Data: []byte("[]")},
		"a/three.jsonl": {Data: []byte("")},
	}
	recs, probs := LoadFS(fsys, EmbeddedPrefix)
	want := got{
		Records:  []string{"one@embedded:a/one.jsonl:1", "z@embedded:z.jsonl:1"},
		Problems: []string{"error embedded:a/one.jsonl:2: messagePattern: missing or empty"},
	}
	if diff := cmp.Diff(want, summarize(recs, probs)); diff != "" {
		t.Errorf("LoadFS (-want +got):\n%s", diff)
	}
}

func TestDefault(t *testing.T) {
	recs, probs := Default()
	for _, p := range probs {
		t.Errorf("embedded catalog problem: %v", p)
	}
	var seed *Record
	for i, r := range recs {
		if !strings.HasPrefix(r.Origin.File, EmbeddedPrefix) || strings.Contains(r.Origin.File, "/") {
			t.Errorf("record %s: origin %v, want embedded:<name>", r.ID, r.Origin)
		}
		if r.ID == "a4a00f79b8728e30" {
			seed = &recs[i]
		}
	}
	if seed == nil {
		t.Fatal("the seed record is not in the embedded catalog")
	}
	if want := (Origin{File: "embedded:ascend-transfer-engine.jsonl", Line: 1}); seed.Origin != want {
		t.Errorf("seed origin = %v, want %v", seed.Origin, want)
	}
}

func TestMerge(t *testing.T) {
	r := func(id, pat string) Record { return Record{ID: id, MessagePattern: pat} }
	tests := []struct {
		name            string
		base, overrides []Record
		want            []Record
	}{
		{"empty", nil, nil, []Record{}},
		{"no overlap appends", []Record{r("a", "1"), r("b", "1")}, []Record{r("c", "2")},
			[]Record{r("a", "1"), r("b", "1"), r("c", "2")}},
		{"override replaces in place", []Record{r("a", "1"), r("b", "1"), r("c", "1")}, []Record{r("b", "2"), r("d", "2")},
			[]Record{r("a", "1"), r("b", "2"), r("c", "1"), r("d", "2")}},
		{"later override wins", []Record{r("a", "1")}, []Record{r("a", "2"), r("a", "3")},
			[]Record{r("a", "3")}},
		{"duplicates in base collapse", []Record{r("a", "1"), r("b", "1"), r("a", "2")}, nil,
			[]Record{r("a", "2"), r("b", "1")}},
		{"no base keeps overrides", nil, []Record{r("a", "1"), r("b", "1")},
			[]Record{r("a", "1"), r("b", "1")}},
		{"no base, duplicates in overrides collapse", nil, []Record{r("a", "1"), r("b", "1"), r("a", "2")},
			[]Record{r("a", "2"), r("b", "1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := append([]Record(nil), tt.base...)
			got := Merge(tt.base, tt.overrides)
			// A record's kept parse tree is not part of its value.
			opt := cmpopts.IgnoreUnexported(Record{})
			if diff := cmp.Diff(tt.want, got, opt); diff != "" {
				t.Errorf("Merge (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(base, tt.base, opt); diff != "" {
				t.Errorf("Merge modified base:\n%s", diff)
			}
		})
	}
}

func TestProblemError(t *testing.T) {
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{"full", Problem{File: "c.jsonl", Line: 12, Field: "severity", Message: "want string, got number"}, "c.jsonl:12: severity: want string, got number"},
		{"no field", Problem{File: "c.jsonl", Line: 3, Message: "invalid JSON"}, "c.jsonl:3: invalid JSON"},
		{"no line", Problem{File: "c.jsonl", Message: "cannot open: permission denied"}, "c.jsonl: cannot open: permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	probs := []Problem{{Level: LevelError}, {Level: LevelWarning}, {Level: LevelWarning}}
	s := Summarize(make([]Record, 1), probs)
	if want := (Summary{Records: 1, Errors: 1, Warnings: 2}); s != want {
		t.Fatalf("Summarize = %+v, want %+v", s, want)
	}
	if got, want := s.String(), "1 record, 1 error, 2 warnings"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if s.OK() || !(Summary{Warnings: 3}).OK() {
		t.Errorf("OK: errors must fail, warnings alone must not")
	}
	if got := (Level(7)).String(); got != "level(7)" {
		t.Errorf("Level(7).String() = %q", got)
	}
}

// TestLoadOptionsParsedSkipsTheParse: a pattern LoadOptions.Parsed vouches
// for is not parsed (so the record keeps no tree, and not even a pattern
// that would not parse is reported); every other check still runs.
func TestLoadOptionsParsedSkipsTheParse(t *testing.T) {
	const cat = `{"id":"a","messagePattern":"CUDA out of memory","severity":"error"}
{"id":"b","messagePattern":"unclosed (group","severity":"loud"}
{"id":"c","messagePattern":"fine (\\d+)"}
`
	vouched := map[string]bool{"CUDA out of memory": true, "unclosed (group": true}
	recs, probs := LoadOptions{Parsed: func(expr string) bool { return vouched[expr] }}.Parse(strings.NewReader(cat), "c.jsonl")
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3 (problems %v)", len(recs), probs)
	}
	if len(probs) != 1 || probs[0].Field != "severity" || probs[0].Line != 2 {
		t.Errorf("problems %v, want only b's severity warning", probs)
	}
	if recs[0].parse != nil || recs[1].parse != nil {
		t.Error("a vouched pattern was parsed")
	}
	if recs[2].parse == nil {
		t.Error("a pattern not vouched for was not parsed")
	}
	if _, err := recs[0].PatternTree(); err != nil {
		t.Errorf("PatternTree of a vouched pattern: %v", err)
	}

	_, probs = Parse(strings.NewReader(cat), "c.jsonl")
	if len(probs) != 2 || !strings.Contains(probs[0].Message, "does not compile") {
		t.Errorf("without Parsed: problems %v, want b's pattern refused", probs)
	}
}
