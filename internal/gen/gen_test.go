package gen_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/internal/gen"
	"github.com/logmatch/logmatch/patterns"
)

var update = flag.Bool("update", false, "rewrite the golden files testdata/*want.jsonl and testdata/*skips.txt")

var fixtureOpts = gen.Options{Repo: "sgl-project/sglang", SHA: "0132848349585cfe6aae51c4941cbae872505f8a"}

// treeOpts are fixtureOpts for the fixture tree at dir, which is its own
// repository's top (logmatch's .git above it is not its repository).
// "src", the tree of every message form, keeps its warnings too.
func treeOpts(dir string) gen.Options {
	o := fixtureOpts
	o.Root = dir
	o.Warnings = filepath.Base(dir) == "src"
	return o
}

func generateFixtures(t *testing.T) ([]patterns.Record, []gen.Skip) {
	t.Helper()
	dir := filepath.Join("testdata", "src")
	recs, skips, err := gen.GenerateDir(dir, treeOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	return recs, skips
}

func skipReport(t *testing.T, skips []gen.Skip) string {
	t.Helper()
	var b strings.Builder
	if err := gen.WriteSkips(&b, skips); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestGolden compares the generated JSONL and the skip report of each
// source tree with the committed files; run with -update after a
// deliberate change. "src" holds the fixtures of every message form,
// "sglang" two files written in sglang's own style.
func TestGolden(t *testing.T) {
	for _, tree := range []string{"src", "sglang"} {
		t.Run(tree, func(t *testing.T) {
			dir := filepath.Join("testdata", tree)
			recs, skips, err := gen.GenerateDir(dir, treeOpts(dir))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := gen.Write(&got, recs); err != nil {
				t.Fatal(err)
			}
			prefix := tree + "-"
			if tree == "src" {
				prefix = ""
			}
			for _, f := range []struct{ name, got string }{
				{prefix + "want.jsonl", got.String()},
				{prefix + "skips.txt", skipReport(t, skips)},
			} {
				path := filepath.Join("testdata", f.name)
				if *update {
					if err := os.WriteFile(path, []byte(f.got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), f.got); diff != "" {
					t.Errorf("%s differs (-want +got); rerun with -update if intended:\n%s", f.name, diff)
				}
			}
		})
	}
}

// TestOutputLoads reads the generated JSONL back through the catalog loader
// and the linter: every line loads, every pattern compiles, no id repeats,
// and every record carries the fields the generator promises.
func TestOutputLoads(t *testing.T) {
	recs, _ := generateFixtures(t)
	var buf bytes.Buffer
	if err := gen.Write(&buf, recs); err != nil {
		t.Fatal(err)
	}
	loaded, probs := patterns.Parse(&buf, "want.jsonl")
	probs = append(probs, patterns.Lint(loaded, patterns.LintOptions{})...)
	for _, p := range probs {
		t.Errorf("%v", p)
	}
	if len(loaded) != len(recs) {
		t.Fatalf("loaded %d records, generated %d", len(loaded), len(recs))
	}
	for i, r := range loaded {
		if _, err := patterns.Compile(r.MessagePattern); err != nil {
			t.Errorf("%s: %v", r.Origin, err)
		}
		if r.SchemaVersion != 2 || r.ID != recs[i].ID || len(r.ID) != 16 || r.Slug == "" ||
			!strings.HasPrefix(r.GithubURL, "https://github.com/sgl-project/sglang/blob/"+fixtureOpts.SHA+"/") ||
			r.Tags[0] != "generated" || r.AnalyzedSha != fixtureOpts.SHA {
			t.Errorf("%s: incomplete record %+v", r.Origin, r)
		}
		want := map[string]string{"exception": "error"}[r.ErrorType]
		if (r.ErrorType == "exception") != (r.ErrorClass != "") || want != "" && string(r.Severity) != want {
			t.Errorf("%s: errorType %q, errorClass %q, severity %q disagree", r.Origin, r.ErrorType, r.ErrorClass, r.Severity)
		}
	}
}

// printed is one message the fixture driver saw Python produce.
type printed struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Class string `json:"class"`
	Text  string `json:"text"`
}

// TestRealPython runs every raise_* and log_* fixture function with
// python3 and checks that each message Python printed is matched by the
// record generated for its raise or logging call, unless the generator
// reported that site as skipped.
func TestRealPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("python3 not found and LOGMATCH_TEST_REQUIRE_TOOLS=1: %v", err)
		}
		t.Skipf("python3 not on PATH: %v", err)
	}
	cmd := exec.Command(py, "-B", filepath.Join("testdata", "driver.py"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("driver.py: %v\n%s", err, stderr.String())
	}
	recs, skips := generateFixtures(t)
	byLine := map[string]patterns.Record{}
	for _, r := range recs {
		byLine[r.FilePath+":"+strconv.Itoa(r.LineNumber)] = r
	}
	skipped := map[string]bool{}
	for _, s := range skips {
		skipped[s.File+":"+strconv.Itoa(s.Line)] = true
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	n := 0
	for dec.More() {
		var p printed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		at := p.File + ":" + strconv.Itoa(p.Line)
		r, ok := byLine[at]
		if !ok {
			if !skipped[at] {
				t.Errorf("%s: Python printed %q but no record or skip is at that line", at, p.Text)
			}
			continue
		}
		re, err := patterns.Compile(r.MessagePattern)
		if err != nil {
			t.Fatalf("%s: %v", at, err)
		}
		if ok, err := re.MatchString(p.Text); err != nil || !ok {
			t.Errorf("%s: pattern %q does not match what Python printed:\n%s", at, r.MessagePattern, p.Text)
		}
		if last := r.ErrorClass[strings.LastIndex(r.ErrorClass, ".")+1:]; last != p.Class {
			t.Errorf("%s: errorClass %q, Python raised %q", at, r.ErrorClass, p.Class)
		}
	}
	if n < 30 {
		t.Errorf("driver printed %d messages, want every fixture function (30+)", n)
	}
}
