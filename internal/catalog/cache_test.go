package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

const cacheCatalog = `{"id":"c1","messagePattern":"KV cache pool exhausted after (\\d+) retries","severity":"critical"}
{"id":"c2","messagePattern":"(?i)detokenizer (?:process|manager) (?:died|exited)","severity":"error"}
{"id":"c3","messagePattern":"^(a+)+$","severity":"error"}
`

// loadTwice is one cached load, for what the test compares.
type cachedLoad struct {
	m      *matcher.Matcher
	probs  []patterns.Problem
	errors []error
}

func loadCached(t *testing.T, c Spec) cachedLoad {
	t.Helper()
	var l cachedLoad
	c.OnCacheError = func(err error) { l.errors = append(l.errors, err) }
	m, probs, err := Load(c)
	if err != nil {
		t.Fatal(err)
	}
	l.m, l.probs = m, probs
	return l
}

func ids(m *matcher.Matcher) []string {
	var out []string
	for _, r := range m.Records() {
		out = append(out, r.ID)
	}
	return out
}

// TestLoadKeepsFacts: the second load of a catalog takes every
// kept pattern's facts and the key plan from the cache and loads the same
// records with the same problems (the refused record is refused again); an
// edited catalog derives only what changed; a damaged file is reported,
// replaced, and changes nothing else.
func TestLoadKeepsFacts(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "extra.jsonl")
	if err := os.WriteFile(cat, []byte(cacheCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := factcache.Open(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	c := Spec{Paths: []string{cat}, Cache: cache}

	first := loadCached(t, c)
	if u := first.m.FactsUse(); u.Known != 0 || u.Derived != first.m.Len() || u.Plan {
		t.Fatalf("first load: %+v, want everything derived", u)
	}
	second := loadCached(t, c)
	if u := second.m.FactsUse(); u.Known != second.m.Len() || !u.Complete() {
		t.Errorf("second load: %+v, want everything from the cache", u)
	}
	if diff := cmp.Diff(ids(first.m), ids(second.m)); diff != "" {
		t.Errorf("records differ (-first +second):\n%s", diff)
	}
	errText := func(ps []patterns.Problem) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Error())
		}
		return out
	}
	if diff := cmp.Diff(errText(first.probs), errText(second.probs)); diff != "" || !slices.ContainsFunc(second.probs, func(p patterns.Problem) bool { return strings.Contains(p.Message, "record c3 refused") }) {
		t.Errorf("problems differ or c3 is not refused (-first +second):\n%s\n%v", diff, second.probs)
	}
	text := "[2026-05-28 00:11:09 TP0] KV cache pool exhausted after 3 retries"
	h1, _ := first.m.Match(matcher.Subject{Text: text})
	h2, _ := second.m.Match(matcher.Subject{Text: text})
	if len(h1) != 1 || len(h2) != 1 || h1[0].Record.ID != "c1" || h2[0].Record.ID != "c1" {
		t.Errorf("hits %v and %v, want c1 in both", h1, h2)
	}

	edited := cacheCatalog + `{"id":"c4","messagePattern":"scheduler watchdog fired","severity":"error"}` + "\n"
	if err := os.WriteFile(cat, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	third := loadCached(t, c)
	if u := third.m.FactsUse(); u.Derived != 1 || u.Known != third.m.Len()-1 || u.Plan {
		t.Errorf("edited catalog: %+v, want one pattern derived and a new plan", u)
	}

	files, _ := filepath.Glob(filepath.Join(cache.Path(), "*.facts"))
	if len(files) != 1 {
		t.Fatalf("cache holds %v, want one file", files)
	}
	// Without the images, the loads below read the catalog and its facts.
	images, _ := filepath.Glob(filepath.Join(cache.Path(), "*"+imageSuffix))
	for _, f := range images {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(files[0], []byte("damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	damaged := loadCached(t, c)
	if len(damaged.errors) != 1 || !strings.Contains(damaged.errors[0].Error(), files[0]) {
		t.Errorf("cache errors %v, want the damaged file named", damaged.errors)
	}
	if diff := cmp.Diff(ids(third.m), ids(damaged.m)); diff != "" {
		t.Errorf("a damaged cache changed the records:\n%s", diff)
	}
	for _, f := range images {
		_ = os.Remove(f)
	}
	if u := loadCached(t, c).m.FactsUse(); !u.Complete() {
		t.Errorf("after the damaged file was replaced: %+v", u)
	}
}
