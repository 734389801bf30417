package source

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// These tests run the real thing: Python's logging writes numbered lines
// while logrotate, or the test itself, rotates and truncates the file.

const realLines = 300

// writer starts testdata/writer.py; wait returns when it has exited.
func startWriter(t *testing.T, path, mode string) (wait func()) {
	t.Helper()
	wait, _ = startWriterProcess(t, path, mode)
	return wait
}

// startWriterProcess is startWriter that also gives the writer's process.
func startWriterProcess(t *testing.T, path, mode string) (wait func(), proc *os.Process) {
	t.Helper()
	py := requirePython(t)
	cmd := exec.Command(py, "testdata/writer.py", path, "300", "0.003", mode)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start writer: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	return func() {
		err := <-done
		done <- err
		if err != nil {
			t.Fatalf("writer: %v", err)
		}
	}, cmd.Process
}

// logrotate rotates path once with the given directive (create or
// copytruncate), as a cron job would with -f.
func logrotate(t *testing.T, path, directive string) {
	t.Helper()
	bin := requireTool(t, "logrotate")
	dir := filepath.Dir(path)
	conf := filepath.Join(dir, "logrotate.conf")
	writeFile(t, conf, path+" {\n  rotate 100\n  "+directive+"\n  missingok\n  nocompress\n}\n")
	out, err := exec.Command(bin, "-f", "-s", filepath.Join(dir, "logrotate.state"), conf).CombinedOutput()
	if err != nil {
		// A race with the writer recreating the file first is logrotate's
		// own complaint; the log itself is intact.
		t.Logf("logrotate: %v: %s", err, out)
	}
}

// realTail runs a Tailer with real polling over glob until the writer is
// done and its last line arrived, calling rotate every few lines.
func realTail(t *testing.T, glob string, cfg Config, writerWait func(), rotate func(n int)) ([]int, *tally) {
	t.Helper()
	obs := &tally{}
	cfg.Paths = []string{glob}
	cfg.PollInterval = 5 * time.Millisecond
	cfg.Observer = obs
	tl, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return drive(t, tl.Run, writerWait, rotate), obs
}

// drive runs a follower (our Tailer, or another library under evaluation)
// while the writer writes and rotate rotates every 80 ms, and returns the
// numbers of the lines it delivered.
func drive(t *testing.T, run func(context.Context, Emit) error, writerWait func(), rotate func(n int)) []int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	got := &collector{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, got.emit) }()

	writerDone := make(chan struct{})
	go func() { writerWait(); close(writerDone) }()
	rotations, lastCount, lastFile := 0, 0, FileID{}
	tick := time.NewTicker(80 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
wait:
	for {
		select {
		case <-writerDone:
			break wait
		case <-tick.C:
			// A file is seen once it stayed at its path for a poll: rotate
			// only after a line of the current file arrived (on a loaded
			// machine a poll can take longer than the rotation interval).
			lines := got.all()
			if n := len(lines); n > lastCount && (lines[n-1].File != lastFile || lastFile == FileID{}) {
				rotations++
				rotate(rotations)
				lastCount, lastFile = n, lines[n-1].File
			}
		case <-deadline:
			t.Fatal("writer did not finish in 60s")
		}
	}
	// Wait for the last line, then a little longer so a late duplicate
	// would show.
	for i := 0; i < 600; i++ {
		if l := got.all(); len(l) > 0 && strings.HasSuffix(l[len(l)-1].Text, " 300") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	return numbersOf(t, got.texts())
}

func seq(from, to int) []int {
	var s []int
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

// onDisk returns the numbers of every line left in the files matching glob.
func onDisk(t *testing.T, glob string) []int {
	t.Helper()
	files, _ := filepath.Glob(glob)
	var all []string
	for _, f := range files {
		if strings.HasSuffix(f, ".conf") || strings.HasSuffix(f, ".state") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if l != "" {
				all = append(all, l)
			}
		}
	}
	n := numbersOf(t, all)
	slices.Sort(n)
	return n
}

// checkExactlyOnce asserts 1..300, each once, in order.
func checkExactlyOnce(t *testing.T, got []int) {
	t.Helper()
	if !slices.Equal(got, seq(1, realLines)) {
		t.Errorf("delivered %d lines, want 1..%d once each in order; first difference: %s", len(got), realLines, firstDiff(got, seq(1, realLines)))
	}
}

// checkNoDupsCoversDisk asserts increasing numbers (nothing twice, nothing
// out of order) that include every line still on disk.
func checkNoDupsCoversDisk(t *testing.T, got, disk []int) {
	t.Helper()
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("line %d after %d: repeated or out of order", got[i], got[i-1])
		}
	}
	var missing []int
	for _, n := range disk {
		if _, ok := slices.BinarySearch(got, n); !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Errorf("lines on disk never delivered: %v", missing)
	}
	t.Logf("delivered %d of %d written; %d on disk", len(got), realLines, len(disk))
}

