package logmatchprocessor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/otel/metric/noop"
	"go.uber.org/zap"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// t0 is the tests' clock: the log times of the fixtures are in the past,
// so nothing is ahead of it.
var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// newTestTracker returns a tracker over the default catalog, without the
// processor around it, so a test drives its clock by hand.
func newTestTracker(t testing.TB, edit func(*Config)) *tracker {
	t.Helper()
	cfg := defaultConfig(edit)
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	m := testMatcher(t)
	metrics, err := telemetry.NewMetrics(noop.NewMeterProvider().Meter("test"))
	if err != nil {
		t.Fatal(err)
	}
	return newTracker(cfg, m, metrics, zap.NewNop(), func() time.Time { return t0 })
}

var (
	matcherOnce sync.Once
	matcherVal  *matcher.Matcher
	matcherErr  error
)

// testMatcher is the default catalog, compiled once for every test.
func testMatcher(t testing.TB) *matcher.Matcher {
	t.Helper()
	matcherOnce.Do(func() { matcherVal, _, matcherErr = loadMatcher(defaultConfig(nil)) })
	if matcherErr != nil {
		t.Fatalf("catalog: %v", matcherErr)
	}
	return matcherVal
}

// line is one log record fed to a tracker: its text and where it is from.
type line struct {
	text     string
	res      map[string]any // resource attributes
	attrs    map[string]any // record attributes
	iostream string
}

// batchOf builds a plog.Logs with one resource per record.
func batchOf(t testing.TB, ls ...line) plog.Logs {
	ld := plog.NewLogs()
	for _, l := range ls {
		rl := ld.ResourceLogs().AppendEmpty()
		if err := rl.Resource().Attributes().FromRaw(l.res); err != nil {
			t.Fatal(err)
		}
		lr := rl.ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
		lr.Body().SetStr(l.text)
		lr.SetObservedTimestamp(pcommon.NewTimestampFromTime(t0))
		if err := lr.Attributes().FromRaw(l.attrs); err != nil {
			t.Fatal(err)
		}
		if l.iostream != "" {
			lr.Attributes().PutStr(attrIOStream, l.iostream)
		}
	}
	return ld
}

func body(lr plog.LogRecord) string { return lr.Body().Str() }

// pod is the resource of a pod's container as the filelog container
// parser sets it.
func pod(name string) map[string]any {
	return map[string]any{attrNamespace: "serving", attrPodName: name, attrPodUID: "uid-" + name, attrContainer: "sglang"}
}

// linesOf splits text into one record per line, as filelog reads a file.
func linesOf(text string, res map[string]any, iostream string) []line {
	var out []line
	for _, s := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		out = append(out, line{text: s, res: res, iostream: iostream})
	}
	return out
}

func slugs(as []sinks.Alert) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Kind+" "+a.Record.Slug)
	}
	return out
}

// A traceback whose lines arrive one record at a time, split across two
// batches, is one entry and one incident: completed when its stream goes
// idle, announced when it settled.
func TestTrackerAssemblesAcrossBatchesAndSettles(t *testing.T) {
	tr := newTestTracker(t, nil)
	ls := linesOf(schedulerException, pod("sglang-0"), "stderr")
	half := len(ls) / 2
	for i, b := range [][]line{ls[:half], ls[half:]} {
		if as, _ := tr.consume(batchOf(t, b...), body, t0); len(as) != 0 {
			t.Fatalf("batch %d: alerts %v before the entry was complete", i, slugs(as))
		}
	}
	if as, _ := tr.tick(t0.Add(DefaultIdleFlush - time.Millisecond)); len(as) != 0 {
		t.Fatalf("alerts %v before the idle time", slugs(as))
	}
	// Idle: the entry completes and its incident starts settling.
	if as, _ := tr.tick(t0.Add(DefaultIdleFlush)); len(as) != 0 {
		t.Fatalf("alerts %v before the settle time", slugs(as))
	}
	if _, open := tr.stats(); open != 1 {
		t.Fatalf("%d open incidents after the idle flush, want 1", open)
	}
	as, _ := tr.tick(t0.Add(DefaultIdleFlush + DefaultSettleTime))
	if got, want := slugs(as), []string{"new ascend-transfer-engine-initialization-failed"}; !slices.Equal(got, want) {
		t.Fatalf("alerts %v, want %v", got, want)
	}
	a := as[0]
	if a.Count != 1 || a.Match.Exception == nil || a.Match.Exception.Type != "RuntimeError" || a.Source.Pod != "sglang-0" || a.Source.Stream != "stderr" {
		t.Errorf("alert: count %d, exception %+v, source %+v", a.Count, a.Match.Exception, a.Source)
	}
	if len(a.Context) != 1 || a.Context[0].Slug != "scheduler-hit-an-exception" {
		t.Errorf("context %+v, want the scheduler wrapper", a.Context)
	}
}

