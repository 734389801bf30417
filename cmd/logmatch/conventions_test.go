package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/state"
)

// commandPaths is every command, as typed.
var commandPaths = [][]string{
	{}, {"scan"}, {"run"}, {"validate"}, {"test"}, {"notify"}, {"patterns"}, {"patterns", "lint"},
	{"patterns", "gen"}, {"config"}, {"version"}, {"completion"}, {"completion", "bash"},
}

// Help, however asked for, is printed once, on stdout, with exit 0.
func TestHelpOnceOnStdout(t *testing.T) {
	for _, path := range commandPaths {
		for _, ask := range [][]string{
			append(append([]string{}, path...), "--help"),
			append(append([]string{}, path...), "-h"),
			append([]string{"help"}, path...),
		} {
			t.Run(strings.Join(ask, " "), func(t *testing.T) {
				out, errOut, code := runCLI(t, "", ask...)
				if code != 0 || errOut != "" {
					t.Fatalf("exit %d, stderr %q", code, errOut)
				}
				if n := strings.Count(out, "Usage:"); n != 1 {
					t.Errorf("help has %d Usage: sections, want 1:\n%s", n, out)
				}
			})
		}
	}
}

// Every command's help lists its exit codes, logmatch --help all of them.
func TestHelpListsExitCodes(t *testing.T) {
	for _, path := range commandPaths {
		out, _, _ := runCLI(t, "", append(append([]string{}, path...), "--help")...)
		if !strings.Contains(out, "Exit status:\n  0 ") {
			t.Errorf("%v --help has no exit codes:\n%s", path, out)
		}
	}
}

// helpExitCodes returns the codes of the "Exit status:" section of a help
// text: "0", "1", ..., "N".
func helpExitCodes(help string) []string {
	_, section, ok := strings.Cut(help, "\nExit status:\n")
	if !ok {
		return nil
	}
	var codes []string
	for _, l := range strings.Split(section, "\n") {
		if l == "" {
			break
		}
		if m := regexp.MustCompile(`^  (\d+|N)  `).FindStringSubmatch(l); m != nil {
			codes = append(codes, m[1])
		}
	}
	slices.Sort(codes)
	return codes
}

// The exit codes each command's help lists are the ones the README's
// table gives it; logmatch --help lists every code of the table.
func TestExitCodesMatchReadme(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "### Exit codes\n")
	if !ok {
		t.Fatal("the README has no Exit codes section")
	}
	table, _, _ = strings.Cut(table, "\n\n\n")
	// README rows: | code[, code] | meaning | commands |
	row := regexp.MustCompile("(?m)^\\| ([0-9N, ]+) \\| .* \\| ([^|]+) \\|$")
	rows := row.FindAllStringSubmatch(table, -1)
	if len(rows) < 5 {
		t.Fatalf("found %d rows in the README's exit code table:\n%s", len(rows), table)
	}
	var all []string
	applies := map[string][]string{} // command path to its codes per the README
	for _, path := range commandPaths {
		name := strings.Join(path, " ")
		for _, r := range rows {
			codes := strings.Split(r[1], ", ")
			if name == "" {
				applies[name] = append(applies[name], codes...)
				continue
			}
			for _, cmd := range strings.Split(r[2], ", ") {
				cmd = strings.TrimSpace(strings.TrimSuffix(cmd, " `-- COMMAND`"))
				// A command group has the codes of its subcommands.
				if cmd == "all" || cmd == name || strings.HasPrefix(cmd, name+" ") {
					applies[name] = append(applies[name], codes...)
					break
				}
			}
		}
		all = append(all, name)
	}
	for _, name := range all {
		want := applies[name]
		slices.Sort(want)
		want = slices.Compact(want)
		out, _, _ := runCLI(t, "", append(strings.Fields(name), "--help")...)
		if diff := cmp.Diff(want, helpExitCodes(out)); diff != "" {
			t.Errorf("logmatch %s --help: exit codes differ from the README's table (-README +help):\n%s", name, diff)
		}
	}
}

