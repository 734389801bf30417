package telemetry

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/logmatch/logmatch/internal/telemetry/otlptest"
)

// record exercises every method once or more.
func record(m *Metrics) {
	m.LinesRead("/var/log/sglang.log", 10, 1000)
	m.LinesRead("/var/log/sglang.log", 5, 200)
	m.ReadLag("/var/log/sglang.log", 1500*time.Millisecond)
	m.EntriesAssembled("/var/log/sglang.log", 7)
	m.EntryCut("/var/log/sglang.log", 2, 4096)
	m.Hit("rec-1", "critical")
	m.Hit("rec-1", "critical")
	m.Hit("rec-2", "warning")
	m.PatternTimeout("rec-3")
	m.Incident("rec-1", "critical", "new")
	m.Incident("rec-1", "critical", "summary")
	m.Incident("", "error", "new")
	m.AlertSent("slack")
	m.AlertSent("slack")
	m.Retried("slack", time.Second)
	m.Failed("slack", true)
	m.Failed("webhook", false)
	m.QueueDepth("slack", 4)
	m.AlertDropped("webhook", "queue_full", 3)
	m.GateTrip("rec-1", "failing")
	m.GateRestart()
	m.GateDropped("evicted", 2)
	m.SetGateSource(func() []GateSample {
		return []GateSample{{Namespace: "llm", Pod: "sglang-0", Container: "sglang", State: 1, Recent: 2}}
	})
	m.BuildInfo("v1.2.3", "go1.26.0")
	m.CatalogRecords(64)
	m.ConfigReload(true, time.Unix(1700000000, 0))
	m.ConfigReload(false, time.Unix(1700000100, 0))
	m.SourceFiles("matched", 2)
	m.SourceFiles("unreadable", 1)
	m.GlobUnmatched("/var/log/none/*.log", true)
	m.FilesEvicted(2)
	m.HTTPConnEvicted()
	m.IncidentsEvicted("forgotten", 5)
	m.IncidentsEvicted("announced", 1)
	m.IncidentsDropped("routine", 4)
	m.SourceEvent("symlinks_refused", 1)
	m.SourceEvent("generations_lost", 3)
}

// wantSeries is what record leaves in the Prometheus exposition.
var wantSeries = map[string]float64{
	`logmatch_source_lines_total{source="/var/log/sglang.log"}`:                        15,
	`logmatch_source_read_bytes_total{source="/var/log/sglang.log"}`:                   1200,
	`logmatch_source_lag_seconds{source="/var/log/sglang.log"}`:                        1.5,
	`logmatch_entries_total{source="/var/log/sglang.log"}`:                             7,
	`logmatch_entry_cut_lines_total{source="/var/log/sglang.log"}`:                     2,
	`logmatch_entry_cut_bytes_total{source="/var/log/sglang.log"}`:                     4096,
	`logmatch_hits_total{record_id="rec-1",severity="critical"}`:                       2,
	`logmatch_hits_total{record_id="rec-2",severity="warning"}`:                        1,
	`logmatch_pattern_timeouts_total{record_id="rec-3"}`:                               1,
	`logmatch_incidents_total{kind="new",record_id="rec-1",severity="critical"}`:       1,
	`logmatch_incidents_total{kind="summary",record_id="rec-1",severity="critical"}`:   1,
	`logmatch_incidents_unclassified_total{kind="new"}`:                                1,
	`logmatch_sink_alerts_total{sink="slack"}`:                                         2,
	`logmatch_sink_retries_total{sink="slack"}`:                                        1,
	`logmatch_sink_failures_total{class="retryable",sink="slack"}`:                     1,
	`logmatch_sink_failures_total{class="permanent",sink="webhook"}`:                   1,
	`logmatch_sink_queue_depth{sink="slack"}`:                                          4,
	`logmatch_sink_dropped_total{reason="queue_full",sink="webhook"}`:                  3,
	`logmatch_gate_trips_total{record_id="rec-1",state="failing"}`:                     1,
	`logmatch_gate_restarts_total`:                                                     1,
	`logmatch_gate_targets_dropped_total{reason="evicted"}`:                            2,
	`logmatch_gate_state{container="sglang",namespace="llm",pod="sglang-0"}`:           1,
	`logmatch_gate_restarts_recent{container="sglang",namespace="llm",pod="sglang-0"}`: 2,
	`logmatch_build_info{goversion="go1.26.0",version="v1.2.3"}`:                       1,
	`logmatch_catalog_records`:                                                         64,
	`logmatch_config_last_reload_successful`:                                           0,
	`logmatch_config_last_reload_success_timestamp_seconds`:                            1700000000,
	`logmatch_source_files{state="matched"}`:                                           2,
	`logmatch_source_files{state="unreadable"}`:                                        1,
	`logmatch_source_glob_unmatched{glob="/var/log/none/*.log"}`:                       1,
	`logmatch_source_evicted_total`:                                                    2,
	`logmatch_http_connections_evicted_total`:                                          1,
	`logmatch_incidents_evicted_total{reason="forgotten"}`:                             5,
	`logmatch_incidents_evicted_total{reason="announced"}`:                             1,
	`logmatch_incidents_dropped_total{reason="routine"}`:                               4,
	`logmatch_source_events_total{event="symlinks_refused"}`:                           1,
	`logmatch_source_events_total{event="generations_lost"}`:                           3,
}