// stdout and stderr of one container are separate streams: an access line
// printed between a traceback's lines does not end it.
func TestTrackerKeepsStreamsApart(t *testing.T) {
	tr := newTestTracker(t, nil)
	res := pod("sglang-0")
	var ls []line
	for _, l := range linesOf(schedulerException, res, "stderr") {
		ls = append(ls, l, line{text: `[2026-11-29 17:04:25] INFO:     10.0.0.1:5000 - "POST /generate HTTP/1.1" 200 OK`, res: res, iostream: "stdout"})
	}
	tr.consume(batchOf(t, ls...), body, t0)
	as, _ := tr.flush(t0)
	if len(as) != 1 || as[0].Record.Slug != "ascend-transfer-engine-initialization-failed" || as[0].Match.Exception == nil {
		t.Fatalf("alerts %v, want one ascend incident with its exception", slugs(as))
	}
}

// The key: a pod's container (whatever file it writes), else the file,
// else the resource; each is a source of its own, with its own incident.
func TestTrackerKeys(t *testing.T) {
	tr := newTestTracker(t, nil)
	tb := schedulerException
	var ls []line
	ls = append(ls, linesOf(tb, pod("sglang-0"), "stderr")...)
	ls = append(ls, linesOf(tb, pod("sglang-1"), "stderr")...)
	for _, l := range linesOf(tb, nil, "") {
		l.attrs = map[string]any{attrFilePath: "/var/log/a.log"}
		ls = append(ls, l)
	}
	ls = append(ls, linesOf(tb, map[string]any{"service.name": "sglang", "host.name": "gpu-7"}, "")...)
	tr.consume(batchOf(t, ls...), body, t0)
	if n, _ := tr.stats(); n != 4 {
		t.Errorf("%d sources, want 4", n)
	}
	as, _ := tr.flush(t0)
	var got []string
	for _, a := range as {
		got = append(got, a.Source.Pod+"|"+a.Source.Path)
	}
	slices.Sort(got)
	want := []string{"sglang-0|", "sglang-1|", "|/var/log/a.log", "|sglang"}
	if !slices.Equal(got, want) {
		t.Errorf("incident sources %q, want %q", got, want)
	}
	fps := map[string]bool{}
	for _, a := range as {
		fps[a.Fingerprint] = true
	}
	if len(fps) != 4 {
		t.Errorf("%d fingerprints for 4 sources", len(fps))
	}
}

// At the bound on streams, the least recently seen source is completed
// (its pending traceback becomes an incident) and dropped.
func TestTrackerEvictsStreamsAtTheBound(t *testing.T) {
	tr := newTestTracker(t, func(c *Config) { c.MaxStreams = 2 })
	for _, name := range []string{"a", "b", "c"} {
		tr.consume(batchOf(t, linesOf(schedulerException, pod(name), "stderr")...), body, t0)
	}
	if n, open := tr.stats(); n != 2 || open != 1 {
		t.Fatalf("%d sources and %d open incidents, want 2 and 1 (a evicted, its traceback observed)", n, open)
	}
	if tr.evictedSources != 1 {
		t.Errorf("evicted %d sources, want 1", tr.evictedSources)
	}
	as, _ := tr.flush(t0)
	var pods []string
	for _, a := range as {
		pods = append(pods, a.Source.Pod)
	}
	slices.Sort(pods)
	if !slices.Equal(pods, []string{"a", "b", "c"}) {
		t.Errorf("incidents of pods %v, want a, b and c", pods)
	}
}

