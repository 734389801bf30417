package analysis_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// generatedCatalog stands in for a user's big dataset: records generated
// from sglang's source, with no solutions.
const generatedCatalog = "../../../shared/catalogs/sglang-generated.jsonl"

// TestGeneratedCatalogNeverWorsensAlerts checks the promise that more
// records can only add information: for every entry of the examples, the
// fixtures and the development corpus, the default catalog plus the
// generated one diagnoses it at least as well as the default alone: still a
// failure, the same record when the default had an informed one, no fewer
// solutions, and the same severity (never a lower one where the default
// knew no record).
func TestGeneratedCatalogNeverWorsensAlerts(t *testing.T) {
	def, probs := patterns.Default()
	for _, p := range probs {
		if p.Level == patterns.LevelError {
			t.Fatalf("default catalog: %v", p)
		}
	}
	gen, probs := patterns.LoadFile(generatedCatalog)
	if len(gen) == 0 {
		t.Fatalf("generated catalog: no records (%v)", probs)
	}
	mDef, _ := matcher.Compile(def, matcher.Options{})
	mAll, _ := matcher.Compile(patterns.Merge(def, gen), matcher.Options{})
	anDef, anAll := analysis.New(mDef), analysis.New(mAll)

	var files []string
	for _, glob := range []string{"../../examples/*.log", "../../testdata/logs/*.log", "../../testdata/corpus/*.log"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d log files found", len(files))
	}
	compared := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries(string(b)) {
			dd, okDef := anDef.Analyze(&e)
			if !okDef {
				continue
			}
			def := brief(&dd)
			defSolutions := solutions(&dd)
			defInformed := dd.Cause != nil && defSolutions > 0
			da, okAll := anAll.Analyze(&e)
			if !okAll {
				t.Errorf("%s:%d: a failure with the default catalog (%s) is none with the generated one added", f, e.FirstOffset+1, def.headline)
				continue
			}
			compared++
			all := brief(&da)
			switch {
			case solutions(&da) < defSolutions:
				t.Errorf("%s:%d: %d solutions with the default catalog (%s), %d with the generated one added (%s)",
					f, e.FirstOffset+1, defSolutions, def.slug, solutions(&da), all.slug)
			case defInformed && all.slug != def.slug:
				t.Errorf("%s:%d: record %s became %s", f, e.FirstOffset+1, def.slug, all.slug)
			case defInformed && all.severity != def.severity:
				t.Errorf("%s:%d: severity %s became %s", f, e.FirstOffset+1, def.severity, all.severity)
			case all.severity.Rank() < def.severity.Rank():
				t.Errorf("%s:%d: severity %s fell to %s", f, e.FirstOffset+1, def.severity, all.severity)
			}
		}
	}
	t.Logf("%d failure entries compared in %d files", compared, len(files))
}

func solutions(d *analysis.Diagnosis) int {
	if d.Cause == nil {
		return 0
	}
	return len(d.Cause.Record.Solutions)
}
