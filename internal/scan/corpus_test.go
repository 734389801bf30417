package scan_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/cases"
	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// corpusDir holds real log excerpts pasted into public issues, one per
// file, and manifest.jsonl saying what each one should give
// (testdata/corpus/README.md).
const corpusDir = "../../testdata/corpus"

// corpusNow stands in for the clock, so header-less lines get a stable time.
var corpusNow = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// corpusEntry is one line of manifest.jsonl.
type corpusEntry struct {
	File           string       `json:"file"`
	URL            string       `json:"url"`
	Kind           string       `json:"kind"` // "failure" or "benign"
	Family         string       `json:"family"`
	Shape          string       `json:"shape"`
	Cause          *corpusCause `json:"cause,omitempty"`
	Record         string       `json:"record,omitempty"`
	ProposedRecord string       `json:"proposedRecord,omitempty"`
	Severity       string       `json:"severity"`
	Note           string       `json:"note"`
	// Known, when set, says why logmatch knowingly gets this excerpt
	// wrong today. The test then expects it to stay wrong, so the list
	// is dropped as soon as a fix lands.
	Known string `json:"known,omitempty"`
	// Fix is the fix the thread reports worked, empty when it reports
	// none; the fix-in-solutions rate is judged against it.
	Fix string `json:"fix,omitempty"`
	// FixIn is the piece of the lead's solutions that carries Fix, as a
	// reviewer read them; empty when they do not carry it. The
	// fix-in-solutions rate counts it (TestCorpusFixInSolutions).
	FixIn string `json:"fixIn,omitempty"`
	// Batch names the held-out batch an excerpt was added in, measured
	// before any change was made for it; empty for the development
	// corpus.
	Batch string `json:"batch,omitempty"`

	line int // 1-based line in manifest.jsonl, for messages
}

// corpusCause is the real root cause of a failure excerpt.
type corpusCause struct {
	Type string `json:"type,omitempty"` // exception type as printed, may be dotted
	Text string `json:"text"`           // exact substring of the excerpt
}

// lead picks the alert that stands for the whole excerpt, as a test case
// of logmatch test --cases does (cases.Lead): the first incident to begin
// whose record is not a consequence, else the first incident.
func lead(alerts []sinks.Alert) *sinks.Alert { return cases.Lead(alerts) }

var corpusFileName = regexp.MustCompile(`^[0-9]{3,4}-[a-z0-9]+(-[a-z0-9]+)*\.log$`)

// loadCorpusManifest reads the manifest strictly and returns its entries
// with every problem found in it, each naming manifest.jsonl:line.
func loadCorpusManifest(t *testing.T) ([]corpusEntry, []string) {
	return loadManifest(t, filepath.Join(corpusDir, "manifest.jsonl"), "manifest.jsonl", func(e *corpusEntry, n int) { e.line = n })
}

// loadManifest reads the JSONL manifest at path strictly (unknown fields are
// problems) and returns its entries, each given its line by setLine, with
// every problem found, each naming name:line.
func loadManifest[T any](t *testing.T, path, name string, setLine func(*T, int)) ([]T, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var entries []T
	var problems []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			problems = append(problems, fmt.Sprintf("%s:%d: empty line", name, n))
			continue
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var e T
		if err := dec.Decode(&e); err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: %v", name, n, err))
			continue
		}
		setLine(&e, n)
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return entries, problems
}

// checkListing checks what every manifest entry of a corpus must hold:
// its file listed once, named NNN-short-name.log (three or four digits), and its thread on
// GitHub. listed collects the files seen.
func checkListing(file, url string, listed map[string]bool, bad func(format string, args ...any)) {
	if listed[file] {
		bad("listed twice")
	}
	listed[file] = true
	if !corpusFileName.MatchString(file) {
		bad("file name is not NNN-short-name.log (three or four digits)")
	}
	if !strings.HasPrefix(url, "https://github.com/") {
		bad("url %q is not a GitHub address", url)
	}
}

