package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/logmatch/logmatch/internal/catalog"
)

// TestRunKeepsFactsInTheStateDirectory: run's cache is the state
// directory's catalog-cache, and a second start loads from it.
func TestRunKeepsFactsInTheStateDirectory(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	start := func() *Pipeline { return newTestPipeline(t, "--state-dir", state) }
	first := start()
	u := first.matcher.Load().FactsUse()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if u.Derived == 0 {
		t.Fatalf("first start: %+v, want the catalog derived", u)
	}
	if files, _ := filepath.Glob(filepath.Join(state, catalog.FactCacheDir, "*.facts")); len(files) != 1 {
		t.Fatalf("state directory's cache holds %v, want one file", files)
	}
	second := start()
	defer second.Close()
	if u := second.matcher.Load().FactsUse(); !u.Complete() {
		t.Errorf("second start: %+v, want everything from the cache", u)
	}
}
