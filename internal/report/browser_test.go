package report

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/sinks"
)

var update = flag.Bool("update", false, "rewrite docs/report-ranks8.png, the report's picture in the docs")

// browser is one headless Debian chromium for a test, with what its page
// said: console messages, exceptions, browser log entries and every
// request it made.
type browser struct {
	ctx context.Context
	mu  sync.Mutex
	// console holds console calls, exceptions and log entries.
	console  []string
	requests []string
}

// newBrowser starts chromium, or skips without it unless
// LOGMATCH_TEST_REQUIRE_TOOLS=1 (CI), where it fails the test.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("chromium is required (LOGMATCH_TEST_REQUIRE_TOOLS=1; apt-get install chromium): %v", err)
		}
		t.Skipf("chromium not found (apt-get install chromium): %v", err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 1400),
	)
	b := &browser{}
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value))
			}
			b.console = append(b.console, "console."+string(e.Type)+": "+strings.Join(args, " "))
		case *runtime.EventExceptionThrown:
			b.console = append(b.console, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			b.console = append(b.console, "log "+string(e.Entry.Level)+": "+e.Entry.Text)
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, e.Request.URL)
		}
	}))
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first Run starts the browser; it gets no deadline of its own,
	// since its context is the browser's life.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	b.ctx = ctx
	return b
}

// page is what the test reads of a rendered report.
type page struct {
	Title     string   `json:"title"`
	Summary   string   `json:"summary"`
	Scripts   int      `json:"scripts"`
	Incidents []string `json:"incidents"` // data-slug of each card, in order
	FirstTag  []bool   `json:"firstTag"`
	Lanes     []string `json:"lanes"`
	// Marks are "step lane kind": kind is cause, first or then.
	Marks    []string `json:"marks"`
	Steps    int      `json:"steps"`
	Matched  []string `json:"matched"`
	Links    []string `json:"links"`
	Overflow bool     `json:"overflow"` // something wider than the page
}

const readPage = `JSON.stringify({
	title: document.title,
	summary: document.querySelector('#summary').textContent,
	scripts: document.scripts.length,
	incidents: [...document.querySelectorAll('article.incident')].map(a => a.dataset.slug),
	firstTag: [...document.querySelectorAll('article.incident')].map(a => !!a.querySelector('.first-tag')),
	lanes: [...document.querySelectorAll('svg.timeline .lane-label')].map(t => t.dataset.lane),
	marks: [...document.querySelectorAll('svg.timeline a.mark')].map(m =>
		m.dataset.step + ' ' + m.dataset.lane + ' ' + (m.querySelector('.first') ? 'first' : m.querySelector('polygon') ? 'then' : 'cause')),
	steps: document.querySelectorAll('#steps tr.step').length,
	matched: [...document.querySelectorAll('pre.matched')].map(p => p.textContent),
	links: [...document.querySelectorAll('a.ext')].map(a => a.href),
	overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
})`

// render writes f as HTML into a file, opens it in the browser and reads
// the page. When the test fails, a screenshot of the page is kept as an
// artefact (LOGMATCH_TEST_ARTIFACTS, else the system's temporary
// directory).
func (b *browser) render(t *testing.T, name string, f Findings) (page, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name+".html")
	out, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(out, f); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	url := "file://" + file
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Logf("no screenshot: %v", err)
			return
		}
		dir := os.Getenv("LOGMATCH_TEST_ARTIFACTS")
		if dir == "" {
			dir = filepath.Join(os.TempDir(), "logmatch-test-artifacts")
		}
		if err := os.MkdirAll(dir, 0o755); err == nil {
			p := filepath.Join(dir, "report-"+name+".png")
			if err := os.WriteFile(p, shot, 0o644); err == nil {
				t.Logf("screenshot of the failing page: %s (page: %s)", p, file)
			}
		}
	})
	js, err := chromedp.Run(ctx, chromedp.Evaluate[string](readPage))
	if err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	var p page
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	return p, url
}

// quiet checks that the page wrote nothing to its console and fetched
// nothing but itself.
func (b *browser) quiet(t *testing.T, url string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(b.console, "\n"))
	}
	for _, r := range b.requests {
		if r != url {
			t.Errorf("the page fetched %s", r)
		}
	}
}

