package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nxadm/tail"
)

// TestEvaluateNxadmTail runs the rotation guarantees of this package against
// github.com/nxadm/tail v1.4.11, the library the product brief named, to
// record why the Tailer does not use it (see doc.go). It is an evaluation,
// not a regression test: it only runs with LOGMATCH_EVAL_NXADM=1, and it
// fails where the library loses or repeats lines.
func TestEvaluateNxadmTail(t *testing.T) {
	if os.Getenv("LOGMATCH_EVAL_NXADM") != "1" {
		t.Skip("set LOGMATCH_EVAL_NXADM=1 to evaluate github.com/nxadm/tail")
	}
	for _, poll := range []bool{true, false} {
		mode := "inotify"
		if poll {
			mode = "polling"
		}
		t.Run("rename without pause/"+mode, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			wait := startWriter(t, p, "watched")
			got := drive(t, nxadmRun(p, poll), wait, func(n int) {
				if err := os.Rename(p, p+"."+itoa(n)); err != nil && !os.IsNotExist(err) {
					t.Error(err)
				}
			})
			report(t, got, seq(1, realLines))
		})
		t.Run("logrotate copytruncate/"+mode, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			wait := startWriter(t, p, "plain")
			got := drive(t, nxadmRun(p, poll), wait, func(int) { logrotate(t, p, "copytruncate") })
			report(t, got, onDisk(t, filepath.Join(dir, "app.log*")))
		})
		t.Run("truncate twice/"+mode, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "app.log")
			writeFile(t, p, numbered(1, 3))
			ctx, cancel := context.WithCancel(context.Background())
			got := &collector{}
			done := make(chan error, 1)
			go func() { done <- nxadmRun(p, poll)(ctx, got.emit) }()
			settle := func(n int) { // wait up to 3 s for n lines
				for i := 0; i < 300 && len(got.all()) < n; i++ {
					time.Sleep(10 * time.Millisecond)
				}
			}
			settle(3)
			mustTruncate(t, p)
			appendFile(t, p, numbered(4, 5))
			settle(5)
			mustTruncate(t, p)
			appendFile(t, p, numbered(6, 6))
			settle(6)
			time.Sleep(300 * time.Millisecond)
			cancel()
			<-done
			report(t, numbersOf(t, got.texts()), seq(1, 6))
		})
	}
}

// nxadmRun follows path with nxadm/tail configured for rotation.
func nxadmRun(path string, poll bool) func(context.Context, Emit) error {
	return func(ctx context.Context, emit Emit) error {
		tf, err := tail.TailFile(path, tail.Config{Follow: true, ReOpen: true, Poll: poll, Logger: tail.DiscardingLogger})
		if err != nil {
			return err
		}
		defer tf.Cleanup()
		for {
			select {
			case <-ctx.Done():
				return tf.Stop()
			case l, ok := <-tf.Lines:
				if !ok {
					return tf.Err()
				}
				var line Line
				line.Text = strings.TrimSuffix(l.Text, "\r")
				_ = emit(ctx, line)
			}
		}
	}
}

// report fails with the lines lost (of want) and repeated.
func report(t *testing.T, got, want []int) {
	t.Helper()
	seen := map[int]int{}
	for _, n := range got {
		seen[n]++
	}
	var lost, repeated []int
	for _, n := range want {
		if seen[n] == 0 {
			lost = append(lost, n)
		}
	}
	for n, c := range seen {
		if c > 1 {
			repeated = append(repeated, n)
		}
	}
	slices.Sort(repeated)
	t.Logf("delivered %d lines; %d of %d wanted lost, %d repeated", len(got), len(lost), len(want), len(repeated))
	if len(lost) > 0 || len(repeated) > 0 {
		t.Errorf("lost %v; repeated %v", head(lost), head(repeated))
	}
}

func head(s []int) []int {
	if len(s) > 20 {
		return s[:20]
	}
	return s
}
