package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding/gzip"
	"google.golang.org/protobuf/proto"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
	"github.com/logmatch/logmatch/internal/scan"
)

// startAccepting runs a pipeline with only network inputs (args add to
// them) on a loopback port and returns its base URL and a stop function.
func startAccepting(t *testing.T, env map[string]string, args ...string) (string, *lockedBuffer, func()) {
	t.Helper()
	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog.jsonl")
	if err := os.WriteFile(catalog, []byte(recordA+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return env[k] }
	cfg, err := runConfig(append([]string{
		"--catalog", catalog, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--group-window", "0", "--http-addr", "127.0.0.1:0",
	}, args...), getenv, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	addr := make(chan string, 1)
	p, err := New(context.Background(), Options{
		Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Stdout: out, Stderr: io.Discard, Getenv: getenv,
		Listening: func(a string) { addr <- a },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	return "http://" + <-addr, out, func() { cancel(); waitRun(t, done, "after cancel") }
}

func post(t *testing.T, url, token, ct string, body string) (string, int) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), resp.StatusCode
}

// run --accept diagnose answers POST /v1/diagnose with the catalog in use,
// behind the bearer token from the environment, and counts what it got;
// it reads no standard input meanwhile and runs until stopped.
func TestRunAcceptsDiagnose(t *testing.T) {
	base, out, stop := startAccepting(t, nil, "--accept", "diagnose")
	defer stop()
	log := "[2026-05-28 00:11:09 TP0] alpha failure in step 1\n"
	body, code := post(t, base+"/v1/diagnose", "", "text/plain", log)
	if code != http.StatusOK || !strings.Contains(body, `"slug":"record-a"`) || !strings.Contains(body, `"schema":"logmatch.alert/v1"`) {
		t.Fatalf("POST /v1/diagnose = %d %q", code, body)
	}
	if body, code := post(t, base+"/v1/diagnose", "", "application/json", "{}"); code != http.StatusUnsupportedMediaType {
		t.Fatalf("JSON body = %d %q, want 415", code, body)
	}
	if body, code := get(t, base+"/v1/diagnose"); code != http.StatusMethodNotAllowed {
		t.Fatalf("GET = %d %q, want 405", code, body)
	}
	metrics, _ := get(t, base+"/metrics")
	for _, series := range []string{
		`logmatch_input_requests_total{input="diagnose"`,
		`logmatch_input_lines_total{input="diagnose"`,
		`logmatch_input_rejects_total{input="diagnose",reason="content_type"`,
	} {
		if !strings.Contains(metrics, series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}
	if len(out.alerts(t)) != 0 {
		t.Errorf("a diagnosis went to the sinks: %v", out.alerts(t))
	}
}

// The bearer token is read by reference (here an environment variable);
// a request without it is refused 401.
func TestRunAcceptTokenByReference(t *testing.T) {
	base, _, stop := startAccepting(t, map[string]string{"TOKEN": "t0ken"}, "--accept", "diagnose", "--config", writeConfig(t, "accept_token_env: TOKEN\n"))
	defer stop()
	log := "[2026-05-28 00:11:09 TP0] alpha failure in step 1\n"
	if body, code := post(t, base+"/v1/diagnose", "", "text/plain", log); code != http.StatusUnauthorized || strings.Contains(body, "t0ken") {
		t.Fatalf("without the token = %d %q, want 401", code, body)
	}
	if body, code := post(t, base+"/v1/diagnose", "t0ken", "text/plain", log); code != http.StatusOK || !strings.Contains(body, "record-a") {
		t.Fatalf("with the token = %d %q", code, body)
	}
}

func writeConfig(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// freeAddr returns a loopback address nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// crashExamples are the crash logs of the repository.
func crashExamples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../testdata/logs/*.log")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../examples/sglang-crash.log"}, files...)
}

// Issue 38: the crash examples pushed through the Loki push API and OTLP
// over HTTP, each in protobuf and in JSON, a few lines a push as a shipper batches them, give
// the same incidents as scan: each stream is assembled, diagnosed and
// folded like a followed file. Every push is answered only after its
// lines are committed, so when the last answer comes the alerts are
// queued.
func TestRunAcceptsLokiPushesAsScan(t *testing.T) {
	sc := corpusScanner(t)
	for _, format := range []string{"protobuf", "json", "otlp-protobuf", "otlp-json", "otlp-grpc"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			grpcAddr := freeAddr(t)
			cfg, err := runConfig([]string{"--state-dir", dir, "--http-addr", "127.0.0.1:0", "--accept", "loki,otlp",
				"--config", writeConfig(t, "otlp_grpc_addr: "+grpcAddr+"\n")},
				func(string) string { return "" }, os.ReadFile)
			if err != nil {
				t.Fatal(err)
			}
			cfg.GroupWindow = config.Duration(scanWindow)
			out := &lockedBuffer{}
			addr := make(chan string, 1)
			p, err := New(context.Background(), Options{Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
				Stdout: out, Stderr: io.Discard, Listening: func(a string) { addr <- a }})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- p.Run(ctx) }()
			base := "http://" + <-addr
			var logsClient collogs.LogsServiceClient
			if format == "otlp-grpc" {
				conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				logsClient = collogs.NewLogsServiceClient(conn)
			}

			want := map[string][]string{}
			total := 0
			for _, file := range crashExamples(t) {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				res, err := sc.Scan(context.Background(), []scan.Input{{Name: "-", R: bytes.NewReader(data)}})
				if err != nil {
					t.Fatal(err)
				}
				labels := []ingest.Label{{Name: "filename", Value: filepath.Base(file)}, {Name: "namespace", Value: "ml"}, {Name: "pod", Value: "sglang-" + strings.TrimSuffix(filepath.Base(file), ".log")}}
				if strings.HasPrefix(format, "otlp") {
					// The resource attributes that name an OTLP stream.
					labels = []ingest.Label{{Name: "k8s_namespace_name", Value: "ml"}, {Name: "k8s_pod_name", Value: "sglang-" + strings.TrimSuffix(filepath.Base(file), ".log")}, {Name: "service_name", Value: filepath.Base(file)}}
				}
				name, _ := ingest.DefaultLabels().Identity(labels)
				want[name] = diagnoses(res.Alerts)
				total += len(res.Alerts)
				lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
				for i := 0; i < len(lines); i += 7 {
					chunk := lines[i:min(i+7, len(lines))]
					for j := range chunk {
						chunk[j] = strings.TrimSuffix(chunk[j], "\n")
					}
					s := []ingest.PushStream{{Labels: labels, Entries: pushtest.Entries(time.Now(), chunk)}}
					var body, code = "", 0
					switch format {
					case "json":
						body, code = post(t, base+"/loki/api/v1/push", "", "application/json", string(pushtest.JSON(s)))
					case "protobuf":
						body, code = post(t, base+"/loki/api/v1/push", "", "application/x-protobuf", string(pushtest.Protobuf(s)))
					case "otlp-json":
						body, code = post(t, base+"/v1/logs", "", "application/json", string(pushtest.OTLP(s, true)))
					case "otlp-protobuf":
						body, code = post(t, base+"/v1/logs", "", "application/x-protobuf", string(pushtest.OTLP(s, false)))
					case "otlp-grpc":
						var req collogs.ExportLogsServiceRequest
						if err := proto.Unmarshal(pushtest.OTLP(s, false), &req); err != nil {
							t.Fatal(err)
						}
						// The Collector's otlp exporter compresses with gzip.
						_, err := logsClient.Export(context.Background(), &req, grpc.UseCompressor(gzip.Name), grpc.WaitForReady(true))
						body, code = fmt.Sprint(err), http.StatusOK
						if err != nil {
							code = 0
						}
					}
					if want := map[bool]int{true: http.StatusOK, false: http.StatusNoContent}[strings.HasPrefix(format, "otlp")]; code != want {
						t.Fatalf("%s: push: %d %s", file, code, body)
					}
				}
			}
			if total < 5 {
				t.Fatalf("scan found %d incidents in the crash examples: the comparison proves little", total)
			}
			firsts := func() map[string][]string {
				got := map[string][]string{}
				seen := map[string]bool{}
				for _, a := range out.alerts(t) {
					if !seen[a.Fingerprint] {
						seen[a.Fingerprint] = true
						got[a.Source.Path] = append(got[a.Source.Path], a.Record.Slug+" | "+a.Headline)
						if !strings.HasPrefix(a.Source.Pod, "sglang-") || a.Source.Namespace != "ml" {
							t.Errorf("alert source %+v lacks the stream's pod and namespace", a.Source)
						}
					}
				}
				return got
			}
			// The last alerts go out after the settle time; a run that
			// finds fewer incidents fails below with the difference.
			deadline := time.Now().Add(20 * time.Second)
			for n := 0; n < total && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				n = 0
				for _, d := range firsts() {
					n += len(d)
				}
			}
			input := "loki"
			if strings.HasPrefix(format, "otlp") {
				input = "otlp"
			}
			metrics, _ := get(t, base+"/metrics")
			for _, series := range []string{`logmatch_input_requests_total{input="` + input + `"`, `logmatch_input_lines_total{input="` + input + `"`} {
				if !strings.Contains(metrics, series) {
					t.Errorf("/metrics lacks %s", series)
				}
			}
			cancel()
			waitRun(t, done, "after cancel")
			got := firsts()
			for name, w := range want {
				if !slices.Equal(got[name], w) {
					t.Errorf("%s: pushed and scanned differ\npush:\n  %s\nscan:\n  %s", name, strings.Join(got[name], "\n  "), strings.Join(w, "\n  "))
				}
			}
		})
	}
}

// Issue 38 item 2: a real Alertmanager sends its webhook to run --accept
// alertmanager; the log line the alert carries in its annotations is
// diagnosed, and the incident goes to the sinks with the alert's identity.
func TestAlertmanagerWebhookEnriched(t *testing.T) {
	bin := "/usr/bin/prometheus-alertmanager"
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is required (apt-get install prometheus-alertmanager)", bin)
		}
		t.Skipf("%s not installed", bin)
	}
	base, out, stop := startAccepting(t, nil, "--accept", "alertmanager")
	defer stop()

	dir := t.TempDir()
	amCfg := filepath.Join(dir, "alertmanager.yml")
	if err := os.WriteFile(amCfg, []byte("route:\n  receiver: logmatch\n  group_wait: 0s\n  group_interval: 1s\n  repeat_interval: 1h\n"+
		"receivers:\n  - name: logmatch\n    webhook_configs:\n      - url: "+base+"/v1/alertmanager\n        send_resolved: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	amAddr := freeAddr(t)
	var amOut lockedBuffer
	cmd := exec.Command(bin, "--config.file="+amCfg, "--storage.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+amAddr, "--cluster.listen-address=")
	cmd.Stdout, cmd.Stderr = &amOut, &amOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	eventually(t, "alertmanager ready", func() bool {
		resp, err := http.Get("http://" + amAddr + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})

	// A Loki ruler alert carrying the line it matched.
	alert := `[{"labels":{"alertname":"SglangErrors","namespace":"ml","pod":"sglang-0"},` +
		`"annotations":{"log":"[2026-05-28 00:11:09 TP0] alpha failure in step 1"}}]`
	if body, code := post(t, "http://"+amAddr+"/api/v2/alerts", "", "application/json", alert); code != http.StatusOK {
		t.Fatalf("posting the alert to Alertmanager: %d %s", code, body)
	}
	eventually(t, "the enriched alert at the sink", func() bool { return out.hasSlug(t, "record-a") })
	a := out.alerts(t)[0]
	if a.Source.Path != "alertmanager/SglangErrors" || a.Source.Pod != "sglang-0" || a.Source.Namespace != "ml" || len(a.Record.Solutions) == 0 {
		t.Errorf("enriched alert: source %+v, solutions %v", a.Source, a.Record.Solutions)
	}
}
