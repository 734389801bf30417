package analysis

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// noticeRecs are a record that is no info one and an info one, for the
// hits of the tests below.
var noticeRecs = [...]*patterns.Record{
	{ID: "err", Severity: patterns.SeverityError},
	{ID: "info", Severity: patterns.SeverityInfo},
}

// checkHidden fails when hitsHideNotice says no notice where noticeOf
// finds one.
func checkHidden(t *testing.T, e *entry.Entry, hits []matcher.Hit) bool {
	t.Helper()
	text := strings.TrimRight(e.Text, "\r\n ")
	hide := strings.IndexByte(text, '\n') < 0 && hitsHideNotice(text, hits)
	if hide && noticeOfRead(e, hits) {
		var spans []string
		for _, h := range hits {
			s, end := max(0, min(h.Start, len(e.Text))), max(0, min(h.End, len(e.Text)))
			spans = append(spans, h.Record.ID+" "+e.Text[s:max(s, end)])
		}
		t.Errorf("hitsHideNotice(%q, %q), yet noticeOf says a notice", e.Text, spans)
		return true
	}
	if noticeOf(e, hits) != noticeOfRead(e, hits) {
		t.Errorf("noticeOf(%q) differs from the reading without hitsHideNotice", e.Text)
	}
	return hide
}

// noticeOfRead is noticeOf without hitsHideNotice: the reading it stands
// in for.
func noticeOfRead(e *entry.Entry, hits []matcher.Hit) bool { return noticeRead(e, hits, false) }

// The words of every carry-on opener, passive and failed import, at every
// place of a failure line, under hits over every span around them: when
// hitsHideNotice says no notice, noticeOf agrees.
func TestHitsHideNoticeEveryPlace(t *testing.T) {
	var words []string
	for _, o := range carryOnOpeners {
		words = append(words, o.word)
	}
	words = append(words, carryOnPassives...)
	for _, w := range importFailures {
		words = append(words, w+" x: ModuleNotFoundError(\"y\")")
	}
	words = append(words, "retry 3 times", "Falling back to CPU", "SKIPPED", "Ignoring")
	rng := rand.New(rand.NewPCG(1, 2))
	hidden, checked := 0, 0
	for _, w := range words {
		for _, line := range []string{
			w,
			"Failed to load config: " + w + " the default",
			"x. " + w + ". done",
			"KeyError: 'a', " + w,
		} {
			e := &entry.Entry{Message: line, Text: line}
			for s := 0; s <= len(line); s++ {
				for _, end := range []int{s, s + 1, s + 3, len(line), rng.IntN(len(line) + 1)} {
					for _, r := range noticeRecs {
						hits := []matcher.Hit{{Record: r, Start: s, End: end}}
						checked++
						if checkHidden(t, e, hits) {
							hidden++
						}
						// A second hit of another record over the rest.
						hits = append(hits, matcher.Hit{Record: noticeRecs[rng.IntN(2)], Start: rng.IntN(len(line) + 1), End: rng.IntN(len(line) + 1)})
						if checkHidden(t, e, hits) {
							hidden++
						}
					}
				}
			}
		}
	}
	if hidden == 0 || hidden == checked {
		t.Errorf("hitsHideNotice said no notice for %d of %d: the cases test nothing", hidden, checked)
	}
}

// Every entry of the repository's logs, with the hits the default
// catalog finds in it and with random ones.
func TestHitsHideNoticeOnLogs(t *testing.T) {
	recs, _ := patterns.Default()
	m, _ := matcher.Compile(recs, matcher.Options{})
	rng := rand.New(rand.NewPCG(3, 4))
	n, hidden, notices := 0, 0, 0
	for _, p := range repoLogs(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		an := New(m)
		as := entry.NewAssembler(entry.Options{})
		var es []entry.Entry
		for i, l := range strings.Split(string(b), "\n") {
			es = append(es, as.Push(entry.Line{Text: l, Offset: int64(i)})...)
		}
		for _, e := range append(es, as.Flush()...) {
			n++
			an.searchEntry(&e)
			hits := an.hits
			if noticeOf(&e, hits) {
				notices++
			}
			if checkHidden(t, &e, hits) {
				hidden++
			}
			if len(e.Text) == 0 {
				continue
			}
			for range 3 {
				s := rng.IntN(len(e.Text))
				rh := append(hits[:len(hits):len(hits)], matcher.Hit{Record: noticeRecs[rng.IntN(2)], Start: s, End: s + rng.IntN(len(e.Text)-s+1)})
				checkHidden(t, &e, rh)
			}
		}
	}
	t.Logf("%d entries, %d notices, %d hidden by their hits", n, notices, hidden)
}

// FuzzHitsHideNotice holds hitsHideNotice to noticeOf on any line and
// hits.
func FuzzHitsHideNotice(f *testing.F) {
	f.Add("Failed to load generation config: x. Proceeding without generation config.", "WARNING", 0, 20, 40, 80, false)
	f.Add("Ignore import error when loading sglang.srt.models.x: No module named 'y'", "", 5, 30, 0, 0, true)
	f.Add("RuntimeError: cuda fallback to cpu failed", "", 14, 41, 0, 3, false)
	f.Add("could not import x: ImportError('y')", "INFO", 0, 3, 10, 20, false)
	f.Fuzz(func(t *testing.T, line, level string, s1, e1, s2, e2 int, info bool) {
		if strings.IndexByte(line, '\n') >= 0 {
			line = line[:strings.IndexByte(line, '\n')]
		}
		e := &entry.Entry{Message: line, Text: line, Level: level}
		r2 := noticeRecs[0]
		if info {
			r2 = noticeRecs[1]
		}
		hits := []matcher.Hit{{Record: noticeRecs[0], Start: s1, End: e1}, {Record: r2, Start: s2, End: e2}}
		checkHidden(t, e, hits)
		checkHidden(t, e, hits[:1])
	})
}
