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

// A reload of a catalog that no longer loads whole keeps the running
// catalog and reports each problem with its file:line. Before, the records
// that still loaded replaced it: an editor's half-written save (picked up
// by the file watch) or a typo in a record being edited silenced that
// record's alerts until the next good save, and a SIGHUP with a
// catastrophic pattern added dropped it the same way.
func TestBrokenCatalogReloadKeepsTheRunningOne(t *testing.T) {
	dir := t.TempDir()
	cat := writeFile(t, dir, "cat.jsonl", syntheticRecord+"\n")
	log := writeFile(t, dir, "app.log", "")
	p := start(t, "run", "--path", log, "--catalog", cat, "--no-default-catalog",
		"--state-dir", filepath.Join(dir, "state"), "--http-addr", "", "--group-window", "0")
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "catalog loaded") }) {
		t.Fatalf("no catalog loaded:\n%s", p.stderr.String())
	}
	failure := func(n int) {
		t.Helper()
		f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString("[2026-05-28 00:00:0" + string(rune('0'+n)) + " TP0] Synthetic failure #" + string(rune('0'+n)) + " in request\n"); err != nil {
			t.Fatal(err)
		}
	}
	alerted := func(n int) bool {
		return strings.Contains(p.stdout.String(), "Synthetic failure #"+string(rune('0'+n)))
	}
	refusals := func() int { return strings.Count(p.stderr.String(), "keeping the previous catalog") }

	// Another record, added by the edit that is being saved.
	other := strings.Replace(syntheticRecord, "fs00000000000002", "fs00000000000003", 1)
	other = strings.Replace(other, "synthetic-failure", "other-failure", 1)
	other = strings.Replace(other, "Synthetic failure", "Other failure", 1)

	// A save cut short: the file watch reloads the new record and half of
	// the running one.
	if err := os.WriteFile(cat, []byte(other+"\n"+syntheticRecord[:40]), 0o644); err != nil {
		t.Fatal(err)
	}
	if !waitFor(time.Minute, func() bool { return refusals() == 1 }) {
		t.Fatalf("the half-written catalog was not refused:\n%s", p.stderr.String())
	}
	if !strings.Contains(p.stderr.String(), "cat.jsonl:2") {
		t.Errorf("the problem is not reported at cat.jsonl:2:\n%s", p.stderr.String())
	}
	failure(1)
	if !waitFor(time.Minute, func() bool { return alerted(1) }) {
		t.Fatalf("the running record stopped alerting after a broken reload:\n%s", p.stderr.String())
	}

	// SIGHUP with a catastrophic pattern added before the good record.
	if err := os.WriteFile(cat, []byte(catastrophicRecord+"\n"+syntheticRecord+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The file watch sees the change first; SIGHUP asks again.
	p.signal(syscall.SIGHUP)
	if !waitFor(time.Minute, func() bool { return refusals() >= 2 && strings.Contains(p.stderr.String(), "refused") }) {
		t.Fatalf("the catastrophic catalog was not refused:\n%s", p.stderr.String())
	}
	failure(2)
	if !waitFor(time.Minute, func() bool { return alerted(2) }) {
		t.Fatalf("the running record stopped alerting after a refused SIGHUP:\n%s", p.stderr.String())
	}

	// Fixed: the new catalog (the second record) loads.
	if err := os.WriteFile(cat, []byte(syntheticRecord+"\n"+other+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "catalog reloaded") }) {
		t.Fatalf("the fixed catalog was not loaded:\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Errorf("exit after SIGTERM: %d, exited %v", code, ok)
	}
}
