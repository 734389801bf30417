package factcache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

var testRecords = []patterns.Record{
	{ID: "oom", MessagePattern: `CUDA out of memory\. Tried to allocate (.+?) GiB`},
	{ID: "nccl", MessagePattern: `NCCL error in: (.+?):(\d+), unhandled (system|cuda) error`},
	{ID: "reset", MessagePattern: `(?i)connection reset by peer`},
	{ID: "killed", MessagePattern: `^Killed$`},
}

func testFacts(tb testing.TB) *matcher.Facts {
	tb.Helper()
	m, probs := matcher.Compile(testRecords, matcher.Options{})
	if len(probs) > 0 {
		tb.Fatal(probs)
	}
	return m.Facts()
}

func testDir(tb testing.TB, build string) *Dir {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "facts")
	if err := os.Mkdir(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	return &Dir{path: dir, build: build}
}

// complete compiles the test records with facts and reports whether every
// pattern and the key plan came from them.
func complete(facts *matcher.Facts) bool {
	m, _ := matcher.Compile(testRecords, matcher.Options{Facts: facts})
	return m.FactsUse().Complete()
}

func TestOpenUsesTheExecutablesBuildID(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "a", "b"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if d.build == "" || strings.ContainsAny(d.build, "\x00\n") {
		t.Errorf("build ID %q", d.build)
	}
	info, err := os.Stat(d.Path())
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("directory made with %v (%v), want 0700", info.Mode().Perm(), err)
	}
	if _, err := elfBuildID(filepath.Join("testdata", "not-elf")); err == nil {
		t.Error("a file that is not ELF has a build ID")
	}
}

func TestStoreThenLoad(t *testing.T) {
	d := testDir(t, "build-1")
	if f, err := d.Load("catalog"); f != nil || err != nil {
		t.Fatalf("Load before any Store: %v, %v; want nothing", f, err)
	}
	if err := d.Store("catalog", testFacts(t)); err != nil {
		t.Fatal(err)
	}
	f, err := d.Load("catalog")
	if err != nil || f == nil {
		t.Fatalf("Load: %v, %v", f, err)
	}
	if !complete(f) {
		t.Error("the stored facts do not cover the records they came from")
	}
	if f, err := d.Load("another catalog"); f != nil || err != nil {
		t.Errorf("another key: %v, %v; want nothing", f, err)
	}
	entries, _ := os.ReadDir(d.path)
	if len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), suffix) {
		t.Errorf("directory holds %v, want one fact file", entries)
	}
	info, _ := entries[0].Info()
	if info.Mode().Perm() != 0o600 {
		t.Errorf("fact file mode %v, want 0600", info.Mode().Perm())
	}
}

// TestAnotherBuildsFileIsAMiss: an upgrade finds the old build's file,
// treats it as absent and replaces it.
func TestAnotherBuildsFileIsAMiss(t *testing.T) {
	old := testDir(t, "build-1")
	if err := old.Store("catalog", testFacts(t)); err != nil {
		t.Fatal(err)
	}
	upgraded := &Dir{path: old.path, build: "build-2"}
	if f, err := upgraded.Load("catalog"); f != nil || err != nil {
		t.Fatalf("Load of the old build's file: %v, %v; want nothing", f, err)
	}
	if err := upgraded.Store("catalog", testFacts(t)); err != nil {
		t.Fatal(err)
	}
	if f, err := old.Load("catalog"); f != nil || err != nil {
		t.Errorf("the old build reads the new build's file: %v, %v", f, err)
	}
}

// TestDamagedFilesAreRefused: a file cut short or with any byte changed is
// an error, never facts.
func TestDamagedFilesAreRefused(t *testing.T) {
	d := testDir(t, "build-1")
	if err := d.Store("catalog", testFacts(t)); err != nil {
		t.Fatal(err)
	}
	name := d.file("catalog")
	good, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 5, len(good) / 2, len(good) - 1} {
		if err := os.WriteFile(name, good[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		if f, err := d.Load("catalog"); err == nil {
			t.Errorf("a file cut to %d of %d bytes loads (%v)", n, len(good), f)
		}
	}
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x20
		if err := os.WriteFile(name, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if f, err := d.Load("catalog"); err == nil {
			t.Fatalf("a file with byte %d changed loads (%v)", i, f)
		}
	}
	// Store replaces the damaged file.
	if err := d.Store("catalog", testFacts(t)); err != nil {
		t.Fatal(err)
	}
	if f, err := d.Load("catalog"); err != nil || f == nil {
		t.Errorf("after Store: %v, %v", f, err)
	}
}

// TestWhatOthersCanWriteIsRefused: facts decide which patterns are tried,
// so a directory or file another user could have written is not used, nor
// a symbolic link.
func TestWhatOthersCanWriteIsRefused(t *testing.T) {
	d := testDir(t, "build-1")
	if err := d.Store("catalog", testFacts(t)); err != nil {
		t.Fatal(err)
	}
	name := d.file("catalog")
	if err := os.Chmod(name, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Load("catalog"); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Errorf("a world-writable file: %v", err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	moved := name + ".moved"
	if err := os.Rename(name, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, name); err != nil {
		t.Fatal(err)
	}
	if f, err := d.Load("catalog"); err == nil {
		t.Errorf("a symbolic link is followed (%v)", f)
	}

	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	if _, err := Open(open); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Errorf("Open of a world-writable directory: %v", err)
	}
}

// TestStoreKeepsAtMostMaxFiles: the newest MaxFiles fact files stay, and
// partial files of writers that died are removed.
func TestStoreKeepsAtMostMaxFiles(t *testing.T) {
	d := testDir(t, "build-1")
	facts := testFacts(t)
	stale := filepath.Join(d.path, "123"+partSuffix)
	if err := os.WriteFile(stale, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * staleParts)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(d.path, "456"+partSuffix) // a writer at work
	if err := os.WriteFile(fresh, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := time.Now().Add(-time.Hour)
	keys := MaxFiles + 4
	for i := range keys {
		key := fmt.Sprintf("catalog %d", i)
		if err := d.Store(key, facts); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(d.file(key), at, at); err != nil {
			t.Fatal(err)
		}
	}
	for i := range keys {
		f, err := d.Load(fmt.Sprintf("catalog %d", i))
		if err != nil {
			t.Fatal(err)
		}
		// Each Store keeps its own file and the newest MaxFiles-1 others.
		if kept, want := f != nil, i >= keys-MaxFiles; kept != want {
			t.Errorf("catalog %d: kept %t, want %t", i, kept, want)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale partial file was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a partial file being written was removed: %v", err)
	}
}
