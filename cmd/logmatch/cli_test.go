package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/logmatch/logmatch/internal/cases"
	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/sinks"
)

// runCLI runs a command in-process, as main does, with its own streams.
func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runMain(context.Background(), args, env{
		stdin:  strings.NewReader(stdin),
		stdout: &out,
		stderr: &errb,
		getenv: func(string) string { return "" },
	})
	return out.String(), errb.String(), code
}

func TestScanExitCodes(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"example crash", []string{"scan", "../../examples/sglang-crash.log"}, 0, "ascend-transfer-engine-initialization-failed  x2", ""},
		{"fail-on critical finds one", []string{"scan", "--fail-on", "critical", "../../testdata/logs/seed-ascend.log"}, 1, "CRITICAL", ""},
		{"fail-on on a clean log", []string{"scan", "--fail-on", "warning", "../../testdata/logs/clean.log"}, 0, "no incidents", ""},
		{"json", []string{"scan", "--format", "json", "../../testdata/logs/seed-ascend.log"}, 0, `"schema":"logmatch.alert/v1"`, ""},
		{"unknown flag", []string{"scan", "--nope", "x.log"}, 2, "", "logmatch scan: unknown flag: --nope\nRun 'logmatch scan --help' for usage."},
		{"flags after the files", []string{"scan", "../../testdata/logs/seed-ascend.log", "--fail-on", "critical"}, 1, "CRITICAL", ""},
		{"flags between the files", []string{"scan", "../../testdata/logs/clean.log", "--format", "json", "../../testdata/logs/seed-ascend.log"}, 0, `"schema":"logmatch.alert/v1"`, ""},
		{"bad format", []string{"scan", "--format", "yaml", "x.log"}, 2, "", `--format: "yaml" is not text, json or markdown`},
		{"bad severity", []string{"scan", "--fail-on", "fatal", "x.log"}, 2, "", "--fail-on: unknown severity"},
		{"no input", []string{"scan"}, 2, "", "no input"},
		{"unreadable input is a runtime failure, the rest still scanned", []string{"scan", "/nonexistent/x.log", "../../testdata/logs/seed-ascend.log"}, 3, "ascend-transfer-engine", "/nonexistent/x.log"},
		{"the only input unreadable is a runtime failure too", []string{"scan", "/nonexistent/x.log"}, 3, "", "logmatch scan: open /nonexistent/x.log: no such file or directory\n"},
		{"missing catalog", []string{"scan", "--catalog", "/nonexistent.jsonl", "../../testdata/logs/seed-ascend.log"}, 2, "", "/nonexistent.jsonl"},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"misspelt command", []string{"scna"}, 2, "", `did you mean scan?`},
		{"help", []string{"scan", "--help"}, 0, "logmatch scan [--catalog PATH]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errOut)
			}
			if !strings.Contains(out, tt.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tt.wantOut, out)
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantErr, errOut)
			}
		})
	}
}

