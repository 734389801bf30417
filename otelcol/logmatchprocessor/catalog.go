package logmatchprocessor

import (
	"errors"
	"fmt"
	"os"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// loadMatcher reads the configured catalogs and compiles them. Problems of
// single records come back as warnings to log: one bad record never stops
// the others. The error is for what leaves nothing sensible to run: a
// catalog path that cannot be read, or no usable record at all.
func loadMatcher(c *Config) (*matcher.Matcher, []patterns.Problem, error) {
	var recs []patterns.Record
	var problems []patterns.Problem
	if !c.NoDefaultCatalog {
		def, probs := patterns.Default()
		recs = def
		problems = append(problems, probs...)
	}
	for i, p := range c.Catalogs {
		// patterns.Load would report a missing path as one more problem;
		// a path the operator named must exist, so it fails the start.
		if _, err := os.Stat(p); err != nil {
			return nil, problems, fmt.Errorf("catalogs[%d]: %w", i, err)
		}
	}
	if len(c.Catalogs) > 0 {
		extra, probs := patterns.Load(c.Catalogs...)
		problems = append(problems, probs...)
		recs = patterns.Merge(recs, extra)
	}
	if c.MinSeverity != "" {
		recs = atLeast(recs, c.MinSeverity)
	}
	m, probs := matcher.Compile(recs, matcher.Options{})
	problems = append(problems, probs...)
	if m.Len() == 0 {
		return nil, problems, errors.New("catalogs: no usable records")
	}
	return m, problems, nil
}

// atLeast keeps the records whose severity ranks at or above min. Filtering
// before compiling means a record below the threshold never outranks one
// above it, and costs nothing per log record.
func atLeast(recs []patterns.Record, min string) []patterns.Record {
	sev, err := patterns.ParseSeverity(min)
	if err != nil {
		// Validate has rejected this already; keeping everything is the
		// safe reading of a threshold that cannot be understood.
		return recs
	}
	out := recs[:0:0]
	for _, r := range recs {
		if r.Severity.Rank() >= sev.Rank() {
			out = append(out, r)
		}
	}
	return out
}