func firstDiff(got, want []int) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return "at index " + itoa(i) + ": got " + itoa(got[i]) + ", want " + itoa(want[i])
		}
	}
	return "lengths " + itoa(len(got)) + " and " + itoa(len(want))
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestRealRotation(t *testing.T) {
	if testing.Short() {
		t.Skip("real writer tests take seconds")
	}
	tests := []struct {
		name   string
		mode   string // writer handler
		glob   string // relative to the dir
		rotate func(t *testing.T, p string, n int)
		exact  bool // every line exactly once; otherwise no repeats and everything on disk
	}{
		{"logrotate create", "watched", "app.log", func(t *testing.T, p string, _ int) { logrotate(t, p, "create") }, true},
		{"logrotate copytruncate", "plain", "app.log", func(t *testing.T, p string, _ int) { logrotate(t, p, "copytruncate") }, false},
		{"logrotate copytruncate, copies in the glob", "plain", "app.log*", func(t *testing.T, p string, _ int) { logrotate(t, p, "copytruncate") }, false},
		{"rename without pause", "watched", "app.log", func(t *testing.T, p string, n int) {
			if err := os.Rename(p, p+"."+itoa(n)); err != nil && !os.IsNotExist(err) {
				t.Error(err)
			}
		}, true},
		{"delete and recreate", "watched", "app.log", func(t *testing.T, p string, _ int) {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Error(err)
			}
		}, true},
		{"truncate", "plain", "app.log", func(t *testing.T, p string, _ int) {
			if err := os.Truncate(p, 0); err != nil && !os.IsNotExist(err) {
				t.Error(err)
			}
		}, false},
	}
	for _, watch := range []bool{true, false} {
		mode := "watch"
		if !watch {
			mode = "poll" // the fallback: every 5 ms
		}
		for _, tc := range tests {
			t.Run(mode+"/"+tc.name, func(t *testing.T) {
				realRotation(t, tc.mode, tc.glob, !watch, tc.exact, tc.rotate)
			})
		}
	}
}

func realRotation(t *testing.T, writer, glob string, noWatch, exact bool, rotate func(t *testing.T, p string, n int)) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	wait := startWriter(t, p, writer)
	got, obs := realTail(t, filepath.Join(dir, glob), Config{Format: FormatRaw, NoWatch: noWatch}, wait, func(n int) { rotate(t, p, n) })
	if exact {
		checkExactlyOnce(t, got)
		if t.Failed() {
			disk := onDisk(t, filepath.Join(dir, "app.log*"))
			// got need not be sorted here: a line delivered late is not
			// lost.
			var lost []int
			for _, n := range seq(1, realLines) {
				if !slices.Contains(got, n) {
					lost = append(lost, n)
				}
			}
			var onDiskLost []int
			for _, n := range lost {
				if _, ok := slices.BinarySearch(disk, n); ok {
					onDiskLost = append(onDiskLost, n)
				}
			}
			t.Logf("not delivered: %v; of those still on disk: %v", lost, onDiskLost)
			var late []string
			for i := 1; i < len(got); i++ {
				if got[i] <= got[i-1] {
					late = append(late, itoa(got[i])+" after "+itoa(got[i-1]))
				}
			}
			t.Logf("repeated or out of order: %v", late)
			files, _ := filepath.Glob(filepath.Join(dir, "app.log*"))
			for _, f := range files {
				if b, err := os.ReadFile(f); err == nil {
					ls := strings.Split(strings.TrimSpace(string(b)), "\n")
					t.Logf("%s: %d lines, %q .. %q", filepath.Base(f), len(ls), ls[0], ls[len(ls)-1])
				}
			}
		}
	} else {
		checkNoDupsCoversDisk(t, got, onDisk(t, filepath.Join(dir, "app.log*")))
	}
	if obs.get(CountRotations)+obs.get(CountTruncations) == 0 {
		t.Error("no rotation or truncation was noticed")
	}
	t.Logf("rotations %d, truncations %d, copy tails %d", obs.get(CountRotations), obs.get(CountTruncations), obs.get(CountCopyTails))
}

// tailUntil follows p from its beginning until n lines arrived, and
// returns them and the checkpoint after the last: a tailer stopped mid-file.
func tailUntil(t *testing.T, p string, n int) (*collector, Checkpoint) {
	t.Helper()
	first := &collector{}
	var cp Checkpoint
	tl, err := New(Config{Paths: []string{p}, PollInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = tl.Run(context.Background(), func(ctx context.Context, l Line) error {
		_ = first.emit(ctx, l)
		cp = Checkpoint{File: l.File, Offset: l.Next}
		if len(first.all()) == 100 {
			return errStop
		}
		return nil
	})
	if err != errStop {
		t.Fatalf("first run: %v", err)
	}
	return first, cp
}

// TestRealRestart stops a tailer mid-file, lets the writer go on and
// logrotate rotate while logmatch is down, and resumes from the saved
// checkpoint: the two runs together deliver every line once.
func TestRealRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("real writer tests take seconds")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	wait := startWriter(t, p, "watched")

	first, cp := tailUntil(t, p, 100)
	logrotate(t, p, "create") // while down
	got, _ := realTail(t, p, Config{Positions: mapPositions{p: cp}}, wait, func(int) {})
	checkExactlyOnce(t, append(numbersOf(t, first.texts()), got...))
}
