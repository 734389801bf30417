package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A catalog that gives one id to two records is refused by validate and
// reported by scan, naming both lines; the later record is not loaded, so
// it neither replaces the first nor matches anything.
func TestDuplicateIDFailsValidateAndScan(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "dup.jsonl")
	body := `{"id":"dup-x","messagePattern":"first failure"}` + "\n" + `{"id":"dup-x","messagePattern":"second failure"}` + "\n"
	if err := os.WriteFile(cat, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "server.log")
	if err := os.WriteFile(log, []byte("[2026-01-01 00:00:00] second failure in the scheduler\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := cat + `:2: id: duplicate id "dup-x": defined at ` + cat + `:1 and again here; this record is not loaded`

	out, errOut, code := runCLI(t, "", "validate", "--state-dir", dir, "--catalog", cat, "--no-default-catalog")
	if code != 1 || !strings.Contains(out, want) {
		t.Errorf("validate: exit %d, want 1 and %q in\n%s%s", code, want, out, errOut)
	}

	out, errOut, code = runCLI(t, "", "scan", "--catalog", cat, "--no-default-catalog", log)
	if !strings.Contains(errOut, "error: "+want) {
		t.Errorf("scan: stderr lacks %q:\n%s", want, errOut)
	}
	if code != 0 || strings.Contains(out, "dup-x") {
		t.Errorf("scan: exit %d; the refused duplicate matched:\n%s", code, out)
	}
}
