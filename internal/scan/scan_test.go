package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// fixtures are written by real Python (testdata/logs/gen.py, run by
// `go generate ./cmd/logmatch`) and by hand (native blocks, wrappers).
const fixtures = "../../testdata/logs"

var fixedNow = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

func defaultMatcher(t testing.TB) *matcher.Matcher {
	t.Helper()
	recs, problems := patterns.Default()
	for _, p := range problems {
		if p.Level == patterns.LevelError {
			t.Fatalf("default catalog: %v", p)
		}
	}
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		t.Fatalf("default catalog does not compile: %v", probs)
	}
	return m
}

func scanFile(t *testing.T, m *matcher.Matcher, path string) Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := New(m, Options{Entry: entry.Options{}, Now: func() time.Time { return fixedNow }})
	res, err := s.Scan(context.Background(), []Input{{Name: filepath.Base(path), R: f}})
	if err != nil {
		t.Fatalf("scan %s: %v", path, err)
	}
	return res
}

// TestGolden scans every fixture and compares the JSON alerts with
// testdata/golden/<name>.json (go test ./internal/scan -update rewrites).
func TestGolden(t *testing.T) {
	m := defaultMatcher(t)
	logs, err := filepath.Glob(filepath.Join(fixtures, "*.log"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no fixtures under %s: %v", fixtures, err)
	}
	for _, path := range logs {
		name := strings.TrimSuffix(filepath.Base(path), ".log")
		t.Run(name, func(t *testing.T) {
			res := scanFile(t, m, path)
			var got bytes.Buffer
			if err := WriteJSON(&got, res.Alerts); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/scan -update)", err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("alerts differ from %s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

func alertsFor(as []sinks.Alert, id string) []sinks.Alert {
	var out []sinks.Alert
	for _, a := range as {
		if a.Record.ID == id {
			out = append(out, a)
		}
	}
	return out
}

// The acceptance cases of the foundation, asserted directly rather than
// only through goldens.
func TestSeedScenario(t *testing.T) {
	res := scanFile(t, defaultMatcher(t), filepath.Join(fixtures, "seed-ascend.log"))
	got := alertsFor(res.Alerts, "a4a00f79b8728e30")
	if len(got) != 1 {
		t.Fatalf("incidents for the seed record = %d, want 1 (all: %v)", len(got), slugs(res.Alerts))
	}
	a := got[0]
	if a.Count != 2 {
		t.Errorf("count = %d, want 2 (the logger.error line and the traceback)", a.Count)
	}
	if len(a.Record.Solutions) != 4 {
		t.Errorf("solutions = %d, want the record's 4", len(a.Record.Solutions))
	}
	if a.Record.Severity != "critical" || a.Schema != sinks.Schema {
		t.Errorf("severity %q schema %q", a.Record.Severity, a.Schema)
	}
	if !slicesEqual(a.Ranks, []string{"TP0"}) {
		t.Errorf("ranks = %v, want [TP0]", a.Ranks)
	}
	want := time.Date(2026, 5, 28, 0, 11, 0, 0, time.UTC)
	if !a.Time.Equal(want) {
		t.Errorf("time = %v, want the first line's %v", a.Time, want)
	}
	// The logger.error line came first; the incident's exception is the
	// traceback's, from the same burst.
	if x := a.Match.Exception; x == nil || x.Type != "RuntimeError" {
		t.Errorf("exception %+v, want the traceback's RuntimeError", x)
	}
}

func TestUnknownChainedTraceback(t *testing.T) {
	res := scanFile(t, defaultMatcher(t), filepath.Join(fixtures, "unknown-chained.log"))
	var un []sinks.Alert
	for _, a := range res.Alerts {
		if a.Record.Slug == "unclassified" {
			un = append(un, a)
		}
	}
	if len(un) != 1 {
		t.Fatalf("unclassified incidents = %d, want 1 (all: %v)", len(un), slugs(res.Alerts))
	}
	x := un[0].Match.Exception
	if x == nil || x.Type != "ValueError" || !strings.Contains(x.RootCause, "KeyError") {
		t.Fatalf("exception = %+v, want outermost ValueError with root cause KeyError", x)
	}
	if un[0].Record.ID != "" || un[0].Record.ErrorClass != "ValueError" {
		t.Fatalf("record = %+v", un[0].Record)
	}
}

func TestCleanLogHasNoIncidents(t *testing.T) {
	res := scanFile(t, defaultMatcher(t), filepath.Join(fixtures, "clean.log"))
	if len(res.Alerts) != 0 {
		t.Fatalf("clean log produced %v", slugs(res.Alerts))
	}
	if res.Stats.Lines != 100 || res.Stats.Entries == 0 {
		t.Fatalf("stats = %+v", res.Stats)
	}
}

func TestEightRanksAreOneIncident(t *testing.T) {
	for _, name := range []string{"ranks8.log", "ranks8-lines.log"} {
		t.Run(name, func(t *testing.T) {
			res := scanFile(t, defaultMatcher(t), filepath.Join(fixtures, name))
			var oom []sinks.Alert
			for _, a := range res.Alerts {
				if a.Match.Exception != nil && strings.HasSuffix(a.Match.Exception.Type, "OutOfMemoryError") ||
					strings.Contains(a.Match.Text, "CUDA out of memory") {
					oom = append(oom, a)
				}
			}
			if len(oom) != 1 {
				t.Fatalf("CUDA OOM incidents = %d, want 1 (all: %v)", len(oom), slugs(res.Alerts))
			}
			if name == "ranks8.log" && (oom[0].Count != 8 || len(oom[0].Ranks) != 8) {
				t.Fatalf("count %d ranks %v, want 8 and DP0 TP0..TP7", oom[0].Count, oom[0].Ranks)
			}
		})
	}
}

func TestJSONShape(t *testing.T) {
	res := scanFile(t, defaultMatcher(t), filepath.Join(fixtures, "seed-ascend.log"))
	var buf bytes.Buffer
	if err := WriteJSON(&buf, res.Alerts); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		for _, k := range []string{"schema", "fingerprint", "time", "count", "record", "match", "source", "entry"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d: key %q missing", i+1, k)
			}
		}
		rec := m["record"].(map[string]any)
		for _, k := range []string{"id", "slug", "repo", "severity", "errorClass", "errorMessage", "solutions", "preventionTips", "documentation", "handlingStrategy", "githubUrl", "filePath", "lineNumber", "tags"} {
			if _, ok := rec[k]; !ok {
				t.Errorf("line %d: record.%s missing", i+1, k)
			}
		}
	}
}

func TestTextReport(t *testing.T) {
	res := scanFile(t, defaultMatcher(t), filepath.Join(fixtures, "seed-ascend.log"))
	var buf bytes.Buffer
	if err := WriteText(&buf, res); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"CRITICAL  ascend-transfer-engine-initialization-failed  x2  ranks TP0",
		"    1. Verify the metadata store (etcd/redis) at store_url is reachable from every PD node",
		"    4. Ensure no stale session",
		"  prevention:",
		"https://github.com/sgl-project/sglang/blob/0132848349585cfe6aae51c4941cbae872505f8a/python/sglang/srt/disaggregation/ascend/transfer_engine.py#L66-L102",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// A traceback cut before its exception line says so in the text report,
// never an empty exception field.
func TestTextReportCutTraceback(t *testing.T) {
	const cut = "Traceback (most recent call last):\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/launch_server.py\", line 7, in <module>\n" +
		"    from sglang.srt.entrypoints.http_server import launch_server\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/entrypoints/http_server.py\", line 44, in <module>\n" +
		"    from sglang.srt.entrypoints.engine import _launch_subprocesses\n"
	path := filepath.Join(t.TempDir(), "cut.log")
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	res := scanFile(t, defaultMatcher(t), path)
	var buf bytes.Buffer
	if err := WriteText(&buf, res); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "exception: none printed") || strings.Contains(out, "exception: \n") {
		t.Errorf("the cut traceback's exception field is not explained:\n%s", out)
	}
}

// Hostile input never crashes the scan and stays bounded.
func TestHostileInput(t *testing.T) {
	m := defaultMatcher(t)
	huge := bytes.Repeat([]byte("A"), 20<<20)
	var tb strings.Builder
	tb.WriteString("Traceback (most recent call last):\n")
	for i := 0; i < 100000; i++ {
		tb.WriteString("  File \"/x/y.py\", line 1, in f\n    f()\n")
	}
	tb.WriteString("RecursionError: maximum recursion depth exceeded\n")
	binary := make([]byte, 1<<20)
	for i := range binary {
		binary[i] = byte(i * 7)
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"20MB line", append(huge, '\n')},
		{"invalid utf-8", []byte("[2026-05-28 00:11:09 TP0] \xff\xfe\xfd CUDA out of memory \xc3\x28\n")},
		{"binary", binary},
		{"100k-frame traceback", []byte(tb.String())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(m, Options{Now: func() time.Time { return fixedNow }})
			res, err := s.Scan(context.Background(), []Input{{Name: "hostile", R: bytes.NewReader(tt.in)}})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range res.Alerts {
				if len(a.Entry) > 1<<20 {
					t.Errorf("alert entry is %d bytes: not bounded", len(a.Entry))
				}
			}
			if tt.name == "100k-frame traceback" {
				if len(res.Alerts) != 1 || res.Alerts[0].Match.Exception == nil || res.Alerts[0].Match.Exception.Type != "RecursionError" {
					t.Fatalf("want one RecursionError incident, got %v", slugs(res.Alerts))
				}
			}
		})
	}
}

