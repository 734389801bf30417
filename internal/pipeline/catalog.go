package pipeline

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// Catalog says which catalogs to load.
type Catalog struct {
	Paths     []string // files or directories, added to the default
	NoDefault bool     // leave the embedded default catalog out
	// Cache, when set, keeps the matcher's facts of this catalog: a load
	// takes those of the last load by this build and stores new ones when
	// it derived any. It changes the CPU a load takes, never its result.
	Cache *factcache.Dir
	// OnCacheError, when set, is told of a cache file that was damaged or
	// not to be trusted (it is replaced) and of one that could not be
	// written. The load goes on without it.
	OnCacheError func(error)
}

// cacheKey names the catalog in Cache: what it loads, not what the files
// hold (the facts are of patterns, checked one by one).
func (c Catalog) cacheKey() string {
	var b strings.Builder
	fmt.Fprintf(&b, "default=%t", !c.NoDefault)
	for _, p := range c.Paths {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		b.WriteString("\x00" + p)
	}
	return b.String()
}

func (c Catalog) cacheError(err error) {
	if err != nil && c.OnCacheError != nil {
		c.OnCacheError(err)
	}
}

// LoadMatcher loads the catalogs and compiles them. Problems with single
// records are returned, never fatal: one bad record (a malformed line, a
// pattern that does not compile or that backtracks catastrophically) is
// left out and the others load. An error means nothing usable loaded (no records, or a
// catalog path that cannot be read at all).
//
// The load runs with the collector's target raised (see withLoadGC).
func LoadMatcher(c Catalog) (m *matcher.Matcher, problems []patterns.Problem, err error) {
	withLoadGC(func() { m, problems, err = loadMatcher(c) })
	return m, problems, err
}

// loadGCPercent is the garbage collector's target while a catalog loads.
// A load allocates about five times the heap it keeps (regexp2's parse of
// every pattern, the decoder's record chunks), so at the default target
// the collector runs several times in it. Measured on the 5,695-record
// generated catalog (scripts/perf-load-and-scan.md): 23% less CPU a
// load, and a peak RSS of 75 MB instead of 63–66 MB.
const loadGCPercent = 400

// loadGC serialises loads, so that each restores the target it found.
var loadGC sync.Mutex

// withLoadGC runs f with the GC target at loadGCPercent, and puts the
// operator's target (GOGC) back after. A collector turned off (GOGC=off),
// GOGC=0 or a higher target is left alone; a memory limit (GOMEMLIMIT)
// still holds throughout.
func withLoadGC(f func()) {
	loadGC.Lock()
	defer loadGC.Unlock()
	if old := gcPercent(); old > 0 && old < loadGCPercent {
		debug.SetGCPercent(loadGCPercent)
		defer debug.SetGCPercent(old)
	}
	f()
}

// gcPercent reads the GC target without setting it (debug.SetGCPercent
// can only read by setting, and setting may start a collection); -1 means
// the collector is off, which the metric gives as the largest uint64.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[0].Value.Uint64() > math.MaxInt32 {
		return -1
	}
	return int(s[0].Value.Uint64())
}

func loadMatcher(c Catalog) (*matcher.Matcher, []patterns.Problem, error) {
	var recs []patterns.Record
	var problems []patterns.Problem
	var facts *matcher.Facts
	var lo patterns.LoadOptions
	var key string
	if c.Cache != nil {
		key = c.cacheKey()
		var err error
		facts, err = c.Cache.Load(key)
		c.cacheError(err)
		if facts != nil {
			lo.Parsed = facts.Parses
		}
	}
	if !c.NoDefault {
		def, probs := lo.Default()
		recs = def
		problems = append(problems, probs...)
	}
	for _, p := range c.Paths {
		if _, err := os.Stat(p); err != nil {
			return nil, problems, fmt.Errorf("catalog %s: %w", p, err)
		}
	}
	if len(c.Paths) > 0 {
		extra, probs := lo.Load(c.Paths...)
		problems = append(problems, probs...)
		recs = patterns.Merge(recs, extra)
	}
	// The same backtracking check as "patterns lint": a pattern it proves
	// catastrophic would stall every entry it is tried on. The matcher runs
	// it on the parse it compiles from (patterns.RefuseCatastrophic's check).
	m, probs := matcher.Compile(recs, matcher.Options{Refuse: &patterns.LintOptions{}, Facts: facts})
	problems = append(problems, probs...)
	if m.Len() == 0 {
		return nil, problems, errors.New("catalog: no usable records")
	}
	if c.Cache != nil && !m.FactsUse().Complete() {
		c.cacheError(c.Cache.Store(key, m.Facts()))
	}
	return m, problems, nil
}

// factCacheDir is where run keeps its catalogs' facts, in its state
// directory: private to it, and kept across restarts.
const factCacheDir = "catalog-cache"

// openFactCache opens the state directory's fact cache; nil, logged, when
// it cannot (the load is then slower, never different).
func openFactCache(stateDir string, log *slog.Logger) *factcache.Dir {
	if stateDir == "" {
		return nil
	}
	d, err := factcache.Open(filepath.Join(stateDir, factCacheDir))
	if err != nil {
		log.Info("catalog cache not used", "err", err)
		return nil
	}
	return d
}

// catalog is what cfg says to load, with the pipeline's fact cache.
func (p *Pipeline) catalog(cfg *config.Config) Catalog {
	return Catalog{Paths: cfg.Catalogs, NoDefault: cfg.NoDefaultCatalog, Cache: p.facts,
		OnCacheError: func(err error) { p.log.Warn("catalog cache", "err", err) }}
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

// testHookCatalogRead, when set, runs in New right after the catalog
// files are read (a test saves a catalog there).
var testHookCatalogRead func()

// defaultCatalogPoll is how often catalog files are checked for changes.
const defaultCatalogPoll = 5 * time.Second