// validateCorpus checks the manifest against the files and the default
// catalog: every listed file exists and every .log file is listed once,
// fields are filled and valid, and each cause text is in its excerpt
// verbatim.
func validateCorpus(t *testing.T, entries []corpusEntry, slugs map[string]bool) []string {
	t.Helper()
	var problems []string
	bad := func(e corpusEntry, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("manifest.jsonl:%d: %s: %s", e.line, e.File, fmt.Sprintf(format, args...)))
	}
	listed := map[string]bool{}
	for _, e := range entries {
		checkListing(e.File, e.URL, listed, func(format string, args ...any) { bad(e, format, args...) })
		if e.Family == "" || e.Shape == "" {
			bad(e, "family and shape are required")
		}
		if e.Record != "" && !slugs[e.Record] {
			bad(e, "record %q is not a slug of the default catalog", e.Record)
		}
		if e.ProposedRecord != "" && slugs[e.ProposedRecord] {
			bad(e, "proposedRecord %q already exists: use record", e.ProposedRecord)
		}
		if e.Record != "" && e.ProposedRecord != "" {
			bad(e, "record and proposedRecord are exclusive")
		}
		text, err := os.ReadFile(filepath.Join(corpusDir, e.File))
		if err != nil {
			bad(e, "%v", err)
			continue
		}
		if len(bytes.TrimSpace(text)) == 0 {
			bad(e, "excerpt is empty")
		}
		switch e.Kind {
		case "failure":
			switch e.Severity {
			case "critical", "error", "warning":
			default:
				bad(e, "severity %q is not critical, error or warning", e.Severity)
			}
			if e.Cause == nil || e.Cause.Text == "" {
				bad(e, "cause.text is required for a failure")
				continue
			}
			if !bytes.Contains(text, []byte(e.Cause.Text)) {
				bad(e, "cause.text %q is not in the excerpt", e.Cause.Text)
			}
			if strings.Contains(e.Cause.Text, "\n") {
				bad(e, "cause.text spans lines")
			}
		case "benign":
			if e.Cause != nil || e.Record != "" || e.ProposedRecord != "" || e.Severity != "" {
				bad(e, "a benign excerpt has no cause, record or severity")
			}
		default:
			bad(e, "kind %q is not failure or benign", e.Kind)
		}
	}
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			problems = append(problems, fmt.Sprintf("%s: not listed in manifest.jsonl", filepath.Base(f)))
		}
	}
	return problems
}

// catalogSlugs lists the slugs of the default catalog.
func catalogSlugs(t *testing.T) map[string]bool {
	t.Helper()
	recs, _ := patterns.Default()
	slugs := map[string]bool{}
	for _, r := range recs {
		slugs[r.Slug] = true
	}
	if len(slugs) == 0 {
		t.Fatal("default catalog has no records")
	}
	return slugs
}

// TestCorpusManifest only validates the corpus manifest against its files.
func TestCorpusManifest(t *testing.T) {
	entries, problems := loadCorpusManifest(t)
	problems = append(problems, validateCorpus(t, entries, catalogSlugs(t))...)
	for _, p := range problems {
		t.Error(p)
	}
	if len(entries) == 0 {
		t.Error("manifest.jsonl lists no excerpt")
	}
}

// lastComponent is the part of a dotted exception type after its last dot:
// torch.OutOfMemoryError and OutOfMemoryError agree.
func lastComponent(typ string) string {
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		return typ[i+1:]
	}
	return typ
}

// rootCauseType is the type part of a RootCause ("Type: message").
func rootCauseType(rc string) string {
	typ, _, _ := strings.Cut(rc, ":")
	return strings.TrimSpace(typ)
}

// judge says whether the lead alert matches the expectation of e, and why
// not. The rule (README.md of the corpus):
//   - record set: the lead's record slug is that record;
//   - otherwise: the lead's slug is proposedRecord, or the lead is
//     unclassified and names the cause: its exception type (or its root
//     cause's type) agrees with cause.type when given, compared on the last
//     dotted component, and cause.text is in Match.Text, Match.Exception's
//     Message or its RootCause. A classified lead under another slug (a
//     wrapper, a consequence) is wrong: the entry's text is never searched.
func judge(e corpusEntry, a *sinks.Alert) (bool, string) {
	if a == nil {
		return false, "missed"
	}
	if e.Record != "" {
		if a.Record.Slug == e.Record {
			return true, "correct"
		}
		return false, "wrong record"
	}
	if e.ProposedRecord != "" && a.Record.Slug == e.ProposedRecord {
		return true, "correct"
	}
	if a.Record.ID != "" {
		return false, "wrong record"
	}
	ex := a.Match.Exception
	if e.Cause.Type != "" {
		want := lastComponent(e.Cause.Type)
		if ex == nil || (lastComponent(ex.Type) != want && lastComponent(rootCauseType(ex.RootCause)) != want) {
			return false, "wrong cause type"
		}
	}
	if strings.Contains(a.Match.Text, e.Cause.Text) {
		return true, "correct"
	}
	if ex != nil && (strings.Contains(ex.Message, e.Cause.Text) || strings.Contains(ex.RootCause, e.Cause.Text)) {
		return true, "correct"
	}
	return false, "cause text not named"
}

