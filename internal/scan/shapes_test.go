package scan_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
)

// wrapper is a way logs reach an operator wrapped: a collector, a
// container runtime, a CI system or a paste puts something in front of
// every line (SGLANG-LOGS.md, section 10). line gets the 0-based line
// number and the line without its newline and returns what the operator
// sees.
type wrapper struct {
	name string
	line func(n int, s string) string
}

// stamp is the n-th line's time, 7 ms apart, so stamps differ as they do
// in a real log.
func stamp(n int) time.Time {
	return time.Date(2025, 11, 6, 2, 10, 0, 702_513_093, time.UTC).Add(time.Duration(n) * 7 * time.Millisecond)
}

var wrappers = []wrapper{
	{"compose", func(_ int, s string) string { return "sglang-1  | " + s }},
	{"ray", func(_ int, s string) string { return "(SGLangEngine pid=48213) " + s }},
	{"kubectl-timestamps", func(n int, s string) string {
		return stamp(n).Format(time.RFC3339Nano) + " " + s
	}},
	{"actions", func(n int, s string) string {
		return stamp(n).Format("2006-01-02T15:04:05.0000000Z") + " " + s
	}},
	{"kubectl-prefix", func(_ int, s string) string { return "[pod/sglang-0/sglang] " + s }},
	{"journald", func(n int, s string) string {
		return stamp(n).Format("Jan 02 15:04:05") + " gpu-node-3 sglang[2741]: " + s
	}},
	{"blockquote", func(_ int, s string) string {
		if s == "" {
			return ">"
		}
		return "> " + s
	}},
	{"double-spaced", func(_ int, s string) string { return s + "\n" }},
	{"srun-label", func(_ int, s string) string { return "3: " + s }},
	{"mpirun-tag", func(_ int, s string) string { return "[1,3]<stderr>:" + s }},
	{"loki-pipe", func(n int, s string) string { return stamp(n).Format("2006-01-02 15:04:05.000") + " | " + s }},
	{"bracketed-stamp", func(n int, s string) string {
		return "[" + stamp(n).Format("2006-01-02T15:04:05.000Z") + "] " + s
	}},
	{"grep-n", func(n int, s string) string { return fmt.Sprintf("%d:%s", 1812+n, s) }},
	{"cri", func(n int, s string) string { return stamp(n).Format(time.RFC3339Nano) + " stderr F " + s }},
}

// wrap applies w to every line of text.
func wrap(w wrapper, text []byte) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	for n, l := range lines {
		b.WriteString(w.line(n, strings.TrimSuffix(l, "\r")))
		b.WriteByte('\n')
	}
	return b.String()
}

// knownShapeMisses lists what logmatch knowingly gets wrong under a
// wrapper (file, then wrapper name), with why. The test expects each to
// stay wrong, so an entry goes as soon as a fix lands.
var knownShapeMisses = map[string]map[string]string{}

// TestCorpusUnderWrappers is the corpus test again with every excerpt
// wrapped the ways real logs are: a failure read correctly as posted must
// still be read correctly with a collector's, a container runtime's, a CI
// system's or a paste's prefix in front of every line, and a benign
// excerpt must stay silent. Recognition that depends on a log's framing
// does not generalise to the next collector.
func TestCorpusUnderWrappers(t *testing.T) {
	if testing.Short() {
		t.Skip("scans the corpus once per wrapper")
	}
	entries, problems := loadCorpusManifest(t)
	if len(problems) > 0 {
		t.Fatalf("manifest: %v", problems)
	}
	m := corpusMatcher(t)
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].File < entries[j].File })

	type tally struct{ tried, kept, known int }
	tallies := map[string]*tally{}
	var wrong []string
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(corpusDir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind == "failure" {
			// Only what is right as posted can be kept right.
			if ok, _ := judge(e, lead(scanCorpusFile(t, m, red, e.File).Alerts)); !ok {
				continue
			}
		}
		for _, w := range wrappers {
			tl := tallies[w.name]
			if tl == nil {
				tl = &tally{}
				tallies[w.name] = tl
			}
			tl.tried++
			res := scanText(t, m, red, e.File, wrap(w, text))
			var ok bool
			var verdict string
			if e.Kind == "benign" {
				ok, verdict = len(res.Alerts) == 0, fmt.Sprintf("false alarm: %s", headline(lead(res.Alerts)))
			} else {
				var v string
				ok, v = judge(e, lead(res.Alerts))
				verdict = fmt.Sprintf("%s: want %s, got %s", v, expected(e), headline(lead(res.Alerts)))
			}
			known := knownShapeMisses[e.File][w.name]
			switch {
			case ok && known != "":
				tl.kept++
				wrong = append(wrong, fmt.Sprintf("%s under %s: now right: remove it from knownShapeMisses (%s)", e.File, w.name, known))
			case ok:
				tl.kept++
			case known != "":
				tl.known++
			default:
				wrong = append(wrong, fmt.Sprintf("%s under %s: %s", e.File, w.name, verdict))
			}
		}
	}
	names := make([]string, 0, len(tallies))
	for n := range tallies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tl := tallies[n]
		t.Logf("%-20s kept %d of %d (known misses %d)", n, tl.kept, tl.tried, tl.known)
	}
	for _, w := range wrong {
		t.Error(w)
	}
}

// scanText scans text as `logmatch scan` scans a file named name.
func scanText(t *testing.T, m *matcher.Matcher, red *redact.Redactor, name, text string) scan.Result {
	t.Helper()
	s := scan.New(m, scan.Options{Entry: entry.Options{}, Redact: red.RedactAlert, Now: func() time.Time { return corpusNow }})
	res, err := s.Scan(context.Background(), []scan.Input{{Name: name, R: bytes.NewReader([]byte(text))}})
	if err != nil {
		t.Fatalf("scan %s: %v", name, err)
	}
	return res
}