// At the bound on open incidents the grouper announces the oldest at once
// rather than lose it.
func TestTrackerBoundsOpenIncidents(t *testing.T) {
	tr := newTestTracker(t, func(c *Config) { c.MaxOpenIncidents = 1 })
	var all []sinks.Alert
	for _, name := range []string{"a", "b"} {
		tr.consume(batchOf(t, linesOf(schedulerException, pod(name), "stderr")...), body, t0)
		as, _ := tr.tick(t0.Add(DefaultIdleFlush))
		all = append(all, as...)
	}
	if len(all) != 1 || all[0].Source.Pod != "a" || all[0].Kind != "new" {
		t.Fatalf("alerts %v, want pod a's announced early", slugs(all))
	}
	if _, open := tr.stats(); open != 1 {
		t.Errorf("%d open incidents, want 1", open)
	}
	if tr.groupEarly != 1 {
		t.Errorf("counted %d incidents announced early, want 1", tr.groupEarly)
	}
}

// A source quiet for long with nothing pending is forgotten.
func TestTrackerForgetsQuietSources(t *testing.T) {
	tr := newTestTracker(t, nil)
	tr.consume(batchOf(t, line{text: healthyLine, res: pod("a")}), body, t0)
	tr.tick(t0.Add(DefaultIdleFlush))
	if n, _ := tr.stats(); n != 1 {
		t.Fatalf("%d sources, want 1", n)
	}
	tr.tick(t0.Add(quietSourceTTL))
	if n, _ := tr.stats(); n != 0 {
		t.Errorf("%d sources after %v of quiet, want 0", n, quietSourceTTL)
	}
}

// summary is what the parity tests compare of an incident.
type summary struct {
	Slug         string
	Headline     string
	Count        int
	Ranks        []string
	Consequences []string
}

func summarize(as []sinks.Alert) []summary {
	// The last alert of each incident carries its final count.
	last := map[string]sinks.Alert{}
	var order []string
	for _, a := range as {
		if _, ok := last[a.Fingerprint]; !ok {
			order = append(order, a.Fingerprint)
		}
		if a.Count >= last[a.Fingerprint].Count {
			last[a.Fingerprint] = a
		}
	}
	var out []summary
	for _, fp := range order {
		a := last[fp]
		s := summary{Slug: a.Record.Slug, Headline: a.Headline, Count: a.Count, Ranks: a.Ranks}
		for _, c := range a.Consequences {
			s.Consequences = append(s.Consequences, fmt.Sprintf("%s x%d", c.Slug, c.Count))
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b summary) int { return strings.Compare(a.Slug+a.Headline, b.Slug+b.Headline) })
	return out
}