func corpusMatcher(t *testing.T) *matcher.Matcher {
	t.Helper()
	m, problems, err := catalog.Load(catalog.Spec{})
	for _, p := range problems {
		if p.Level == patterns.LevelError {
			t.Errorf("default catalog: %v", p)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// scanCorpusFile scans one excerpt the way `logmatch scan FILE` does.
func scanCorpusFile(t *testing.T, m *matcher.Matcher, red *redact.Redactor, name string) scan.Result {
	t.Helper()
	return scanExcerpt(t, m, red, corpusDir, name)
}

// scanExcerpt scans the excerpt dir/name the way `logmatch scan FILE` does,
// at the corpus's fixed time.
func scanExcerpt(t *testing.T, m *matcher.Matcher, red *redact.Redactor, dir, name string) scan.Result {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := scan.New(m, scan.Options{Entry: entry.Options{}, Redact: red.RedactAlert, Now: func() time.Time { return corpusNow }})
	res, err := s.Scan(context.Background(), []scan.Input{{Name: name, R: f}})
	if err != nil {
		t.Fatalf("scan %s: %v", name, err)
	}
	return res
}

func headline(a *sinks.Alert) string {
	if a == nil {
		return "-"
	}
	text := a.Match.Text
	if ex := a.Match.Exception; ex != nil && a.Record.ID == "" {
		switch {
		case ex.Type != "":
			text = ex.Type + ": " + ex.Message
		case ex.RootCause != "":
			text = "root cause " + ex.RootCause
		}
	}
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > 70 {
		text = string(r[:70]) + "…"
	}
	return fmt.Sprintf("%s [%s]", a.Record.Slug, text)
}

func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(of))
}

// TestCorpus scans every excerpt of the corpus with the default catalog and
// reports detection, classification, correctness and false alarms. It
// asserts that every failure is detected and correct and that no benign
// excerpt alerts.
func TestCorpus(t *testing.T) {
	entries, problems := loadCorpusManifest(t)
	problems = append(problems, validateCorpus(t, entries, catalogSlugs(t))...)
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.FailNow()
	}
	m := corpusMatcher(t)
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}

	var failures, detected, classified, correct, known, benign, falseAlarms int
	// cameRight counts the held-out batch's known notes that no longer
	// hold: they record its blind measurement (see heldOutFiles).
	cameRight := 0
	batches := map[string]*batchTally{}
	var batchOrder []string
	tally := func(e corpusEntry) *batchTally {
		name := e.Batch
		if name == "" {
			name = "development"
		}
		b, ok := batches[name]
		if !ok {
			b = &batchTally{name: name}
			batches[name] = b
			batchOrder = append(batchOrder, name)
		}
		return b
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-52s %-44s %-12s %s\n", "file", "expected", "verdict", "lead (alerts)")
	var wrong []string
	sort.Slice(entries, func(i, j int) bool { return entries[i].File < entries[j].File })
	for _, e := range entries {
		res := scanCorpusFile(t, m, red, e.File)
		l := lead(res.Alerts)
		got := fmt.Sprintf("%s (%d)", headline(l), len(res.Alerts))
		bt := tally(e)
		if e.Kind == "benign" {
			benign++
			bt.benign++
			verdict := "silent"
			alarm := len(res.Alerts) > 0
			if alarm {
				falseAlarms++
				bt.falseAlarms++
			}
			switch {
			case alarm && e.Known != "":
				verdict = "known: false alarm"
			case alarm:
				verdict = "FALSE ALARM"
				wrong = append(wrong, fmt.Sprintf("%s: benign excerpt alerted: %s", e.File, got))
			case e.Known != "" && e.Batch == heldOutBatch:
				cameRight++
			case e.Known != "":
				wrong = append(wrong, fmt.Sprintf("%s: now silent: remove its \"known\" note (%s)", e.File, e.Known))
			}
			fmt.Fprintf(&table, "%-52s %-44s %-12s %s\n", e.File, "benign", verdict, got)
			continue
		}
		failures++
		bt.failures++
		if l != nil {
			detected++
			bt.detected++
			bt.incidents += len(res.Alerts)
			if l.Record.ID != "" {
				classified++
				bt.classified++
			}
		}
		ok, verdict := judge(e, l)
		if ok {
			bt.correct++
		}
		switch {
		case ok && e.Known != "" && e.Batch == heldOutBatch:
			correct++
			cameRight++
		case ok && e.Known != "":
			correct++
			wrong = append(wrong, fmt.Sprintf("%s: now correct: remove its \"known\" note (%s)", e.File, e.Known))
		case ok:
			correct++
		case e.Known != "":
			known++
			verdict = "known: " + verdict
		default:
			wrong = append(wrong, fmt.Sprintf("%s: %s: want %s, got %s", e.File, verdict, expected(e), got))
		}
		fmt.Fprintf(&table, "%-52s %-44s %-12s %s\n", e.File, expected(e), verdict, got)
	}
	t.Logf("per excerpt:\n%s", table.String())
	t.Logf("failures %d, detected %d (%s), classified %d (%s), correct %d (%s), known wrong %d; benign %d, false alarms %d (%s)",
		failures, detected, percent(detected, failures), classified, percent(classified, failures),
		correct, percent(correct, failures), known, benign, falseAlarms, percent(falseAlarms, benign))
	for _, name := range batchOrder {
		t.Log(batches[name].String())
	}
	if cameRight > 0 {
		t.Logf("%d known notes of the held-out batch %s no longer hold: it was measured blind with them", cameRight, heldOutBatch)
	}
	for _, w := range wrong {
		t.Error(w)
	}
}

