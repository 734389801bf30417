package matcher

import (
	"os"
	"testing"

	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

// catalogPath is the 5,695-record generated catalog, beside the repository
// (or where benchdata.CatalogEnv says).
var catalogPath = benchdata.CatalogPath("../../shared/catalogs/sglang-generated.jsonl")

// loadCatalog loads the generated catalog, skipping the test when it is not
// there (a checkout without the shared data).
func loadCatalog(tb testing.TB) []patterns.Record {
	tb.Helper()
	return parseWith(tb, patterns.LoadOptions{})
}

// parseWith parses the generated catalog with opts, failing on errors and
// skipping the test when the catalog is not there.
func parseWith(tb testing.TB, opts patterns.LoadOptions) []patterns.Record {
	tb.Helper()
	f, err := os.Open(catalogPath)
	if os.IsNotExist(err) {
		tb.Skipf("%s not present", catalogPath)
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, problems := opts.Parse(f, catalogPath)
	for _, p := range problems {
		if p.Level == patterns.LevelError {
			tb.Fatalf("loading the catalog: %v", p)
		}
	}
	return recs
}

// compileOK compiles recs and fails the test on any problem.
func compileOK(tb testing.TB, recs []patterns.Record, opts Options) *Matcher {
	tb.Helper()
	m, problems := Compile(recs, opts)
	if len(problems) > 0 {
		tb.Fatalf("Compile: %v", problems)
	}
	return m
}
