package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/collector/otelcol"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/sinks"
)

// incidentSummary is what the parity test compares of an incident: what
// it is (record and headline), how many occurrences, which ranks, and
// what was folded into it.
type incidentSummary struct {
	Slug         string
	Headline     string
	Count        int
	Ranks        []string
	Consequences []string
}

// summarize keeps the last alert of each incident (the one with its final
// count) and orders them.
func summarize(as []sinks.Alert) []incidentSummary {
	last := map[string]sinks.Alert{}
	for _, a := range as {
		if prev, ok := last[a.Fingerprint]; !ok || a.Count >= prev.Count {
			last[a.Fingerprint] = a
		}
	}
	var out []incidentSummary
	for _, a := range last {
		s := incidentSummary{Slug: a.Record.Slug, Headline: a.Headline, Count: a.Count, Ranks: a.Ranks}
		for _, c := range a.Consequences {
			s.Consequences = append(s.Consequences, fmt.Sprintf("%s x%d", c.Slug, c.Count))
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b incidentSummary) int { return strings.Compare(a.Slug+a.Headline, b.Slug+b.Headline) })
	return out
}

// TestCollectorParityWithScan runs a real Collector pipeline, filelog →
// logmatch → otlp_http → a local OTLP/HTTP endpoint, over the crash logs
// of the repository (testdata/logs and examples), and checks that it
// reports, file by file, the incidents logmatch scan reports: the same
// records and headlines, counts, ranks and folded consequences. Each file
// is read by its own receiver as a pod of its own, so that no file's
// consequences fold into another's cause.
func TestCollectorParityWithScan(t *testing.T) {
	files, err := filepath.Glob("../../../testdata/logs/*.log")
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	files = append(files, "../../../examples/sglang-crash.log")

	sink := &otlpSink{arrived: make(chan struct{}, 1)}
	srv := httptest.NewServer(sink)
	defer srv.Close()

	// Copies, so that the receivers read files no test writes.
	dir := t.TempDir()
	var receivers, names []string
	var cfg strings.Builder
	lines := map[string]int{}
	cfg.WriteString("receivers:\n")
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("f%02d-%s", i, strings.TrimSuffix(filepath.Base(f), ".log"))
		p := filepath.Join(dir, name+".log")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// filelog emits no record for an empty line.
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" {
				lines[name]++
			}
		}
		id := "file_log/" + name
		receivers = append(receivers, id)
		names = append(names, name)
		fmt.Fprintf(&cfg, "  %s:\n    include: [%q]\n    start_at: beginning\n    poll_interval: 50ms\n    include_file_path: true\n    preserve_leading_whitespaces: true\n    preserve_trailing_whitespaces: true\n    resource:\n      k8s.namespace.name: parity\n      k8s.pod.name: %s\n", id, p, name)
	}
	// forward: all, so the test sees when each file was read to its end;
	// no sending queue, so the incidents the processor sends at shutdown
	// are exported before the exporter stops.
	fmt.Fprintf(&cfg, `processors:
  logmatch:
    forward: all
exporters:
  otlp_http:
    endpoint: %q
    sending_queue:
      enabled: false
service:
  pipelines:
    logs:
      receivers: [%s]
      processors: [logmatch]
      exporters: [otlp_http]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
`, srv.URL, strings.Join(receivers, ", "))

	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	col, err := otelcol.NewCollector(settings([]string{"file:" + cfgPath}))
	if err != nil {
		t.Fatalf("NewCollector: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), e2eTimeout)
	defer cancel()
	runErr := make(chan error, 1)
	go func() { runErr <- col.Run(ctx) }()

	// Every line of every file received, forwarded by the processor.
	for {
		missing := ""
		for _, name := range names {
			if sink.received(name) < lines[name] {
				missing = name
				break
			}
		}
		if _, errs := sink.find(""); len(errs) > 0 {
			t.Fatalf("OTLP endpoint could not decode a request: %v", errs)
		}
		if missing == "" {
			break
		}
		select {
		case <-sink.arrived:
		case <-ctx.Done():
			t.Fatalf("%d of the %d lines of %s arrived within %v", sink.received(missing), lines[missing], missing, e2eTimeout)
		case <-time.After(200 * time.Millisecond):
		}
	}
	// Shutdown completes every stream and sends every incident.
	col.Shutdown()
	if err := <-runErr; err != nil {
		t.Fatalf("collector Run: %v", err)
	}

	got := map[string][]sinks.Alert{}
	incidents, _ := sink.find(`"schema":"logmatch.alert/v1"`)
	for _, lr := range incidents {
		if lr.EventName() != "logmatch.incident" {
			continue
		}
		var a sinks.Alert
		if err := json.Unmarshal([]byte(lr.Body().Str()), &a); err != nil {
			t.Fatalf("incident body: %v", err)
		}
		got[a.Source.Pod] = append(got[a.Source.Pod], a)
	}

	m, _, err := catalog.Load(catalog.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, f := range files {
		name := names[i]
		in, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := scan.New(m, scan.Options{}).Scan(context.Background(), []scan.Input{{Name: f, R: in}})
		in.Close()
		if err != nil {
			t.Fatalf("scan %s: %v", f, err)
		}
		want := summarize(res.Alerts)
		total += len(want)
		if diff := cmp.Diff(want, summarize(got[name])); diff != "" {
			t.Errorf("%s: incidents (-logmatch scan +collector):\n%s", f, diff)
		}
	}
	if total < len(files)-1 {
		t.Errorf("scan found %d incidents in %d files; the fixtures are not crash logs", total, len(files))
	}
	t.Logf("%d files, %d incidents, the same through the Collector as through scan", len(files), total)
}
