package scan_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/matcher"
)

// heldOutBatch is the batch kept for measuring the next round blind: the
// corpus test reports it, and no variant test reads it or may name it in
// a list of known misses.
const heldOutBatch = "heldout-26"

// heldOutFiles returns the files of the held-out batch. Its known notes
// record the blind measurement: one that came right is counted and
// reported, not a failure, since those who change recognition do not
// read the held-out batch and could not see which note to remove.
func heldOutFiles(t *testing.T) map[string]bool {
	t.Helper()
	entries, _ := loadCorpusManifest(t)
	files := map[string]bool{}
	for _, e := range entries {
		if e.Batch == heldOutBatch {
			files[e.File] = true
		}
	}
	return files
}

// corpusVariants is what every corpus variant test (wrappers, layouts,
// interleavings) starts from: the manifest's excerpts in file order, the
// embedded catalog and the default redactor.
func corpusVariants(t *testing.T) ([]corpusEntry, *matcher.Matcher, *redact.Redactor) {
	t.Helper()
	entries, problems := loadCorpusManifest(t)
	if len(problems) > 0 {
		t.Fatalf("manifest: %v", problems)
	}
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].File < entries[j].File })
	return entries, corpusMatcher(t), red
}

// under is a known-miss list's entry for one excerpt that goes wrong the
// same way, for the same reason, under each of the variants named.
func under(why string, variants ...string) map[string]string {
	m := make(map[string]string, len(variants))
	for _, v := range variants {
		m[v] = why
	}
	return m
}

// variantCount is one variant's tally: excerpts tried, kept right, and
// knowingly wrong.
type variantCount struct{ tried, kept, known int }

// missList holds a variant test's verdicts against its list of what
// logmatch knowingly gets wrong (name, for the messages, and known, the
// list's reason for a file under a variant): a miss the list does not
// name fails the test, and so does an entry of the list that came right,
// so the list only shrinks.
type missList struct {
	name   string
	known  func(file, variant string) string
	counts map[string]*variantCount
	wrong  []string
	// heldOut names the held-out batch's files, whose entries that came
	// right are only counted (cameRight); see heldOutFiles.
	heldOut   map[string]bool
	cameRight int
}

func newMissList(t *testing.T, name string, known func(file, variant string) string) *missList {
	t.Helper()
	return &missList{name: name, known: known, counts: map[string]*variantCount{}, heldOut: heldOutFiles(t)}
}

// count returns variant's tally, creating it.
func (ml *missList) count(variant string) *variantCount {
	c := ml.counts[variant]
	if c == nil {
		c = &variantCount{}
		ml.counts[variant] = c
	}
	return c
}

// check records file's verdict under variant (ok, or why not) and returns
// the list's reason when it names the miss, "" otherwise.
func (ml *missList) check(file, variant string, ok bool, why string) string {
	c := ml.count(variant)
	c.tried++
	known := ml.known(file, variant)
	switch {
	case ok && known != "" && ml.heldOut[file]:
		c.kept++
		ml.cameRight++
		return ""
	case ok && known != "":
		c.kept++
		ml.wrong = append(ml.wrong, fmt.Sprintf("%s under %s: now right: remove it from %s (%s)", file, variant, ml.name, known))
		return ""
	case ok:
		c.kept++
	case known != "":
		c.known++
		return known
	default:
		ml.wrong = append(ml.wrong, fmt.Sprintf("%s under %s: %s", file, variant, why))
	}
	return ""
}

// fail reports every unexpected verdict.
func (ml *missList) fail(t *testing.T) {
	t.Helper()
	if ml.cameRight > 0 {
		t.Logf("%s: %d entries of the held-out batch %s came right since it was measured", ml.name, ml.cameRight, heldOutBatch)
	}
	for _, w := range ml.wrong {
		t.Error(w)
	}
}
