package source

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"
)

// logRecords is a slog.Handler that keeps the messages it gets.
type logRecords struct {
	mu   sync.Mutex
	msgs []string
}

func (h *logRecords) Enabled(context.Context, slog.Level) bool { return true }
func (h *logRecords) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *logRecords) WithGroup(string) slog.Handler            { return h }
func (h *logRecords) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, r.Message)
	return nil
}

// count is how many messages contain s.
func (h *logRecords) count(s string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, m := range h.msgs {
		if strings.Contains(m, s) {
			n++
		}
	}
	return n
}

// live runs a Tailer in real time, driven by the watch and its timers.
type live struct {
	got    *collector
	obs    *tally
	log    *logRecords
	cancel context.CancelFunc
	done   chan error
}

func startLive(t *testing.T, cfg Config) *live {
	t.Helper()
	return startLiveWith(t, cfg, nil)
}

// startLiveWith is startLive with setup run on the Tailer before Run.
func startLiveWith(t *testing.T, cfg Config, setup func(*Tailer)) *live {
	t.Helper()
	l := &live{got: &collector{}, obs: &tally{}, log: &logRecords{}, done: make(chan error, 1)}
	cfg.Observer = l.obs
	cfg.Logger = slog.New(l.log)
	tl, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(tl)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	go func() { l.done <- tl.Run(ctx, l.got.emit) }()
	t.Cleanup(func() { l.stop(t) })
	return l
}

