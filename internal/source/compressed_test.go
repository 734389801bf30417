package source

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTailerLeavesCompressedRotationsOut rotates a followed log with the
// real logrotate and its compress directive, under a glob that matches
// the compressed rotations too: every line is read once, no byte of a
// .gz is read as a line, and the tailer says once that it leaves them out.
func TestTailerLeavesCompressedRotationsOut(t *testing.T) {
	logrotate := requireTool(t, "logrotate")
	requireTool(t, "gzip")
	dir := t.TempDir()
	logDir := filepath.Join(dir, "log")
	if err := os.Mkdir(logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(logDir, "server.log")
	conf := filepath.Join(dir, "logrotate.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, "%s {\n  rotate 10\n  compress\n  create\n}\n", p), 0o644); err != nil {
		t.Fatal(err)
	}
	// A compressed rotation left by an earlier run, present at the start.
	if err := os.WriteFile(filepath.Join(logDir, "server.log.9.zst"), []byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0x58, 1, 0, 0, 'x'}, 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, numbered(1, 10))
	h := startTailer(t, Config{Paths: []string{filepath.Join(logDir, "*")}, Format: FormatRaw})
	h.poll()
	rotate := func() {
		t.Helper()
		out, err := exec.Command(logrotate, "-f", "-s", filepath.Join(dir, "status"), conf).CombinedOutput()
		if err != nil {
			t.Fatalf("logrotate: %v: %s", err, out)
		}
	}
	rotate()
	appendFile(t, p, numbered(11, 20))
	h.poll()
	h.advance(2 * time.Second) // past RotateWait: the renamed file is done
	rotate()
	appendFile(t, p, numbered(21, 30))
	h.poll()
	h.advance(2 * time.Second)
	h.stop()
	for _, n := range []string{"server.log.1.gz", "server.log.2.gz"} {
		if _, err := os.Stat(filepath.Join(logDir, n)); err != nil {
			t.Fatalf("logrotate did not compress as configured: %v", err)
		}
	}
	if diff := cmp.Diff(wantNumbered(1, 30), h.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if n := h.log.count("compressed files in the paths are not followed"); n != 1 {
		t.Errorf("the notice was logged %d times, want once: %q", n, h.log.msgs)
	}
}

func TestCompressedName(t *testing.T) {
	for name, want := range map[string]bool{
		"/l/server.log.1.gz": true, "/l/server.log.2.zst": true, "/l/a.log.bz2": true, "/l/a.log.xz": true,
		"/l/server.log": false, "/l/server.log.1": false, "/l/gzip.log": false, "/l/a.gzip": false,
	} {
		if got := compressedName(name); got != want {
			t.Errorf("compressedName(%q) = %v, want %v", name, got, want)
		}
	}
}
