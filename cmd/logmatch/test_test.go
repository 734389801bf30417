package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTestCommand(t *testing.T) {
	catalog := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(catalog, []byte(`{"id":"x1","slug":"model-load","messagePattern":"model (?<name>\\w+) failed to load from \\d+","severity":"error","solutions":["a"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{"a line", []string{"test", "--line", "RuntimeError: CUDA error: out of memory"}, 0, []string{
			"cause record cuda-error-out-of-memory", "1. cuda-error-out-of-memory [cause]", "why: role cause; informed: ", `alert:      {"schema":"logmatch.alert/v1"`,
		}},
		{"a file: cause, context, rank reasons", []string{"test", "../../examples/sglang-crash.log"}, 0, []string{
			"exception:  RuntimeError: Ascend Transfer Engine initialization failed.",
			"context:    scheduler-hit-an-exception (wrapper)",
			"errorClass RuntimeError agrees with the exception",
			"[context]",
			"diagnosis:  not a failure (no alert)",
		}},
		{"expect met", []string{"test", "--line", "RuntimeError: CUDA error: out of memory", "--expect", "cuda-error-out-of-memory"}, 0, nil},
		{"expect not met", []string{"test", "--line", "RuntimeError: CUDA error: out of memory", "--expect", "prefill-out-of-memory"}, 1, nil},
		{"expect with no failure", []string{"test", "--line", "Load weight begin.", "--expect", "prefill-out-of-memory"}, 1, nil},
		{"an ad-hoc pattern and its groups", []string{"test", "--line", "RuntimeError: CUDA error: out of memory", "--pattern", `CUDA error: (?<what>.+)`}, 0, []string{
			`--pattern:  matches "CUDA error: out of memory"; groups: what="out of memory"`,
		}},
		{"an ad-hoc pattern that fails, and where", []string{"test", "--line", "CUDA error: out of memry", "--pattern", `CUDA error: out of memory`}, 0, []string{
			`--pattern:  the regex does not match: "CUDA error: out of mem" matches, then "ory" fails at "ry"`,
		}},
		{"explain: a missing literal", []string{"test", "--line", "CUDA error: out of memry", "--explain", "cuda-error-out-of-memory"}, 0, []string{
			`--explain cuda-error-out-of-memory: the prefilter skips it: the text lacks "`,
			` | cudaErrorMemoryAllocation | `,
		}},
		{"explain: where the regex fails", []string{"test", "--no-default-catalog", "--catalog", catalog, "--line", "model qwen failed to load from /models", "--explain", "model-load"}, 0, []string{
			`the regex does not match: "model (?<name>\\w+) failed to load from " matches, then "\\d+" fails at "/models"`,
		}},
		{"explain: a record that matches", []string{"test", "--no-default-catalog", "--catalog", catalog, "--line", "model qwen failed to load from 42", "--explain", "x1"}, 0, []string{
			"--explain model-load: matches, as cause", `groups: name="qwen"`,
		}},
		{"unknown record", []string{"test", "--line", "x", "--explain", "no-such-record"}, 2, nil},
		{"nothing to test", []string{"test"}, 2, nil},
		{"bad pattern", []string{"test", "--line", "x", "--pattern", "(unclosed"}, 2, nil},
		{"unreadable file", []string{"test", "/nonexistent/server.log"}, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.wantCode, out, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestTestCommandJSON(t *testing.T) {
	out, errOut, code := runCLI(t, "", "test", "--format", "json", "../../examples/sglang-crash.log", "--explain", "scheduler-hit-an-exception")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	found := false
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r testEntry
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if len(r.Context) == 0 || r.Cause == nil || r.Cause.Slug != "ascend-transfer-engine-initialization-failed" {
			continue
		}
		found = true
		if r.Alert == nil || r.Alert.Schema != "logmatch.alert/v1" || r.Exception == "" {
			t.Errorf("entry with context: %+v", r)
		}
		if r.Explain == nil || r.Explain.As != "context" || !r.Explain.Explanation.Matched {
			t.Errorf("explain = %+v", r.Explain)
		}
		if len(r.Matches) < 2 || len(r.Matches[0].Reasons) == 0 {
			t.Errorf("matches = %+v", r.Matches)
		}
	}
	if !found {
		t.Errorf("no Ascend entry with its wrapper as context:\n%s", out)
	}
}

// TestTestCatalogCache: logmatch test keeps the catalog's facts as scan
// does, and a second run from them diagnoses alike.
func TestTestCatalogCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	args := []string{"test", "--catalog-cache", cache, "--format", "json", "--line", "[2026-05-28 00:11:09 TP0] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"}
	out1, err1, code := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, err1)
	}
	if files, _ := filepath.Glob(filepath.Join(cache, "*.facts")); len(files) != 1 {
		t.Fatalf("cache holds %v, want one fact file", files)
	}
	out2, err2, code := runCLI(t, "", args...)
	if code != 0 || out2 != out1 || err2 != err1 {
		t.Errorf("second run from the cache: exit %d, same output %t, stderr %q", code, out2 == out1, err2)
	}
}

