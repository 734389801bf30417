package logmatchprocessor

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/logmatch/logmatch/patterns"
)

func TestMain(m *testing.M) {
	// regexp2 runs one package-wide clock goroutine for match timeouts; it
	// stops by itself a second after the last match, so it is not ours.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}

const (
	seedID      = "a4a00f79b8728e30"
	seedLine    = "[2026-11-29 17:04:24 TP0] Ascend Transfer Engine initialization failed."
	healthyLine = "[2026-11-29 17:04:26 TP0] Decode batch, #running-req: 12, #token: 4032, token usage: 0.02, gen throughput (token/s): 812.44, #queue-req: 0"
	stalledLine = "[2026-11-29 17:04:27 TP0] Decode batch stalled for 30 s"
)

// seedAttrs are the attributes a hit on the seed record adds; the
// exception pair only when the body held its traceback.
func seedAttrs(t *testing.T, withException bool) map[string]any {
	t.Helper()
	recs, probs := patterns.LoadFile("testdata/ascend-transfer-engine.jsonl")
	if len(probs) > 0 || len(recs) != 1 {
		t.Fatalf("seed catalog: %d records, problems %v", len(recs), probs)
	}
	r := recs[0]
	tips := make([]any, len(r.PreventionTips))
	for i, s := range r.PreventionTips {
		tips[i] = s
	}
	a := map[string]any{
		AttrRecordID:         seedID,
		AttrSlug:             "ascend-transfer-engine-initialization-failed",
		AttrSeverity:         "critical",
		AttrSolutions:        seedSolutions,
		AttrPreventionTips:   tips,
		AttrDocumentation:    r.Documentation,
		AttrGithubURL:        r.GithubURL,
		AttrHandlingStrategy: "retry",
		AttrRole:             "cause",
		AttrHeadline:         "Ascend Transfer Engine initialization failed.",
	}
	if withException {
		a[AttrExceptionType] = "RuntimeError"
		a[AttrExceptionMessage] = "Ascend Transfer Engine initialization failed."
		a[AttrHeadline] = "RuntimeError: Ascend Transfer Engine initialization failed."
		a[AttrContext] = []any{"scheduler-hit-an-exception"}
	}
	return a
}

func with(m map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(m)+len(kv)/2)
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestProcessLogs(t *testing.T) {
	tbAttrs := seedAttrs(t, true)
	lineAttrs := seedAttrs(t, false)
	warnAttrs := map[string]any{
		AttrRecordID:         "0f3c5e2a9b7d4c11",
		AttrSlug:             "decode-batch-stalled",
		AttrSeverity:         "warning",
		AttrSolutions:        []any{"Check the GPU is not throttling"},
		AttrHandlingStrategy: "retry",
		AttrRole:             "cause",
		AttrHeadline:         "Decode batch stalled for 30 s",
	}
	unknownTB := "Traceback (most recent call last):\n  File \"/srv/app.py\", line 3, in handle\n    1 / 0\nZeroDivisionError: division by zero"
	unknownAttrs := map[string]any{
		AttrSlug:             UnclassifiedSlug,
		AttrSeverity:         "error",
		AttrRole:             "cause",
		AttrHeadline:         "ZeroDivisionError: division by zero",
		AttrExceptionType:    "ZeroDivisionError",
		AttrExceptionMessage: "division by zero",
	}
	tests := []struct {
		name string
		cfg  func(*Config)
		in   []input
		want []record
	}{
		{
			name: "scheduler traceback is enriched with the seed record",
			in:   []input{{Body: schedulerException}},
			want: []record{{Body: schedulerException, Attrs: tbAttrs}},
		},
		{
			name: "single sglang line matches without exception attributes",
			in:   []input{{Body: seedLine}},
			want: []record{{Body: seedLine, Attrs: lineAttrs}},
		},
		{
			name: "a traceback no record names is enriched as unclassified",
			in:   []input{{Body: unknownTB}},
			want: []record{{Body: unknownTB, Attrs: unknownAttrs}},
		},
		{
			name: "non-matching record passes unchanged",
			in:   []input{{Body: healthyLine, Attrs: map[string]any{"log.file.name": "0.log"}}},
			want: []record{{Body: healthyLine, Attrs: map[string]any{"log.file.name": "0.log"}}},
		},
		{
			name: "existing attributes are kept beside the enrichment",
			in:   []input{{Body: seedLine, Attrs: map[string]any{"log.iostream": "stderr"}}},
			want: []record{{Body: seedLine, Attrs: with(lineAttrs, "log.iostream", "stderr")}},
		},
		{
			name: "forward hits drops what matches nothing",
			cfg:  func(c *Config) { c.Forward = ForwardHits },
			in:   []input{{Body: healthyLine}, {Body: schedulerException}, {Body: healthyLine}},
			want: []record{{Body: schedulerException, Attrs: tbAttrs}},
		},
		{
			name: "forward all keeps order and misses",
			in:   []input{{Body: healthyLine}, {Body: schedulerException}},
			want: []record{{Body: healthyLine}, {Body: schedulerException, Attrs: tbAttrs}},
		},
		{
			name: "set severity maps critical to FATAL",
			cfg:  func(c *Config) { c.SetSeverity = true },
			in:   []input{{Body: schedulerException}, {Body: healthyLine}},
			want: []record{{Body: schedulerException, Severity: "FATAL", Attrs: tbAttrs}, {Body: healthyLine}},
		},
		{
			name: "match an attribute instead of the body",
			cfg:  func(c *Config) { c.Match = "log" },
			in: []input{
				{Body: "", Attrs: map[string]any{"log": schedulerException}},
				{Body: seedLine},
			},
			want: []record{
				{Attrs: with(tbAttrs, "log", schedulerException)},
				{Body: seedLine},
			},
		},
		{
			name: "user catalog over the default",
			cfg:  func(c *Config) { c.Catalogs = []string{"testdata/warning.jsonl"} },
			in:   []input{{Body: stalledLine}, {Body: seedLine}},
			want: []record{{Body: stalledLine, Attrs: warnAttrs}, {Body: seedLine, Attrs: lineAttrs}},
		},
		{
			name: "no default catalog leaves the seed record out",
			cfg: func(c *Config) {
				c.Catalogs = []string{"testdata/warning.jsonl"}
				c.NoDefaultCatalog = true
			},
			in:   []input{{Body: stalledLine}, {Body: seedLine}},
			want: []record{{Body: stalledLine, Attrs: warnAttrs}, {Body: seedLine}},
		},
		{
			name: "min severity leaves lower records out of matching",
			cfg: func(c *Config) {
				c.Catalogs = []string{"testdata/warning.jsonl"}
				c.MinSeverity = "error"
			},
			in:   []input{{Body: stalledLine}, {Body: seedLine}},
			want: []record{{Body: stalledLine}, {Body: seedLine, Attrs: lineAttrs}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each record diagnosed alone; the incidents have tests of their own.
			cfg := defaultConfig(tt.cfg)
			cfg.EmitIncidents = false
			got := records(run(t, cfg, logsOf(t, tt.in...)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func TestForwardHitsWithNoHitSendsNothing(t *testing.T) {
	cfg := defaultConfig(func(c *Config) { c.Forward = ForwardHits })
	got := run(t, cfg, logsOf(t, input{Body: healthyLine}, input{Body: healthyLine}))
	if len(got) != 0 {
		t.Errorf("next consumer got %d batches, want none: %v", len(got), records(got))
	}
}
