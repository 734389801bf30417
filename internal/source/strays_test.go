package source

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A writer that reopens its log by name (Python's WatchedFileHandler) can
// recreate it in the instant between logrotate's rename and its create;
// logrotate then finds its destination taken, renames the writer's file
// aside as NAME-YYYYMMDDHH.backup and creates its own. The lines in that
// file belong between the renamed file's and the new file's.

// strayShape is the file set such a rotation leaves next to p: the renamed
// file at p.1 (holding what it has), the writer's file moved aside with
// lines 8-9, logrotate's new file with lines 10-11. Beside them lie an
// older generation (p.2, lines 90-91), another program's file named after
// the log (p.pos), another log sharing its stem (app-access.log), a copy of
// the renamed file (p-20261205, as copy would leave) and a compression's
// temporary file (p-20261205.tmp), none of which may be read. mtimes are
// set so that the older generation is older than the renamed file, and the
// others not (the older generation is created after the renamed file, so
// only its mtime tells); equal says the renamed file, the moved-aside file
// and the new one share one mtime (a coarse file-system clock).
func strayShape(t *testing.T, p string, equal bool) {
	t.Helper()
	dir := filepath.Dir(p)
	base := time.Now().Add(-time.Minute).Truncate(time.Second)
	older := filepath.Join(dir, "app.log.2")
	writeFile(t, older, numbered(90, 91))
	mustRename(t, p, p+".1")
	writeFile(t, p, numbered(8, 9)) // the writer recreates it
	aside := p + "-" + base.Format("2006010215") + ".backup"
	mustRename(t, p, aside) // logrotate: destination exists
	writeFile(t, p, numbered(10, 11))
	writeFile(t, p+".pos", numbered(95, 95))
	writeFile(t, filepath.Join(dir, "app-access.log"), numbered(96, 96))
	copyFile(t, p+".1", p+"-20261205")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(numbered(97, 99)))
	_ = zw.Close()
	writeFile(t, p+"-20261205.tmp", gz.String())
	step := time.Second
	if equal {
		step = 0
	}
	setMtime(t, older, base.Add(-time.Hour))
	setMtime(t, p+".1", base)
	setMtime(t, aside, base.Add(step))
	setMtime(t, p, base.Add(2*step))
	setMtime(t, p+".pos", base.Add(3*time.Second))
	setMtime(t, filepath.Join(dir, "app-access.log"), base.Add(3*time.Second))
	setMtime(t, p+"-20261205", base.Add(step))
	setMtime(t, p+"-20261205.tmp", base.Add(step))
}

func setMtime(t *testing.T, p string, m time.Time) {
	t.Helper()
	if err := os.Chtimes(p, m, m); err != nil {
		t.Fatal(err)
	}
}

