package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScanReport checks --report and --format markdown from the command
// line: the page is written whole beside the usual output, the Markdown
// replaces it, and a report that cannot be written is a runtime failure
// that leaves no partial file.
func TestScanReport(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "crash.html")
	out, stderr, code := runCLI(t, "", "scan", "--report", page, "../../testdata/logs/ranks8.log")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(out, "CRITICAL  cuda-out-of-memory  x8") {
		t.Errorf("the text output is not printed with --report:\n%s", out)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{"<!DOCTYPE html>", `id="incident-1"`, `data-lane="DP0 TP7"`, "</html>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if fi, err := os.Stat(page); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("page mode: %v %v", fi.Mode(), err)
	}

	out, _, code = runCLI(t, "", "scan", "--format", "markdown", "../../testdata/logs/ranks8.log")
	if code != 0 || !strings.HasPrefix(out, "### logmatch: 1 incident (1 critical)") || !strings.Contains(out, "#### 1. CRITICAL `cuda-out-of-memory` ×8") {
		t.Errorf("markdown: exit %d\n%s", code, out)
	}

	missing := filepath.Join(dir, "no", "such", "dir", "r.html")
	out, stderr, code = runCLI(t, "", "scan", "--report", missing, "../../testdata/logs/ranks8.log")
	if code != exitFailure || !strings.Contains(stderr, "logmatch scan: --report: ") || !strings.Contains(out, "cuda-out-of-memory") {
		t.Errorf("unwritable report: exit %d, stderr %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".crash.html") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}