// The declarative cases shipped for the default catalog pass, through the
// command as an operator runs it; a failed case makes the exit status 1.
func TestDefaultCatalogCases(t *testing.T) {
	out, errOut, code := runCLI(t, "", "test", "--cases", "../../testdata/cases/default.yaml")
	if code != 0 || !strings.Contains(out, " passed, 0 failed") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("cases:\n  - name: wrong record\n    lines: \"RuntimeError: CUDA error: an illegal memory access was encountered\"\n    expect: {record: cuda-out-of-memory}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "", "test", "--cases", bad)
	if code != 1 || !strings.Contains(out, "FAIL  wrong record") || !strings.Contains(out, "want cuda-out-of-memory, got cuda-illegal-memory-access") {
		t.Errorf("a failed case: exit %d\n%s", code, out)
	}
	_, errOut, code = runCLI(t, "", "test", "--cases", bad, "--line", "x")
	if code != 2 || !strings.Contains(errOut, "--cases takes no --line") {
		t.Errorf("--cases with --line: exit %d: %s", code, errOut)
	}
}

// test ends its text output with a tally, and --failures-only leaves the
// routine entries out.
func TestTestTallyAndFailuresOnly(t *testing.T) {
	in := "[2026-05-28 00:11:09 TP0] Decode batch. #running-req: 1\n[2026-05-28 00:11:10 TP0] RuntimeError: CUDA error: an illegal memory access was encountered\n"
	out, _, code := runCLI(t, in, "test", "-")
	if code != 0 || !strings.Contains(out, "2 entries, 1 failure (1 classified, 0 unclassified)") || !strings.Contains(out, "Decode batch") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, in, "test", "--failures-only", "-")
	if strings.Contains(out, "Decode batch") || !strings.Contains(out, "illegal memory access") || !strings.Contains(out, "2 entries, 1 failure") {
		t.Errorf("--failures-only:\n%s", out)
	}
}

// scan --server-version leaves out the records of other releases; a
// version that does not parse is a usage error naming the flag.
func TestScanServerVersion(t *testing.T) {
	in := "[2026-05-28 00:11:09] Watchdog timeout (self.watchdog_timeout=300)\n"
	out, _, code := runCLI(t, in, "scan", "--format", "json", "--server-version", "0.5.0", "-")
	if code != 0 || !strings.Contains(out, `"slug":"watchdog-timeout-legacy"`) {
		t.Fatalf("0.5.0: exit %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, in, "scan", "--format", "json", "--server-version", "0.6.0", "-")
	if strings.Contains(out, `"slug":"watchdog-timeout-legacy"`) {
		t.Errorf("0.6.0 matched a record removed in 0.5.7:\n%s", out)
	}
	_, errOut, code := runCLI(t, in, "scan", "--server-version", "x.y", "-")
	if code != 2 || !strings.Contains(errOut, "--server-version") {
		t.Errorf("a bad version: exit %d: %s", code, errOut)
	}
}
