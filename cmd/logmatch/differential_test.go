package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTestAgreesWithScanOnTheCorpora: logmatch test diagnoses each entry
// through the same stream shell as scan, so every incident scan makes of a
// corpus excerpt is, record and fingerprint alike, the diagnosis test
// gives one of the excerpt's entries. (Scan folds a crash's entries into
// one incident; test lists every entry, so it may show more.) Together with
// the run/scan differential in internal/pipeline and the Collector's
// parity tests, the four ways in diagnose the corpora alike.
func TestTestAgreesWithScanOnTheCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("diagnoses every corpus excerpt twice")
	}
	type diag struct{ slug, key string }
	n, incidents := 0, 0
	// One catalog cache for every run: the comparison is of the two
	// commands' diagnoses, and compiling the catalog twice an excerpt
	// under the race detector took most of the test's ten minutes.
	cache := t.TempDir()
	for _, dir := range []string{"../../testdata/corpus", "../../testdata/engines"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.log"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no excerpts (%v)", dir, err)
		}
		for _, file := range files {
			out, errOut, code := runCLI(t, "", "scan", "--format", "json", "--catalog-cache", cache, file)
			if code != 0 {
				t.Fatalf("%s: scan exit %d: %s", file, code, errOut)
			}
			var scanned []diag
			for line := range strings.Lines(out) {
				var a struct {
					Record struct{ Slug string }
					Key    string `json:"fingerprint"`
				}
				if err := json.Unmarshal([]byte(line), &a); err != nil {
					t.Fatalf("%s: scan output %q: %v", file, line, err)
				}
				scanned = append(scanned, diag{a.Record.Slug, a.Key})
			}
			out, errOut, code = runCLI(t, "", "test", "--format", "json", "--failures-only", "--catalog-cache", cache, file)
			if code != 0 {
				t.Fatalf("%s: test exit %d: %s", file, code, errOut)
			}
			var tested []diag
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				var e struct {
					Alert *struct {
						Record struct{ Slug string }
						Key    string `json:"fingerprint"`
					}
				}
				if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
					t.Fatalf("%s: test output: %v", file, err)
				}
				if e.Alert != nil {
					tested = append(tested, diag{e.Alert.Record.Slug, e.Alert.Key})
				}
			}
			incidents += len(scanned)
			for _, d := range scanned {
				if !slices.Contains(tested, d) {
					t.Errorf("%s: scan's incident %v is no entry's diagnosis in test's %v", filepath.Base(file), d, tested)
				}
			}
			n++
		}
	}
	if incidents < 100 {
		t.Errorf("only %d incidents in %d excerpts: the corpora were not diagnosed", incidents, n)
	}
	t.Logf("%d excerpts, %d incidents compared", n, incidents)
}