// A usage error says what is wrong and where help is, on stderr only; the
// whole help never lands on stdout, where it would pollute a pipe.
func TestUsageErrorsOnStderr(t *testing.T) {
	for _, args := range [][]string{
		{"scan", "--nope", "x.log"},
		{"scan", "--format", "yaml", "x.log"},
		{"scan"},
		{"run", "--group-window", "five minutes"},
		{"run", "server.log"},
		{"validate", "--nope"},
		{"test", "--line", "x", "--nope"},
		{"notify", "--group-window", "soon"},
		{"patterns", "gen"},
		{"patterns", "lint", "--show", "everything"},
		{"patterns", "frob"},
		{"patterns"},
		{"config"},
		{"version", "extra"},
		{"completion", "tcsh"},
		{"frobnicate"},
		{"help", "nope"},
		{},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, errOut, code := runCLI(t, "", args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, errOut)
			}
			if out != "" {
				t.Errorf("stdout is not empty:\n%s", out)
			}
			if errOut == "" {
				t.Errorf("stderr is empty")
			}
		})
	}
}

// Flags may come before, between or after the arguments.
func TestFlagsAnywhere(t *testing.T) {
	seed := "../../testdata/logs/seed-ascend.log"
	for _, args := range [][]string{
		{"scan", "--format", "json", "--fail-on", "critical", seed},
		{"scan", seed, "--format", "json", "--fail-on", "critical"},
		{"scan", "--format", "json", seed, "--fail-on", "critical"},
		{"scan", "--format=json", seed, "--fail-on=critical"},
	} {
		out, errOut, code := runCLI(t, "", args...)
		if code != exitFound || !strings.Contains(out, `"schema":"logmatch.alert/v1"`) {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}

func TestVersionFlagAndCompletion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, _, code := runCLI(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "logmatch ") || strings.Count(out, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	for shell, want := range map[string]string{
		"bash": "__start_logmatch", "zsh": "#compdef logmatch", "fish": "complete -c logmatch", "powershell": "Register-ArgumentCompleter",
	} {
		out, errOut, code := runCLI(t, "", "completion", shell)
		if code != 0 || !strings.Contains(out, want) || errOut != "" {
			t.Errorf("completion %s: exit %d, lacks %q; stderr %q", shell, code, want, errOut)
		}
	}
}

// run's failures that are not the caller's are not "usage" and not 2; a
// missing wrapped command is 127, as in a shell.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	st, err := state.Open(locked, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	damaged := filepath.Join(dir, "damaged")
	if err := os.MkdirAll(damaged, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(damaged, "state.db"), bytes.Repeat([]byte("not a database "), 600), 0o600); err != nil {
		t.Fatal(err)
	}
	noexec := filepath.Join(dir, "noexec.sh")
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badConfig := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badConfig, []byte("group_windw: 5m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	base := []string{"run", "--http-addr", "", "--path", "-"}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"command not found", []string{"run", "--http-addr", "", "--state-dir", filepath.Join(dir, "s1"), "--", "logmatch-no-such-command"}, exitNotFound, "logmatch run: logmatch-no-such-command: command not found\n"},
		{"command not executable", []string{"run", "--http-addr", "", "--state-dir", filepath.Join(dir, "s2"), "--", noexec}, exitNoExec, "permission denied"},
		{"locked state directory", append(base, "--state-dir", locked), exitFailure, "locked by another process"},
		{"damaged state directory", append(base, "--state-dir", damaged), exitFailure, "state"},
		{"port in use", []string{"run", "--http-addr", busy.Addr().String(), "--path", "-", "--state-dir", filepath.Join(dir, "s5")}, exitFailure, "address already in use"},
		{"configuration error", append(base, "--state-dir", filepath.Join(dir, "s3"), "--config", badConfig), exitUsage, "group_windw: unknown key (did you mean group_window?)"},
		{"catalog that does not load", append(base, "--state-dir", filepath.Join(dir, "s4"), "--catalog", filepath.Join(dir, "none.jsonl")), exitUsage, "none.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errOut)
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantErr, errOut)
			}
			if tt.wantCode != exitUsage && strings.Contains(errOut, "usage") {
				t.Errorf("a runtime failure is labelled usage:\n%s", errOut)
			}
		})
	}
}