// parityFiles are the crash logs of the repository that scan's goldens
// and the example use.
func parityFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../../testdata/logs/*.log")
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	return append(files, "../../examples/sglang-crash.log")
}

// scanIncidents is what logmatch scan reports for one file.
func scanIncidents(t testing.TB, path string) []sinks.Alert {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := scan.New(testMatcher(t), scan.Options{Now: func() time.Time { return t0 }}).Scan(context.Background(), []scan.Input{{Name: path, R: f}})
	if err != nil {
		t.Fatalf("scan %s: %v", path, err)
	}
	return res.Alerts
}

// trackerIncidents feeds the file's lines to a new tracker one record
// each, in batches of 7 (a batch boundary inside most tracebacks), and
// returns every alert it emitted up to its final flush.
func trackerIncidents(t *testing.T, path string) []sinks.Alert {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr := newTestTracker(t, nil)
	var ls []line
	for _, l := range linesOf(string(text), nil, "") {
		l.attrs = map[string]any{attrFilePath: path}
		ls = append(ls, l)
	}
	var got []sinks.Alert
	for i := 0; i < len(ls); i += 7 {
		as, _ := tr.consume(batchOf(t, ls[i:min(i+7, len(ls))]...), body, t0)
		got = append(got, as...)
	}
	as, _ := tr.flush(t0)
	return append(got, as...)
}

// The tracker gives the incidents scan gives, file by file, over the crash
// logs of the repository.
func TestTrackerParityWithScan(t *testing.T) {
	for _, path := range parityFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want := summarize(scanIncidents(t, path))
			if (len(want) == 0) != (filepath.Base(path) == "clean.log") {
				t.Fatalf("scan found %d incidents; the fixture is not what the test expects", len(want))
			}
			if diff := cmp.Diff(want, summarize(trackerIncidents(t, path))); diff != "" {
				t.Errorf("incidents (-scan +processor):\n%s", diff)
			}
		})
	}
}

// The same over the whole corpus of real log excerpts (testdata/corpus)
// and the other engines' corpus (testdata/engines): the Collector's half of
// the differential test between run, scan, test and the Collector.
func TestTrackerParityCorpus(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../testdata/corpus", "../../testdata/engines"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.log"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("%s: %v %v", dir, fs, err)
		}
		files = append(files, fs...)
	}
	same, incidents := 0, 0
	for _, path := range files {
		want := summarize(scanIncidents(t, path))
		incidents += len(want)
		if diff := cmp.Diff(want, summarize(trackerIncidents(t, path))); diff != "" {
			t.Errorf("%s: incidents (-scan +processor):\n%s", path, diff)
			continue
		}
		same++
	}
	t.Logf("%d of %d corpus files give the same incidents (%d in all) through the processor as through scan", same, len(files), incidents)
}

// The processor's grouping defaults are run's.
func TestDefaultsAsRun(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{
		{"settle_time", DefaultSettleTime, config.DefaultSettleTime},
		{"group_window", DefaultGroupWindow, config.DefaultGroupWindow},
		{"repeat_interval", DefaultRepeatInterval, config.DefaultRepeatInterval},
		{"correlation_window", DefaultCorrelationWindow, config.DefaultCorrelation},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, run's is %v", c.name, c.got, c.want)
		}
	}
	if DefaultMaxOpenIncidents != config.DefaultMaxIncidents {
		t.Errorf("max_open_incidents: %d, run's is %d", DefaultMaxOpenIncidents, config.DefaultMaxIncidents)
	}
}

// incidentsOf decodes the incident records a sink received.
func incidentsOf(t testing.TB, batches []plog.Logs) []sinks.Alert {
	t.Helper()
	var out []sinks.Alert
	for _, ld := range batches {
		rls := ld.ResourceLogs()
		for i := 0; i < rls.Len(); i++ {
			sls := rls.At(i).ScopeLogs()
			for j := 0; j < sls.Len(); j++ {
				lrs := sls.At(j).LogRecords()
				for k := 0; k < lrs.Len(); k++ {
					lr := lrs.At(k)
					if lr.EventName() != IncidentEventName {
						continue
					}
					var a sinks.Alert
					if err := json.Unmarshal([]byte(lr.Body().Str()), &a); err != nil {
						t.Fatalf("incident body: %v\n%s", err, lr.Body().Str())
					}
					if a.Schema != sinks.Schema {
						t.Errorf("schema %q", a.Schema)
					}
					fp, _ := lr.Attributes().Get(AttrFingerprint)
					if fp.Str() != a.Fingerprint {
						t.Errorf("attribute fingerprint %q, body %q", fp.Str(), a.Fingerprint)
					}
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// Shutdown completes what is pending and sends the incidents still
// settling: nothing read is lost at the end of the pipeline.
func TestShutdownSendsPendingIncidents(t *testing.T) {
	sink := new(consumertest.LogsSink)
	p := startProcessor(t, defaultConfig(func(c *Config) { c.Forward = ForwardNone }), sink)
	ld := batchOf(t, linesOf(schedulerException, pod("sglang-0"), "stderr")...)
	if _, err := p.processLogs(context.Background(), ld); err == nil {
		t.Fatalf("processLogs sent %d records on with forward: none and nothing due", ld.LogRecordCount())
	}
	if err := p.shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	as := incidentsOf(t, sink.AllLogs())
	if len(as) != 1 || as[0].Record.Slug != "ascend-transfer-engine-initialization-failed" || as[0].Source.Pod != "sglang-0" {
		t.Fatalf("incidents %v, want the ascend one of sglang-0", slugs(as))
	}
	got := sink.AllLogs()[0].ResourceLogs().At(0)
	if v, _ := got.Resource().Attributes().Get(attrPodName); v.Str() != "sglang-0" {
		t.Errorf("incident resource %v", got.Resource().Attributes().AsRaw())
	}
	lr := got.ScopeLogs().At(0).LogRecords().At(0)
	if lr.SeverityText() != "FATAL" || got.ScopeLogs().At(0).Scope().Name() != ScopeName {
		t.Errorf("severity %q scope %q", lr.SeverityText(), got.ScopeLogs().At(0).Scope().Name())
	}
}

// The ticker emits a settled incident with no batch after it.
func TestTickerEmitsWithoutNewBatches(t *testing.T) {
	sink := new(consumertest.LogsSink)
	p := startProcessor(t, defaultConfig(func(c *Config) {
		c.Forward = ForwardNone
		c.SettleTime = 20 * time.Millisecond
		c.IdleFlush = 20 * time.Millisecond
	}), sink)
	if _, err := p.processLogs(context.Background(), batchOf(t, linesOf(schedulerException, pod("sglang-0"), "stderr")...)); err == nil {
		t.Fatal("processLogs sent records on before the incident settled")
	}
	// Waits for the ticker, however slow the machine; the test's own
	// deadline bounds it.
	for sink.LogRecordCount() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	as := incidentsOf(t, sink.AllLogs())
	if len(as) != 1 || as[0].Kind != "new" || as[0].Count != 1 {
		t.Fatalf("incidents %v", slugs(as))
	}
}

// Concurrent ConsumeLogs calls and the ticker share the state: under -race
// this is the test of the mutex, and every pod's crash is one incident.
func TestConcurrentConsumers(t *testing.T) {
	sink := new(consumertest.LogsSink)
	p := startProcessor(t, defaultConfig(func(c *Config) {
		c.Forward = ForwardNone
		c.IdleFlush = 5 * time.Millisecond
	}), sink)
	const pods = 8
	var wg sync.WaitGroup
	for i := range pods {
		wg.Go(func() {
			for _, l := range linesOf(schedulerException, pod(fmt.Sprint("sglang-", i)), "stderr") {
				_, _ = p.processLogs(context.Background(), batchOf(t, l))
			}
		})
	}
	wg.Wait()
	if err := p.shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, a := range incidentsOf(t, sink.AllLogs()) {
		if a.Kind == "new" {
			got[a.Source.Pod]++
		}
	}
	if len(got) != pods {
		t.Fatalf("incidents of %d pods, want %d: %v", len(got), pods, got)
	}
	for p, n := range got {
		if n != 1 {
			t.Errorf("pod %s: %d new incidents, want 1", p, n)
		}
	}
}

// A next consumer that refuses the incidents costs them, counted, and
// nothing else.
func TestEmitRefused(t *testing.T) {
	p := startProcessor(t, defaultConfig(func(c *Config) { c.Forward = ForwardNone }), consumertest.NewErr(fmt.Errorf("queue full")))
	_, _ = p.processLogs(context.Background(), batchOf(t, linesOf(schedulerException, pod("sglang-0"), "stderr")...))
	if err := p.shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if n := p.dropped.Load(); n != 1 {
		t.Errorf("%d incident records counted as dropped, want 1", n)
	}
}

// FuzzIncidents feeds a text to the tracker twice, as one multi-line
// record on one pod and as one record per line on another: both are the
// same lines of one stream, so they must give the same incidents, each of
// which renders as the alert contract and names a record of the catalog.
func FuzzIncidents(f *testing.F) {
	for _, s := range []string{
		schedulerException,
		seedLine + "\n" + healthyLine,
		"Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'a'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nRuntimeError: boom",
		"[2026-05-28 00:11:09 DP0 TP3] Scheduler hit an exception: Traceback (most recent call last):\r\nRuntimeError: CUDA error: an illegal memory access was encountered\r\n",
		"",
		"\n\n",
	} {
		f.Add(s)
	}
	m := testMatcher(f)
	known := map[string]bool{"": true}
	for _, r := range m.Records() {
		known[r.ID] = true
	}
	f.Fuzz(func(t *testing.T, text string) {
		tr := newTestTracker(t, nil)
		tr.consume(batchOf(t, line{text: text, res: pod("whole"), iostream: "stderr"}), body, t0)
		tr.consume(batchOf(t, linesOf(text, pod("split"), "stderr")...), body, t0)
		as, _ := tr.flush(t0)
		byPod := map[string][]sinks.Alert{}
		for i := range as {
			a := &as[i]
			if !known[a.Record.ID] {
				t.Fatalf("incident names record %q, not in the catalog", a.Record.ID)
			}
			ld := plog.NewLogs()
			if err := appendIncident(ld, a, t0); err != nil {
				t.Fatalf("appendIncident: %v", err)
			}
			byPod[a.Source.Pod] = append(byPod[a.Source.Pod], *a)
		}
		if diff := cmp.Diff(summarize(byPod["whole"]), summarize(byPod["split"])); diff != "" {
			t.Fatalf("one record and one record per line differ (-whole +split):\n%s", diff)
		}
	})
}

// Issue 32: a consequence printed before its cause is one incident in the
// Collector as in run and scan. A decode server's health check fails 23
// seconds before the timeout error that stalled it (corpus excerpt 504):
// the tracker, fed each line at its log time and ticked every second,
// holds the health check for its cause (consequence_wait), which leads.
func TestTrackerWaitsForTheCauseOfAConsequence(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("../../testdata/corpus", "504-pd-bootstrap-connect-timeout-after-health-check.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		wait time.Duration
		want []string
	}{
		{DefaultConsequenceWait, []string{"new disagg-bootstrap-unreachable"}},
		{0, []string{"new health-check-failed-detokenizer", "new disagg-bootstrap-unreachable"}},
	} {
		tr := newTestTracker(t, func(c *Config) { c.ConsequenceWait = tt.wait })
		var got []sinks.Alert
		clock := t0
		var first time.Time
		tickTo := func(to time.Time) {
			for !clock.Add(time.Second).After(to) {
				clock = clock.Add(time.Second)
				as, _ := tr.tick(clock)
				got = append(got, as...)
			}
		}
		for _, l := range linesOf(string(data), pod("decode-0"), "stdout") {
			if lt, err := time.Parse("2006-01-02 15:04:05", l.text[1:20]); err == nil {
				if first.IsZero() {
					first = lt
				}
				tickTo(t0.Add(lt.Sub(first)))
			}
			as, _ := tr.consume(batchOf(t, l), body, clock)
			got = append(got, as...)
		}
		tickTo(clock.Add(time.Minute))
		as, _ := tr.flush(clock)
		got = append(got, as...)
		var news []sinks.Alert
		for _, a := range got {
			if a.Kind == "new" {
				news = append(news, a)
			}
		}
		if diff := cmp.Diff(tt.want, slugs(news)); diff != "" {
			t.Errorf("consequence_wait %v: incidents (-want +got):\n%s", tt.wait, diff)
		}
	}
}

// The wait ends with whichever comes first, in the Collector as in run: a
// health check followed by more than a few lines of healthy answers, with
// no cause among them, is announced once its source was read past it, not
// when the wait's time is over.
func TestTrackerWaitEndsWhenTheSourceIsReadPastIt(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("../../testdata/corpus", "504-pd-bootstrap-connect-timeout-after-health-check.log"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(strings.SplitAfter(string(data), "\n")[1])
	for i := range 80 {
		fmt.Fprintf(&b, "[2025-08-29 11:56:31] INFO:     10.0.3.17:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", 51000+i)
	}
	tr := newTestTracker(t, func(c *Config) { c.ConsequenceWait = DefaultConsequenceWait })
	clock := t0
	var at time.Time
	for _, l := range linesOf(b.String(), pod("decode-0"), "stdout") {
		if l.text[1:20] == "2025-08-29 11:56:31" && clock.Equal(t0) {
			clock = t0.Add(3 * time.Second)
		}
		if as, _ := tr.consume(batchOf(t, l), body, clock); len(as) > 0 && at.IsZero() {
			at = clock
		}
	}
	for at.IsZero() && clock.Before(t0.Add(time.Minute)) {
		clock = clock.Add(time.Second)
		if as, _ := tr.tick(clock); len(as) > 0 {
			if as[0].Record.Slug != "health-check-failed-detokenizer" {
				t.Fatalf("announced %s, want the health check", as[0].Record.Slug)
			}
			at = clock
		}
	}
	if at.IsZero() || !at.Before(t0.Add(DefaultConsequenceWait)) {
		t.Errorf("announced at %v, want before the wait's end (%v): its source was read past it", at.Sub(t0), DefaultConsequenceWait)
	}
}