func TestTailerReadsAGenerationMovedAside(t *testing.T) {
	for _, equal := range []bool{false, true} {
		name := "mtimes apart"
		if equal {
			name = "one mtime"
		}
		t.Run("live/"+name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, numbered(1, 5))
			h := startTailer(t, Config{Paths: []string{p}})
			h.poll()
			appendFile(t, p, numbered(6, 7))
			strayShape(t, p, equal)
			h.poll()
			h.advance(2 * time.Second) // RotateWait over
			h.poll()
			h.stop()
			if diff := cmp.Diff(wantNumbered(1, 11), h.got.texts()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
		t.Run("restart/"+name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, numbered(1, 5))
			first := startTailer(t, Config{Paths: []string{p}})
			first.poll()
			first.stop()
			lines := first.got.all()
			last := lines[len(lines)-1]
			pos := mapPositions{p: {File: last.File, Offset: last.Next}}
			appendFile(t, p, numbered(6, 7))
			strayShape(t, p, equal)
			second := startTailer(t, Config{Paths: []string{p}, Positions: pos})
			second.poll()
			second.advance(2 * time.Second)
			second.stop()
			if diff := cmp.Diff(wantNumbered(6, 11), second.got.texts()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Two rotations that each left a moved-aside file while the first renamed
// file still drains: each moved-aside file is read after the generation
// before it, not after a later one.
func TestTailerMovedAsideFilesKeepTheirOrder(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 2))
	h := startTailer(t, Config{Paths: []string{p}})
	h.poll()
	base := time.Now().Add(-time.Minute).Truncate(time.Second)
	mustRename(t, p, p+".1")
	writeFile(t, p, numbered(3, 3))
	mustRename(t, p, p+"-2026120613.backup")
	writeFile(t, p, numbered(4, 4)) // the next generation, seen by the next poll
	setMtime(t, p+".1", base)
	setMtime(t, p+"-2026120613.backup", base.Add(time.Second))
	h.poll()
	mustRename(t, p, p+".2")
	writeFile(t, p, numbered(5, 5))
	mustRename(t, p, p+"-2026120614.backup")
	writeFile(t, p, numbered(6, 6))
	setMtime(t, p+".2", base.Add(2*time.Second))
	setMtime(t, p+"-2026120614.backup", base.Add(3*time.Second))
	setMtime(t, p, base.Add(4*time.Second))
	h.poll()
	h.advance(2 * time.Second) // both renamed files' RotateWait over
	h.poll()
	h.stop()
	if diff := cmp.Diff(wantNumbered(1, 6), h.got.texts()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A file closed after it drained is remembered by inode and first bytes:
// a new file that got its inode (freed by a deleted rotation) is not it.
func TestWasReadComparesContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 2))
	tl, err := New(Config{Paths: []string{p}, NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tl.closeAll()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	k, _ := fileKey(fi)
	old := []byte(numbered(90, 91))
	tl.drained = []retiredFile{{key: k, id: FileID{Dev: k.Dev, Ino: k.Ino, Size: len(old), Sum: fingerprint(old)}}}
	if tl.wasRead(f, k) {
		t.Error("a file with a drained file's inode but other content was taken for it")
	}
	now := []byte(numbered(1, 2))
	tl.drained[0].id = FileID{Dev: k.Dev, Ino: k.Ino, Size: len(now), Sum: fingerprint(now)}
	if !tl.wasRead(f, k) {
		t.Error("the drained file itself was not recognised")
	}
}

// Another program's log named like a rotation of the path (app.log-2),
// written all along, was created before the renamed file: where the file
// system keeps creation times it is never read, though its mtime is as
// recent as a moved-aside file's.
func TestTailerMovedAsideNotAnOlderFile(t *testing.T) {
	for _, restart := range []bool{false, true} {
		name := "live"
		if restart {
			name = "restart"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			other := p + "-2"
			writeFile(t, other, numbered(80, 80))
			born, ok := pathBirthTime(other)
			if !ok {
				t.Skip("no creation times here")
			}
			// Wait for the file-system clock to pass other's creation.
			probe := filepath.Join(dir, "probe")
			deadline := time.Now().Add(10 * time.Second)
			for {
				writeFile(t, probe, "")
				b, _ := pathBirthTime(probe)
				if err := os.Remove(probe); err != nil {
					t.Fatal(err)
				}
				if b.After(born) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the file-system clock did not move in 10s")
				}
				time.Sleep(time.Millisecond)
			}
			writeFile(t, p, numbered(1, 5))
			h := startTailer(t, Config{Paths: []string{p}})
			h.poll()
			var pos mapPositions
			if restart {
				h.stop()
				last := h.got.all()[4]
				pos = mapPositions{p: {File: last.File, Offset: last.Next}}
			}
			appendFile(t, p, numbered(6, 7))
			strayShape(t, p, false)
			setMtime(t, other, time.Now().Add(-time.Minute).Truncate(time.Second).Add(time.Second))
			want := wantNumbered(1, 11)
			if restart {
				h = startTailer(t, Config{Paths: []string{p}, Positions: pos})
				want = wantNumbered(6, 11)
			}
			h.poll()
			h.advance(2 * time.Second)
			h.poll()
			h.stop()
			if diff := cmp.Diff(want, h.got.texts()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
