package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTailerRotation(t *testing.T) {
	tests := []struct {
		name string
		glob string // relative to the temp dir
		// steps run between polls; each gets the live log path
		steps []func(t *testing.T, p string)
		want  []string
		// counters that must have at least these values
		counts map[Counter]int64
	}{
		{
			name: "rename and create",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					mustRename(t, p, p+".1")
					appendFile(t, p+".1", numbered(6, 7)) // the writer has not reopened yet
					writeFile(t, p, numbered(8, 10))
				},
			},
			want:   wantNumbered(1, 10),
			counts: map[Counter]int64{CountRotations: 1},
		},
		{
			name: "a late line of the renamed file comes before the new file",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					mustRename(t, p, p+".1")
					writeFile(t, p, numbered(8, 10))
				},
				func(t *testing.T, p string) { appendFile(t, p+".1", numbered(6, 7)) }, // within RotateWait
			},
			want:   wantNumbered(1, 10),
			counts: map[Counter]int64{CountRotations: 1},
		},
		{
			name: "rename inside the glob is followed",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					mustRename(t, p, p+".1")
					appendFile(t, p+".1", numbered(6, 7))
					writeFile(t, p, numbered(8, 10))
				},
			},
			want:   wantNumbered(1, 10),
			counts: map[Counter]int64{CountRotations: 1},
		},
		{
			name: "copytruncate with the copy outside the glob",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 7)) // written after our last read
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(8, 9))
				},
			},
			want:   wantNumbered(1, 9),
			counts: map[Counter]int64{CountTruncations: 1, CountCopyTails: 1},
		},
		{
			name: "copytruncate with the copy inside the glob, seen before the truncation",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 7))
					copyFile(t, p, p+".1")
				},
				func(t *testing.T, p string) {
					mustTruncate(t, p)
					appendFile(t, p, numbered(8, 9))
				},
			},
			want:   wantNumbered(1, 9),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "copytruncate with the copy inside the glob, seen with the truncation",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 7))
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(8, 9))
				},
			},
			want:   wantNumbered(1, 9),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "copytruncate with the copy seen while logrotate writes it",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 7))
					b, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					writeFile(t, p+".1", string(b[:50])) // half a line of the copy so far
				},
				func(t *testing.T, p string) { copyFile(t, p, p+".1") },
				func(t *testing.T, p string) {
					mustTruncate(t, p)
					appendFile(t, p, numbered(8, 9))
				},
			},
			want:   wantNumbered(1, 9),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "copytruncate with a line read between the copy and the truncation",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 1)) },
				func(t *testing.T, p string) {
					writeFile(t, p+".1", numbered(1, 1)[:20]) // logrotate writing its copy
					appendFile(t, p, numbered(2, 2))          // read by us, then lost to the copy
				},
				func(t *testing.T, p string) {
					writeFile(t, p+".1", numbered(1, 1)) // the copy, shorter than what was read
					mustTruncate(t, p)
					appendFile(t, p, numbered(3, 3))
				},
			},
			want:   wantNumbered(1, 3),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "copytruncate after a copy that was never followed by a truncation",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 1)) },
				func(t *testing.T, p string) { copyFile(t, p, p+".1") }, // logrotate did not truncate
				func(t *testing.T, p string) { appendFile(t, p, numbered(2, 2)) },
				func(t *testing.T, p string) {
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(3, 3))
				},
				func(t *testing.T, p string) {
					mustRename(t, p+".2", p+".3")
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(4, 4))
				},
			},
			want:   wantNumbered(1, 4),
			counts: map[Counter]int64{CountTruncations: 2},
		},
		{
			name: "copytruncate of a whole generation between two polls, the file empty at the first",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					mustTruncate(t, p) // seen empty: nothing of what comes next is known
				},
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 7)) // never seen in the original
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(8, 9))
				},
			},
			want:   wantNumbered(1, 9),
			counts: map[Counter]int64{CountTruncations: 1, CountCopyTails: 2},
		},
		{
			name: "copytruncate of a whole generation between two polls, the file empty at the first, copies in the glob",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					mustTruncate(t, p) // seen empty: nothing of what comes next is known
				},
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 6)) // never seen in the original
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1") // found by the scan before the original is looked at
					mustTruncate(t, p)
					appendFile(t, p, numbered(7, 8))
				},
			},
			want:   wantNumbered(1, 8),
			counts: map[Counter]int64{CountTruncations: 1, CountCopyTails: 2},
		},
		{
			name: "a copy of a file truncated to empty taken before the next look, not truncated yet, copies in the glob",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
				},
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 6))
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1") // logrotate truncates after the next look
				},
				func(t *testing.T, p string) {
					mustTruncate(t, p)
					appendFile(t, p, numbered(7, 8))
				},
			},
			want:   wantNumbered(1, 8),
			counts: map[Counter]int64{CountTruncations: 2},
		},
		{
			name: "copytruncate twice between two polls, the look between the second copy and its truncation, copies in the glob",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 6))
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(7, 8)) // never seen before its copy
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1")
					appendFile(t, p, numbered(9, 9)) // logrotate truncates after the next look
				},
				func(t *testing.T, p string) {
					mustTruncate(t, p)
					appendFile(t, p, numbered(10, 10))
				},
			},
			want:   wantNumbered(1, 10),
			counts: map[Counter]int64{CountTruncations: 2},
		},
		{
			name: "copytruncate twice between two polls, copies in the glob",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 6))
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(7, 8)) // a whole generation never seen in the original
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(9, 9))
				},
				func(t *testing.T, p string) { appendFile(t, p, numbered(10, 10)) },
			},
			want:   wantNumbered(1, 10),
			counts: map[Counter]int64{CountTruncations: 1, CountCopyTails: 2},
		},
		{
			name: "another log sharing the stem is no copy of a file truncated to empty",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					mustTruncate(t, p) // seen empty: what comes next is unknown
				},
				func(t *testing.T, p string) {
					writeFile(t, filepath.Join(filepath.Dir(p), "app-access.log"), "GET /health 200\n")
					appendFile(t, p, numbered(6, 7))
				},
			},
			want:   wantNumbered(1, 7),
			counts: map[Counter]int64{CountTruncations: 1, CountCopyTails: 1},
		},
		{
			name: "copytruncate of a whole generation between two polls, the next one seen starting like it",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
				},
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 7))
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					// the next line's first write, in the same second
					appendFile(t, p, "[2026-11-29 10:00:00 TP0] line")
				},
				func(t *testing.T, p string) { appendFile(t, p, " 8\n") },
			},
			want:   wantNumbered(1, 8),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "copytruncate of a whole generation between two polls, the next one repeating its first line",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
				},
				func(t *testing.T, p string) {
					appendFile(t, p, numbered(6, 7))
					mustRename(t, p+".1", p+".2")
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
					appendFile(t, p, numbered(6, 6)) // the same line again
				},
			},
			want:   append(wantNumbered(1, 7), wantNumbered(6, 6)...),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "another program's file beside a file truncated to empty is no copy of it",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					mustTruncate(t, p)
				},
				func(t *testing.T, p string) {
					writeFile(t, p+".pos", "offset=12345\n") // no number or date
					appendFile(t, p, numbered(6, 6))
				},
			},
			want:   wantNumbered(1, 6),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "a short file that is not a copy is read at once",
			glob: "*.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 2)) },
				func(t *testing.T, p string) {
					writeFile(t, filepath.Join(filepath.Dir(p), "other.log"), "[2026-11-29 10:00:00 TP0] other\n")
				},
			},
			want: append(wantNumbered(1, 2), "[2026-11-29 10:00:00 TP0] other"),
		},
		{
			name: "copytruncate with lines read after the copy was taken",
			glob: "app.log*",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 5)) },
				func(t *testing.T, p string) {
					copyFile(t, p, p+".1")
					appendFile(t, p, numbered(6, 7)) // only in the original: copytruncate's window
				},
				func(t *testing.T, p string) {
					mustTruncate(t, p)
					appendFile(t, p, numbered(8, 9))
				},
				func(t *testing.T, p string) { appendFile(t, p, numbered(10, 10)) },
			},
			want:   wantNumbered(1, 10),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "truncate twice",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 3)) },
				func(t *testing.T, p string) { mustTruncate(t, p); appendFile(t, p, numbered(4, 5)) },
				func(t *testing.T, p string) { mustTruncate(t, p); appendFile(t, p, numbered(6, 6)) },
			},
			want:   wantNumbered(1, 6),
			counts: map[Counter]int64{CountTruncations: 2},
		},
		{
			name: "truncated and refilled past the offset between two polls",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 2)) },
				func(t *testing.T, p string) { mustTruncate(t, p); appendFile(t, p, numbered(10, 30)) },
			},
			want:   append(wantNumbered(1, 2), wantNumbered(10, 30)...),
			counts: map[Counter]int64{CountTruncations: 1},
		},
		{
			name: "delete and recreate",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 3)) },
				func(t *testing.T, p string) {
					f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						t.Fatal(err)
					}
					defer f.Close()
					if err := os.Remove(p); err != nil {
						t.Fatal(err)
					}
					if _, err := f.WriteString(numbered(4, 4)); err != nil { // written to the deleted file
						t.Fatal(err)
					}
					writeFile(t, p, numbered(5, 6))
				},
			},
			want:   wantNumbered(1, 6),
			counts: map[Counter]int64{CountRotations: 1},
		},
		{
			name: "replaced by a rename over it",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 3)) },
				func(t *testing.T, p string) {
					writeFile(t, p+".tmp", numbered(4, 5))
					mustRename(t, p+".tmp", p)
				},
			},
			want: wantNumbered(1, 5),
		},
		{
			name: "a line completed across polls",
			glob: "app.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, "first\nsec") },
				func(t *testing.T, p string) { appendFile(t, p, "ond\nthird\n") },
			},
			want: []string{"first", "second", "third"},
		},
		{
			name: "a file created later is read from its beginning",
			glob: "*.log",
			steps: []func(*testing.T, string){
				func(t *testing.T, p string) { writeFile(t, p, numbered(1, 2)) },
				func(t *testing.T, p string) { writeFile(t, filepath.Join(filepath.Dir(p), "b.log"), "other\n") },
			},
			want: append(wantNumbered(1, 2), "other"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			h := startTailer(t, Config{Paths: []string{filepath.Join(dir, tc.glob)}, Format: FormatRaw})
			for _, step := range tc.steps {
				step(t, p)
				h.poll()
			}
			h.advance(2 * time.Second) // past RotateWait: renamed files are closed
			h.poll()
			h.stop()
			if diff := cmp.Diff(tc.want, h.got.texts()); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			for c, n := range tc.counts {
				if got := h.obs.get(c); got < n {
					t.Errorf("%s = %d, want at least %d", c, got, n)
				}
			}
		})
	}
}