// TestScanCatalogCache: --catalog-cache keeps one fact file, a second scan
// prints the same thing from it, "off" keeps none, a directory that
// cannot be used is reported and the scan still runs, and with neither
// HOME nor XDG_CACHE_HOME set nothing is kept.
func TestScanCatalogCache(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	log := "../../examples/sglang-crash.log"
	out1, err1, code := runCLI(t, "", "scan", "--catalog-cache", cache, "--format", "json", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, err1)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*.facts"))
	if len(files) != 1 {
		t.Fatalf("cache holds %v, want one fact file", files)
	}
	before, _ := os.Stat(files[0])
	out2, err2, code := runCLI(t, "", "scan", "--catalog-cache", cache, "--format", "json", log)
	if code != 0 || out2 != out1 || err2 != err1 {
		t.Errorf("second scan: exit %d, output differs: %t, stderr %q", code, out2 != out1, err2)
	}
	if after, _ := os.Stat(files[0]); !after.ModTime().Equal(before.ModTime()) {
		t.Error("a load that derived nothing rewrote the fact file")
	}

	off := filepath.Join(dir, "off")
	if _, errOut, code := runCLI(t, "", "scan", "--catalog-cache", "off", log); code != 0 {
		t.Fatalf("--catalog-cache off: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(off); err == nil {
		t.Error("off made a directory")
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out3, errOut, code := runCLI(t, "", "scan", "--catalog-cache", notDir, "--format", "json", log)
	if code != 0 || out3 != out1 || !strings.Contains(errOut, ": catalog cache: ") || !strings.Contains(errOut, notDir) {
		t.Errorf("a cache that is a file: exit %d, same output %t, stderr %q", code, out3 == out1, errOut)
	}
	if userCacheDir(func(string) string { return "" }) != "" {
		t.Error("a cache directory without HOME or XDG_CACHE_HOME")
	}
	env := map[string]string{"HOME": "/home/op", "XDG_CACHE_HOME": "relative"}
	if got := userCacheDir(func(k string) string { return env[k] }); got != "/home/op/.cache/logmatch" {
		t.Errorf("cache directory %q, want HOME's (a relative XDG_CACHE_HOME is ignored)", got)
	}
}

func TestScanStdin(t *testing.T) {
	in, err := os.ReadFile("../../testdata/logs/unknown-chained.log")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, string(in), "scan", "--format", "json", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var a sinks.Alert
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if a.Record.Slug != "unclassified" || a.Match.Exception == nil || a.Match.Exception.Type != "ValueError" {
		t.Fatalf("alert = %+v", a)
	}
}

func TestLintSeedIsClean(t *testing.T) {
	seed := "../../../shared/seed/ascend-transfer-engine.jsonl"
	if _, err := os.Stat(seed); err != nil {
		t.Skipf("seed file not beside the repository: %v", err)
	}
	out, errOut, code := runCLI(t, "", "patterns", "lint", seed)
	if code != 0 || !strings.Contains(out, "\n1 record, 0 errors, 0 warnings; ") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestLintDefaultCatalogIsClean(t *testing.T) {
	out, errOut, code := runCLI(t, "", "patterns", "lint")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var n int
	if _, err := fmt.Sscanf(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:], "%d records", &n); err != nil || n < 60 {
		t.Fatalf("default catalog has %d records (%v), want 60 or more:\n%s", n, err, out)
	}
}

// A catalog with a bad JSON line, a record without messagePattern, an
// uncompilable regex and a catastrophic pattern: one line per problem with
// its line number, the good records still load, exit 1.
func TestLintBadCatalog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	lines := []string{
		`{"id":"good1","messagePattern":"first good"}`,
		`{"id":"broken", "messagePattern": `,
		`{"id":"nopattern"}`,
		`{"id":"badregex","messagePattern":"unclosed (group"}`,
		`{"id":"catastrophic","messagePattern":"^(a+)+$"}`,
		`{"id":"good2","messagePattern":"second good"}`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "", "patterns", "lint", "--no-probe=false", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{
		"bad.jsonl:2: ",
		"bad.jsonl:3: messagePattern: ",
		"bad.jsonl:4: messagePattern: ",
		"bad.jsonl:5: messagePattern: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lint output lacks %q:\n%s", want, out)
		}
	}
	// The one summary, last, counts what loaded: good1, good2 and the
	// catastrophic pattern, which compiles.
	outLines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(outLines[len(outLines)-1], "3 records, 4 errors") {
		t.Errorf("want one summary, last, of 3 records loaded:\n%s", out)
	}
	if strings.Count(out, "3 records") != 1 {
		t.Errorf("the record count is printed more than once:\n%s", out)
	}
}

// patterns gen on Python sources, then scan with what it wrote: every
// message real Python produces from those sources is recognised.
func TestGenOutputRoundTripsThroughScan(t *testing.T) {
	py := requireTool(t, "python3")
	dir := t.TempDir()
	catalog := filepath.Join(dir, "generated.jsonl")
	_, errOut, code := runCLI(t, "", "patterns", "gen", "--src", "../../internal/gen/testdata/src", "--root", "../../internal/gen/testdata/src",
		"--warnings", "--repo", "example/app", "--sha", "0123abc", "--out", catalog)
	if code != 0 {
		t.Fatalf("gen exit %d: %s", code, errOut)
	}
	// Which sites gen skipped (too little literal text, another
	// project's wording): their messages are not expected to match. The
	// tree is its own repository (--root) and its warnings count.
	skipped := map[string]bool{}
	for _, l := range strings.Split(errOut, "\n") {
		if m := regexp.MustCompile(`^skipped: (\S+:\d+):`).FindStringSubmatch(l); m != nil {
			skipped[m[1]] = true
		}
	}
	raw, err := exec.Command(py, "../../internal/gen/testdata/driver.py").Output()
	if err != nil {
		t.Fatalf("driver: %v", err)
	}
	var log strings.Builder
	var want int
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m struct {
			File, Class, Text string
			Line              int
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if skipped[fmt.Sprintf("%s:%d", m.File, m.Line)] {
			continue
		}
		want++
		for i, text := range strings.Split(m.Text, "\n") {
			if i == 0 {
				fmt.Fprintf(&log, "[2026-05-28 00:11:%02d TP0] %s\n", want%60, text)
			} else {
				fmt.Fprintln(&log, text)
			}
		}
	}
	logPath := filepath.Join(dir, "app.log")
	if err := os.WriteFile(logPath, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "scan", "--no-default-catalog", "--catalog", catalog, "--format", "json", logPath)
	if code != 0 {
		t.Fatalf("scan exit %d: %s", code, errOut)
	}
	total := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var a sinks.Alert
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		if a.Record.ID == "" {
			t.Errorf("a generated message was not recognised: %s", a.Match.Text)
		}
		total += a.Count
	}
	if total != want {
		t.Fatalf("recognised %d messages, want %d", total, want)
	}
}