func TestScrape(t *testing.T) {
	tel := newTelemetry(t, Config{})
	record(tel.Metrics())

	families := scrape(t, tel)
	if diff := cmp.Diff(wantSeries, series(families, "logmatch_")); diff != "" {
		t.Errorf("scraped series (-want +got):\n%s", diff)
	}
	for _, name := range []string{"target_info", "go_goroutines", "process_cpu_seconds_total"} {
		if _, ok := families[name]; !ok {
			t.Errorf("scrape has no %s", name)
		}
	}
	if tel.Pushing() {
		t.Error("Pushing() = true without an endpoint")
	}
}

func TestCardinalityLimitIsVisible(t *testing.T) {
	tel := newTelemetry(t, Config{CardinalityLimit: 3})
	for i := range 10 {
		tel.Metrics().Hit(fmt.Sprintf("rec-%d", i), "error")
	}
	got := series(scrape(t, tel), "logmatch_hits_total")
	var total float64
	overflow := false
	for k, v := range got {
		total += v
		overflow = overflow || strings.Contains(k, `otel_metric_overflow="true"`)
	}
	if len(got) != 3 || !overflow || total != 10 {
		t.Errorf("hits series = %v; want 3 series, one of them the overflow, summing to 10", got)
	}
}

func TestNilMetricsRecordsNothing(t *testing.T) {
	var m *Metrics
	record(m) // must not panic
}

