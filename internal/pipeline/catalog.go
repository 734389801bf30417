package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// Catalog says which catalogs to load.
type Catalog struct {
	Paths     []string // files or directories, added to the default
	NoDefault bool     // leave the embedded default catalog out
}

// LoadMatcher loads the catalogs and compiles them. Problems with single
// records are returned, never fatal: one bad record (a malformed line, a
// pattern that does not compile or that backtracks catastrophically) is
// left out and the others load. An error means nothing usable loaded (no records, or a
// catalog path that cannot be read at all).
func LoadMatcher(c Catalog) (*matcher.Matcher, []patterns.Problem, error) {
	var recs []patterns.Record
	var problems []patterns.Problem
	if !c.NoDefault {
		def, probs := patterns.Default()
		recs = def
		problems = append(problems, probs...)
	}
	for _, p := range c.Paths {
		if _, err := os.Stat(p); err != nil {
			return nil, problems, fmt.Errorf("catalog %s: %w", p, err)
		}
	}
	if len(c.Paths) > 0 {
		extra, probs := patterns.Load(c.Paths...)
		problems = append(problems, probs...)
		recs = patterns.Merge(recs, extra)
	}
	// The same backtracking check as "patterns lint": a pattern it proves
	// catastrophic would stall every entry it is tried on. The matcher runs
	// it on the parse it compiles from (patterns.RefuseCatastrophic's check).
	m, probs := matcher.Compile(recs, matcher.Options{Refuse: &patterns.LintOptions{}})
	problems = append(problems, probs...)
	if m.Len() == 0 {
		return nil, problems, errors.New("catalog: no usable records")
	}
	return m, problems, nil
}

// catalogStamp summarises the catalog files' names, sizes and modification
// times, so a poll can tell that one changed without reading them.
func catalogStamp(paths []string) string {
	var parts []string
	for _, root := range paths {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				parts = append(parts, p+":error")
				return nil
			}
			if d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			parts = append(parts, fmt.Sprintf("%s:%d:%d", p, info.Size(), info.ModTime().UnixNano()))
			return nil
		})
	}
	sort.Strings(parts)
	return strings.Join(parts, "|")
}

// defaultCatalogPoll is how often catalog files are checked for changes.
const defaultCatalogPoll = 5 * time.Second
