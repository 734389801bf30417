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