func TestOTLPPush(t *testing.T) {
	tests := []struct {
		name      string
		configure func(t *testing.T, r *otlptest.Receiver) OTLPConfig
	}{
		{"grpc from env", func(t *testing.T, r *otlptest.Receiver) OTLPConfig {
			t.Setenv("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "grpc")
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+r.GRPCAddr)
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=k1")
			return OTLPConfig{}
		}},
		{"http/protobuf from env", func(t *testing.T, r *otlptest.Receiver) OTLPConfig {
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", r.HTTPURL)
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=k1")
			return OTLPConfig{}
		}},
		{"grpc from config", func(t *testing.T, r *otlptest.Receiver) OTLPConfig {
			return OTLPConfig{Endpoint: "http://" + r.GRPCAddr, Protocol: ProtocolGRPC, Headers: map[string]string{"x-api-key": "k1"}}
		}},
		{"http/protobuf from config", func(t *testing.T, r *otlptest.Receiver) OTLPConfig {
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
			return OTLPConfig{Endpoint: r.HTTPURL, Protocol: ProtocolHTTPProtobuf, Headers: map[string]string{"x-api-key": "k1"}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("OTEL_SERVICE_NAME", "logmatch-push")
			r := otlptest.Start(t)
			tel := newTelemetry(t, Config{OTLP: tt.configure(t, r)})
			if !tel.Pushing() {
				t.Fatal("Pushing() = false with an endpoint")
			}
			record(tel.Metrics())
			if err := tel.ForceFlush(context.Background()); err != nil {
				t.Fatalf("ForceFlush: %v", err)
			}
			got := pushed(t, r)
			if diff := cmp.Diff(otlpWant, got); diff != "" {
				t.Errorf("pushed points (-want +got):\n%s", diff)
			}
			for _, h := range r.Headers() {
				if v := h["x-api-key"]; len(v) != 1 || v[0] != "k1" {
					t.Errorf("x-api-key = %q, want k1", v)
				}
			}
		})
	}
}

// otlpWant is a sample of what record pushes: name|attributes -> value.
var otlpWant = map[string]float64{
	"logmatch.source.lines|source=/var/log/sglang.log":                  15,
	"logmatch.source.read|source=/var/log/sglang.log":                   1200,
	"logmatch.source.lag|source=/var/log/sglang.log":                    1.5,
	"logmatch.hits|record_id=rec-1,severity=critical":                   2,
	"logmatch.incidents.unclassified|kind=new":                          1,
	"logmatch.sink.failures|class=permanent,sink=webhook":               1,
	"logmatch.sink.alerts|sink=slack":                                   2,
	"logmatch.sink.queue.depth|sink=slack":                              4,
	"logmatch.sink.dropped|reason=queue_full,sink=webhook":              3,
	"logmatch.incidents|kind=summary,record_id=rec-1,severity=critical": 1,
}

func TestRunExportsOnShutdown(t *testing.T) {
	r := otlptest.Start(t)
	tel, err := New(context.Background(), Config{OTLP: OTLPConfig{Endpoint: "http://" + r.GRPCAddr, Protocol: ProtocolGRPC, Interval: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	tel.Metrics().AlertSent("otel")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tel.Run(ctx) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := pushed(t, r)
	if v, ok := got["logmatch.sink.alerts|sink=otel"]; !ok || v != 1 {
		t.Errorf("final export has logmatch.sink.alerts = %v (present %v), want 1", v, ok)
	}
}

func TestRunReportsAFailedFinalExport(t *testing.T) {
	for _, protocol := range []string{ProtocolGRPC, ProtocolHTTPProtobuf} {
		t.Run(protocol, func(t *testing.T) {
			endpoint := "http://" + otlptest.ClosedAddr(t)
			tel, err := New(context.Background(), Config{OTLP: OTLPConfig{Endpoint: endpoint, Protocol: protocol, Interval: time.Hour}})
			if err != nil {
				t.Fatal(err)
			}
			tel.Metrics().AlertSent("otel")
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			err = tel.Run(ctx)
			if err == nil || !strings.Contains(err.Error(), endpoint) {
				t.Errorf("Run = %v, want an error naming %s", err, endpoint)
			}
		})
	}
}

func TestNewReportsConfigErrors(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/json")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
	_, err := New(context.Background(), Config{OTLP: OTLPConfig{Interval: -time.Second}})
	if err == nil {
		t.Fatal("New succeeded, want an error")
	}
	for _, w := range []string{`OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: unsupported protocol "http/json"`, "otlp interval: -1s is negative"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not contain %q:\n%v", w, err)
		}
	}
}

func TestMetricsExporterNoneTurnsPushOff(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	if tel := newTelemetry(t, Config{}); tel.Pushing() {
		t.Error("Pushing() = true with OTEL_METRICS_EXPORTER=none")
	}
}

func newTelemetry(t testing.TB, cfg Config) *Telemetry {
	t.Helper()
	tel, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := tel.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return tel
}

func scrape(t *testing.T, tel *Telemetry) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	tel.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", rec.Code, rec.Body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// series flattens the families whose name starts with prefix into
// `name{label="v",...}` -> value, labels sorted.
func series(families map[string]*dto.MetricFamily, prefix string) map[string]float64 {
	out := map[string]float64{}
	for name, f := range families {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		for _, m := range f.GetMetric() {
			var ls []string
			for _, l := range m.GetLabel() {
				ls = append(ls, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
			}
			sort.Strings(ls)
			key := name
			if len(ls) > 0 {
				key += "{" + strings.Join(ls, ",") + "}"
			}
			switch {
			case m.GetCounter() != nil:
				out[key] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				out[key] = m.GetGauge().GetValue()
			}
		}
	}
	return out
}

// pushed flattens the last value of every pushed data point whose key is
// in otlpWant's form, keeping only the keys a test looks at.
func pushed(t *testing.T, r *otlptest.Receiver) map[string]float64 {
	t.Helper()
	all := map[string]float64{}
	for _, rm := range r.ResourceMetrics() {
		if got := otlptest.Attributes(rm.GetResource().GetAttributes())["service.name"]; got == nil {
			t.Errorf("pushed resource has no service.name")
		}
		for _, sm := range rm.GetScopeMetrics() {
			for _, m := range sm.GetMetrics() {
				for k, v := range points(m) {
					all[m.GetName()+"|"+k] = v
				}
			}
		}
	}
	if len(all) == 0 {
		t.Fatal("the receiver got no metric")
	}
	out := map[string]float64{}
	for k, v := range all {
		if _, ok := otlpWant[k]; ok || strings.HasPrefix(k, "logmatch.sink.alerts|") {
			out[k] = v
		}
	}
	return out
}

func points(m *metricspb.Metric) map[string]float64 {
	out := map[string]float64{}
	var dps []*metricspb.NumberDataPoint
	switch d := m.GetData().(type) {
	case *metricspb.Metric_Sum:
		dps = d.Sum.GetDataPoints()
	case *metricspb.Metric_Gauge:
		dps = d.Gauge.GetDataPoints()
	}
	for _, dp := range dps {
		var ls []string
		for k, v := range otlptest.Attributes(dp.GetAttributes()) {
			ls = append(ls, fmt.Sprintf("%s=%v", k, v))
		}
		sort.Strings(ls)
		v := dp.GetAsDouble()
		if _, ok := dp.GetValue().(*metricspb.NumberDataPoint_AsInt); ok {
			v = float64(dp.GetAsInt())
		}
		out[strings.Join(ls, ",")] = v
	}
	return out
}

// Issue 14 item 16: sources come and go (kubelet's rotated names are
// unique); the scrape has series only for the live ones. Forty files held
// and released, four still held: four series per instrument, with their
// counts.
func TestSourceSeriesGoWithTheirSource(t *testing.T) {
	tel := newTelemetry(t, Config{})
	m := tel.Metrics()
	var live []*Source
	for i := range 44 {
		name := fmt.Sprintf("/var/log/pods/llm_sglang-%d/sglang/0.log", i)
		m.LinesRead(name, 3, 300) // the tailer counts before the processor holds it
		s := m.Source(name)
		s.Entries(2)
		s.Lag(time.Second)
		s.Cut(1, 10)
		if i < 40 {
			m.ReleaseSource(s)
			continue
		}
		live = append(live, s)
	}
	families := scrape(t, tel)
	for _, name := range []string{"logmatch_source_lines_total", "logmatch_source_read_bytes_total", "logmatch_source_lag_seconds",
		"logmatch_entries_total", "logmatch_entry_cut_lines_total", "logmatch_entry_cut_bytes_total"} {
		got := series(families, name)
		if len(got) != len(live) {
			t.Errorf("%s: %d series, want %d (the live sources):\n%v", name, len(got), len(live), got)
		}
	}
	lines := series(families, "logmatch_source_lines_total")
	for i := 40; i < 44; i++ {
		key := fmt.Sprintf(`logmatch_source_lines_total{source="/var/log/pods/llm_sglang-%d/sglang/0.log"}`, i)
		if lines[key] != 3 {
			t.Errorf("%s = %v, want 3", key, lines[key])
		}
	}
	if n := m.Sources(); n != len(live) {
		t.Errorf("Sources() = %d, want %d", n, len(live))
	}
	// A second holder of a live source keeps its series past one release.
	again := m.Source("/var/log/pods/llm_sglang-40/sglang/0.log")
	m.ReleaseSource(live[0])
	if got := series(scrape(t, tel), "logmatch_entries_total"); len(got) != len(live) {
		t.Errorf("after one of two holders released: %d series, want %d", len(got), len(live))
	}
	m.ReleaseSource(again)
	if got := series(scrape(t, tel), "logmatch_entries_total"); len(got) != len(live)-1 {
		t.Errorf("after both holders released: %d series, want %d", len(got), len(live)-1)
	}
}

// A source counted only by name (a file whose lines never reached the
// processor) loses its series once idle for sourceIdle; a held one never.
func TestUnheldSourceSeriesExpire(t *testing.T) {
	tel := newTelemetry(t, Config{})
	m := tel.Metrics()
	now := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	m.sources.now = func() time.Time { return now }
	m.LinesRead("/var/log/unheld.log", 1, 10)
	held := m.Source("/var/log/held.log")
	held.Read(1, 10)
	if got := series(scrape(t, tel), "logmatch_source_lines_total"); len(got) != 2 {
		t.Fatalf("series %v, want both sources", got)
	}
	now = now.Add(sourceIdle + time.Second)
	got := series(scrape(t, tel), "logmatch_source_lines_total")
	if diff := cmp.Diff(map[string]float64{`logmatch_source_lines_total{source="/var/log/held.log"}`: 1}, got); diff != "" {
		t.Errorf("series after the idle time (-want +got):\n%s", diff)
	}
}

// A sink a reload removed loses its queue depth series; the sinks kept
// keep theirs, and a sink added back records a new one.
func TestRemovedSinkLosesItsQueueDepth(t *testing.T) {
	tel := newTelemetry(t, Config{})
	m := tel.Metrics()
	m.QueueDepth("slack", 3)
	m.QueueDepth("webhook", 5)
	depth := func() map[string]float64 {
		got := map[string]float64{}
		for k, v := range series(scrape(t, tel), "logmatch_sink_queue_depth") {
			got[k] = v
		}
		return got
	}
	if diff := cmp.Diff(map[string]float64{
		`logmatch_sink_queue_depth{sink="slack"}`:   3,
		`logmatch_sink_queue_depth{sink="webhook"}`: 5,
	}, depth()); diff != "" {
		t.Fatalf("before the reload (-want +got):\n%s", diff)
	}
	m.KeepSinks([]string{"webhook"})
	if diff := cmp.Diff(map[string]float64{`logmatch_sink_queue_depth{sink="webhook"}`: 5}, depth()); diff != "" {
		t.Errorf("after removing slack (-want +got):\n%s", diff)
	}
	m.QueueDepth("slack", 1)
	if got := depth()[`logmatch_sink_queue_depth{sink="slack"}`]; got != 1 {
		t.Errorf("slack added back: depth %v, want 1", got)
	}
}
