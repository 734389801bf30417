package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.uber.org/goleak"
)

// deployConfig is the example pipeline shipped for operators: the test runs
// it as written, overriding only paths, the exporter and telemetry.
const deployConfig = "../../../deploy/otelcol-logmatch/config.yaml"

// e2eTimeout bounds the whole pipeline run: file discovery, recombine's
// flush period, batching and export each take about a second at most.
const e2eTimeout = 60 * time.Second

// otlpSink is an OTLP/HTTP logs endpoint that keeps what it receives.
type otlpSink struct {
	mu      sync.Mutex
	records []plog.LogRecord
	pods    map[string]int // records received per resource k8s.pod.name
	errs    []error
	arrived chan struct{} // signalled (never blocking) after each request
}

func (s *otlpSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/logs" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want protobuf on /v1/logs", http.StatusNotFound)
		return
	}
	body, err := s.read(r)
	req := plogotlp.NewExportRequest()
	if err == nil {
		err = req.UnmarshalProto(body)
	}
	s.mu.Lock()
	if err != nil {
		s.errs = append(s.errs, err)
	} else {
		rls := req.Logs().ResourceLogs()
		for i := 0; i < rls.Len(); i++ {
			pod, _ := rls.At(i).Resource().Attributes().Get("k8s.pod.name")
			sls := rls.At(i).ScopeLogs()
			for j := 0; j < sls.Len(); j++ {
				lrs := sls.At(j).LogRecords()
				for k := 0; k < lrs.Len(); k++ {
					s.records = append(s.records, lrs.At(k))
				}
				if s.pods == nil {
					s.pods = map[string]int{}
				}
				s.pods[pod.Str()] += lrs.Len()
			}
		}
	}
	s.mu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp, _ := plogotlp.NewExportResponse().MarshalProto()
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(resp)
}

func (s *otlpSink) read(r *http.Request) ([]byte, error) {
	var rd io.Reader = io.LimitReader(r.Body, 16<<20)
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(rd)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		rd = io.LimitReader(zr, 64<<20)
	}
	return io.ReadAll(rd)
}

// received returns the number of records received from the pod.
func (s *otlpSink) received(pod string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pods[pod]
}

// find returns the received records whose body contains substr.
func (s *otlpSink) find(substr string) ([]plog.LogRecord, []error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []plog.LogRecord
	for _, lr := range s.records {
		if strings.Contains(lr.Body().AsString(), substr) {
			out = append(out, lr)
		}
	}
	return out, append([]error(nil), s.errs...)
}