func (l *live) stop(t *testing.T) {
	if l.cancel == nil {
		return
	}
	l.cancel()
	l.cancel = nil
	if err := <-l.done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// waitFor polls cond for up to 20 s: the condition, not the time, is what
// the test asserts.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !waitUntil(cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

// waitUntil polls cond for up to 20 s and reports whether it came true.
func waitUntil(cond func() bool) bool {
	for i := 0; i < 2000; i++ {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// never are poll periods long enough that only the watch can wake the
// tailer within a test.
const never = time.Hour

// TestWatchWakes follows a file with both polls an hour apart: every line,
// the rename out of the globs (into another directory), the late line
// through the open descriptor and the new file arrive by the watch alone.
func TestWatchWakes(t *testing.T) {
	dir := t.TempDir()
	away := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 2))
	l := startLive(t, Config{Paths: []string{p}, Format: FormatRaw, PollInterval: never, RescanInterval: never, RotateWait: 200 * time.Millisecond})
	waitFor(t, "the first lines", func() bool { return len(l.got.all()) == 2 })
	appendFile(t, p, numbered(3, 4))
	waitFor(t, "an appended line", func() bool { return len(l.got.all()) == 4 })

	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	mustRename(t, p, filepath.Join(away, "app.log.1")) // out of the watched directory
	if _, err := f.WriteString(numbered(5, 5)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	writeFile(t, p, numbered(6, 7))
	waitFor(t, "the new file", func() bool { return len(l.got.all()) == 7 })
	waitFor(t, "the Gone notice", func() bool { return len(l.got.gone()) == 1 })
	l.stop(t)
	if diff := cmp.Diff(wantNumbered(1, 7), l.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestWatchFallsBackToPolling globs a directory that does not exist at the
// start, so nothing can watch it: the poll finds the file once the
// directory appears.
func TestWatchFallsBackToPolling(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "later")
	p := filepath.Join(dir, "app.log")
	l := startLive(t, Config{Paths: []string{p}, Format: FormatRaw, PollInterval: 20 * time.Millisecond, RescanInterval: never})
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, numbered(1, 3))
	waitFor(t, "the file in the new directory", func() bool { return len(l.got.all()) == 3 })
	// The directory is watched from now on: with the poll out of the way
	// too, an appended line still arrives.
	appendFile(t, p, numbered(4, 4))
	waitFor(t, "an appended line", func() bool { return len(l.got.all()) == 4 })
}

// TestNoWatchPolls turns the watch off: polling alone follows the file.
func TestNoWatchPolls(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 2))
	l := startLive(t, Config{Paths: []string{p}, Format: FormatRaw, NoWatch: true, PollInterval: 10 * time.Millisecond, RescanInterval: never})
	waitFor(t, "the first lines", func() bool { return len(l.got.all()) == 2 })
	mustRename(t, p, p+".1")
	writeFile(t, p, numbered(3, 4))
	waitFor(t, "the new file", func() bool { return len(l.got.all()) == 4 })
	if diff := cmp.Diff(wantNumbered(1, 4), l.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestWatchDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"pods/a_p1_u1/c", "pods/b_p2_u2/c", "pods/file"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(root, "pods", "plain"), "")
	tl, err := New(Config{Paths: []string{filepath.Join(root, "pods", "*", "*", "*.log"), filepath.Join(root, "app.log")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range tl.watchDirs() {
		got = append(got, strings.TrimPrefix(d, root))
	}
	want := []string{"", "/pods", "/pods/a_p1_u1", "/pods/a_p1_u1/c", "/pods/b_p2_u2", "/pods/b_p2_u2/c", "/pods/file"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("watched directories (-want +got):\n%s", diff)
	}
}

// TestWatchFollowsLinkTargets follows kubelet's layout, a link in
// containers/ to the log in pods/: the writes and the rotation happen in
// the target's directory, which the watch covers too.
func TestWatchFollowsLinkTargets(t *testing.T) {
	root := t.TempDir()
	pods := filepath.Join(root, "pods", "infer_sglang-0_uid", "server")
	containers := filepath.Join(root, "containers")
	for _, d := range []string{pods, containers} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(pods, "0.log")
	writeFile(t, target, numbered(1, 2))
	link := filepath.Join(containers, "sglang-0_infer_server-0abc.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	l := startLive(t, Config{
		Paths: []string{filepath.Join(containers, "*.log")}, Format: FormatRaw,
		SymlinkRoots: []string{filepath.Join(root, "pods")},
		PollInterval: never, RescanInterval: never, RotateWait: 100 * time.Millisecond,
	})
	waitFor(t, "the first lines", func() bool { return len(l.got.all()) == 2 })
	appendFile(t, target, numbered(3, 3))
	waitFor(t, "a line written through the target", func() bool { return len(l.got.all()) == 3 })
	mustRename(t, target, target+".20261129-100000") // kubelet's rotation
	writeFile(t, target, numbered(4, 5))
	waitFor(t, "the rotated target's successor", func() bool { return len(l.got.all()) == 5 })
	l.stop(t)
	if diff := cmp.Diff(wantNumbered(1, 5), l.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if n := l.obs.get(CountSymlinksRefused); n != 0 {
		t.Errorf("symlinks refused = %d, want 0", n)
	}
}

// TestWatchSteadyFlowThenQuiet follows a file by the watch alone (polls an
// hour apart) while a line is appended every millisecond or two, so the
// tailer reads in passes a gap apart and takes the events of each gap
// after it; then, after the flow stops and a quiet spell, one more line
// must still wake it.
func TestWatchSteadyFlowThenQuiet(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 1))
	l := startLive(t, Config{Paths: []string{p}, Format: FormatRaw, PollInterval: never, RescanInterval: never})
	waitFor(t, "the first line", func() bool { return len(l.got.all()) == 1 })
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const flow = 300
	for i := 2; i <= flow; i++ {
		if _, err := f.WriteString(numbered(i, i)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(1+i%2) * time.Millisecond)
	}
	waitFor(t, "the lines of the flow", func() bool { return len(l.got.all()) == flow })
	time.Sleep(3 * minPassGap) // the flow is over: the tailer waits for events again
	if _, err := f.WriteString(numbered(flow+1, flow+1)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the line after the quiet spell", func() bool { return len(l.got.all()) == flow+1 })
	l.stop(t)
	if diff := cmp.Diff(wantNumbered(1, flow+1), l.got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestWatchFollowsAFileRenamedAwayBeforeItWasOpened: a writer that
// recreates its log at once after a rotation, then logrotate moving that
// new file aside because its own "create" found the name taken, leave a
// file that was at the followed name only between two looks. Its event
// names where it went; it is read there, so its line is not lost.
func TestWatchFollowsAFileRenamedAwayBeforeItWasOpened(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 1))
	got := &collector{}
	held, hold := make(chan struct{}), make(chan struct{})
	var once sync.Once
	emit := func(ctx context.Context, l Line) error {
		// The first line holds the tailer inside its first pass, with
		// the watch already up, while the files change under it.
		once.Do(func() { close(held); <-hold })
		return got.emit(ctx, l)
	}
	tl, err := New(Config{Paths: []string{p}, Format: FormatRaw, PollInterval: never, RescanInterval: never, RotateWait: 200 * time.Millisecond, Observer: &tally{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tl.Run(ctx, emit) }()
	<-held
	mustRename(t, p, p+".1")
	writeFile(t, p, numbered(2, 2)) // the writer's new file
	mustRename(t, p, filepath.Join(dir, "app.log-20261203.backup"))
	writeFile(t, p, numbered(3, 3)) // logrotate's
	close(hold)
	waitUntil(func() bool { return len(got.all()) >= 3 })
	time.Sleep(300 * time.Millisecond) // a repeat would show
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	texts := got.texts()
	slices.Sort(texts)
	if diff := cmp.Diff(wantNumbered(1, 3), texts); diff != "" {
		t.Errorf("lines, sorted (-want +got):\n%s", diff)
	}
}

// TestTailerRenamedAwayBeforeOpenComesFirst covers a writer that
// recreates its log after a rotation and logrotate that then moves that
// file aside (app.log-<date>.backup) to create its own. The events are
// taken before a scan saw the rotation: the moved file, opened from its
// rename's event, is read after the rotated file and before the file
// that holds the name now, although that one was opened first.
func TestTailerRenamedAwayBeforeOpenComesFirst(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	backup := p + "-2026120317.backup"
	writeFile(t, p, numbered(1, 2))
	tl, err := New(Config{Paths: []string{p}, Format: FormatRaw, NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tl.closeAll()
	got := &collector{}
	now := time.Unix(1_000_000, 0)
	pass := func(d time.Duration) {
		t.Helper()
		now = now.Add(d)
		if _, err := tl.pass(context.Background(), now, true, got.emit); err != nil {
			t.Fatal(err)
		}
	}
	pass(0)

	w, err := fsnotify.NewBufferedWatcher(64)
	if err != nil {
		t.Skipf("no file-system watch: %v", err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Skipf("watch %s: %v", dir, err)
	}
	mustRename(t, p, p+".1")              // logrotate
	appendFile(t, p+".1", numbered(3, 3)) // the writer's last line there
	writeFile(t, p, numbered(4, 4))       // the writer recreates its log
	mustRename(t, p, backup)              // logrotate moves it aside
	writeFile(t, p, numbered(5, 6))       // and creates its own
	var events []fsnotify.Event
	for len(events) == 0 || events[len(events)-1].Name != p || !events[len(events)-1].Has(fsnotify.Create) || len(events) < 4 {
		select {
		case ev := <-w.Events:
			if ev.Has(fsnotify.Create) {
				events = append(events, ev)
			}
		case err := <-w.Errors:
			t.Fatal(err)
		case <-time.After(10 * time.Second):
			t.Fatalf("create events: got %v", events)
		}
	}
	if renamedFrom(events[2]) != p {
		t.Skipf("the watch does not say where %s came from: %v", backup, events)
	}
	for _, ev := range events {
		tl.noteEvent(ev)
	}
	pass(10 * time.Millisecond)
	pass(2 * time.Second) // past RotateWait
	pass(10 * time.Millisecond)
	pass(2 * time.Second)
	if diff := cmp.Diff(wantNumbered(1, 6), got.texts()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestWatchPollsRemoteDirectories checks that a directory the watch may not
// hear of (a network or FUSE file system) is still watched, for the writes
// this machine makes, but leaves the watch incomplete, so that the tailer
// polls it every PollInterval rather than once per RescanInterval; and that
// it is logged once.
func TestWatchPollsRemoteDirectories(t *testing.T) {
	local, remote := t.TempDir(), t.TempDir()
	rec := &logRecords{}
	w := newWatch(slog.New(rec))
	if w == nil {
		t.Skip("no file-system watch on this machine")
	}
	defer w.close()
	w.reach = func(d string) bool { return d != remote }

	w.sync([]string{local})
	if !w.complete() {
		t.Fatal("a local directory alone leaves the watch incomplete")
	}
	w.sync([]string{local, remote})
	if w.complete() {
		t.Error("a directory on a network file system counts as covered by the watch")
	}
	if !slices.Contains(w.w.WatchList(), remote) {
		t.Error("the network directory is not watched at all; its local writes would wait for a poll")
	}
	w.sync([]string{local, remote})
	if n := rec.count("network or FUSE"); n != 1 {
		t.Errorf("the network directory was logged %d times, want once", n)
	}
	w.sync([]string{local})
	if !w.complete() {
		t.Error("the watch stays incomplete after the network directory is no longer wanted")
	}
}

// TestRemoteDirectoryIsPolled runs a tailer whose file lies in a directory
// the watch may not hear of, with the safety-net rescan an hour away: once
// the file is read and nothing changes, passes must still come, every
// PollInterval, which is how a change made by another machine is found.
// Without the distinction the quiet tailer would make no pass for an hour.
func TestRemoteDirectoryIsPolled(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, numbered(1, 3))
	var passes atomic.Int64
	l := startLiveWith(t, Config{Paths: []string{p}, Format: FormatRaw, PollInterval: 20 * time.Millisecond, RescanInterval: never},
		func(tl *Tailer) {
			tl.reach = func(string) bool { return false }
			tl.afterPoll = func() { passes.Add(1) }
		})
	waitFor(t, "the file in the network directory", func() bool { return len(l.got.all()) == 3 })
	if l.log.count("file-system watch unavailable") > 0 {
		t.Skip("no file-system watch on this machine")
	}
	quiet := passes.Load()
	waitFor(t, "passes of the poll while nothing is written", func() bool { return passes.Load() >= quiet+5 })
	if n := l.log.count("network or FUSE"); n != 1 {
		t.Errorf("the network directory was logged %d times, want once", n)
	}
}
