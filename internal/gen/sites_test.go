package gen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/gen"
	"github.com/logmatch/logmatch/patterns"
)

// Walking a directory inside a repository keeps the path from the
// repository's top: "--src sglang/python" must link to python/..., or
// every githubUrl is a 404.
func TestPathsAreRelativeToTheRepository(t *testing.T) {
	recs, _, err := gen.GenerateDir(filepath.Join("testdata", "sglang", "python"), treeOpts(filepath.Join("testdata", "sglang")))
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := gen.GenerateDir(filepath.Join("testdata", "sglang"), treeOpts(filepath.Join("testdata", "sglang")))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || len(recs) != len(want) {
		t.Fatalf("%d records from python/, %d from the top", len(recs), len(want))
	}
	for i, r := range recs {
		if !strings.HasPrefix(r.FilePath, "python/sglang/") || !strings.Contains(r.GithubURL, "/blob/"+fixtureOpts.SHA+"/python/sglang/") {
			t.Errorf("%s: filePath %q, githubUrl %q: python/ dropped", r.ID, r.FilePath, r.GithubURL)
		}
		// The same record, id included, whichever directory is walked.
		if r.ID != want[i].ID || r.FilePath != want[i].FilePath || r.GithubURL != want[i].GithubURL {
			t.Errorf("record %d differs: %s %s, from the top %s %s", i, r.ID, r.FilePath, want[i].ID, want[i].FilePath)
		}
	}
	if _, _, err := gen.GenerateDir(filepath.Join("testdata", "src"), treeOpts(filepath.Join("testdata", "sglang"))); err == nil || !strings.Contains(err.Error(), "does not hold") {
		t.Errorf("a --root that does not hold --src: %v", err)
	}
}

// Without --root, the repository's top is where .git is.
func TestRepositoryTopFoundByGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	src := filepath.Join(dir, "python", "pkg")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "m.py"), []byte("raise RuntimeError('Scheduler lost its detokenizer connection')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, _, err := gen.GenerateDir(filepath.Join(dir, "python"), gen.Options{Repo: "o/r", SHA: "abc"})
	if err != nil || len(recs) != 1 {
		t.Fatalf("GenerateDir: %d records, %v", len(recs), err)
	}
	if recs[0].FilePath != "python/pkg/m.py" || recs[0].GithubURL != "https://github.com/o/r/blob/abc/python/pkg/m.py#L1" {
		t.Errorf("filePath %q, githubUrl %q", recs[0].FilePath, recs[0].GithubURL)
	}
}

// The sites of testdata/src/sites.py: messages reached through a return
// or a variable, short f-strings kept or refused by their literal text,
// and other projects' wordings left out.
func TestIndirectAndForeignSites(t *testing.T) {
	opts := treeOpts(filepath.Join("testdata", "src"))
	opts.Warnings = false
	recs, skips, err := gen.GenerateDir(filepath.Join("testdata", "src"), opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if r.FilePath == "sites.py" {
			got = append(got, r.ErrorClass+": "+r.ErrorMessage)
		}
	}
	for _, want := range []string{
		"FileNotFoundError: Checkpoint shard is missing on this node: {path}",
		"RuntimeError: Prefill batch could not be scheduled on this rank",
		"RuntimeError: Decode batch could not be scheduled on this rank",
		": Abort request {rid} because the client disconnected; reason={reason}",
		": KV transfer queue overflow with {n} pending chunks",
		": KV transfer queue recovered after {n} retries",
		"RuntimeError: NCCL error: {e}",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no record %q; sites.py gave %q", want, got)
		}
	}
	if len(got) != 7 {
		t.Errorf("sites.py gave %d records, want 7: %q", len(got), got)
	}
	reasons := map[int]string{}
	for _, s := range skips {
		if s.File == "sites.py" {
			reasons[s.Line] = s.Reason
		}
	}
	for line, want := range map[int]string{
		42: "too little literal text", 43: "too little literal text",
		47: "Python's own message", 51: "torch's own message", 55: "pydantic's own message",
		59: "a warning",
	} {
		if !strings.HasPrefix(reasons[line], want) {
			t.Errorf("sites.py:%d skipped for %q, want %q", line, reasons[line], want)
		}
	}
	if len(reasons) != 6 {
		t.Errorf("sites.py skips: %v", reasons)
	}
}

// Refine drops what gen no longer writes from an older generated catalog
// and keeps every record that is not generated.
func TestRefine(t *testing.T) {
	recs := []patterns.Record{
		{ID: "curated-warning", ErrorType: "log", Severity: patterns.SeverityWarning, ErrorMessage: "Using default W8A8 Block FP8 kernel config.", Solutions: []string{"nothing to do"}},
		{ID: "untagged-warning", ErrorType: "log", Severity: patterns.SeverityWarning, ErrorMessage: "Using MoE kernel config with down_moe={x}."},
		{ID: "gen-warning", ErrorType: "log", Severity: patterns.SeverityWarning, Tags: []string{"generated", "x"}, ErrorMessage: "Using default W8A8 Block FP8 kernel config. Performance might be sub-optimal! Config file not found at {path}"},
		{ID: "gen-python", ErrorType: "exception", Severity: patterns.SeverityError, Tags: []string{"generated"}, ErrorMessage: "'{type(obj).__name__}' object has no attribute '{name}'"},
		{ID: "gen-error", ErrorType: "log", Severity: patterns.SeverityError, Tags: []string{"generated"}, ErrorMessage: "Scheduler terminated after {n} consecutive errors"},
		{ID: "gen-raised-warning", ErrorType: "exception", Severity: patterns.SeverityWarning, Tags: []string{"generated"}, ErrorMessage: "A warning class raised on purpose"},
		{ID: "gen-short", ErrorType: "exception", Severity: patterns.SeverityError, ErrorMessage: "CUDART error: {e}", MessagePattern: "CUDART error: (?<e>.+)"},
	}
	var ids []string
	kept, dropped := gen.Refine(recs, false)
	for _, r := range kept {
		ids = append(ids, r.ID)
	}
	if want := []string{"curated-warning", "gen-error", "gen-raised-warning", "gen-short"}; !slices.Equal(ids, want) || len(dropped) != 3 {
		t.Errorf("kept %v, want %v; dropped %v", ids, want, dropped)
	}
	if !strings.Contains(dropped[0], "untagged-warning (a warning)") || !strings.Contains(dropped[1], "gen-warning (a warning)") || !strings.Contains(dropped[2], "gen-python (Python's own message)") {
		t.Errorf("dropped %v", dropped)
	}
	// A short message is anchored at a message's start, as gen writes it
	// today: inside another message it is that message's quote.
	if got, want := kept[3].MessagePattern, `(?<=^|: |\] )CUDART error: (?<e>.+)`; got != want {
		t.Errorf("short pattern %q, want %q", got, want)
	}
	if kept, _ := gen.Refine(recs, true); len(kept) != 6 {
		t.Errorf("with warnings kept: %d records, want 6", len(kept))
	}
}
