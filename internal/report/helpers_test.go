package report

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/scan"
)

// scanFiles scans log files with the default catalog, as logmatch scan
// does, and returns what a report shows.
func scanFiles(t *testing.T, paths ...string) Findings {
	t.Helper()
	m, _, err := catalog.Load(catalog.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []scan.Input
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		inputs = append(inputs, scan.Input{Name: p, R: f})
	}
	res, err := scan.New(m, scan.Options{}).Scan(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Alerts) == 0 {
		t.Fatalf("no incidents in %v", paths)
	}
	return Findings{Inputs: paths, Lines: res.Stats.Lines, Entries: res.Stats.Entries, Alerts: res.Alerts, Version: "test"}
}

func slicesSort(s []string) { slices.SortFunc(s, compareLanes) }