// expected is the manifest's expectation in a table cell.
func expected(e corpusEntry) string {
	if e.Record != "" {
		return e.Record
	}
	s := e.Cause.Text
	if t := lastComponent(e.Cause.Type); t != "" && !strings.HasPrefix(s, t) {
		s = t + ": " + s
	}
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}

// batchTally counts one batch of the corpus (the development corpus or a
// held-out batch) apart, so each can be reported beside the others.
type batchTally struct {
	name                                            string
	failures, detected, classified, correct, benign int
	falseAlarms                                     int
	// incidents is the number of alerts of the detected failure
	// excerpts: one per crash is the goal, so incidents/detected is the
	// incidents-per-crash figure.
	incidents int
}

func (b *batchTally) String() string {
	perCrash := "-"
	if b.detected > 0 {
		perCrash = fmt.Sprintf("%.2f", float64(b.incidents)/float64(b.detected))
	}
	return fmt.Sprintf("batch %s: failures %d, detected %d, lead right %d (%s), lead classified %d, incidents per detected crash %s (%d/%d); benign %d, false alarms %d",
		b.name, b.failures, b.detected, b.correct, percent(b.correct, b.failures), b.classified,
		perCrash, b.incidents, b.detected, b.benign, b.falseAlarms)
}

// reservedCheck finds shared/reserved/check, the script that names the
// threads reserved for independent evaluation, in the nearest ancestor
// of the repository that has it (../shared from the main checkout, one
// level further up from a worktree beside it).
func reservedCheck(t *testing.T) (string, bool) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
		p := filepath.Join(dir, "shared", "reserved", "check")
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
}

// TestCorpusReservedThreads fails when the manifest uses a thread that is
// reserved for independent evaluation: such logs must never shape the
// recognition they are meant to measure.
func TestCorpusReservedThreads(t *testing.T) {
	check, ok := reservedCheck(t)
	if !ok {
		t.Skip("shared/reserved/check is not in any parent directory of the repository")
	}
	manifest, err := filepath.Abs(filepath.Join(corpusDir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(check, manifest).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		t.Errorf("manifest.jsonl uses reserved threads; drop those excerpts:\n%s", out)
	case err != nil:
		t.Fatalf("run %s: %v\n%s", check, err, out)
	}
}

// sharedHeldOutThreads are the excerpts of the held-out batch whose thread
// an excerpt of another batch also uses, with why: the batches were built
// at the same time, and the held-out copies were right when measured blind.
// The list only shrinks; no new held-out excerpt may join it.
var sharedHeldOutThreads = map[string]string{}

// threadOf is a thread's URL without its fragment, query and trailing
// slash, in lower case: two links to one thread compare equal.
func threadOf(url string) string {
	url, _, _ = strings.Cut(url, "#")
	url, _, _ = strings.Cut(url, "?")
	return strings.ToLower(strings.TrimRight(url, "/"))
}

// TestCorpusHeldOutThreadsAreTheirOwn fails when an excerpt of the
// held-out batch comes from a thread an excerpt of another batch (of
// either corpus) also uses: what was learnt from that excerpt would be
// measured again as unseen.
func TestCorpusHeldOutThreadsAreTheirOwn(t *testing.T) {
	entries, problems := loadCorpusManifest(t)
	engines, eproblems := loadEngineManifest(t)
	if len(problems)+len(eproblems) > 0 {
		t.Fatalf("manifest problems: %v %v", problems, eproblems)
	}
	elsewhere := map[string]string{}
	for _, e := range entries {
		if e.Batch != heldOutBatch {
			elsewhere[threadOf(e.URL)] = e.File
		}
	}
	for _, e := range engines {
		elsewhere[threadOf(e.URL)] = "engines/" + e.File
	}
	held := 0
	for _, e := range entries {
		if e.Batch != heldOutBatch {
			continue
		}
		held++
		other, shared := elsewhere[threadOf(e.URL)]
		_, known := sharedHeldOutThreads[e.File]
		switch {
		case shared && !known:
			t.Errorf("%s (%s) comes from the thread of %s: drop one of them", e.File, heldOutBatch, other)
		case !shared && known:
			t.Errorf("%s no longer shares its thread: remove it from sharedHeldOutThreads", e.File)
		}
	}
	if held == 0 {
		t.Errorf("no excerpt of the held-out batch %s", heldOutBatch)
	}
}
