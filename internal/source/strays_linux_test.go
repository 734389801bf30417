package source

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// logrotateHeld runs the real logrotate (create) on path, held by strace
// right after its rename of path until the writer has recreated path and
// written to it: logrotate then finds its destination taken, moves the
// writer's file aside (NAME-YYYYMMDDHH.backup) and creates its own. This is
// the instant a Python WatchedFileHandler hits by chance, made certain. The
// writer is stopped while logrotate finishes: under strace logrotate is slow
// enough for the writer to recreate the log again before logrotate's second
// create, and logrotate would then move that file to the same name,
// destroying the first, and give up. It returns when logrotate is done and
// the writer writes to the new file. Without strace the test is skipped
// (it fails under LOGMATCH_TEST_REQUIRE_TOOLS=1); where strace cannot
// trace (no ptrace in a container), it is skipped.
func logrotateHeld(t *testing.T, path string, writer *os.Process) {
	t.Helper()
	bin := requireTool(t, "logrotate")
	// strace holds logrotate between its rename and its create.
	st := requireTool(t, "strace")
	dir := filepath.Dir(path)
	conf := filepath.Join(dir, "logrotate.conf")
	writeFile(t, conf, path+" {\n  rotate 100\n  create\n  missingok\n  nocompress\n}\n")
	// The first rename that names path is logrotate's rename of the log:
	// strace stops logrotate with SIGSTOP right after it.
	cmd := exec.Command(st, "-f", "-o", os.DevNull, "-P", path,
		"-e", "trace=rename,renameat,renameat2",
		"-e", "inject=rename,renameat,renameat2:signal=SIGSTOP:when=1",
		bin, "-f", "-s", filepath.Join(dir, "logrotate.state"), conf)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Skipf("strace: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		select {
		case <-done: // ended: its group may be gone, and its id reused
		default: // still held (a failed wait): end strace and logrotate
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}()
	renamed := func() bool { _, err := os.Stat(path + ".1"); return err == nil }
	// The writer writes every few milliseconds: it has recreated the log
	// when a file is at path again, and written to it when that is not
	// empty.
	recreated := func() bool { fi, err := os.Stat(path); return err == nil && fi.Size() > 0 }
	waitHeld(t, "logrotate's rename", renamed, done, &out)
	waitHeld(t, "the writer to recreate the log", recreated, nil, nil)
	if err := writer.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = writer.Signal(syscall.SIGCONT) }() // also when the test fails
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Logf("logrotate: %v", err)
	}
	done <- nil // ended: nothing for the deferred cleanup to end
	if err := writer.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	t.Logf("logrotate: %s", strings.TrimSpace(out.String()))
	asides, _ := filepath.Glob(path + "-*.backup")
	if len(asides) != 1 {
		t.Fatalf("logrotate moved aside %v, want one file; its output: %s", asides, out.String())
	}
	waitHeld(t, "the writer to write to logrotate's new file", recreated, nil, nil)
}

// waitHeld waits until cond holds, for at most 20 s. A process that ends
// first (done) skips the test: strace could not trace.
func waitHeld(t *testing.T, what string, cond func() bool, done chan error, out *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if done != nil {
			select {
			case err := <-done:
				done <- err
				t.Skipf("strace ended before %s: %v: %s", what, err, out.String())
			default:
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 20s for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRealMovedAside runs the real writer (WatchedFileHandler) and the
// real logrotate, held so that logrotate moves the writer's recreated log
// aside: every line is delivered once, whether the rotation is seen live
// (polls that never see the moved-aside file, the watch, polling) or
// happens while logmatch is down.
func TestRealMovedAside(t *testing.T) {
	if testing.Short() {
		t.Skip("real writer tests take seconds")
	}
	t.Run("live, between two polls", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "app.log")
		wait, writer := startWriterProcess(t, p, "watched")
		h := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw})
		pollUntil := func(n int) {
			deadline := time.Now().Add(30 * time.Second)
			for len(h.got.all()) < n {
				if time.Now().After(deadline) {
					t.Fatalf("%d lines after 30s, want %d", len(h.got.all()), n)
				}
				time.Sleep(5 * time.Millisecond)
				h.poll()
			}
		}
		pollUntil(50)
		logrotateHeld(t, p, writer) // no poll meanwhile: the moved-aside file is never seen at the path
		h.poll()
		h.advance(2 * time.Second) // RotateWait over
		wait()
		pollUntil(realLines)
		h.poll()
		h.stop()
		checkExactlyOnce(t, numbersOf(t, h.got.texts()))
	})
	for _, noWatch := range []bool{false, true} {
		name := "live, watch"
		if noWatch {
			name = "live, polling"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			wait, writer := startWriterProcess(t, p, "watched")
			got, _ := realTail(t, p, Config{Format: FormatRaw, NoWatch: noWatch}, wait, func(n int) {
				if n == 1 {
					logrotateHeld(t, p, writer)
				}
			})
			checkExactlyOnce(t, got)
		})
	}
	t.Run("restart", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "app.log")
		wait, writer := startWriterProcess(t, p, "watched")
		first, cp := tailUntil(t, p, 100)
		logrotateHeld(t, p, writer) // while down
		got, _ := realTail(t, p, Config{Positions: mapPositions{p: cp}}, wait, func(int) {})
		checkExactlyOnce(t, append(numbersOf(t, first.texts()), got...))
	})
}
