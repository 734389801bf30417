package scan_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// enginesDir holds real log excerpts of the serving engines other than
// sglang (vLLM, TGI, TensorRT-LLM, Triton, LMDeploy, Ollama, llama.cpp),
// one per file, and manifest.jsonl saying what each one should give
// (testdata/engines/README.md).
const enginesDir = "../../testdata/engines"

// engineNames are the values the manifest's engine field may take.
var engineNames = map[string]bool{
	"sglang": true, "vllm": true, "tgi": true, "trtllm": true,
	"lmdeploy": true, "ollama": true, "llamacpp": true, "triton": true,
}

// engineBatches are the values of the batch field: the development batch,
// the first held-out batch, a second held-out batch collected later from
// other threads, and the engine excerpts of the sglang corpus's
// development batch dev-3 (testdata/corpus/README.md). Each held-out batch
// was measured before any change made after it was collected, and
// recognition is never tuned to it.
var engineBatches = []string{"dev", "heldout", "heldout2", "dev-3"}

// engineEntry is one line of testdata/engines/manifest.jsonl: the sglang
// corpus's fields plus the engine that wrote the log, the fix the thread
// reports and the batch.
type engineEntry struct {
	File           string       `json:"file"`
	URL            string       `json:"url"`
	Engine         string       `json:"engine"`
	Batch          string       `json:"batch"`
	Kind           string       `json:"kind"` // "failure" or "benign"
	Family         string       `json:"family"`
	Shape          string       `json:"shape"`
	Cause          *corpusCause `json:"cause,omitempty"`
	Record         string       `json:"record,omitempty"`
	ProposedRecord string       `json:"proposedRecord,omitempty"`
	Severity       string       `json:"severity"`
	// Fix is the fix the thread reports, empty when it reports none.
	Fix string `json:"fix"`
	// FixIn is the piece of the lead's solutions that carries Fix, as for
	// the sglang corpus.
	FixIn string `json:"fixIn,omitempty"`
	Note  string `json:"note"`
	// Known, when set, says why logmatch knowingly gets this excerpt
	// wrong today: a failure missed or led by the wrong incident, or a
	// benign excerpt that alerts. The test expects it to stay wrong, so
	// a fix shows up as a failure asking for the note to go.
	Known string `json:"known,omitempty"`
	// KnownAdvice, when set, says that the lead alert of this
	// non-sglang excerpt gives sglang-only advice today. Like Known, it
	// must be dropped as soon as the advice is the engine's own.
	KnownAdvice string `json:"knownAdvice,omitempty"`

	line int // 1-based line in manifest.jsonl, for messages
}

// asCorpusEntry lets the sglang corpus's judge rule decide the lead.
func (e engineEntry) asCorpusEntry() corpusEntry {
	return corpusEntry{
		File: e.File, URL: e.URL, Kind: e.Kind, Family: e.Family, Shape: e.Shape,
		Cause: e.Cause, Record: e.Record, ProposedRecord: e.ProposedRecord,
		Severity: e.Severity, Note: e.Note, Known: e.Known, line: e.line,
	}
}

// loadEngineManifest reads the manifest strictly and returns its entries
// with every problem found in it, each naming manifest.jsonl:line.
func loadEngineManifest(t *testing.T) ([]engineEntry, []string) {
	return loadManifest(t, filepath.Join(enginesDir, "manifest.jsonl"), "engines/manifest.jsonl", func(e *engineEntry, n int) { e.line = n })
}

// sglangCorpusURLs lists the threads the sglang corpus took its excerpts
// from; the engine corpus uses other threads, so the two measure
// different logs.
func sglangCorpusURLs(t *testing.T) map[string]bool {
	t.Helper()
	entries, _ := loadCorpusManifest(t)
	urls := map[string]bool{}
	for _, e := range entries {
		urls[e.URL] = true
	}
	return urls
}

