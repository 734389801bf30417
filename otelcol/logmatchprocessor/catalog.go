package logmatchprocessor

import (
	"fmt"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// loadMatcher loads the configured catalogs through logmatch's one loader,
// so the processor refuses what run, scan and lint refuse. Problems of
// single records come back as warnings to log: one bad record never stops
// the others. The error is for what leaves nothing sensible to run: a
// catalog path that cannot be read, or no usable record at all.
func loadMatcher(c *Config) (*matcher.Matcher, []patterns.Problem, error) {
	spec := catalog.Spec{Paths: c.Catalogs, NoDefault: c.NoDefaultCatalog}
	if c.MinSeverity != "" {
		sev, err := patterns.ParseSeverity(c.MinSeverity)
		if err != nil {
			return nil, nil, fmt.Errorf("min_severity: %w", err)
		}
		spec.MinSeverity = sev
	}
	return catalog.Load(spec)
}
