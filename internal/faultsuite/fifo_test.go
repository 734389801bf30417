package faultsuite

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// A hostile writer of the log directory swaps a matching name between a
// regular file and a FIFO as fast as it can. A FIFO is never a log file:
// an open of one with no writer blocks, so a tailer that checked the name
// and then opened it would hang on the FIFO that replaced the file in
// between, and read nothing more from any file. Every file is opened
// without blocking and checked through its descriptor, so after the race
// a failure written to another file is still alerted.
func TestFIFOSwappedInIsNeverOpenedBlocking(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	p := start(t, "run", "--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--start-at", "beginning", "--group-window", "0")
	target := filepath.Join(logs, "swap.log")
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		reg := filepath.Join(logs, "reg.tmp."+strconv.Itoa(i))
		fifo := filepath.Join(logs, "fifo.tmp."+strconv.Itoa(i))
		if err := os.WriteFile(reg, []byte("[2026-05-28 00:00:00] Decode batch\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(reg, target); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(fifo, target); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, logs, "server.log", traceback("AfterTheSwapsError"))
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "AfterTheSwapsError") == 1 }) {
		t.Fatalf("no alert for a file written after the swaps: the tailer is stuck\nstderr:\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
}