// validateEngines checks the manifest against the files and the default
// catalog: every listed file exists and every .log file is listed once,
// fields are filled and valid, each cause text is in its excerpt
// verbatim, and no thread of the sglang corpus is used again.
func validateEngines(t *testing.T, entries []engineEntry, slugs, sglangURLs map[string]bool) []string {
	t.Helper()
	var problems []string
	bad := func(e engineEntry, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("engines/manifest.jsonl:%d: %s: %s", e.line, e.File, fmt.Sprintf(format, args...)))
	}
	listed := map[string]bool{}
	for _, e := range entries {
		checkListing(e.File, e.URL, listed, func(format string, args ...any) { bad(e, format, args...) })
		if sglangURLs[e.URL] {
			bad(e, "url %q is already a thread of the sglang corpus", e.URL)
		}
		if !engineNames[e.Engine] {
			bad(e, "engine %q is not one of sglang, vllm, tgi, trtllm, triton, lmdeploy, ollama, llamacpp", e.Engine)
		}
		if !slices.Contains(engineBatches, e.Batch) {
			bad(e, "batch %q is not one of %v", e.Batch, engineBatches)
		}
		if e.Family == "" || e.Shape == "" || e.Note == "" {
			bad(e, "family, shape and note are required")
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
		if e.KnownAdvice != "" && e.Engine == "sglang" {
			bad(e, "knownAdvice is for logs of other engines")
		}
		text, err := os.ReadFile(filepath.Join(enginesDir, e.File))
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
			if e.Record == "" && e.ProposedRecord == "" {
				bad(e, "a failure names its record or proposedRecord")
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
			if e.Cause != nil || e.Record != "" || e.ProposedRecord != "" || e.Severity != "" || e.Fix != "" {
				bad(e, "a benign excerpt has no cause, record, severity or fix")
			}
		default:
			bad(e, "kind %q is not failure or benign", e.Kind)
		}
	}
	files, err := filepath.Glob(filepath.Join(enginesDir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			problems = append(problems, fmt.Sprintf("engines/%s: not listed in manifest.jsonl", filepath.Base(f)))
		}
	}
	return problems
}

// TestEngineCorpusManifest validates the engine corpus's manifest against
// its files and, where the reserved-thread check is present, makes sure
// no excerpt comes from a thread reserved for independent evaluation.
func TestEngineCorpusManifest(t *testing.T) {
	entries, problems := loadEngineManifest(t)
	problems = append(problems, validateEngines(t, entries, catalogSlugs(t), sglangCorpusURLs(t))...)
	for _, p := range problems {
		t.Error(p)
	}
	if len(entries) == 0 {
		t.Error("engines/manifest.jsonl lists no excerpt")
	}
	check, ok := reservedCheck(t)
	if !ok {
		t.Log("shared/reserved/check is not in any parent directory of the repository; reserved threads not checked")
		return
	}
	manifest, err := filepath.Abs(filepath.Join(enginesDir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(check, manifest).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		t.Errorf("engines/manifest.jsonl uses reserved threads; drop those excerpts:\n%s", out)
	case err != nil:
		t.Fatalf("run %s: %v\n%s", check, err, out)
	}
}

// sglangOnlyFlags are command-line flags that only sglang's server (or its
// router) takes: advice naming one of them cannot be followed on another
// engine. Flags several engines share (--chat-template, --quantization,
// --kv-cache-dtype, --trust-remote-code, docker's --shm-size) are left out.
var sglangOnlyFlags = []string{
	"--mem-fraction-static", "--max-running-requests", "--tp-size", "--dp-size", "--pp-size",
	"--dist-init-addr", "--disable-cuda-graph", "--cuda-graph-max-bs", "--cuda-graph-bs",
	"--chunked-prefill-size", "--context-length", "--tokenizer-path", "--model-path",
	"--max-prefill-tokens", "--max-total-tokens", "--disable-radix-cache",
	"--schedule-conservativeness", "--enable-torch-compile", "--torch-compile-max-bs",
	"--sampling-backend", "--grammar-backend", "--moe-runner-backend", "--moe-a2a-backend",
	"--base-gpu-id", "--nccl-port", "--watchdog-timeout", "--soft-watchdog-timeout",
	"--skip-server-warmup", "--tokenizer-worker-num", "--crash-dump-folder", "--dist-timeout",
	"--allow-auto-truncate", "--enable-dp-attention", "--enable-hierarchical-cache",
	"--hicache-", "--disaggregation-", "--deepep-", "--speculative-draft-model-path",
	"--speculative-algorithm", "--worker-startup-timeout-secs", "--router-",
	"--health-check-timeout-secs", "--health-failure-threshold", "--worker-urls",
	"--grpc-mode", "--text-encoder-cpu-offload", "--dit-layerwise-offload",
}

// alsoTakenBy names the engines other than sglang whose servers take a
// flag of sglangOnlyFlags under the same name: on their logs it is their
// own advice (TGI's launcher has --max-total-tokens too).
var alsoTakenBy = map[string]string{"--max-total-tokens": "tgi"}

// sglangOnlyWords are names that only make sense for sglang: the project,
// its kernel package, its environment variables, its repository.
var sglangOnlyWords = regexp.MustCompile(`(?i:\bsglang\b|\bsgl[-_]kernel\b|\bsgl-project\b)|\bSGLANG_[A-Z0-9_]+`)

// sglangAdvice lists the sglang-only names in an alert's advice (its
// record's solutions and prevention tips) on a log of engine, sorted and
// unique.
func sglangAdvice(a *sinks.Alert, engine string) []string {
	if a == nil {
		return nil
	}
	seen := map[string]bool{}
	var found []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			found = append(found, s)
		}
	}
	for _, s := range append(append([]string(nil), a.Record.Solutions...), a.Record.PreventionTips...) {
		for _, f := range sglangOnlyFlags {
			if i := strings.Index(s, f); i >= 0 && alsoTakenBy[f] != engine {
				end := i + len(f)
				for end < len(s) && (s[end] == '-' || s[end] >= 'a' && s[end] <= 'z') {
					end++
				}
				add(s[i:end])
			}
		}
		for _, w := range sglangOnlyWords.FindAllString(s, -1) {
			add(w)
		}
	}
	sort.Strings(found)
	return found
}

