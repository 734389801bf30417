package faultsuite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeConfig writes a logmatch.yaml with body into dir and returns its
// path.
func writeConfig(t *testing.T, dir, body string) string {
	t.Helper()
	return writeFile(t, dir, "logmatch.yaml", body)
}

// Issue 14 item 17: a link in the watched directory to a file outside it
// (a mounted secret) is never read, so its content never goes out in an
// alert; the refusal is logged. A real file beside it is read as usual.
func TestSymlinkOutOfTheRootsIsNotRead(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	secrets := filepath.Join(dir, "secrets")
	for _, d := range []string{logs, secrets} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := writeFile(t, secrets, "token", traceback("SecretLeakError"))
	if err := os.Symlink(secret, filepath.Join(logs, "stolen.log")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, logs, "server.log", traceback("RealServerError"))
	p := start(t, "run", "--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--start-at", "beginning", "--group-window", "0")
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "RealServerError") == 1 }) {
		t.Fatalf("no alert for the real file:\n%s\n%s", p.stdout.String(), p.stderr.String())
	}
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "outside the allowed roots") }) {
		t.Errorf("the refused link is not logged:\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
	if n := alertsOf(p.stdout.String(), "SecretLeakError"); n != 0 || strings.Contains(p.stdout.String(), "SecretLeakError") {
		t.Errorf("the linked secret was read: %d alerts\n%s", n, p.stdout.String())
	}
}

// Issue 14 item 3: a file truncated and rewritten to exactly the same size
// between two polls (polling only, no watch) is read again: the new
// content's failure is alerted.
func TestSameSizeRewriteIsRead(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "watch: false\npoll_interval: 250ms\n")
	first := serving("gen1", 2048) + traceback("AlphaRoundError")
	second := serving("gen2", 2048) + traceback("BravoRoundError")
	if len(first) != len(second) {
		t.Fatalf("contents differ in size: %d and %d", len(first), len(second))
	}
	log := writeFile(t, dir, "server.log", first)
	p := start(t, "run", "--config", cfg, "--path", log, "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--start-at", "beginning", "--group-window", "0")
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "AlphaRoundError") == 1 }) {
		t.Fatalf("no alert for the first content:\n%s\n%s", p.stdout.String(), p.stderr.String())
	}
	if err := os.WriteFile(log, []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(log); err != nil || fi.Size() != int64(len(first)) {
		t.Fatalf("rewritten file: %v, %v", fi, err)
	}
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "BravoRoundError") == 1 }) {
		t.Fatalf("the same-size rewrite was not read:\n%s\n%s", p.stdout.String(), p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
}

// Issue 14 item 9: more matching files than max_open_files. The cap is
// logged instead of passed over in silence, and the files beyond it are
// read once others close: every file's failure is alerted.
func TestFilesBeyondTheOpenCapAreLoggedAndReadLater(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, dir, "max_open_files: 2\n")
	names := []string{"AlphaCapError", "BravoCapError", "CharlieCapError", "DeltaCapError"}
	for _, n := range names {
		writeFile(t, logs, strings.ToLower(n)+".log", traceback(n))
	}
	p := start(t, "run", "--config", cfg, "--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--start-at", "beginning", "--group-window", "0")
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "max_open_files reached") }) {
		t.Fatalf("the open-file cap is not logged:\n%s", p.stderr.String())
	}
	// Files close when they are deleted and drained; delete each one
	// once its alert is out, and the next file gets a slot.
	for done := 0; done < len(names); {
		progressed := waitFor(time.Minute, func() bool {
			n := 0
			for _, name := range names {
				n += alertsOf(p.stdout.String(), name)
			}
			return n > done
		})
		if !progressed {
			t.Fatalf("%d of %d files alerted:\n%s\n%s", done, len(names), p.stdout.String(), p.stderr.String())
		}
		done = 0
		for _, name := range names {
			if alertsOf(p.stdout.String(), name) == 1 {
				done++
				_ = os.Remove(filepath.Join(logs, strings.ToLower(name)+".log"))
			}
		}
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
}

// The log directory is deleted with its file and created again (a volume
// remounted, a log directory cleaned by hand): the watch on it is gone
// with it, and the file written in the new directory is still read.
func TestLogDirectoryDeletedAndRecreated(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, logs, "server.log", traceback("BeforeTheRemovalError"))
	p := start(t, "run", "--path", filepath.Join(logs, "*.log"), "--state-dir", filepath.Join(dir, "state"),
		"--http-addr", "", "--start-at", "beginning", "--group-window", "0")
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "BeforeTheRemovalError") == 1 }) {
		t.Fatalf("no alert for the first file:\n%s", p.stderr.String())
	}
	if err := os.RemoveAll(logs); err != nil {
		t.Fatal(err)
	}
	// Give the tailer a look at the missing directory before it returns.
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "glob matches no file") }) {
		t.Logf("the empty glob was not logged:\n%s", p.stderr.String())
	}
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, logs, "server.log", traceback("AfterTheRecreationError"))
	if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "AfterTheRecreationError") == 1 }) {
		t.Fatalf("no alert for the file in the recreated directory:\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	if code, ok := p.wait(time.Minute); !ok || code != 0 {
		t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
	}
	if n := alertsOf(p.stdout.String(), "BeforeTheRemovalError"); n != 1 {
		t.Errorf("the first file's failure was alerted %d times, want once", n)
	}
}

// A file truncated and written past its old size before the tailer looks
// again (with polling, between two polls; with the watch, in one burst):
// its size alone says it grew, and the bytes past the old offset are the
// middle of the new content, after its failure. The new content is read from its start: its
// failure alerted, the old one's never again.
func TestTruncateThenGrowPastTheOffsetIsRead(t *testing.T) {
	for _, tc := range []struct{ name, cfg string }{
		{"poll", "watch: false\npoll_interval: 250ms\n"},
		{"watch", "watch: true\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, tc.cfg)
			first := serving("gen1", 2048) + traceback("AlphaGrowError")
			// The new content's failure lies before the old offset: read
			// from there, it would be missed.
			second := traceback("BravoGrowError") + serving("gen2", 8192)
			log := writeFile(t, dir, "server.log", first)
			p := start(t, "run", "--config", cfg, "--path", log, "--state-dir", filepath.Join(dir, "state"),
				"--http-addr", "", "--start-at", "beginning", "--group-window", "0")
			if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "AlphaGrowError") == 1 }) {
				t.Fatalf("no alert for the first content:\n%s", p.stderr.String())
			}
			if err := os.WriteFile(log, []byte(second), 0o644); err != nil {
				t.Fatal(err)
			}
			if !waitFor(time.Minute, func() bool { return alertsOf(p.stdout.String(), "BravoGrowError") == 1 }) {
				t.Fatalf("the rewritten content was not read:\n%s\n%s", p.stdout.String(), p.stderr.String())
			}
			p.signal(interrupt)
			if code, ok := p.wait(time.Minute); !ok || code != 0 {
				t.Fatalf("exit %d (exited %v)\n%s", code, ok, p.stderr.String())
			}
			if n := alertsOf(p.stdout.String(), "AlphaGrowError"); n != 1 {
				t.Errorf("the first content's failure alerted %d times, want once", n)
			}
		})
	}
}
