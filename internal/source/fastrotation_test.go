package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fastLines is how many numbered lines the fast-rotation writer writes:
// with 5 ms between lines and a rollover every 0.2 s that is about 6 s and
// 30 rollovers.
const fastLines = 1000

// TestRealFastRotation is the rename rotation faster than any poll:
// Python's RotatingFileHandler renames app.log away every 0.2 s while the
// tailer follows only the live name. Every line arrives once, in order,
// and no generation is counted lost.
func TestRealFastRotation(t *testing.T) {
	if testing.Short() {
		t.Skip("real writer tests take seconds")
	}
	for _, mode := range []string{"watch", "poll"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, "") // the handler appends to it; the tailer sees it from the start
			cfg := Config{Paths: []string{p}, Format: FormatRaw}
			if mode == "poll" {
				// Without the watch only a poll faster than the rotation
				// keeps up: this run shows the state machine, not the
				// wake-ups, loses nothing.
				cfg.NoWatch, cfg.PollInterval = true, 20*time.Millisecond
			}
			l := startLive(t, cfg)
			py := requirePython(t)
			cmd := exec.Command(py, "testdata/rotating_writer.py", p, strconv.Itoa(fastLines), "0.005", "0.2")
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("writer: %v", err)
			}
			rollovers, _ := strconv.Atoi(strings.TrimSpace(string(out)))
			waitFor(t, "the last line", func() bool {
				lines := l.got.all()
				return len(lines) > 0 && strings.HasSuffix(lines[len(lines)-1].Text, " "+strconv.Itoa(fastLines))
			})
			// Every rotated file is closed after RotateWait: its Gone
			// notice is the sign nothing more can come from it.
			waitUntil(func() bool { return len(l.got.gone()) >= rollovers })
			l.stop(t)
			got := numbersOf(t, l.got.texts())
			lost, dups := lostAndDuplicated(got, fastLines)
			t.Logf("%d rollovers, %d lines delivered, %d lost, %d duplicated, %d Gone notices", rollovers, len(got), lost, dups, len(l.got.gone()))
			if rollovers < 10 {
				t.Errorf("only %d rollovers: the writer did not rotate fast", rollovers)
			}
			if lost != 0 || dups != 0 || !slices.IsSorted(got) {
				t.Errorf("%d lost, %d duplicated, sorted %v; want every line once in order", lost, dups, slices.IsSorted(got))
			}
			if n := len(l.got.gone()); n != rollovers {
				var paths []string
				for _, g := range l.got.gone() {
					paths = append(paths, filepath.Base(g.Path)+"@"+strconv.FormatInt(g.Next, 10))
				}
				t.Errorf("%d Gone notices for %d rotated files: %v", n, rollovers, paths)
			}
			if n := l.obs.get(CountGenerationsLost); n != 0 {
				t.Errorf("generations lost = %d, want 0", n)
			}
			if disk := onDisk(t, p+"*"); !slices.Equal(disk, seq(1, fastLines)) {
				t.Errorf("the files on disk hold %d lines, want 1..%d", len(disk), fastLines)
			}
		})
	}
}

// lostAndDuplicated counts the numbers 1..n missing from got and the
// deliveries beyond the first of each.
func lostAndDuplicated(got []int, n int) (lost, dups int) {
	seen := make(map[int]int, len(got))
	for _, x := range got {
		seen[x]++
	}
	for i := 1; i <= n; i++ {
		switch c := seen[i]; {
		case c == 0:
			lost++
		case c > 1:
			dups += c - 1
		}
	}
	return lost, dups
}