// scanEngineFile scans one excerpt the way `logmatch scan FILE` does, like
// the sglang corpus.
func scanEngineFile(t *testing.T, m *matcher.Matcher, red *redact.Redactor, name string) scan.Result {
	t.Helper()
	return scanExcerpt(t, m, red, enginesDir, name)
}

// engineTally counts one group of excerpts (an engine, a batch, all).
type engineTally struct {
	failures, detected, right, classified int
	// incidents is the number of alerts of the detected failures: one
	// per failure is the goal.
	incidents int
	// sglangAdvice counts detected failures of other engines whose lead
	// gives sglang-only advice.
	sglangAdvice       int
	benign, falseAlarm int
}

func (c *engineTally) row(name string) string {
	perFailure := "-"
	if c.detected > 0 {
		perFailure = fmt.Sprintf("%.2f", float64(c.incidents)/float64(c.detected))
	}
	return fmt.Sprintf("%-14s %4d %9s %9s %10s %9s %12s %6d %11s",
		name, c.failures,
		fmt.Sprintf("%d %s", c.detected, percent(c.detected, c.failures)),
		fmt.Sprintf("%d %s", c.right, percent(c.right, c.failures)),
		fmt.Sprintf("%d %s", c.classified, percent(c.classified, c.failures)),
		perFailure,
		fmt.Sprintf("%d %s", c.sglangAdvice, percent(c.sglangAdvice, c.detected)),
		c.benign,
		fmt.Sprintf("%d %s", c.falseAlarm, percent(c.falseAlarm, c.benign)))
}

const engineTallyHeader = "group          fail  detected lead right classified inc/fail sglangAdvice benign false alarm"

// engineOrder is the order engines are reported in.
var engineOrder = []string{"vllm", "tgi", "trtllm", "triton", "lmdeploy", "ollama", "llamacpp", "sglang"}

