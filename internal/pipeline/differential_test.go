package pipeline

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/sinks"
)

// corpora are the recognition corpora, relative to this package.
var corpora = []string{"../../testdata/corpus", "../../testdata/engines"}

// diagnoses is what a way in found in one log: the record (or
// "unclassified") and headline of each incident, in order.
func diagnoses(as []sinks.Alert) []string {
	var out []string
	for i := range as {
		out = append(out, as[i].Record.Slug+" | "+as[i].Headline)
	}
	return out
}

// Issue 31 item 9: run and scan give the same diagnoses over the whole of
// both corpora. Both go through the one stream shell; this checks that
// what is around it (run's file and stream bookkeeping, its grouping in
// processing time, its commit and delivery) changes nothing a person reads:
// every excerpt gives the same incidents, with the same records and
// headlines, in the same order.
func TestRunAndScanAgreeOnTheCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every corpus excerpt through run")
	}
	state := t.TempDir() // one state directory: its catalog cache serves every run
	n := eachCorpusScan(t, func(file string, data []byte, want []string) {
		got, log := runStdin(t, state, data)
		if !slices.Equal(got, want) {
			t.Errorf("%s: run and scan differ\nrun:\n  %s\nscan:\n  %s\nrun's log:\n%s", filepath.Base(file), strings.Join(got, "\n  "), strings.Join(want, "\n  "), log)
		}
	})
	t.Logf("%d excerpts compared", n)
}

// eachCorpusScan calls fn with every excerpt of both corpora and the
// diagnoses scan gives it, and returns how many there were.
func eachCorpusScan(t *testing.T, fn func(file string, data []byte, want []string)) int {
	t.Helper()
	sc := corpusScanner(t)
	n := 0
	for _, dir := range corpora {
		files, err := filepath.Glob(filepath.Join(dir, "*.log"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no excerpts (%v)", dir, err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sc.Scan(context.Background(), []scan.Input{{Name: "-", R: bytes.NewReader(data)}})
			if err != nil {
				t.Fatalf("%s: scan: %v", file, err)
			}
			fn(file, data, diagnoses(res.Alerts))
			n++
		}
	}
	return n
}

// corpusScanner is what run is compared with: scan over the embedded
// catalog, redacting as run does.
func corpusScanner(t *testing.T) *scan.Scanner {
	t.Helper()
	m, _, err := catalog.Load(catalog.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return scan.New(m, scan.Options{Entry: entry.Options{Redact: red.Redact}, Redact: red.RedactAlert})
}

// runStdin runs logmatch run over data on standard input to its end and
// returns the diagnoses of the incidents it announced: the first alert of
// each incident, in order.
func runStdin(t *testing.T, state string, data []byte) (diags []string, log string) {
	t.Helper()
	cfg := scanLikeConfig(t, state)
	// Nor is an alert kept for the next start because delivering it took
	// longer than the shutdown grace on a loaded machine (CI runs every
	// package under -race at once): the test compares what run finds.
	cfg.ShutdownGrace = config.Duration(runLimit)
	out, logs := &lockedBuffer{}, &lockedBuffer{}
	p, err := New(context.Background(), Options{Config: cfg, Logger: slog.New(slog.NewTextHandler(logs, nil)),
		Stdin: bytes.NewReader(data), Stdout: out, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := runWithin(t, p, context.Background(), 2*runLimit); err != nil {
		t.Fatalf("run: %v", err)
	}
	var as []sinks.Alert
	for _, a := range out.alerts(t) {
		// Each incident's first alert: an incident after a restart has
		// the fingerprint of the one before it.
		if a.Kind == incident.KindNew {
			as = append(as, a)
		}
	}
	logs.mu.Lock()
	defer logs.mu.Unlock()
	return diagnoses(as), logs.b.String()
}

// scanLikeConfig is run's configuration for reading standard input as
// scan reads a file, with a fresh state file in state.
func scanLikeConfig(t *testing.T, state string) *config.Config {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(state, "state.db")); err != nil {
		t.Fatal(err)
	}
	cfg, err := runConfig([]string{"--path", "-", "--state-dir", state, "--http-addr", "", "--group-window", "0"},
		func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	// Scan's grouping: one window for the whole input, so repeats are
	// counted rather than announced again.
	cfg.GroupWindow = config.Duration(scanWindow)
	// An entry is never completed by a pause in reading: run completes
	// a quiet stream's entry after entry.idle_flush, and a loaded machine
	// can pause between two lines of one entry, which scan never does.
	// The test compares diagnoses, not the machine's timing.
	cfg.Entry.IdleFlush = config.Duration(scanWindow)
	return cfg
}

// scanWindow is a grouping window longer than any excerpt, as scan's.
const scanWindow = 24 * 365 * time.Hour

// runLimit bounds one run over an excerpt: a hang fails the test.
const runLimit = time.Minute

// A crash, the server's start again, the same crash: run announces two
// incidents, as scan finds two, though both have one fingerprint.
func TestRunAndScanAgreeOnACrashAfterARestart(t *testing.T) {
	m, _, err := catalog.Load(catalog.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	crash, err := os.ReadFile(filepath.Join(corpora[0], "001-cuda-error-oom-raw-traceback.log"))
	if err != nil {
		t.Fatal(err)
	}
	restart := "[2026-01-01 01:00:00] server_args=ServerArgs(model_path='/models/Qwen3-8B', tp_size=1, port=30000)\n" +
		"[2026-01-01 01:00:09] The server is fired up and ready to roll!\n"
	data := append(append(slices.Clone(crash), restart...), crash...)
	res, err := scan.New(m, scan.Options{}).Scan(context.Background(), []scan.Input{{Name: "-", R: bytes.NewReader(data)}})
	if err != nil {
		t.Fatal(err)
	}
	want := diagnoses(res.Alerts)
	if len(want) != 2 || want[0] != want[1] {
		t.Fatalf("scan: %q, want the crash twice", want)
	}
	if got, log := runStdin(t, t.TempDir(), data); !slices.Equal(got, want) {
		t.Errorf("run: %q, want %q\nrun's log:\n%s", got, want, log)
	}
}
