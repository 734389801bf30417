package faultsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// linesRead sums logmatch_source_lines_total over every source.
func linesRead(metrics string) (sum int, sources int) {
	for _, line := range strings.Split(metrics, "\n") {
		if !strings.HasPrefix(line, "logmatch_source_lines_total{") {
			continue
		}
		f := strings.Fields(line)
		if v, err := strconv.ParseFloat(f[len(f)-1], 64); err == nil {
			sum += int(v)
			sources++
		}
	}
	return sum, sources
}

// Issue 33 finding 8, first part: with more static files than
// max_open_files (1,000 against the default 256), every file is read:
// they take turns. logmatch_source_files says how many wait, and a file
// whose turn is over is read again when it grows.
func TestFilesBeyondMaxOpenFilesTakeTurns(t *testing.T) {
	const files = 1000
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range files {
		c := serving(fmt.Sprintf("f%04d", i), 150)
		want += strings.Count(c, "\n")
		writeFile(t, logs, fmt.Sprintf("f%04d.log", i), c)
	}
	addr := freeAddr(t)
	p := start(t, "run", "--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", addr, "--group-window", "0", "--settle-time", "0")
	var metrics string
	read := func() int {
		_, metrics = get("http://" + addr + "/metrics")
		n, _ := linesRead(metrics)
		return n
	}
	if !waitFor(2*time.Minute, func() bool { return read() == want }) {
		n, sources := linesRead(metrics)
		t.Fatalf("%d of %d lines read, from %d of %d files\n%s\n%s", n, want, sources, files,
			grep(metrics, "logmatch_source_files"), p.stderr.String())
	}
	if !waitFor(time.Minute, func() bool {
		_, metrics = get("http://" + addr + "/metrics")
		return metricValue(metrics, `logmatch_source_files{state="waiting"}`) == 0
	}) {
		t.Errorf("files still waiting after all were read:\n%s", grep(metrics, "logmatch_source_files"))
	}
	if v := metricValue(metrics, `logmatch_source_files{state="open"}`); v > 256 {
		t.Errorf("%v files open, above max_open_files 256", v)
	}

	// The first file had its turn long ago; it grows with a failure.
	f, err := os.OpenFile(filepath.Join(logs, "f0000.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(traceback("LateTurnError")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "LateTurnError") == 1 }) {
		t.Errorf("no alert for a line appended to a file after its turn\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	p.wait(time.Minute)
}

// Issue 33 finding 8, second part: a file that logrotate moved into its
// olddir while logmatch was stopped, with lines written after the
// checkpoint, is found there by its identity (rotated_dirs) and those
// lines are read; nothing read before the stop is read again, and the
// new file at the path is read from its beginning.
func TestOlddirRotationWhileStoppedIsReadFromTheCheckpoint(t *testing.T) {
	dir := t.TempDir()
	logs, old := filepath.Join(dir, "logs"), filepath.Join(dir, "old")
	for _, d := range []string{logs, old} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	log := writeFile(t, logs, "server.log", serving("gen1", 2048)+traceback("BeforeStopError"))
	cfg := writeConfig(t, dir, fmt.Sprintf("rotated_dirs: [%q]\n", old))
	args := []string{"run", "--config", cfg, "--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--group-window", "0", "--settle-time", "0"}

	p := start(t, args...)
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "BeforeStopError") == 1 }) {
		t.Fatalf("no alert before the stop:\n%s\n%s", p.stdout.String(), p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("first run: exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}

	// While logmatch is stopped: the server writes on, then logrotate
	// (olddir) moves the file away and the server starts a new one.
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(traceback("AfterCheckpointError")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Rename(log, filepath.Join(old, "server.log.1")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, logs, "server.log", serving("gen2", 512)+traceback("NewFileError"))

	p = start(t, args...)
	for _, name := range []string{"AfterCheckpointError", "NewFileError"} {
		if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), name) == 1 }) {
			t.Errorf("no alert for %s after the restart:\n%s\n%s", name, p.stdout.String(), p.stderr.String())
		}
	}
	p.signal(interrupt)
	p.wait(time.Minute)
	if n := alertsOf(p.stdout.String(), "BeforeStopError"); n != 0 {
		t.Errorf("the restart alerted BeforeStopError again (%d)", n)
	}
}
