package source

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTailerSameSizeRewrite truncates a file and writes the same number of
// bytes back between two looks: the new first bytes give it away.
func TestTailerSameSizeRewrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 3))
	h := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw})
	h.poll()
	writeFile(t, p, numbered(4, 6)) // O_TRUNC, then as many bytes
	h.poll()
	h.stop()
	if diff := cmp.Diff(wantNumbered(1, 6), h.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if got := h.obs.get(CountTruncations); got != 1 {
		t.Errorf("truncations = %d, want 1", got)
	}
	lines := h.got.all()
	if old, new := lines[0].File, lines[3].File; old.Sum == new.Sum || old.Ino != new.Ino {
		t.Errorf("identity after the rewrite %v, before %v: want the same inode with a new fingerprint", new, old)
	}
}

// TestWatchSameSizeRewrite is the same rewrite seen by the watch alone.
func TestWatchSameSizeRewrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 3))
	l := startLive(t, Config{Paths: []string{p}, Format: FormatRaw, PollInterval: never, RescanInterval: never})
	waitFor(t, "the first lines", func() bool { return len(l.got.all()) == 3 })
	writeFile(t, p, numbered(4, 6))
	waitFor(t, "the rewritten lines", func() bool { return len(l.got.all()) == 6 })
	l.stop(t)
	if diff := cmp.Diff(wantNumbered(1, 6), l.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestTailerRestartAfterRewrite checkpoints the last line read after a
// truncation and rewrite, restarts from it and appends: the second run
// delivers only the appended lines, so the checkpoint's identity was the
// new content's.
func TestTailerRestartAfterRewrite(t *testing.T) {
	tests := []struct {
		name    string
		rewrite func(t *testing.T, p string)
		first   []string // the first run's lines
	}{
		{"same size", func(t *testing.T, p string) { writeFile(t, p, numbered(6, 10)) }, wantNumbered(1, 10)},
		{"shorter", func(t *testing.T, p string) { writeFile(t, p, numbered(6, 7)) }, wantNumbered(1, 7)},
		{"longer", func(t *testing.T, p string) { mustTruncate(t, p); appendFile(t, p, numbered(6, 20)) }, wantNumbered(1, 20)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, numbered(1, 5))
			first := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw})
			first.poll()
			tc.rewrite(t, p)
			first.poll()
			first.stop()
			if diff := cmp.Diff(tc.first, first.got.texts()); diff != "" {
				t.Fatalf("first run (-want +got):\n%s", diff)
			}
			lines := first.got.all()
			last := lines[len(lines)-1]
			pos := mapPositions{last.Path: {File: last.File, Offset: last.Next}}

			second := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw, Positions: pos})
			second.poll()
			appendFile(t, p, numbered(100, 101))
			second.poll()
			second.stop()
			if diff := cmp.Diff(wantNumbered(100, 101), second.got.texts()); diff != "" {
				t.Errorf("second run (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTailerGoneAfterLastLine checks that a file the tailer stops
// following gets one Gone notice, after its last line and before the
// next file's lines.
func TestTailerGoneAfterLastLine(t *testing.T) {
	tests := []struct {
		name   string
		rotate func(t *testing.T, p string)
	}{
		{"renamed out of the globs", func(t *testing.T, p string) {
			mustRename(t, p, p+".1")
			appendFile(t, p+".1", numbered(4, 4)) // the writer has not reopened yet
		}},
		{"deleted", func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(numbered(4, 4)); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, numbered(1, 3))
			h := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw})
			h.poll()
			tc.rotate(t, p)
			writeFile(t, p, numbered(5, 6))
			h.poll()
			h.advance(2 * time.Second)
			h.stop()
			type got struct {
				Text   string
				Gone   bool
				Path   string
				Source string
			}
			var lines []got
			all := h.got.everything()
			for _, l := range all {
				lines = append(lines, got{l.Text, l.Gone, filepath.Base(l.Path), filepath.Base(l.Source)})
			}
			var want []got
			for _, s := range wantNumbered(1, 4) {
				want = append(want, got{s, false, "app.log", "app.log"})
			}
			want = append(want, got{"", true, "app.log", "app.log"})
			for _, s := range wantNumbered(5, 6) {
				want = append(want, got{s, false, "app.log", "app.log"})
			}
			if diff := cmp.Diff(want, lines); diff != "" {
				t.Fatalf("lines (-want +got):\n%s", diff)
			}
			if g := all[4]; g.File != all[3].File || g.Next != all[3].Next {
				t.Errorf("Gone notice for %v at %d, want the last line's file %v and resume offset %d", g.File, g.Next, all[3].File, all[3].Next)
			}
		})
	}
}