func slugs(as []sinks.Alert) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Record.Slug)
	}
	return out
}

func slicesEqual(a, b []string) bool { return cmp.Equal(a, b) }

// Two different failures inside the scheduler's wrapper in one scan are two
// incidents, each named by its own exception, and the wrapper is their
// context: the wrapper does not decide the grouping.
func TestDifferentFailuresInOneWrapperAreTwoIncidents(t *testing.T) {
	const head = "[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 3120, in run_scheduler_process\n" +
		"    scheduler.event_loop_overlap()\n"
	log := head +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/io_struct.py\", line 80, in lookup\n    return self.table[key]\n" +
		"KeyError: 'rid-17'\n\nThe above exception was the direct cause of the following exception:\n\n" +
		"Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/io_struct.py\", line 82, in lookup\n" +
		"    raise ValueError(f\"unknown request {key}\") from e\nValueError: unknown request rid-17\n\n" +
		head +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1510, in get_next_batch\n    ratio = done / total\n" +
		"ZeroDivisionError: division by zero\n\n"
	s := New(defaultMatcher(t), Options{Now: func() time.Time { return fixedNow }})
	res, err := s.Scan(context.Background(), []Input{{Name: "two.log", R: strings.NewReader(log)}})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ slug, exc, root, context string }
	var gots []got
	for _, a := range res.Alerts {
		g := got{slug: a.Record.Slug}
		if x := a.Match.Exception; x != nil {
			g.exc, g.root = x.Type, x.RootCause
		}
		if len(a.Context) > 0 {
			g.context = a.Context[0].Slug
		}
		gots = append(gots, g)
	}
	want := []got{
		{"unclassified", "ValueError", "KeyError: 'rid-17'", "scheduler-hit-an-exception"},
		{"unclassified", "ZeroDivisionError", "", "scheduler-hit-an-exception"},
	}
	if diff := cmp.Diff(want, gots, cmp.AllowUnexported(got{})); diff != "" {
		t.Fatalf("incidents (-want +got):\n%s", diff)
	}
	if res.Alerts[0].Record.Severity != "critical" {
		t.Fatalf("a dead scheduler's failure has severity %s", res.Alerts[0].Record.Severity)
	}
}

