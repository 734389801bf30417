package faultsuite

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	// catastrophicRecord backtracks exponentially on a run of "a" that
	// does not end the text: lint calls it an error.
	catastrophicRecord = `{"id":"fs00000000000001","slug":"catastrophic","messagePattern":"(a+)+$","severity":"error"}`
	// syntheticRecord is a harmless record the tests' lines match.
	syntheticRecord = `{"id":"fs00000000000002","slug":"synthetic-failure","messagePattern":"Synthetic failure #(\\d+) in request","severity":"error"}`
)

// pathological is n lines that make catastrophicRecord backtrack, then one
// that syntheticRecord matches.
func pathological(n int) string {
	line := strings.Repeat("a", 40) + "!\n"
	return strings.Repeat(line, n) + "Synthetic failure #7 in request\n"
}

// Issue 14 item 12: a pattern lint calls catastrophic is refused at load,
// reported with file:line, and the stream flows: before, each entry cost
// the pattern's timeout and its rerun (about 0.6 s), and 300 such lines
// took minutes.
func TestCatastrophicPatternRefusedAtLoad(t *testing.T) {
	dir := t.TempDir()
	cat := writeFile(t, dir, "cat.jsonl", catastrophicRecord+"\n"+syntheticRecord+"\n")
	res := run(t, []byte(pathological(300)), "run", "--path", "-", "--catalog", cat, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--http-addr", "")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "cat.jsonl:1") || !strings.Contains(res.stderr, "refused") {
		t.Errorf("the catastrophic record is not reported as refused at cat.jsonl:1:\n%s", res.stderr)
	}
	if !strings.Contains(res.stdout, "synthetic-failure") {
		t.Errorf("the good record's alert is missing:\n%s", res.stdout)
	}
}

// The same refusal on SIGHUP: a reloaded catalog with a catastrophic
// pattern loads without it, and says so with file:line.
func TestCatastrophicPatternRefusedOnReload(t *testing.T) {
	dir := t.TempDir()
	cat := writeFile(t, dir, "cat.jsonl", syntheticRecord+"\n")
	log := writeFile(t, dir, "app.log", "")
	p := start(t, "run", "--path", log, "--catalog", cat, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--http-addr", "")
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "catalog loaded") }) {
		t.Fatalf("no catalog loaded:\n%s", p.stderr.String())
	}
	if err := os.WriteFile(cat, []byte(catastrophicRecord+"\n"+syntheticRecord+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.signal(syscall.SIGHUP)
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "catalog reloaded") }) {
		t.Fatalf("no reload:\n%s", p.stderr.String())
	}
	if s := p.stderr.String(); !strings.Contains(s, "cat.jsonl:1") || !strings.Contains(s, "refused") {
		t.Errorf("the reload does not report the record at cat.jsonl:1 as refused:\n%s", s)
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Errorf("exit after SIGTERM: %d, exited %v", code, ok)
	}
}