// run logs what it does at start (the files it follows, at debug level,
// its sinks, its address, the catalog size) and at stop, and warns about
// a glob that matches nothing.
func TestRunLogsStartAndStop(t *testing.T) {
	dir := t.TempDir()
	followed := filepath.Join(dir, "logs", "server.log")
	if err := os.MkdirAll(filepath.Dir(followed), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(followed, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "run", "--http-addr", "127.0.0.1:0", "--state-dir", filepath.Join(dir, "state"), "--log-format", "json",
		"--log-level", "debug", "--path", "-", "--path", filepath.Join(dir, "logs", "*.log"),
		"--path", filepath.Join(dir, "nothing-here", "*.log"), "--sink", "stdout")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var started, followedLogged, warned, stopped bool
	for _, l := range strings.Split(strings.TrimSpace(errOut), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		switch rec["msg"] {
		case "logmatch started":
			started = rec["catalog_records"].(float64) > 0 && rec["stdin"] == true &&
				fmt.Sprint(rec["sinks"]) == "[stdout (stdout)]" && rec["files"] == 1.0 &&
				strings.HasPrefix(fmt.Sprint(rec["http_addr"]), "127.0.0.1:") && !strings.HasSuffix(fmt.Sprint(rec["http_addr"]), ":0")
		case "following file":
			followedLogged = rec["path"] == followed
		case "glob matches no file; nothing is read from it until a file appears":
			warned = strings.HasSuffix(rec["glob"].(string), "nothing-here/*.log")
		case "logmatch stopped":
			stopped = true
		}
	}
	if !started || !followedLogged || !warned || !stopped {
		t.Errorf("started %v, followed %v, warned %v, stopped %v; log:\n%s", started, followedLogged, warned, stopped, errOut)
	}
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	write := func(path, s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(good, "state_dir: "+dir+"\nsinks:\n  - type: webhook\n    url: http://127.0.0.1:1/hook\n")
	write(bad, "state_dir: "+dir+"\nsinks:\n  - type: slack\n    url: https://hooks.slack.com/x\n    chanel: '#a'\n  - type: webhook\n    url_file: "+filepath.Join(dir, "missing")+"\n")
	// A catalog with a broken line and a good record, and a configuration
	// that has problems of its own and names it.
	badCatalog := filepath.Join(dir, "bad.jsonl")
	write(badCatalog, `{"id":"good1","messagePattern":"first good"}`+"\n"+`{"id":"broken", "messagePattern": `+"\n")
	goodCatalog := filepath.Join(dir, "good.jsonl")
	write(goodCatalog, `{"id":"good1","messagePattern":"first good"}`+"\n")
	missingCatalog := filepath.Join(dir, "missing.jsonl")
	typo := filepath.Join(dir, "typo.yaml")
	write(typo, "state_dir: "+dir+"\ngroup_windw: 5m\ncatalogs:\n  - "+badCatalog+"\n  - "+missingCatalog+"\nsinks:\n  - type: webhook\n    url: ftp://h/x\n")
	broken := filepath.Join(dir, "broken.yaml")
	write(broken, "catalogs: ["+goodCatalog+"\nstate_dir: "+dir+"\n")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  []string
	}{
		{"clean", []string{"validate", "--config", good}, 0, []string{"ok: 1 sink (webhook)"}},
		{"problems with places", []string{"validate", "--config", bad}, 1, []string{
			"bad.yaml:5: sinks[0].chanel: unknown key (did you mean channel?)",
			"bad.yaml:7: sinks[1].url_file: open " + filepath.Join(dir, "missing"),
			"2 problems",
		}},
		{"catalog problems", []string{"validate", "--config", good, "--catalog", filepath.Join(dir, "none.jsonl")}, 1, []string{"none.jsonl"}},
		{"a glob that matches nothing is a warning", []string{"validate", "--config", good, "--path", filepath.Join(dir, "*.nolog")}, 0, []string{"warning: paths: ", "1 warning"}},
		{"flags before the config", []string{"validate", "--group-window", "0", "--config", good}, 0, []string{"ok:"}},
		{"a configuration with problems still has its catalogs checked", []string{"validate", "--config", typo}, 1, []string{
			"typo.yaml:2: group_windw: unknown key (did you mean group_window?)\n",
			"typo.yaml:8: sinks[0].url: not an absolute http or https URL\n",
			"catalog " + missingCatalog + ": ",
			"bad.jsonl:2: ",
			"4 problems, 0 warnings\n",
		}},
		{"a configuration that does not parse, catalogs by flag", []string{"validate", "--config", broken, "--catalog", badCatalog}, 1, []string{
			"broken.yaml:",
			"bad.jsonl:2: ",
			"2 problems",
		}},
		{"a configuration that does not parse names no catalog to check", []string{"validate", "--config", broken}, 1, []string{
			"broken.yaml:",
			"note: catalogs not checked: the configuration's catalogs did not load (give --catalog to check them)\n",
			"1 problem",
		}},
		{"a missing configuration, a clean catalog by flag", []string{"validate", "--config", filepath.Join(dir, "none.yaml"), "--catalog", goodCatalog}, 1, []string{
			"--config: open " + filepath.Join(dir, "none.yaml"),
			"1 problem",
		}},
		{"a wrapped command that is not there, a state_dir that is a file", []string{"validate", "--config", good, "--state-dir", good, "--", "logmatch-no-such-command"}, 1, []string{
			"state_dir: " + good + " is not a directory\n",
			"command: logmatch-no-such-command: command not found\n",
			"2 problems",
		}},
		{"a configuration with problems still has its command checked", []string{"validate", "--config", typo, "--", "logmatch-no-such-command"}, 1, []string{
			"group_windw: unknown key",
			"command: logmatch-no-such-command: command not found\n",
		}},
		{"a clean configuration and catalog", []string{"validate", "--config", good, "--catalog", goodCatalog, "--no-default-catalog"}, 0, []string{"ok: 1 sink (webhook), 1 catalog record, 0 warnings\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.wantCode, out, errOut)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// validate opens no state, creates nothing and sends nothing, even with
// a reachable sink and a state directory that does not exist yet.
func TestValidateHasNoSideEffects(t *testing.T) {
	var requests atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { requests.Add(1) }))
	defer hook.Close()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	cfg := filepath.Join(dir, "logmatch.yaml")
	if err := os.WriteFile(cfg, []byte("state_dir: "+state+"\nsinks:\n  - type: webhook\n    url: "+hook.URL+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "validate", "--config", cfg, "--http-addr", "127.0.0.1:0")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("validate touched the state directory: %v", err)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("validate sent %d requests to a sink", n)
	}
}

// notify sends one test alert to each sink and reports each answer; one
// refusing sink makes the exit 1 and does not stop the others.
func TestNotify(t *testing.T) {
	var mu sync.Mutex
	got := map[string]string{}
	record := func(name string, status int, answer string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			got[name] = string(b)
			mu.Unlock()
			w.WriteHeader(status)
			io.WriteString(w, answer)
		}
	}
	slack := httptest.NewServer(record("slack", 200, "ok"))
	defer slack.Close()
	hook := httptest.NewServer(record("webhook", 200, ""))
	defer hook.Close()
	am := httptest.NewServer(record("alertmanager", 200, ""))
	defer am.Close()
	down := httptest.NewServer(record("down", 503, "maintenance"))
	defer down.Close()
	revoked := httptest.NewServer(record("revoked", 404, "no_service"))
	defer revoked.Close()

	dir := t.TempDir()
	cfg := filepath.Join(dir, "logmatch.yaml")
	// digest_threshold 1 and icon_emoji are valid: they build, and the
	// icon reaches Slack.
	yaml := fmt.Sprintf(`sinks:
  - type: slack
    url: %s/services/T/B/x
    digest_threshold: 1
    icon_emoji: ":rotating_light:"
  - type: webhook
    url: %s/hook
  - type: alertmanager
    url: %s
`, slack.URL, hook.URL, am.URL)
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "notify", "--config", cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, name := range []string{"slack (slack): ok", "webhook (webhook): ok", "alertmanager (alertmanager): ok"} {
		if !strings.Contains(out, name) {
			t.Errorf("output lacks %q:\n%s", name, out)
		}
	}
	for name, body := range got {
		if !strings.Contains(body, "logmatch-test-alert") {
			t.Errorf("%s got no labelled test alert: %s", name, body)
		}
	}
	if !strings.Contains(got["slack"], `"icon_emoji":":rotating_light:"`) {
		t.Errorf("slack message lacks the configured icon_emoji: %s", got["slack"])
	}

	out, errOut, code = runCLI(t, "", "notify", "--sink", "webhook="+down.URL, "--sink", "slack="+revoked.URL+"/services/T/B/y", "--sink", "stdout")
	if code != exitFound {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"webhook (webhook): failed, may pass later:", "503", "slack (slack): failed:", "no_service", "stdout (stdout): ok", `"slug":"logmatch-test-alert"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "2 of 3 sinks failed") {
		t.Errorf("stderr lacks the failure count:\n%s", errOut)
	}
}

// notify against a real Alertmanager: the test alert is accepted and
// shows up in its API, labelled as logmatch's.
func TestNotifyRealAlertmanager(t *testing.T) {
	base := startAlertmanager(t)
	out, errOut, code := runCLI(t, "", "notify", "--sink", "alertmanager="+base)
	if code != 0 || !strings.Contains(out, "alertmanager (alertmanager): ok") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	resp, err := http.Get(base + "/api/v2/alerts")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var alerts []struct {
		Labels map[string]string `json:"labels"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&alerts); err != nil {
		t.Fatal(err)
	}
	if len(alerts) != 1 || alerts[0].Labels["slug"] != "logmatch-test-alert" || alerts[0].Labels["alertname"] != "LogmatchIncident" {
		t.Errorf("alerts = %+v", alerts)
	}
}

// startAlertmanager runs /usr/bin/prometheus-alertmanager on loopback and
// returns its base URL; it skips when Alertmanager is not installed,
// unless LOGMATCH_TEST_REQUIRE_TOOLS=1.
func startAlertmanager(t *testing.T) string {
	t.Helper()
	bin := "/usr/bin/prometheus-alertmanager"
	if _, err := os.Stat(bin); err != nil {
		bin = requireTool(t, "alertmanager")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "alertmanager.yml")
	if err := os.WriteFile(cfg, []byte("route:\n  receiver: drop\nreceivers:\n  - name: drop\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var buf bytes.Buffer
	logs := &syncWriter{w: &buf, mu: &sync.Mutex{}}
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--cluster.listen-address=")
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	base := "http://" + addr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := http.Get(base + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	logs.mu.Lock()
	defer logs.mu.Unlock()
	t.Fatalf("alertmanager not ready at %s:\n%s", base, buf.String())
	return ""
}

// On a terminal, a scan of several files draws its progress on stderr
// while it runs (files done, MB, MB/s, incidents so far) and clears it at
// the end; stdout gets only the results. Standard input, the second file,
// is held open until the line shows the first file's incidents.
func TestScanProgressOnATerminal(t *testing.T) {
	stdin, feed := io.Pipe()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- runMain(context.Background(), []string{"scan", "../../testdata/logs/seed-ascend.log", "-"}, env{
			stdin: stdin, stdout: &stdout, stderr: &stderr,
			getenv: func(string) string { return "" }, stderrTTY: true,
		})
	}()
	line := regexp.MustCompile(`\r\x1b\[Kscanning: 1/2 files, \d+\.\d MB, \d+\.\d MB/s, [1-9]\d* incidents?`)
	deadline := time.Now().Add(30 * time.Second)
	for !line.MatchString(stderr.String()) {
		if time.Now().After(deadline) {
			feed.Close()
			got := stderr.String()
			t.Fatalf("no progress line with the first file's incidents on stderr:\n%q", got[max(0, len(got)-300):])
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := io.WriteString(feed, "[2026-05-28 00:11:09 TP0] RuntimeError: CUDA error: out of memory\n"); err != nil {
		t.Fatal(err)
	}
	feed.Close()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !strings.HasSuffix(stderr.String(), "\r\x1b[K") {
		t.Errorf("the progress line is not cleared at the end:\n%q", stderr.String())
	}
	if strings.Contains(stdout.String(), "scanning:") || !strings.Contains(stdout.String(), "ascend-transfer-engine") {
		t.Errorf("stdout is not the results alone:\n%s", stdout.String())
	}
}

// A pipe gets no progress: a scan with stderr not a terminal writes
// nothing there, and its progress draws nothing however long it runs.
func TestScanProgressNotOnAPipe(t *testing.T) {
	var out, errb bytes.Buffer
	code := runMain(context.Background(), []string{"scan", "../../testdata/logs/seed-ascend.log", "-"}, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(string) string { return "" }, stderrTTY: false,
	})
	if code != 0 || errb.Len() != 0 {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	var w bytes.Buffer
	p := newProgress(env{stderr: &w, stderrTTY: false}, 2)
	t0 := time.Now()
	p.now = func() time.Time { return t0 }
	stop := p.start(context.Background())
	p.now = func() time.Time { return t0.Add(time.Hour) }
	p.tick()
	stop()
	r := strings.NewReader("x")
	if w.Len() != 0 || p.reader(r) != io.Reader(r) || p.onIncidents() != nil {
		t.Errorf("progress is on without a terminal: wrote %q", w.String())
	}
}

// A single file shows its progress only after a second; several files
// from the start. The line counts files, bytes, the rate and incidents.
func TestScanProgressLine(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		files int
		at    time.Duration
		want  string
	}{
		{"one file, under a second", 1, 500 * time.Millisecond, ""},
		{"one file, after a second", 1, 2 * time.Second, "\r\x1b[Kscanning: 1/1 files, 3.0 MB, 1.5 MB/s, 2 incidents"},
		{"several files, at once", 3, 0, "\r\x1b[Kscanning: 1/3 files, 3.0 MB, 0.0 MB/s, 2 incidents"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var w bytes.Buffer
			p := newProgress(env{stderr: &w, stderrTTY: true}, tt.files)
			p.now = func() time.Time { return t0 }
			p.started = t0
			if _, err := io.Copy(io.Discard, p.reader(strings.NewReader(strings.Repeat("x", 3e6)))); err != nil {
				t.Fatal(err)
			}
			p.onIncidents()(2)
			p.now = func() time.Time { return t0.Add(tt.at) }
			p.tick()
			if got := w.String(); got != tt.want {
				t.Errorf("drew %q, want %q", got, tt.want)
			}
		})
	}
	p := newProgress(env{stderr: io.Discard, stderrTTY: true}, 1)
	p.onIncidents()(1)
	if got := p.line(); !strings.HasSuffix(got, ", 1 incident") {
		t.Errorf("line = %q", got)
	}
}