// An incident closed early by the grouper's bound and seen again later is
// one incident in the report, with every occurrence counted.
func TestMergeIncidents(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	got := mergeIncidents([]sinks.Alert{
		{Fingerprint: "a", Count: 2, Time: t0.Add(time.Second), LastTime: t0.Add(2 * time.Second), Ranks: []string{"TP0"}},
		{Fingerprint: "b", Count: 1, Time: t0, LastTime: t0},
		{Fingerprint: "a", Count: 3, Time: t0, LastTime: t0.Add(5 * time.Second), Ranks: []string{"TP0", "TP1"}},
	})
	if len(got) != 2 || got[0].Fingerprint != "a" || got[1].Fingerprint != "b" {
		t.Fatalf("merged %+v, want a then b", got)
	}
	a := got[0]
	if a.Count != 5 || !a.Time.Equal(t0) || !a.LastTime.Equal(t0.Add(5*time.Second)) || len(a.Ranks) != 2 {
		t.Errorf("merged a = count %d, time %s..%s, ranks %v", a.Count, a.Time, a.LastTime, a.Ranks)
	}
}

// OnIncidents follows the incidents as the scan finds them: called only
// when the number changes, ending at the number the scan reports.
func TestOnIncidents(t *testing.T) {
	m := defaultMatcher(t)
	var inputs []Input
	for _, name := range []string{"seed-ascend.log", "multiline-oom.log", "uvicorn-asgi.log"} {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, Input{Name: name, R: bytes.NewReader(data)})
	}
	var calls []int
	s := New(m, Options{Now: func() time.Time { return fixedNow }, OnIncidents: func(n int) { calls = append(calls, n) }})
	res, err := s.Scan(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Alerts) < 3 || len(calls) == 0 {
		t.Fatalf("%d incidents, %d calls %v: want several of each", len(res.Alerts), len(calls), calls)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i] == calls[i-1] {
			t.Errorf("called twice in a row with %d: %v", calls[i], calls)
		}
	}
	if last := calls[len(calls)-1]; last < len(res.Alerts) {
		t.Errorf("last count %d, but the scan found %d incidents: %v", last, len(res.Alerts), calls)
	}
}

// An incident the grouper closes early to stay in its bound still counts.
func TestIncidentCountKeepsClosedIncidents(t *testing.T) {
	g := incident.New(incident.Options{Window: incident.Forever, MaxGroups: 2})
	var got []int
	c := &incidentCount{report: func(n int) { got = append(got, n) }, closed: map[string]struct{}{}}
	var evicted []sinks.Alert
	for _, fp := range []string{"a", "b", "c"} {
		o := incident.Occurrence{Key: fp, Scope: "node:", Time: fixedNow, Alert: sinks.Alert{Fingerprint: fp, Time: fixedNow}}
		evicted = append(evicted, g.Observe(o, fixedNow)...)
		c.update(g, evicted)
	}
	if len(evicted) == 0 {
		t.Fatal("the grouper closed nothing early: the test does not reach the closed count")
	}
	// a, b, then c closes a: 2 open and 1 closed.
	if diff := cmp.Diff([]int{1, 2, 3}, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}
