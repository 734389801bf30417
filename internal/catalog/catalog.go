package catalog

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// Spec says which catalogs to load.
type Spec struct {
	Paths     []string // files or directories, added to the default
	NoDefault bool     // leave the embedded default catalog out
	// MinSeverity, when set, keeps only the records of at least that
	// severity. Filtering before compiling means a record below it never
	// outranks one above, and costs nothing per entry.
	MinSeverity patterns.Severity
	// Cache, when set, keeps the matcher's facts of this catalog and an
	// image of the whole load (image.go): a load of a catalog whose content
	// and build have an image maps it; any other takes the facts of the
	// last load by this build, stores new ones when it derived any, and
	// writes the image. It changes the CPU a load takes, never its result.
	Cache *factcache.Dir
	// OnCacheError, when set, is told of a cache file that was damaged or
	// not to be trusted (it is replaced) and of one that could not be
	// written. The load goes on without it.
	OnCacheError func(error)
}

// cacheKey names the catalog in Cache: what it loads, not what the files
// hold (the facts are of patterns, checked one by one).
func (s Spec) cacheKey() string {
	var b strings.Builder
	fmt.Fprintf(&b, "default=%t", !s.NoDefault)
	if s.MinSeverity != "" {
		b.WriteString("\x00min=" + string(s.MinSeverity))
	}
	for _, p := range s.Paths {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		b.WriteString("\x00" + p)
	}
	return b.String()
}

func (s Spec) cacheError(err error) {
	if err != nil && s.OnCacheError != nil {
		s.OnCacheError(err)
	}
}

// Load loads the catalogs and compiles them. Problems with single records
// are returned, never fatal: one bad record (a malformed line, a pattern
// that does not compile or that backtracks catastrophically) is left out
// and the others load. An error means nothing usable loaded: no records,
// or a catalog path that cannot be read at all.
//
// The load runs with the collector's target raised (see withLoadGC); the
// image is read and written outside it, at the operator's target, so that
// the load's garbage is collected while the image is written.
func Load(s Spec) (m *matcher.Matcher, problems []patterns.Problem, err error) {
	var slot imageSlot
	if s.Cache != nil {
		var ok bool
		if m, problems, slot, ok = s.fromImage(); ok {
			return m, problems, nil
		}
	}
	var left []patterns.Record
	withLoadGC(func() { m, problems, left, err = load(s) })
	if err == nil && slot.name != "" {
		s.keepImage(slot, image{m: m, problems: problems, left: left})
	}
	return m, problems, err
}

// Compile compiles recs as every caller's load does: a pattern that
// "patterns lint" proves catastrophic is refused (it would stall every
// entry it is tried on), reported as a problem. facts, when not nil, are a
// previous load's facts to reuse.
func Compile(recs []patterns.Record, facts *matcher.Facts) (*matcher.Matcher, []patterns.Problem) {
	return matcher.Compile(recs, compileOptions(facts))
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

// load loads s; left are the records the compile left out (refused by the
// backtracking check, or not compiling).
func load(s Spec) (_ *matcher.Matcher, _ []patterns.Problem, left []patterns.Record, _ error) {
	var recs []patterns.Record
	var problems []patterns.Problem
	var facts *matcher.Facts
	var lo patterns.LoadOptions
	var key string
	if s.Cache != nil {
		key = s.cacheKey()
		var err error
		facts, err = s.Cache.Load(key)
		s.cacheError(err)
		if facts != nil {
			lo.Parsed = facts.Parses
		}
	}
	if !s.NoDefault {
		def, probs := lo.Default()
		recs = def
		problems = append(problems, probs...)
	}
	for _, p := range s.Paths {
		// patterns.Load would report a missing path as one more problem;
		// a path the operator named must exist, so it fails the load.
		if _, err := os.Stat(p); err != nil {
			return nil, problems, nil, fmt.Errorf("catalog %s: %w", p, err)
		}
	}
	if len(s.Paths) > 0 {
		extra, probs := lo.Load(s.Paths...)
		problems = append(problems, probs...)
		recs = patterns.Merge(recs, extra)
	}
	if s.MinSeverity != "" {
		recs = atLeast(recs, s.MinSeverity)
	}
	m, probs := Compile(recs, facts)
	problems = append(problems, probs...)
	if m.Len() == 0 {
		return nil, problems, nil, errors.New("catalog: no usable records")
	}
	if s.Cache != nil && !m.FactsUse().Complete() {
		s.cacheError(s.Cache.Store(key, m.Facts()))
	}
	if m.Len() < len(recs) {
		kept := make(map[string]bool, m.Len())
		for _, r := range m.Records() {
			kept[r.ID] = true
		}
		for _, r := range recs {
			if !kept[r.ID] {
				left = append(left, r)
			}
		}
	}
	return m, problems, left, nil
}

// atLeast keeps the records whose severity ranks at or above min.
func atLeast(recs []patterns.Record, min patterns.Severity) []patterns.Record {
	out := recs[:0:0]
	for _, r := range recs {
		if r.Severity.Rank() >= min.Rank() {
			out = append(out, r)
		}
	}
	return out
}

// FactCacheDir is where run keeps its catalogs' facts in its state
// directory: private to it, and kept across restarts.
const FactCacheDir = "catalog-cache"

// OpenFactCache opens the state directory's fact cache. It returns nil and
// the reason when it cannot: the load is then slower, never different.
func OpenFactCache(stateDir string) (*factcache.Dir, error) {
	if stateDir == "" {
		return nil, nil
	}
	return factcache.Open(filepath.Join(stateDir, FactCacheDir))
}

// The reload rule: a running process checks its catalog files every Poll
// and reloads them when their Stamp changed. The stamp is taken before the
// files are read, so a save that lands during a load is seen by the next
// poll (at most one redundant reload), never missed.
const Poll = 5 * time.Second

// Stamp summarises the catalog files' names, sizes and modification
// times, so a poll can tell that one changed without reading them.
func Stamp(paths []string) string {
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