// TestReportOfAnEightRankCrash renders the report of 8 tensor-parallel
// ranks running out of memory at once in chromium and reads the page: the
// incident, the eight ranks and the process on the timeline, the rank it
// began on ringed, the SIGQUIT that followed on the process, no script,
// no console message, no fetch; and it prints.
func TestReportOfAnEightRankCrash(t *testing.T) {
	b := newBrowser(t)
	f := scanFiles(t, "../../testdata/logs/ranks8.log")
	p, url := b.render(t, "ranks8", f)
	b.quiet(t, url)

	if diff := cmp.Diff([]string{"cuda-out-of-memory"}, p.Incidents); diff != "" {
		t.Errorf("incidents (-want +got):\n%s", diff)
	}
	if !slices.Equal(p.FirstTag, []bool{true}) {
		t.Errorf("first-to-fail tags: %v", p.FirstTag)
	}
	wantLanes := []string{"DP0 TP0", "DP0 TP1", "DP0 TP2", "DP0 TP3", "DP0 TP4", "DP0 TP5", "DP0 TP6", "DP0 TP7", noRank}
	if diff := cmp.Diff(wantLanes, p.Lanes); diff != "" {
		t.Errorf("lanes (-want +got):\n%s", diff)
	}
	var wantMarks []string
	for _, l := range wantLanes[:8] {
		kind := "cause"
		if l == f.Alerts[0].FirstRank {
			kind = "first"
		}
		wantMarks = append(wantMarks, "1 "+l+" "+kind)
	}
	wantMarks = append(wantMarks, "2 "+noRank+" then")
	if diff := cmp.Diff(wantMarks, p.Marks); diff != "" {
		t.Errorf("marks (-want +got):\n%s", diff)
	}
	if f.Alerts[0].FirstRank != "DP0 TP7" {
		t.Errorf("the scan says the crash began on %q; the log has it on DP0 TP7", f.Alerts[0].FirstRank)
	}
	if p.Steps != 2 {
		t.Errorf("steps table: %d rows, want 2", p.Steps)
	}
	if p.Scripts != 0 || p.Overflow {
		t.Errorf("scripts %d, overflow %v", p.Scripts, p.Overflow)
	}
	if !strings.HasPrefix(p.Summary, "1 incident (1 critical) in 73 lines") {
		t.Errorf("summary %q", p.Summary)
	}
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	pdf, err := chromedp.Run(ctx, chromedp.PrintToPDF())
	if err != nil || !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Errorf("printing: %v (%d bytes)", err, len(pdf))
	}
	if *update {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("../../docs/report-ranks8.png", shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReportOfSeveralLogs renders the incidents of two logs: every
// incident has its card, in the order they began, every step of the
// timeline its row, and the lanes are named after their log.
func TestReportOfSeveralLogs(t *testing.T) {
	b := newBrowser(t)
	f := scanFiles(t, "../../testdata/corpus/037-watchdog-timeout-all-ranks-killed.log", "../../testdata/logs/native-crash.log")
	p, url := b.render(t, "several", f)
	b.quiet(t, url)
	v := build(f)
	var want []string
	steps := 0
	for _, in := range v.Incidents {
		want = append(want, slug(in.A.Record.Slug))
		steps += 1 + len(in.A.Consequences)
	}
	if len(want) != len(f.Alerts) {
		t.Fatalf("the view has %d incidents of %d", len(want), len(f.Alerts))
	}
	if diff := cmp.Diff(want, p.Incidents); diff != "" {
		t.Errorf("incidents (-want +got):\n%s", diff)
	}
	if p.Steps != steps {
		t.Errorf("steps table: %d rows, want %d", p.Steps, steps)
	}
	for _, l := range p.Lanes {
		if !strings.HasPrefix(l, "037-watchdog-timeout-all-ranks-killed.log: ") && !strings.HasPrefix(l, "native-crash.log: ") {
			t.Errorf("lane %q is not named after its log", l)
		}
	}
	if !slices.Contains(p.Lanes, "037-watchdog-timeout-all-ranks-killed.log: TP4") {
		t.Errorf("lanes %q lack TP4 of the watchdog log", p.Lanes)
	}
}

// TestReportEscapesLogText renders log text and catalog text that would
// be markup, a script or a fetch if pasted into the page as it is: the
// page shows it as text, runs nothing, fetches nothing and links only to
// http(s) URLs.
func TestReportEscapesLogText(t *testing.T) {
	b := newBrowser(t)
	hostile := `</pre><script>console.error("ran")</script><img src="http://127.0.0.1:9/x.png" onerror="console.error('img')"><style>body{display:none}</style>` + "\x1b]0;title\a"
	when := time.Date(2026, 5, 28, 0, 15, 0, 0, time.UTC)
	f := Findings{
		Inputs: []string{`<b>x</b>.log`},
		Lines:  3, Entries: 3,
		Alerts: []sinks.Alert{{
			Time: when, LastTime: when, Count: 2,
			Ranks: []string{`TP0"><script>x</script>`, "TP1"}, FirstRank: "TP1",
			Headline: hostile,
			Record: sinks.Record{ID: "r1", Slug: `slug"><svg onload=console.error(1)>`, Severity: `critical"><script>`,
				Solutions:     []string{`<a href="javascript:console.error(2)">click</a>`},
				GithubURL:     "javascript:console.error(3)",
				Documentation: "http://127.0.0.1:9/doc.html"},
			Match:  sinks.Match{Text: hostile},
			Source: sinks.Source{Path: `<b>x</b>.log`},
		}},
	}
	p, url := b.render(t, "hostile", f)
	b.quiet(t, url)
	if p.Scripts != 0 {
		t.Errorf("the page has %d scripts", p.Scripts)
	}
	if len(p.Matched) != 1 || !strings.Contains(p.Matched[0], `</pre><script>console.error("ran")</script><img src=`) || !strings.Contains(p.Matched[0], `\x1b]0;title\a`) {
		t.Errorf("matched text not shown as text: %q", p.Matched)
	}
	if diff := cmp.Diff([]string{"http://127.0.0.1:9/doc.html"}, p.Links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	if len(p.Incidents) != 1 || p.Incidents[0] != `slug"><svg onload=console.error(1)>` {
		t.Errorf("incidents %q", p.Incidents)
	}
	if !slices.Contains(p.Lanes, `TP0"><script>x</script>`) {
		t.Errorf("lanes %q", p.Lanes)
	}
}