// TestTailerOpenFileBoundAccounting keeps one of two files out with
// max_open_files 1: it is counted and logged once, not at every poll; it is
// opened when the other one goes; and a skipped file that vanishes unread
// is a lost generation.
func TestTailerOpenFileBoundAccounting(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log"), filepath.Join(dir, "c.log")
	writeFile(t, a, "a1\n")
	writeFile(t, b, "b1\n")
	h := startTailer(t, Config{Paths: []string{filepath.Join(dir, "*.log")}, Format: FormatRaw, MaxOpenFiles: 1})
	h.poll()
	h.poll()
	h.poll()
	if got := h.obs.get(CountFilesSkipped); got != 1 {
		t.Errorf("files skipped = %d after three polls, want 1", got)
	}
	if got := h.log.count("max_open_files reached"); got != 1 {
		t.Errorf("%d log lines about the bound, want 1", got)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	h.poll()
	h.advance(2 * time.Second) // a is drained and closed: b gets its slot
	h.poll()
	writeFile(t, c, "c1\n") // skipped now, since b holds the slot
	h.poll()
	if err := os.Remove(c); err != nil {
		t.Fatal(err)
	}
	h.poll()
	h.stop()
	if diff := cmp.Diff([]string{"a1", "b1"}, h.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if got := h.obs.get(CountGenerationsLost); got != 1 {
		t.Errorf("generations lost = %d, want 1 (c.log)", got)
	}
	if got := h.log.count("never read"); got != 1 {
		t.Errorf("%d log lines about lost generations, want 1", got)
	}
}

// TestTailerSymlinks follows links only into the allowed roots.
func TestTailerSymlinks(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	allowed := t.TempDir()
	secret := filepath.Join(outside, "secret")
	writeFile(t, secret, "password=hunter2\n")
	if err := os.Mkdir(filepath.Join(outside, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(outside, "sub", "app.log"), "token=abc\n")
	writeFile(t, filepath.Join(allowed, "real.log"), "allowed line\n")
	writeFile(t, filepath.Join(dir, "app.log"), "plain line\n")
	for link, target := range map[string]string{
		"evil.log":  secret,
		"good.log":  filepath.Join(allowed, "real.log"),
		"alias.log": filepath.Join(dir, "app.log"), // inside the glob's own directory
		"subdir":    filepath.Join(outside, "sub"), // a linked directory component
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	h := startTailer(t, Config{
		Paths:        []string{filepath.Join(dir, "*.log"), filepath.Join(dir, "*", "app.log")},
		Format:       FormatRaw,
		SymlinkRoots: []string{allowed},
	})
	h.poll()
	h.poll()
	appendFile(t, secret, "password=hunter3\n")
	h.poll()
	h.stop()
	got := strings.Join(h.got.texts(), "|")
	if strings.Contains(got, "hunter") || strings.Contains(got, "token") {
		t.Fatalf("a file outside the roots was read: %q", got)
	}
	for _, want := range []string{"plain line", "allowed line"} {
		if !strings.Contains(got, want) {
			t.Errorf("lines %q lack %q", got, want)
		}
	}
	if n := strings.Count(got, "plain line"); n != 1 {
		t.Errorf("the linked file inside the roots was read %d times, want once", n)
	}
	if got := h.obs.get(CountSymlinksRefused); got != 2 {
		t.Errorf("symlinks refused = %d after three polls, want 2 (the file and the directory link)", got)
	}
	if got := h.log.count("outside the allowed roots"); got != 2 {
		t.Errorf("%d refusals logged, want 2", got)
	}
}

func TestRootsDefaults(t *testing.T) {
	tests := []struct {
		name  string
		globs []string
		extra []string
		want  []string
	}{
		{"kubelet links", []string{"/var/log/containers/*.log"}, nil, []string{"/var/log/containers", "/var/log/pods"}},
		{"pod files", []string{"/var/log/pods/*/*/*.log"}, nil, []string{"/var/log/pods"}},
		{"plain", []string{"/srv/app/logs/app.log*"}, nil, []string{"/srv/app/logs"}},
		{"configured roots replace the default", []string{"/var/log/containers/*.log"}, []string{"/mnt/pods/"}, []string{"/var/log/containers", "/mnt/pods"}},
		{"configured empty: only the globs", []string{"/var/log/containers/*.log"}, []string{}, []string{"/var/log/containers"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := newRoots(tc.globs, tc.extra)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, r.dirs); diff != "" {
				t.Errorf("roots (-want +got):\n%s", diff)
			}
		})
	}
	r, _ := newRoots([]string{"/var/log/containers/*.log"}, nil)
	for path, want := range map[string]bool{
		"/var/log/pods/ns_p_u/c/0.log": true,
		"/var/log/podsx/a.log":         false,
		"/etc/shadow":                  false,
		"/var/log/containers/a.log":    true,
	} {
		if got := r.allows(path); got != want {
			t.Errorf("allows(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestTailerMissedGeneration covers a file a scan or a create event saw
// but could not open before it was renamed away: the next scan counts it
// lost unless it shows up again.
func TestTailerMissedGeneration(t *testing.T) {
	dir := t.TempDir()
	obs := &tally{}
	log := &logRecords{}
	tl, err := New(Config{Paths: []string{filepath.Join(dir, "*.log")}, Observer: obs, Logger: slog.New(log)})
	if err != nil {
		t.Fatal(err)
	}
	back, gone := Key{Dev: 1, Ino: 2}, Key{Dev: 1, Ino: 3}
	tl.missed[back] = filepath.Join(dir, "back.log")
	tl.missed[gone] = filepath.Join(dir, "gone.log")
	tl.account(map[Key]bool{back: true}, nil) // back.log matches again: still to be opened
	if got := obs.get(CountGenerationsLost); got != 1 {
		t.Errorf("generations lost = %d, want 1", got)
	}
	if _, ok := tl.missed[back]; !ok || len(tl.missed) != 1 {
		t.Errorf("missed = %v, want only the file that matches again", tl.missed)
	}
	if log.count("never read") != 1 {
		t.Error("the lost generation was not logged")
	}
}

// TestNewContentMarksTheFirstLineOfNewContent checks that the tailer says
// where new content begins at a followed file, on that line alone: after
// a truncation to a shorter file that starts like the old one (the first
// bytes alone cannot tell), after a rewrite to the same size, and never on
// lines that only continue the file.
func TestNewContentMarksTheFirstLineOfNewContent(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, p string)
		want   []string // the lines marked NewContent
	}{
		{"appended", func(t *testing.T, p string) { appendFile(t, p, numbered(4, 5)) }, nil},
		{"truncated, same start", func(t *testing.T, p string) { writeFile(t, p, numbered(1, 1)) }, wantNumbered(1, 1)},
		{"rewritten, same size", func(t *testing.T, p string) { writeFile(t, p, numbered(4, 6)) }, wantNumbered(4, 4)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "app.log")
			writeFile(t, p, numbered(1, 3))
			h := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw})
			h.poll()
			tc.change(t, p)
			h.poll()
			appendFile(t, p, numbered(7, 7))
			h.poll()
			h.stop()
			var got []string
			for i, l := range h.got.all() {
				if l.NewContent {
					if i < 3 {
						t.Errorf("line %d (%q) of the first content is marked new", i, l.Text)
					}
					got = append(got, l.Text)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lines marked NewContent (-want +got):\n%s", diff)
			}
		})
	}
}
