package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/patterns"
)

const (
	fixtureTree    = "../../testdata/sglang-tree"
	fixtureCatalog = "testdata/check.jsonl"
	fixtureSHA     = "0123456789abcdef0123456789abcdef01234567"
)

func openFixture(t *testing.T) *Tree {
	t.Helper()
	tr, err := OpenTree(filepath.Join(fixtureTree, "python"), fixtureTree, fixtureSHA)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func loadCatalog(t *testing.T, path string) []patterns.Record {
	t.Helper()
	recs, probs := patterns.LoadFile(path)
	if len(probs) > 0 {
		t.Fatalf("load %s: %v", path, probs)
	}
	return recs
}

// The fixture catalog has one record of each kind of finding; the
// fixture tree is an sglang-like tree with both ways of declaring server
// flags, an environment registry and pyproject files.
func TestCheckFixtureTree(t *testing.T) {
	tr := openFixture(t)
	recs := loadCatalog(t, fixtureCatalog)
	res := Check(recs, tr, CheckOptions{Repo: "sgl-project/sglang"})
	var got []string
	for _, f := range res.Findings {
		got = append(got, strings.TrimPrefix(f.String(), fixtureCatalog+":"))
	}
	want := []string{
		"2: moved-memory-leak: moved: python/sglang/srt/managers/scheduler.py:3 is now at python/sglang/srt/managers/scheduler.py:20",
		"2: moved-memory-leak: env: advice names SGLANG_WARN_ON_MEMORY_LEAK, which the tree neither defines nor reads",
		"3: moved-prefill-oom: moved: python/sglang/srt/mem_cache/common.py:342 is now at python/sglang/srt/mem_cache/allocation.py:4",
		"3: moved-prefill-oom: flag: advice names --cuda-graph-max-bs, a deprecated alias: use --cuda-graph-max-bs-decode (python/sglang/srt/server_args.py:34)",
		"3: moved-prefill-oom: flag: advice names --disable-cuda-graph, a deprecated alias: use --cuda-graph-backend-{decode,prefill}=disabled (python/sglang/srt/server_args.py:42)",
		"3: moved-prefill-oom: pip: advice installs sgl-kernel, which the tree's packaging does not name",
		"4: gone-watchdog-legacy: gone: no raise, log call or literal of the tree has its text (was python/sglang/srt/utils/watchdog.py:153); if it is gone for good, set removedIn",
		"6: advice-only: flag: advice names --enable-deepep-moe, which the tree keeps only as a removed flag (python/sglang/srt/server_args.py:48)",
		"6: advice-only: flag: advice names --tp, which the tree's argument parsers do not define",
		"6: advice-only: env: advice names SGLANG_NSA_FUSE_TOPK, a deprecated alias: use SGLANG_DSA_FUSE_TOPK",
		"8: unplaced-scheduler-exception: unplaced: names no filePath; its text is at python/sglang/srt/managers/scheduler.py:11",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if got, want := res.String(), "7 records looked for: 2 present, 3 moved or unplaced, 1 gone, 1 without a place not found; 1 for older versions only; 11 findings"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// What the tree defines: flags from annotated fields (named after the
// field, by cli_name, by aliases, none with no_cli) and from add_argument
// (deprecated aliases, removed flags, run-time prefixes); variables from
// the registry and from os.environ reads; packages from pyproject files,
// not from a requirement by URL.
func TestReadTreeDefinitions(t *testing.T) {
	tr := openFixture(t)
	for flag, want := range map[string]bool{
		"--model-path": true, "--model": true, "--tp-size": true, "--max-running-requests": true,
		"--cuda-graph-max-bs-decode": true, "--cuda-graph-backend-prefill": true,
		"--router-worker-startup-timeout-secs": true, "--worker-startup-timeout-secs": true,
		"--disable-cuda-graph": true, "--help": true,
		"--tp": false, "--prefix": false,
	} {
		if _, ok := tr.Flag(flag); ok != want {
			t.Errorf("Flag(%s) defined = %v, want %v", flag, ok, want)
		}
	}
	if f, _ := tr.Flag("--disable-cuda-graph"); f.Replacement != "--cuda-graph-backend-{decode,prefill}=disabled" {
		t.Errorf("--disable-cuda-graph replacement %q", f.Replacement)
	}
	if f, _ := tr.Flag("--enable-deepep-moe"); !f.Removed {
		t.Error("--enable-deepep-moe is not removed")
	}
	for name, want := range map[string]string{
		"SGLANG_ENABLE_STRICT_MEM_CHECK_DURING_IDLE": "", "SGLANG_DSA_FUSE_TOPK": "",
		"SGLANG_NSA_FUSE_TOPK": "SGLANG_DSA_FUSE_TOPK", "SGLANG_KILLPG_ON_SCHEDULER_EXCEPTION": "",
	} {
		if got, ok := tr.Envs[name]; !ok || got != want {
			t.Errorf("Envs[%s] = %q, %v; want %q", name, got, ok, want)
		}
	}
	for name, want := range map[string]bool{"sglang": true, "sglang-kernel": true, "flashinfer-python": true,
		"torch": true, "opentelemetry-sdk": true, "setuptools-scm": true, "sgl-kernel": false,
		"nixl": true, "mooncake-transfer-engine": true, "no-cache-dir": false} {
		if tr.Packages[name] != want {
			t.Errorf("Packages[%s] = %v, want %v", name, tr.Packages[name], want)
		}
	}
}

// --write pins every record found to the commit, in place: other keys
// and lines are kept, and a second check finds nothing moved.
func TestWritePins(t *testing.T) {
	tr := openFixture(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "check.jsonl")
	orig, err := os.ReadFile(fixtureCatalog)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cat, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	recs := loadCatalog(t, cat)
	res := Check(recs, tr, CheckOptions{Repo: "sgl-project/sglang"})
	changed, err := WritePins(Pins(recs, res, "sgl-project/sglang", tr.SHA))
	if err != nil || len(changed) != 1 || changed[0] != cat {
		t.Fatalf("WritePins: %v, %v", changed, err)
	}
	after, err := os.ReadFile(cat)
	if err != nil {
		t.Fatal(err)
	}
	oldLines, newLines := strings.Split(string(orig), "\n"), strings.Split(string(after), "\n")
	if len(oldLines) != len(newLines) {
		t.Fatalf("%d lines became %d", len(oldLines), len(newLines))
	}
	for _, n := range []int{4, 5, 6, 9} { // gone, retired, advice only, not found: untouched
		if oldLines[n-1] != newLines[n-1] {
			t.Errorf("line %d changed:\n%s\n%s", n, oldLines[n-1], newLines[n-1])
		}
	}
	var w struct {
		Record         map[string]json.RawMessage `json:"record"`
		DatasetVersion string                     `json:"datasetVersion"`
	}
	if err := json.Unmarshal([]byte(newLines[2]), &w); err != nil || w.DatasetVersion != "2" {
		t.Fatalf("line 3 lost its wrapper: %v %s", err, newLines[2])
	}
	if !strings.HasPrefix(newLines[2], `{"record":{"id":"moved-prefill-oom","repo":"sgl-project/sglang","errorMessage"`) {
		t.Errorf("line 3 keys reordered: %s", newLines[2])
	}
	again := loadCatalog(t, cat)
	byID := map[string]patterns.Record{}
	for _, r := range again {
		byID[r.ID] = r
	}
	oom := byID["moved-prefill-oom"]
	wantURL := "https://github.com/sgl-project/sglang/blob/" + fixtureSHA + "/python/sglang/srt/mem_cache/allocation.py#L4"
	if oom.FilePath != "python/sglang/srt/mem_cache/allocation.py" || oom.LineNumber != 4 || oom.GithubURL != wantURL || oom.AnalyzedSha != fixtureSHA {
		t.Errorf("moved-prefill-oom after --write: %s:%d %s %s", oom.FilePath, oom.LineNumber, oom.GithubURL, oom.AnalyzedSha)
	}
	if leak := byID["moved-memory-leak"]; leak.LineNumber != 20 || leak.AnalyzedSha != fixtureSHA {
		t.Errorf("moved-memory-leak after --write: line %d, sha %q", leak.LineNumber, leak.AnalyzedSha)
	}
	if u := byID["unplaced-scheduler-exception"]; u.FilePath != "python/sglang/srt/managers/scheduler.py" || u.LineNumber != 11 {
		t.Errorf("unplaced-scheduler-exception after --write: %s:%d", u.FilePath, u.LineNumber)
	}
	res = Check(again, tr, CheckOptions{Repo: "sgl-project/sglang"})
	if res.Moved != 0 || res.Present != 5 {
		t.Errorf("after --write: %s", res)
	}
	// A second write changes nothing.
	if changed, err := WritePins(Pins(again, res, "sgl-project/sglang", tr.SHA)); err != nil || len(changed) != 0 {
		t.Errorf("second WritePins: %v, %v", changed, err)
	}
}

func TestWritePinsRefusesTheEmbeddedCatalog(t *testing.T) {
	_, err := WritePins(map[patterns.Origin]Pin{{File: "embedded:sglang.jsonl", Line: 3}: {FilePath: "x.py", LineNumber: 1}})
	if err == nil || !strings.Contains(err.Error(), "embedded:sglang.jsonl:3: the embedded catalog cannot be rewritten") {
		t.Errorf("err = %v", err)
	}
}

// The commit comes from .git: a branch's loose ref, the same ref once
// packed, and a detached HEAD; --src may be a directory inside the
// repository, whose paths stay relative to its top.
func TestOpenTreeReadsTheCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	if err := os.MkdirAll(filepath.Join(dir, "python", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "python", "pkg", "a.py"), []byte("raise ValueError('something went wrong here')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "one")
	head := git("rev-parse", "HEAD")
	check := func(name string) {
		t.Helper()
		tr, err := OpenTree(filepath.Join(dir, "python"), "", "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.SHA != head {
			t.Errorf("%s: SHA %q, want %q", name, tr.SHA, head)
		}
		if _, ok := tr.Files["python/pkg/a.py"]; !ok || len(tr.Files) != 1 {
			t.Errorf("%s: files %v, want python/pkg/a.py", name, tr.Files)
		}
	}
	check("loose ref")
	git("pack-refs", "--all")
	check("packed ref")
	git("checkout", "-q", "--detach")
	check("detached HEAD")

	if _, err := OpenTree(t.TempDir(), "", ""); err == nil || !strings.Contains(err.Error(), "give --sha") {
		t.Errorf("a tree without .git or --sha: %v", err)
	}
}

func TestPipNames(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{" sglang-kernel flashinfer-python", []string{"sglang-kernel", "flashinfer-python"}},
		{" -U transformers, or the version the card names", []string{"transformers"}},
		{` "sglang[all]==<your version>" (or use the image)`, []string{"sglang"}},
		{" sgl-kernel with the version your release pins", []string{"sgl-kernel"}},
		{" . --no-build-isolation) then", nil},
		{" -r requirements.txt nixl", []string{"nixl"}},
		{" mooncake-transfer-engine==<version>) on every node", []string{"mooncake-transfer-engine"}},
		{" py-spy) so stacks are dumped", []string{"py-spy"}},
		{" ninja (or apt-get install ninja-build)", []string{"ninja"}},
		{" the sglang release with its extras", nil},
		{" git+https://github.com/x/y.git torch==2.9.1.", []string{"torch"}},
	}
	for _, tt := range tests {
		if got := pipNames(tt.in); !cmp.Equal(got, tt.want) {
			t.Errorf("pipNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestForeignFlag(t *testing.T) {
	tests := []struct {
		text    string
		foreign bool
	}{
		{"Raise /dev/shm (docker --shm-size 32g) if it is small", true},
		{"In Docker, raise /dev/shm with --shm-size when it is small", true},
		{"docker --shm-size 32g or an emptyDir medium, and use --ipc=host", true},
		{"check with nvidia-smi --query-gpu=compute_cap --format=csv", true},
		{"(cd sgl-kernel && pip install . --no-build-isolation)", true},
		{"Run docker with --gpus all. Then pass --tp-size 8", false},
		{"python -m sglang.launch_server --tp-size 8", false},
		{"Lower --mem-fraction-static", false},
	}
	for _, tt := range tests {
		at := strings.LastIndex(tt.text, " --") + 1
		if got := foreignFlag(tt.text, at); got != tt.foreign {
			t.Errorf("foreignFlag(%q at %q) = %v, want %v", tt.text, tt.text[at:], got, tt.foreign)
		}
	}
}

// pinObject keeps every other member byte for byte.
func TestPinObjectKeepsTheRest(t *testing.T) {
	in := `{"id":"a","messagePattern":"x\u00e9<y>","filePath":null,"tags":["a", "b"],"n":1.50}`
	out, err := pinObject([]byte(in), Pin{FilePath: "p.py", LineNumber: 7, GithubURL: "https://h/p.py#L7", AnalyzedSha: "s"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a","messagePattern":"x\u00e9<y>","filePath":"p.py","tags":["a", "b"],"n":1.50,"lineNumber":7,"githubUrl":"https://h/p.py#L7","analyzedSha":"s"}`
	if !bytes.Equal(out, []byte(want)) {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	if _, err := pinObject([]byte(`[1]`), Pin{}); err == nil {
		t.Error("an array was pinned")
	}
}