// The usage synopsis each command prints is the one the README shows, and
// every command is in the README's command table.
func TestHelpMatchesReadme(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	doc := norm(string(readme))
	for _, cmd := range [][]string{
		{"scan"}, {"run"}, {"validate"}, {"test"}, {"notify"}, {"patterns"}, {"patterns", "lint"}, {"patterns", "gen"},
		{"config"}, {"completion"}, {"version"},
	} {
		out, _, code := runCLI(t, "", append(cmd, "--help")...)
		if code != 0 {
			t.Fatalf("%v: exit %d", cmd, code)
		}
		// The synopsis is the block between "Usage:" and the first blank line.
		synopsis := strings.SplitN(strings.SplitN(out, "Usage:\n", 2)[1], "\n\n", 2)[0]
		for _, line := range strings.Split(synopsis, "\n") {
			if !strings.Contains(doc, norm(line)) {
				t.Errorf("%v usage line not in README: %q", cmd, strings.TrimSpace(line))
			}
		}
	}
	root := newRoot(env{stdout: io.Discard, stderr: io.Discard})
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" {
			continue
		}
		if !strings.Contains(string(readme), "`"+c.Name()) {
			t.Errorf("command %s is not in the README", c.Name())
		}
		for _, sub := range c.Commands() {
			if c.Name() != "completion" && !strings.Contains(string(readme), "`"+c.Name()+" "+sub.Name()) {
				t.Errorf("command %s %s is not in the README", c.Name(), sub.Name())
			}
		}
	}
	// Every flag of every command is documented in the README or is
	// cobra's own.
	flags := map[string]bool{"help": true, "version": true}
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			flags[f.Name] = true
			if f.Name == "help" || f.Name == "version" || c.Parent() != nil && c.Parent().Name() == "completion" {
				return
			}
			if !strings.Contains(doc, "--"+f.Name) {
				t.Errorf("%s --%s is not in the README", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(root)
	// And the other way: every flag the README names is logmatch's, or
	// one of the other tools' it shows.
	others := map[string]bool{
		"model-path": true, "api-key": true, "log-requests": true, "log-requests-target": true, // sglang
		"restart": true, "build-arg": true, // docker
		"always":    true,                     // git describe
		"from-file": true,                     // kubectl create secret
		"set":       true,                     // helm install
		"type":      true, "patch-file": true, // kubectl patch
		"data-binary": true, // curl
	}
	for _, m := range regexp.MustCompile(`--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(string(readme), -1) {
		if !flags[m[1]] && !others[m[1]] {
			t.Errorf("the README names --%s, which no logmatch command has", m[1])
		}
	}
}

func TestVersionAndConfig(t *testing.T) {
	out, _, code := runCLI(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "logmatch ") {
		t.Fatalf("version: %d %q", code, out)
	}
	out, _, code = runCLI(t, "", "config", "--print-defaults")
	if code != 0 || !strings.Contains(out, "group_window: 5m") {
		t.Fatalf("config --print-defaults: %d\n%s", code, out)
	}
	_, errOut, code := runCLI(t, "", "run", "--group-window", "five minutes")
	if code != 2 || !strings.Contains(errOut, "--group-window") {
		t.Fatalf("bad run flag: exit %d, %s", code, errOut)
	}
}

// Every YAML example in the README is a configuration that loads.
func TestReadmeYAMLExamplesLoad(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 3 {
		t.Fatalf("found %d yaml examples in the README, want the sink examples", len(blocks))
	}
	// Secret references resolve to stand-ins: the example files and
	// variables do not exist here.
	getenv := func(name string) string {
		if name == config.EnvEngine {
			return "" // an engine name, not a secret: detected instead
		}
		return "https://hooks.example.invalid/T000/B000/xyz"
	}
	readFile := func(string) ([]byte, error) { return []byte("https://hooks.example.invalid/T000/B000/xyz\n"), nil }
	for i, b := range blocks {
		if regexp.MustCompile(`(?m)^receivers:`).MatchString(b[1]) {
			// An OpenTelemetry Collector configuration: otelcol's own
			// tests run them through the Collector's validate.
			continue
		}
		if strings.HasPrefix(b[1], "cases:") {
			// A test file for logmatch test --cases, not a configuration.
			if _, err := cases.Parse(fmt.Sprintf("README.md yaml example %d", i+1), []byte(b[1])); err != nil {
				t.Errorf("README yaml example %d is not a cases file: %v\n%s", i+1, err, b[1])
			}
			continue
		}
		if _, err := config.Load(fmt.Sprintf("README.md yaml example %d", i+1), []byte(b[1]), getenv, readFile); err != nil {
			t.Errorf("README yaml example %d does not load: %v\n%s", i+1, err, b[1])
		}
	}
}

// The 5,695-record generated catalog printed 7,256 lines, 7,242 of them
// overlap notices, with the record count first and last. Now: a screenful,
// one summary, and the counts of what was not listed; JSON and
// summary-only work on it too.
func TestLintLargeCatalogIsReadable(t *testing.T) {
	const path = "../../../shared/catalogs/sglang-generated.jsonl"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not beside the repository: %v", path, err)
	}
	out, errOut, code := runCLI(t, "", "patterns", "lint", "--no-probe", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) > 50 {
		t.Errorf("lint printed %d lines, want a screenful", len(lines))
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "5695 records, ") || strings.Count(out, "5695 records") != 1 || !strings.Contains(last, "overlap; see --show") {
		t.Errorf("want one summary, last, saying what was not listed:\n%s", last)
	}
	out, _, _ = runCLI(t, "", "patterns", "lint", "--no-probe", "--summary", path)
	if strings.Count(out, "\n") != 1 {
		t.Errorf("--summary printed more than one line:\n%s", out)
	}
	out, _, _ = runCLI(t, "", "patterns", "lint", "--no-probe", "--format", "json", "--show", "overlap", path)
	type findings struct {
		Records  int
		Counts   map[string]int
		Findings []struct{ Kind, ID string }
	}
	var doc findings
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Records != 5695 || doc.Counts["overlap"] == 0 || len(doc.Findings) != doc.Counts["overlap"] {
		t.Fatalf("json: %d records, counts %v, %d findings", doc.Records, doc.Counts, len(doc.Findings))
	}
	// --record keeps one record's findings.
	id := doc.Findings[0].ID
	out, _, _ = runCLI(t, "", "patterns", "lint", "--no-probe", "--format", "json", "--show", "overlap", "--record", id, path)
	var one findings
	if err := json.Unmarshal([]byte(out), &one); err != nil {
		t.Fatal(err)
	}
	if len(one.Findings) == 0 || len(one.Findings) >= len(doc.Findings) {
		t.Errorf("--record %s kept %d of %d overlaps", id, len(one.Findings), len(doc.Findings))
	}
	for _, f := range one.Findings {
		if f.ID != id {
			t.Errorf("--record %s kept a finding about %s", id, f.ID)
		}
	}
}

// The README's test command and .ci/run are the two commands a newcomer
// needs: the README shows both, says roughly how long the tests take and
// that CI also runs the deploy and Collector checks, and .ci/run runs the
// README's command and those checks.
func TestReadmeTestCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	const testCmd = "go test -race -timeout 30m ./..."
	quick, _, _ := strings.Cut(string(readme), "\n## Commands")
	for _, want := range []string{"```sh\n" + testCmd + "\n```", "`.ci/run`", "`.ci/deploy.sh`", "`.ci/otelcol.sh`"} {
		if !strings.Contains(quick, want) {
			t.Errorf("the README's quick start lacks %q", want)
		}
	}
	if !regexp.MustCompile(`takes about [0-9½]+(?: to [0-9½]+)? minutes`).MatchString(quick) {
		t.Errorf("the README's quick start does not say how long the tests take")
	}
	_, dev, _ := strings.Cut(string(readme), "\n## Development\n")
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(dev)
	if block == nil {
		t.Fatal("the README's Development section has no commands")
	}
	lines := strings.Split(block[1], "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], testCmd+" ") || !strings.HasPrefix(lines[1], "bash .ci/run ") {
		t.Errorf("the Development section does not start with %q and bash .ci/run:\n%s", testCmd, block[1])
	}
	for _, want := range []string{"\n" + testCmd + "\n", "\nbash .ci/deploy.sh\n", "\nbash .ci/otelcol.sh\n"} {
		if !strings.Contains(string(ci), want) {
			t.Errorf(".ci/run does not run %q", strings.TrimSpace(want))
		}
	}
}
