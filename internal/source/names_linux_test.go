package source

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNameWatch: creations, renames and deletions in a watched directory
// are changes, each reported once; writes are not.
func TestNameWatch(t *testing.T) {
	dir := t.TempDir()
	n := newNameWatch()
	if n == nil {
		t.Skip("no inotify here")
	}
	defer n.close()
	var unset *nameWatch
	if _, known := unset.changed(); known {
		t.Fatal("a nil name watch claims to know")
	}
	n.sync([]string{dir, filepath.Join(dir, "missing")})
	if _, known := n.changed(); known {
		t.Fatal("a name watch missing a directory claims to know")
	}
	n.sync([]string{dir})
	check := func(what string, want bool) {
		t.Helper()
		changed, known := n.changed()
		if !known || changed != want {
			t.Fatalf("after %s: changed %v, known %v; want changed %v, known", what, changed, known, want)
		}
	}
	check("nothing", false)
	p := filepath.Join(dir, "a.log")
	if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("a creation", true)
	check("nothing more", false)
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("y\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	check("a write", false)
	if err := os.Rename(p, p+".1"); err != nil {
		t.Fatal(err)
	}
	check("a rename", true)
	if err := os.Remove(p + ".1"); err != nil {
		t.Fatal(err)
	}
	check("a deletion", true)
	n.sync(nil)
	n.changed() // the removed watch's own notice
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	check("a creation in a directory no longer watched", false)
}

// TestNameWatchRecreatedDir: a watched directory removed and made again
// under the same path is watched again.
func TestNameWatchRecreatedDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "logs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	n := newNameWatch()
	if n == nil {
		t.Skip("no inotify here")
	}
	defer n.close()
	n.sync([]string{dir})
	n.changed()
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	n.changed()           // the removal's events
	n.sync([]string{dir}) // the scan after it
	if err := os.WriteFile(filepath.Join(dir, "a.log"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, known := n.changed(); known && !changed {
		t.Fatal("a creation in the recreated directory: known, unchanged")
	}
}

// TestNameWatchSharedInode: two paths of one directory (a symlink), one of
// them no longer wanted: the other is still watched.
func TestNameWatchSharedInode(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	n := newNameWatch()
	if n == nil {
		t.Skip("no inotify here")
	}
	defer n.close()
	n.sync([]string{dir, link})
	n.changed()
	n.sync([]string{dir})
	n.changed()
	if err := os.WriteFile(filepath.Join(dir, "a.log"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, known := n.changed(); known && !changed {
		t.Fatal("a creation in a still-wanted directory: known, unchanged")
	}
}