func TestTailerOffsets(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, "a\r\nbb\nccc\npartial")
	h := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw})
	h.poll()
	h.stop()
	type pos struct {
		Text              string
		Offset, End, Next int64
	}
	var got []pos
	for _, l := range h.got.all() {
		got = append(got, pos{l.Text, l.Offset, l.End, l.Next})
		if l.Path != p || l.Source != p || l.File.Ino == 0 || l.File.Size != 17 {
			t.Errorf("line %q: path %q source %q file %v", l.Text, l.Path, l.Source, l.File)
		}
	}
	want := []pos{{"a", 0, 3, 3}, {"bb", 3, 6, 6}, {"ccc", 6, 10, 10}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("offsets (-want +got):\n%s", diff)
	}
}

func TestTailerLongLine(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, "short\n"+strings.Repeat("x", 1<<20)+"\nafter\n")
	h := startTailer(t, Config{Paths: []string{p}, Format: FormatRaw, MaxLineBytes: 100})
	h.poll()
	h.stop()
	lines := h.got.all()
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3", len(lines))
	}
	if l := lines[1]; len(l.Text) != 100 || !l.Truncated || l.Next != 6+1<<20+1 {
		t.Errorf("long line: len %d truncated %v next %d", len(l.Text), l.Truncated, l.Next)
	}
	if l := lines[2]; l.Text != "after" || l.Truncated {
		t.Errorf("line after the long one: %+v", l.Line)
	}
	if got := h.obs.get(CountLinesCut); got != 1 {
		t.Errorf("lines cut = %d, want 1", got)
	}
}

