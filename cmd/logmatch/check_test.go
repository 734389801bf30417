package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "patterns check" on the fixture tree: the findings of the fixture
// catalog and exit 1; --write pins the records found; a catalog with
// nothing wrong exits 0. This is the check CI runs.
func TestPatternsCheckFixtureTree(t *testing.T) {
	const (
		tree = "../../testdata/sglang-tree"
		sha  = "0123456789abcdef0123456789abcdef01234567"
	)
	dir := t.TempDir()
	cat := filepath.Join(dir, "check.jsonl")
	body, err := os.ReadFile("../../internal/gen/testdata/check.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cat, body, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"patterns", "check", "--src", tree + "/python", "--root", tree, "--sha", sha}

	out, errOut, code := runCLI(t, "", append(args, cat)...)
	for _, w := range []string{
		cat + ":3: moved-prefill-oom: moved: python/sglang/srt/mem_cache/common.py:342 is now at python/sglang/srt/mem_cache/allocation.py:4\n",
		cat + ":3: moved-prefill-oom: flag: advice names --cuda-graph-max-bs, a deprecated alias: use --cuda-graph-max-bs-decode",
		cat + ":4: gone-watchdog-legacy: gone: ",
		"7 records looked for: 2 present, 3 moved or unplaced, 1 gone, 1 without a place not found; 1 for older versions only; 11 findings at " + sha + "\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}

	out, _, code = runCLI(t, "", append(args, "--write", cat)...)
	if code != 1 || !strings.Contains(out, "rewrote "+cat+"\n") {
		t.Errorf("--write: exit %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, "", append(args, cat)...)
	if !strings.Contains(out, "7 records looked for: 5 present, 0 moved or unplaced, 1 gone, 1 without a place not found; 1 for older versions only; 8 findings") {
		t.Errorf("after --write:\n%s", out)
	}

	clean := filepath.Join(dir, "clean.jsonl")
	if err := os.WriteFile(clean, []byte(`{"id":"ok","repo":"sgl-project/sglang","errorMessage":"Scheduler hit an exception: {e}","messagePattern":"Scheduler hit an exception:","filePath":"python/sglang/srt/managers/scheduler.py","lineNumber":11,"solutions":["Lower --cuda-graph-max-bs-decode or set --cuda-graph-backend-decode=disabled; pip install -U sglang-kernel"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "", append(args, clean)...)
	if code != 0 || !strings.Contains(out, "1 records looked for: 1 present, 0 moved or unplaced, 0 gone, 0 without a place not found; 0 for older versions only; 0 findings") {
		t.Errorf("clean catalog: exit %d\n%s%s", code, out, errOut)
	}

	for _, bad := range [][]string{
		{"patterns", "check", cat},
		{"patterns", "check", "--src", tree, "--write"},
	} {
		if _, errOut, code := runCLI(t, "", bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", bad, code, errOut)
		}
	}
}