// TestCollectorEndToEnd runs the distribution in-process on the example
// pipeline: filelog tails a container log that real Python writes the way
// sglang logs a scheduler crash, recombine joins the traceback, the
// logmatch processor enriches it and emits the crash's incident, and
// otlp_http delivers both to a local OTLP/HTTP endpoint.
func TestCollectorEndToEnd(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("python3 is required (LOGMATCH_TEST_REQUIRE_TOOLS=1): %v", err)
		}
		t.Skipf("python3 not found: %v", err)
	}
	defer goleak.VerifyNone(t,
		goleak.IgnoreCurrent(),
		// regexp2's timeout clock stops by itself a second after the last match.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"),
	)

	sink := &otlpSink{arrived: make(chan struct{}, 1)}
	srv := httptest.NewServer(sink)
	defer srv.Close()

	dir := t.TempDir()
	// The kubelet's layout, so the container parser finds pod metadata.
	logDir := filepath.Join(dir, "pods", "default_sglang-0_6f1c0d1e-2a3b-4c5d-8e9f-0a1b2c3d4e5f", "sglang")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	override := filepath.Join(dir, "override.yaml")
	if err := os.WriteFile(override, []byte(fmt.Sprintf(`
receivers:
  file_log:
    include: [%q]
    start_at: beginning
    poll_interval: 50ms
processors:
  batch:
    timeout: 100ms
exporters:
  otlp_http:
    endpoint: %q
service:
  pipelines:
    logs:
      exporters: [otlp_http]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
`, filepath.Join(dir, "pods", "*", "*", "*.log"), srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}

	col, err := otelcol.NewCollector(settings([]string{"file:" + deployConfig, "file:" + override}))
	if err != nil {
		t.Fatalf("NewCollector: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), e2eTimeout)
	defer cancel()
	runErr := make(chan error, 1)
	go func() { runErr <- col.Run(ctx) }()
	defer func() {
		col.Shutdown()
		if err := <-runErr; err != nil {
			t.Errorf("collector Run: %v", err)
		}
	}()

	cmd := exec.CommandContext(ctx, python, "testdata/sglang_crash.py", filepath.Join(logDir, "0.log"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 sglang_crash.py: %v\n%s", err, out)
	}

	// Wait for the traceback record and the sigquit record after it: both
	// are in one batch or the later one proves the earlier was flushed.
	const tracebackMark = "Scheduler hit an exception: Traceback"
	var tb []plog.LogRecord
	for {
		recs, errs := sink.find(tracebackMark)
		if len(errs) > 0 {
			t.Fatalf("OTLP endpoint could not decode a request: %v", errs)
		}
		after, _ := sink.find("Received sigquit")
		if len(recs) > 0 && len(after) > 0 {
			tb = recs
			break
		}
		select {
		case <-sink.arrived:
		case <-ctx.Done():
			all, _ := sink.find("")
			t.Fatalf("no traceback record followed by the sigquit record within %v; received %d records", e2eTimeout, len(all))
		case <-time.After(200 * time.Millisecond):
		}
	}

	if len(tb) != 1 {
		t.Fatalf("%d traceback records, want 1", len(tb))
	}

	// The crash is one incident, emitted by the processor's ticker once it
	// settled: no batch follows it and the Collector is still running.
	var incidents []plog.LogRecord
	for {
		incidents, _ = sink.find(`"schema":"logmatch.alert/v1"`)
		if len(incidents) > 0 {
			break
		}
		select {
		case <-sink.arrived:
		case <-ctx.Done():
			t.Fatalf("no incident record within %v", e2eTimeout)
		case <-time.After(200 * time.Millisecond):
		}
	}
	if len(incidents) != 1 {
		t.Fatalf("%d incident records, want 1", len(incidents))
	}
	inc := incidents[0]
	var alert struct {
		Kind   string `json:"kind"`
		Count  int    `json:"count"`
		Record struct {
			Slug string `json:"slug"`
		} `json:"record"`
		Source struct {
			Pod       string `json:"pod"`
			Namespace string `json:"namespace"`
			Container string `json:"container"`
			Stream    string `json:"stream"`
		} `json:"source"`
		Context []struct {
			Slug string `json:"slug"`
		} `json:"context"`
	}
	if err := json.Unmarshal([]byte(inc.Body().Str()), &alert); err != nil {
		t.Fatalf("incident body: %v", err)
	}
	if inc.EventName() != "logmatch.incident" || alert.Kind != "new" || alert.Record.Slug != "ascend-transfer-engine-initialization-failed" ||
		alert.Source.Pod != "sglang-0" || alert.Source.Namespace != "default" || alert.Source.Container != "sglang" || alert.Source.Stream != "stderr" {
		t.Errorf("incident %s: %+v", inc.EventName(), alert)
	}
	// The single-line error before the traceback and the traceback are
	// one failure of one stream: one incident of two occurrences.
	if alert.Count != 2 {
		t.Errorf("incident count %d, want 2 (the error line and the traceback)", alert.Count)
	}
	got := tb[0]
	attrs := got.Attributes().AsRaw()
	want := map[string]any{
		"logmatch.record.id": "a4a00f79b8728e30",
		"logmatch.slug":      "ascend-transfer-engine-initialization-failed",
		"logmatch.severity":  "critical",
		"logmatch.solutions": []any{
			"Verify the metadata store (etcd/redis) at store_url is reachable from every PD node",
			"Check npu_id is valid (npu-smi info) and the container has that device assigned",
			"Check Ascend driver/CANN versions match across nodes and re-run; look at earlier native logs for the real error code",
			"Ensure no stale session with the same session_id/hostname exists; free or change the rpc port",
		},
		"logmatch.handling_strategy": "retry",
		"exception.type":             "RuntimeError",
		"exception.message":          "Ascend Transfer Engine initialization failed.",
		"log.iostream":               "stderr",
	}
	gotSubset := map[string]any{}
	for k := range want {
		gotSubset[k] = attrs[k]
	}
	if diff := cmp.Diff(want, gotSubset); diff != "" {
		t.Errorf("traceback record attributes (-want +got):\n%s\nall attributes: %v", diff, attrs)
	}
	if got.SeverityText() != "FATAL" {
		t.Errorf("severity %q, want FATAL (set_severity)", got.SeverityText())
	}
	body := got.Body().Str()
	if !strings.Contains(body, "\nRuntimeError: Ascend Transfer Engine initialization failed.") {
		t.Errorf("body lacks the exception line; recombine did not join the traceback:\n%s", body)
	}
	if strings.Contains(body, "POST /generate") {
		t.Errorf("stdout access line was joined into the stderr traceback:\n%s", body)
	}

	// The single-line error logged before the raise matches too, without
	// exception attributes; healthy lines pass through unenriched.
	line, _ := sink.find("TP0] Ascend Transfer Engine initialization failed.")
	line = slices.DeleteFunc(line, func(lr plog.LogRecord) bool { return lr.EventName() == "logmatch.incident" })
	if len(line) != 1 || line[0].Attributes().AsRaw()["logmatch.record.id"] != "a4a00f79b8728e30" {
		t.Errorf("single-line error: %d records, attributes %v", len(line), recordAttrs(line))
	} else if _, ok := line[0].Attributes().Get("exception.type"); ok {
		t.Errorf("single-line error has exception.type: %v", recordAttrs(line))
	}
	healthy, _ := sink.find("Load weight begin")
	if len(healthy) != 1 {
		t.Fatalf("healthy line: %d records, want 1", len(healthy))
	}
	if _, ok := healthy[0].Attributes().Get("logmatch.record.id"); ok {
		t.Errorf("healthy line was enriched: %v", recordAttrs(healthy))
	}
}

func recordAttrs(lrs []plog.LogRecord) []map[string]any {
	var out []map[string]any
	for _, lr := range lrs {
		out = append(out, lr.Attributes().AsRaw())
	}
	return out
}

// TestDeployConfigValidates checks the example config against the
// distribution's components, as "otelcol-logmatch validate" does.
func TestDeployConfigValidates(t *testing.T) {
	col, err := otelcol.NewCollector(settings([]string{"file:" + deployConfig}))
	if err != nil {
		t.Fatalf("NewCollector: %v", err)
	}
	if err := col.DryRun(context.Background()); err != nil {
		t.Errorf("DryRun %s: %v", deployConfig, err)
	}
}

func TestComponents(t *testing.T) {
	f, err := components()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for typ := range f.Receivers {
		got = append(got, "receiver/"+typ.String())
	}
	for typ := range f.Processors {
		got = append(got, "processor/"+typ.String())
	}
	for typ := range f.Exporters {
		got = append(got, "exporter/"+typ.String())
	}
	for typ := range f.Extensions {
		got = append(got, "extension/"+typ.String())
	}
	// The Collector lists deprecated aliases beside the current names.
	want := []string{
		"exporter/debug", "exporter/otlp", "exporter/otlp_grpc", "exporter/otlp_http", "exporter/otlphttp",
		"extension/file_storage",
		"processor/batch", "processor/logmatch",
		"receiver/file_log", "receiver/filelog", "receiver/otlp",
	}
	if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("components (-want +got):\n%s", diff)
	}
}
