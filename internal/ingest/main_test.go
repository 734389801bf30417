package ingest

import (
	"sync"
	"testing"
	"time"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func now() time.Time { return fixedNow }

var (
	defaultOnce sync.Once
	defaultM    *matcher.Matcher
	defaultErr  []error
)

// defaultMatcher compiles the built-in catalog once for the package.
func defaultMatcher(t testing.TB) *matcher.Matcher {
	t.Helper()
	defaultOnce.Do(func() {
		recs, problems := patterns.Default()
		for _, p := range problems {
			if p.Level == patterns.LevelError {
				defaultErr = append(defaultErr, p)
			}
		}
		m, probs := matcher.Compile(recs, matcher.Options{})
		for _, p := range probs {
			defaultErr = append(defaultErr, p)
		}
		defaultM = m
	})
	if len(defaultErr) > 0 {
		t.Fatalf("default catalog: %v", defaultErr)
	}
	return defaultM
}

// recorder is a recording Observer.
type recorder struct {
	mu       sync.Mutex
	requests map[string]int
	lines    map[string]int
	rejects  map[string]int // "input/reason"
}

func newRecorder() *recorder {
	return &recorder{requests: map[string]int{}, lines: map[string]int{}, rejects: map[string]int{}}
}

func (r *recorder) Request(in string) { r.mu.Lock(); r.requests[in]++; r.mu.Unlock() }
func (r *recorder) Lines(in string, n int) {
	r.mu.Lock()
	r.lines[in] += n
	r.mu.Unlock()
}
func (r *recorder) Rejected(in, reason string) {
	r.mu.Lock()
	r.rejects[in+"/"+reason]++
	r.mu.Unlock()
}

func (r *recorder) rejected(in, reason string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rejects[in+"/"+reason]
}