// TestEngineCorpus scans every excerpt of the engine corpus through the
// same path as TestCorpus and reports, per engine and per batch, how many
// failures alert, how often the lead names the real cause, how many
// incidents each failure gives, how many benign excerpts alert, and how
// often the lead of another engine's failure gives sglang-only advice.
// Today's misses are recorded in the manifest (known, knownAdvice): the
// test fails when one of them is fixed without its note being dropped,
// and when an excerpt without a note goes wrong.
func TestEngineCorpus(t *testing.T) {
	entries, problems := loadEngineManifest(t)
	problems = append(problems, validateEngines(t, entries, catalogSlugs(t), sglangCorpusURLs(t))...)
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

	total := &engineTally{}
	byEngine := map[string]*engineTally{}
	byBatch := map[string]*engineTally{}
	group := func(e engineEntry) []*engineTally {
		if byEngine[e.Engine] == nil {
			byEngine[e.Engine] = &engineTally{}
		}
		if byBatch[e.Batch] == nil {
			byBatch[e.Batch] = &engineTally{}
		}
		return []*engineTally{total, byEngine[e.Engine], byBatch[e.Batch]}
	}

	var table strings.Builder
	fmt.Fprintf(&table, "%-52s %-8s %-7s %-44s %-26s %s\n", "file", "engine", "batch", "expected", "verdict", "lead (alerts) [sglang advice]")
	var wrong []string
	sort.Slice(entries, func(i, j int) bool { return entries[i].File < entries[j].File })
	for _, e := range entries {
		res := scanEngineFile(t, m, red, e.File)
		l := lead(res.Alerts)
		advice := sglangAdvice(l, e.Engine)
		got := fmt.Sprintf("%s (%d)", headline(l), len(res.Alerts))
		if len(advice) > 0 && e.Engine != "sglang" {
			got += " [" + strings.Join(advice, " ") + "]"
		}
		tallies := group(e)
		if e.Kind == "benign" {
			alarm := len(res.Alerts) > 0
			verdict := "silent"
			for _, c := range tallies {
				c.benign++
				if alarm {
					c.falseAlarm++
				}
			}
			switch {
			case alarm && e.Known != "":
				verdict = "known: false alarm"
			case alarm:
				verdict = "FALSE ALARM"
				wrong = append(wrong, fmt.Sprintf("%s: benign excerpt alerted: %s", e.File, got))
			case e.Known != "":
				wrong = append(wrong, fmt.Sprintf("%s: now silent: remove its \"known\" note (%s)", e.File, e.Known))
			}
			fmt.Fprintf(&table, "%-52s %-8s %-7s %-44s %-26s %s\n", e.File, e.Engine, e.Batch, "benign", verdict, got)
			continue
		}
		ok, verdict := judge(e.asCorpusEntry(), l)
		for _, c := range tallies {
			c.failures++
			if l != nil {
				c.detected++
				c.incidents += len(res.Alerts)
				if l.Record.ID != "" {
					c.classified++
				}
				if len(advice) > 0 && e.Engine != "sglang" {
					c.sglangAdvice++
				}
			}
			if ok {
				c.right++
			}
		}
		switch {
		case ok && e.Known != "":
			wrong = append(wrong, fmt.Sprintf("%s: now correct: remove its \"known\" note (%s)", e.File, e.Known))
		case !ok && e.Known != "":
			verdict = "known: " + verdict
		case !ok:
			wrong = append(wrong, fmt.Sprintf("%s: %s: want %s, got %s", e.File, verdict, expected(e.asCorpusEntry()), got))
		}
		if e.Engine != "sglang" {
			switch {
			case len(advice) > 0 && e.KnownAdvice == "":
				wrong = append(wrong, fmt.Sprintf("%s: the lead gives sglang-only advice on a %s log: %s", e.File, e.Engine, strings.Join(advice, " ")))
			case len(advice) == 0 && e.KnownAdvice != "":
				wrong = append(wrong, fmt.Sprintf("%s: the lead no longer gives sglang-only advice: remove its \"knownAdvice\" note (%s)", e.File, e.KnownAdvice))
			}
		}
		fmt.Fprintf(&table, "%-52s %-8s %-7s %-44s %-26s %s\n", e.File, e.Engine, e.Batch, expected(e.asCorpusEntry()), verdict, got)
	}
	t.Logf("per excerpt:\n%s", table.String())

	var summary strings.Builder
	summary.WriteString(engineTallyHeader + "\n")
	for _, name := range engineOrder {
		if c := byEngine[name]; c != nil {
			summary.WriteString(c.row(name) + "\n")
		}
	}
	for _, name := range engineBatches {
		if c := byBatch[name]; c != nil {
			summary.WriteString(c.row("batch "+name) + "\n")
		}
	}
	summary.WriteString(total.row("all") + "\n")
	t.Logf("summary (detected, lead right and classified of failures; inc/fail = alerts per detected failure; sglangAdvice of detected failures; false alarms of benign):\n%s", summary.String())
	for _, w := range wrong {
		t.Error(w)
	}
}

// TestEngineCorpusNoSGLangAdvice: no alert on another engine's log, lead
// or not, gives advice only sglang can follow. Shared-layer records give
// their engine-neutral steps and the remedies of the engine detected
// from the log (none when it is not known), sglang-only records never
// match a log detected as another engine's, and the first steps of a
// failure no record names are engine-neutral off sglang. Unlike the
// lead's knownAdvice note, nothing here excuses an excerpt.
func TestEngineCorpusNoSGLangAdvice(t *testing.T) {
	entries, problems := loadEngineManifest(t)
	if len(problems) > 0 {
		t.Fatalf("manifest: %v", problems)
	}
	m := corpusMatcher(t)
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	alerts, engines := 0, map[string]int{}
	for _, e := range entries {
		if e.Engine == "sglang" {
			continue
		}
		res := scanEngineFile(t, m, red, e.File)
		for i := range res.Alerts {
			a := &res.Alerts[i]
			alerts++
			if a.Engine != "" {
				engines[a.Engine]++
				if a.Engine != e.Engine && !(e.Engine == "ollama" && a.Engine == "llamacpp") {
					t.Errorf("%s: alert names engine %s, the log is %s's", e.File, a.Engine, e.Engine)
				}
			}
			if adv := sglangAdvice(a, e.Engine); len(adv) > 0 {
				t.Errorf("%s: %s alert on a %s log gives sglang-only advice: %s", e.File, a.Record.Slug, e.Engine, strings.Join(adv, " "))
			}
		}
	}
	t.Logf("%d alerts on other engines' logs; engines named: %v", alerts, engines)
	if alerts == 0 {
		t.Fatal("no alert at all: the check proves nothing")
	}
}
