package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/otelcol"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/sinks"
)

// TestCollectorShipsToLogmatchRun runs a real Collector pipeline as an
// operator would run it in front of logmatch: filelog reads the crash
// logs of the repository (each as a pod of its own) and the otlphttp
// exporter sends them to `logmatch run --accept otlp`, a real logmatch
// process. logmatch reports, file by file, the incidents `logmatch scan`
// reports over the same files.
func TestCollectorShipsToLogmatchRun(t *testing.T) {
	files, err := filepath.Glob("../../../testdata/logs/*.log")
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	files = append(files, "../../../examples/sglang-crash.log")
	dir := t.TempDir()

	// logmatch itself, built from this tree: with -race, as the root
	// module's tests build it, so CI's build cache already holds it.
	bin := filepath.Join(dir, "logmatch")
	build := exec.Command("go", "build", "-race", "-o", bin, "./cmd/logmatch")
	build.Dir = "../../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build logmatch: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	// Grouping as long as scan's (one incident per cause over the file).
	lm := exec.Command(bin, "run", "--accept", "otlp", "--http-addr", addr, "--state-dir", filepath.Join(dir, "state"),
		"--group-window", "8760h", "--repeat-interval", "0")
	stdout, err := lm.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	lm.Stderr = &stderr
	if err := lm.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var alerts []sinks.Alert
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var a sinks.Alert
			if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
				t.Errorf("stdout line is not an alert: %v", err)
				continue
			}
			mu.Lock()
			alerts = append(alerts, a)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if lm.ProcessState == nil {
			_ = lm.Process.Kill()
			_ = lm.Wait()
		}
	})

	// The Collector: one filelog receiver per file, each a pod of its own.
	var cfg strings.Builder
	var receivers, names []string
	lines := 0
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
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" { // filelog emits no record for an empty line
				lines++
			}
		}
		id := "file_log/" + name
		receivers = append(receivers, id)
		names = append(names, name)
		fmt.Fprintf(&cfg, "  %s:\n    include: [%q]\n    start_at: beginning\n    poll_interval: 50ms\n    preserve_leading_whitespaces: true\n    preserve_trailing_whitespaces: true\n    resource:\n      k8s.namespace.name: ml\n      k8s.pod.name: %s\n", id, p, name)
	}
	// The exporter as README's configuration has it (otlphttp, the name
	// older Collectors know; newer ones call it otlp_http); no sending queue,
	// so a push is retried in place until logmatch acknowledges it.
	fmt.Fprintf(&cfg, `exporters:
  otlphttp:
    endpoint: http://%s
    sending_queue:
      enabled: false
    retry_on_failure:
      enabled: true
      initial_interval: 100ms
service:
  pipelines:
    logs:
      receivers: [%s]
      exporters: [otlphttp]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
`, addr, strings.Join(receivers, ", "))
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

	// Every line acknowledged by logmatch (committed with its alerts).
	for got := 0; got < lines; {
		select {
		case <-ctx.Done():
			t.Fatalf("logmatch took %d of the %d lines within %v\nlogmatch log:\n%s", got, lines, e2eTimeout, stderr.String())
		case <-time.After(200 * time.Millisecond):
		}
		got = inputLines(addr)
	}
	col.Shutdown()
	if err := <-runErr; err != nil {
		t.Fatalf("collector Run: %v", err)
	}

	m, _, err := catalog.Load(catalog.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	total := 0
	for i, f := range files {
		in, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := scan.New(m, scan.Options{Entry: entry.Options{Redact: red.Redact}, Redact: red.RedactAlert}).Scan(context.Background(), []scan.Input{{Name: "-", R: in}})
		in.Close()
		if err != nil {
			t.Fatalf("scan %s: %v", f, err)
		}
		for _, a := range res.Alerts {
			want[names[i]] = append(want[names[i]], a.Record.Slug+" | "+a.Headline)
		}
		total += len(res.Alerts)
	}
	// The first alert of each incident, by pod.
	firsts := func() (map[string][]string, int) {
		mu.Lock()
		defer mu.Unlock()
		got, seen, n := map[string][]string{}, map[string]bool{}, 0
		for _, a := range alerts {
			if !seen[a.Fingerprint] {
				seen[a.Fingerprint] = true
				got[a.Source.Pod] = append(got[a.Source.Pod], a.Record.Slug+" | "+a.Headline)
				n++
			}
		}
		return got, n
	}
	// The last alerts go out after the settle time; a run that finds
	// fewer fails below with the difference.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, n := firsts(); n >= total {
			break
		}
	}
	if err := lm.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-read
	if err := lm.Wait(); err != nil {
		t.Fatalf("logmatch: %v\n%s", err, stderr.String())
	}
	if total < len(files)-1 {
		t.Fatalf("scan found %d incidents in %d crash logs: the comparison proves little", total, len(files))
	}
	got, _ := firsts()
	for _, name := range names {
		if !slices.Equal(got[name], want[name]) {
			t.Errorf("%s: logmatch run behind the Collector and logmatch scan differ\nrun:\n  %s\nscan:\n  %s", name, strings.Join(got[name], "\n  "), strings.Join(want[name], "\n  "))
		}
	}
}

var inputLinesRE = regexp.MustCompile(`(?m)^logmatch_input_lines_total\{input="otlp"[^}]*\} (\d+)`)

// inputLines is the count of lines logmatch's OTLP input acknowledged, from
// its /metrics; 0 while it is not up.
func inputLines(addr string) int {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := inputLinesRE.FindSubmatch(b)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