// Beyond MaxOpenFiles the files take turns: a file idle for turnIdle is
// parked for one that waits, every file is read, at most MaxOpenFiles are
// open at once, and a parked file that grows gets its turn back and is
// read on from where it stopped.
func TestTailerOpenFileBound(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		writeFile(t, filepath.Join(dir, n+".log"), n+"\n")
	}
	h := startTailer(t, Config{Paths: []string{filepath.Join(dir, "*.log")}, MaxOpenFiles: 2})
	h.poll()
	if diff := cmp.Diff([]string{"a", "b"}, h.got.texts()); diff != "" {
		t.Fatalf("first pass (-want +got):\n%s", diff)
	}
	if got := h.obs.get(CountFilesSkipped); got == 0 {
		t.Error("skipped files were not counted")
	}
	if c := h.tl.Coverage(); c != (Coverage{Open: 2, Waiting: 1}) {
		t.Errorf("coverage after the first pass = %+v", c)
	}
	h.advance(turnIdle) // a is parked for c
	h.poll()            // c is opened
	if diff := cmp.Diff([]string{"a", "b", "c"}, h.got.texts()); diff != "" {
		t.Fatalf("after a turn (-want +got):\n%s", diff)
	}
	if c := h.tl.Coverage(); c.Open > 2 || c.Waiting != 0 || c.Parked != 1 {
		t.Errorf("coverage after a turn = %+v", c)
	}
	f, err := os.OpenFile(filepath.Join(dir, "a.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("a2\n")
	f.Close()
	h.advance(turnIdle)
	h.stop()
	if diff := cmp.Diff([]string{"a", "b", "c", "a2"}, h.got.texts()); diff != "" {
		t.Errorf("a parked file that grew (-want +got):\n%s", diff)
	}
	for _, l := range h.got.all() {
		if l.Text == "a2" && (l.Offset != 2 || l.Next != 5) {
			t.Errorf("a2 read at %d (next %d), want 2 (next 5): the parked file did not resume where it stopped", l.Offset, l.Next)
		}
	}
}

// A file present at the start but kept out by the bound starts at its
// checkpoint when its turn comes, as if it had been opened at the start.
func TestTailerLateOpenedFileStartsAtItsCheckpoint(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.log")
	b := filepath.Join(dir, "b.log")
	writeFile(t, a, "a1\n")
	writeFile(t, b, "b1\nb2\n")
	fi, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := fileKey(fi)
	head := []byte("b1\nb2\n")
	cp := Checkpoint{File: FileID{Dev: k.Dev, Ino: k.Ino, Size: len(head), Sum: fingerprint(head)}, Offset: 3}
	h := startTailer(t, Config{Paths: []string{filepath.Join(dir, "*.log")}, MaxOpenFiles: 1, Positions: mapPositions{b: cp}})
	h.poll()
	h.advance(turnIdle)
	h.poll()
	h.stop()
	if diff := cmp.Diff([]string{"a1", "b2"}, h.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestTailerPodFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pods", "infer_sglang-0_1234-abcd", "server")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "0.log")
	writeFile(t, p, "2026-11-29T10:00:00.000000001Z stderr P Traceback (most \n"+
		"2026-11-29T10:00:00.000000002Z stdout F GET /health 200\n"+
		"2026-11-29T10:00:00.000000003Z stderr F recent call last):\n")
	h := startTailer(t, Config{Paths: []string{filepath.Join(filepath.Dir(filepath.Dir(dir)), "*", "*", "*.log")}})
	h.poll()
	h.stop()
	type got struct {
		Text, Stream, Source string
		Offset, End, Next    int64
	}
	var lines []got
	for _, l := range h.got.all() {
		lines = append(lines, got{l.Text, l.Stream, l.Source, l.Offset, l.End, l.Next})
		if l.Pod.Namespace != "infer" || l.Pod.Container != "server" {
			t.Errorf("pod = %+v", l.Pod)
		}
	}
	want := []got{
		// The stdout line ends at 113 but resumes at 0, where the open
		// stderr partial line starts.
		{"GET /health 200", "stdout", "infer/sglang-0/server", 57, 113, 0},
		{"Traceback (most recent call last):", "stderr", "infer/sglang-0/server", 0, 172, 172},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// mapPositions is a Positions backed by a map, as a restart would see the
// state store.
type mapPositions map[string]Checkpoint

func (m mapPositions) Lookup(path string) (Checkpoint, bool) {
	cp, ok := m[path]
	return cp, ok
}

func TestTailerResume(t *testing.T) {
	tests := []struct {
		name    string
		startAt StartAt
		// after the first run (which read lines 1..5), change the files
		between func(t *testing.T, p string)
		save    bool // keep the checkpoint of the first run
		want    []string
	}{
		{
			name:    "same file resumes after its checkpoint",
			save:    true,
			between: func(t *testing.T, p string) { appendFile(t, p, numbered(6, 8)) },
			want:    wantNumbered(6, 8),
		},
		{
			name: "rotated by rename while down: old tail, then the new file",
			save: true,
			between: func(t *testing.T, p string) {
				appendFile(t, p, numbered(6, 7))
				mustRename(t, p, p+".1")
				writeFile(t, p, numbered(8, 9))
			},
			want: wantNumbered(6, 9),
		},
		{
			name: "rotated by copytruncate while down",
			save: true,
			between: func(t *testing.T, p string) {
				appendFile(t, p, numbered(6, 7))
				copyFile(t, p, p+".1")
				mustTruncate(t, p)
				appendFile(t, p, numbered(8, 9))
			},
			want: wantNumbered(6, 9),
		},
		{
			name: "a different file at the path is read from its beginning",
			save: true,
			between: func(t *testing.T, p string) {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				writeFile(t, p, "[2026-11-29 11:00:00 TP0] line 100\n")
			},
			want: []string{"[2026-11-29 11:00:00 TP0] line 100"},
		},
		{
			name: "truncated below the checkpoint while down",
			save: true,
			between: func(t *testing.T, p string) {
				mustTruncate(t, p)
				appendFile(t, p, "x\n")
			},
			want: []string{"x"},
		},
		{
			name:    "no checkpoint, start at end",
			startAt: StartEnd,
			between: func(t *testing.T, p string) {},
			want:    nil,
		},
		{
			name:    "no checkpoint, start at beginning",
			startAt: StartBeginning,
			between: func(t *testing.T, p string) {},
			want:    wantNumbered(1, 5),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, numbered(1, 5))
			first := startTailer(t, Config{Paths: []string{p}})
			first.poll()
			first.stop()
			lines := first.got.all()
			if len(lines) != 5 {
				t.Fatalf("first run: %d lines", len(lines))
			}
			last := lines[len(lines)-1]
			pos := mapPositions{}
			if tc.save {
				pos[last.Path] = Checkpoint{File: last.File, Offset: last.Next}
			}
			tc.between(t, p)
			second := startTailer(t, Config{Paths: []string{p}, Positions: pos, StartAt: tc.startAt})
			second.poll()
			second.advance(2 * time.Second)
			second.stop()
			if diff := cmp.Diff(tc.want, second.got.texts()); diff != "" {
				t.Errorf("second run (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	_, err := New(Config{Paths: []string{"-", "[x"}, Format: "json", StartAt: "middle", MaxLineBytes: -1})
	if err == nil {
		t.Fatal("New accepted a bad config")
	}
	for _, want := range []string{`paths[0]: "-"`, `paths[1] "[x"`, `format "json"`, `start-at "middle"`, "max line bytes -1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func mustTruncate(t *testing.T, p string) {
	t.Helper()
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(b))
}

func TestTailerDockerFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "containers")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "sglang-0_infer_server-0abc.log")
	writeFile(t, p, `{"log":"Traceback (most ","stream":"stderr","time":"2026-11-29T10:00:00.1Z"}`+"\n"+
		`{"log":"ready\n","stream":"stdout","time":"2026-11-29T10:00:00.2Z"}`+"\n"+
		`{"log":"recent call last):\n","stream":"stderr","time":"2026-11-29T10:00:00.3Z"}`+"\n"+
		`{"log":"torn`+"\n")
	h := startTailer(t, Config{Paths: []string{filepath.Join(dir, "*.log")}})
	h.poll()
	h.stop()
	type got struct {
		Text, Stream string
		Time         time.Time
	}
	var lines []got
	for _, l := range h.got.all() {
		lines = append(lines, got{l.Text, l.Stream, l.Time.UTC()})
		if l.Source != "infer/sglang-0/server" || l.Pod.ContainerID != "0abc" {
			t.Errorf("source %q pod %+v", l.Source, l.Pod)
		}
	}
	want := []got{
		{"ready", "stdout", time.Date(2026, 11, 29, 10, 0, 0, 2e8, time.UTC)},
		{"Traceback (most recent call last):", "stderr", time.Date(2026, 11, 29, 10, 0, 0, 1e8, time.UTC)},
		// A torn record passes through raw, on the stream of the
		// record before it.
		{`{"log":"torn`, "stderr", h.now.UTC()},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if got := h.obs.get(CountFramingErrors); got != 1 {
		t.Errorf("framing errors = %d, want 1", got)
	}
}

// TestTailerShortCopyFoundOnTruncation covers a copy inside the globs
// that no scan saw before the truncation (a write event's pass sees the
// truncation first) and that is shorter than what was read: logrotate
// copied, the writer added lines that were read from the original, then
// logrotate truncated. The copy is found next to the original as its
// copy, so the scan that opens it later does not read it again.
func TestTailerShortCopyFoundOnTruncation(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 5))
	obs := &tally{}
	tl, err := New(Config{Paths: []string{filepath.Join(dir, "app.log*")}, Format: FormatRaw, NoWatch: true, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	defer tl.closeAll()
	got := &collector{}
	now := time.Unix(1_000_000, 0)
	pass := func(full bool) {
		t.Helper()
		now = now.Add(10 * time.Millisecond)
		if _, err := tl.pass(context.Background(), now, full, got.emit); err != nil {
			t.Fatal(err)
		}
	}
	pass(true)
	copyFile(t, p, p+".1")
	appendFile(t, p, numbered(6, 7)) // read, but not in the copy
	pass(false)                      // a read pass: the copy is not seen
	mustTruncate(t, p)
	appendFile(t, p, numbered(8, 9))
	pass(false) // the truncation, before any scan saw the copy
	pass(true)
	now = now.Add(2 * time.Second)
	pass(true)
	if diff := cmp.Diff(wantNumbered(1, 9), got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if n := obs.get(CountCopyTails); n != 1 {
		t.Errorf("copy tails = %d, want 1", n)
	}
}

// TestTailerCopyRenamedIntoGlob covers a copy whose tail was read from
// outside the globs (the poll saw the truncation before the copy's name
// matched) and that then shows up under a matching name: it is not read
// again.
func TestTailerCopyRenamedIntoGlob(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	h := startTailer(t, Config{Paths: []string{p + "*"}, Format: FormatRaw})
	writeFile(t, p, numbered(1, 5))
	h.poll()
	appendFile(t, p, numbered(6, 7))
	copyFile(t, p, filepath.Join(dir, "app-copy.log"))
	mustTruncate(t, p)
	appendFile(t, p, numbered(8, 9))
	h.poll()
	mustRename(t, filepath.Join(dir, "app-copy.log"), p+".1")
	h.poll()
	appendFile(t, p, numbered(10, 10))
	h.poll()
	h.stop()
	if diff := cmp.Diff(wantNumbered(1, 10), h.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestTailerEmitErrorStops(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 3))
	tl, err := New(Config{Paths: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = tl.Run(context.Background(), func(context.Context, Line) error {
		n++
		return errStop
	})
	if !errors.Is(err, errStop) || n != 1 {
		t.Errorf("Run = %v after %d lines, want the emit error after 1", err, n)
	}
	if err := tl.Run(context.Background(), (&collector{}).emit); err == nil {
		t.Error("a second Run was accepted")
	}
}

// TestTailerKubeletRotation follows a CRI container log written in pieces
// and rotated the way kubelet does (rename to 0.log.<time>, new 0.log).
func TestTailerKubeletRotation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pods", "infer_sglang-0_uid", "server")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "0.log")
	const ts = "2026-11-29T10:00:00.000000001Z"
	h := startTailer(t, Config{Paths: []string{filepath.Join(dir, "*.log")}, Format: FormatCRI})
	writeFile(t, p, ts+" stderr P Traceback (most \n"+ts+" stdout F GET /health 200\n"+ts+" stderr F recent ca")
	h.poll()
	appendFile(t, p, "ll last):\n")
	h.poll()
	mustRename(t, p, p+".20261129-100000")
	writeFile(t, p, ts+" stderr F RuntimeError: boom\n")
	h.poll()
	h.advance(2 * time.Second)
	h.stop()
	type got struct{ Text, Stream, Path string }
	var lines []got
	for _, l := range h.got.all() {
		lines = append(lines, got{l.Text, l.Stream, filepath.Base(l.Path)})
	}
	want := []got{
		{"GET /health 200", "stdout", "0.log"},
		{"Traceback (most recent call last):", "stderr", "0.log"},
		{"RuntimeError: boom", "stderr", "0.log"},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// A tailer with Borrow delivers the same lines as one without, when each
// text is copied inside emit: across reads, a cut long line, CRI partial
// lines joined, an unterminated line completed by the next write, and
// more lines than the read buffer holds.
func TestTailerBorrowedLinesMatchCopies(t *testing.T) {
	const ts = "2026-11-29T10:00:00.123456789Z"
	read := func(borrow bool) []Line {
		dir := t.TempDir()
		p := filepath.Join(dir, "app.log")
		writeFile(t, p, ts+" stdout P a\n"+ts+" stdout F b\n"+ts+" stderr F "+strings.Repeat("x", 5000)+"\n"+ts+" stdout F par")
		h := startTailer(t, Config{Paths: []string{p}, Format: FormatAuto, MaxLineBytes: 1000, Borrow: borrow})
		h.got.clone = borrow
		h.poll()
		appendFile(t, p, "tial\n"+ts+" stdout F after\n")
		h.poll()
		// More than a read buffer, a poll at a time, so that the
		// reader's buffer is overwritten.
		for i := range 6 {
			appendFile(t, p, numbered(i*1000, i*1000+999))
			h.poll()
		}
		h.stop()
		return h.got.all()
	}
	want, got := read(false), read(true)
	if len(want) != 6004 {
		t.Fatalf("got %d lines without Borrow, want 6004", len(want))
	}
	type line struct {
		Text, Stream      string
		Offset, End, Next int64
		Truncated         bool
	}
	strip := func(ls []Line) []line {
		var out []line
		for _, l := range ls {
			out = append(out, line{l.Text, l.Stream, l.Offset, l.End, l.Next, l.Truncated})
		}
		return out
	}
	if diff := cmp.Diff(strip(want), strip(got)); diff != "" {
		t.Errorf("borrowed lines differ (-copied +borrowed):\n%s", diff)
	}
}

func TestRotatedName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"app.log.1", true},
		{"app.log-20260101", true},
		{"app-20260101.log", true},
		{"app.1.log", true},
		{"app_2.log", true},
		{"app.log", false},
		{"app-access.log", false},
		{"application.log", false},
		{"app", false},
		{"app.log.pos", false},
		{"app.log.bak", false},
		{"app.log.", false},
		{"app.log_2026-01-01", true},
	} {
		if got := rotatedName("app.log", tc.name); got != tc.want {
			t.Errorf("rotatedName(app.log, %s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTailerWriteAfterTruncationLook covers a writer that appends to a
// file found empty after a copytruncate between that look and the read
// of the same pass. Those lines are read once: when logrotate copies and
// truncates the file again before the next pass, the new copy holds
// lines already delivered and is not read as an unseen generation.
func TestTailerWriteAfterTruncationLook(t *testing.T) {
	for _, tc := range []struct {
		name string
		// emptyPass: one pass sees the truncated file empty before the
		// pass in whose read the write lands.
		emptyPass bool
	}{
		{"the write in the pass that finds the truncation", false},
		{"the write in a later pass that finds the file empty", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, numbered(1, 3))
			tl, err := New(Config{Paths: []string{p}, Format: FormatRaw, NoWatch: true})
			if err != nil {
				t.Fatal(err)
			}
			defer tl.closeAll()
			got := &collector{}
			now := time.Unix(1_000_000, 0)
			pass := func() {
				t.Helper()
				now = now.Add(10 * time.Millisecond)
				if _, err := tl.pass(context.Background(), now, true, got.emit); err != nil {
					t.Fatal(err)
				}
			}
			pass()
			copyFile(t, p, p+".1")
			mustTruncate(t, p)
			if tc.emptyPass {
				pass()
			}
			tl.beforeRead = func() {
				tl.beforeRead = nil
				appendFile(t, p, numbered(4, 6))
			}
			pass()
			tl.beforeRead = nil
			mustRename(t, p+".1", p+".2")
			copyFile(t, p, p+".1")
			mustTruncate(t, p)
			appendFile(t, p, numbered(7, 8))
			pass()
			pass()
			if diff := cmp.Diff(wantNumbered(1, 8), got.texts()); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// A checkpointed file moved into a rotated directory (logrotate's olddir)
// while the tailer was stopped is found there by its identity and read
// from its checkpoint, before the new file at its path.
func TestTailerResumeFindsTheFileInARotatedDir(t *testing.T) {
	dir := t.TempDir()
	logs, old := filepath.Join(dir, "logs"), filepath.Join(dir, "old")
	for _, d := range []string{logs, old} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(logs, "server.log")
	writeFile(t, p, "x1\nx2\n")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := fileKey(fi)
	head := []byte("x1\n")
	cp := Checkpoint{File: FileID{Dev: k.Dev, Ino: k.Ino, Size: len(head), Sum: fingerprint(head)}, Offset: 3}
	mustRename(t, p, filepath.Join(old, "server.log.1"))
	writeFile(t, p, "n1\n")
	for _, dirs := range [][]string{nil, {old}} {
		h := startTailer(t, Config{Paths: []string{filepath.Join(logs, "*.log")}, RotatedDirs: dirs, Positions: mapPositions{p: cp}})
		h.poll()
		h.stop()
		want := []string{"x2", "n1"}
		if dirs == nil {
			want = []string{"n1"} // not looked for there
		}
		if diff := cmp.Diff(want, h.got.texts()); diff != "" {
			t.Errorf("rotated dirs %v: lines (-want +got):\n%s", dirs, diff)
		}
	}
}

// A parked file renamed out of the globs (rotated while closed for a
// turn) is found next to its path by its identity and read on from where
// it was parked, then closed with its Gone notice.
func TestTailerParkedFileRotatedAwayIsDrained(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	writeFile(t, a, "a1\n")
	writeFile(t, b, "b1\n")
	h := startTailer(t, Config{Paths: []string{filepath.Join(dir, "*.log")}, MaxOpenFiles: 1})
	h.poll()
	h.advance(turnIdle) // a is parked for b
	h.poll()
	if c := h.tl.Coverage(); c.Parked != 1 {
		t.Fatalf("coverage = %+v, want a parked", c)
	}
	f, err := os.OpenFile(a, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("a2\n")
	f.Close()
	mustRename(t, a, a+".1")
	h.advance(time.Second) // found where it went, read on
	h.advance(time.Second) // RotateWait over: closed
	h.stop()
	if diff := cmp.Diff([]string{"a1", "b1", "a2"}, h.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if g := h.got.gone(); len(g) != 1 || g[0].Path != a+".1" || g[0].Next != 6 {
		t.Errorf("Gone notices = %+v, want one for the drained file at offset 6", g)
	}
}
